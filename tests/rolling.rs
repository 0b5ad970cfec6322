//! Rolling bodies against closed forms: a coin written out and declared with `rolls`,
//! upright above its critical spin and falling below it, the declared wheel moving as the
//! written one, a tilted coin's steady turns, and a ball on a turntable circling at 2/7
//! of the table's rate; Maggi's equations on independent speeds give the multipliers'
//! motion for the coin and the ball.

#[path = "../examples/rolling_disk.rs"]
#[allow(dead_code)]
mod coin;
mod speeds_agree;

use coin::RollingDisk as DeclaredDisk;
use lagrange::nalgebra::Const;
use lagrange::nalgebra::Vector5;
use lagrange::{
    Conserved, ConstrainedSystem, IndependentSpeeds, Integrator, Lagrangian, Simulation, Stability,
};
use speeds_agree::maggi_agrees;

fn tight() -> Integrator {
    Integrator::dormand_prince(1e-12, 1e-12)
}

/// A thin disk of radius `R` rolling without slipping on the plane `z = 0`: its centre at
/// `(x, y, R sin θ)`, oriented by `R_z(ψ) R_x(θ) R_z(φ)` (axis `n`, tilt `θ` from the
/// vertical of the axis, so `θ = π/2` is upright), moments `A` about a diameter and `C`
/// about the axis. The contact point is `P = c − R u` with `u = (−cos θ sin ψ, cos θ cos ψ,
/// sin θ)`, and the rolling conditions are the horizontal components of
/// `v_c + ω × (P − c) = v_c − R ω × u = 0`, with
/// `ω = (θ̇ cos ψ + φ̇ sin θ sin ψ, θ̇ sin ψ − φ̇ sin θ cos ψ, ψ̇ + φ̇ cos θ)`.
#[derive(Lagrangian)]
#[lagrangian(
    coordinates(x, y, psi, theta, phi),
    body(
        name = disk,
        mass = "m",
        inertia = ["A", "A", "C"],
        rotation = euler_zxz(psi, theta, phi),
        position = ["x", "y", "R*sin(theta)"],
    ),
    gravity = ["0", "0", "-g"],
    velocity_constraint = "dot(x) - R*((dot(theta)*sin(psi) - dot(phi)*sin(theta)*cos(psi))*sin(theta) - (dot(psi) + dot(phi)*cos(theta))*cos(theta)*cos(psi))",
    velocity_constraint = "dot(y) - R*(-(dot(psi) + dot(phi)*cos(theta))*cos(theta)*sin(psi) - (dot(theta)*cos(psi) + dot(phi)*sin(theta)*sin(psi))*sin(theta))"
)]
#[allow(non_snake_case)]
struct RollingDisk {
    m: f64,
    A: f64,
    C: f64,
    R: f64,
    g: f64,
}

#[test]
fn a_rolling_coin_stays_upright_above_the_critical_spin_and_falls_below_it() {
    // Upright rolling along x at spin Ω: the lean δθ and the heading obey
    // (A + m R²) δθ̈ = m g R δθ − (C + m R²) Ω δψ̇ and A δψ̈ = C Ω δθ̇, so
    // δθ̈ = [m g R − (C + m R²) C Ω²/A]/(A + m R²) δθ: upright rolling is stable for
    // Ω² > m g R A / (C (C + m R²)), which is g/(3R) for a uniform disk (v² > g R/3).
    let (m, radius, g) = (1.0_f64, 0.3_f64, 9.81_f64);
    let disk = RollingDisk {
        m,
        A: m * radius * radius / 4.0,
        C: m * radius * radius / 2.0,
        R: radius,
        g,
    };
    let critical = (g / (3.0 * radius)).sqrt();
    let upright = Vector5::new(0.0, 0.0, 0.0, std::f64::consts::FRAC_PI_2, 0.0);
    for spin in [
        0.5 * critical,
        0.9 * critical,
        1.1 * critical,
        2.0 * critical,
    ] {
        let qd = Vector5::new(-radius * spin, 0.0, 0.0, 0.0, spin);
        let linearization = lagrange::linearize_constrained(&disk, 0.0, &upright, &qd).unwrap();
        assert_eq!(linearization.tangent.as_ref().unwrap().ncols(), 8);
        let eigenvalues = linearization.eigenvalues().unwrap();
        let lean = (m * g * radius
            - (disk.C + m * radius * radius) * disk.C * spin * spin / disk.A)
            / (disk.A + m * radius * radius);
        let largest = eigenvalues
            .iter()
            .map(|l| l.re)
            .fold(f64::NEG_INFINITY, f64::max);
        let stability = linearization.stability().unwrap();
        if spin < critical {
            assert!(
                (largest - lean.sqrt()).abs() < 1e-8 * lean.sqrt(),
                "{eigenvalues:?}"
            );
            assert_eq!(stability, Stability::Unstable);
        } else {
            // The rest are the zeros of the cyclic position, heading and spin, a Jordan
            // block whose computed eigenvalues scatter by ε^(1/3)‖A‖.
            assert_eq!(stability, Stability::Marginal, "{eigenvalues:?}");
            let frequency = (-lean).sqrt();
            assert!(
                eigenvalues
                    .iter()
                    .any(|l| (l.im.abs() - frequency).abs() < 1e-8 * frequency),
                "{eigenvalues:?} vs ±{frequency} i"
            );
        }
    }
}

