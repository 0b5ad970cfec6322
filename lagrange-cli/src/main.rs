//! The `lagrange` command: derive, simulate, check and generate from TOML model files,
//! and prepare a crate's offline derivations. Argument parsing and dispatch are here;
//! each subcommand lives in its own module, and the models it reads run as
//! `lagrange_loaded` systems.
//! Everything written to standard output goes through [`write_out`].

#![deny(clippy::print_stdout)]

use std::fmt;
use std::io::{ErrorKind, Write};
use std::process::ExitCode;

use clap::{Parser, Subcommand};

/// `print!` through [`write_out`]: a closed pipe ends the command quietly.
macro_rules! out {
    ($($arg:tt)*) => {
        $crate::write_out(format_args!($($arg)*))
    };
}

/// `println!` through [`write_out`]: a closed pipe ends the command quietly.
macro_rules! outln {
    ($($arg:tt)*) => {
        $crate::write_out(format_args!("{}\n", format_args!($($arg)*)))
    };
}

mod analysis;
mod check;
mod connect;
mod derive;
mod generate;
mod import;
mod prepare;
mod results;
mod simulate;

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
    /// Integrate with the file's settings and write a self-contained HTML report: the
    /// model and its equations as mathematics, conserved quantities, plots, an animation.
    Report(simulate::ReportArgs),
    /// Compare the derived equations with reference equations in residual form.
    Check(check::Args),
    /// Render a standalone solver (a std-only Rust crate, or C) from `templates/`.
    Generate(generate::Args),
    /// Linearize the motion at a state: A and B of dx/dt = A dx + B du, x = (q, q̇), with
    /// the eigenvalues of A.
    Linearize(analysis::Args),
    /// Find the equilibrium near a state; print its stability and normal modes.
    Modes(analysis::Args),
    /// Find the natural motions from one configuration to another in a given time or at a
    /// given energy; print their actions, Hamilton's relations and kinetic foci.
    Connect(connect::Args),
    /// Translate a URDF robot into a model file (on standard output): links as bodies of
    /// a kinematic tree, movable joints as coordinates, gravity along −z.
    Import(import::Args),
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

impl From<lagrange_loaded::LoadError> for Failure {
    fn from(error: lagrange_loaded::LoadError) -> Self {
        Failure(error.0)
    }
}

impl From<String> for Failure {
    fn from(message: String) -> Self {
        Failure(message)
    }
}

/// Writes to standard output, which every subcommand's results go through. When the
/// reader has gone (`lagrange derive … | head`), there is no one left to tell: the command
/// exits quietly with success, as command-line tools do, instead of panicking; any other
/// failure to write is an error.
fn write_out(text: fmt::Arguments<'_>) {
    let mut stdout = std::io::stdout().lock();
    match stdout.write_fmt(text).and_then(|()| stdout.flush()) {
        Ok(()) => {}
        Err(e) if e.kind() == ErrorKind::BrokenPipe => std::process::exit(0),
        Err(e) => {
            eprintln!("error: cannot write to standard output: {e}");
            std::process::exit(1)
        }
    }
}

fn main() -> ExitCode {
    if std::env::var_os("SYMBOLICA_HIDE_BANNER").is_none() {
        // SAFETY: no other thread exists yet, so nothing reads the environment concurrently.
        unsafe { std::env::set_var("SYMBOLICA_HIDE_BANNER", "1") };
    }
    let cli = Cli::parse();
    let result = match &cli.command {
        Command::Derive(args) => derive::run(args),
        Command::Simulate(args) => simulate::run(args),
        Command::Report(args) => simulate::run_report(args),
        Command::Check(args) => check::run(args),
        Command::Generate(args) => generate::run(args),
        Command::Prepare(args) => prepare::run(args),
        Command::Linearize(args) => analysis::linearize::run(args),
        Command::Modes(args) => analysis::modes::run(args),
        Command::Connect(args) => connect::run(args),
        Command::Import(args) => import::run(args),
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(failure) => {
            eprintln!("error: {failure}");
            ExitCode::FAILURE
        }
    }
}
