//! A planar four-bar linkage: a closed kinematic loop declared as a tree (the crank and the
//! rocker on the ground, the coupler on the crank) plus the two loop-closure constraints
//! that join the coupler's end to the rocker's. A rough initial guess is made consistent by
//! projection; a free run keeps its energy, and the rocker follows Freudenstein's position
//! analysis. Driven by a third, moving constraint `θ₂ = w t`, the multiplier of that
//! constraint is the torque the crank needs.
//!
//! `cargo run --release --example four_bar`

use lagrange::nalgebra::Vector3;
use lagrange::{ConstrainedSystem, Integrator, Lagrangian, LagrangianSystem, Simulation};

/// Crank `a`, coupler `b`, rocker `c`, ground `d` (the rocker's pivot at `(d, 0)`), links
/// as uniform rods of masses `ma`, `mb`, `mc` in the vertical x-z plane; `theta2` is the
/// crank's angle, `theta3` the coupler's relative to it, `theta4` the rocker's.
#[derive(Lagrangian)]
#[lagrangian(
    coordinates(theta2, theta3, theta4),
    body(name = crank, mass = "ma", inertia = ["0", "ma*a^2/12", "ma*a^2/12"], joint = revolute(theta2),
         axis = ["0", "-1", "0"], com = ["a/2", "0", "0"]),
    body(name = coupler, mass = "mb", inertia = ["0", "mb*b^2/12", "mb*b^2/12"], parent = crank,
         joint = revolute(theta3), axis = ["0", "-1", "0"], origin = ["a", "0", "0"], com = ["b/2", "0", "0"]),
    body(name = rocker, mass = "mc", inertia = ["0", "mc*c^2/12", "mc*c^2/12"], joint = revolute(theta4),
         axis = ["0", "-1", "0"], origin = ["d", "0", "0"], com = ["c/2", "0", "0"]),
    gravity = ["0", "0", "-g"],
    constraint = "a*cos(theta2) + b*cos(theta2 + theta3) - d - c*cos(theta4)",
    constraint = "a*sin(theta2) + b*sin(theta2 + theta3) - c*sin(theta4)",
)]
pub struct FourBar {
    pub a: f64,
    pub b: f64,
    pub c: f64,
    pub d: f64,
    pub ma: f64,
    pub mb: f64,
    pub mc: f64,
    pub g: f64,
}

/// The same linkage with its crank driven at the rate `w`: the third multiplier's reaction
/// is the crank torque.
#[derive(Lagrangian)]
#[lagrangian(
    coordinates(theta2, theta3, theta4),
    body(name = crank, mass = "ma", inertia = ["0", "ma*a^2/12", "ma*a^2/12"], joint = revolute(theta2),
         axis = ["0", "-1", "0"], com = ["a/2", "0", "0"]),
    body(name = coupler, mass = "mb", inertia = ["0", "mb*b^2/12", "mb*b^2/12"], parent = crank,
         joint = revolute(theta3), axis = ["0", "-1", "0"], origin = ["a", "0", "0"], com = ["b/2", "0", "0"]),
    body(name = rocker, mass = "mc", inertia = ["0", "mc*c^2/12", "mc*c^2/12"], joint = revolute(theta4),
         axis = ["0", "-1", "0"], origin = ["d", "0", "0"], com = ["c/2", "0", "0"]),
    gravity = ["0", "0", "-g"],
    constraint = "a*cos(theta2) + b*cos(theta2 + theta3) - d - c*cos(theta4)",
    constraint = "a*sin(theta2) + b*sin(theta2 + theta3) - c*sin(theta4)",
    constraint = "theta2 - w*t",
)]
pub struct DrivenFourBar {
    pub a: f64,
    pub b: f64,
    pub c: f64,
    pub d: f64,
    pub ma: f64,
    pub mb: f64,
    pub mc: f64,
    pub g: f64,
    pub w: f64,
}

/// Freudenstein's position analysis: the rocker's angle for the crank angle `theta2`, on
/// the branch nearer `near` (`K₁ cos θ₄ − K₂ cos θ₂ + K₃ = cos(θ₂ − θ₄)` by the half-angle
/// tangent).
pub fn rocker_angle(l: &FourBar, theta2: f64, near: f64) -> f64 {
    let (k1, k2) = (l.d / l.a, l.d / l.c);
    let k3 = (l.a * l.a - l.b * l.b + l.c * l.c + l.d * l.d) / (2.0 * l.a * l.c);
    let (s, c) = theta2.sin_cos();
    let big_a = c - k1 - k2 * c + k3;
    let big_b = -2.0 * s;
    let big_c = k1 - (k2 + 1.0) * c + k3;
    let root = (big_b * big_b - 4.0 * big_a * big_c).sqrt();
    let branch = |sign: f64| 2.0 * ((-big_b + sign * root) / (2.0 * big_a)).atan();
    let distance = |x: f64| (x - near).sin().abs() + (1.0 - (x - near).cos());
    [branch(1.0), branch(-1.0)]
        .into_iter()
        .min_by(|x, y| distance(*x).total_cmp(&distance(*y)))
        .expect("two branches")
}

fn main() -> Result<(), lagrange::Error> {
    let linkage = FourBar {
        a: 0.2,
        b: 0.5,
        c: 0.4,
        d: 0.45,
        ma: 0.5,
        mb: 1.0,
        mc: 0.8,
        g: 9.81,
    };
    // A rough guess of a closed state, moved onto the constraints.
    let guess = Vector3::new(1.0, -0.8, 1.6);
    let (q0, qd0) = linkage.project_onto_constraints(0.0, &guess, &Vector3::zeros())?;
    println!(
        "guess ({:.4}, {:.4}, {:.4}) → consistent ({:.6}, {:.6}, {:.6})",
        guess[0], guess[1], guess[2], q0[0], q0[1], q0[2]
    );
    let run = Simulation::new(&linkage)
        .integrator(Integrator::dormand_prince(1e-11, 1e-11))
        .output_interval(0.5)
        .run(0.0, q0, qd0, 5.0)?;
    println!("\n   t     theta2     theta4   Freudenstein   energy");
    let mut near = q0[2];
    for (t, (q, qd)) in run.times().iter().zip(run.q().iter().zip(run.qd())) {
        let analysis = rocker_angle(&linkage, q[0], near);
        near = analysis;
        println!(
            "{t:5.2}  {:9.6}  {:9.6}  {analysis:9.6}  {:.12}",
            q[0],
            q[2],
            linkage.energy(*t, q, qd)
        );
    }

    let driven = DrivenFourBar {
        a: 0.2,
        b: 0.5,
        c: 0.4,
        d: 0.45,
        ma: 0.5,
        mb: 1.0,
        mc: 0.8,
        g: 9.81,
        w: 2.0,
    };
    let (q0, qd0) =
        driven.project_onto_constraints(0.0, &Vector3::new(0.0, 1.0, 1.6), &Vector3::zeros())?;
    let run = Simulation::new(&driven)
        .integrator(Integrator::dormand_prince(1e-11, 1e-11))
        .output_interval(0.25)
        .run(0.0, q0, qd0, std::f64::consts::PI)?;
    println!("\ncrank driven at 2 rad/s: the torque it needs\n   t     theta2    torque");
    for (t, (q, qd)) in run.times().iter().zip(run.q().iter().zip(run.qd())) {
        let torque = driven.reactions(*t, q, qd)?[(0, 2)];
        println!("{t:5.2}  {:8.5}  {torque:9.5}", q[0]);
    }
    Ok(())
}
