//! A ball dropped from rest at height h₀ onto a floor with coefficient of restitution e:
//! an event at `y = 0` (falling) replaces the velocity by `−e ẏ` and restarts the run
//! there, and an event at `ẏ = 0` (falling) records each apex. The rebound speed is e
//! times the impact speed and the height goes with its square, so the apex after the
//! n-th bounce is at `e^{2n} h₀`; the program prints both.
//!
//! `cargo run --release --example bouncing_ball`

use lagrange::nalgebra::Const;
use lagrange::nalgebra::Vector1;
use lagrange::{Error, Event, Integrator, Lagrangian, Simulation, Trajectory};

/// Mass `m`, gravity `g`.
#[derive(Lagrangian)]
#[lagrangian(coordinates(y), kinetic = "1/2*m*dot(y)^2", potential = "m*g*y")]
pub struct Ball {
    pub m: f64,
    pub g: f64,
}

/// Drops `ball` from rest at `h0` onto the floor `y = 0` with restitution `e`, until
/// `t_end`: the trajectory's events are the bounces (`floor`) and the apexes (`apex`).
pub fn drop_ball(ball: &Ball, h0: f64, e: f64, t_end: f64) -> Result<Trajectory<Const<1>>, Error> {
    Simulation::new(ball)
        .integrator(Integrator::dormand_prince(1e-12, 1e-12))
        .event(
            Event::new("floor", |_, y, _| y[0])
                .falling()
                .reset(move |_, y, v| (*y, -e * v)),
        )
        .event(Event::new("apex", |_, _, v| v[0]).falling())
        .run(0.0, Vector1::new(h0), Vector1::zeros(), t_end)
}

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let ball = Ball { m: 0.1, g: 9.81 };
    let (h0, e) = (1.0f64, 0.8f64);
    let trajectory = drop_ball(&ball, h0, e, 3.5)?;
    println!(" n  t               apex height         e^(2n) h0           relative difference");
    for (n, apex) in (1..).zip(trajectory.events_named("apex")) {
        let expected = e.powi(2 * n) * h0;
        println!(
            "{n:>2}  {:<14.10}  {:<18.15}  {expected:<18.15}  {:.1e}",
            apex.t,
            apex.q[0],
            (apex.q[0] - expected).abs() / expected
        );
    }
    Ok(())
}
