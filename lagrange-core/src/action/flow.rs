//! The motion from `(q₀, q̇₀)` with what varying its start does to it: the variational
//! equations `δq̈ = ∂q̈/∂q δq + ∂q̈/∂q̇ δq̇` for the columns of `∂(q, q̇)/∂q̇₀` and
//! `∂(q, q̇)/∂q₀`, and the two actions `S = ∫ L dt` and `A = ∫ p·q̇ dt` with their
//! gradients in `q̇₀` and `q₀`, all integrated together by the classic Runge–Kutta method of
//! order 4 (the actions are components of the state, so they have the method's order).

use std::ops::{Add, Mul};

use nalgebra::{DefaultAllocator, Dim, OMatrix, OVector, U1};

use crate::error::Error;
use crate::size::DimAllocator;
use crate::system::LagrangianSystem;

/// The augmented state at one time: the motion, its sensitivities and its actions.
#[derive(Debug, Clone, PartialEq)]
pub(super) struct Point<N: Dim>
where
    DefaultAllocator: DimAllocator<N>,
{
    /// Time.
    pub t: f64,
    /// `q`.
    pub q: OVector<f64, N>,
    /// `q̇`.
    pub qd: OVector<f64, N>,
    /// `∂q/∂q̇₀`.
    pub q_v: OMatrix<f64, N, N>,
    /// `∂q̇/∂q̇₀`.
    pub qd_v: OMatrix<f64, N, N>,
    /// `∂q/∂q₀`.
    pub q_q: OMatrix<f64, N, N>,
    /// `∂q̇/∂q₀`.
    pub qd_q: OMatrix<f64, N, N>,
    /// `S = ∫ L dt` from the start.
    pub s: f64,
    /// `A = ∫ p·q̇ dt` from the start (`∫ 2T dt` for a `T` quadratic in the velocities).
    pub a: f64,
    /// `∂S/∂q̇₀` and `∂S/∂q₀` (along the motion, end point free).
    pub s_v: OVector<f64, N>,
    pub s_q: OVector<f64, N>,
    /// `∂A/∂q̇₀` and `∂A/∂q₀`.
    pub a_v: OVector<f64, N>,
    pub a_q: OVector<f64, N>,
}

/// The rates of the components of a [`Point`] (its `t` is the rate of time, 1).
type Rates<N> = Point<N>;

impl<N: Dim> Add for Point<N>
where
    DefaultAllocator: DimAllocator<N>,
{
    type Output = Self;
    fn add(self, r: Self) -> Self {
        Point {
            t: self.t + r.t,
            q: self.q + r.q,
            qd: self.qd + r.qd,
            q_v: self.q_v + r.q_v,
            qd_v: self.qd_v + r.qd_v,
            q_q: self.q_q + r.q_q,
            qd_q: self.qd_q + r.qd_q,
            s: self.s + r.s,
            a: self.a + r.a,
            s_v: self.s_v + r.s_v,
            s_q: self.s_q + r.s_q,
            a_v: self.a_v + r.a_v,
            a_q: self.a_q + r.a_q,
        }
    }
}

impl<N: Dim> Mul<f64> for Point<N>
where
    DefaultAllocator: DimAllocator<N>,
{
    type Output = Self;
    fn mul(self, h: f64) -> Self {
        Point {
            t: self.t * h,
            q: self.q * h,
            qd: self.qd * h,
            q_v: self.q_v * h,
            qd_v: self.qd_v * h,
            q_q: self.q_q * h,
            qd_q: self.qd_q * h,
            s: self.s * h,
            a: self.a * h,
            s_v: self.s_v * h,
            s_q: self.s_q * h,
            a_v: self.a_v * h,
            a_q: self.a_q * h,
        }
    }
}

