//! A mechanical model as declared by a front end (the derive's attributes or a model
//! file), and its validation into a [`CheckedModel`] whose expressions are parsed and
//! refer only to known names.
//!
//! Validation needs no computer algebra: every error here is found from the text alone,
//! and each names the [`Item`] it is about so that a front end can point at it.

use std::collections::{HashMap, HashSet};
use std::fmt;

use serde::{Deserialize, Serialize};

use crate::expr::{Expr, Func, Rational};
use crate::rotation::{self, Matrix3, Rotation};

/// Names that the expression syntax reserves.
pub const TIME: &str = "t";
/// The constant π.
pub const PI: &str = "pi";

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

/// The part of a [`Model`] an error is about.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Item {
    /// The model as a whole.
    Model,
    /// The coordinate list as a whole (e.g. it is missing).
    Coordinates,
    /// Coordinate `i`.
    Coordinate(usize),
    /// Parameter `i`.
    Parameter(usize),
    /// The kinetic energy.
    Kinetic,
    /// The potential energy.
    Potential,
    /// The Lagrangian.
    Lagrangian,
    /// Generalized force `i` (in the order of [`Model::forces`]).
    Force(usize),
    /// The dissipation function.
    Dissipation,
    /// Ignored coordinate `i` (in the order of [`Model::ignore`]).
    Ignore(usize),
    /// Constraint `i` (in the order of [`Model::constraints`]).
    Constraint(usize),
    /// Particle `i`.
    Particle(usize),
    /// Body `i`.
    Body(usize),
}

/// A problem with a model, and the item it is about.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ModelError {
    /// Where the problem is.
    pub item: Item,
    /// What is wrong, in a sentence that names the offending thing.
    pub message: String,
}

impl fmt::Display for ModelError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message)
    }
}

/// A validated model: expressions parsed, names resolved.
#[derive(Debug, Clone, PartialEq)]
pub struct CheckedModel {
    /// The model's name.
    pub name: String,
    /// Generalized coordinates, in order.
    pub coordinates: Vec<String>,
    /// Parameters, in order.
    pub parameters: Vec<String>,
    /// How the Lagrangian is given.
    pub energy: Energy,
    /// Generalized force on each coordinate (`None`: no force), indexed like `coordinates`.
    pub forces: Vec<Option<Expr>>,
    /// Rayleigh dissipation function.
    pub dissipation: Option<Expr>,
    /// Indices of the coordinates to ignore (Routh's reduction), in the order given.
    pub ignored: Vec<usize>,
    /// Holonomic constraints `G(t, q) = 0`.
    pub constraints: Vec<Expr>,
    /// Point masses: (mass, position).
    pub particles: Vec<(Expr, Vec<Expr>)>,
    /// Rigid bodies.
    pub bodies: Vec<CheckedBody>,
}

/// The parametrization of a checked body's rotation.
#[derive(Debug, Clone, PartialEq)]
pub enum Orientation {
    /// An explicit matrix.
    Matrix,
    /// A rotation about a fixed axis through the angle.
    About(rotation::Axis, Expr),
    /// z-x-z Euler angles.
    EulerZxz([Expr; 3]),
}

/// A checked rigid body, everything as expressions.
#[derive(Debug, Clone, PartialEq)]
pub struct CheckedBody {
    /// The name, for messages.
    pub name: String,
    /// The mass.
    pub mass: Expr,
    /// The inertia tensor about the centre of mass, body frame.
    pub inertia: Matrix3,
    /// The rotation matrix, body frame → fixed frame.
    pub rotation: Matrix3,
    /// How the rotation was given, for the angular velocity's closed form.
    pub orientation: Orientation,
    /// The centre of mass.
    pub position: [Expr; 3],
}

/// The Lagrangian of a checked model.
#[derive(Debug, Clone, PartialEq)]
pub enum Energy {
    /// `L = T − V`.
    KineticPotential {
        /// `T`.
        kinetic: Expr,
        /// `V` (zero when not given).
        potential: Expr,
    },
    /// `L` given directly.
    Lagrangian(Expr),
}

