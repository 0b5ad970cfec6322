//! A coin rolling on a table: a thin uniform disk of radius `R` declared as a body with
//! `rolls = "R"`, whose two no-slip conditions the engine derives from its pose. Rolling
//! upright in a straight line at spin `Ω`, it is stable when `Ω² > g/(3R)` (for any disk,
//! `Ω² > m g R A / (C (C + m R²))`): the example linearizes the rolling on the
//! constraints' tangent space at speeds around the critical one, prints the lean's
//! eigenvalues beside the closed form `λ² = [m g R − (C + m R²) C Ω²/A]/(A + m R²)`, and
//! then lets a slow coin lean over and a fast one wobble.
//!
//! `cargo run --release --example rolling_disk`

use lagrange::nalgebra::Vector5;
use lagrange::{Integrator, Lagrangian, Simulation, linearize_constrained};

/// Centre `(x, y, R sin θ)`, orientation `R_z(ψ) R_x(θ) R_z(φ)` (`θ = π/2` upright),
/// moments `A` about a diameter and `C` about the axis.
#[derive(Lagrangian)]
#[lagrangian(
    coordinates(x, y, psi, theta, phi),
    body(
        name = disk,
        mass = "m",
        inertia = ["A", "A", "C"],
        rotation = euler_zxz(psi, theta, phi),
        position = ["x", "y", "R*sin(theta)"],
        rolls = "R",
    ),
    gravity = ["0", "0", "-g"]
)]
#[allow(non_snake_case)]
pub struct RollingDisk {
    pub m: f64,
    pub A: f64,
    pub C: f64,
    pub R: f64,
    pub g: f64,
}

fn main() -> Result<(), lagrange::Error> {
    let (m, r, g) = (0.01_f64, 0.012_f64, 9.81_f64);
    let coin = RollingDisk {
        m,
        A: m * r * r / 4.0,
        C: m * r * r / 2.0,
        R: r,
        g,
    };
    let critical = (g / (3.0 * r)).sqrt();
    println!(
        "critical spin √(g/3R) = {critical:.6} rad/s, speed {:.6} m/s\n",
        critical * r
    );
    println!(
        "{:>8} {:>22} {:>26}",
        "Ω/Ωc", "closed-form λ", "largest |λ| computed"
    );
    let upright = Vector5::new(0.0, 0.0, 0.0, std::f64::consts::FRAC_PI_2, 0.0);
    for ratio in [0.5, 0.9, 0.99, 1.01, 1.1, 2.0] {
        let spin = ratio * critical;
        let qd = Vector5::new(-r * spin, 0.0, 0.0, 0.0, spin);
        let eigenvalues = linearize_constrained(&coin, 0.0, &upright, &qd)?.eigenvalues()?;
        let lean = (m * g * r - (coin.C + m * r * r) * coin.C * spin * spin / coin.A)
            / (coin.A + m * r * r);
        let closed = if lean > 0.0 {
            format!("±{:.9}", lean.sqrt())
        } else {
            format!("±{:.9} i", (-lean).sqrt())
        };
        let largest = eigenvalues.iter().map(|l| l.norm()).fold(0.0, f64::max);
        println!("{ratio:>8} {closed:>22} {largest:>26.9}");
    }
    for ratio in [0.8, 1.5] {
        let spin = ratio * critical;
        let tilted = Vector5::new(0.0, 0.0, 0.0, std::f64::consts::FRAC_PI_2 - 0.01, 0.0);
        let qd = Vector5::new(-r * spin, 0.0, 0.0, 0.0, spin);
        let trajectory = Simulation::new(&coin)
            .integrator(Integrator::dormand_prince(1e-10, 1e-10))
            .run(0.0, tilted, qd, 0.3)?;
        let lean = trajectory
            .q()
            .iter()
            .map(|q| (q[3] - std::f64::consts::FRAC_PI_2).abs())
            .fold(0.0, f64::max);
        println!("\nΩ = {ratio} Ωc from a lean of 0.01 rad: largest lean in 0.3 s {lean:.4} rad");
    }
    Ok(())
}
