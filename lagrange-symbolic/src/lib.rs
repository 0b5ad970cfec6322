//! The lagrange engine, laid out as its pipeline: a written [`model::Model`] (its
//! expressions in the language of [`syntax`]) is checked, its equations of motion are
//! derived symbolically ([`derive()`], through the `mechanics` stage and the `cas`
//! boundary), and the result leaves as plain data ([`equations::Equations`]):
//! straight-line [`ir::Program`]s and printable [`syntax::Expr`] trees, which
//! [`store`] keeps as files.
//!
//! Only the `cas` module talks to symbolica. Without the `engine` feature the crate has
//! no symbolica at all and keeps what reads a model and a stored derivation.

#[cfg(feature = "engine")]
mod cas;
#[cfg(feature = "engine")]
mod derive;
pub mod equations;
pub mod ir;
#[cfg(feature = "engine")]
mod mechanics;
pub mod model;
#[cfg(feature = "engine")]
mod numeric;
pub mod source;
pub mod store;
pub mod syntax;

#[cfg(feature = "engine")]
pub use derive::derive;
#[cfg(feature = "engine")]
pub use mechanics::{EXPANDED_TERMS, EXPANDED_TREE_DEPTH, LINEAR_GENERATOR_COORDINATES};
