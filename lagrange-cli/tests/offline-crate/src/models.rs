//! Models compiled twice by the offline test: here with the engine off (from
//! `.lagrange/`), and in `lagrange-cli/tests/offline.rs` with the engine on. Both print the same
//! fingerprint only if the two expansions are the same code.

use lagrange::nalgebra::{Vector1, Vector2, Vector4};
use lagrange::{
    ConstrainedSystem, Integrator, Lagrangian, LagrangianSystem, ReducedSystem, Simulation,
};

/// The planar double pendulum.
#[derive(Lagrangian)]
#[lagrangian(
    coordinates(theta1, theta2),
    kinetic = "1/2*(m1+m2)*l1^2*dot(theta1)^2 + m2*l1*l2*cos(theta1-theta2)*dot(theta1)*dot(theta2) + 1/2*m2*l2^2*dot(theta2)^2",
    potential = "-(m1+m2)*g*l1*cos(theta1) - m2*g*l2*cos(theta2)"
)]
pub(crate) struct DoublePendulum {
    pub m1: f64,
    pub m2: f64,
    pub l1: f64,
    pub l2: f64,
    pub g: f64,
}

/// A pendulum in Cartesian coordinates with the rod as a holonomic constraint, damped.
#[derive(Lagrangian)]
#[lagrangian(
    coordinates(x, y),
    kinetic = "1/2*m*(dot(x)^2 + dot(y)^2)",
    potential = "m*g*y",
    dissipation = "1/2*c*(dot(x)^2 + dot(y)^2)",
    constraint = "x^2 + y^2 - l^2"
)]
pub(crate) struct CartesianPendulum {
    pub m: f64,
    pub g: f64,
    pub l: f64,
    pub c: f64,
}

/// A central orbit with the angle ignored (Routh's reduction).
#[derive(Lagrangian)]
#[lagrangian(
    coordinates(r, phi),
    kinetic = "1/2*m*(dot(r)^2 + r^2*dot(phi)^2)",
    potential = "-k*m/r",
    ignore(phi)
)]
pub(crate) struct Orbit {
    pub m: f64,
    pub k: f64,
}

/// Two arms of two links each on one fixed base: a tree whose mass matrix has zeros
/// between the arms, and whose programs run through the runtime's `wide`.
#[derive(Lagrangian)]
#[lagrangian(
    coordinates(a1, a2, b1, b2),
    body(name = a_upper, mass = "m", inertia = ["i", "i", "k"], joint = revolute(a1),
         axis = ["0", "1", "0"], com = ["0", "0", "-l"]),
    body(name = a_lower, mass = "m", inertia = ["i", "k", "i"], parent = a_upper,
         joint = revolute(a2), axis = ["1", "0", "0"], origin = ["0", "0", "-l"],
         com = ["0", "0", "-l"]),
    body(name = b_upper, mass = "m", inertia = ["k", "i", "i"], joint = revolute(b1),
         axis = ["0", "1", "0"], origin = ["w", "0", "0"], com = ["0", "0", "-l"]),
    body(name = b_lower, mass = "m", inertia = ["i", "i", "k"], parent = b_upper,
         joint = revolute(b2), axis = ["0", "0", "1"], origin = ["0", "0", "-l"],
         com = ["l", "0", "-l"]),
    gravity = ["0", "0", "-g"],
)]
pub(crate) struct Branches {
    pub m: f64,
    pub l: f64,
    pub w: f64,
    pub i: f64,
    pub k: f64,
    pub g: f64,
}

/// Numbers that only constants make (`√2`, `π`, `sin 1`) in `M`, where folding them again
/// could change their last bit.
#[derive(Lagrangian)]
#[lagrangian(
    coordinates(x, theta),
    kinetic = "1/2*sqrt(2)*m*dot(x)^2 + pi^(1/2)*sin(1)*m*l*cos(theta)*dot(x)*dot(theta) + 1/2*m*l^2*dot(theta)^2",
    potential = "-m*g*l*cos(theta)",
    force(x = "-c*dot(x)")
)]
pub(crate) struct Constants {
    pub m: f64,
    pub l: f64,
    pub g: f64,
    pub c: f64,
}

