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

/// The rotation through `angle` about the unit `axis` (Rodrigues), written
/// `R = cos α (I − a aᵀ) + sin α [a]× + a aᵀ` so that a numeric axis leaves each entry
/// with the fewest terms (about z: `R₃₃ = 1`, not `cos α + (1 − cos α)`). Its twin on
/// traced numbers, whose operation order the recursions' bits keep, is
/// `recursive::vector::about_axis`.
pub(super) fn about_axis(axis: &[Expr; 3], angle: &Expr) -> Matrix3 {
    let c = Expr::Call(Func::Cos, Box::new(angle.clone()));
    let s = Expr::Call(Func::Sin, Box::new(angle.clone()));
    // [a]× row by row: (0, −a₃, a₂), (a₃, 0, −a₁), (−a₂, a₁, 0).
    let cross = |i: usize, j: usize| -> Expr {
        match (i, j) {
            (0, 1) => Expr::Neg(Box::new(axis[2].clone())),
            (0, 2) => axis[1].clone(),
            (1, 0) => axis[2].clone(),
            (1, 2) => Expr::Neg(Box::new(axis[0].clone())),
            (2, 0) => Expr::Neg(Box::new(axis[1].clone())),
            (2, 1) => axis[0].clone(),
            _ => num(0),
        }
    };
    std::array::from_fn(|i| {
        std::array::from_fn(|j| {
            let outer = Expr::Mul(vec![axis[i].clone(), axis[j].clone()]);
            let projector = Expr::Add(vec![
                num(i128::from(i == j)),
                Expr::Neg(Box::new(outer.clone())),
            ]);
            Expr::Add(vec![
                Expr::Mul(vec![c.clone(), projector]),
                Expr::Mul(vec![s.clone(), cross(i, j)]),
                outer,
            ])
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