/// A uniform thin disk of mass `m` and radius `r` as `examples/rolling_disk.rs` declares
/// it: [`RollingDisk`] with its rolling declared, `rolls = "R"`, instead of written out.
fn declared_coin(m: f64, r: f64) -> DeclaredDisk {
    DeclaredDisk {
        m,
        A: m * r * r / 4.0,
        C: m * r * r / 2.0,
        R: r,
        g: 9.81,
    }
}

#[test]
fn a_declared_rolling_wheel_moves_as_the_written_out_one() {
    let (m, radius, g) = (0.8_f64, 0.25_f64, 9.81_f64);
    let (a, c) = (m * radius * radius / 4.0, m * radius * radius / 2.0);
    let written = RollingDisk {
        m,
        A: a,
        C: c,
        R: radius,
        g,
    };
    let declared = declared_coin(m, radius);
    assert_eq!(DeclaredDisk::INFO.constraints.len(), 2);
    assert!(
        DeclaredDisk::INFO
            .constraints
            .iter()
            .all(|c| c.on_velocities && c.scleronomic)
    );
    assert_eq!(DeclaredDisk::INFO.conserved, Conserved::Energy);
    assert_eq!(DeclaredDisk::INFO.cyclic, RollingDisk::INFO.cyclic);
    // A tilted, turning, spinning start that satisfies the rolling conditions: take the
    // angle rates and let the centre's velocity follow from the written-out constraints.
    let q0: Vector5<f64> = Vector5::new(0.1, -0.2, 0.3, 1.2, 0.4);
    let (psi, theta) = (q0[2], q0[3]);
    let (psi_rate, theta_rate, spin) = (0.7_f64, -0.4_f64, 9.0_f64);
    let w = [
        theta_rate * psi.cos() + spin * theta.sin() * psi.sin(),
        theta_rate * psi.sin() - spin * theta.sin() * psi.cos(),
        psi_rate + spin * theta.cos(),
    ];
    let qd0 = Vector5::new(
        radius * (w[1] * theta.sin() - w[2] * theta.cos() * psi.cos()),
        radius * (-w[2] * theta.cos() * psi.sin() - w[0] * theta.sin()),
        psi_rate,
        theta_rate,
        spin,
    );
    let run = |trajectory: lagrange::Trajectory<Const<5>>| trajectory;
    let a = run(Simulation::new(&written)
        .integrator(tight())
        .output_interval(0.1)
        .run(0.0, q0, qd0, 2.0)
        .unwrap());
    let b = Simulation::new(&declared)
        .integrator(tight())
        .output_interval(0.1)
        .run(0.0, q0, qd0, 2.0)
        .unwrap();
    for k in 0..a.len() {
        let (qa, qb) = (a.q()[k], b.q()[k]);
        assert!(
            (qa - qb).norm() < 1e-9,
            "t = {}: {qa} vs {qb}",
            a.times()[k]
        );
    }
    assert!(b.invariant("energy").unwrap().relative_drift() < 1e-9);
    // The same constraint rows, up to their presentation, at the end state.
    let (_, q, qd) = b.last().unwrap();
    let (e_written, e_declared) = (
        written.constraint_velocities(2.0, &q, &qd),
        declared.constraint_velocities(2.0, &q, &qd),
    );
    assert!(
        (e_written - e_declared).norm() < 1e-12,
        "{e_written} vs {e_declared}"
    );
    let (j_written, j_declared) = (
        written.constraint_jacobian(2.0, &q),
        declared.constraint_jacobian(2.0, &q),
    );
    assert!((j_written - j_declared).norm() < 1e-12 * j_written.norm());
}

