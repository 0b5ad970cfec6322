//! Items that generated code (the derive's expansion, the `lagrange` command's
//! interpreter) names by absolute path and users should not: not part of the public API.

pub use crate::run::event::watch::{JUMP_FRACTION, ROOT_ITERATIONS};
pub use crate::solve::jacobians::unconstrained as unconstrained_jacobians;
pub use crate::solve::linalg::solve_accelerations;
pub use crate::system::constrained::{PROJECTION_ITERATIONS, PROJECTION_TOLERANCE};
use nalgebra::Vector3;

use crate::system::DynamicFunctions;

pub use crate::system::constrained::CONSISTENCY_TOLERANCE;
pub use crate::wide::wide;

/// The dynamic functions from the nine values of the generated program: `P`, `Λ`, `T`,
/// `J`, `I` in that order.
pub fn dynamic_functions(v: [f64; 9]) -> DynamicFunctions {
    DynamicFunctions {
        momentum: Vector3::new(v[0], v[1], v[2]),
        angular_momentum: Vector3::new(v[3], v[4], v[5]),
        kinetic_energy: v[6],
        virial: v[7],
        moment_of_inertia: v[8],
    }
}
