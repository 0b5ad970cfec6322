//! The general theorems of dynamics for a model of particles and rigid bodies, as plain
//! data: the dynamic functions, and for each theorem whether its premise on the
//! constraints holds and whether it gives a first integral.

use serde::{Deserialize, Serialize};

use crate::ir::Program;
use crate::syntax::{Expr, Rational};

/// One of the general theorems of dynamics for `N` points `r_ν` with masses `m_ν`, each
/// about one dynamic function. Each holds when the constraints admit the matching
/// symmetry; the constraints' reactions appear in none of them.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum Theorem {
    /// `dP_a/dt = Σ F_a` for the momentum `P = Σ m ṙ`, when the constraints admit the
    /// translations along axis `a` (0, 1, 2: x, y, z).
    Momentum(usize),
    /// `dΛ_a/dt = M_a` for the angular momentum `Λ = Σ m r × ṙ` about the origin, when
    /// the constraints admit the rotations about axis `a` through the origin.
    AngularMomentum(usize),
    /// `dT/dt = Σ F·ṙ` when the constraints are stationary.
    KineticEnergy,
    /// `dJ/dt = 2T + Σ F·r` for the virial `J = Σ m r·ṙ`, when the constraints admit
    /// the homotheties about the origin.
    Virial,
    /// `dI/dt = 2J` for the moment of inertia `I = Σ m r²` about the origin: always.
    MomentOfInertia,
}

impl Theorem {
    /// Every theorem, in the order of [`Theorems::laws`].
    pub const ALL: [Theorem; 9] = [
        Theorem::Momentum(0),
        Theorem::Momentum(1),
        Theorem::Momentum(2),
        Theorem::AngularMomentum(0),
        Theorem::AngularMomentum(1),
        Theorem::AngularMomentum(2),
        Theorem::KineticEnergy,
        Theorem::Virial,
        Theorem::MomentOfInertia,
    ];

    /// The output of [`Theorems::dynamic_functions`] that holds the function the theorem
    /// is about: `P` at 0–2, `Λ` at 3–5, `T` at 6, `J` at 7, `I` at 8.
    pub fn function_index(self) -> usize {
        match self {
            Theorem::Momentum(a) => a,
            Theorem::AngularMomentum(a) => 3 + a,
            Theorem::KineticEnergy => 6,
            Theorem::Virial => 7,
            Theorem::MomentOfInertia => 8,
        }
    }

    /// The name of the function the theorem is about (`momentum_x`,
    /// `angular_momentum_z`, `kinetic_energy`, `virial`, `moment_of_inertia`): its column
    /// in a trajectory. The runtime's `lagrange_core::Theorem::function_name` uses the
    /// same names.
    pub fn function_name(self) -> &'static str {
        const MOMENTUM: [&str; 3] = ["momentum_x", "momentum_y", "momentum_z"];
        const ANGULAR: [&str; 3] = [
            "angular_momentum_x",
            "angular_momentum_y",
            "angular_momentum_z",
        ];
        match self {
            Theorem::Momentum(a) => MOMENTUM[a],
            Theorem::AngularMomentum(a) => ANGULAR[a],
            Theorem::KineticEnergy => "kinetic_energy",
            Theorem::Virial => "virial",
            Theorem::MomentOfInertia => "moment_of_inertia",
        }
    }
}

/// Whether a theorem's premise holds for a model.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub enum Premise {
    /// The premise holds.
    Holds {
        /// The symmetry found: the generator as a vector field in the coordinates
        /// (`δphi = 1`), or why no symmetry is needed.
        symmetry: String,
        /// The applied forces' part of the law's right-hand side (`Σ F_a`, `M_a`,
        /// `Σ F·ṙ`, `Σ F·r`); `None` for `dI/dt = 2J`, which has none.
        applied: Option<Expr>,
    },
    /// No symmetry could be established, and why; the theorem may still hold.
    NotEstablished(String),
}

/// A theorem as it applies to one model.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Law {
    /// Which theorem.
    pub theorem: Theorem,
    /// Whether its premise holds.
    pub premise: Premise,
    /// Whether it gives a first integral: the premise holds and the applied forces'
    /// part vanishes identically (for the kinetic-energy theorem: the forces have a
    /// potential `V` without `t`, and the integral is `T + V`).
    pub integral: bool,
}

/// The general theorems of dynamics as they apply to a model whose masses are all
/// particles and bodies.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Theorems {
    /// `P` (3 outputs), `Λ` about the origin (3), `T`, `J`, `I`, over the
    /// [`Inputs`](super::Inputs). A body counts as the continuum of its points: `Λ`
    /// includes its spin `R Θ ω`, `I` its `tr Θ / 2`.
    pub dynamic_functions: Program,
    /// Every theorem of [`Theorem::ALL`], in that order.
    pub laws: Vec<Law>,
    /// For each law whose premise holds, in order: the rate `dΦ/dt` of its function
    /// along the motion and the law's right-hand side (2 outputs each), over the inputs
    /// followed by the accelerations.
    pub balance: Program,
    /// The degree `n` of the potential when the homotheties are admitted, no force or
    /// dissipation acts and `V(λ r) = λⁿ V(r)`: then `dJ/dt = 2T − n V`.
    pub homogeneity: Option<Rational>,
}
