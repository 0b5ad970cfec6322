//! Least and varying action (Thomson & Tait §§326–330) on derived models, against closed
//! forms: the projectile through two points at a given energy (the low and the high aim,
//! of which only the low one has least action, T&T §327), and in a given time; the kinetic
//! foci of a circular Kepler orbit; a pendulum between two angles by several motions.

use lagrange::nalgebra::Const;
use std::f64::consts::PI;

use lagrange::nalgebra::{Vector1, Vector2};
use lagrange::{Connect, Lagrangian, LagrangianSystem, Motion};

#[derive(Lagrangian)]
#[lagrangian(
    coordinates(x, y),
    kinetic = "1/2*m*(dot(x)^2 + dot(y)^2)",
    potential = "m*g*y"
)]
struct Projectile {
    m: f64,
    g: f64,
}

#[derive(Lagrangian)]
#[lagrangian(
    coordinates(r, phi),
    kinetic = "1/2*m*(dot(r)^2 + r^2*dot(phi)^2)",
    potential = "-mu*m/r"
)]
struct Kepler {
    m: f64,
    mu: f64,
}

#[derive(Lagrangian)]
#[lagrangian(
    coordinates(theta),
    kinetic = "1/2*m*l^2*dot(theta)^2",
    potential = "-m*g*l*cos(theta)"
)]
struct Pendulum {
    m: f64,
    g: f64,
    l: f64,
}

const G: f64 = 9.81;

/// Every relation of a motion holds to `tolerance`, relative to the size of its terms.
fn relations_hold<const N: usize>(m: &Motion<Const<N>>, tolerance: f64) {
    for r in &m.relations {
        let scale = 1.0 + r.expected.abs() + r.computed.abs();
        assert!(
            r.difference().abs() < tolerance * scale,
            "{} = {}: computed {}, expected {}",
            r.derivative,
            r.law,
            r.computed,
            r.expected
        );
    }
}

#[test]
fn a_projectile_reaches_a_point_at_a_given_energy_by_a_low_and_a_high_path() {
    let (m, v) = (2.0_f64, 12.0_f64);
    let sys = Projectile { m, g: G };
    let target = Vector2::new(9.0, 2.0);
    let (x, y) = (target[0], target[1]);
    let e = 0.5 * m * v * v;
    let motions = Connect::at_energy(&sys, Vector2::zeros(), target, e)
        .solve()
        .unwrap();
    assert_eq!(motions.len(), 2, "two aims reach the point");
    // tan α = (v² ± √(v⁴ − g (g x² + 2 y v²))) / (g x): low aim first, by its action.
    let root = (v.powi(4) - G * (G * x * x + 2.0 * y * v * v)).sqrt();
    for (motion, sign) in motions.iter().zip([-1.0, 1.0]) {
        let alpha = ((v * v + sign * root) / (G * x)).atan();
        let velocity = Vector2::new(v * alpha.cos(), v * alpha.sin());
        assert!(
            (motion.initial_velocity - velocity).norm() < 1e-9 * v,
            "{alpha}"
        );
        let tau = x / (v * alpha.cos());
        assert!((motion.time - tau).abs() < 1e-10 * tau);
        // A = ∫ m |ṙ|² dt = m ∫ (v² − 2 g y(t)) dt, y(t) = v sin α t − g t²/2.
        let height = v * alpha.sin() * tau * tau / 2.0 - G * tau.powi(3) / 6.0;
        let action = m * (v * v * tau - 2.0 * G * height);
        assert!(
            (motion.action - action).abs() < 1e-10 * action,
            "{} vs {action}",
            motion.action
        );
        relations_hold(motion, 1e-8);
        let by_energy = motion
            .relations
            .iter()
            .find(|r| r.derivative == "∂A/∂E")
            .unwrap();
        assert!((by_energy.computed - tau).abs() < 1e-8 * tau);
        // The path touches the envelope of the paths of this energy, y = v²/2g − g x²/2v²,
        // at x = v²/(g tan α), t = v/(g sin α): the kinetic focus of the start.
        let focus = v / (G * alpha.sin());
        if sign < 0.0 {
            assert!(
                focus > tau && motion.is_least(),
                "the low aim has least action"
            );
        } else {
            assert!(
                focus < tau && !motion.is_least(),
                "the high aim passes a focus"
            );
            assert_eq!(motion.foci.len(), 1, "{:?}", motion.foci);
            assert!(
                (motion.foci[0] - focus).abs() < 1e-9 * focus,
                "{:?} vs {focus}",
                motion.foci
            );
        }
    }
    assert!(motions[0].action < motions[1].action);
}

