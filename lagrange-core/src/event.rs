//! Events of a run: zero crossings of a function `g(t, q, q̇)`, found on the integrator's
//! dense output, and what happens at them (note it, stop the run, or reset the state).
//!
//! A step is scanned after it is accepted: an event fires when `g` changes sign between
//! the scan point and the step's end, in the direction the event asks for, and its time is
//! the root of `g` along the step's interpolant ([`Step::interpolate`]), located by the
//! Illinois method with bisection safeguard to a few ulp of `t`. Two crossings of one
//! function inside one step cancel and go unseen, as with any sign-change test.
//!
//! At the start of a run and after a reset, each function's sign is taken a round-off
//! distance later ([`RESTART_WINDOW`]), so that a state that starts on `g = 0` (a ball
//! leaving the floor) does not fire again at once.

use std::fmt;

use nalgebra::SVector;

use crate::error::Error;
use crate::integrate::{State, Step};

/// After the start of a run or a reset at `t0`, with first step `h`, crossings before
/// `t0 + RESTART_WINDOW·ε·(|t0| + h)` are not events: the state starts on the zero set of
/// the function that was just reset, up to the round-off of the root.
pub const RESTART_WINDOW: f64 = 100.0;

/// Largest number of evaluations of `g` spent on one root.
const ROOT_ITERATIONS: usize = 300;

/// `g(t, q, q̇)`, whose zero crossings are the event.
type Function<'a, const N: usize> =
    dyn Fn(f64, &SVector<f64, N>, &SVector<f64, N>) -> f64 + Send + Sync + 'a;

/// `(t, q, q̇) → (q, q̇)`: the state the run restarts from.
type Reset<'a, const N: usize> = dyn Fn(f64, &SVector<f64, N>, &SVector<f64, N>) -> (SVector<f64, N>, SVector<f64, N>)
    + Send
    + Sync
    + 'a;

/// Which sign changes of `g` count.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Direction {
    /// From negative to positive.
    Rising,
    /// From positive to negative.
    Falling,
    /// Both.
    Either,
}

/// What an event does when it fires.
enum Action<'a, const N: usize> {
    /// Note it in the trajectory and go on.
    Record,
    /// End the run at the event.
    Stop,
    /// Restart the run at the event from the state the closure returns.
    Reset(Box<Reset<'a, N>>),
}

/// A zero crossing to watch for during a [`Simulation`](crate::Simulation), built by
/// chaining: `Event::new("floor", |_, q, _| q[0]).falling().reset(|_, q, qd| (*q, -0.9 * qd))`.
///
/// By default both directions count and the event is only recorded.
pub struct Event<'a, const N: usize> {
    name: String,
    function: Box<Function<'a, N>>,
    direction: Direction,
    action: Action<'a, N>,
}

impl<const N: usize> fmt::Debug for Event<'_, N> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let action = match self.action {
            Action::Record => "record",
            Action::Stop => "stop",
            Action::Reset(_) => "reset",
        };
        f.debug_struct("Event")
            .field("name", &self.name)
            .field("direction", &self.direction)
            .field("action", &action)
            .finish_non_exhaustive()
    }
}

impl<'a, const N: usize> Event<'a, N> {
    /// The event `name` at the zero crossings of `g(t, q, q̇)`, in either direction,
    /// recorded in the trajectory.
    pub fn new(
        name: impl Into<String>,
        g: impl Fn(f64, &SVector<f64, N>, &SVector<f64, N>) -> f64 + Send + Sync + 'a,
    ) -> Self {
        Event {
            name: name.into(),
            function: Box::new(g),
            direction: Direction::Either,
            action: Action::Record,
        }
    }

    /// Only crossings where `g` goes from negative to positive count.
    pub fn rising(mut self) -> Self {
        self.direction = Direction::Rising;
        self
    }

    /// Only crossings where `g` goes from positive to negative count.
    pub fn falling(mut self) -> Self {
        self.direction = Direction::Falling;
        self
    }

    /// The run ends at the event: the trajectory's last point is the state there.
    pub fn stop(mut self) -> Self {
        self.action = Action::Stop;
        self
    }

