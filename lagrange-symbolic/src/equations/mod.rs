//! The derived equations of motion of a model, as plain data: what code generators and
//! printers consume.

pub mod info;
pub mod layout;
mod print;
mod theorems;

use serde::{Deserialize, Serialize};

use crate::ir::Program;
use crate::syntax::Expr;

pub use info::ModelInfo;
pub use layout::Layout;
pub use theorems::{Axis, Law, Premise, Theorem, Theorems};

/// The input layout shared by every [`Program`] of an [`Equations`]:
/// `[t, q₀ … q_{n−1}, q̇₀ … q̇_{n−1}, p₀ … p_{m−1}]` (p: parameters). The Jacobian
/// programs read more slots after these: the accelerations `q̈₀ … q̈_{n−1}` and then the
/// multipliers `λ₀ … λ_{k−1}` of the constraints ([`Inputs::with_accelerations`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct Inputs {
    /// Number of coordinates `n`.
    pub coordinates: usize,
    /// Number of parameters `m`.
    pub parameters: usize,
}

/// What one input slot holds.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Input {
    /// Time.
    Time,
    /// Coordinate `i`.
    Coordinate(usize),
    /// Velocity `i`.
    Velocity(usize),
    /// Parameter `i`.
    Parameter(usize),
    /// Acceleration `i` (Jacobian programs only).
    Acceleration(usize),
    /// Multiplier `i` of the constraints (constraint Jacobian programs only).
    Multiplier(usize),
}

impl Inputs {
    /// Total number of inputs.
    pub fn len(&self) -> usize {
        1 + 2 * self.coordinates + self.parameters
    }

    /// Whether there are no inputs (never: time is always one).
    pub fn is_empty(&self) -> bool {
        false
    }

    /// Every input, in slot order.
    pub fn all(&self) -> Vec<Input> {
        let n = self.coordinates;
        std::iter::once(Input::Time)
            .chain((0..n).map(Input::Coordinate))
            .chain((0..n).map(Input::Velocity))
            .chain((0..self.parameters).map(Input::Parameter))
            .collect()
    }

    /// Number of inputs of the Jacobian programs: these, the accelerations and
    /// `multipliers` multipliers.
    pub fn with_accelerations(&self, multipliers: usize) -> usize {
        self.len() + self.coordinates + multipliers
    }

    /// The lengths of the layout's parts in slot order: time, the coordinates, the
    /// velocities, the parameters, the accelerations and `multipliers` multipliers (the
    /// slices a caller may hand compiled code, `ir::jit::Compiled::with_pieces`).
    pub fn parts(&self, multipliers: usize) -> [usize; 6] {
        let n = self.coordinates;
        [1, n, n, self.parameters, n, multipliers]
    }

    /// What slot `index` holds; slots after [`len`](Self::len) are accelerations, then
    /// multipliers.
    pub fn get(&self, index: usize) -> Input {
        let (base, n) = (self.len(), self.coordinates);
        match index {
            i if i >= base + n => Input::Multiplier(i - base - n),
            i if i >= base => Input::Acceleration(i - base),
            i => self.all()[i],
        }
    }
}

pub use lagrange_common::Conserved;

/// The straight-line programs of a model; all read [`Inputs`].
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Programs {
    /// `M` row-major (`n²` outputs) followed by `f` (`n` outputs), sharing subexpressions.
    pub dynamics: Program,
    /// `L` (one output).
    pub lagrangian: Program,
    /// `T + V`, or the Jacobi integral for a model given by `L` (one output).
    pub energy: Program,
    /// The Jacobi integral (one output).
    pub jacobi_integral: Program,
    /// `p = ∂L/∂q̇` (`n` outputs).
    pub momenta: Program,
    /// `ṗ = ∂L/∂q + Q − ∂F/∂q̇` (`n` outputs): the right-hand side of the canonical
    /// equations, as a function of `(t, q, q̇)`.
    pub momentum_rate: Program,
    /// `∂p/∂q` row-major (`n²` outputs: `∂pᵢ/∂qⱼ`).
    pub momentum_jacobian: Program,
    /// `∂²L/∂q∂q` row-major (`n²` outputs).
    pub lagrangian_hessian: Program,
    /// The derivatives of the residual `r = M q̈ − f` with `q̈` held fixed, over the
    /// inputs followed by the accelerations: `∂r/∂q`, `∂r/∂q̇` (`n²` outputs each) and
    /// `∂r/∂p` (`n·m`), each row-major (`∂rᵢ/∂xⱼ` at `i·cols + j`).
    pub residual_jacobians: Program,
    /// Inverse dynamics: the residual `r = M q̈ − f` itself (`n` outputs), over the
    /// inputs followed by the accelerations. A traced tree's is the recursive
    /// Newton–Euler algorithm (`O(n)`), any other model's `M q̈ − f` from `dynamics`.
    pub inverse_dynamics: Program,
}

