//! Dormand–Prince 5(4) with FSAL, a PI step-size controller and the continuous extension of
//! Hairer's `dopri5` (E. Hairer, S. P. Nørsett, G. Wanner, *Solving Ordinary Differential
//! Equations I*, 2nd ed., §II.4–II.6).

use std::ops::ControlFlow;

use nalgebra::{DefaultAllocator, Dim};

use super::{Rhs, State, Step};
use crate::error::Error;
use crate::size::DimAllocator;
use crate::system::LagrangianSystem;

/// What the adaptive integration needs besides the problem.
pub(super) struct Settings {
    pub rtol: f64,
    pub atol: f64,
    pub h0: Option<f64>,
    pub h_max: f64,
    pub max_steps: usize,
}

const C2: f64 = 1.0 / 5.0;
const C3: f64 = 3.0 / 10.0;
const C4: f64 = 4.0 / 5.0;
const C5: f64 = 8.0 / 9.0;

const A21: f64 = 1.0 / 5.0;
const A31: f64 = 3.0 / 40.0;
const A32: f64 = 9.0 / 40.0;
const A41: f64 = 44.0 / 45.0;
const A42: f64 = -56.0 / 15.0;
const A43: f64 = 32.0 / 9.0;
const A51: f64 = 19372.0 / 6561.0;
const A52: f64 = -25360.0 / 2187.0;
const A53: f64 = 64448.0 / 6561.0;
const A54: f64 = -212.0 / 729.0;
const A61: f64 = 9017.0 / 3168.0;
const A62: f64 = -355.0 / 33.0;
const A63: f64 = 46732.0 / 5247.0;
const A64: f64 = 49.0 / 176.0;
const A65: f64 = -5103.0 / 18656.0;
// The 5th-order weights, which are also the last row of the tableau (FSAL).
const A71: f64 = 35.0 / 384.0;
const A73: f64 = 500.0 / 1113.0;
const A74: f64 = 125.0 / 192.0;
const A75: f64 = -2187.0 / 6784.0;
const A76: f64 = 11.0 / 84.0;

// Differences between the 5th- and 4th-order weights.
const E1: f64 = 71.0 / 57600.0;
const E3: f64 = -71.0 / 16695.0;
const E4: f64 = 71.0 / 1920.0;
const E5: f64 = -17253.0 / 339200.0;
const E6: f64 = 22.0 / 525.0;
const E7: f64 = -1.0 / 40.0;

// The quartic correction of the continuous extension.
const D1: f64 = -12715105075.0 / 11282082432.0;
const D3: f64 = 87487479700.0 / 32700410799.0;
const D4: f64 = -10690763975.0 / 1880347072.0;
const D5: f64 = 701980252875.0 / 199316789632.0;
const D6: f64 = -1453857185.0 / 822651844.0;
const D7: f64 = 69997945.0 / 29380423.0;

const SAFETY: f64 = 0.9;
const FAC_MIN: f64 = 0.2;
const FAC_MAX: f64 = 10.0;
/// The PI controller's exponents (Hairer's `beta = 0.04`, `expo1 = 1/5 − 0.75 beta`).
const BETA: f64 = 0.04;
const ALPHA: f64 = 0.2 - 0.75 * BETA;

/// One attempted step.
struct Trial<N: Dim>
where
    DefaultAllocator: DimAllocator<N>,
{
    y: State<N>,
    f: State<N>,
    err: State<N>,
    correction: State<N>,
    /// The stages the 5th-order weights use besides the first, at `t + c h`: the action
    /// integrals' quadrature reads them.
    stages: [(f64, State<N>); 4],
}

/// Integrates adaptively to `t_end`, counting rejected steps in `rhs`.
pub(super) fn integrate<S: LagrangianSystem<N>, N: Dim>(
    rhs: &mut Rhs<'_, S>,
    settings: &Settings,
    t0: f64,
    y0: State<N>,
    t_end: f64,
    mut on_step: impl FnMut(&Step<N>) -> Result<ControlFlow<()>, Error>,
) -> Result<(), Error>
where
    DefaultAllocator: DimAllocator<N>,
{
    let (mut t, mut y) = (t0, y0);
    let mut f = rhs.eval(t, &y)?;
    let mut h = match settings.h0 {
        Some(h0) => h0,
        None => initial_step(rhs, settings, t, &y, &f)?,
    }
    .min(settings.h_max);
    let mut accepted = 0;
    let mut err_old: f64 = 1e-4;
    let mut last_rejected = false;
    // The action integrals' rate at `(t, y)`, when the run carries them.
    let mut g = None;
    while t < t_end {
        if accepted + rhs.stats.rejected >= settings.max_steps {
            return Err(Error::MaxStepsExceeded {
                t,
                steps: settings.max_steps,
            });
        }
        if h <= 16.0 * f64::EPSILON * t.abs() {
            return Err(Error::StepSizeUnderflow { t, h });
        }
        let landing = t + 1.01 * h >= t_end;
        let t_new = if landing { t_end } else { t + h };
        if landing {
            h = t_end - t;
        }
        let trial = attempt(rhs, t, &y, &f, h, t_new)?;
        let err = error_norm(settings, &y, &trial.y, &trial.err);
        if err <= 1.0 {
            accepted += 1;
            // Drift control of constrained systems: continue from the projected state.
            let (y_end, f_end) = match rhs.project(t_new, &trial.y)? {
                Some(projected) => {
                    let f_projected = rhs.eval(t_new, &projected)?;
                    (projected, f_projected)
                }
                None => (trial.y, trial.f),
            };
            let step = Step::new((t, y, f), (t_new, y_end, f_end), Some(trial.correction));
            // The action integrals by the 5th-order weights, as further components of the
            // state that no stage reads and the error norm leaves out.
            // Their continuous extension takes the stage weights of the state's (the last
            // stage at the end of the step, projected or not).
            let (step, g_end) = rhs.carry_action(step, g, |rhs, g1, g7| {
                let [g3, g4, g5, g6] = trial.stages.map(|(t, y)| rhs.action_rates(t, &y));
                [
                    (g1 * A71 + g3 * A73 + g4 * A74 + g5 * A75 + g6 * A76) * h,
                    (g1 * D1 + g3 * D3 + g4 * D4 + g5 * D5 + g6 * D6 + g7 * D7) * h,
                ]
            });
            g = g_end;
            if on_step(&step)?.is_break() {
                return Ok(());
            }
            let mut factor =
                (SAFETY * err.powf(-ALPHA) * err_old.powf(BETA)).clamp(FAC_MIN, FAC_MAX);
            if last_rejected {
                factor = factor.min(1.0);
            }
            err_old = err.max(1e-4);
            last_rejected = false;
            [_, (y, f)] = step.into_ends();
            t = t_new;
            h = (h * factor).min(settings.h_max);
        } else {
            // Also taken when `err` is NaN: `max` then picks the strongest reduction.
            rhs.stats.rejected += 1;
            last_rejected = true;
            h *= (SAFETY * err.powf(-ALPHA)).max(FAC_MIN);
        }
    }
    Ok(())
}

