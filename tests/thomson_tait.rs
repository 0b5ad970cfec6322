//! The derived equations of the textbook examples against the equations as Thomson & Tait
//! print them (*Treatise on Natural Philosophy*, 1879, §319, Examples A–F; the formulas reconstructed from the 1879 text),
//! in residual form `r(t, q, q̇, q̈) = 0`, at random states and parameter values.

#[path = "../examples/double_pendulum.rs"]
#[allow(dead_code)]
mod double_pendulum;
#[path = "../examples/tt_a_spherical_point.rs"]
#[allow(dead_code)]
mod tt_a;
#[path = "../examples/tt_b_string_through_hole.rs"]
#[allow(dead_code)]
mod tt_b;
#[path = "../examples/tt_c_folding_door.rs"]
#[allow(dead_code)]
mod tt_c;
#[path = "../examples/tt_e_rotating_axes.rs"]
#[allow(dead_code)]
mod tt_e;
#[path = "../examples/tt_f_moving_string.rs"]
#[allow(dead_code)]
mod tt_f;

use lagrange::nalgebra::{Vector2, Vector3};
use lagrange::{Check, Conserved, Simulation};

/// Worst relative residual the derived equations may leave in a textbook equation.
const TOLERANCE: f64 = 1e-11;

#[test]
fn example_a_point_in_spherical_polar_coordinates() {
    use tt_a::SphericalPoint;
    // Thomson & Tait: m(r̈ − r θ̇² − r sin²θ φ̇²) = R,  m d/dt(r² θ̇) − m r² sinθ cosθ φ̇² = Θ,
    // m d/dt(r² sin²θ φ̇) = Φ, with R = F, Θ = G r, Φ = H r sinθ.
    let report = Check::new()
        .coordinate("r", 0.5..2.0)
        .coordinate("theta", 0.3..2.8)
        .coordinate("phi", -3.0..3.0)
        .parameter("F", -2.0..2.0)
        .parameter("G", -2.0..2.0)
        .parameter("H", -2.0..2.0)
        .run(|p: &SphericalPoint, s| {
            let [r, th, _] = [s.q[0], s.q[1], s.q[2]];
            let [rd, thd, phd] = [s.qd[0], s.qd[1], s.qd[2]];
            let [rdd, thdd, phdd] = [s.qdd[0], s.qdd[1], s.qdd[2]];
            let (sn, cs) = th.sin_cos();
            vec![
                p.m * (rdd - r * thd * thd - r * sn * sn * phd * phd) - p.F,
                p.m * (r * r * thdd + 2.0 * r * rd * thd - r * r * sn * cs * phd * phd) - p.G * r,
                p.m * (r * r * sn * sn * phdd
                    + 2.0 * r * rd * sn * sn * phd
                    + 2.0 * r * r * sn * cs * thd * phd)
                    - p.H * r * sn,
            ]
        })
        .unwrap();
    report.assert_below(TOLERANCE).unwrap();
    assert_eq!(SphericalPoint::INFO.conserved, Conserved::None);
    assert!(
        SphericalPoint::INFO.cyclic.is_empty(),
        "forces act on every coordinate"
    );
}

#[test]
fn example_a_without_forces_moves_on_a_straight_line() {
    let point = tt_a::SphericalPoint {
        m: 2.0,
        F: 0.0,
        G: 0.0,
        H: 0.0,
    };
    let (q0, qd0): (Vector3<f64>, Vector3<f64>) =
        (Vector3::new(1.0, 1.0, 0.0), Vector3::new(0.3, 0.2, 0.5));
    let cartesian = |q: &Vector3<f64>| {
        let (r, th, ph) = (q[0], q[1], q[2]);
        Vector3::new(
            r * th.sin() * ph.cos(),
            r * th.sin() * ph.sin(),
            r * th.cos(),
        )
    };
    // Initial Cartesian velocity from the chain rule: v = ṙ e_r + r θ̇ e_θ + r sinθ φ̇ e_φ.
    let (th, ph) = (q0[1], q0[2]);
    let e_r = Vector3::new(th.sin() * ph.cos(), th.sin() * ph.sin(), th.cos());
    let e_th = Vector3::new(th.cos() * ph.cos(), th.cos() * ph.sin(), -th.sin());
    let e_ph = Vector3::new(-ph.sin(), ph.cos(), 0.0);
    let v = qd0[0] * e_r + q0[0] * qd0[1] * e_th + q0[0] * th.sin() * qd0[2] * e_ph;
    let trajectory = Simulation::new(&point).run(0.0, q0, qd0, 3.0).unwrap();
    let (t, q, _) = trajectory.last().unwrap();
    let expected = cartesian(&q0) + t * v;
    assert!(
        (cartesian(&q) - expected).norm() < 1e-8,
        "{} vs {}",
        cartesian(&q),
        expected
    );
}

