//! Running a system from an initial state: the builder that ties integrator and recording.

use std::fmt;
use std::sync::Mutex;

use nalgebra::{DefaultAllocator, Dim, OVector, U1};

use super::drive::Output;
use super::event::Event;
use super::trajectory::Trajectory;
use crate::error::Error;
use crate::integrate::{Integrator, Step};
use crate::size::{ConstraintAllocator, DimAllocator};
use crate::system::{LagrangianSystem, ReducedSystem};

/// Step budget (accepted and rejected steps) unless [`Simulation::max_steps`] says otherwise.
pub const DEFAULT_MAX_STEPS: usize = 1_000_000;

/// Nodes and weights of three-point Gauss–Legendre quadrature on `[-1, 1]`.
const GAUSS_3: [(f64, f64); 3] = [
    (-0.774_596_669_241_483_4, 5.0 / 9.0),
    (0.0, 8.0 / 9.0),
    (0.774_596_669_241_483_4, 5.0 / 9.0),
];

/// Events a run may fire unless [`Simulation::max_events`] says otherwise.
pub const DEFAULT_MAX_EVENTS: usize = 100_000;

/// A run that stopped with an error, and what it computed before: the trajectory up to
/// the last step that passed the integrator's checks (`None` when the run never started,
/// e.g. on invalid input).
#[derive(Debug)]
pub struct Stopped<N: Dim>
where
    DefaultAllocator: DimAllocator<N>,
{
    /// Why the run stopped.
    pub error: Error,
    /// What it recorded before (boxed: an error stays small).
    pub partial: Option<Box<Trajectory<N>>>,
}

impl<N: Dim> From<Error> for Stopped<N>
where
    DefaultAllocator: DimAllocator<N>,
{
    fn from(error: Error) -> Self {
        Stopped {
            error,
            partial: None,
        }
    }
}

impl<N: Dim> fmt::Display for Stopped<N>
where
    DefaultAllocator: DimAllocator<N>,
{
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.error.fmt(f)
    }
}

impl<N: Dim> std::error::Error for Stopped<N>
where
    DefaultAllocator: DimAllocator<N>,
{
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        Some(&self.error)
    }
}

/// The callback of [`Simulation::on_progress`].
pub(crate) struct Progress<'a>(Mutex<Box<dyn FnMut(f64) + Send + 'a>>);

impl fmt::Debug for Progress<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("Progress(..)")
    }
}

/// An integration of `system`, configured by chaining:
/// `Simulation::new(&sys).integrator(Integrator::Rk4 { dt: 1e-3 }).output_interval(0.1).run(..)`.
#[derive(Debug)]
pub struct Simulation<'a, S, N: Dim>
where
    DefaultAllocator: DimAllocator<N>,
{
    pub(crate) system: &'a S,
    pub(crate) integrator: Integrator,
    pub(crate) output_interval: Option<f64>,
    pub(crate) max_steps: usize,
    pub(crate) progress: Option<Progress<'a>>,
    pub(crate) events: Vec<Event<'a, N>>,
    pub(crate) max_events: usize,
    pub(crate) record_action: bool,
}

