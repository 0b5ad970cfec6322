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
    /// Point masses: each adds `½ m |ṙ|²` to `T`.
    #[serde(rename = "particle", skip_serializing_if = "Vec::is_empty")]
    pub particles: Vec<Particle>,
    /// Rigid bodies: each adds `½ m |v_c|² + ½ ωᵀ I ω` to `T`.
    #[serde(rename = "body", skip_serializing_if = "Vec::is_empty")]
    pub bodies: Vec<Body>,
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
/// (3 principal moments, or 6 entries `xx, yy, zz, xy, xz, yz`), orientation, and the
/// position of the centre of mass (3 components).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Body {
    /// The name (for `name.x`, `name.y`, `name.z` in expressions).
    pub name: String,
    /// The mass.
    pub mass: String,
    /// The inertia tensor's entries.
    pub inertia: Vec<String>,
    /// The orientation.
    pub rotation: Rotation,
    /// The centre of mass.
    pub position: Vec<String>,
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
