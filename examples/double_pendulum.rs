//! The planar double pendulum (point masses on massless rods, absolute angles), released
//! from rest with both rods horizontal and integrated for 20 s with the adaptive
//! Dormand–Prince 5(4) method; prints the final state and the drift of the energy.
//!
//! `cargo run --release --example double_pendulum [-- trajectory.csv | page.html]`: the
//! trajectory as CSV, or the HTML report of the run (the bobs and rods drawn as the
//! `draw(...)` entries say).

use lagrange::nalgebra::Vector2;
use lagrange::{Integrator, Lagrangian, Simulation};

/// Masses `m1`, `m2`, rod lengths `l1`, `l2`, gravity `g`.
#[derive(Lagrangian)]
#[lagrangian(
    coordinates(theta1, theta2),
    kinetic = "1/2*(m1+m2)*l1^2*dot(theta1)^2 + m2*l1*l2*cos(theta1-theta2)*dot(theta1)*dot(theta2) + 1/2*m2*l2^2*dot(theta2)^2",
    potential = "-(m1+m2)*g*l1*cos(theta1) - m2*g*l2*cos(theta2)",
    draw(point = bob1, at = ["l1*sin(theta1)", "-l1*cos(theta1)"], link = origin),
    draw(point = bob2, at = ["l1*sin(theta1) + l2*sin(theta2)", "-l1*cos(theta1) - l2*cos(theta2)"], link = bob1),
)]
pub struct DoublePendulum {
    pub m1: f64,
    pub m2: f64,
    pub l1: f64,
    pub l2: f64,
    pub g: f64,
}

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let pendulum = DoublePendulum {
        m1: 1.0,
        m2: 1.0,
        l1: 1.0,
        l2: 1.0,
        g: 9.81,
    };
    println!(
        "Equations of motion (derived at compile time):\n{}\n",
        DoublePendulum::INFO.equations_text
    );

    let half_pi = std::f64::consts::FRAC_PI_2;
    let trajectory = Simulation::new(&pendulum)
        .integrator(Integrator::DormandPrince {
            rtol: 1e-12,
            atol: 1e-12,
            h0: None,
            h_max: None,
        })
        .output_interval(0.01)
        .run(0.0, Vector2::new(half_pi, half_pi), Vector2::zeros(), 20.0)?;

    let (t, q, qd) = trajectory.last().ok_or("empty trajectory")?;
    println!(
        "state at t = {t}: theta = ({:.12}, {:.12}), dot(theta) = ({:.12}, {:.12})",
        q[0], q[1], qd[0], qd[1]
    );
    let stats = trajectory.stats();
    println!("{stats:?}\n");
    println!("{}", trajectory.drift_table());
    match std::env::args().nth(1) {
        Some(path) if path.ends_with(".html") => {
            trajectory.save_html(&pendulum, &path)?;
            println!("report written to {path}");
        }
        Some(path) => {
            trajectory.save_csv(&path)?;
            println!("trajectory written to {path}");
        }
        None => {}
    }
    Ok(())
}
