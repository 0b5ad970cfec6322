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
//!
//! A sign change that stays a jump as its bracket narrows is a pole or a discontinuity,
//! not an event, and stops the run (`watch::JUMP_FRACTION`); so do resets of one event
//! that accumulate at a finite time ([`ACCUMULATION_WINDOW`]).

use std::fmt;

use nalgebra::{DefaultAllocator, Dim, OVector};

use crate::error::Error;
use crate::integrate::State;
use crate::size::DimAllocator;

#[cfg(test)]
mod tests;
pub(crate) mod watch;

pub(crate) use watch::{Crossing, Watch};

/// After the start of a run or a reset at `t0`, with first step `h`, crossings before
/// `t0 + RESTART_WINDOW·ε·(|t0| + h)` are not events: the state starts on the zero set of
/// the function that was just reset, up to the round-off of the root.
pub const RESTART_WINDOW: f64 = 100.0;

/// Resets of one event accumulate (Zeno) when the intervals between its last four shrink
/// and the time they converge to is within `ACCUMULATION_WINDOW·ε·|t|` of the last: the
/// events beyond could not be told apart in floating point, and the run stops there
/// rather than fall through the guard.
pub const ACCUMULATION_WINDOW: f64 = 1e6;

/// The time at which resets at `times` (one event's last four, earliest first)
/// accumulate, as [`ACCUMULATION_WINDOW`] says: the intervals' last ratio `r` taken as
/// constant, the geometric series `t₃ + d₃ r/(1 − r)`; `None` when they do not.
pub(crate) fn accumulation(times: [f64; 4]) -> Option<f64> {
    let d = [
        times[1] - times[0],
        times[2] - times[1],
        times[3] - times[2],
    ];
    let ratios = [d[1] / d[0], d[2] / d[1]];
    if !ratios.iter().all(|r| *r > 0.0 && *r < 1.0) {
        return None;
    }
    let rest = d[2] * ratios[1] / (1.0 - ratios[1]);
    let at = times[3] + rest;
    (rest <= ACCUMULATION_WINDOW * f64::EPSILON * at.abs()).then_some(at)
}

/// `g(t, q, q̇)`, whose zero crossings are the event.
type Function<'a, N> = dyn Fn(f64, &OVector<f64, N>, &OVector<f64, N>) -> f64 + Send + Sync + 'a;

/// `(t, q, q̇) → (q, q̇)`: the state the run restarts from.
type Reset<'a, N> = dyn Fn(f64, &OVector<f64, N>, &OVector<f64, N>) -> (OVector<f64, N>, OVector<f64, N>)
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
enum Action<'a, N: Dim>
where
    DefaultAllocator: DimAllocator<N>,
{
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
pub struct Event<'a, N: Dim>
where
    DefaultAllocator: DimAllocator<N>,
{
    name: String,
    function: Box<Function<'a, N>>,
    direction: Direction,
    action: Action<'a, N>,
}

impl<N: Dim> fmt::Debug for Event<'_, N>
where
    DefaultAllocator: DimAllocator<N>,
{
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

impl<'a, N: Dim> Event<'a, N>
where
    DefaultAllocator: DimAllocator<N>,
{
    /// The event `name` at the zero crossings of `g(t, q, q̇)`, in either direction,
    /// recorded in the trajectory.
    pub fn new(
        name: impl Into<String>,
        g: impl Fn(f64, &OVector<f64, N>, &OVector<f64, N>) -> f64 + Send + Sync + 'a,
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
        reset: impl Fn(f64, &OVector<f64, N>, &OVector<f64, N>) -> (OVector<f64, N>, OVector<f64, N>)
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
                    after.q.as_slice(),
                    after.qd.as_slice()
                ),
            ))
        }
    }

    /// The error of this event at `t`: `problem`.
    pub(crate) fn error(&self, t: f64, problem: String) -> Error {
        Error::Event {
            event: self.name.clone(),
            t,
            problem,
        }
    }
}

/// An event that fired during a run, as the [`Trajectory`](crate::Trajectory) records it.
#[derive(Debug, Clone, PartialEq)]
pub struct Occurrence<N: Dim>
where
    DefaultAllocator: DimAllocator<N>,
{
    /// Index of the event, in the order the simulation was given them.
    pub index: usize,
    /// The event's name.
    pub name: String,
    /// Time of the crossing.
    pub t: f64,
    /// Coordinates at the crossing (before a reset).
    pub q: OVector<f64, N>,
    /// Velocities at the crossing (before a reset).
    pub qd: OVector<f64, N>,
    /// For a reset: the state the run restarted from.
    pub after: Option<State<N>>,
}
