//! `Model.simulate` and `Model.report`: a run with the file's `[simulation]` settings under
//! the caller's, its `[inputs]` signals and `[[events]]`, as `lagrange simulate` and
//! `lagrange report` make it, returned as arrays or as the HTML report.

use std::collections::BTreeMap;
use std::sync::Mutex;

use lagrange_core::{Controlled, HtmlReport, LagrangianSystem, Simulation, Trajectory};
use lagrange_loaded::file::{FileEvent, Overrides, Settings, motion};
use lagrange_loaded::signal::Signal;
use lagrange_loaded::{Loaded, ReducedState};
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
        std::fs::write(&path, &self.html).map_err(|e| {
            error(format!(
                "cannot write `{}`: {e}",
                escape_text(&path.display().to_string())
            ))
        })
    }

    fn __repr__(&self) -> String {
        format!(
            "<lagrange_dynamics.Report: {} bytes of HTML>",
            self.html.len()
        )
    }
}

/// What sets a run's inputs besides their values: the file's `[inputs]` signals, and
/// under them the caller's `inputs=`, signals written as text and Python callables.
struct Steering {
    /// Signals by parameter index.
    signals: Vec<(usize, Signal)>,
    /// Callables `u(t, q, qd) -> float` by parameter index.
    callables: Vec<(usize, Py<PyAny>)>,
}

impl Steering {
    /// Whether every input keeps its value.
    fn is_empty(&self) -> bool {
        self.signals.is_empty() && self.callables.is_empty()
    }
}

/// The simulation of `system` that the settings describe.
fn simulation<'s, S: LagrangianSystem<Dyn>>(
    system: &'s S,
    settings: &Settings,
    record_action: bool,
) -> Simulation<'s, S, Dyn> {
    let mut simulation = Simulation::new(system).integrator(settings.integrator());
    if record_action {
        simulation = simulation.record_action();
    }
    if let Some(dt) = settings.output_interval() {
        simulation = simulation.output_interval(dt);
    }
    simulation
}

/// `system` integrated as the settings say from `(q0, q̇0)`, with the file's `[[events]]`
/// reading the parameter `values`.
fn integrate<S: LagrangianSystem<Dyn>>(
    system: &S,
    settings: &Settings,
    (events, values): (&[FileEvent], &[f64]),
    (q0, qd0): (&DVector<f64>, &DVector<f64>),
    record_action: bool,
) -> Result<Trajectory<Dyn>, lagrange_core::Error> {
    let mut simulation = simulation(system, settings, record_action);
    for event in events {
        simulation = simulation.event(motion::event(event, values));
    }
    simulation.run(settings.t0, q0.clone(), qd0.clone(), settings.t_end)
}

impl Model {
    /// A run's settings (the file's `[simulation]` under `overrides`) and initial state
    /// `(q0, q̇0)`: the file's `[initial]` where not given, zero velocities when `q0` alone
    /// is.
    fn start(
        &self,
        overrides: &Overrides,
        (q0, qd0): (Option<Vec<f64>>, Option<Vec<f64>>),
    ) -> PyResult<(Settings, DVector<f64>, DVector<f64>)> {
        let settings = Settings::resolve(overrides, &self.file).map_err(error)?;
        let (q0, qd0) = match (q0, qd0) {
            (Some(q0), qd0) => (q0, qd0.unwrap_or_else(|| vec![0.0; self.size()])),
            (None, qd0) => {
                let (q, qd) = self.file.initial_state().map_err(error)?;
                (q, qd0.unwrap_or(qd))
            }
        };
        Ok((settings, self.vector(q0, "q0")?, self.vector(qd0, "qd0")?))
    }

    /// The run of Routh's reduced system from the full state `(q0, q̇0)` (as [`run`]
    /// takes it): the retained coordinates integrated with the ignored ones' momenta
    /// constant at their initial values, the ignored coordinates by quadrature; with the
    /// momenta by name. Refused for a model that ignores no coordinate, and under inputs or
    /// events, which the reduced system does not run.
    fn run_reduced(
        &self,
        py: Python<'_>,
        overrides: &Overrides,
        start: (Option<Vec<f64>>, Option<Vec<f64>>),
        steering: &Steering,
    ) -> PyResult<(Trajectory<Dyn>, BTreeMap<String, f64>)> {
        let file = &self.file;
        let Some(reduced) = &self.derived.reduced else {
            return Err(error(format!(
                "{}: reduced=True needs a model that ignores coordinates (`ignore = [...]` in [model])",
                file.shown_path()
            )));
        };
        if !steering.is_empty() || !file.events().map_err(error)?.is_empty() {
            return Err(error(format!(
                "{}: reduced=True runs neither inputs nor [[events]]; run the full system",
                file.shown_path()
            )));
        }
        let (settings, q0, qd0) = self.start(overrides, start)?;
        let values = self.system.parameter_values();
        let state = ReducedState::of(
            &self.derived.full,
            reduced,
            settings.t0,
            q0.as_slice(),
            qd0.as_slice(),
            &values,
        );
        let system = Loaded::reduced(reduced, &state.values).map_err(error)?;
        let vector = |v: &[f64]| DVector::from_column_slice(v);
        let trajectory = py
            .detach(|| {
                simulation(&system, &settings, false).run_reduced(
                    settings.t0,
                    vector(&state.q),
                    vector(&state.qd),
                    vector(&state.ignored),
                    settings.t_end,
                )
            })
            .map_err(error)?;
        let names = &reduced.equations.parameters[values.len()..];
        let momenta = names.iter().cloned().zip(state.momenta).collect();
        Ok((trajectory, momenta))
    }

