//! Classic fixed-step Runge–Kutta of order 4.

use std::ops::ControlFlow;

use nalgebra::SVector;

use super::{Rhs, State, Step, fixed_steps};
use crate::error::Error;
use crate::system::LagrangianSystem;

/// Integrates with steps of `dt`, the last one shortened to end exactly at `t_end`.
pub(super) fn integrate<S: LagrangianSystem<N>, const N: usize>(
    rhs: &mut Rhs<'_, S>,
    dt: f64,
    t0: f64,
    y0: State<N>,
    t_end: f64,
    max_steps: usize,
    mut on_step: impl FnMut(&Step<N>) -> Result<ControlFlow<()>, Error>,
) -> Result<(), Error> {
    let steps = fixed_steps(t0, t_end, dt, max_steps)?;
    let no_correction = State::new(SVector::zeros(), SVector::zeros());
    let mut y = y0;
    let mut f = rhs.eval(t0, &y)?;
    for (t, t_next) in steps.iter() {
        let h = t_next - t;
        let k1 = f;
        let k2 = rhs.eval(t + 0.5 * h, &(y + k1 * (0.5 * h)))?;
        let k3 = rhs.eval(t + 0.5 * h, &(y + k2 * (0.5 * h)))?;
        let k4 = rhs.eval(t_next, &(y + k3 * h))?;
        let y_next = y + (k1 + (k2 + k3) * 2.0 + k4) * (h / 6.0);
        // Drift control of constrained systems: continue from the projected state.
        let y_next = rhs.project(t_next, &y_next)?.unwrap_or(y_next);
        // Also the first stage of the next step, and the end slope of the Hermite interpolant.
        let f_next = rhs.eval(t_next, &y_next)?;
        let step = Step::new((t, y, f), (t_next, y_next, f_next), no_correction);
        if on_step(&step)?.is_break() {
            return Ok(());
        }
        y = y_next;
        f = f_next;
    }
    Ok(())
}
