//! Routh's reduction (Thomson & Tait §319, Example G) against the text and against the
//! full system integrated side by side.

#[path = "../examples/tt_g1_door_ignoring_psi.rs"]
#[allow(dead_code)]
mod door;
#[path = "../examples/tt_g_gyrostat.rs"]
#[allow(dead_code)]
mod gyrostat;
#[path = "../examples/central_orbit_routh.rs"]
#[allow(dead_code)]
mod orbit;

use door::{DoorG1, DoorG1Reduced};
use gyrostat::{Gyrostat, GyrostatReduced};
use lagrange::ReducedSystem;
use lagrange::nalgebra::Const;
use lagrange::nalgebra::{SVector, Vector1, Vector2, Vector3};
use lagrange::{Check, Conserved, Integrator, Lagrangian, LagrangianSystem, Simulation};
use orbit::{Orbit, OrbitReduced};

/// Worst relative residual allowed: the reduced equations are rational functions evaluated
/// along another path than the references, and near cancellations round-off reaches 1e-11.
const TOLERANCE: f64 = 1e-10;

fn tight() -> Integrator {
    Integrator::dormand_prince(1e-13, 1e-13)
}

/// Integrates the full system and the reduced one (with the ignored coordinates by
/// quadrature) from the same state to `t_end`; returns the largest difference of the
/// retained coordinates and of the ignored ones at `t_end`.
fn full_against_reduced<F, R, const N: usize, const M: usize, const K: usize>(
    full: &F,
    reduce: impl Fn(&SVector<f64, N>, &SVector<f64, N>) -> (R, SVector<f64, M>, SVector<f64, M>),
    retained: [usize; M],
    ignored: [usize; K],
    q0: SVector<f64, N>,
    qd0: SVector<f64, N>,
    t_end: f64,
) -> (f64, f64)
where
    F: LagrangianSystem<Const<N>>,
    R: ReducedSystem<Const<M>, Const<K>>,
{
    let whole = Simulation::new(full)
        .integrator(tight())
        .run(0.0, q0, qd0, t_end)
        .unwrap();
    let (reduced, q, qd) = reduce(&q0, &qd0);
    let chi0 = SVector::<f64, K>::from_fn(|k, _| q0[ignored[k]]);
    let part = Simulation::new(&reduced)
        .integrator(tight())
        .run_reduced(0.0, q, qd, chi0, t_end)
        .unwrap();
    let (_, q_full, _) = whole.last().unwrap();
    let (_, q_part, _) = part.last().unwrap();
    let chi = part.ignored().last().unwrap();
    let retained_error = (0..M)
        .map(|i| (q_full[retained[i]] - q_part[i]).abs())
        .fold(0.0, f64::max);
    let ignored_error = (0..K)
        .map(|k| (q_full[ignored[k]] - chi[k]).abs())
        .fold(0.0, f64::max);
    (retained_error, ignored_error)
}

#[test]
fn g1_the_single_equation_for_theta_is_the_texts() {
    // T&T G₁: d/dt(F θ̇) − ½ θ̇² F′ + d/dθ(½ C²/D) = Θ with D = A + B + 2c cos θ and
    // F = (AB − c² cos²θ)/D.
    let report = Check::new()
        .coordinate("theta", -3.0..3.0)
        .parameter("A", 0.5..2.0)
        .parameter("B", 2.5..4.0) // c < √(AB) keeps T positive definite
        .parameter("c", 0.1..0.5)
        .parameter("Th", -1.0..1.0)
        .parameter("p_psi", -2.0..2.0)
        .run(|p: &DoorG1Reduced, s| {
            let (th, thd, thdd) = (s.q[0], s.qd[0], s.qdd[0]);
            let (sn, cs) = th.sin_cos();
            let d = p.A + p.B + 2.0 * p.c * cs;
            let f = (p.A * p.B - p.c * p.c * cs * cs) / d;
            let df = (2.0 * p.c * p.c * sn * cs * d
                + 2.0 * p.c * sn * (p.A * p.B - p.c * p.c * cs * cs))
                / (d * d);
            let dk = p.p_psi * p.p_psi * p.c * sn / (d * d);
            vec![f * thdd + 0.5 * df * thd * thd + dk - p.Th]
        })
        .unwrap();
    report.assert_below(TOLERANCE).unwrap();
}

