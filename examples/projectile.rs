//! Thomson & Tait §327's illustration of least action: a projectile thrown from the origin
//! with a given energy reaches a point in range by two paths, a low and a high aim. Both
//! make the action `A = ∫ 2T dt` stationary; only the low one makes it least, because the
//! high one touches the envelope of the paths of that energy — passes the kinetic focus of
//! the start — before it arrives. Then the same point in a given time: one path, and its
//! principal function `S = ∫ L dt`.
//!
//! For each motion the example prints Hamilton's relations of varying action (§§329–330),
//! computed from the variational equations and set beside the momenta, the energy and the
//! time they should equal, and the kinetic foci beside their closed form `t = v/(g sin α)`.
//!
//! `cargo run --release --example projectile`

use lagrange::nalgebra::Const;
use lagrange::nalgebra::Vector2;
use lagrange::{Connect, Lagrangian, Motion};

/// Mass `m` in uniform gravity `g`, `y` up.
#[derive(Lagrangian)]
#[lagrangian(
    coordinates(x, y),
    kinetic = "1/2*m*(dot(x)^2 + dot(y)^2)",
    potential = "m*g*y",
    draw(point = ball, at = ["x", "y"])
)]
pub struct Projectile {
    pub m: f64,
    pub g: f64,
}

/// Prints a motion: its start, action, foci (beside `focus`, their closed form, if given)
/// and Hamilton's relations.
fn print(motion: &Motion<Const<2>>, focus: Option<f64>) {
    let v0 = motion.initial_velocity;
    let elevation = v0[1].atan2(v0[0]);
    println!(
        "  aim {:.6}°, speed {:.6}, arrives at t = {:.12}",
        elevation.to_degrees(),
        v0.norm(),
        motion.time
    );
    println!(
        "  A = ∫ 2T dt = {:.12}, S = ∫ L dt = {:.12}: {}",
        motion.action,
        motion.principal,
        if motion.is_least() {
            "least action"
        } else {
            "the action is stationary, not least"
        }
    );
    let closed_form = focus.map_or(String::new(), |t| format!(" (closed form t = {t:.12})"));
    match motion.foci.as_slice() {
        [] => println!("  no kinetic focus before the end{closed_form}"),
        foci => {
            let times: Vec<f64> = foci.iter().map(|f| f.time).collect();
            println!("  kinetic foci at t = {times:.12?}{closed_form}")
        }
    }
    println!("  {:<32} {:>20} {:>20}", "relation", "computed", "expected");
    for relation in &motion.relations {
        let law = format!("{} = {}", relation.derivative, relation.law);
        println!(
            "  {law:<32} {:>20.12} {:>20.12}  difference {:.1e}",
            relation.computed,
            relation.expected,
            relation.difference()
        );
    }
}

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let projectile = Projectile { m: 1.0, g: 9.81 };
    let (from, to) = (Vector2::zeros(), Vector2::new(9.0, 2.0));
    let energy = 72.0;
    println!("From (0, 0) to (9, 2) at energy E = {energy} (speed 12 at the start):");
    for (k, motion) in Connect::at_energy(&projectile, from, to, energy)
        .solve()?
        .iter()
        .enumerate()
    {
        println!("motion {}:", k + 1);
        // The path touches the envelope of the paths of this energy at t = v/(g sin α).
        let v0 = motion.initial_velocity;
        print(motion, Some(v0.norm() * v0.norm() / (projectile.g * v0[1])));
    }
    let time = 0.8;
    println!("\nFrom (0, 0) to (9, 2) in the time τ = {time}:");
    for motion in Connect::in_time(&projectile, from, to, time).solve()? {
        // ∂q(t)/∂q̇₀ = t I: no focus at any time.
        print(&motion, None);
    }
    Ok(())
}
