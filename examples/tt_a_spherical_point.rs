//! Thomson & Tait §319, Example A: a point of mass `m` referred to spherical polar
//! coordinates `(r, θ, φ)`, acted on by force components `F`, `G`, `H` along the
//! directions of increasing `r`, `θ` and `φ`. The generalized forces are
//! `R = F`, `Θ = G r`, `Φ = H r sin θ` (the work `F δr + G r δθ + H r sin θ δφ`).
//!
//! `cargo run --release --example tt_a_spherical_point`

use lagrange::nalgebra::Vector3;
use lagrange::{Lagrangian, Simulation};

/// Mass `m` and constant force components `F`, `G`, `H` along the coordinate directions.
#[derive(Lagrangian)]
#[lagrangian(
    coordinates(r, theta, phi),
    kinetic = "1/2*m*(dot(r)^2 + r^2*dot(theta)^2 + r^2*sin(theta)^2*dot(phi)^2)",
    force(r = "F", theta = "G*r", phi = "H*r*sin(theta)")
)]
#[allow(non_snake_case)] // the textbook's letters
pub struct SphericalPoint {
    pub m: f64,
    pub F: f64,
    pub G: f64,
    pub H: f64,
}

fn main() -> Result<(), Box<dyn std::error::Error>> {
    println!("{}\n", SphericalPoint::INFO.equations_text);
    // Without forces the point moves on a straight line at constant speed.
    let point = SphericalPoint {
        m: 2.0,
        F: 0.0,
        G: 0.0,
        H: 0.0,
    };
    let trajectory = Simulation::new(&point).output_interval(1.0).run(
        0.0,
        Vector3::new(1.0, 1.0, 0.0),
        Vector3::new(0.0, 0.2, 0.5),
        5.0,
    )?;
    println!("   t        x            y            z");
    for (t, q) in trajectory.times().iter().zip(trajectory.q()) {
        let (r, theta, phi) = (q[0], q[1], q[2]);
        let (x, y, z) = (
            r * theta.sin() * phi.cos(),
            r * theta.sin() * phi.sin(),
            r * theta.cos(),
        );
        println!("{t:4.1}  {x:11.8}  {y:11.8}  {z:11.8}");
    }
    Ok(())
}
