//! The trait that `#[derive(Lagrangian)]` implements, and what it says about a model.

use std::borrow::Cow;

use nalgebra::{SMatrix, SVector};

use crate::error::Error;
use crate::jacobians::{self, AccelerationJacobians, ResidualJacobians};
use crate::linalg;
use crate::theorems::{DynamicFunctions, Theorem, TheoremInfo};

/// The scalar first integral a model conserves, if any, as decided from its equations.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Conserved {
    /// `T + V`: no explicit time, no forces or dissipation, `T` homogeneous quadratic in the velocities.
    Energy,
    /// The Jacobi integral `h = Σ q̇ᵢ ∂L/∂q̇ᵢ − L`: no explicit time, no forces or dissipation.
    JacobiIntegral,
    /// Neither: the model has explicit time dependence, generalized forces or dissipation.
    None,
}

impl Conserved {
    /// The integral's name, `energy` or `jacobi_integral` (the method of
    /// [`LagrangianSystem`] that computes it, and its column in a trajectory); `None` for
    /// [`Conserved::None`]. The engine's `equations::Conserved::name` uses the same names.
    pub const fn name(self) -> Option<&'static str> {
        match self {
            Conserved::Energy => Some("energy"),
            Conserved::JacobiIntegral => Some("jacobi_integral"),
            Conserved::None => None,
        }
    }

    /// The integral with this [`name`](Self::name) (`None`: [`Conserved::None`]), or
    /// `None` for an unknown name.
    pub const fn from_name(name: Option<&str>) -> Option<Self> {
        let Some(name) = name else {
            return Some(Conserved::None);
        };
        match name.as_bytes() {
            b"energy" => Some(Conserved::Energy),
            b"jacobi_integral" => Some(Conserved::JacobiIntegral),
            _ => None,
        }
    }
}

/// Newton iterations allowed when solving for velocities from momenta, and per step of
/// the implicit integrators.
pub(crate) const NEWTON_ITERATIONS: usize = 50;

/// Text that generated code borrows for `'static` and a system built at run time owns.
pub type Text = Cow<'static, str>;

/// What a model declares and what its derivation decided about it: plain data, a constant
/// (`INFO`) of every struct that derives `Lagrangian`, and what
/// [`LagrangianSystem::info`] returns.
#[derive(Debug, Clone, PartialEq)]
pub struct ModelInfo {
    /// The model's name (the struct's).
    pub name: Text,
    /// Names of the generalized coordinates, in the order of `q`.
    pub coordinates: Cow<'static, [Text]>,
    /// Names of the parameters (the struct's fields), in the order of
    /// [`parameter_values`](LagrangianSystem::parameter_values).
    pub parameters: Cow<'static, [Text]>,
    /// Indices of the cyclic coordinates: `∂L/∂qᵢ ≡ 0` and no force or dissipation acts on `qᵢ`.
    pub cyclic: Cow<'static, [usize]>,
    /// Which scalar integral the equations conserve.
    pub conserved: Conserved,
    /// Whether a generalized force or dissipation acts (the symplectic and variational
    /// integrators need neither).
    pub forced_or_dissipative: bool,
    /// The Euler–Lagrange equations as plain text, one line per coordinate.
    pub equations_text: Text,
    /// The Euler–Lagrange equations as LaTeX (an `align`-ready body, one row per coordinate).
    pub equations_latex: Text,
    /// The Euler–Lagrange equations as a MathML `<math>` element, set as the LaTeX is. A
    /// report inserts it as markup, unescaped: the engine escapes every text in it.
    pub equations_mathml: Text,
    /// The model's own formulas as written (`T`, `V` or `L`, the forces, the dissipation,
    /// the constraints, the Routhian), for a report.
    pub formulas: Cow<'static, [Formula]>,
    /// What a report's animation draws (see [`LagrangianSystem::drawing`]); `None` for a
    /// model with no particle, body or drawn point.
    pub drawing: Option<Drawing>,
    /// The holonomic constraints (see [`ConstrainedSystem`](crate::ConstrainedSystem)).
    pub constraints: Cow<'static, [ConstraintInfo]>,
    /// Indices into [`parameters`](Self::parameters) of the model's inputs: the parameters
    /// a controller sets while the system moves (`inputs(u, …)`).
    pub inputs: Cow<'static, [usize]>,
    /// The general theorems of dynamics, for a model whose masses are all particles and
    /// bodies (empty for any other): the nine in the order momentum x, y, z, angular
    /// momentum x, y, z, kinetic energy, virial, moment of inertia.
    pub theorems: Cow<'static, [TheoremInfo]>,
}

