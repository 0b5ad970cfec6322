//! Systems with `K` constraints — holonomic, `G(t, q) = 0`, or on the velocities,
//! `a(t, q)·q̇ + b(t, q) = 0`, whose rows have `G = 0`, `J = a` and `∂G/∂t = b` — and
//! their reactions `R = Σ λ Jᵢ` as functions of the state.
//!
//! The equations are the index-1 system `M q̈ = f + Jᵀλ`, `J q̈ = −c`, where `J = ∂G/∂q`
//! and `G̈ = J q̈ + c`. They are solved through the Schur complement:
//! `(J M⁻¹ Jᵀ) λ = −c − J M⁻¹ f`, then `q̈ = M⁻¹ (f + Jᵀλ)`. The reaction of constraint
//! `i` is `λᵢ ∇Gᵢ`: rescaling `Gᵢ → ρ Gᵢ` changes `λᵢ` by `1/ρ` and leaves it unchanged.

use nalgebra::{DefaultAllocator, Dim, OMatrix, OVector};

use crate::error::Error;
use crate::size::ConstraintAllocator;
use crate::solve::jacobians::{self, AccelerationJacobians, ConstraintJacobians};
use crate::solve::linalg;
use crate::system::{ConstraintInfo, LagrangianSystem, Phase};

/// Relative tolerance of the consistency check of a state with the constraints
/// ([`ConstrainedSystem::check_consistent`]), for initial states and for the states a
/// constrained linearization is taken at.
pub const CONSISTENCY_TOLERANCE: f64 = 1e-9;

/// Newton iterations allowed when projecting onto `G = 0`.
pub const PROJECTION_ITERATIONS: usize = 20;

/// The projection onto `G = 0` has converged when its last Newton step is at most this
/// fraction of `1 + |q|`.
pub const PROJECTION_TOLERANCE: f64 = 1e-15;

/// The accelerations of a constrained system at a state, with the multipliers.
#[derive(Debug, Clone, PartialEq)]
pub struct ConstrainedMotion<N: Dim, K: Dim>
where
    DefaultAllocator: ConstraintAllocator<N, K>,
{
    /// `q̈`.
    pub accelerations: OVector<f64, N>,
    /// `λ`, one per constraint.
    pub multipliers: OVector<f64, K>,
}

/// Copied, as its vectors are, when the size is fixed by the type.
impl<N: Dim, K: Dim> Copy for ConstrainedMotion<N, K>
where
    DefaultAllocator: ConstraintAllocator<N, K>,
    OVector<f64, N>: Copy,
    OVector<f64, K>: Copy,
{
}

