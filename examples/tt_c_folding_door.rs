//! Thomson & Tait §319, Example C (a): the folding door. A body `m` turns about a fixed
//! horizontal axis; a body `n` turns about a parallel axis carried by the first, at
//! distance `a`. `φ` is the inclination of the plane of the axes, `ψ` that of the plane
//! through the second axis and the centre of inertia of `n`, both from one fixed plane.
//! Couples `Φ`, `Ψ` act on the two bodies, and gravity. Without couples and gravity the
//! whole moment of momentum `∂T/∂φ̇ + ∂T/∂ψ̇` is constant.
//!
//! `cargo run --release --example tt_c_folding_door`

use lagrange::nalgebra::Vector2;
use lagrange::{Lagrangian, LagrangianSystem, Simulation};

/// Masses `m`, `n`; axis distance `a`; `b` from the second axis to the centre of inertia
/// of `n`; radii of gyration `j` (of `m` about its axis) and `k` (of `n` about its centre);
/// `h` from the fixed axis to the centre of inertia of `m`; angle `A` (see the text);
/// couples `Phi`, `Psi`; gravity `g`.
#[derive(Lagrangian)]
#[lagrangian(
    coordinates(phi, psi),
    kinetic = "1/2*((m*j^2 + n*a^2)*dot(phi)^2 + 2*n*a*b*cos(psi - phi)*dot(phi)*dot(psi) + n*(b^2 + k^2)*dot(psi)^2)",
    potential = "g*m*h*(1 - cos(phi)) + g*n*(a*(1 - cos(phi + A)) + b*(1 - cos(psi + A)))",
    force(phi = "Phi", psi = "Psi")
)]
#[allow(non_snake_case)] // the textbook's letters
pub struct FoldingDoor {
    pub m: f64,
    pub n: f64,
    pub a: f64,
    pub b: f64,
    pub j: f64,
    pub k: f64,
    pub h: f64,
    pub A: f64,
    pub Phi: f64,
    pub Psi: f64,
    pub g: f64,
}

impl FoldingDoor {
    /// The moment of momentum about the fixed axis, `∂T/∂φ̇ + ∂T/∂ψ̇` (Thomson & Tait).
    pub fn moment_of_momentum(&self, q: &Vector2<f64>, qd: &Vector2<f64>) -> f64 {
        let p = self.momenta(0.0, q, qd);
        p[0] + p[1]
    }
}

fn main() -> Result<(), Box<dyn std::error::Error>> {
    println!("{}\n", FoldingDoor::INFO.equations_text);
    let door = FoldingDoor {
        m: 3.0,
        n: 1.0,
        a: 1.0,
        b: 0.5,
        j: 0.6,
        k: 0.3,
        h: 0.4,
        A: 0.0,
        Phi: 0.0,
        Psi: 0.0,
        g: 0.0,
    };
    let (q0, qd0) = (Vector2::new(0.0, 1.0), Vector2::new(0.5, -1.5));
    let trajectory = Simulation::new(&door)
        .output_interval(0.5)
        .run(0.0, q0, qd0, 10.0)?;
    println!("   t    moment of momentum");
    for (t, (q, qd)) in trajectory
        .times()
        .iter()
        .zip(trajectory.q().iter().zip(trajectory.qd()))
    {
        println!("{t:5.1}  {:.15}", door.moment_of_momentum(q, qd));
    }
    Ok(())
}
