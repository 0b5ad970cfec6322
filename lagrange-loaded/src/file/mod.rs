//! Model files: a `[model]` table with the derive's keys and expression syntax (read into
//! the same [`Model`] the derive builds), the parameter values, the initial state and a
//! time span.
//!
//! ```toml
//! [model]
//! name = "Pendulum"
//! coordinates = ["theta"]
//! parameters = ["m", "l", "g"]
//! kinetic = "1/2*m*l^2*dot(theta)^2"
//! potential = "-m*g*l*cos(theta)"
//!
//! [values]           # every parameter
//! m = 1.0
//! l = 1.0
//! g = 9.81
//!
//! [initial]          # every coordinate in `q`; velocities default to 0
//! q = { theta = 0.5 }
//! qd = { theta = 0.0 }
//!
//! [simulation]       # t_end required by `simulate` (or --t-end) and `generate`
//! t_end = 10.0
//! ```
//!
//! A model with `inputs = ["u", …]` gives each input a constant in `[values]` or a signal
//! in `[inputs]`: an expression of `t`, the coordinates, their `dot(…)` and the other
//! parameters (`u = "-k1*theta - k2*dot(theta)"` closes a loop). `[[events]]` entries stop
//! or change a run when an expression crosses zero:
//!
//! ```toml
//! [[events]]
//! name = "floor"          # optional, for the output
//! when = "y"              # the event is a zero crossing of this expression
//! direction = "falling"   # rising, falling or either (default)
//! action = "reset"        # record (default), stop or reset
//! reset = { "dot(y)" = "-e*dot(y)" }   # new values; coordinates and velocities not named keep theirs
//! ```
//!
//! `[[draw]]` entries name what a report's animation draws besides the particles and
//! bodies (which it always draws): a point and where it is, and a line to another point:
//!
//! ```toml
//! [[draw]]
//! point = "bob1"                                  # a new point, or a particle or body
//! at = ["l1*sin(theta1)", "-l1*cos(theta1)"]      # 2 or 3 components (none for a particle or body)
//! link = "origin"                                 # optional: a line to this point
//! ```

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use lagrange_symbolic::equations::Derived;
use lagrange_symbolic::model::{Draw, Model};
use lagrange_symbolic::syntax::print::{escape_text, excerpt_text};
use lagrange_symbolic::{source, store};
use serde::Deserialize;

use crate::LoadError;
use crate::signal::Signal;
use events::WrittenEvent;
pub use events::{Action, Direction, FileEvent, Target};
pub use imported::{ImportedFile, import_urdf};
pub use lagrange_symbolic::source::location;
pub use settings::{Overrides, Settings};

mod events;
mod imported;
mod locate;
pub mod motion;
mod settings;

/// The file as written.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
struct Written {
    model: Model,
    #[serde(default)]
    values: BTreeMap<String, f64>,
    initial: Option<Initial>,
    #[serde(default)]
    simulation: Simulation,
    #[serde(default)]
    inputs: BTreeMap<String, String>,
    #[serde(default)]
    events: Vec<WrittenEvent>,
    #[serde(default)]
    draw: Vec<Draw>,
}

/// A state with parameter values, to analyse a model at.
#[derive(Debug, Clone, PartialEq)]
pub struct OperatingPoint {
    /// Coordinates, in the model's order.
    pub q: Vec<f64>,
    /// Velocities.
    pub qd: Vec<f64>,
    /// Parameter values (inputs included).
    pub parameters: Vec<f64>,
}

/// The initial state, by coordinate name.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
struct Initial {
    q: BTreeMap<String, f64>,
    #[serde(default)]
    qd: BTreeMap<String, f64>,
}

/// Defaults of `lagrange simulate`, each overridable on the command line, and of the
/// solver `lagrange generate` writes; read by one rule, `simulate`'s `Settings`.
#[derive(Debug, Clone, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Simulation {
    /// Start time (default 0).
    pub t_start: Option<f64>,
    /// End time.
    pub t_end: Option<f64>,
    /// Integrator name (as `--integrator`).
    pub integrator: Option<String>,
    /// Fixed step, or the output interval of the adaptive integrator.
    pub dt: Option<f64>,
    /// Relative and absolute tolerance of the adaptive integrator.
    pub tolerance: Option<f64>,
}

