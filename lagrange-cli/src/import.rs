//! `lagrange import`: a robot described in URDF as a model file, each link a body of a
//! kinematic tree and each movable joint a coordinate.
//!
//! What a URDF says about dynamics is kept: links' inertial data (mass, centre of mass,
//! inertia tensor, turned into the link's frame when the inertial frame is rotated),
//! joints' parent and child, origin (`xyz`, `rpy`), axis and type (`revolute`,
//! `continuous`, `prismatic`, `fixed`), and their viscous damping (`<dynamics damping>`,
//! as the Rayleigh dissipation `½ d q̇²`; Coulomb friction is reported as ignored). The
//! root link is the fixed frame. What is not
//! dynamics (visuals, collisions, materials, limits, transmissions, plugins) is listed on
//! standard error as ignored (and, with `--fixed-joint-merge`, each fixed joint whose link
//! was folded into its parent); what the model cannot express (`floating` and `planar`
//! joints, `mimic`, a link with two parents) is an error.

use std::collections::{BTreeMap, BTreeSet, HashMap};
use std::fmt::Write as _;
use std::path::PathBuf;

use lagrange_symbolic::model::{Body, Joint, Model, name_problem};
use lagrange_symbolic::syntax::print::escape_text;
use serde::Serialize;

use super::Failure;

/// The largest URDF read, in bytes.
const MAX_URDF_BYTES: u64 = 16 << 20;

/// Arguments of `lagrange import`.
#[derive(clap::Args)]
pub(crate) struct Args {
    /// The URDF file.
    urdf: PathBuf,
    /// Fold each link attached by a `fixed` joint into its parent (one body with the
    /// combined mass, centre of mass and inertia; its children re-attached to the parent),
    /// so the model has one body per moving part.
    #[arg(long)]
    fixed_joint_merge: bool,
}

/// Runs `lagrange import`: the model file on standard output, notes on standard error.
pub(crate) fn run(args: &Args) -> Result<(), Failure> {
    let shown = escape_text(&args.urdf.display().to_string());
    let size = std::fs::metadata(&args.urdf)
        .map_err(|e| Failure(format!("cannot read `{shown}`: {e}")))?
        .len();
    if size > MAX_URDF_BYTES {
        return Err(Failure(format!(
            "`{shown}` is {size} bytes; the limit is {MAX_URDF_BYTES}"
        )));
    }
    let text = std::fs::read_to_string(&args.urdf)
        .map_err(|e| Failure(format!("cannot read `{shown}`: {e}")))?;
    let imported =
        import(&text, args.fixed_joint_merge).map_err(|e| Failure(format!("{shown}: {e}")))?;
    if !imported.ignored.is_empty() {
        eprintln!(
            "note: ignored (not dynamics): {}",
            imported
                .ignored
                .iter()
                .cloned()
                .collect::<Vec<_>>()
                .join(", ")
        );
    }
    print!(
        "# Imported from {shown} by `lagrange import`.\n{}",
        imported.file
    );
    Ok(())
}

/// A URDF translated: the model file's text, and the elements it did not use.
#[derive(Debug)]
pub(crate) struct Imported {
    /// The model file (TOML).
    pub file: String,
    /// The names of the elements ignored, like `visual` or `limit`.
    pub ignored: BTreeSet<String>,
}

/// A link's inertial data, in the link's frame.
#[derive(Debug, Clone, Default)]
struct Inertial {
    mass: f64,
    com: [f64; 3],
    /// `xx, yy, zz, xy, xz, yz`.
    inertia: [f64; 6],
}

/// A joint as the URDF gives it.
#[derive(Debug, Clone)]
struct UrdfJoint {
    name: String,
    kind: String,
    parent: String,
    child: String,
    xyz: [f64; 3],
    rpy: [f64; 3],
    axis: [f64; 3],
    /// Viscous damping (`<dynamics damping>`): the torque or force `−d q̇`.
    damping: f64,
}

/// What the model file holds besides the model.
#[derive(Serialize)]
struct File {
    model: Model,
    values: BTreeMap<String, f64>,
    initial: Initial,
}

