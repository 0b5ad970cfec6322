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

    /// `q` and `q̇` as slices, for arithmetic component by component.
    pub(super) fn parts(&self) -> [&[f64]; 2] {
        [self.q.as_slice(), self.qd.as_slice()]
    }

    /// `q` and `q̇` as mutable slices.
    pub(super) fn parts_mut(&mut self) -> [&mut [f64]; 2] {
        [self.q.as_mut_slice(), self.qd.as_mut_slice()]
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

/// `y(θ) = r₀ + θ(r₁ + (1−θ)(r₂ + θ(r₃ + (1−θ) r₄)))` for one component: the cubic
/// Hermite interpolant from the values `y0`, `y1` and slopes `f0`, `f1` at the ends of a
/// step of length `h`, plus the quartic correction `r4`. Every component of a state and
/// of the action integrals is extended by it.
fn hermite(h: f64, (y0, f0): (f64, f64), (y1, f1): (f64, f64), r4: f64, theta: f64) -> f64 {
    let r1 = y1 - y0;
    let r2 = f0 * h - r1;
    let r3 = r1 - f1 * h - r2;
    let theta1 = 1.0 - theta;
    y0 + (r1 + (r2 + (r3 + r4 * theta1) * theta) * theta1) * theta
}

/// One accepted step from `t0` to `t1`, with its continuous extension.
///
/// The extension is `y(θ) = r₀ + θ(r₁ + (1−θ)(r₂ + θ(r₃ + (1−θ) r₄)))`, `θ = (t − t0)/(t1 − t0)`:
/// cubic Hermite interpolation plus, for Dormand–Prince, the quartic correction `r₄`.
///
/// The step keeps its ends and the correction, and makes the extension's coefficients when
/// it is read between its ends: most steps are never read there, and at run-time sizes
/// each coefficient is an allocation.
#[derive(Debug, Clone, PartialEq)]
pub struct Step<N: Dim>
where
    DefaultAllocator: DimAllocator<N>,
{
    t0: f64,
    t1: f64,
    /// The state and its derivative at `t0`.
    start: (State<N>, State<N>),
    /// The state and its derivative at `t1`.
    end: (State<N>, State<N>),
    /// The correction `r₄`; `None` for zero (plain Hermite interpolation).
    r4: Option<State<N>>,
    /// The action integrals and their rates at the start and at the end, and the
    /// correction of their extension, when the run carries them.
    action: Option<[ActionIntegrals; 5]>,
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
    /// The step from `y0` at `t0` to `y1` at `t1`, with the derivatives `f0`, `f1` there:
    /// its extension is the Hermite interpolant plus the correction `r4` (`None`: zero,
    /// plain Hermite interpolation).
    pub(super) fn new(
        (t0, y0, f0): (f64, State<N>, State<N>),
        (t1, y1, f1): (f64, State<N>, State<N>),
        r4: Option<State<N>>,
    ) -> Self {
        Step {
            t0,
            t1,
            start: (y0, f0),
            end: (y1, f1),
            r4,
            action: None,
        }
    }

    /// The states and derivatives at the start and at the end, for the integrator to go
    /// on from the end and to reuse the start's vectors.
    pub(super) fn into_ends(self) -> [(State<N>, State<N>); 2] {
        [self.start, self.end]
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
            action: Some([start.0, start.1, end.0, end.1, r4]),
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
        &self.start.0
    }

    /// State at the end of the step.
    pub fn end(&self) -> &State<N> {
        &self.end.0
    }

    /// The state at `t`, meant for `t` within the step (outside it, this extrapolates).
    pub fn interpolate(&self, t: f64) -> State<N> {
        let ((y0, f0), (y1, f1)) = (&self.start, &self.end);
        let (h, theta) = (self.t1 - self.t0, (t - self.t0) / (self.t1 - self.t0));
        let mut y = y0.clone();
        let (y0, f0, y1, f1) = (y0.parts(), f0.parts(), y1.parts(), f1.parts());
        let r4 = self.r4.as_ref().map(State::parts);
        for (part, out) in y.parts_mut().into_iter().enumerate() {
            for (i, out) in out.iter_mut().enumerate() {
                let correction = r4.map_or(0.0, |r4| r4[part][i]);
                let (start, end) = ((y0[part][i], f0[part][i]), (y1[part][i], f1[part][i]));
                *out = hermite(h, start, end, correction, theta);
            }
        }
        y
    }

    /// The action integrals at `t` within the step, if the run records them; at the end
    /// of the step, the integrator's own values.
    pub fn action_at(&self, t: f64) -> Option<ActionIntegrals> {
        let [a0, g0, a1, g1, r4] = self.action?;
        if t == self.t1 {
            return Some(a1);
        }
        let (h, theta) = (self.t1 - self.t0, (t - self.t0) / (self.t1 - self.t0));
        let field = |x: fn(&ActionIntegrals) -> f64| {
            hermite(h, (x(&a0), x(&g0)), (x(&a1), x(&g1)), x(&r4), theta)
        };
        Some(ActionIntegrals {
            action: field(|a| a.action),
            principal: field(|a| a.principal),
        })
    }
}
