//! lagrange for Python: the extension module `lagrange_dynamics._native`, which the
//! package `lagrange_dynamics` (`python/lagrange_dynamics/`) re-exports.
//!
//! A model is read from a model file, its text or a URDF by the command's own reader
//! (`lagrange_loaded::file`), derived by the engine (or read from the user's cache) and
//! run as a `lagrange_loaded::Loaded` system: the same syntax, the same errors, the same
//! bits as `lagrange simulate`. NumPy arrays go in and out; a 2-D array of states is a
//! batch, evaluated by the runtime's `Batch` with the interpreter's lock released. A model
//! is pickled as its file and its derivation, so that another process (a Dask worker) runs
//! it without the engine.

use pyo3::prelude::*;

mod analysis;
mod arrays;
mod connect;
mod model;
mod run;

pyo3::create_exception!(
    lagrange_dynamics,
    LagrangeError,
    pyo3::exceptions::PyValueError,
    "A model that cannot be read, derived or evaluated; the message names the file, line and item."
);

/// What symbolica's license asks a product that bundles it to say.
const RUNTIME_RIGHTS: &str = "lagrange_dynamics bundles symbolica (https://symbolica.io), whose \
license (symbolica-License.md among this package's license files) governs each use of it: \
deriving a model runs symbolica, and each user needs symbolica's free-use qualification or a \
license. Runtime rights to symbolica are not included in or transferred by this package. \
Without a license key (SYMBOLICA_LICENSE), symbolica runs in restricted mode, and one \
derivation runs at a time per user.";

/// The module.
#[pymodule]
#[pyo3(name = "_native")]
fn native(module: &Bound<'_, PyModule>) -> PyResult<()> {
    module.add_class::<model::Model>()?;
    module.add_class::<run::Report>()?;
    module.add_function(wrap_pyfunction!(model::load, module)?)?;
    module.add_function(wrap_pyfunction!(model::loads, module)?)?;
    module.add_function(wrap_pyfunction!(model::load_urdf, module)?)?;
    module.add_function(wrap_pyfunction!(model::restored, module)?)?;
    module.add("LagrangeError", module.py().get_type::<LagrangeError>())?;
    module.add("RUNTIME_RIGHTS", RUNTIME_RIGHTS)?;
    module.add("__version__", env!("CARGO_PKG_VERSION"))?;
    Ok(())
}
