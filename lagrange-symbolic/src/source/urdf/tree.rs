//! The model of an imported tree: the links ordered parents first, each a body with its
//! joint's coordinate, named by identifiers the model accepts.

use std::collections::{BTreeMap, BTreeSet, HashMap};
use std::fmt::Write as _;

use super::merge::merge_fixed;
use super::{Inertial, Mimic, Options, UrdfJoint};
use crate::model::{Body, Joint, Model, name_problem, reserved};
use crate::syntax::print::escape_text;
use crate::syntax::{EXACT_LIMIT, EXACT_POWER};

/// An identifier for `name` that no earlier one took: other characters become `_`, and a
/// name that still cannot be one, or is reserved in expressions (`t`, `pi`, `sin`, …),
/// gets a prefix.
pub(super) fn identifier(
    name: &str,
    prefix: &str,
    taken: &mut BTreeSet<String>,
) -> Result<String, String> {
    let cleaned: String = name
        .chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || c == '_' {
                c
            } else {
                '_'
            }
        })
        .take(48)
        .collect();
    let mut candidate = cleaned.clone();
    if name_problem(&candidate, "a name").is_some() || reserved(&candidate) {
        candidate = format!("{prefix}_{cleaned}");
    }
    let base = candidate.clone();
    let mut k = 2;
    while !taken.insert(candidate.clone()) {
        candidate = format!("{base}_{k}");
        k += 1;
    }
    match name_problem(&candidate, "a name") {
        None => Ok(candidate),
        Some(problem) => Err(format!("`{}`: {problem}", escape_text(name))),
    }
}

/// A number as an exact decimal expression the engine holds (Rust prints `f64` without
/// exponents): digits past the [`EXACT_POWER`]th decimal place are rounded off, to keep
/// numerator and denominator within [`EXACT_LIMIT`]. Only a number below 10^-21 in
/// magnitude has such digits (an `f64` has at most 17 significant ones), like the
/// `5.8e-66` of a CAD export's round-off.
pub(super) fn decimal(x: f64) -> String {
    const PLACES: usize = EXACT_POWER as usize;
    let x = if x == 0.0 { 0.0 } else { x };
    let text = format!("{x}");
    match text.split_once('.') {
        Some((_, fraction)) if fraction.len() > PLACES => {
            // |x| < 10^-22, so fewer than 10^16 units of 10^-38.
            let units = (x.abs() * EXACT_LIMIT as f64).round() as u128;
            if units == 0 {
                return "0".into();
            }
            let sign = if x < 0.0 { "-" } else { "" };
            let digits = format!("{units:0>PLACES$}");
            format!("{sign}0.{}", digits.trim_end_matches('0'))
        }
        _ => text,
    }
}

