//! `lagrange connect`: the natural motions of a model file between two configurations, in
//! a given time or at a given energy (Thomson & Tait §327), with their actions, Hamilton's
//! relations as computed beside what they say, and the kinetic foci (the runtime's
//! `action` module).

use std::fmt::Write as _;
use std::path::PathBuf;

use lagrange_core::nalgebra::Dyn;
use lagrange_core::{Condition, LagrangianSystem, Search};

use super::Failure;
use super::results::{json, number};
use lagrange_loaded::Loaded;
use lagrange_loaded::connect::Problem;
use lagrange_loaded::file::ModelFile;

/// Arguments of `lagrange connect`.
#[derive(clap::Args)]
pub(crate) struct Args {
    /// The model file (TOML).
    model: PathBuf,
    /// The configuration to start from, `name=value` separated by commas, with parameter
    /// values to override; coordinates not named are the file's `[initial]` (zero without
    /// one).
    #[arg(long, value_name = "NAME=VALUE,…")]
    from: Vec<String>,
    /// The configuration to reach: every coordinate, `name=value` separated by commas.
    #[arg(long, value_name = "NAME=VALUE,…", required = true)]
    to: Vec<String>,
    /// The time of passage τ (the principal function's problem).
    #[arg(
        long,
        conflicts_with = "energy",
        required_unless_present = "energy",
        allow_negative_numbers = true
    )]
    time: Option<f64>,
    /// The energy E, the Jacobi integral (T + V for the usual T; the characteristic
    /// function's problem).
    #[arg(long, allow_negative_numbers = true)]
    energy: Option<f64>,
    /// An initial velocity to start the search from, `dot(name)=value` separated by
    /// commas (velocities not named are 0); repeat for several. Without one, the straight
    /// path's velocity and variants of it.
    #[arg(long, value_name = "dot(NAME)=VALUE,…")]
    start: Vec<String>,
    /// Runge–Kutta steps along each motion at first, doubled until the motion is confirmed.
    #[arg(long, default_value_t = lagrange_core::action::DEFAULT_STEPS)]
    steps: usize,
    /// How to print the result.
    #[arg(long, value_enum, default_value_t = Format::Text)]
    format: Format,
}

/// Output formats.
#[derive(Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
enum Format {
    /// A table per motion, ten significant digits.
    Text,
    /// One JSON object.
    Json,
}

/// Runs `lagrange connect`.
pub(crate) fn run(args: &Args) -> Result<(), Failure> {
    let file = ModelFile::load(&args.model)?;
    let point = file.operating_point(&args.from)?;
    let coordinates = &file.model.coordinates;
    let to = configuration(coordinates, &args.to)?;
    let starts = args
        .start
        .iter()
        .map(|s| velocity(coordinates, s))
        .collect::<Result<Vec<_>, _>>()?;
    let condition = match (args.time, args.energy) {
        (Some(tau), _) => Condition::Time(tau),
        (None, Some(e)) => Condition::Energy(e),
        (None, None) => return Err(Failure("give --time or --energy".into())),
    };
    let derived = file.derive()?;
    let system = Loaded::new(&derived.full, &point.parameters)?;
    let problem = Problem {
        from: &point.q,
        to: &to,
        starts: &starts,
        condition,
        steps: args.steps,
    };
    let search = problem.search(&file, &system)?;
    let info = system.info();
    let coordinates: Vec<String> = info.coordinates.iter().map(|c| c.to_string()).collect();
    let out = match args.format {
        Format::Json => json(&problem.document(&system, &search))?,
        Format::Text => text(&info.name, &coordinates, &problem, &search),
    };
    outln!("{out}");
    Ok(())
}

/// Coordinates from `name=value` entries, every one named once.
fn configuration(coordinates: &[String], entries: &[String]) -> Result<Vec<f64>, Failure> {
    let mut values: Vec<Option<f64>> = vec![None; coordinates.len()];
    for (name, value) in assignments("--to", entries)? {
        let i = coordinates.iter().position(|c| *c == name).ok_or_else(|| {
            Failure(format!(
                "--to: `{}` is not a coordinate (the coordinates are {})",
                lagrange_symbolic::syntax::print::escape_text(&name),
                coordinates.join(", ")
            ))
        })?;
        if values[i].replace(value).is_some() {
            return Err(Failure(format!("--to names `{name}` twice")));
        }
    }
    let missing: Vec<&str> = coordinates
        .iter()
        .zip(&values)
        .filter(|(_, v)| v.is_none())
        .map(|(c, _)| c.as_str())
        .collect();
    if !missing.is_empty() {
        return Err(Failure(format!(
            "--to must name every coordinate; missing: {}",
            missing.join(", ")
        )));
    }
    Ok(values.into_iter().flatten().collect())
}

