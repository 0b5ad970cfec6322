//! `lagrange linearize` and `lagrange modes`: the runtime's exact linearization, equilibria,
//! stability and normal modes, for a model file at a state it names.

use std::fmt::Write as _;
use std::path::PathBuf;

use lagrange_core::nalgebra::{Complex, DMatrix, DVector, Dyn};
use lagrange_core::{
    Error, LagrangianSystem, Linearization, NormalMode, Stability, constrained_normal_modes,
    find_constrained_equilibrium, find_equilibrium, linearize, linearize_constrained, normal_modes,
};
use lagrange_symbolic::equations::{Derived, Equations};
use serde::Serialize;

use super::Failure;
use super::file::{ModelFile, OperatingPoint};
use super::interpreted::{Interpreted, ReducedState};

mod minimal;

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

/// What `modes --format json` prints.
#[derive(Serialize)]
struct ModesDocument {
    model: String,
    t: f64,
    coordinates: Vec<String>,
    /// The equilibrium found.
    equilibrium: Vec<f64>,
    /// Whether it is degenerate: zero stiffness there (see `lagrange_core::Equilibrium`).
    degenerate: bool,
    stability: &'static str,
    eigenvalues: Vec<[f64; 2]>,
    /// The normal modes, by increasing `ω²`; empty when there are none (see `note`).
    modes: Vec<ModeDocument>,
    /// Why there are no normal modes, when there are none.
    note: Option<String>,
}

#[derive(Serialize)]
struct ModeDocument {
    omega_squared: f64,
    /// `ω` in rad per time unit (`null` when `ω² < 0`).
    omega: Option<f64>,
    period: Option<f64>,
    /// The shape, `vᵀ M v = 1`, in coordinate order.
    shape: Vec<f64>,
}

/// Runs `lagrange linearize`.
pub(crate) fn run_linearize(args: &Args) -> Result<(), Failure> {
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
    let out = work.call(Interpreted::new(subject.equations, &subject.values)?)?;
    print(&subject, args.format, out);
    Ok(())
}

/// Runs `lagrange modes`.
pub(crate) fn run_modes(args: &Args) -> Result<(), Failure> {
    if args.minimal.is_some() {
        return Err(Failure(
            "--minimal and --speeds are options of `lagrange linearize`".into(),
        ));
    }
    let file = ModelFile::load(&args.model)?;
    let point = file.operating_point(&args.at)?;
    finite_time(args.t)?;
    let derived = file.derive()?;
    let subject = Subject::of(&derived, args.t, point);
    let work = Modes {
        file: &file,
        t: args.t,
        guess: &subject.q,
        format: args.format,
    };
    let out = work.call(Interpreted::new(subject.equations, &subject.values)?)?;
    print(&subject, args.format, out);
    Ok(())
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
    fn call(self, system: Interpreted) -> Result<String, Failure> {
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

/// `modes` of a model at a time from a guess.
struct Modes<'a> {
    file: &'a ModelFile,
    t: f64,
    guess: &'a [f64],
    format: Format,
}

impl Modes<'_> {
    /// The equilibrium near the guess, the linearization and the normal modes there.
    fn call(self, system: Interpreted) -> Result<String, Failure> {
        let guess = DVector::from_column_slice(self.guess);
        let t = self.t;
        let rest = DVector::zeros(guess.len());
        let file = self.file;
        let fail = |what: &'static str| move |e: Error| failure(file, what, e);
        let (found, linearization, modes) = if system.info().constraints.is_empty() {
            let found = find_equilibrium(&system, t, &guess).map_err(fail("no equilibrium"))?;
            let q = &found.q;
            let linearization =
                linearize(&system, t, q, &rest).map_err(fail("cannot linearize"))?;
            let modes = normal_modes(&system, t, q);
            (found, linearization, modes)
        } else {
            let found =
                find_constrained_equilibrium(&system, t, &guess).map_err(fail("no equilibrium"))?;
            let q = &found.q;
            let linearization =
                linearize_constrained(&system, t, q, &rest).map_err(fail("cannot linearize"))?;
            let modes = constrained_normal_modes(&system, t, q);
            (found, linearization, modes)
        };
        let (q, degenerate) = (found.q, found.degenerate);
        let eigenvalues = linearization
            .eigenvalues()
            .map_err(fail("cannot linearize"))?;
        let stability = linearization
            .stability()
            .map_err(fail("cannot linearize"))?;
        let (modes, note) = match modes {
            Ok(modes) => (modes, None),
            Err(Error::NoNormalModes(why)) => (Vec::new(), Some(why)),
            Err(e) => return Err(fail("no normal modes")(e)),
        };
        let info = system.info();
        let coordinates: Vec<String> = info.coordinates.iter().map(|c| c.to_string()).collect();
        Ok(match self.format {
            Format::Json => json(&ModesDocument {
                model: info.name.to_string(),
                t,
                coordinates,
                equilibrium: q.iter().copied().collect(),
                degenerate,
                stability: stability_name(stability),
                eigenvalues: pairs(&eigenvalues),
                modes: modes
                    .iter()
                    .map(|m| ModeDocument {
                        omega_squared: m.omega_squared,
                        omega: m.frequency(),
                        period: m.period(),
                        shape: m.shape.iter().copied().collect(),
                    })
                    .collect(),
                note,
            })?,
            Format::Text => modes_text(
                &info.name,
                &coordinates,
                (q.as_slice(), degenerate),
                stability,
                &eigenvalues,
                &modes,
                note.as_deref(),
            ),
        })
    }
}

