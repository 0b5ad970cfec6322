//! Real robots derived at compile time from the URDFs of example-robot-data, against what
//! Pinocchio 4.1 computes at random states (`lagrange-cli/tests/pinocchio/`): the forward
//! dynamics, the mass matrix, the bias forces and the gravity torques of a UR5, the
//! Kinova and SO-100 arms (their joint frames turned by decimal angles), the Solo-12's legs, the G1 humanoid and the Centauro (the Panda's are in `from_files.rs`); and the
//! humanoid example's claims: its gravity torques are the potential's gradient, they hold
//! the pose, and its linearization there is the one `M` and the potential's Hessian give;
//! and the shape of its `M`, the tree it is factorized over.

use lagrange::nalgebra::{DMatrix, SVector};
use lagrange::{Lagrangian, LagrangianSystem, Stability};

mod pinocchio_reference;

#[path = "../examples/humanoid.rs"]
#[allow(dead_code)]
mod humanoid;

use humanoid::{N, crouch, driven, gravity_torques, held, potential_gradient};

#[derive(Lagrangian)]
#[lagrangian(urdf = "lagrange-cli/tests/pinocchio/robots/ur5.urdf")]
struct Ur5 {
    g: f64,
}

#[derive(Lagrangian)]
#[lagrangian(
    urdf = "lagrange-cli/tests/pinocchio/robots/solo12.urdf",
    fixed_joint_merge
)]
struct Solo12 {
    g: f64,
}

#[derive(Lagrangian)]
#[lagrangian(
    urdf = "lagrange-cli/tests/pinocchio/robots/centauro.urdf",
    fixed_joint_merge
)]
struct Centauro {
    g: f64,
}

/// Kinova's Jaco2 arm: its joints' frames are turned by decimals near quarter and half
/// turns (`-1.57079632679`, `3.14159265359`) and by 0.649 rad, which never fold to exact
/// turns. Its tree is shallow, and expanded its kinetic energy grew past 24 GB: it must
/// be derived by its recursions, with the file's numbers as they are.
#[derive(Lagrangian)]
#[lagrangian(urdf = "lagrange-cli/tests/pinocchio/robots/kinova.urdf")]
struct Kinova {
    g: f64,
}

/// The SO-100 arm, whose joint frames are turned by decimals of every kind.
#[derive(Lagrangian)]
#[lagrangian(urdf = "lagrange-cli/tests/pinocchio/robots/so100.urdf")]
struct So100 {
    g: f64,
}

#[test]
fn the_kinova_arm_is_derived_as_pinocchio_computes_it() {
    pinocchio_reference::compare(&Kinova { g: 9.81 }, "kinova").assert_within("kinova", 1e-12);
}

#[test]
fn the_so100_arm_is_derived_as_pinocchio_computes_it() {
    pinocchio_reference::compare(&So100 { g: 9.81 }, "so100").assert_within("so100", 1e-12);
}

#[test]
fn a_ur5_is_derived_as_pinocchio_computes_it() {
    pinocchio_reference::compare(&Ur5 { g: 9.81 }, "ur5").assert_within("ur5", 1e-12);
}

#[test]
fn the_solo12_legs_are_derived_as_pinocchio_computes_them() {
    pinocchio_reference::compare(&Solo12 { g: 9.81 }, "solo12").assert_within("solo12", 1e-12);
}

#[test]
fn the_g1_humanoid_is_derived_as_pinocchio_computes_it() {
    let g1 = driven(&SVector::zeros()).unwrap();
    pinocchio_reference::compare(&g1, "g1").assert_within("g1", 1e-12);
}

#[test]
fn the_centauro_is_derived_as_pinocchio_computes_it() {
    // 39 joints: four legs of five and a wheel, a torso, two arms of six, two sensor mounts.
    pinocchio_reference::compare(&Centauro { g: 9.81 }, "centauro")
        .assert_within("centauro", 1e-12);
}