    /// At the event, the state `(q, q̇)` is replaced by `reset(t, q, q̇)` (an impact, a
    /// kick) and the integration restarts from it at the event time (a fixed-step method
    /// starts its grid anew there). The new state must be finite and, for a constrained
    /// system, consistent with the constraints.
    pub fn reset(
        mut self,
        reset: impl Fn(f64, &SVector<f64, N>, &SVector<f64, N>) -> (SVector<f64, N>, SVector<f64, N>)
        + Send
        + Sync
        + 'a,
    ) -> Self {
        self.action = Action::Reset(Box::new(reset));
        self
    }

    /// The event's name.
    pub fn name(&self) -> &str {
        &self.name
    }

    /// Whether the event ends the integration (stop or reset).
    pub(crate) fn is_terminal(&self) -> bool {
        !matches!(self.action, Action::Record)
    }

    /// Whether the event stops the run.
    pub(crate) fn stops(&self) -> bool {
        matches!(self.action, Action::Stop)
    }

    /// `g` at `(t, y)`; an error when it is not finite.
    fn value(&self, t: f64, y: &State<N>) -> Result<f64, Error> {
        let g = (self.function)(t, &y.q, &y.qd);
        if g.is_finite() {
            Ok(g)
        } else {
            Err(self.error(t, format!("its function returned {g}")))
        }
    }

    /// The state a reset event restarts from at `(t, y)` (`None` for other events); an
    /// error when it is not finite.
    pub(crate) fn apply(&self, t: f64, y: &State<N>) -> Result<Option<State<N>>, Error> {
        let Action::Reset(reset) = &self.action else {
            return Ok(None);
        };
        let (q, qd) = reset(t, &y.q, &y.qd);
        let after = State::new(q, qd);
        if after.is_finite() {
            Ok(Some(after))
        } else {
            Err(self.error(
                t,
                format!(
                    "its reset returned a state that is not finite: q = {:?}, q̇ = {:?}",
                    q.as_slice(),
                    qd.as_slice()
                ),
            ))
        }
    }

    fn error(&self, t: f64, problem: String) -> Error {
        Error::Event {
            event: self.name.clone(),
            t,
            problem,
        }
    }
}

/// An event that fired during a run, as the [`Trajectory`](crate::Trajectory) records it.
#[derive(Debug, Clone, PartialEq)]
pub struct Occurrence<const N: usize> {
    /// Index of the event, in the order the simulation was given them.
    pub index: usize,
    /// The event's name.
    pub name: String,
    /// Time of the crossing.
    pub t: f64,
    /// Coordinates at the crossing (before a reset).
    pub q: SVector<f64, N>,
    /// Velocities at the crossing (before a reset).
    pub qd: SVector<f64, N>,
    /// For a reset: the state the run restarted from.
    pub after: Option<State<N>>,
}

/// A crossing located in a step.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Crossing<const N: usize> {
    /// Index of the event.
    pub index: usize,
    /// Time of the crossing.
    pub t: f64,
    /// State there, on the step's interpolant.
    pub y: State<N>,
}

/// The crossings of one step that act: those of recorded events, earliest first, up to
/// the earliest stop or reset, which comes last.
pub(crate) type Crossings<const N: usize> = Vec<Crossing<N>>;

/// The sign of every event function along a run, scanning step after step.
pub(crate) struct Watch<'e, 'a, const N: usize> {
    events: &'e [Event<'a, N>],
    /// `g > 0` at the end of the last scanned step; `None` while unknown (after a
    /// (re)start) or zero so far.
    positive: Vec<Option<bool>>,
    /// Whether the next step is the first of a (re)started integration.
    restarting: bool,
}

