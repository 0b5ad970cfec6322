//! Builds without the engine: `lagrange-cli/tests/offline-crate` depends on `lagrange` with its
//! `engine` feature off, so every `#[derive(Lagrangian)]` expands from the crate's
//! checked-in `.lagrange/` folder. The test checks that symbolica is not in that crate's
//! dependency tree, that its results equal the engine build's bit for bit, that a changed
//! model is a compile error pointing at `lagrange prepare`, and that `lagrange prepare`
//! regenerates exactly the checked-in folder.

use std::fs;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

#[path = "offline-crate/src/models.rs"]
mod models;

/// The workspace: the facade crate `lagrange` and the shared target folder.
fn workspace() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .expect("lagrange-cli sits in the workspace")
        .to_path_buf()
}

fn offline_crate() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests")
        .join("offline-crate")
}

/// Cargo with its own target folder and no offline or prepare switches inherited.
fn cargo(target: &Path) -> Command {
    let mut command = Command::new(env!("CARGO"));
    command
        .arg("--color=never")
        .current_dir(workspace())
        .env("CARGO_TARGET_DIR", target)
        // A second build of the workspace's crates: no debug information, no incremental
        // state, so that it takes little disk.
        .env("CARGO_PROFILE_DEV_DEBUG", "false")
        .env("CARGO_INCREMENTAL", "0")
        // Without debug assertions, so that the derived code takes the branches a release
        // build takes (the test itself, built with them, takes the others).
        .env("CARGO_PROFILE_DEV_DEBUG_ASSERTIONS", "false")
        .env_remove("LAGRANGE_OFFLINE")
        .env_remove("LAGRANGE_PREPARE")
        .env_remove("LAGRANGE_PREPARE_CRATE")
        .env_remove("RUSTFLAGS");
    command
}

