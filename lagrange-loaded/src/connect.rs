//! The natural motions of a model file between two configurations (Thomson & Tait §327,
//! the runtime's [`Connect`]) as the command and the Python package report them: the
//! search over a loaded model, and its result as one document (JSON for the command,
//! dicts for Python).

use lagrange_core::nalgebra::{DVector, Dyn};
use lagrange_core::{Condition, Connect, LagrangianSystem, Motion, Search};
use serde::Serialize;

use crate::file::ModelFile;
use crate::{LoadError, Loaded};

/// A search for the natural motions from one configuration to another.
pub struct Problem<'a> {
    /// The configuration to start from.
    pub from: &'a [f64],
    /// The configuration to reach.
    pub to: &'a [f64],
    /// Initial velocities to start the search from (none: the runtime's own).
    pub starts: &'a [Vec<f64>],
    /// The time of passage or the energy.
    pub condition: Condition,
    /// Runge–Kutta steps along each motion at first.
    pub steps: usize,
}

impl Problem<'_> {
    /// The motions of `system`, the model of `file`, least action first. Refuses a file
    /// with `[[events]]`: the motions found are the equations' smooth ones, which would
    /// pass through the events without their resets.
    pub fn search(&self, file: &ModelFile, system: &Loaded) -> Result<Search<Dyn>, LoadError> {
        let events: Vec<String> = file.events()?.into_iter().map(|e| e.name).collect();
        if !events.is_empty() {
            return Err(LoadError(format!(
                "{}: connect finds the smooth natural motions of the equations, which would pass through the model's [[events]] ({}) without their resets; remove the events to connect the smooth motion",
                file.shown_path(),
                lagrange_symbolic::syntax::print::escape_text(&events.join(", "))
            )));
        }
        let vector = |v: &[f64]| DVector::from_column_slice(v);
        Connect::new(system, vector(self.from), vector(self.to), self.condition)
            .starts(self.starts.iter().map(|v| vector(v)))
            .steps(self.steps)
            .search()
            .map_err(|e| LoadError(format!("{}: no motion: {e}", file.shown_path())))
    }

    /// The result of the search as one document.
    pub fn document(&self, system: &Loaded, search: &Search<Dyn>) -> Document {
        let info = system.info();
        let (condition, value) = match self.condition {
            Condition::Time(tau) => ("time", tau),
            Condition::Energy(e) => ("energy", e),
        };
        Document {
            model: info.name.to_string(),
            coordinates: info.coordinates.iter().map(|c| c.to_string()).collect(),
            from: self.from.to_vec(),
            to: self.to.to_vec(),
            condition,
            value,
            motions: search.motions.iter().map(MotionDocument::of).collect(),
            unconfirmed: search.unconfirmed.clone(),
        }
    }
}

/// The motions found between two configurations.
#[derive(Serialize)]
pub struct Document {
    model: String,
    coordinates: Vec<String>,
    from: Vec<f64>,
    to: Vec<f64>,
    /// `time` or `energy`, and its value.
    condition: &'static str,
    value: f64,
    /// The motions found, least action first.
    motions: Vec<MotionDocument>,
    /// The solutions of the integration dropped because more steps did not confirm them.
    unconfirmed: Vec<String>,
}

/// One motion: its ends, actions, Hamilton's relations and kinetic foci.
#[derive(Serialize)]
struct MotionDocument {
    initial_velocity: Vec<f64>,
    final_velocity: Vec<f64>,
    time: f64,
    energy: f64,
    /// `S = ∫ L dt`.
    principal: f64,
    /// `A = ∫ p·q̇ dt`.
    action: f64,
    initial_momenta: Vec<f64>,
    final_momenta: Vec<f64>,
    relations: Vec<RelationDocument>,
    /// The kinetic foci of the start before the end, each with its multiplicity.
    foci: Vec<FocusDocument>,
    least: bool,
    /// The relative change of the motion when the steps are doubled.
    accuracy: f64,
}

#[derive(Serialize)]
struct FocusDocument {
    time: f64,
    multiplicity: usize,
}

#[derive(Serialize)]
struct RelationDocument {
    derivative: String,
    law: String,
    computed: f64,
    expected: f64,
}

impl MotionDocument {
    fn of(m: &Motion<Dyn>) -> MotionDocument {
        let list = |v: &DVector<f64>| v.iter().copied().collect();
        MotionDocument {
            initial_velocity: list(&m.initial_velocity),
            final_velocity: list(&m.final_velocity),
            time: m.time,
            energy: m.energy,
            principal: m.principal,
            action: m.action,
            initial_momenta: list(&m.initial_momenta),
            final_momenta: list(&m.final_momenta),
            relations: m
                .relations
                .iter()
                .map(|r| RelationDocument {
                    derivative: r.derivative.clone(),
                    law: r.law.clone(),
                    computed: r.computed,
                    expected: r.expected,
                })
                .collect(),
            foci: m
                .foci
                .iter()
                .map(|f| FocusDocument {
                    time: f.time,
                    multiplicity: f.multiplicity,
                })
                .collect(),
            least: m.is_least(),
            accuracy: m.accuracy,
        }
    }
}
