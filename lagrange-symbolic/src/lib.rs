//! The lagrange engine: a [`model::Model`] is checked, its equations of motion are
//! derived symbolically, and the result leaves as plain data ([`equations::Equations`]):
//! straight-line [`ir::Program`]s and printable [`expr::Expr`] trees.
//!
//! Only the `cas` module talks to symbolica. Without the `engine` feature the crate has
//! no symbolica at all and keeps what reads a model and a stored derivation ([`store`]).

#[cfg(feature = "engine")]
mod cas;
#[cfg(feature = "engine")]
mod constraints;
pub mod equations;
pub mod expr;
pub mod ir;
#[cfg(feature = "engine")]
mod kinetic;
#[cfg(feature = "engine")]
pub mod lagrange;
pub mod model;
pub mod print;
pub mod rotation;
#[cfg(feature = "engine")]
mod routh;
pub mod store;

#[cfg(feature = "engine")]
pub use lagrange::derive;
