//! Models loaded at run time (`lagrange::loaded`, what the `lagrange` command runs) beside
//! the derive's compiled code, in one run: the same equations three ways — the derive's
//! struct (sizes fixed by the type), loaded with its programs compiled on load (Cranelift)
//! and loaded with its programs interpreted (`LAGRANGE_JIT=0`):
//!
//! ```sh
//! cargo bench --features loaded,derive-timing --bench loaded
//! ```
//!
//! For each robot (a UR5, the Unitree G1 humanoid, IIT's Centauro; derived at compile time
//! for the struct, by the engine at run time for the loaded model, from the same URDF):
//! the seconds compiling its dynamics' and its residual derivatives' programs takes, then
//! ns per call of forward dynamics and its derivatives (best of 5 rounds over 64 random
//! states, each round timing every way in turn: the loaded model compiles its programs
//! in the first round, once they have run
//! `lagrange::loaded::COMPILE_AFTER` times), and the largest difference of `q̈` from the
//! struct's. Then the double pendulum of
//! `examples/models/double_pendulum.toml` integrated for 10 s with RK4 at `dt = 1e-5`
//! (10⁶ steps), recording every 0.01 s, as `lagrange simulate` does, each way (the best
//! of 5 rounds). `ROBOT=G1` times
//! one robot; `BACKEND=compiled` (or `interpreted`) one way of loading, for a profiler.

use std::hint::black_box;
use std::time::Instant;

use lagrange::core::{Batch, BatchStates, DimAllocator, JacobianBuffers, Phase};
use lagrange::loaded::{Backend, Loaded};
use lagrange::nalgebra::{Const, DVector, DefaultAllocator, Dim, Dyn, OVector, SVector};
use lagrange::{FromParameterValues, Integrator, Lagrangian, LagrangianSystem, Simulation};
use lagrange_symbolic::equations::Equations;
use lagrange_symbolic::ir::jit::Compiled;
use lagrange_symbolic::source::{self, urdf};

#[path = "shared/robots.rs"]
#[allow(dead_code)]
mod robots;
use robots::{Centauro, G1, Ur5, gravity, states};

#[derive(Lagrangian)]
#[lagrangian(model = "examples/models/double_pendulum.toml")]
struct DoublePendulum {
    m1: f64,
    m2: f64,
    l1: f64,
    l2: f64,
    g: f64,
}

const ROUNDS: usize = 2_000;

/// ns per call of `call(i)` over `ROUNDS` calls, `i` running over the states: one round.
fn once(mut call: impl FnMut(usize)) -> f64 {
    let clock = Instant::now();
    for i in 0..ROUNDS {
        call(i % robots::STATES);
    }
    clock.elapsed().as_nanos() as f64 / ROUNDS as f64
}

/// The equations of the URDF at `path` (relative to the repository), imported `actuated`
/// as the structs are, derived by the engine now.
fn derived(path: &str, merge_fixed: bool) -> Equations {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join(path);
    let text = source::read_file(&path).expect("the URDF");
    let options = urdf::Options {
        merge_fixed,
        actuated: true,
    };
    let model = urdf::import(&text, options).expect("imported").model;
    lagrange_symbolic::derive(&model).expect("derived").full
}

