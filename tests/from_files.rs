//! Models the derive reads from files: `#[lagrangian(model = "…")]` takes a model file's
//! `[model]` (the double pendulum of `examples/models/`, against its closed-form
//! equations), `#[lagrangian(urdf = "…")]` a robot (the Panda of example-robot-data,
//! against Pinocchio's forward dynamics, mass matrix, bias forces and gravity torques recorded in `lagrange-cli/tests/pinocchio/`; with
//! inputs on its joints, `actuated`, holding a pose by computed-torque control as the
//! closed loop's closed form says).

use lagrange::nalgebra::{SVector, Vector2};
use lagrange::{Lagrangian, LagrangianSystem};

mod pinocchio_reference;

#[derive(Lagrangian)]
#[lagrangian(model = "examples/models/double_pendulum.toml")]
struct DoublePendulum {
    m1: f64,
    m2: f64,
    l1: f64,
    l2: f64,
    g: f64,
}

#[test]
fn a_model_file_derives_the_double_pendulum() {
    let p = DoublePendulum {
        m1: 1.3,
        m2: 0.7,
        l1: 0.9,
        l2: 1.1,
        g: 9.81,
    };
    assert_eq!(DoublePendulum::INFO.name, "DoublePendulum");
    assert_eq!(
        DoublePendulum::INFO.coordinates.join(", "),
        "theta1, theta2"
    );
    for (t1, t2, w1, w2) in [(0.3, -1.2, 0.5, 2.0), (2.5, 0.4, -1.5, 0.25)] {
        let (q, qd) = (Vector2::new(t1, t2), Vector2::new(w1, w2));
        let (m, f) = p.mass_matrix_and_forcing(0.0, &q, &qd);
        // Absolute angles from the downward vertical, point masses on massless rods.
        let (s, c) = ((t1 - t2).sin(), (t1 - t2).cos());
        let m12 = p.m2 * p.l1 * p.l2 * c;
        let expected_m = [
            [(p.m1 + p.m2) * p.l1 * p.l1, m12],
            [m12, p.m2 * p.l2 * p.l2],
        ];
        let expected_f = [
            -p.m2 * p.l1 * p.l2 * s * w2 * w2 - (p.m1 + p.m2) * p.g * p.l1 * t1.sin(),
            p.m2 * p.l1 * p.l2 * s * w1 * w1 - p.m2 * p.g * p.l2 * t2.sin(),
        ];
        for i in 0..2 {
            assert!(
                (f[i] - expected_f[i]).abs() < 1e-12,
                "f = {f}, {expected_f:?}"
            );
            for j in 0..2 {
                assert!((m[(i, j)] - expected_m[i][j]).abs() < 1e-12, "M = {m}");
            }
        }
    }
}

#[derive(Lagrangian)]
#[lagrangian(
    urdf = "lagrange-cli/tests/pinocchio/robots/panda.urdf",
    fixed_joint_merge
)]
struct Panda {
    g: f64,
}

#[test]
fn a_urdf_derives_the_panda_as_pinocchio_computes_it() {
    pinocchio_reference::compare(&Panda { g: 9.81 }, "panda").assert_within("panda", 1e-12);
}

#[path = "../examples/panda_computed_torque.rs"]
#[allow(dead_code)]
mod panda_computed_torque;

#[test]
fn the_panda_holds_a_pose_as_computed_torque_control_says() {
    // The closed loop of the example is q̈ = ω² e − 2ω q̇ on every joint: each error
    // decays as e(0)(1 + ωt)e^(−ωt).
    use panda_computed_torque::{hold, target};
    let omega = 3.0;
    let start = SVector::from([0.4, 0.1, -0.3, -1.8, 0.2, 1.7, 0.5, 0.01, 0.03]);
    let run = hold(start, omega, 2.0).unwrap();
    let e0 = target() - start;
    assert_eq!(run.times().last(), Some(&2.0));
    for (t, q) in run.times().iter().zip(run.q()) {
        let decay = (1.0 + omega * t) * (-omega * t).exp();
        let difference = ((target() - q) - e0 * decay).abs().max();
        assert!(difference < 1e-9, "t = {t}: {difference:e}");
    }
}
