//! The checks of a written [`Model`] into a [`CheckedModel`]: names, energies, forces,
//! ignored coordinates and constraints. Every error is found from the text alone.

use std::collections::{HashMap, HashSet};

use super::scope::Scope;
use super::{CheckedModel, Energy, Item, Model, ModelError, names};
use crate::syntax::print::excerpt_text;
use crate::syntax::{Expr, Rational, TIME};

/// The most generalized coordinates a model may declare: the derivation's programs grow
/// with the square of their number (`M` alone has `n²` entries), and its time with it.
pub const MAX_COORDINATES: usize = 256;

impl Model {
    /// Checks the model; on failure returns every problem found, not just the first.
    pub fn check(&self) -> Result<CheckedModel, Vec<ModelError>> {
        let mut errors = Vec::new();
        let mut err = |item, message: String| errors.push(ModelError { item, message });

        if let Some(problem) = names::problem(&self.name, "the model") {
            err(Item::Name, problem);
        }
        if self.coordinates.is_empty() {
            err(
                Item::Coordinates,
                "no generalized coordinates: declare them with `coordinates(q1, q2, …)`".into(),
            );
        }
        if self.coordinates.len() > MAX_COORDINATES {
            // Checked before anything else: every later check walks the coordinates.
            return Err(vec![ModelError {
                item: Item::Coordinates,
                message: format!(
                    "{} coordinates: the engine derives at most {MAX_COORDINATES} (its programs grow with the square of their number: 200 one-link pendulums on one base derive in 150 s in a debug build)",
                    self.coordinates.len()
                ),
            }]);
        }
        self.check_coordinate_names(&mut errors);
        self.check_parameter_names(&mut errors);

        let inputs = self.check_inputs(&mut errors);

        let mut scope = Scope {
            model: self,
            components: HashMap::new(),
        };
        let (particles, bodies) = self.check_bodies(&mut scope, &mut errors);
        // Numbers only: parameter values are checked where they are given.
        let unphysical = self.unphysical(&particles, &bodies, &|_| None);
        errors.extend(unphysical.into_iter().map(|u| u.error));
        let energy = self.check_energy(&scope, &mut errors);
        let forces = self.check_forces(&scope, &mut errors);
        let ignored = self.check_ignored(&forces, &mut errors);
        let constraints = self.check_constraints(&scope, &mut errors);
        let velocity_constraints = self.check_velocity_constraints(&scope, &mut errors);
        self.check_freedom(&constraints, &velocity_constraints, &mut errors);
        let drawing = self.check_drawing(&scope, &mut errors);
        let dissipation = self
            .dissipation
            .as_ref()
            .and_then(|f| parse(&scope, Item::Dissipation, f, true, &mut errors));
        let gravity = self.check_gravity(&scope, &mut errors);

        match energy {
            Some(energy) if errors.is_empty() => Ok(CheckedModel {
                name: self.name.clone(),
                coordinates: self.coordinates.clone(),
                parameters: self.parameters.clone(),
                inputs,
                energy,
                forces,
                dissipation,
                gravity,
                ignored,
                constraints,
                velocity_constraints,
                particles,
                bodies,
                drawing,
            }),
            _ => Err(errors),
        }
    }
}