/// The derived quantities as expression trees, for printing.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Symbolic {
    /// `L`.
    pub lagrangian: Expr,
    /// `M[i][j]`.
    pub mass_matrix: Vec<Vec<Expr>>,
    /// `f[i]`.
    pub forcing: Vec<Expr>,
    /// `p[i]`.
    pub momenta: Vec<Expr>,
    /// `T + V`, or the Jacobi integral for a model given by `L`.
    pub energy: Expr,
    /// The Jacobi integral.
    pub jacobi_integral: Expr,
    /// The parts of `T` (or of `L` when the model gives `L`) of degree 2, 1 and 0 in the
    /// velocities (Thomson & Tait §318: T = T₂ + T₁ + T₀); `None` when the mass matrix
    /// depends on the velocities (then it is not a quadratic polynomial in them).
    pub velocity_split: Option<[Expr; 3]>,
    /// The linearized equations, when they are small enough to print.
    pub linearization: Option<Linearized>,
}

/// The equations linearized about any motion `(t, q, q̇, q̈)`:
/// `M δq̈ + C δq̇ + K δq = B δu` with `K = ∂r/∂q`, `C = ∂r/∂q̇` and `B = ∂f/∂u` of the
/// residual `r = M q̈ − f` (so `K` contains `q̈` where `M` depends on `q`). Expressions of
/// `t`, `q`, `q̇` and `q̈`; evaluated at an equilibrium (`q̇ = q̈ = 0`) they are the
/// textbook's stiffness, gyroscopic-and-damping and input matrices.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Linearized {
    /// `K`, row by row.
    pub coordinates: Vec<Vec<Expr>>,
    /// `C`, row by row.
    pub velocities: Vec<Vec<Expr>>,
    /// `B`, row by row, one column per input.
    pub inputs: Vec<Vec<Expr>>,
}

/// Everything derived from one model: its equations and, when it ignores coordinates,
/// the reduced system.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Derived {
    /// The equations in all coordinates.
    pub full: Equations,
    /// Routh's reduction over the ignored coordinates, if the model asks for it.
    pub reduced: Option<Reduced>,
}

/// The system reduced over ignored (cyclic) coordinates χ with constant momenta `C`
/// (Thomson & Tait §319, Example G).
///
/// Its Lagrangian is the Routhian `R = L − Σ C χ̇` with `χ̇` eliminated through
/// `∂L/∂χ̇ = C`; its parameters are the model's followed by the momenta `C`, and its
/// energy is the Jacobi integral of `R`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Reduced {
    /// The equations in the retained coordinates.
    pub equations: Equations,
    /// Names of the ignored coordinates.
    pub ignored: Vec<String>,
    /// Indices of the retained coordinates in the full system.
    pub retained: Vec<usize>,
    /// Indices of the ignored coordinates in the full system.
    pub ignored_indices: Vec<usize>,
    /// `χ̇(t, q, q̇, C)` for the quadrature of the ignored coordinates (Thomson & Tait
    /// Example G, eq. 7), over the reduced system's [`Inputs`].
    pub ignored_velocities: Program,
    /// The Routhian.
    pub routhian: Expr,
}

