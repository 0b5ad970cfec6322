//! The first-order system `x = (q, q̇)`, `ẋ = F(t, x, u)` linearized at a state, and the
//! stability its eigenvalues decide.

use nalgebra::{Complex, DMatrix, DVector, DefaultAllocator, Dim, OVector};

use crate::error::Error;
use crate::size::{ConstraintAllocator, DimAllocator};
use crate::system::ConstrainedSystem;
use crate::system::LagrangianSystem;

/// Largest number of QR sweeps allowed for the real Schur form of `A`.
const SCHUR_ITERATIONS: usize = 10_000;

/// An eigenvalue counts as on the imaginary axis when `|Re λ| ≤ MARGINAL_TOLERANCE·‖A‖`.
///
/// A simple eigenvalue of `A` is computed with an error of order `ε‖A‖` (times its
/// condition number), but mechanics is full of double eigenvalues: every cyclic coordinate
/// (and every constraint, in redundant coordinates) gives a 2×2 Jordan block at 0, whose
/// eigenvalues move by `√(ε)‖A‖ ≈ 1.5·10⁻⁸‖A‖` under a perturbation of size `ε‖A‖`. The
/// tolerance is that, with a factor of about 100 for conditioning.
pub const MARGINAL_TOLERANCE: f64 = 1.5e-6;

/// What the eigenvalues of a linearization say about the state (Lyapunov's first method).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Stability {
    /// Every eigenvalue has a negative real part (beyond the tolerance): small
    /// perturbations decay.
    AsymptoticallyStable,
    /// Some eigenvalue has a positive real part (beyond the tolerance): some small
    /// perturbations grow exponentially.
    Unstable,
    /// No eigenvalue to the right of the imaginary axis and some on it (within
    /// [`MARGINAL_TOLERANCE`]): the linearization does not decide. A conservative system
    /// at a minimum of its potential is here (small oscillations neither grow nor decay),
    /// and so is a free direction (a double eigenvalue 0: perturbations drift linearly).
    Marginal,
}

/// The linearization of `ẋ = F(t, x, u)`, `x = (q, q̇)`, at a state: `δẋ = A δx + B δu`.
#[derive(Debug, Clone, PartialEq)]
pub struct Linearization {
    /// Time of the state.
    pub t: f64,
    /// `F` at the state, `(q̇, q̈)`: zero at an equilibrium.
    pub rate: DVector<f64>,
    /// `A = ∂F/∂x`, `2N × 2N`: `[[0, I], [∂q̈/∂q, ∂q̈/∂q̇]]`.
    pub a: DMatrix<f64>,
    /// `B = ∂F/∂u`, `2N` rows and one column per input, in the order of
    /// [`ModelInfo::inputs`](crate::ModelInfo::inputs): zeros above `∂q̈/∂u`.
    pub b: DMatrix<f64>,
    /// For a constrained system ([`linearize_constrained`]): an orthonormal basis
    /// (`2N × 2(N − K)`) of the states that keep `G = 0` and `Ġ = 0` to first order, an
    /// invariant subspace of `A`. `None` without constraints.
    pub tangent: Option<DMatrix<f64>>,
}

/// Linearizes the motion of `system` at `(t, q, q̇)`, any state (not only equilibria), from
/// the exact [`acceleration_jacobians`](LagrangianSystem::acceleration_jacobians): a
/// constrained system's are those of its constrained motion (see also
/// [`linearize_constrained`], which adds the tangent space of the constraints).
///
/// Errors as the accelerations do (a singular mass matrix, dependent constraints), and
/// with [`Error::InvalidInput`] for a model derived with `omit(derivatives)`.
pub fn linearize<S: LagrangianSystem<N>, N: Dim>(
    system: &S,
    t: f64,
    q: &OVector<f64, N>,
    qd: &OVector<f64, N>,
) -> Result<Linearization, Error>
where
    DefaultAllocator: DimAllocator<N>,
{
    let jacobians = system.acceleration_jacobians(t, q, qd)?;
    let inputs = &system.info().inputs;
    let n = q.len();
    let mut a = DMatrix::zeros(2 * n, 2 * n);
    a.view_mut((0, n), (n, n)).fill_with_identity();
    a.view_mut((n, 0), (n, n))
        .copy_from_slice(jacobians.coordinates.as_slice());
    a.view_mut((n, n), (n, n))
        .copy_from_slice(jacobians.velocities.as_slice());
    let mut b = DMatrix::zeros(2 * n, inputs.len());
    for (column, &input) in inputs.iter().enumerate() {
        if input >= jacobians.parameters.ncols() {
            return Err(Error::InvalidInput(format!(
                "input index {input} of `{}` is not below its {} parameters",
                system.info().name,
                jacobians.parameters.ncols()
            )));
        }
        b.view_mut((n, column), (n, 1))
            .copy_from(&jacobians.parameters.column(input));
    }
    let rate = DVector::from_iterator(
        2 * n,
        qd.iter().chain(jacobians.accelerations.iter()).copied(),
    );
    Ok(Linearization {
        t,
        rate,
        a,
        b,
        tangent: None,
    })
}

