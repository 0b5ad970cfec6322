//! The Franka Panda holding a pose by computed-torque control, its dynamics derived at
//! compile time from its URDF: the robot of example-robot-data (nine joints: seven in the
//! arm, two fingers), every joint driven by an input (`actuated`), links on fixed joints
//! merged into their parents (`fixed_joint_merge`).
//!
//! With `τ = M(q) (K_p (q* − q) − K_d q̇) − f₀(q, q̇)`, `f₀` the forces without inputs
//! (gravity, the velocity terms, the joints' damping), computed by the generated inverse
//! dynamics (the recursive Newton–Euler algorithm) at the wanted accelerations, the closed
//! loop is
//! `q̈ = K_p (q* − q) − K_d q̇` on every joint. With `K_p = ω²` and `K_d = 2ω` each error
//! decays critically damped, `e(t) = e(0) (1 + ωt) e^{−ωt}`: the run reproduces it, which
//! it does only when the controller's `M` and `f₀` are the plant's.
//! Run with `cargo run --release --example panda_computed_torque`.

use lagrange::nalgebra::{Const, SVector};
use lagrange::{
    Controlled, Error, FromParameterValues, Integrator, Lagrangian, LagrangianSystem, Simulation,
    Trajectory,
};

/// The Panda, with gravity `g` and the inputs `tau_<joint>`.
#[derive(Lagrangian)]
#[lagrangian(
    urdf = "lagrange-cli/tests/pinocchio/robots/panda.urdf",
    fixed_joint_merge,
    actuated
)]
pub struct Panda {
    pub g: f64,
    pub tau_panda_joint1: f64,
    pub tau_panda_joint2: f64,
    pub tau_panda_joint3: f64,
    pub tau_panda_joint4: f64,
    pub tau_panda_joint5: f64,
    pub tau_panda_joint6: f64,
    pub tau_panda_joint7: f64,
    pub tau_panda_finger_joint1: f64,
    pub tau_panda_finger_joint2: f64,
}

/// The pose held: the arm bent, the fingers half open.
pub fn target() -> SVector<f64, 9> {
    SVector::from([0.0, -0.3, 0.0, -2.2, 0.0, 2.0, 0.8, 0.02, 0.02])
}

/// The closed loop from `q0` at rest, with the gains of the closed-loop frequency `omega`,
/// recorded every 0.05 s up to `t_end`.
pub fn hold(q0: SVector<f64, 9>, omega: f64, t_end: f64) -> Result<Trajectory<Const<9>>, Error> {
    let mut values = vec![0.0; Panda::PARAMETER_COUNT];
    values[0] = 9.81;
    let passive = Panda::from_parameter_values(&values)?;
    let (kp, kd) = (omega * omega, 2.0 * omega);
    let goal = target();
    let controller = move |t: f64, q: &SVector<f64, 9>, qd: &SVector<f64, 9>| {
        let tau = passive.inverse_dynamics(t, q, qd, &((goal - q) * kp - qd * kd));
        tau.as_slice().to_vec()
    };
    let plant = Panda::from_parameter_values(&values)?;
    let controlled = Controlled::new(plant, controller)?;
    Simulation::new(&controlled)
        .integrator(Integrator::DormandPrince {
            rtol: 1e-11,
            atol: 1e-11,
            h0: None,
            h_max: None,
        })
        .output_interval(0.05)
        .run(0.0, q0, SVector::zeros(), t_end)
}

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let omega = 4.0;
    let start = SVector::from([0.5, 0.2, -0.4, -1.6, 0.3, 1.5, 0.2, 0.0, 0.04]);
    let run = hold(start, omega, 3.0)?;
    let e0 = target() - start;
    println!("   t   largest |q* − q|   closed form (1 + ωt)e^(−ωt)·|e(0)|   difference");
    for (k, (t, q)) in run.times().iter().zip(run.q()).enumerate() {
        if k % 10 != 0 {
            continue;
        }
        let error = target() - q;
        let decay = (1.0 + omega * t) * (-omega * t).exp();
        let expected = e0.abs().max() * decay;
        let difference = (error - e0 * decay).abs().max();
        println!(
            "{t:4.1}   {:.6e}       {expected:.6e}                      {difference:.1e}",
            error.abs().max()
        );
    }
    Ok(())
}
