//! Holonomic constraints against closed forms, an unconstrained
//! formulation of the same motion, and the general theorems.

#[path = "../examples/cartesian_pendulum.rs"]
#[allow(dead_code)]
mod cartesian;

use cartesian::CartesianPendulum;
use lagrange::nalgebra::Const;
use lagrange::nalgebra::{Vector1, Vector2, Vector4};
use lagrange::{
    Conserved, ConstrainedSystem, Error, Integrator, Lagrangian, LagrangianSystem, Simulation,
};

fn tight() -> Integrator {
    Integrator::dormand_prince(1e-12, 1e-12)
}

/// The same pendulum in its angle from the downward vertical.
#[derive(Lagrangian)]
#[lagrangian(
    coordinates(theta),
    kinetic = "1/2*m*l^2*dot(theta)^2",
    potential = "-m*g*l*cos(theta)"
)]
struct AnglePendulum {
    m: f64,
    l: f64,
    g: f64,
}

fn released(theta0: f64, l: f64) -> (Vector2<f64>, Vector2<f64>) {
    (
        Vector2::new(l * theta0.sin(), -l * theta0.cos()),
        Vector2::zeros(),
    )
}

#[test]
fn cartesian_pendulum_moves_like_the_angle_pendulum_with_the_right_tension() {
    let (m, l, g) = (1.3, 0.8, 9.81);
    let cartesian = CartesianPendulum { m, l, g };
    let angle = AnglePendulum { m, l, g };
    assert!(CartesianPendulum::INFO.constraints[0].scleronomic);
    assert_eq!(CartesianPendulum::INFO.conserved, Conserved::Energy);
    assert!(
        CartesianPendulum::INFO.cyclic.is_empty(),
        "x is in the constraint"
    );
    let (q0, qd0) = released(1.2, l);
    let a = Simulation::new(&cartesian)
        .integrator(tight())
        .output_interval(0.5)
        .run(0.0, q0, qd0, 10.0)
        .unwrap();
    let b = Simulation::new(&angle)
        .integrator(tight())
        .output_interval(0.5)
        .run(0.0, Vector1::new(1.2), Vector1::new(0.0), 10.0)
        .unwrap();
    for k in 0..a.len() {
        let (q, qd) = (a.q()[k], a.qd()[k]);
        let (theta, theta_dot) = (b.q()[k][0], b.qd()[k][0]);
        let expected = Vector2::new(l * theta.sin(), -l * theta.cos());
        assert!(
            (q - expected).norm() < 1e-9,
            "t = {}: {q} vs {expected}",
            a.times()[k]
        );
        // The rod's tension m(g cos θ + l θ̇²), the magnitude of the reaction λ ∇G.
        let tension = m * (g * theta.cos() + l * theta_dot * theta_dot);
        let reaction = cartesian
            .reactions(a.times()[k], &q, &qd)
            .unwrap()
            .column(0)
            .norm();
        assert!(
            (reaction - tension).abs() < 1e-8 * tension.abs().max(1.0),
            "{reaction} vs {tension}"
        );
    }
}

#[test]
fn drift_stays_below_1e_10_over_100_s() {
    let p = CartesianPendulum {
        m: 1.0,
        l: 1.0,
        g: 9.81,
    };
    let (q0, qd0) = released(2.0, 1.0);
    let trajectory = Simulation::new(&p)
        .integrator(tight())
        .run(0.0, q0, qd0, 100.0)
        .unwrap();
    let worst = trajectory
        .times()
        .iter()
        .zip(trajectory.q().iter().zip(trajectory.qd()))
        .map(|(t, (q, qd))| {
            let g = p.constraint_values(*t, q)[0].abs();
            g.max(p.constraint_velocities(*t, q, qd)[0].abs())
        })
        .fold(0.0, f64::max);
    assert!(worst <= 1e-10, "|G| or |dG/dt| reached {worst:e}");
    assert!(trajectory.invariant("energy").unwrap().drift() < 1e-8);
}

/// The pendulum constraint multiplied by a constant `rho`.
#[derive(Lagrangian)]
#[lagrangian(
    coordinates(x, y),
    kinetic = "1/2*m*(dot(x)^2 + dot(y)^2)",
    potential = "m*g*y",
    constraint = "rho*(x^2 + y^2 - l^2)"
)]
struct RescaledPendulum {
    m: f64,
    l: f64,
    g: f64,
    rho: f64,
}

