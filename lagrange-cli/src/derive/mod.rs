//! `lagrange derive`: the derived equations of a model file as text, as a LaTeX document
//! or as JSON ([`lagrange_loaded::derivation`] writes each).

use std::path::PathBuf;

use super::Failure;
use lagrange_loaded::derivation::{json, latex, text};
use lagrange_loaded::file::ModelFile;

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
