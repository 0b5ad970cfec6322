//! A system: the traits of a Lagrangian system, its constrained and reduced forms, and
//! what they say about a model; implemented once ([`programs`]) over the derived
//! programs that `#[derive(Lagrangian)]` generates and the `lagrange` command interprets.

pub(crate) mod constrained;
pub mod programs;
mod speeds;
mod theorems;
mod wrench;

use nalgebra::{DefaultAllocator, Dim, OMatrix, OVector};

use crate::error::Error;
use crate::size::{ConstraintAllocator, DimAllocator};
use crate::solve::jacobians::{self, AccelerationJacobians, ResidualJacobians};
use crate::solve::{NEWTON_ITERATIONS, linalg};

pub use constrained::{ConstrainedMotion, ConstrainedSystem};
pub use lagrange_common::{
    Conserved, ConstraintInfo, Drawing, DrawnPoint, Formula, ModelInfo, Omitted, PointKind, Text,
};
pub use programs::{Arguments, Programs, Quantity, ReducedPrograms};
pub use speeds::{IndependentSpeeds, SpeedBasis};
pub use theorems::{Axis, DynamicFunctions, Theorem, TheoremInfo};
pub use wrench::JointWrench;

/// Two vectors of the coordinates' size: a state `(q, q̇)` as the system's methods give
/// it (the canonical equations give `(q̇, ṗ)` in the same shape).
pub type Phase<N> = (OVector<f64, N>, OVector<f64, N>);

/// A state at a time, `(t, q, q̇)`.
pub type TimedPhase<N> = (f64, OVector<f64, N>, OVector<f64, N>);

/// A system reduced over `K` ignored (cyclic) coordinates, whose constant momenta are
/// among its parameters: the ignored coordinates follow by quadrature of their velocities.
pub trait ReducedSystem<N: Dim, K: Dim>: LagrangianSystem<N>
where
    DefaultAllocator: ConstraintAllocator<N, K>,
{
    /// Names of the ignored coordinates (`K` of them).
    fn ignored_names(&self) -> Vec<&str>;
    /// `χ̇(t, q, q̇)` of the ignored coordinates at a state of the retained ones.
    fn ignored_velocities(
        &self,
        t: f64,
        q: &OVector<f64, N>,
        qd: &OVector<f64, N>,
    ) -> OVector<f64, K>;
}

/// A system whose type fixes its model, as the derive generates: it can be built from
/// parameter values alone.
pub trait FromParameterValues<N: Dim>: LagrangianSystem<N>
where
    DefaultAllocator: DimAllocator<N>,
{
    /// Number of parameters.
    const PARAMETER_COUNT: usize;
    /// Builds the system from parameter values in the order of
    /// [`ModelInfo::parameters`]; errors on a wrong count.
    fn from_parameter_values(values: &[f64]) -> Result<Self, Error>;
}