/// The stages of a step of size `h` from `(t, y)` with first stage `k1 = f(t, y)`.
fn attempt<S: LagrangianSystem<N>, N: Dim>(
    rhs: &mut Rhs<'_, S>,
    t: f64,
    y: &State<N>,
    k1: &State<N>,
    h: f64,
    t_new: f64,
) -> Result<Trial<N>, Error>
where
    DefaultAllocator: DimAllocator<N>,
{
    let k2 = rhs.eval(t + C2 * h, &(y + k1 * (A21 * h)))?;
    let y3 = y + (k1 * A31 + &k2 * A32) * h;
    let k3 = rhs.eval(t + C3 * h, &y3)?;
    let y4 = y + (k1 * A41 + &k2 * A42 + &k3 * A43) * h;
    let k4 = rhs.eval(t + C4 * h, &y4)?;
    let y5 = y + (k1 * A51 + &k2 * A52 + &k3 * A53 + &k4 * A54) * h;
    let k5 = rhs.eval(t + C5 * h, &y5)?;
    let y6 = y + (k1 * A61 + &k2 * A62 + &k3 * A63 + &k4 * A64 + &k5 * A65) * h;
    let k6 = rhs.eval(t_new, &y6)?;
    let y_new = y + (k1 * A71 + &k3 * A73 + &k4 * A74 + &k5 * A75 + &k6 * A76) * h;
    let k7 = rhs.eval(t_new, &y_new)?;
    let err = (k1 * E1 + &k3 * E3 + &k4 * E4 + &k5 * E5 + &k6 * E6 + &k7 * E7) * h;
    let correction = (k1 * D1 + &k3 * D3 + &k4 * D4 + &k5 * D5 + &k6 * D6 + &k7 * D7) * h;
    Ok(Trial {
        y: y_new,
        f: k7,
        err,
        correction,
        stages: [
            (t + C3 * h, y3),
            (t + C4 * h, y4),
            (t + C5 * h, y5),
            (t_new, y6),
        ],
    })
}

/// RMS over the components of `err / (atol + rtol·max(|y|, |y_new|))`.
fn error_norm<N: Dim>(settings: &Settings, y: &State<N>, y_new: &State<N>, err: &State<N>) -> f64
where
    DefaultAllocator: DimAllocator<N>,
{
    let sum: f64 = y
        .components()
        .zip(y_new.components())
        .zip(err.components())
        .map(|((a, b), e)| {
            let scale = settings.atol + settings.rtol * a.abs().max(b.abs());
            (e / scale).powi(2)
        })
        .sum();
    (sum / (2 * y.q.len()).max(1) as f64).sqrt()
}

/// Hairer's starting step: make an explicit Euler step's local error about `0.01` in the
/// weighted norm, estimating the second derivative from one extra evaluation.
fn initial_step<S: LagrangianSystem<N>, N: Dim>(
    rhs: &mut Rhs<'_, S>,
    settings: &Settings,
    t: f64,
    y: &State<N>,
    f0: &State<N>,
) -> Result<f64, Error>
where
    DefaultAllocator: DimAllocator<N>,
{
    let norm = |v: &State<N>| {
        let sum: f64 = v
            .components()
            .zip(y.components())
            .map(|(v, y)| (v / (settings.atol + settings.rtol * y.abs())).powi(2))
            .sum();
        (sum / (2 * y.q.len()).max(1) as f64).sqrt()
    };
    let (d0, d1) = (norm(y), norm(f0));
    let h = if d0 < 1e-5 || d1 < 1e-5 {
        1e-6
    } else {
        0.01 * d0 / d1
    }
    .min(settings.h_max);
    let f1 = rhs.eval(t + h, &(y + f0 * h))?;
    let d2 = norm(&(f1 - f0)) / h;
    let d = d1.max(d2);
    let h1 = if d <= 1e-15 {
        (h * 1e-3).max(1e-6)
    } else {
        (0.01 / d).powf(1.0 / 5.0)
    };
    Ok((100.0 * h).min(h1).min(settings.h_max))
}
