//! The `lagrange` command: derive, simulate, check and generate from TOML model files,
//! and prepare a crate's offline derivations.

mod cli;

fn main() -> std::process::ExitCode {
    if std::env::var_os("SYMBOLICA_HIDE_BANNER").is_none() {
        // SAFETY: no other thread exists yet, so nothing reads the environment concurrently.
        unsafe { std::env::set_var("SYMBOLICA_HIDE_BANNER", "1") };
    }
    cli::run()
}
