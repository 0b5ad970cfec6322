//! `lagrange check`.

use super::Failure;

/// Arguments of `lagrange check`.
#[derive(clap::Args)]
pub struct Args {}

/// Runs `lagrange check`.
pub fn run(_: &Args) -> Result<(), Failure> {
    Err(Failure("not yet".into()))
}
