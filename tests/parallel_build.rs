//! Symbolica's restricted mode aborts a process that starts a second concurrent symbolica
//! thread for the same user. Cargo expands the derive in several rustc processes at once,
//! so this test builds four crates that use it, concurrently (`-j2`), five times from a
//! clean state of those crates, and requires every build to succeed without the abort.
//!
//! It uses its own target directory under `target/` (the first run builds the engine
//! there once), and the workspace's `Cargo.lock`.

use std::path::{Path, PathBuf};
use std::process::Command;

const CRATES: usize = 4;
const ROUNDS: usize = 5;

fn crate_source(k: usize) -> String {
    format!(
        r#"use lagrange::Lagrangian;

#[derive(Lagrangian)]
#[lagrangian(
    coordinates(theta1, theta2),
    kinetic = "1/2*(m1+m2)*l1^2*dot(theta1)^2 + m2*l1*l2*cos(theta1-theta2)*dot(theta1)*dot(theta2) + 1/2*m2*l2^2*dot(theta2)^2",
    potential = "-(m1+m2)*g*l1*cos(theta1) - m2*g*l2*cos(theta2) + {k}*g",
)]
pub struct DoublePendulum {{ pub m1: f64, pub m2: f64, pub l1: f64, pub l2: f64, pub g: f64 }}

#[derive(Lagrangian)]
#[lagrangian(coordinates(r, phi), kinetic = "1/2*m*(dot(r)^2 + r^2*dot(phi)^2)", potential = "-{k}*m/r")]
pub struct Kepler {{ pub m: f64 }}

#[derive(Lagrangian)]
#[lagrangian(coordinates(x), kinetic = "1/2*m*dot(x)^2", potential = "1/2*k*x^2 + {k}*x^4")]
pub struct Oscillator {{ pub m: f64, pub k: f64 }}
"#
    )
}

fn write(path: &Path, contents: &str) {
    std::fs::create_dir_all(path.parent().unwrap()).unwrap();
    std::fs::write(path, contents).unwrap();
}

#[test]
fn four_crates_expand_concurrently_without_aborting() {
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR"));
    let dir = root.join("target").join("parallel-build");
    let members: Vec<String> = (0..CRATES).map(|k| format!("\"user{k}\"")).collect();
    write(
        &dir.join("Cargo.toml"),
        &format!(
            "[workspace]\nmembers = [{}]\nresolver = \"3\"\n",
            members.join(", ")
        ),
    );
    // The workspace's versions of the dependencies, which are the ones on the machine: an
    // `--offline` resolution without them picks the newest in the registry's index, which
    // need not have been downloaded.
    std::fs::copy(root.join("Cargo.lock"), dir.join("Cargo.lock")).unwrap();
    for k in 0..CRATES {
        write(
            &dir.join(format!("user{k}/Cargo.toml")),
            &format!(
                "[package]\nname = \"user{k}\"\nversion = \"0.0.0\"\nedition = \"2024\"\n\n[dependencies]\nlagrange = {{ path = {:?} }}\n",
                root.display().to_string()
            ),
        );
        write(&dir.join(format!("user{k}/src/lib.rs")), &crate_source(k));
    }
    let cargo = || {
        let mut command = Command::new(env!("CARGO"));
        command
            .current_dir(&dir)
            .env("CARGO_TARGET_DIR", dir.join("target"))
            // A second build of the engine: no debug information, no incremental state, so
            // that it takes little disk.
            .env("CARGO_PROFILE_DEV_DEBUG", "false")
            .env("CARGO_INCREMENTAL", "0")
            // Every round must run the engine: no cached derivations.
            .env("LAGRANGE_CACHE", "off")
            .env_remove("LAGRANGE_OFFLINE")
            .env_remove("RUSTFLAGS");
        command
    };
    for round in 0..ROUNDS {
        let mut clean = cargo();
        clean.arg("clean").arg("-q");
        for k in 0..CRATES {
            clean.arg("-p").arg(format!("user{k}"));
        }
        // On the very first run there is nothing to clean yet; that is fine.
        let _ = clean.status();
        let output = cargo()
            .args(["build", "-j2", "--offline"])
            .output()
            .unwrap();
        let stderr = String::from_utf8_lossy(&output.stderr);
        assert!(
            !stderr.contains("Cannot start another restricted Symbolica thread"),
            "round {round}: symbolica's restricted mode aborted the build:\n{stderr}"
        );
        assert!(
            output.status.success(),
            "round {round}: build failed:\n{stderr}"
        );
    }
}
