//! Wall time of the work `#[derive(Lagrangian)]` does at expansion (checking the model,
//! deriving the equations, building the optimized programs) for planar n-link chains
//! whose kinetic energy is written from the positions of the point masses, as in
//! `benches/accelerations.rs`.
//!
//! Also the expansion's cost with the on-disk cache of derivations: cold (derive, then
//! store the entry) and warm (read the stored entry), in a fresh cache folder.
//!
//! Run it in the dev profile, which is how cargo builds the engine for the proc macro
//! (optimization level 0): `cargo run -p lagrange-symbolic --example derive_timing`.

use std::time::{Duration, Instant};

use lagrange_symbolic::model::Model;
use lagrange_symbolic::store;

fn chain(n: usize) -> Model {
    let sum =
        |f: &dyn Fn(usize) -> String, k: usize| (1..=k).map(f).collect::<Vec<_>>().join(" + ");
    let kinetic = (1..=n)
        .map(|k| {
            let x = sum(&|j| format!("l{j}*cos(theta{j})*dot(theta{j})"), k);
            let y = sum(&|j| format!("l{j}*sin(theta{j})*dot(theta{j})"), k);
            format!("1/2*m{k}*(({x})^2 + ({y})^2)")
        })
        .collect::<Vec<_>>()
        .join(" + ");
    let height = |k| format!("m{k}*({})", sum(&|j| format!("l{j}*cos(theta{j})"), k));
    let potential = format!(
        "-g*({})",
        (1..=n).map(height).collect::<Vec<_>>().join(" + ")
    );
    Model {
        name: format!("Chain{n}"),
        coordinates: (1..=n).map(|i| format!("theta{i}")).collect(),
        parameters: (1..=n)
            .map(|i| format!("m{i}"))
            .chain((1..=n).map(|i| format!("l{i}")))
            .chain(["g".to_string()])
            .collect(),
        kinetic: Some(kinetic),
        potential: Some(potential),
        ..Model::default()
    }
}

fn main() {
    println!("chain  median of 5 runs: derive | cache cold | cache warm   operations in M and f");
    let cache = std::env::temp_dir().join(format!("lagrange-derive-timing-{}", std::process::id()));
    for n in [2, 4, 8] {
        let model = chain(n);
        let mut times: [Vec<Duration>; 3] = Default::default();
        let mut operations = 0;
        for _ in 0..5 {
            let start = Instant::now();
            let derived = lagrange_symbolic::derive(&model).expect("the chain model is valid");
            times[0].push(start.elapsed());
            operations = derived.full.programs.dynamics.operation_count();

            let _ = std::fs::remove_dir_all(&cache);
            let start = Instant::now();
            let cold = store::derive_cached(&model, Some(&cache)).expect("valid");
            times[1].push(start.elapsed());
            let start = Instant::now();
            let warm = store::derive_cached(&model, Some(&cache)).expect("valid");
            times[2].push(start.elapsed());
            assert_eq!(cold, warm, "the stored derivation reads back unchanged");
        }
        let median = |t: &mut Vec<Duration>| {
            t.sort();
            t[2].as_secs_f64() * 1e3
        };
        let [derive, cold, warm] = &mut times;
        println!(
            "n = {n:<2}  {:>10.1} ms | {:>7.1} ms | {:>7.2} ms   {operations}",
            median(derive),
            median(cold),
            median(warm)
        );
    }
    let _ = std::fs::remove_dir_all(&cache);
}