#[test]
fn a_projectile_in_a_given_time_has_the_closed_form_principal_function() {
    let m = 0.5;
    let sys = Projectile { m, g: G };
    let (target, tau) = (Vector2::new(4.0, -1.0), 0.8_f64);
    let motions = Connect::in_time(&sys, Vector2::zeros(), target, tau)
        .solve()
        .unwrap();
    assert_eq!(motions.len(), 1);
    let motion = &motions[0];
    let (vx, vy) = (target[0] / tau, target[1] / tau + G * tau / 2.0);
    assert!((motion.initial_velocity - Vector2::new(vx, vy)).norm() < 1e-10 * vy.abs());
    // S = ∫ (½ m (vx² + (vy − g t)²) − m g (vy t − g t²/2)) dt.
    let kinetic =
        0.5 * m * (vx * vx * tau + vy * vy * tau - vy * G * tau * tau + G * G * tau.powi(3) / 3.0);
    let potential = m * G * (vy * tau * tau / 2.0 - G * tau.powi(3) / 6.0);
    let s = kinetic - potential;
    assert!(
        (motion.principal - s).abs() < 1e-10 * s.abs(),
        "{} vs {s}",
        motion.principal
    );
    relations_hold(motion, 1e-9);
    // ∂q(t)/∂q̇₀ = t I never vanishes again: no focus at any time.
    assert!(motion.is_least());
}

/// `8 (1 − cos θ) − 3 θ sin θ`: `ω² det ∂(r, R φ)/∂q̇₀` along a circular orbit, from
/// Hill's equations of the motion near it.
fn circular_focus_function(theta: f64) -> f64 {
    8.0 * (1.0 - theta.cos()) - 3.0 * theta * theta.sin()
}

/// The zero of `f` between `a` and `b`, by bisection.
fn bisect(f: impl Fn(f64) -> f64, mut a: f64, mut b: f64) -> f64 {
    for _ in 0..200 {
        let mid = 0.5 * (a + b);
        if f(mid).signum() == f(a).signum() {
            a = mid;
        } else {
            b = mid;
        }
    }
    0.5 * (a + b)
}

#[test]
fn a_circular_orbits_kinetic_foci_are_at_a_period_and_where_hills_equations_put_them() {
    let (m, mu, radius) = (1.0_f64, 4.0_f64, 2.0_f64);
    let sys = Kepler { m, mu };
    let omega = (mu / radius.powi(3)).sqrt();
    let period = 2.0 * PI / omega;
    let tau = 1.5 * period;
    let from = Vector2::new(radius, 0.0);
    let to = Vector2::new(radius, omega * tau);
    let motions = Connect::in_time(&sys, from, to, tau)
        .starts([Vector2::new(0.0, omega)])
        .solve()
        .unwrap();
    let orbit = &motions[0];
    assert!((orbit.initial_velocity - Vector2::new(0.0, omega)).norm() < 1e-9);
    relations_hold(orbit, 1e-8);
    let second = bisect(circular_focus_function, 2.2 * PI, 2.9 * PI) / omega;
    assert_eq!(orbit.foci.len(), 2, "{:?}", orbit.foci);
    assert!(
        (orbit.foci[0] - period).abs() < 1e-8 * period,
        "{:?}",
        orbit.foci
    );
    assert!(
        (orbit.foci[1] - second).abs() < 1e-8 * period,
        "{:?} vs {second}",
        orbit.foci
    );
    // At the orbit's energy the neighbours of the same energy meet it at the antipode:
    // the line from the start through the empty focus, here the centre.
    let energy = -mu * m / (2.0 * radius);
    let to = Vector2::new(radius, 1.5 * PI);
    let motions = Connect::at_energy(&sys, from, to, energy)
        .starts([Vector2::new(0.0, omega)])
        .solve()
        .unwrap();
    let orbit = &motions[0];
    assert!((orbit.time - 1.5 * PI / omega).abs() < 1e-9 * period);
    relations_hold(orbit, 1e-8);
    assert_eq!(orbit.foci.len(), 1, "{:?}", orbit.foci);
    assert!(
        (orbit.foci[0] - PI / omega).abs() < 1e-8 * period,
        "{:?}",
        orbit.foci
    );
}

#[test]
fn a_pendulum_joins_two_angles_by_several_motions() {
    let sys = Pendulum {
        m: 1.0,
        g: G,
        l: 1.0,
    };
    let (from, to, tau) = (Vector1::new(0.3), Vector1::new(-0.2), 3.0);
    // Swinging and whirling over the top once or twice each way.
    let starts = [-9.0, -6.0, -3.0, -1.0, 1.0, 3.0, 6.0, 9.0].map(Vector1::new);
    let motions = Connect::in_time(&sys, from, to, tau)
        .starts(starts)
        .solve()
        .unwrap();
    assert!(motions.len() >= 3, "found {}", motions.len());
    for (k, m) in motions.iter().enumerate() {
        relations_hold(m, 1e-8);
        let (t, q, _) = m.path.last().unwrap();
        assert!(
            (t - tau).abs() < 1e-14 && (q[0] - to[0]).abs() < 1e-10,
            "motion {k}"
        );
        // Its energy is conserved along the path, to the integration's accuracy.
        let energies = m.path.iter().map(|(t, q, qd)| sys.energy(*t, q, qd));
        assert!(energies.map(|e| (e - m.energy).abs()).fold(0.0, f64::max) < 1e-8);
    }
    assert!(motions.windows(2).all(|w| w[0].principal <= w[1].principal));
}
