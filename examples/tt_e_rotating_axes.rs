//! Thomson & Tait §319, Example E: a free particle referred to axes `x, y, z` that turn
//! about `z` through a prescribed angle `α(t)`. The relations between these coordinates
//! and fixed ones involve `t`, so `T = T₂ + T₁ + T₀` (§318 eqs. 25–28) and neither the
//! energy nor the Jacobi integral is conserved for a non-uniform `α`. Here
//! `α = ω t + ε sin(ν t)`; `X, Y, Z` are force components along the moving axes.
//!
//! `cargo run --release --example tt_e_rotating_axes`

use lagrange::nalgebra::Vector3;
use lagrange::{Lagrangian, Simulation};

/// Mass `m`; rotation `α = omega t + epsilon sin(nu t)`; forces `X`, `Y`, `Z`.
#[derive(Lagrangian)]
#[lagrangian(
    coordinates(x, y, z),
    kinetic = "1/2*m*((dot(x) - y*(omega + epsilon*nu*cos(nu*t)))^2 + (dot(y) + x*(omega + epsilon*nu*cos(nu*t)))^2 + dot(z)^2)",
    force(x = "X", y = "Y", z = "Z")
)]
#[allow(non_snake_case)] // the textbook's letters
pub struct RotatingAxes {
    pub m: f64,
    pub omega: f64,
    pub epsilon: f64,
    pub nu: f64,
    pub X: f64,
    pub Y: f64,
    pub Z: f64,
}

impl RotatingAxes {
    /// `α(t)`.
    pub fn alpha(&self, t: f64) -> f64 {
        self.omega * t + self.epsilon * (self.nu * t).sin()
    }
}

fn main() -> Result<(), Box<dyn std::error::Error>> {
    println!("{}\n", RotatingAxes::INFO.equations_text);
    // A force-free particle, at rest in the moving axes at t = 0: seen from the fixed
    // axes it moves uniformly on the line x = 1 with speed α̇(0) = ω + εν.
    let axes = RotatingAxes {
        m: 1.0,
        omega: 1.0,
        epsilon: 0.3,
        nu: 2.0,
        X: 0.0,
        Y: 0.0,
        Z: 0.0,
    };
    let trajectory = Simulation::new(&axes).output_interval(1.0).run(
        0.0,
        Vector3::new(1.0, 0.0, 0.0),
        Vector3::new(0.0, 0.0, 0.1),
        5.0,
    )?;
    println!("   t      x_fixed       y_fixed");
    for (t, q) in trajectory.times().iter().zip(trajectory.q()) {
        let (s, c) = axes.alpha(*t).sin_cos();
        println!(
            "{t:4.1}  {:12.9}  {:12.9}",
            q[0] * c - q[1] * s,
            q[0] * s + q[1] * c
        );
    }
    Ok(())
}