#[test]
fn g1_energy_integral_and_recovered_velocity_are_the_texts() {
    let r = DoorG1Reduced {
        A: 0.7,
        B: 3.0,
        c: 0.4,
        Th: 0.0,
        p_psi: 1.3,
    };
    for (th, thd) in [(0.3f64, 0.5), (-2.0, 1.7), (2.9, -0.4)] {
        let (q, qd) = (Vector1::new(th), Vector1::new(thd));
        let d = r.A + r.B + 2.0 * r.c * th.cos();
        // T&T: ½ (C² + (AB − c² cos²θ) θ̇²)/D, i.e. Z + K.
        let energy =
            0.5 * (r.p_psi.powi(2) + (r.A * r.B - (r.c * th.cos()).powi(2)) * thd * thd) / d;
        assert!((r.energy(0.0, &q, &qd) - energy).abs() < 1e-13);
        // ψ̇ = (C − (c cos θ + B) θ̇)/D.
        let psi_dot = (r.p_psi - (r.c * th.cos() + r.B) * thd) / d;
        assert!((r.ignored_velocities(0.0, &q, &qd)[0] - psi_dot).abs() < 1e-13);
    }
    assert_eq!(DoorG1Reduced::IGNORED, ["psi"]);
    assert_eq!(
        *DoorG1Reduced::INFO.parameters,
        ["A", "B", "c", "Th", "p_psi"]
    );
}

#[test]
fn g1_reduced_motion_and_quadrature_match_the_full_system() {
    let door = DoorG1 {
        A: 0.5,
        B: 2.0,
        c: 0.4,
        Th: 0.0,
    };
    let (retained, ignored) = full_against_reduced(
        &door,
        |q, qd| door.reduce_state(0.0, q, qd),
        [1],
        [0],
        Vector2::new(0.0, 0.5),
        Vector2::new(0.3, 1.0),
        10.0,
    );
    assert!(
        retained <= 1e-9 && ignored <= 1e-9,
        "θ off by {retained:e}, ψ by {ignored:e}"
    );
}

#[test]
fn gyrostat_reduced_equations_are_eq_27() {
    // (E + F cos²θ) ψ̈ − 2F sinθ cosθ θ̇ ψ̇ − C sinθ θ̇ = Ψ,
    // A θ̈ + F sinθ cosθ ψ̇² + C sinθ ψ̇ = Θ.
    let report = Check::new()
        .parameter("Psi", -1.0..1.0)
        .parameter("Th", -1.0..1.0)
        .parameter("p_phi", -3.0..3.0)
        .run(|p: &GyrostatReduced, s| {
            let (th, psid, thd) = (s.q[1], s.qd[0], s.qd[1]);
            let (sn, cs) = th.sin_cos();
            let c = p.p_phi;
            vec![
                (p.E + p.F * cs * cs) * s.qdd[0]
                    - 2.0 * p.F * sn * cs * thd * psid
                    - c * sn * thd
                    - p.Psi,
                p.A * s.qdd[1] + p.F * sn * cs * psid * psid + c * sn * psid - p.Th,
            ]
        })
        .unwrap();
    report.assert_below(TOLERANCE).unwrap();
    // Eq. (23): φ̇ = C/B − ψ̇ cos θ.
    let r = GyrostatReduced {
        E: 2.0,
        F: 0.5,
        A: 1.0,
        B: 0.8,
        Psi: 0.0,
        Th: 0.0,
        p_phi: 3.0,
    };
    let (q, qd) = (Vector2::new(0.4f64, 1.1), Vector2::new(-0.7, 0.2));
    let phi_dot = r.p_phi / r.B - qd[0] * q[1].cos();
    assert!((r.ignored_velocities(0.0, &q, &qd)[0] - phi_dot).abs() < 1e-13);
}

