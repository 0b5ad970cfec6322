//! `Model.simulate` and `Model.report`: a run with the file's `[simulation]` settings under
//! the caller's, its `[inputs]` signals and `[[events]]`, as `lagrange simulate` and
//! `lagrange report` make it, returned as arrays or as the HTML report.

use std::collections::BTreeMap;
use std::sync::Mutex;

use lagrange_core::{Controlled, HtmlReport, LagrangianSystem, Simulation, Trajectory};
use lagrange_loaded::file::{FileEvent, Overrides, Settings, motion};
use lagrange_symbolic::syntax::print::{escape_text, excerpt_text};
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
        format!(
            "<lagrange_dynamics.Report: {} bytes of HTML>",
            self.html.len()
        )
    }
}

/// Inputs set by Python callables, `u(t, q, qd) -> float`, by parameter index.
type Callables = Vec<(usize, Py<PyAny>)>;

/// `system` integrated as the settings say from `(q0, q̇0)`, with the file's `[[events]]`
/// reading the parameter `values`.
fn integrate<S: LagrangianSystem<Dyn>>(
    system: &S,
    settings: &Settings,
    (events, values): (&[FileEvent], &[f64]),
    (q0, qd0): (&DVector<f64>, &DVector<f64>),
    record_action: bool,
) -> Result<Trajectory<Dyn>, lagrange_core::Error> {
    let mut simulation = Simulation::new(system).integrator(settings.integrator());
    if record_action {
        simulation = simulation.record_action();
    }
    if let Some(dt) = settings.output_interval() {
        simulation = simulation.output_interval(dt);
    }
    for event in events {
        simulation = simulation.event(motion::event(event, values));
    }
    simulation.run(settings.t0, q0.clone(), qd0.clone(), settings.t_end)
}

impl Model {
    /// The inputs that `inputs` (a dict of callables by input name) set.
    fn callables(&self, inputs: Option<BTreeMap<String, Py<PyAny>>>) -> PyResult<Callables> {
        let model = &self.file.model;
        inputs
            .unwrap_or_default()
            .into_iter()
            .map(
                |(name, f)| match model.parameters.iter().position(|p| *p == name) {
                    Some(k) if model.inputs.contains(&name) => Ok((k, f)),
                    _ => Err(error(format!(
                        "inputs=: `{}` is not an input of `{}` (its inputs: {})",
                        escape_text(&excerpt_text(&name)),
                        model.name,
                        if model.inputs.is_empty() {
                            "none".to_string()
                        } else {
                            model.inputs.join(", ")
                        }
                    ))),
                },
            )
            .collect()
    }

    /// The run the settings describe from `(q0, q̇0)` (the file's initial state where not
    /// given; zero velocities when `q0` alone is), without the interpreter's lock: under
    /// the file's `[inputs]` signals and `[[events]]`, with the inputs that `callables` set
    /// following them instead of their signals or values.
    fn run(
        &self,
        py: Python<'_>,
        overrides: &Overrides,
        (q0, qd0): (Option<Vec<f64>>, Option<Vec<f64>>),
        callables: Callables,
        record_action: bool,
    ) -> PyResult<Trajectory<Dyn>> {
        let file = &self.file;
        let signals = file.input_signals().map_err(error)?;
        let events = file.events().map_err(error)?;
        let settings = Settings::resolve(overrides, file).map_err(error)?;
        let (q0, qd0) = match (q0, qd0) {
            (Some(q0), qd0) => (q0, qd0.unwrap_or_else(|| vec![0.0; self.size()])),
            (None, qd0) => {
                let (q, qd) = file.initial_state().map_err(error)?;
                (q, qd0.unwrap_or(qd))
            }
        };
        let (q0, qd0) = (self.vector(q0, "q0")?, self.vector(qd0, "qd0")?);
        let values = self.system.parameter_values();
        let run = (&events[..], &values[..]);
        let start = (&q0, &qd0);
        if signals.is_empty() && callables.is_empty() {
            return py
                .detach(|| integrate(&self.system, &settings, run, start, record_action))
                .map_err(error);
        }
        // The first exception a callable raised: the run stops (its input is NaN) and the
        // exception is raised in its place.
        let raised: Mutex<Option<PyErr>> = Mutex::new(None);
        let inputs = self.system.info().inputs.to_vec();
        let controller = |t: f64, q: &DVector<f64>, qd: &DVector<f64>| -> Vec<f64> {
            let state = (t, q.as_slice(), qd.as_slice());
            inputs
                .iter()
                .map(|&k| match callables.iter().find(|(i, _)| *i == k) {
                    None => motion::input_value(k, &signals, &values, state),
                    Some((_, f)) => Python::attach(|py| {
                        let q = PyArray1::from_slice(py, q.as_slice());
                        let qd = PyArray1::from_slice(py, qd.as_slice());
                        f.call1(py, (t, q, qd))
                            .and_then(|u| u.extract::<f64>(py))
                            .unwrap_or_else(|e| {
                                let mut first = raised.lock().unwrap_or_else(|p| p.into_inner());
                                first.get_or_insert(e);
                                f64::NAN
                            })
                    }),
                })
                .collect()
        };
        let controlled = Controlled::new(self.system.clone(), controller).map_err(error)?;
        let result = py.detach(|| integrate(&controlled, &settings, run, start, record_action));
        if let Some(e) = raised.into_inner().unwrap_or_else(|p| p.into_inner()) {
            return Err(e);
        }
        result.map_err(error)
    }
}

