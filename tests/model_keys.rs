//! The model keys beyond `kinetic`/`potential`: `lagrangian`, `force` with explicit time,
//! `dissipation`, and the constant `pi`, each against a closed form.

use lagrange::nalgebra::Vector1;
use lagrange::{Check, Conserved, Integrator, Lagrangian, LagrangianSystem, Simulation};

/// m ẍ = −k x − c ẋ from the Rayleigh function F = ½ c ẋ².
#[derive(Lagrangian)]
#[lagrangian(
    coordinates(x),
    lagrangian = "1/2*m*dot(x)^2 - 1/2*k*x^2",
    dissipation = "1/2*c*dot(x)^2"
)]
struct DampedOscillator {
    m: f64,
    k: f64,
    c: f64,
}

#[test]
fn dissipation_gives_the_damped_oscillator() {
    assert_eq!(DampedOscillator::INFO.conserved, Conserved::None);
    assert!(DampedOscillator::INFO.cyclic.is_empty());
    let o = DampedOscillator {
        m: 2.0,
        k: 8.0,
        c: 0.8,
    };
    // Nothing for the integrators' step guard to check.
    let (x, v) = (Vector1::new(0.5), Vector1::new(-1.0));
    assert_eq!(o.conserved_value_and_lagrangian(0.0, &x, &v), None);
    let trajectory = Simulation::new(&o)
        .integrator(Integrator::dormand_prince(1e-12, 1e-12))
        .output_interval(0.5)
        .run(0.0, Vector1::new(1.0), Vector1::new(0.0), 10.0)
        .unwrap();
    // x(t) = e^{−γt}(cos ω t + γ/ω sin ω t), γ = c/2m, ω = √(k/m − γ²).
    let gamma = o.c / (2.0 * o.m);
    let omega = (o.k / o.m - gamma * gamma).sqrt();
    for (t, q) in trajectory.times().iter().zip(trajectory.q()) {
        let exact = (-gamma * t).exp() * ((omega * t).cos() + gamma / omega * (omega * t).sin());
        assert!((q[0] - exact).abs() < 1e-9, "t = {t}: {} vs {exact}", q[0]);
    }
}

/// A driven pendulum-like system with a periodic potential written with `pi`.
#[derive(Lagrangian)]
#[lagrangian(
    coordinates(x),
    kinetic = "1/2*m*dot(x)^2",
    potential = "v0*(1 - cos(2*pi*x/a))",
    force(x = "f0*cos(w*t)")
)]
struct DrivenLattice {
    m: f64,
    v0: f64,
    a: f64,
    f0: f64,
    w: f64,
}

#[test]
fn time_dependent_force_and_pi() {
    assert_eq!(DrivenLattice::INFO.conserved, Conserved::None);
    let report = Check::new()
        .run(|p: &DrivenLattice, s| {
            let k = 2.0 * std::f64::consts::PI / p.a;
            vec![p.m * s.qdd[0] + p.v0 * k * (k * s.q[0]).sin() - p.f0 * (p.w * s.t).cos()]
        })
        .unwrap();
    report.assert_below(1e-12).unwrap();
}

/// A Lagrangian that is not `T − V` with quadratic `T`: the relativistic free particle,
/// `L = −m c² √(1 − ẋ²/c²)`. Its momentum is `m γ ẋ` and its Jacobi integral `m γ c²`.
#[derive(Lagrangian)]
#[lagrangian(coordinates(x), lagrangian = "-m*c^2*sqrt(1 - dot(x)^2/c^2)")]
struct RelativisticParticle {
    m: f64,
    c: f64,
}

#[test]
fn a_lagrangian_with_velocity_dependent_mass_matrix() {
    assert_eq!(
        RelativisticParticle::INFO.conserved,
        Conserved::JacobiIntegral
    );
    assert_eq!(*RelativisticParticle::INFO.cyclic, [0]);
    let p = RelativisticParticle { m: 2.0, c: 3.0 };
    let (q, qd) = (Vector1::new(0.0), Vector1::new(1.8));
    let gamma = 1.0 / (1.0 - (qd[0] / p.c).powi(2)).sqrt();
    assert!((p.momenta(0.0, &q, &qd)[0] - p.m * gamma * qd[0]).abs() < 1e-12);
    assert!((p.jacobi_integral(0.0, &q, &qd) - p.m * gamma * p.c * p.c).abs() < 1e-12);
    // M = m γ³.
    assert!((p.mass_matrix(0.0, &q, &qd)[(0, 0)] - p.m * gamma.powi(3)).abs() < 1e-12);
    assert_eq!(p.accelerations(0.0, &q, &qd).unwrap()[0], 0.0);
}
