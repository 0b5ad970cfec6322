//! The general theorems of dynamics as a model's derivation decided them: the dynamic
//! functions of its particles and bodies, which theorems apply, which give first
//! and which give first integrals.

use std::borrow::Cow;

use nalgebra::Vector3;

pub use lagrange_common::{Axis, Theorem};

/// A theorem as it applies to one model.
#[derive(Debug, Clone, PartialEq)]
pub struct TheoremInfo {
    /// Which theorem.
    pub theorem: Theorem,
    /// Whether its premise holds: the derivation exhibited the symmetry.
    pub holds: bool,
    /// The symmetry found (its generator), or why none was established.
    pub why: Cow<'static, str>,
    /// Whether the theorem gives a first integral (see [`Theorem::integral_name`]).
    pub integral: bool,
}

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
