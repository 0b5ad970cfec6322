//! How a body's orientation is written: an explicit rotation matrix `R` (body frame →
//! fixed frame), a rotation about a fixed axis, z-x-z Euler angles, or a product of
//! rotations about axes.

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
    /// A product `R_{a₁}(α₁) R_{a₂}(α₂) …` of rotations about coordinate axes, written
    /// `about_z(phi) * about_y(theta) * about_x(psi)` (`euler_zxz(…)` stands for its three
    /// factors); each factor is about an axis of the frame the previous ones produce.
    Product(Vec<(Axis, String)>),
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
            Rotation::Product(factors) => Written::Call(
                factors
                    .iter()
                    .map(|(axis, angle)| format!("about_{}({angle})", axis.name()))
                    .collect::<Vec<_>>()
                    .join(" * "),
            ),
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
        let factors = split_outside_parentheses(&text, '*');
        if factors.len() > 1 {
            let rotations = factors
                .iter()
                .map(|f| Rotation::try_from(Written::Call(f.clone())))
                .collect::<Result<Vec<_>, _>>()?;
            return Rotation::product(rotations).ok_or_else(|| {
                format!("rotation `{text}`: a product takes about_x/about_y/about_z(angle) and euler_zxz(…) factors, not matrices")
            });
        }
        let expected = || {
            format!(
                "rotation `{text}`: expected a list of 9 entries, \"euler_zxz(phi, theta, psi)\", \"about_x(angle)\" / \"about_y(angle)\" / \"about_z(angle)\", or a product of these with `*`"
            )
        };
        let (name, rest) = text.split_once('(').ok_or_else(expected)?;
        let inner = rest.trim_end().strip_suffix(')').ok_or_else(expected)?;
        let args = split_outside_parentheses(inner, ',');
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

impl Rotation {
    /// The product of rotations about axes (Euler angles stand for their three factors);
    /// `None` if a factor is a matrix.
    pub fn product(factors: Vec<Rotation>) -> Option<Rotation> {
        let mut axes = Vec::new();
        for f in factors {
            match f {
                Rotation::About(axis, angle) => axes.push((axis, angle)),
                Rotation::EulerZxz([phi, theta, psi]) => {
                    axes.extend([(Axis::Z, phi), (Axis::X, theta), (Axis::Z, psi)]);
                }
                Rotation::Product(inner) => axes.extend(inner),
                Rotation::Matrix(_) => return None,
            }
        }
        Some(Rotation::Product(axes))
    }
}

/// `text` split at `separator` where it is outside parentheses, each part trimmed (the
/// arguments of a call, the factors of a product).
fn split_outside_parentheses(text: &str, separator: char) -> Vec<String> {
    let mut args = vec![String::new()];
    let mut depth = 0usize;
    for c in text.chars() {
        match c {
            '(' => depth += 1,
            ')' => depth = depth.saturating_sub(1),
            c if c == separator && depth == 0 => {
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

#[cfg(test)]
mod tests {
    use super::*;

    fn read(text: &str) -> Result<Rotation, String> {
        Rotation::try_from(Written::Call(text.into()))
    }

    #[test]
    fn a_product_reads_its_factors_and_prints_back() {
        let r = read("about_z(a) * euler_zxz(b, f(c, d), e)").unwrap();
        let expected = [
            (Axis::Z, "a"),
            (Axis::Z, "b"),
            (Axis::X, "f(c, d)"),
            (Axis::Z, "e"),
        ]
        .map(|(axis, angle)| (axis, angle.to_string()))
        .to_vec();
        assert_eq!(r, Rotation::Product(expected));
        let Written::Call(text) = Written::from(r.clone()) else {
            panic!("a product is written as a call")
        };
        assert_eq!(read(&text).unwrap(), r);
        // A `*` inside an angle is the angle's, not the product's.
        assert_eq!(
            read("about_x(2*t)").unwrap(),
            Rotation::About(Axis::X, "2*t".into())
        );
    }

    #[test]
    fn a_bad_factor_names_the_rotation() {
        for text in [
            "about_z(a) * about_q(b)",
            "about_z(a) * ",
            "about_z(a) * euler_zxz(b)",
        ] {
            let e = read(text).unwrap_err();
            assert!(e.contains("rotation `"), "{text}: {e}");
        }
        assert!(Rotation::product(vec![Rotation::Matrix(vec![])]).is_none());
    }
}
