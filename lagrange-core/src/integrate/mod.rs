//! Integrators for the first-order form `y = (q, q̇)`, `ẏ = (q̇, q̈(t, q, q̇))`.
//!
//! The methods, chosen with [`Integrator`]:
//!
//! - [`Integrator::Rk4`]: the classic fixed-step Runge–Kutta method, order 4, no error control.
//! - [`Integrator::DormandPrince`]: the adaptive embedded Dormand–Prince 5(4) pair with a
//!   continuous extension of order 4 (Hairer's `dopri5`).
//! - [`Integrator::GaussLegendre`]: symplectic Gauss–Legendre collocation on the canonical
//!   variables, order `2s` (conservative models).
//! - [`Integrator::Variational`]: the midpoint variational integrator, from the discrete
//!   Euler–Lagrange equations (conservative models).
//!
//! All report every accepted step as a [`Step`] that can be sampled anywhere inside it.
//! A run may carry the action integrals `A = ∫ p·q̇ dt`, `S = ∫ L dt` beside the state
//! ([`ActionIntegrals`]): each method integrates them with its own stages and weights, so
//! to its own order, and leaves them out of its error control, so that the steps are those
//! of a run without them.

use std::marker::PhantomData;
use std::ops::{AddAssign, ControlFlow};

use nalgebra::{DefaultAllocator, Dim};

use crate::copy::copy_values;
use crate::error::{Error, Short};
use crate::size::DimAllocator;
use crate::system::LagrangianSystem;

mod dopri;
mod implicit;
mod rk4;
mod step;

pub use step::{ActionIntegrals, State, Step};

/// How to integrate the equations of motion.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Integrator {
    /// Classic Runge–Kutta of order 4 with a fixed step `dt`; the last step is shortened to
    /// land exactly on the end time. No error control: the global error is `O(dt⁴)`.
    /// Dense output is cubic Hermite interpolation, which keeps order 4 globally.
    Rk4 {
        /// The step size.
        dt: f64,
    },
    /// Adaptive Dormand–Prince 5(4): order 5 propagation (local extrapolation), order 4
    /// embedded error estimate. A step is accepted when the RMS over all components of
    /// `err / (atol + rtol·max(|y|, |y_new|))` is at most 1; the step size follows a PI
    /// controller (safety 0.9, factor within 0.2..10). Seven stages, the last reused as the
    /// first of the next step (FSAL). A step below `16·ε·|t|` is [`Error::StepSizeUnderflow`].
    /// Dense output is the 4th-order continuous extension of `dopri5`.
    DormandPrince {
        /// Relative tolerance.
        rtol: f64,
        /// Absolute tolerance.
        atol: f64,
        /// Initial step; `None` chooses it automatically (Hairer's heuristic).
        h0: Option<f64>,
        /// Largest step; `None` means the whole interval.
        h_max: Option<f64>,
    },
    /// Gauss–Legendre collocation with `stages` ∈ {1, 2, 3} (order 2, 4, 6) and a fixed
    /// step `dt`, on `(q, p)`: symplectic and symmetric, so the energy error of a
    /// conservative system stays bounded over long runs instead of drifting. Each step
    /// solves its stage equations by Newton's method with the generated Jacobians.
    /// One stage is the implicit midpoint rule. Needs a conservative model.
    GaussLegendre {
        /// The step size.
        dt: f64,
        /// Number of stages.
        stages: usize,
    },
    /// The variational integrator of the midpoint discrete Lagrangian
    /// `L_d(q_k, q_{k+1}) = dt·L((q_k + q_{k+1})/2, (q_{k+1} − q_k)/dt)`, order 2: the
    /// discrete Euler–Lagrange equations solved for `q_{k+1}` by Newton's method. Momenta
    /// of cyclic coordinates are conserved to round-off. Needs a conservative model.
    Variational {
        /// The step size.
        dt: f64,
    },
}

impl Default for Integrator {
    /// Dormand–Prince with `rtol = atol = 1e-10`.
    fn default() -> Self {
        Integrator::dormand_prince(1e-10, 1e-10)
    }
}

impl Integrator {
    /// Dormand–Prince with the given tolerances, automatic initial step and no step limit.
    pub fn dormand_prince(rtol: f64, atol: f64) -> Self {
        Integrator::DormandPrince {
            rtol,
            atol,
            h0: None,
            h_max: None,
        }
    }