#[test]
fn maggis_equations_give_the_rolling_coins_motion() {
    let coin = declared_coin(0.4, 0.1);
    // Leaning between 0.3 and 2.8 rad from the ground, never flat.
    maggi_agrees(&coin, &["psi", "theta", "phi"], |s| {
        Vector5::new(
            s.next(),
            s.next(),
            3.0 * s.next(),
            1.55 + 1.25 * s.next(),
            3.0 * s.next(),
        )
    });
}

/// A uniform ball of radius `R` rolling without slipping on a turntable that turns at `Ω`
/// about the vertical through the origin: its contact point moves with the table,
/// `v_c + ω × (−R ẑ) = Ω ẑ × (x, y, 0)`, with `ω` of the z-x-z Euler angles
/// `(θ̇ cos ψ + φ̇ sin θ sin ψ, θ̇ sin ψ − φ̇ sin θ cos ψ, ψ̇ + φ̇ cos θ)`. The constraints have
/// a term `b = ±Ω (y, x)` free of the velocities: the table does work on the ball.
#[derive(Lagrangian)]
#[lagrangian(
    coordinates(x, y, psi, theta, phi),
    body(
        name = ball,
        mass = "m",
        inertia = ["2/5*m*R^2", "2/5*m*R^2", "2/5*m*R^2"],
        rotation = euler_zxz(psi, theta, phi),
        position = ["x", "y", "R"],
    ),
    velocity_constraint = "dot(x) - R*(dot(theta)*sin(psi) - dot(phi)*sin(theta)*cos(psi)) + Omega*y",
    velocity_constraint = "dot(y) + R*(dot(theta)*cos(psi) + dot(phi)*sin(theta)*sin(psi)) - Omega*x"
)]
#[allow(non_snake_case)]
struct TurntableBall {
    m: f64,
    R: f64,
    Omega: f64,
}

#[test]
fn a_ball_on_a_turntable_circles_at_two_sevenths_of_its_rate() {
    // Whatever the start, the centre runs a circle at 2Ω/7 (Ω I/(I + m R²), I = 2/5 m R²), once
    // round in 7.3 s:
    // with v = w ẑ × (r − c), the circle's centre is c = r₀ + ẑ × v₀/w.
    let ball = TurntableBall {
        m: 0.2,
        R: 0.05,
        Omega: 3.0,
    };
    assert_eq!(
        TurntableBall::INFO.conserved,
        Conserved::None,
        "the table does work"
    );
    let w = 2.0 * ball.Omega / 7.0;
    let q0 = Vector5::new(0.3, -0.1, 0.4, 1.2, 0.0);
    // Spin rates chosen freely; the centre's velocity follows from the constraints.
    let speeds = IndependentSpeeds::named(&ball, &["psi", "theta", "phi"]).unwrap();
    let basis = speeds.basis(&ball, 0.0, &q0).unwrap();
    let u = lagrange::nalgebra::Vector3::new(0.7, -2.0, 5.0);
    let qd0 = Vector5::from_column_slice((&basis.basis * u + &basis.offset).as_slice());
    ball.check_consistent(0.0, &q0, &qd0, 1e-14).unwrap();
    let centre = (q0[0] - qd0[1] / w, q0[1] + qd0[0] / w);
    let radius = (q0[0] - centre.0).hypot(q0[1] - centre.1);
    let start = (q0[1] - centre.1).atan2(q0[0] - centre.0);
    let trajectory = Simulation::new(&ball)
        .integrator(tight())
        .output_interval(0.25)
        .run(0.0, q0, qd0, 7.5)
        .unwrap();
    for (k, &t) in trajectory.times().iter().enumerate() {
        let (q, qd) = (trajectory.q()[k], trajectory.qd()[k]);
        let angle = start + w * t;
        let expected = (
            centre.0 + radius * angle.cos(),
            centre.1 + radius * angle.sin(),
        );
        let error = (q[0] - expected.0).hypot(q[1] - expected.1);
        assert!(
            error < 1e-8,
            "t = {t}: centre ({}, {}) vs {expected:?}",
            q[0],
            q[1]
        );
        // Maggi's equations with the table's b term give the same accelerations.
        let maggi = speeds.accelerations(&ball, t, &q, &qd).unwrap();
        let multipliers = ball.constrained_motion(t, &q, &qd).unwrap().accelerations;
        assert!((maggi - multipliers).amax() <= 1e-10 * multipliers.amax().max(1.0));
    }
}