impl ModelInfo {
    /// The general theorems whose integrals a trajectory records beside the conserved
    /// scalar and the cyclic momenta, in order: every theorem that gives an integral,
    /// except the kinetic-energy theorem when [`conserved`](Self::conserved) already is
    /// the energy `T + V` it gives.
    pub fn theorem_integrals(&self) -> impl Iterator<Item = Theorem> + '_ {
        self.theorems
            .iter()
            .filter(|t| {
                t.integral
                    && !(t.theorem == Theorem::KineticEnergy && self.conserved == Conserved::Energy)
            })
            .map(|t| t.theorem)
    }
}

/// One formula of a model, `name = expression`, in its written text and as MathML.
#[derive(Debug, Clone, PartialEq)]
pub struct Formula {
    /// What the formula defines, as the model names it (`T`, `V`, `Q_theta`, `G1`).
    pub name: Text,
    /// `expression` in the model syntax.
    pub text: Text,
    /// `name = expression` as a MathML `<math>` element, which a report inserts as
    /// markup, unescaped (the engine escapes every text in it).
    pub mathml: Text,
}

/// What a point of a [`Drawing`] is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum PointKind {
    /// A particle.
    Particle,
    /// A body's centre of mass, where its frame is drawn.
    Body,
    /// The joint of a jointed body (its frame's origin).
    Joint,
    /// A point the model names in its drawing.
    Point,
}

/// A point of a [`Drawing`].
#[derive(Debug, Clone, PartialEq)]
pub struct DrawnPoint {
    /// The name: the particle's, the body's, `body.joint`, or the drawn point's.
    pub name: Text,
    /// What the point is.
    pub kind: PointKind,
}

/// What a report's animation draws: points, the lines between them, and bodies' frames.
/// [`LagrangianSystem::drawing`] places them.
#[derive(Debug, Clone, PartialEq)]
pub struct Drawing {
    /// The points, in the order of the positions `drawing` returns.
    pub points: Cow<'static, [DrawnPoint]>,
    /// Lines, as indices into `points`; `None` is the origin of the fixed frame.
    pub links: Cow<'static, [(usize, Option<usize>)]>,
    /// The points that carry a body's frame, in the order of the orientations `drawing`
    /// returns.
    pub frames: Cow<'static, [usize]>,
}

/// One holonomic constraint `G = 0` of a [`ModelInfo`].
#[derive(Debug, Clone, PartialEq)]
pub struct ConstraintInfo {
    /// `G` as text.
    pub text: Text,
    /// `true` when `∂G/∂t ≡ 0` was established symbolically, so the constraint is
    /// scleronomic. `false` means its presentation depends on time, which is necessary but
    /// not sufficient for a moving locus: `ρ(t) G(q)` describes a fixed locus.
    pub scleronomic: bool,
}

/// A system reduced over `K` ignored (cyclic) coordinates, whose constant momenta are
/// among its parameters: the ignored coordinates follow by quadrature of their velocities.
pub trait ReducedSystem<const N: usize, const K: usize>: LagrangianSystem<N> {
    /// Names of the ignored coordinates.
    fn ignored_names(&self) -> [&str; K];
    /// `χ̇(t, q, q̇)` of the ignored coordinates at a state of the retained ones.
    fn ignored_velocities(
        &self,
        t: f64,
        q: &SVector<f64, N>,
        qd: &SVector<f64, N>,
    ) -> SVector<f64, K>;
}

