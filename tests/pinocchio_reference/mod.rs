//! What Pinocchio computes for real robots at random states (recorded from the `pin`
//! wheel by `lagrange-cli/tests/pinocchio/record.py`), and its comparison with a system
//! the derive made from the same URDF: shared by `from_files.rs` and `robots.rs`.

use lagrange::LagrangianSystem;
use lagrange::nalgebra::{Const, SVector};
use serde_json::Value;

/// The largest differences of a derived system from Pinocchio's values over the recorded
/// states, each relative to the largest entry of Pinocchio's (at least 1).
#[derive(Debug, Default)]
pub struct Differences {
    /// The forward dynamics `q̈` (ABA), the URDF's damping torque `−d v` applied.
    pub accelerations: f64,
    /// The mass matrix (CRBA).
    pub mass_matrix: f64,
    /// The bias forces `C(q, v) v + g(q)` (RNEA at zero acceleration), without damping.
    pub bias: f64,
    /// The gravity torques `g(q)`.
    pub gravity: f64,
    /// Inverse dynamics at accelerations chosen here, against Pinocchio's
    /// `M a + C(q, v) v + g(q)` and the damping torque `d v`.
    pub inverse_dynamics: f64,
}

impl Differences {
    /// Panics naming the first quantity that differs by more than `tolerance`.
    pub fn assert_within(&self, robot: &str, tolerance: f64) {
        for (what, d) in [
            ("q̈", self.accelerations),
            ("M", self.mass_matrix),
            ("the bias forces", self.bias),
            ("the gravity torques", self.gravity),
            ("the inverse dynamics", self.inverse_dynamics),
        ] {
            assert!(
                d < tolerance,
                "{robot}: {what} differ from Pinocchio's by {d:e} (relative); {self:?}"
            );
        }
    }
}

fn numbers(v: &Value) -> Vec<f64> {
    v.as_array()
        .expect("an array")
        .iter()
        .map(|x| x.as_f64().expect("a number"))
        .collect()
}

/// The largest of `|ours − theirs|` relative to Pinocchio's largest entry (at least 1);
/// infinite when one of ours is not a number (`f64::max` would pass over it).
fn relative(ours: impl IntoIterator<Item = f64>, theirs: &[f64]) -> f64 {
    let scale = theirs.iter().fold(1.0f64, |m, x| m.max(x.abs()));
    ours.into_iter()
        .zip(theirs)
        .map(|(a, b)| (a - b).abs())
        .map(|d| if d.is_nan() { f64::INFINITY } else { d })
        .fold(0.0, f64::max)
        / scale
}

/// Compares `system` (gravity 9.81, every input 0) with the recording of `robot`. The
/// coordinates are matched to Pinocchio's joints by name.
pub fn compare<S: LagrangianSystem<Const<N>>, const N: usize>(
    system: &S,
    robot: &str,
) -> Differences {
    let path = format!(
        "{}/lagrange-cli/tests/pinocchio/{robot}.json",
        env!("CARGO_MANIFEST_DIR")
    );
    let recorded: Value =
        serde_json::from_str(&std::fs::read_to_string(path).expect("the recording")).expect("JSON");
    let coordinates = &system.info().coordinates;
    let index: Vec<usize> = recorded["joints"]
        .as_array()
        .expect("joints")
        .iter()
        .map(|j| {
            let j = j.as_str().expect("a name");
            // The import names a joint's coordinate after it, with `_2` when a link
            // already has its name (the SO-100's `gripper`).
            coordinates
                .iter()
                .position(|c| **c == *j)
                .or_else(|| coordinates.iter().position(|c| **c == format!("{j}_2")))
                .unwrap_or_else(|| panic!("no coordinate {j}"))
        })
        .collect();
    assert_eq!(index.len(), N, "{robot}: the joints");
    let damping = numbers(&recorded["damping"]);
    let mut worst = Differences::default();
    for state in recorded["states"].as_array().expect("states") {
        let (mut q, mut v) = (SVector::<f64, N>::zeros(), SVector::<f64, N>::zeros());
        for (k, &i) in index.iter().enumerate() {
            q[i] = numbers(&state["q"])[k];
            v[i] = numbers(&state["v"])[k];
        }
        let qdd = system.accelerations(0.0, &q, &v).expect("q̈");
        let (m, f) = system.mass_matrix_and_forcing(0.0, &q, &v);
        let at_rest = system.forcing(0.0, &q, &SVector::zeros());
        let theirs_m: Vec<f64> = state["mass_matrix"]
            .as_array()
            .expect("M")
            .iter()
            .flat_map(numbers)
            .collect();
        let ours_m = index
            .iter()
            .flat_map(|&i| index.iter().map(move |&j| (i, j)))
            .map(|(i, j)| m[(i, j)]);
        // Accelerations of no particular meaning, the same at every state.
        let a: Vec<f64> = (0..N).map(|k| (0.7 * k as f64 + 0.3).sin()).collect();
        let mut qdd_a = SVector::<f64, N>::zeros();
        for (k, &i) in index.iter().enumerate() {
            qdd_a[i] = a[k];
        }
        let tau = system.inverse_dynamics(0.0, &q, &v, &qdd_a);
        let theirs_tau: Vec<f64> = (0..N)
            .map(|k| {
                let row = &theirs_m[k * N..(k + 1) * N];
                let ma: f64 = row.iter().zip(&a).map(|(m, a)| m * a).sum();
                ma + numbers(&state["bias"])[k] + damping[k] * numbers(&state["v"])[k]
            })
            .collect();
        let found = Differences {
            accelerations: relative(index.iter().map(|&i| qdd[i]), &numbers(&state["ddq"])),
            mass_matrix: relative(ours_m, &theirs_m),
            // M q̈ = f = τ − (C v + g) − d v at τ = 0.
            bias: relative(
                index
                    .iter()
                    .enumerate()
                    .map(|(k, &i)| -f[i] - damping[k] * v[i]),
                &numbers(&state["bias"]),
            ),
            gravity: relative(
                index.iter().map(|&i| -at_rest[i]),
                &numbers(&state["gravity"]),
            ),
            inverse_dynamics: relative(index.iter().map(|&i| tau[i]), &theirs_tau),
        };
        worst = Differences {
            accelerations: worst.accelerations.max(found.accelerations),
            mass_matrix: worst.mass_matrix.max(found.mass_matrix),
            bias: worst.bias.max(found.bias),
            gravity: worst.gravity.max(found.gravity),
            inverse_dynamics: worst.inverse_dynamics.max(found.inverse_dynamics),
        };
    }
    worst
}
