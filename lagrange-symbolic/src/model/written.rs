//! A model as a front end writes it: names and expression sources, not yet checked.

use serde::{Deserialize, Serialize};

use super::Rotation;

/// A model as written: names and expression sources, not yet checked.
///
/// Its serialized form uses the derive's keys (`coordinates`, `kinetic`, `force`,
/// `constraint`, `particle`, `body`, …), so a model file reads like the attribute.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct Model {
    /// The model's name (the struct's name for the derive).
    pub name: String,
    /// Generalized coordinates, in order.
    pub coordinates: Vec<String>,
    /// Parameters (the struct's `f64` fields), in order.
    pub parameters: Vec<String>,
    /// The parameters that are inputs: signals a controller sets while the system moves
    /// (a force on a cart, a motor torque), not constants of the model.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub inputs: Vec<String>,
    /// Kinetic energy `T`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub kinetic: Option<String>,
    /// Potential energy `V` (zero when absent).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub potential: Option<String>,
    /// The Lagrangian `L`, instead of `kinetic`/`potential`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub lagrangian: Option<String>,
    /// Generalized forces `Q_q`, as (coordinate, expression).
    #[serde(
        rename = "force",
        with = "ordered_map",
        skip_serializing_if = "Vec::is_empty"
    )]
    pub forces: Vec<(String, String)>,
    /// Rayleigh dissipation function `F`: adds `−∂F/∂q̇` to each equation.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub dissipation: Option<String>,
    /// A uniform gravitational field `g` (3 components, in the fixed frame): adds
    /// `−m g·r` to `V` for every particle and body (`r` its centre of mass).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub gravity: Option<Vec<String>>,
    /// Cyclic coordinates to eliminate by Routh's reduction (Thomson & Tait's
    /// "ignoration of coordinates").
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub ignore: Vec<String>,
    /// Holonomic constraints `G(t, q) = 0`, one expression each.
    #[serde(rename = "constraint", skip_serializing_if = "Vec::is_empty")]
    pub constraints: Vec<String>,
    /// Velocity (nonholonomic) constraints `a(t, q)·q̇ + b(t, q) = 0`, linear in the
    /// velocities: one expression each, the left side (rolling without slipping).
    #[serde(rename = "velocity_constraint", skip_serializing_if = "Vec::is_empty")]
    pub velocity_constraints: Vec<String>,
    /// Point masses: each adds `½ m |ṙ|²` to `T`.
    #[serde(rename = "particle", skip_serializing_if = "Vec::is_empty")]
    pub particles: Vec<Particle>,
    /// Rigid bodies: each adds `½ m |v_c|² + ½ ωᵀ I ω` to `T`.
    #[serde(rename = "body", skip_serializing_if = "Vec::is_empty")]
    pub bodies: Vec<Body>,
    /// What a report's animation draws besides the particles and bodies: named points
    /// and lines.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub draw: Vec<Draw>,
}

/// One entry of a model's drawing: a point the animation of a report draws, and the line
/// from it to another point.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct Draw {
    /// The point's name: a new point placed by `at`, or a particle or body of the model.
    pub point: String,
    /// A new point's position: 2 or 3 components, functions of `t`, the coordinates and
    /// the parameters (empty for a particle or body).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub at: Vec<String>,
    /// The point to draw a line to: a particle, a body, another drawn point, or
    /// [`ORIGIN`](super::ORIGIN).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub link: Option<String>,
}

/// A point mass: its name (for `name.x`, `name.y`, `name.z` in expressions), mass and
/// position (2 or 3 components, functions of `t`, coordinates and parameters).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Particle {
    /// The name.
    pub name: String,
    /// The mass.
    pub mass: String,
    /// The position's components.
    pub position: Vec<String>,
}

/// A rigid body: name, mass, inertia tensor about the centre of mass in the body frame
/// (3 principal moments, or 6 entries `xx, yy, zz, xy, xz, yz`), and its placement: an
/// orientation and the position of the centre of mass (3 components), or a joint to a
/// parent body (or to the fixed frame) as a URDF describes a link: the joint's origin
/// and `rpy` in the parent's frame, its axis and the centre of mass in the body's frame.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Body {
    /// The name (for `name.x`, `name.y`, `name.z` in expressions).
    pub name: String,
    /// The mass.
    pub mass: String,
    /// The inertia tensor's entries.
    pub inertia: Vec<String>,
    /// The orientation, for a body placed by `rotation` and `position`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub rotation: Option<Rotation>,
    /// The centre of mass, for a body placed by `rotation` and `position`.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub position: Vec<String>,
    /// The body the joint attaches this one to (none: the fixed frame).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub parent: Option<String>,
    /// The joint to the parent, for a body of a kinematic tree.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub joint: Option<Joint>,
    /// The joint's axis, a unit vector in the body's frame (revolute and prismatic).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub axis: Vec<String>,
    /// The joint's position in the parent's frame (default: its origin).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub origin: Vec<String>,
    /// The joint frame's orientation in the parent's frame as roll, pitch, yaw about the
    /// parent's x, y, z axes (`R = R_z(yaw) R_y(pitch) R_x(roll)`, as URDF; default 0).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub rpy: Vec<String>,
    /// The centre of mass in the body's frame (default: its origin).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub com: Vec<String>,
    /// The radius `R` of a thin wheel about the body's z axis, centred at its centre of
    /// mass, that rolls without slipping on the ground plane `z = 0`: two velocity
    /// constraints, the contact point's horizontal velocity zero.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub rolls: Option<String>,
}