#[pymethods]
impl Model {
    /// Integrates from `(q0, qd0)` at `t_start` to `t_end`; each argument left `None` is the
    /// file's (`[initial]`, `[simulation]`; zero velocities when `q0` alone is given).
    /// `integrator` is `"dp54"` (the default), `"rk4"`, `"gauss-legendre"` (`-1`, `-2`,
    /// `-3`) or `"variational"`; `dt` is the step of a fixed-step integrator and the output
    /// interval of `dp54`. The file's `[inputs]` signals and `[[events]]` act as in
    /// `lagrange simulate`; `inputs`, a dict of callables `u(t, q, qd) -> float` by input
    /// name, sets those inputs instead. Returns a dict: `t` `(k,)`, `q` and `qd` `(k, n)`,
    /// `invariants` (each conserved quantity's values `(k,)` by name) and `events` (the
    /// `(name, t)` of each event that occurred).
    #[pyo3(signature = (t_end = None, q0 = None, qd0 = None, *, t_start = None, integrator = None, dt = None, tolerance = None, inputs = None))]
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
        inputs: Option<BTreeMap<String, Py<PyAny>>>,
    ) -> PyResult<Bound<'py, PyDict>> {
        let overrides = Overrides {
            t_start,
            t_end,
            integrator,
            dt,
            tolerance,
            fine_output: false,
        };
        let callables = self.callables(inputs)?;
        let trajectory = self.run(py, &overrides, (q0, qd0), callables, false)?;
        let n = self.size();
        let dict = PyDict::new(py);
        dict.set_item("t", PyArray1::from_slice(py, trajectory.times()))?;
        dict.set_item("q", matrix(py, trajectory.q(), n)?)?;
        dict.set_item("qd", matrix(py, trajectory.qd(), n)?)?;
        let invariants = PyDict::new(py);
        for invariant in trajectory.invariants() {
            invariants.set_item(&invariant.name, PyArray1::from_slice(py, &invariant.values))?;
        }
        dict.set_item("invariants", invariants)?;
        let events: Vec<(String, f64)> = trajectory
            .events()
            .iter()
            .map(|o| (o.name.clone(), o.t))
            .collect();
        dict.set_item("events", events)?;
        Ok(dict)
    }

    /// The HTML report of a run, as `lagrange report` writes it (the action integrals
    /// recorded; the adaptive integrator's output at least every `(t_end − t_start)/1000`):
    /// the animation, the model and its equations as mathematics, the conserved quantities
    /// and the plots. The arguments are `simulate`'s.
    #[pyo3(signature = (t_end = None, q0 = None, qd0 = None, *, t_start = None, integrator = None, dt = None, tolerance = None, inputs = None))]
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
        inputs: Option<BTreeMap<String, Py<PyAny>>>,
    ) -> PyResult<Report> {
        let overrides = Overrides {
            t_start,
            t_end,
            integrator,
            dt,
            tolerance,
            fine_output: true,
        };
        let callables = self.callables(inputs)?;
        let trajectory = self.run(py, &overrides, (q0, qd0), callables, true)?;
        let html = py.detach(|| HtmlReport::new(&trajectory, &self.system).html());
        Ok(Report { html })
    }
}
