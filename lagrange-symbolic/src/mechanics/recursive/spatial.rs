//! Spatial (6D) vectors of traced values in the fixed frame, angular part first
//! (Featherstone, *Rigid Body Dynamics Algorithms*, 2008, ch. 2): motion vectors
//! `(ω, v_O)` and force vectors `(n_O, f)`, both about the fixed frame's origin `O`; and
//! spatial inertias in their ten numbers.

use super::tree::{M3, V3};
use super::vector::{cross, dot, plus, scale as scale3, times};
use crate::ir::trace::{Tracer, Value};

pub(super) type V6 = [Value; 6];

pub(super) const ZERO6: V6 = [Value::ZERO; 6];

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

pub(super) fn sub(t: &mut Tracer, a: &V6, b: &V6) -> V6 {
    std::array::from_fn(|i| t.sub(a[i], b[i]))
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

/// A spatial inertia about `O`, `[[Ī, [h]×], [[h]×ᵀ, m 1]]`, by its ten numbers: the mass
/// `m`, the first moment `h = m c` and the inertia `Ī` about `O` (symmetric). With
/// `m = 0` the same form holds its rate of change along a motion.
#[derive(Clone, Copy)]
pub(super) struct Inertia {
    pub(super) mass: Value,
    pub(super) first: V3,
    pub(super) about_origin: M3,
}

impl Inertia {
    pub(super) const ZERO: Inertia = Inertia {
        mass: Value::ZERO,
        first: [Value::ZERO; 3],
        about_origin: [[Value::ZERO; 3]; 3],
    };

    /// A body of mass `m` with centre `c` and inertia `inertia` about it, in the fixed frame.
    pub(super) fn of_body(t: &mut Tracer, m: Value, c: &V3, inertia: &M3) -> Inertia {
        // Ī = I_c + m (|c|² 1 − c cᵀ).
        let first = scale3(t, m, c);
        let cc = dot(t, c, c);
        let about_origin = symmetric(t, |t, i, j| {
            let outer = t.mul(first[i], c[j]);
            let spread = if i == j {
                let mcc = t.mul(m, cc);
                t.sub(mcc, outer)
            } else {
                t.neg(outer)
            };
            t.add(inertia[i][j], spread)
        });
        Inertia {
            mass: m,
            first,
            about_origin,
        }
    }

    pub(super) fn plus(&self, t: &mut Tracer, other: &Inertia) -> Inertia {
        Inertia {
            mass: t.add(self.mass, other.mass),
            first: plus(t, &self.first, &other.first),
            about_origin: symmetric(t, |t, i, j| {
                t.add(self.about_origin[i][j], other.about_origin[i][j])
            }),
        }
    }

    /// `I x`: `(Ī ω + h × v, m v + ω × h)` for `x = (ω, v)`.
    pub(super) fn times(&self, t: &mut Tracer, x: &V6) -> V6 {
        let (w, v) = halves(x);
        let spin = times(t, &self.about_origin, &w);
        let lever = cross(t, &self.first, &v);
        let linear = scale3(t, self.mass, &v);
        let swept = cross(t, &w, &self.first);
        join(plus(t, &spin, &lever), plus(t, &linear, &swept))
    }

    /// The rate of change `İ = v ×* I − I (v×)` of this inertia carried by the motion `v`
    /// (mass 0): `ḣ = m v_O + ω × h`, `Ī̇ = [ω]× Ī − Ī [ω]× + 2 (h·v_O) 1 − v_O hᵀ − h v_Oᵀ`.
    pub(super) fn rate(&self, t: &mut Tracer, v: &V6) -> Inertia {
        let (w, v_o) = halves(v);
        let moved = scale3(t, self.mass, &v_o);
        let turned = cross(t, &w, &self.first);
        let first = plus(t, &moved, &turned);
        // [ω]× Ī column by column: ω × (column j); Ī [ω]× is its negative transpose
        // (Ī symmetric).
        let columns: [V3; 3] = std::array::from_fn(|j| {
            let column = [
                self.about_origin[0][j],
                self.about_origin[1][j],
                self.about_origin[2][j],
            ];
            cross(t, &w, &column)
        });
        let hv = dot(t, &self.first, &v_o);
        let two_hv = t.mul(Value::Number(2.0), hv);
        let about_origin = symmetric(t, |t, i, j| {
            let rotated = t.add(columns[j][i], columns[i][j]);
            let vh = t.mul(v_o[i], self.first[j]);
            let hv_ij = t.mul(self.first[i], v_o[j]);
            let mixed = t.add(vh, hv_ij);
            let moved = if i == j {
                t.sub(two_hv, mixed)
            } else {
                t.neg(mixed)
            };
            t.add(rotated, moved)
        });
        Inertia {
            mass: Value::ZERO,
            first,
            about_origin,
        }
    }
}

/// The symmetric 3×3 matrix with entries `entry(i, j)` for `j ≤ i`.
fn symmetric(t: &mut Tracer, mut entry: impl FnMut(&mut Tracer, usize, usize) -> Value) -> M3 {
    let lower: [[Value; 3]; 3] = std::array::from_fn(|i| {
        std::array::from_fn(|j| if j <= i { entry(t, i, j) } else { Value::ZERO })
    });
    std::array::from_fn(|i| std::array::from_fn(|j| lower[i.max(j)][i.min(j)]))
}
