//! `Model`: a model file read, derived and loaded, with its facts and its values.

use std::collections::BTreeMap;
use std::fmt::Display;
use std::path::{Path, PathBuf};
use std::sync::Arc;

use lagrange_core::{Conserved, LagrangianSystem};
use lagrange_loaded::derivation;
use lagrange_loaded::file::{ModelFile, import_urdf};
use lagrange_loaded::{LoadError, Loaded};
use lagrange_symbolic::equations::Derived;
use lagrange_symbolic::source::{self, urdf};
use lagrange_symbolic::store;
use lagrange_symbolic::syntax::print::{self, escape_text};
use nalgebra::DVector;
use pyo3::prelude::*;
use pyo3::types::PyDict;

use crate::LagrangeError;

/// Where a caller's parameter values are given, as messages name it.
const GIVEN: &str = "values=";

/// A model's error as a Python exception.
pub(crate) fn error(e: impl Display) -> PyErr {
    LagrangeError::new_err(e.to_string())
}

/// A model derived and loaded: its equations, facts and parameter values, evaluated at
/// states (one, or a batch as rows of a 2-D array), linearized and integrated. Made by `load`, `loads`
/// or `load_urdf`; immutable (`with_values` makes another).
#[pyclass(frozen, module = "lagrange_dynamics")]
pub(crate) struct Model {
    /// The file it was read from, for its checks of values, its initial state and its
    /// `[simulation]` table.
    pub(crate) file: Arc<ModelFile>,
    /// Its derivation (which a pickled model carries), Routh's reduced model with it.
    pub(crate) derived: Arc<Derived>,
    /// The loaded system at the model's parameter values.
    pub(crate) system: Loaded,
}

/// Derives `file` (or reads its derivation from the user's cache) without the interpreter's
/// lock, and loads it at its values with `given` in their place.
fn open(py: Python<'_>, file: ModelFile, given: Option<BTreeMap<String, f64>>) -> PyResult<Model> {
    let given = given.unwrap_or_default();
    py.detach(|| {
        let values = file.parameter_values_given(&given, GIVEN)?;
        let derived = file.derive()?;
        Model::new(file, derived, &values)
    })
    .map_err(error)
}

impl Model {
    /// The number of coordinates.
    pub(crate) fn size(&self) -> usize {
        self.file.model.coordinates.len()
    }

    /// `values` as a vector of the model's coordinates, refused unless there is one per
    /// coordinate; `name` is the argument's.
    pub(crate) fn vector(&self, values: Vec<f64>, name: &str) -> PyResult<DVector<f64>> {
        let n = self.size();
        if values.len() != n {
            return Err(error(format!(
                "{name} has {} values: the model has {n} coordinates",
                values.len()
            )));
        }
        Ok(DVector::from_vec(values))
    }

    /// `file` loaded from its `derived` equations at `values`.
    fn new(file: ModelFile, derived: Derived, values: &[f64]) -> Result<Model, LoadError> {
        let system = Loaded::new(&derived.full, values)?;
        Ok(Model {
            file: Arc::new(file),
            derived: Arc::new(derived),
            system,
        })
    }
}

/// A model sent to another process (`Model._shipped`): its file's name and text, its
/// derivation as a store entry's text, and its parameter values. Rebuilt without the
/// engine; the entry and the values are checked as a stored entry and `values=` are.
#[pyfunction]
pub(crate) fn restored(
    py: Python<'_>,
    path: PathBuf,
    text: String,
    entry: String,
    values: Vec<f64>,
) -> PyResult<Model> {
    py.detach(|| {
        let file = ModelFile::parse(&path, text)?;
        let derived = store::parse_entry(&entry, &file.model, path.clone())
            .map_err(|e| LoadError(format!("a shipped model's derivation: {e}")))?;
        let parameters = &file.model.parameters;
        if values.len() != parameters.len() {
            return Err(LoadError(format!(
                "{} values for the {} parameters of `{}`",
                values.len(),
                parameters.len(),
                file.model.name
            )));
        }
        let given = parameters
            .iter()
            .cloned()
            .zip(values)
            .filter(|(name, _)| !file.driven(name))
            .collect();
        let values = file.parameter_values_given(&given, GIVEN)?;
        Model::new(file, derived, &values)
    })
    .map_err(error)
}

