//! `lagrange linearize` and `lagrange modes`, the runtime's exact linearization, equilibria,
//! stability and normal modes for a model file at a state it names: each command in its
//! module (`linearize.rs`, with `minimal.rs` for `--minimal`; `modes.rs`), and here what
//! they share: their arguments, the system analysed, and how matrices, eigenvalues and
//! values print.

use std::fmt::Write as _;
use std::path::PathBuf;

use lagrange_core::Stability;
use lagrange_core::nalgebra::{Complex, DMatrix};
use lagrange_symbolic::equations::{Derived, Equations};

use super::Failure;
use super::results::number;
use lagrange_loaded::ReducedState;
use lagrange_loaded::file::OperatingPoint;

pub(crate) mod linearize;
mod minimal;
pub(crate) mod modes;

/// Arguments of `lagrange linearize` and `lagrange modes`.
#[derive(clap::Args)]
pub(crate) struct Args {
    /// The model file (TOML).
    model: PathBuf,
    /// The state and parameter values, `name=value` separated by commas: coordinates,
    /// `dot(coordinate)` for velocities, parameters and inputs; the rest from the file's
    /// `[initial]` (zero without one) and `[values]`. For `modes` the coordinates are the
    /// guess of the equilibrium (and the velocities matter only for the momenta of
    /// ignored coordinates).
    #[arg(long, value_name = "NAME=VALUE,…")]
    at: Vec<String>,
    /// Time of the state [default: 0].
    #[arg(long, default_value_t = 0.0, allow_negative_numbers = true)]
    t: f64,
    /// How to print the result.
    #[arg(long, value_enum, default_value_t = Format::Text)]
    format: Format,
    /// `linearize` of a constrained model: also in minimal variables, these independent
    /// coordinates (comma-separated; those the holonomic constraints leave free), then the
    /// velocities of `--speeds` (as many as the coordinates less the constraints).
    #[arg(long, value_name = "COORDINATES", requires = "speeds")]
    minimal: Option<String>,
    /// With `--minimal`: the coordinates whose velocities are the independent speeds.
    #[arg(long, value_name = "COORDINATES", requires = "minimal")]
    speeds: Option<String>,
}

/// Output formats.
#[derive(Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
enum Format {
    /// Labelled matrices and lists, ten significant digits; a value below 10⁻¹² of the
    /// largest of its matrix or list (round-off) prints as 0.
    Text,
    /// One JSON object.
    Json,
}

/// What is analysed: the model's equations, or for a model that ignores coordinates its
/// reduced system (Routh), whose equilibria are the full system's steady motions; the
/// constant momenta are those of the given state.
struct Subject<'a> {
    equations: &'a Equations,
    values: Vec<f64>,
    q: Vec<f64>,
    qd: Vec<f64>,
    /// For a reduced system, a line saying so.
    reduced: Option<String>,
}

impl<'a> Subject<'a> {
    fn of(derived: &'a Derived, t: f64, point: OperatingPoint) -> Self {
        let OperatingPoint {
            q,
            qd,
            parameters: values,
        } = point;
        let Some(reduced) = &derived.reduced else {
            return Subject {
                equations: &derived.full,
                values,
                q,
                qd,
                reduced: None,
            };
        };
        let state = ReducedState::of(&derived.full, reduced, t, &q, &qd, &values);
        let names = &reduced.equations.parameters[values.len()..];
        let reduced_line = format!(
            "reduced over {} with the constant momenta {} of the given state: equilibria of the reduced system are steady motions",
            reduced.ignored.join(", "),
            assignments(names, &state.momenta)
        );
        Subject {
            equations: &reduced.equations,
            values: state.values,
            q: state.q,
            qd: state.qd,
            reduced: Some(reduced_line),
        }
    }
}