/// One robot under gravity (`g = 9.81`, its joint torques at 0): the struct `S` and the
/// equations of `path` loaded both ways.
fn robot<S: FromParameterValues<Const<N>> + Sync, const N: usize>(
    name: &str,
    path: &str,
    merge_fixed: bool,
) {
    if std::env::var("ROBOT").is_ok_and(|only| only != name) {
        return;
    }
    let equations = derived(path, merge_fixed);
    let system = &gravity::<S, N>();
    let values = system.parameter_values();
    let states: Vec<Phase<Const<N>>> = states(20_261_207);
    let dynamic: Vec<Phase<Dyn>> = states
        .iter()
        .map(|(q, qd)| {
            (
                DVector::from_column_slice(q.as_slice()),
                DVector::from_column_slice(qd.as_slice()),
            )
        })
        .collect();
    // Each round times every way in turn, so that a slower spell of this machine does not
    // fall on one of them only; the best of 5 rounds each (the loaded models compile their
    // programs in the first).
    let loaded: Vec<(Loaded, &str)> = backends()
        .map(|(backend, label)| {
            let system = Loaded::with_backend(&equations, &values, backend).expect("loaded");
            (system, label)
        })
        .collect();
    let mut best = vec![(f64::INFINITY, f64::INFINITY); 1 + loaded.len()];
    let keep = |best: &mut (f64, f64), (fd, dfd): (f64, f64)| {
        *best = (best.0.min(fd), best.1.min(dfd));
    };
    for _ in 0..5 {
        keep(&mut best[0], per_call(system, &states));
        for (k, (loaded, _)) in loaded.iter().enumerate() {
            keep(&mut best[k + 1], per_call(loaded, &dynamic));
        }
    }
    let (fd, dfd) = best[0];
    println!("{name:8} {N:2} joints  derive       FD {fd:9.0} ns  ∇FD {dfd:9.0} ns");
    throughput(name, "derive", system, &states, fd, dfd);
    for (what, program) in [
        ("dynamics", &equations.programs.dynamics),
        (
            "residual derivatives",
            &equations.programs.residual_jacobians,
        ),
    ] {
        let clock = Instant::now();
        let compiled = Compiled::new(program).expect("compiled");
        println!(
            "{name:8} {N:2} joints  compiling the {what} ({} instructions): {:.3} s, {} functions",
            program.instructions.len(),
            clock.elapsed().as_secs_f64(),
            compiled.functions()
        );
    }
    for ((loaded, label), &(fd_loaded, dfd_loaded)) in loaded.iter().zip(&best[1..]) {
        throughput(name, label, loaded, &dynamic, fd_loaded, dfd_loaded);
        let difference = states
            .iter()
            .zip(&dynamic)
            .map(|((q, qd), (dq, dqd))| {
                let a = system.accelerations(0.0, q, qd).expect("q̈");
                let b = loaded.accelerations(0.0, dq, dqd).expect("q̈");
                (0..N)
                    .map(|k| (a[k] - b[k]).abs() / a[k].abs().max(1.0))
                    .fold(0.0, f64::max)
            })
            .fold(0.0, f64::max);
        println!(
            "{name:8} {N:2} joints  {label:11}  FD {fd_loaded:9.0} ns  ∇FD {dfd_loaded:9.0} ns  \
             ({:.2}×, {:.2}× the derive's)  q̈ differs by {difference:.1e}",
            fd_loaded / fd,
            dfd_loaded / dfd,
        );
    }
}

/// ns per call of forward dynamics and of its derivatives at `states` (at `t = 0`), one
/// round of `ROUNDS` calls each.
fn per_call<S: LagrangianSystem<N>, N: Dim>(system: &S, states: &[Phase<N>]) -> (f64, f64)
where
    DefaultAllocator: DimAllocator<N>,
{
    let fd = once(|i| {
        let (q, qd) = &states[i];
        black_box(system.accelerations(0.0, black_box(q), black_box(qd)).ok());
    });
    let dfd = once(|i| {
        let (q, qd) = &states[i];
        let jacobians = system.acceleration_jacobians(0.0, black_box(q), black_box(qd));
        black_box(&jacobians);
    });
    (fd, dfd)
}

/// States per second per core of forward dynamics and of its derivatives over a batch
/// (`Batch`: 64 batches of the states, at `t = 0`, repeated to 4,096, into buffers made
/// once), beside single calls of `fd` and `dfd` ns.
fn throughput<S: Batch<N>, N: Dim>(
    name: &str,
    label: &str,
    system: &S,
    states: &[Phase<N>],
    fd: f64,
    dfd: f64,
) where
    DefaultAllocator: DimAllocator<N>,
{
    const M: usize = 4096;
    let (n, p) = (
        system.info().coordinates.len(),
        system.info().parameters.len(),
    );
    let flat = |pick: fn(&Phase<N>) -> &OVector<f64, N>| -> Vec<f64> {
        states
            .iter()
            .cycle()
            .take(M)
            .flat_map(|state| pick(state).iter().copied())
            .collect()
    };
    let (q, qd) = (flat(|s| &s.0), flat(|s| &s.1));
    let batch = BatchStates {
        t: 0.0,
        q: &q,
        qd: &qd,
    };
    let mut qdd = vec![0.0; M * n];
    let (mut dq, mut dqd, mut dp) = (
        vec![0.0; M * n * n],
        vec![0.0; M * n * n],
        vec![0.0; M * n * p],
    );
    let cores = std::thread::available_parallelism().map_or(1, |n| n.get()) as f64;
    let rate = |seconds: f64| (64 * M) as f64 / seconds / cores;
    let clock = Instant::now();
    for _ in 0..64 {
        black_box(system.accelerations_into(black_box(batch), &mut qdd)).expect("q̈");
    }
    let fd_batch = rate(clock.elapsed().as_secs_f64());
    let clock = Instant::now();
    for _ in 0..64 {
        let buffers = JacobianBuffers {
            accelerations: &mut qdd,
            coordinates: &mut dq,
            velocities: &mut dqd,
            parameters: &mut dp,
        };
        black_box(system.acceleration_jacobians_into(black_box(batch), buffers)).expect("∇q̈");
    }
    let dfd_batch = rate(clock.elapsed().as_secs_f64());
    println!(
        "{name:8} {label:11} batches of 4,096 on {cores} cores: FD {fd_batch:.3e} states/s/core \
         ({:.2}× single calls), ∇FD {dfd_batch:.3e} ({:.2}×)",
        fd_batch * fd * 1e-9,
        dfd_batch * dfd * 1e-9
    );
}