#[derive(Serialize)]
struct Initial {
    q: BTreeMap<String, f64>,
}

/// Translates the URDF `text` into a model file; with `merge`, links on fixed joints are
/// folded into their parents.
pub(crate) fn import(text: &str, merge: bool) -> Result<Imported, String> {
    let document = roxmltree::Document::parse(text).map_err(|e| format!("not valid XML: {e}"))?;
    let robot = document.root_element();
    if !robot.has_tag_name("robot") {
        return Err(format!(
            "the root element is `{}`, not `robot`",
            robot.tag_name().name()
        ));
    }
    let at = |node: roxmltree::Node<'_, '_>| {
        let position = document.text_pos_at(node.range().start);
        format!("line {}", position.row)
    };
    let mut ignored = BTreeSet::new();
    let mut links: Vec<(String, Inertial)> = Vec::new();
    let mut joints: Vec<UrdfJoint> = Vec::new();
    for node in robot.children().filter(|n| n.is_element()) {
        match node.tag_name().name() {
            "link" => links.push(link(node, &at, &mut ignored)?),
            "joint" => joints.push(joint(node, &at, &mut ignored)?),
            other => {
                ignored.insert(other.to_string());
            }
        }
    }
    let name = robot.attribute("name").unwrap_or("robot");
    let (file, root_mass) = model_file(name, &links, &joints, merge, &mut ignored)?;
    if root_mass != 0.0 {
        ignored.insert("inertial of the root link (it is the fixed frame)".into());
    }
    Ok(Imported { file, ignored })
}

fn number(node: roxmltree::Node<'_, '_>, attribute: &str, at: &str) -> Result<Option<f64>, String> {
    node.attribute(attribute)
        .map(|v| {
            v.trim()
                .parse::<f64>()
                .ok()
                .filter(|x| x.is_finite())
                .ok_or_else(|| {
                    format!(
                        "{at}: `{attribute}` is not a finite number: `{}`",
                        escape_text(v)
                    )
                })
        })
        .transpose()
}

fn triple(
    node: Option<roxmltree::Node<'_, '_>>,
    attribute: &str,
    default: [f64; 3],
    at: &str,
) -> Result<[f64; 3], String> {
    let Some(text) = node.and_then(|n| n.attribute(attribute)) else {
        return Ok(default);
    };
    let values: Vec<f64> = text
        .split_whitespace()
        .map(|v| v.parse::<f64>().ok().filter(|x| x.is_finite()))
        .collect::<Option<_>>()
        .ok_or_else(|| {
            format!(
                "{at}: `{attribute}` is not three finite numbers: `{}`",
                escape_text(text)
            )
        })?;
    <[f64; 3]>::try_from(values).map_err(|_| {
        format!(
            "{at}: `{attribute}` is not three numbers: `{}`",
            escape_text(text)
        )
    })
}

fn child<'a, 'i>(node: roxmltree::Node<'a, 'i>, tag: &str) -> Option<roxmltree::Node<'a, 'i>> {
    node.children().find(|c| c.has_tag_name(tag))
}

fn link(
    node: roxmltree::Node<'_, '_>,
    at: &dyn Fn(roxmltree::Node<'_, '_>) -> String,
    ignored: &mut BTreeSet<String>,
) -> Result<(String, Inertial), String> {
    let here = at(node);
    let name = node
        .attribute("name")
        .ok_or_else(|| format!("{here}: a link without a name"))?
        .to_string();
    for c in node
        .children()
        .filter(|c| c.is_element() && !c.has_tag_name("inertial"))
    {
        ignored.insert(c.tag_name().name().to_string());
    }
    let Some(inertial) = child(node, "inertial") else {
        return Ok((name, Inertial::default()));
    };
    let here = at(inertial);
    let origin = child(inertial, "origin");
    let com = triple(origin, "xyz", [0.0; 3], &here)?;
    let rpy = triple(origin, "rpy", [0.0; 3], &here)?;
    let mass = child(inertial, "mass")
        .map(|m| number(m, "value", &here))
        .transpose()?
        .flatten()
        .unwrap_or(0.0);
    let mut entries = [0.0; 6];
    if let Some(i) = child(inertial, "inertia") {
        for (slot, key) in entries
            .iter_mut()
            .zip(["ixx", "iyy", "izz", "ixy", "ixz", "iyz"])
        {
            *slot = number(i, key, &here)?.unwrap_or(0.0);
        }
    }
    Ok((
        name,
        Inertial {
            mass,
            com,
            inertia: turned(entries, rpy),
        },
    ))
}

