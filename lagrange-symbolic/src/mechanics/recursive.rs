//! The mass matrix and forcing of a kinematic tree by the recursive algorithms of robot
//! dynamics, traced into straight-line code ([`crate::ir::trace`]) instead of expanded
//! symbolically: `M` by the composite-rigid-body algorithm and the bias forces by the
//! recursive Newton–Euler algorithm (Featherstone, *Rigid Body Dynamics Algorithms*,
//! 2008, §§5.3 and 6.2; Luh, Walker & Paul 1980), both in the links' own frames.
//!
//! The expanded Lagrangian of a tree grows about fourfold per link of a chain (each
//! composed rotation repeats its parent's entries); these recursions cost `O(n)` (bias)
//! and `O(n·depth)` (`M`), with every zero of the model's axes, offsets and inertias
//! folded away while tracing. They are an independent derivation of the same
//! `M q̈ = f`, which the tests compare with the symbolic one. A tree deeper than
//! [`EXPANDED_TREE_DEPTH`] is not expanded at all: [`equations`] traces every program.
//!
//! The same forward and backward passes give the wrench each joint transmits, what an
//! engineer sizing a bearing needs ([`joint_wrenches`]).
//!
//! A tree is traced when every body is jointed, the model has no particles and no written
//! kinetic energy, and every datum (masses, inertias, offsets, axes, gravity) is a
//! number or an expression of parameters. A written potential, forces and dissipation
//! are differentiated symbolically and added to `f`.

use super::System;
use super::rotation;
use crate::cas::{Session, Sym, Var};
use crate::equations::{Conserved, Equations, Programs};
use crate::ir::trace::{Tracer, Value};
use crate::ir::{Intrinsic, Program, Slot};
use crate::model::{CheckedJoint, CheckedModel, Energy, Matrix3, Placement};
use crate::syntax::{Expr, Func, PI, TIME};

type V3 = [Value; 3];
type M3 = [[Value; 3]; 3];

/// How a link moves relative to its parent frame.
#[derive(Clone, Copy)]
enum Motion {
    /// About the unit axis (link frame) through coordinate `q`.
    Revolute(usize, V3),
    /// Along the unit axis (link frame) by coordinate `q`.
    Prismatic(usize, V3),
    /// Not at all.
    Fixed,
}

/// One degree of freedom of the tree (a spherical joint is three of them, a free joint
/// six): the frame it moves, placed in its parent's frame.
struct Link {
    parent: Option<usize>,
    /// The joint frame's orientation in the parent frame (before the motion).
    rotation: M3,
    /// The joint frame's origin in the parent frame.
    offset: V3,
    motion: Motion,
}

/// A body's mass data in the frame of the link that carries it.
struct Inertial {
    link: usize,
    mass: Value,
    /// The centre of mass.
    com: V3,
    /// The inertia tensor about the centre of mass.
    inertia: M3,
}

/// What the recursions need at a configuration: each link's rotation to its parent frame
/// `E` (link → parent) and its origin `r` in the parent frame.
struct Placed {
    e: Vec<M3>,
    r: Vec<V3>,
}

/// A tree's programs, traced.
pub(crate) struct Traced {
    /// `M` row-major, then `f`, over the [`Inputs`](crate::equations::Inputs) layout.
    pub dynamics: Program,
    /// `∂r/∂q`, `∂r/∂q̇`, `∂r/∂p` of the residual `r = M q̈ − f`, row-major one after the
    /// other, over the inputs followed by the accelerations (as the symbolic route's).
    pub residual_jacobians: Program,
}

/// The traced programs of a tree model, or `None` when the model is not one this module
/// traces.
pub(crate) fn dynamics(
    s: &Session,
    model: &CheckedModel,
    system: &System,
) -> Result<Option<Traced>, String> {
    let Energy::KineticPotential { kinetic, .. } = &model.energy else {
        return Ok(None);
    };
    let all_jointed = model
        .bodies
        .iter()
        .all(|b| matches!(b.placement, Placement::Jointed { .. }));
    if !kinetic.is_zero() || !model.particles.is_empty() || model.bodies.is_empty() || !all_jointed
    {
        return Ok(None);
    }
    let n = model.coordinates.len();
    let inputs = system.inputs().len();

    // M by the composite bodies; f = −(C q̇ + g) + the written terms.
    let Some(dynamics) = program(s, model, system, inputs, &|t, tree, q, qd| {
        let placed = place(t, &tree.links, q);
        let mass = composite_mass_matrix(t, &tree.links, &tree.inertials, &placed, n);
        let bias = newton_euler(t, tree, &placed, qd, &vec![Value::ZERO; n]).tau;
        let forcing: Vec<Value> = bias
            .into_iter()
            .zip(&tree.extra)
            .map(|(b, &extra)| t.sub(extra, b))
            .collect();
        mass.into_iter().flatten().chain(forcing).collect()
    })?
    else {
        return Ok(None);
    };
    // r = τ(q, q̇, q̈) − the written terms (the accelerations read after the layout).
    let Some(residual) = program(s, model, system, inputs + n, &|t, tree, q, qd| {
        let qdd: Vec<Value> = (0..n).map(|i| t.input(inputs + i)).collect();
        let placed = place(t, &tree.links, q);
        let tau = newton_euler(t, tree, &placed, qd, &qdd).tau;
        tau.into_iter()
            .zip(&tree.extra)
            .map(|(tau, &extra)| t.sub(tau, extra))
            .collect()
    })?
    else {
        return Ok(None);
    };
    // Directions: the coordinates, the velocities, the parameters (inputs 1 … inputs−1).
    let blocks = [
        (1..=n).collect(),
        (1 + n..=2 * n).collect(),
        (1 + 2 * n..inputs).collect(),
    ];
    Ok(Some(Traced {
        dynamics,
        residual_jacobians: derivatives(&residual, &blocks).0,
    }))
}