#[test]
fn rescaling_the_constraint_changes_the_multiplier_not_the_reaction() {
    let p = CartesianPendulum {
        m: 1.0,
        l: 1.0,
        g: 9.81,
    };
    let rho = -3.5;
    let r = RescaledPendulum {
        m: 1.0,
        l: 1.0,
        g: 9.81,
        rho,
    };
    let (q, qd) = (Vector2::new(0.6, -0.8), Vector2::new(0.4, 0.3));
    let (a, b) = (
        p.constrained_motion(0.0, &q, &qd).unwrap(),
        r.constrained_motion(0.0, &q, &qd).unwrap(),
    );
    assert!((b.multipliers[0] - a.multipliers[0] / rho).abs() < 1e-12);
    assert!((a.accelerations - b.accelerations).norm() < 1e-12);
    let (ra, rb) = (
        p.reactions(0.0, &q, &qd).unwrap(),
        r.reactions(0.0, &q, &qd).unwrap(),
    );
    assert!((ra - rb).norm() < 1e-12);
}

/// A bead on a straight wire through the origin turning at the rate `w` (rheonomic).
#[derive(Lagrangian)]
#[lagrangian(
    coordinates(x, y),
    kinetic = "1/2*m*(dot(x)^2 + dot(y)^2)",
    constraint = "y*cos(w*t) - x*sin(w*t)"
)]
struct BeadOnTurningWire {
    m: f64,
    w: f64,
}

#[test]
fn bead_on_a_turning_wire_follows_cosh_and_the_power_theorem() {
    assert!(!BeadOnTurningWire::INFO.constraints[0].scleronomic);
    assert_eq!(BeadOnTurningWire::INFO.conserved, Conserved::None);
    let bead = BeadOnTurningWire { m: 0.7, w: 1.5 };
    // At rest on the wire, at r0 = 0.4 along it: moving with the wire, ẏ = w x.
    let (r0, dt) = (0.4, 1e-3);
    let (q0, qd0) = (Vector2::new(r0, 0.0), Vector2::new(0.0, bead.w * r0));
    bead.check_consistent(0.0, &q0, &qd0, 1e-12).unwrap();
    let trajectory = Simulation::new(&bead)
        .integrator(tight())
        .output_interval(dt)
        .run(0.0, q0, qd0, 2.0)
        .unwrap();
    let energy = |q: &Vector2<f64>, qd: &Vector2<f64>| bead.energy(0.0, q, qd);
    // Radial motion along the wire: r̈ = w² r, so r = r0 cosh(w t).
    let mut power = Vec::new();
    for (t, (q, qd)) in trajectory
        .times()
        .iter()
        .zip(trajectory.q().iter().zip(trajectory.qd()))
    {
        assert!(
            (q.norm() - r0 * (bead.w * t).cosh()).abs() < 1e-9,
            "t = {t}"
        );
        let lambda = bead.constrained_motion(*t, q, qd).unwrap().multipliers[0];
        power.push(-lambda * bead.constraint_time_derivative(*t, q)[0]);
    }
    // dE/dt = −λ·∂G/∂t (a moving constraint works through its reaction): E(t) − E(0) against Simpson's rule on the power.
    let n = power.len() - 1;
    let work: f64 = (0..n / 2)
        .map(|i| dt / 3.0 * (power[2 * i] + 4.0 * power[2 * i + 1] + power[2 * i + 2]))
        .sum();
    let k = 2 * (n / 2);
    let gained = energy(&trajectory.q()[k], &trajectory.qd()[k]) - energy(&q0, &qd0);
    assert!(
        (gained - work).abs() < 1e-9 * gained.abs().max(1.0),
        "ΔE = {gained}, ∫ −λ G_t dt = {work}"
    );
}

#[test]
fn inconsistent_initial_data_is_an_error_and_projection_repairs_it() {
    let p = CartesianPendulum {
        m: 1.0,
        l: 1.0,
        g: 9.81,
    };
    let (q0, qd0) = (Vector2::new(0.61, -0.8), Vector2::new(0.1, 0.0));
    let error = Simulation::new(&p).run(0.0, q0, qd0, 1.0).unwrap_err();
    assert!(
        matches!(error, Error::InconsistentState { what: "G", .. }),
        "{error}"
    );
    assert!(
        error.to_string().contains(&format!(
            "`{} = 0`",
            CartesianPendulum::INFO.constraints[0].text
        )),
        "{error}"
    );
    let (q, qd) = p.project_onto_constraints(0.0, &q0, &qd0).unwrap();
    p.check_consistent(0.0, &q, &qd, 1e-12).unwrap();
    assert!(Simulation::new(&p).run(0.0, q, qd, 1.0).is_ok());
}

/// Two copies of one constraint.
#[derive(Lagrangian)]
#[lagrangian(
    coordinates(x, y, z),
    kinetic = "1/2*m*(dot(x)^2 + dot(y)^2 + dot(z)^2)",
    constraint = "x^2 + y^2 + z^2 - 1",
    constraint = "2*(x^2 + y^2 + z^2 - 1)"
)]
struct Redundant {
    m: f64,
}

