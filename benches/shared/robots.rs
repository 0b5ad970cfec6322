//! The robots both benchmarks time, derived at compile time from the URDFs of
//! example-robot-data (`lagrange-cli/tests/pinocchio/robots/`), each imported `actuated`
//! (its joint torques `tau_…` parameters), and what they share: the robots under gravity,
//! the random states and the timing of calls over them.

use std::time::Instant;

use lagrange::nalgebra::{Const, SVector};
use lagrange::{FromParameterValues, Lagrangian};

#[derive(Lagrangian)]
#[lagrangian(urdf = "lagrange-cli/tests/pinocchio/robots/ur5.urdf", actuated)]
pub struct Ur5 {
    g: f64,
    tau_shoulder_pan_joint: f64,
    tau_shoulder_lift_joint: f64,
    tau_elbow_joint: f64,
    tau_wrist_1_joint: f64,
    tau_wrist_2_joint: f64,
    tau_wrist_3_joint: f64,
}

#[derive(Lagrangian)]
#[lagrangian(
    urdf = "lagrange-cli/tests/pinocchio/robots/panda.urdf",
    fixed_joint_merge,
    actuated
)]
pub struct Panda {
    g: f64,
    tau_panda_joint1: f64,
    tau_panda_joint2: f64,
    tau_panda_joint3: f64,
    tau_panda_joint4: f64,
    tau_panda_joint5: f64,
    tau_panda_joint6: f64,
    tau_panda_joint7: f64,
    tau_panda_finger_joint1: f64,
    tau_panda_finger_joint2: f64,
}

#[derive(Lagrangian)]
#[lagrangian(urdf = "lagrange-cli/tests/pinocchio/robots/solo12.urdf", actuated)]
#[allow(non_snake_case)]
pub struct Solo12 {
    g: f64,
    tau_FL_HAA: f64,
    tau_FR_HAA: f64,
    tau_HL_HAA: f64,
    tau_HR_HAA: f64,
    tau_FL_HFE: f64,
    tau_FR_HFE: f64,
    tau_HL_HFE: f64,
    tau_HR_HFE: f64,
    tau_FL_KFE: f64,
    tau_FR_KFE: f64,
    tau_HL_KFE: f64,
    tau_HR_KFE: f64,
}

#[derive(Lagrangian)]
#[lagrangian(
    urdf = "lagrange-cli/tests/pinocchio/robots/g1.urdf",
    fixed_joint_merge,
    actuated
)]
pub struct G1 {
    g: f64,
    tau_left_hip_pitch_joint: f64,
    tau_right_hip_pitch_joint: f64,
    tau_waist_yaw_joint: f64,
    tau_left_hip_roll_joint: f64,
    tau_right_hip_roll_joint: f64,
    tau_waist_roll_joint: f64,
    tau_left_hip_yaw_joint: f64,
    tau_right_hip_yaw_joint: f64,
    tau_waist_pitch_joint: f64,
    tau_left_knee_joint: f64,
    tau_right_knee_joint: f64,
    tau_left_shoulder_pitch_joint: f64,
    tau_right_shoulder_pitch_joint: f64,
    tau_left_ankle_pitch_joint: f64,
    tau_right_ankle_pitch_joint: f64,
    tau_left_shoulder_roll_joint: f64,
    tau_right_shoulder_roll_joint: f64,
    tau_left_ankle_roll_joint: f64,
    tau_right_ankle_roll_joint: f64,
    tau_left_shoulder_yaw_joint: f64,
    tau_right_shoulder_yaw_joint: f64,
    tau_left_elbow_joint: f64,
    tau_right_elbow_joint: f64,
    tau_left_wrist_roll_joint: f64,
    tau_right_wrist_roll_joint: f64,
    tau_left_wrist_pitch_joint: f64,
    tau_right_wrist_pitch_joint: f64,
    tau_left_wrist_yaw_joint: f64,
    tau_right_wrist_yaw_joint: f64,
}

#[derive(Lagrangian)]
#[lagrangian(
    urdf = "lagrange-cli/tests/pinocchio/robots/centauro.urdf",
    fixed_joint_merge,
    actuated
)]
pub struct Centauro {
    g: f64,
    tau_hip_yaw_1: f64,
    tau_hip_yaw_2: f64,
    tau_hip_yaw_3: f64,
    tau_hip_yaw_4: f64,
    tau_torso_yaw: f64,
    tau_hip_pitch_1: f64,
    tau_hip_pitch_2: f64,
    tau_hip_pitch_3: f64,
    tau_hip_pitch_4: f64,
    tau_j_arm1_1: f64,
    tau_j_arm2_1: f64,
    tau_knee_pitch_1: f64,
    tau_knee_pitch_2: f64,
    tau_knee_pitch_3: f64,
    tau_knee_pitch_4: f64,
    tau_j_arm1_2: f64,
    tau_j_arm2_2: f64,
    tau_d435_head_joint: f64,
    tau_velodyne_joint: f64,
    tau_ankle_pitch_1: f64,
    tau_ankle_pitch_2: f64,
    tau_ankle_pitch_3: f64,
    tau_ankle_pitch_4: f64,
    tau_j_arm1_3: f64,
    tau_j_arm2_3: f64,
    tau_ankle_yaw_1: f64,
    tau_ankle_yaw_2: f64,
    tau_ankle_yaw_3: f64,
    tau_ankle_yaw_4: f64,
    tau_j_arm1_4: f64,
    tau_j_arm2_4: f64,
    tau_j_wheel_1: f64,
    tau_j_wheel_2: f64,
    tau_j_wheel_3: f64,
    tau_j_wheel_4: f64,
    tau_j_arm1_5: f64,
    tau_j_arm2_5: f64,
    tau_j_arm1_6: f64,
    tau_j_arm2_6: f64,
}

/// The robot under gravity `g = 9.81` with its joint torques at 0.
pub fn gravity<S: FromParameterValues<Const<N>>, const N: usize>() -> S {
    let mut values = vec![0.0; S::PARAMETER_COUNT];
    values[0] = 9.81;
    S::from_parameter_values(&values).unwrap()
}

/// The number of random states a robot is timed over.
pub const STATES: usize = 64;

/// [`STATES`] states `(q, q̇)`, every component uniform in (−1, 1), from `seed`.
pub fn states<const N: usize>(mut seed: u64) -> Vec<(SVector<f64, N>, SVector<f64, N>)> {
    (0..STATES)
        .map(|_| {
            let q = SVector::from_fn(|_, _| uniform(&mut seed));
            let qd = SVector::from_fn(|_, _| uniform(&mut seed));
            (q, qd)
        })
        .collect()
}

/// The best of 5 rounds of `rounds` calls of `call` on the states in turn, in ns per call.
pub fn time(rounds: usize, mut call: impl FnMut(usize)) -> f64 {
    (0..5)
        .map(|_| {
            let start = Instant::now();
            for i in 0..rounds {
                call(i % STATES);
            }
            start.elapsed().as_nanos() as f64 / rounds as f64
        })
        .fold(f64::INFINITY, f64::min)
}

/// Uniform numbers in (−1, 1) from a fixed seed (SplitMix64).
fn uniform(seed: &mut u64) -> f64 {
    *seed = seed.wrapping_add(0x9E37_79B9_7F4A_7C15);
    let mut z = *seed;
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^= z >> 31;
    2.0 * (z >> 11) as f64 / (1u64 << 53) as f64 - 1.0
}
