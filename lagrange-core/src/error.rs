//! Errors of the runtime: every failure is a value, never a panic.

use std::fmt;

/// What went wrong while evaluating or integrating a system.
#[derive(Debug)]
pub enum Error {
    /// `M q̈ = f` has no unique finite solution at this state.
    SingularMassMatrix {
        /// Time of the state.
        t: f64,
        /// Coordinates of the state.
        q: Vec<f64>,
        /// Velocities of the state.
        qd: Vec<f64>,
    },
    /// The integrated state stopped being finite.
    NonFiniteState {
        /// Time at which it happened.
        t: f64,
    },
    /// A step changed the conserved integral by more than
    /// [`UNRESOLVED_JUMP`](crate::integrate::UNRESOLVED_JUMP) of its size: it did not
    /// resolve the motion (it jumped over a singularity, or the step is far too large).
    UnresolvedStep {
        /// Start of the step.
        t: f64,
        /// End of the step.
        t_end: f64,
        /// The integral before the step.
        before: f64,
        /// The integral after it.
        after: f64,
    },
    /// The adaptive step size fell below what floating point can resolve.
    StepSizeUnderflow {
        /// Time at which it happened.
        t: f64,
        /// The rejected step size.
        h: f64,
    },
    /// The integration needed more steps than allowed.
    MaxStepsExceeded {
        /// Time reached when the budget ran out.
        t: f64,
        /// The step budget (accepted and rejected steps).
        steps: usize,
    },
    /// Newton's method did not converge (an implicit step, or velocities from momenta).
    NoConvergence {
        /// Time at which it happened.
        t: f64,
        /// Iterations made.
        iterations: usize,
    },
    /// Newton's method for `q̈(t, q, 0) = 0` stopped without an equilibrium.
    NoEquilibrium {
        /// Time of the search.
        t: f64,
        /// Coordinates where it stopped.
        q: Vec<f64>,
        /// The residual reached there: `|q̈|` (with `|G|` for a constrained system).
        residual: f64,
        /// Iterations made.
        iterations: usize,
        /// Why it stopped.
        reason: &'static str,
    },
    /// Normal modes are not defined here (the state is no equilibrium, the model is
    /// gyroscopic, damped or constrained, or its stiffness is not symmetric).
    NoNormalModes(String),
    /// No natural motion joins two configurations (see [`crate::action`]), and why.
    NoMotion(String),
    /// A state does not satisfy the constraints.
    InconsistentState {
        /// The constraint, as text.
        constraint: String,
        /// `G` or `dG/dt`.
        what: &'static str,
        /// Its value.
        value: f64,
        /// The tolerance it exceeds.
        tolerance: f64,
    },
    /// The constraints' Jacobian has lost rank: these constraints are not independent.
    DependentConstraints {
        /// Time of the state.
        t: f64,
        /// Coordinates of the state.
        q: Vec<f64>,
        /// The constraints involved.
        constraints: Vec<String>,
    },
    /// The constraints do not determine these velocities from the independent speeds
    /// chosen ([`IndependentSpeeds`](crate::IndependentSpeeds)) at this configuration:
    /// their columns of the constraints' Jacobian are singular.
    DependentSpeeds {
        /// Time of the state.
        t: f64,
        /// Coordinates of the state.
        q: Vec<f64>,
        /// The coordinates whose velocities were to be solved for.
        dependent: Vec<String>,
    },
    /// An event of a [`Simulation`](crate::Simulation) could not be evaluated or applied:
    /// its function or its reset gave a value that is not finite, its function changed
    /// sign by a jump (a pole) rather than through zero, or its resets accumulate.
    Event {
        /// The event's name.
        event: String,
        /// Time at which it happened.
        t: f64,
        /// What went wrong.
        problem: String,
    },
    /// More events fired than [`Simulation::max_events`](crate::Simulation::max_events)
    /// allows (a chattering contact; resets that accumulate at one time, as a bouncing
    /// ball's do, are an [`Error::Event`] as soon as their intervals show it).
    TooManyEvents {
        /// Time of the event beyond the limit.
        t: f64,
        /// The limit.
        events: usize,
    },
    /// A setting or argument is out of its domain.
    InvalidInput(String),
    /// Derived equations disagree with reference equations (see [`crate::check`]).
    CheckFailed(String),
    /// Writing output failed.
    Io(std::io::Error),
}