/// The ways of loading timed: both, or the one `BACKEND` names.
fn backends() -> impl Iterator<Item = (Backend, &'static str)> {
    [
        (Backend::Compiled, "compiled"),
        (Backend::Interpreted, "interpreted"),
    ]
    .into_iter()
    .filter(|(_, label)| {
        std::env::var("BACKEND").is_ok_and(|only| only == *label)
            || std::env::var("BACKEND").is_err()
    })
}

/// The double pendulum's run each way, in seconds: the best of 5 rounds, each running every
/// way once in turn (this machine's times move by a fifth from run to run).
fn pendulum() {
    if std::env::var("ROBOT").is_ok() {
        return;
    }
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("examples/models/double_pendulum.toml");
    let text = source::read_file(&path).expect("the model file");
    let model = source::model_of(&text).expect("the model");
    let equations = lagrange_symbolic::derive(&model).expect("derived").full;
    let values = [1.0, 1.0, 1.0, 1.0, 9.81];
    let half_pi = std::f64::consts::FRAC_PI_2;
    let integrator = Integrator::Rk4 { dt: 1e-5 };
    let system = DoublePendulum {
        m1: 1.0,
        m2: 1.0,
        l1: 1.0,
        l2: 1.0,
        g: 9.81,
    };
    let loaded: Vec<_> = backends()
        .map(|(backend, label)| {
            let system = Loaded::with_backend(&equations, &values, backend).expect("loaded");
            (system, label)
        })
        .collect();
    let mut derive = f64::INFINITY;
    let mut best = vec![f64::INFINITY; loaded.len()];
    let mut same = vec![true; loaded.len()];
    for _ in 0..5 {
        let clock = Instant::now();
        let run = Simulation::new(&system)
            .integrator(integrator)
            .max_steps(2_000_000)
            .output_interval(0.01)
            .run(0.0, SVector::from([half_pi; 2]), SVector::zeros(), 10.0)
            .expect("the run");
        derive = derive.min(clock.elapsed().as_secs_f64());
        let last = run.q().last().expect("a sample")[0];
        for (k, (system, _)) in loaded.iter().enumerate() {
            let clock = Instant::now();
            let run = Simulation::new(system)
                .integrator(integrator)
                .max_steps(2_000_000)
                .output_interval(0.01)
                .run(
                    0.0,
                    DVector::from_element(2, half_pi),
                    DVector::zeros(2),
                    10.0,
                )
                .expect("the run");
            best[k] = best[k].min(clock.elapsed().as_secs_f64());
            same[k] &= run.q().last().expect("a sample")[0].to_bits() == last.to_bits();
        }
    }
    println!("double pendulum, 10⁶ RK4 steps: derive {derive:.3} s");
    for (k, (_, label)) in loaded.iter().enumerate() {
        println!(
            "double pendulum, 10⁶ RK4 steps: {label} {:.3} s ({:.2}× the derive's; last θ₁ {})",
            best[k],
            best[k] / derive,
            if same[k] { "bit for bit" } else { "DIFFERS" }
        );
    }
}

fn main() {
    // `cargo bench` passes `--bench`; `cargo test` runs benches once as tests: skip then.
    if !std::env::args().any(|a| a == "--bench") {
        return;
    }
    pendulum();
    robot::<Ur5, 6>("UR5", "lagrange-cli/tests/pinocchio/robots/ur5.urdf", false);
    robot::<G1, 29>("G1", "lagrange-cli/tests/pinocchio/robots/g1.urdf", true);
    robot::<Centauro, 39>(
        "Centauro",
        "lagrange-cli/tests/pinocchio/robots/centauro.urdf",
        true,
    );
}
