//! The checks of particles and rigid bodies.

use std::collections::{HashMap, HashSet};

use super::scope::Scope;
use super::{
    CheckedBody, CheckedJoint, CheckedParticle, Item, Matrix3, Model, ModelError, Orientation,
    Placement, Rotation, names,
};
use crate::syntax::print::excerpt_text;
use crate::syntax::{Expr, Rational};

/// Parses the expressions of one item, all or none (errors go to the list).
/// Parses a key's expressions for an item; errors name the key.
type ParseAll<'a> = dyn Fn(Item, &str, &[String], &mut Vec<ModelError>) -> Option<Vec<Expr>> + 'a;

impl Model {
    /// Parses particles and bodies (their expressions may use `t`, coordinates and
    /// parameters) and makes their position components available to the other
    /// expressions as `name.x`, `name.y`, `name.z`.
    pub(super) fn check_bodies(
        &self,
        scope: &mut Scope<'_>,
        errors: &mut Vec<ModelError>,
    ) -> (Vec<CheckedParticle>, Vec<CheckedBody>) {
        if self.lagrangian.is_some() && !(self.particles.is_empty() && self.bodies.is_empty()) {
            errors.push(ModelError {
                item: Item::Lagrangian,
                message: "particles and bodies add to the kinetic energy: use `kinetic`/`potential` with them, not `lagrangian`".into(),
            });
        }
        let mut names = HashSet::new();
        let mut components = HashMap::new();
        let parse_all =
            |item: Item,
             key: &str,
             sources: &[String],
             errors: &mut Vec<ModelError>|
             -> Option<Vec<Expr>> { parse_all(scope, item, key, sources, errors) };
        let particles = self.check_particles(&mut names, &mut components, &parse_all, errors);
        let mut bodies: Vec<CheckedBody> = Vec::new();
        for i in 0..self.bodies.len() {
            let checked = self.check_body(
                i,
                &bodies,
                (&mut names, &mut components),
                &parse_all,
                errors,
            );
            bodies.extend(checked);
        }
        scope.components = components;
        (particles, bodies)
    }