#[test]
fn example_b_string_through_a_hole() {
    use tt_b::StringThroughHole;
    // (m + m') r̈ − m r θ̇² = −m' g,  m d/dt(r² θ̇) = 0.
    let report = Check::new()
        .coordinate("r", 0.3..2.0)
        .run(|p: &StringThroughHole, s| {
            let (r, rd, thd) = (s.q[0], s.qd[0], s.qd[1]);
            vec![
                (p.m + p.mp) * s.qdd[0] - p.m * r * thd * thd + p.mp * p.g,
                p.m * (r * r * s.qdd[1] + 2.0 * r * rd * thd),
            ]
        })
        .unwrap();
    report.assert_below(TOLERANCE).unwrap();
    assert_eq!(*StringThroughHole::INFO.cyclic, [1], "θ is cyclic");
    assert_eq!(StringThroughHole::INFO.conserved, Conserved::Energy);

    // The moment of momentum h = m r² θ̇ and the energy are constant along the motion.
    let system = StringThroughHole {
        m: 1.0,
        mp: 0.5,
        g: 9.81,
    };
    let trajectory = Simulation::new(&system)
        .run(0.0, Vector2::new(1.0, 0.0), Vector2::new(0.0, 2.0), 10.0)
        .unwrap();
    let h0 = system.m * 1.0 * 2.0;
    for (q, qd) in trajectory.q().iter().zip(trajectory.qd()) {
        assert!((system.m * q[0] * q[0] * qd[1] - h0).abs() < 1e-8);
    }
    assert!(trajectory.invariant("energy").unwrap().drift() < 1e-8);
    assert!(trajectory.invariant("p_theta").unwrap().drift() < 1e-8);
}

#[test]
fn example_c_folding_door() {
    use tt_c::FoldingDoor;
    let report = Check::new()
        .all_parameters(0.2..2.0)
        .parameter("A", -1.0..1.0)
        .parameter("Phi", -2.0..2.0)
        .parameter("Psi", -2.0..2.0)
        .run(|p: &FoldingDoor, s| {
            let (phi, psi) = (s.q[0], s.q[1]);
            let (phid, psid) = (s.qd[0], s.qd[1]);
            let (phidd, psidd) = (s.qdd[0], s.qdd[1]);
            let (sn, cs) = (psi - phi).sin_cos();
            let nab = p.n * p.a * p.b;
            // (m j² + n a²) φ̈ + n a b d/dt(ψ̇ cos(ψ−φ)) − n a b sin(ψ−φ) φ̇ ψ̇ = Φ − ∂V/∂φ, …
            let gravity_phi = p.g * p.m * p.h * phi.sin() + p.g * p.n * p.a * (phi + p.A).sin();
            let gravity_psi = p.g * p.n * p.b * (psi + p.A).sin();
            vec![
                (p.m * p.j * p.j + p.n * p.a * p.a) * phidd + nab * cs * psidd
                    - nab * sn * psid * psid
                    - p.Phi
                    + gravity_phi,
                p.n * (p.b * p.b + p.k * p.k) * psidd + nab * cs * phidd + nab * sn * phid * phid
                    - p.Psi
                    + gravity_psi,
            ]
        })
        .unwrap();
    report.assert_below(TOLERANCE).unwrap();
}

#[test]
fn example_c_moment_of_momentum_is_a_first_integral_without_couples() {
    // Thomson & Tait: with Φ = Ψ = 0 (and no gravity)
    // (m j² + n a²) φ̇ + n a b cos(ψ − φ)(φ̇ + ψ̇) + n (b² + k²) ψ̇ = C.
    let door = tt_c::FoldingDoor {
        m: 3.0,
        n: 1.0,
        a: 1.0,
        b: 0.5,
        j: 0.6,
        k: 0.3,
        h: 0.4,
        A: 0.0,
        Phi: 0.0,
        Psi: 0.0,
        g: 0.0,
    };
    let textbook = |q: &Vector2<f64>, qd: &Vector2<f64>| {
        (door.m * door.j.powi(2) + door.n * door.a.powi(2)) * qd[0]
            + door.n * door.a * door.b * (q[1] - q[0]).cos() * (qd[0] + qd[1])
            + door.n * (door.b.powi(2) + door.k.powi(2)) * qd[1]
    };
    let (q0, qd0) = (Vector2::new(0.0, 1.0), Vector2::new(0.5, -1.5));
    let c = textbook(&q0, &qd0);
    let trajectory = Simulation::new(&door)
        .integrator(lagrange::Integrator::dormand_prince(1e-12, 1e-12))
        .run(0.0, q0, qd0, 10.0)
        .unwrap();
    for (q, qd) in trajectory.q().iter().zip(trajectory.qd()) {
        assert!(
            (textbook(q, qd) - c).abs() < 1e-9,
            "{} vs {c}",
            textbook(q, qd)
        );
        assert!((door.moment_of_momentum(q, qd) - c).abs() < 1e-9);
    }
}

