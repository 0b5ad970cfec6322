//! The Python package's tests (`python/tests`), run from `cargo test --workspace` so that
//! what CI runs is the README's one command. The package is built from this checkout (a
//! debug build) and installed into the Python that `LAGRANGE_PYTHON` names (default
//! `python3`), with its build backend (maturin), NumPy and pytest already there; then
//! pytest runs. Without them the test says
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
    install: "python3 -m venv .venv && .venv/bin/pip install maturin numpy pytest && export LAGRANGE_PYTHON=$PWD/.venv/bin/python",
    require: "LAGRANGE_REQUIRE_PYTHON",
    explained: Once::new(),
};

/// The Python to use.
fn python() -> PathBuf {
    std::env::var_os("LAGRANGE_PYTHON").map_or_else(|| PathBuf::from("python3"), PathBuf::from)
}

/// The folder of `python`'s scripts (where its `maturin` is, which the build backend runs),
/// or why `python` cannot build and test the package.
fn scripts(python: &Path) -> Result<PathBuf, String> {
    let probe = Command::new(python)
        .args([
            "-c",
            "import maturin, numpy, pytest, sysconfig; print(sysconfig.get_path('scripts'))",
        ])
        .output()
        .map_err(|e| format!("cannot run `{}`: {e}", python.display()))?;
    if !probe.status.success() {
        return Err(format!(
            "`{}` lacks maturin, NumPy or pytest: {}",
            python.display(),
            String::from_utf8_lossy(&probe.stderr)
                .lines()
                .last()
                .unwrap_or("")
        ));
    }
    Ok(PathBuf::from(String::from_utf8_lossy(&probe.stdout).trim()))
}

#[test]
fn the_python_package_passes_its_tests() {
    let python = python();
    let scripts = match scripts(&python) {
        Ok(scripts) => scripts,
        Err(why) => {
            PYTHON.missing(&why).unwrap_or_else(|e| panic!("{e}"));
            return;
        }
    };
    let path = std::env::var_os("PATH").unwrap_or_default();
    let path = std::env::join_paths(std::iter::once(scripts).chain(std::env::split_paths(&path)))
        .expect("PATH joins");
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).parent().unwrap();
    let package = root.join("python");
    // The package as this checkout has it, installed over whatever version was there.
    let build = std::env::temp_dir().join(format!("lagrange-python-build-{}", std::process::id()));
    let install = Command::new(&python)
        .args([
            "-m",
            "pip",
            "install",
            "--quiet",
            "--no-build-isolation",
            "--no-deps",
        ])
        .arg(&package)
        .env("PATH", &path)
        // The dev profile (a minute's build, not ten), in a folder of its own that is
        // removed once the package is installed: the build does not share the workspace's
        // artifacts (its dependencies' features are resolved alone), and its 0.8 GB would
        // otherwise stay beside them for the rest of the run.
        .env("MATURIN_PEP517_ARGS", "--profile dev")
        .env("CARGO_TARGET_DIR", &build)
        .status();
    let _ = std::fs::remove_dir_all(&build);
    let install = install.expect("pip runs");
    assert!(
        install.success(),
        "installing the package from {} failed",
        package.display()
    );
    let tests = Command::new(&python)
        .args(["-m", "pytest", "-q", "-p", "no:cacheprovider"])
        .arg(package.join("tests"))
        .current_dir(root)
        .status()
        .expect("pytest runs");
    assert!(
        tests.success(),
        "the Python package's tests failed (pytest's output above)"
    );
}
