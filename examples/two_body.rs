//! Two bodies attracting each other by Newton's law, in Cartesian coordinates
//! (`examples/models/two_body.toml`). No coordinate is cyclic, yet the engine finds the
//! momentum and the angular momentum conserved: the model admits translations along and
//! rotations about every axis. Over one period of the bound orbit the virial theorem gives
//! `2⟨T⟩ = −⟨V⟩`, and Kepler's `⟨V⟩ = −k m₁ m₂ / a`.
//!
//! `cargo run --release --example two_body`

use lagrange::nalgebra::Vector6;
use lagrange::{Integrator, Lagrangian, LagrangianSystem, Simulation};

/// Masses `m1`, `m2`; `V = −k m₁ m₂ / |r₁ − r₂|`.
#[derive(Lagrangian)]
#[lagrangian(
    coordinates(x1, y1, z1, x2, y2, z2),
    particle(name = a, mass = "m1", position = ["x1", "y1", "z1"]),
    particle(name = b, mass = "m2", position = ["x2", "y2", "z2"]),
    potential = "-k*m1*m2/sqrt((x1 - x2)^2 + (y1 - y2)^2 + (z1 - z2)^2)",
)]
pub struct TwoBody {
    pub m1: f64,
    pub m2: f64,
    pub k: f64,
}

fn main() -> Result<(), lagrange::Error> {
    let bodies = TwoBody {
        m1: 1.0,
        m2: 3.0,
        k: 1.0,
    };
    println!("General theorems of {}:", TwoBody::INFO.name);
    for theorem in TwoBody::INFO.theorems.iter() {
        let verdict = match (theorem.holds, theorem.integral) {
            (true, true) => "integral",
            (true, false) => "balance law",
            (false, _) => "not established",
        };
        println!("  {:<22} {verdict}: {}", theorem.theorem.law(), theorem.why);
    }

    // The file's state: the centre of mass drifting, the orbit tilted.
    let q0 = Vector6::new(-0.75, -0.15, 0.075, 0.25, 0.05, -0.025);
    let qd0 = Vector6::new(0.225, -1.25, -0.275, 0.325, 0.15, 0.225);
    let run = Simulation::new(&bodies)
        .integrator(Integrator::dormand_prince(1e-12, 1e-12))
        .run(0.0, q0, qd0, 20.0)?;
    println!("\n{}", run.drift_table());

    // One period of the relative orbit with the centre of mass at rest: the virial
    // theorem with n = −1.
    let (m1, m2, k) = (bodies.m1, bodies.m2, bodies.k);
    let total = m1 + m2;
    let (r, v) = (1.0f64, [0.0, 0.8, 0.3]);
    let speed2: f64 = v.iter().map(|x| x * x).sum();
    let energy = 0.5 * m1 * m2 / total * speed2 - k * m1 * m2 / r;
    let a = -k * m1 * m2 / (2.0 * energy);
    let period = 2.0 * std::f64::consts::PI * (a.powi(3) / (k * total)).sqrt();
    let (f1, f2) = (-m2 / total, m1 / total);
    let q0 = Vector6::new(f1 * r, 0.0, 0.0, f2 * r, 0.0, 0.0);
    let qd0 = Vector6::new(0.0, f1 * v[1], f1 * v[2], 0.0, f2 * v[1], f2 * v[2]);
    let steps = 2000;
    let orbit = Simulation::new(&bodies)
        .integrator(Integrator::dormand_prince(1e-12, 1e-12))
        .output_interval(period / steps as f64)
        .run(0.0, q0, qd0, period)?;
    let (mut sum_t, mut sum_v) = (0.0, 0.0);
    for (k, ((&t, q), qd)) in orbit
        .times()
        .iter()
        .zip(orbit.q())
        .zip(orbit.qd())
        .enumerate()
    {
        let kinetic = bodies
            .dynamic_functions(t, q, qd)
            .map_or(f64::NAN, |f| f.kinetic_energy);
        let weight = if k == 0 || k == steps { 0.5 } else { 1.0 };
        sum_t += weight * kinetic;
        sum_v += weight * (bodies.energy(t, q, qd) - kinetic);
    }
    let (mean_t, mean_v) = (sum_t / steps as f64, sum_v / steps as f64);
    println!(
        "over one period {period:.6}: 2<T> = {:.12}, -<V> = {:.12}, Kepler's -<V> = {:.12}",
        2.0 * mean_t,
        -mean_v,
        k * m1 * m2 / a
    );
    Ok(())
}