impl<N: Dim> Point<N>
where
    DefaultAllocator: DimAllocator<N>,
{
    /// The start `(t₀, q₀, q̇₀)`: sensitivities the identity where they vary, actions zero.
    pub(super) fn start(t: f64, q: OVector<f64, N>, qd: OVector<f64, N>) -> Self {
        let n = q.shape_generic().0;
        let (zero, one) = (
            OMatrix::zeros_generic(n, n),
            OMatrix::identity_generic(n, n),
        );
        let zeros = OVector::zeros_generic(n, U1);
        Point {
            t,
            q,
            qd,
            q_v: zero.clone(),
            qd_v: one.clone(),
            q_q: one,
            qd_q: zero,
            s: 0.0,
            a: 0.0,
            s_v: zeros.clone(),
            s_q: zeros.clone(),
            a_v: zeros.clone(),
            a_q: zeros,
        }
    }

    /// The rates at this point of a conservative system without forces (so that `ṗ` is
    /// `∂L/∂q`).
    fn rates<S: LagrangianSystem<N>>(&self, system: &S) -> Result<Rates<N>, Error> {
        let finite = self.q.iter().chain(self.qd.iter()).all(|x| x.is_finite());
        if !finite
            || !self
                .q_v
                .iter()
                .chain(self.qd_v.iter())
                .all(|x| x.is_finite())
        {
            return Err(Error::NonFiniteState { t: self.t });
        }
        let (t, q, qd) = (self.t, &self.q, &self.qd);
        let j = system.acceleration_jacobians(t, q, qd)?;
        let p = system.momenta(t, q, qd);
        // ∂L/∂q: the momentum rate of a system on which no force acts.
        let l_q = system.momentum_rate(t, q, qd);
        let m = system.mass_matrix(t, q, qd);
        // ∂(p·q̇)/∂q = (∂p/∂q)ᵀ q̇ and ∂(p·q̇)/∂q̇ = p + M q̇ (M = ∂p/∂q̇, symmetric).
        let pv_q = system.momentum_jacobian(t, q, qd).transpose() * qd;
        let pv_qd = &p + m * qd;
        let vary = |dq: &OMatrix<f64, N, N>, dqd: &OMatrix<f64, N, N>| {
            &j.coordinates * dq + &j.velocities * dqd
        };
        Ok(Point {
            t: 1.0,
            q: qd.clone(),
            qd: j.accelerations.clone(),
            q_v: self.qd_v.clone(),
            qd_v: vary(&self.q_v, &self.qd_v),
            q_q: self.qd_q.clone(),
            qd_q: vary(&self.q_q, &self.qd_q),
            s: system.lagrangian(t, q, qd),
            a: p.dot(qd),
            s_v: self.q_v.transpose() * &l_q + self.qd_v.transpose() * &p,
            s_q: self.q_q.transpose() * &l_q + self.qd_q.transpose() * &p,
            a_v: self.q_v.transpose() * &pv_q + self.qd_v.transpose() * &pv_qd,
            a_q: self.q_q.transpose() * &pv_q + self.qd_q.transpose() * &pv_qd,
        })
    }

    /// One step of the classic Runge–Kutta method of order 4, of length `h`.
    pub(super) fn step<S: LagrangianSystem<N>>(&self, system: &S, h: f64) -> Result<Self, Error> {
        let k1 = self.rates(system)?;
        let k2 = (self.clone() + k1.clone() * (0.5 * h)).rates(system)?;
        let k3 = (self.clone() + k2.clone() * (0.5 * h)).rates(system)?;
        let k4 = (self.clone() + k3.clone() * h).rates(system)?;
        let mut next = self.clone() + (k1 + (k2 + k3) * 2.0 + k4) * (h / 6.0);
        next.t = self.t + h;
        Ok(next)
    }
}

/// The motion from `start` over `duration` in `steps` equal steps: the end point. `visit`
/// sees each step, as the points before and after it.
pub(super) fn flow<S: LagrangianSystem<N>, N: Dim>(
    system: &S,
    start: Point<N>,
    duration: f64,
    steps: usize,
    mut visit: impl FnMut(&Point<N>, &Point<N>) -> Result<(), Error>,
) -> Result<Point<N>, Error>
where
    DefaultAllocator: DimAllocator<N>,
{
    let h = duration / steps as f64;
    let t0 = start.t;
    let mut point = start;
    for k in 1..=steps {
        let mut next = point.step(system, h)?;
        // The last step ends at the duration exactly, not at a sum of rounded steps.
        next.t = t0 + if k == steps { duration } else { k as f64 * h };
        visit(&point, &next)?;
        point = next;
    }
    Ok(point)
}