    /// Checks that `name`, the name of `item`, is a valid name not already taken by a
    /// coordinate, a parameter, or another particle or body of `names`, and adds it there.
    fn check_name(
        &self,
        names: &mut HashSet<String>,
        item: Item,
        name: &str,
        errors: &mut Vec<ModelError>,
    ) {
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
                message: format!(
                    "the name `{name}` is already used by a coordinate, parameter, particle or body"
                ),
            });
        }
    }

    /// The particles that check, their positions published in `components`.
    fn check_particles(
        &self,
        names: &mut HashSet<String>,
        components: &mut HashMap<String, Expr>,
        parse_all: &ParseAll<'_>,
        errors: &mut Vec<ModelError>,
    ) -> Vec<CheckedParticle> {
        let mut particles = Vec::new();
        for (i, p) in self.particles.iter().enumerate() {
            let item = Item::Particle(i);
            self.check_name(names, item, &p.name, errors);
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
            let mass = parse_all(item, "mass", std::slice::from_ref(&p.mass), errors);
            if let (Some(mut mass), Some(position)) =
                (mass, parse_all(item, "position", &p.position, errors))
            {
                publish(components, &p.name, &position);
                particles.push(CheckedParticle {
                    name: p.name.clone(),
                    mass: mass.remove(0),
                    position,
                });
            }
        }
        particles
    }

    /// The body `i` checked after the `earlier` bodies that checked, or `None` with its
    /// errors; a body placed by a rotation and position has them published in `components`.
    fn check_body(
        &self,
        i: usize,
        earlier: &[CheckedBody],
        (names, components): (&mut HashSet<String>, &mut HashMap<String, Expr>),
        parse_all: &ParseAll<'_>,
        errors: &mut Vec<ModelError>,
    ) -> Option<CheckedBody> {
        let b = &self.bodies[i];
        let item = Item::Body(i);
        self.check_name(names, item, &b.name, errors);
        let shown = excerpt_text(&b.name);
        if b.inertia.len() != 3 && b.inertia.len() != 6 {
            errors.push(ModelError {
                item,
                message: format!(
                    "body `{shown}` has {} inertia entries: give 3 principal moments or 6 entries `xx, yy, zz, xy, xz, yz`",
                    b.inertia.len()
                ),
            });
            return None;
        }
        let mass = parse_all(item, "mass", std::slice::from_ref(&b.mass), errors);
        let inertia = parse_all(item, "inertia", &b.inertia, errors);
        let rolls = b
            .rolls
            .as_ref()
            .and_then(|r| parse_all(item, "rolls", std::slice::from_ref(r), errors))
            .map(|mut r| r.remove(0));
        // A rigid wheel: a radius that moved would add its rate to the no-slip condition.
        if rolls.as_ref().is_some_and(|r| self.varies(r)) {
            errors.push(ModelError {
                item,
                message: format!(
                    "body `{shown}`: `rolls` takes the wheel's radius, which must be constant: parameters and numbers only"
                ),
            });
            return None;
        }
        let placement = self.placement(i, earlier, components, parse_all, errors)?;
        let (Some(mut mass), Some(inertia)) = (mass, inertia) else {
            return None;
        };
        Some(CheckedBody {
            name: b.name.clone(),
            mass: mass.remove(0),
            inertia: inertia_matrix(&inertia),
            placement,
            rolls,
        })
    }

    /// The placement of body `i`, by its joint among the `earlier` bodies (within
    /// [`MAX_TREE_DEPTH`]) or by a rotation and a position, or `None` with its errors.
    fn placement(
        &self,
        i: usize,
        earlier: &[CheckedBody],
        components: &mut HashMap<String, Expr>,
        parse_all: &ParseAll<'_>,
        errors: &mut Vec<ModelError>,
    ) -> Option<Placement> {
        let b = &self.bodies[i];
        let item = Item::Body(i);
        let shown = excerpt_text(&b.name);
        let mut fail = |message: String| {
            errors.push(ModelError { item, message });
            None
        };
        match (&b.joint, &b.rotation) {
            (Some(_), _) if !b.position.is_empty() || b.rotation.is_some() => fail(format!(
                "body `{shown}` has a joint and a rotation or position: a jointed body's placement follows from its joint"
            )),
            (Some(joint), _) => {
                let declared = &self.bodies[..i];
                let placement =
                    self.jointed(item, b, joint, (earlier, declared), parse_all, errors)?;
                let depth = tree_depth(earlier, &placement);
                if depth > MAX_TREE_DEPTH {
                    errors.push(ModelError {
                        item,
                        message: format!(
                            "body `{shown}` is {depth} joint coordinates from the fixed frame; the limit is {MAX_TREE_DEPTH} (the derivative programs grow with the depth: a chain of 24 joints derives in 35 s and 0.7 GB, of 30 in more than 7 GB)"
                        ),
                    });
                    return None;
                }
                Some(placement)
            }
            (None, _)
                if b.parent.is_some()
                    || !(b.axis.is_empty()
                        && b.origin.is_empty()
                        && b.rpy.is_empty()
                        && b.com.is_empty()) =>
            {
                fail(format!(
                    "body `{shown}` has `parent`, `axis`, `origin`, `rpy` or `com` but no `joint`"
                ))
            }
            (None, None) => fail(format!(
                "body `{shown}` needs a `rotation` and a `position`, or a `joint`"
            )),
            (None, Some(rotation)) => {
                let (placement, position) = given(item, b, rotation, parse_all, errors)?;
                publish(components, &b.name, &position);
                Some(placement)
            }
        }
    }
}

