//! Small motions about a state: the linearized equations of motion and their stability,
//! equilibria, and normal modes of vibration.
//!
//! Everything here is numerical linear algebra on the exact first derivatives the derive
//! generates ([`LagrangianSystem::acceleration_jacobians`](crate::LagrangianSystem::acceleration_jacobians)),
//! with one exception: how a velocity constraint varies with the coordinates, `∂e/∂q`,
//! which the tangent space of [`linearize_constrained`] takes by five-point differences.

mod equilibrium;
mod linearization;
mod minimal;
mod vibration;

pub use equilibrium::{
    Equilibrium, constrained_equilibrium, equilibrium, find_constrained_equilibrium,
    find_equilibrium,
};
pub use linearization::{
    Linearization, MARGINAL_TOLERANCE, Stability, linearize, linearize_constrained,
};
pub use minimal::MinimalLinearization;
pub use vibration::{NormalMode, constrained_normal_modes, normal_modes};
