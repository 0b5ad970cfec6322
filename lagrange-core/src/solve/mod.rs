//! Solving the equations of motion at one state: `M q̈ = f` numerically (the mass
//! matrix is never inverted symbolically), and the exact first derivatives of `q̈` from the
//! generated derivatives of the residuals, by one more solve.

pub(crate) mod jacobians;
pub(crate) mod linalg;

pub use jacobians::{AccelerationJacobians, ConstraintJacobians, ResidualJacobians};

/// Newton iterations allowed when solving for velocities from momenta, and per step of
/// the implicit integrators.
pub(crate) const NEWTON_ITERATIONS: usize = 50;
