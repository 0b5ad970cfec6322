//! Where the events of a run fire: the sign of each event function watched step after
//! step, and the crossings located on the step's interpolant.

use nalgebra::{DefaultAllocator, Dim};

use super::{Direction, Event, RESTART_WINDOW};
use crate::error::Error;
use crate::integrate::{State, Step};
use crate::size::DimAllocator;

/// Largest number of evaluations of `g` spent on one root.
pub const ROOT_ITERATIONS: usize = 300;

/// A sign change whose final bracket, a few ulp wide, still holds this fraction of the
/// change across the whole bracket is a jump (a pole, a discontinuity), not a zero.
pub const JUMP_FRACTION: f64 = 0.5;

/// A crossing located in a step.
#[derive(Debug, Clone)]
pub(crate) struct Crossing<N: Dim>
where
    DefaultAllocator: DimAllocator<N>,
{
    /// Index of the event.
    pub index: usize,
    /// Time of the crossing.
    pub t: f64,
    /// State there, on the step's interpolant.
    pub y: State<N>,
}

/// The crossings of one step that act: those of recorded events, earliest first, up to
/// the earliest stop or reset, which comes last.
pub(crate) type Crossings<N> = Vec<Crossing<N>>;

/// The sign of every event function along a run, scanning step after step.
pub(crate) struct Watch<'e, 'a, N: Dim>
where
    DefaultAllocator: DimAllocator<N>,
{
    events: &'e [Event<'a, N>],
    /// `g > 0` at the end of the last scanned step; `None` while unknown (after a
    /// (re)start) or zero so far.
    positive: Vec<Option<bool>>,
    /// Whether the next step is the first of a (re)started integration.
    restarting: bool,
}

impl<'e, 'a, N: Dim> Watch<'e, 'a, N>
where
    DefaultAllocator: DimAllocator<N>,
{
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
        // Interpolated only where an event's sign is taken there: most steps cross
        // nothing, and at run-time sizes a state is two allocations.
        let mut y_from = None;
        let mut value_from = |event: &Event<'a, N>| {
            event.value(from, y_from.get_or_insert_with(|| state_on(step, from)))
        };
        let mut found = Vec::new();
        for (index, event) in self.events.iter().enumerate() {
            let end = event.value(t1, step.end())?;
            let Some(before) = self.positive[index] else {
                // Unknown sign: take it at the scan point, or failing that (g = 0 there)
                // at the end of the step.
                let start = value_from(event)?;
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
            let start = value_from(event)?;
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
        let t = match locate(|t| event.value(t, &state_on(step, t)), (a, ga), (b, gb))? {
            SignChange::Zero(t) => t,
            SignChange::Jump { t, before, after } => {
                return Err(event.error(
                    t,
                    format!(
                        "its function jumps from {before:e} to {after:e} there without passing through zero (a pole or a discontinuity, as tan at π/2): an event fires only where its function passes through zero"
                    ),
                ));
            }
        };
        found.push(Crossing {
            index,
            t,
            y: state_on(step, t),
        });
        Ok(())
    }
}

/// The state at `t` on `step`: its end state at its end time, the interpolant elsewhere.
fn state_on<N: Dim>(step: &Step<N>, t: f64) -> State<N>
where
    DefaultAllocator: DimAllocator<N>,
{
    if t == step.end_time() {
        step.end().clone()
    } else {
        step.interpolate(t)
    }
}

/// Where a function changes sign in a bracket, as [`locate`] finds it.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) enum SignChange {
    /// It passes through zero at this time.
    Zero(f64),
    /// It jumps across zero at `t`, from `before` to `after` (the values at the ends of
    /// the final bracket): a pole or a discontinuity, not a root.
    Jump { t: f64, before: f64, after: f64 },
}