/// Reads the model file at `path`, derives it and loads it at its `[values]`, with
/// `values` (a dict by parameter name) in their place.
#[pyfunction]
#[pyo3(signature = (path, values = None))]
pub(crate) fn load(
    py: Python<'_>,
    path: PathBuf,
    values: Option<BTreeMap<String, f64>>,
) -> PyResult<Model> {
    let file = ModelFile::load(&path).map_err(error)?;
    open(py, file, values)
}

/// A model file's `text`, read as `load` reads a file (`name` is the file name its messages
/// give, and names a model without `name`).
#[pyfunction]
#[pyo3(signature = (text, values = None, name = "model.toml"))]
pub(crate) fn loads(
    py: Python<'_>,
    text: String,
    values: Option<BTreeMap<String, f64>>,
    name: &str,
) -> PyResult<Model> {
    let file = ModelFile::parse(Path::new(name), text).map_err(error)?;
    open(py, file, values)
}

/// The robot of the URDF at `path` as `lagrange import` writes it (gravity `g = 9.81` along
/// −z, every joint at 0; `fixed_joint_merge` folds fixed links into their parents,
/// `actuated` drives every joint by an input `tau_<joint>`), derived and loaded.
#[pyfunction]
#[pyo3(signature = (path, values = None, fixed_joint_merge = false, actuated = false))]
pub(crate) fn load_urdf(
    py: Python<'_>,
    path: PathBuf,
    values: Option<BTreeMap<String, f64>>,
    fixed_joint_merge: bool,
    actuated: bool,
) -> PyResult<Model> {
    let shown = escape_text(&path.display().to_string());
    let text = source::read_file(&path).map_err(error)?;
    let options = urdf::Options {
        merge_fixed: fixed_joint_merge,
        actuated,
    };
    let imported = import_urdf(&text, options).map_err(|e| error(format!("{shown}: {e}")))?;
    // Its messages name the URDF, and say that their lines are the imported file's.
    let name = format!("{} (imported)", path.display());
    let file = ModelFile::parse(Path::new(&name), imported.text).map_err(error)?;
    open(py, file, values)
}

#[pymethods]
impl Model {
    /// The model's name.
    #[getter]
    fn name(&self) -> String {
        self.system.info().name.to_string()
    }

    /// The generalized coordinates, in the order of `q`.
    #[getter]
    fn coordinates(&self) -> Vec<String> {
        self.file.model.coordinates.clone()
    }

    /// The parameters, in the order of `values`.
    #[getter]
    fn parameters(&self) -> Vec<String> {
        self.file.model.parameters.clone()
    }

    /// The parameter values by name.
    #[getter]
    fn values(&self) -> BTreeMap<String, f64> {
        self.file
            .model
            .parameters
            .iter()
            .cloned()
            .zip(self.system.parameter_values())
            .collect()
    }

    /// The same model at other parameter values, given by name (the others keep theirs),
    /// checked as `[values]` is: finite, and making no mass or inertia unphysical.
    #[pyo3(signature = (**values))]
    fn with_values(
        &self,
        py: Python<'_>,
        values: Option<BTreeMap<String, f64>>,
    ) -> PyResult<Model> {
        // The model's values but those of the inputs its file drives by signals.
        let mut all = self.values();
        all.retain(|name, _| !self.file.driven(name));
        all.extend(values.unwrap_or_default());
        let ordered = self
            .file
            .parameter_values_given(&all, GIVEN)
            .map_err(error)?;
        let system = py
            .detach(|| self.system.with_parameter_values(&ordered))
            .map_err(error)?;
        Ok(Model {
            file: Arc::clone(&self.file),
            derived: Arc::clone(&self.derived),
            system,
        })
    }

    /// What the model is pickled as (`restored` takes it back): its file's name and text,
    /// its derivation as a store entry, its parameter values.
    fn _shipped(&self) -> PyResult<(PathBuf, String, String, Vec<f64>)> {
        let entry = store::entry_text(&self.file.model, &self.derived).map_err(error)?;
        Ok((
            self.file.path.clone(),
            self.file.text().to_string(),
            entry,
            self.system.parameter_values(),
        ))
    }

