//! The dynamic functions of a model's particles and bodies at one state, which the
//! general theorems of dynamics are about.

use lagrange_common::layout::DYNAMIC_FUNCTIONS;
use nalgebra::Vector3;

pub use lagrange_common::{Axis, Theorem, TheoremInfo};

/// The dynamic functions of a system of particles and bodies at one state, about the
/// origin of the fixed frame.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct DynamicFunctions {
    /// `P = Σ m ṙ`.
    pub momentum: Vector3<f64>,
    /// `Λ = Σ m r × ṙ`, with each body's spin `R Θ ω`.
    pub angular_momentum: Vector3<f64>,
    /// `T = ½ Σ m ṙ²`.
    pub kinetic_energy: f64,
    /// `J = Σ m r·ṙ`.
    pub virial: f64,
    /// `I = Σ m r²`, with each body's `tr Θ / 2`.
    pub moment_of_inertia: f64,
}

impl DynamicFunctions {
    /// From the outputs of a model's program of them: `P`, `Λ`, `T`, `J`, `I` in that
    /// order ([`DYNAMIC_FUNCTIONS`] values).
    pub(crate) fn from_outputs(v: &[f64]) -> DynamicFunctions {
        assert_eq!(v.len(), DYNAMIC_FUNCTIONS, "the dynamic functions' outputs");
        DynamicFunctions {
            momentum: Vector3::new(v[0], v[1], v[2]),
            angular_momentum: Vector3::new(v[3], v[4], v[5]),
            kinetic_energy: v[6],
            virial: v[7],
            moment_of_inertia: v[8],
        }
    }

    /// The function `theorem` is about.
    pub fn of(&self, theorem: Theorem) -> f64 {
        match theorem {
            Theorem::Momentum(a) => self.momentum[a.index()],
            Theorem::AngularMomentum(a) => self.angular_momentum[a.index()],
            Theorem::KineticEnergy => self.kinetic_energy,
            Theorem::Virial => self.virial,
            Theorem::MomentOfInertia => self.moment_of_inertia,
        }
    }
}
