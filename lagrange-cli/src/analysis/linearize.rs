//! `lagrange linearize`: `A` and `B` of `dx/dt = A dx + B du` at a state, with the
//! eigenvalues of `A` and, with `--minimal`, the same in minimal variables.

use std::fmt::Write as _;

use lagrange_core::nalgebra::{Complex, DVector};
use lagrange_core::{
    Error, LagrangianSystem, Linearization, Stability, linearize, linearize_constrained,
};
use serde::Serialize;

use super::{
    Args, Format, Subject, assignments, cleaned, eigenvalue_list, finite_time, minimal, pairs,
    print, rows, stability_name, table,
};
use crate::Failure;
use crate::results::{failure, json, number};
use lagrange_loaded::Loaded;
use lagrange_loaded::file::ModelFile;

/// What `linearize --format json` prints.
#[derive(Serialize)]
struct LinearizationDocument {
    model: String,
    t: f64,
    /// Names of the state `x = (q, q̇)`: the coordinates, then `dot(…)` of each.
    state: Vec<String>,
    /// Its value.
    x: Vec<f64>,
    /// Names of the inputs, the columns of `b`.
    inputs: Vec<String>,
    /// Their values.
    u: Vec<f64>,
    /// `ẋ` at the state (zero at an equilibrium).
    rate: Vec<f64>,
    /// `A = ∂ẋ/∂x`, row by row.
    a: Vec<Vec<f64>>,
    /// `B = ∂ẋ/∂u`, row by row.
    b: Vec<Vec<f64>>,
    /// The eigenvalues of `A` (on the constraints' tangent space for a constrained model).
    eigenvalues: Vec<[f64; 2]>,
    /// `asymptotically stable`, `unstable` or `marginal`, meaningful at an equilibrium.
    stability: &'static str,
    /// With `--minimal`: the linearization in minimal variables.
    #[serde(skip_serializing_if = "Option::is_none")]
    minimal: Option<minimal::Document>,
}

/// Runs `lagrange linearize`.
pub(crate) fn run(args: &Args) -> Result<(), Failure> {
    let file = ModelFile::load(&args.model)?;
    let point = file.operating_point(&args.at)?;
    finite_time(args.t)?;
    let derived = file.derive()?;
    let subject = Subject::of(&derived, args.t, point);
    let work = Linearize {
        file: &file,
        t: args.t,
        q: &subject.q,
        qd: &subject.qd,
        format: args.format,
        minimal: minimal::Request::of(args.minimal.as_deref(), args.speeds.as_deref()),
    };
    let out = work.call(Loaded::new(subject.equations, &subject.values)?)?;
    print(&subject, args.format, out);
    Ok(())
}

/// `linearize` of a model at a state.
struct Linearize<'a> {
    file: &'a ModelFile,
    t: f64,
    q: &'a [f64],
    qd: &'a [f64],
    format: Format,
    minimal: Option<minimal::Request<'a>>,
}

impl Linearize<'_> {
    /// Linearizes `system` at the state and writes the result.
    fn call(self, system: Loaded) -> Result<String, Failure> {
        let q = DVector::from_column_slice(self.q);
        let qd = DVector::from_column_slice(self.qd);
        let fail = |e: Error| failure(self.file, "cannot linearize", e);
        let constraints = system.info().constraints.len();
        let linearization = if constraints == 0 {
            linearize(&system, self.t, &q, &qd)
        } else {
            linearize_constrained(&system, self.t, &q, &qd)
        }
        .map_err(fail)?;
        let eigenvalues = linearization.eigenvalues().map_err(fail)?;
        let stability = linearization.stability().map_err(fail)?;
        let info = system.info();
        let minimal = match &self.minimal {
            Some(request) => {
                Some(request.linearize(&linearization, &info.coordinates, constraints)?)
            }
            None => None,
        };
        let state = state_names(&info.coordinates);
        let inputs: Vec<String> = info
            .inputs
            .iter()
            .map(|&i| info.parameters[i].to_string())
            .collect();
        let values = system.parameter_values();
        let u: Vec<f64> = info.inputs.iter().map(|&i| values[i]).collect();
        let x: Vec<f64> = self.q.iter().chain(self.qd).copied().collect();
        Ok(match self.format {
            Format::Json => json(&LinearizationDocument {
                model: info.name.to_string(),
                t: self.t,
                state,
                x,
                inputs,
                u,
                rate: linearization.rate.iter().copied().collect(),
                a: rows(&linearization.a),
                b: rows(&linearization.b),
                eigenvalues: pairs(&eigenvalues),
                stability: stability_name(stability),
                minimal: minimal.map(minimal::Minimal::document),
            })?,
            Format::Text => {
                let mut text = linearization_text(
                    &info.name,
                    &linearization,
                    &state,
                    &x,
                    &inputs,
                    &u,
                    &eigenvalues,
                    stability,
                );
                if let Some(minimal) = minimal {
                    text.push_str(&minimal.text(&inputs));
                }
                text
            }
        })
    }
}

/// `q₁ … q_N, dot(q₁) … dot(q_N)`.
fn state_names(coordinates: &[lagrange_core::Text]) -> Vec<String> {
    coordinates
        .iter()
        .map(|c| c.to_string())
        .chain(coordinates.iter().map(|c| format!("dot({c})")))
        .collect()
}

#[allow(clippy::too_many_arguments)]
fn linearization_text(
    name: &str,
    l: &Linearization,
    state: &[String],
    x: &[f64],
    inputs: &[String],
    u: &[f64],
    eigenvalues: &[Complex<f64>],
    stability: Stability,
) -> String {
    let mut out = format!(
        "{name} linearized at t = {}: dx/dt = A dx + B du, x = ({})\n",
        number(l.t),
        state.join(", ")
    );
    let _ = writeln!(out, "  state: {}", assignments(state, x));
    if !inputs.is_empty() {
        let _ = writeln!(out, "  inputs: {}", assignments(inputs, u));
    }
    let rates: Vec<f64> = l.rate.iter().copied().collect();
    let shown: Vec<String> = cleaned(&rates, 1.0).iter().map(|&r| number(r)).collect();
    let _ = writeln!(out, "  dx/dt there: [{}]", shown.join(", "));
    let _ = writeln!(out, "\nA:\n{}", table(&l.a, state, state));
    if !inputs.is_empty() {
        let _ = writeln!(out, "\nB:\n{}", table(&l.b, state, inputs));
    }
    let tangent = if l.tangent.is_some() {
        " (on the constraints' tangent space)"
    } else {
        ""
    };
    let _ = writeln!(
        out,
        "\neigenvalues of A{tangent}: {}",
        eigenvalue_list(eigenvalues)
    );
    let at = if rates.iter().all(|&r| r == 0.0) {
        ""
    } else {
        " (this state is not an equilibrium: stability describes only an equilibrium)"
    };
    let _ = write!(out, "stability: {}{at}", stability_name(stability));
    out
}
