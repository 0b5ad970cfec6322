//! How the derivation and the generated code scale with the size of the model: planar
//! n-link chains (n = 2, 4, 8, 16, 32; `derive_scale/chains.rs`, written by
//! `derive_scale/generate.py`). For each chain, one table row: the time
//! `lagrange_symbolic::derive` takes for the model the struct was derived from (with the
//! engine built in this bench's profile), the operations in the generated `M` and `f`, and
//! the time of one `accelerations` call (median over batches).
//!
//! `cargo bench --bench derive_scale --features derive-timing`; `-- 8` limits the rows to
//! chains of at most 8 links. The expansion's cost in a user's debug build is measured by
//! building, not here: see the README's "Build times".

use lagrange::nalgebra::SVector;
use lagrange::{FromParameterValues, Lagrangian};
use lagrange_symbolic::model::Model;
use std::hint::black_box;
use std::time::{Duration, Instant};

/// A derived chain together with the energies it was derived from.
trait Chain<const N: usize>: FromParameterValues<N> {
    /// The kinetic energy as written in the struct's attribute.
    const KINETIC: &'static str;
    /// The potential energy as written in the struct's attribute.
    const POTENTIAL: &'static str;
}

/// Declares a chain that derives `Lagrangian` and keeps its energies for [`Chain`].
macro_rules! chain {
    ($name:ident, [$($q:ident),*], $kinetic:tt, $potential:tt, [$($p:ident),*]) => {
        /// Planar chain of point masses on massless rods, absolute angles.
        #[derive(Lagrangian)]
        #[lagrangian(coordinates($($q),*), kinetic = $kinetic, potential = $potential)]
        pub struct $name {
            $($p: f64),*
        }

        impl Chain<{ [$(stringify!($q)),*].len() }> for $name {
            const KINETIC: &'static str = $kinetic;
            const POTENTIAL: &'static str = $potential;
        }
    };
}

include!("derive_scale/chains.rs");

/// The written model of a chain: its coordinates and parameters as the derive recorded
/// them, its energies as the attribute wrote them.
fn model<S: Chain<N>, const N: usize>(system: &S) -> Model {
    let info = system.info();
    Model {
        name: info.name.to_string(),
        coordinates: info.coordinates.iter().map(|c| c.to_string()).collect(),
        parameters: info.parameters.iter().map(|p| p.to_string()).collect(),
        kinetic: Some(S::KINETIC.into()),
        potential: Some(S::POTENTIAL.into()),
        ..Model::default()
    }
}

/// Median of the times `run` takes, over `runs` runs.
fn median(runs: usize, mut run: impl FnMut()) -> Duration {
    let mut times: Vec<Duration> = (0..runs)
        .map(|_| {
            let start = Instant::now();
            run();
            start.elapsed()
        })
        .collect();
    times.sort();
    times[runs / 2]
}

/// One table row for the chain `S` of `N` links.
fn row<S: Chain<N>, const N: usize>() {
    let values: Vec<f64> = (0..S::PARAMETER_COUNT)
        .map(|i| 1.0 + 0.01 * i as f64)
        .collect();
    let system = S::from_parameter_values(&values).expect("parameter count");
    let model = model(&system);

    let derive_runs = if N <= 8 { 5 } else { 1 };
    let mut operations = 0;
    let derive = median(derive_runs, || {
        let derived = lagrange_symbolic::derive(black_box(&model)).expect("the chain is valid");
        operations = derived.full.programs.dynamics.operation_count();
    });

    let q = SVector::<f64, N>::from_fn(|i, _| 0.3 + 0.1 * i as f64);
    let qd = SVector::<f64, N>::from_fn(|i, _| 0.5 - 0.05 * i as f64);
    let call = || system.accelerations(0.0, black_box(&q), black_box(&qd));
    // Batches of about 20 ms each.
    let once = median(101, || {
        black_box(call()).expect("regular");
    });
    let calls = (20e-3 / once.as_secs_f64().max(1e-9)).ceil() as u32;
    let batch = median(21, || {
        for _ in 0..calls {
            black_box(call()).expect("regular");
        }
    });
    let per_call = batch.as_secs_f64() / f64::from(calls);

    println!(
        "| {N:>2} | {:>10.3} s | {operations:>10} | {:>10.1} ns |",
        derive.as_secs_f64(),
        per_call * 1e9
    );
}

fn main() {
    // `cargo bench` passes `--bench`; a number limits the chains to that many links.
    let largest: usize = std::env::args()
        .skip(1)
        .find_map(|a| a.parse().ok())
        .unwrap_or(usize::MAX);
    println!("|  n |     derive   | operations | accelerations |");
    println!("|---:|-------------:|-----------:|--------------:|");
    let rows: [(usize, fn()); 5] = [
        (2, row::<Chain2, 2>),
        (4, row::<Chain4, 4>),
        (8, row::<Chain8, 8>),
        (16, row::<Chain16, 16>),
        (32, row::<Chain32, 32>),
    ];
    for (_, row) in rows.iter().filter(|(n, _)| *n <= largest) {
        row();
    }
}