/// A system whose type fixes its model, as the derive generates: it can be built from
/// parameter values alone.
pub trait FromParameterValues<const N: usize>: LagrangianSystem<N> {
    /// Number of parameters.
    const PARAMETER_COUNT: usize;
    /// Builds the system from parameter values in the order of
    /// [`ModelInfo::parameters`]; errors on a wrong count.
    fn from_parameter_values(values: &[f64]) -> Result<Self, Error>;
}

/// A mechanical system with `N` generalized coordinates whose equations of motion are
/// `M(t, q, q̇) q̈ = f(t, q, q̇)`.
///
/// The derive generates every required item as straight-line code; `accelerations` is
/// provided and solves the linear system numerically (Cholesky, LU fallback).
///
/// What the model declares (names, cyclic coordinates, the conserved integral, the
/// constraints) is one [`ModelInfo`] read through [`info`](Self::info), so that a system
/// known only at run time (the `lagrange` command's interpreter of derived programs) is a
/// system too; the derive also makes it the associated constant `INFO` of the struct.
pub trait LagrangianSystem<const N: usize>: Sized {
    /// What the model declares and what its derivation decided about it.
    fn info(&self) -> &ModelInfo;

    /// Parameter values, in the order of [`ModelInfo::parameters`].
    fn parameter_values(&self) -> Vec<f64>;
    /// The same model with other parameter values, in the order of
    /// [`ModelInfo::parameters`]; errors on a wrong count.
    fn with_parameter_values(&self, values: &[f64]) -> Result<Self, Error>;

    /// The generalized mass matrix `M = ∂²L/∂q̇∂q̇`.
    fn mass_matrix(&self, t: f64, q: &SVector<f64, N>, qd: &SVector<f64, N>) -> SMatrix<f64, N, N>;
    /// The right-hand side `f` of `M q̈ = f` (forces, dissipation and velocity terms included).
    fn forcing(&self, t: f64, q: &SVector<f64, N>, qd: &SVector<f64, N>) -> SVector<f64, N>;
    /// `M` and `f` from one evaluation that shares their common subexpressions.
    fn mass_matrix_and_forcing(
        &self,
        t: f64,
        q: &SVector<f64, N>,
        qd: &SVector<f64, N>,
    ) -> (SMatrix<f64, N, N>, SVector<f64, N>) {
        (self.mass_matrix(t, q, qd), self.forcing(t, q, qd))
    }
    /// The Lagrangian `L(t, q, q̇)`.
    fn lagrangian(&self, t: f64, q: &SVector<f64, N>, qd: &SVector<f64, N>) -> f64;
    /// The energy `T + V` (for a model given by `L` alone: the Jacobi integral).
    fn energy(&self, t: f64, q: &SVector<f64, N>, qd: &SVector<f64, N>) -> f64;
    /// The Jacobi integral `h = Σ q̇ᵢ pᵢ − L`.
    fn jacobi_integral(&self, t: f64, q: &SVector<f64, N>, qd: &SVector<f64, N>) -> f64;
    /// The generalized momenta `p = ∂L/∂q̇`.
    fn momenta(&self, t: f64, q: &SVector<f64, N>, qd: &SVector<f64, N>) -> SVector<f64, N>;
    /// `ṗ = ∂L/∂q + Q − ∂F/∂q̇`: the rate of change of the momenta along the motion.
    fn momentum_rate(&self, t: f64, q: &SVector<f64, N>, qd: &SVector<f64, N>) -> SVector<f64, N>;
    /// `∂p/∂q`: entry `(i, j)` is `∂pᵢ/∂qⱼ`.
    fn momentum_jacobian(
        &self,
        t: f64,
        q: &SVector<f64, N>,
        qd: &SVector<f64, N>,
    ) -> SMatrix<f64, N, N>;
    /// `∂²L/∂q∂q`.
    fn lagrangian_hessian(
        &self,
        t: f64,
        q: &SVector<f64, N>,
        qd: &SVector<f64, N>,
    ) -> SMatrix<f64, N, N>;

    /// The derivatives of the residual `r = M q̈ − f` of Lagrange's equations at
    /// `(t, q, q̇, q̈)`, with `q̈` held fixed (generated symbolically by the derive).
    fn residual_jacobians(
        &self,
        t: f64,
        q: &SVector<f64, N>,
        qd: &SVector<f64, N>,
        qdd: &SVector<f64, N>,
    ) -> ResidualJacobians<N>;