/// The derivatives of `program`'s outputs along its inputs, by forward mode: for each
/// block of input indices, row-major (one row per output, one column per input of the
/// block). Also the derivative values, to see which folded to a known 0.
fn derivatives(program: &Program, blocks: &[Vec<usize>]) -> (Program, Vec<Value>) {
    let mut t = Tracer::new(program.inputs);
    let values: Vec<Value> = (0..program.inputs).map(|i| t.input(i)).collect();
    let directions: Vec<usize> = blocks.iter().flatten().copied().collect();
    let seeds: Vec<Vec<Value>> = (0..program.inputs)
        .map(|i| {
            directions
                .iter()
                .map(|&k| if i == k { Value::ONE } else { Value::ZERO })
                .collect()
        })
        .collect();
    let derived = t.differentiate(program, &values, &seeds);
    let mut outputs = Vec::new();
    let mut start = 0;
    for block in blocks {
        for (_, tangents) in &derived {
            outputs.extend_from_slice(&tangents[start..start + block.len()]);
        }
        start += block.len();
    }
    (t.finish(&outputs), outputs)
}

/// Trees at most this many degrees of freedom deep also get the symbolic route's
/// expanded equations (to print, and to derive `M` and `f` a second way). Deeper ones are
/// derived by the recursions alone: the expanded expressions of a chain grow about
/// fourfold per link (a planar chain of 6 links derives in 7 s in a debug build, of 8 in
/// 100 s).
pub const EXPANDED_TREE_DEPTH: usize = 6;

/// Whether `model` is a tree deeper than [`EXPANDED_TREE_DEPTH`] that
/// [`equations`] derives without expanding (when its data lower).
pub(crate) fn too_deep_to_expand(model: &CheckedModel) -> bool {
    let mut depth: Vec<usize> = Vec::with_capacity(model.bodies.len());
    for body in &model.bodies {
        let Placement::Jointed { parent, joint, .. } = &body.placement else {
            return false;
        };
        let own = match &**joint {
            CheckedJoint::Revolute(..) | CheckedJoint::Prismatic(..) => 1,
            CheckedJoint::Fixed => 0,
            CheckedJoint::Spherical(_) => 3,
            CheckedJoint::Free(_) => 6,
        };
        depth.push(own + parent.map_or(0, |p| depth[p]));
    }
    model.ignored.is_empty() && depth.into_iter().max().unwrap_or(0) > EXPANDED_TREE_DEPTH
}

