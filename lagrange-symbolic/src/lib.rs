//! The lagrange engine: a [`model::Model`] is checked, its equations of motion are
//! derived symbolically, and the result leaves as plain data ([`equations::Equations`]):
//! straight-line [`ir::Program`]s and printable [`expr::Expr`] trees.
//!
//! Only the `cas` module talks to symbolica.

mod cas;
mod constraints;
pub mod equations;
pub mod expr;
pub mod ir;
mod kinetic;
pub mod lagrange;
pub mod model;
pub mod print;
pub mod rotation;
mod routh;

pub use lagrange::derive;
