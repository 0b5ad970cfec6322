//! What a model declares and what its derivation decided about it, as the runtime reads
//! it: [`ModelInfo`], plain data that the derive writes as a constant and a model loaded at
//! run time owns. The engine computes it from derived equations, once, for both.

use std::borrow::Cow;

use crate::{Conserved, PointKind, Theorem};

/// Text that generated code borrows for `'static` and a system built at run time owns.
pub type Text = Cow<'static, str>;

/// What a model declares and what its derivation decided about it: plain data, a constant
/// (`INFO`) of every struct that derives `Lagrangian`, and what
/// the runtime's `LagrangianSystem::info` returns.
#[derive(Debug, Clone, PartialEq)]
pub struct ModelInfo {
    /// The model's name (the struct's).
    pub name: Text,
    /// Names of the generalized coordinates, in the order of `q`.
    pub coordinates: Cow<'static, [Text]>,
    /// Names of the parameters (the struct's fields), in the order of
    /// `LagrangianSystem::parameter_values`.
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
    /// What a report's animation draws (placed by the runtime's `LagrangianSystem::drawing`); `None` for a
    /// model with no particle, body or drawn point.
    pub drawing: Option<Drawing>,
    /// The holonomic constraints (the runtime's `ConstrainedSystem`).
    pub constraints: Cow<'static, [ConstraintInfo]>,
    /// Indices into [`parameters`](Self::parameters) of the model's inputs: the parameters
    /// a controller sets while the system moves (`inputs(u, …)`).
    pub inputs: Cow<'static, [usize]>,
    /// The general theorems of dynamics, for a model whose masses are all particles and
    /// bodies (empty for any other): the nine in the order momentum x, y, z, angular
    /// momentum x, y, z, kinetic energy, virial, moment of inertia.
    pub theorems: Cow<'static, [TheoremInfo]>,
    /// The shape of the mass matrix `M` that the derivation proves, for its factorization
    /// without fill-in (the `Lᵀ D L` of a kinematic tree): entry `i` is the nearest earlier
    /// coordinate `j` with `M_ij` not identically zero (`None` when there is none), and
    /// every entry of row `i` that is not identically zero lies on the chain
    /// `i, λ(i), λ(λ(i)), …`. Empty when `M` has no such shape (it is factorized dense),
    /// and for a model with constraints (the constrained motion is solved dense).
    /// The runtime checks the shape at each factorization and factorizes an `M` without
    /// it dense.
    pub mass_matrix_tree: Cow<'static, [Option<usize>]>,
    /// The groups of functions the derive left out (`#[lagrangian(omit(…))]`): none for
    /// a model loaded at run time.
    pub omitted: Omitted,
}

/// Groups of generated functions a derived model can leave out, with
/// `#[lagrangian(omit(variational, derivatives))]`, so that its crate builds faster. The
/// runtime's functions that need a group return an error naming it; calling a left-out
/// function itself panics with that message.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Omitted {
    /// `momentum_rate`, `momentum_jacobian` and `lagrangian_hessian` (`ṗ`, `∂p/∂q`,
    /// `∂²L/∂q²`): what the variational and symplectic integrators, Hamilton's canonical
    /// equations and the action's functions use.
    pub variational: bool,
    /// `residual_jacobians` (`∂r/∂q`, `∂r/∂q̇`, `∂r/∂p`; for a constrained model also
    /// `constraint_jacobians`): what the derivatives of the motion use
    /// (`acceleration_jacobians`), hence linearization, modes, equilibria and LQR.
    pub derivatives: bool,
}

impl Omitted {
    /// Nothing left out.
    pub const NONE: Omitted = Omitted {
        variational: false,
        derivatives: false,
    };

    /// The message of a use of the left-out group `group` (`variational` or
    /// `derivatives`) by `user`, for the model `model`.
    pub fn message(model: &str, group: &str, user: &str) -> String {
        format!(
            "{user}: `{model}` was derived with omit({group}), without what this uses; remove `{group}` from its #[lagrangian(omit(...))]"
        )
    }
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

/// One constraint of a [`ModelInfo`]: holonomic, `G(t, q) = 0`, or on the velocities,
/// `a(t, q)·q̇ + b(t, q) = 0`.
#[derive(Debug, Clone, PartialEq)]
pub struct ConstraintInfo {
    /// `G` (or `a·q̇ + b`) as text.
    pub text: Text,
    /// `true` when `∂G/∂t ≡ 0` was established symbolically, so the constraint is
    /// scleronomic (on the velocities: `b ≡ 0` and no `t` in `a`, so its reaction does no
    /// work). `false` means its presentation depends on time, which is necessary but not
    /// sufficient for a moving locus: `ρ(t) G(q)` describes a fixed locus.
    pub scleronomic: bool,
    /// Whether the constraint is on the velocities (nonholonomic as written, as rolling
    /// without slipping is): it has no `G`, and a projection keeps it only in `q̇`.
    pub on_velocities: bool,
}

/// A theorem as it applies to one model.
#[derive(Debug, Clone, PartialEq)]
pub struct TheoremInfo {
    /// Which theorem.
    pub theorem: Theorem,
    /// Whether its premise holds: the derivation exhibited the symmetry.
    pub holds: bool,
    /// The symmetry found (its generator), or why none was established.
    pub why: Text,
    /// Whether the theorem gives a first integral (see [`Theorem::integral_name`]).
    pub integral: bool,
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
/// The runtime's `LagrangianSystem::drawing` places them.
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
