//! The general theorems of dynamics for points `r_ν` with masses `m_ν`, each about one
//! dynamic function: the momentum `P`, the angular momentum `Λ` about the origin, the
//! kinetic energy `T`, the virial `J` and the moment of inertia `I`.

/// An axis of the fixed frame.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[cfg_attr(
    feature = "serde",
    derive(serde::Serialize, serde::Deserialize),
    serde(into = "usize", try_from = "usize")
)]
pub enum Axis {
    /// x.
    X,
    /// y.
    Y,
    /// z.
    Z,
}

impl Axis {
    /// The three axes, in order.
    pub const ALL: [Axis; 3] = [Axis::X, Axis::Y, Axis::Z];

    /// 0, 1 or 2.
    pub const fn index(self) -> usize {
        self as usize
    }
}

impl From<Axis> for usize {
    fn from(axis: Axis) -> usize {
        axis.index()
    }
}

impl TryFrom<usize> for Axis {
    type Error = String;

    fn try_from(index: usize) -> Result<Axis, String> {
        Axis::ALL
            .get(index)
            .copied()
            .ok_or_else(|| format!("axis {index} is not 0, 1 or 2"))
    }
}

/// One of the general theorems of dynamics for points `r_ν` with masses `m_ν` (a body
/// counts as the continuum of its points). Each holds when the constraints admit its
/// symmetry, and the constraints' reactions appear in none of them.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub enum Theorem {
    /// `dP_a/dt = Σ F_a` for `P = Σ m ṙ`, when the constraints admit translations along `a`.
    Momentum(Axis),
    /// `dΛ_a/dt = M_a` for `Λ = Σ m r × ṙ` about the origin, when the constraints admit
    /// rotations about the axis `a` through the origin.
    AngularMomentum(Axis),
    /// `dT/dt = Σ F·ṙ`, when the constraints are stationary; with a potential `V`
    /// without `t`, `T + V` is an integral.
    KineticEnergy,
    /// `dJ/dt = 2T + Σ F·r` for the virial `J = Σ m r·ṙ`, when the constraints admit
    /// homotheties about the origin (`2T − n V` for a potential homogeneous of degree `n`).
    Virial,
    /// `dI/dt = 2J` for `I = Σ m r²`: always.
    MomentOfInertia,
}

impl Theorem {
    /// Every theorem, in the order of the dynamic functions: `P` x, y, z, `Λ` x, y, z,
    /// `T`, `J`, `I`.
    pub const ALL: [Theorem; 9] = [
        Theorem::Momentum(Axis::X),
        Theorem::Momentum(Axis::Y),
        Theorem::Momentum(Axis::Z),
        Theorem::AngularMomentum(Axis::X),
        Theorem::AngularMomentum(Axis::Y),
        Theorem::AngularMomentum(Axis::Z),
        Theorem::KineticEnergy,
        Theorem::Virial,
        Theorem::MomentOfInertia,
    ];

    /// The position of the theorem's function among the dynamic functions, in the order
    /// of [`ALL`](Self::ALL): `P` at 0–2, `Λ` at 3–5, `T` at 6, `J` at 7, `I` at 8.
    pub const fn function_index(self) -> usize {
        match self {
            Theorem::Momentum(a) => a.index(),
            Theorem::AngularMomentum(a) => 3 + a.index(),
            Theorem::KineticEnergy => 6,
            Theorem::Virial => 7,
            Theorem::MomentOfInertia => 8,
        }
    }

    /// The name of the dynamic function the theorem is about (`momentum_x`,
    /// `angular_momentum_z`, `kinetic_energy`, `virial`, `moment_of_inertia`): its column
    /// in a trajectory.
    pub const fn function_name(self) -> &'static str {
        match self {
            Theorem::Momentum(Axis::X) => "momentum_x",
            Theorem::Momentum(Axis::Y) => "momentum_y",
            Theorem::Momentum(Axis::Z) => "momentum_z",
            Theorem::AngularMomentum(Axis::X) => "angular_momentum_x",
            Theorem::AngularMomentum(Axis::Y) => "angular_momentum_y",
            Theorem::AngularMomentum(Axis::Z) => "angular_momentum_z",
            Theorem::KineticEnergy => "kinetic_energy",
            Theorem::Virial => "virial",
            Theorem::MomentOfInertia => "moment_of_inertia",
        }
    }

    /// The law as an equation, `dP_x/dt = Σ F_x` and so on.
    pub const fn law(self) -> &'static str {
        match self {
            Theorem::Momentum(Axis::X) => "dP_x/dt = Σ F_x",
            Theorem::Momentum(Axis::Y) => "dP_y/dt = Σ F_y",
            Theorem::Momentum(Axis::Z) => "dP_z/dt = Σ F_z",
            Theorem::AngularMomentum(Axis::X) => "dΛ_x/dt = M_x",
            Theorem::AngularMomentum(Axis::Y) => "dΛ_y/dt = M_y",
            Theorem::AngularMomentum(Axis::Z) => "dΛ_z/dt = M_z",
            Theorem::KineticEnergy => "dT/dt = Σ F·ṙ",
            Theorem::Virial => "dJ/dt = 2T + Σ F·r",
            Theorem::MomentOfInertia => "dI/dt = 2J",
        }
    }

    /// The applied forces' part of the law's right-hand side (`Σ F_x`, `M_z`, `Σ F·ṙ`,
    /// `Σ F·r`); `None` for `dI/dt = 2J`, which has none.
    pub const fn resultant(self) -> Option<&'static str> {
        Some(match self {
            Theorem::Momentum(Axis::X) => "Σ F_x",
            Theorem::Momentum(Axis::Y) => "Σ F_y",
            Theorem::Momentum(Axis::Z) => "Σ F_z",
            Theorem::AngularMomentum(Axis::X) => "M_x",
            Theorem::AngularMomentum(Axis::Y) => "M_y",
            Theorem::AngularMomentum(Axis::Z) => "M_z",
            Theorem::KineticEnergy => "Σ F·ṙ",
            Theorem::Virial => "Σ F·r",
            Theorem::MomentOfInertia => return None,
        })
    }

    /// The integral the theorem gives when its right-hand side vanishes: the function
    /// itself, except for the kinetic-energy theorem, whose integral is `T + V` (the
    /// model's `energy`).
    pub const fn integral_name(self) -> &'static str {
        match self {
            Theorem::KineticEnergy => "energy",
            other => other.function_name(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_theorem_has_its_own_function_in_the_order_of_all() {
        for (i, theorem) in Theorem::ALL.into_iter().enumerate() {
            assert_eq!(theorem.function_index(), i);
        }
        let mut names: Vec<&str> = Theorem::ALL.iter().map(|t| t.function_name()).collect();
        names.sort_unstable();
        names.dedup();
        assert_eq!(names.len(), 9);
        assert_eq!(Theorem::KineticEnergy.integral_name(), "energy");
        assert_eq!(Theorem::Virial.integral_name(), "virial");
    }

    #[test]
    fn axes_are_indices_and_nothing_else_is() {
        for axis in Axis::ALL {
            assert_eq!(Axis::try_from(usize::from(axis)), Ok(axis));
        }
        assert!(Axis::try_from(3).unwrap_err().contains('3'));
    }
}
