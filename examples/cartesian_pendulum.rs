//! A pendulum in Cartesian coordinates `(x, y)` held by the constraint
//! `x² + y² − l² = 0`: the multiplier gives the rod's tension, the integration projects
//! back onto the constraint after each step, and the motion agrees with the same pendulum
//! in its angle.
//!
//! `cargo run --release --example cartesian_pendulum`

use lagrange::nalgebra::Vector2;
use lagrange::{ConstrainedSystem, Integrator, Lagrangian, Simulation};

/// Mass `m` on a massless rod of length `l`, gravity `g` along −y.
#[derive(Lagrangian)]
#[lagrangian(
    coordinates(x, y),
    kinetic = "1/2*m*(dot(x)^2 + dot(y)^2)",
    potential = "m*g*y",
    constraint = "x^2 + y^2 - l^2"
)]
pub struct CartesianPendulum {
    pub m: f64,
    pub l: f64,
    pub g: f64,
}

fn main() -> Result<(), lagrange::Error> {
    let p = CartesianPendulum {
        m: 1.0,
        l: 1.0,
        g: 9.81,
    };
    println!("{}\n", CartesianPendulum::INFO.equations_text);
    println!(
        "scleronomic: {}",
        CartesianPendulum::INFO.constraints[0].scleronomic
    );
    let theta0: f64 = 1.0;
    let (q0, qd0) = (
        Vector2::new(p.l * theta0.sin(), -p.l * theta0.cos()),
        Vector2::zeros(),
    );
    let trajectory = Simulation::new(&p)
        .integrator(Integrator::dormand_prince(1e-12, 1e-12))
        .output_interval(10.0)
        .run(0.0, q0, qd0, 100.0)?;
    println!("   t         x              y            |G|         tension");
    for (t, (q, qd)) in trajectory
        .times()
        .iter()
        .zip(trajectory.q().iter().zip(trajectory.qd()))
    {
        let g = p.constraint_values(*t, q)[0];
        let reaction = p.reactions(*t, q, qd)?;
        println!(
            "{t:5.1}  {:13.10}  {:13.10}  {:10.2e}  {:10.6}",
            q[0],
            q[1],
            g.abs(),
            reaction.column(0).norm()
        );
    }
    println!("\n{}", trajectory.drift_table());
    Ok(())
}
