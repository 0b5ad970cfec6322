//! Exact first derivatives of the equations of motion, from the derivatives of their
//! residuals that the derive generates symbolically.
//!
//! Lagrange's equations are the residual `r(t, q, q̇, q̈, p) = M q̈ − f = 0`; for a
//! constrained system also `M q̈ − f − Jᵀλ = 0` and `s = J q̈ + c = 0`. Differentiating
//! them at a solution gives the derivatives of `q̈` (and `λ`) by one linear solve, valid at
//! any state, not only at equilibria: `∂q̈/∂x = −M⁻¹ ∂r/∂x` without constraints.

use nalgebra::{DMatrix, SMatrix, SVector};

use crate::error::Error;
use crate::solve::linalg;

/// Derivatives of the residual `r = M(t, q, q̇) q̈ − f(t, q, q̇)` at a point
/// `(t, q, q̇, q̈)`, with `q̈` held fixed.
#[derive(Debug, Clone, PartialEq)]
pub struct ResidualJacobians<const N: usize> {
    /// `∂r/∂q`: entry `(i, j)` is `∂rᵢ/∂qⱼ`.
    pub coordinates: SMatrix<f64, N, N>,
    /// `∂r/∂q̇`.
    pub velocities: SMatrix<f64, N, N>,
    /// `∂r/∂p`, `N` rows and one column per parameter (inputs included), in the order of
    /// [`ModelInfo::parameters`](crate::ModelInfo::parameters).
    pub parameters: DMatrix<f64>,
}

/// Derivatives of a constrained system's constraint residual `s = J q̈ + c` (the second
/// time derivative of `G`) and of its reaction `Jᵀλ`, at `(t, q, q̇, q̈, λ)` with `q̈`
/// and `λ` held fixed.
#[derive(Debug, Clone, PartialEq)]
pub struct ConstraintJacobians<const N: usize, const K: usize> {
    /// `∂s/∂q`.
    pub acceleration_coordinates: SMatrix<f64, K, N>,
    /// `∂s/∂q̇`.
    pub acceleration_velocities: SMatrix<f64, K, N>,
    /// `∂s/∂p`, `K` rows and one column per parameter.
    pub acceleration_parameters: DMatrix<f64>,
    /// `∂(Jᵀλ)/∂q` (the reaction does not depend on `q̇`).
    pub reaction_coordinates: SMatrix<f64, N, N>,
    /// `∂(Jᵀλ)/∂p`, `N` rows and one column per parameter.
    pub reaction_parameters: DMatrix<f64>,
}

/// Derivatives of the accelerations `q̈(t, q, q̇, p)` of the motion (the constrained
/// motion for a constrained system) at a state.
#[derive(Debug, Clone, PartialEq)]
pub struct AccelerationJacobians<const N: usize> {
    /// The accelerations at the state.
    pub accelerations: SVector<f64, N>,
    /// `∂q̈/∂q`.
    pub coordinates: SMatrix<f64, N, N>,
    /// `∂q̈/∂q̇`.
    pub velocities: SMatrix<f64, N, N>,
    /// `∂q̈/∂p`, `N` rows and one column per parameter.
    pub parameters: DMatrix<f64>,
}

