//! The kinetic foci of the start along a motion (Thomson & Tait §§356–358; conjugate
//! points), each with its multiplicity: where neighbouring motions from `q₀` under the same
//! condition meet the motion again, and how many independent ones do.
//!
//! The neighbouring motions from `q₀` are the columns of `X = ∂q(t)/∂q̇₀` with their
//! momenta `Y = ∂p(t)/∂q̇₀` (under the energy condition, only the variations that keep the
//! energy, reduced by the shift along the motion, see [`Foci::frame`]). `(X, Y)` spans a
//! Lagrangian plane (`XᵀY` is symmetric, as at the start where `X = 0`), so
//! `U = (X − iY)(X + iY)⁻¹` is unitary, and `dim ker X` — the multiplicity of a focus — is
//! the number of its eigenvalues at `−1`. At the start all are at `−1`; as `t` grows they
//! turn on the unit circle and, since the kinetic energy is positive definite, they pass
//! `−1` only counterclockwise (the crossing form is `∂²H/∂p²`). Their angles, followed
//! continuously from `π`, count the foci: every pass of an eigenvalue's angle through
//! `3π, 5π, …` is one, so a focus of multiplicity `k` counts `k` times (the index of the
//! second variation, Morse's theorem). The sign of `det X` would miss every focus of even
//! multiplicity, such as the isotropic oscillator's at half a period. Under the energy
//! condition a time at which the system comes to rest is a focus of multiplicity one (the
//! bordered matrix's column `q̇` vanishes there), found apart, see [`Foci::rest`].

use std::f64::consts::{PI, TAU};

use nalgebra::linalg::Schur;
use nalgebra::{Complex, DMatrix, DVector, DefaultAllocator, Dim, Dyn, OVector};

use super::flow::Point;
use super::{Condition, Focus};
use crate::error::Error;
use crate::size::DimAllocator;
use crate::system::LagrangianSystem;

/// What the errors say of an end point at a focus of the start, so that a search whose
/// every start ends there is refused in one sentence.
pub(super) const AT_FOCUS: &str = "kinetic focus of the start";

/// The most an eigenvalue may turn in one step before the step is halved: well below the
/// distance at which two eigenvalues could be matched the wrong way round.
const MAX_TURN: f64 = PI / 8.0;

/// Halvings of a step whose eigenvalues turn too far.
const SPLITS: usize = 6;

/// Bisections of a step in which an eigenvalue passes `−1`.
const BISECTIONS: usize = 60;

/// Passes of `−1` closer than this, relative to the motion's time, are one focus.
const SAME_FOCUS: f64 = 1e-8;

/// Iterations of the Schur decomposition of `U`.
const SCHUR_ITERATIONS: usize = 1000;

/// The foci found along a motion, step by step.
pub(super) struct Foci<'s, S, N: Dim>
where
    DefaultAllocator: DimAllocator<N>,
{
    system: &'s S,
    condition: Condition,
    /// The variations of `q̇₀` followed: all of them (time condition), or an orthonormal
    /// basis of those that keep the energy (`∂h/∂q̇₀ · δq̇₀ = 0`).
    basis: DMatrix<f64>,
    /// The time and the mass that make `X` and `Y` dimensionless.
    time_scale: f64,
    mass_scale: f64,
    /// The start's time.
    start: f64,
    /// The last point where the angles are known.
    last: Point<N>,
    /// The eigenvalues' angles at `last`, each followed continuously from `π`.
    angles: Vec<f64>,
    /// The times at which an angle passed `3π, 5π, …`, one entry per pass.
    passes: Vec<f64>,
}

