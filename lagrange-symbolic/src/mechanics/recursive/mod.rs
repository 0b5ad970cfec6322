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

//!
//! The entry points are here; [`tree`] reads the model's tree into traced data and
//! places its links at a configuration, [`passes`] runs the recursions over it,
//! [`derivatives`] differentiates the Newton–Euler forces, [`vector`] is their 3-vector
//! arithmetic on traced values and [`spatial`] the 6-vectors and spatial inertias of the
//! fixed frame.

mod derivatives;
mod passes;
mod spatial;
mod tree;
mod vector;

use super::System;
use super::drawing::{self, Place};
use crate::cas::{Session, Sym, Var};
use crate::equations::{Conserved, Equations, Programs};
use crate::ir::Program;
use crate::ir::trace::{Tracer, Value};
use crate::model::{CheckedModel, Energy, Placement};
use crate::syntax::Expr;
use derivatives::{energy_derivatives, newton_euler_derivatives};
use passes::{composite_mass_matrix, energies, newton_euler};
use tree::{M3, Tree, V3, centre, place, world, written};
use vector::times;

/// A tree's programs, traced.
pub(crate) struct Traced {
    /// `M` row-major, then `f`, over the [`Inputs`](crate::equations::Inputs) layout.
    pub dynamics: Program,
    /// `∂r/∂q`, `∂r/∂q̇`, `∂r/∂p` of the residual `r = M q̈ − f`, row-major one after the
    /// other, over the inputs followed by the accelerations (as the symbolic route's).
    pub residual_jacobians: Program,
    /// The residual `r = τ(q, q̇, q̈) − e` itself, by the recursive Newton–Euler algorithm
    /// (`τ` the tree's forces, `e` the written terms), over the same inputs.
    pub inverse_dynamics: Program,
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
    let Some(residual_jacobians) = residual_jacobians(s, model, system, &residual)? else {
        return Ok(None);
    };
    Ok(Some(Traced {
        dynamics,
        residual_jacobians,
        inverse_dynamics: residual,
    }))
}

/// `∂r/∂q`, `∂r/∂q̇`, `∂r/∂p` of the residual `r = τ − e` (`residual`, over the inputs and
/// the accelerations): the tree's forces `τ` differentiated analytically
/// ([`derivatives::newton_euler_derivatives`]), the written terms `e` by forward mode
/// along `q` and `q̇`, and all of `r` by forward mode along the parameters only.
fn residual_jacobians(
    s: &Session,
    model: &CheckedModel,
    system: &System,
    residual: &Program,
) -> Result<Option<Program>, String> {
    let n = model.coordinates.len();
    let inputs = system.inputs().len();
    let Some(written) = program(s, model, system, inputs, &|_, tree, _, _| {
        tree.extra.clone()
    })?
    else {
        return Ok(None);
    };
    program(s, model, system, inputs + n, &|t, tree, q, qd| {
        let values: Vec<Value> = (0..inputs + n).map(|i| t.input(i)).collect();
        let qdd = &values[inputs..];
        let placed = place(t, &tree.links, q);
        let forces = newton_euler_derivatives(t, tree, &placed, qd, qdd);
        // The written terms along q and q̇ (inputs 1 … 2n).
        let seeds: Vec<Vec<Value>> = (0..inputs)
            .map(|i| {
                (0..2 * n)
                    .map(|k| if i == 1 + k { Value::ONE } else { Value::ZERO })
                    .collect()
            })
            .collect();
        let terms = t.differentiate(&written, &values[..inputs], &seeds);
        // r along the parameters (inputs 2n+1 … inputs−1).
        let parameters = inputs - 1 - 2 * n;
        let seeds: Vec<Vec<Value>> = (0..inputs + n)
            .map(|i| {
                (0..parameters)
                    .map(|k| {
                        if i == 1 + 2 * n + k {
                            Value::ONE
                        } else {
                            Value::ZERO
                        }
                    })
                    .collect()
            })
            .collect();
        let along_parameters = t.differentiate(residual, &values, &seeds);
        let mut outputs = Vec::with_capacity(n * (2 * n + parameters));
        for (block, offset) in [(&forces.coordinates, 0), (&forces.velocities, n)] {
            for (row, (_, term)) in block.iter().zip(&terms) {
                for (column, &d) in row.iter().enumerate() {
                    outputs.push(t.sub(d, term[offset + column]));
                }
            }
        }
        for (_, tangents) in &along_parameters {
            outputs.extend_from_slice(tangents);
        }
        outputs
    })
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

/// Trees at most this many degrees of freedom deep (and within [`EXPANDED_TERMS`]) also
/// get the symbolic route's expanded equations (to print, and to derive `M` and `f` a
/// second way). Deeper ones are derived by the recursions alone: the expanded expressions
/// of a chain grow about fourfold per link.
pub const EXPANDED_TREE_DEPTH: usize = 6;

/// The most terms a model's bodies' kinetic energy may have once expanded, by the
/// estimate `mechanics::kinetic::expanded_terms` reads off the bodies' poses (sums add,
/// products multiply, nothing cancels), for its equations to be
/// derived by expansion. A tree beyond it is derived by its recursions alone; another
/// model is refused. The expanded route's time grows with this size whatever the tree's
/// depth (measured in a debug build of the command, the machine shared: a planar chain
/// of 4 links, estimated at 9·10⁴ terms, 7.8 s; of 5 links, 5.7·10⁵, 34 s; a 12-joint
/// quadruped of depth 3, 1.2·10⁵, 28 s), and a 6-joint arm whose joint frames are turned
/// by decimal angles (Kinova's `1.57079632679`, which never folds to an exact quarter
/// turn) is estimated at 1.4·10¹²: expanded, it grew past 24 GB.
pub const EXPANDED_TERMS: u64 = 50_000;

/// How a model's equations are derived.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Route {
    /// Symbolically, by expansion (a tree's dynamics traced beside).
    Expanded,
    /// A tree deeper than [`EXPANDED_TREE_DEPTH`], or whose expanded kinetic energy would
    /// have more than [`EXPANDED_TERMS`] terms: by its recursions alone when its data
    /// lower ([`equations`]); else by expansion within [`EXPANDED_TERMS`], and refused
    /// beyond.
    Recursions {
        /// The estimate of the expanded kinetic energy's terms, when it was made (a deep
        /// tree is not measured).
        terms: Option<u64>,
    },
}

