//! Orientations of rigid bodies as rotation matrices `R` (body frame → fixed frame), in
//! model expressions: explicit matrices, rotations about a fixed axis, and z-x-z Euler
//! angles. The angular velocity in the body frame follows from `ω× = Rᵀ Ṙ` (seed 000).

use serde::{Deserialize, Serialize};

use crate::expr::{Expr, Func, Rational};

/// How a body's orientation is given.
///
/// Serialized as the derive writes it: a list of nine entries, or the text
/// `about_z(angle)` / `euler_zxz(phi, theta, psi)`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(try_from = "Written", into = "Written")]
pub enum Rotation {
    /// An explicit 3×3 matrix, row-major, as nine expressions.
    Matrix(Vec<String>),
    /// A rotation through the angle about the fixed axis `x`, `y` or `z`.
    About(Axis, String),
    /// z-x-z Euler angles `(φ, θ, ψ)`: `R = R_z(φ) R_x(θ) R_z(ψ)`.
    EulerZxz([String; 3]),
}

/// A coordinate axis.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum Axis {
    /// The x axis.
    X,
    /// The y axis.
    Y,
    /// The z axis.
    Z,
}

/// The serialized form of a [`Rotation`].
#[derive(Serialize, Deserialize)]
#[serde(untagged)]
enum Written {
    Matrix(Vec<String>),
    Call(String),
}

impl From<Rotation> for Written {
    fn from(r: Rotation) -> Self {
        match r {
            Rotation::Matrix(entries) => Written::Matrix(entries),
            Rotation::About(axis, angle) => {
                Written::Call(format!("about_{}({angle})", axis.name()))
            }
            Rotation::EulerZxz([phi, theta, psi]) => {
                Written::Call(format!("euler_zxz({phi}, {theta}, {psi})"))
            }
        }
    }
}

impl TryFrom<Written> for Rotation {
    type Error = String;

    fn try_from(w: Written) -> Result<Self, String> {
        let text = match w {
            Written::Matrix(entries) => return Ok(Rotation::Matrix(entries)),
            Written::Call(text) => text,
        };
        let expected = || {
            format!(
                "rotation `{text}`: expected a list of 9 entries, \"euler_zxz(phi, theta, psi)\" or \"about_x(angle)\" / \"about_y(angle)\" / \"about_z(angle)\""
            )
        };
        let (name, rest) = text.split_once('(').ok_or_else(expected)?;
        let inner = rest.trim_end().strip_suffix(')').ok_or_else(expected)?;
        let args = split_arguments(inner);
        match (name.trim(), args.as_slice()) {
            ("euler_zxz", [phi, theta, psi]) => Ok(Rotation::EulerZxz([
                phi.clone(),
                theta.clone(),
                psi.clone(),
            ])),
            ("about_x", [angle]) => Ok(Rotation::About(Axis::X, angle.clone())),
            ("about_y", [angle]) => Ok(Rotation::About(Axis::Y, angle.clone())),
            ("about_z", [angle]) => Ok(Rotation::About(Axis::Z, angle.clone())),
            _ => Err(expected()),
        }
    }
}

/// The comma-separated arguments of a call, splitting only outside parentheses.
fn split_arguments(inner: &str) -> Vec<String> {
    let mut args = vec![String::new()];
    let mut depth = 0usize;
    for c in inner.chars() {
        match c {
            '(' => depth += 1,
            ')' => depth = depth.saturating_sub(1),
            ',' if depth == 0 => {
                args.push(String::new());
                continue;
            }
            _ => {}
        }
        args.last_mut().expect("never empty").push(c);
    }
    args.iter().map(|a| a.trim().to_string()).collect()
}

impl Axis {
    /// `x`, `y` or `z`.
    pub fn name(self) -> &'static str {
        match self {
            Axis::X => "x",
            Axis::Y => "y",
            Axis::Z => "z",
        }
    }
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