/// [`linearize`] for a constrained system, with the [`tangent`](Linearization::tangent)
/// space of the constraints: the states `(δq, δq̇)` with `J δq = 0` and
/// `J δq̇ + ∂Ġ/∂q δq = 0` for each holonomic constraint, and only the second,
/// `a δq̇ + ∂e/∂q δq = 0`, for each constraint on the velocities `e = a·q̇ + b`, which does
/// not restrict the coordinates: the space has dimension `2N − K − K_h` with `K_h`
/// holonomic constraints. In redundant coordinates `A` also carries eigenvalues 0 of the
/// constraint violations, which say nothing about the motion;
/// [`Linearization::stability`] looks only at the tangent space.
///
/// For a holonomic constraint `∂Ġ/∂q` is `½ ∂s/∂q̇` of the constraints'
/// [`constraint_jacobians`] (`s = J q̈ + c` and `∂c/∂q̇ = 2 ∂Ġ/∂q`); for one on the
/// velocities, `∂e/∂q` is taken by five-point central differences of
/// [`constraint_velocities`](ConstrainedSystem::constraint_velocities) (`e` is smooth in
/// `q`; the basis is then accurate to about `ε^(4/5)`, and the benchmark bicycle's
/// linearized matrices come out within `10⁻¹¹` of the published ones).
///
/// Errors with [`Error::InconsistentState`] for a state off its constraints (beyond a
/// relative `10⁻⁹`, as for initial states), and as [`linearize`] does.
///
/// [`constraint_jacobians`]: ConstrainedSystem::constraint_jacobians
pub fn linearize_constrained<S: ConstrainedSystem<N, K>, N: Dim, K: Dim>(
    system: &S,
    t: f64,
    q: &OVector<f64, N>,
    qd: &OVector<f64, N>,
) -> Result<Linearization, Error>
where
    DefaultAllocator: ConstraintAllocator<N, K>,
{
    // A state off its constraints has no tangent space of the motion; the tolerance is
    // the one initial states are held to.
    system.check_consistent(t, q, qd, crate::system::constrained::CONSISTENCY_TOLERANCE)?;
    let mut linearization = linearize(system, t, q, qd)?;
    let motion = system.constrained_motion(t, q, qd)?;
    let s = system.constraint_jacobians(t, q, qd, &motion.accelerations, &motion.multipliers);
    let j = system.constraint_jacobian(t, q);
    let info = &system.info().constraints;
    let on_velocities = |i: usize| info.get(i).is_some_and(|c| c.on_velocities);
    let (n, k) = (q.len(), j.nrows());
    let holonomic: Vec<usize> = (0..k).filter(|&i| !on_velocities(i)).collect();
    // ∂e/∂q of the velocity constraints, by the five-point central difference
    // (8 (e₊₁ − e₋₁) − (e₊₂ − e₋₂)) / 12h: truncation h⁴, round-off ε/h, h = ε^(1/5).
    let mut velocity_gradient = DMatrix::zeros(k, n);
    for c in 0..n {
        let h = f64::EPSILON.powf(0.2) * (1.0 + q[c].abs());
        let shifted = |steps: f64| {
            let mut at = q.clone();
            at[c] += steps * h;
            system.constraint_velocities(t, &at, qd)
        };
        let difference =
            ((shifted(1.0) - shifted(-1.0)) * 8.0 - (shifted(2.0) - shifted(-2.0))) / (12.0 * h);
        velocity_gradient
            .column_mut(c)
            .copy_from_slice(difference.as_slice());
    }
    // The K-row matrices as dynamic ones, to be copied into the rows by views.
    let j = DMatrix::from_column_slice(k, n, j.as_slice());
    let acceleration_velocities =
        DMatrix::from_column_slice(k, n, s.acceleration_velocities.as_slice());
    let mut rows = DMatrix::zeros(k + holonomic.len(), 2 * n);
    for i in 0..k {
        let by_q = if on_velocities(i) {
            velocity_gradient.row(i).into_owned()
        } else {
            acceleration_velocities.row(i) * 0.5
        };
        rows.view_mut((i, 0), (1, n)).copy_from(&by_q);
        rows.view_mut((i, n), (1, n)).copy_from(&j.row(i));
    }
    for (r, &i) in holonomic.iter().enumerate() {
        rows.view_mut((k + r, 0), (1, n)).copy_from(&j.row(i));
    }
    let dimension = 2 * n - k - holonomic.len();
    linearization.tangent =
        Some(
            null_space(rows, dimension).ok_or_else(|| Error::DependentConstraints {
                t,
                q: q.as_slice().to_vec(),
                constraints: info.iter().map(|c| c.text.to_string()).collect(),
            })?,
        );
    Ok(linearization)
}

