//! `lagrange simulate`.

use super::Failure;

/// Arguments of `lagrange simulate`.
#[derive(clap::Args)]
pub struct Args {}

/// Runs `lagrange simulate`.
pub fn run(_: &Args) -> Result<(), Failure> {
    Err(Failure("not yet".into()))
}
