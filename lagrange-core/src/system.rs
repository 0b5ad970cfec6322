//! The trait that `#[derive(Lagrangian)]` implements, and what it says about a model.

use nalgebra::{SMatrix, SVector};

use crate::error::Error;
use crate::linalg;

/// The scalar first integral a model conserves, if any, as decided from its equations.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Conserved {
    /// `T + V`: no explicit time, no forces or dissipation, `T` homogeneous quadratic in the velocities.
    Energy,
    /// The Jacobi integral `h = Σ q̇ᵢ ∂L/∂q̇ᵢ − L`: no explicit time, no forces or dissipation.
    JacobiIntegral,
    /// Neither: the model has explicit time dependence, generalized forces or dissipation.
    None,
}

/// Newton iterations allowed when solving for velocities from momenta, and per step of
/// the implicit integrators.
pub const NEWTON_ITERATIONS: usize = 50;

/// A system reduced over `K` ignored (cyclic) coordinates, whose constant momenta are
/// among its parameters: the ignored coordinates follow by quadrature of their velocities.
pub trait ReducedSystem<const N: usize, const K: usize>: LagrangianSystem<N> {
    /// Names of the ignored coordinates.
    fn ignored_names(&self) -> [&str; K];
    /// `χ̇(t, q, q̇)` of the ignored coordinates at a state of the retained ones.
    fn ignored_velocities(
        &self,
        t: f64,
        q: &SVector<f64, N>,
        qd: &SVector<f64, N>,
    ) -> SVector<f64, K>;
}

/// `q̈` from `M q̈ = f` at the state `(t, q, q̇)`: the unconstrained accelerations, with
/// an error carrying the state when `M` is singular or the result is not finite.
pub fn solve_accelerations<const N: usize>(
    m: SMatrix<f64, N, N>,
    f: SVector<f64, N>,
    t: f64,
    q: &SVector<f64, N>,
    qd: &SVector<f64, N>,
) -> Result<SVector<f64, N>, Error> {
    linalg::solve_mass_matrix(m, f)
        .filter(|qdd| qdd.iter().all(|x| x.is_finite()))
        .ok_or_else(|| Error::singular(t, q.as_slice(), qd.as_slice()))
}

/// A system whose type fixes its model, as the derive generates: it can be built from
/// parameter values alone.
pub trait FromParameterValues<const N: usize>: LagrangianSystem<N> {
    /// Number of parameters.
    const PARAMETER_COUNT: usize;
    /// Builds the system from parameter values in the order of
    /// [`parameter_names`](LagrangianSystem::parameter_names); errors on a wrong count.
    fn from_parameter_values(values: &[f64]) -> Result<Self, Error>;
}

/// A mechanical system with `N` generalized coordinates whose equations of motion are
/// `M(t, q, q̇) q̈ = f(t, q, q̇)`.
///
/// The derive generates every required item as straight-line code; `accelerations` is
/// provided and solves the linear system numerically (Cholesky, LU fallback).
///
/// What the model declares (names, cyclic coordinates, the conserved integral) is read
/// through methods, so that a system known only at run time (the `lagrange` command's
/// interpreter of derived programs) is a system too; the derive also makes each of these
/// an associated constant of the struct (`COORDINATES`, `PARAMETERS`, `CYCLIC`,
/// `CONSERVED`, `CONSERVATIVE`, `EQUATIONS_TEXT`, `EQUATIONS_LATEX`).
pub trait LagrangianSystem<const N: usize>: Sized {
    /// Names of the generalized coordinates, in the order of `q`.
    fn coordinate_names(&self) -> [&str; N];
    /// Names of the parameters (the struct's fields), in the order of [`parameter_values`](Self::parameter_values).
    fn parameter_names(&self) -> Vec<&str>;
    /// Indices of the cyclic coordinates: `∂L/∂qᵢ ≡ 0` and no force or dissipation acts on `qᵢ`.
    fn cyclic(&self) -> &[usize];
    /// Which scalar integral the equations conserve.
    fn conserved(&self) -> Conserved;
    /// Whether no generalized force and no dissipation act (the symplectic and variational
    /// integrators need this).
    fn conservative(&self) -> bool;
    /// Number of holonomic constraints (see [`ConstrainedSystem`](crate::ConstrainedSystem)).
    fn constraint_count(&self) -> usize {
        0
    }
    /// The Euler–Lagrange equations as plain text, one line per coordinate.
    fn equations_text(&self) -> &str;
    /// The Euler–Lagrange equations as LaTeX (an `align`-ready body, one row per coordinate).
    fn equations_latex(&self) -> &str;

    /// Parameter values, in the order of [`parameter_names`](Self::parameter_names).
    fn parameter_values(&self) -> Vec<f64>;
    /// The same model with other parameter values, in the order of
    /// [`parameter_names`](Self::parameter_names); errors on a wrong count.
    fn with_parameter_values(&self, values: &[f64]) -> Result<Self, Error>;