/// The eigenvalues of `matrix` from its real Schur form; errors with
/// [`Error::NoConvergence`] (at time `t`) when the QR iteration does not converge.
pub(super) fn eigenvalues(matrix: DMatrix<f64>, t: f64) -> Result<Vec<Complex<f64>>, Error> {
    let schur = nalgebra::Schur::try_new(matrix, f64::EPSILON, SCHUR_ITERATIONS).ok_or(
        Error::NoConvergence {
            t,
            iterations: SCHUR_ITERATIONS,
        },
    )?;
    Ok(schur.complex_eigenvalues().iter().copied().collect())
}

/// An orthonormal basis of the null space of `rows` (`m × n`), expected of dimension
/// `dimension`; `None` when the rows are not independent.
pub(super) fn null_space(rows: DMatrix<f64>, dimension: usize) -> Option<DMatrix<f64>> {
    let n = rows.ncols();
    // The null space of `rows` is the orthogonal complement of its row space: the last
    // `dimension` columns of the full, square Q of `rowsᵀ = Q R`.
    let rank = n - dimension;
    let qr = rows.transpose().qr();
    let r = qr.r();
    let scale = r.diagonal().amax();
    if (0..rank).any(|i| r[(i, i)].abs() <= 1e-12 * scale) {
        return None;
    }
    let mut transposed = DMatrix::identity(n, n);
    qr.q_tr_mul(&mut transposed);
    Some(transposed.rows(rank, dimension).transpose())
}

impl Linearization {
    /// The matrix whose eigenvalues describe the motion: `A`, or `Tᵀ A T` on the
    /// [`tangent`](Self::tangent) space of the constraints.
    pub fn motion_matrix(&self) -> DMatrix<f64> {
        match &self.tangent {
            Some(basis) => basis.transpose() * &self.a * basis,
            None => self.a.clone(),
        }
    }

    /// The eigenvalues of the [`motion_matrix`](Self::motion_matrix), from its real Schur
    /// form; errors with [`Error::NoConvergence`] when the QR iteration does not converge.
    pub fn eigenvalues(&self) -> Result<Vec<Complex<f64>>, Error> {
        eigenvalues(self.motion_matrix(), self.t)
    }

