//! Real robots side by side with Pinocchio: a UR5, the Panda with its fingers, the
//! Solo-12's legs and the Unitree G1 humanoid (29 joints), derived at compile time from the
//! URDFs of example-robot-data (`lagrange-cli/tests/pinocchio/robots/`), timed per call at the same random states as
//! Pinocchio compiled natively from its headers (`benches/pinocchio/`), in one run:
//!
//! ```sh
//! benches/pinocchio/build.sh          # once: Pinocchio's side, from the `pin` wheel
//! PINOCCHIO_BENCH=target/pinocchio-bench cargo bench --bench robots
//! ```
//!
//! Without `PINOCCHIO_BENCH` only lagrange's side is timed. Forward dynamics is
//! `accelerations` (the URDF's joint damping included; Pinocchio's ABA is given the
//! damping torque `−d q̇`), the mass matrix `mass_matrix`, the forward dynamics' derivatives
//! `acceleration_jacobians` (Pinocchio: `computeABADerivatives`), and inverse dynamics
//! `M q̈ − f` from `mass_matrix_and_forcing` (Pinocchio: RNEA). Each figure is the best of
//! 5 rounds of calls cycling through 64 states.

use std::hint::black_box;
use std::path::Path;
use std::process::Command;
use std::time::Instant;

use lagrange::nalgebra::{Const, SVector};
use lagrange::{Lagrangian, LagrangianSystem};

#[derive(Lagrangian)]
#[lagrangian(urdf = "lagrange-cli/tests/pinocchio/robots/ur5.urdf")]
struct Ur5 {
    g: f64,
}

#[derive(Lagrangian)]
#[lagrangian(
    urdf = "lagrange-cli/tests/pinocchio/robots/panda.urdf",
    fixed_joint_merge
)]
struct Panda {
    g: f64,
}

#[derive(Lagrangian)]
#[lagrangian(urdf = "lagrange-cli/tests/pinocchio/robots/solo12.urdf")]
struct Solo12 {
    g: f64,
}

#[derive(Lagrangian)]
#[lagrangian(
    urdf = "lagrange-cli/tests/pinocchio/robots/g1.urdf",
    fixed_joint_merge
)]
struct G1 {
    g: f64,
}

const STATES: usize = 64;
const ROUNDS: usize = 20_000;

/// The best of 5 rounds of `ROUNDS` calls of `call` on the states in turn, in ns per call.
fn time(mut call: impl FnMut(usize)) -> f64 {
    (0..5)
        .map(|_| {
            let start = Instant::now();
            for i in 0..ROUNDS {
                call(i % STATES);
            }
            start.elapsed().as_nanos() as f64 / ROUNDS as f64
        })
        .fold(f64::INFINITY, f64::min)
}

/// Uniform numbers in (−1, 1) from a fixed seed (SplitMix64).
fn uniform(seed: &mut u64) -> f64 {
    *seed = seed.wrapping_add(0x9E37_79B9_7F4A_7C15);
    let mut z = *seed;
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^= z >> 31;
    2.0 * (z >> 11) as f64 / (1u64 << 53) as f64 - 1.0
}

/// Pinocchio's figures for a robot: ns per call of fd, id, m, dfd, and its accelerations
/// at each state in lagrange's coordinate order.
struct Pinocchio {
    ns: [f64; 4],
    ddq: Vec<Vec<f64>>,
}

