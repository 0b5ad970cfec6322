//! Hamilton's canonical form (Thomson & Tait §319, eq. 35) from the generated momenta:
//! `q̇ = ∂H/∂p`, `ṗ = −∂H/∂q`, checked by finite differences of `H`, and `H` along the
//! motion.

#[path = "../examples/double_pendulum.rs"]
#[allow(dead_code)]
mod double_pendulum;

#[path = "models/turning_frame.rs"]
mod turning_frame;

use double_pendulum::DoublePendulum;
use lagrange::nalgebra::Const;
use lagrange::nalgebra::{SVector, Vector2, Vector3};
use lagrange::{Integrator, Lagrangian, LagrangianSystem, Simulation};
use turning_frame::TurningFrame;

/// Central differences of `H` against the canonical right-hand side at `(q, p)`.
fn check_canonical<S: LagrangianSystem<Const<N>>, const N: usize>(
    system: &S,
    q: SVector<f64, N>,
    p: SVector<f64, N>,
) {
    let h = 1e-6;
    let (qd, pd) = system.canonical_rhs(0.0, &q, &p).unwrap();
    let hamiltonian =
        |q: &SVector<f64, N>, p: &SVector<f64, N>| system.hamiltonian(0.0, q, p).unwrap();
    for i in 0..N {
        let e = SVector::<f64, N>::from_fn(|k, _| if k == i { h } else { 0.0 });
        let dh_dp = (hamiltonian(&q, &(p + e)) - hamiltonian(&q, &(p - e))) / (2.0 * h);
        let dh_dq = (hamiltonian(&(q + e), &p) - hamiltonian(&(q - e), &p)) / (2.0 * h);
        assert!(
            (dh_dp - qd[i]).abs() < 1e-7 * (1.0 + qd[i].abs()),
            "∂H/∂p{i} = {dh_dp} vs q̇ = {}",
            qd[i]
        );
        assert!(
            (dh_dq + pd[i]).abs() < 1e-7 * (1.0 + pd[i].abs()),
            "∂H/∂q{i} = {dh_dq} vs −ṗ = {}",
            -pd[i]
        );
    }
    // The velocities reproduce the momenta they came from.
    assert!((system.momenta(0.0, &q, &qd) - p).norm() < 1e-12 * (1.0 + p.norm()));
}

#[test]
fn canonical_equations_are_the_derivatives_of_h() {
    let pendulum = DoublePendulum {
        m1: 1.2,
        m2: 0.7,
        l1: 0.9,
        l2: 1.3,
        g: 9.81,
    };
    for (q, p) in [((0.3, -1.1), (0.5, 0.2)), ((2.0, 2.5), (-1.0, 0.7))] {
        check_canonical(&pendulum, Vector2::new(q.0, q.1), Vector2::new(p.0, p.1));
    }
    let frame = TurningFrame {
        m: 1.5,
        omega: 0.8,
        kx: 2.0,
        ky: 0.7,
        kz: 1.0,
    };
    check_canonical(
        &frame,
        Vector3::new(0.4, -0.3, 0.2),
        Vector3::new(0.1, 0.9, -0.5),
    );
}

#[test]
fn hamiltonian_is_constant_along_the_motion_and_equals_the_jacobi_integral() {
    let frame = TurningFrame {
        m: 1.5,
        omega: 0.8,
        kx: 2.0,
        ky: 0.7,
        kz: 1.0,
    };
    let trajectory = Simulation::new(&frame)
        .integrator(Integrator::dormand_prince(1e-12, 1e-12))
        .run(
            0.0,
            Vector3::new(1.0, 0.0, 0.3),
            Vector3::new(0.0, 0.5, 0.0),
            10.0,
        )
        .unwrap();
    let h0 = frame.jacobi_integral(0.0, &trajectory.q()[0], &trajectory.qd()[0]);
    for (q, qd) in trajectory.q().iter().zip(trajectory.qd()) {
        let p = frame.momenta(0.0, q, qd);
        let h = frame.hamiltonian(0.0, q, &p).unwrap();
        assert!((h - frame.jacobi_integral(0.0, q, qd)).abs() < 1e-12);
        assert!((h - h0).abs() < 1e-9, "H = {h} vs {h0}");
    }
}

#[test]
fn symplectic_integrators_keep_the_energy_of_the_double_pendulum_bounded_and_rk4_drifts() {
    let pendulum = DoublePendulum {
        m1: 1.0,
        m2: 1.0,
        l1: 1.0,
        l2: 1.0,
        g: 9.81,
    };
    let (q0, qd0) = (Vector2::new(0.5, 0.3), Vector2::zeros());
    let e0 = pendulum.energy(0.0, &q0, &qd0);
    let worst = |integrator: Integrator, t_end: f64| {
        let trajectory = Simulation::new(&pendulum)
            .integrator(integrator)
            .run(0.0, q0, qd0, t_end)
            .unwrap();
        trajectory
            .q()
            .iter()
            .zip(trajectory.qd())
            .map(|(q, qd)| (pendulum.energy(0.0, q, qd) - e0).abs())
            .fold(0.0, f64::max)
    };
    // Regular (quasi-periodic) motion: a secular drift shows as an error growing with the
    // length of the run, a bounded one does not.
    for integrator in [
        Integrator::GaussLegendre {
            dt: 0.01,
            stages: 2,
        },
        Integrator::Variational { dt: 0.01 },
    ] {
        let (short, long) = (worst(integrator, 20.0), worst(integrator, 200.0));
        assert!(
            long < 1.2 * short,
            "{integrator:?}: {short:e} over 20 s, {long:e} over 200 s"
        );
    }
    let rk4 = Integrator::Rk4 { dt: 0.01 };
    let (short, long) = (worst(rk4, 20.0), worst(rk4, 200.0));
    assert!(
        long > 5.0 * short,
        "RK4 drifts: {short:e} over 20 s, {long:e} over 200 s"
    );
}

#[test]
fn implicit_integrators_refuse_non_conservative_models() {
    #[derive(Lagrangian)]
    #[lagrangian(
        coordinates(x),
        kinetic = "1/2*m*dot(x)^2",
        dissipation = "1/2*c*dot(x)^2"
    )]
    struct Damped {
        m: f64,
        c: f64,
    }
    let damped = Damped { m: 1.0, c: 0.1 };
    let result = Simulation::new(&damped)
        .integrator(Integrator::Variational { dt: 0.01 })
        .run(
            0.0,
            SVector::<f64, 1>::new(1.0),
            SVector::<f64, 1>::new(0.0),
            1.0,
        );
    let message = result.unwrap_err().to_string();
    assert!(message.contains("conservative"), "{message}");
}
