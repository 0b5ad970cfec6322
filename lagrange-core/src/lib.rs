//! Runtime of lagrange: the trait that generated code implements, integrators,
//! trajectories and the check of derived equations against reference equations.
//!
//! This crate never runs computer algebra: everything symbolic happened at compile time.

#[doc(hidden)]
#[path = "private.rs"]
pub mod __private;
pub mod analysis;
pub mod constrained;
pub mod control;
pub mod error;
pub mod event;
pub mod integrate;
pub mod jacobians;
pub mod linalg;
pub mod report;
mod rng;
pub mod simulation;
pub mod system;
#[cfg(test)]
mod test_systems;
pub mod theorems;
pub mod trajectory;
pub mod verify;
pub mod wrench;

pub use analysis::{
    Linearization, NormalMode, Stability, constrained_equilibrium, constrained_normal_modes,
    equilibrium, linearize, linearize_constrained, normal_modes,
};
pub use constrained::{ConstrainedMotion, ConstrainedSystem};
pub use control::Controlled;
pub use error::Error;
pub use event::{Event, Occurrence};
pub use integrate::{Integrator, State, Stats, Step};
pub use jacobians::{AccelerationJacobians, ConstraintJacobians, ResidualJacobians};
pub use nalgebra;
pub use report::{HtmlReport, Series};
pub use simulation::{Simulation, Stopped};
pub use system::{
    Conserved, ConstraintInfo, Drawing, DrawnPoint, Formula, FromParameterValues, LagrangianSystem,
    ModelInfo, PointKind, ReducedSystem, Text,
};
pub use theorems::{Axis, Balance, DynamicFunctions, Theorem, TheoremInfo, balance_table};
pub use trajectory::{Invariant, Trajectory};
pub use verify::{Check, Report, Sample};
pub use wrench::JointWrench;