/// A system with `K` holonomic constraints; the derive implements it for models with
/// `constraint = "…"` keys, and makes their `accelerations` the constrained ones. The
/// constraints' text and whether each is scleronomic are in
/// [`ModelInfo::constraints`](crate::ModelInfo::constraints).
pub trait ConstrainedSystem<N: Dim, K: Dim>: LagrangianSystem<N>
where
    DefaultAllocator: ConstraintAllocator<N, K>,
{
    /// The number of constraints as the dimension of their vectors: `Const<k>` for a
    /// derived system, `Dyn(k)` for one known only at run time.
    fn constraint_dimension(&self) -> K {
        K::from_usize(self.info().constraints.len())
    }
    /// `G(t, q)`.
    fn constraint_values(&self, t: f64, q: &OVector<f64, N>) -> OVector<f64, K>;
    /// `J = ∂G/∂q`.
    fn constraint_jacobian(&self, t: f64, q: &OVector<f64, N>) -> OMatrix<f64, K, N>;
    /// `∂G/∂t`.
    fn constraint_time_derivative(&self, t: f64, q: &OVector<f64, N>) -> OVector<f64, K>;
    /// `Ġ = J q̇ + ∂G/∂t`.
    fn constraint_velocities(
        &self,
        t: f64,
        q: &OVector<f64, N>,
        qd: &OVector<f64, N>,
    ) -> OVector<f64, K>;
    /// `J` and the bias `c` of `G̈ = J q̈ + c`, from one evaluation.
    fn constraint_jacobian_and_bias(
        &self,
        t: f64,
        q: &OVector<f64, N>,
        qd: &OVector<f64, N>,
    ) -> (OMatrix<f64, K, N>, OVector<f64, K>);

    /// The derivatives of `s = J q̈ + c` and of the reaction `Jᵀλ` at
    /// `(t, q, q̇, q̈, λ)` (generated symbolically by the derive).
    fn constraint_jacobians(
        &self,
        t: f64,
        q: &OVector<f64, N>,
        qd: &OVector<f64, N>,
        qdd: &OVector<f64, N>,
        multipliers: &OVector<f64, K>,
    ) -> ConstraintJacobians<N, K>;

    /// [`LagrangianSystem::acceleration_jacobians`] of the constrained motion: the
    /// derivatives of Lagrange's equations with the multipliers and of `G̈ = 0`, solved
    /// together (the multipliers eliminated). The derive makes this the system's
    /// `acceleration_jacobians`.
    fn constrained_acceleration_jacobians(
        &self,
        t: f64,
        q: &OVector<f64, N>,
        qd: &OVector<f64, N>,
    ) -> Result<AccelerationJacobians<N>, Error> {
        super::derivatives(self.info(), "the derivatives of the motion")?;
        let motion = self.constrained_motion(t, q, qd)?;
        let qdd = motion.accelerations;
        let m = self.mass_matrix(t, q, qd);
        let j = self.constraint_jacobian(t, q);
        let r = self.residual_jacobians(t, q, qd, &qdd);
        let s = self.constraint_jacobians(t, q, qd, &qdd, &motion.multipliers);
        jacobians::constrained(&m, &j, qdd, r, s, || {
            self.rank_deficiency(t, q, &(&j * j.transpose()))
        })
    }

    /// Accelerations and multipliers. Errors when `M` is singular, or when `J M⁻¹ Jᵀ` is
    /// (the constraints' Jacobian has lost rank): the error names the constraints involved.
    fn constrained_motion(
        &self,
        t: f64,
        q: &OVector<f64, N>,
        qd: &OVector<f64, N>,
    ) -> Result<ConstrainedMotion<N, K>, Error> {
        let (m, f) = self.mass_matrix_and_forcing(t, q, qd);
        let (j, c) = self.constraint_jacobian_and_bias(t, q, qd);
        let singular = || Error::singular(t, q.as_slice(), qd.as_slice());
        let free = linalg::solve_mass_matrix(m.clone(), f).ok_or_else(singular)?;
        let mut x =
            OMatrix::<f64, N, K>::zeros_generic(self.dimension(), self.constraint_dimension());
        for i in 0..x.ncols() {
            let column =
                linalg::solve_mass_matrix(m.clone(), j.row(i).transpose()).ok_or_else(singular)?;
            x.set_column(i, &column);
        }
        let schur = &j * &x;
        let lambda = linalg::solve_mass_matrix::<K>(schur.clone(), -c - &j * &free)
            .ok_or_else(|| self.rank_deficiency(t, q, &schur))?;
        let accelerations = free + x * &lambda;
        if accelerations
            .iter()
            .chain(lambda.iter())
            .all(|v| v.is_finite())
        {
            Ok(ConstrainedMotion {
                accelerations,
                multipliers: lambda,
            })
        } else {
            Err(singular())
        }
    }

    /// The error for a singular `J M⁻¹ Jᵀ`: the constraints without which the rest would
    /// be independent.
    fn rank_deficiency(&self, t: f64, q: &OVector<f64, N>, schur: &OMatrix<f64, K, K>) -> Error {
        let constraints = &self.info().constraints;
        let count = schur.nrows();
        let involved: Vec<String> = (0..count)
            .filter(|&i| {
                let keep: Vec<usize> = (0..count).filter(|&k| k != i).collect();
                let minor = nalgebra::DMatrix::from_fn(count - 1, count - 1, |a, b| {
                    schur[(keep[a], keep[b])]
                });
                count == 1
                    || minor
                        .lu()
                        .solve(&nalgebra::DVector::zeros(count - 1))
                        .is_some()
            })
            .map(|i| constraint_text(constraints, i))
            .collect();
        Error::DependentConstraints {
            t,
            q: q.as_slice().to_vec(),
            constraints: involved,
        }
    }

    /// Per constraint, its reaction `λᵢ ∇Gᵢ` (column `i`), in generalized-force units.
    fn reactions(
        &self,
        t: f64,
        q: &OVector<f64, N>,
        qd: &OVector<f64, N>,
    ) -> Result<OMatrix<f64, N, K>, Error> {
        let lambda = self.constrained_motion(t, q, qd)?.multipliers;
        let j = self.constraint_jacobian(t, q);
        Ok(OMatrix::from_fn_generic(
            self.dimension(),
            self.constraint_dimension(),
            |row, i| j[(i, row)] * lambda[i],
        ))
    }

    /// `Ok` when every constraint holds to the relative `tolerance`:
    /// `|Gᵢ| ≤ tolerance·(1 + |∇Gᵢ|·|q|)` and `|Ġᵢ| ≤ tolerance·(1 + |∇Gᵢ|·|q̇| + |∂Gᵢ/∂t|)`;
    /// otherwise [`Error::InconsistentState`] saying which constraint is off and by how much.
    fn check_consistent(
        &self,
        t: f64,
        q: &OVector<f64, N>,
        qd: &OVector<f64, N>,
        tolerance: f64,
    ) -> Result<(), Error> {
        let g = self.constraint_values(t, q);
        let gd = self.constraint_velocities(t, q, qd);
        let j = self.constraint_jacobian(t, q);
        let gt = self.constraint_time_derivative(t, q);
        for i in 0..g.len() {
            let gradient = j.row(i).norm();
            let on_velocities = self
                .info()
                .constraints
                .get(i)
                .is_some_and(|c| c.on_velocities);
            let checks = [
                ("G", g[i], tolerance * (1.0 + gradient * q.norm())),
                (
                    if on_velocities { "a·q̇ + b" } else { "dG/dt" },
                    gd[i],
                    tolerance * (1.0 + gradient * qd.norm() + gt[i].abs()),
                ),
            ];
            for (what, value, bound) in checks {
                if value.is_nan() || value.abs() > bound {
                    return Err(Error::InconsistentState {
                        constraint: constraint_text(&self.info().constraints, i),
                        what,
                        value,
                        tolerance: bound,
                    });
                }
            }
        }
        Ok(())
    }

    /// The nearest consistent state (Euclidean metric): Newton steps
    /// `q ← q − Jᵀ(J Jᵀ)⁻¹ G` until `G = 0` to round-off, then the velocities
    /// `q̇ ← q̇ − Jᵀ(J Jᵀ)⁻¹ Ġ`. Velocity constraints have `G = 0`: the coordinates move
    /// only as they allow (`a·δq = 0`), and without holonomic constraints not at all. For users with approximate initial data, and for drift
    /// control after each integration step.
    fn project_onto_constraints(
        &self,
        t: f64,
        q: &OVector<f64, N>,
        qd: &OVector<f64, N>,
    ) -> Result<Phase<N>, Error> {
        let correction = |j: &OMatrix<f64, K, N>, residual: OVector<f64, K>| {
            let jjt = j * j.transpose();
            linalg::solve_mass_matrix::<K>(jjt.clone(), residual)
                .map(|y| j.transpose() * y)
                .ok_or_else(|| self.rank_deficiency(t, q, &jjt))
        };
        let mut q = q.clone();
        for iteration in 0.. {
            let g = self.constraint_values(t, &q);
            let j = self.constraint_jacobian(t, &q);
            let step = correction(&j, g)?;
            q -= &step;
            if step.norm() <= PROJECTION_TOLERANCE * (1.0 + q.norm()) {
                break;
            }
            if iteration == PROJECTION_ITERATIONS {
                return Err(Error::NoConvergence {
                    t,
                    iterations: PROJECTION_ITERATIONS,
                });
            }
        }
        let j = self.constraint_jacobian(t, &q);
        let qd = qd - correction(&j, self.constraint_velocities(t, &q, qd))?;
        Ok((q, qd))
    }
}

/// The text of constraint `i`, or its number when the model's info lists fewer constraints
/// than the system has.
fn constraint_text(constraints: &[ConstraintInfo], i: usize) -> String {
    constraints
        .get(i)
        .map_or_else(|| format!("constraint {i}"), |c| c.text.to_string())
}