impl Error {
    /// The error for a singular mass matrix (or a non-finite solution) at a state.
    pub fn singular(t: f64, q: &[f64], qd: &[f64]) -> Self {
        Error::SingularMassMatrix {
            t,
            q: q.to_vec(),
            qd: qd.to_vec(),
        }
    }
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Error::SingularMassMatrix { t, q, qd } => write!(
                f,
                "mass matrix is singular or the accelerations are not finite at t = {t}, q = {q:?}, q̇ = {qd:?}",
                t = Short(*t)
            ),
            Error::NonFiniteState { t } => {
                write!(f, "the state is not finite at t = {t}", t = Short(*t))
            }
            Error::UnresolvedStep {
                t,
                t_end,
                before,
                after,
            } => write!(
                f,
                "the step from t = {t} to {t_end} does not resolve the motion: it changes the conserved integral from {before:e} to {after:e} (a singularity, or too large a step)",
                t = Short(*t),
                t_end = Short(*t_end)
            ),
            Error::StepSizeUnderflow { t, h } => {
                write!(
                    f,
                    "step size underflow at t = {t} (h = {h:e})",
                    t = Short(*t)
                )
            }
            Error::MaxStepsExceeded { t, steps } => {
                write!(
                    f,
                    "more than {steps} steps needed (stopped at t = {t})",
                    t = Short(*t)
                )
            }
            Error::NoConvergence { t, iterations } => write!(
                f,
                "Newton's method did not converge in {iterations} iterations at t = {t}",
                t = Short(*t)
            ),
            Error::NoEquilibrium {
                t,
                q,
                residual,
                iterations,
                reason,
            } => write!(
                f,
                "no equilibrium found at t = {t}: {reason} after {iterations} iterations, at q = {q:?} with residual {residual:e}",
                t = Short(*t)
            ),
            Error::NoNormalModes(why) => write!(f, "no normal modes: {why}"),
            Error::NoMotion(why) => write!(f, "{why}"),
            Error::InconsistentState {
                constraint,
                what,
                value,
                tolerance,
            } if value.is_nan() || tolerance.is_nan() => write!(
                f,
                "the constraint `{} = 0` is not defined at this state: {what} is not a number (a wheel lying flat has no contact point; a square root of a negative number has no value)",
                abbreviated(constraint)
            ),
            Error::InconsistentState {
                constraint,
                what,
                value,
                tolerance,
            } => write!(
                f,
                "the state violates the constraint `{} = 0`: {what} = {value:e} (tolerance {tolerance:e}); move it onto the constraints (in Rust, with `project_onto_constraints`)",
                abbreviated(constraint)
            ),
            Error::DependentConstraints { t, q, constraints } => write!(
                f,
                "the constraints {} are not independent at t = {t}, q = {q:?}",
                quoted(
                    constraints
                        .iter()
                        .map(|c| format!("{} = 0", abbreviated(c)))
                ),
                t = Short(*t)
            ),
            Error::DependentSpeeds { t, q, dependent } => write!(
                f,
                "the constraints do not determine the velocities of {} at t = {t}, q = {q:?}: choose other independent speeds",
                quoted(dependent.iter()),
                t = Short(*t)
            ),
            Error::Event { event, t, problem } => {
                write!(
                    f,
                    "event `{}` at t = {t}: {problem}",
                    event.escape_debug(),
                    t = Short(*t)
                )
            }
            Error::TooManyEvents { t, events } => write!(
                f,
                "more than {events} events (stopped at t = {t}); events accumulating at one time (a chattering contact) cannot be followed",
                t = Short(*t)
            ),
            Error::InvalidInput(what) => write!(f, "invalid input: {what}"),
            Error::CheckFailed(what) => write!(f, "check failed: {what}"),
            Error::Io(e) => write!(f, "I/O error: {e}"),
        }
    }
}

impl std::error::Error for Error {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            Error::Io(e) => Some(e),
            _ => None,
        }
    }
}

impl From<std::io::Error> for Error {
    fn from(e: std::io::Error) -> Self {
        Error::Io(e)
    }
}

/// A number as a message prints it: its shortest decimal form that reads back to it, in
/// scientific notation outside `[10⁻⁴, 10⁷)` (`1e300`, not 301 digits).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Short(pub f64);

impl fmt::Display for Short {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let x = self.0;
        if x == 0.0 || !x.is_finite() || (1e-4..1e7).contains(&x.abs()) {
            write!(f, "{x}")
        } else {
            write!(f, "{x:e}")
        }
    }
}

/// `items` in backquotes, separated by commas.
fn quoted(items: impl Iterator<Item = impl fmt::Display>) -> String {
    items
        .map(|item| format!("`{item}`"))
        .collect::<Vec<_>>()
        .join(", ")
}

/// A constraint's text as an error quotes it: whole up to 200 characters, else its start
/// and how much was left out (a derived rolling condition runs to kilobytes).
fn abbreviated(text: &str) -> String {
    const SHOWN: usize = 200;
    match text.char_indices().nth(SHOWN) {
        Some((cut, _)) => format!("{}… ({} characters)", &text[..cut], text.chars().count()),
        None => text.to_string(),
    }
}