    /// The file's `[inputs]` signals under `inputs`, a dict by input name of signals (a
    /// string, read as the file's `[inputs]` are) and callables.
    fn steering(&self, inputs: Option<BTreeMap<String, Bound<'_, PyAny>>>) -> PyResult<Steering> {
        let model = &self.file.model;
        let mut steering = Steering {
            signals: self.file.input_signals().map_err(error)?,
            callables: Vec::new(),
        };
        for (name, given) in inputs.unwrap_or_default() {
            let shown = escape_text(&excerpt_text(&name));
            let k = match model.parameters.iter().position(|p| *p == name) {
                Some(k) if model.inputs.contains(&name) => k,
                _ => {
                    return Err(error(format!(
                        "inputs=: `{shown}` is not an input of `{}` (its inputs: {})",
                        model.name,
                        if model.inputs.is_empty() {
                            "none".to_string()
                        } else {
                            model.inputs.join(", ")
                        }
                    )));
                }
            };
            steering.signals.retain(|(i, _)| *i != k);
            if let Ok(text) = given.extract::<String>() {
                let what = format!("inputs=: the signal of input `{shown}`");
                let signal = Signal::parse(&text, model, &model.inputs, &what).map_err(error)?;
                steering.signals.push((k, signal));
            } else if given.is_callable() {
                steering.callables.push((k, given.unbind()));
            } else {
                return Err(error(format!(
                    "inputs=: input `{shown}` is set by a signal (a string such as \"sin(t)\") or a callable u(t, q, qd), not by a {}",
                    given.get_type().name()?
                )));
            }
        }
        Ok(steering)
    }

    /// The run the settings describe from `(q0, q̇0)` (the file's initial state where not
    /// given; zero velocities when `q0` alone is), without the interpreter's lock: under
    /// the file's `[[events]]`, with the inputs that `steering` sets following it.
    fn run(
        &self,
        py: Python<'_>,
        overrides: &Overrides,
        (q0, qd0): (Option<Vec<f64>>, Option<Vec<f64>>),
        steering: Steering,
        record_action: bool,
    ) -> PyResult<Trajectory<Dyn>> {
        let events = self.file.events().map_err(error)?;
        let (settings, q0, qd0) = self.start(overrides, (q0, qd0))?;
        let values = self.system.parameter_values();
        let run = (&events[..], &values[..]);
        let start = (&q0, &qd0);
        if steering.is_empty() {
            return py
                .detach(|| integrate(&self.system, &settings, run, start, record_action))
                .map_err(error);
        }
        // The first exception a callable raised: the run stops (its input is NaN) and the
        // exception is raised in its place.
        let raised: Mutex<Option<PyErr>> = Mutex::new(None);
        let inputs = self.system.info().inputs.to_vec();
        let Steering { signals, callables } = steering;
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
    /// `lagrange simulate`; `inputs`, a dict by input name of signals (a string, as in the
    /// file's `[inputs]`: `"0.5*sin(2*t)"`, `"-10*x - 2*dot(x)"`) and callables
    /// `u(t, q, qd) -> float`, sets those inputs instead. Returns a dict: `coordinates`,
    /// `t` `(k,)`, `q` and `qd` `(k, n)`, `invariants` (each conserved quantity's values
    /// `(k,)` by name) and `events` (the `(name, t)` of each event that occurred).
    ///
    /// With `reduced=True`, for a model that ignores coordinates (`ignore = [...]`), runs
    /// Routh's reduced system from the full state `(q0, qd0)` instead: the ignored
    /// coordinates' momenta stay at their initial values, and the ignored coordinates
    /// follow by quadrature. `q` and `qd` are then the retained coordinates' (named by
    /// `coordinates`), and the dict adds `ignored` (each ignored coordinate's values `(k,)`
    /// by name) and `momenta` (each constant momentum by its parameter's name).
    #[pyo3(signature = (t_end = None, q0 = None, qd0 = None, *, t_start = None, integrator = None, dt = None, tolerance = None, inputs = None, reduced = false))]
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
        inputs: Option<BTreeMap<String, Bound<'_, PyAny>>>,
        reduced: bool,
    ) -> PyResult<Bound<'py, PyDict>> {
        let overrides = Overrides {
            t_start,
            t_end,
            integrator,
            dt,
            tolerance,
            fine_output: false,
        };
        let steering = self.steering(inputs)?;
        let dict = PyDict::new(py);
        let trajectory = if reduced {
            let (trajectory, momenta) = self.run_reduced(py, &overrides, (q0, qd0), &steering)?;
            let ignored = PyDict::new(py);
            for (k, name) in trajectory.ignored_names().iter().enumerate() {
                let values: Vec<f64> = trajectory.ignored().iter().map(|row| row[k]).collect();
                ignored.set_item(name, PyArray1::from_vec(py, values))?;
            }
            dict.set_item("ignored", ignored)?;
            dict.set_item("momenta", momenta)?;
            trajectory
        } else {
            self.run(py, &overrides, (q0, qd0), steering, false)?
        };
        let n = trajectory.coordinates().len();
        dict.set_item("coordinates", trajectory.coordinates().to_vec())?;
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
        inputs: Option<BTreeMap<String, Bound<'_, PyAny>>>,
    ) -> PyResult<Report> {
        let overrides = Overrides {
            t_start,
            t_end,
            integrator,
            dt,
            tolerance,
            fine_output: true,
        };
        let steering = self.steering(inputs)?;
        // The reactions of the constraints where the run was of the model itself.
        let steered = !steering.is_empty();
        let trajectory = self.run(py, &overrides, (q0, qd0), steering, true)?;
        let html = py
            .detach(|| {
                let report = HtmlReport::new(&trajectory, &self.system);
                if steered {
                    Ok(report)
                } else {
                    self.system.with_reactions(report, &trajectory)
                }
                .map(|report| report.html())
            })
            .map_err(error)?;
        Ok(Report { html })
    }
}
