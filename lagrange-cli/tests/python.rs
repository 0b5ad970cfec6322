//! The Python package's tests (`python/tests`), run from `cargo test --workspace` so that
//! what CI runs is the README's one command. The package is installed from this checkout
//! into the Python that `LAGRANGE_PYTHON` names (default `python3`), with its build backend
//! (maturin), NumPy and pytest already there; then pytest runs. Without them the test says
//! so on the terminal and passes, unless `LAGRANGE_REQUIRE_PYTHON` is set (`.ci/run` sets
//! it, after making such a Python).

mod external;

use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::Once;

use external::Tool;

/// A Python with what the package's build and tests need.
static PYTHON: Tool = Tool {
    skipped: "the Python package's tests",
    programs: "a Python with maturin, NumPy and pytest",
    install: "python3 -m venv .venv && .venv/bin/pip install maturin numpy pytest, then set LAGRANGE_PYTHON=.venv/bin/python",
    require: "LAGRANGE_REQUIRE_PYTHON",
    explained: Once::new(),
};

/// The Python to use.
fn python() -> PathBuf {
    std::env::var_os("LAGRANGE_PYTHON").map_or_else(|| PathBuf::from("python3"), PathBuf::from)
}

/// Why `python` cannot build and test the package, if it cannot.
fn unfit(python: &Path) -> Option<String> {
    let probe = Command::new(python)
        .args(["-c", "import maturin, numpy, pytest"])
        .output();
    match probe {
        Err(e) => Some(format!("cannot run `{}`: {e}", python.display())),
        Ok(out) if !out.status.success() => Some(format!(
            "`{}` lacks maturin, NumPy or pytest: {}",
            python.display(),
            String::from_utf8_lossy(&out.stderr).trim()
        )),
        Ok(_) => None,
    }
}

#[test]
fn the_python_package_passes_its_tests() {
    let python = python();
    if let Some(why) = unfit(&python) {
        PYTHON.missing(&why).unwrap_or_else(|e| panic!("{e}"));
        return;
    }
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).parent().unwrap();
    let package = root.join("python");
    // The package as this checkout has it: built (in `python/target`, kept between runs)
    // and installed over whatever version was there.
    let install = Command::new(&python)
        .args(["-m", "pip", "install", "--quiet", "--no-build-isolation", "--no-deps"])
        .arg(&package)
        .status()
        .expect("pip runs");
    assert!(install.success(), "installing the package from {} failed", package.display());
    let tests = Command::new(&python)
        .args(["-m", "pytest", "-q", "-p", "no:cacheprovider"])
        .arg(package.join("tests"))
        .current_dir(root)
        .status()
        .expect("pytest runs");
    assert!(tests.success(), "the Python package's tests failed (pytest's output above)");
}