impl<'s, S: LagrangianSystem<N>, N: Dim> Foci<'s, S, N>
where
    DefaultAllocator: DimAllocator<N>,
{
    /// The search along the motion from `start` lasting `duration`; `energy_gradient` is
    /// `∂h/∂q̇₀` there.
    pub(super) fn new(
        system: &'s S,
        condition: Condition,
        start: &Point<N>,
        energy_gradient: &OVector<f64, N>,
        duration: f64,
    ) -> Self {
        let n = start.q.len();
        let basis = match condition {
            Condition::Time(_) => DMatrix::identity(n, n),
            Condition::Energy(_) => {
                complement(&DVector::from_column_slice(energy_gradient.as_slice()))
            }
        };
        let mass = system.mass_matrix(start.t, &start.q, &start.qd).norm();
        Foci {
            system,
            condition,
            angles: vec![PI; basis.ncols()],
            basis,
            time_scale: duration.abs().max(f64::MIN_POSITIVE),
            mass_scale: mass.max(f64::MIN_POSITIVE),
            start: start.t,
            last: start.clone(),
            passes: Vec::new(),
        }
    }

    /// `(X, Y)` at `point`, dimensionless; `None` where the energy condition's reduction is
    /// undefined (the system at rest, where the motion's direction is no direction in `q`).
    ///
    /// Under the energy condition a neighbouring motion of the same energy may also arrive
    /// earlier or later: `(δq, δp)` counts modulo the motion's own direction `(q̇, ṗ)`,
    /// which the symplectic form does not see on the energy surface. Each column is shifted
    /// along it until `δq ⟂ g`, `g = M q̇` (`g·q̇ = 2T₂ > 0`), and read in an orthonormal
    /// basis `Q` of `g⟂`: `(Qᵀ δq, Qᵀ δp)` is again a Lagrangian frame, singular exactly
    /// where the bordered matrix `[[∂q/∂q̇₀, q̇], [∂h/∂q̇₀ᵀ, 0]]` is.
    fn frame(&self, point: &Point<N>) -> Option<(DMatrix<f64>, DMatrix<f64>)> {
        let (t, q, qd) = (point.t, &point.q, &point.qd);
        let n = q.len();
        let m = self.system.mass_matrix(t, q, qd);
        let p = self.system.momentum_jacobian(t, q, qd) * &point.q_v + &m * &point.qd_v;
        let x = DMatrix::from_column_slice(n, n, point.q_v.as_slice()) * &self.basis;
        let y = DMatrix::from_column_slice(n, n, p.as_slice()) * &self.basis;
        let (x, y) = match self.condition {
            Condition::Time(_) => (x, y),
            Condition::Energy(_) => {
                let g = DVector::from_column_slice((m * qd).as_slice());
                let velocity = DVector::from_column_slice(qd.as_slice());
                let twice_t = g.dot(&velocity);
                if twice_t.is_nan() || twice_t <= 0.0 {
                    return None;
                }
                let rate = self.system.momentum_rate(t, q, qd);
                let rate = DVector::from_column_slice(rate.as_slice());
                let shift = g.transpose() * &x / twice_t;
                let q_perp = complement(&g);
                (
                    q_perp.transpose() * (x - velocity * &shift),
                    q_perp.transpose() * (y - rate * shift),
                )
            }
        };
        Some((x / self.time_scale, y / self.mass_scale))
    }

    /// The angles of the eigenvalues of `U` at `point`, in `(−π, π]`.
    fn eigen_angles(&self, point: &Point<N>) -> Result<Option<Vec<f64>>, Error> {
        let Some((x, y)) = self.frame(point) else {
            return Ok(None);
        };
        let unresolved = || {
            Error::NoMotion(format!(
                "the kinetic foci could not be followed at t = {}: the neighbouring motions are not finite there",
                point.t
            ))
        };
        let x = x.map(|v| Complex::new(v, 0.0));
        let iy = y.map(|v| Complex::new(0.0, v));
        // U = (X − iY)(X + iY)⁻¹, from (X + iY)ᵀ Uᵀ = (X − iY)ᵀ.
        let u = (&x + &iy)
            .transpose()
            .lu()
            .solve(&(&x - &iy).transpose())
            .ok_or_else(unresolved)?
            .transpose();
        if !u.iter().all(|z| z.re.is_finite() && z.im.is_finite()) {
            return Err(unresolved());
        }
        let schur = Schur::<Complex<f64>, Dyn>::try_new(u, f64::EPSILON, SCHUR_ITERATIONS)
            .ok_or_else(unresolved)?;
        let (_, triangular) = schur.unpack();
        Ok(Some(
            triangular
                .diagonal()
                .iter()
                .map(|z| z.im.atan2(z.re))
                .collect(),
        ))
    }

    /// Follows the angles to `after`, the end of a step of the motion, noting each pass of
    /// `−1`. The start itself, where the motions from `q₀` all meet, is no focus.
    pub(super) fn visit(&mut self, after: &Point<N>) -> Result<(), Error> {
        self.advance(after, 0)
    }

    fn advance(&mut self, to: &Point<N>, splits: usize) -> Result<(), Error> {
        let Some(found) = self.eigen_angles(to)? else {
            return Ok(());
        };
        let next = matched(&self.angles, &found);
        let turn = next
            .iter()
            .zip(&self.angles)
            .map(|(a, b)| (a - b).abs())
            .fold(0.0, f64::max);
        let h = to.t - self.last.t;
        if turn > MAX_TURN && splits < SPLITS {
            let middle = self.last.step(self.system, 0.5 * h)?;
            self.advance(&middle, splits + 1)?;
            let end = middle.step(self.system, 0.5 * h)?;
            return self.advance(&end, splits + 1);
        }
        if let Some(rest) = self.rest(to, h)? {
            // The system comes to rest: the bordered matrix is singular there (its last
            // column vanishes), a focus of the energy condition, and the reduction that the
            // angles follow is undefined; they are taken up again after it.
            self.passes.push(rest);
        } else {
            for (branch, (&from, &to)) in self.angles.iter().zip(&next).enumerate() {
                // The odd multiples of π above 3π that this branch passes upwards.
                let first = ((from - PI) / TAU).floor() as i64 + 1;
                let last = ((to - PI) / TAU).floor() as i64;
                for k in first.max(1)..=last {
                    let level = PI + TAU * k as f64;
                    self.passes.push(self.bisect(branch, level, h)?);
                }
            }
        }
        self.last = to.clone();
        self.angles = next;
        Ok(())
    }

    /// Under the energy condition, the time within the step of length `h` from `last` to
    /// `to` at which the system is at rest, if its velocity turns back in the step
    /// (`q̇(last)ᵀ M q̇ < 0`), by bisection on that sign.
    fn rest(&self, to: &Point<N>, h: f64) -> Result<Option<f64>, Error> {
        let Condition::Energy(_) = self.condition else {
            return Ok(None);
        };
        let last = &self.last;
        let m = self.system.mass_matrix(last.t, &last.q, &last.qd);
        let w = m * &last.qd;
        if w.dot(&to.qd) >= 0.0 || last.t == self.start {
            return Ok(None);
        }
        let (mut low, mut high) = (0.0, h);
        for _ in 0..BISECTIONS {
            let mid = 0.5 * (low + high);
            if mid <= low || mid >= high {
                break;
            }
            if w.dot(&last.step(self.system, mid)?.qd) >= 0.0 {
                low = mid;
            } else {
                high = mid;
            }
        }
        Ok(Some(last.t + 0.5 * (low + high)))
    }

    /// The time at which the angle `branch` reaches `level` within the step of length `h`
    /// from `last`, by bisection on shorter steps from `last`.
    fn bisect(&self, branch: usize, level: f64, h: f64) -> Result<f64, Error> {
        let (mut low, mut high) = (0.0, h);
        for _ in 0..BISECTIONS {
            let mid = 0.5 * (low + high);
            if mid <= low || mid >= high {
                break;
            }
            let Some(found) = self.eigen_angles(&self.last.step(self.system, mid)?)? else {
                break;
            };
            if matched(&self.angles, &found)[branch] < level {
                low = mid;
            } else {
                high = mid;
            }
        }
        Ok(self.last.t + 0.5 * (low + high))
    }

    /// The foci strictly before `end`, in time order, passes at the same time counted as
    /// one focus of their number.
    pub(super) fn before(mut self, end: f64) -> Vec<Focus> {
        self.passes.sort_by(f64::total_cmp);
        let mut foci: Vec<Focus> = Vec::new();
        for t in self.passes {
            if t >= end - 1e-9 * self.time_scale {
                break;
            }
            match foci.last_mut() {
                Some(f) if t - f.time <= SAME_FOCUS * self.time_scale => f.multiplicity += 1,
                _ => foci.push(Focus {
                    time: t,
                    multiplicity: 1,
                }),
            }
        }
        foci
    }
}

