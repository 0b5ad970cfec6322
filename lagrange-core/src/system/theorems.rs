//! The general theorems of dynamics as a model's derivation decided them: the dynamic
//! functions of its particles and bodies, which theorems apply, which give first
//! and which give first integrals.

use std::borrow::Cow;

use nalgebra::Vector3;

/// An axis of the fixed frame.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Axis {
    /// x.
    X,
    /// y.
    Y,
    /// z.
    Z,
}

impl Axis {
    /// 0, 1 or 2.
    pub const fn index(self) -> usize {
        self as usize
    }
}

/// One of the general theorems of dynamics for points `r_ν` with masses `m_ν` (a body
/// counts as the continuum of its points). Each holds when the constraints admit its
/// symmetry, and the constraints' reactions appear in none of them.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
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
    /// The name of the dynamic function the theorem is about (`momentum_x`,
    /// `angular_momentum_z`, `kinetic_energy`, `virial`, `moment_of_inertia`): the column
    /// of its integral in a trajectory. The engine's `equations::Theorem::function_name`
    /// uses the same names.
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

    /// The theorem whose [`function_name`](Self::function_name) is `name`.
    pub const fn from_function_name(name: &str) -> Option<Theorem> {
        Some(match name.as_bytes() {
            b"momentum_x" => Theorem::Momentum(Axis::X),
            b"momentum_y" => Theorem::Momentum(Axis::Y),
            b"momentum_z" => Theorem::Momentum(Axis::Z),
            b"angular_momentum_x" => Theorem::AngularMomentum(Axis::X),
            b"angular_momentum_y" => Theorem::AngularMomentum(Axis::Y),
            b"angular_momentum_z" => Theorem::AngularMomentum(Axis::Z),
            b"kinetic_energy" => Theorem::KineticEnergy,
            b"virial" => Theorem::Virial,
            b"moment_of_inertia" => Theorem::MomentOfInertia,
            _ => return None,
        })
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
    /// From the nine values `P`, `Λ`, `T`, `J`, `I` in that order.
    pub fn from_values(v: [f64; 9]) -> Self {
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_theorem_is_found_again_by_its_function_name() {
        let all = [
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
        for theorem in all {
            assert_eq!(
                Theorem::from_function_name(theorem.function_name()),
                Some(theorem)
            );
        }
        assert_eq!(Theorem::from_function_name("momentum"), None);
        assert_eq!(Theorem::KineticEnergy.integral_name(), "energy");
    }
}