/// The constraints of a model, as programs over its [`Inputs`]: the holonomic ones
/// `G(t, q) = 0`, then the last [`on_velocities`](Self::on_velocities) rows, velocity
/// constraints `e = a(t, q)·q̇ + b(t, q) = 0`, whose `G` is 0, `J` is `a`, `∂G/∂t` is `b`
/// and `Ġ` is `e`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ConstraintEquations {
    /// Each `Gᵢ` (or `eᵢ`) as text.
    pub text: Vec<String>,
    /// How many of the constraints, the last ones, are on the velocities (not written when
    /// 0, so that entries stored before velocity constraints existed keep their hash).
    #[serde(default, skip_serializing_if = "is_zero")]
    pub on_velocities: usize,
    /// What the last of them are, when a body's `rolls` derived them rather than the
    /// model writing them ("the rolling of body `wheel` along x"); not written when there
    /// are none, as `on_velocities`.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub rolling: Vec<String>,
    /// Per constraint, whether `∂Gᵢ/∂t ≡ 0` could be established symbolically (the
    /// presentation is time-independent, so the constraint is scleronomic). `false` means
    /// the presentation depends on time; the locus itself may still be fixed (e.g.
    /// `ρ(t) G(q)`), which a symbolic test of `Gᵢ` cannot decide.
    pub scleronomic: Vec<bool>,
    /// `G` (`k` outputs).
    pub values: Program,
    /// `J = ∂G/∂q` row-major (`k·n` outputs).
    pub jacobian: Program,
    /// `∂G/∂t` (`k` outputs).
    pub time_derivative: Program,
    /// `Ġ = J q̇ + ∂G/∂t` (`k` outputs).
    pub velocities: Program,
    /// `J` row-major followed by the bias `c` of `G̈ = J q̈ + c` (`k·n + k` outputs).
    pub dynamics: Program,
    /// The derivatives of `s = J q̈ + c` and of the reaction `Jᵀλ`, over the inputs
    /// followed by the accelerations and the multipliers: `∂s/∂q`, `∂s/∂q̇` (`k·n` outputs
    /// each), `∂s/∂p` (`k·m`), `∂(Jᵀλ)/∂q` (`n²`), `∂(Jᵀλ)/∂p` (`n·m`), each row-major.
    pub jacobians: Program,
}

/// Whether a count is 0 (a field left out of the stored form).
fn is_zero(n: &usize) -> bool {
    *n == 0
}

/// The wrenches the joints of a model's kinematic tree transmit to their bodies, by the
/// Newton–Euler equations summed from the leaves (inertia and the gravity field only).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct JointWrenches {
    /// The jointed bodies, in the model's order.
    pub bodies: Vec<String>,
    /// Per body, the force and then the moment about its joint's origin, fixed frame
    /// (`6` outputs each), over the [`Inputs`] followed by the accelerations.
    pub program: Program,
}

pub use lagrange_common::PointKind;

/// A point of a [`Drawing`].
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct DrawnPoint {
    /// The name: the particle's, the body's, `body.joint`, or the drawn point's.
    pub name: String,
    /// What the point is.
    pub kind: PointKind,
}

/// What the animation of a report draws: points, the lines between them and the bodies'
/// frames, with the program that places them.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Drawing {
    /// The points: the particles, the bodies, the joints of jointed bodies, then the
    /// model's drawn points.
    pub points: Vec<DrawnPoint>,
    /// Lines, as indices into `points`; `None` is the origin of the fixed frame.
    pub links: Vec<(usize, Option<usize>)>,
    /// The points that carry a body's frame, in the order of the program's orientations.
    pub frames: Vec<usize>,
    /// Every point's position in the fixed frame (3 outputs each), then every frame's
    /// orientation `R` row-major (9 each), over the [`Inputs`].
    pub program: Program,
}

