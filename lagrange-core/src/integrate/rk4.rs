//! Classic fixed-step Runge–Kutta of order 4.

use std::ops::ControlFlow;

use nalgebra::{DefaultAllocator, Dim, OVector, U1};

use super::{ActionIntegrals, Rhs, State, Step, fixed_steps};
use crate::error::Error;
use crate::size::DimAllocator;
use crate::system::LagrangianSystem;

/// Integrates with steps of `dt`, the last one shortened to end exactly at `t_end`.
pub(super) fn integrate<S: LagrangianSystem<N>, N: Dim>(
    rhs: &mut Rhs<'_, S>,
    dt: f64,
    t0: f64,
    y0: State<N>,
    t_end: f64,
    max_steps: usize,
    mut on_step: impl FnMut(&Step<N>) -> Result<ControlFlow<()>, Error>,
) -> Result<(), Error>
where
    DefaultAllocator: DimAllocator<N>,
{
    let steps = fixed_steps(t0, t_end, dt, max_steps)?;
    let n = y0.q.shape_generic().0;
    let no_correction = State::new(OVector::zeros_generic(n, U1), OVector::zeros_generic(n, U1));
    let mut y = y0;
    let mut f = rhs.eval(t0, &y)?;
    let mut g = None;
    for (t, t_next) in steps.iter() {
        let h = t_next - t;
        let t_half = t + 0.5 * h;
        let k1 = &f;
        let y2 = &y + k1 * (0.5 * h);
        let k2 = rhs.eval(t_half, &y2)?;
        let y3 = &y + &k2 * (0.5 * h);
        let k3 = rhs.eval(t_half, &y3)?;
        let y4 = &y + &k3 * h;
        let k4 = rhs.eval(t_next, &y4)?;
        let y_next = &y + (k1 + (k2 + k3) * 2.0 + k4) * (h / 6.0);
        // Drift control of constrained systems: continue from the projected state.
        let y_next = rhs.project(t_next, &y_next)?.unwrap_or(y_next);
        // Also the first stage of the next step, and the end slope of the Hermite interpolant.
        let f_next = rhs.eval(t_next, &y_next)?;
        let step = Step::new(
            (t, y, f),
            (t_next, y_next.clone(), f_next.clone()),
            no_correction.clone(),
        );
        // The action integrals are further components of the state, which no stage reads.
        let (step, g_next) = rhs.carry_action(step, g, |rhs, g1, _| {
            let (g2, g3) = (rhs.action_rates(t_half, &y2), rhs.action_rates(t_half, &y3));
            let increment = (g1 + (g2 + g3) * 2.0 + rhs.action_rates(t_next, &y4)) * (h / 6.0);
            [increment, ActionIntegrals::default()]
        });
        if on_step(&step)?.is_break() {
            return Ok(());
        }
        (y, f, g) = (y_next, f_next, g_next);
    }
    Ok(())
}
