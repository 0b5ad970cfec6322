//! Small motions of the planar double pendulum: its four equilibria found by Newton's
//! method from rough guesses, the stability their linearizations decide, and the normal
//! modes about the hanging one, against the closed form for equal masses and lengths,
//! `ω² = (g/l)(2 ∓ √2)` with shapes `∝ (1, ±√2)`.
//!
//! `cargo run --release --example double_pendulum_modes`

use lagrange::nalgebra::Vector2;
use lagrange::{Lagrangian, equilibrium, linearize, normal_modes};

/// Masses `m1`, `m2`, rod lengths `l1`, `l2`, gravity `g`.
#[derive(Lagrangian)]
#[lagrangian(
    coordinates(theta1, theta2),
    kinetic = "1/2*(m1+m2)*l1^2*dot(theta1)^2 + m2*l1*l2*cos(theta1-theta2)*dot(theta1)*dot(theta2) + 1/2*m2*l2^2*dot(theta2)^2",
    potential = "-(m1+m2)*g*l1*cos(theta1) - m2*g*l2*cos(theta2)"
)]
pub struct DoublePendulum {
    pub m1: f64,
    pub m2: f64,
    pub l1: f64,
    pub l2: f64,
    pub g: f64,
}

fn main() -> Result<(), lagrange::Error> {
    let (l, g) = (1.0, 9.81);
    let pendulum = DoublePendulum {
        m1: 1.0,
        m2: 1.0,
        l1: l,
        l2: l,
        g,
    };
    let rest = Vector2::zeros();
    println!("equilibrium (theta1, theta2)      stability");
    for guess in [[0.3, -0.2], [3.0, 0.2], [-0.2, 3.3], [2.9, 3.4]] {
        let q = equilibrium(&pendulum, 0.0, &Vector2::from(guess))?;
        let stability = linearize(&pendulum, 0.0, &q, &rest)?.stability()?;
        // `+ 0.0` prints a negative zero as zero.
        println!(
            "({:9.6}, {:9.6})             {stability:?}",
            q[0] + 0.0,
            q[1] + 0.0
        );
    }
    println!("\nnormal modes about the hanging equilibrium:");
    let modes = normal_modes(&pendulum, 0.0, &rest)?;
    let closed_form = [2.0 - 2f64.sqrt(), 2.0 + 2f64.sqrt()].map(|f| g / l * f);
    for (mode, expected) in modes.iter().zip(closed_form) {
        println!(
            "omega^2 = {:.12} (closed form {expected:.12}), period {:.6} s, shape ({:+.6}, {:+.6}), ratio {:+.6}",
            mode.omega_squared,
            mode.period().unwrap_or(f64::NAN),
            mode.shape[0],
            mode.shape[1],
            mode.shape[1] / mode.shape[0]
        );
    }
    Ok(())
}