/// The equations of a tree from its recursions alone, every program traced: `L`, the
/// energy and the momenta from the links' velocities and positions, `ṗ`, `∂p/∂q` and
/// `∂²L/∂q²` by forward-mode differentiation, nothing printed. `None` when the model is
/// not a tree whose data and written terms lower, or its written potential depends on
/// the velocities (then `T + V` would not be the energy).
pub(crate) fn equations(
    s: &Session,
    model: &CheckedModel,
    system: &System,
) -> Result<Option<Equations>, String> {
    let Energy::KineticPotential { potential, .. } = &model.energy else {
        return Ok(None);
    };
    let n = model.coordinates.len();
    let written_potential = s.expr(potential)?;
    if (0..n).any(|i| written_potential.contains(Var::Velocity(i))) {
        return Ok(None);
    }
    let Some(traced) = dynamics(s, model, system)? else {
        return Ok(None);
    };
    let inputs = system.inputs().len();
    let q_block: Vec<usize> = (1..=n).collect();

    // L, T + V and p = M q̇.
    let trace = |build: Build<'_>| {
        program(s, model, system, inputs, build)?
            .ok_or_else(|| "the tree lowered once only".to_string())
    };
    let lagrangian = trace(&|t, tree, q, qd| {
        let placed = place(t, &tree.links, q);
        let (kinetic, gravity) = energies(t, tree, &placed, qd);
        let v = t.add(gravity, tree.potential);
        vec![t.sub(kinetic, v)]
    })?;
    let energy = trace(&|t, tree, q, qd| {
        let placed = place(t, &tree.links, q);
        let (kinetic, gravity) = energies(t, tree, &placed, qd);
        let v = t.add(gravity, tree.potential);
        vec![t.add(kinetic, v)]
    })?;
    let momenta = trace(&|t, tree, q, qd| {
        let placed = place(t, &tree.links, q);
        let m = composite_mass_matrix(t, &tree.links, &tree.inertials, &placed, n);
        m.iter()
            .map(|row| {
                let terms: Vec<Value> = row.iter().zip(qd).map(|(&a, &b)| t.mul(a, b)).collect();
                t.sum(terms)
            })
            .collect()
    })?;
    // ∂L/∂q, then ṗ = ∂L/∂q + Q − ∂F/∂q̇ and ∂²L/∂q².
    let (gradient, gradient_values) = derivatives(&lagrangian, std::slice::from_ref(&q_block));
    let momentum_rate = trace(&|t, tree, _, _| {
        let values: Vec<Value> = (0..inputs).map(|i| t.input(i)).collect();
        let spliced = splice(t, &gradient, &values);
        spliced
            .into_iter()
            .zip(&tree.applied)
            .map(|(g, &a)| t.add(g, a))
            .collect()
    })?;
    let momentum_jacobian = derivatives(&momenta, std::slice::from_ref(&q_block)).0;
    let lagrangian_hessian = derivatives(&gradient, &[q_block]).0;

    // What is conserved: the tree's T is a quadratic form in q̇ and its data constant.
    let explicit_time = written_potential.contains(Var::Time)
        || system
            .forces
            .iter()
            .flatten()
            .any(|f| f.contains(Var::Time))
        || system
            .dissipation
            .as_ref()
            .is_some_and(|d| d.contains(Var::Time))
        || system.constraints.iter().any(|g| g.contains(Var::Time));
    // Every input occurs in the model (checked before the derivation): it drives it.
    let forced_or_dissipative = system.forces.iter().any(Option::is_some)
        || system.dissipation.is_some()
        || !system.inputs.is_empty();
    let dissipation_rates: Vec<Sym> = match &system.dissipation {
        Some(d) => (0..n).map(|i| d.diff(Var::Velocity(i))).collect(),
        None => Vec::new(),
    };
    let undissipated = s.vanishing(&dissipation_rates)?;
    // A coordinate is cyclic when ∂L/∂q folded to a known 0 while tracing: a proof, not
    // a sample (a cancellation the tracer cannot see leaves it uncounted).
    let cyclic: Vec<usize> = (0..n)
        .filter(|&i| {
            gradient_values[i] == Value::ZERO
                && system.forces[i].is_none()
                && undissipated.get(i).copied().unwrap_or(true)
                && !system
                    .constraints
                    .iter()
                    .any(|g| g.contains(Var::Coordinate(i)))
        })
        .collect();
    let conserved = if forced_or_dissipative || explicit_time {
        Conserved::None
    } else {
        Conserved::Energy
    };
    let constraints = if system.constraints.is_empty() {
        None
    } else {
        let coordinates: Vec<usize> = (0..n).collect();
        let parameters: Vec<Var> = system.parameters.iter().map(|(var, _)| *var).collect();
        Some(super::constraints::derive(
            s,
            &system.constraints,
            &coordinates,
            &parameters,
            &system.inputs(),
        )?)
    };
    Ok(Some(Equations {
        name: model.name.clone(),
        coordinates: model.coordinates.clone(),
        parameters: model.parameters.clone(),
        from_kinetic_potential: true,
        forced_or_dissipative,
        inputs: model.inputs.clone(),
        explicit_time,
        cyclic,
        conserved,
        programs: Programs {
            dynamics: traced.dynamics,
            lagrangian,
            jacobi_integral: energy.clone(),
            energy,
            momenta,
            momentum_rate,
            momentum_jacobian,
            lagrangian_hessian,
            residual_jacobians: traced.residual_jacobians,
        },
        dynamics_by_recursion: true,
        constraints,
        joint_wrenches: None,
        theorems: None,
        drawing: None,
        formulas: Vec::new(),
        symbolic: None,
    }))
}

/// What a traced program computes from a tree's data at `(q, q̇)`.
type Build<'a> = &'a dyn Fn(&mut Tracer, &Tree, &[Value], &[Value]) -> Vec<Value>;

/// The program `build` traces over `inputs` input slots (the layout's, then any more),
/// or `None` when the tree does not lower.
fn program(
    s: &Session,
    model: &CheckedModel,
    system: &System,
    inputs: usize,
    build: Build<'_>,
) -> Result<Option<Program>, String> {
    let n = model.coordinates.len();
    let mut t = Tracer::new(inputs);
    let Some(tree) = Tree::trace(s, model, system, &mut t)? else {
        return Ok(None);
    };
    let q: Vec<Value> = (0..n).map(|i| t.input(1 + i)).collect();
    let qd: Vec<Value> = (0..n).map(|i| t.input(1 + n + i)).collect();
    let outputs = build(&mut t, &tree, &q, &qd);
    Ok(Some(t.finish(&outputs)))
}

/// `program`'s outputs computed inside `t` from `inputs`.
fn splice(t: &mut Tracer, program: &Program, inputs: &[Value]) -> Vec<Value> {
    let seeds = vec![Vec::new(); inputs.len()];
    t.differentiate(program, inputs, &seeds)
        .into_iter()
        .map(|(value, _)| value)
        .collect()
}

