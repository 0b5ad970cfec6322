//! The Unitree G1 humanoid of example-robot-data (29 joints: legs, waist, arms), its
//! dynamics derived at compile time from its URDF with the pelvis fixed, every joint
//! driven by an input (`actuated`) and links on fixed joints merged into their parents:
//! the torques that hold it in a pose against gravity, and its linearization about that
//! held pose.
//!
//! At rest the equations are `M q̈ = τ − g(q)`, with the gravity torques `g(q) = −f(q, 0)`
//! at zero input (the recursive Newton–Euler pass of the derive). They are the gradient of
//! the potential energy `V(q)`, the energy at rest, another of the derived programs: the
//! example checks one against the other by central differences. With the inputs set to
//! `g(q*)` the pose `q*` is an equilibrium. About it, with the torques frozen,
//! `δq̈ = −M⁻¹ K δq + M⁻¹ δτ` (`K = ∂g/∂q`): `linearize` gives `A` and `B`, and the
//! eigenvalues of `A` say how fast the pose falls without feedback.
//!
//! The example integrates nothing, so the model is derived with `omit(variational)`:
//! without `ṗ`, `∂p/∂q` and `∂²L/∂q²` (what the variational integrators and the action
//! use), a third of the generated code, the crate builds in about 4.5 s instead of 5.7 in a
//! debug build (docs/book/build-times.md).
//! Run with `cargo run --release --example humanoid`.

use lagrange::nalgebra::SVector;
use lagrange::{
    Error, FromParameterValues, Lagrangian, LagrangianSystem, Linearization, linearize,
};

/// The G1, with gravity `g` and the inputs `tau_<joint>` (in the import's order of the
/// joints: breadth first from the pelvis).
#[derive(Lagrangian)]
#[lagrangian(
    urdf = "lagrange-cli/tests/pinocchio/robots/g1.urdf",
    fixed_joint_merge,
    actuated,
    omit(variational)
)]
pub struct G1 {
    pub g: f64,
    pub tau_left_hip_pitch_joint: f64,
    pub tau_right_hip_pitch_joint: f64,
    pub tau_waist_yaw_joint: f64,
    pub tau_left_hip_roll_joint: f64,
    pub tau_right_hip_roll_joint: f64,
    pub tau_waist_roll_joint: f64,
    pub tau_left_hip_yaw_joint: f64,
    pub tau_right_hip_yaw_joint: f64,
    pub tau_waist_pitch_joint: f64,
    pub tau_left_knee_joint: f64,
    pub tau_right_knee_joint: f64,
    pub tau_left_shoulder_pitch_joint: f64,
    pub tau_right_shoulder_pitch_joint: f64,
    pub tau_left_ankle_pitch_joint: f64,
    pub tau_right_ankle_pitch_joint: f64,
    pub tau_left_shoulder_roll_joint: f64,
    pub tau_right_shoulder_roll_joint: f64,
    pub tau_left_ankle_roll_joint: f64,
    pub tau_right_ankle_roll_joint: f64,
    pub tau_left_shoulder_yaw_joint: f64,
    pub tau_right_shoulder_yaw_joint: f64,
    pub tau_left_elbow_joint: f64,
    pub tau_right_elbow_joint: f64,
    pub tau_left_wrist_roll_joint: f64,
    pub tau_right_wrist_roll_joint: f64,
    pub tau_left_wrist_pitch_joint: f64,
    pub tau_right_wrist_pitch_joint: f64,
    pub tau_left_wrist_yaw_joint: f64,
    pub tau_right_wrist_yaw_joint: f64,
}

/// The number of joints.
pub const N: usize = 29;

/// Standard gravity, m/s².
pub const GRAVITY: f64 = 9.81;

