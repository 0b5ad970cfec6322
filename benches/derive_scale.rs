//! How the derivation and the generated code scale with the size of the model: planar
//! n-link chains (`derive_scale/chains.rs`, written by `derive_scale/generate.py`),
//! declared by `T` and `V` written from the masses' positions in absolute angles (derived
//! by expanding the Lagrangian; n = 2, 4, 8, 16, 32), and as kinematic trees of revolute
//! joints in relative angles (derived by the composite-body and Newton–Euler recursions,
//! expanded too up to `EXPANDED_TREE_DEPTH` links; n = 2, 4, 8, 16 and 24, the deepest
//! tree the engine derives). For each
//! chain, one table row: the time
//! `lagrange_symbolic::derive` takes for the model the struct was derived from (with the
//! engine built in this bench's profile), the operations in the generated `M` and `f`, and
//! the time of one `accelerations` call (median over batches).
//!
//! `cargo bench --bench derive_scale --features derive-timing`; `-- 8` limits the rows to
//! chains of at most 8 links. The expansion's cost in a user's debug build is measured by
//! building, not here: see `docs/book/build-times.md`.

use lagrange::nalgebra::Const;
use lagrange::nalgebra::SVector;
use lagrange::{FromParameterValues, Lagrangian, LagrangianSystem};
use lagrange_symbolic::model::{Body, Joint, Model};
use std::hint::black_box;
use std::time::{Duration, Instant};

/// A derived chain together with the model it was derived from.
trait Chain<const N: usize>: FromParameterValues<Const<N>> {
    /// The written model, as the attribute gives it.
    fn model(&self) -> Model;
}

/// Declares a chain by `T` and `V` that derives `Lagrangian`.
macro_rules! chain {
    ($name:ident, [$($q:ident),*], $kinetic:tt, $potential:tt, [$($p:ident),*]) => {
        /// Planar chain of point masses on massless rods, absolute angles.
        #[derive(Lagrangian)]
        #[lagrangian(coordinates($($q),*), kinetic = $kinetic, potential = $potential)]
        pub struct $name {
            $($p: f64),*
        }

        impl Chain<{ [$(stringify!($q)),*].len() }> for $name {
            fn model(&self) -> Model {
                let info = self.info();
                Model {
                    name: info.name.to_string(),
                    coordinates: info.coordinates.iter().map(|c| c.to_string()).collect(),
                    parameters: info.parameters.iter().map(|p| p.to_string()).collect(),
                    kinetic: Some($kinetic.into()),
                    potential: Some($potential.into()),
                    ..Model::default()
                }
            }
        }
    };
}

/// Declares a chain as a kinematic tree that derives `Lagrangian`: body `bₖ` (mass `mₖ`
/// at `(lₖ, 0, 0)` in its frame) turns through `qₖ` about z at `(lₖ₋₁, 0, 0)` of its parent.
macro_rules! tree_chain {
    ($name:ident, [$($q:ident),*], [$($body:tt)*], [$($p:ident),*]) => {
        /// Planar chain of point masses on massless rods, relative angles, as a tree.
        #[derive(Lagrangian)]
        #[lagrangian(coordinates($($q),*), $($body)* gravity = ["g", "0", "0"])]
        pub struct $name {
            $($p: f64),*
        }

        impl Chain<{ [$(stringify!($q)),*].len() }> for $name {
            fn model(&self) -> Model {
                tree_model(&self.info().name, [$(stringify!($q)),*].len())
            }
        }
    };
}

/// The written model of `tree_chain!`'s chain of `n` links.
fn tree_model(name: &str, n: usize) -> Model {
    let three = |x: &str| vec![x.to_string(), "0".into(), "0".into()];
    Model {
        name: name.to_string(),
        coordinates: (1..=n).map(|k| format!("q{k}")).collect(),
        parameters: (1..=n)
            .map(|k| format!("m{k}"))
            .chain((1..=n).map(|k| format!("l{k}")))
            .chain(["g".to_string()])
            .collect(),
        gravity: Some(three("g")),
        bodies: (1..=n)
            .map(|k| Body {
                name: format!("b{k}"),
                mass: format!("m{k}"),
                inertia: vec!["0".into(); 3],
                parent: (k > 1).then(|| format!("b{}", k - 1)),
                joint: Some(Joint::Revolute(format!("q{k}"))),
                axis: vec!["0".into(), "0".into(), "1".into()],
                origin: if k > 1 {
                    three(&format!("l{}", k - 1))
                } else {
                    Vec::new()
                },
                com: three(&format!("l{k}")),
                ..Body::default()
            })
            .collect(),
        ..Model::default()
    }
}

include!("derive_scale/chains.rs");

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
fn row<S: Chain<N>, const N: usize>(form: &str) {
    let values: Vec<f64> = (0..S::PARAMETER_COUNT)
        .map(|i| 1.0 + 0.01 * i as f64)
        .collect();
    let system = S::from_parameter_values(&values).expect("parameter count");
    let model = system.model();

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
        "| {N:>2} | {form:<4} | {:>10.3} s | {operations:>10} | {:>10.1} ns |",
        derive.as_secs_f64(),
        per_call * 1e9
    );
}

/// A chain's number of links and the function that prints its table row.
type Row = (usize, fn(&str));

fn main() {
    // `cargo bench` passes `--bench`; a number limits the chains to that many links.
    let largest: usize = std::env::args()
        .skip(1)
        .find_map(|a| a.parse().ok())
        .unwrap_or(usize::MAX);
    println!("|  n | form |     derive   | operations | accelerations |");
    println!("|---:|------|-------------:|-----------:|--------------:|");
    let rows: [Row; 10] = [
        (2, row::<Chain2, 2>),
        (2, row::<TreeChain2, 2>),
        (4, row::<Chain4, 4>),
        (4, row::<TreeChain4, 4>),
        (8, row::<Chain8, 8>),
        (8, row::<TreeChain8, 8>),
        (16, row::<Chain16, 16>),
        (16, row::<TreeChain16, 16>),
        (32, row::<Chain32, 32>),
        (24, row::<TreeChain24, 24>),
    ];
    for (k, (_, row)) in rows.iter().enumerate().filter(|(_, (n, _))| *n <= largest) {
        row(if k % 2 == 0 { "T, V" } else { "tree" });
    }
}
