//! A spherical pendulum in Cartesian coordinates, held by `x² + y² + z² = l²`
//! (`examples/models/spherical_pendulum.toml`). The constraint admits rotations about
//! every axis through its centre and no translation: the engine finds `Λ_z` conserved,
//! `Λ_x` and `Λ_y` changed by gravity's moment, and says why the momentum theorems are not
//! established. The rod's tension appears in none of these laws.
//!
//! `cargo run --release --example spherical_pendulum`

use lagrange::nalgebra::Vector3;
use lagrange::{Integrator, Lagrangian, Simulation};

/// A bob of mass `m` on a rod of length `l`, gravity `g` along −z.
#[derive(Lagrangian)]
#[lagrangian(
    coordinates(x, y, z),
    particle(name = bob, mass = "m", position = ["x", "y", "z"]),
    gravity = ["0", "0", "-g"],
    constraint = "x^2 + y^2 + z^2 - l^2",
)]
pub struct SphericalPendulum {
    pub m: f64,
    pub l: f64,
    pub g: f64,
}

fn main() -> Result<(), lagrange::Error> {
    let pendulum = SphericalPendulum {
        m: 1.5,
        l: 1.0,
        g: 9.81,
    };
    for theorem in SphericalPendulum::INFO.theorems.iter() {
        println!("{:<16} {}", theorem.theorem.law(), theorem.why);
    }
    let q0 = Vector3::new(0.8038879363274419, 0.2486716793299505, -0.5403023058681398);
    let qd0 = Vector3::new(
        -0.33295515934541015,
        1.9905081027960874,
        0.42073549240394825,
    );
    let run = Simulation::new(&pendulum)
        .integrator(Integrator::dormand_prince(1e-12, 1e-12))
        .output_interval(0.01)
        .run(0.0, q0, qd0, 10.0)?;
    println!("\n{}", run.drift_table());
    println!(
        "{}",
        lagrange::core::balance_table(&run.balance_laws(&pendulum)?)
    );
    Ok(())
}
