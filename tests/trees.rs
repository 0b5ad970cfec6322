//! Bodies joined by joints (kinematic trees): positions, orientations and angular
//! velocities composed down the tree, against the same systems written by hand or placed
//! body by body.

#[path = "../examples/cartpole_lqr.rs"]
#[allow(dead_code)]
mod lqr;

use lagrange::nalgebra::Const;
use lagrange::nalgebra::SVector;
use lagrange::{Check, Lagrangian, LagrangianSystem, Sample};

/// Residuals `M q̈ − f` of `other` at the accelerations of the system under test.
fn same_equations<H: LagrangianSystem<Const<N>>, const N: usize>(
    other: &H,
    s: &Sample<Const<N>>,
) -> Vec<f64> {
    residual(other, s).iter().copied().collect()
}

/// A double pendulum as two links, the second's angle relative to the first, in a field
/// along `−z`; the joints turn about `y`.
#[derive(Lagrangian)]
#[lagrangian(
    coordinates(theta, phi),
    body(name = upper, mass = "m1", inertia = ["0", "0", "0"], joint = revolute(theta), axis = ["0", "1", "0"],
         com = ["0", "0", "-l1"]),
    body(name = lower, mass = "m2", inertia = ["0", "0", "0"], parent = upper, joint = revolute(phi),
         axis = ["0", "1", "0"], origin = ["0", "0", "-l1"], com = ["0", "0", "-l2"]),
    gravity = ["0", "0", "-g"],
)]
struct LinkedPendulum {
    m1: f64,
    m2: f64,
    l1: f64,
    l2: f64,
    g: f64,
}

/// The same double pendulum by hand, in the relative angle `φ = θ₂ − θ₁`.
#[derive(Lagrangian)]
#[lagrangian(
    coordinates(theta, phi),
    kinetic = "1/2*(m1 + m2)*l1^2*dot(theta)^2 + m2*l1*l2*cos(phi)*dot(theta)*(dot(theta) + dot(phi)) + 1/2*m2*l2^2*(dot(theta) + dot(phi))^2",
    potential = "-(m1 + m2)*g*l1*cos(theta) - m2*g*l2*cos(theta + phi)"
)]
struct RelativePendulum {
    m1: f64,
    m2: f64,
    l1: f64,
    l2: f64,
    g: f64,
}

#[test]
fn a_chain_of_revolute_joints_is_the_double_pendulum() {
    let report = Check::new()
        .all_coordinates(-3.0..3.0)
        .run(|p: &LinkedPendulum, s| {
            let hand = RelativePendulum {
                m1: p.m1,
                m2: p.m2,
                l1: p.l1,
                l2: p.l2,
                g: p.g,
            };
            same_equations(&hand, s)
        })
        .unwrap();
    report.assert_below(1e-12).unwrap();
}

/// The cart-pole as a tree: a cart on a prismatic joint along `x`, the pole on a revolute
/// joint about `y` (upright at 0), driven by the input force on the cart.
#[derive(Lagrangian)]
#[lagrangian(
    coordinates(x, theta),
    body(name = cart, mass = "M", inertia = ["0", "0", "0"], joint = prismatic(x), axis = ["1", "0", "0"]),
    body(name = pole, mass = "m", inertia = ["0", "0", "0"], parent = cart, joint = revolute(theta),
         axis = ["0", "1", "0"], com = ["0", "0", "l"]),
    gravity = ["0", "0", "-g"],
    force(x = "u"),
    inputs(u),
)]
#[allow(non_snake_case)]
struct TreeCartPole {
    M: f64,
    m: f64,
    l: f64,
    g: f64,
    u: f64,
}

#[test]
fn a_prismatic_and_a_revolute_joint_make_the_cart_pole() {
    let report = Check::new()
        .all_coordinates(-3.0..3.0)
        .run(|p: &TreeCartPole, s| {
            let hand = lqr::CartPole {
                M: p.M,
                m: p.m,
                l: p.l,
                g: p.g,
                u: p.u,
            };
            same_equations(&hand, s)
        })
        .unwrap();
    report.assert_below(1e-12).unwrap();
}

