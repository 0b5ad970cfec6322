//! The checks of particles and rigid bodies.

use std::collections::{HashMap, HashSet};

use super::scope::Scope;
use super::{CheckedBody, Item, Matrix3, Model, ModelError, Orientation, Rotation, names};
use crate::syntax::print::excerpt_text;
use crate::syntax::{Expr, Rational};

impl Model {
    /// Parses particles and bodies (their expressions may use `t`, coordinates and
    /// parameters) and makes their position components available to the other
    /// expressions as `name.x`, `name.y`, `name.z`.
    #[allow(clippy::type_complexity)]
    pub(super) fn check_bodies(
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
            let what = if matches!(item, Item::Particle(_)) {
                "a particle"
            } else {
                "a body"
            };
            if let Some(message) = names::problem(name, what) {
                errors.push(ModelError { item, message });
                return;
            }
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
                        excerpt_text(&p.name),
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
                        excerpt_text(&b.name),
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
                        excerpt_text(&b.name),
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
                            excerpt_text(&b.name),
                            entries.len()
                        ),
                        errors,
                    );
                    continue;
                }
                Rotation::Matrix(entries) => entries.clone(),
                Rotation::About(_, angle) => vec![angle.clone()],
                Rotation::EulerZxz(angles) => angles.to_vec(),
                Rotation::Product(factors) => factors.iter().map(|(_, a)| a.clone()).collect(),
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
            let orientation = match &b.rotation {
                Rotation::Matrix(_) => Orientation::Matrix(Box::new(std::array::from_fn(|i| {
                    std::array::from_fn(|j| r[3 * i + j].clone())
                }))),
                Rotation::About(axis, _) => Orientation::About(*axis, r[0].clone()),
                Rotation::EulerZxz(_) => {
                    Orientation::EulerZxz([r[0].clone(), r[1].clone(), r[2].clone()])
                }
                Rotation::Product(factors) => Orientation::Product(
                    factors
                        .iter()
                        .zip(r)
                        .map(|((axis, _), angle)| (*axis, angle))
                        .collect(),
                ),
            };
            publish(&b.name, &position);
            bodies.push(CheckedBody {
                name: b.name.clone(),
                mass: mass.remove(0),
                inertia,
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