/// Parses `sources`, the expressions of `key` of `item`, all or none; each error names the
/// key.
fn parse_all(
    scope: &Scope<'_>,
    item: Item,
    key: &str,
    sources: &[String],
    errors: &mut Vec<ModelError>,
) -> Option<Vec<Expr>> {
    let parsed: Vec<_> = sources
        .iter()
        .map(|s| scope.parse(item, s, false))
        .collect();
    let mut ok = Vec::new();
    for p in parsed {
        match p {
            Ok(e) => ok.push(e),
            Err(e) => errors.extend(e.into_iter().map(|mut e| {
                e.message = format!("`{key}`: {}", e.message);
                e
            })),
        }
    }
    (ok.len() == sources.len()).then_some(ok)
}

/// Makes the components of `position` available to the other expressions as `name.x`,
/// `name.y`, `name.z`.
fn publish(components: &mut HashMap<String, Expr>, name: &str, position: &[Expr]) {
    for (axis, e) in ["x", "y", "z"].iter().zip(position) {
        components.insert(format!("{name}.{axis}"), e.clone());
    }
}

/// The placement of `body` of `item` given by `rotation` and its position, with the
/// position's expressions; `None` with its errors.
fn given(
    item: Item,
    body: &super::Body,
    rotation: &Rotation,
    parse_all: &ParseAll<'_>,
    errors: &mut Vec<ModelError>,
) -> Option<(Placement, Vec<Expr>)> {
    let shown = excerpt_text(&body.name);
    if body.position.len() != 3 {
        errors.push(ModelError {
            item,
            message: format!(
                "body `{shown}` has {} position components: give 3",
                body.position.len()
            ),
        });
        return None;
    }
    let angles = match rotation {
        Rotation::Matrix(entries) if entries.len() != 9 => {
            errors.push(ModelError {
                item,
                message: format!(
                    "the rotation of body `{shown}` has {} entries: give 9, row by row",
                    entries.len()
                ),
            });
            return None;
        }
        Rotation::Matrix(entries) => entries.clone(),
        Rotation::About(_, angle) => vec![angle.clone()],
        Rotation::EulerZxz(angles) => angles.to_vec(),
        Rotation::Product(factors) => factors.iter().map(|(_, a)| a.clone()).collect(),
    };
    let (Some(r), Some(position)) = (
        parse_all(item, "rotation", &angles, errors),
        parse_all(item, "position", &body.position, errors),
    ) else {
        return None;
    };
    let orientation = match rotation {
        Rotation::Matrix(_) => Orientation::Matrix(Box::new(std::array::from_fn(|i| {
            std::array::from_fn(|j| r[3 * i + j].clone())
        }))),
        Rotation::About(axis, _) => Orientation::About(*axis, r[0].clone()),
        Rotation::EulerZxz(_) => Orientation::EulerZxz([r[0].clone(), r[1].clone(), r[2].clone()]),
        Rotation::Product(factors) => Orientation::Product(
            factors
                .iter()
                .zip(r)
                .map(|((axis, _), angle)| (*axis, angle))
                .collect(),
        ),
    };
    let placement = Placement::Given {
        orientation,
        position: [
            position[0].clone(),
            position[1].clone(),
            position[2].clone(),
        ],
    };
    Some((placement, position))
}

/// The inertia matrix of 3 principal moments, or of the 6 entries `xx, yy, zz, xy, xz, yz`.
fn inertia_matrix(inertia: &[Expr]) -> Matrix3 {
    if inertia.len() == 3 {
        let zero = || Expr::Number(Rational::int(0));
        std::array::from_fn(|i| {
            std::array::from_fn(|j| if i == j { inertia[i].clone() } else { zero() })
        })
    } else {
        let at = |i: usize, j: usize| match (i.min(j), i.max(j)) {
            (a, b) if a == b => inertia[a].clone(),
            (0, 1) => inertia[3].clone(),
            (0, 2) => inertia[4].clone(),
            _ => inertia[5].clone(),
        };
        std::array::from_fn(|i| std::array::from_fn(|j| at(i, j)))
    }
}