impl<'e, 'a, const N: usize> Watch<'e, 'a, N> {
    /// Watches `events` from the start of a run.
    pub(crate) fn new(events: &'e [Event<'a, N>]) -> Self {
        Watch {
            events,
            positive: vec![None; events.len()],
            restarting: true,
        }
    }

    /// The integration restarts (after a reset): signs are taken anew.
    pub(crate) fn restart(&mut self) {
        self.positive.fill(None);
        self.restarting = true;
    }

    /// Scans an accepted step: the crossings that act (see [`Crossings`]).
    pub(crate) fn scan(&mut self, step: &Step<N>) -> Result<Crossings<N>, Error> {
        let (t0, t1) = (step.start_time(), step.end_time());
        let from = if self.restarting {
            self.restarting = false;
            let window = RESTART_WINDOW * f64::EPSILON * (t0.abs() + (t1 - t0));
            (t0 + window).min(t1)
        } else {
            t0
        };
        let y_from = state_on(step, from);
        let mut found = Vec::new();
        for (index, event) in self.events.iter().enumerate() {
            let end = event.value(t1, &step.end())?;
            let Some(before) = self.positive[index] else {
                // Unknown sign: take it at the scan point, or failing that (g = 0 there)
                // at the end of the step.
                let start = event.value(from, &y_from)?;
                if start != 0.0 && end != 0.0 && (start > 0.0) != (end > 0.0) {
                    self.crossing(index, step, (from, start), (t1, end), &mut found)?;
                }
                let sign = [end, start].into_iter().find(|g| *g != 0.0);
                self.positive[index] = sign.map(|g| g > 0.0);
                continue;
            };
            if end == 0.0 || (end > 0.0) == before {
                continue;
            }
            self.positive[index] = Some(end > 0.0);
            let start = event.value(from, &y_from)?;
            self.crossing(index, step, (from, start), (t1, end), &mut found)?;
        }
        // At one time, recorded events come before a stop or reset, which ends the step.
        let terminal = |c: &Crossing<N>| self.events[c.index].is_terminal();
        found.sort_by(|a, b| {
            (a.t.total_cmp(&b.t))
                .then(terminal(a).cmp(&terminal(b)))
                .then(a.index.cmp(&b.index))
        });
        if let Some(first) = found.iter().position(terminal) {
            found.truncate(first + 1);
        }
        Ok(found)
    }

    /// Adds the crossing of event `index` between `(a, g(a))` and `(b, g(b))` (of opposite
    /// signs, or `g(a) = 0`) to `found` if its direction counts.
    fn crossing(
        &self,
        index: usize,
        step: &Step<N>,
        (a, ga): (f64, f64),
        (b, gb): (f64, f64),
        found: &mut Crossings<N>,
    ) -> Result<(), Error> {
        let event = &self.events[index];
        let counts = match event.direction {
            Direction::Rising => gb > 0.0,
            Direction::Falling => gb < 0.0,
            Direction::Either => true,
        };
        if !counts {
            return Ok(());
        }
        let t = locate(|t| event.value(t, &state_on(step, t)), (a, ga), (b, gb))?;
        found.push(Crossing {
            index,
            t,
            y: state_on(step, t),
        });
        Ok(())
    }
}

/// The state at `t` on `step`: its end state at its end time, the interpolant elsewhere.
fn state_on<const N: usize>(step: &Step<N>, t: f64) -> State<N> {
    if t == step.end_time() {
        step.end()
    } else {
        step.interpolate(t)
    }
}

