//! How a body's orientation is written: an explicit rotation matrix `R` (body frame →
//! fixed frame), a rotation about a fixed axis, or z-x-z Euler angles.

use serde::{Deserialize, Serialize};

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