/// The G1 with the joint torques `tau` (in the order of its coordinates).
pub fn driven(tau: &SVector<f64, N>) -> Result<G1, Error> {
    let info = &G1::INFO;
    let mut values = vec![0.0; G1::PARAMETER_COUNT];
    values[0] = GRAVITY;
    for (coordinate, torque) in info.coordinates.iter().zip(tau.iter()) {
        let input = format!("tau_{coordinate}");
        let k = info.parameters.iter().position(|p| **p == *input);
        values[k.expect("an input on every joint")] = *torque;
    }
    G1::from_parameter_values(&values)
}

/// A pose to hold: knees and hips bent as in a crouch, the arms raised forward with the
/// elbows bent (every other joint at the URDF's zero).
pub fn crouch() -> SVector<f64, N> {
    let mut q = SVector::<f64, N>::zeros();
    for (coordinate, value) in G1::INFO.coordinates.iter().zip(q.iter_mut()) {
        *value = match &**coordinate {
            "left_hip_pitch_joint" | "right_hip_pitch_joint" => -0.6,
            "left_knee_joint" | "right_knee_joint" => 1.2,
            "left_ankle_pitch_joint" | "right_ankle_pitch_joint" => -0.6,
            "left_shoulder_pitch_joint" | "right_shoulder_pitch_joint" => -1.2,
            "left_elbow_joint" | "right_elbow_joint" => 0.8,
            "waist_pitch_joint" => 0.2,
            _ => 0.0,
        };
    }
    q
}

/// The gravity torques `g(q) = −f(q, 0)` with no input: the torques that hold `q`.
pub fn gravity_torques(q: &SVector<f64, N>) -> Result<SVector<f64, N>, Error> {
    let passive = driven(&SVector::zeros())?;
    Ok(-passive.forcing(0.0, q, &SVector::zeros()))
}

/// `∂V/∂q` at `q` by central differences of the potential energy (the energy at rest),
/// with step `h`.
pub fn potential_gradient(q: &SVector<f64, N>, h: f64) -> Result<SVector<f64, N>, Error> {
    let passive = driven(&SVector::zeros())?;
    let rest = SVector::zeros();
    Ok(SVector::from_fn(|i, _| {
        let mut plus = *q;
        let mut minus = *q;
        plus[i] += h;
        minus[i] -= h;
        (passive.energy(0.0, &plus, &rest) - passive.energy(0.0, &minus, &rest)) / (2.0 * h)
    }))
}

/// The linearization about `q` at rest, the inputs holding it (set to `g(q)`).
pub fn held(q: &SVector<f64, N>) -> Result<Linearization, Error> {
    let robot = driven(&gravity_torques(q)?)?;
    linearize(&robot, 0.0, q, &SVector::zeros())
}

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let q = crouch();
    let tau = gravity_torques(&q)?;
    let gradient = potential_gradient(&q, 1e-6)?;
    println!("The G1 crouching, arms forward: the torques that hold it (N·m)");
    println!("joint                          g(q) = −f(q, 0)    ∂V/∂q (central differences)");
    for (i, joint) in G1::INFO.coordinates.iter().enumerate() {
        println!("{joint:<30} {:>+14.6}    {:>+14.6}", tau[i], gradient[i]);
    }
    let worst = (tau - gradient).abs().max() / tau.abs().max();
    println!("largest difference, relative to the largest torque: {worst:.1e}\n");

    let linear = held(&q)?;
    println!(
        "held by g(q): largest |q̈| {:.1e} rad/s²",
        linear.rate.rows(N, N).abs().max()
    );
    let eigenvalues = linear.eigenvalues()?;
    let fastest = eigenvalues.iter().map(|z| z.re).fold(f64::MIN, f64::max);
    println!(
        "A is {0}×{0}, B is {0}×{1}; {2:?}",
        2 * N,
        linear.b.ncols(),
        linear.stability()?
    );
    println!(
        "with the torques frozen the pose falls: largest eigenvalue {fastest:.4} 1/s, \
         a perturbation grows e-fold in {:.3} s",
        1.0 / fastest
    );
    Ok(())
}
