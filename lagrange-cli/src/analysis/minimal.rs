//! `lagrange linearize --minimal … --speeds …`: a constrained linearization in minimal
//! variables, independent coordinates then independent speeds (the runtime's
//! `Linearization::minimal`), printed after the full one.

use std::fmt::Write as _;

use lagrange_core::nalgebra::Complex;
use lagrange_core::{Linearization, MinimalLinearization, Text};
use lagrange_symbolic::syntax::print::{escape_text, excerpt_text};
use serde::Serialize;

use super::{eigenvalue_list, pairs, rows, table};
use crate::Failure;

/// The variables asked for, as written.
pub(super) struct Request<'a> {
    coordinates: &'a str,
    speeds: &'a str,
}

/// The linearization in minimal variables with the names of its variables.
pub(super) struct Minimal {
    linearization: MinimalLinearization,
    /// `z`: the coordinates, then `dot(…)` of the speeds.
    state: Vec<String>,
    eigenvalues: Vec<Complex<f64>>,
}

/// What `--format json` adds under `minimal`.
#[derive(Serialize)]
pub(super) struct Document {
    /// Names of `z`: the independent coordinates, then `dot(…)` of the speeds.
    state: Vec<String>,
    /// `A = ∂ż/∂z`, row by row.
    a: Vec<Vec<f64>>,
    /// `B = ∂ż/∂u`, row by row.
    b: Vec<Vec<f64>>,
    /// The eigenvalues of `A`.
    eigenvalues: Vec<[f64; 2]>,
}

impl<'a> Request<'a> {
    /// The request of `--minimal` and `--speeds` (clap makes them come together).
    pub(super) fn of(coordinates: Option<&'a str>, speeds: Option<&'a str>) -> Option<Self> {
        Some(Request {
            coordinates: coordinates?,
            speeds: speeds?,
        })
    }

    /// The minimal linearization of `linearization` (of a model with `constraints`
    /// constraints and these `coordinates`).
    pub(super) fn linearize(
        &self,
        linearization: &Linearization,
        coordinates: &[Text],
        constraints: usize,
    ) -> Result<Minimal, Failure> {
        if constraints == 0 {
            return Err(Failure(
                "--minimal: the model has no constraints; its linearization is minimal already"
                    .into(),
            ));
        }
        let indices = |option: &str, list: &str| -> Result<Vec<usize>, Failure> {
            let mut chosen = Vec::new();
            for name in list.split(',').map(str::trim) {
                let index = coordinates.iter().position(|c| c == name).ok_or_else(|| {
                    Failure(format!(
                        "{option}: `{}` is not a coordinate (the coordinates: {})",
                        escape_text(&excerpt_text(name)),
                        coordinates.join(", ")
                    ))
                })?;
                if chosen.contains(&index) {
                    return Err(Failure(format!(
                        "{option} names `{}` twice",
                        escape_text(&excerpt_text(name))
                    )));
                }
                chosen.push(index);
            }
            Ok(chosen)
        };
        let chosen = indices("--minimal", self.coordinates)?;
        let speeds = indices("--speeds", self.speeds)?;
        let minimal = linearization
            .minimal(&chosen, &speeds)
            .map_err(|e| Failure(format!("--minimal: {e}")))?;
        let eigenvalues = minimal
            .eigenvalues()
            .map_err(|e| Failure(format!("--minimal: {e}")))?;
        let state = chosen
            .iter()
            .map(|&i| coordinates[i].to_string())
            .chain(speeds.iter().map(|&i| format!("dot({})", coordinates[i])))
            .collect();
        Ok(Minimal {
            linearization: minimal,
            state,
            eigenvalues,
        })
    }
}

impl Minimal {
    /// The text section after the full linearization.
    pub(super) fn text(&self, inputs: &[String]) -> String {
        let m = &self.linearization;
        let mut out = format!(
            "\n\nin minimal variables: dz/dt = A dz + B du, z = ({})\n\nA:\n{}",
            self.state.join(", "),
            table(&m.a, &self.state, &self.state)
        );
        if !inputs.is_empty() {
            let _ = write!(out, "\n\nB:\n{}", table(&m.b, &self.state, inputs));
        }
        let _ = write!(
            out,
            "\n\neigenvalues of A in minimal variables: {}",
            eigenvalue_list(&self.eigenvalues)
        );
        out
    }

    /// The JSON document.
    pub(super) fn document(self) -> Document {
        Document {
            state: self.state,
            a: rows(&self.linearization.a),
            b: rows(&self.linearization.b),
            eigenvalues: pairs(&self.eigenvalues),
        }
    }
}