/// The equations of motion `M(t, q, q̇) q̈ = f(t, q, q̇)` of a model, with its integrals.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Equations {
    /// The model's name.
    pub name: String,
    /// Coordinates, in order.
    pub coordinates: Vec<String>,
    /// Parameters, in order.
    pub parameters: Vec<String>,
    /// Whether the model was given by `T` and `V` (else by `L`).
    pub from_kinetic_potential: bool,
    /// Whether a generalized force or dissipation acts, or an input occurs (then no
    /// energy-like integral is conserved, and the structure-preserving integrators do not
    /// apply).
    pub forced_or_dissipative: bool,
    /// Indices into `parameters` of the inputs (signals a controller sets).
    pub inputs: Vec<usize>,
    /// Whether `L`, a force, the dissipation or a constraint depends explicitly on `t`.
    pub explicit_time: bool,
    /// Coordinates `i` with `∂L/∂qᵢ ≡ 0`, no force or dissipation acting on them and no
    /// constraint involving them: `pᵢ` is conserved.
    pub cyclic: Vec<usize>,
    /// The conserved scalar integral.
    pub conserved: Conserved,
    /// Evaluators.
    pub programs: Programs,
    /// Whether `programs.dynamics` comes from a kinematic tree's composite-rigid-body and
    /// recursive Newton–Euler algorithms (traced into code) rather than from the symbolic
    /// `M` and `f` that `symbolic` prints.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub dynamics_by_recursion: bool,
    /// The constraints, holonomic and on the velocities, if the model has any.
    pub constraints: Option<ConstraintEquations>,
    /// The wrenches the joints of a kinematic tree transmit, if the model has jointed
    /// bodies (the full system only).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub joint_wrenches: Option<JointWrenches>,
    /// The general theorems of dynamics, for a model whose masses are all particles and
    /// bodies (the full system only).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub theorems: Option<Theorems>,
    /// The model's formulas as written, `(name, expression)` (`T`, `V` or `L`, forces,
    /// dissipation, constraints), and the Routhian `R` where there is one; a reduced
    /// system's is its Routhian. Printed by [`printed_formulas`](Self::printed_formulas).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub formulas: Vec<(String, Expr)>,
    /// What a report draws, for a model with particles, bodies or drawn points (the full
    /// system only).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub drawing: Option<Drawing>,
    /// Expression trees; `None` for a kinematic tree too deep or too large to expand (its programs are
    /// traced from the recursions alone).
    pub symbolic: Option<Symbolic>,
}

impl Equations {
    /// The input layout of the programs.
    pub fn inputs(&self) -> Inputs {
        Inputs {
            coordinates: self.coordinates.len(),
            parameters: self.parameters.len(),
        }
    }

    /// The slot a leaf of an expression of this system reads: `t`, a coordinate, its
    /// velocity or a parameter in the [`Inputs`] layout, an acceleration after them (as
    /// [`Inputs::with_accelerations`] lays them out).
    pub fn slot(&self, leaf: &Expr) -> Option<usize> {
        let (n, m) = (self.coordinates.len(), self.parameters.len());
        let coordinate = |q: &String| self.coordinates.iter().position(|c| c == q);
        match leaf {
            Expr::Name(x) if x == crate::syntax::TIME => Some(0),
            Expr::Name(x) => coordinate(x).map(|i| 1 + i).or_else(|| {
                self.parameters
                    .iter()
                    .position(|p| p == x)
                    .map(|k| 1 + 2 * n + k)
            }),
            Expr::Velocity(q) => coordinate(q).map(|i| 1 + n + i),
            Expr::Acceleration(q) => coordinate(q).map(|i| 1 + 2 * n + m + i),
            _ => None,
        }
    }

    /// `exprs` (of `t`, the coordinates, their derivatives and the parameters) as one
    /// program over the inputs followed by the accelerations, lowered without the engine
    /// ([`crate::ir::lower`]). The error is the first leaf that names none of them.
    pub fn lower(&self, exprs: &[Expr]) -> Result<Program, Expr> {
        let inputs = self.inputs().with_accelerations(0);
        crate::ir::lower::program(exprs, inputs, &|leaf| self.slot(leaf))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The parts are the slots `get` names, in order: each part's slots hold its kind.
    #[test]
    fn the_parts_are_the_slots_in_order() {
        let inputs = Inputs {
            coordinates: 3,
            parameters: 2,
        };
        let parts = inputs.parts(4);
        assert_eq!(parts.iter().sum::<usize>(), inputs.with_accelerations(4));
        let mut slot = 0;
        for (part, &length) in parts.iter().enumerate() {
            for i in 0..length {
                let expected = match part {
                    0 => Input::Time,
                    1 => Input::Coordinate(i),
                    2 => Input::Velocity(i),
                    3 => Input::Parameter(i),
                    4 => Input::Acceleration(i),
                    _ => Input::Multiplier(i),
                };
                assert_eq!(inputs.get(slot), expected, "slot {slot}");
                slot += 1;
            }
        }
    }
}
