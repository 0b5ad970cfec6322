//! Reading a URDF's elements: a link's inertial data and a joint's type, links, origin,
//! axis and damping, with the elements they hold that are not dynamics noted as ignored.

use std::collections::BTreeSet;

use crate::model::{inertia_problem, mass_problem};
use crate::syntax::print::escape_text;
use crate::syntax::{EXACT_LIMIT, EXACT_POWER};

use super::frames::turned;
use super::tree::decimal;
use super::{Inertial, Mimic, UrdfJoint};

/// A finite number as the file writes it, noting once if the model holds it rounded;
/// `None` for what is not one, an error for one beyond [`EXACT_LIMIT`].
fn finite(text: &str, at: &str, notes: &mut BTreeSet<String>) -> Result<Option<f64>, String> {
    let Some(x) = text.parse::<f64>().ok().filter(|x| x.is_finite()) else {
        return Ok(None);
    };
    if x.abs() > EXACT_LIMIT as f64 {
        return Err(format!(
            "{at}: `{}` is beyond 10^{EXACT_POWER}, the largest number the engine holds exactly",
            escape_text(text)
        ));
    }
    let held = decimal(x);
    // What the notes say of numbers rounded off, once.
    let rounded = format!(
        "digits past the {EXACT_POWER}th decimal place, beyond the exact fractions the engine holds"
    );
    if held.parse::<f64>() != Ok(x) && !notes.iter().any(|n| n.starts_with(&rounded)) {
        notes.insert(format!(
            "{rounded} ({at}: `{}` read as {held})",
            escape_text(text)
        ));
    }
    Ok(Some(x))
}

pub(super) fn number(
    node: roxmltree::Node<'_, '_>,
    attribute: &str,
    at: &str,
    notes: &mut BTreeSet<String>,
) -> Result<Option<f64>, String> {
    node.attribute(attribute)
        .map(|v| {
            finite(v.trim(), at, notes)?.ok_or_else(|| {
                format!(
                    "{at}: `{attribute}` is not a finite number: `{}`",
                    escape_text(v)
                )
            })
        })
        .transpose()
}

