//! Spatial (6D) vectors and matrices of traced values in the fixed frame, angular part
//! first (Featherstone, *Rigid Body Dynamics Algorithms*, 2008, ch. 2): motion vectors
//! `(ω, v_O)` and force vectors `(n_O, f)`, both about the fixed frame's origin `O`.

use super::tree::{M3, V3};
use super::vector::{cross, plus, times};
use crate::ir::trace::{Tracer, Value};

pub(super) type V6 = [Value; 6];
pub(super) type M6 = [[Value; 6]; 6];

pub(super) const ZERO6: V6 = [Value::ZERO; 6];
pub(super) const ZERO66: M6 = [[Value::ZERO; 6]; 6];

fn halves(x: &V6) -> (V3, V3) {
    ([x[0], x[1], x[2]], [x[3], x[4], x[5]])
}

fn join(a: V3, b: V3) -> V6 {
    [a[0], a[1], a[2], b[0], b[1], b[2]]
}

/// The motion `(ω, v_O)` of a frame through `origin` turning about `axis` at unit rate
/// (`revolute`) or sliding along it.
pub(super) fn joint_axis(t: &mut Tracer, axis: &V3, origin: &V3, revolute: bool) -> V6 {
    if revolute {
        join(*axis, cross(t, origin, axis))
    } else {
        join([Value::ZERO; 3], *axis)
    }
}

pub(super) fn add(t: &mut Tracer, a: &V6, b: &V6) -> V6 {
    std::array::from_fn(|i| t.add(a[i], b[i]))
}

pub(super) fn scale(t: &mut Tracer, k: Value, a: &V6) -> V6 {
    std::array::from_fn(|i| t.mul(k, a[i]))
}

/// `a · b` (a motion with a force: power).
pub(super) fn dot6(t: &mut Tracer, a: &V6, b: &V6) -> Value {
    let terms: Vec<Value> = (0..6).map(|i| t.mul(a[i], b[i])).collect();
    t.sum(terms)
}

/// `a × b` of two motions.
pub(super) fn cross_motion(t: &mut Tracer, a: &V6, b: &V6) -> V6 {
    let ((aw, av), (bw, bv)) = (halves(a), halves(b));
    let w = cross(t, &aw, &bw);
    let wv = cross(t, &aw, &bv);
    let vw = cross(t, &av, &bw);
    join(w, plus(t, &wv, &vw))
}

/// `a ×* f` of a motion and a force.
pub(super) fn cross_force(t: &mut Tracer, a: &V6, f: &V6) -> V6 {
    let ((aw, av), (fn_, ff)) = (halves(a), halves(f));
    let wn = cross(t, &aw, &fn_);
    let vf = cross(t, &av, &ff);
    let wf = cross(t, &aw, &ff);
    join(plus(t, &wn, &vf), wf)
}

/// The spatial inertia about `O` of a body of mass `m` with centre `c` and inertia
/// `inertia` about its centre, all in the fixed frame.
pub(super) fn inertia(t: &mut Tracer, m: Value, c: &V3, inertia: &M3) -> M6 {
    // [[I_c + m [c]×[c]×ᵀ, m [c]×], [m [c]×ᵀ, m 1]], column by column: the momentum of
    // each unit motion, (I_c ω + c × m (v + ω × c), m (v + ω × c)).
    let columns: [V6; 6] = std::array::from_fn(|column| {
        let (w, v) = halves(&unit(column));
        let swept = cross(t, &w, c);
        let at_centre = plus(t, &v, &swept);
        let linear: V3 = std::array::from_fn(|i| t.mul(m, at_centre[i]));
        let spin = times(t, inertia, &w);
        let moment = cross(t, c, &linear);
        let angular = plus(t, &spin, &moment);
        join(angular, linear)
    });
    transposed(&columns)
}

/// The unit motion (or force) along component `k`.
fn unit(k: usize) -> V6 {
    std::array::from_fn(|i| Value::Number(f64::from(i == k)))
}

/// The matrix whose columns are `columns`.
fn transposed(columns: &[V6; 6]) -> M6 {
    std::array::from_fn(|row| std::array::from_fn(|column| columns[column][row]))
}

pub(super) fn matrix_add(t: &mut Tracer, a: &M6, b: &M6) -> M6 {
    std::array::from_fn(|i| std::array::from_fn(|j| t.add(a[i][j], b[i][j])))
}

/// `a x`.
pub(super) fn times6(t: &mut Tracer, a: &M6, x: &V6) -> V6 {
    std::array::from_fn(|i| dot6(t, &a[i], x))
}

/// `aᵀ x`.
pub(super) fn transposed_times6(t: &mut Tracer, a: &M6, x: &V6) -> V6 {
    std::array::from_fn(|i| {
        let column: V6 = std::array::from_fn(|k| a[k][i]);
        dot6(t, &column, x)
    })
}

/// `a (v×)`: column `c` is `a (v × e_c)`.
pub(super) fn times_cross(t: &mut Tracer, a: &M6, v: &V6) -> M6 {
    let columns: [V6; 6] = std::array::from_fn(|column| {
        let turned = cross_motion(t, v, &unit(column));
        times6(t, a, &turned)
    });
    transposed(&columns)
}