#[test]
fn a_tilted_coin_turns_steadily_at_the_spin_eulers_equations_give() {
    // A steady turn at tilt θ (axis n, n_z = cos θ) and heading rate Ω: with the spin about
    // the axis ω₃ = Ω cos θ + φ̇, the centre moves at R ω₃ along the heading and runs a
    // circle at Ω, and the moment of the ground's force about the centre turns the angular
    // momentum A Ω (ẑ − cos θ n) + C ω₃ n with the heading:
    // Ω sin θ [(C + m R²) ω₃ − A Ω cos θ] + m g R cos θ = 0.
    let (m, r) = (0.4_f64, 0.1_f64);
    let coin = declared_coin(m, r);
    let run = |tilt: f64, rate: f64, spin_about_axis: f64| {
        let q = Vector5::new(0.0, 0.0, 0.0, tilt, 0.0);
        let qd = Vector5::new(
            -r * spin_about_axis,
            0.0,
            rate,
            0.0,
            spin_about_axis - rate * tilt.cos(),
        );
        coin.check_consistent(0.0, &q, &qd, 1e-14).unwrap();
        Simulation::new(&coin)
            .integrator(tight())
            .output_interval(0.1)
            .run(0.0, q, qd, 2.0)
            .unwrap()
    };
    for (tilt, rate) in [(1.2, 6.0), (1.0, -9.0), (1.4, 15.0), (1.9, 8.0)] {
        let (s, c) = (f64::sin(tilt), f64::cos(tilt));
        let spin = (coin.A * rate * c - m * coin.g * r * c / (rate * s)) / (coin.C + m * r * r);
        let steady = run(tilt, rate, spin);
        for (q, qd) in steady.q().iter().zip(steady.qd()) {
            assert!(
                (q[3] - tilt).abs() < 1e-9,
                "tilt {tilt}, rate {rate}: θ = {}",
                q[3]
            );
            assert!((qd[2] - rate).abs() < 1e-8, "ψ̇ = {}", qd[2]);
        }
        // Two percent more spin is not a steady turn: the tilt wanders.
        let off = run(tilt, rate, 1.02 * spin);
        let wander = off
            .q()
            .iter()
            .map(|q| (q[3] - tilt).abs())
            .fold(0.0, f64::max);
        assert!(
            wander > 1e-4,
            "tilt {tilt}, rate {rate}: wandered only {wander:.1e}"
        );
    }
}

/// A wheel of radius `R` on a slide along x, its axle along y: it can roll only along x,
/// so of its two rolling conditions the one along y vanishes and is left out.
#[derive(Lagrangian)]
#[lagrangian(
    coordinates(x, phi),
    body(name = slide, mass = "m", inertia = ["0", "0", "0"], joint = prismatic(x),
         axis = ["1", "0", "0"]),
    body(name = wheel, mass = "m", inertia = ["A", "A", "C"], parent = slide,
         joint = revolute(phi), origin = ["0", "0", "R"], rpy = ["-pi/2", "0", "0"],
         axis = ["0", "0", "1"], rolls = "R")
)]
#[allow(non_snake_case)]
struct SlidingWheel {
    m: f64,
    A: f64,
    C: f64,
    R: f64,
}

#[test]
fn a_wheel_that_cannot_move_sideways_has_one_rolling_condition() {
    assert_eq!(SlidingWheel::INFO.constraints.len(), 1);
    let wheel = SlidingWheel {
        m: 1.5,
        A: 0.02,
        C: 0.04,
        R: 0.2,
    };
    // Rolling along x: ẋ = R φ̇ (the axle along y turns the wheel forward for φ̇ > 0).
    let (q0, qd0) = (
        lagrange::nalgebra::Vector2::zeros(),
        lagrange::nalgebra::Vector2::new(0.6, 3.0),
    );
    wheel.check_consistent(0.0, &q0, &qd0, 1e-14).unwrap();
    let trajectory = Simulation::new(&wheel)
        .integrator(tight())
        .run(0.0, q0, qd0, 2.0)
        .unwrap();
    let (_, q, qd) = trajectory.last().unwrap();
    assert!((q[0] - wheel.R * q[1]).abs() < 1e-10, "{q}");
    assert!(
        (qd - qd0).amax() < 1e-10,
        "nothing acts along the track: {qd}"
    );
}