impl<'a, S: LagrangianSystem<N>, N: Dim> Simulation<'a, S, N>
where
    DefaultAllocator: DimAllocator<N>,
{
    /// A simulation with the default integrator (Dormand–Prince, `rtol = atol = 1e-10`),
    /// recording every accepted step.
    pub fn new(system: &'a S) -> Self {
        Simulation {
            system,
            integrator: Integrator::default(),
            output_interval: None,
            max_steps: DEFAULT_MAX_STEPS,
            progress: None,
            events: Vec::new(),
            max_events: DEFAULT_MAX_EVENTS,
            record_action: false,
        }
    }

    /// Records, beside the state, the action `A = ∫ p·q̇ dt` (`∫ 2T dt` for the usual
    /// `T`) and the principal function `S = ∫ L dt` from the start (Thomson & Tait
    /// §§326–330; [`Trajectory::action`]). The integrator carries them as further
    /// components of the state, by its own stages and weights and so to its own order, and
    /// leaves them out of its error control: the steps, and every other recorded number,
    /// are those of the run without them. A reset keeps their values; each step costs one
    /// evaluation of `p` and `L` per stage more.
    pub fn record_action(mut self) -> Self {
        self.record_action = true;
        self
    }

    /// Uses `integrator`.
    pub fn integrator(mut self, integrator: Integrator) -> Self {
        self.integrator = integrator;
        self
    }

    /// Records the state at `t0, t0 + dt, t0 + 2dt, …` and at `t_end` (from the integrator's
    /// dense output) instead of at every accepted step.
    pub fn output_interval(mut self, dt: f64) -> Self {
        self.output_interval = Some(dt);
        self
    }

    /// Allows at most `steps` steps (accepted and rejected); more is
    /// [`Error::MaxStepsExceeded`]. Also bounds the number of output times.
    pub fn max_steps(mut self, steps: usize) -> Self {
        self.max_steps = steps;
        self
    }

    /// Watches `event` during the run (see [`Event`]): its occurrences are recorded in the
    /// trajectory, and a stop or reset event ends or restarts the integration at it.
    /// Several crossings in one step act earliest first.
    pub fn event(mut self, event: Event<'a, N>) -> Self {
        self.events.push(event);
        self
    }

    /// Allows at most `events` occurrences of events in a run (default
    /// [`DEFAULT_MAX_EVENTS`]); more is [`Error::TooManyEvents`]. Resets of one event that
    /// accumulate at one time (a ball bouncing ever lower comes to rest after infinitely
    /// many impacts in finite time) stop the run with an [`Error::Event`] once their
    /// intervals converge to within [`ACCUMULATION_WINDOW`](crate::run::ACCUMULATION_WINDOW)
    /// ulp of the last; this bound catches the rest.
    pub fn max_events(mut self, events: usize) -> Self {
        self.max_events = events;
        self
    }

    /// Calls `f` with the end time of every accepted step (the event's time for a step an
    /// event cut short), after the step is recorded (for progress reports; the results do
    /// not change).
    pub fn on_progress(mut self, f: impl FnMut(f64) + Send + 'a) -> Self {
        self.progress = Some(Progress(Mutex::new(Box::new(f))));
        self
    }

    /// Integrates from `(t0, q0, q̇0)` to `t_end`.
    ///
    /// Errors with [`Error::InvalidInput`] for `t_end <= t0`, a non-finite initial state or
    /// non-positive step sizes or tolerances, with the integrator's errors, and for events
    /// with [`Error::Event`] (a non-finite value of a function or a reset, an inadmissible
    /// reset state) or [`Error::TooManyEvents`].
    pub fn run(
        &self,
        t0: f64,
        q0: OVector<f64, N>,
        qd0: OVector<f64, N>,
        t_end: f64,
    ) -> Result<Trajectory<N>, Error> {
        self.run_keeping_partial(t0, q0, qd0, t_end)
            .map_err(|stopped| stopped.error)
    }

    /// As [`run`](Self::run), but a run that fails after it started keeps what it
    /// computed: the error comes with the trajectory up to the failure.
    pub fn run_keeping_partial(
        &self,
        t0: f64,
        q0: OVector<f64, N>,
        qd0: OVector<f64, N>,
        t_end: f64,
    ) -> Result<Trajectory<N>, Stopped<N>> {
        self.drive(t0, q0, qd0, t_end, |trajectory, output| {
            if let Output::Sample { t, y, action, .. } = output {
                trajectory.push(self.system, t, &y, action);
            }
        })
    }

    /// Integrates a reduced system from `(t0, q0, q̇0)` and recovers its ignored
    /// coordinates from `chi0` by quadrature of `χ̇(t, q, q̇)` (Thomson & Tait §319,
    /// Example G, eq. 7): over each step, three-point Gauss–Legendre on the integrator's
    /// dense output. The trajectory then holds the ignored coordinates too.
    ///
    /// Errors as [`run`](Self::run) does, and for a non-finite `chi0`.
    pub fn run_reduced<K: Dim>(
        &self,
        t0: f64,
        q0: OVector<f64, N>,
        qd0: OVector<f64, N>,
        chi0: OVector<f64, K>,
        t_end: f64,
    ) -> Result<Trajectory<N>, Error>
    where
        S: ReducedSystem<N, K>,
        DefaultAllocator: ConstraintAllocator<N, K>,
    {
        if !chi0.iter().all(|x| x.is_finite()) {
            return Err(Error::InvalidInput(format!(
                "initial ignored coordinates are not finite: {:?}",
                chi0.as_slice()
            )));
        }
        let system = self.system;
        let k = chi0.shape_generic().0;
        // ∫ χ̇ dt from the start of `step` to `t`.
        let integral = |step: &Step<N>, t: f64| {
            let (a, half) = (0.5 * (step.start_time() + t), 0.5 * (t - step.start_time()));
            GAUSS_3
                .iter()
                .fold(OVector::<f64, K>::zeros_generic(k, U1), |acc, &(x, w)| {
                    let tau = a + half * x;
                    let y = step.interpolate(tau);
                    acc + system.ignored_velocities(tau, &y.q, &y.qd) * (w * half)
                })
        };
        let mut chi = chi0;
        let mut trajectory = self
            .drive(t0, q0, qd0, t_end, |trajectory, output| match output {
                Output::Sample { t, y, action, step } => {
                    trajectory.push(system, t, &y, action);
                    let value = step.map_or_else(|| chi.clone(), |step| &chi + integral(step, t));
                    trajectory.push_ignored(value.as_slice());
                }
                Output::StepDone { step, end } => chi += integral(step, end),
            })
            .map_err(|stopped| stopped.error)?;
        trajectory.name_ignored(&self.system.ignored_names());
        Ok(trajectory)
    }

    /// Calls the [`on_progress`](Self::on_progress) callback, if any, with `t`.
    pub(crate) fn report_progress(&self, t: f64) {
        // `run` takes `&self`, so the callback sits in a `Mutex` (which keeps the
        // simulation `Send` and `Sync`); it is locked only here.
        if let Some(Ok(mut f)) = self.progress.as_ref().map(|p| p.0.try_lock()) {
            f(t);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::test_systems::{BlowUp, Oscillator, Pendulum, PolarParticle, RadialFall, state};
    use nalgebra::Vector1;

    /// ω = 2, x(t) = cos 2t.
    const OSC: Oscillator = Oscillator { m: 0.5, k: 2.0 };

    fn max_error(traj: &Trajectory<U1>) -> f64 {
        traj.times()
            .iter()
            .zip(traj.q().iter().zip(traj.qd()))
            .map(|(t, (q, qd))| {
                let x = (q[0] - (2.0 * t).cos()).abs();
                let v = (qd[0] + 2.0 * (2.0 * t).sin()).abs();
                x.max(v)
            })
            .fold(0.0, f64::max)
    }

    fn one() -> Vector1<f64> {
        Vector1::new(1.0)
    }

    fn zero() -> Vector1<f64> {
        Vector1::new(0.0)
    }

    #[test]
    fn default_is_dormand_prince_recording_every_step() {
        let sim = Simulation::new(&OSC);
        assert_eq!(sim.integrator, Integrator::dormand_prince(1e-10, 1e-10));
        let traj = sim.run(0.0, one(), zero(), 3.0).unwrap();
        assert_eq!(traj.len(), traj.stats().accepted + 1);
        assert_eq!(traj.times()[0], 0.0);
        assert_eq!(traj.last().unwrap().0, 3.0);
        assert!(traj.times().windows(2).all(|w| w[0] < w[1]));
        assert!(max_error(&traj) < 1e-8);
    }

    #[test]
    fn output_interval_samples_dense_output() {
        let traj = Simulation::new(&OSC)
            .integrator(Integrator::dormand_prince(1e-6, 1e-6))
            .output_interval(0.1)
            .run(0.0, one(), zero(), 5.0)
            .unwrap();
        assert_eq!(traj.len(), 51);
        for (k, t) in traj.times().iter().enumerate() {
            assert!((t - 0.1 * k as f64).abs() < 1e-12, "{t}");
        }
        assert_eq!(traj.last().unwrap().0, 5.0);
        assert!(
            traj.stats().accepted < 50,
            "steps should be longer than the output interval"
        );
        assert!(max_error(&traj) < 1e-5, "{}", max_error(&traj));
    }

    #[test]
    fn output_interval_with_rk4_uses_hermite_interpolation() {
        let traj = Simulation::new(&OSC)
            .integrator(Integrator::Rk4 { dt: 0.01 })
            .output_interval(0.025)
            .run(0.0, one(), zero(), 2.0)
            .unwrap();
        assert_eq!(traj.len(), 81);
        assert!(max_error(&traj) < 1e-7, "{}", max_error(&traj));
    }

    #[test]
    fn output_interval_not_dividing_the_span_ends_at_t_end() {
        let traj = Simulation::new(&OSC)
            .output_interval(0.3)
            .run(0.0, one(), zero(), 1.0)
            .unwrap();
        assert_eq!(traj.len(), 5);
        assert_eq!(traj.times()[3], 0.3 * 3.0);
        assert_eq!(traj.times()[4], 1.0);
    }

    #[test]
    fn pendulum_energy_drift_is_small() {
        let pendulum = Pendulum {
            m: 1.3,
            l: 0.7,
            g: 9.81,
        };
        let (q, qd) = state([2.5], [0.0]);
        let traj = Simulation::new(&pendulum).run(0.0, q, qd, 20.0).unwrap();
        let energy = traj.invariant("energy").unwrap();
        assert_eq!(energy.values.len(), traj.len());
        assert!(energy.relative_drift() < 1e-8, "{}", traj.drift_table());
    }

    #[test]
    fn cyclic_momentum_is_conserved() {
        let particle = PolarParticle { m: 2.0 };
        let (q, qd) = state([1.0, 0.0], [0.3, 0.8]);
        let traj = Simulation::new(&particle).run(0.0, q, qd, 5.0).unwrap();
        let names: Vec<_> = traj.invariants().iter().map(|i| i.name.as_str()).collect();
        assert_eq!(names, ["energy", "p_phi"]);
        for inv in traj.invariants() {
            assert!(inv.relative_drift() < 1e-8, "{}", traj.drift_table());
        }
        // A free particle moves on a straight line: x = 1 + 0.3 t, y = 0.8 t.
        let (t, q, _) = traj.last().unwrap();
        let (x, y) = (q[0] * q[1].cos(), q[0] * q[1].sin());
        assert!((x - (1.0 + 0.3 * t)).abs() < 1e-8 && (y - 0.8 * t).abs() < 1e-8);
    }

    #[test]
    fn csv_has_one_row_per_output_time() {
        let traj = Simulation::new(&OSC)
            .output_interval(0.1)
            .run(0.0, one(), zero(), 1.0)
            .unwrap();
        let mut out = Vec::new();
        traj.write_csv(&mut out).unwrap();
        let text = String::from_utf8(out).unwrap();
        assert_eq!(text.lines().next(), Some("t,x,dot_x,energy"));
        assert_eq!(text.lines().count(), 1 + 11);
    }

    #[test]
    fn bad_input_is_rejected() {
        let sim = || Simulation::new(&OSC);
        let nan = Vector1::new(f64::NAN);
        let cases = [
            sim().run(0.0, one(), zero(), 0.0),
            sim().run(1.0, one(), zero(), 0.5),
            sim().run(0.0, nan, zero(), 1.0),
            sim().run(0.0, one(), Vector1::new(f64::INFINITY), 1.0),
            sim().run(0.0, one(), zero(), f64::NAN),
            sim().output_interval(0.0).run(0.0, one(), zero(), 1.0),
            sim().output_interval(-0.1).run(0.0, one(), zero(), 1.0),
            sim()
                .integrator(Integrator::dormand_prince(-1e-8, 1e-8))
                .run(0.0, one(), zero(), 1.0),
            sim()
                .integrator(Integrator::dormand_prince(1e-8, 0.0))
                .run(0.0, one(), zero(), 1.0),
            sim().output_interval(1e-9).run(0.0, one(), zero(), 1.0),
            sim()
                .integrator(Integrator::Rk4 { dt: -0.1 })
                .run(0.0, one(), zero(), 1.0),
        ];
        for result in cases {
            assert!(matches!(result, Err(Error::InvalidInput(_))), "{result:?}");
        }
    }

    #[test]
    fn progress_sees_every_accepted_step_and_changes_nothing() {
        let mut seen = Vec::new();
        let plain = Simulation::new(&OSC).run(0.0, one(), zero(), 3.0).unwrap();
        let watched = Simulation::new(&OSC)
            .on_progress(|t| seen.push(t))
            .run(0.0, one(), zero(), 3.0)
            .unwrap();
        assert_eq!(watched, plain);
        assert_eq!(seen.len(), plain.stats().accepted);
        assert_eq!(seen, plain.times()[1..]);
        let mut calls = 0;
        let counted = Simulation::new(&OSC)
            .integrator(Integrator::Rk4 { dt: 0.01 })
            .output_interval(0.5)
            .on_progress(|_| calls += 1);
        fn send_and_sync<T: Send + Sync>(_: &T) {}
        send_and_sync(&counted);
        counted.run(0.0, one(), zero(), 1.0).unwrap();
        drop(counted);
        assert_eq!(calls, 100);
    }

    #[test]
    fn step_budget_applies() {
        let result = Simulation::new(&OSC)
            .max_steps(10)
            .run(0.0, one(), zero(), 100.0);
        assert!(matches!(result, Err(Error::MaxStepsExceeded { .. })));
    }

    /// A radial fall from rest at r₀ = 1 with μ = 1 reaches the centre at the free-fall
    /// time (π/2)·√(r₀³/(2μ)) ≈ 1.1107; no fixed-step method may sail past it.
    #[test]
    fn fixed_step_methods_stop_at_the_centre_of_a_central_force() {
        let fall = RadialFall { m: 1.0, mu: 1.0 };
        let free_fall = std::f64::consts::FRAC_PI_2 * 0.5f64.sqrt();
        let (q, qd) = state([1.0], [0.0]);
        for dt in [1e-4, 2e-3, 1e-2] {
            for integrator in [
                Integrator::Rk4 { dt },
                Integrator::GaussLegendre { dt, stages: 2 },
                Integrator::Variational { dt },
            ] {
                let stopped = Simulation::new(&fall)
                    .integrator(integrator)
                    .run_keeping_partial(0.0, q, qd, 2.0)
                    .expect_err("the fall through r = 0 must fail");
                let partial = stopped.partial.expect("the run started");
                let (t_last, r_last, _) = partial.last().unwrap();
                assert!(
                    (free_fall - 2.0 * dt..free_fall + dt).contains(&t_last),
                    "{integrator:?} stopped at t = {t_last}: {}",
                    stopped.error
                );
                assert!(
                    r_last[0] > 0.0,
                    "{integrator:?}: recorded r = {}",
                    r_last[0]
                );
                assert!(partial.q().iter().all(|r| r[0] > 0.0));
            }
        }
    }

    #[test]
    fn a_failed_run_keeps_what_it_computed() {
        // q̈ = q² from q = 1 at rest blows up at t = ∫₁^∞ dq / √(2(q³ − 1)/3) ≈ 2.97.
        let stopped = Simulation::new(&BlowUp)
            .output_interval(0.1)
            .run_keeping_partial(0.0, one(), zero(), 10.0)
            .unwrap_err();
        let partial = stopped.partial.unwrap();
        assert_eq!(partial.times()[0], 0.0);
        assert!(partial.len() > 20, "{} points", partial.len());
        let (t, q, qd) = partial.last().unwrap();
        assert!(t > 2.0 && t < 3.0, "{t}");
        // The recorded states lie on the energy level ½q̇² − q³/3 = −1/3.
        let energy = 0.5 * qd[0] * qd[0] - q[0].powi(3) / 3.0;
        assert!(
            (energy + 1.0 / 3.0).abs() < 1e-6 * q[0].powi(3),
            "{energy} at q = {q}"
        );
        assert!(partial.stats().accepted > 0);
        // Invalid input computes nothing.
        let stopped = Simulation::new(&OSC)
            .run_keeping_partial(0.0, one(), zero(), -1.0)
            .unwrap_err();
        assert!(stopped.partial.is_none() && matches!(stopped.error, Error::InvalidInput(_)));
    }
}