    /// Integrates from `(t0, y0)` to `t_end`, calling `on_step` after every accepted step.
    ///
    /// Errors on invalid settings or arguments ([`Error::InvalidInput`]), when the system's
    /// accelerations fail (a singular mass matrix), when the state stops being finite
    /// ([`Error::NonFiniteState`]), when a step changes the conserved integral by more than
    /// [`UNRESOLVED_JUMP`] of its size ([`Error::UnresolvedStep`]), when the step size
    /// underflows ([`Error::StepSizeUnderflow`]) or when more than `max_steps` steps
    /// (accepted and rejected) would be needed ([`Error::MaxStepsExceeded`]). Every step
    /// handed to `on_step` passed these checks.
    pub fn run<S: LagrangianSystem<N>, N: Dim>(
        &self,
        system: &S,
        t0: f64,
        y0: State<N>,
        t_end: f64,
        max_steps: usize,
        mut on_step: impl FnMut(&Step<N>),
    ) -> Result<Stats, Error>
    where
        DefaultAllocator: DimAllocator<N>,
    {
        let (stats, outcome) = self.run_counted(system, (t0, y0, None), t_end, max_steps, |step| {
            on_step(step);
            ControlFlow::Continue(())
        });
        outcome.map(|()| stats)
    }

    /// As [`run`](Self::run), but the counters come back also when the run fails: they
    /// describe the steps that were handed to `on_step` before the failure. The run ends
    /// early, successfully, when `on_step` breaks (an event stopped or reset the motion).
    /// With `action0`, the steps carry the action integrals from these values at `t0`.
    pub(crate) fn run_counted<S: LagrangianSystem<N>, N: Dim>(
        &self,
        system: &S,
        (t0, y0, action0): (f64, State<N>, Option<ActionIntegrals>),
        t_end: f64,
        max_steps: usize,
        mut on_step: impl FnMut(&Step<N>) -> ControlFlow<()>,
    ) -> (Stats, Result<(), Error>)
    where
        DefaultAllocator: DimAllocator<N>,
    {
        if let Err(e) = self.check_arguments(t0, &y0, t_end) {
            return (Stats::default(), Err(e));
        }
        let mut rhs = Rhs {
            system,
            stats: Stats::default(),
            action: action0,
        };
        let mut guard = StepGuard::new(system, t0, &y0);
        let mut accepted = 0;
        let mut checked = |step: &Step<N>| -> Result<ControlFlow<()>, Error> {
            guard.check(step)?;
            accepted += 1;
            Ok(on_step(step))
        };
        let outcome = match *self {
            Integrator::Rk4 { dt } => {
                rk4::integrate(&mut rhs, dt, t0, y0, t_end, max_steps, &mut checked)
            }
            Integrator::DormandPrince {
                rtol,
                atol,
                h0,
                h_max,
            } => {
                let settings = dopri::Settings {
                    rtol,
                    atol,
                    h0,
                    h_max: h_max.unwrap_or(t_end - t0),
                    max_steps,
                };
                dopri::integrate(&mut rhs, &settings, t0, y0, t_end, &mut checked)
            }
            Integrator::GaussLegendre { dt, stages } => fixed_steps(t0, t_end, dt, max_steps)
                .and_then(|steps| implicit::gauss(&mut rhs, stages, &steps, y0, &mut checked)),
            Integrator::Variational { dt } => fixed_steps(t0, t_end, dt, max_steps)
                .and_then(|steps| implicit::variational(&mut rhs, &steps, y0, &mut checked)),
        };
        let stats = Stats {
            accepted,
            ..rhs.stats
        };
        (stats, outcome)
    }

    /// Checks the settings and the arguments of a run.
    pub(crate) fn check_arguments<N: Dim>(
        &self,
        t0: f64,
        y0: &State<N>,
        t_end: f64,
    ) -> Result<(), Error>
    where
        DefaultAllocator: DimAllocator<N>,
    {
        self.validate()?;
        if !t0.is_finite() || !t_end.is_finite() {
            return Err(Error::InvalidInput(format!(
                "times must be finite (t0 = {}, t_end = {})",
                Short(t0),
                Short(t_end)
            )));
        }
        let (t0_, t_end_) = (Short(t0), Short(t_end));
        if t_end <= t0 {
            return Err(Error::InvalidInput(format!(
                "t_end = {t_end_} must exceed t0 = {t0_}"
            )));
        }
        if !(t_end - t0).is_finite() {
            return Err(Error::InvalidInput(format!(
                "the span from t0 = {t0_} to t_end = {t_end_} is beyond the floating-point numbers: no step can cover it"
            )));
        }
        if !y0.is_finite() {
            return Err(Error::InvalidInput(format!(
                "initial state is not finite: q = {:?}, q̇ = {:?}",
                y0.q.as_slice(),
                y0.qd.as_slice()
            )));
        }
        Ok(())
    }

