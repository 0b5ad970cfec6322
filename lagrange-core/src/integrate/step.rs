//! The state `(q, q̇)` of the first-order form, and one accepted step of an integrator with
//! its continuous extension (dense output), which events and sampled output read; and the
//! action integrals a run can carry beside the state.

use std::ops::{Add, Mul, Sub};

use nalgebra::{DefaultAllocator, Dim, OVector};

use crate::size::DimAllocator;
use crate::system::LagrangianSystem;

/// A point `(q, q̇)` of the first-order state space (also used for its time derivative).
///
/// The arithmetic takes states by value or by reference, as nalgebra's vectors do.
#[derive(Debug, Clone, PartialEq)]
pub struct State<N: Dim>
where
    DefaultAllocator: DimAllocator<N>,
{
    /// Generalized coordinates.
    pub q: OVector<f64, N>,
    /// Generalized velocities.
    pub qd: OVector<f64, N>,
}

/// Copied, as its vectors are, when the size is fixed by the type.
impl<N: Dim> Copy for State<N>
where
    DefaultAllocator: DimAllocator<N>,
    OVector<f64, N>: Copy,
{
}

impl<N: Dim> State<N>
where
    DefaultAllocator: DimAllocator<N>,
{
    /// The state `(q, q̇)`.
    pub fn new(q: OVector<f64, N>, qd: OVector<f64, N>) -> Self {
        State { q, qd }
    }

    /// Whether every component is finite.
    pub fn is_finite(&self) -> bool {
        self.components().all(f64::is_finite)
    }

    /// All `2N` components: `q` then `q̇`.
    pub fn components(&self) -> impl Iterator<Item = f64> + '_ {
        self.q.iter().chain(self.qd.iter()).copied()
    }
}

/// `Add` and `Sub` for every pairing of owned and borrowed states, componentwise.
macro_rules! state_operator {
    ($trait:ident, $method:ident, $op:tt) => {
        impl<N: Dim> $trait for State<N>
        where
            DefaultAllocator: DimAllocator<N>,
        {
            type Output = State<N>;
            fn $method(self, rhs: Self) -> State<N> {
                State::new(self.q $op rhs.q, self.qd $op rhs.qd)
            }
        }

        impl<N: Dim> $trait<&State<N>> for State<N>
        where
            DefaultAllocator: DimAllocator<N>,
        {
            type Output = State<N>;
            fn $method(self, rhs: &State<N>) -> State<N> {
                State::new(self.q $op &rhs.q, self.qd $op &rhs.qd)
            }
        }

        impl<N: Dim> $trait<State<N>> for &State<N>
        where
            DefaultAllocator: DimAllocator<N>,
        {
            type Output = State<N>;
            fn $method(self, rhs: State<N>) -> State<N> {
                State::new(&self.q $op rhs.q, &self.qd $op rhs.qd)
            }
        }

        impl<N: Dim> $trait<&State<N>> for &State<N>
        where
            DefaultAllocator: DimAllocator<N>,
        {
            type Output = State<N>;
            fn $method(self, rhs: &State<N>) -> State<N> {
                State::new(&self.q $op &rhs.q, &self.qd $op &rhs.qd)
            }
        }
    };
}

state_operator!(Add, add, +);
state_operator!(Sub, sub, -);

impl<N: Dim> Mul<f64> for State<N>
where
    DefaultAllocator: DimAllocator<N>,
{
    type Output = State<N>;
    fn mul(self, rhs: f64) -> State<N> {
        State::new(self.q * rhs, self.qd * rhs)
    }
}

impl<N: Dim> Mul<f64> for &State<N>
where
    DefaultAllocator: DimAllocator<N>,
{
    type Output = State<N>;
    fn mul(self, rhs: f64) -> State<N> {
        State::new(&self.q * rhs, &self.qd * rhs)
    }
}

/// The two action integrals of a motion from its start (Thomson & Tait §§326–330): the
/// action `A = ∫ p·q̇ dt` (`∫ 2T dt` when `T` is quadratic in the velocities) and the
/// principal function `S = ∫ L dt`, of the model as integrated (for a Routh reduction, of
/// its Routhian and reduced momenta).
#[derive(Debug, Clone, Copy, Default, PartialEq)]
pub struct ActionIntegrals {
    /// `A = ∫ p·q̇ dt`.
    pub action: f64,
    /// `S = ∫ L dt`.
    pub principal: f64,
}

impl ActionIntegrals {
    /// Their integrands at `(t, q, q̇)`: `p·q̇` and `L`.
    pub(crate) fn rates<S: LagrangianSystem<N>, N: Dim>(
        system: &S,
        t: f64,
        q: &OVector<f64, N>,
        qd: &OVector<f64, N>,
    ) -> Self
    where
        DefaultAllocator: DimAllocator<N>,
    {
        ActionIntegrals {
            action: system.momenta(t, q, qd).dot(qd),
            principal: system.lagrangian(t, q, qd),
        }
    }
}

impl Add for ActionIntegrals {
    type Output = Self;
    fn add(self, rhs: Self) -> Self {
        ActionIntegrals {
            action: self.action + rhs.action,
            principal: self.principal + rhs.principal,
        }
    }
}