/// The kinetic energy `Σ ½ m |v_c|² + ½ ωᵀ I ω` (velocities in the links' frames) and
/// the gravity potential `−Σ m g·c` (centres in the fixed frame).
fn energies(t: &mut Tracer, tree: &Tree, placed: &Placed, qd: &[Value]) -> (Value, Value) {
    let zero3 = [Value::ZERO; 3];
    let count = tree.links.len();
    let identity: M3 =
        std::array::from_fn(|i| std::array::from_fn(|j| Value::Number(f64::from(i == j))));
    let (mut omega, mut velocity) = (vec![zero3; count], vec![zero3; count]);
    let (mut orientation, mut origin) = (vec![identity; count], vec![zero3; count]);
    for (k, link) in tree.links.iter().enumerate() {
        let (omega_p, velocity_p, orientation_p, origin_p) = match link.parent {
            Some(p) => (omega[p], velocity[p], orientation[p], origin[p]),
            None => (zero3, zero3, identity, zero3),
        };
        let (e, r) = (&placed.e[k], &placed.r[k]);
        let swept = cross(t, &omega_p, r);
        let at_origin = plus(t, &velocity_p, &swept);
        let mut v = transposed_times(t, e, &at_origin);
        let mut w = transposed_times(t, e, &omega_p);
        match link.motion {
            Motion::Revolute(q, s) => {
                let rate = scale(t, qd[q], &s);
                w = plus(t, &w, &rate);
            }
            Motion::Prismatic(q, s) => {
                let rate = scale(t, qd[q], &s);
                v = plus(t, &v, &rate);
            }
            Motion::Fixed => {}
        }
        omega[k] = w;
        velocity[k] = v;
        orientation[k] = product(t, &orientation_p, e);
        let offset = times(t, &orientation_p, r);
        origin[k] = plus(t, &origin_p, &offset);
    }
    let (mut kinetic, mut gravity) = (Value::ZERO, Value::ZERO);
    for body in &tree.inertials {
        let k = body.link;
        let spin = cross(t, &omega[k], &body.com);
        let v = plus(t, &velocity[k], &spin);
        let vv = dot(t, &v, &v);
        let iw = times(t, &body.inertia, &omega[k]);
        let wiw = dot(t, &omega[k], &iw);
        let mvv = t.mul(body.mass, vv);
        let twice = t.add(mvv, wiw);
        let half = t.mul(Value::Number(0.5), twice);
        kinetic = t.add(kinetic, half);
        let turned = times(t, &orientation[k], &body.com);
        let centre = plus(t, &origin[k], &turned);
        let height = dot(t, &tree.gravity, &centre);
        let work = t.mul(body.mass, height);
        gravity = t.sub(gravity, work);
    }
    (kinetic, gravity)
}

/// A tree as the recursions read it, its data and the written generalized forces traced.
struct Tree {
    links: Vec<Link>,
    inertials: Vec<Inertial>,
    /// The field, fixed frame.
    gravity: V3,
    /// `−∂V/∂q + Q − ∂F/∂q̇` of the written potential, forces and dissipation.
    extra: Vec<Value>,
    /// `Q − ∂F/∂q̇` alone (what `ṗ = ∂L/∂q + Q − ∂F/∂q̇` adds to the Lagrangian's part).
    applied: Vec<Value>,
    /// The written potential `V`.
    potential: Value,
}

impl Tree {
    /// The model's tree in `t`, or `None` when a datum or a written term does not lower.
    fn trace(
        s: &Session,
        model: &CheckedModel,
        system: &System,
        t: &mut Tracer,
    ) -> Result<Option<Tree>, String> {
        let Energy::KineticPotential { potential, .. } = &model.energy else {
            return Ok(None);
        };
        let Some(mut tree) = Tree::data(s, model, t)? else {
            return Ok(None);
        };
        let leaves = Leaves {
            model,
            moving: true,
        };
        let potential = s.expr(potential)?;
        let (mut extra, mut applied) = (Vec::new(), Vec::new());
        for i in 0..model.coordinates.len() {
            let mut term = s.int(0);
            if let Some(force) = &system.forces[i] {
                term = &term + force;
            }
            if let Some(d) = &system.dissipation {
                term = &term - &d.diff(Var::Velocity(i));
            }
            let pull = -&potential.diff(Var::Coordinate(i));
            let (Some(term), Some(pull)) = (
                leaves.lower(t, &s.to_expr(&term)?),
                leaves.lower(t, &s.to_expr(&pull)?),
            ) else {
                return Ok(None);
            };
            applied.push(term);
            extra.push(t.add(pull, term));
        }
        let Some(potential) = leaves.lower(t, &s.to_expr(&potential)?) else {
            return Ok(None);
        };
        tree.potential = potential;
        tree.applied = applied;
        tree.extra = extra;
        Ok(Some(tree))
    }

    /// The model's links and mass data in `t` (no written terms), or `None` when a datum
    /// does not lower.
    fn data(s: &Session, model: &CheckedModel, t: &mut Tracer) -> Result<Option<Tree>, String> {
        let data = Leaves {
            model,
            moving: false,
        };
        Ok(
            tree(s, model, t, &data)?.map(|(links, inertials, gravity)| Tree {
                links,
                inertials,
                gravity,
                extra: vec![Value::ZERO; model.coordinates.len()],
                applied: vec![Value::ZERO; model.coordinates.len()],
                potential: Value::ZERO,
            }),
        )
    }
}

