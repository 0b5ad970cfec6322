//! What a model file adds to its motion at run time, in the templates' context: the inputs
//! that follow `[inputs]` signals and the `[[events]]`. Their expressions reach the
//! templates only as the one-output programs of [`Signal`] rendered through the IR's walk
//! ([`code::render`]), like the derived programs; the events' names only as strings for
//! the escaping filters.

use lagrange_core::__private::{JUMP_FRACTION, ROOT_ITERATIONS};
use lagrange_core::run::DEFAULT_MAX_EVENTS;
use lagrange_core::run::{ACCUMULATION_WINDOW, RESTART_WINDOW};
use serde::Serialize;

use super::code::{self, Lang, Rendered};
use crate::Failure;
use lagrange_loaded::file::{Action, Direction, ModelFile, Target};
use lagrange_loaded::signal::Signal;

/// The signals and events of the context (see `templates/README.md`).
#[derive(Serialize)]
pub(super) struct RunTime {
    /// The inputs that follow signals, in parameter order.
    pub signals: Vec<InputSignal>,
    /// The events, in the model file's order.
    pub events: Vec<Event>,
    /// The runtime's settings of the events' location.
    pub event_location: EventLocation,
}

/// An input that follows a signal.
#[derive(Serialize)]
pub(super) struct InputSignal {
    /// Its index among the parameters.
    index: usize,
    /// Its name.
    name: String,
    /// Its value (one result), from the parameters the model file gives.
    program: Rendered,
}

/// An event of the context.
#[derive(Serialize)]
pub(super) struct Event {
    /// Its index, in the model file's order.
    index: usize,
    /// Its name (`event N` when the file gives none).
    name: String,
    /// Its name as a CSV field: quoted, quotes doubled, control characters escaped.
    csv_name: String,
    /// `rising`, `falling` or `either`.
    direction: &'static str,
    /// `record`, `stop` or `reset`.
    action: &'static str,
    /// The function whose zero crossings are the event (one result).
    function: Rendered,
    /// What a reset sets, each value computed from the state before the reset.
    resets: Vec<ResetValue>,
}

/// One value a reset sets.
#[derive(Serialize)]
pub(super) struct ResetValue {
    /// Whether it sets a velocity (else a coordinate).
    velocity: bool,
    /// The coordinate's index.
    index: usize,
    /// The new value (one result).
    program: Rendered,
}

/// How the runtime locates events (`lagrange-core/src/run/event/` and `run/drive.rs`).
#[derive(Serialize)]
pub(super) struct EventLocation {
    /// Crossings within `restart_window·ε·(|t₀| + h)` of a (re)start are not events: a
    /// literal.
    restart_window: String,
    /// Evaluations of a function spent on one root at most.
    root_iterations: usize,
    /// The fraction of a bracket's change a final bracket keeps at a jump: a literal.
    jump_fraction: String,
    /// Resets within `accumulation_window·ε·|t|` of the time they converge to accumulate:
    /// a literal.
    accumulation_window: String,
    /// Events a run may fire.
    max_events: usize,
}

impl RunTime {
    /// The signals and events of `file`, their programs in `lang`.
    pub(super) fn new(file: &ModelFile, lang: Lang) -> Result<RunTime, Failure> {
        let failure = |e: String| {
            Failure(format!(
                "{}: model `{}`: {e}",
                file.path.display(),
                file.model.name
            ))
        };
        let render = |signal: &Signal| {
            let (program, inputs) = signal.program();
            code::render(program, inputs, lang).map_err(failure)
        };
        let mut signals = file
            .input_signals()?
            .iter()
            .map(|(index, signal)| {
                Ok(InputSignal {
                    index: *index,
                    name: file.model.parameters[*index].clone(),
                    program: render(signal)?,
                })
            })
            .collect::<Result<Vec<_>, Failure>>()?;
        signals.sort_by_key(|s| s.index);
        let events = file
            .events()?
            .iter()
            .enumerate()
            .map(|(index, event)| {
                let (action, resets) = match &event.action {
                    Action::Record => ("record", Vec::new()),
                    Action::Stop => ("stop", Vec::new()),
                    Action::Reset(values) => (
                        "reset",
                        values
                            .iter()
                            .map(|(target, signal)| {
                                let (velocity, index) = match *target {
                                    Target::Coordinate(i) => (false, i),
                                    Target::Velocity(i) => (true, i),
                                };
                                Ok(ResetValue {
                                    velocity,
                                    index,
                                    program: render(signal)?,
                                })
                            })
                            .collect::<Result<_, Failure>>()?,
                    ),
                };
                Ok(Event {
                    index,
                    csv_name: csv_field(&event.name),
                    name: event.name.clone(),
                    direction: match event.direction {
                        Direction::Rising => "rising",
                        Direction::Falling => "falling",
                        Direction::Either => "either",
                    },
                    action,
                    function: render(&event.when)?,
                    resets,
                })
            })
            .collect::<Result<_, Failure>>()?;
        Ok(RunTime {
            signals,
            events,
            event_location: EventLocation {
                restart_window: code::float_literal(RESTART_WINDOW, lang),
                root_iterations: ROOT_ITERATIONS,
                jump_fraction: code::float_literal(JUMP_FRACTION, lang),
                accumulation_window: code::float_literal(ACCUMULATION_WINDOW, lang),
                max_events: DEFAULT_MAX_EVENTS,
            },
        })
    }

    /// Whether some statement calls `lagrange_powi`.
    pub(super) fn uses_powi(&self) -> bool {
        let signals = self.signals.iter().map(|s| &s.program);
        let events = self
            .events
            .iter()
            .flat_map(|e| std::iter::once(&e.function).chain(e.resets.iter().map(|r| &r.program)));
        signals
            .chain(events)
            .flat_map(|r| &r.statements)
            .any(code::calls_powi)
    }
}

/// `text` as one CSV field: in quotes, its quotes doubled and its control characters
/// (line breaks included) written as `\u{…}` escapes.
fn csv_field(text: &str) -> String {
    let mut field = String::from("\"");
    for c in text.chars() {
        match c {
            '"' => field.push_str("\"\""),
            c if c.is_control() => field.push_str(&c.escape_unicode().to_string()),
            c => field.push(c),
        }
    }
    field.push('"');
    field
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_become_one_csv_field() {
        assert_eq!(csv_field("floor"), "\"floor\"");
        assert_eq!(csv_field("a, \"b\"\nc"), "\"a, \"\"b\"\"\\u{a}c\"");
    }
}
