//! `lagrange derive`.

use super::Failure;

/// Arguments of `lagrange derive`.
#[derive(clap::Args)]
pub struct Args {}

/// Runs `lagrange derive`.
pub fn run(_: &Args) -> Result<(), Failure> {
    Err(Failure("not yet".into()))
}
