//! Thomson & Tait §319, Example B: a particle `m` on a smooth horizontal table, tied to a
//! string that passes through a small hole and carries a hanging particle `mp`. With `r`
//! the length of string on the table and `θ` its direction, `θ` is cyclic: the moment of
//! momentum `m r² θ̇ = h` is constant.
//!
//! `cargo run --release --example tt_b_string_through_hole`

use lagrange::nalgebra::Vector2;
use lagrange::{Lagrangian, Simulation};

/// Masses `m` (on the table) and `mp` (hanging), gravity `g`.
#[derive(Lagrangian)]
#[lagrangian(
    coordinates(r, theta),
    kinetic = "1/2*(m + mp)*dot(r)^2 + 1/2*m*r^2*dot(theta)^2",
    potential = "mp*g*r"
)]
pub struct StringThroughHole {
    pub m: f64,
    pub mp: f64,
    pub g: f64,
}

fn main() -> Result<(), Box<dyn std::error::Error>> {
    println!("{}\n", StringThroughHole::INFO.equations_text);
    let system = StringThroughHole {
        m: 1.0,
        mp: 0.5,
        g: 9.81,
    };
    let trajectory =
        Simulation::new(&system).run(0.0, Vector2::new(1.0, 0.0), Vector2::new(0.0, 2.0), 10.0)?;
    println!("{}", trajectory.drift_table());
    Ok(())
}
