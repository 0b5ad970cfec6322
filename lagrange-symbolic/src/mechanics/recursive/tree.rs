//! A kinematic tree as the recursions read it: its links (a joint of several degrees of
//! freedom is several links) and mass data traced from the model, and the links placed
//! at a configuration.

use super::super::System;
use super::super::rotation;
use super::vector::{plus, product, scale, times};
use crate::cas::{Session, Var};
use crate::ir::trace::{Tracer, Value};
use crate::ir::{Slot, lower};
use crate::model::{CheckedJoint, CheckedModel, Energy, Matrix3, Placement};
use crate::syntax::{Expr, TIME};

pub(super) type V3 = [Value; 3];
pub(super) type M3 = [[Value; 3]; 3];

/// How a link moves relative to its parent frame.
#[derive(Clone, Copy)]
pub(super) enum Motion {
    /// About the unit axis (link frame) through coordinate `q`.
    Revolute(usize, V3),
    /// Along the unit axis (link frame) by coordinate `q`.
    Prismatic(usize, V3),
    /// Not at all.
    Fixed,
}

/// One degree of freedom of the tree (a spherical joint is three of them, a free joint
/// six): the frame it moves, placed in its parent's frame.
pub(super) struct Link {
    pub(super) parent: Option<usize>,
    /// The joint frame's orientation in the parent frame (before the motion).
    pub(super) rotation: M3,
    /// The joint frame's origin in the parent frame.
    pub(super) offset: V3,
    pub(super) motion: Motion,
}

/// A body's mass data in the frame of the link that carries it.
pub(super) struct Inertial {
    pub(super) link: usize,
    pub(super) mass: Value,
    /// The centre of mass.
    pub(super) com: V3,
    /// The inertia tensor about the centre of mass.
    pub(super) inertia: M3,
}

/// What the recursions need at a configuration: each link's rotation to its parent frame
/// `E` (link → parent) and its origin `r` in the parent frame.
pub(super) struct Placed {
    pub(super) e: Vec<M3>,
    pub(super) r: Vec<V3>,
}

/// A tree as the recursions read it, its data and the written generalized forces traced.
pub(super) struct Tree {
    pub(super) links: Vec<Link>,
    pub(super) inertials: Vec<Inertial>,
    /// The field, fixed frame.
    pub(super) gravity: V3,
    /// `−∂V/∂q + Q − ∂F/∂q̇` of the written potential, forces and dissipation.
    pub(super) extra: Vec<Value>,
    /// `Q − ∂F/∂q̇` alone (what `ṗ = ∂L/∂q + Q − ∂F/∂q̇` adds to the Lagrangian's part).
    pub(super) applied: Vec<Value>,
    /// The written potential `V`.
    pub(super) potential: Value,
}

impl Tree {
    /// The model's tree in `t`, or `None` when a datum or a written term does not lower.
    pub(super) fn trace(
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
    pub(super) fn data(
        s: &Session,
        model: &CheckedModel,
        t: &mut Tracer,
    ) -> Result<Option<Tree>, String> {
        let data = Leaves {
            model,
            moving: false,
        };
        tree(s, model, t, &data)
    }
}

/// A written expression of `t`, the coordinates, velocities and parameters (a drawn
/// point's position) as traced operations, normalized by the engine first; `None` when it
/// does not lower.
pub(super) fn written(
    s: &Session,
    model: &CheckedModel,
    t: &mut Tracer,
    e: &Expr,
) -> Result<Option<Value>, String> {
    let leaves = Leaves {
        model,
        moving: true,
    };
    Ok(leaves.lower(t, &s.to_expr(&s.expr(e)?)?))
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

    /// `e` as traced operations, or `None` when it names what this lowering may not read.
    fn lower(&self, t: &mut Tracer, e: &Expr) -> Option<Value> {
        lower::trace(t, e, &|leaf| self.leaf(leaf)).ok()
    }
}

/// The links and mass data of the model's tree, with gravity in the fixed frame and no
/// written terms; `None` when a datum does not lower.
fn tree(
    s: &Session,
    model: &CheckedModel,
    t: &mut Tracer,
    data: &Leaves<'_>,
) -> Result<Option<Tree>, String> {
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
    Ok(Some(Tree {
        links,
        inertials,
        gravity,
        extra: vec![Value::ZERO; model.coordinates.len()],
        applied: vec![Value::ZERO; model.coordinates.len()],
        potential: Value::ZERO,
    }))
}

/// Each link's `E` (the joint frame's rotation times the motion's) and origin `r`.
pub(super) fn place(t: &mut Tracer, links: &[Link], q: &[Value]) -> Placed {
    let mut placed = Placed {
        e: Vec::with_capacity(links.len()),
        r: Vec::with_capacity(links.len()),
    };
    for link in links {
        let (e, r) = match link.motion {
            Motion::Revolute(i, axis) => {
                let turn = rotation::about_axis(t, &axis, &q[i]);
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

/// Each link's orientation `R = R_parent E` and origin `o = o_parent + R_parent r` in the
/// fixed frame (the symbolic twin, body by body with `ω`, is `kinetic::poses`).
pub(super) fn world(t: &mut Tracer, links: &[Link], placed: &Placed) -> (Vec<M3>, Vec<V3>) {
    let mut orientation: Vec<M3> = Vec::with_capacity(links.len());
    let mut origin: Vec<V3> = Vec::with_capacity(links.len());
    for (k, link) in links.iter().enumerate() {
        let (r, o) = match link.parent {
            Some(p) => {
                let shift = times(t, &orientation[p], &placed.r[k]);
                let o = plus(t, &origin[p], &shift);
                (product(t, &orientation[p], &placed.e[k]), o)
            }
            None => (placed.e[k], placed.r[k]),
        };
        orientation.push(r);
        origin.push(o);
    }
    (orientation, origin)
}

/// A body's centre of mass in the fixed frame, `o + R c`, from [`world`]'s frames.
pub(super) fn centre(t: &mut Tracer, frames: &(Vec<M3>, Vec<V3>), body: &Inertial) -> V3 {
    let turned = times(t, &frames.0[body.link], &body.com);
    plus(t, &frames.1[body.link], &turned)
}