    /// Checks up front that a fixed-step method can cover `t0..t_end` (checked as
    /// [`check_arguments`](Self::check_arguments) does) within `max_steps` steps, each
    /// of which advances the time: an [`Error::InvalidInput`] that names the step, the
    /// span and the bound otherwise. An adaptive method is not known to need more steps
    /// before it takes them.
    pub(crate) fn check_span(&self, t0: f64, t_end: f64, max_steps: usize) -> Result<(), Error> {
        let dt = match *self {
            Integrator::Rk4 { dt }
            | Integrator::Variational { dt }
            | Integrator::GaussLegendre { dt, .. } => dt,
            Integrator::DormandPrince { .. } => return Ok(()),
        };
        let far = t0.abs().max(t_end.abs());
        if far + dt == far {
            return Err(Error::InvalidInput(format!(
                "a step dt = {} does not advance the time near t = {}, whose floating-point spacing is larger",
                Short(dt),
                Short(far)
            )));
        }
        let count = step_count(t0, t_end, dt);
        if count > max_steps as f64 {
            return Err(Error::InvalidInput(format!(
                "dt = {} from t = {} to {} takes {} steps, more than max_steps = {max_steps}",
                Short(dt),
                Short(t0),
                Short(t_end),
                Short(count)
            )));
        }
        Ok(())
    }

    /// Checks the settings: step sizes and tolerances must be finite and positive.
    pub fn validate(&self) -> Result<(), Error> {
        let positive = |name: &str, x: f64| {
            if x.is_finite() && x > 0.0 {
                Ok(())
            } else {
                Err(Error::InvalidInput(format!(
                    "{name} must be finite and positive, got {}",
                    Short(x)
                )))
            }
        };
        match *self {
            Integrator::Rk4 { dt } | Integrator::Variational { dt } => positive("dt", dt),
            Integrator::GaussLegendre { dt, stages } => {
                if !(1..=3).contains(&stages) {
                    return Err(Error::InvalidInput(format!(
                        "Gauss–Legendre takes 1, 2 or 3 stages, got {stages}"
                    )));
                }
                positive("dt", dt)
            }
            Integrator::DormandPrince {
                rtol,
                atol,
                h0,
                h_max,
            } => {
                positive("rtol", rtol)?;
                positive("atol", atol)?;
                h0.map_or(Ok(()), |h| positive("h0", h))?;
                h_max.map_or(Ok(()), |h| positive("h_max", h))
            }
        }
    }
}

/// Counters of one integration.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Stats {
    /// Accepted steps.
    pub accepted: usize,
    /// Rejected steps (always 0 for RK4).
    pub rejected: usize,
    /// Evaluations of the accelerations.
    pub evaluations: usize,
}

impl AddAssign for Stats {
    fn add_assign(&mut self, rhs: Self) {
        self.accepted += rhs.accepted;
        self.rejected += rhs.rejected;
        self.evaluations += rhs.evaluations;
    }
}

/// The grid of a fixed-step method: `count` steps of `dt` from `t0`, the last one
/// shortened to end exactly at `t_end`.
struct FixedSteps {
    t0: f64,
    dt: f64,
    t_end: f64,
    count: usize,
}

impl FixedSteps {
    /// `(t, t_next)` of every step.
    fn iter(&self) -> impl Iterator<Item = (f64, f64)> + '_ {
        (0..self.count).map(move |i| {
            let t = self.t0 + i as f64 * self.dt;
            let t_next = if i + 1 == self.count {
                self.t_end
            } else {
                self.t0 + (i + 1) as f64 * self.dt
            };
            (t, t_next)
        })
    }
}

/// The number of steps of `dt` from `t0` to `t_end`, the last one shortened.
fn step_count(t0: f64, t_end: f64, dt: f64) -> f64 {
    let ratio = (t_end - t0) / dt;
    let count = ratio.ceil();
    // A remainder below 1e-9 dt is rounding in `ratio`, not a step of its own.
    if count > 1.0 && ratio - (count - 1.0) < 1e-9 {
        count - 1.0
    } else {
        count
    }
}

