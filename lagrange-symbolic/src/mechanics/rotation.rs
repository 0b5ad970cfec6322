//! Rotation matrices `R` (body frame → fixed frame) of the written orientations, as
//! matrices of expressions.

use crate::model::{Axis, Matrix3, Orientation};
use crate::syntax::{Expr, Func, PI, Rational};

/// The rotation matrix of an orientation.
pub(crate) fn matrix(orientation: &Orientation) -> Matrix3 {
    match orientation {
        Orientation::Matrix(m) => (**m).clone(),
        Orientation::About(axis, angle) => about(*axis, angle),
        Orientation::EulerZxz([phi, theta, psi]) => euler_zxz(phi, theta, psi),
        Orientation::Product(factors) => factors
            .iter()
            .map(|(axis, angle)| about(*axis, angle))
            .reduce(|a, b| product(&a, &b))
            .unwrap_or_else(|| about(Axis::Z, &num(0))),
    }
}

fn num(n: i128) -> Expr {
    Expr::Number(Rational::int(n))
}

/// The most quarter turns [`cos_sin`] recognizes as exact.
const MOST_QUARTER_TURNS: f64 = 1024.0;

/// `cos` and `sin` of `angle`: exact numbers for a quarter turn written with `pi` and
/// numbers only (`rpy = ["-pi/2", "0", "0"]` turns a wheel's axle onto its z axis), so
/// that no `sin(-(1/2)*pi)` is carried through the derivation; calls otherwise. A decimal
/// near a quarter turn (`1.5707963`) is left as written.
fn cos_sin(angle: &Expr) -> (Expr, Expr) {
    let mut written_with_pi = false;
    angle.for_each_leaf(&mut |leaf| written_with_pi |= matches!(leaf, Expr::Name(n) if n == PI));
    let value = crate::ir::lower::number(angle).ok();
    let quarters = value.map(|v| v / std::f64::consts::FRAC_PI_2);
    match quarters {
        // Beyond a few turns the f64 value cannot tell a quarter turn from a nearby angle
        // (and `k as i64` would saturate): such angles keep their calls.
        Some(k)
            if written_with_pi
                && k.abs() <= MOST_QUARTER_TURNS
                && (k - k.round()).abs() <= 4.0 * f64::EPSILON * k.abs().max(1.0) =>
        {
            let (c, s) =
                [(1, 0), (0, 1), (-1, 0), (0, -1)][(k.round() as i64).rem_euclid(4) as usize];
            (num(c), num(s))
        }
        _ => (
            Expr::Call(Func::Cos, Box::new(angle.clone())),
            Expr::Call(Func::Sin, Box::new(angle.clone())),
        ),
    }
}

/// The elementary rotation through `angle` about `axis`.
pub(super) fn about(axis: Axis, angle: &Expr) -> Matrix3 {
    let (c, s) = cos_sin(angle);
    let ms = Expr::Neg(Box::new(s.clone()));
    match axis {
        Axis::X => [
            [num(1), num(0), num(0)],
            [num(0), c.clone(), ms],
            [num(0), s, c],
        ],
        Axis::Y => [
            [c.clone(), num(0), s],
            [num(0), num(1), num(0)],
            [ms, num(0), c],
        ],
        Axis::Z => [
            [c.clone(), ms, num(0)],
            [s, c, num(0)],
            [num(0), num(0), num(1)],
        ],
    }
}

/// The arithmetic a rotation is written in: expressions for the engine
/// ([`ExprArithmetic`]), traced numbers for the recursions (`ir::trace::Tracer`, whose
/// operation order their programs' bits keep).
pub(super) trait Arithmetic {
    type Value: Clone;
    fn number(&mut self, n: i8) -> Self::Value;
    fn neg(&mut self, a: Self::Value) -> Self::Value;
    fn add(&mut self, a: Self::Value, b: Self::Value) -> Self::Value;
    fn sub(&mut self, a: Self::Value, b: Self::Value) -> Self::Value;
    fn mul(&mut self, a: Self::Value, b: Self::Value) -> Self::Value;
    fn cos(&mut self, a: Self::Value) -> Self::Value;
    fn sin(&mut self, a: Self::Value) -> Self::Value;
}

/// [`Arithmetic`] on expressions, as written: nothing folds (the engine simplifies).
pub(super) struct ExprArithmetic;

impl Arithmetic for ExprArithmetic {
    type Value = Expr;

    fn number(&mut self, n: i8) -> Expr {
        num(n.into())
    }

    fn neg(&mut self, a: Expr) -> Expr {
        Expr::Neg(Box::new(a))
    }

    /// `a + b`, one sum with `a`'s terms when `a` is one.
    fn add(&mut self, a: Expr, b: Expr) -> Expr {
        match a {
            Expr::Add(mut terms) => {
                terms.push(b);
                Expr::Add(terms)
            }
            a => Expr::Add(vec![a, b]),
        }
    }

    fn sub(&mut self, a: Expr, b: Expr) -> Expr {
        Expr::Add(vec![a, Expr::Neg(Box::new(b))])
    }

    fn mul(&mut self, a: Expr, b: Expr) -> Expr {
        Expr::Mul(vec![a, b])
    }

    fn cos(&mut self, a: Expr) -> Expr {
        Expr::Call(Func::Cos, Box::new(a))
    }

    fn sin(&mut self, a: Expr) -> Expr {
        Expr::Call(Func::Sin, Box::new(a))
    }
}