/// The derivatives of the unconstrained motion `M q̈ = f` from the mass matrix `m`, the
/// accelerations `qdd` and the residual's derivatives `r` at a state:
/// `∂q̈/∂x = −M⁻¹ ∂r/∂x` (the default of
/// [`LagrangianSystem::acceleration_jacobians`](crate::LagrangianSystem::acceleration_jacobians)).
/// `singular` is the error when `M` is singular or a derivative is not finite.
pub fn unconstrained<const N: usize>(
    m: &SMatrix<f64, N, N>,
    qdd: SVector<f64, N>,
    r: ResidualJacobians<N>,
    singular: impl Fn() -> Error,
) -> Result<AccelerationJacobians<N>, Error> {
    // One Cholesky factorization for every column (a mass matrix is positive definite);
    // the general solve, column by column, when it is not.
    let cholesky = m.cholesky();
    let solve = |x: &DMatrix<f64>| -> Result<DMatrix<f64>, Error> {
        let mut out = DMatrix::zeros(N, x.ncols());
        for c in 0..x.ncols() {
            let column = SVector::<f64, N>::from_iterator(x.column(c).iter().map(|v| -v));
            let solved = match &cholesky {
                Some(factor) => Some(factor.solve(&column)),
                None => linalg::solve_mass_matrix(*m, column),
            };
            let solved = solved.ok_or_else(&singular)?;
            out.set_column(c, &solved);
        }
        Ok(out)
    };
    let dynamic = |x: &SMatrix<f64, N, N>| DMatrix::from_column_slice(N, N, x.as_slice());
    let fixed = |x: DMatrix<f64>| SMatrix::<f64, N, N>::from_column_slice(x.as_slice());
    let jacobians = AccelerationJacobians {
        accelerations: qdd,
        coordinates: fixed(solve(&dynamic(&r.coordinates))?),
        velocities: fixed(solve(&dynamic(&r.velocities))?),
        parameters: solve(&r.parameters)?,
    };
    finite(jacobians, singular)
}

/// The derivatives of the constrained motion with accelerations `qdd` and multipliers
/// `lambda`: `[M −Jᵀ; J 0] [∂q̈; ∂λ] = −[∂r/∂x − ∂(Jᵀλ)/∂x; ∂s/∂x]`.
pub(crate) fn constrained<const N: usize, const K: usize>(
    m: &SMatrix<f64, N, N>,
    j: &SMatrix<f64, K, N>,
    qdd: SVector<f64, N>,
    r: ResidualJacobians<N>,
    s: ConstraintJacobians<N, K>,
    singular: impl Fn() -> Error,
) -> Result<AccelerationJacobians<N>, Error> {
    let size = N + K;
    let mut saddle = DMatrix::zeros(size, size);
    saddle.view_mut((0, 0), (N, N)).copy_from(m);
    saddle.view_mut((0, N), (N, K)).copy_from(&(-j.transpose()));
    saddle.view_mut((N, 0), (K, N)).copy_from(j);
    let lu = saddle.lu();
    // The first N rows of the solution for the stacked right-hand sides.
    let solve = |top: DMatrix<f64>, bottom: DMatrix<f64>| -> Result<DMatrix<f64>, Error> {
        let mut rhs = DMatrix::zeros(size, top.ncols());
        rhs.view_mut((0, 0), (N, top.ncols())).copy_from(&(-top));
        rhs.view_mut((N, 0), (K, bottom.ncols()))
            .copy_from(&(-bottom));
        let x = lu.solve(&rhs).ok_or_else(&singular)?;
        Ok(x.rows(0, N).into_owned())
    };
    let dynamic = |x: &[f64], rows: usize| DMatrix::from_column_slice(rows, N, x);
    let fixed = |x: DMatrix<f64>| SMatrix::<f64, N, N>::from_column_slice(x.as_slice());
    let coordinates = solve(
        dynamic((r.coordinates - s.reaction_coordinates).as_slice(), N),
        dynamic(s.acceleration_coordinates.as_slice(), K),
    )?;
    let velocities = solve(
        dynamic(r.velocities.as_slice(), N),
        dynamic(s.acceleration_velocities.as_slice(), K),
    )?;
    let parameters = solve(
        r.parameters - s.reaction_parameters,
        s.acceleration_parameters,
    )?;
    let jacobians = AccelerationJacobians {
        accelerations: qdd,
        coordinates: fixed(coordinates),
        velocities: fixed(velocities),
        parameters,
    };
    finite(jacobians, singular)
}

fn finite<const N: usize>(
    j: AccelerationJacobians<N>,
    singular: impl Fn() -> Error,
) -> Result<AccelerationJacobians<N>, Error> {
    let all = j
        .coordinates
        .iter()
        .chain(j.velocities.iter())
        .chain(j.parameters.iter());
    if all.clone().all(|x| x.is_finite()) {
        Ok(j)
    } else {
        Err(singular())
    }
}