fn pinocchio(
    program: &str,
    urdf: &Path,
    coordinates: &[&str],
    states: &[(Vec<f64>, Vec<f64>)],
) -> Pinocchio {
    // Pinocchio orders the joints depth first, lagrange breadth first: by name.
    let dir = std::env::temp_dir().join(format!("lagrange-robots-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let names = |out: &str| -> Vec<String> {
        out.lines()
            .find_map(|l| l.strip_prefix("joints "))
            .unwrap()
            .split(' ')
            .map(str::to_string)
            .collect()
    };
    // First its joints' order, from a run on no states.
    let empty = dir.join("none.txt");
    std::fs::write(&empty, "").unwrap();
    let run = |file: &Path, rounds: usize| {
        let output = Command::new(program)
            .arg(urdf)
            .arg(file)
            .arg(rounds.to_string())
            .output()
            .unwrap_or_else(|e| panic!("{program}: {e}"));
        assert!(output.status.success(), "{program} failed: {output:?}");
        String::from_utf8(output.stdout).unwrap()
    };
    let order = names(&run(&empty, 0));
    let index: Vec<usize> = order
        .iter()
        .map(|j| coordinates.iter().position(|c| c == j).unwrap())
        .collect();
    let lines: Vec<String> = states
        .iter()
        .map(|(q, v)| {
            let pick = |x: &[f64]| {
                index
                    .iter()
                    .map(|&i| format!("{:e}", x[i]))
                    .collect::<Vec<_>>()
            };
            [pick(q), pick(v)].concat().join(" ")
        })
        .collect();
    let file = dir.join("states.txt");
    std::fs::write(&file, lines.join("\n") + "\n").unwrap();
    let out = run(&file, ROUNDS);
    std::fs::remove_dir_all(&dir).unwrap();
    let value = |key: &str| -> f64 {
        out.lines()
            .find_map(|l| l.strip_prefix(key).and_then(|r| r.strip_prefix(' ')))
            .unwrap()
            .parse()
            .unwrap()
    };
    let ddq = out
        .lines()
        .filter_map(|l| l.strip_prefix("ddq "))
        .map(|l| {
            let theirs: Vec<f64> = l.split(' ').map(|x| x.parse().unwrap()).collect();
            let mut ours_order = vec![0.0; theirs.len()];
            for (k, &i) in index.iter().enumerate() {
                ours_order[i] = theirs[k];
            }
            ours_order
        })
        .collect();
    Pinocchio {
        ns: [value("fd"), value("id"), value("m"), value("dfd")],
        ddq,
    }
}

fn robot<S: LagrangianSystem<Const<N>>, const N: usize>(name: &str, system: &S, urdf: &str) {
    let mut seed = 20_261_204u64;
    let states: Vec<(SVector<f64, N>, SVector<f64, N>)> = (0..STATES)
        .map(|_| {
            let q = SVector::from_fn(|_, _| uniform(&mut seed));
            let qd = SVector::from_fn(|_, _| uniform(&mut seed));
            (q, qd)
        })
        .collect();
    let fd = time(|i| {
        let (q, qd) = &states[i];
        black_box(system.accelerations(0.0, black_box(q), black_box(qd)).ok());
    });
    let id = time(|i| {
        let (q, qd) = &states[i];
        let (m, f) = system.mass_matrix_and_forcing(0.0, black_box(q), black_box(qd));
        black_box(m * qd - f);
    });
    let m = time(|i| {
        let (q, qd) = &states[i];
        black_box(system.mass_matrix(0.0, black_box(q), black_box(qd)));
    });
    let dfd = time(|i| {
        let (q, qd) = &states[i];
        black_box(
            system
                .acceleration_jacobians(0.0, black_box(q), black_box(qd))
                .ok(),
        );
    });
    let ours = [fd, id, m, dfd];
    let Ok(program) = std::env::var("PINOCCHIO_BENCH") else {
        println!(
            "{name:8} {N:2} joints  FD {fd:8.0} ns  ID {id:8.0} ns  M {m:8.0} ns  ∇FD {dfd:8.0} ns"
        );
        return;
    };
    let coordinates: Vec<&str> = system.info().coordinates.iter().map(|c| &**c).collect();
    let plain: Vec<(Vec<f64>, Vec<f64>)> = states
        .iter()
        .map(|(q, qd)| (q.as_slice().to_vec(), qd.as_slice().to_vec()))
        .collect();
    let urdf = Path::new(env!("CARGO_MANIFEST_DIR")).join(urdf);
    let theirs = pinocchio(&program, &urdf, &coordinates, &plain);
    let mut difference = 0.0f64;
    for ((q, qd), ddq) in states.iter().zip(&theirs.ddq) {
        let ours = system.accelerations(0.0, q, qd).unwrap();
        let scale = ddq.iter().fold(1.0f64, |s, x| s.max(x.abs()));
        for (a, b) in ours.iter().zip(ddq) {
            difference = difference.max((a - b).abs() / scale);
        }
    }
    for (what, (ours, theirs)) in ["FD", "ID", "M", "∇FD"]
        .iter()
        .zip(ours.iter().zip(theirs.ns))
    {
        println!(
            "{name:8} {N:2} joints  {what:4} lagrange {ours:8.0} ns  Pinocchio {theirs:8.0} ns  Pinocchio ÷ lagrange {:5.2}",
            theirs / ours
        );
    }
    println!("{name:8} largest difference of q̈ from Pinocchio's: {difference:.1e} (relative)");
}

fn main() {
    // `cargo bench` passes `--bench`; `cargo test` runs benches once as tests: skip then.
    if !std::env::args().any(|a| a == "--bench") {
        return;
    }
    robot(
        "UR5",
        &Ur5 { g: 9.81 },
        "lagrange-cli/tests/pinocchio/robots/ur5.urdf",
    );
    robot(
        "Panda",
        &Panda { g: 9.81 },
        "lagrange-cli/tests/pinocchio/robots/panda.urdf",
    );
    robot(
        "Solo-12",
        &Solo12 { g: 9.81 },
        "lagrange-cli/tests/pinocchio/robots/solo12.urdf",
    );
    robot(
        "G1",
        &G1 { g: 9.81 },
        "lagrange-cli/tests/pinocchio/robots/g1.urdf",
    );
}