/// The steps from `t0` to `t_end`; [`Error::MaxStepsExceeded`] if more than `max_steps`.
fn fixed_steps(t0: f64, t_end: f64, dt: f64, max_steps: usize) -> Result<FixedSteps, Error> {
    let count = step_count(t0, t_end, dt);
    if count > max_steps as f64 {
        return Err(Error::MaxStepsExceeded {
            t: t0,
            steps: max_steps,
        });
    }
    Ok(FixedSteps {
        t0,
        dt,
        t_end,
        count: count as usize,
    })
}

/// A step that changes the model's conserved integral by more than this fraction of the
/// size of its terms (`|T| + |V|` for the energy: `|c + L| + |L|` for an integral `c`)
/// did not resolve the motion: it jumped over a singularity such as the centre of a
/// central force, or its step size is far too large. The run stops there with
/// [`Error::UnresolvedStep`]. Resolved steps change the integral by the method's local
/// error, many orders of magnitude less.
pub const UNRESOLVED_JUMP: f64 = 0.1;

/// The per-step check of the conserved integral (see [`UNRESOLVED_JUMP`]).
struct StepGuard<'a, S, N> {
    system: &'a S,
    /// The integral and the size of its terms at the end of the last accepted step.
    last: Option<(f64, f64)>,
    /// The size of the states checked.
    size: PhantomData<N>,
}

impl<'a, S: LagrangianSystem<N>, N: Dim> StepGuard<'a, S, N>
where
    DefaultAllocator: DimAllocator<N>,
{
    fn new(system: &'a S, t0: f64, y0: &State<N>) -> Self {
        let mut guard = StepGuard {
            system,
            last: None,
            size: PhantomData,
        };
        guard.last = guard.integral(t0, y0);
        guard
    }

    /// The conserved integral at `(t, y)` and the size of its terms, if the model has one.
    fn integral(&self, t: f64, y: &State<N>) -> Option<(f64, f64)> {
        let (c, l) = self.system.conserved_value_and_lagrangian(t, &y.q, &y.qd)?;
        Some((c, (c + l).abs() + l.abs()))
    }

    /// Errors when `step` changed the integral by more than [`UNRESOLVED_JUMP`] of its size.
    fn check(&mut self, step: &Step<N>) -> Result<(), Error> {
        let Some((before, size_before)) = self.last else {
            return Ok(());
        };
        let (t1, y1) = (step.end_time(), step.end());
        let Some((after, size_after)) = self.integral(t1, y1) else {
            return Ok(());
        };
        let jump = (after - before).abs();
        if jump.is_nan() || jump > UNRESOLVED_JUMP * size_before.max(size_after) {
            return Err(Error::UnresolvedStep {
                t: step.start_time(),
                t_end: t1,
                before,
                after,
            });
        }
        self.last = Some((after, size_after));
        Ok(())
    }
}

/// The right-hand side `ẏ = (q̇, q̈)`, counting evaluations (and, for the adaptive
/// method, rejected steps); and the action integrals up to the last accepted step, when
/// the run carries them.
struct Rhs<'a, S> {
    system: &'a S,
    stats: Stats,
    action: Option<ActionIntegrals>,
}