/// A spatial two-link arm: a waist turning about `z`, an upper arm on a shoulder about
/// the waist's `y` (the shoulder raised by `h`, the joint frame turned by `rpy` about z),
/// full inertia tensors off the centres of mass.
#[derive(Lagrangian)]
#[lagrangian(
    coordinates(q1, q2),
    body(name = waist, mass = "m1", inertia = ["A1", "B1", "C1", "D1", "0", "0"], joint = revolute(q1),
         axis = ["0", "0", "1"], com = ["a1", "0", "h1"]),
    body(name = upper, mass = "m2", inertia = ["A2", "B2", "C2", "0", "E2", "F2"], parent = waist,
         joint = revolute(q2), axis = ["0", "1", "0"], origin = ["0", "0", "h"], rpy = ["0", "0", "c"],
         com = ["a2", "0", "0"]),
    gravity = ["0", "0", "-g"],
)]
#[allow(non_snake_case)]
struct Arm {
    m1: f64,
    m2: f64,
    A1: f64,
    B1: f64,
    C1: f64,
    D1: f64,
    A2: f64,
    B2: f64,
    C2: f64,
    E2: f64,
    F2: f64,
    a1: f64,
    h1: f64,
    a2: f64,
    h: f64,
    c: f64,
    g: f64,
}

/// The same arm placed body by body: orientations as products of rotations about axes,
/// centres of mass written out (`R_z(q₁ + c) R_y(q₂) (a₂, 0, 0)` plus the shoulder).
#[derive(Lagrangian)]
#[lagrangian(
    coordinates(q1, q2),
    body(name = waist, mass = "m1", inertia = ["A1", "B1", "C1", "D1", "0", "0"], rotation = about_z(q1),
         position = ["a1*cos(q1)", "a1*sin(q1)", "h1"]),
    body(name = upper, mass = "m2", inertia = ["A2", "B2", "C2", "0", "E2", "F2"],
         rotation = about_z("q1 + c") * about_y(q2),
         position = ["a2*cos(q1 + c)*cos(q2)", "a2*sin(q1 + c)*cos(q2)", "h - a2*sin(q2)"]),
    potential = "g*(m1*waist.z + m2*upper.z)",
)]
#[allow(non_snake_case)]
struct PlacedArm {
    m1: f64,
    m2: f64,
    A1: f64,
    B1: f64,
    C1: f64,
    D1: f64,
    A2: f64,
    B2: f64,
    C2: f64,
    E2: f64,
    F2: f64,
    a1: f64,
    h1: f64,
    a2: f64,
    h: f64,
    c: f64,
    g: f64,
}

#[test]
fn a_spatial_arm_composed_down_its_tree_is_the_arm_placed_body_by_body() {
    let report = Check::new()
        .all_coordinates(-3.0..3.0)
        .run(|p: &Arm, s| {
            let placed = PlacedArm {
                m1: p.m1,
                m2: p.m2,
                A1: p.A1,
                B1: p.B1,
                C1: p.C1,
                D1: p.D1,
                A2: p.A2,
                B2: p.B2,
                C2: p.C2,
                E2: p.E2,
                F2: p.F2,
                a1: p.a1,
                h1: p.h1,
                a2: p.a2,
                h: p.h,
                c: p.c,
                g: p.g,
            };
            same_equations(&placed, s)
        })
        .unwrap();
    report.assert_below(1e-11).unwrap();
    // At rest the only generalized forces are gravity's: none about the vertical waist,
    // and m₂ g a₂ cos q₂ at the shoulder (turning about y lowers the arm: z = h − a₂ sin q₂).
    let arm = Arm {
        m1: 1.0,
        m2: 2.0,
        A1: 0.1,
        B1: 0.2,
        C1: 0.3,
        D1: 0.01,
        A2: 0.1,
        B2: 0.2,
        C2: 0.3,
        E2: 0.02,
        F2: 0.03,
        a1: 0.1,
        h1: 0.2,
        a2: 0.5,
        h: 0.4,
        c: 0.3,
        g: 9.81,
    };
    let q = SVector::from([0.7, 0.4]);
    let f = arm.forcing(0.0, &q, &SVector::zeros());
    assert!(f[0].abs() < 1e-12, "{f}");
    assert!(
        (f[1] - 2.0 * 9.81 * 0.5 * 0.4f64.cos()).abs() < 1e-12,
        "{f}"
    );
}

/// A pendulum whose bob is a second body fixed to the rod's end, turned by `rpy` (which
/// changes nothing for a point mass), against the simple pendulum.
#[derive(Lagrangian)]
#[lagrangian(
    coordinates(theta),
    body(name = rod, mass = "m", inertia = ["m*l^2/12", "m*l^2/12", "0"], joint = revolute(theta),
         axis = ["0", "1", "0"], com = ["0", "0", "-l/2"]),
    body(name = bob, mass = "b", inertia = ["0", "0", "0"], parent = rod, joint = fixed,
         origin = ["0", "0", "-l"], rpy = ["0.3", "-1.1", "2"]),
    gravity = ["0", "0", "-g"],
)]
struct RodAndBob {
    m: f64,
    l: f64,
    b: f64,
    g: f64,
}

