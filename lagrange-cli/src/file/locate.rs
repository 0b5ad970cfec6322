//! Where in a model file an error is: model errors and failures located at the line and
//! column of the key they concern, with user text escaped and shortened.

use lagrange_symbolic::model::{Item, ModelError};
use lagrange_symbolic::syntax::print::{escape_text, excerpt_text};

use super::ModelFile;
use crate::Failure;

impl ModelFile {
    /// Every model error as one message, one line each: `file:line:column: key = "…":
    /// message`, with user text escaped and shortened.
    pub(crate) fn model_errors(&self, errors: &[ModelError]) -> Failure {
        let lines: Vec<String> = errors
            .iter()
            .map(|e| {
                let (line, column) = self.locate(e.item);
                format!(
                    "{}:{line}:{column}: {}: {}",
                    self.shown_path(),
                    self.subject(e.item),
                    escape_text(&e.message)
                )
            })
            .collect();
        Failure(lines.join("\nerror: "))
    }

    /// The key an item is written under, with its expression when it has one.
    fn subject(&self, item: Item) -> String {
        let m = &self.model;
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

    /// The file's path as messages show it.
    pub(super) fn shown_path(&self) -> String {
        escape_text(&self.path.display().to_string())
    }

    /// A failure located at the first line that starts with `key`.
    pub(super) fn failure_at(&self, key: &str, message: String) -> Failure {
        let (line, column) = self.key_location(key).unwrap_or((1, 1));
        Failure(format!(
            "{}:{line}:{column}: {}",
            self.shown_path(),
            escape_text(&message)
        ))
    }

    /// The line and column of the key an item is written under.
    fn locate(&self, item: Item) -> (usize, usize) {
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
        self.key_location(key)
            .or_else(|| self.key_location("[model]"))
            .unwrap_or((1, 1))
    }

    fn key_location(&self, key: &str) -> Option<(usize, usize)> {
        let bare = key.trim_start_matches('[').trim_end_matches(']');
        self.text.lines().enumerate().find_map(|(i, line)| {
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
}

/// The 1-based line and column of a byte offset (of the character it falls in, as an
/// offset into a TOML string's value need not fall on a character of the file's text).
pub(crate) fn location(text: &str, offset: usize) -> (usize, usize) {
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
