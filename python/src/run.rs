//! `Model.simulate` and `Model.report`: a run with the file's `[simulation]` settings under
//! the caller's, as `lagrange simulate` and `lagrange report` make it, returned as arrays or
//! as the HTML report.

use lagrange_core::{HtmlReport, Simulation, Trajectory};
use lagrange_loaded::file::{Overrides, Settings};
use nalgebra::{DVector, Dyn};
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

/// A run's report: the page `lagrange report` writes, shown inline by a notebook.
#[pyclass(frozen, module = "lagrange_dynamics")]
pub(crate) struct Report {
    /// The self-contained HTML page.
    #[pyo3(get)]
    html: String,
}

#[pymethods]
impl Report {
    /// The page, as a notebook shows it.
    fn _repr_html_(&self) -> String {
        self.html.clone()
    }

    /// Writes the page to `path`.
    fn save(&self, path: std::path::PathBuf) -> PyResult<()> {
        std::fs::write(&path, &self.html)
            .map_err(|e| error(format!("cannot write `{}`: {e}", path.display())))
    }

    fn __repr__(&self) -> String {
        format!("<lagrange_dynamics.Report: {} bytes of HTML>", self.html.len())
    }
}

impl Model {
    /// The run the settings describe from `(q0, q̇0)` (the file's initial state where not
    /// given; zero velocities when `q0` alone is), without the interpreter's lock.
    fn run(
        &self,
        py: Python<'_>,
        overrides: &Overrides,
        (q0, qd0): (Option<Vec<f64>>, Option<Vec<f64>>),
        record_action: bool,
    ) -> PyResult<Trajectory<Dyn>> {
        let file = &self.file;
        if !file.input_signals().map_err(error)?.is_empty()
            || !file.events().map_err(error)?.is_empty()
        {
            return Err(error(format!(
                "{}: this file's [inputs] signals and [[events]] are run by `lagrange simulate`; the Python package runs the model without them, so it refuses the file rather than ignore them",
                file.path.display()
            )));
        }
        let settings = Settings::resolve(overrides, file).map_err(error)?;
        let n = file.model.coordinates.len();
        let (q0, qd0) = match (q0, qd0) {
            (Some(q0), qd0) => (q0, qd0.unwrap_or_else(|| vec![0.0; n])),
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
        py.detach(|| {
            let mut simulation = Simulation::new(&self.system).integrator(settings.integrator());
            if record_action {
                simulation = simulation.record_action();
            }
            if let Some(dt) = settings.output_interval() {
                simulation = simulation.output_interval(dt);
            }
            simulation.run(
                settings.t0,
                DVector::from_vec(q0),
                DVector::from_vec(qd0),
                settings.t_end,
            )
        })
        .map_err(error)
    }
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
        let overrides = Overrides {
            t_start,
            t_end,
            integrator,
            dt,
            tolerance,
            fine_output: false,
        };
        let trajectory = self.run(py, &overrides, (q0, qd0), false)?;
        let n = self.file.model.coordinates.len();
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

    /// The HTML report of a run, as `lagrange report` writes it (the action integrals
    /// recorded; the adaptive integrator's output at least every `(t_end − t_start)/1000`):
    /// the animation, the model and its equations as mathematics, the conserved quantities
    /// and the plots. The arguments are `simulate`'s.
    #[pyo3(signature = (t_end = None, q0 = None, qd0 = None, *, t_start = None, integrator = None, dt = None, tolerance = None))]
    #[allow(clippy::too_many_arguments)]
    fn report(
        &self,
        py: Python<'_>,
        t_end: Option<f64>,
        q0: Option<Vec<f64>>,
        qd0: Option<Vec<f64>>,
        t_start: Option<f64>,
        integrator: Option<String>,
        dt: Option<f64>,
        tolerance: Option<f64>,
    ) -> PyResult<Report> {
        let overrides = Overrides {
            t_start,
            t_end,
            integrator,
            dt,
            tolerance,
            fine_output: true,
        };
        let trajectory = self.run(py, &overrides, (q0, qd0), true)?;
        let html = py.detach(|| HtmlReport::new(&trajectory, &self.system).html());
        Ok(Report { html })
    }
}