/// The model of the tree (with an input per joint if `options.actuated`), its initial
/// configuration (consistent with its constraints), and the mass of the root link (the
/// fixed frame, whose inertial data is not used).
pub(super) fn tree_model(
    robot: &str,
    links: &[(String, Inertial)],
    joints: &[UrdfJoint],
    options: Options,
    ignored: &mut BTreeSet<String>,
) -> Result<(Model, BTreeMap<String, f64>, f64), String> {
    let inertial: HashMap<&str, &Inertial> = links.iter().map(|(n, i)| (n.as_str(), i)).collect();
    let (root, order) = joint_order(links, joints, &inertial)?;
    let merge = options.merge_fixed;
    let (merged_joints, merged_inertial) = if merge {
        merge_fixed(&order, &inertial, root, ignored)
    } else {
        (Vec::new(), HashMap::new())
    };
    let (order, inertial): (Vec<&UrdfJoint>, HashMap<&str, &Inertial>) = if merge {
        (
            merged_joints.iter().collect(),
            merged_inertial
                .iter()
                .map(|(k, v)| (k.as_str(), v))
                .collect(),
        )
    } else {
        (order, inertial)
    };
    let mut taken: BTreeSet<String> = ["g".to_string()].into();
    let mut body_names: HashMap<&str, String> = HashMap::new();
    // The coordinate of each movable joint, by the joint's name in the URDF.
    let mut coordinate_of: HashMap<&str, String> = HashMap::new();
    let mut coordinates = Vec::new();
    let mut bodies = Vec::new();
    let mut dissipation = Vec::new();
    for j in &order {
        let body = identifier(&j.child, "link", &mut taken)?;
        let joint = match j.kind.as_str() {
            "fixed" => Joint::Fixed,
            kind => {
                let q = identifier(&j.name, "joint", &mut taken)?;
                coordinates.push(q.clone());
                coordinate_of.insert(&j.name, q.clone());
                if j.damping > 0.0 {
                    // Rayleigh's F = ½ d q̇², whose −∂F/∂q̇ is the damping torque.
                    dissipation.push(format!("1/2*{}*dot({q})^2", decimal(j.damping)));
                }
                if kind == "prismatic" {
                    Joint::Prismatic(q)
                } else {
                    Joint::Revolute(q)
                }
            }
        };
        let inertial = inertial[j.child.as_str()];
        let strings = |v: &[f64]| v.iter().map(|&x| decimal(x)).collect::<Vec<_>>();
        let zero_or = |v: [f64; 3]| {
            if v == [0.0; 3] {
                Vec::new()
            } else {
                strings(&v)
            }
        };
        bodies.push(Body {
            name: body.clone(),
            mass: decimal(inertial.mass),
            inertia: strings(&inertial.inertia),
            parent: (j.parent != *root).then(|| body_names[j.parent.as_str()].clone()),
            axis: if matches!(joint, Joint::Fixed) {
                Vec::new()
            } else {
                strings(&j.axis)
            },
            joint: Some(joint),
            origin: zero_or(j.xyz),
            rpy: zero_or(j.rpy),
            com: zero_or(inertial.com),
            ..Body::default()
        });
        body_names.insert(&j.child, body);
    }
    if coordinates.is_empty() {
        return Err("the robot has no movable joint".into());
    }
    let (initial, constraints) = mimics(&order, &coordinate_of, &coordinates)?;
    let root_mass = inertial[root].mass;
    let mut parameters = vec!["g".to_string()];
    let (mut inputs, mut forces) = (Vec::new(), Vec::new());
    if options.actuated {
        for q in &coordinates {
            let tau = identifier(&format!("tau_{q}"), "tau", &mut taken)?;
            parameters.push(tau.clone());
            inputs.push(tau.clone());
            forces.push((q.clone(), tau));
        }
    }
    let model = Model {
        name: identifier(robot, "robot", &mut BTreeSet::new())?,
        coordinates,
        parameters,
        inputs,
        forces,
        gravity: Some(vec!["0".into(), "0".into(), "-g".into()]),
        dissipation: (!dissipation.is_empty()).then(|| dissipation.join(" + ")),
        constraints,
        bodies,
        ..Model::default()
    };
    model.check().map_err(|errors| {
        let mut message = String::from("the imported model does not check:");
        for e in errors {
            let _ = write!(message, "\n  {e}");
        }
        message
    })?;
    Ok((model, initial, root_mass))
}

/// The tree's root link and its joints parents first (breadth first from the root, the
/// children of a link by name); an error when a joint names an undefined link or the
/// links do not form one tree.
fn joint_order<'a>(
    links: &'a [(String, Inertial)],
    joints: &'a [UrdfJoint],
    inertial: &HashMap<&str, &Inertial>,
) -> Result<(&'a str, Vec<&'a UrdfJoint>), String> {
    let mut parent_of: HashMap<&str, &UrdfJoint> = HashMap::new();
    for j in joints {
        for link in [&j.parent, &j.child] {
            if !inertial.contains_key(link.as_str()) {
                return Err(format!(
                    "joint `{}` names the link `{}`, which is not defined",
                    escape_text(&j.name),
                    escape_text(link)
                ));
            }
        }
        if parent_of.insert(&j.child, j).is_some() {
            return Err(format!(
                "link `{}` has two parent joints: a kinematic loop, which needs a constraint (not imported)",
                escape_text(&j.child)
            ));
        }
    }
    let roots: Vec<&str> = links
        .iter()
        .map(|(n, _)| n.as_str())
        .filter(|n| !parent_of.contains_key(n))
        .collect();
    let [root] = roots.as_slice() else {
        return Err(match roots.as_slice() {
            [] if links.is_empty() => "the robot has no `<link>`".to_string(),
            [] => "every link has a parent joint: the joints form a cycle, a kinematic loop, which needs a constraint (not imported)".to_string(),
            _ => format!(
                "the links must form one tree, with one root; the roots are: {}",
                escape_text(&roots.join(", "))
            ),
        });
    };
    // Parents before children: breadth first from the root.
    let mut order: Vec<&UrdfJoint> = Vec::new();
    let mut frontier = vec![*root];
    while let Some(link) = frontier.pop() {
        let mut children: Vec<&UrdfJoint> = joints.iter().filter(|j| j.parent == link).collect();
        children.sort_by(|a, b| a.name.cmp(&b.name));
        for j in children {
            frontier.insert(0, &j.child);
            order.push(j);
        }
    }
    if order.len() != joints.len() {
        return Err(
            "the joints form a cycle: a kinematic loop needs a constraint (not imported)".into(),
        );
    }
    Ok((*root, order))
}

