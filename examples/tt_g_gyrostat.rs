//! Thomson & Tait §319, Example G, eqs. (22)–(27): the gimballed gyrostat of Example C′
//! with the fly-wheel's rotation `φ` ignored. With `C = B(ψ̇ cos θ + φ̇)` constant the
//! reduced equations in `ψ, θ` carry the gyroscopic terms `−C sin θ θ̇` and `C sin θ ψ̇`
//! (eq. 27), antisymmetric between the two equations.
//!
//! `cargo run --release --example tt_g_gyrostat`

use lagrange::nalgebra::{Vector1, Vector3};
use lagrange::{Lagrangian, Simulation};

/// T&T's constants of eq. (22) `E`, `F`, `A`, the fly-wheel's moment `B`, and couples
/// `Psi`, `Th` on `ψ` and `θ`.
#[derive(Lagrangian)]
#[lagrangian(
    coordinates(psi, theta, phi),
    kinetic = "1/2*((E + F*cos(theta)^2)*dot(psi)^2 + B*(dot(psi)*cos(theta) + dot(phi))^2 + A*dot(theta)^2)",
    force(psi = "Psi", theta = "Th"),
    ignore(phi)
)]
#[allow(non_snake_case)] // the textbook's letters
pub struct Gyrostat {
    pub E: f64,
    pub F: f64,
    pub A: f64,
    pub B: f64,
    pub Psi: f64,
    pub Th: f64,
}

fn main() -> Result<(), Box<dyn std::error::Error>> {
    println!(
        "Reduced equations (eq. 27):\n{}\n",
        GyrostatReduced::INFO.equations_text
    );
    let gyrostat = Gyrostat {
        E: 2.0,
        F: 0.5,
        A: 1.0,
        B: 0.8,
        Psi: 0.0,
        Th: 0.0,
    };
    let (q0, qd0) = (Vector3::new(0.0, 1.0, 0.0), Vector3::new(0.2, 0.0, 5.0));
    let (reduced, q, qd) = gyrostat.reduce_state(0.0, &q0, &qd0);
    println!("spin momentum C = {}", reduced.p_phi);
    let run = Simulation::new(&reduced).output_interval(2.5).run_reduced(
        0.0,
        q,
        qd,
        Vector1::new(q0[2]),
        10.0,
    )?;
    println!("\n   t      psi           theta         phi (quadrature)");
    for (k, t) in run.times().iter().enumerate() {
        println!(
            "{t:4.1}  {:12.9}  {:12.9}  {:14.9}",
            run.q()[k][0],
            run.q()[k][1],
            run.ignored()[k][0]
        );
    }
    Ok(())
}