/// A loaded model file.
#[derive(Debug, Clone)]
pub struct ModelFile {
    /// Where it was read from.
    pub path: PathBuf,
    /// Its text, for locating errors.
    text: String,
    /// The model (its name defaults to the file's stem in CamelCase).
    pub model: Model,
    /// Parameter values by name.
    values: BTreeMap<String, f64>,
    initial: Option<Initial>,
    /// Simulation defaults.
    pub simulation: Simulation,
    /// The `[inputs]` signals by input name.
    inputs: BTreeMap<String, String>,
    events: Vec<WrittenEvent>,
}

impl ModelFile {
    /// Reads and parses the file; syntax and type errors carry the file, line and column.
    pub fn load(path: &Path) -> Result<ModelFile, LoadError> {
        let text = source::read_file(path).map_err(LoadError)?;
        ModelFile::parse(path, text)
    }

    /// The file's text, as read.
    pub fn text(&self) -> &str {
        &self.text
    }

    /// A model file's `text`, read as if from `path` (which its messages name and whose
    /// stem names a model without `name`).
    pub fn parse(path: &Path, text: String) -> Result<ModelFile, LoadError> {
        let written: Written = toml::from_str(&text).map_err(|e| {
            let at = e
                .span()
                .map(|span| location(&text, span.start))
                .unwrap_or((1, 1));
            LoadError(format!(
                "{}:{}:{}: {}",
                escape_text(&path.display().to_string()),
                at.0,
                at.1,
                escape_text(e.message())
            ))
        })?;
        let mut model = written.model;
        model.draw.extend(written.draw);
        if model.name.is_empty() {
            model.name = camel_case(
                &path
                    .file_stem()
                    .map(|s| s.to_string_lossy().into_owned())
                    .unwrap_or_default(),
            );
        }
        Ok(ModelFile {
            path: path.to_path_buf(),
            text,
            model,
            values: written.values,
            initial: written.initial,
            simulation: written.simulation,
            inputs: written.inputs,
            events: written.events,
        })
    }

    /// Derives the equations with the engine (through the user-wide cache, read once);
    /// model errors name the file, the line of the offending key, the key and its
    /// expression.
    ///
    /// Symbolica's notice banner would go to standard output, where it would corrupt
    /// `--format json` and CSV: the command hides it and says on standard error instead
    /// that the engine ran (see the README on symbolica's licensing).
    pub fn derive(&self) -> Result<Derived, LoadError> {
        // Errors found without the engine come first, and without the note; a cached
        // entry is used only for a model that passes today's checks.
        self.model
            .check()
            .map_err(|errors| self.model_errors(&errors))?;
        let cache = store::cache_dir();
        if let Some(derived) = cache
            .as_deref()
            .and_then(|d| store::read(d, &self.model).ok())
        {
            return Ok(derived);
        }
        eprintln!(
            "note: deriving `{}` ({} coordinates) with symbolica (restricted mode unless SYMBOLICA_LICENSE is set; see the lagrange README for its licensing)",
            self.model.name.escape_debug(),
            self.model.coordinates.len()
        );
        let derived =
            lagrange_symbolic::derive(&self.model).map_err(|errors| self.model_errors(&errors))?;
        if let Some(dir) = cache {
            // Best effort: a cache that cannot be written costs a derivation next time.
            let _ = store::write(&dir, &self.model, &derived);
        }
        Ok(derived)
    }

    /// The parameter values in the model's parameter order; every parameter needs one,
    /// except an input with a signal in `[inputs]` (its value is the signal's, set while
    /// the model moves; 0 until then).
    pub fn parameter_values(&self) -> Result<Vec<f64>, LoadError> {
        self.parameter_values_given(&BTreeMap::new(), "")
    }