/// A root of `f` in `[a, b]`, where `f(a)` and `f(b)` have opposite signs (or one is
/// zero): the Illinois variant of regula falsi, with a bisection whenever two steps did
/// not halve the bracket, until the bracket is a few ulp wide. Returns the end of the
/// final bracket where `|f|` is smaller.
pub(crate) fn locate(
    mut f: impl FnMut(f64) -> Result<f64, Error>,
    (mut a, mut fa): (f64, f64),
    (mut b, mut fb): (f64, f64),
) -> Result<f64, Error> {
    if fa == 0.0 {
        return Ok(a);
    }
    if fb == 0.0 {
        return Ok(b);
    }
    // The secant's weights: the true values, halved while an end is kept (Illinois).
    let (mut wa, mut wb) = (fa, fb);
    // Which end the last step kept: `Some(true)` for `a`.
    let mut kept: Option<bool> = None;
    let mut widths = [f64::INFINITY; 2];
    for _ in 0..ROOT_ITERATIONS {
        let width = b - a;
        // Two ulp, the smallest step taken: a secant that lands next to an end closes the
        // bracket from the other side.
        let tol = 2.0 * f64::EPSILON * a.abs().max(b.abs());
        if width <= 2.0 * tol {
            break;
        }
        let secant = b - wb * (b - a) / (wb - wa);
        let c = if width > 0.5 * widths[0] || secant.is_nan() {
            a + 0.5 * width
        } else {
            secant.clamp(a + tol, b - tol)
        };
        if c <= a || c >= b {
            break;
        }
        widths = [widths[1], width];
        let fc = f(c)?;
        if fc == 0.0 {
            return Ok(c);
        }
        if (fc > 0.0) == (fb > 0.0) {
            (b, fb, wb) = (c, fc, fc);
            if kept == Some(true) {
                wa *= 0.5;
            }
            kept = Some(true);
        } else {
            (a, fa, wa) = (c, fc, fc);
            if kept == Some(false) {
                wb *= 0.5;
            }
            kept = Some(false);
        }
    }
    Ok(if fa.abs() < fb.abs() { a } else { b })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::integrate::Integrator;
    use crate::simulation::Simulation;
    use crate::test_systems::{Ball, DoubleIntegrator, Pendulum, state};
    use crate::trajectory::Trajectory;

    const PENDULUM: Pendulum = Pendulum {
        m: 1.3,
        l: 0.7,
        g: 9.81,
    };
    const BALL: Ball = Ball { m: 0.2, g: 9.81 };

    /// The complete elliptic integral of the first kind, `K(k) = π / (2 AGM(1, √(1 − k²)))`.
    fn elliptic_k(k: f64) -> f64 {
        let (mut a, mut b) = (1.0f64, (1.0 - k * k).sqrt());
        // Quadratic convergence: a few iterations reach round-off, where a fixed count
        // stops (a test on |a − b| could cycle between neighbouring floats).
        for _ in 0..32 {
            (a, b) = (0.5 * (a + b), (a * b).sqrt());
        }
        std::f64::consts::PI / (a + b)
    }

    /// Half the period of the pendulum released from rest at `theta0`:
    /// `2 √(l/g) K(sin(θ₀/2))`.
    fn half_period(theta0: f64) -> f64 {
        2.0 * (PENDULUM.l / PENDULUM.g).sqrt() * elliptic_k((0.5 * theta0).sin())
    }

    fn relative(a: f64, b: f64) -> f64 {
        (a - b).abs() / b.abs()
    }

    /// A ball bouncing on `y = 0` with restitution `e`, whose apexes are recorded.
    fn bouncing(e: f64) -> [Event<'static, 1>; 2] {
        [
            Event::new("floor", |_, q, _| q[0])
                .falling()
                .reset(move |_, q, qd| (*q, -e * qd)),
            Event::new("apex", |_, _, qd| qd[0]).falling(),
        ]
    }

    fn times(trajectory: &Trajectory<1>, name: &str) -> Vec<f64> {
        trajectory.events_named(name).map(|o| o.t).collect()
    }

    #[test]
    fn the_energy_drift_of_a_bouncing_ball_is_measured_between_impacts() {
        // Each impact takes 1 − e² of the energy on purpose; between impacts the energy is
        // conserved, and that is what the drift measures.
        let (q, qd) = state([1.0], [0.0]);
        let [floor, apex] = bouncing(0.8);
        let traj = Simulation::new(&BALL)
            .integrator(Integrator::dormand_prince(1e-12, 1e-12))
            .event(floor)
            .event(apex)
            .run(0.0, q, qd, 2.0)
            .unwrap();
        let energy = traj.invariant("energy").unwrap();
        assert_eq!(energy.restarts.len(), traj.events_named("floor").count());
        assert!(energy.drift() < 1e-12, "{}", energy.drift());
        let last = *energy.values.last().unwrap();
        let bounces = traj.events_named("floor").count() as i32;
        let e0 = BALL.m * BALL.g;
        assert!(relative(last, e0 * 0.64f64.powi(bounces)) < 1e-10, "{last}");
    }

    #[test]
    fn the_pendulum_turns_back_after_half_its_period() {
        for theta0 in [0.3, 2.5] {
            let (q, qd) = state([theta0], [0.0]);
            // Released at θ₀ > 0, θ̇ < 0 until the far extreme, where it rises through 0.
            // The start, at θ̇ = 0 exactly, is no crossing.
            let run = |integrator| {
                Simulation::new(&PENDULUM)
                    .integrator(integrator)
                    .event(Event::new("turn", |_, _, qd| qd[0]).rising().stop())
                    .run(0.0, q, qd, 10.0)
                    .unwrap()
            };
            let expected = half_period(theta0);
            let traj = run(Integrator::dormand_prince(1e-13, 1e-13));
            let [turn] = traj.events() else {
                panic!("{:?}", traj.events())
            };
            assert!(
                relative(turn.t, expected) < 1e-10,
                "{} vs {expected}",
                turn.t
            );
            let (t, q, qd) = traj.last().unwrap();
            assert_eq!((t, q, qd), (turn.t, turn.q, turn.qd));
            assert!(relative(-q[0], theta0) < 1e-10, "{}", q[0]);
            // RK4's global error is O(dt⁴): with dt = 1e-3 about 1e-12 in the state here, and
            // its Hermite interpolant (also order 4) puts the turn within ~2e-12 of the
            // closed form (1.6e-8 with dt = 1e-2).
            let traj = run(Integrator::Rk4 { dt: 1e-3 });
            let turn = traj.events()[0].t;
            assert!(relative(turn, expected) < 1e-10, "{turn} vs {expected}");
        }
    }

    #[test]
    fn a_stop_event_ends_the_trajectory_at_the_crossing() {
        let theta0 = 0.3;
        let (q, qd) = state([theta0], [0.0]);
        let dt = 0.05;
        let traj = Simulation::new(&PENDULUM)
            .output_interval(dt)
            .event(Event::new("bottom", |_, q, _| q[0]).falling().stop())
            .run(0.0, q, qd, 10.0)
            .unwrap();
        let quarter = 0.5 * half_period(theta0);
        let (t, q, _) = traj.last().unwrap();
        assert!(relative(t, quarter) < 1e-10, "{t} vs {quarter}");
        assert!(q[0].abs() < 1e-14, "g = θ = {} at the stop", q[0]);
        // The grid before the event, then the event's own sample.
        assert_eq!(traj.len(), (quarter / dt).floor() as usize + 2);
        for (k, t) in traj.times()[..traj.len() - 1].iter().enumerate() {
            assert!((t - dt * k as f64).abs() < 1e-12, "{t}");
        }
    }

    #[test]
    fn bounces_and_apexes_follow_the_closed_form() {
        let (h0, e): (f64, f64) = (1.5, 0.8);
        let fall = (2.0 * h0 / BALL.g).sqrt();
        // t₁ = √(2h₀/g), t_{n+1} = t_n + 2 eⁿ √(2h₀/g); apex n at t_n + eⁿ √(2h₀/g), height e^{2n} h₀.
        let mut bounces = vec![fall];
        for n in 1..10 {
            bounces.push(bounces[n - 1] + 2.0 * e.powi(n as i32) * fall);
        }
        let t_end = bounces[9] + 1.5 * e.powi(10) * fall;
        let (q, qd) = state([h0], [0.0]);
        for integrator in [
            Integrator::dormand_prince(1e-10, 1e-10),
            Integrator::Rk4 { dt: 0.01 },
            Integrator::GaussLegendre {
                dt: 0.01,
                stages: 2,
            },
            Integrator::Variational { dt: 0.01 },
        ] {
            let [floor, apex] = bouncing(e);
            let traj = Simulation::new(&BALL)
                .integrator(integrator)
                .event(floor)
                .event(apex)
                .run(0.0, q, qd, t_end)
                .unwrap();
            let floor = times(&traj, "floor");
            assert_eq!(floor.len(), 10, "{integrator:?}: {floor:?}");
            for (n, (t, expected)) in floor.iter().zip(&bounces).enumerate() {
                assert!(
                    relative(*t, *expected) < 1e-12,
                    "{integrator:?}: bounce {} at {t}, expected {expected}",
                    n + 1
                );
            }
            let apexes: Vec<_> = traj.events_named("apex").collect();
            assert_eq!(apexes.len(), 10, "{integrator:?}");
            for (n, apex) in apexes.iter().enumerate() {
                let expected = e.powi(2 * (n as i32 + 1)) * h0;
                assert!(
                    relative(apex.q[0], expected) < 1e-9,
                    "{integrator:?}: apex {} at {}, expected {expected}",
                    n + 1,
                    apex.q[0]
                );
            }
            // Each impact is recorded with the states before and after, and the trajectory
            // holds both at its time.
            for bounce in traj.events_named("floor") {
                let after = bounce.after.unwrap();
                assert_eq!(after.q, bounce.q);
                assert!(relative(after.qd[0], -e * bounce.qd[0]) < 1e-15);
                let k = traj.times().iter().position(|t| *t == bounce.t).unwrap();
                assert_eq!(traj.times()[k + 1], bounce.t);
                assert_eq!((traj.qd()[k], traj.qd()[k + 1]), (bounce.qd, after.qd));
            }
            assert_eq!(traj.last().unwrap().0, t_end);
        }
    }

    /// A ball that starts on the floor going up, with an event on `y = 0` in either
    /// direction: neither the start nor the state right after each impact, both on
    /// `y = 0` up to round-off, may fire it again.
    #[test]
    fn a_crossing_at_the_start_or_right_after_a_reset_does_not_fire_again() {
        let (v, e): (f64, f64) = (3.0, 0.9);
        let (q, qd) = state([0.0], [v]);
        let traj = Simulation::new(&BALL)
            .event(Event::new("floor", |_, q, _| q[0]).reset(move |_, q, qd| (*q, -e * qd)))
            .run(0.0, q, qd, 3.0)
            .unwrap();
        // Flights of 2 eⁿ v / g.
        let mut expected = Vec::new();
        let mut t = 0.0;
        for n in 0.. {
            t += 2.0 * e.powi(n) * v / BALL.g;
            if t > 3.0 {
                break;
            }
            expected.push(t);
        }
        let found = times(&traj, "floor");
        assert_eq!(found.len(), expected.len(), "{found:?}");
        for (t, expected) in found.iter().zip(&expected) {
            assert!(relative(*t, *expected) < 1e-12, "{t} vs {expected}");
        }
    }

    /// With e = ½ the ball comes to rest after infinitely many impacts by
    /// `t∞ = √(2h₀/g) (1 + 2e/(1 − e))`: the cap on events ends the run with an error.
    #[test]
    fn a_chattering_ball_is_stopped_by_the_event_cap() {
        let (h0, e): (f64, f64) = (1.0, 0.5);
        let fall = (2.0 * h0 / BALL.g).sqrt();
        let rest = fall * (1.0 + 2.0 * e / (1.0 - e));
        let [floor, _] = bouncing(e);
        let (q, qd) = state([h0], [0.0]);
        let stopped = Simulation::new(&BALL)
            .event(floor)
            .max_events(30)
            .run_keeping_partial(0.0, q, qd, 10.0)
            .unwrap_err();
        assert!(
            matches!(stopped.error, Error::TooManyEvents { events: 30, t } if t < rest),
            "{}",
            stopped.error
        );
        let partial = stopped.partial.unwrap();
        assert_eq!(partial.events().len(), 30);
        let last = partial.events()[29].t;
        // t₃₀ = t∞ − 2 e³⁰ √(2h₀/g) / (1 − e).
        let expected = rest - 2.0 * e.powi(30) * fall / (1.0 - e);
        assert!(relative(last, expected) < 1e-12, "{last} vs {expected}");
        // The trajectory ends at the impact beyond the cap.
        let Error::TooManyEvents { t, .. } = stopped.error else {
            unreachable!()
        };
        assert_eq!(partial.last().unwrap().0, t);
        assert!(relative(t, rest - e.powi(31) * 2.0 * fall / (1.0 - e)) < 1e-12);
        // Without the cap, the run still ends, with an error, when the flights get too
        // short for floating point, a little before t∞.
        let [floor, _] = bouncing(e);
        let stopped = Simulation::new(&BALL)
            .event(floor)
            .run_keeping_partial(0.0, q, qd, 10.0)
            .unwrap_err();
        let partial = stopped.partial.unwrap();
        assert!(partial.events().len() > 30, "{}", stopped.error);
        assert!(partial.events().iter().all(|o| o.t < rest));
    }

    #[test]
    fn bad_event_values_are_clear_errors_and_the_run_keeps_its_events() {
        let (q, qd) = state([0.5], [2.0]);
        // Up, apex at v/g, down to the floor, where the reset fails.
        let stopped = Simulation::new(&BALL)
            .event(Event::new("apex", |_, _, qd| qd[0]).falling())
            .event(
                Event::new("floor\n", |_, q, _| q[0])
                    .falling()
                    .reset(|_, q, _| (*q, SVector::from([f64::NAN]))),
            )
            .run_keeping_partial(0.0, q, qd, 5.0)
            .unwrap_err();
        let message = stopped.error.to_string();
        assert!(
            matches!(&stopped.error, Error::Event { event, .. } if event == "floor\n"),
            "{message}"
        );
        assert!(
            message.contains("`floor\\n`") && message.contains("reset"),
            "{message}"
        );
        assert!(!message.chars().any(char::is_control), "{message}");
        let partial = stopped.partial.unwrap();
        let [apex] = partial.events() else {
            panic!("{:?}", partial.events())
        };
        assert!(relative(apex.t, 2.0 / BALL.g) < 1e-12);
        // The trajectory ends at the impact: y = 0.5 + 2t − g t²/2 = 0.
        let impact = (2.0 + (4.0 + BALL.g).sqrt()) / BALL.g;
        assert!(relative(partial.last().unwrap().0, impact) < 1e-12);

        let error = Simulation::new(&BALL)
            .event(Event::new(
                "nan",
                |t, _, _| if t > 0.1 { f64::NAN } else { 1.0 },
            ))
            .run(0.0, q, qd, 1.0)
            .unwrap_err();
        assert!(
            matches!(&error, Error::Event { event, .. } if event == "nan"),
            "{error}"
        );
        assert!(error.to_string().contains("NaN"), "{error}");
    }

    #[test]
    fn record_events_leave_the_samples_alone() {
        let (q, qd) = state([0.3], [0.0]);
        let plain = Simulation::new(&PENDULUM)
            .output_interval(0.1)
            .run(0.0, q, qd, 5.0)
            .unwrap();
        let watched = Simulation::new(&PENDULUM)
            .output_interval(0.1)
            .event(Event::new("bottom", |_, q, _| q[0]))
            .run(0.0, q, qd, 5.0)
            .unwrap();
        assert_eq!(watched.times(), plain.times());
        assert_eq!(watched.q(), plain.q());
        // The bottom is passed every half period, first at a quarter period.
        let quarter = 0.5 * half_period(0.3);
        let found = times(&watched, "bottom");
        assert_eq!(found.len(), (5.0 / (2.0 * quarter) + 0.5).floor() as usize);
        for (k, t) in found.iter().enumerate() {
            let expected = (2 * k + 1) as f64 * quarter;
            assert!(relative(*t, expected) < 1e-9, "{t} vs {expected}");
        }
    }

    #[test]
    fn resets_add_their_two_samples_to_the_output_grid_and_share_the_step_budget() {
        let (h0, e): (f64, f64) = (1.5, 0.8);
        let (q, qd) = state([h0], [0.0]);
        let run = |max_steps| {
            let [floor, _] = bouncing(e);
            Simulation::new(&BALL)
                .integrator(Integrator::DormandPrince {
                    rtol: 1e-10,
                    atol: 1e-10,
                    h0: None,
                    h_max: Some(0.02),
                })
                .output_interval(0.1)
                .max_steps(max_steps)
                .event(floor)
                .run(0.0, q, qd, 2.0)
        };
        let traj = run(1000).unwrap();
        let bounces = times(&traj, "floor");
        // t₁ = √(2h₀/g) ≈ 0.553, t₂ = t₁ (1 + 2e) ≈ 1.438.
        assert_eq!(bounces.len(), 2);
        let mut expected: Vec<f64> = (0..=20).map(|k| 0.1 * k as f64).collect();
        expected.extend(bounces.iter().chain(&bounces));
        expected.sort_by(f64::total_cmp);
        assert_eq!(traj.len(), expected.len());
        for (t, expected) in traj.times().iter().zip(&expected) {
            assert!((t - expected).abs() < 1e-12, "{t} vs {expected}");
        }
        // Every pass of the integration draws on one budget.
        let used = traj.stats().accepted + traj.stats().rejected;
        assert!(run(used).is_ok());
        let error = run(used - 1).unwrap_err();
        assert!(
            matches!(error, Error::MaxStepsExceeded { steps, .. } if steps == used - 1),
            "{error}"
        );
    }

    /// One RK4 step of 1 s holds all the crossings of a fall from 1 m (exact: the motion
    /// is quadratic): the heights pass 0.5 (recorded), 0.25 (stop), 0.1 (recorded) and 0
    /// (stop) at `√(2(1 − y)/g)`. The earliest stop acts; nothing after it is recorded.
    #[test]
    fn several_crossings_in_one_step_act_earliest_first() {
        let (q, qd) = state([1.0], [0.0]);
        let height = |name: &'static str, y: f64| Event::new(name, move |_, q, _| q[0] - y);
        let traj = Simulation::new(&BALL)
            .integrator(Integrator::Rk4 { dt: 1.0 })
            .event(height("floor", 0.0).stop())
            .event(height("low", 0.1))
            .event(height("quarter", 0.25).falling().stop())
            .event(height("half", 0.5).falling())
            .run(0.0, q, qd, 2.0)
            .unwrap();
        assert_eq!(traj.stats().accepted, 1);
        let at = |y: f64| (2.0 * (1.0 - y) / BALL.g).sqrt();
        let fired: Vec<_> = traj
            .events()
            .iter()
            .map(|o| (o.name.as_str(), o.t))
            .collect();
        let [("half", half), ("quarter", quarter)] = fired[..] else {
            panic!("{fired:?}")
        };
        assert!(relative(half, at(0.5)) < 1e-14, "{half}");
        assert!(relative(quarter, at(0.25)) < 1e-14, "{quarter}");
        let (t, y, _) = traj.last().unwrap();
        assert_eq!(t, quarter);
        assert!((y[0] - 0.25).abs() < 1e-14);
    }

    /// A sampled run integrates period by period with systems of its own, so it does not
    /// carry events: it says so instead of ignoring them.
    #[test]
    fn a_sampled_run_refuses_events() {
        let system = DoubleIntegrator { m: 1.0, u: 0.0 };
        let (q, qd) = state([1.0], [0.0]);
        let error = Simulation::new(&system)
            .event(Event::new("origin", |_, q, _| q[0]).stop())
            .run_sampled(|_, q, _| vec![-q[0]], 0.1, 0.0, q, qd, 1.0)
            .unwrap_err();
        assert!(
            matches!(&error, Error::InvalidInput(why) if why.contains("events")),
            "{error}"
        );
    }

    #[test]
    fn roots_are_located_to_a_few_ulp() {
        let mut calls = 0;
        let root = locate(
            |t| {
                calls += 1;
                Ok(t.cos())
            },
            (0.0, 1.0),
            (3.0, 3f64.cos()),
        )
        .unwrap();
        let pi_2 = std::f64::consts::FRAC_PI_2;
        assert!((root - pi_2).abs() <= 4.0 * f64::EPSILON * pi_2, "{root}");
        assert!(calls < 20, "{calls} evaluations");
        // A flat root, where regula falsi alone crawls: the bisections still get there.
        let root = locate(
            |t| Ok((t - 0.3).powi(9)),
            (0.0, -0.3f64.powi(9)),
            (1.0, 0.7f64.powi(9)),
        )
        .unwrap();
        assert!((root - 0.3).abs() < 1e-15, "{root}");
    }
}
