//! `[[events]]` entries: as written, and checked into an expression whose zero crossings
//! are the event, the crossings that count, and what the event does (record, stop, or reset
//! coordinates and velocities).

use std::collections::BTreeMap;

use lagrange_symbolic::syntax::print::excerpt_text;
use serde::Deserialize;

use super::ModelFile;
use crate::LoadError;
use crate::signal::Signal;

/// An `[[events]]` entry as written.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct WrittenEvent {
    name: Option<String>,
    when: String,
    direction: Option<String>,
    action: Option<String>,
    #[serde(default)]
    reset: BTreeMap<String, String>,
}

/// Which zero crossings of an event's expression count.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Direction {
    /// From negative to positive.
    Rising,
    /// From positive to negative.
    Falling,
    /// Both.
    Either,
}

/// What a value of a reset sets.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Target {
    /// Coordinate `i`.
    Coordinate(usize),
    /// Velocity `i`.
    Velocity(usize),
}

/// What an event does.
#[derive(Debug, Clone)]
pub enum Action {
    /// Note it and go on.
    Record,
    /// End the run.
    Stop,
    /// Set these coordinates and velocities (all evaluated at the state before the reset).
    Reset(Vec<(Target, Signal)>),
}

/// A checked `[[events]]` entry.
#[derive(Debug, Clone)]
pub struct FileEvent {
    /// Its name (`event N` when the file gives none).
    pub name: String,
    /// The expression whose zero crossings are the event.
    pub when: Signal,
    /// Which crossings count.
    pub direction: Direction,
    /// What happens.
    pub action: Action,
}

impl ModelFile {
    /// The `[[events]]` entries, checked.
    pub fn events(&self) -> Result<Vec<FileEvent>, LoadError> {
        self.events
            .iter()
            .enumerate()
            .map(|(k, e)| {
                let name = e.name.clone().unwrap_or_else(|| format!("event {}", k + 1));
                let shown = excerpt_text(&name);
                let fail = |message: String| self.failure_at("[[events]]", message);
                let parse = |source: &str, what: String| {
                    Signal::parse(source, &self.model, &[], &what).map_err(fail)
                };
                let when = parse(&e.when, format!("`when` of event `{shown}`"))?;
                let direction = match e.direction.as_deref() {
                    None | Some("either") => Direction::Either,
                    Some("rising") => Direction::Rising,
                    Some("falling") => Direction::Falling,
                    Some(other) => {
                        return Err(fail(format!(
                            "event `{shown}`: unknown direction `{}`: use rising, falling or either",
                            excerpt_text(other)
                        )));
                    }
                };
                let action = match (e.action.as_deref(), e.reset.is_empty()) {
                    (None | Some("record"), true) => Action::Record,
                    (Some("stop"), true) => Action::Stop,
                    (None | Some("reset"), false) => {
                        let values = e
                            .reset
                            .iter()
                            .map(|(key, source)| {
                                let target = self.reset_target(key).ok_or_else(|| {
                                    fail(format!(
                                        "event `{shown}` resets `{}`, which is not a coordinate or a `dot(…)` of one",
                                        excerpt_text(key)
                                    ))
                                })?;
                                let what = format!("the reset of `{key}` in event `{shown}`");
                                Ok((target, parse(source, what)?))
                            })
                            .collect::<Result<_, LoadError>>()?;
                        Action::Reset(values)
                    }
                    (Some("reset"), true) => {
                        return Err(fail(format!(
                            "event `{shown}` resets nothing: give `reset = {{ \"dot(q)\" = \"…\" }}`"
                        )));
                    }
                    (Some(other @ ("record" | "stop")), false) => {
                        return Err(fail(format!(
                            "event `{shown}` has action `{other}` and a `reset` table: use action = \"reset\""
                        )));
                    }
                    (Some(other), _) => {
                        return Err(fail(format!(
                            "event `{shown}`: unknown action `{}`: use record, stop or reset",
                            excerpt_text(other)
                        )));
                    }
                };
                Ok(FileEvent {
                    name,
                    when,
                    direction,
                    action,
                })
            })
            .collect()
    }

    /// A coordinate or `dot(coordinate)` by name (a reset's key, an `--at` name).
    pub(crate) fn reset_target(&self, key: &str) -> Option<Target> {
        let coordinates = &self.model.coordinates;
        let index = |name: &str| coordinates.iter().position(|c| c == name.trim());
        match key
            .trim()
            .strip_prefix("dot(")
            .and_then(|k| k.strip_suffix(')'))
        {
            Some(inner) => index(inner).map(Target::Velocity),
            None => index(key).map(Target::Coordinate),
        }
    }
}