#[test]
fn a_fixed_joint_carries_its_body_rigidly() {
    // A rod about its end (m l²/3) and a point mass b at l: (m/3 + b) l² θ̈ = −(m/2 + b) g l sin θ.
    let report = Check::new()
        .all_coordinates(-3.0..3.0)
        .run(|p: &RodAndBob, s| {
            let (m, l, b, g) = (p.m, p.l, p.b, p.g);
            vec![(m / 3.0 + b) * l * l * s.qdd[0] + (m / 2.0 + b) * g * l * s.q[0].sin()]
        })
        .unwrap();
    report.assert_below(1e-12).unwrap();
}

#[path = "../examples/four_bar.rs"]
#[allow(dead_code)]
mod four_bar;

#[test]
fn a_four_bar_loop_follows_its_position_analysis_and_keeps_its_energy() {
    use lagrange::nalgebra::Vector3;
    use lagrange::{ConstrainedSystem, Integrator, Simulation};
    let linkage = four_bar::FourBar {
        a: 0.2,
        b: 0.5,
        c: 0.4,
        d: 0.45,
        ma: 0.5,
        mb: 1.0,
        mc: 0.8,
        g: 9.81,
    };
    // From a rough guess, the projection closes the loop.
    let (q0, qd0) = linkage
        .project_onto_constraints(
            0.0,
            &Vector3::new(1.0, -0.8, 1.6),
            &Vector3::new(3.0, 0.0, 0.0),
        )
        .unwrap();
    assert!(linkage.constraint_values(0.0, &q0).amax() < 1e-14);
    let run = Simulation::new(&linkage)
        .integrator(Integrator::dormand_prince(1e-11, 1e-11))
        .output_interval(0.01)
        .run(0.0, q0, qd0, 5.0)
        .unwrap();
    let mut near = q0[2];
    for q in run.q() {
        let expected = four_bar::rocker_angle(&linkage, q[0], near);
        near = expected;
        let error = (q[2] - expected).sin().abs();
        assert!(
            error < 1e-8,
            "theta2 = {}: rocker {} vs {expected}",
            q[0],
            q[2]
        );
    }
    let energy = run.invariant("energy").unwrap();
    assert!(
        energy.relative_drift() < 1e-9,
        "{}",
        energy.relative_drift()
    );
}

#[test]
fn the_driving_torque_of_a_four_bar_supplies_its_change_of_energy() {
    use lagrange::nalgebra::Vector3;
    use lagrange::{ConstrainedSystem, Integrator, LagrangianSystem, Simulation};
    // θ₂ = w t prescribed: the constraint's multiplier is the crank torque τ, and
    // ∫ τ θ̇₂ dt = E(t) − E(0) (Simpson's rule on a fine grid).
    let w = 2.0;
    let driven = four_bar::DrivenFourBar {
        a: 0.2,
        b: 0.5,
        c: 0.4,
        d: 0.45,
        ma: 0.5,
        mb: 1.0,
        mc: 0.8,
        g: 9.81,
        w,
    };
    let (q0, qd0) = driven
        .project_onto_constraints(0.0, &Vector3::new(0.0, 1.0, 1.6), &Vector3::zeros())
        .unwrap();
    let h = 1e-3;
    let run = Simulation::new(&driven)
        .integrator(Integrator::dormand_prince(1e-12, 1e-12))
        .output_interval(h)
        .run(0.0, q0, qd0, 1.2)
        .unwrap();
    let power: Vec<f64> = run
        .times()
        .iter()
        .zip(run.q().iter().zip(run.qd()))
        .map(|(t, (q, qd))| driven.reactions(*t, q, qd).unwrap()[(0, 2)] * qd[0])
        .collect();
    let intervals = power.len() - 1;
    assert_eq!(intervals % 2, 0);
    let work: f64 = (0..intervals / 2)
        .map(|k| h / 3.0 * (power[2 * k] + 4.0 * power[2 * k + 1] + power[2 * k + 2]))
        .sum();
    let (t, q, qd) = run.last().unwrap();
    let change = driven.energy(t, &q, &qd) - driven.energy(0.0, &q0, &qd0);
    assert!(
        (work - change).abs() < 1e-8 * (1.0 + change.abs()),
        "{work} vs {change}"
    );
    assert!((q[0] - w * t).abs() < 1e-10);
}

