//! Accuracy of the whole pipeline on the double pendulum against an independent
//! reference, and conservation of the integral the derive reports.

#[path = "../examples/double_pendulum.rs"]
#[allow(dead_code)]
mod double_pendulum;

#[path = "models/turning_frame.rs"]
mod turning_frame;

use double_pendulum::DoublePendulum;
use lagrange::nalgebra::Const;
use lagrange::nalgebra::{Vector2, Vector3};
use lagrange::{Conserved, Integrator, LagrangianSystem, Simulation};
use turning_frame::TurningFrame;

/// θ₁, θ₂, θ̇₁, θ̇₂ at t = 5 for m = l = 1, g = 9.81 from θ = (π/2, π/2) at rest, computed
/// by `tests/reference/double_pendulum.py`: hand-written equations in 50-digit decimal
/// arithmetic, Gragg–Bulirsch–Stoer extrapolation of order 16, two step sizes agreeing to
/// 1e-29. Independent of this crate's code.
const REFERENCE_T5: [f64; 4] = [
    -0.6271867050665307,
    -1.3013155502098117,
    2.1254086738429105,
    3.8818887272656073,
];

fn pendulum() -> DoublePendulum {
    DoublePendulum {
        m1: 1.0,
        m2: 1.0,
        l1: 1.0,
        l2: 1.0,
        g: 9.81,
    }
}

fn frame() -> TurningFrame {
    TurningFrame {
        m: 1.0,
        omega: 0.7,
        kx: 2.0,
        ky: 0.5,
        kz: 1.0,
    }
}

fn release(t_end: f64) -> lagrange::Trajectory<Const<2>> {
    let half_pi = std::f64::consts::FRAC_PI_2;
    Simulation::new(&pendulum())
        .integrator(Integrator::dormand_prince(1e-12, 1e-12))
        .run(0.0, Vector2::new(half_pi, half_pi), Vector2::zeros(), t_end)
        .unwrap()
}

#[test]
fn double_pendulum_matches_the_high_precision_reference_at_t_5() {
    let (t, q, qd) = release(5.0).last().unwrap();
    assert_eq!(t, 5.0);
    let state = [q[0], q[1], qd[0], qd[1]];
    let error = state
        .iter()
        .zip(REFERENCE_T5)
        .map(|(a, b)| (a - b).abs())
        .fold(0.0, f64::max);
    assert!(error <= 1e-8, "max |error| = {error:e}, state {state:?}");
}

#[test]
fn double_pendulum_energy_is_conserved_over_20_s() {
    let p = pendulum();
    assert_eq!(DoublePendulum::INFO.conserved, Conserved::Energy);
    let trajectory = release(20.0);
    let drift = trajectory.invariant("energy").unwrap().drift();
    let bound = 1e-9 * ((p.m1 + p.m2) * p.g * p.l1 + p.m2 * p.g * p.l2);
    assert!(drift <= bound, "|ΔE| = {drift:e} > {bound:e}");
}

#[test]
fn jacobi_integral_is_the_conserved_quantity_of_a_rotating_frame() {
    assert_eq!(TurningFrame::INFO.conserved, Conserved::JacobiIntegral);
    let frame = frame();
    let (q, qd): (Vector3<f64>, Vector3<f64>) =
        (Vector3::new(1.0, 0.5, 0.2), Vector3::new(-0.3, 0.8, 0.1));
    // h = T₂ − T₀ + V by hand.
    let t2 = 0.5 * frame.m * qd.norm_squared();
    let t0 = 0.5 * frame.m * frame.omega.powi(2) * (q[0].powi(2) + q[1].powi(2));
    let v = 0.5 * (frame.kx * q[0].powi(2) + frame.ky * q[1].powi(2) + frame.kz * q[2].powi(2));
    assert!((frame.jacobi_integral(0.0, &q, &qd) - (t2 - t0 + v)).abs() < 1e-14);

    let trajectory = Simulation::new(&frame)
        .integrator(Integrator::dormand_prince(1e-12, 1e-12))
        .run(0.0, q, qd, 20.0)
        .unwrap();
    let jacobi = trajectory.invariant("jacobi_integral").unwrap();
    assert!(jacobi.drift() < 1e-9, "drift {}", jacobi.drift());
    let energies: Vec<f64> = trajectory
        .q()
        .iter()
        .zip(trajectory.qd())
        .map(|(q, qd)| frame.energy(0.0, q, qd))
        .collect();
    let spread = energies.iter().cloned().fold(f64::MIN, f64::max)
        - energies.iter().cloned().fold(f64::MAX, f64::min);
    assert!(
        spread > 1e-3,
        "T + V should not be conserved here (spread {spread})"
    );
}

/// The integral and `L` that the integrators' step guard reads in one call have the bits
/// of the two quantities read apart, for the energy and for the Jacobi integral.
#[test]
fn the_step_guard_reads_the_integral_and_the_lagrangian_with_their_bits() {
    let p = pendulum();
    let (q, qd) = (Vector2::new(0.3, -1.2), Vector2::new(0.7, 0.1));
    let bits = |(c, l): (f64, f64)| (c.to_bits(), l.to_bits());
    assert_eq!(
        p.conserved_value_and_lagrangian(0.0, &q, &qd).map(bits),
        Some(bits((p.energy(0.0, &q, &qd), p.lagrangian(0.0, &q, &qd))))
    );
    let frame = frame();
    let (q, qd) = (Vector3::new(1.0, 0.5, 0.2), Vector3::new(-0.3, 0.8, 0.1));
    assert_eq!(
        frame.conserved_value_and_lagrangian(0.0, &q, &qd).map(bits),
        Some(bits((
            frame.jacobi_integral(0.0, &q, &qd),
            frame.lagrangian(0.0, &q, &qd)
        )))
    );
}