impl Sub for ActionIntegrals {
    type Output = Self;
    fn sub(self, rhs: Self) -> Self {
        ActionIntegrals {
            action: self.action - rhs.action,
            principal: self.principal - rhs.principal,
        }
    }
}

impl Mul<f64> for ActionIntegrals {
    type Output = Self;
    fn mul(self, rhs: f64) -> Self {
        ActionIntegrals {
            action: self.action * rhs,
            principal: self.principal * rhs,
        }
    }
}

impl Add<ActionIntegrals> for &ActionIntegrals {
    type Output = ActionIntegrals;
    fn add(self, rhs: ActionIntegrals) -> ActionIntegrals {
        *self + rhs
    }
}

impl Mul<f64> for &ActionIntegrals {
    type Output = ActionIntegrals;
    fn mul(self, rhs: f64) -> ActionIntegrals {
        *self * rhs
    }
}

/// The coefficients of `y(θ) = r₀ + θ(r₁ + (1−θ)(r₂ + θ(r₃ + (1−θ) r₄)))`: the cubic
/// Hermite interpolant from the values `y0`, `y1` and slopes `f0`, `f1` at the ends of a
/// step of length `h`, plus the quartic correction `r4`.
fn extension<T>(h: f64, (y0, f0): (T, T), (y1, f1): (T, T), r4: T) -> [T; 5]
where
    T: Clone + Add<Output = T> + Sub<Output = T> + Mul<f64, Output = T>,
{
    let dy = y1 - y0.clone();
    let r2 = f0 * h - dy.clone();
    let r3 = dy.clone() - f1 * h - r2.clone();
    [y0, dy, r2, r3, r4]
}

/// The value of the extension with coefficients `r` at `θ`.
fn extended<T>([r0, r1, r2, r3, r4]: &[T; 5], theta: f64) -> T
where
    T: Mul<f64, Output = T>,
    for<'a> &'a T: Add<T, Output = T> + Mul<f64, Output = T>,
{
    let theta1 = 1.0 - theta;
    r0 + (r1 + (r2 + (r3 + r4 * theta1) * theta) * theta1) * theta
}

/// One accepted step from `t0` to `t1`, with its continuous extension.
///
/// The extension is `y(θ) = r₀ + θ(r₁ + (1−θ)(r₂ + θ(r₃ + (1−θ) r₄)))`, `θ = (t − t0)/(t1 − t0)`:
/// cubic Hermite interpolation plus, for Dormand–Prince, the quartic correction `r₄`.
#[derive(Debug, Clone, PartialEq)]
pub struct Step<N: Dim>
where
    DefaultAllocator: DimAllocator<N>,
{
    t0: f64,
    t1: f64,
    y1: State<N>,
    r: [State<N>; 5],
    /// The action integrals at the end, and their extension, when the run carries them.
    action: Option<(ActionIntegrals, [ActionIntegrals; 5])>,
}

/// Copied, as its vectors are, when the size is fixed by the type.
impl<N: Dim> Copy for Step<N>
where
    DefaultAllocator: DimAllocator<N>,
    OVector<f64, N>: Copy,
{
}

impl<N: Dim> Step<N>
where
    DefaultAllocator: DimAllocator<N>,
{
    /// The Hermite part of the extension, from the end points and their derivatives `f0`, `f1`,
    /// plus the correction `r4` (zero for plain Hermite interpolation).
    pub(super) fn new(
        (t0, y0, f0): (f64, State<N>, State<N>),
        (t1, y1, f1): (f64, State<N>, State<N>),
        r4: State<N>,
    ) -> Self {
        Step {
            t0,
            t1,
            r: extension(t1 - t0, (y0, f0), (y1.clone(), f1), r4),
            y1,
            action: None,
        }
    }

    /// The step with the action integrals `a0` at its start and `a1` at its end, and
    /// their integrands `g0`, `g1` there; in between they follow the same extension as
    /// the state, with the correction `r4` the method gives them.
    pub(super) fn with_action(
        self,
        start: (ActionIntegrals, ActionIntegrals),
        end: (ActionIntegrals, ActionIntegrals),
        r4: ActionIntegrals,
    ) -> Self {
        Step {
            action: Some((end.0, extension(self.t1 - self.t0, start, end, r4))),
            ..self
        }
    }

    /// Start time of the step.
    pub fn start_time(&self) -> f64 {
        self.t0
    }

    /// End time of the step.
    pub fn end_time(&self) -> f64 {
        self.t1
    }

    /// State at the start of the step.
    pub fn start(&self) -> &State<N> {
        &self.r[0]
    }

    /// State at the end of the step.
    pub fn end(&self) -> &State<N> {
        &self.y1
    }

    /// The state at `t`, meant for `t` within the step (outside it, this extrapolates).
    pub fn interpolate(&self, t: f64) -> State<N> {
        extended(&self.r, (t - self.t0) / (self.t1 - self.t0))
    }

    /// The action integrals at `t` within the step, if the run records them; at the end
    /// of the step, the integrator's own values.
    pub fn action_at(&self, t: f64) -> Option<ActionIntegrals> {
        let (end, r) = self.action?;
        if t == self.t1 {
            return Some(end);
        }
        Some(extended(&r, (t - self.t0) / (self.t1 - self.t0)))
    }
}