/// A mechanical system with `N` generalized coordinates whose equations of motion are
/// `M(t, q, q̇) q̈ = f(t, q, q̇)`.
///
/// A derived model implements it through [`Programs`], each quantity computed by
/// straight-line code; `accelerations` solves the linear system numerically (over the
/// shape of a tree's `M`, Cholesky, LU fallback).
///
/// What the model declares (names, cyclic coordinates, the conserved integral, the
/// constraints) is one [`ModelInfo`] read through [`info`](Self::info), so that a system
/// known only at run time (the `lagrange` command's interpreter of derived programs) is a
/// system too; the derive also makes it the associated constant `INFO` of the struct.
pub trait LagrangianSystem<N: Dim>: Sized
where
    DefaultAllocator: DimAllocator<N>,
{
    /// What the model declares and what its derivation decided about it.
    fn info(&self) -> &ModelInfo;

    /// The number of coordinates as the dimension of this system's vectors: `Const<n>`
    /// for a derived system, `Dyn(n)` for one known only at run time.
    fn dimension(&self) -> N {
        N::from_usize(self.info().coordinates.len())
    }

    /// Parameter values, in the order of [`ModelInfo::parameters`].
    fn parameter_values(&self) -> Vec<f64>;
    /// The same model with other parameter values, in the order of
    /// [`ModelInfo::parameters`]; errors on a wrong count.
    fn with_parameter_values(&self, values: &[f64]) -> Result<Self, Error>;

    /// The generalized mass matrix `M = ∂²L/∂q̇∂q̇`.
    fn mass_matrix(&self, t: f64, q: &OVector<f64, N>, qd: &OVector<f64, N>) -> OMatrix<f64, N, N>;
    /// The right-hand side `f` of `M q̈ = f` (forces, dissipation and velocity terms included).
    fn forcing(&self, t: f64, q: &OVector<f64, N>, qd: &OVector<f64, N>) -> OVector<f64, N>;
    /// `M` and `f` from one evaluation that shares their common subexpressions.
    fn mass_matrix_and_forcing(
        &self,
        t: f64,
        q: &OVector<f64, N>,
        qd: &OVector<f64, N>,
    ) -> (OMatrix<f64, N, N>, OVector<f64, N>) {
        (self.mass_matrix(t, q, qd), self.forcing(t, q, qd))
    }
    /// The Lagrangian `L(t, q, q̇)`.
    fn lagrangian(&self, t: f64, q: &OVector<f64, N>, qd: &OVector<f64, N>) -> f64;
    /// The energy `T + V` (for a model given by `L` alone: the Jacobi integral).
    fn energy(&self, t: f64, q: &OVector<f64, N>, qd: &OVector<f64, N>) -> f64;
    /// The Jacobi integral `h = Σ q̇ᵢ pᵢ − L`.
    fn jacobi_integral(&self, t: f64, q: &OVector<f64, N>, qd: &OVector<f64, N>) -> f64;
    /// The generalized momenta `p = ∂L/∂q̇`.
    fn momenta(&self, t: f64, q: &OVector<f64, N>, qd: &OVector<f64, N>) -> OVector<f64, N>;
    /// `ṗ = ∂L/∂q + Q − ∂F/∂q̇`: the rate of change of the momenta along the motion.
    fn momentum_rate(&self, t: f64, q: &OVector<f64, N>, qd: &OVector<f64, N>) -> OVector<f64, N>;
    /// `∂p/∂q`: entry `(i, j)` is `∂pᵢ/∂qⱼ`.
    fn momentum_jacobian(
        &self,
        t: f64,
        q: &OVector<f64, N>,
        qd: &OVector<f64, N>,
    ) -> OMatrix<f64, N, N>;
    /// `∂²L/∂q∂q`.
    fn lagrangian_hessian(
        &self,
        t: f64,
        q: &OVector<f64, N>,
        qd: &OVector<f64, N>,
    ) -> OMatrix<f64, N, N>;

    /// The derivatives of the residual `r = M q̈ − f` of Lagrange's equations at
    /// `(t, q, q̇, q̈)`, with `q̈` held fixed (generated symbolically by the derive).
    fn residual_jacobians(
        &self,
        t: f64,
        q: &OVector<f64, N>,
        qd: &OVector<f64, N>,
        qdd: &OVector<f64, N>,
    ) -> ResidualJacobians<N>;

    /// [`residual_jacobians`](Self::residual_jacobians) as one buffer, row by row: for
    /// each row `i`, `∂rᵢ/∂q`, `∂rᵢ/∂q̇` and `∂rᵢ/∂p` (`2N` entries and one per
    /// parameter). The acceleration derivatives solve for all the columns in this buffer,
    /// in place; the derive overrides this to write its program's outputs in this order,
    /// without the matrices.
    fn residual_jacobian_rows(
        &self,
        t: f64,
        q: &OVector<f64, N>,
        qd: &OVector<f64, N>,
        qdd: &OVector<f64, N>,
    ) -> Vec<f64> {
        self.residual_jacobians(t, q, qd, qdd).rows()
    }

    /// Inverse dynamics: the residual `r = M q̈ − f` of Lagrange's equations at
    /// `(t, q, q̇, q̈)`, the generalized forces that must be added to the model's own (its
    /// inputs at their values included) for the motion to have the accelerations `q̈`.
    /// With the inputs at 0 these are the torques a computed-torque controller applies. A
    /// constrained system's constraint forces are not in it. The derive generates it, by
    /// the recursive Newton–Euler algorithm (`O(n)`) for a kinematic tree; the default is
    /// `M q̈ − f` from [`mass_matrix_and_forcing`](Self::mass_matrix_and_forcing).
    fn inverse_dynamics(
        &self,
        t: f64,
        q: &OVector<f64, N>,
        qd: &OVector<f64, N>,
        qdd: &OVector<f64, N>,
    ) -> OVector<f64, N> {
        let (m, f) = self.mass_matrix_and_forcing(t, q, qd);
        m * qdd - f
    }

    /// The accelerations of the motion and their exact derivatives with respect to `q`,
    /// `q̇` and the parameters at a state: `∂q̈/∂x = −M⁻¹ ∂r/∂x`, solved numerically (the
    /// constrained motion's, multipliers eliminated, for a constrained system). Valid at
    /// any state, not only at equilibria. Errors as [`accelerations`](Self::accelerations)
    /// does. The default factorizes `M` of
    /// [`mass_matrix_and_forcing`](Self::mass_matrix_and_forcing) once, for `q̈` (the
    /// default `accelerations`' bits) and every column: a system that overrides
    /// `accelerations` overrides this too.
    fn acceleration_jacobians(
        &self,
        t: f64,
        q: &OVector<f64, N>,
        qd: &OVector<f64, N>,
    ) -> Result<AccelerationJacobians<N>, Error> {
        derivatives(self.info(), "the derivatives of the motion")?;
        jacobians::unconstrained(
            self.mass_matrix_and_forcing(t, q, qd),
            &self.info().mass_matrix_tree,
            (t, q, qd),
            |qdd| self.residual_jacobian_rows(t, q, qd, qdd),
        )
    }

    /// The accelerations `q̈` solving `M q̈ = f`.
    ///
    /// Errors when `M` is singular at this state or the result is not finite; the error
    /// carries the state.
    fn accelerations(
        &self,
        t: f64,
        q: &OVector<f64, N>,
        qd: &OVector<f64, N>,
    ) -> Result<OVector<f64, N>, Error> {
        let dynamics = self.mass_matrix_and_forcing(t, q, qd);
        let remake = || self.mass_matrix(t, q, qd);
        linalg::solve_accelerations(dynamics, &self.info().mass_matrix_tree, remake, (t, q, qd))
    }

    /// [`accelerations`](Self::accelerations) written into `out` (`n` values; panics on
    /// another length), with the same bits and errors (after an error, `out` holds no
    /// result). A model's derived programs ([`Programs`]) solve an unconstrained model's
    /// positive definite `M` where the program wrote it and allocate nothing, at any size.
    fn write_accelerations(
        &self,
        t: f64,
        q: &OVector<f64, N>,
        qd: &OVector<f64, N>,
        out: &mut [f64],
    ) -> Result<(), Error> {
        out.copy_from_slice(self.accelerations(t, q, qd)?.as_slice());
        Ok(())
    }

    /// The velocities with momenta `p` at `(t, q)`: the solution of `∂L/∂q̇ (t, q, q̇) = p`
    /// (Thomson & Tait §319, eq. 30), by Newton's method from `q̇ = 0`. For the usual `L`,
    /// quadratic in `q̇`, the first step is exact: `q̇ = M⁻¹ (p − ∂L/∂q̇|_{q̇=0})`, solved
    /// numerically.
    fn velocities(
        &self,
        t: f64,
        q: &OVector<f64, N>,
        p: &OVector<f64, N>,
    ) -> Result<OVector<f64, N>, Error> {
        let mut qd = OVector::zeros_generic(self.dimension(), nalgebra::U1);
        for _ in 0..NEWTON_ITERATIONS {
            let residual = self.momenta(t, q, &qd) - p;
            let m = self.mass_matrix(t, q, &qd);
            let step = linalg::solve_mass_matrix(m, residual)
                .ok_or_else(|| Error::singular(t, q.as_slice(), qd.as_slice()))?;
            qd -= &step;
            if !qd.iter().all(|x| x.is_finite()) {
                return Err(Error::singular(t, q.as_slice(), qd.as_slice()));
            }
            if step.norm() <= 1e-14 * (1.0 + qd.norm()) {
                return Ok(qd);
            }
        }
        Err(Error::NoConvergence {
            t,
            iterations: NEWTON_ITERATIONS,
        })
    }

    /// Hamilton's function `H(t, q, p)`: the Jacobi integral at the velocities of `p`.
    fn hamiltonian(&self, t: f64, q: &OVector<f64, N>, p: &OVector<f64, N>) -> Result<f64, Error> {
        let qd = self.velocities(t, q, p)?;
        Ok(self.jacobi_integral(t, q, &qd))
    }

    /// The canonical equations `(q̇, ṗ) = (∂H/∂p, −∂H/∂q + Q)` (Thomson & Tait §319,
    /// eq. 35), evaluated as `q̇ = velocities(t, q, p)` and `ṗ = momentum_rate(t, q, q̇)`.
    fn canonical_rhs(
        &self,
        t: f64,
        q: &OVector<f64, N>,
        p: &OVector<f64, N>,
    ) -> Result<Phase<N>, Error> {
        variational(self.info(), "Hamilton's canonical equations")?;
        let qd = self.velocities(t, q, p)?;
        let pd = self.momentum_rate(t, q, &qd);
        Ok((qd, pd))
    }

    /// Drift control: the state moved back onto the constraints after an integration step,
    /// or `None` when the system has no constraints (the default).
    fn project(
        &self,
        t: f64,
        q: &OVector<f64, N>,
        qd: &OVector<f64, N>,
    ) -> Result<Option<Phase<N>>, Error> {
        let _ = (t, q, qd);
        Ok(None)
    }

    /// Checks that an initial state is admissible (for constrained systems: consistent
    /// with the constraints); `Ok` by default.
    fn check_initial_state(
        &self,
        t: f64,
        q: &OVector<f64, N>,
        qd: &OVector<f64, N>,
    ) -> Result<(), Error> {
        let _ = (t, q, qd);
        Ok(())
    }

    /// The dynamic functions `P`, `Λ`, `T`, `J`, `I` at a state, for a model whose
    /// masses are all particles and bodies (see [`ModelInfo::theorems`]); `None` (the
    /// default) for any other.
    fn dynamic_functions(
        &self,
        t: f64,
        q: &OVector<f64, N>,
        qd: &OVector<f64, N>,
    ) -> Option<DynamicFunctions> {
        let _ = (t, q, qd);
        None
    }

    /// Where the points of [`ModelInfo::drawing`] are at `(t, q)`: each point's position
    /// in the fixed frame (3 values), then each frame's orientation `R` row-major (9
    /// values); empty (the default) for a model with no drawing.
    fn drawing(&self, t: f64, q: &OVector<f64, N>) -> Vec<f64> {
        let _ = (t, q);
        Vec::new()
    }

    /// For each theorem of [`ModelInfo::theorems`] whose premise holds, in order: the rate
    /// `dΦ/dt` of its function at `(t, q, q̇, q̈)` and the law's right-hand side. Along a
    /// motion the two agree; empty by default.
    fn balance(
        &self,
        t: f64,
        q: &OVector<f64, N>,
        qd: &OVector<f64, N>,
        qdd: &OVector<f64, N>,
    ) -> Vec<(f64, f64)> {
        let _ = (t, q, qd, qdd);
        Vec::new()
    }

    /// The value of the integral [`ModelInfo::conserved`] names, if there is one.
    fn conserved_value(&self, t: f64, q: &OVector<f64, N>, qd: &OVector<f64, N>) -> Option<f64> {
        match self.info().conserved {
            Conserved::Energy => Some(self.energy(t, q, qd)),
            Conserved::JacobiIntegral => Some(self.jacobi_integral(t, q, qd)),
            Conserved::None => None,
        }
    }

    /// [`conserved_value`](Self::conserved_value) and [`lagrangian`](Self::lagrangian)
    /// at one state, with their bits, if there is such an integral: what the integrators
    /// check at each step's end. A model may compute what the two share once.
    fn conserved_value_and_lagrangian(
        &self,
        t: f64,
        q: &OVector<f64, N>,
        qd: &OVector<f64, N>,
    ) -> Option<(f64, f64)> {
        let c = self.conserved_value(t, q, qd)?;
        Some((c, self.lagrangian(t, q, qd)))
    }
}

