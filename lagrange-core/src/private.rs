//! Items that generated code (the derive's expansion, the `lagrange` command's
//! interpreter and generated solvers) names by absolute path and users should not: not
//! part of the public API.

pub use crate::copy::copy_values;
pub use crate::run::event::watch::{JUMP_FRACTION, ROOT_ITERATIONS};
pub use crate::system::constrained::{
    CONSISTENCY_TOLERANCE, PROJECTION_ITERATIONS, PROJECTION_TOLERANCE,
};
pub use crate::wide::wide;

use crate::system::Quantity;

/// The end of a derived [`Programs::run`](crate::system::Programs::run) for a quantity
/// its model has no program of, which the runtime never asks for.
#[cold]
pub fn no_program(model: &str, quantity: Quantity) -> ! {
    panic!("the model {model} has no program of {quantity:?}")
}