/// The wrench each jointed body's joint transmits to it at `(t, q, q̇, q̈)`, by the
/// recursive Newton–Euler algorithm: per body, in the model's order, the force and the
/// moment about the body frame's origin, in the fixed frame (6 outputs each), over the
/// inputs followed by the accelerations. `None` for a model without jointed bodies or
/// whose data do not lower.
pub(crate) fn joint_wrenches(
    s: &Session,
    model: &CheckedModel,
    inputs: usize,
) -> Result<Option<Program>, String> {
    let jointed = model
        .bodies
        .iter()
        .any(|b| matches!(b.placement, Placement::Jointed { .. }));
    if !jointed {
        return Ok(None);
    }
    let n = model.coordinates.len();
    let mut t = Tracer::new(inputs + n);
    let Some(tree) = Tree::data(s, model, &mut t)? else {
        return Ok(None);
    };
    let q: Vec<Value> = (0..n).map(|i| t.input(1 + i)).collect();
    let qd: Vec<Value> = (0..n).map(|i| t.input(1 + n + i)).collect();
    let qdd: Vec<Value> = (0..n).map(|i| t.input(inputs + i)).collect();
    let placed = place(&mut t, &tree.links, &q);
    let needs = newton_euler(&mut t, &tree, &placed, &qd, &qdd);
    // Each link's orientation in the fixed frame, R = R_parent E.
    let mut orientation: Vec<M3> = Vec::with_capacity(tree.links.len());
    for (k, link) in tree.links.iter().enumerate() {
        let r = match link.parent {
            Some(p) => product(&mut t, &orientation[p], &placed.e[k]),
            None => placed.e[k],
        };
        orientation.push(r);
    }
    let mut outputs = Vec::with_capacity(6 * tree.inertials.len());
    for body in &tree.inertials {
        let k = body.link;
        let force = times(&mut t, &orientation[k], &needs.force[k]);
        let moment = times(&mut t, &orientation[k], &needs.moment[k]);
        outputs.extend(force.into_iter().chain(moment));
    }
    Ok(Some(t.finish(&outputs)))
}

/// How names read as traced inputs: `t`, coordinates, velocities and parameters in the
/// [`Inputs`](crate::equations::Inputs) layout.
struct Leaves<'a> {
    model: &'a CheckedModel,
    /// Whether `t`, coordinates and velocities may be read (not for the tree's data,
    /// which may not move).
    moving: bool,
}

impl Leaves<'_> {
    fn leaf(&self, e: &Expr) -> Option<Value> {
        let n = self.model.coordinates.len();
        let index = |names: &[String], name: &str| names.iter().position(|x| x == name);
        let slot = match e {
            Expr::Name(name) if name == PI => return Some(Value::Number(std::f64::consts::PI)),
            Expr::Name(name) if name == TIME => 0,
            Expr::Name(name) => match index(&self.model.coordinates, name) {
                Some(i) => 1 + i,
                None => 1 + 2 * n + index(&self.model.parameters, name)?,
            },
            Expr::Velocity(name) => 1 + n + index(&self.model.coordinates, name)?,
            _ => return None,
        };
        let parameter = slot > 2 * n;
        (self.moving || parameter).then_some(Value::At(Slot::Input(slot)))
    }

    /// `e` as traced operations, or `None` when it names what this lowering may not read
    /// or uses a function without an instruction.
    fn lower(&self, t: &mut Tracer, e: &Expr) -> Option<Value> {
        Some(match e {
            Expr::Number(r) => Value::Number(r.to_f64()),
            Expr::Name(_) | Expr::Velocity(_) | Expr::Acceleration(_) => self.leaf(e)?,
            Expr::Neg(a) => {
                let a = self.lower(t, a)?;
                t.neg(a)
            }
            Expr::Add(terms) => {
                let terms = terms
                    .iter()
                    .map(|x| self.lower(t, x))
                    .collect::<Option<Vec<_>>>()?;
                t.sum(terms)
            }
            Expr::Mul(factors) => {
                let factors = factors
                    .iter()
                    .map(|x| self.lower(t, x))
                    .collect::<Option<Vec<_>>>()?;
                factors.into_iter().fold(Value::ONE, |acc, x| t.mul(acc, x))
            }
            Expr::Div(a, b) => {
                let (a, b) = (self.lower(t, a)?, self.lower(t, b)?);
                let reciprocal = t.powi(b, -1);
                t.mul(a, reciprocal)
            }
            Expr::Pow(a, b) => {
                let base = self.lower(t, a)?;
                match **b {
                    Expr::Number(r) if r.den == 1 && i32::try_from(r.num).is_ok() => {
                        t.powi(base, r.num as i32)
                    }
                    _ => {
                        let exponent = self.lower(t, b)?;
                        t.powf(base, exponent)
                    }
                }
            }
            Expr::Call(f, a) => {
                let intrinsic = match f {
                    Func::Sin => Intrinsic::Sin,
                    Func::Cos => Intrinsic::Cos,
                    Func::Exp => Intrinsic::Exp,
                    Func::Log => Intrinsic::Log,
                    Func::Sqrt => Intrinsic::Sqrt,
                    _ => return None,
                };
                let a = self.lower(t, a)?;
                t.call(intrinsic, a)
            }
        })
    }
}