/// `(key, value)` pairs as a map that keeps their order (`force = { q = "…" }`).
mod ordered_map {
    use std::fmt;

    use serde::de::{MapAccess, Visitor};
    use serde::ser::SerializeMap;
    use serde::{Deserializer, Serializer};

    pub fn serialize<S: Serializer>(pairs: &[(String, String)], s: S) -> Result<S::Ok, S::Error> {
        let mut map = s.serialize_map(Some(pairs.len()))?;
        for (k, v) in pairs {
            map.serialize_entry(k, v)?;
        }
        map.end()
    }

    pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<Vec<(String, String)>, D::Error> {
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

impl Model {
    /// Checks the model; on failure returns every problem found, not just the first.
    pub fn check(&self) -> Result<CheckedModel, Vec<ModelError>> {
        let mut errors = Vec::new();
        let mut err = |item, message: String| errors.push(ModelError { item, message });

        let reserved = |name: &str| name == TIME || name == PI || Func::from_name(name).is_some();
        let mut seen = HashSet::new();
        if self.coordinates.is_empty() {
            err(
                Item::Coordinates,
                "no generalized coordinates: declare them with `coordinates(q1, q2, …)`".into(),
            );
        }
        for (i, q) in self.coordinates.iter().enumerate() {
            if reserved(q) || q == "dot" {
                err(
                    Item::Coordinate(i),
                    format!("`{q}` is reserved and cannot be a coordinate"),
                );
            } else if !seen.insert(q.as_str()) {
                err(
                    Item::Coordinate(i),
                    format!("coordinate `{q}` is declared twice"),
                );
            }
        }
        for (i, p) in self.parameters.iter().enumerate() {
            if self.coordinates.contains(p) {
                err(
                    Item::Parameter(i),
                    format!(
                        "`{p}` is both a parameter (field) and a coordinate: rename one of them"
                    ),
                );
            } else if reserved(p) {
                err(
                    Item::Parameter(i),
                    format!("`{p}` is reserved and cannot be a parameter"),
                );
            }
        }

        let mut scope = Scope {
            model: self,
            components: HashMap::new(),
        };
        let (particles, bodies) = self.check_bodies(&mut scope, &mut errors);
        let parse =
            |item: Item, source: &str, allow_velocity: bool, errors: &mut Vec<ModelError>| {
                scope
                    .parse(item, source, allow_velocity)
                    .map_err(|e| errors.extend(e))
                    .ok()
            };
        let energy = match (&self.lagrangian, &self.kinetic, &self.potential) {
            (Some(l), None, None) => {
                parse(Item::Lagrangian, l, true, &mut errors).map(Energy::Lagrangian)
            }
            (Some(_), _, _) => {
                errors.push(ModelError {
                    item: Item::Lagrangian,
                    message: "give either `lagrangian` or `kinetic`/`potential`, not both".into(),
                });
                None
            }
            (None, Some(t), v) => {
                let kinetic = parse(Item::Kinetic, t, true, &mut errors);
                let potential = match v {
                    Some(v) => parse(Item::Potential, v, false, &mut errors),
                    None => Some(Expr::Number(Rational::int(0))),
                };
                kinetic
                    .zip(potential)
                    .map(|(kinetic, potential)| Energy::KineticPotential { kinetic, potential })
            }
            (None, None, v) if !(self.particles.is_empty() && self.bodies.is_empty()) => {
                let potential = match v {
                    Some(v) => parse(Item::Potential, v, false, &mut errors),
                    None => Some(Expr::Number(Rational::int(0))),
                };
                potential.map(|potential| Energy::KineticPotential {
                    kinetic: Expr::Number(Rational::int(0)),
                    potential,
                })
            }
            (None, None, _) => {
                errors.push(ModelError {
                    item: Item::Model,
                    message: "no kinetic energy or Lagrangian: add `kinetic = \"…\"` (with `potential = \"…\"`), `particle(…)`/`body(…)`, or `lagrangian = \"…\"`".into(),
                });
                None
            }
        };

        let mut forces = vec![None; self.coordinates.len()];
        for (i, (q, source)) in self.forces.iter().enumerate() {
            let Some(index) = self.coordinates.iter().position(|c| c == q) else {
                errors.push(ModelError {
                    item: Item::Force(i),
                    message: format!("force on `{q}`, which is not a declared coordinate"),
                });
                continue;
            };
            if forces[index].is_some() {
                errors.push(ModelError {
                    item: Item::Force(i),
                    message: format!("two forces on `{q}`: give their sum once"),
                });
                continue;
            }
            forces[index] = parse(Item::Force(i), source, true, &mut errors);
        }
        let ignored = self.check_ignored(&forces, &mut errors);
        let constraints = self.check_constraints(&scope, &mut errors);
        let dissipation = self
            .dissipation
            .as_ref()
            .and_then(|f| parse(Item::Dissipation, f, true, &mut errors));

        match energy {
            Some(energy) if errors.is_empty() => Ok(CheckedModel {
                name: self.name.clone(),
                coordinates: self.coordinates.clone(),
                parameters: self.parameters.clone(),
                energy,
                forces,
                dissipation,
                ignored,
                constraints,
                particles,
                bodies,
            }),
            _ => Err(errors),
        }
    }
}

impl Model {
    /// Resolves `ignore(...)`: declared coordinates, once each, at least one retained, no
    /// force acting on them, and a free name for the constant momentum field.
    fn check_ignored(&self, forces: &[Option<Expr>], errors: &mut Vec<ModelError>) -> Vec<usize> {
        let mut ignored = Vec::new();
        for (i, chi) in self.ignore.iter().enumerate() {
            let mut err = |message: String| {
                errors.push(ModelError {
                    item: Item::Ignore(i),
                    message,
                })
            };
            let Some(index) = self.coordinates.iter().position(|q| q == chi) else {
                err(format!(
                    "cannot ignore `{chi}`: it is not a declared coordinate"
                ));
                continue;
            };
            if ignored.contains(&index) {
                err(format!("`{chi}` is ignored twice"));
                continue;
            }
            if forces[index].is_some() {
                err(format!(
                    "cannot ignore `{chi}`: it is not cyclic, a generalized force acts on it"
                ));
            }
            let momentum = momentum_name(chi);
            if self.parameters.contains(&momentum) {
                err(format!(
                    "cannot ignore `{chi}`: the reduced system's field `{momentum}` (its constant momentum) is already a parameter"
                ));
            }
            ignored.push(index);
        }
        if !self.coordinates.is_empty() && ignored.len() == self.coordinates.len() {
            errors.push(ModelError {
                item: Item::Ignore(0),
                message: "every coordinate is ignored: keep at least one".into(),
            });
        }
        ignored
    }
}

impl Model {
    /// Parses the constraints: functions of `t`, the coordinates and the parameters, at
    /// least one coordinate each, fewer constraints than coordinates, and no `ignore`
    /// beside them.
    fn check_constraints(&self, scope: &Scope<'_>, errors: &mut Vec<ModelError>) -> Vec<Expr> {
        let mut constraints = Vec::new();
        for (i, source) in self.constraints.iter().enumerate() {
            let item = Item::Constraint(i);
            match scope.parse(item, source, false) {
                Ok(g) => {
                    let mut coordinate = false;
                    g.for_each_leaf(&mut |leaf| {
                        coordinate |= matches!(leaf, Expr::Name(n) if self.coordinates.contains(n));
                    });
                    if !coordinate {
                        errors.push(ModelError {
                            item,
                            message: format!(
                                "the constraint `{source} = 0` involves no coordinate"
                            ),
                        });
                    }
                    constraints.push(g);
                }
                Err(e) => errors.extend(e),
            }
        }
        if !self.constraints.is_empty() && self.constraints.len() >= self.coordinates.len() {
            errors.push(ModelError {
                item: Item::Constraint(self.coordinates.len().saturating_sub(1).min(self.constraints.len() - 1)),
                message: format!(
                    "{} constraints on {} coordinates leave no freedom: give fewer constraints than coordinates",
                    self.constraints.len(),
                    self.coordinates.len()
                ),
            });
        }
        if !self.constraints.is_empty() && !self.ignore.is_empty() {
            errors.push(ModelError {
                item: Item::Ignore(0),
                message: "`ignore(...)` together with constraints is not supported".into(),
            });
        }
        constraints
    }
}

impl Model {
    /// Parses particles and bodies (their expressions may use `t`, coordinates and
    /// parameters) and makes their position components available to the other
    /// expressions as `name.x`, `name.y`, `name.z`.
    #[allow(clippy::type_complexity)]
    fn check_bodies(
        &self,
        scope: &mut Scope<'_>,
        errors: &mut Vec<ModelError>,
    ) -> (Vec<(Expr, Vec<Expr>)>, Vec<CheckedBody>) {
        if self.lagrangian.is_some() && !(self.particles.is_empty() && self.bodies.is_empty()) {
            errors.push(ModelError {
                item: Item::Lagrangian,
                message: "particles and bodies add to the kinetic energy: use `kinetic`/`potential` with them, not `lagrangian`".into(),
            });
        }
        let mut names = HashSet::new();
        let mut name_ok = |item: Item, name: &str, errors: &mut Vec<ModelError>| {
            let clash = self
                .coordinates
                .iter()
                .chain(&self.parameters)
                .any(|n| n == name);
            if clash || !names.insert(name.to_string()) {
                errors.push(ModelError {
                    item,
                    message: format!("the name `{name}` is already used by a coordinate, parameter, particle or body"),
                });
            }
        };
        let parse_all =
            |item: Item, sources: &[String], errors: &mut Vec<ModelError>| -> Option<Vec<Expr>> {
                let parsed: Vec<_> = sources
                    .iter()
                    .map(|s| scope.parse(item, s, false))
                    .collect();
                let mut ok = Vec::new();
                for p in parsed {
                    match p {
                        Ok(e) => ok.push(e),
                        Err(e) => errors.extend(e),
                    }
                }
                (ok.len() == sources.len()).then_some(ok)
            };
        let mut components = HashMap::new();
        let mut publish = |name: &str, position: &[Expr]| {
            for (axis, e) in ["x", "y", "z"].iter().zip(position) {
                components.insert(format!("{name}.{axis}"), e.clone());
            }
        };
        let mut particles = Vec::new();
        for (i, p) in self.particles.iter().enumerate() {
            let item = Item::Particle(i);
            name_ok(item, &p.name, errors);
            if !(2..=3).contains(&p.position.len()) {
                errors.push(ModelError {
                    item,
                    message: format!(
                        "particle `{}` has {} position components: give 2 (plane) or 3",
                        p.name,
                        p.position.len()
                    ),
                });
                continue;
            }
            let mass = parse_all(item, std::slice::from_ref(&p.mass), errors);
            if let (Some(mut mass), Some(position)) = (mass, parse_all(item, &p.position, errors)) {
                publish(&p.name, &position);
                particles.push((mass.remove(0), position));
            }
        }
        let mut bodies = Vec::new();
        for (i, b) in self.bodies.iter().enumerate() {
            let item = Item::Body(i);
            name_ok(item, &b.name, errors);
            let fail = |message: String, errors: &mut Vec<ModelError>| {
                errors.push(ModelError { item, message })
            };
            if b.position.len() != 3 {
                fail(
                    format!(
                        "body `{}` has {} position components: give 3",
                        b.name,
                        b.position.len()
                    ),
                    errors,
                );
                continue;
            }
            if b.inertia.len() != 3 && b.inertia.len() != 6 {
                fail(
                    format!(
                        "body `{}` has {} inertia entries: give 3 principal moments or 6 entries `xx, yy, zz, xy, xz, yz`",
                        b.name,
                        b.inertia.len()
                    ),
                    errors,
                );
                continue;
            }
            let angles = match &b.rotation {
                Rotation::Matrix(entries) if entries.len() != 9 => {
                    fail(
                        format!(
                            "the rotation of body `{}` has {} entries: give 9, row by row",
                            b.name,
                            entries.len()
                        ),
                        errors,
                    );
                    continue;
                }
                Rotation::Matrix(entries) => entries.clone(),
                Rotation::About(_, angle) => vec![angle.clone()],
                Rotation::EulerZxz(angles) => angles.to_vec(),
            };
            let mass = parse_all(item, std::slice::from_ref(&b.mass), errors);
            let inertia = parse_all(item, &b.inertia, errors);
            let rotation = parse_all(item, &angles, errors);
            let position = parse_all(item, &b.position, errors);
            let (Some(mut mass), Some(inertia), Some(r), Some(position)) =
                (mass, inertia, rotation, position)
            else {
                continue;
            };
            let zero = || Expr::Number(Rational::int(0));
            let inertia: Matrix3 = if inertia.len() == 3 {
                std::array::from_fn(|i| {
                    std::array::from_fn(|j| if i == j { inertia[i].clone() } else { zero() })
                })
            } else {
                // xx, yy, zz, xy, xz, yz.
                let at = |i: usize, j: usize| match (i.min(j), i.max(j)) {
                    (a, b) if a == b => inertia[a].clone(),
                    (0, 1) => inertia[3].clone(),
                    (0, 2) => inertia[4].clone(),
                    _ => inertia[5].clone(),
                };
                std::array::from_fn(|i| std::array::from_fn(|j| at(i, j)))
            };
            let (rotation, orientation) = match &b.rotation {
                Rotation::Matrix(_) => (
                    std::array::from_fn(|i| std::array::from_fn(|j| r[3 * i + j].clone())),
                    Orientation::Matrix,
                ),
                Rotation::About(axis, _) => (
                    rotation::about(*axis, &r[0]),
                    Orientation::About(*axis, r[0].clone()),
                ),
                Rotation::EulerZxz(_) => (
                    rotation::euler_zxz(&r[0], &r[1], &r[2]),
                    Orientation::EulerZxz([r[0].clone(), r[1].clone(), r[2].clone()]),
                ),
            };
            publish(&b.name, &position);
            bodies.push(CheckedBody {
                name: b.name.clone(),
                mass: mass.remove(0),
                inertia,
                rotation,
                orientation,
                position: [
                    position[0].clone(),
                    position[1].clone(),
                    position[2].clone(),
                ],
            });
        }
        scope.components = components;
        (particles, bodies)
    }
}

/// The name of the constant momentum of ignored coordinate `chi` (a field of the reduced
/// system).
pub fn momentum_name(chi: &str) -> String {
    format!("p_{chi}")
}

/// The names an expression of a model may use.
struct Scope<'a> {
    model: &'a Model,
    /// `p.x`, `p.y`, `p.z` of particles and bodies, replaced by their position components.
    components: HashMap<String, Expr>,
}

impl Scope<'_> {
    fn parse(
        &self,
        item: Item,
        source: &str,
        allow_velocity: bool,
    ) -> Result<Expr, Vec<ModelError>> {
        let what = item_label(item);
        let expr = Expr::parse(source).map_err(|e| {
            vec![ModelError {
                item,
                message: format!("{what} does not parse: {e}"),
            }]
        })?;
        let mut errors = Vec::new();
        let mut reported = HashSet::new();
        expr.for_each_leaf(&mut |leaf| {
            let problem = match leaf {
                Expr::Name(n) => (!self.is_value(n)).then(|| {
                    format!(
                        "unknown name `{n}` in {what}: not a coordinate, a parameter (field), `t` or `pi`"
                    )
                }),
                Expr::Velocity(q) if !self.model.coordinates.contains(q) => {
                    Some(format!("`dot({q})` in {what}, but `{q}` is not a coordinate"))
                }
                Expr::Velocity(q) if !allow_velocity => {
                    Some(format!("{what} depends on the velocity `dot({q})`; it may depend only on t, coordinates and parameters"))
                }
                Expr::Velocity(_) => None,
                Expr::Acceleration(q) => Some(format!(
                    "`ddot({q})` in {what}: accelerations cannot appear in a model"
                )),
                _ => None,
            };
            if let Some(message) = problem
                && reported.insert(message.clone())
            {
                errors.push(ModelError { item, message });
            }
        });
        if errors.is_empty() {
            Ok(expr.substitute(&|n| self.components.get(n).cloned()))
        } else {
            Err(errors)
        }
    }