/// Errors when `info`'s model was derived without `ṗ`, `∂p/∂q` and `∂²L/∂q²`, which
/// `user` needs ([`Omitted::variational`]).
pub(crate) fn variational(info: &ModelInfo, user: &str) -> Result<(), Error> {
    omitted(info, info.omitted.variational, "variational", user)
}

/// Errors when `info`'s model was derived without the residual's derivatives, which
/// `user` needs ([`Omitted::derivatives`]).
pub(crate) fn derivatives(info: &ModelInfo, user: &str) -> Result<(), Error> {
    omitted(info, info.omitted.derivatives, "derivatives", user)
}

fn omitted(info: &ModelInfo, left_out: bool, group: &str, user: &str) -> Result<(), Error> {
    match left_out {
        true => Err(Error::InvalidInput(Omitted::message(
            &info.name, group, user,
        ))),
        false => Ok(()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::test_systems::{Oscillator, PolarParticle};

    #[test]
    fn the_conserved_value_is_the_integral_the_info_names() {
        // ½ m ẋ² + ½ k x² at x = 2, ẋ = 3 with m = 1, k = 4: 4.5 + 8.
        let oscillator = Oscillator { m: 1.0, k: 4.0 };
        let (q, qd) = (nalgebra::Vector1::new(2.0), nalgebra::Vector1::new(3.0));
        assert_eq!(oscillator.info().conserved, Conserved::Energy);
        assert_eq!(oscillator.conserved_value(0.0, &q, &qd), Some(12.5));
        // The polar particle's cyclic φ is named by index into its coordinates.
        let particle = PolarParticle { m: 1.0 };
        let info = particle.info();
        assert_eq!(
            info.cyclic
                .iter()
                .map(|&i| &*info.coordinates[i])
                .collect::<Vec<_>>(),
            ["phi"]
        );
    }
}