impl Model {
    /// The placement of a body attached by `joint`: its parent among the `earlier` bodies
    /// checked (or the fixed frame), a declared coordinate, a unit axis, and the joint's
    /// origin, `rpy` and the centre of mass as 3 constant expressions each (of parameters).
    /// A parent `declared` before it that did not check has its own error, and its
    /// descendants none: `None` without a word.
    fn jointed(
        &self,
        item: Item,
        body: &super::Body,
        joint: &super::Joint,
        (earlier, declared): (&[CheckedBody], &[super::Body]),
        parse_all: &ParseAll<'_>,
        errors: &mut Vec<ModelError>,
    ) -> Option<Placement> {
        let shown = excerpt_text(&body.name);
        let parent = parent(item, body, (earlier, declared), errors)?;
        let (several, moving) = self.joint_coordinates(item, body, joint, errors)?;
        let mut fail = |message: String| {
            errors.push(ModelError { item, message });
        };
        let three =
            |key: &str, sources: &[String], fail: &mut dyn FnMut(String)| -> Option<[String; 3]> {
                match sources.len() {
                    0 => Some(["0".into(), "0".into(), "0".into()]),
                    3 => Some([sources[0].clone(), sources[1].clone(), sources[2].clone()]),
                    n => {
                        fail(format!(
                            "`{key}` of body `{shown}` has {n} components: give 3"
                        ));
                        None
                    }
                }
            };
        let origin = three("origin", &body.origin, &mut fail)?;
        let rpy = three("rpy", &body.rpy, &mut fail)?;
        let com = three("com", &body.com, &mut fail)?;
        let constant =
            |key: &str, sources: &[String], errors: &mut Vec<ModelError>| -> Option<[Expr; 3]> {
                let parsed = parse_all(item, key, sources, errors)?;
                if parsed.iter().any(|e| self.varies(e)) {
                    errors.push(ModelError {
                    item,
                    message: format!(
                        "`{key}` of body `{shown}` must be constant: parameters and numbers only"
                    ),
                });
                    return None;
                }
                <[Expr; 3]>::try_from(parsed).ok()
            };
        let origin = constant("origin", &origin, errors);
        let rpy = constant("rpy", &rpy, errors);
        let com = constant("com", &com, errors);
        let axis = match moving {
            Some(_) => Some(constant("axis", &body.axis, errors)?),
            None => None,
        };
        if let Some(axis) = &axis {
            let length = axis
                .iter()
                .map(|a| crate::ir::lower::number(a).map(|x| x * x))
                .sum::<Result<f64, _>>();
            if !length.is_ok_and(|l| (l - 1.0).abs() < 1e-12) {
                errors.push(ModelError {
                    item,
                    message: format!(
                        "the `axis` of body `{shown}` must be a unit vector of numbers, like [\"0\", \"0\", \"1\"]"
                    ),
                });
                return None;
            }
        }
        let joint = match (joint, moving, axis) {
            (super::Joint::Revolute(_), Some(q), Some(axis)) => CheckedJoint::Revolute(q, axis),
            (super::Joint::Prismatic(_), Some(q), Some(axis)) => CheckedJoint::Prismatic(q, axis),
            (super::Joint::Spherical(_), ..) => {
                let q = several.expect("resolved above");
                CheckedJoint::Spherical([q[0], q[1], q[2]])
            }
            (super::Joint::Free(_), ..) => {
                let q = several.expect("resolved above");
                CheckedJoint::Free([q[0], q[1], q[2], q[3], q[4], q[5]])
            }
            _ => CheckedJoint::Fixed,
        };
        Some(Placement::Jointed {
            parent,
            joint: Box::new(joint),
            origin: origin?,
            rpy: rpy?,
            com: com?,
        })
    }
    /// The coordinates a `joint` of `body` moves: all of a spherical or free joint's, or
    /// the one of a revolute or prismatic joint (with its axis of 3 components); `None`
    /// with its errors.
    fn joint_coordinates(
        &self,
        item: Item,
        body: &super::Body,
        joint: &super::Joint,
        errors: &mut Vec<ModelError>,
    ) -> Option<(Option<Vec<usize>>, Option<usize>)> {
        let shown = excerpt_text(&body.name);
        let mut fail = |message: String| {
            errors.push(ModelError { item, message });
        };
        let coordinate = |q: &str, fail: &mut dyn FnMut(String)| {
            let index = self.coordinates.iter().position(|c| c == q);
            if index.is_none() {
                fail(format!(
                    "the joint of body `{shown}` moves `{}`, which is not a declared coordinate",
                    excerpt_text(q)
                ));
            }
            index
        };
        let many = |names: &[String], fail: &mut dyn FnMut(String)| -> Option<Vec<usize>> {
            let found: Vec<Option<usize>> = names.iter().map(|q| coordinate(q, fail)).collect();
            found.into_iter().collect()
        };
        let several = match joint {
            super::Joint::Spherical(angles) => Some(many(angles, &mut fail)?),
            super::Joint::Free(coordinates) => Some(many(coordinates, &mut fail)?),
            _ => None,
        };
        if several.is_some() && !body.axis.is_empty() {
            fail(format!(
                "the joint of body `{shown}` turns about every axis: it takes no `axis`"
            ));
            return None;
        }
        let moving = match joint {
            super::Joint::Spherical(_) | super::Joint::Free(_) => None,
            super::Joint::Revolute(q) | super::Joint::Prismatic(q) => {
                let index = coordinate(q, &mut fail)?;
                if body.axis.len() != 3 {
                    fail(format!(
                        "the joint of body `{shown}` needs an `axis` of 3 components, a unit vector in the body's frame"
                    ));
                    return None;
                }
                Some(index)
            }
            super::Joint::Fixed => None,
        };
        Some((several, moving))
    }
}