/// A runtime error as the command's failure, naming the file.
pub(crate) fn failure(file: &ModelFile, what: &str, e: Error) -> Failure {
    Failure(format!("{}: {what}: {e}", file.path.display()))
}

/// `q₁ … q_N, dot(q₁) … dot(q_N)`.
fn state_names(coordinates: &[lagrange_core::Text]) -> Vec<String> {
    coordinates
        .iter()
        .map(|c| c.to_string())
        .chain(coordinates.iter().map(|c| format!("dot({c})")))
        .collect()
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

/// The document as JSON (the runtime returns finite results or an error).
pub(crate) fn json(document: &impl Serialize) -> Result<String, Failure> {
    serde_json::to_string_pretty(document).map_err(|e| Failure(format!("cannot write JSON: {e}")))
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

/// A number for the text output: ten significant digits.
pub(crate) fn number(x: f64) -> String {
    if x == 0.0 {
        "0".into()
    } else if (1e-4..1e6).contains(&x.abs()) {
        let digits = (9 - x.abs().log10().floor() as i32).max(0) as usize;
        let s = format!("{x:.digits$}");
        let s = if s.contains('.') {
            s.trim_end_matches('0').trim_end_matches('.').to_string()
        } else {
            s
        };
        if s == "-0" { "0".into() } else { s }
    } else {
        format!("{x:.9e}")
    }
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

/// What `modes` prints: the equilibrium `q` (and whether it is `degenerate`), its
/// stability, the eigenvalues and the normal modes or why there are none.
fn modes_text(
    name: &str,
    coordinates: &[String],
    (q, degenerate): (&[f64], bool),
    stability: Stability,
    eigenvalues: &[Complex<f64>],
    modes: &[NormalMode<Dyn>],
    note: Option<&str>,
) -> String {
    let mut out = format!("{name}: equilibrium {}\n", assignments(coordinates, q));
    if degenerate {
        let _ = writeln!(
            out,
            "degenerate: the stiffness vanishes there (∂q̈/∂q = 0 to round-off, as for V = x^4 at 0), so small motions about it are not those of the linearization"
        );
    }
    let _ = writeln!(out, "stability: {}", stability_name(stability));
    let _ = writeln!(out, "eigenvalues of A: {}", eigenvalue_list(eigenvalues));
    if let Some(why) = note {
        let _ = write!(out, "no normal modes: {why}");
        return out;
    }
    let _ = writeln!(out, "normal modes (K v = ω² M v, vᵀ M v = 1):");
    for (k, mode) in modes.iter().enumerate() {
        let frequency = match (mode.frequency(), mode.period()) {
            (Some(w), Some(p)) => format!("ω = {}, period {}", number(w), number(p)),
            (Some(w), None) => format!("ω = {}", number(w)),
            _ => "unstable: grows like exp(√(−ω²) t)".into(),
        };
        let _ = writeln!(
            out,
            "  {}: ω² = {}, {frequency}; shape {}",
            k + 1,
            number(mode.omega_squared),
            assignments(coordinates, mode.shape.as_slice())
        );
    }
    out.trim_end().to_string()
}