fn output(command: &mut Command) -> Output {
    command.output().expect("cargo runs")
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

/// Copies the offline crate (manifest, sources and, if `with_entries`, `.lagrange/`).
fn copy_crate(to: &Path, with_entries: bool) {
    let _ = fs::remove_dir_all(to);
    fs::create_dir_all(to.join("src")).unwrap();
    let from = offline_crate();
    let manifest = fs::read_to_string(from.join("Cargo.toml")).unwrap();
    let path = workspace().display().to_string();
    fs::write(
        to.join("Cargo.toml"),
        manifest.replace("\"../../..\"", &format!("{path:?}")),
    )
    .unwrap();
    for file in ["main.rs", "models.rs"] {
        fs::copy(from.join("src").join(file), to.join("src").join(file)).unwrap();
    }
    if with_entries {
        fs::create_dir_all(to.join(".lagrange")).unwrap();
        for entry in fs::read_dir(from.join(".lagrange")).unwrap() {
            let entry = entry.unwrap();
            fs::copy(entry.path(), to.join(".lagrange").join(entry.file_name())).unwrap();
        }
    }
}

fn entries(dir: &Path) -> Vec<(String, Vec<u8>)> {
    let mut all: Vec<(String, Vec<u8>)> = fs::read_dir(dir)
        .unwrap()
        .map(|e| {
            let e = e.unwrap();
            (
                e.file_name().to_string_lossy().into_owned(),
                fs::read(e.path()).unwrap(),
            )
        })
        .collect();
    all.sort();
    all
}

#[test]
fn the_offline_build_has_no_symbolica_and_matches_the_engine_bit_for_bit() {
    let manifest = offline_crate().join("Cargo.toml");
    let target = workspace().join("target").join("offline-crate");

    let tree = output(
        cargo(&target)
            .args([
                "tree",
                "--prefix",
                "none",
                "-e",
                "normal,build",
                "--manifest-path",
            ])
            .arg(&manifest),
    );
    assert!(
        tree.status.success(),
        "cargo tree failed:\n{}",
        text(&tree.stderr)
    );
    let tree = text(&tree.stdout);
    assert!(tree.contains("lagrange-macros"), "unexpected tree:\n{tree}");
    assert!(
        !tree
            .lines()
            .any(|l| l.starts_with("symbolica") || l.starts_with("numerica")),
        "the offline build depends on the engine:\n{tree}"
    );

    let run = output(
        cargo(&target)
            .args(["run", "-q", "--manifest-path"])
            .arg(&manifest),
    );
    assert!(
        run.status.success(),
        "the offline crate failed:\n{}",
        text(&run.stderr)
    );
    let offline: Vec<u64> = text(&run.stdout)
        .lines()
        .map(|l| u64::from_str_radix(l, 16).expect("hex bits"))
        .collect();
    let engine = models::fingerprint();
    assert_eq!(offline.len(), engine.len());
    for (i, (a, b)) in offline.iter().zip(&engine).enumerate() {
        assert_eq!(
            a,
            b,
            "value {i}: offline {} vs engine {}",
            f64::from_bits(*a),
            f64::from_bits(*b)
        );
    }
}

#[test]
fn a_changed_model_without_prepare_is_a_compile_error_that_says_what_to_do() {
    let copy = workspace().join("target").join("offline-stale");
    copy_crate(&copy, true);
    let models = copy.join("src").join("models.rs");
    let source = fs::read_to_string(&models).unwrap();
    let changed = source.replace("potential = \"-k*m/r\"", "potential = \"-2*k*m/r\"");
    assert_ne!(source, changed);
    fs::write(&models, changed).unwrap();

    let manifest = copy.join("Cargo.toml");
    let target = workspace().join("target").join("offline-crate");
    let build = output(
        cargo(&target)
            .args(["build", "--manifest-path"])
            .arg(&manifest),
    );
    assert!(!build.status.success(), "a stale model must not build");
    let stderr = text(&build.stderr);
    assert!(stderr.contains("no stored derivation"), "{stderr}");
    assert!(stderr.contains("run `lagrange prepare`"), "{stderr}");
    assert!(
        stderr.contains("the engine feature of lagrange is off"),
        "{stderr}"
    );
    assert!(!stderr.contains("panicked"), "{stderr}");
}

/// The checked-in entry of the double pendulum in a copy of the crate.
fn double_pendulum_entry(copy: &Path) -> PathBuf {
    fs::read_dir(copy.join(".lagrange"))
        .unwrap()
        .map(|e| e.unwrap().path())
        .find(|p| {
            p.file_name()
                .unwrap()
                .to_string_lossy()
                .starts_with("DoublePendulum-")
        })
        .expect("the double pendulum's entry")
}

#[test]
fn a_damaged_entry_is_a_compile_error_that_names_it_and_the_fix() {
    use lagrange_symbolic::ir::{Instr, Slot};
    use lagrange_symbolic::store::{self, Entry};

    let copy = workspace().join("target").join("offline-damaged");
    let target = workspace().join("target").join("offline-crate");
    let manifest = copy.join("Cargo.toml");
    // An edited constant (the content hash no longer matches), then an out-of-range
    // slot and a forged count of temporaries under a recomputed hash (the validation of
    // the programs catches them).
    type Damage = fn(&mut Entry);
    let damages: [(&str, Damage); 3] = [
        ("content hash", |e| {
            e.derived.full.programs.dynamics.constants[0] *= 2.0
        }),
        ("out-of-range Input(1000)", |e| {
            let p = &mut e.derived.full.programs.dynamics;
            let last = p.instructions.len() - 1;
            p.instructions[last] = Instr::Copy(Slot::Out(0), Slot::Input(1000));
            e.derived_hash = store::content_hash(&e.derived);
        }),
        ("temporaries", |e| {
            e.derived.full.programs.energy.temporaries = 1_000_000_000_000;
            e.derived_hash = store::content_hash(&e.derived);
        }),
    ];
    for (needle, damage) in damages {
        copy_crate(&copy, true);
        let path = double_pendulum_entry(&copy);
        let mut entry: Entry = serde_json::from_str(&fs::read_to_string(&path).unwrap()).unwrap();
        damage(&mut entry);
        fs::write(&path, serde_json::to_string_pretty(&entry).unwrap()).unwrap();
        let build = output(
            cargo(&target)
                .args(["build", "--manifest-path"])
                .arg(&manifest),
        );
        let stderr = text(&build.stderr);
        assert!(
            !build.status.success(),
            "{needle}: a damaged entry must not build"
        );
        assert!(!stderr.contains("panicked"), "{needle}: {stderr}");
        for expected in [
            needle,
            "was edited or damaged",
            "DoublePendulum-",
            "run `lagrange prepare`",
        ] {
            assert!(
                stderr.contains(expected),
                "{needle}: no `{expected}` in {stderr}"
            );
        }
    }
}

#[test]
fn prepare_regenerates_the_checked_in_folder() {
    let copy = workspace().join("target").join("offline-prepare");
    copy_crate(&copy, false);
    // A model expanded before the others, so that the engine sees a different history in
    // this process than when the checked-in entries were written: derivations must not
    // depend on it.
    let models = copy.join("src").join("models.rs");
    let source = fs::read_to_string(&models).unwrap();
    let first = "#[derive(Lagrangian)]\n#[lagrangian(coordinates(u, v, w), kinetic = \"1/2*(dot(w)^2 + dot(v)^2 + dot(u)^2)\", potential = \"k2*w^3 + k1*u*v*w\")]\npub struct First {\n    pub k2: f64,\n    pub k1: f64,\n}\n\n";
    let at = source.find("/// The planar double pendulum.").unwrap();
    fs::write(
        &models,
        format!("{}{first}{}", &source[..at], &source[at..]),
    )
    .unwrap();
    let manifest = copy.join("Cargo.toml");
    // Shares the parallel-build test's target folder: symbolica is compiled once for both.
    let target = workspace()
        .join("target")
        .join("parallel-build")
        .join("target");
    let prepare = output(
        Command::new(env!("CARGO_BIN_EXE_lagrange"))
            .args(["prepare", "--manifest-path"])
            .arg(&manifest)
            .env("CARGO_TARGET_DIR", &target)
            .env("LAGRANGE_CACHE", "off")
            .env_remove("LAGRANGE_OFFLINE"),
    );
    assert!(
        prepare.status.success(),
        "prepare failed:\n{}",
        text(&prepare.stderr)
    );
    let mut prepared = entries(&copy.join(".lagrange"));
    prepared.retain(|(name, _)| !name.starts_with("First-"));
    let checked_in = entries(&offline_crate().join(".lagrange"));
    let names = |e: &[(String, Vec<u8>)]| e.iter().map(|(n, _)| n.clone()).collect::<Vec<_>>();
    assert_eq!(names(&prepared), names(&checked_in));
    for ((name, a), (_, b)) in prepared.iter().zip(&checked_in) {
        assert!(
            a == b,
            "`lagrange prepare` wrote another {name} than the checked-in one: run it on lagrange-cli/tests/offline-crate"
        );
    }

    let check = output(
        Command::new(env!("CARGO_BIN_EXE_lagrange"))
            .args(["prepare", "--check", "--manifest-path"])
            .arg(&manifest)
            .env("CARGO_TARGET_DIR", &target)
            .env_remove("LAGRANGE_OFFLINE"),
    );
    assert!(
        check.status.success(),
        "prepare --check failed:\n{}",
        text(&check.stderr)
    );
    assert!(text(&check.stdout).contains("up to date"));

    fs::remove_file(
        copy.join(".lagrange")
            .join(entries(&copy.join(".lagrange"))[0].0.clone()),
    )
    .unwrap();
    let check = output(
        Command::new(env!("CARGO_BIN_EXE_lagrange"))
            .args(["prepare", "--check", "--manifest-path"])
            .arg(&manifest)
            .env("CARGO_TARGET_DIR", &target)
            .env_remove("LAGRANGE_OFFLINE"),
    );
    assert!(!check.status.success());
    assert!(
        text(&check.stderr).contains("missing:"),
        "{}",
        text(&check.stderr)
    );
}