/// Residual `M q̈ − f` of a system at a sample's accelerations.
fn residual<S: LagrangianSystem<Const<N>>, const N: usize>(
    system: &S,
    s: &Sample<Const<N>>,
) -> SVector<f64, N> {
    let (m, f) = system.mass_matrix_and_forcing(s.t, &s.q, &s.qd);
    m * s.qdd - f
}

#[test]
fn newton_euler_joint_torques_are_the_lagrange_generalized_forces() {
    // At random (q, q̇, q̈), two independent derivations: the moment each joint transmits,
    // along its axis, against M q̈ − f of Lagrange's equations.
    let report = Check::new()
        .all_coordinates(-3.0..3.0)
        .run(|p: &LinkedPendulum, s| {
            let w = p.joint_wrenches(s.t, &s.q, &s.qd, &s.qdd);
            let r = residual(p, s);
            // Both joints turn about y.
            vec![w[0].moment[1] - r[0], w[1].moment[1] - r[1]]
        })
        .unwrap();
    report.assert_below(1e-12).unwrap();
    assert_eq!(LinkedPendulum::JOINTED_BODIES, ["upper", "lower"]);
    let report = Check::new()
        .all_coordinates(-3.0..3.0)
        .run(|p: &Arm, s| {
            let w = p.joint_wrenches(s.t, &s.q, &s.qd, &s.qdd);
            let r = residual(p, s);
            // The waist turns about z; the shoulder about the waist's y turned by c.
            let yaw = s.q[0] + p.c;
            let shoulder = [-yaw.sin(), yaw.cos(), 0.0];
            let along = (0..3).map(|k| w[1].moment[k] * shoulder[k]).sum::<f64>();
            vec![w[0].moment[2] - r[0], along - r[1]]
        })
        .unwrap();
    report.assert_below(1e-11).unwrap();
}

#[test]
fn a_fixed_joint_carries_the_weight_of_its_body() {
    // The bob sits on the rod's end: its joint transmits what moves it and holds it up,
    // and, about its own origin (the bob's centre), no moment.
    let p = RodAndBob {
        m: 1.0,
        l: 0.8,
        b: 0.3,
        g: 9.81,
    };
    let (q, zero) = (SVector::from([0.4]), SVector::zeros());
    let qdd = p.accelerations(0.0, &q, &zero).unwrap();
    let w = p.joint_wrenches(0.0, &q, &zero, &qdd);
    // The bob accelerates with the rod's end, at (−l sin θ, 0, −l cos θ): its joint force
    // is b (a − g).
    let a = [-p.l * qdd[0] * q[0].cos(), 0.0, p.l * qdd[0] * q[0].sin()];
    let expected = [p.b * a[0], 0.0, p.b * (a[2] + p.g)];
    for k in 0..3 {
        assert!(
            (w[1].force[k] - expected[k]).abs() < 1e-12,
            "{} vs {expected:?}",
            w[1].force
        );
        assert!(w[1].moment[k].abs() < 1e-12, "{}", w[1].moment);
    }
}

#[test]
fn the_joint_reactions_of_a_closed_loop_are_the_multipliers_reactions() {
    use lagrange::ConstrainedSystem;
    // Along the constrained motion the joints transmit what the loop's constraints exert:
    // the axis components of the Newton–Euler wrenches equal Σᵢ λᵢ ∇Gᵢ.
    let report = Check::new()
        .all_coordinates(-3.0..3.0)
        .run(|p: &four_bar::FourBar, s| {
            let motion = p.constrained_motion(s.t, &s.q, &s.qd).unwrap();
            let w = p.joint_wrenches(s.t, &s.q, &s.qd, &motion.accelerations);
            let reactions = p.reactions(s.t, &s.q, &s.qd).unwrap();
            // Every joint turns about −y.
            (0..3)
                .map(|i| -w[i].moment[1] - reactions.row(i).sum())
                .collect()
        })
        .unwrap();
    report.assert_below(1e-10).unwrap();
}

/// A floating body on a `free` joint (6 coordinates), in a field, with a full inertia
/// tensor and its centre of mass off the joint's origin.
#[derive(Lagrangian)]
#[lagrangian(
    coordinates(x, y, z, a, b, c),
    body(name = craft, mass = "m", inertia = ["A", "B", "C", "D", "E", "F"], joint = free(x, y, z, a, b, c),
         com = ["p", "0", "r"]),
    gravity = ["0", "0", "-g"],
)]
#[allow(non_snake_case)]
struct Floating {
    m: f64,
    A: f64,
    B: f64,
    C: f64,
    D: f64,
    E: f64,
    F: f64,
    p: f64,
    r: f64,
    g: f64,
}

