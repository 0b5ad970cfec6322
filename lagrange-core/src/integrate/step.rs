//! The state `(q, q̇)` of the first-order form, and one accepted step of an integrator with
//! its continuous extension (dense output), which events and sampled output read.

use std::ops::{Add, Mul, Sub};

use nalgebra::SVector;

/// A point `(q, q̇)` of the first-order state space (also used for its time derivative).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct State<const N: usize> {
    /// Generalized coordinates.
    pub q: SVector<f64, N>,
    /// Generalized velocities.
    pub qd: SVector<f64, N>,
}

impl<const N: usize> State<N> {
    /// The state `(q, q̇)`.
    pub fn new(q: SVector<f64, N>, qd: SVector<f64, N>) -> Self {
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

impl<const N: usize> Add for State<N> {
    type Output = Self;
    fn add(self, rhs: Self) -> Self {
        State::new(self.q + rhs.q, self.qd + rhs.qd)
    }
}

impl<const N: usize> Sub for State<N> {
    type Output = Self;
    fn sub(self, rhs: Self) -> Self {
        State::new(self.q - rhs.q, self.qd - rhs.qd)
    }
}

impl<const N: usize> Mul<f64> for State<N> {
    type Output = Self;
    fn mul(self, rhs: f64) -> Self {
        State::new(self.q * rhs, self.qd * rhs)
    }
}

/// One accepted step from `t0` to `t1`, with its continuous extension.
///
/// The extension is `y(θ) = r₀ + θ(r₁ + (1−θ)(r₂ + θ(r₃ + (1−θ) r₄)))`, `θ = (t − t0)/(t1 − t0)`:
/// cubic Hermite interpolation plus, for Dormand–Prince, the quartic correction `r₄`.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Step<const N: usize> {
    t0: f64,
    t1: f64,
    y1: State<N>,
    r: [State<N>; 5],
}

impl<const N: usize> Step<N> {
    /// The Hermite part of the extension, from the end points and their derivatives `f0`, `f1`,
    /// plus the correction `r4` (zero for plain Hermite interpolation).
    pub(super) fn new(
        (t0, y0, f0): (f64, State<N>, State<N>),
        (t1, y1, f1): (f64, State<N>, State<N>),
        r4: State<N>,
    ) -> Self {
        let h = t1 - t0;
        let dy = y1 - y0;
        let r2 = f0 * h - dy;
        let r3 = dy - f1 * h - r2;
        Step {
            t0,
            t1,
            y1,
            r: [y0, dy, r2, r3, r4],
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
    pub fn start(&self) -> State<N> {
        self.r[0]
    }

    /// State at the end of the step.
    pub fn end(&self) -> State<N> {
        self.y1
    }

    /// The state at `t`, meant for `t` within the step (outside it, this extrapolates).
    pub fn interpolate(&self, t: f64) -> State<N> {
        let theta = (t - self.t0) / (self.t1 - self.t0);
        let theta1 = 1.0 - theta;
        let [r0, r1, r2, r3, r4] = self.r;
        r0 + (r1 + (r2 + (r3 + r4 * theta1) * theta) * theta1) * theta
    }
}
