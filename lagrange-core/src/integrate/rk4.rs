//! Classic fixed-step Runge–Kutta of order 4.

use nalgebra::SVector;

use super::{Rhs, State, Step};
use crate::error::Error;
use crate::system::LagrangianSystem;

/// Integrates with steps of `dt`, the last one shortened to end exactly at `t_end`.
/// Returns the accepted and rejected step counts.
pub(super) fn integrate<S: LagrangianSystem<N>, const N: usize>(
    rhs: &mut Rhs<'_, S>,
    dt: f64,
    t0: f64,
    y0: State<N>,
    t_end: f64,
    max_steps: usize,
    mut on_step: impl FnMut(&Step<N>),
) -> Result<(usize, usize), Error> {
    let ratio = (t_end - t0) / dt;
    let mut steps = ratio.ceil();
    // A remainder below 1e-9 dt is rounding in `ratio`, not a step of its own.
    if steps > 1.0 && ratio - (steps - 1.0) < 1e-9 {
        steps -= 1.0;
    }
    if steps > max_steps as f64 {
        return Err(Error::MaxStepsExceeded {
            t: t0,
            steps: max_steps,
        });
    }
    let steps = steps as usize;
    let no_correction = State::new(SVector::zeros(), SVector::zeros());
    let mut y = y0;
    let mut f = rhs.eval(t0, &y)?;
    for i in 0..steps {
        let t = t0 + i as f64 * dt;
        let t_next = if i + 1 == steps {
            t_end
        } else {
            t0 + (i + 1) as f64 * dt
        };
        let h = t_next - t;
        let k1 = f;
        let k2 = rhs.eval(t + 0.5 * h, &(y + k1 * (0.5 * h)))?;
        let k3 = rhs.eval(t + 0.5 * h, &(y + k2 * (0.5 * h)))?;
        let k4 = rhs.eval(t_next, &(y + k3 * h))?;
        let y_next = y + (k1 + (k2 + k3) * 2.0 + k4) * (h / 6.0);
        // Also the first stage of the next step, and the end slope of the Hermite interpolant.
        let f_next = rhs.eval(t_next, &y_next)?;
        on_step(&Step::new(
            (t, y, f),
            (t_next, y_next, f_next),
            no_correction,
        ));
        y = y_next;
        f = f_next;
    }
    Ok((steps, 0))
}