#[test]
fn gyrostat_reduced_motion_and_quadrature_match_the_full_system() {
    let g = Gyrostat {
        E: 2.0,
        F: 0.5,
        A: 1.0,
        B: 0.8,
        Psi: 0.0,
        Th: 0.0,
    };
    let (retained, ignored) = full_against_reduced(
        &g,
        |q, qd| g.reduce_state(0.0, q, qd),
        [0, 1],
        [2],
        Vector3::new(0.0, 1.0, 0.0),
        Vector3::new(0.2, 0.0, 5.0),
        10.0,
    );
    assert!(
        retained <= 1e-9 && ignored <= 1e-9,
        "ψ, θ off by {retained:e}, φ by {ignored:e}"
    );
}

/// The gyrostat with the fly-wheel's moment about its axis removed.
#[derive(Lagrangian)]
#[lagrangian(
    coordinates(psi, theta),
    kinetic = "1/2*((E + F*cos(theta)^2)*dot(psi)^2 + A*dot(theta)^2)",
    force(psi = "Psi", theta = "Th")
)]
#[allow(non_snake_case)]
struct GyrostatWithoutSpin {
    E: f64,
    F: f64,
    A: f64,
    Psi: f64,
    Th: f64,
}

#[test]
fn with_zero_momentum_the_fly_wheel_acts_as_if_it_had_no_moment_of_inertia() {
    // T&T eq. (21): C = 0 removes K and the gyroscopic terms.
    let report = Check::new()
        .parameter("p_phi", 0.0..0.0)
        .parameter("Psi", -1.0..1.0)
        .parameter("Th", -1.0..1.0)
        .run(|p: &GyrostatReduced, s| {
            let plain = GyrostatWithoutSpin {
                E: p.E,
                F: p.F,
                A: p.A,
                Psi: p.Psi,
                Th: p.Th,
            };
            let (m, f) = plain.mass_matrix_and_forcing(s.t, &s.q, &s.qd);
            (m * s.qdd - f).iter().copied().collect()
        })
        .unwrap();
    report.assert_below(TOLERANCE).unwrap();
}

#[test]
fn orbit_radial_equation_and_angle_by_quadrature() {
    // m r̈ = C²/(m r³) − k/r².
    let report = Check::new()
        .coordinate("r", 0.3..3.0)
        .parameter("p_phi", -2.0..2.0)
        .run(|p: &OrbitReduced, s| {
            let r = s.q[0];
            vec![p.m * s.qdd[0] - p.p_phi.powi(2) / (p.m * r.powi(3)) + p.k / (r * r)]
        })
        .unwrap();
    report.assert_below(TOLERANCE).unwrap();
    assert_eq!(OrbitReduced::INFO.conserved, Conserved::JacobiIntegral);

    let orbit = Orbit { m: 1.0, k: 1.0 };
    let (retained, ignored) = full_against_reduced(
        &orbit,
        |q, qd| orbit.reduce_state(0.0, q, qd),
        [0],
        [1],
        Vector2::new(1.0, 0.0),
        Vector2::new(0.0, 1.2),
        10.0,
    );
    assert!(
        retained <= 1e-9 && ignored <= 1e-9,
        "r off by {retained:e}, φ by {ignored:e}"
    );
}

#[test]
fn the_reduced_energy_is_the_full_energy() {
    // The Jacobi integral of the Routhian, Z + K + V, is T + V on the momentum surface.
    let orbit = Orbit { m: 1.3, k: 0.8 };
    let (q, qd) = (Vector2::new(1.4, 0.3), Vector2::new(-0.2, 0.9));
    let (reduced, r, rd) = orbit.reduce_state(0.0, &q, &qd);
    assert!((reduced.energy(0.0, &r, &rd) - orbit.energy(0.0, &q, &qd)).abs() < 1e-13);
}