/// The links and mass data of the model's tree, with gravity in the fixed frame; `None`
/// when a datum does not lower.
#[allow(clippy::type_complexity)]
fn tree(
    s: &Session,
    model: &CheckedModel,
    t: &mut Tracer,
    data: &Leaves<'_>,
) -> Result<Option<(Vec<Link>, Vec<Inertial>, V3)>, String> {
    // Each datum normalized by the engine first (so `tan`, `sinh`, … arrive as the
    // functions the IR has), then traced.
    let value = |t: &mut Tracer, e: &Expr| -> Result<Option<Value>, String> {
        Ok(data.lower(t, &s.to_expr(&s.expr(e)?)?))
    };
    macro_rules! vector {
        ($e:expr) => {{
            let e: &[Expr; 3] = $e;
            match (value(t, &e[0])?, value(t, &e[1])?, value(t, &e[2])?) {
                (Some(a), Some(b), Some(c)) => [a, b, c],
                _ => return Ok(None),
            }
        }};
    }
    macro_rules! matrix {
        ($m:expr) => {{
            let m: &Matrix3 = $m;
            [vector!(&m[0]), vector!(&m[1]), vector!(&m[2])]
        }};
    }
    let gravity = match &model.gravity {
        Some(g) => vector!(g),
        None => [Value::ZERO; 3],
    };
    let unit = |k: usize| -> V3 { std::array::from_fn(|i| Value::Number(f64::from(i == k))) };
    let identity: M3 = std::array::from_fn(unit);
    let mut links: Vec<Link> = Vec::new();
    let mut carrier: Vec<usize> = Vec::new();
    let mut inertials = Vec::new();
    for body in &model.bodies {
        let Placement::Jointed {
            parent,
            joint,
            origin,
            rpy,
            com,
        } = &body.placement
        else {
            return Ok(None);
        };
        let mut parent = parent.map(|p| carrier[p]);
        let mut first = Some((matrix!(&rotation::roll_pitch_yaw(rpy)), vector!(origin)));
        let mut link = |motion: Motion, links: &mut Vec<Link>| {
            let (rotation, offset) = first.take().unwrap_or((identity, [Value::ZERO; 3]));
            links.push(Link {
                parent,
                rotation,
                offset,
                motion,
            });
            parent = Some(links.len() - 1);
        };
        match &**joint {
            CheckedJoint::Revolute(q, axis) => {
                link(Motion::Revolute(*q, vector!(axis)), &mut links)
            }
            CheckedJoint::Prismatic(q, axis) => {
                link(Motion::Prismatic(*q, vector!(axis)), &mut links)
            }
            CheckedJoint::Fixed => link(Motion::Fixed, &mut links),
            CheckedJoint::Spherical([a, b, c]) => {
                for (q, k) in [(*a, 2), (*b, 1), (*c, 0)] {
                    link(Motion::Revolute(q, unit(k)), &mut links);
                }
            }
            CheckedJoint::Free([x, y, z, a, b, c]) => {
                for (q, k) in [(*x, 0), (*y, 1), (*z, 2)] {
                    link(Motion::Prismatic(q, unit(k)), &mut links);
                }
                for (q, k) in [(*a, 2), (*b, 1), (*c, 0)] {
                    link(Motion::Revolute(q, unit(k)), &mut links);
                }
            }
        }
        carrier.push(links.len() - 1);
        inertials.push(Inertial {
            link: links.len() - 1,
            mass: match value(t, &body.mass)? {
                Some(m) => m,
                None => return Ok(None),
            },
            com: vector!(com),
            inertia: matrix!(&body.inertia),
        });
    }
    Ok(Some((links, inertials, gravity)))
}

/// Each link's `E` (the joint frame's rotation times the motion's) and origin `r`.
fn place(t: &mut Tracer, links: &[Link], q: &[Value]) -> Placed {
    let mut placed = Placed {
        e: Vec::with_capacity(links.len()),
        r: Vec::with_capacity(links.len()),
    };
    for link in links {
        let (e, r) = match link.motion {
            Motion::Revolute(i, axis) => {
                let turn = about_axis(t, &axis, q[i]);
                (product(t, &link.rotation, &turn), link.offset)
            }
            Motion::Prismatic(i, axis) => {
                let slide = scale(t, q[i], &axis);
                let slide = times(t, &link.rotation, &slide);
                (link.rotation, plus(t, &link.offset, &slide))
            }
            Motion::Fixed => (link.rotation, link.offset),
        };
        placed.e.push(e);
        placed.r.push(r);
    }
    placed
}

/// Rodrigues' rotation `cos α (I − a aᵀ) + sin α [a]× + a aᵀ` (as in
/// [`rotation::about_axis`]) with the axis's zeros folded.
fn about_axis(t: &mut Tracer, a: &V3, angle: Value) -> M3 {
    let c = t.call(Intrinsic::Cos, angle);
    let s = t.call(Intrinsic::Sin, angle);
    let skew = skew(t, a);
    std::array::from_fn(|i| {
        std::array::from_fn(|j| {
            let outer = t.mul(a[i], a[j]);
            let projector = t.sub(Value::Number(f64::from(i == j)), outer);
            let cosine = t.mul(c, projector);
            let sine = t.mul(s, skew[i][j]);
            let turned = t.add(cosine, sine);
            t.add(turned, outer)
        })
    })
}