pub(super) fn triple(
    node: Option<roxmltree::Node<'_, '_>>,
    attribute: &str,
    default: [f64; 3],
    at: &str,
    notes: &mut BTreeSet<String>,
) -> Result<[f64; 3], String> {
    let Some(text) = node.and_then(|n| n.attribute(attribute)) else {
        return Ok(default);
    };
    let values: Vec<f64> = text
        .split_whitespace()
        .map(|v| finite(v, at, notes))
        .collect::<Result<Option<_>, _>>()?
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

/// The element `<tag>` in `node`, if any; an error for a second one, which URDF does not
/// allow (reading the first or the last would drop the other without a word).
pub(super) fn child<'a, 'i>(
    node: roxmltree::Node<'a, 'i>,
    tag: &str,
    at: &dyn Fn(roxmltree::Node<'_, '_>) -> String,
) -> Result<Option<roxmltree::Node<'a, 'i>>, String> {
    let mut found = node.children().filter(|c| c.has_tag_name(tag));
    let first = found.next();
    match (first, found.next()) {
        (Some(first), Some(second)) => {
            let owner = match node.attribute("name") {
                Some(name) => format!(
                    "`<{} name=\"{}\">`",
                    node.tag_name().name(),
                    escape_text(name)
                ),
                None => format!("`<{}>`", node.tag_name().name()),
            };
            Err(format!(
                "{}: {owner} has a second `<{tag}>` (the first at {}): URDF gives it once",
                at(second),
                at(first)
            ))
        }
        (first, _) => Ok(first),
    }
}

pub(super) fn link(
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
    let Some(inertial) = child(node, "inertial", at)? else {
        return Ok((name, Inertial::default()));
    };
    let here = at(inertial);
    let origin = child(inertial, "origin", at)?;
    let com = triple(origin, "xyz", [0.0; 3], &here, ignored)?;
    let rpy = triple(origin, "rpy", [0.0; 3], &here, ignored)?;
    let shown = escape_text(&name);
    let mut mass = 0.0;
    if let Some(m) = child(inertial, "mass", at)? {
        let place = at(m);
        mass = number(m, "value", &place, ignored)?.unwrap_or(0.0);
        if let Some(problem) = mass_problem(mass) {
            return Err(format!("{place}: link `{shown}`: {problem}"));
        }
    }
    let mut entries = [0.0; 6];
    if let Some(i) = child(inertial, "inertia", at)? {
        let place = at(i);
        for (slot, key) in entries
            .iter_mut()
            .zip(["ixx", "iyy", "izz", "ixy", "ixz", "iyz"])
        {
            *slot = number(i, key, &place, ignored)?.unwrap_or(0.0);
        }
        if let Some(problem) = inertia_problem(entries) {
            return Err(format!("{place}: link `{shown}`: {problem}"));
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

pub(super) fn joint(
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
        child(node, tag, at)?
            .and_then(|c| c.attribute("link"))
            .map(str::to_string)
            .ok_or_else(|| format!("{here}: joint `{shown}` has no `<{tag} link=…>`"))
    };
    let (parent, child_link) = (link_of("parent")?, link_of("child")?);
    let mut mimic = None;
    for c in node.children().filter(|c| c.is_element()) {
        match c.tag_name().name() {
            "parent" | "child" | "origin" | "axis" | "dynamics" => {}
            "mimic" => {
                let place = at(c);
                if mimic.is_some() {
                    return Err(format!("{place}: joint `{shown}` has a second `<mimic>`"));
                }
                if kind == "fixed" {
                    // No coordinate to couple (URDF readers ignore it too).
                    ignored.insert(format!("mimic of the fixed joint `{shown}`"));
                    continue;
                }
                let joint = c.attribute("joint").ok_or_else(|| {
                    format!("{place}: joint `{shown}` mimics no joint (`<mimic joint=…>`)")
                })?;
                mimic = Some(Mimic {
                    joint: joint.to_string(),
                    multiplier: number(c, "multiplier", &place, ignored)?.unwrap_or(1.0),
                    offset: number(c, "offset", &place, ignored)?.unwrap_or(0.0),
                });
            }
            other => {
                ignored.insert(other.to_string());
            }
        }
    }
    let dynamics = child(node, "dynamics", at)?;
    let damping = match dynamics {
        Some(d) => number(d, "damping", &at(d), ignored)?.unwrap_or(0.0),
        None => 0.0,
    };
    if damping < 0.0 {
        return Err(format!(
            "{here}: joint `{shown}` has a negative damping ({damping}), which would feed energy in"
        ));
    }
    if let Some(d) = dynamics
        && number(d, "friction", &at(d), ignored)?.is_some_and(|f| f != 0.0)
    {
        ignored.insert("dynamics friction (Coulomb friction is not a dissipation function)".into());
    }
    let origin = child(node, "origin", at)?;
    let axis_node = child(node, "axis", at)?;
    let axis = triple(axis_node, "xyz", [1.0, 0.0, 0.0], &here, ignored)?;
    let squared = axis.iter().map(|a| a * a).sum::<f64>();
    // Below the smallest normal number the square's digits are gone: the quotients by
    // its root would not be a unit vector.
    if kind != "fixed" && !squared.is_normal() {
        let written = axis_node.and_then(|a| a.attribute("xyz")).unwrap_or("");
        return Err(format!(
            "{here}: joint `{shown}` has the axis `{}`, too short to give a direction: give a unit vector",
            escape_text(written)
        ));
    }
    let length = squared.sqrt();
    Ok(UrdfJoint {
        name,
        kind,
        parent,
        child: child_link,
        xyz: triple(origin, "xyz", [0.0; 3], &here, ignored)?,
        rpy: triple(origin, "rpy", [0.0; 3], &here, ignored)?,
        axis: axis.map(|a| if length > 0.0 { a / length } else { a }),
        damping,
        mimic,
    })
}