type Matrix = [[f64; 3]; 3];

/// URDF's `rpy` as a matrix, `R_z(yaw) R_y(pitch) R_x(roll)`.
fn rpy_matrix([r, p, y]: [f64; 3]) -> Matrix {
    let rz = [
        [y.cos(), -y.sin(), 0.0],
        [y.sin(), y.cos(), 0.0],
        [0.0, 0.0, 1.0],
    ];
    let ry = [
        [p.cos(), 0.0, p.sin()],
        [0.0, 1.0, 0.0],
        [-p.sin(), 0.0, p.cos()],
    ];
    let rx = [
        [1.0, 0.0, 0.0],
        [0.0, r.cos(), -r.sin()],
        [0.0, r.sin(), r.cos()],
    ];
    mul(mul(rz, ry), rx)
}

/// The `rpy` of a rotation matrix (inverse of [`rpy_matrix`]; at pitch ±π/2, roll 0).
fn rpy_of(m: Matrix) -> [f64; 3] {
    let cos_pitch = m[0][0].hypot(m[1][0]);
    let pitch = (-m[2][0]).atan2(cos_pitch);
    if cos_pitch > 1e-12 {
        [m[2][1].atan2(m[2][2]), pitch, m[1][0].atan2(m[0][0])]
    } else {
        [0.0, pitch, (-m[0][1]).atan2(m[1][1])]
    }
}

fn mul(a: Matrix, b: Matrix) -> Matrix {
    std::array::from_fn(|i| std::array::from_fn(|j| (0..3).map(|k| a[i][k] * b[k][j]).sum()))
}

fn transposed(a: Matrix) -> Matrix {
    std::array::from_fn(|i| std::array::from_fn(|j| a[j][i]))
}

fn apply(a: Matrix, v: [f64; 3]) -> [f64; 3] {
    std::array::from_fn(|i| (0..3).map(|k| a[i][k] * v[k]).sum())
}

fn tensor([xx, yy, zz, xy, xz, yz]: [f64; 6]) -> Matrix {
    [[xx, xy, xz], [xy, yy, yz], [xz, yz, zz]]
}

fn entries(t: Matrix) -> [f64; 6] {
    [t[0][0], t[1][1], t[2][2], t[0][1], t[0][2], t[1][2]]
}

/// `R I Rᵀ`: an inertia tensor given in a frame turned by `rpy`, in the link's frame.
fn turned(entries_given: [f64; 6], rpy: [f64; 3]) -> [f64; 6] {
    if rpy == [0.0; 3] {
        return entries_given;
    }
    let rot = rpy_matrix(rpy);
    entries(mul(mul(rot, tensor(entries_given)), transposed(rot)))
}

