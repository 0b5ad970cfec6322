//! Runtime of lagrange: the trait that generated code implements, integrators,
//! trajectories and the check of derived equations against reference equations.
//!
//! This crate never runs computer algebra: everything symbolic happened at compile time.

pub mod error;
pub mod linalg;
pub mod system;

pub use error::Error;
pub use nalgebra;
pub use system::{Conserved, LagrangianSystem};