/// The index of the parent of `body` among the `earlier` bodies checked, or `None` for
/// the fixed frame; `None` (outside) for a parent that is not a body declared before it,
/// without a word when it is one of the bodies `declared` before it that did not check.
fn parent(
    item: Item,
    body: &super::Body,
    (earlier, declared): (&[CheckedBody], &[super::Body]),
    errors: &mut Vec<ModelError>,
) -> Option<Option<usize>> {
    let Some(name) = body.parent.as_deref().filter(|&name| name != "world") else {
        return Some(None);
    };
    match earlier.iter().position(|b| b.name == name) {
        Some(index) => Some(Some(index)),
        None if declared.iter().any(|b| b.name == name) => None,
        None => {
            errors.push(ModelError {
                item,
                message: format!(
                    "the parent `{}` of body `{}` is not a body declared before it (or `world`)",
                    excerpt_text(name),
                    excerpt_text(&body.name)
                ),
            });
            None
        }
    }
}

impl Model {
    /// Whether `e` reads time, a coordinate or a velocity: what is constant reads
    /// parameters and numbers only.
    fn varies(&self, e: &Expr) -> bool {
        let mut varies = false;
        e.for_each_leaf(&mut |leaf| {
            varies |= match leaf {
                Expr::Name(n) => n == crate::syntax::TIME || self.coordinates.contains(n),
                _ => true,
            };
        });
        varies
    }
}

/// The most joint coordinates between a body and the fixed frame (a revolute or prismatic
/// joint counts 1, a spherical 3, a free 6). The tree's derivative programs grow with the
/// depth until the recursive algorithms' own derivatives replace them.
pub const MAX_TREE_DEPTH: usize = 24;

/// The joint coordinates between the fixed frame and a body placed by `placement` among
/// the `earlier` bodies.
fn tree_depth(earlier: &[CheckedBody], placement: &Placement) -> usize {
    let mut depth = 0;
    let mut at = Some(placement);
    while let Some(Placement::Jointed { parent, joint, .. }) = at {
        depth += joint.coordinate_count();
        at = parent.map(|p| &earlier[p].placement);
    }
    depth
}
