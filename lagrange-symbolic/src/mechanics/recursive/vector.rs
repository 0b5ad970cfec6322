//! 3-vectors and 3×3 matrices of traced values: the arithmetic the recursions spell
//! their formulas in.

use super::super::rotation::Arithmetic;
use super::tree::{M3, V3};
use crate::ir::Intrinsic;
use crate::ir::trace::{Tracer, Value};

pub(super) fn dot(t: &mut Tracer, a: &V3, b: &V3) -> Value {
    let terms: Vec<Value> = (0..3).map(|i| t.mul(a[i], b[i])).collect();
    t.sum(terms)
}

pub(super) fn cross(t: &mut Tracer, a: &V3, b: &V3) -> V3 {
    let mut component = |i: usize, j: usize| {
        let x = t.mul(a[i], b[j]);
        let y = t.mul(a[j], b[i]);
        t.sub(x, y)
    };
    [component(1, 2), component(2, 0), component(0, 1)]
}

pub(super) fn scale(t: &mut Tracer, k: Value, v: &V3) -> V3 {
    std::array::from_fn(|i| t.mul(k, v[i]))
}

pub(super) fn plus(t: &mut Tracer, a: &V3, b: &V3) -> V3 {
    std::array::from_fn(|i| t.add(a[i], b[i]))
}

pub(super) fn matrix_plus(t: &mut Tracer, a: &M3, b: &M3) -> M3 {
    std::array::from_fn(|i| std::array::from_fn(|j| t.add(a[i][j], b[i][j])))
}

/// `m v`.
pub(super) fn times(t: &mut Tracer, m: &M3, v: &V3) -> V3 {
    std::array::from_fn(|i| dot(t, &m[i], v))
}

/// `mᵀ v`.
pub(super) fn transposed_times(t: &mut Tracer, m: &M3, v: &V3) -> V3 {
    std::array::from_fn(|i| {
        let column = [m[0][i], m[1][i], m[2][i]];
        dot(t, &column, v)
    })
}

/// `a b`.
pub(super) fn product(t: &mut Tracer, a: &M3, b: &M3) -> M3 {
    std::array::from_fn(|i| {
        std::array::from_fn(|j| {
            let column = [b[0][j], b[1][j], b[2][j]];
            dot(t, &a[i], &column)
        })
    })
}

/// `a bᵀ`.
pub(super) fn product_transposed(t: &mut Tracer, a: &M3, b: &M3) -> M3 {
    std::array::from_fn(|i| std::array::from_fn(|j| dot(t, &a[i], &b[j])))
}

/// Rotations (`rotation::about_axis`) on traced numbers, the zeros of an axis folded.
impl Arithmetic for Tracer {
    type Value = Value;

    fn number(&mut self, n: i8) -> Value {
        Value::Number(f64::from(n))
    }

    fn neg(&mut self, a: Value) -> Value {
        Tracer::neg(self, a)
    }

    fn add(&mut self, a: Value, b: Value) -> Value {
        Tracer::add(self, a, b)
    }

    fn sub(&mut self, a: Value, b: Value) -> Value {
        Tracer::sub(self, a, b)
    }

    fn mul(&mut self, a: Value, b: Value) -> Value {
        Tracer::mul(self, a, b)
    }

    fn cos(&mut self, a: Value) -> Value {
        self.call(Intrinsic::Cos, a)
    }

    fn sin(&mut self, a: Value) -> Value {
        self.call(Intrinsic::Sin, a)
    }
}
