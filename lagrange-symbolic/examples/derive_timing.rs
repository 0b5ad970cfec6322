//! Wall time of the work `#[derive(Lagrangian)]` does at expansion (checking the model,
//! deriving the equations, building the optimized programs) for planar n-link chains
//! whose kinetic energy is written from the positions of the point masses, as in
//! `benches/accelerations.rs`.
//!
//! Run it in the dev profile, which is how cargo builds the engine for the proc macro
//! (optimization level 0): `cargo run -p lagrange-symbolic --example derive_timing`.

use std::time::{Duration, Instant};

use lagrange_symbolic::model::Model;

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
    println!("chain  median derive time (5 runs)  operations in M and f");
    for n in [2, 4, 8] {
        let model = chain(n);
        let mut times: Vec<Duration> = Vec::new();
        let mut operations = 0;
        for _ in 0..5 {
            let start = Instant::now();
            let equations = lagrange_symbolic::derive(&model).expect("the chain model is valid");
            times.push(start.elapsed());
            operations = equations.full.programs.dynamics.operation_count();
        }
        times.sort();
        println!(
            "n = {n:<2}  {:>12.1} ms                 {operations}",
            times[2].as_secs_f64() * 1e3
        );
    }
}