    /// The accelerations of the motion and their exact derivatives with respect to `q`,
    /// `q̇` and the parameters at a state: `∂q̈/∂x = −M⁻¹ ∂r/∂x`, solved numerically (the
    /// constrained motion's, multipliers eliminated, for a constrained system). Valid at
    /// any state, not only at equilibria. Errors as [`accelerations`](Self::accelerations)
    /// does.
    fn acceleration_jacobians(
        &self,
        t: f64,
        q: &SVector<f64, N>,
        qd: &SVector<f64, N>,
    ) -> Result<AccelerationJacobians<N>, Error> {
        let qdd = self.accelerations(t, q, qd)?;
        let m = self.mass_matrix(t, q, qd);
        let r = self.residual_jacobians(t, q, qd, &qdd);
        jacobians::unconstrained(&m, qdd, r, || {
            Error::singular(t, q.as_slice(), qd.as_slice())
        })
    }

    /// The accelerations `q̈` solving `M q̈ = f`.
    ///
    /// Errors when `M` is singular at this state or the result is not finite; the error
    /// carries the state.
    fn accelerations(
        &self,
        t: f64,
        q: &SVector<f64, N>,
        qd: &SVector<f64, N>,
    ) -> Result<SVector<f64, N>, Error> {
        let (m, f) = self.mass_matrix_and_forcing(t, q, qd);
        crate::__private::solve_accelerations(m, f, t, q, qd)
    }

    /// The velocities with momenta `p` at `(t, q)`: the solution of `∂L/∂q̇ (t, q, q̇) = p`
    /// (Thomson & Tait §319, eq. 30), by Newton's method from `q̇ = 0`. For the usual `L`,
    /// quadratic in `q̇`, the first step is exact: `q̇ = M⁻¹ (p − ∂L/∂q̇|_{q̇=0})`, solved
    /// numerically.
    fn velocities(
        &self,
        t: f64,
        q: &SVector<f64, N>,
        p: &SVector<f64, N>,
    ) -> Result<SVector<f64, N>, Error> {
        let mut qd = SVector::zeros();
        for _ in 0..NEWTON_ITERATIONS {
            let residual = self.momenta(t, q, &qd) - p;
            let m = self.mass_matrix(t, q, &qd);
            let step = linalg::solve_mass_matrix(m, residual)
                .ok_or_else(|| Error::singular(t, q.as_slice(), qd.as_slice()))?;
            qd -= step;
            if !qd.iter().all(|x| x.is_finite()) {
                return Err(Error::singular(t, q.as_slice(), qd.as_slice()));
            }
            if step.norm() <= 1e-14 * (1.0 + qd.norm()) {
                return Ok(qd);
            }
        }
        Err(Error::NoConvergence {
            t,
            iterations: NEWTON_ITERATIONS,
        })
    }

    /// Hamilton's function `H(t, q, p)`: the Jacobi integral at the velocities of `p`.
    fn hamiltonian(&self, t: f64, q: &SVector<f64, N>, p: &SVector<f64, N>) -> Result<f64, Error> {
        let qd = self.velocities(t, q, p)?;
        Ok(self.jacobi_integral(t, q, &qd))
    }

    /// The canonical equations `(q̇, ṗ) = (∂H/∂p, −∂H/∂q + Q)` (Thomson & Tait §319,
    /// eq. 35), evaluated as `q̇ = velocities(t, q, p)` and `ṗ = momentum_rate(t, q, q̇)`.
    fn canonical_rhs(
        &self,
        t: f64,
        q: &SVector<f64, N>,
        p: &SVector<f64, N>,
    ) -> Result<(SVector<f64, N>, SVector<f64, N>), Error> {
        let qd = self.velocities(t, q, p)?;
        Ok((qd, self.momentum_rate(t, q, &qd)))
    }