#[test]
fn the_g1s_mass_matrix_is_factorized_over_its_kinematic_tree() {
    // The shape of M the derivation proves is the robot's tree: each joint's parent is
    // the joint before it on the way to the pelvis.
    let info = &humanoid::G1::INFO;
    let parent = |joint: &str| {
        let i = info.coordinates.iter().position(|c| c == joint).unwrap();
        info.mass_matrix_tree[i].map(|p| &*info.coordinates[p])
    };
    let chains: [&[&str]; 3] = [
        &[
            "left_ankle_roll_joint",
            "left_ankle_pitch_joint",
            "left_knee_joint",
            "left_hip_yaw_joint",
            "left_hip_roll_joint",
            "left_hip_pitch_joint",
        ],
        &[
            "right_wrist_yaw_joint",
            "right_wrist_pitch_joint",
            "right_wrist_roll_joint",
            "right_elbow_joint",
            "right_shoulder_yaw_joint",
            "right_shoulder_roll_joint",
            "right_shoulder_pitch_joint",
            "waist_pitch_joint",
            "waist_roll_joint",
            "waist_yaw_joint",
        ],
        &[
            "left_shoulder_pitch_joint",
            "waist_pitch_joint",
            "waist_roll_joint",
            "waist_yaw_joint",
        ],
    ];
    for chain in chains {
        for pair in chain.windows(2) {
            assert_eq!(parent(pair[0]), Some(pair[1]), "{}", pair[0]);
        }
    }
    for root in [
        "left_hip_pitch_joint",
        "right_hip_pitch_joint",
        "waist_yaw_joint",
    ] {
        assert_eq!(parent(root), None, "{root}");
    }
}

#[test]
fn the_gravity_torques_are_the_gradient_of_the_potential() {
    // Two programs of the derive: the Newton–Euler forcing and the energy. Central
    // differences with h = 1e-5 err by about h² V''' ≈ 1e-10 and ε V / h ≈ 1e-11.
    for q in [crouch(), SVector::zeros(), crouch() * -0.7] {
        let tau = gravity_torques(&q).unwrap();
        let gradient = potential_gradient(&q, 1e-5).unwrap();
        let worst = (tau - gradient).abs().max() / tau.abs().max();
        assert!(worst < 1e-8, "{worst:e}: {tau} vs {gradient}");
    }
}

#[test]
fn the_linearization_about_the_held_pose_is_the_potentials() {
    let q = crouch();
    let linear = held(&q).unwrap();
    // Held: the inputs are g(q), so the pose is an equilibrium.
    assert!(linear.rate.abs().max() < 1e-10, "{}", linear.rate);

    // B's lower block is M⁻¹ (the inputs are the joint torques, in order).
    let robot = driven(&gravity_torques(&q).unwrap()).unwrap();
    let m = robot.mass_matrix(0.0, &q, &SVector::zeros());
    let m_inverse = m.try_inverse().unwrap();
    let b = linear.b.view((N, 0), (N, N));
    let scale = m_inverse.abs().max();
    assert!((b - m_inverse).abs().max() < 1e-10 * scale);

    // ∂q̈/∂q = −M⁻¹ K, with K = ∂g/∂q by central differences of the gravity torques.
    let h = 1e-6;
    let k = DMatrix::from_fn(N, N, |i, j| {
        let mut plus = q;
        let mut minus = q;
        plus[j] += h;
        minus[j] -= h;
        (gravity_torques(&plus).unwrap()[i] - gravity_torques(&minus).unwrap()[i]) / (2.0 * h)
    });
    let m = DMatrix::from_column_slice(N, N, m.as_slice());
    let expected = -(m.clone().try_inverse().unwrap() * &k);
    let found = linear.a.view((N, 0), (N, N));
    let worst = (found - &expected).abs().max() / expected.abs().max();
    assert!(worst < 1e-6, "∂q̈/∂q: {worst:e}");
    // At rest nothing depends on q̇ (no damping in the G1's URDF).
    assert!(linear.a.view((N, N), (N, N)).abs().max() < 1e-12);

    // Its eigenvalues: ±√μ for the eigenvalues μ of −M⁻¹K, which are those of the
    // symmetric −L⁻¹ K L⁻ᵀ (M = L Lᵀ), from nalgebra's symmetric solver. The crouch with
    // the torques frozen falls: the largest is real and positive.
    let l = m.cholesky().unwrap().unpack();
    let l_inverse = l.try_inverse().unwrap();
    let k_symmetric = (&k + k.transpose()) * 0.5;
    let symmetric = -(&l_inverse * k_symmetric * l_inverse.transpose());
    let largest_mu = symmetric
        .symmetric_eigenvalues()
        .iter()
        .copied()
        .fold(f64::MIN, f64::max);
    assert!(largest_mu > 0.0);
    let largest = linear
        .eigenvalues()
        .unwrap()
        .iter()
        .map(|z| z.re)
        .fold(f64::MIN, f64::max);
    assert!(
        (largest - largest_mu.sqrt()).abs() < 1e-5 * largest,
        "{largest} vs √{largest_mu}"
    );
    assert_eq!(linear.stability().unwrap(), Stability::Unstable);
}