impl Model {
    /// Checks the coordinates' names: well formed, not reserved, declared once each.
    fn check_coordinate_names(&self, errors: &mut Vec<ModelError>) {
        let mut err = |item, message: String| errors.push(ModelError { item, message });
        let reserved = names::reserved;
        let mut seen = HashSet::new();
        for (i, q) in self.coordinates.iter().enumerate() {
            if let Some(problem) = names::problem(q, "a coordinate") {
                err(Item::Coordinate(i), problem);
            } else if reserved(q) {
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
    }

    /// Checks the parameters' names: well formed, declared once each, no coordinate's
    /// and not reserved.
    fn check_parameter_names(&self, errors: &mut Vec<ModelError>) {
        let mut err = |item, message: String| errors.push(ModelError { item, message });
        let reserved = names::reserved;
        let mut parameters = HashSet::new();
        for (i, p) in self.parameters.iter().enumerate() {
            if let Some(problem) = names::problem(p, "a parameter") {
                err(Item::Parameter(i), problem);
            } else if !parameters.insert(p.as_str()) {
                err(
                    Item::Parameter(i),
                    format!("parameter `{p}` is declared twice"),
                );
            } else if self.coordinates.contains(p) {
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
    }

    /// The model's energy: its Lagrangian, or its kinetic and potential energies (the
    /// kinetic one 0 when particles and bodies give it); `None` after an error.
    fn check_energy(&self, scope: &Scope, errors: &mut Vec<ModelError>) -> Option<Energy> {
        match (&self.lagrangian, &self.kinetic, &self.potential) {
            (Some(l), None, None) => {
                parse(scope, Item::Lagrangian, l, true, errors).map(Energy::Lagrangian)
            }
            (Some(_), _, _) => {
                errors.push(ModelError {
                    item: Item::Lagrangian,
                    message: "give either `lagrangian` or `kinetic`/`potential`, not both".into(),
                });
                None
            }
            (None, Some(t), v) => {
                let kinetic = parse(scope, Item::Kinetic, t, true, errors);
                let potential = match v {
                    Some(v) => parse(scope, Item::Potential, v, false, errors),
                    None => Some(Expr::Number(Rational::int(0))),
                };
                kinetic
                    .zip(potential)
                    .map(|(kinetic, potential)| Energy::KineticPotential { kinetic, potential })
            }
            (None, None, v) if !(self.particles.is_empty() && self.bodies.is_empty()) => {
                let potential = match v {
                    Some(v) => parse(scope, Item::Potential, v, false, errors),
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
        }
    }

    /// The generalized force on each coordinate (`None` where none is given), each on a
    /// declared coordinate and at most one per coordinate.
    fn check_forces(&self, scope: &Scope, errors: &mut Vec<ModelError>) -> Vec<Option<Expr>> {
        let mut forces = vec![None; self.coordinates.len()];
        for (i, (q, source)) in self.forces.iter().enumerate() {
            let Some(index) = self.coordinates.iter().position(|c| c == q) else {
                errors.push(ModelError {
                    item: Item::ForceCoordinate(i),
                    message: format!(
                        "force on `{}`, which is not a declared coordinate",
                        excerpt_text(q)
                    ),
                });
                continue;
            };
            if forces[index].is_some() {
                errors.push(ModelError {
                    item: Item::ForceCoordinate(i),
                    message: format!("two forces on `{q}`: give their sum once"),
                });
                continue;
            }
            forces[index] = parse(scope, Item::Force(i), source, true, errors);
        }
        forces
    }

    /// The gravity vector in the fixed frame: three components, for a model with
    /// particles or bodies; `None` when not given or after an error.
    fn check_gravity(&self, scope: &Scope, errors: &mut Vec<ModelError>) -> Option<[Expr; 3]> {
        self.gravity.as_ref().and_then(|g| {
            if g.len() != 3 {
                errors.push(ModelError {
                    item: Item::Gravity,
                    message: format!("gravity has {} components: give 3, in the fixed frame (a plane model uses x and y)", g.len()),
                });
                return None;
            }
            if self.particles.is_empty() && self.bodies.is_empty() {
                errors.push(ModelError {
                    item: Item::Gravity,
                    message: "gravity acts on particles and bodies, and the model has none: write its potential in `potential`".into(),
                });
                return None;
            }
            let parsed: Vec<Expr> = g
                .iter()
                .filter_map(|c| parse(scope, Item::Gravity, c, false, errors))
                .collect();
            <[Expr; 3]>::try_from(parsed).ok()
        })
    }
}

/// `source` parsed in `scope` as `item` (velocities allowed if `allow_velocity`); `None`
/// with its errors added to `errors` when it does not parse.
fn parse(
    scope: &Scope,
    item: Item,
    source: &str,
    allow_velocity: bool,
    errors: &mut Vec<ModelError>,
) -> Option<Expr> {
    scope
        .parse(item, source, allow_velocity)
        .map_err(|e| errors.extend(e))
        .ok()
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
                    "cannot ignore `{}`: it is not a declared coordinate",
                    excerpt_text(chi)
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
    /// Resolves `inputs(...)`: declared parameters, once each.
    fn check_inputs(&self, errors: &mut Vec<ModelError>) -> Vec<usize> {
        let mut inputs = Vec::new();
        for (i, u) in self.inputs.iter().enumerate() {
            let mut err = |message: String| {
                errors.push(ModelError {
                    item: Item::Input(i),
                    message,
                })
            };
            match self.parameters.iter().position(|p| p == u) {
                None => err(format!(
                    "input `{}` is not a parameter: an input is a parameter (a field of the struct) that a controller sets",
                    excerpt_text(u)
                )),
                Some(index) if inputs.contains(&index) => {
                    err(format!("input `{u}` is declared twice"))
                }
                Some(index) => inputs.push(index),
            }
        }
        inputs
    }

    /// Parses the constraints: functions of `t`, the coordinates and the parameters, at
    /// least one coordinate each.
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
                                "the constraint `{} = 0` involves no coordinate",
                                excerpt_text(source)
                            ),
                        });
                    }
                    constraints.push(g);
                }
                Err(e) => errors.extend(e),
            }
        }
        constraints
    }

    /// Fewer constraints, holonomic and on the velocities, than coordinates (or as many,
    /// one of them moving), and no `ignore` beside them.
    fn check_freedom(&self, holonomic: &[Expr], velocity: &[Expr], errors: &mut Vec<ModelError>) {
        // As many constraints as coordinates is a mechanism driven along a prescribed
        // motion (inverse dynamics: the multipliers are the driving forces), which needs a
        // constraint that moves; otherwise nothing could move.
        let moving = holonomic.iter().chain(velocity).any(|g: &Expr| {
            let mut time = false;
            g.for_each_leaf(&mut |leaf| time |= matches!(leaf, Expr::Name(n) if n == TIME));
            time
        });
        let h = self.constraints.len();
        // A rolling wheel's two conditions are counted once derived (one of them vanishes
        // for a wheel that cannot move sideways), in `System::of_model`.
        let rolling = self.bodies.iter().any(|b| b.rolls.is_some());
        let (k, n) = (h + self.velocity_constraints.len(), self.coordinates.len());
        if k > 0 && (k > n || (k == n && !moving)) {
            let last = n.saturating_sub(1).min(k - 1);
            errors.push(ModelError {
                item: if last < h {
                    Item::Constraint(last)
                } else {
                    Item::VelocityConstraint(last - h)
                },
                message: format!(
                    "{k} constraints on {n} coordinates leave no freedom: give fewer constraints than coordinates, or as many with one that moves (a prescribed motion: its multiplier is the driving force)"
                ),
            });
        }
        if (k > 0 || rolling) && !self.ignore.is_empty() {
            errors.push(ModelError {
                item: Item::Ignore(0),
                message: "`ignore(...)` together with constraints is not supported".into(),
            });
        }
    }
}