/// The composite-rigid-body algorithm: each link's composite (mass, first moment, inertia
/// about its origin) from the leaves up; then for each coordinate the momentum of its
/// unit motion, carried to the root, projected on each ancestor's axis.
fn composite_mass_matrix(
    t: &mut Tracer,
    links: &[Link],
    inertials: &[Inertial],
    placed: &Placed,
    n: usize,
) -> Vec<Vec<Value>> {
    let zero3 = [Value::ZERO; 3];
    let mut mass = vec![Value::ZERO; links.len()];
    let mut first = vec![zero3; links.len()];
    let mut inertia = vec![[zero3; 3]; links.len()];
    for body in inertials {
        let k = body.link;
        let h = scale(t, body.mass, &body.com);
        let shift = parallel_axis(t, body.mass, &body.com, &zero3);
        let about_origin = matrix_plus(t, &body.inertia, &shift);
        mass[k] = t.add(mass[k], body.mass);
        first[k] = plus(t, &first[k], &h);
        inertia[k] = matrix_plus(t, &inertia[k], &about_origin);
    }
    for k in (0..links.len()).rev() {
        let Some(p) = links[k].parent else { continue };
        let (e, r) = (&placed.e[k], &placed.r[k]);
        // The composite of k seen from p: first moment E h + m r; inertia E I Eᵀ moved
        // from k's origin to p's by 2(h'·r) 1 − h' rᵀ − r h'ᵀ + m(|r|² 1 − r rᵀ).
        let h = times(t, e, &first[k]);
        let moved = scale(t, mass[k], r);
        let turned = product(t, e, &inertia[k]);
        let turned = product_transposed(t, &turned, e);
        let shift = parallel_axis(t, mass[k], r, &h);
        let total = mass[k];
        mass[p] = t.add(mass[p], total);
        let h = plus(t, &h, &moved);
        first[p] = plus(t, &first[p], &h);
        let turned = matrix_plus(t, &turned, &shift);
        inertia[p] = matrix_plus(t, &inertia[p], &turned);
    }
    let mut m = vec![vec![Value::ZERO; n]; n];
    for j in 0..links.len() {
        let (column, momentum) = match links[j].motion {
            Motion::Revolute(q, s) => (q, (cross(t, &s, &first[j]), times(t, &inertia[j], &s))),
            Motion::Prismatic(q, s) => (q, (scale(t, mass[j], &s), cross(t, &first[j], &s))),
            Motion::Fixed => continue,
        };
        let (mut linear, mut angular) = momentum;
        let mut k = j;
        loop {
            let projected = match links[k].motion {
                Motion::Revolute(row, s) => Some((row, dot(t, &s, &angular))),
                Motion::Prismatic(row, s) => Some((row, dot(t, &s, &linear))),
                Motion::Fixed => None,
            };
            if let Some((row, value)) = projected {
                // A coordinate that moves two links (a written model may share one) adds.
                m[row][column] = t.add(m[row][column], value);
                if k != j {
                    m[column][row] = t.add(m[column][row], value);
                }
            }
            let Some(p) = links[k].parent else { break };
            linear = times(t, &placed.e[k], &linear);
            let turned = times(t, &placed.e[k], &angular);
            let moment = cross(t, &placed.r[k], &linear);
            angular = plus(t, &turned, &moment);
            k = p;
        }
    }
    m
}

/// `2(h·r) 1 − h rᵀ − r hᵀ + m(|r|² 1 − r rᵀ)`: what moving an inertia by `r` adds, for a
/// composite of mass `m` whose first moment about the old point is `h`.
fn parallel_axis(t: &mut Tracer, m: Value, r: &V3, h: &V3) -> M3 {
    let hr = dot(t, h, r);
    let two_hr = t.mul(Value::Number(2.0), hr);
    let rr = dot(t, r, r);
    std::array::from_fn(|i| {
        std::array::from_fn(|j| {
            let diagonal = if i == j { two_hr } else { Value::ZERO };
            let hr_ij = t.mul(h[i], r[j]);
            let rh_ij = t.mul(r[i], h[j]);
            let mixed = t.add(hr_ij, rh_ij);
            let first = t.sub(diagonal, mixed);
            let rr_ij = t.mul(r[i], r[j]);
            let spread = t.sub(if i == j { rr } else { Value::ZERO }, rr_ij);
            let spread = t.mul(m, spread);
            t.add(first, spread)
        })
    })
}

/// What the recursive Newton–Euler algorithm finds.
struct Needs {
    /// The generalized force each coordinate needs.
    tau: Vec<Value>,
    /// Per link, the force its joint transmits to it (link frame).
    force: Vec<V3>,
    /// Per link, the moment its joint transmits to it, about its origin (link frame).
    moment: Vec<V3>,
}

