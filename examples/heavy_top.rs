//! A heavy symmetric top about a fixed point, declared as a rigid body in z-x-z Euler
//! angles `(φ, θ, ψ)`, with the precession `φ` and the spin `ψ` ignored: Routh's
//! reduction leaves the nutation `θ` alone, and `φ`, `ψ` follow by quadrature.
//!
//! `cargo run --release --example heavy_top`

use lagrange::nalgebra::{Vector2, Vector3};
use lagrange::{Integrator, Lagrangian, Simulation};

/// Mass `m`, centre of mass at `l` on the axis, moments `A` (about the fixed point,
/// across the axis) and `C` (along it), gravity `g`. The inertia about the centre of mass
/// is `A − m l²` across the axis.
#[derive(Lagrangian)]
#[lagrangian(
    coordinates(phi, theta, psi),
    body(
        name = top,
        mass = "m",
        inertia = ["A - m*l^2", "A - m*l^2", "C"],
        rotation = euler_zxz(phi, theta, psi),
        position = ["l*sin(phi)*sin(theta)", "-l*cos(phi)*sin(theta)", "l*cos(theta)"],
    ),
    potential = "m*g*top.z",
    ignore(phi, psi),
)]
#[allow(non_snake_case)] // the textbook's letters
pub struct HeavyTop {
    pub m: f64,
    pub l: f64,
    pub A: f64,
    pub C: f64,
    pub g: f64,
}

fn main() -> Result<(), lagrange::Error> {
    let top = HeavyTop {
        m: 1.0,
        l: 0.5,
        A: 0.6,
        C: 0.4,
        g: 9.81,
    };
    let info = &HeavyTop::INFO;
    let cyclic: Vec<&str> = info.cyclic.iter().map(|&i| &*info.coordinates[i]).collect();
    println!("cyclic in the full system: {cyclic:?}");
    let (q0, qd0) = (Vector3::new(0.0, 0.4, 0.0), Vector3::new(0.0, 0.0, 30.0));
    let (reduced, theta0, theta_dot0) = top.reduce_state(0.0, &q0, &qd0);
    println!("p_phi = {}, p_psi = {}\n", reduced.p_phi, reduced.p_psi);
    let run = Simulation::new(&reduced)
        .integrator(Integrator::dormand_prince(1e-12, 1e-12))
        .output_interval(0.25)
        .run_reduced(0.0, theta0, theta_dot0, Vector2::new(q0[0], q0[2]), 2.0)?;
    println!("   t      theta          phi             psi");
    for (k, t) in run.times().iter().enumerate() {
        println!(
            "{t:5.2}  {:12.9}  {:13.9}  {:14.9}",
            run.q()[k][0],
            run.ignored()[k][0],
            run.ignored()[k][1]
        );
    }
    println!("\n{}", run.drift_table());
    Ok(())
}
