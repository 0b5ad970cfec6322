//! Classic fixed-step Runge–Kutta of order 4.

use std::ops::ControlFlow;

use nalgebra::{DefaultAllocator, Dim};

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
    let mut y = y0;
    let mut f = rhs.eval(t0, &y)?;
    let mut g = None;
    // The stages' states and slopes, and the vectors of the last step's start, reused:
    // at run-time sizes every new vector is an allocation.
    let [mut y2, mut y3, mut y4, mut k2, mut k3, mut k4] = std::array::from_fn(|_| y.clone());
    let mut spare = (y.clone(), f.clone());
    for (t, t_next) in steps.iter() {
        let h = t_next - t;
        let t_half = t + 0.5 * h;
        let k1 = &f;
        advance(&mut y2, &y, k1, 0.5 * h);
        rhs.eval_into(t_half, &y2, &mut k2)?;
        advance(&mut y3, &y, &k2, 0.5 * h);
        rhs.eval_into(t_half, &y3, &mut k3)?;
        advance(&mut y4, &y, &k3, h);
        rhs.eval_into(t_next, &y4, &mut k4)?;
        let (mut y_next, mut f_next) = spare;
        combine(&mut y_next, &y, [k1, &k2, &k3, &k4], h / 6.0);
        // Drift control of constrained systems: continue from the projected state.
        if let Some(projected) = rhs.project(t_next, &y_next)? {
            y_next = projected;
        }
        // Also the first stage of the next step, and the end slope of the Hermite interpolant.
        rhs.eval_into(t_next, &y_next, &mut f_next)?;
        let step = Step::new((t, y, f), (t_next, y_next, f_next), None);
        // The action integrals are further components of the state, which no stage reads.
        let (step, g_next) = rhs.carry_action(step, g, |rhs, g1, _| {
            let (g2, g3) = (rhs.action_rates(t_half, &y2), rhs.action_rates(t_half, &y3));
            let increment = (g1 + (g2 + g3) * 2.0 + rhs.action_rates(t_next, &y4)) * (h / 6.0);
            [increment, ActionIntegrals::default()]
        });
        if on_step(&step)?.is_break() {
            return Ok(());
        }
        let [start, end] = step.into_ends();
        (spare, (y, f), g) = (start, end, g_next);
    }
    Ok(())
}

/// `out = y + k·c`, component by component (the bits of `&y + k * c`).
fn advance<N: Dim>(out: &mut State<N>, y: &State<N>, k: &State<N>, c: f64)
where
    DefaultAllocator: DimAllocator<N>,
{
    for (out, (y, k)) in out
        .parts_mut()
        .into_iter()
        .zip(y.parts().into_iter().zip(k.parts()))
    {
        for (o, (y, k)) in out.iter_mut().zip(y.iter().zip(k)) {
            *o = y + k * c;
        }
    }
}

/// `out = y + (k₁ + (k₂ + k₃)·2 + k₄)·c`, component by component (the bits of the same
/// expression over states).
fn combine<N: Dim>(out: &mut State<N>, y: &State<N>, k: [&State<N>; 4], c: f64)
where
    DefaultAllocator: DimAllocator<N>,
{
    let (y, [k1, k2, k3, k4]) = (y.parts(), k.map(State::parts));
    for (part, out) in out.parts_mut().into_iter().enumerate() {
        let (y, k1, k2, k3, k4) = (y[part], k1[part], k2[part], k3[part], k4[part]);
        for (i, o) in out.iter_mut().enumerate() {
            *o = y[i] + (k1[i] + (k2[i] + k3[i]) * 2.0 + k4[i]) * c;
        }
    }
}