/// The angles `found` (in `(−π, π]`) assigned to the branches at `angles` (continuous,
/// any real): each branch moves to the eigenvalue nearest it around the circle, the
/// eigenvalues keeping their cyclic order, and its angle by the least turn.
fn matched(angles: &[f64], found: &[f64]) -> Vec<f64> {
    let m = angles.len();
    let wrap = |x: f64| x - TAU * (x / TAU).round();
    let mut branches: Vec<usize> = (0..m).collect();
    branches.sort_by(|&a, &b| {
        angles[a]
            .rem_euclid(TAU)
            .total_cmp(&angles[b].rem_euclid(TAU))
    });
    let mut values: Vec<f64> = found.iter().map(|a| a.rem_euclid(TAU)).collect();
    values.sort_by(f64::total_cmp);
    let cost = |shift: usize| -> f64 {
        branches
            .iter()
            .enumerate()
            .map(|(k, &b)| wrap(values[(k + shift) % m] - angles[b]).abs())
            .sum()
    };
    let shift = (0..m)
        .min_by(|&a, &b| cost(a).total_cmp(&cost(b)))
        .unwrap_or(0);
    let mut next = angles.to_vec();
    for (k, &b) in branches.iter().enumerate() {
        next[b] = angles[b] + wrap(values[(k + shift) % m] - angles[b]);
    }
    next
}

/// An orthonormal basis of the vectors orthogonal to `g` (the columns of the Householder
/// reflection that takes `g` to a multiple of the first axis, but the first); the first
/// `n − 1` axes when `g` is zero.
fn complement(g: &DVector<f64>) -> DMatrix<f64> {
    let n = g.len();
    let norm = g.norm();
    if n == 0 || norm.is_nan() || norm <= 0.0 {
        return DMatrix::identity(n, n.saturating_sub(1));
    }
    let mut w = g / norm;
    w[0] += if w[0] >= 0.0 { 1.0 } else { -1.0 };
    let w = &w / w.norm();
    let reflection = DMatrix::identity(n, n) - 2.0 * &w * w.transpose();
    reflection.columns(1, n - 1).into_owned()
}
