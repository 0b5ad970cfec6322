//! What a run prints: the summary of its settings, steps and final state, the events that
//! fired, the balance laws, the drift warnings, and the failure of a run that stopped early.

use std::fmt::Write as _;

use lagrange_core::nalgebra::Dyn;
use lagrange_core::{LagrangianSystem, Short, Trajectory};

use crate::Failure;
use lagrange_loaded::file::Settings;

/// A run whose conserved quantity drifts by more than this (relative to its initial value;
/// absolute for one that starts at zero) says so on stderr: the results are not to be
/// trusted to that accuracy.
const DRIFT_WARNING: f64 = 1e-3;

/// The balance laws of the general theorems along the run, or a line saying why they
/// could not be evaluated; empty when no theorem's premise holds.
pub(super) fn balance_summary<S: LagrangianSystem<Dyn>>(
    system: &S,
    trajectory: &Trajectory<Dyn>,
) -> String {
    match trajectory.balance_laws(system) {
        Ok(laws) if laws.is_empty() => String::new(),
        Ok(laws) => format!(
            "balance laws of the general theorems (dΦ/dt against the right-hand side, at every point):\n{}",
            lagrange_core::balance_table(&laws)
        ),
        Err(e) => format!("balance laws: not evaluated ({e})\n"),
    }
}

/// Events to list in the summary before only counting them.
const LISTED_EVENTS: usize = 20;

/// The events that fired, one line each (the first [`LISTED_EVENTS`]), or nothing.
pub(super) fn event_summary(trajectory: &Trajectory<Dyn>) -> String {
    let events = trajectory.events();
    if events.is_empty() {
        return String::new();
    }
    let mut text = format!("{} events:\n", events.len());
    for e in events.iter().take(LISTED_EVENTS) {
        let state: Vec<String> = trajectory
            .coordinates()
            .iter()
            .enumerate()
            .map(|(i, c)| format!("{c} = {:.6e}", e.q[i]))
            .collect();
        let _ = writeln!(
            text,
            "  {} at t = {:.15e}: {}",
            e.name.escape_debug(),
            e.t,
            state.join(", ")
        );
    }
    if events.len() > LISTED_EVENTS {
        let _ = writeln!(text, "  … and {} more", events.len() - LISTED_EVENTS);
    }
    text
}

/// Says on stderr which invariants drift by more than [`DRIFT_WARNING`].
pub(super) fn warn_of_drift(trajectory: &Trajectory<Dyn>) {
    for invariant in trajectory.invariants() {
        let drift = invariant.scaled_drift();
        if drift.is_nan() || drift > DRIFT_WARNING {
            let kind = if invariant.is_relative() {
                "relative"
            } else {
                "absolute"
            };
            eprintln!(
                "warning: {} drifts by {drift:.3e} ({kind}), more than {DRIFT_WARNING:e}: the step is too large for this model, or the motion is near a singularity",
                invariant.name
            );
        }
    }
}

/// The failure of a run that stopped early: where (the last recorded time) and why, and
/// which files hold what it computed.
pub(super) fn stopped(
    path: &str,
    trajectory: &Trajectory<Dyn>,
    error: &lagrange_core::Error,
    written: &[String],
) -> Failure {
    let t = Short(trajectory.last().map_or(f64::NAN, |(t, _, _)| t));
    let mut message = format!("{path}: integration stopped: {error}");
    if written.is_empty() {
        let _ = write!(
            message,
            "\n(pass --out, --plot or --html to keep the partial trajectory, recorded up to t = {t})"
        );
    } else {
        let _ = write!(
            message,
            "\nthe partial trajectory, recorded up to t = {t}, is in {}",
            written
                .iter()
                .map(|w| format!("`{w}`"))
                .collect::<Vec<_>>()
                .join(" and ")
        );
    }
    Failure(message)
}

/// What the run did: settings, step counts, the final state and the invariants' drift.
pub(super) fn summary(
    name: &str,
    path: &str,
    settings: &Settings,
    trajectory: &Trajectory<Dyn>,
) -> String {
    let stats = trajectory.stats();
    let mut text = format!(
        "{name} ({path}): {}\n{} steps ({} rejected, {} evaluations), {} points\n",
        settings.describe(),
        stats.accepted,
        stats.rejected,
        stats.evaluations,
        trajectory.len()
    );
    if let Some((t, q, qd)) = trajectory.last() {
        let _ = writeln!(text, "state at t = {}:", Short(t));
        for (i, c) in trajectory.coordinates().iter().enumerate() {
            let _ = writeln!(text, "  {c} = {:.15e}, dot_{c} = {:.15e}", q[i], qd[i]);
        }
        let last = |values: Option<&[f64]>| values.and_then(|v| v.last().copied());
        if let (Some(a), Some(s)) = (
            last(trajectory.action()),
            last(trajectory.principal_function()),
        ) {
            let _ = writeln!(
                text,
                "  action A = ∫ p·q̇ dt = {a:.15e}, principal function S = ∫ L dt = {s:.15e}"
            );
        }
    }
    if trajectory.invariants().is_empty() {
        text.push_str("no invariants: the model conserves neither energy nor a momentum\n");
    } else {
        text.push_str(&trajectory.drift_table());
    }
    text
}