    /// The initial state `(q0, q̇0)` of the file's `[initial]` table, as lists.
    #[getter]
    fn initial(&self) -> PyResult<(Vec<f64>, Vec<f64>)> {
        self.file.initial_state().map_err(error)
    }

    /// The Euler–Lagrange equations as plain text, one line per coordinate.
    #[getter]
    fn equations(&self) -> String {
        self.system.info().equations_text.to_string()
    }

    /// The Euler–Lagrange equations as LaTeX: an `align`-ready body, one row per coordinate.
    #[getter]
    fn latex(&self) -> String {
        self.system.info().equations_latex.to_string()
    }

    /// Routh's reduced system where the model ignores coordinates (`ignore = [...]`),
    /// else `None`: a dict of `ignored` (the ignored coordinates), `coordinates` (the
    /// retained ones), `momenta` (the parameters that are the ignored coordinates'
    /// constant momenta), `routhian` (`R`, as text), `equations` (text) and `latex` (an
    /// `align`-ready body). `simulate(reduced=True)` integrates it.
    #[getter]
    fn reduced<'py>(&self, py: Python<'py>) -> PyResult<Option<Bound<'py, PyDict>>> {
        let Some(reduced) = &self.derived.reduced else {
            return Ok(None);
        };
        let equations = &reduced.equations;
        let dict = PyDict::new(py);
        dict.set_item("ignored", reduced.ignored.clone())?;
        dict.set_item("coordinates", equations.coordinates.clone())?;
        let momenta = &equations.parameters[self.file.model.parameters.len()..];
        dict.set_item("momenta", momenta.to_vec())?;
        dict.set_item("routhian", print::text(&reduced.routhian))?;
        dict.set_item("equations", equations.text())?;
        dict.set_item("latex", equations.latex())?;
        Ok(Some(dict))
    }

    /// The whole derivation as `lagrange derive` prints it: the equations of motion, the
    /// conserved integral, the cyclic coordinates, the constraints, the general theorems,
    /// and Routh's reduced system where the model ignores coordinates.
    #[getter]
    fn derivation(&self) -> String {
        derivation::text::document(&self.derived)
    }

    /// The derivation as a LaTeX document, as `lagrange derive --format latex` writes it.
    fn derivation_latex(&self) -> PyResult<String> {
        derivation::latex::document(&self.file, &self.derived).map_err(error)
    }

    /// The equations as a notebook shows them.
    fn _repr_latex_(&self) -> String {
        format!("$$\\begin{{aligned}}{}\\end{{aligned}}$$", self.latex())
    }

    fn __repr__(&self) -> String {
        format!(
            "<lagrange_dynamics.Model {:?}: coordinates {:?}>",
            self.name(),
            self.coordinates()
        )
    }

    /// What the derivation found: the conserved integral (`"energy"`, `"jacobi_integral"`
    /// or `None`), the cyclic coordinates, the inputs, the number of constraints, whether
    /// forces or dissipation act, and whether the derivatives of the accelerations were
    /// derived.
    #[getter]
    fn info<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        let info = self.system.info();
        let names = |indices: &[usize]| -> Vec<String> {
            indices
                .iter()
                .map(|&i| info.coordinates[i].to_string())
                .collect()
        };
        let dict = PyDict::new(py);
        let conserved = match info.conserved {
            Conserved::Energy => Some("energy"),
            Conserved::JacobiIntegral => Some("jacobi_integral"),
            Conserved::None => None,
        };
        dict.set_item("conserved", conserved)?;
        dict.set_item("cyclic", names(&info.cyclic))?;
        let inputs: Vec<String> = info
            .inputs
            .iter()
            .map(|&i| info.parameters[i].to_string())
            .collect();
        dict.set_item("inputs", inputs)?;
        dict.set_item("constraints", info.constraints.len())?;
        dict.set_item("forced_or_dissipative", info.forced_or_dissipative)?;
        dict.set_item("derivatives", !info.omitted.derivatives)?;
        Ok(dict)
    }
}