/// Prints a result, after the reduction's line in text.
fn print(subject: &Subject<'_>, format: Format, out: String) {
    match (&subject.reduced, format) {
        (Some(line), Format::Text) => outln!(
            "{line}
{out}"
        ),
        _ => outln!("{out}"),
    }
}

fn finite_time(t: f64) -> Result<(), Failure> {
    if t.is_finite() {
        Ok(())
    } else {
        Err(Failure(format!("--t must be a finite number, got {t}")))
    }
}

fn rows(m: &DMatrix<f64>) -> Vec<Vec<f64>> {
    m.row_iter().map(|r| r.iter().copied().collect()).collect()
}

fn pairs(values: &[Complex<f64>]) -> Vec<[f64; 2]> {
    values.iter().map(|l| [l.re, l.im]).collect()
}

fn stability_name(s: Stability) -> &'static str {
    match s {
        Stability::AsymptoticallyStable => "asymptotically stable",
        Stability::Unstable => "unstable",
        Stability::Marginal => "marginal",
    }
}

/// `values` with the round-off of the text format removed: below 10⁻¹² of the largest
/// (and of 1 for coordinates near the origin) is 0.
fn cleaned(values: &[f64], floor: f64) -> Vec<f64> {
    let scale = values.iter().fold(floor, |m, x| m.max(x.abs()));
    values
        .iter()
        .map(|&x| if x.abs() <= 1e-12 * scale { 0.0 } else { x })
        .collect()
}

fn complex(l: &Complex<f64>) -> String {
    if l.im == 0.0 {
        number(l.re)
    } else if l.im > 0.0 {
        format!("{} + {}i", number(l.re), number(l.im))
    } else {
        format!("{} − {}i", number(l.re), number(-l.im))
    }
}

/// A matrix with row and column labels, columns aligned.
fn table(m: &DMatrix<f64>, rows: &[String], columns: &[String]) -> String {
    let shown = cleaned(m.as_slice(), 0.0);
    let m = DMatrix::from_column_slice(m.nrows(), m.ncols(), &shown);
    let cells: Vec<Vec<String>> = m
        .row_iter()
        .map(|r| r.iter().map(|&x| number(x)).collect())
        .collect();
    let label = rows.iter().map(|r| r.chars().count()).max().unwrap_or(0);
    let widths: Vec<usize> = (0..columns.len())
        .map(|j| {
            cells
                .iter()
                .map(|r| r[j].chars().count())
                .chain([columns[j].chars().count()])
                .max()
                .unwrap_or(0)
        })
        .collect();
    let pad = |s: &str, w: usize| format!("{s}{}", " ".repeat(w.saturating_sub(s.chars().count())));
    let mut lines = vec![format!("  {}", " ".repeat(label))];
    for (c, w) in columns.iter().zip(&widths) {
        let _ = write!(lines[0], "  {}", pad(c, *w));
    }
    for (name, row) in rows.iter().zip(&cells) {
        let mut line = format!("  {}", pad(name, label));
        for (cell, w) in row.iter().zip(&widths) {
            let _ = write!(line, "  {}", pad(cell, *w));
        }
        lines.push(line);
    }
    lines
        .iter()
        .map(|l| l.trim_end())
        .collect::<Vec<_>>()
        .join("\n")
}

/// The eigenvalues for the text output, round-off removed.
fn eigenvalue_list(eigenvalues: &[Complex<f64>]) -> String {
    let parts: Vec<f64> = eigenvalues.iter().flat_map(|l| [l.re, l.im]).collect();
    let parts = cleaned(&parts, 0.0);
    parts
        .chunks(2)
        .map(|p| complex(&Complex::new(p[0], p[1])))
        .collect::<Vec<_>>()
        .join(", ")
}

fn assignments(names: &[String], values: &[f64]) -> String {
    names
        .iter()
        .zip(cleaned(values, 1.0))
        .map(|(n, v)| format!("{n} = {}", number(v)))
        .collect::<Vec<_>>()
        .join(", ")
}