/// The links on fixed joints folded into the nearest link that moves (or the fixed
/// frame): the movable joints re-attached to it with composed placements, and each
/// remaining link's inertial data combined with what was folded into it. `order` lists
/// the joints parents first.
fn merge_fixed(
    order: &[&UrdfJoint],
    inertial: &HashMap<&str, &Inertial>,
    root: &str,
    ignored: &mut BTreeSet<String>,
) -> (Vec<UrdfJoint>, HashMap<String, Inertial>) {
    const IDENTITY: Matrix = [[1.0, 0.0, 0.0], [0.0, 1.0, 0.0], [0.0, 0.0, 1.0]];
    // Per link: the link it is rigidly part of, and its frame there (rotation, origin).
    let mut part_of: HashMap<String, (String, Matrix, [f64; 3])> = HashMap::new();
    part_of.insert(root.to_string(), (root.to_string(), IDENTITY, [0.0; 3]));
    let mut joints = Vec::new();
    for j in order {
        let (owner, rotation, origin) = part_of[&j.parent].clone();
        let placed_rotation = mul(rotation, rpy_matrix(j.rpy));
        let offset = apply(rotation, j.xyz);
        let placed_origin: [f64; 3] = std::array::from_fn(|i| origin[i] + offset[i]);
        if j.kind == "fixed" {
            ignored.insert(format!(
                "fixed joint `{}` (link `{}` merged into `{}`)",
                j.name,
                j.child,
                if owner == root {
                    "the fixed frame"
                } else {
                    owner.as_str()
                }
            ));
            part_of.insert(j.child.clone(), (owner, placed_rotation, placed_origin));
        } else {
            let mut moved = (*j).clone();
            if owner != j.parent {
                moved.xyz = placed_origin;
                moved.rpy = rpy_of(placed_rotation);
            }
            moved.parent = owner;
            joints.push(moved);
            part_of.insert(j.child.clone(), (j.child.clone(), IDENTITY, [0.0; 3]));
        }
    }
    // Mass, first moment and inertia about each owner's origin, then about the centre.
    let mut sums: HashMap<String, (f64, [f64; 3], Matrix)> = HashMap::new();
    for (link, (owner, rotation, origin)) in &part_of {
        let part = inertial[link.as_str()];
        let turned_com = apply(*rotation, part.com);
        let c: [f64; 3] = std::array::from_fn(|i| origin[i] + turned_com[i]);
        let spin = mul(mul(*rotation, tensor(part.inertia)), transposed(*rotation));
        let entry = sums
            .entry(owner.clone())
            .or_insert((0.0, [0.0; 3], [[0.0; 3]; 3]));
        entry.0 += part.mass;
        let m = part.mass;
        let cc = c.iter().map(|x| x * x).sum::<f64>();
        for i in 0..3 {
            entry.1[i] += m * c[i];
            for k in 0..3 {
                let shift = m * (if i == k { cc } else { 0.0 } - c[i] * c[k]);
                entry.2[i][k] += spin[i][k] + shift;
            }
        }
    }
    let merged = sums
        .into_iter()
        .map(|(owner, (m, h, about_origin))| {
            let com: [f64; 3] = if m > 0.0 { h.map(|x| x / m) } else { [0.0; 3] };
            let cc = com.iter().map(|x| x * x).sum::<f64>();
            let about_com: Matrix = std::array::from_fn(|i| {
                std::array::from_fn(|k| {
                    about_origin[i][k] - m * (if i == k { cc } else { 0.0 } - com[i] * com[k])
                })
            });
            let data = Inertial {
                mass: m,
                com,
                inertia: entries(about_com),
            };
            (owner, data)
        })
        .collect();
    (joints, merged)
}