    /// [`parameter_values`](Self::parameter_values) with the values `given` in place of
    /// `[values]`'s (each a parameter's, finite); `by` says where they were given, for
    /// messages (`values=` from Python).
    pub fn parameter_values_given(
        &self,
        given: &BTreeMap<String, f64>,
        by: &str,
    ) -> Result<Vec<f64>, LoadError> {
        let parameters = &self.model.parameters;
        if let Some(name) = given.keys().find(|name| !parameters.contains(name)) {
            return Err(LoadError(format!(
                "{by}: `{}` is not a parameter of `{}` ({})",
                escape_text(&excerpt_text(name)),
                self.model.name,
                excerpt_text(&parameters.join(", "))
            )));
        }
        if let Some((name, value)) = given.iter().find(|(_, value)| !value.is_finite()) {
            return Err(LoadError(format!(
                "{by}: the value of `{name}` is {value}: parameters take finite numbers"
            )));
        }
        self.unknown_names(
            "[values]",
            self.values.keys(),
            ("a parameter", &self.model.parameters),
        )?;
        self.undeclared_signals()?;
        let values = self
            .model
            .parameters
            .iter()
            .map(|p| match (given.get(p).or(self.values.get(p)), self.inputs.contains_key(p)) {
                (Some(_), true) => Err(self.failure_at(
                    p,
                    format!("input `{p}` has both a value in [values] and a signal in [inputs]: give one"),
                )),
                (Some(&value), false) if value.is_finite() => Ok(value),
                (Some(&value), false) => Err(self.failure_at(
                    p,
                    format!("the value of `{p}` is {value}: parameters take finite numbers"),
                )),
                (None, true) => Ok(0.0),
                (None, false) => Err(self.failure_at(
                    "[values]",
                    if self.model.inputs.contains(p) {
                        format!("no value for the input `{p}`: give a constant in [values] or a signal in [inputs]")
                    } else {
                        format!("no value for the parameter `{p}` in [values]")
                    },
                )),
            })
            .collect::<Result<Vec<f64>, LoadError>>()?;
        let given: Vec<&str> = given.keys().map(String::as_str).collect();
        self.physical(&values, (&given, by))?;
        Ok(values)
    }

    /// An error, at the line of the first value it reads, for a mass, an inertia or a
    /// wheel's radius that the parameter `values` (in the model's order) make unphysical
    /// (the engine's rule, which refuses the same numbers written in the model); the
    /// parameters named in `given` were set by `by` (`--at`). A quantity that reads an input
    /// driven by a signal is not checked.
    fn physical(&self, values: &[f64], (given, by): (&[&str], &str)) -> Result<(), LoadError> {
        // A model that does not check fails with its own errors where it is derived.
        let Ok(checked) = self.model.check() else {
            return Ok(());
        };
        let value = |p: &str| {
            let i = self.model.parameters.iter().position(|q| q == p)?;
            (!self.inputs.contains_key(p)).then_some(values[i])
        };
        let found = self
            .model
            .unphysical(&checked.particles, &checked.bodies, &value);
        match found.into_iter().find(|u| !u.parameters.is_empty()) {
            None => Ok(()),
            Some(u) => {
                let from = |p: &str| {
                    if given.contains(&p) { by } else { "[values]" }
                };
                let with: Vec<String> = u
                    .parameters
                    .iter()
                    .filter_map(|p| Some(format!("{p} = {} in {}", value(p)?, from(p))))
                    .collect();
                let message = format!("{} (with {})", u.error.message, with.join(", "));
                let first = &u.parameters[0];
                Err(if given.contains(&first.as_str()) {
                    LoadError(format!("{by}: {}", escape_text(&message)))
                } else {
                    self.failure_at(first, message)
                })
            }
        }
    }

    /// An error if `[inputs]` gives a signal to a name not declared in `inputs = [...]`.
    fn undeclared_signals(&self) -> Result<(), LoadError> {
        self.unknown_names(
            "[inputs]",
            self.inputs.keys(),
            ("declared in `inputs = [...]`", &self.model.inputs),
        )
    }

    /// Whether `parameter` is an input driven by a signal in `[inputs]`: its value is the
    /// signal's, and none may be given.
    pub fn driven(&self, parameter: &str) -> bool {
        self.inputs.contains_key(parameter)
    }

    /// The `[inputs]` signals, as (parameter index, signal); they may not read inputs.
    pub fn input_signals(&self) -> Result<Vec<(usize, Signal)>, LoadError> {
        self.undeclared_signals()?;
        self.inputs
            .iter()
            .map(|(name, source)| {
                let what = format!("the signal of input `{name}`");
                let signal = Signal::parse(source, &self.model, &self.model.inputs, &what)
                    .map_err(|message| self.failure_at(name, message))?;
                let index = self.model.parameters.iter().position(|p| p == name);
                let index = index.ok_or_else(|| {
                    self.failure_at(name, format!("input `{name}` is not a parameter"))
                })?;
                Ok((index, signal))
            })
            .collect()
    }

