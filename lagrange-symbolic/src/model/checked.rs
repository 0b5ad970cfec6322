//! The checked form of a model: expressions parsed, names resolved.

use super::Axis;
use crate::syntax::Expr;

/// A 3×3 matrix of expressions.
pub type Matrix3 = [[Expr; 3]; 3];

/// A validated model: expressions parsed, names resolved.
#[derive(Debug, Clone, PartialEq)]
pub struct CheckedModel {
    /// The model's name.
    pub name: String,
    /// Generalized coordinates, in order.
    pub coordinates: Vec<String>,
    /// Parameters, in order.
    pub parameters: Vec<String>,
    /// Indices into `parameters` of the inputs, in the order declared.
    pub inputs: Vec<usize>,
    /// How the Lagrangian is given.
    pub energy: Energy,
    /// Generalized force on each coordinate (`None`: no force), indexed like `coordinates`.
    pub forces: Vec<Option<Expr>>,
    /// Rayleigh dissipation function.
    pub dissipation: Option<Expr>,
    /// The uniform gravitational field, in the fixed frame.
    pub gravity: Option<[Expr; 3]>,
    /// Indices of the coordinates to ignore (Routh's reduction), in the order given.
    pub ignored: Vec<usize>,
    /// Holonomic constraints `G(t, q) = 0`.
    pub constraints: Vec<Expr>,
    /// Velocity constraints `a(t, q)·q̇ + b(t, q) = 0` (their left sides), numbered after
    /// the holonomic ones.
    pub velocity_constraints: Vec<Expr>,
    /// Point masses.
    pub particles: Vec<CheckedParticle>,
    /// Rigid bodies.
    pub bodies: Vec<CheckedBody>,
    /// What a report draws besides the particles and bodies.
    pub drawing: Vec<CheckedDraw>,
}

impl CheckedModel {
    /// The model's formulas as written, `(name, expression)`: `T` and `V` (or `L`), each
    /// generalized force `Q_q`, the dissipation function `F` and each constraint `Gk`
    /// (the velocity constraints numbered after the holonomic ones), skipping what is zero
    /// or absent.
    pub fn formulas(&self) -> Vec<(String, Expr)> {
        let mut formulas = Vec::new();
        match &self.energy {
            Energy::KineticPotential { kinetic, potential } => {
                for (name, e) in [("T", kinetic), ("V", potential)] {
                    if !e.is_zero() {
                        formulas.push((name.to_string(), e.clone()));
                    }
                }
            }
            Energy::Lagrangian(l) => formulas.push(("L".into(), l.clone())),
        }
        for (q, force) in self.coordinates.iter().zip(&self.forces) {
            if let Some(f) = force {
                formulas.push((format!("Q_{q}"), f.clone()));
            }
        }
        if let Some(f) = &self.dissipation {
            formulas.push(("F".into(), f.clone()));
        }
        for (k, g) in self
            .constraints
            .iter()
            .chain(&self.velocity_constraints)
            .enumerate()
        {
            formulas.push((format!("G{}", k + 1), g.clone()));
        }
        formulas
    }
}

/// A checked point mass.
#[derive(Debug, Clone, PartialEq)]
pub struct CheckedParticle {
    /// The name.
    pub name: String,
    /// The mass.
    pub mass: Expr,
    /// The position: 2 (plane) or 3 components.
    pub position: Vec<Expr>,
}

/// A checked drawing entry: every name it uses is a particle, a body, a drawn point or
/// [`ORIGIN`](super::ORIGIN).
#[derive(Debug, Clone, PartialEq)]
pub struct CheckedDraw {
    /// The point's name.
    pub point: String,
    /// A new point's position (`None`: the point is a particle or body).
    pub at: Option<[Expr; 3]>,
    /// The point a line goes to.
    pub link: Option<String>,
}

/// The parametrization of a checked body's rotation.
#[derive(Debug, Clone, PartialEq)]
pub enum Orientation {
    /// An explicit matrix.
    Matrix(Box<Matrix3>),
    /// A rotation about a fixed axis through the angle.
    About(Axis, Expr),
    /// z-x-z Euler angles.
    EulerZxz([Expr; 3]),
    /// The product of rotations about coordinate axes through the angles, in order.
    Product(Vec<(Axis, Expr)>),
}

/// A checked rigid body, everything as expressions.
#[derive(Debug, Clone, PartialEq)]
pub struct CheckedBody {
    /// The name, for messages.
    pub name: String,
    /// The mass.
    pub mass: Expr,
    /// The inertia tensor about the centre of mass, body frame.
    pub inertia: Matrix3,
    /// Where the body is.
    pub placement: Placement,
    /// The radius of the wheel about its z axis that rolls on the plane `z = 0`, if any.
    pub rolls: Option<Expr>,
}

/// How a checked body is placed.
#[derive(Debug, Clone, PartialEq)]
pub enum Placement {
    /// By its orientation and the position of its centre of mass.
    Given {
        /// The orientation (rotation body frame → fixed frame), as it was given: the
        /// angular velocity has a closed form for the named ones.
        orientation: Orientation,
        /// The centre of mass (also the body's frame origin, for its children).
        position: [Expr; 3],
    },
    /// By a joint to a parent body (an earlier body, `None` for the fixed frame).
    Jointed {
        /// Index of the parent among the bodies.
        parent: Option<usize>,
        /// The joint's motion.
        joint: Box<CheckedJoint>,
        /// The joint's position in the parent's frame.
        origin: [Expr; 3],
        /// The joint frame's roll, pitch and yaw in the parent's frame.
        rpy: [Expr; 3],
        /// The centre of mass in the body's frame.
        com: [Expr; 3],
    },
}

/// A checked joint: the coordinate it moves by (an index) and its unit axis.
#[derive(Debug, Clone, PartialEq)]
pub enum CheckedJoint {
    /// Rotation about the axis through the coordinate.
    Revolute(usize, [Expr; 3]),
    /// Translation along the axis by the coordinate.
    Prismatic(usize, [Expr; 3]),
    /// Rigidly attached.
    Fixed,
    /// The rotation `R_z R_y R_x` through the three coordinates.
    Spherical([usize; 3]),
    /// The translation by the first three coordinates in the joint's frame, then the
    /// rotation of a spherical joint through the last three.
    Free([usize; 6]),
}

impl CheckedJoint {
    /// How many coordinates the joint moves: 1 for a revolute or prismatic joint, 0 for a
    /// fixed one, 3 for a spherical one, 6 for a free one (a body's depth in a tree counts
    /// them).
    pub fn coordinate_count(&self) -> usize {
        match self {
            CheckedJoint::Revolute(..) | CheckedJoint::Prismatic(..) => 1,
            CheckedJoint::Fixed => 0,
            CheckedJoint::Spherical(_) => 3,
            CheckedJoint::Free(_) => 6,
        }
    }
}

/// The Lagrangian of a checked model.
#[derive(Debug, Clone, PartialEq)]
pub enum Energy {
    /// `L = T − V`.
    KineticPotential {
        /// `T`.
        kinetic: Expr,
        /// `V` (zero when not given).
        potential: Expr,
    },
    /// `L` given directly.
    Lagrangian(Expr),
}
