//! `Model.connect`: the natural motions between two configurations in a given time or at a
//! given energy, as `lagrange connect` finds and reports them.

use lagrange_core::Condition;
use lagrange_loaded::connect::Problem;
use pyo3::prelude::*;

use crate::model::{Model, error};

#[pymethods]
impl Model {
    /// The natural motions from the configuration `q0` (the file's initial one when `None`)
    /// to `q1`, in the time `time` or at the energy `energy` (the Jacobi integral; give one
    /// of the two), least action first (Thomson & Tait §327). `starts` are initial
    /// velocities to search from (by default the straight path's and variants of it);
    /// `steps` the Runge–Kutta steps along each motion at first, doubled until the motion
    /// is confirmed. Returns a dict: `motions`, each with `initial_velocity`,
    /// `final_velocity`, `time`, `energy`, `principal` (`S = ∫L dt`), `action`
    /// (`A = ∫p·q̇ dt`), `initial_momenta`, `final_momenta`, `relations` (Hamilton's, as
    /// computed beside what they say), `foci` (the kinetic foci of the start before the
    /// end), `least` and `accuracy`; and `unconfirmed`, the solutions dropped because more
    /// steps did not confirm them. A model with `[[events]]` is refused.
    #[pyo3(signature = (q1, *, time = None, energy = None, q0 = None, starts = None, steps = lagrange_core::action::DEFAULT_STEPS))]
    #[allow(clippy::too_many_arguments)]
    fn connect<'py>(
        &self,
        py: Python<'py>,
        q1: Vec<f64>,
        time: Option<f64>,
        energy: Option<f64>,
        q0: Option<Vec<f64>>,
        starts: Option<Vec<Vec<f64>>>,
        steps: usize,
    ) -> PyResult<Bound<'py, PyAny>> {
        let condition = match (time, energy) {
            (Some(tau), None) => Condition::Time(tau),
            (None, Some(e)) => Condition::Energy(e),
            _ => return Err(error("connect: give one of time= and energy=")),
        };
        let q0 = match q0 {
            Some(q0) => q0,
            None => self.file.initial_state().map_err(error)?.0,
        };
        let from = self.vector(q0, "q0")?;
        let to = self.vector(q1, "q1")?;
        let starts = starts
            .unwrap_or_default()
            .into_iter()
            .map(|v| Ok(self.vector(v, "starts")?.as_slice().to_vec()))
            .collect::<PyResult<Vec<_>>>()?;
        let problem = Problem {
            from: from.as_slice(),
            to: to.as_slice(),
            starts: &starts,
            condition,
            steps,
        };
        let search = py
            .detach(|| problem.search(&self.file, &self.system))
            .map_err(error)?;
        let document = serde_json::to_string(&problem.document(&self.system, &search))
            .map_err(|e| error(format!("connect: {e}")))?;
        py.import("json")?.call_method1("loads", (document,))
    }
}