/// The initial configuration (every coordinate at 0 but the mimicking ones, which follow
/// the joints they mimic) and the mimic joints' constraints.
fn mimics(
    order: &[&UrdfJoint],
    coordinate_of: &HashMap<&str, String>,
    coordinates: &[String],
) -> Result<(BTreeMap<String, f64>, Vec<String>), String> {
    let mut initial: BTreeMap<String, f64> = coordinates.iter().map(|q| (q.clone(), 0.0)).collect();
    let mut constraints = Vec::new();
    for j in order {
        if let Some(mimic) = &j.mimic {
            constraints.push(mimic_constraint(j, mimic, coordinate_of)?);
        }
    }
    for j in order {
        if j.mimic.is_some() {
            let value = mimicked_value(j, order)?;
            initial.insert(coordinate_of[j.name.as_str()].clone(), value);
        }
    }
    Ok((initial, constraints))
}

/// The value of the coordinate of joint `j`, which mimics another, when every joint that
/// mimics none is at 0 (the import's initial state): along the chain of joints it mimics,
/// `q = m·q_other + offset`. Errors for a chain that comes back on itself.
fn mimicked_value(j: &UrdfJoint, joints: &[&UrdfJoint]) -> Result<f64, String> {
    let mut chain: Vec<&UrdfJoint> = vec![j];
    while let Some(mimic) = &chain[chain.len() - 1].mimic {
        let Some(next) = joints.iter().find(|k| k.name == mimic.joint) else {
            break;
        };
        if chain.iter().any(|k| k.name == next.name) {
            let names: Vec<String> = chain.iter().map(|k| escape_text(&k.name)).collect();
            return Err(format!(
                "the joints mimic each other in a cycle: {} → {}",
                names.join(" → "),
                escape_text(&next.name)
            ));
        }
        chain.push(next);
    }
    // From the end of the chain (a joint at 0) back to `j`.
    Ok(chain.iter().rev().fold(0.0, |value, k| match &k.mimic {
        Some(mimic) => mimic.multiplier * value + mimic.offset,
        None => value,
    }))
}

/// The holonomic constraint of joint `j`, a movable joint which mimics another:
/// `q − m·q_other − offset`. Errors unless the other is movable and distinct.
fn mimic_constraint(
    j: &UrdfJoint,
    mimic: &Mimic,
    coordinate_of: &HashMap<&str, String>,
) -> Result<String, String> {
    let shown = escape_text(&j.name);
    // Movable: the `<mimic>` of a fixed joint is dropped where the URDF is read.
    let q = &coordinate_of[j.name.as_str()];
    if mimic.joint == j.name {
        return Err(format!("joint `{shown}` mimics itself"));
    }
    let Some(other) = coordinate_of.get(mimic.joint.as_str()) else {
        return Err(format!(
            "joint `{shown}` mimics `{}`, which is not a movable joint of the robot",
            escape_text(&mimic.joint)
        ));
    };
    let mut constraint = if mimic.multiplier == 1.0 {
        format!("{q} - {other}")
    } else {
        format!("{q} - ({})*{other}", decimal(mimic.multiplier))
    };
    if mimic.offset != 0.0 {
        let _ = write!(constraint, " - ({})", decimal(mimic.offset));
    }
    Ok(constraint)
}