/// The same body placed by hand: `R = R_z(a) R_y(b) R_x(c)` and the centre of mass at
/// `(x, y, z) + R (p, 0, r)`.
#[derive(Lagrangian)]
#[lagrangian(
    coordinates(x, y, z, a, b, c),
    body(name = craft, mass = "m", inertia = ["A", "B", "C", "D", "E", "F"],
         rotation = about_z(a) * about_y(b) * about_x(c),
         position = ["x + p*cos(a)*cos(b) + r*(cos(a)*sin(b)*cos(c) + sin(a)*sin(c))",
                     "y + p*sin(a)*cos(b) + r*(sin(a)*sin(b)*cos(c) - cos(a)*sin(c))",
                     "z - p*sin(b) + r*cos(b)*cos(c)"]),
    potential = "m*g*craft.z",
)]
#[allow(non_snake_case)]
struct PlacedFloating {
    m: f64,
    A: f64,
    B: f64,
    C: f64,
    D: f64,
    E: f64,
    F: f64,
    p: f64,
    r: f64,
    g: f64,
}

#[test]
fn a_free_joint_is_the_body_placed_by_hand() {
    let report = Check::new()
        .all_coordinates(-1.2..1.2)
        .run(|f: &Floating, s| {
            let placed = PlacedFloating {
                m: f.m,
                A: f.A,
                B: f.B,
                C: f.C,
                D: f.D,
                E: f.E,
                F: f.F,
                p: f.p,
                r: f.r,
                g: f.g,
            };
            same_equations(&placed, s)
        })
        .unwrap();
    report.assert_below(1e-11).unwrap();
}

/// A spherical pendulum hung on a ball joint below a turning arm: the parent's motion
/// composes with the three angles.
#[derive(Lagrangian)]
#[lagrangian(
    coordinates(phi, a, b, c),
    body(name = arm, mass = "M", inertia = ["0", "J", "J"], joint = revolute(phi), axis = ["0", "0", "1"],
         com = ["L/2", "0", "0"]),
    body(name = bob, mass = "m", inertia = ["I1", "I2", "I3"], parent = arm, joint = spherical(a, b, c),
         origin = ["L", "0", "0"], com = ["0", "0", "-l"]),
    gravity = ["0", "0", "-g"],
)]
#[allow(non_snake_case)]
struct BallJoint {
    M: f64,
    J: f64,
    L: f64,
    m: f64,
    I1: f64,
    I2: f64,
    I3: f64,
    l: f64,
    g: f64,
}

/// The same placed by hand: the bob turned by `R_z(φ + a) R_y(b) R_x(c)`, hanging from
/// the arm's end `L (cos φ, sin φ, 0)`.
#[derive(Lagrangian)]
#[lagrangian(
    coordinates(phi, a, b, c),
    body(name = arm, mass = "M", inertia = ["0", "J", "J"], rotation = about_z(phi),
         position = ["L/2*cos(phi)", "L/2*sin(phi)", "0"]),
    body(name = bob, mass = "m", inertia = ["I1", "I2", "I3"], rotation = about_z("phi + a") * about_y(b) * about_x(c),
         position = ["L*cos(phi) - l*(cos(phi + a)*sin(b)*cos(c) + sin(phi + a)*sin(c))",
                     "L*sin(phi) - l*(sin(phi + a)*sin(b)*cos(c) - cos(phi + a)*sin(c))",
                     "-l*cos(b)*cos(c)"]),
    potential = "m*g*bob.z",
)]
#[allow(non_snake_case)]
struct PlacedBallJoint {
    M: f64,
    J: f64,
    L: f64,
    m: f64,
    I1: f64,
    I2: f64,
    I3: f64,
    l: f64,
    g: f64,
}

#[test]
fn a_spherical_joint_below_a_turning_arm_is_the_bob_placed_by_hand() {
    let report = Check::new()
        .all_coordinates(-1.2..1.2)
        .run(|p: &BallJoint, s| {
            let placed = PlacedBallJoint {
                M: p.M,
                J: p.J,
                L: p.L,
                m: p.m,
                I1: p.I1,
                I2: p.I2,
                I3: p.I3,
                l: p.l,
                g: p.g,
            };
            same_equations(&placed, s)
        })
        .unwrap();
    report.assert_below(1e-11).unwrap();
}