    /// Drift control: the state moved back onto the constraints after an integration step,
    /// or `None` when the system has no constraints (the default).
    #[allow(clippy::type_complexity)]
    fn project(
        &self,
        t: f64,
        q: &SVector<f64, N>,
        qd: &SVector<f64, N>,
    ) -> Result<Option<(SVector<f64, N>, SVector<f64, N>)>, Error> {
        let _ = (t, q, qd);
        Ok(None)
    }

    /// Checks that an initial state is admissible (for constrained systems: consistent
    /// with the constraints); `Ok` by default.
    fn check_initial_state(
        &self,
        t: f64,
        q: &SVector<f64, N>,
        qd: &SVector<f64, N>,
    ) -> Result<(), Error> {
        let _ = (t, q, qd);
        Ok(())
    }

    /// The dynamic functions `P`, `Λ`, `T`, `J`, `I` at a state, for a model whose
    /// masses are all particles and bodies (see [`ModelInfo::theorems`]); `None` (the
    /// default) for any other.
    fn dynamic_functions(
        &self,
        t: f64,
        q: &SVector<f64, N>,
        qd: &SVector<f64, N>,
    ) -> Option<DynamicFunctions> {
        let _ = (t, q, qd);
        None
    }

    /// Where the points of [`ModelInfo::drawing`] are at `(t, q)`: each point's position
    /// in the fixed frame (3 values), then each frame's orientation `R` row-major (9
    /// values); empty (the default) for a model with no drawing.
    fn drawing(&self, t: f64, q: &SVector<f64, N>) -> Vec<f64> {
        let _ = (t, q);
        Vec::new()
    }

    /// For each theorem of [`ModelInfo::theorems`] whose premise holds, in order: the rate
    /// `dΦ/dt` of its function at `(t, q, q̇, q̈)` and the law's right-hand side. Along a
    /// motion the two agree; empty by default.
    fn balance(
        &self,
        t: f64,
        q: &SVector<f64, N>,
        qd: &SVector<f64, N>,
        qdd: &SVector<f64, N>,
    ) -> Vec<(f64, f64)> {
        let _ = (t, q, qd, qdd);
        Vec::new()
    }

    /// The value of the integral [`ModelInfo::conserved`] names, if there is one.
    fn conserved_value(&self, t: f64, q: &SVector<f64, N>, qd: &SVector<f64, N>) -> Option<f64> {
        match self.info().conserved {
            Conserved::Energy => Some(self.energy(t, q, qd)),
            Conserved::JacobiIntegral => Some(self.jacobi_integral(t, q, qd)),
            Conserved::None => None,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::test_systems::{Oscillator, PolarParticle};

    #[test]
    fn each_integral_is_found_again_by_its_name_and_unknown_names_are_not() {
        for conserved in [
            Conserved::Energy,
            Conserved::JacobiIntegral,
            Conserved::None,
        ] {
            assert_eq!(Conserved::from_name(conserved.name()), Some(conserved));
        }
        // The names are those of the methods that compute the integrals.
        assert_eq!(Conserved::Energy.name(), Some("energy"));
        assert_eq!(Conserved::JacobiIntegral.name(), Some("jacobi_integral"));
        assert_eq!(Conserved::from_name(Some("jacobi")), None);
        assert_eq!(Conserved::from_name(Some("")), None);
    }

    #[test]
    fn the_conserved_value_is_the_integral_the_info_names() {
        // ½ m ẋ² + ½ k x² at x = 2, ẋ = 3 with m = 1, k = 4: 4.5 + 8.
        let oscillator = Oscillator { m: 1.0, k: 4.0 };
        let (q, qd) = (SVector::from([2.0]), SVector::from([3.0]));
        assert_eq!(oscillator.info().conserved, Conserved::Energy);
        assert_eq!(oscillator.conserved_value(0.0, &q, &qd), Some(12.5));
        // The polar particle's cyclic φ is named by index into its coordinates.
        let particle = PolarParticle { m: 1.0 };
        let info = particle.info();
        assert_eq!(
            info.cyclic
                .iter()
                .map(|&i| &*info.coordinates[i])
                .collect::<Vec<_>>(),
            ["phi"]
        );
    }
}