    /// The stability the eigenvalues decide (see [`Stability`] and
    /// [`MARGINAL_TOLERANCE`]). Meaningful at an equilibrium (`rate = 0`).
    pub fn stability(&self) -> Result<Stability, Error> {
        let matrix = self.motion_matrix();
        let tolerance = MARGINAL_TOLERANCE * matrix.norm();
        let eigenvalues = self.eigenvalues()?;
        Ok(if eigenvalues.iter().any(|l| l.re > tolerance) {
            Stability::Unstable
        } else if eigenvalues.iter().all(|l| l.re < -tolerance) {
            Stability::AsymptoticallyStable
        } else {
            Stability::Marginal
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::test_systems::{
        CartPole, CartesianPendulum, DoublePendulum, Pendulum, central_differences,
    };
    use lagrange_common::SplitMix64;
    use nalgebra::{SVector, U1};
    use std::f64::consts::PI;

    /// `F(t, x, p)` with `x = (q, q̇)` as one vector, for the finite differences.
    fn rate<S: LagrangianSystem<N>, N: Dim>(system: &S, t: f64, x: &[f64]) -> Vec<f64>
    where
        DefaultAllocator: DimAllocator<N>,
    {
        let size = system.dimension();
        let n = size.value();
        let (q, qd) = (
            OVector::<f64, N>::from_column_slice_generic(size, U1, &x[..n]),
            OVector::<f64, N>::from_column_slice_generic(size, U1, &x[n..2 * n]),
        );
        let model = system.with_parameter_values(&x[2 * n..]).unwrap();
        let qdd = model.accelerations(t, &q, &qd).unwrap();
        qd.iter().chain(qdd.iter()).copied().collect()
    }

    fn assert_close(exact: &DMatrix<f64>, reference: &DMatrix<f64>, tolerance: f64) {
        let scale = reference.amax().max(1.0);
        let error = (exact - reference).amax();
        assert!(
            error <= tolerance * scale,
            "error {error:e} (scale {scale}):\n{exact}\nvs\n{reference}"
        );
    }

    /// The exact `A` and all of `∂q̈/∂p` against central differences of `accelerations`
    /// at random states, none of them an equilibrium.
    fn check_at_random_states<S: LagrangianSystem<N>, N: Dim>(
        system: &S,
        states: impl Fn(&mut SplitMix64) -> (OVector<f64, N>, OVector<f64, N>),
    ) where
        DefaultAllocator: DimAllocator<N>,
    {
        let mut rng = SplitMix64::new(11);
        for _ in 0..20 {
            let (q, qd) = states(&mut rng);
            let n = q.len();
            let t = rng.uniform(&(0.0..1.0));
            let x: Vec<f64> = q
                .iter()
                .chain(qd.iter())
                .copied()
                .chain(system.parameter_values())
                .collect();
            let reference = central_differences(&x, 1e-5, |x| rate(system, t, x));
            let linearization = linearize(system, t, &q, &qd).unwrap();
            assert!(linearization.rate.norm() > 1e-3, "an equilibrium was drawn");
            assert_close(
                &linearization.a,
                &reference.columns(0, 2 * n).into_owned(),
                1e-6,
            );
            let jacobians = system.acceleration_jacobians(t, &q, &qd).unwrap();
            let parameters = reference.view((n, 2 * n), (n, x.len() - 2 * n));
            assert_close(&jacobians.parameters, &parameters.into_owned(), 1e-6);
            for (column, &input) in system.info().inputs.iter().enumerate() {
                assert_close(
                    &linearization.b.columns(column, 1).into_owned(),
                    &reference.columns(2 * n + input, 1).into_owned(),
                    1e-6,
                );
            }
        }
    }

    #[test]
    fn linearizations_match_finite_differences_of_the_accelerations() {
        let cart_pole = CartPole {
            mc: 1.3,
            m: 0.4,
            l: 0.7,
            g: 9.81,
            force: 0.8,
        };
        check_at_random_states(&cart_pole, |rng| {
            let q = SVector::from([rng.uniform(&(-1.0..1.0)), rng.uniform(&(-3.0..3.0))]);
            let qd = SVector::from([rng.uniform(&(-2.0..2.0)), rng.uniform(&(-2.0..2.0))]);
            (q, qd)
        });
        let double = DoublePendulum {
            m1: 1.1,
            m2: 0.6,
            l1: 0.9,
            l2: 1.4,
            g: 9.81,
        };
        check_at_random_states(&double, |rng| {
            let q = SVector::from([rng.uniform(&(-3.0..3.0)), rng.uniform(&(-3.0..3.0))]);
            let qd = SVector::from([rng.uniform(&(-2.0..2.0)), rng.uniform(&(-2.0..2.0))]);
            (q, qd)
        });
        // The constrained accelerations, at states on and off the circle.
        let cartesian = CartesianPendulum {
            m: 0.8,
            l: 1.2,
            g: 9.81,
            c: 0.3,
        };
        check_at_random_states(&cartesian, |rng| {
            let angle = rng.uniform(&(-PI..PI));
            let radius = rng.uniform(&(0.8..1.6));
            let q = SVector::from([radius * angle.sin(), -radius * angle.cos()]);
            let qd = SVector::from([rng.uniform(&(-2.0..2.0)), rng.uniform(&(-2.0..2.0))]);
            (q, qd)
        });
    }

    #[test]
    fn the_cart_pole_upright_has_the_textbook_linearization() {
        let (mc, m, l, g) = (2.0, 0.5, 0.8, 9.81);
        let cart_pole = CartPole {
            mc,
            m,
            l,
            g,
            force: 0.0,
        };
        let zero = SVector::zeros();
        let linearization = linearize(&cart_pole, 0.0, &zero, &zero).unwrap();
        // x = (x, θ, ẋ, θ̇): ẍ = −(m g / M) θ + F/M, θ̈ = (M + m) g θ / (M l) − F/(M l).
        #[rustfmt::skip]
        let a = DMatrix::from_row_slice(4, 4, &[
            0.0, 0.0, 1.0, 0.0,
            0.0, 0.0, 0.0, 1.0,
            0.0, -m * g / mc, 0.0, 0.0,
            0.0, (mc + m) * g / (mc * l), 0.0, 0.0,
        ]);
        let b = DMatrix::from_column_slice(4, 1, &[0.0, 0.0, 1.0 / mc, -1.0 / (mc * l)]);
        assert_close(&linearization.a, &a, 1e-14);
        assert_close(&linearization.b, &b, 1e-14);
        assert_eq!(linearization.rate.norm(), 0.0);
        // Upright is unstable: eigenvalues ±√((M + m) g / (M l)) and a double 0.
        assert_eq!(linearization.stability().unwrap(), Stability::Unstable);
        let growth = ((mc + m) * g / (mc * l)).sqrt();
        let largest = linearization
            .eigenvalues()
            .unwrap()
            .iter()
            .map(|l| l.re)
            .fold(f64::MIN, f64::max);
        assert!(
            (largest - growth).abs() < 1e-9 * growth,
            "{largest} vs {growth}"
        );
    }

    #[test]
    fn stability_follows_the_eigenvalues() {
        let pendulum = Pendulum {
            m: 1.0,
            l: 2.0,
            g: 9.81,
        };
        let at = |theta: f64| {
            let q = SVector::from([theta]);
            linearize(&pendulum, 0.0, &q, &SVector::zeros())
                .unwrap()
                .stability()
                .unwrap()
        };
        // Hanging: ±i √(g/l), on the axis; inverted: ±√(g/l).
        assert_eq!(at(0.0), Stability::Marginal);
        assert_eq!(at(PI), Stability::Unstable);
    }

    #[test]
    fn a_damped_constrained_pendulum_is_asymptotically_stable_on_its_tangent_space() {
        let (m, l, g, c) = (0.8, 1.2, 9.81, 0.3);
        let pendulum = CartesianPendulum { m, l, g, c };
        let q = SVector::from([0.0, -l]);
        let zero = SVector::zeros();
        // In redundant coordinates A also has the constraint violations' double 0.
        let redundant = linearize(&pendulum, 0.0, &q, &zero).unwrap();
        assert_eq!(redundant.stability().unwrap(), Stability::Marginal);
        let linearization = linearize_constrained(&pendulum, 0.0, &q, &zero).unwrap();
        assert_eq!(
            linearization.stability().unwrap(),
            Stability::AsymptoticallyStable
        );
        // m l φ̈ + c l φ̇ + m g φ = 0: λ = −c/(2m) ± i √(g/l − c²/(4m²)).
        let (re, im) = (-c / (2.0 * m), (g / l - c * c / (4.0 * m * m)).sqrt());
        let mut eigenvalues = linearization.eigenvalues().unwrap();
        eigenvalues.sort_by(|a, b| a.im.total_cmp(&b.im));
        assert_eq!(eigenvalues.len(), 2);
        for (eigenvalue, sign) in eigenvalues.iter().zip([-1.0, 1.0]) {
            assert!((eigenvalue.re - re).abs() < 1e-12, "{eigenvalue}");
            assert!((eigenvalue.im - sign * im).abs() < 1e-12, "{eigenvalue}");
        }
    }
}