    /// The generalized mass matrix `M = ∂²L/∂q̇∂q̇`.
    fn mass_matrix(&self, t: f64, q: &SVector<f64, N>, qd: &SVector<f64, N>) -> SMatrix<f64, N, N>;
    /// The right-hand side `f` of `M q̈ = f` (forces, dissipation and velocity terms included).
    fn forcing(&self, t: f64, q: &SVector<f64, N>, qd: &SVector<f64, N>) -> SVector<f64, N>;
    /// `M` and `f` from one evaluation that shares their common subexpressions.
    fn mass_matrix_and_forcing(
        &self,
        t: f64,
        q: &SVector<f64, N>,
        qd: &SVector<f64, N>,
    ) -> (SMatrix<f64, N, N>, SVector<f64, N>) {
        (self.mass_matrix(t, q, qd), self.forcing(t, q, qd))
    }
    /// The Lagrangian `L(t, q, q̇)`.
    fn lagrangian(&self, t: f64, q: &SVector<f64, N>, qd: &SVector<f64, N>) -> f64;
    /// The energy `T + V` (for a model given by `L` alone: the Jacobi integral).
    fn energy(&self, t: f64, q: &SVector<f64, N>, qd: &SVector<f64, N>) -> f64;
    /// The Jacobi integral `h = Σ q̇ᵢ pᵢ − L`.
    fn jacobi_integral(&self, t: f64, q: &SVector<f64, N>, qd: &SVector<f64, N>) -> f64;
    /// The generalized momenta `p = ∂L/∂q̇`.
    fn momenta(&self, t: f64, q: &SVector<f64, N>, qd: &SVector<f64, N>) -> SVector<f64, N>;
    /// `ṗ = ∂L/∂q + Q − ∂F/∂q̇`: the rate of change of the momenta along the motion.
    fn momentum_rate(&self, t: f64, q: &SVector<f64, N>, qd: &SVector<f64, N>) -> SVector<f64, N>;
    /// `∂p/∂q`: entry `(i, j)` is `∂pᵢ/∂qⱼ`.
    fn momentum_jacobian(
        &self,
        t: f64,
        q: &SVector<f64, N>,
        qd: &SVector<f64, N>,
    ) -> SMatrix<f64, N, N>;
    /// `∂²L/∂q∂q`.
    fn lagrangian_hessian(
        &self,
        t: f64,
        q: &SVector<f64, N>,
        qd: &SVector<f64, N>,
    ) -> SMatrix<f64, N, N>;

    /// The accelerations `q̈` solving `M q̈ = f`.
    ///
    /// Errors when `M` is singular at this state or the result is not finite; the error
    /// carries the state.
    fn accelerations(
        &self,
        t: f64,
        q: &SVector<f64, N>,
        qd: &SVector<f64, N>,
    ) -> Result<SVector<f64, N>, Error> {
        let (m, f) = self.mass_matrix_and_forcing(t, q, qd);
        solve_accelerations(m, f, t, q, qd)
    }

    /// The velocities with momenta `p` at `(t, q)`: the solution of `∂L/∂q̇ (t, q, q̇) = p`
    /// (Thomson & Tait §319, eq. 30), by Newton's method from `q̇ = 0`. For the usual `L`,
    /// quadratic in `q̇`, the first step is exact: `q̇ = M⁻¹ (p − ∂L/∂q̇|_{q̇=0})`, solved
    /// numerically.
    fn velocities(
        &self,
        t: f64,
        q: &SVector<f64, N>,
        p: &SVector<f64, N>,
    ) -> Result<SVector<f64, N>, Error> {
        let mut qd = SVector::zeros();
        for _ in 0..NEWTON_ITERATIONS {
            let residual = self.momenta(t, q, &qd) - p;
            let m = self.mass_matrix(t, q, &qd);
            let step = linalg::solve_mass_matrix(m, residual)
                .ok_or_else(|| Error::singular(t, q.as_slice(), qd.as_slice()))?;
            qd -= step;
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
    fn hamiltonian(&self, t: f64, q: &SVector<f64, N>, p: &SVector<f64, N>) -> Result<f64, Error> {
        let qd = self.velocities(t, q, p)?;
        Ok(self.jacobi_integral(t, q, &qd))
    }

    /// The canonical equations `(q̇, ṗ) = (∂H/∂p, −∂H/∂q + Q)` (Thomson & Tait §319,
    /// eq. 35), evaluated as `q̇ = velocities(t, q, p)` and `ṗ = momentum_rate(t, q, q̇)`.
    fn canonical_rhs(
        &self,
        t: f64,
        q: &SVector<f64, N>,
        p: &SVector<f64, N>,
    ) -> Result<(SVector<f64, N>, SVector<f64, N>), Error> {
        let qd = self.velocities(t, q, p)?;
        Ok((qd, self.momentum_rate(t, q, &qd)))
    }

    /// Drift control: the state moved back onto the constraints after an integration step,
    /// or `None` when the system has no constraints (the default).
    #[allow(clippy::type_complexity)]
    fn project(
        &self,
        t: f64,
        q: &SVector<f64, N>,
        qd: &SVector<f64, N>,
    ) -> Result<Option<(SVector<f64, N>, SVector<f64, N>)>, Error> {
        let _ = (t, q, qd);
        Ok(None)
    }

    /// Checks that an initial state is admissible (for constrained systems: consistent
    /// with the constraints); `Ok` by default.
    fn check_initial_state(
        &self,
        t: f64,
        q: &SVector<f64, N>,
        qd: &SVector<f64, N>,
    ) -> Result<(), Error> {
        let _ = (t, q, qd);
        Ok(())
    }

    /// The value of the integral named by [`conserved`](Self::conserved), if there is one.
    fn conserved_value(&self, t: f64, q: &SVector<f64, N>, qd: &SVector<f64, N>) -> Option<f64> {
        match self.conserved() {
            Conserved::Energy => Some(self.energy(t, q, qd)),
            Conserved::JacobiIntegral => Some(self.jacobi_integral(t, q, qd)),
            Conserved::None => None,
        }
    }
}