/// How `model` is derived: its depth first (no engine work), then the size of its bodies'
/// expanded kinetic energy estimated on their poses, before that energy is built. A
/// model that ignores coordinates is always expanded (Routh's reduction needs `L`), and
/// refused, as any model that is not a tree the recursions derive, beyond
/// [`EXPANDED_TERMS`] (see [`Route::Recursions`]).
pub(crate) fn route(s: &Session, model: &CheckedModel) -> Result<Route, String> {
    let mut depth: Vec<usize> = Vec::with_capacity(model.bodies.len());
    let mut tree = !model.bodies.is_empty() && model.ignored.is_empty();
    for body in &model.bodies {
        let Placement::Jointed { parent, joint, .. } = &body.placement else {
            tree = false;
            break;
        };
        depth.push(joint.coordinate_count() + parent.map_or(0, |p| depth[p]));
    }
    if tree && depth.into_iter().max().unwrap_or(0) > EXPANDED_TREE_DEPTH {
        return Ok(Route::Recursions { terms: None });
    }
    if model.bodies.is_empty() {
        return Ok(Route::Expanded);
    }
    let terms = super::expanded_terms(s, model, EXPANDED_TERMS)?;
    Ok(if terms > EXPANDED_TERMS {
        Route::Recursions { terms: Some(terms) }
    } else {
        Route::Expanded
    })
}

