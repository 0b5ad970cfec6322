//! The `lagrange` command: derive, simulate, check and generate from TOML model files,
//! and prepare a crate's offline derivations.

mod cli;

fn main() -> std::process::ExitCode {
    cli::run()
}
