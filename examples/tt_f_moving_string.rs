//! Thomson & Tait §319, Example F: a particle `m` on a string of length `a` whose other
//! end `E` is moved along a fixed line `OX` as `OE = u(t)`. `θ` is the angle of the string
//! to `OX`, `φ` its azimuth about `OX`. Here `u = U sin(ν t)`; `G`, `H` are force components
//! perpendicular to the string (in the plane of `θ` and normal to it), so the generalized
//! forces are `Θ = G a`, `Φ = H a sin θ`. The text's reading: the motion is as if `E` were
//! fixed and the force `−m ü` parallel to `OX` were added.
//!
//! `cargo run --release --example tt_f_moving_string`

use lagrange::nalgebra::Vector2;
use lagrange::{Lagrangian, Simulation};

/// Mass `m`, string length `a`, drive `u = U sin(nu t)`, forces `G`, `H`.
#[derive(Lagrangian)]
#[lagrangian(
    coordinates(theta, phi),
    kinetic = "1/2*m*((U*nu*cos(nu*t))^2 - 2*a*U*nu*cos(nu*t)*sin(theta)*dot(theta)) + 1/2*m*a^2*(dot(theta)^2 + sin(theta)^2*dot(phi)^2)",
    force(theta = "G*a", phi = "H*a*sin(theta)")
)]
#[allow(non_snake_case)] // the textbook's letters
pub struct MovingString {
    pub m: f64,
    pub a: f64,
    pub U: f64,
    pub nu: f64,
    pub G: f64,
    pub H: f64,
}

fn main() -> Result<(), Box<dyn std::error::Error>> {
    println!("{}\n", MovingString::INFO.equations_text);
    let system = MovingString {
        m: 1.0,
        a: 1.0,
        U: 0.2,
        nu: 3.0,
        G: 0.0,
        H: 0.0,
    };
    let trajectory = Simulation::new(&system).output_interval(1.0).run(
        0.0,
        Vector2::new(1.0, 0.0),
        Vector2::new(0.0, 1.0),
        5.0,
    )?;
    println!("   t     theta         phi");
    for (t, q) in trajectory.times().iter().zip(trajectory.q()) {
        println!("{t:4.1}  {:12.9}  {:12.9}", q[0], q[1]);
    }
    Ok(())
}