#[test]
fn example_e_axes_rotating_through_a_prescribed_angle() {
    use tt_e::RotatingAxes;
    // m(ẍ − 2ẏα̇ − xα̇² − yα̈) = X,  m(ÿ + 2ẋα̇ − yα̇² + xα̈) = Y,  m z̈ = Z.
    let report = Check::new()
        .all_parameters(-2.0..2.0)
        .parameter("m", 0.5..2.0)
        .run(|p: &RotatingAxes, s| {
            let t = s.t;
            let ad = p.omega + p.epsilon * p.nu * (p.nu * t).cos();
            let add = -p.epsilon * p.nu * p.nu * (p.nu * t).sin();
            let (x, y) = (s.q[0], s.q[1]);
            let (xd, yd) = (s.qd[0], s.qd[1]);
            vec![
                p.m * (s.qdd[0] - 2.0 * yd * ad - x * ad * ad - y * add) - p.X,
                p.m * (s.qdd[1] + 2.0 * xd * ad - y * ad * ad + x * add) - p.Y,
                p.m * s.qdd[2] - p.Z,
            ]
        })
        .unwrap();
    report.assert_below(TOLERANCE).unwrap();
    assert_eq!(
        RotatingAxes::INFO.conserved,
        Conserved::None,
        "α depends on t"
    );
}

#[test]
fn example_e_free_particle_moves_uniformly_in_the_fixed_axes() {
    let axes = tt_e::RotatingAxes {
        m: 1.0,
        omega: 1.0,
        epsilon: 0.3,
        nu: 2.0,
        X: 0.0,
        Y: 0.0,
        Z: 0.0,
    };
    let trajectory = Simulation::new(&axes)
        .run(
            0.0,
            Vector3::new(1.0, 0.0, 0.0),
            Vector3::new(0.0, 0.0, 0.1),
            5.0,
        )
        .unwrap();
    let speed = axes.omega + axes.epsilon * axes.nu; // α̇(0): fixed-frame velocity (0, α̇(0), 0.1)
    for (t, q) in trajectory.times().iter().zip(trajectory.q()) {
        let (s, c) = axes.alpha(*t).sin_cos();
        let fixed = Vector3::new(q[0] * c - q[1] * s, q[0] * s + q[1] * c, q[2]);
        let expected = Vector3::new(1.0, speed * t, 0.1 * t);
        assert!(
            (fixed - expected).norm() < 1e-8,
            "t = {t}: {fixed} vs {expected}"
        );
    }
}

#[test]
fn example_f_string_with_an_end_moved_along_a_line() {
    use tt_f::MovingString;
    // m(a(θ̈ − sinθ cosθ φ̇²) − sinθ ü) = G,  m a (sinθ φ̈ + 2 cosθ θ̇ φ̇) = H.
    let report = Check::new()
        .coordinate("theta", 0.3..2.8)
        .parameter("G", -2.0..2.0)
        .parameter("H", -2.0..2.0)
        .run(|p: &MovingString, s| {
            let udd = -p.U * p.nu * p.nu * (p.nu * s.t).sin();
            let (th, thd, phd) = (s.q[0], s.qd[0], s.qd[1]);
            let (sn, cs) = th.sin_cos();
            vec![
                p.m * (p.a * (s.qdd[0] - sn * cs * phd * phd) - sn * udd) - p.G,
                p.m * p.a * (sn * s.qdd[1] + 2.0 * cs * thd * phd) - p.H,
            ]
        })
        .unwrap();
    report.assert_below(TOLERANCE).unwrap();
    assert_eq!(MovingString::INFO.conserved, Conserved::None);
}

#[test]
fn double_pendulum_matches_its_closed_form() {
    use double_pendulum::DoublePendulum;
    let report = Check::new()
        .all_coordinates(-3.0..3.0)
        .run(|p: &DoublePendulum, s| {
            let (sn, cs) = (s.q[0] - s.q[1]).sin_cos();
            let (m1, m2, l1, l2, g) = (p.m1, p.m2, p.l1, p.l2, p.g);
            vec![
                (m1 + m2) * l1 * s.qdd[0]
                    + m2 * l2 * cs * s.qdd[1]
                    + m2 * l2 * sn * s.qd[1].powi(2)
                    + (m1 + m2) * g * s.q[0].sin(),
                l2 * s.qdd[1] + l1 * cs * s.qdd[0] - l1 * sn * s.qd[0].powi(2) + g * s.q[1].sin(),
            ]
        })
        .unwrap();
    report.assert_below(TOLERANCE).unwrap();
}

#[test]
fn a_wrong_reference_equation_is_caught() {
    use double_pendulum::DoublePendulum;
    // The same as above with the sign of the centrifugal term flipped: the check must fail.
    let report = Check::new()
        .run(|p: &DoublePendulum, s| {
            let (sn, cs) = (s.q[0] - s.q[1]).sin_cos();
            vec![l2_equation(p, s.q, s.qd, s.qdd, cs, -sn)]
        })
        .unwrap();
    assert!(report.worst > 1e-3, "worst = {}", report.worst);

    fn l2_equation(
        p: &DoublePendulum,
        q: Vector2<f64>,
        qd: Vector2<f64>,
        qdd: Vector2<f64>,
        cs: f64,
        sn: f64,
    ) -> f64 {
        p.l2 * qdd[1] + p.l1 * cs * qdd[0] - p.l1 * sn * qd[0].powi(2) + p.g * q[1].sin()
    }
}
