//! The written language of models: the expression tree ([`Expr`]), its parser, the
//! reserved names, and the printers (model syntax and LaTeX).

mod expr;
mod parse;
pub mod print;

pub use expr::{EXACT_LIMIT, EXACT_POWER, Expr, Func, Rational};
pub use parse::{MAX_DEPTH, MAX_NODES, MAX_SOURCE_BYTES, ParseError};

/// Time, reserved in every expression.
pub const TIME: &str = "t";
/// The constant π.
pub const PI: &str = "pi";
