//! The Furuta (rotary inverted) pendulum, declared with rigid bodies whose orientations
//! are composed (`about_z(theta1) * about_x(theta2)`), linearized about its upright
//! equilibrium: the eigenvalues show the pendulum's fall, `√(m g l / J₂)`-like, and the
//! arm's free rotation.
//!
//! `cargo run --release --example furuta_pendulum`

use lagrange::nalgebra::Vector2;
use lagrange::{Lagrangian, linearize};

/// The Furuta (rotary inverted) pendulum: an arm turning about the vertical through
/// `theta1`, and a pendulum on its tip turning about the arm's axis through `theta2`
/// (upright at 0), with the orientation composed as `about_z(theta1) * about_x(theta2)`
/// and its angular velocity in closed form.
#[derive(Lagrangian)]
#[lagrangian(
    coordinates(theta1, theta2),
    body(name = arm, mass = "M", inertia = ["0", "M*L^2/12", "M*L^2/12"], rotation = about_z(theta1),
         position = ["L/2*cos(theta1)", "L/2*sin(theta1)", "0"]),
    body(name = pendulum, mass = "m", inertia = ["J", "J", "0"], rotation = about_z(theta1) * about_x(theta2),
         position = ["L*cos(theta1) + l*sin(theta1)*sin(theta2)", "L*sin(theta1) - l*cos(theta1)*sin(theta2)", "l*cos(theta2)"]),
    potential = "m*g*pendulum.z",
)]
#[allow(non_snake_case)]
pub struct Furuta {
    pub M: f64,
    pub m: f64,
    pub L: f64,
    pub l: f64,
    pub J: f64,
    pub g: f64,
}

fn main() -> Result<(), lagrange::Error> {
    let furuta = Furuta {
        M: 0.3,
        m: 0.1,
        L: 0.2,
        l: 0.15,
        J: 0.1 * 0.3 * 0.3 / 12.0,
        g: 9.81,
    };
    println!("Equations of motion:\n{}\n", Furuta::INFO.equations_text);
    let upright = linearize(&furuta, 0.0, &Vector2::zeros(), &Vector2::zeros())?;
    println!(
        "A at the upright equilibrium (theta1, theta2, dot theta1, dot theta2) = {:.4}",
        upright.a
    );
    let eigenvalues = upright.eigenvalues()?;
    println!(
        "eigenvalues: {}",
        eigenvalues
            .iter()
            .map(|l| format!("{:+.4}{:+.4}i", l.re, l.im))
            .collect::<Vec<_>>()
            .join(", ")
    );
    // A slender pendulum falls at the rate √(m g l J₀ / (J₀ J₂ − (m L l)²)) (the upright
    // linearization of the textbook equations, J₀ about the vertical, J₂ about the pivot).
    let (j0, j2) = (
        furuta.M * furuta.L.powi(2) / 3.0 + furuta.m * furuta.L.powi(2),
        furuta.J + furuta.m * furuta.l.powi(2),
    );
    let rate = (furuta.m * furuta.g * furuta.l * j0
        / (j0 * j2 - (furuta.m * furuta.L * furuta.l).powi(2)))
    .sqrt();
    println!(
        "closed-form rate of the fall: {rate:.6}; stability: {:?}",
        upright.stability()?
    );
    Ok(())
}
