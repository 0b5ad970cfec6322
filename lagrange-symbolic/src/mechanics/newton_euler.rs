//! The wrenches the joints of a kinematic tree transmit, by the Newton–Euler equations of
//! each body summed from the leaves to the root (the recursive Newton–Euler algorithm,
//! backward pass), at any `(t, q, q̇, q̈)`.
//!
//! Each body needs the force `m (a_c − g)` and, about its centre of mass, the moment
//! `R (I α + ω × I ω)` (Euler's equations in the body frame, `α = dω/dt`), with `a_c` and
//! `α` the total time derivatives of the composed positions and angular velocities, the
//! accelerations as symbols. The joint to the parent transmits what the body and all its
//! descendants need: `f = F + Σ f_child`, and about the joint's origin
//! `n = N + (c − o) × F + Σ (n_child + (o_child − o) × f_child)`, in the fixed frame. Its
//! component along the joint's axis (`n·a` for a revolute joint, `f·a` for a prismatic one)
//! is the generalized force the coordinate needs, which Lagrange's equations give as
//! `M q̈ − f` when gravity is the only force: two independent derivations that must agree.

use super::kinetic::{self, Pose};
use crate::cas::{Session, Sym, Var};
use crate::model::{CheckedModel, Placement};

type Vector = [Sym; 3];

/// Per jointed body, in the order of the model's bodies, the force and the moment (about
/// the joint's origin) its joint transmits, fixed frame: 6 outputs each. `None` when the
/// model has no jointed bodies.
pub(crate) fn joint_wrenches(
    s: &Session,
    model: &CheckedModel,
) -> Result<Option<Vec<Sym>>, String> {
    let jointed: Vec<usize> = (0..model.bodies.len())
        .filter(|&i| matches!(model.bodies[i].placement, Placement::Jointed { .. }))
        .collect();
    if jointed.is_empty() {
        return Ok(None);
    }
    let n = model.coordinates.len();
    let poses = kinetic::poses(s, model)?;
    let rate = |e: &Sym| {
        (0..n).fold(e.diff(Var::Time), |acc, j| {
            let by_q = &e.diff(Var::Coordinate(j)) * &s.var(Var::Velocity(j));
            let by_v = &e.diff(Var::Velocity(j)) * &s.var(Var::Acceleration(j));
            &(&acc + &by_q) + &by_v
        })
    };
    let rates = |v: &Vector| -> Vector { std::array::from_fn(|i| rate(&v[i])) };
    let gravity: Vector = match &model.gravity {
        Some(g) => [s.expr(&g[0])?, s.expr(&g[1])?, s.expr(&g[2])?],
        None => [s.int(0), s.int(0), s.int(0)],
    };
    // What each body needs: force and moment about its centre of mass, fixed frame.
    let mut needs: Vec<(Vector, Vector)> = Vec::new();
    for (body, pose) in model.bodies.iter().zip(&poses) {
        let mass = s.expr(&body.mass)?;
        let inertia = kinetic::matrix(s, &body.inertia)?;
        let acceleration = rates(&rates(&pose.com));
        let force: Vector = std::array::from_fn(|i| &mass * &(&acceleration[i] - &gravity[i]));
        let omega = &pose.omega;
        let alpha = rates(omega);
        let times_inertia = |v: &Vector| -> Vector {
            std::array::from_fn(|i| {
                (0..3).fold(s.int(0), |acc, k| &acc + &(&inertia[i][k] * &v[k]))
            })
        };
        let spin = cross(omega, &times_inertia(omega));
        let body_moment: Vector = std::array::from_fn(|i| &times_inertia(&alpha)[i] + &spin[i]);
        needs.push((force, rotate(s, pose, &body_moment)));
    }
    // The joint wrenches, from the leaves to the root.
    let parent_of = |i: usize| match &model.bodies[i].placement {
        Placement::Jointed { parent, .. } => *parent,
        Placement::Given { .. } => None,
    };
    let mut transmitted: Vec<Option<(Vector, Vector)>> = vec![None; model.bodies.len()];
    for i in (0..model.bodies.len()).rev() {
        let Pose { origin, com, .. } = &poses[i];
        let (force, moment) = &needs[i];
        let lever = difference(com, origin);
        let mut f = force.clone();
        let mut m: Vector = std::array::from_fn(|k| &moment[k] + &cross(&lever, force)[k]);
        for c in (i + 1..model.bodies.len()).filter(|&c| parent_of(c) == Some(i)) {
            let (fc, nc) = transmitted[c]
                .as_ref()
                .expect("children come after their parent");
            let arm = difference(&poses[c].origin, origin);
            let turn = cross(&arm, fc);
            f = std::array::from_fn(|k| &f[k] + &fc[k]);
            m = std::array::from_fn(|k| &(&m[k] + &nc[k]) + &turn[k]);
        }
        transmitted[i] = Some((f, m));
    }
    Ok(Some(
        jointed
            .iter()
            .flat_map(|&i| {
                let (f, m) = transmitted[i].clone().expect("every body was visited");
                f.into_iter().chain(m)
            })
            .collect(),
    ))
}

fn cross(a: &Vector, b: &Vector) -> Vector {
    [
        &(&a[1] * &b[2]) - &(&a[2] * &b[1]),
        &(&a[2] * &b[0]) - &(&a[0] * &b[2]),
        &(&a[0] * &b[1]) - &(&a[1] * &b[0]),
    ]
}

fn difference(a: &Vector, b: &Vector) -> Vector {
    std::array::from_fn(|i| &a[i] - &b[i])
}

/// `R v`: a body-frame vector in the fixed frame.
fn rotate(s: &Session, pose: &Pose, v: &Vector) -> Vector {
    std::array::from_fn(|i| (0..3).fold(s.int(0), |acc, k| &acc + &(&pose.r[i][k] * &v[k])))
}
