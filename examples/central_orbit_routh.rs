//! A planar orbit in the attraction `−k/r`, with the angle ignored: Routh's reduction
//! leaves the radial motion `m r̈ = C²/(m r³) − k/r²` (the centrifugal term is `−∂K/∂r`
//! with `K = C²/(2 m r²)`), and the angle follows by quadrature of `φ̇ = C/(m r²)`.
//!
//! `cargo run --release --example central_orbit_routh`

use lagrange::nalgebra::{Vector1, Vector2};
use lagrange::{Lagrangian, Simulation};

/// Mass `m`, attraction constant `k`.
#[derive(Lagrangian)]
#[lagrangian(
    coordinates(r, phi),
    kinetic = "1/2*m*(dot(r)^2 + r^2*dot(phi)^2)",
    potential = "-k/r",
    ignore(phi)
)]
pub struct Orbit {
    pub m: f64,
    pub k: f64,
}

fn main() -> Result<(), Box<dyn std::error::Error>> {
    println!(
        "R = {}\n{}\n",
        OrbitReduced::ROUTHIAN_TEXT,
        OrbitReduced::INFO.equations_text
    );
    let orbit = Orbit { m: 1.0, k: 1.0 };
    let (q0, qd0) = (Vector2::new(1.0, 0.0), Vector2::new(0.0, 1.2));
    let (reduced, r0, rd0) = orbit.reduce_state(0.0, &q0, &qd0);
    let run = Simulation::new(&reduced).output_interval(1.0).run_reduced(
        0.0,
        r0,
        rd0,
        Vector1::new(q0[1]),
        10.0,
    )?;
    println!("   t       r              phi");
    for (k, t) in run.times().iter().enumerate() {
        println!(
            "{t:4.1}  {:13.10}  {:13.10}",
            run.q()[k][0],
            run.ignored()[k][0]
        );
    }
    println!("\n{}", run.drift_table());
    Ok(())
}
