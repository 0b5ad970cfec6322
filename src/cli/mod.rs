//! Argument parsing and dispatch; each subcommand lives in its own module.

use std::fmt;
use std::process::ExitCode;

use clap::{Parser, Subcommand};

mod check;
mod derive;
mod file;
mod generate;
mod prepare;
mod simulate;
mod system;

/// Equations of motion from a model file: print them, integrate them, compare them with
/// a textbook, or generate a standalone solver.
#[derive(Parser)]
#[command(name = "lagrange", version, about)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Print the derived equations (text, LaTeX document, or JSON).
    Derive(derive::Args),
    /// Integrate the equations; write the trajectory as CSV and plot it.
    Simulate(simulate::Args),
    /// Compare the derived equations with reference equations in residual form.
    Check(check::Args),
    /// Render a standalone solver (a std-only Rust crate, or C) from `templates/`.
    Generate(generate::Args),
    /// Write the derivations of every model of a crate to its `.lagrange/` folder, for
    /// builds without the engine.
    Prepare(prepare::Args),
}

/// Why a command failed: printed as `error: …` with a non-zero exit.
#[derive(Debug)]
pub struct Failure(pub String);

impl fmt::Display for Failure {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl From<String> for Failure {
    fn from(message: String) -> Self {
        Failure(message)
    }
}

/// Parses the arguments and runs the command.
pub fn run() -> ExitCode {
    let cli = Cli::parse();
    let result = match &cli.command {
        Command::Derive(args) => derive::run(args),
        Command::Simulate(args) => simulate::run(args),
        Command::Check(args) => check::run(args),
        Command::Generate(args) => generate::run(args),
        Command::Prepare(args) => prepare::run(args),
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(failure) => {
            eprintln!("error: {failure}");
            ExitCode::FAILURE
        }
    }
}
