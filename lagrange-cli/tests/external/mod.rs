//! Programs that some tests need and a fresh machine lacks (a browser, pdflatex). A test
//! that needs one runs when it is installed. When it is not, the test passes, but only
//! after saying on the terminal that it did not run and how to run it; and when the
//! program's variable is set (`.ci/run` sets them), a missing program fails the test.
//!
//! The notice is written to the process's standard error directly: libtest captures what
//! `eprintln!` prints in a test that passes, so a notice printed that way would never be
//! seen.

// Test crates include this file as a module and each uses only part of it.
#![allow(dead_code, unreachable_pub)]

use std::ffi::OsStr;
use std::io::Write;
use std::path::PathBuf;
use std::sync::Once;

/// A program some tests need: what they do with it, how to install it, and the variable
/// that makes it mandatory.
pub struct Tool {
    /// What does not run without it ("the browser tests").
    pub skipped: &'static str,
    /// The programs ("Chromium and chromedriver").
    pub programs: &'static str,
    /// The command that installs them on Debian or Ubuntu.
    pub install: &'static str,
    /// The environment variable that turns a missing program into a failure.
    pub require: &'static str,
    /// Set once the explanation has been printed: it is said once per test binary.
    pub explained: Once,
}

impl Tool {
    /// Whether the tests must run: the variable is set to anything but nothing or `0`.
    pub fn required(&self) -> bool {
        demands(std::env::var_os(self.require).as_deref())
    }

    /// What a test does when the program is missing (`why` says what was not found): `Err`,
    /// the test's failure, when it is required; otherwise `Ok` after saying on the terminal
    /// that the calling test did not run, and how to run it.
    pub fn missing(&self, why: &str) -> Result<(), String> {
        if self.required() {
            return Err(format!(
                "{why}\n{} is set, so {} must run: install {} with `{}`",
                self.require, self.skipped, self.programs, self.install
            ));
        }
        let test = std::thread::current()
            .name()
            .map_or_else(String::new, |name| format!("::{name}"));
        let mut notice = format!(
            "\nNOT RUN in {}{test}: {} ({why})\n",
            env!("CARGO_CRATE_NAME"),
            self.skipped
        );
        self.explained
            .call_once(|| notice.push_str(&self.explanation()));
        // Past libtest's capture, in one write so that parallel tests do not interleave.
        let _ = std::io::stderr().lock().write_all(notice.as_bytes());
        Ok(())
    }

    /// How to run the tests that were not run, and how to make their absence a failure.
    pub fn explanation(&self) -> String {
        let bar = "=".repeat(78);
        format!(
            "{bar}\nFor want of {}, {} did NOT RUN (the tests pass without them).\n\
             To run them: `{}`, then `cargo test -p lagrange-cli --test {}`.\n\
             To make a missing program a failure, as `.ci/run` does: set {}=1.\n{bar}\n",
            self.programs,
            self.skipped,
            self.install,
            env!("CARGO_CRATE_NAME"),
            self.require
        )
    }
}

/// The C compiler, for the tests that build the C solvers `lagrange generate` writes.
pub static GCC: Tool = Tool {
    skipped: "building and running the generated C",
    programs: "gcc",
    install: "apt-get install gcc",
    require: "LAGRANGE_REQUIRE_GCC",
    explained: Once::new(),
};

/// Whether gcc is there to build the generated C; when it is not, the calling test says
/// so (see [`Tool::missing`]), or fails if gcc is required.
pub fn gcc_available() -> bool {
    match find_program("gcc") {
        Ok(_) => true,
        Err(why) => {
            GCC.missing(&why).unwrap_or_else(|e| panic!("{e}"));
            false
        }
    }
}

/// Whether a variable's value asks for the tests: set, and neither empty nor `0`.
fn demands(value: Option<&OsStr>) -> bool {
    value.is_some_and(|v| !v.is_empty() && v != "0")
}

/// The program `name` found on `PATH`.
pub fn find_program(name: &str) -> Result<PathBuf, String> {
    std::env::var_os("PATH")
        .and_then(|paths| {
            std::env::split_paths(&paths)
                .map(|dir| dir.join(name))
                .find(|candidate| candidate.is_file())
        })
        .ok_or_else(|| format!("`{name}` not found on PATH"))
}

#[cfg(test)]
mod tests {
    use super::*;

    static TOOL: Tool = Tool {
        skipped: "the frobnication tests",
        programs: "frob",
        install: "apt-get install frob",
        require: "LAGRANGE_REQUIRE_FROB_FOR_THIS_TEST_ONLY",
        explained: Once::new(),
    };

    #[test]
    fn only_a_set_nonzero_variable_demands_the_tests() {
        assert!(!demands(None));
        assert!(!demands(Some(OsStr::new(""))));
        assert!(!demands(Some(OsStr::new("0"))));
        assert!(demands(Some(OsStr::new("1"))));
        assert!(demands(Some(OsStr::new("yes"))));
    }

    #[test]
    fn the_explanation_says_how_to_run_and_how_to_require() {
        let text = TOOL.explanation();
        assert!(
            text.contains("For want of frob, the frobnication tests did NOT RUN"),
            "{text}"
        );
        assert!(text.contains("`apt-get install frob`"), "{text}");
        assert!(
            text.contains(&format!(
                "cargo test -p lagrange-cli --test {}",
                env!("CARGO_CRATE_NAME")
            )),
            "{text}"
        );
        assert!(
            text.contains("LAGRANGE_REQUIRE_FROB_FOR_THIS_TEST_ONLY=1"),
            "{text}"
        );
    }

    #[test]
    fn a_missing_program_is_named() {
        let error = find_program("no-such-program-here").unwrap_err();
        assert!(
            error.contains("`no-such-program-here` not found"),
            "{error}"
        );
    }
}
