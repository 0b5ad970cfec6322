//! Where in a model file an error is: the line and column of the key an item is written
//! under, of a byte offset, and the key as a message names it.

use crate::model::{Item, Model};
use crate::syntax::print::excerpt_text;

/// The key an item of `model` is written under in a model file, with its expression when
/// it has one.
pub fn item_subject(model: &Model, item: Item) -> String {
    let m = model;
    let with = |key: String, source: Option<&String>| match source {
        Some(source) => format!("{key} = \"{}\"", excerpt_text(source)),
        None => key,
    };
    match item {
        Item::Model => "[model]".into(),
        Item::Name => with("name".into(), Some(&m.name)),
        Item::Coordinates => "coordinates".into(),
        Item::Coordinate(i) => format!("coordinates[{i}]"),
        Item::Parameter(i) => format!("parameters[{i}]"),
        Item::Input(i) => format!("inputs[{i}]"),
        Item::Kinetic => with("kinetic".into(), m.kinetic.as_ref()),
        Item::Potential => with("potential".into(), m.potential.as_ref()),
        Item::Lagrangian => with("lagrangian".into(), m.lagrangian.as_ref()),
        Item::Dissipation => with("dissipation".into(), m.dissipation.as_ref()),
        Item::Gravity => "gravity".into(),
        Item::Force(k) => match m.forces.get(k) {
            Some((q, source)) => with(format!("force.{}", excerpt_text(q)), Some(source)),
            None => "force".into(),
        },
        Item::ForceCoordinate(k) => match m.forces.get(k) {
            Some((q, _)) => format!("force.{}", excerpt_text(q)),
            None => "force".into(),
        },
        Item::Constraint(k) => with(format!("constraint[{k}]"), m.constraints.get(k)),
        Item::VelocityConstraint(k) => with(
            format!("velocity_constraint[{k}]"),
            m.velocity_constraints.get(k),
        ),
        Item::Ignore(k) => format!("ignore[{k}]"),
        Item::Particle(k) => format!("particle[{k}]"),
        Item::Body(k) => format!("body[{k}]"),
        Item::Draw(k) => match m.draw.get(k) {
            Some(d) => format!("draw[{k}] (`{}`)", excerpt_text(&d.point)),
            None => format!("draw[{k}]"),
        },
    }
}

/// The line and column in the model file `text` of the key an item is written under (the
/// `[model]` table's when the key is not there).
pub fn item_location(text: &str, item: Item) -> (usize, usize) {
    let key = match item {
        Item::Model => "[model]",
        Item::Name => "name",
        Item::Coordinates | Item::Coordinate(_) => "coordinates",
        Item::Parameter(_) => "parameters",
        Item::Input(_) => "inputs",
        Item::Kinetic => "kinetic",
        Item::Potential => "potential",
        Item::Lagrangian => "lagrangian",
        Item::Force(_) | Item::ForceCoordinate(_) => "force",
        Item::Dissipation => "dissipation",
        Item::Gravity => "gravity",
        Item::Ignore(_) => "ignore",
        Item::Constraint(_) => "constraint",
        Item::VelocityConstraint(_) => "velocity_constraint",
        Item::Particle(_) => "particle",
        Item::Body(_) => "body",
        Item::Draw(_) => "[[draw]]",
    };
    key_location(text, key)
        .or_else(|| key_location(text, "[model]"))
        .unwrap_or((1, 1))
}

/// The line and column of the first line of `text` that starts with `key` (a table's
/// name, `[model]` or `[[draw]]`, or a key of `[model]`, also written `model.key`).
pub fn key_location(text: &str, key: &str) -> Option<(usize, usize)> {
    let bare = key.trim_start_matches('[').trim_end_matches(']');
    text.lines().enumerate().find_map(|(i, line)| {
        let trimmed = line.trim_start();
        let column = line.len() - trimmed.len() + 1;
        let rest = trimmed
            .strip_prefix("[[")
            .or_else(|| trimmed.strip_prefix('['))
            .unwrap_or(trimmed)
            .trim_start_matches("model.");
        let starts = rest
            .strip_prefix(bare)
            .is_some_and(|after| after.starts_with([' ', '=', ']', '.']));
        starts.then_some((i + 1, column))
    })
}

/// The 1-based line and column of a byte offset (of the character it falls in, as an
/// offset into a TOML string's value need not fall on a character of the file's text).
pub fn location(text: &str, offset: usize) -> (usize, usize) {
    let end = (0..=offset.min(text.len()))
        .rev()
        .find(|&i| text.is_char_boundary(i))
        .unwrap_or(0);
    let before = &text[..end];
    let line = before.matches('\n').count() + 1;
    let column = before.rsplit('\n').next().map_or(0, |l| l.chars().count()) + 1;
    (line, column)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn offsets_become_lines_and_columns() {
        assert_eq!(location("ab\ncd\n", 4), (2, 2));
        assert_eq!(location("ab", 0), (1, 1));
        // Inside a character: that character (slicing there panicked).
        assert_eq!(location("aé\nb", 2), (1, 2));
    }
}
