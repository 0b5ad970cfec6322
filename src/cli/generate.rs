//! `lagrange generate`.

use super::Failure;

/// Arguments of `lagrange generate`.
#[derive(clap::Args)]
pub struct Args {}

/// Runs `lagrange generate`.
pub fn run(_: &Args) -> Result<(), Failure> {
    Err(Failure("not yet".into()))
}
