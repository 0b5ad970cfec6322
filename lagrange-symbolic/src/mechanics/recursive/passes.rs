//! The recursions over a placed tree, each a forward pass from the root and, for the
//! last two, a backward pass from the leaves: the energies, the composite-rigid-body
//! algorithm for `M`, and the recursive Newton–Euler algorithm for what each joint
//! transmits and each coordinate needs.

use super::tree::{Inertial, Link, M3, Motion, Placed, Tree, V3, centre, world};
use super::vector::{
    cross, dot, matrix_plus, plus, product, product_transposed, scale, times, transposed_times,
};
use crate::ir::trace::{Tracer, Value};

/// The kinetic energy `Σ ½ m |v_c|² + ½ ωᵀ I ω` (velocities in the links' frames) and
/// the gravity potential `−Σ m g·c` (centres in the fixed frame).
pub(super) fn energies(
    t: &mut Tracer,
    tree: &Tree,
    placed: &Placed,
    qd: &[Value],
) -> (Value, Value) {
    let zero3 = [Value::ZERO; 3];
    let count = tree.links.len();
    let (mut omega, mut velocity) = (vec![zero3; count], vec![zero3; count]);
    for (k, link) in tree.links.iter().enumerate() {
        let (omega_p, velocity_p) = match link.parent {
            Some(p) => (omega[p], velocity[p]),
            None => (zero3, zero3),
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
    }
    let frames = world(t, &tree.links, placed);
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
        let at = centre(t, &frames, body);
        let height = dot(t, &tree.gravity, &at);
        let work = t.mul(body.mass, height);
        gravity = t.sub(gravity, work);
    }
    (kinetic, gravity)
}

/// The composite-rigid-body algorithm: each link's composite (mass, first moment, inertia
/// about its origin) from the leaves up; then for each coordinate the momentum of its
/// unit motion, carried to the root, projected on each ancestor's axis.
pub(super) fn composite_mass_matrix(
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
pub(super) struct Needs {
    /// The generalized force each coordinate needs.
    pub(super) tau: Vec<Value>,
    /// Per link, the force its joint transmits to it (link frame).
    pub(super) force: Vec<V3>,
    /// Per link, the moment its joint transmits to it, about its origin (link frame).
    pub(super) moment: Vec<V3>,
}

/// The recursive Newton–Euler algorithm: what each joint transmits, and each coordinate
/// needs, for the accelerations `qdd` at velocities `qd` in the tree's field.
pub(super) fn newton_euler(
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
