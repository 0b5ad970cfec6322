//! A robot described in URDF as a model, each link a body of a kinematic tree and each
//! movable joint a coordinate: what `lagrange import` writes as a model file and what
//! `#[lagrangian(urdf = "…")]` derives.
//!
//! What a URDF says about dynamics is kept: links' inertial data (mass, centre of mass,
//! inertia tensor, turned into the link's frame when the inertial frame is rotated),
//! joints' parent and child, origin (`xyz`, `rpy`), axis and type (`revolute`,
//! `continuous`, `prismatic`, `fixed`), and their viscous damping (`<dynamics damping>`,
//! as the Rayleigh dissipation `½ d q̇²`; Coulomb friction is reported as ignored), and
//! `<mimic>` couplings, each a holonomic constraint `q = multiplier · q_other + offset` (one
//! on a fixed joint couples nothing and is listed as ignored). Numbers are written as exact
//! decimals, rounded at the 38th decimal place (beyond it, the engine holds no exact
//! fraction; only a number below 10^-21 in magnitude is touched). The
//! root link is the fixed frame. What is not
//! dynamics (visuals, collisions, materials, limits, transmissions, plugins) is listed as
//! ignored (and, with `--fixed-joint-merge`, each fixed joint whose link
//! was folded into its parent); what the model cannot express (`floating` and `planar`
//! joints, a link with two parents) is an error.

use std::collections::{BTreeMap, BTreeSet, HashMap};

use crate::model::Model;
use crate::syntax::print::escape_text;
use elements::{joint, link};
use tree::tree_model;

mod elements;
mod frames;
mod merge;
mod tree;

/// A URDF translated: the model, its initial configuration, and the elements it did not
/// use.
#[derive(Debug)]
pub struct Imported {
    /// The model: parameter `g`, gravity along −z.
    pub model: Model,
    /// Each coordinate's initial value: 0, or what a `<mimic>` constraint asks.
    pub initial: BTreeMap<String, f64>,
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
    /// `<mimic>`: this joint's coordinate follows another's.
    mimic: Option<Mimic>,
}

/// A joint that mimics another (`<mimic joint multiplier offset>`): its coordinate is
/// `multiplier · q + offset`, `q` the other joint's. Imported as its own coordinate with
/// that holonomic constraint.
#[derive(Debug, Clone)]
struct Mimic {
    joint: String,
    multiplier: f64,
    offset: f64,
}

/// How a URDF is translated.
#[derive(Debug, Clone, Copy, Default)]
pub struct Options {
    /// Fold each link on a `fixed` joint into its parent.
    pub merge_fixed: bool,
    /// Drive every movable joint by an input: the torque or force `tau_<q>` on its
    /// coordinate `q` (a parameter, an input and a generalized force of the model).
    pub actuated: bool,
}

/// Translates the URDF `text` into a model, as `options` say.
pub fn import(text: &str, options: Options) -> Result<Imported, String> {
    // The parser's message quotes the character it stopped at: escaped, like all user text.
    let document = roxmltree::Document::parse(text)
        .map_err(|e| format!("not valid XML: {}", escape_text(&e.to_string())))?;
    let robot = document.root_element();
    if !robot.has_tag_name("robot") {
        return Err(format!(
            "the root element is `{}`, not `robot`",
            robot.tag_name().name()
        ));
    }
    // Each element's line, from the offsets of the line ends found once: the parser's own
    // `text_pos_at` counts them from the start on each call, which took most of the time
    // of a robot with thousands of links.
    let line_ends: Vec<usize> = text.match_indices('\n').map(|(i, _)| i).collect();
    let at = |node: roxmltree::Node<'_, '_>| {
        let start = node.range().start;
        format!("line {}", line_ends.partition_point(|&end| end < start) + 1)
    };
    let mut ignored = BTreeSet::new();
    let mut links: Vec<(String, Inertial)> = Vec::new();
    let mut joints: Vec<UrdfJoint> = Vec::new();
    // Where each link and joint name was first given: URDF names each once.
    let mut named: HashMap<(&str, String), String> = HashMap::new();
    for node in robot.children().filter(|n| n.is_element()) {
        let kind = node.tag_name().name();
        let name = match kind {
            "link" => {
                links.push(link(node, &at, &mut ignored)?);
                &links[links.len() - 1].0
            }
            "joint" => {
                joints.push(joint(node, &at, &mut ignored)?);
                &joints[joints.len() - 1].name
            }
            other => {
                ignored.insert(other.to_string());
                continue;
            }
        };
        if let Some(first) = named.insert((kind, name.clone()), at(node)) {
            return Err(format!(
                "{}: a second {kind} named `{}` (the first at {first}): URDF names each {kind} once",
                at(node),
                escape_text(name)
            ));
        }
    }
    let name = robot.attribute("name").unwrap_or("robot");
    let (model, initial, root_mass) = tree_model(name, &links, &joints, options, &mut ignored)?;
    if root_mass != 0.0 {
        ignored.insert("inertial of the root link (it is the fixed frame)".into());
    }
    Ok(Imported {
        model,
        initial,
        ignored,
    })
}