/// The sign change of `f` in `[a, b]`, where `f(a)` and `f(b)` have opposite signs (or one
/// is zero): the Illinois variant of regula falsi, with a bisection whenever two steps did
/// not halve the bracket, until the bracket is a few ulp wide; the end of the final
/// bracket where `|f|` is smaller. A continuous function's change across the bracket
/// shrinks with it; one that keeps at least half the change of the whole bracket
/// ([`JUMP_FRACTION`]) while the bracket narrowed jumps there: a [`SignChange::Jump`].
pub(crate) fn locate(
    mut f: impl FnMut(f64) -> Result<f64, Error>,
    (mut a, mut fa): (f64, f64),
    (mut b, mut fb): (f64, f64),
) -> Result<SignChange, Error> {
    if fa == 0.0 {
        return Ok(SignChange::Zero(a));
    }
    if fb == 0.0 {
        return Ok(SignChange::Zero(b));
    }
    let (width0, change0) = (b - a, (fb - fa).abs());
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
            return Ok(SignChange::Zero(c));
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
    let t = if fa.abs() < fb.abs() { a } else { b };
    if b - a < width0 && (fb - fa).abs() >= JUMP_FRACTION * change0 {
        return Ok(SignChange::Jump {
            t,
            before: fa,
            after: fb,
        });
    }
    Ok(SignChange::Zero(t))
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::f64::consts::FRAC_PI_2;

    /// The time `locate` finds, which must be a zero.
    fn zero(f: impl Fn(f64) -> f64 + Copy, a: f64, b: f64) -> (f64, usize) {
        let mut calls = 0;
        let found = locate(
            |t| {
                calls += 1;
                Ok(f(t))
            },
            (a, f(a)),
            (b, f(b)),
        )
        .unwrap();
        match found {
            SignChange::Zero(t) => (t, calls),
            jump => panic!("a zero taken for {jump:?}"),
        }
    }

    #[test]
    fn roots_are_located_to_a_few_ulp() {
        let (root, calls) = zero(f64::cos, 0.0, 3.0);
        assert!(
            (root - FRAC_PI_2).abs() <= 4.0 * f64::EPSILON * FRAC_PI_2,
            "{root}"
        );
        assert!(calls < 20, "{calls} evaluations");
        // A flat root, where regula falsi alone crawls: the bisections still get there.
        let (root, _) = zero(|t| (t - 0.3).powi(9), 0.0, 1.0);
        assert!((root - 0.3).abs() < 1e-15, "{root}");
        // Steep, or next to an end of the bracket: still zeros.
        let (root, _) = zero(|t| 1e200 * (t - 0.5), 0.0, 1.0);
        assert!((root - 0.5).abs() < 1e-15, "{root}");
        let (root, _) = zero(|t| t - 1e-300, 0.0, 1.0);
        assert!(root < 1e-15, "{root}");
    }

    #[test]
    fn poles_and_discontinuities_are_jumps_not_zeros() {
        // tan changes sign at its pole π/2 (from +1.6e16 to −1.6e16 on either side), 1/x
        // and sec likewise, a step function without a pole: none passes through zero.
        let pole = FRAC_PI_2;
        type Function = fn(f64) -> f64;
        let functions: [(&str, Function, f64); 4] = [
            ("tan", f64::tan, pole),
            ("1/(t - 1)", |t| 1.0 / (t - 1.0), 1.0),
            ("sec", |t| 1.0 / t.cos(), pole),
            ("a step", |t| if t < 1.25 { -1.0 } else { 1.0 }, 1.25),
        ];
        for (name, f, at) in functions {
            let found = locate(|t| Ok(f(t)), (0.5, f(0.5)), (2.0, f(2.0))).unwrap();
            let SignChange::Jump { t, before, after } = found else {
                panic!("{name}: {found:?}");
            };
            assert!((t - at).abs() <= 4.0 * f64::EPSILON * at, "{name}: {t}");
            assert!(before.signum() != after.signum(), "{name}: {found:?}");
        }
        let found = locate(|t| Ok(t.tan()), (1.5, 1.5f64.tan()), (1.7, 1.7f64.tan())).unwrap();
        let SignChange::Jump { before, after, .. } = found else {
            panic!("{found:?}");
        };
        assert!(before > 1e15 && after < -1e15, "{found:?}");
    }
}
