//! Long runs of the double pendulum: 10⁶ steps of h = 10⁻³ (t ∈ [0, 1000]) with RK4, the
//! symplectic Gauss–Legendre method and the variational integrator, and Dormand–Prince
//! 5(4) over the same span; the largest energy error of each, for a regular and a chaotic
//! motion. Then the momentum of the cyclic angle of a Kepler orbit under the variational
//! integrator.
//!
//! `cargo run --release --example energy_table`

use std::f64::consts::FRAC_PI_2;
use std::time::Instant;

use lagrange::nalgebra::Vector2;
use lagrange::{Integrator, Lagrangian, LagrangianSystem, Simulation};

#[path = "double_pendulum.rs"]
#[allow(dead_code)]
mod double_pendulum;

use double_pendulum::DoublePendulum;

/// A Kepler orbit: `φ` is cyclic.
#[derive(Lagrangian)]
#[lagrangian(
    coordinates(r, phi),
    kinetic = "1/2*m*(dot(r)^2 + r^2*dot(phi)^2)",
    potential = "-k/r"
)]
struct Kepler {
    m: f64,
    k: f64,
}

fn main() -> Result<(), lagrange::Error> {
    let pendulum = DoublePendulum {
        m1: 1.0,
        m2: 1.0,
        l1: 1.0,
        l2: 1.0,
        g: 9.81,
    };
    let h = 1e-3;
    let t_end = 1000.0;
    let integrators = [
        ("RK4", Integrator::Rk4 { dt: h }),
        (
            "Dormand–Prince 5(4), tol 1e-10",
            Integrator::dormand_prince(1e-10, 1e-10),
        ),
        (
            "Gauss–Legendre, 2 stages",
            Integrator::GaussLegendre { dt: h, stages: 2 },
        ),
        ("variational (midpoint)", Integrator::Variational { dt: h }),
    ];
    for (motion, q0) in [
        ("regular: θ = (0.5, 0.3)", Vector2::new(0.5, 0.3)),
        (
            "chaotic: θ = (π/2, π/2)",
            Vector2::new(FRAC_PI_2, FRAC_PI_2),
        ),
    ] {
        println!("double pendulum, {motion}, from rest, t ∈ [0, {t_end}]");
        println!(
            "{:<32} {:>10} {:>14} {:>14} {:>14} {:>9}",
            "integrator", "steps", "max |ΔE| 0–100", "max |ΔE|", "|ΔE| at end", "time"
        );
        let e0 = pendulum.energy(0.0, &q0, &Vector2::zeros());
        for (name, integrator) in integrators {
            let start = Instant::now();
            let trajectory = Simulation::new(&pendulum)
                .integrator(integrator)
                .max_steps(2_000_000)
                .output_interval(0.01)
                .run(0.0, q0, Vector2::zeros(), t_end)?;
            let elapsed = start.elapsed();
            let errors: Vec<f64> = trajectory
                .q()
                .iter()
                .zip(trajectory.qd())
                .map(|(q, qd)| (pendulum.energy(0.0, q, qd) - e0).abs())
                .collect();
            let early = errors[..errors.len() / 10]
                .iter()
                .cloned()
                .fold(0.0, f64::max);
            let worst = errors.iter().cloned().fold(0.0, f64::max);
            println!(
                "{name:<32} {:>10} {early:>14.3e} {worst:>14.3e} {:>14.3e} {:>8.2}s",
                trajectory.stats().accepted,
                errors.last().copied().unwrap_or(f64::NAN),
                elapsed.as_secs_f64()
            );
        }
        println!();
    }

    let kepler = Kepler { m: 1.0, k: 1.0 };
    let (q0, qd0) = (Vector2::new(1.0, 0.0), Vector2::new(0.1, 1.1));
    let trajectory = Simulation::new(&kepler)
        .integrator(Integrator::Variational { dt: h })
        .max_steps(2_000_000)
        .output_interval(0.1)
        .run(0.0, q0, qd0, t_end)?;
    println!(
        "Kepler orbit, variational integrator, 10⁶ steps:\n{}",
        trajectory.drift_table()
    );
    Ok(())
}
