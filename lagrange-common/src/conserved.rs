//! The scalar first integral a model's equations conserve.

/// The scalar first integral a model conserves, if any, as decided from its equations.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub enum Conserved {
    /// `T + V`: no explicit time, no forces or dissipation, `T` homogeneous quadratic in
    /// the velocities (then equal to the Jacobi integral).
    Energy,
    /// The Jacobi integral `h = Σ q̇ᵢ ∂L/∂q̇ᵢ − L`: no explicit time, no forces or dissipation.
    JacobiIntegral,
    /// Neither: the model has explicit time dependence, generalized forces, dissipation
    /// or inputs.
    None,
}

impl Conserved {
    /// The integral's name, `energy` or `jacobi_integral`: the method of a system that
    /// computes it, and its column in a trajectory; `None` for [`Conserved::None`].
    pub const fn name(self) -> Option<&'static str> {
        match self {
            Conserved::Energy => Some("energy"),
            Conserved::JacobiIntegral => Some("jacobi_integral"),
            Conserved::None => None,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_names_are_those_of_the_methods_that_compute_the_integrals() {
        assert_eq!(Conserved::Energy.name(), Some("energy"));
        assert_eq!(Conserved::JacobiIntegral.name(), Some("jacobi_integral"));
        assert_eq!(Conserved::None.name(), None);
    }
}