#[test]
fn dependent_constraints_are_named() {
    let r = Redundant { m: 1.0 };
    let (q, qd) = (
        lagrange::nalgebra::Vector3::new(0.0, 0.6, 0.8),
        lagrange::nalgebra::Vector3::zeros(),
    );
    let error = r.accelerations(0.0, &q, &qd).unwrap_err();
    let message = error.to_string();
    assert!(
        matches!(error, Error::DependentConstraints { .. }),
        "{message}"
    );
    assert!(
        message.contains("not independent") && message.contains("2*"),
        "{message}"
    );
}

/// Two particles in a plane: joined by a rod, and possibly held by one more constraint.
macro_rules! pair {
    ($name:ident $(, $extra:literal)?) => {
        #[derive(Lagrangian)]
        #[lagrangian(
            coordinates(x1, y1, x2, y2),
            kinetic = "1/2*m1*(dot(x1)^2 + dot(y1)^2) + 1/2*m2*(dot(x2)^2 + dot(y2)^2)",
            constraint = "(x1 - x2)^2 + (y1 - y2)^2 - d^2",
            $(constraint = $extra,)?
        )]
        struct $name {
            m1: f64,
            m2: f64,
            d: f64,
        }
    };
}
pair!(FreeRod);
pair!(RodOnCircle, "x1^2 + y1^2 - 1");
pair!(RodOnLine, "y1");

/// Total momentum and angular momentum about the origin along a run.
fn momenta_along<S: LagrangianSystem<Const<4>>>(
    s: &S,
    m: (f64, f64),
    q0: Vector4<f64>,
    qd0: Vector4<f64>,
) -> (f64, f64, f64) {
    let trajectory = Simulation::new(s)
        .integrator(tight())
        .run(0.0, q0, qd0, 5.0)
        .unwrap();
    let of = |q: &Vector4<f64>, v: &Vector4<f64>| {
        let p = [m.0 * v[0] + m.1 * v[2], m.0 * v[1] + m.1 * v[3]];
        let l = m.0 * (q[0] * v[1] - q[1] * v[0]) + m.1 * (q[2] * v[3] - q[3] * v[2]);
        (p, l)
    };
    let (p0, l0) = of(&q0, &qd0);
    let mut worst = (0.0f64, 0.0f64, 0.0f64);
    for (q, v) in trajectory.q().iter().zip(trajectory.qd()) {
        let (p, l) = of(q, v);
        worst.0 = worst.0.max((p[0] - p0[0]).abs());
        worst.1 = worst.1.max((p[1] - p0[1]).abs());
        worst.2 = worst.2.max((l - l0).abs());
    }
    worst
}

#[test]
fn momentum_theorems_follow_the_symmetries_of_the_constraints() {
    // Seed 002, theorems А and Б: momentum is conserved when the constraints admit
    // translations, angular momentum when they admit rotations, and not otherwise.
    let m = (1.0, 2.0);
    // Rod from (1, 0) to (1, 1) (d = 1), spinning and drifting.
    let q0 = Vector4::new(1.0, 0.0, 1.0, 1.0);
    let free = momenta_along(
        &FreeRod {
            m1: m.0,
            m2: m.1,
            d: 1.0,
        },
        m,
        q0,
        Vector4::new(0.3, 0.5, -0.7, 0.5),
    );
    assert!(
        free.0 < 1e-9 && free.1 < 1e-9 && free.2 < 1e-9,
        "free rod: {free:?}"
    );
    // First particle on the unit circle, moving along it: rotations only.
    let circle = momenta_along(
        &RodOnCircle {
            m1: m.0,
            m2: m.1,
            d: 1.0,
        },
        m,
        q0,
        Vector4::new(0.0, 0.5, -0.7, 0.5),
    );
    assert!(
        circle.2 < 1e-9,
        "angular momentum on the circle: {circle:?}"
    );
    assert!(
        circle.0.max(circle.1) > 1e-2,
        "momentum on the circle should change: {circle:?}"
    );
    // First particle on the line y1 = 0: translations along x only.
    let line = momenta_along(
        &RodOnLine {
            m1: m.0,
            m2: m.1,
            d: 1.0,
        },
        m,
        q0,
        Vector4::new(0.3, 0.0, -0.7, 0.0),
    );
    assert!(line.0 < 1e-9, "x-momentum on the line: {line:?}");
    assert!(
        line.1 > 1e-2 && line.2 > 1e-2,
        "y-momentum and angular momentum should change: {line:?}"
    );
}
