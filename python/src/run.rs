//! `Model.simulate`: a run with the file's `[simulation]` settings under the caller's, as
//! `lagrange simulate` makes it, returned as arrays.

use lagrange_core::Simulation;
use lagrange_loaded::file::{Overrides, Settings};
use nalgebra::DVector;
use numpy::ndarray::Array2;
use numpy::{IntoPyArray, PyArray1};
use pyo3::prelude::*;
use pyo3::types::PyDict;

use crate::model::{Model, error};

/// The rows of `rows` (each of `n` values) as an `(m, n)` array.
fn matrix<'py>(py: Python<'py>, rows: &[DVector<f64>], n: usize) -> PyResult<Bound<'py, PyAny>> {
    let data: Vec<f64> = rows.iter().flat_map(|r| r.iter().copied()).collect();
    let array = Array2::from_shape_vec((rows.len(), n), data)
        .map_err(|e| pyo3::exceptions::PyValueError::new_err(e.to_string()))?;
    Ok(array.into_pyarray(py).into_any())
}

#[pymethods]
impl Model {
    /// Integrates from `(q0, qd0)` at `t_start` to `t_end`; each argument left `None` is the
    /// file's (`[initial]`, `[simulation]`; zero velocities when `q0` alone is given).
    /// `integrator` is `"dp54"` (the default), `"rk4"`, `"gauss-legendre"` (`-1`, `-2`,
    /// `-3`) or `"variational"`; `dt` is the step of a fixed-step integrator and the output
    /// interval of `dp54`. Returns a dict: `t` `(k,)`, `q` and `qd` `(k, n)`, and
    /// `invariants`, each conserved quantity's values `(k,)` by name.
    #[pyo3(signature = (t_end = None, q0 = None, qd0 = None, *, t_start = None, integrator = None, dt = None, tolerance = None))]
    #[allow(clippy::too_many_arguments)]
    fn simulate<'py>(
        &self,
        py: Python<'py>,
        t_end: Option<f64>,
        q0: Option<Vec<f64>>,
        qd0: Option<Vec<f64>>,
        t_start: Option<f64>,
        integrator: Option<String>,
        dt: Option<f64>,
        tolerance: Option<f64>,
    ) -> PyResult<Bound<'py, PyDict>> {
        let file = &self.file;
        if !file.input_signals().map_err(error)?.is_empty()
            || !file.events().map_err(error)?.is_empty()
        {
            return Err(error(format!(
                "{}: this file's [inputs] signals and [[events]] are run by `lagrange simulate`; `simulate` here runs the model without them, so it refuses the file rather than ignore them",
                file.path.display()
            )));
        }
        let overrides = Overrides {
            t_start,
            t_end,
            integrator,
            dt,
            tolerance,
            fine_output: false,
        };
        let settings = Settings::resolve(&overrides, file).map_err(error)?;
        let n = file.model.coordinates.len();
        let (q0, qd0) = match (q0, qd0) {
            (Some(q0), qd0) => {
                let qd0 = qd0.unwrap_or_else(|| vec![0.0; n]);
                (q0, qd0)
            }
            (None, qd0) => {
                let (q, qd) = file.initial_state().map_err(error)?;
                (q, qd0.unwrap_or(qd))
            }
        };
        for (name, v) in [("q0", &q0), ("qd0", &qd0)] {
            if v.len() != n {
                return Err(error(format!(
                    "{name} has {} values: the model has {n} coordinates",
                    v.len()
                )));
            }
        }
        let trajectory = py
            .detach(|| {
                let simulation = Simulation::new(&self.system).integrator(settings.integrator());
                let simulation = match settings.output_interval() {
                    Some(dt) => simulation.output_interval(dt),
                    None => simulation,
                };
                simulation.run(
                    settings.t0,
                    DVector::from_vec(q0),
                    DVector::from_vec(qd0),
                    settings.t_end,
                )
            })
            .map_err(error)?;
        let dict = PyDict::new(py);
        dict.set_item("t", PyArray1::from_slice(py, trajectory.times()))?;
        dict.set_item("q", matrix(py, trajectory.q(), n)?)?;
        dict.set_item("qd", matrix(py, trajectory.qd(), n)?)?;
        let invariants = PyDict::new(py);
        for invariant in trajectory.invariants() {
            invariants.set_item(&invariant.name, PyArray1::from_slice(py, &invariant.values))?;
        }
        dict.set_item("invariants", invariants)?;
        Ok(dict)
    }
}