/// The equations of a tree from its recursions alone, every program traced: `L`, the
/// energy and the momenta from the links' velocities and positions, `ṗ`, `∂p/∂q` and
/// `∂²L/∂q²` analytically ([`derivatives::energy_derivatives`]), nothing printed. `None`
/// when the model is not a tree whose data and written terms lower, or its written
/// potential depends on the velocities (then `T + V` would not be the energy).
pub(crate) fn equations(
    s: &Session,
    model: &CheckedModel,
    system: &System,
) -> Result<Option<Equations>, String> {
    let n = model.coordinates.len();
    let Some(written_potential) = written_potential(s, model)? else {
        return Ok(None);
    };
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
    // ∂L/∂q by forward mode over L: which coordinates it proves cyclic.
    let gradient_values = derivatives(&lagrangian, std::slice::from_ref(&q_block)).1;
    let momentum_rate = trace(&|t, tree, q, qd| {
        let placed = place(t, &tree.links, q);
        let derived = energy_derivatives(t, tree, &placed, qd);
        // ṗ = ∂L/∂q + Q − ∂F/∂q̇: the tree's part, then the written potential's, forces
        // and dissipation (`extra`).
        derived
            .gradient
            .into_iter()
            .zip(&tree.extra)
            .map(|(g, &e)| t.add(g, e))
            .collect()
    })?;
    // ∂p/∂q and ∂²L/∂q² of the tree analytically, the written potential's by forward
    // mode, twice.
    let momentum_jacobian = trace(&|t, tree, q, qd| {
        let placed = place(t, &tree.links, q);
        let derived = energy_derivatives(t, tree, &placed, qd);
        derived.momenta.into_iter().flatten().collect()
    })?;
    let potential = trace(&|_, tree, _, _| vec![tree.potential])?;
    let potential_gradient = derivatives(&potential, std::slice::from_ref(&q_block)).0;
    let potential_hessian = derivatives(&potential_gradient, &[q_block]).0;
    let lagrangian_hessian = trace(&|t, tree, q, qd| {
        let values: Vec<Value> = (0..inputs).map(|i| t.input(i)).collect();
        let written = t.splice(&potential_hessian, &values);
        let placed = place(t, &tree.links, q);
        let derived = energy_derivatives(t, tree, &placed, qd);
        derived
            .lagrangian
            .into_iter()
            .flatten()
            .zip(written)
            .map(|(l, v)| t.sub(l, v))
            .collect()
    })?;

    let Conservation {
        explicit_time,
        forced_or_dissipative,
        cyclic,
        conserved,
    } = conservation(s, system, n, &written_potential, &gradient_values)?;
    let constraints = super::constraints::derive(s, system, &system.inputs())?;
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
            inverse_dynamics: traced.inverse_dynamics,
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

/// The written potential of a model given by its kinetic and potential energies; `None`
/// for any other model, or when it depends on the velocities (then `T + V` would not be
/// the energy).
fn written_potential(s: &Session, model: &CheckedModel) -> Result<Option<Sym>, String> {
    let Energy::KineticPotential { potential, .. } = &model.energy else {
        return Ok(None);
    };
    let n = model.coordinates.len();
    let written_potential = s.expr(potential)?;
    if (0..n).any(|i| written_potential.contains(Var::Velocity(i))) {
        return Ok(None);
    }
    Ok(Some(written_potential))
}

/// What a tree's equations conserve, and why.
struct Conservation {
    /// Whether the time occurs explicitly in the written potential, forces, dissipation
    /// or constraints.
    explicit_time: bool,
    /// Whether forces, dissipation or inputs act.
    forced_or_dissipative: bool,
    /// The coordinates proven cyclic.
    cyclic: Vec<usize>,
    /// The energy, or nothing.
    conserved: Conserved,
}

/// What a tree's equations conserve: the tree's `T` is a quadratic form in `q̇` and its
/// data constant, so the energy when nothing forces, dissipates, moves or works; and its
/// cyclic coordinates, from `gradient_values` (`∂L/∂q` as traced).
fn conservation(
    s: &Session,
    system: &System,
    n: usize,
    written_potential: &Sym,
    gradient_values: &[Value],
) -> Result<Conservation, String> {
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
        || system.all_constraints().any(|g| g.contains(Var::Time));
    let working_constraints = system.constraints_do_work(s)?;
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
                && !system.constrains(i)
        })
        .collect();
    let conserved = if forced_or_dissipative || explicit_time || working_constraints {
        Conserved::None
    } else {
        Conserved::Energy
    };
    Ok(Conservation {
        explicit_time,
        forced_or_dissipative,
        cyclic,
        conserved,
    })
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
    let (orientation, _) = world(&mut t, &tree.links, &placed);
    let mut outputs = Vec::with_capacity(6 * tree.inertials.len());
    for body in &tree.inertials {
        let k = body.link;
        let force = times(&mut t, &orientation[k], &needs.force[k]);
        let moment = times(&mut t, &orientation[k], &needs.moment[k]);
        outputs.extend(force.into_iter().chain(moment));
    }
    Ok(Some(t.finish(&outputs)))
}

/// The drawing's program traced from the tree's placement at `q`: the outputs of
/// [`drawing::outputs`] over `inputs` input slots. `None` when the model is not a tree
/// whose data and written positions lower.
pub(crate) fn drawing(
    s: &Session,
    model: &CheckedModel,
    inputs: usize,
    places: &[Place<'_>],
) -> Result<Option<Program>, String> {
    let n = model.coordinates.len();
    let mut t = Tracer::new(inputs);
    let Some(tree) = Tree::data(s, model, &mut t)? else {
        return Ok(None);
    };
    let q: Vec<Value> = (0..n).map(|i| t.input(1 + i)).collect();
    let placed = place(&mut t, &tree.links, &q);
    let frames = world(&mut t, &tree.links, &placed);
    let mut placement = TreeFrames {
        s,
        model,
        t: &mut t,
        tree: &tree,
        frames,
    };
    let Some(outputs) = drawing::outputs(&mut placement, places, tree.inertials.len())? else {
        return Ok(None);
    };
    Ok(Some(t.finish(&outputs)))
}

/// A tree's traced placement, in the fixed frame ([`world`]).
struct TreeFrames<'a> {
    s: &'a Session,
    model: &'a CheckedModel,
    t: &'a mut Tracer,
    tree: &'a Tree,
    frames: (Vec<M3>, Vec<V3>),
}

impl drawing::Frames for TreeFrames<'_> {
    type Value = Value;

    fn zero(&self) -> Value {
        Value::ZERO
    }

    fn written(&mut self, component: &Expr) -> Result<Option<Value>, String> {
        written(self.s, self.model, self.t, component)
    }

    fn centre(&mut self, b: usize) -> V3 {
        centre(self.t, &self.frames, &self.tree.inertials[b])
    }

    fn joint(&mut self, b: usize) -> V3 {
        self.frames.1[self.tree.inertials[b].link]
    }

    fn orientation(&mut self, b: usize) -> M3 {
        self.frames.0[self.tree.inertials[b].link]
    }
}
