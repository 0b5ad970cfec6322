//! Items that generated code (the derive's expansion, the `lagrange` command's
//! interpreter) names by absolute path and users should not: not part of the public API.

pub use crate::solve::jacobians::unconstrained as unconstrained_jacobians;
pub use crate::solve::linalg::solve_accelerations;
pub use crate::system::constrained::{PROJECTION_ITERATIONS, PROJECTION_TOLERANCE};
use crate::system::{Conserved, Theorem};

/// Relative tolerance of the consistency check of initial states with the constraints.
pub const CONSISTENCY_TOLERANCE: f64 = 1e-9;

/// [`Conserved::from_name`] for a constant: an unknown name (the engine and this crate
/// disagreeing) stops the compilation.
pub const fn conserved(name: Option<&str>) -> Conserved {
    match Conserved::from_name(name) {
        Some(conserved) => conserved,
        None => {
            panic!("lagrange: the engine names a conserved integral this runtime does not know")
        }
    }
}

/// [`Theorem::from_function_name`] for a constant: an unknown name (the engine and this
/// crate disagreeing) stops the compilation.
pub const fn theorem(name: &str) -> Theorem {
    match Theorem::from_function_name(name) {
        Some(theorem) => theorem,
        None => panic!("lagrange: the engine names a theorem this runtime does not know"),
    }
}