/// Velocities from `dot(name)=value` entries; those not named are 0.
fn velocity(coordinates: &[String], entry: &str) -> Result<Vec<f64>, Failure> {
    let mut values = vec![0.0; coordinates.len()];
    for (name, value) in assignments("--start", &[entry.to_string()])? {
        let i = name
            .strip_prefix("dot(")
            .and_then(|n| n.strip_suffix(')'))
            .and_then(|n| coordinates.iter().position(|c| c == n.trim()))
            .ok_or_else(|| {
                Failure(format!(
                    "--start: `{}` is not the velocity `dot(name)` of a coordinate (the coordinates are {})",
                    lagrange_symbolic::syntax::print::escape_text(&name),
                    coordinates.join(", ")
                ))
            })?;
        values[i] = value;
    }
    Ok(values)
}

/// `name=value` pairs from comma-separated entries, each value a finite number.
fn assignments(flag: &str, entries: &[String]) -> Result<Vec<(String, f64)>, Failure> {
    entries
        .iter()
        .flat_map(|e| e.split(','))
        .map(|entry| {
            let bad = |why: &str| {
                Failure(format!(
                    "{flag} `{}`: {why}",
                    lagrange_symbolic::syntax::print::escape_text(entry)
                ))
            };
            let (name, value) = entry
                .split_once('=')
                .ok_or_else(|| bad("expected name=value"))?;
            let value = value
                .trim()
                .parse::<f64>()
                .ok()
                .filter(|v| v.is_finite())
                .ok_or_else(|| bad("the value is not a finite number"))?;
            Ok((name.trim().to_string(), value))
        })
        .collect()
}

/// `(a, b, …)` of ten significant digits.
fn tuple(values: impl IntoIterator<Item = f64>) -> String {
    let parts: Vec<String> = values.into_iter().map(number).collect();
    format!("({})", parts.join(", "))
}

fn text(name: &str, coordinates: &[String], work: &Problem<'_>, search: &Search<Dyn>) -> String {
    let motions = &search.motions;
    let mut out = String::new();
    let condition = match work.condition {
        Condition::Time(tau) => format!("in the time τ = {}", number(tau)),
        Condition::Energy(e) => format!("at the energy E = {}", number(e)),
    };
    let count = motions.len();
    let _ = writeln!(
        out,
        "{name}: {count} natural motion{} from ({}) = {} to {} {condition}, least action first",
        if count == 1 { "" } else { "s" },
        coordinates.join(", "),
        tuple(work.from.iter().copied()),
        tuple(work.to.iter().copied()),
    );
    for (k, m) in motions.iter().enumerate() {
        let verdict = match m.foci.as_slice() {
            [] => "least: no kinetic focus of the start before the end".to_string(),
            foci => format!(
                "stationary, not least: kinetic focus of the start at t = {}",
                foci.iter()
                    .map(|f| match f.multiplicity {
                        1 => number(f.time),
                        k => format!("{} (multiplicity {k})", number(f.time)),
                    })
                    .collect::<Vec<_>>()
                    .join(", ")
            ),
        };
        let _ = writeln!(out, "\nmotion {} of {count}: {verdict}", k + 1);
        let _ = writeln!(
            out,
            "  q̇(0) = {}   q̇(τ) = {}",
            tuple(m.initial_velocity.iter().copied()),
            tuple(m.final_velocity.iter().copied())
        );
        let _ = writeln!(
            out,
            "  τ = {}   E = {}   S = ∫L dt = {}   A = ∫p·q̇ dt = {}",
            number(m.time),
            number(m.energy),
            number(m.principal),
            number(m.action)
        );
        let _ = writeln!(
            out,
            "  change when the steps are doubled: {:.1e} (relative)",
            m.accuracy
        );
        let width = m
            .relations
            .iter()
            .map(|r| r.derivative.chars().count())
            .max()
            .unwrap_or(0);
        let law_width = m
            .relations
            .iter()
            .map(|r| r.law.chars().count())
            .max()
            .unwrap_or(0);
        let _ = writeln!(
            out,
            "  {:width$}   {:law_width$}   {:>17}   {:>17}   {:>9}",
            "relation", "", "computed", "expected", "difference"
        );
        for r in &m.relations {
            let _ = writeln!(
                out,
                "  {:width$} = {:law_width$}   {:>17}   {:>17}   {:>9.1e}",
                r.derivative,
                r.law,
                number(r.computed),
                number(r.expected),
                r.difference()
            );
        }
    }
    for note in &search.unconfirmed {
        let _ = writeln!(out, "\nnot reported, not confirmed: {note}");
    }
    out.trim_end().to_string()
}