    fn is_value(&self, name: &str) -> bool {
        name == TIME
            || name == PI
            || self.components.contains_key(name)
            || self.model.coordinates.iter().any(|c| c == name)
            || self.model.parameters.iter().any(|p| p == name)
    }
}

fn item_label(item: Item) -> &'static str {
    match item {
        Item::Kinetic => "the kinetic energy",
        Item::Potential => "the potential energy",
        Item::Lagrangian => "the Lagrangian",
        Item::Force(_) => "the generalized force",
        Item::Dissipation => "the dissipation function",
        Item::Constraint(_) => "the constraint",
        Item::Particle(_) => "the particle",
        Item::Body(_) => "the body",
        Item::Model
        | Item::Coordinates
        | Item::Coordinate(_)
        | Item::Parameter(_)
        | Item::Ignore(_) => "the model",
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn pendulum() -> Model {
        Model {
            name: "Pendulum".into(),
            coordinates: vec!["theta".into()],
            parameters: vec!["m".into(), "l".into(), "g".into()],
            kinetic: Some("1/2*m*l^2*dot(theta)^2".into()),
            potential: Some("-m*g*l*cos(theta)".into()),
            ..Model::default()
        }
    }

    fn messages(model: &Model) -> Vec<(Item, String)> {
        model
            .check()
            .unwrap_err()
            .into_iter()
            .map(|e| (e.item, e.message))
            .collect()
    }

    #[test]
    fn a_valid_model_checks() {
        let checked = pendulum().check().unwrap();
        assert!(matches!(checked.energy, Energy::KineticPotential { .. }));
        assert_eq!(checked.forces, vec![None]);
    }

    #[test]
    fn every_problem_is_reported_with_its_item() {
        let mut model = pendulum();
        model.potential = Some("k*dot(theta)".into());
        model.forces = vec![("phi".into(), "1".into())];
        model.parameters.push("theta".into());
        let errors = messages(&model);
        assert_eq!(errors.len(), 4, "{errors:?}");
        assert!(
            errors
                .iter()
                .any(|(i, m)| *i == Item::Parameter(3) && m.contains("both a parameter"))
        );
        assert!(
            errors
                .iter()
                .any(|(i, m)| *i == Item::Potential && m.contains("unknown name `k`"))
        );
        assert!(
            errors
                .iter()
                .any(|(i, m)| *i == Item::Potential && m.contains("velocity `dot(theta)`"))
        );
        assert!(
            errors
                .iter()
                .any(|(i, m)| *i == Item::Force(0) && m.contains("`phi`"))
        );
    }

    #[test]
    fn missing_pieces_are_errors() {
        let model = Model {
            name: "Empty".into(),
            ..Model::default()
        };
        let errors = messages(&model);
        assert!(errors.iter().any(|(i, _)| *i == Item::Coordinates));
        assert!(
            errors
                .iter()
                .any(|(i, m)| *i == Item::Model && m.contains("no kinetic energy"))
        );
    }

    #[test]
    fn lagrangian_excludes_kinetic() {
        let mut model = pendulum();
        model.lagrangian = Some("dot(theta)^2".into());
        let errors = messages(&model);
        assert_eq!(errors[0].0, Item::Lagrangian);
    }
}
