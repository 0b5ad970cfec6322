//! Items that generated code (the derive's expansion, the `lagrange` command's
//! interpreter) names by absolute path and users should not: not part of the public API.

use nalgebra::{SMatrix, SVector};

use crate::error::Error;
use crate::linalg;
use crate::system::Conserved;
use crate::theorems::Theorem;

/// Relative tolerance of the consistency check of initial states with the constraints.
pub const CONSISTENCY_TOLERANCE: f64 = 1e-9;

/// `q̈` from `M q̈ = f` at the state `(t, q, q̇)`: the unconstrained accelerations, with
/// an error carrying the state when `M` is singular or the result is not finite.
pub fn solve_accelerations<const N: usize>(
    m: SMatrix<f64, N, N>,
    f: SVector<f64, N>,
    t: f64,
    q: &SVector<f64, N>,
    qd: &SVector<f64, N>,
) -> Result<SVector<f64, N>, Error> {
    linalg::solve_mass_matrix(m, f)
        .filter(|qdd| qdd.iter().all(|x| x.is_finite()))
        .ok_or_else(|| Error::singular(t, q.as_slice(), qd.as_slice()))
}

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