/// The name of the constant momentum of ignored coordinate `chi` (a field of the reduced
/// system).
pub fn momentum_name(chi: &str) -> String {
    format!("p_{chi}")
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
    fn jointed_bodies_are_checked_at_the_body() {
        let link = |name: &str| crate::model::Body {
            name: name.into(),
            mass: "m".into(),
            inertia: vec!["0".into(), "0".into(), "0".into()],
            joint: Some(crate::model::Joint::Revolute("theta".into())),
            axis: vec!["0".into(), "1".into(), "0".into()],
            ..crate::model::Body::default()
        };
        let mut model = pendulum();
        model.bodies.push(link("first"));
        assert!(model.check().is_ok(), "{:?}", model.check().err());
        type Spoil = fn(&mut crate::model::Body);
        let cases: [(&str, Spoil); 7] = [
            ("is not a body declared before it", |b| {
                b.parent = Some("later".into())
            }),
            ("not a declared coordinate", |b| {
                b.joint = Some(crate::model::Joint::Prismatic("x".into()))
            }),
            ("must be a unit vector", |b| {
                b.axis = vec!["0".into(), "2".into(), "0".into()]
            }),
            ("needs an `axis`", |b| b.axis = vec![]),
            ("must be constant", |b| {
                b.origin = vec!["theta".into(), "0".into(), "0".into()]
            }),
            ("has a joint and a rotation or position", |b| {
                b.position = vec!["0".into(); 3]
            }),
            (
                "has `parent`, `axis`, `origin`, `rpy` or `com` but no `joint`",
                |b| b.joint = None,
            ),
        ];
        for (needle, spoil) in cases {
            let mut model = pendulum();
            let mut body = link("first");
            spoil(&mut body);
            model.bodies.push(body);
            let found = messages(&model);
            assert!(
                found
                    .iter()
                    .any(|(item, m)| *item == Item::Body(0) && m.contains(needle)),
                "{needle}: {found:?}"
            );
        }
    }

    #[test]
    fn gravity_needs_three_components_and_something_to_act_on() {
        let mut model = pendulum();
        model.gravity = Some(vec!["0".into(), "-g".into(), "0".into()]);
        let found = messages(&model);
        assert_eq!(found.len(), 1, "{found:?}");
        assert_eq!(found[0].0, Item::Gravity);
        assert!(found[0].1.contains("has none"), "{found:?}");
        model.particles.push(crate::model::Particle {
            name: "bob".into(),
            mass: "m".into(),
            position: vec!["l*sin(theta)".into(), "-l*cos(theta)".into()],
        });
        model.gravity = Some(vec!["0".into(), "-g".into()]);
        assert!(messages(&model)[0].1.contains("has 2 components"));
        model.gravity = Some(vec!["0".into(), "-g*dot(theta)".into(), "h".into()]);
        let found = messages(&model);
        assert!(
            found.iter().all(|(item, _)| *item == Item::Gravity),
            "{found:?}"
        );
        assert_eq!(found.len(), 2, "a velocity and an unknown name: {found:?}");
        model.gravity = Some(vec!["0".into(), "-g".into(), "0".into()]);
        assert!(model.check().is_ok());
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
                .any(|(i, m)| *i == Item::ForceCoordinate(0) && m.contains("`phi`"))
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
    fn names_must_be_identifiers_and_parameters_unique() {
        // A model name became live C code, and a path made the cache write outside its
        // folder.
        let mut model = pendulum();
        model.name = "P */ int injected = 42; /*".into();
        model.coordinates = vec!["theta".into(), "../../x/evil".into()];
        model.parameters = vec!["m".into(), "l".into(), "m".into(), "int".into()];
        let errors = messages(&model);
        let has =
            |item: Item, text: &str| errors.iter().any(|(i, m)| *i == item && m.contains(text));
        assert!(has(Item::Name, "ASCII identifier"), "{errors:?}");
        assert!(has(Item::Coordinate(1), "ASCII identifier"), "{errors:?}");
        assert!(has(Item::Parameter(2), "declared twice"), "{errors:?}");
        assert!(has(Item::Parameter(3), "keyword"), "{errors:?}");
        let mut model = pendulum();
        model.particles = vec![crate::model::Particle {
            name: "bob\u{1b}[2J".into(),
            mass: "m".into(),
            position: vec!["l*sin(theta)".into(), "-l*cos(theta)".into()],
        }];
        let errors = messages(&model);
        assert!(errors.iter().any(|(i, m)| *i == Item::Particle(0)
            && m.contains("ASCII identifier")
            && !m.contains('\u{1b}')));
    }

    #[test]
    fn expressions_beyond_the_bounds_name_their_item() {
        let mut model = pendulum();
        model.potential = Some("sinh(theta - sqrt(0^0))".into());
        model.kinetic = Some("1/2*m*l^2*dot(theta)^2*theta^10000".into());
        let errors = messages(&model);
        assert!(errors.iter().any(|(i, m)| *i == Item::Potential
            && m.contains("the potential energy has `0^0`")));
        assert!(
            errors
                .iter()
                .any(|(i, m)| *i == Item::Kinetic && m.contains("degree"))
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