fn joint(
    node: roxmltree::Node<'_, '_>,
    at: &dyn Fn(roxmltree::Node<'_, '_>) -> String,
    ignored: &mut BTreeSet<String>,
) -> Result<UrdfJoint, String> {
    let here = at(node);
    let required = |key: &str| {
        node.attribute(key)
            .map(str::to_string)
            .ok_or_else(|| format!("{here}: a joint without a `{key}`"))
    };
    let name = required("name")?;
    let kind = required("type")?;
    let shown = escape_text(&name);
    match kind.as_str() {
        "revolute" | "continuous" | "prismatic" | "fixed" => {}
        "floating" | "planar" => {
            return Err(format!(
                "{here}: joint `{shown}` is `{kind}`, which the model cannot express yet (revolute, continuous, prismatic and fixed joints only)"
            ));
        }
        other => {
            return Err(format!(
                "{here}: joint `{shown}` has the unknown type `{}`",
                escape_text(other)
            ));
        }
    }
    let link_of = |tag: &str| {
        child(node, tag)
            .and_then(|c| c.attribute("link"))
            .map(str::to_string)
            .ok_or_else(|| format!("{here}: joint `{shown}` has no `<{tag} link=…>`"))
    };
    let (parent, child_link) = (link_of("parent")?, link_of("child")?);
    for c in node.children().filter(|c| c.is_element()) {
        match c.tag_name().name() {
            "parent" | "child" | "origin" | "axis" | "dynamics" => {}
            "mimic" => {
                return Err(format!(
                    "{}: joint `{shown}` mimics another: coupled joints are not supported (declare one coordinate and a constraint)",
                    at(c)
                ));
            }
            other => {
                ignored.insert(other.to_string());
            }
        }
    }
    let dynamics = child(node, "dynamics");
    let damping = match dynamics {
        Some(d) => number(d, "damping", &at(d))?.unwrap_or(0.0),
        None => 0.0,
    };
    if damping < 0.0 {
        return Err(format!(
            "{here}: joint `{shown}` has a negative damping ({damping}), which would feed energy in"
        ));
    }
    if let Some(d) = dynamics
        && number(d, "friction", &at(d))?.is_some_and(|f| f != 0.0)
    {
        ignored.insert("dynamics friction (Coulomb friction is not a dissipation function)".into());
    }
    let origin = child(node, "origin");
    let axis = triple(child(node, "axis"), "xyz", [1.0, 0.0, 0.0], &here)?;
    let length = axis.iter().map(|a| a * a).sum::<f64>().sqrt();
    if kind != "fixed" && length == 0.0 {
        return Err(format!("{here}: joint `{shown}` has a zero axis"));
    }
    Ok(UrdfJoint {
        name,
        kind,
        parent,
        child: child_link,
        xyz: triple(origin, "xyz", [0.0; 3], &here)?,
        rpy: triple(origin, "rpy", [0.0; 3], &here)?,
        axis: axis.map(|a| if length > 0.0 { a / length } else { a }),
        damping,
    })
}

/// An identifier for `name` that no earlier one took: other characters become `_`, and a
/// name that still cannot be one gets a prefix.
fn identifier(name: &str, prefix: &str, taken: &mut BTreeSet<String>) -> Result<String, String> {
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
    if name_problem(&candidate, "a name").is_some() || candidate == "t" || candidate == "pi" {
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

/// A number as an exact decimal expression (Rust prints `f64` without exponents).
fn decimal(x: f64) -> String {
    let x = if x == 0.0 { 0.0 } else { x };
    format!("{x}")
}

/// The model file of the tree, and the mass of the root link (the fixed frame, whose
/// inertial data is not used).
fn model_file(
    robot: &str,
    links: &[(String, Inertial)],
    joints: &[UrdfJoint],
    merge: bool,
    ignored: &mut BTreeSet<String>,
) -> Result<(String, f64), String> {
    let inertial: HashMap<&str, &Inertial> = links.iter().map(|(n, i)| (n.as_str(), i)).collect();
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
        return Err(format!(
            "the links must form one tree, with one root; the roots are: {}",
            escape_text(&roots.join(", "))
        ));
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
    let root_mass = inertial[root].mass;
    let model = Model {
        name: identifier(robot, "robot", &mut BTreeSet::new())?,
        coordinates: coordinates.clone(),
        parameters: vec!["g".into()],
        gravity: Some(vec!["0".into(), "0".into(), "-g".into()]),
        dissipation: (!dissipation.is_empty()).then(|| dissipation.join(" + ")),
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
    let file = File {
        model,
        values: [("g".to_string(), 9.81)].into(),
        initial: Initial {
            q: coordinates.into_iter().map(|q| (q, 0.0)).collect(),
        },
    };
    let text = toml::to_string(&file).map_err(|e| format!("cannot write the model file: {e}"))?;
    Ok((text, root_mass))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rpy_of_inverts_rpy_matrix_including_gimbal_lock() {
        let half_pi = std::f64::consts::FRAC_PI_2;
        for rpy in [
            [0.3, -0.4, 0.5],
            [-2.9, 1.2, 3.0],
            [0.0, half_pi, 0.7],
            [0.4, -half_pi, -1.1],
        ] {
            let m = rpy_matrix(rpy);
            let back = rpy_matrix(rpy_of(m));
            for i in 0..3 {
                for j in 0..3 {
                    assert!(
                        (m[i][j] - back[i][j]).abs() < 1e-12,
                        "{rpy:?}: {m:?} vs {back:?}"
                    );
                }
            }
        }
    }
}