    /// A state and parameter values to analyse the model at: the file's `[initial]` state
    /// (zero without one) and `[values]` (an input driven by a signal: 0), with `at`
    /// overriding them, each `name=value` for a coordinate, `dot(coordinate)` or a
    /// parameter (inputs included).
    pub fn operating_point(&self, at: &[String]) -> Result<OperatingPoint, LoadError> {
        let n = self.model.coordinates.len();
        let (mut q, mut qd) = if self.initial.is_some() {
            self.initial_state()?
        } else {
            (vec![0.0; n], vec![0.0; n])
        };
        let mut parameters = self.parameter_values()?;
        let mut named: Vec<&str> = Vec::new();
        let mut given = Vec::new();
        for entry in at.iter().flat_map(|a| a.split(',')) {
            let bad = |why: String| {
                LoadError(format!(
                    "--at `{}`: {why}",
                    escape_text(&excerpt_text(entry))
                ))
            };
            let (name, value) = entry
                .split_once('=')
                .ok_or_else(|| bad("expected name=value".into()))?;
            let value: f64 = value
                .trim()
                .parse()
                .ok()
                .filter(|v: &f64| v.is_finite())
                .ok_or_else(|| bad("the value is not a finite number".into()))?;
            let name = name.trim();
            if named.contains(&name) {
                return Err(bad(format!(
                    "`{}` is given twice",
                    escape_text(&excerpt_text(name))
                )));
            }
            named.push(name);
            let parameter = self.model.parameters.iter().position(|p| p == name);
            match (self.reset_target(name), parameter) {
                (Some(Target::Coordinate(i)), _) => q[i] = value,
                (Some(Target::Velocity(i)), _) => qd[i] = value,
                (None, Some(k)) => {
                    parameters[k] = value;
                    given.push(name);
                }
                (None, None) => {
                    return Err(bad(format!(
                        "`{}` is not a coordinate, a `dot(…)` of one or a parameter of `{}`",
                        excerpt_text(name),
                        self.model.name
                    )));
                }
            }
        }
        self.physical(&parameters, (&given, "--at"))?;
        Ok(OperatingPoint { q, qd, parameters })
    }

    /// The initial coordinates and velocities in coordinate order.
    pub fn initial_state(&self) -> Result<(Vec<f64>, Vec<f64>), LoadError> {
        let initial = self.initial.as_ref().ok_or_else(|| {
            LoadError(format!(
                "{}: no [initial] table: give `q = {{ … }}` for every coordinate",
                self.shown_path()
            ))
        })?;
        let coordinates = &self.model.coordinates;
        self.unknown_names("initial.q", initial.q.keys(), ("a coordinate", coordinates))?;
        self.unknown_names(
            "initial.qd",
            initial.qd.keys(),
            ("a coordinate", coordinates),
        )?;
        let q = coordinates
            .iter()
            .map(|c| {
                initial.q.get(c).copied().ok_or_else(|| {
                    self.failure_at(
                        "[initial]",
                        format!("no initial value for the coordinate `{c}` in initial.q"),
                    )
                })
            })
            .collect::<Result<Vec<_>, _>>()?;
        let qd = coordinates
            .iter()
            .map(|c| initial.qd.get(c).copied().unwrap_or(0.0))
            .collect();
        Ok((q, qd))
    }

    /// An error if `table` names something that is not one of `known`, the model's names
    /// of one kind (`kind`: "a parameter", …); when the name is of another kind, which.
    pub(crate) fn unknown_names<'a>(
        &self,
        table: &str,
        names: impl Iterator<Item = &'a String>,
        (kind, known): (&str, &[String]),
    ) -> Result<(), LoadError> {
        let Some(name) = names.into_iter().find(|name| !known.contains(name)) else {
            return Ok(());
        };
        let listed = if known.is_empty() {
            "the model declares none".to_string()
        } else {
            excerpt_text(&known.join(", "))
        };
        let model = &self.model;
        let other = if model.inputs.contains(name) {
            ": it is an input; give it a constant in [values] or a signal in [inputs]"
        } else if model.parameters.contains(name) {
            ": it is a parameter; give its value in [values], or declare it in `inputs = [...]` to drive it by a signal in [inputs]"
        } else if model.coordinates.contains(name) {
            ": it is a coordinate; give its initial value in [initial]"
        } else {
            ""
        };
        Err(self.failure_at(
            name,
            format!(
                "`{}` in {table} is not {kind} ({listed}){other}",
                excerpt_text(name)
            ),
        ))
    }
}

/// `double_pendulum` → `DoublePendulum`.
fn camel_case(stem: &str) -> String {
    stem.split(|c: char| !c.is_ascii_alphanumeric())
        .filter(|w| !w.is_empty())
        .map(|w| {
            let mut chars = w.chars();
            chars
                .next()
                .map(|c| c.to_ascii_uppercase().to_string() + chars.as_str())
                .unwrap_or_default()
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn file_stems_become_model_names() {
        assert_eq!(camel_case("double_pendulum"), "DoublePendulum");
        assert_eq!(camel_case("tt-a"), "TtA");
    }
}
