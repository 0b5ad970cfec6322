//! The Chaplygin sleigh: a body on a plane resting on a knife edge a distance `a` behind
//! its centre of mass, which cannot slide sideways — the velocity constraint
//! `ẏ cos θ − ẋ sin θ − a θ̇ = 0`, nonholonomic. Started spinning, it straightens out:
//! with `J = I + m a²` and `E = ½ m u² + ½ J ω²`, the forward speed is
//! `u = U tanh(m a U t / J + c)`, `U = √(2E/m)`, and `ω = ω₀ cosh c / cosh(m a U t / J + c)`.
//! The knife edge's reaction, the sideways force `λ = m(a ω̇ + u ω) = m u ω I/J`, keeps
//! the centre on its course. The example prints all three beside the run, and the energy's
//! drift.
//!
//! `cargo run --release --example chaplygin_sleigh`

use lagrange::nalgebra::Vector3;
use lagrange::{ConstrainedSystem, Integrator, Lagrangian, Simulation};

/// Mass `m`, moment of inertia `I` about the centre of mass `(x, y)`, heading `θ`, the knife
/// edge at `a` behind the centre.
#[derive(Lagrangian)]
#[lagrangian(
    coordinates(x, y, theta),
    kinetic = "1/2*m*(dot(x)^2 + dot(y)^2) + 1/2*I*dot(theta)^2",
    velocity_constraint = "dot(y)*cos(theta) - dot(x)*sin(theta) - a*dot(theta)",
    draw(point = centre, at = ["x", "y"]),
    draw(point = blade, at = ["x - a*cos(theta)", "y - a*sin(theta)"], link = centre)
)]
#[allow(non_snake_case)]
pub struct ChaplyginSleigh {
    pub m: f64,
    pub I: f64,
    pub a: f64,
}

fn main() -> Result<(), lagrange::Error> {
    let sleigh = ChaplyginSleigh {
        m: 1.5,
        I: 0.2,
        a: 0.4,
    };
    println!("{}\n", ChaplyginSleigh::INFO.equations_text);
    let (m, a) = (sleigh.m, sleigh.a);
    let j = sleigh.I + m * a * a;
    let (u0, omega0) = (0.3_f64, 2.0_f64);
    let energy = 0.5 * m * u0 * u0 + 0.5 * j * omega0 * omega0;
    let big_u = (2.0 * energy / m).sqrt();
    let (k, c) = (m * a * big_u / j, (u0 / big_u).atanh());
    let trajectory = Simulation::new(&sleigh)
        .integrator(Integrator::dormand_prince(1e-12, 1e-12))
        .output_interval(2.0)
        .run(
            0.0,
            Vector3::zeros(),
            Vector3::new(u0, a * omega0, omega0),
            20.0,
        )?;
    println!(
        "{:>5} {:>16} {:>16} {:>16} {:>16} {:>13} {:>13}",
        "t", "u", "U tanh(kt + c)", "ω", "closed form", "reaction λ", "m u ω I/J"
    );
    for (idx, &t) in trajectory.times().iter().enumerate() {
        let (q, qd) = (trajectory.q()[idx], trajectory.qd()[idx]);
        let u = qd[0] * q[2].cos() + qd[1] * q[2].sin();
        let lambda = sleigh.constrained_motion(t, &q, &qd)?.multipliers[0];
        println!(
            "{t:5.1} {u:16.12} {:16.12} {:16.12} {:16.12} {lambda:13.6e} {:13.6e}",
            big_u * (k * t + c).tanh(),
            qd[2],
            omega0 * c.cosh() / (k * t + c).cosh(),
            m * u * qd[2] * sleigh.I / j
        );
    }
    println!("\n{}", trajectory.drift_table());
    Ok(())
}
