//! The 3-link spatial arm of `lagrange-cli/tests/fixtures/arm3.urdf`, as `lagrange import`
//! translates it, written as a derive: a waist about z, a shoulder and an elbow about y, a
//! tool fixed at the forearm's end, the elbow damped (`<dynamics damping="0.1">`). At rest, the moment each joint transmits along its axis
//! is the torque its motor must hold against gravity; the rest of the wrench is the
//! bearing's load.
//!
//! `cargo run --release --example urdf_arm`

use lagrange::Lagrangian;
use lagrange::nalgebra::Vector3;

/// The arm of the fixture written by hand: the upper arm's inertial frame is turned a
/// quarter about z, so its tensor's xx and yy swap and xy changes sign.
#[derive(Lagrangian)]
#[lagrangian(
    coordinates(waist_joint, shoulder, elbow),
    body(name = waist, mass = "2", inertia = ["0.02", "0.02", "0.01"], joint = revolute(waist_joint),
         axis = ["0", "0", "1"], origin = ["0", "0", "0.1"], com = ["0", "0", "0.05"]),
    body(name = upper_arm, mass = "1.5", inertia = ["0.002", "0.03", "0.03", "-0.001", "0", "0"],
         parent = waist, joint = revolute(shoulder), axis = ["0", "1", "0"], origin = ["0", "0", "0.1"],
         rpy = ["0", "0", "0.5"], com = ["0.2", "0", "0"]),
    body(name = forearm, mass = "1", inertia = ["0.001", "0.01", "0.01", "0", "0.0005", "0"],
         parent = upper_arm, joint = revolute(elbow), axis = ["0", "1", "0"], origin = ["0.4", "0", "0"],
         com = ["0.15", "0", "0"]),
    body(name = tool, mass = "0.5", inertia = ["0.0001", "0.0001", "0.0001"], parent = forearm,
         joint = fixed, origin = ["0.3", "0", "0"]),
    gravity = ["0", "0", "-g"],
    dissipation = "1/2*0.1*dot(elbow)^2",
)]
pub struct Arm {
    pub g: f64,
}

fn main() {
    let arm = Arm { g: 9.81 };
    println!("shoulder  elbow   | shoulder torque  elbow torque  | shoulder bearing force");
    for (shoulder, elbow) in [(0.0, 0.0), (0.5, 0.0), (0.5, 1.0), (1.2, -0.6)] {
        let q = Vector3::new(0.0, shoulder, elbow);
        let wrenches = arm.joint_wrenches(0.0, &q, &Vector3::zeros(), &Vector3::zeros());
        // With the waist at 0 (and its yaw of 0.5 at the shoulder) the shoulder's axis is
        // the waist's y turned by 0.5 about z; the elbow's is parallel to it.
        let axis = Vector3::new(-(0.5f64).sin(), (0.5f64).cos(), 0.0);
        let [_, upper, fore, _] = wrenches;
        println!(
            "{shoulder:8.2} {elbow:6.2}  | {:15.6}  {:12.6}  | {:.4}",
            upper.moment.dot(&axis),
            fore.moment.dot(&axis),
            upper.force.norm()
        );
    }
}
