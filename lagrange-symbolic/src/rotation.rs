//! Orientations of rigid bodies as rotation matrices `R` (body frame → fixed frame), in
//! model expressions: explicit matrices, rotations about a fixed axis, and z-x-z Euler
//! angles. The angular velocity in the body frame follows from `ω× = Rᵀ Ṙ` (seed 000).

use crate::expr::{Expr, Func, Rational};

/// How a body's orientation is given.
#[derive(Debug, Clone, PartialEq)]
pub enum Rotation {
    /// An explicit 3×3 matrix, row-major, as nine expressions.
    Matrix(Vec<String>),
    /// A rotation through the angle about the fixed axis `x`, `y` or `z`.
    About(Axis, String),
    /// z-x-z Euler angles `(φ, θ, ψ)`: `R = R_z(φ) R_x(θ) R_z(ψ)`.
    EulerZxz([String; 3]),
}

/// A coordinate axis.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Axis {
    /// The x axis.
    X,
    /// The y axis.
    Y,
    /// The z axis.
    Z,
}

/// A 3×3 matrix of expressions.
pub type Matrix3 = [[Expr; 3]; 3];

fn num(n: i128) -> Expr {
    Expr::Number(Rational::int(n))
}

/// The elementary rotation through `angle` about `axis`.
pub fn about(axis: Axis, angle: &Expr) -> Matrix3 {
    let c = Expr::Call(Func::Cos, Box::new(angle.clone()));
    let s = Expr::Call(Func::Sin, Box::new(angle.clone()));
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

/// The product `a b`, entry by entry as sums of products.
pub fn product(a: &Matrix3, b: &Matrix3) -> Matrix3 {
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
pub fn euler_zxz(phi: &Expr, theta: &Expr, psi: &Expr) -> Matrix3 {
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
}