/// A joint of a kinematic tree, written `revolute(q)`, `prismatic(q)`, `fixed`,
/// `spherical(a, b, c)` or `free(x, y, z, a, b, c)`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(try_from = "String", into = "String")]
pub enum Joint {
    /// A rotation through the coordinate about the axis.
    Revolute(String),
    /// A translation by the coordinate along the axis.
    Prismatic(String),
    /// No motion relative to the parent.
    Fixed,
    /// A ball joint: the rotation `R_z(a) R_y(b) R_x(c)` through the three coordinates.
    Spherical([String; 3]),
    /// A floating base: the translation `(x, y, z)` in the joint's frame, then the
    /// rotation of a spherical joint.
    Free([String; 6]),
}

impl From<Joint> for String {
    fn from(joint: Joint) -> String {
        match joint {
            Joint::Revolute(q) => format!("revolute({q})"),
            Joint::Prismatic(q) => format!("prismatic({q})"),
            Joint::Fixed => "fixed".into(),
            Joint::Spherical(angles) => format!("spherical({})", angles.join(", ")),
            Joint::Free(coordinates) => format!("free({})", coordinates.join(", ")),
        }
    }
}

impl TryFrom<String> for Joint {
    type Error = String;

    fn try_from(text: String) -> Result<Joint, String> {
        let call = |name: &str| {
            text.trim()
                .strip_prefix(name)
                .and_then(|rest| rest.trim().strip_prefix('('))
                .and_then(|rest| rest.trim_end().strip_suffix(')'))
                .map(|q| q.trim().to_string())
        };
        let list = |name: &str| -> Option<Vec<String>> {
            let inner = call(name)?;
            Some(inner.split(',').map(|q| q.trim().to_string()).collect())
        };
        if text.trim() == "fixed" {
            Ok(Joint::Fixed)
        } else if let Some(Ok(angles)) = list("spherical").map(<[String; 3]>::try_from) {
            Ok(Joint::Spherical(angles))
        } else if let Some(Ok(coordinates)) = list("free").map(<[String; 6]>::try_from) {
            Ok(Joint::Free(coordinates))
        } else if let Some(q) = call("revolute").filter(|q| !q.contains(',')) {
            Ok(Joint::Revolute(q))
        } else if let Some(q) = call("prismatic").filter(|q| !q.contains(',')) {
            Ok(Joint::Prismatic(q))
        } else {
            Err(format!(
                "joint `{}`: expected \"revolute(q)\", \"prismatic(q)\", \"fixed\", \"spherical(a, b, c)\" or \"free(x, y, z, a, b, c)\"",
                crate::syntax::print::excerpt_text(&text)
            ))
        }
    }
}

/// `(key, value)` pairs as a map that keeps their order (`force = { q = "…" }`).
mod ordered_map {
    use std::fmt;

    use serde::de::{MapAccess, Visitor};
    use serde::ser::SerializeMap;
    use serde::{Deserializer, Serializer};

    pub(super) fn serialize<S: Serializer>(
        pairs: &[(String, String)],
        s: S,
    ) -> Result<S::Ok, S::Error> {
        let mut map = s.serialize_map(Some(pairs.len()))?;
        for (k, v) in pairs {
            map.serialize_entry(k, v)?;
        }
        map.end()
    }

    pub(super) fn deserialize<'de, D: Deserializer<'de>>(
        d: D,
    ) -> Result<Vec<(String, String)>, D::Error> {
        struct Pairs;
        impl<'de> Visitor<'de> for Pairs {
            type Value = Vec<(String, String)>;
            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("a table of coordinate = \"expression\"")
            }
            fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Self::Value, A::Error> {
                let mut pairs = Vec::new();
                while let Some(pair) = map.next_entry()? {
                    pairs.push(pair);
                }
                Ok(pairs)
            }
        }
        d.deserialize_map(Pairs)
    }
}

#[cfg(test)]
mod joint_tests {
    use super::Joint;

    #[test]
    fn joints_read_and_print_back() {
        for text in [
            "revolute(q1)",
            "prismatic(x)",
            "fixed",
            "spherical(a, b, c)",
            "free(x, y, z, a, b, c)",
        ] {
            let joint = Joint::try_from(text.to_string()).unwrap();
            assert_eq!(String::from(joint), text);
        }
        for bad in [
            "revolute(a, b)",
            "spherical(a, b)",
            "free(x)",
            "hinge(q)",
            "revolute",
        ] {
            let e = Joint::try_from(bad.to_string()).unwrap_err();
            assert!(e.starts_with("joint `"), "{bad}: {e}");
        }
    }
}