impl<S> Rhs<'_, S> {
    fn eval<N: Dim>(&mut self, t: f64, y: &State<N>) -> Result<State<N>, Error>
    where
        S: LagrangianSystem<N>,
        DefaultAllocator: DimAllocator<N>,
    {
        let mut slope = State::new(y.qd.clone(), y.qd.clone());
        self.eval_into(t, y, &mut slope)?;
        Ok(slope)
    }

    /// [`eval`](Self::eval) into `out`, which it overwrites rather than allocates; counted;
    /// an error for a state that is not finite.
    fn eval_into<N: Dim>(&mut self, t: f64, y: &State<N>, out: &mut State<N>) -> Result<(), Error>
    where
        S: LagrangianSystem<N>,
        DefaultAllocator: DimAllocator<N>,
    {
        if !y.is_finite() {
            return Err(Error::NonFiniteState { t });
        }
        self.stats.evaluations += 1;
        self.system
            .write_accelerations(t, &y.q, &y.qd, out.qd.as_mut_slice())?;
        copy_values(out.q.as_mut_slice(), y.qd.as_slice());
        Ok(())
    }

    /// The integrands of the action integrals at `(t, y)`: `p·q̇` and `L`.
    fn action_rates<N: Dim>(&self, t: f64, y: &State<N>) -> ActionIntegrals
    where
        S: LagrangianSystem<N>,
        DefaultAllocator: DimAllocator<N>,
    {
        ActionIntegrals::rates(self.system, t, &y.q, &y.qd)
    }

    /// `step` with the action integrals, if the run carries them: from the total so far,
    /// with the rate `g0` at the step's start (the end of the last one, or `None` for the
    /// first) and `g1` at its end, `quadrature(self, g0, g1)` gives the method's increment
    /// over the step and the correction of its continuous extension. Returns the step and
    /// the rate at its end.
    fn carry_action<N: Dim>(
        &mut self,
        step: Step<N>,
        g0: Option<ActionIntegrals>,
        quadrature: impl FnOnce(&Self, ActionIntegrals, ActionIntegrals) -> [ActionIntegrals; 2],
    ) -> (Step<N>, Option<ActionIntegrals>)
    where
        S: LagrangianSystem<N>,
        DefaultAllocator: DimAllocator<N>,
    {
        let Some(a0) = self.action else {
            return (step, None);
        };
        let g0 = g0.unwrap_or_else(|| self.action_rates(step.start_time(), step.start()));
        let g1 = self.action_rates(step.end_time(), step.end());
        let [increment, correction] = quadrature(self, g0, g1);
        let a1 = a0 + increment;
        self.action = Some(a1);
        (step.with_action((a0, g0), (a1, g1), correction), Some(g1))
    }

    /// The system's projection of `y` onto its constraints, if it has any.
    fn project<N: Dim>(&self, t: f64, y: &State<N>) -> Result<Option<State<N>>, Error>
    where
        S: LagrangianSystem<N>,
        DefaultAllocator: DimAllocator<N>,
    {
        Ok(self
            .system
            .project(t, &y.q, &y.qd)?
            .map(|(q, qd)| State::new(q, qd)))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::test_systems::{BlowUp, Oscillator};
    use nalgebra::{U1, Vector1};

    /// Harmonic oscillator with ω = 2 from x = 1, ẋ = 0: x(t) = cos 2t.
    fn oscillator() -> (Oscillator, State<U1>) {
        let sys = Oscillator { m: 1.0, k: 4.0 };
        (sys, State::new(Vector1::new(1.0), Vector1::new(0.0)))
    }

    fn final_state(integrator: Integrator, t_end: f64) -> (f64, State<U1>, Stats) {
        let (sys, y0) = oscillator();
        let mut last = (0.0, y0);
        let stats = integrator
            .run(&sys, 0.0, y0, t_end, 1_000_000, |s| {
                last = (s.end_time(), *s.end())
            })
            .unwrap();
        (last.0, last.1, stats)
    }

    #[test]
    fn rk4_converges_at_order_four() {
        let t_end = 5.0;
        let error = |dt: f64| {
            let (_, y, _) = final_state(Integrator::Rk4 { dt }, t_end);
            (y.q[0] - (2.0 * t_end).cos()).abs() + (y.qd[0] + 2.0 * (2.0 * t_end).sin()).abs()
        };
        let ratio = error(0.05) / error(0.025);
        assert!((12.0..20.0).contains(&ratio), "ratio {ratio}");
    }

    #[test]
    fn rk4_lands_exactly_on_the_end_time() {
        let (t, _, stats) = final_state(Integrator::Rk4 { dt: 0.3 }, 1.0);
        assert_eq!(t, 1.0);
        assert_eq!(stats.accepted, 4);
        assert_eq!(stats.rejected, 0);
        // 4 stages per step, the first reused from the previous step's end.
        assert_eq!(stats.evaluations, 1 + 4 * 4);
    }

    #[test]
    fn rk4_does_not_add_a_sliver_step() {
        let (t, _, stats) = final_state(Integrator::Rk4 { dt: 0.1 }, 1.0);
        assert_eq!(t, 1.0);
        assert_eq!(stats.accepted, 10);
    }

    #[test]
    fn dormand_prince_matches_closed_form() {
        let (t, y, stats) = final_state(Integrator::dormand_prince(1e-12, 1e-12), 10.0);
        assert_eq!(t, 10.0);
        assert!((y.q[0] - 20f64.cos()).abs() < 1e-9, "{}", y.q[0]);
        assert!((y.qd[0] + 2.0 * 20f64.sin()).abs() < 1e-9);
        assert!(stats.accepted > 0);
        assert!(stats.evaluations >= 6 * (stats.accepted + stats.rejected));
    }

    #[test]
    fn dense_output_matches_closed_form_inside_steps() {
        let (sys, y0) = oscillator();
        let mut worst = 0.0f64;
        let mut steps = 0;
        Integrator::dormand_prince(1e-6, 1e-6)
            .run(&sys, 0.0, y0, 5.0, 100_000, |s| {
                steps += 1;
                for frac in [0.13, 0.5, 0.77] {
                    let t = s.start_time() + frac * (s.end_time() - s.start_time());
                    let y = s.interpolate(t);
                    worst = worst.max((y.q[0] - (2.0 * t).cos()).abs());
                    worst = worst.max((y.qd[0] + 2.0 * (2.0 * t).sin()).abs());
                }
                assert!((s.interpolate(s.start_time()).q - s.start().q).norm() < 1e-15);
                assert!((s.interpolate(s.end_time()).q - s.end().q).norm() < 1e-14);
            })
            .unwrap();
        assert!(
            steps > 10,
            "steps should be long for the test to mean something"
        );
        assert!(worst < 1e-5, "worst {worst}");
    }

    #[test]
    fn given_initial_and_maximal_step_are_used() {
        let integrator = Integrator::DormandPrince {
            rtol: 1e-3,
            atol: 1e-3,
            h0: Some(1e-3),
            h_max: Some(0.01),
        };
        let (sys, y0) = oscillator();
        let mut first = None;
        let mut longest = 0.0f64;
        integrator
            .run(&sys, 0.0, y0, 1.0, 100_000, |s| {
                first.get_or_insert(s.end_time() - s.start_time());
                longest = longest.max(s.end_time() - s.start_time());
            })
            .unwrap();
        assert_eq!(first, Some(1e-3));
        assert!(longest <= 0.01 * (1.0 + 1e-12));
    }

    #[test]
    fn blow_up_is_an_error() {
        let sys = BlowUp;
        let y0 = State::new(Vector1::new(1.0), Vector1::new(0.0));
        let err = Integrator::default()
            .run(&sys, 0.0, y0, 10.0, 1_000_000, |_| {})
            .unwrap_err();
        assert!(
            matches!(
                err,
                Error::StepSizeUnderflow { .. } | Error::NonFiniteState { .. }
            ),
            "{err}"
        );
        let err = Integrator::Rk4 { dt: 0.01 }
            .run(&sys, 0.0, y0, 10.0, 1_000_000, |_| {})
            .unwrap_err();
        assert!(
            matches!(
                err,
                Error::NonFiniteState { .. }
                    | Error::SingularMassMatrix { .. }
                    | Error::UnresolvedStep { .. }
            ),
            "{err}"
        );
    }

    #[test]
    fn step_budget_is_enforced() {
        let (sys, y0) = oscillator();
        for integrator in [Integrator::default(), Integrator::Rk4 { dt: 1e-3 }] {
            let err = integrator.run(&sys, 0.0, y0, 10.0, 50, |_| {}).unwrap_err();
            assert!(
                matches!(err, Error::MaxStepsExceeded { steps: 50, .. }),
                "{err}"
            );
        }
    }

    #[test]
    fn bad_settings_are_rejected() {
        let (sys, y0) = oscillator();
        let bad = [
            Integrator::Rk4 { dt: 0.0 },
            Integrator::Rk4 { dt: f64::NAN },
            Integrator::dormand_prince(0.0, 1e-6),
            Integrator::dormand_prince(1e-6, -1.0),
            Integrator::dormand_prince(f64::INFINITY, 1e-6),
            Integrator::DormandPrince {
                rtol: 1e-6,
                atol: 1e-6,
                h0: Some(-1.0),
                h_max: None,
            },
            Integrator::DormandPrince {
                rtol: 1e-6,
                atol: 1e-6,
                h0: None,
                h_max: Some(0.0),
            },
        ];
        for integrator in bad {
            let err = integrator.run(&sys, 0.0, y0, 1.0, 100, |_| {}).unwrap_err();
            assert!(
                matches!(err, Error::InvalidInput(_)),
                "{integrator:?}: {err}"
            );
        }
        let nan = State::new(Vector1::new(f64::NAN), Vector1::new(0.0));
        let integrator = Integrator::default();
        for (t0, y, t_end) in [
            (0.0, y0, 0.0),
            (1.0, y0, 0.0),
            (0.0, nan, 1.0),
            (f64::NAN, y0, 1.0),
        ] {
            let err = integrator.run(&sys, t0, y, t_end, 100, |_| {}).unwrap_err();
            assert!(matches!(err, Error::InvalidInput(_)), "{err}");
        }
    }
}
