//! `lagrange prepare`.

use super::Failure;

/// Arguments of `lagrange prepare`.
#[derive(clap::Args)]
pub struct Args {}

/// Runs `lagrange prepare`.
pub fn run(_: &Args) -> Result<(), Failure> {
    Err(Failure("not yet".into()))
}