/// The rotation through `angle` about the unit `axis` (Rodrigues), written
/// `R = cos α (I − a aᵀ) + sin α [a]× + a aᵀ` so that a numeric axis leaves each entry
/// with the fewest terms (about z: `R₃₃ = 1`, not `cos α + (1 − cos α)`).
pub(super) fn about_axis<A: Arithmetic>(
    x: &mut A,
    a: &[A::Value; 3],
    angle: &A::Value,
) -> [[A::Value; 3]; 3] {
    let c = x.cos(angle.clone());
    let s = x.sin(angle.clone());
    let zero = x.number(0);
    // [a]× row by row: (0, −a₃, a₂), (a₃, 0, −a₁), (−a₂, a₁, 0).
    let cross = [
        [zero.clone(), x.neg(a[2].clone()), a[1].clone()],
        [a[2].clone(), zero.clone(), x.neg(a[0].clone())],
        [x.neg(a[1].clone()), a[0].clone(), zero],
    ];
    std::array::from_fn(|i| {
        std::array::from_fn(|j| {
            let outer = x.mul(a[i].clone(), a[j].clone());
            let identity = x.number(i8::from(i == j));
            let projector = x.sub(identity, outer.clone());
            let cosine = x.mul(c.clone(), projector);
            let sine = x.mul(s.clone(), cross[i][j].clone());
            let turned = x.add(cosine, sine);
            x.add(turned, outer)
        })
    })
}

/// URDF's `rpy`: `R_z(yaw) R_y(pitch) R_x(roll)`. Its twin on `f64`, without exact quarter
/// turns (the URDF import's bits), is `source::urdf::frames::rpy_matrix`.
pub(super) fn roll_pitch_yaw([roll, pitch, yaw]: &[Expr; 3]) -> Matrix3 {
    product(
        &product(&about(Axis::Z, yaw), &about(Axis::Y, pitch)),
        &about(Axis::X, roll),
    )
}

/// The product `a b`, entry by entry as sums of products.
pub(super) fn product(a: &Matrix3, b: &Matrix3) -> Matrix3 {
    std::array::from_fn(|i| {
        std::array::from_fn(|j| {
            Expr::Add(
                (0..3)
                    .map(|k| Expr::Mul(vec![a[i][k].clone(), b[k][j].clone()]))
                    .collect(),
            )
        })
    })
}

/// `R_z(φ) R_x(θ) R_z(ψ)`.
pub(super) fn euler_zxz(phi: &Expr, theta: &Expr, psi: &Expr) -> Matrix3 {
    product(
        &product(&about(Axis::Z, phi), &about(Axis::X, theta)),
        &about(Axis::Z, psi),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    fn eval(e: &Expr, x: f64) -> f64 {
        match e {
            Expr::Number(r) => r.to_f64(),
            Expr::Name(_) => x,
            Expr::Neg(a) => -eval(a, x),
            Expr::Add(t) => t.iter().map(|e| eval(e, x)).sum(),
            Expr::Mul(t) => t.iter().map(|e| eval(e, x)).product(),
            Expr::Call(Func::Sin, a) => eval(a, x).sin(),
            Expr::Call(Func::Cos, a) => eval(a, x).cos(),
            other => panic!("unexpected {other:?}"),
        }
    }

    #[test]
    fn euler_angles_give_an_orthogonal_matrix_with_the_textbook_third_column() {
        let angle = Expr::Name("a".into());
        let r = euler_zxz(&angle, &angle, &angle);
        let a: f64 = 0.7;
        let m: Vec<Vec<f64>> = r
            .iter()
            .map(|row| row.iter().map(|e| eval(e, a)).collect())
            .collect();
        for i in 0..3 {
            for j in 0..3 {
                let dot: f64 = (0..3).map(|k| m[k][i] * m[k][j]).sum();
                assert!((dot - if i == j { 1.0 } else { 0.0 }).abs() < 1e-15);
            }
        }
        // R e₃ = (sin φ sin θ, −cos φ sin θ, cos θ).
        let expected = [a.sin() * a.sin(), -a.cos() * a.sin(), a.cos()];
        for i in 0..3 {
            assert!((m[i][2] - expected[i]).abs() < 1e-15);
        }
    }

    #[test]
    fn quarter_turns_written_with_pi_are_exact() {
        let angle = |text: &str| Expr::parse(text).unwrap();
        let int = |n| Expr::Number(Rational::int(n));
        let quarter = about(Axis::X, &angle("-pi/2"));
        let expected = [[1, 0, 0], [0, 0, 1], [0, -1, 0]];
        for (row, want) in quarter.iter().zip(expected) {
            for (e, w) in row.iter().zip(want) {
                assert!(
                    *e == int(w) || *e == Expr::Neg(Box::new(int(-w))),
                    "{e:?} for {w}"
                );
            }
        }
        assert_eq!(cos_sin(&angle("3*pi/2")), (int(0), int(-1)));
        assert_eq!(cos_sin(&angle("2*pi")), (int(1), int(0)));
        // Not a quarter turn, or not written with pi: the calls stay. 1e20·π is a whole
        // number of turns an f64 cannot count (a saturating cast made it a quarter turn).
        for text in [
            "1e20*pi",
            "pi/3",
            "1.5707963267948966",
            "pi/2 + 1e-13",
            "lambda - pi/2",
        ] {
            let (c, _) = cos_sin(&angle(text));
            assert!(matches!(c, Expr::Call(Func::Cos, _)), "{text}: {c:?}");
        }
    }
}
