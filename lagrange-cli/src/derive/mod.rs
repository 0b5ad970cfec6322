//! `lagrange derive`: the derived equations of a model file as text (`text.rs`), as a
//! LaTeX document (`latex.rs`) or as JSON (`json.rs`). Here: the command's flow, and what
//! the text and the LaTeX read of the equations alike.

use std::path::PathBuf;

use lagrange_symbolic::equations::{Equations, Symbolic};
use lagrange_symbolic::syntax::Expr;

use super::Failure;
use lagrange_loaded::file::ModelFile;

mod json;
mod latex;
mod text;

/// Arguments of `lagrange derive`.
#[derive(clap::Args)]
pub(crate) struct Args {
    /// The model file (TOML).
    model: PathBuf,
    /// How to print the derivation.
    #[arg(long, value_enum, default_value_t = Format::Text)]
    format: Format,
}

/// Output formats.
#[derive(Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
enum Format {
    /// Plain text in the model syntax.
    Text,
    /// A complete LaTeX document.
    Latex,
    /// The model, its parameter values and the derivation, as JSON.
    Json,
}

/// Runs `lagrange derive`.
pub(crate) fn run(args: &Args) -> Result<(), Failure> {
    let file = ModelFile::load(&args.model)?;
    let values = file.parameter_values()?;
    // JSON has no NaN or infinity: refuse before the engine runs.
    let json_values = match args.format {
        Format::Json => Some(json::values(&file, &values)?),
        _ => None,
    };
    let derived = file.derive()?;
    let out = match (args.format, json_values) {
        (Format::Json, Some(values)) => json::document(&file, values, &derived)?,
        (Format::Latex, _) => latex::document(&file, &derived)?,
        _ => text::document(&derived),
    };
    outln!("{out}");
    Ok(())
}

/// The upper triangle of the (symmetric) mass matrix without its zero entries:
/// `(i, j, Mᵢⱼ)`.
fn mass_entries(symbolic: &Symbolic) -> impl Iterator<Item = (usize, usize, &Expr)> {
    symbolic
        .mass_matrix
        .iter()
        .enumerate()
        .flat_map(|(i, row)| row.iter().enumerate().skip(i).map(move |(j, m)| (i, j, m)))
        .filter(|(_, _, m)| !m.is_zero())
}

/// The names of the cyclic coordinates.
fn cyclic(eq: &Equations) -> Vec<&str> {
    eq.cyclic
        .iter()
        .map(|&i| eq.coordinates[i].as_str())
        .collect()
}

/// The non-zero entries of the printed linearization, as (matrix, row, column, value):
/// `K` and `C` by coordinates, `B` by coordinate and input.
fn linearization_entries(eq: &Equations) -> Vec<(&'static str, &str, &str, &Expr)> {
    let Some(l) = eq.symbolic.as_ref().and_then(|s| s.linearization.as_ref()) else {
        return Vec::new();
    };
    let inputs: Vec<&str> = eq
        .inputs
        .iter()
        .map(|&k| eq.parameters[k].as_str())
        .collect();
    let coordinates: Vec<&str> = eq.coordinates.iter().map(String::as_str).collect();
    [
        ("K", &l.coordinates, &coordinates),
        ("C", &l.velocities, &coordinates),
        ("B", &l.inputs, &inputs),
    ]
    .into_iter()
    .flat_map(|(name, rows, columns)| {
        let coordinates = &coordinates;
        rows.iter().enumerate().flat_map(move |(i, row)| {
            row.iter()
                .zip(columns.iter())
                .filter(|(value, _)| !value.is_zero())
                .map(move |(value, &column)| (name, coordinates[i], column, value))
        })
    })
    .collect()
}
