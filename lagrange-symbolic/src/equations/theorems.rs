//! The general theorems of dynamics for a model of particles and rigid bodies, as plain
//! data: the dynamic functions, and for each theorem whether its premise on the
//! constraints holds and whether it gives a first integral.

use serde::{Deserialize, Serialize};

use crate::ir::Program;
use crate::syntax::{Expr, Rational};

pub use lagrange_common::{Axis, Theorem};

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

impl Law {
    /// Whether its premise holds (then the balance program has its two outputs).
    pub fn holds(&self) -> bool {
        matches!(self.premise, Premise::Holds { .. })
    }
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
