//! Thomson & Tait §319, Sub-example G₁: the folding door of Example C (a) without
//! gravity, in the coordinates `ψ` (of the outer body) and `θ` (the angle between the
//! bodies, `φ = ψ + θ`). No couple acts on the whole, so `ψ` is cyclic and is ignored:
//! its momentum `C` is constant, the reduced system has the single coordinate `θ`, and
//! `ψ` is recovered by quadrature of `ψ̇ = (C − (c cos θ + B) θ̇)/(A + B + 2c cos θ)`.
//!
//! `cargo run --release --example tt_g1_door_ignoring_psi`

use lagrange::nalgebra::{Vector1, Vector2};
use lagrange::{Lagrangian, Simulation};

/// T&T's abbreviations: `A = n(b² + k²)`, `B = m j² + n a²`, `c = n a b`; a couple `Th`
/// between the bodies (acting on `θ`).
#[derive(Lagrangian)]
#[lagrangian(
    coordinates(psi, theta),
    kinetic = "1/2*(A*dot(psi)^2 + 2*c*dot(psi)*(dot(psi) + dot(theta))*cos(theta) + B*(dot(psi) + dot(theta))^2)",
    force(theta = "Th"),
    ignore(psi)
)]
#[allow(non_snake_case)] // the textbook's letters
pub struct DoorG1 {
    pub A: f64,
    pub B: f64,
    pub c: f64,
    pub Th: f64,
}

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let door = DoorG1 {
        A: 0.5,
        B: 2.0,
        c: 0.4,
        Th: 0.0,
    };
    println!("Routhian: R = {}\n", DoorG1Reduced::ROUTHIAN_TEXT);
    println!(
        "Reduced equation:\n{}\n",
        DoorG1Reduced::INFO.equations_text
    );

    let (q0, qd0) = (Vector2::new(0.0, 0.5), Vector2::new(0.3, 1.0));
    let (reduced, theta0, theta_dot0) = door.reduce_state(0.0, &q0, &qd0);
    println!("constant momentum C = p_psi = {}", reduced.p_psi);
    let run = Simulation::new(&reduced).output_interval(2.0).run_reduced(
        0.0,
        theta0,
        theta_dot0,
        Vector1::new(q0[0]),
        10.0,
    )?;
    let full = Simulation::new(&door)
        .output_interval(2.0)
        .run(0.0, q0, qd0, 10.0)?;
    println!("\n   t   theta (reduced)   theta (full)    psi (quadrature)   psi (full)");
    for k in 0..run.len() {
        println!(
            "{:4.1}  {:15.12}  {:15.12}  {:17.12}  {:15.12}",
            run.times()[k],
            run.q()[k][0],
            full.q()[k][1],
            run.ignored()[k][0],
            full.q()[k][0]
        );
    }
    Ok(())
}