/// Bit patterns of accelerations, integrals and short runs of every model.
pub(crate) fn fingerprint() -> Vec<u64> {
    let mut bits = Vec::new();
    let mut push = |values: &[f64]| bits.extend(values.iter().map(|v| v.to_bits()));

    let pendulum = DoublePendulum {
        m1: 1.0,
        m2: 1.5,
        l1: 1.0,
        l2: 0.7,
        g: 9.81,
    };
    let (q, qd) = (Vector2::new(1.2, -0.4), Vector2::new(0.3, 2.0));
    push(
        pendulum
            .accelerations(0.0, &q, &qd)
            .expect("regular")
            .as_slice(),
    );
    push(&[pendulum.energy(0.0, &q, &qd)]);
    let run = Simulation::new(&pendulum)
        .integrator(Integrator::Rk4 { dt: 1e-3 })
        .run(0.0, q, qd, 1.0)
        .expect("integrates");
    let (_, q_end, qd_end) = run.last().expect("a trajectory has its start");
    push(q_end.as_slice());
    push(qd_end.as_slice());

    let cartesian = CartesianPendulum {
        m: 1.0,
        g: 9.81,
        l: 2.0,
        c: 0.1,
    };
    let (q, qd) = (Vector2::new(2.0 * 0.6, -2.0 * 0.8), Vector2::new(0.8, 0.6));
    push(
        cartesian
            .accelerations(0.0, &q, &qd)
            .expect("regular")
            .as_slice(),
    );
    push(
        cartesian
            .constrained_motion(0.0, &q, &qd)
            .expect("regular")
            .multipliers
            .as_slice(),
    );
    let run = Simulation::new(&cartesian)
        .integrator(Integrator::Rk4 { dt: 1e-3 })
        .run(0.0, q, qd, 1.0)
        .expect("integrates");
    let (_, q_end, _) = run.last().expect("a trajectory has its start");
    push(q_end.as_slice());

    let orbit = Orbit { m: 1.0, k: 1.0 }.reduced([1.1]);
    let (q, qd) = (Vector1::new(1.3), Vector1::new(0.2));
    push(
        orbit
            .accelerations(0.0, &q, &qd)
            .expect("regular")
            .as_slice(),
    );
    push(orbit.ignored_velocities(0.0, &q, &qd).as_slice());
    push(&[orbit.energy(0.0, &q, &qd)]);

    // Without debug assertions (the offline build) `mass_matrix` runs a program of its
    // own, with them (the engine build, the tests') the whole dynamics: both are compared
    // with the engine build's `M` of the whole dynamics, bit for bit.
    let arms = Branches {
        m: 1.3,
        l: 0.4,
        w: 0.3,
        i: 0.02,
        k: 0.005,
        g: 9.81,
    };
    for (q, qd) in [
        (
            Vector4::new(0.3, -1.1, 0.9, 0.2),
            Vector4::new(0.5, 0.1, -0.2, 0.3),
        ),
        (
            Vector4::new(-2.0, 0.4, 0.0, 1.7),
            Vector4::new(0.0, -3.1, 0.7, 0.0),
        ),
    ] {
        let (m, f) = arms.mass_matrix_and_forcing(0.0, &q, &qd);
        push(arms.mass_matrix(0.0, &q, &qd).as_slice());
        push(m.as_slice());
        push(f.as_slice());
        push(
            arms.accelerations(0.0, &q, &qd)
                .expect("regular")
                .as_slice(),
        );
    }
    let constants = Constants {
        m: 0.7,
        l: 1.3,
        g: 9.81,
        c: 0.2,
    };
    let (q, qd) = (Vector2::new(1.2, -2.0), Vector2::new(0.7, -3.1));
    push(constants.mass_matrix(0.0, &q, &qd).as_slice());
    push(constants.mass_matrix_and_forcing(0.0, &q, &qd).0.as_slice());
    bits
}