/// The recursive Newton–Euler algorithm: what each joint transmits, and each coordinate
/// needs, for the accelerations `qdd` at velocities `qd` in the tree's field.
fn newton_euler(
    t: &mut Tracer,
    tree: &Tree,
    placed: &Placed,
    qd: &[Value],
    qdd: &[Value],
) -> Needs {
    let (links, inertials, gravity) = (&tree.links, &tree.inertials, tree.gravity);
    let zero3 = [Value::ZERO; 3];
    let count = links.len();
    let (mut omega, mut alpha, mut accel) =
        (vec![zero3; count], vec![zero3; count], vec![zero3; count]);
    // Forward: angular velocity and acceleration, and the origin's acceleration, each in
    // the link's frame; the fixed frame accelerates by −g (gravity as a base acceleration).
    let base = scale(t, Value::Number(-1.0), &gravity);
    for (k, link) in links.iter().enumerate() {
        let (omega_p, alpha_p, accel_p) = match link.parent {
            Some(p) => (omega[p], alpha[p], accel[p]),
            None => (zero3, zero3, base),
        };
        let (e, r) = (&placed.e[k], &placed.r[k]);
        let carried = transposed_times(t, e, &omega_p);
        let turned_alpha = transposed_times(t, e, &alpha_p);
        let tangential = cross(t, &alpha_p, r);
        let spin = cross(t, &omega_p, r);
        let centripetal = cross(t, &omega_p, &spin);
        let at_origin = plus(t, &accel_p, &tangential);
        let at_origin = plus(t, &at_origin, &centripetal);
        let mut a = transposed_times(t, e, &at_origin);
        let (w, dw) = match link.motion {
            Motion::Revolute(q, s) => {
                let rate = scale(t, qd[q], &s);
                let w = plus(t, &carried, &rate);
                let driven = scale(t, qdd[q], &s);
                let coriolis = cross(t, &carried, &rate);
                let dw = plus(t, &turned_alpha, &driven);
                (w, plus(t, &dw, &coriolis))
            }
            Motion::Prismatic(q, s) => {
                let rate = scale(t, qd[q], &s);
                let driven = scale(t, qdd[q], &s);
                let coriolis = cross(t, &carried, &rate);
                let coriolis = scale(t, Value::Number(2.0), &coriolis);
                a = plus(t, &a, &driven);
                a = plus(t, &a, &coriolis);
                (carried, turned_alpha)
            }
            Motion::Fixed => (carried, turned_alpha),
        };
        omega[k] = w;
        alpha[k] = dw;
        accel[k] = a;
    }
    // Each body's need (force, and moment about its link's origin), then backward.
    let mut force = vec![zero3; count];
    let mut moment = vec![zero3; count];
    for body in inertials {
        let k = body.link;
        let (w, dw) = (omega[k], alpha[k]);
        let tangential = cross(t, &dw, &body.com);
        let spin = cross(t, &w, &body.com);
        let centripetal = cross(t, &w, &spin);
        let a = plus(t, &accel[k], &tangential);
        let a = plus(t, &a, &centripetal);
        let f = scale(t, body.mass, &a);
        let i_dw = times(t, &body.inertia, &dw);
        let i_w = times(t, &body.inertia, &w);
        let gyroscopic = cross(t, &w, &i_w);
        let euler = plus(t, &i_dw, &gyroscopic);
        let lever = cross(t, &body.com, &f);
        let n = plus(t, &euler, &lever);
        force[k] = plus(t, &force[k], &f);
        moment[k] = plus(t, &moment[k], &n);
    }
    let mut tau = vec![Value::ZERO; qd.len()];
    for k in (0..count).rev() {
        match links[k].motion {
            Motion::Revolute(q, s) => {
                let along = dot(t, &s, &moment[k]);
                tau[q] = t.add(tau[q], along);
            }
            Motion::Prismatic(q, s) => {
                let along = dot(t, &s, &force[k]);
                tau[q] = t.add(tau[q], along);
            }
            Motion::Fixed => {}
        }
        let Some(p) = links[k].parent else { continue };
        let f = times(t, &placed.e[k], &force[k]);
        let n = times(t, &placed.e[k], &moment[k]);
        let lever = cross(t, &placed.r[k], &f);
        let n = plus(t, &n, &lever);
        force[p] = plus(t, &force[p], &f);
        moment[p] = plus(t, &moment[p], &n);
    }
    Needs { tau, force, moment }
}

fn dot(t: &mut Tracer, a: &V3, b: &V3) -> Value {
    let terms: Vec<Value> = (0..3).map(|i| t.mul(a[i], b[i])).collect();
    t.sum(terms)
}

fn cross(t: &mut Tracer, a: &V3, b: &V3) -> V3 {
    let mut component = |i: usize, j: usize| {
        let x = t.mul(a[i], b[j]);
        let y = t.mul(a[j], b[i]);
        t.sub(x, y)
    };
    [component(1, 2), component(2, 0), component(0, 1)]
}

fn skew(t: &mut Tracer, a: &V3) -> M3 {
    let mut minus = |x: Value| t.neg(x);
    [
        [Value::ZERO, minus(a[2]), a[1]],
        [a[2], Value::ZERO, minus(a[0])],
        [minus(a[1]), a[0], Value::ZERO],
    ]
}

fn scale(t: &mut Tracer, k: Value, v: &V3) -> V3 {
    std::array::from_fn(|i| t.mul(k, v[i]))
}

fn plus(t: &mut Tracer, a: &V3, b: &V3) -> V3 {
    std::array::from_fn(|i| t.add(a[i], b[i]))
}

fn matrix_plus(t: &mut Tracer, a: &M3, b: &M3) -> M3 {
    std::array::from_fn(|i| std::array::from_fn(|j| t.add(a[i][j], b[i][j])))
}

/// `m v`.
fn times(t: &mut Tracer, m: &M3, v: &V3) -> V3 {
    std::array::from_fn(|i| dot(t, &m[i], v))
}

/// `mᵀ v`.
fn transposed_times(t: &mut Tracer, m: &M3, v: &V3) -> V3 {
    std::array::from_fn(|i| {
        let column = [m[0][i], m[1][i], m[2][i]];
        dot(t, &column, v)
    })
}

/// `a b`.
fn product(t: &mut Tracer, a: &M3, b: &M3) -> M3 {
    std::array::from_fn(|i| {
        std::array::from_fn(|j| {
            let column = [b[0][j], b[1][j], b[2][j]];
            dot(t, &a[i], &column)
        })
    })
}

/// `a bᵀ`.
fn product_transposed(t: &mut Tracer, a: &M3, b: &M3) -> M3 {
    std::array::from_fn(|i| std::array::from_fn(|j| dot(t, &a[i], &b[j])))
}
