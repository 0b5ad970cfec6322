//! Events on derived systems: a bouncing ball (the `bouncing_ball` example) and a
//! pendulum striking a wall, against closed forms.

#[path = "../examples/bouncing_ball.rs"]
#[allow(dead_code)]
mod bouncing_ball;

#[path = "../examples/central_orbit_routh.rs"]
#[allow(dead_code)]
mod central_orbit_routh;

use bouncing_ball::{Ball, drop_ball};
use central_orbit_routh::Orbit;
use lagrange::nalgebra::{Vector1, Vector2};
use lagrange::{Event, Integrator, Lagrangian, LagrangianSystem, Simulation};

/// A pendulum of mass `m` on a rod of length `l`, its potential zero at the bottom.
#[derive(Lagrangian)]
#[lagrangian(
    coordinates(theta),
    kinetic = "1/2*m*l^2*dot(theta)^2",
    potential = "m*g*l*(1 - cos(theta))"
)]
struct Pendulum {
    m: f64,
    l: f64,
    g: f64,
}

/// The complete elliptic integral of the first kind, `K(k) = π / (2 AGM(1, √(1 − k²)))`.
fn elliptic_k(k: f64) -> f64 {
    let (mut a, mut b) = (1.0f64, (1.0 - k * k).sqrt());
    // Quadratic convergence: a few iterations reach round-off, where a fixed count stops
    // (a test on |a − b| could cycle between neighbouring floats).
    for _ in 0..32 {
        (a, b) = (0.5 * (a + b), (a * b).sqrt());
    }
    std::f64::consts::PI / (a + b)
}

fn relative(a: f64, b: f64) -> f64 {
    (a - b).abs() / b.abs()
}

/// Bounce n + 1 follows bounce n after a flight of `2 eⁿ √(2h₀/g)`; the apex after bounce n
/// is at `e^{2n} h₀`.
#[test]
fn the_derived_ball_bounces_as_the_closed_form_says() {
    let ball = Ball { m: 0.1, g: 9.81 };
    let (h0, e) = (1.0f64, 0.8f64);
    let trajectory = drop_ball(&ball, h0, e, 3.5).unwrap();
    let fall = (2.0 * h0 / ball.g).sqrt();
    let mut expected = vec![fall];
    for n in 1.. {
        let next = expected[n - 1] + 2.0 * e.powi(n as i32) * fall;
        if next > 3.5 {
            break;
        }
        expected.push(next);
    }
    let bounces: Vec<_> = trajectory.events_named("floor").collect();
    assert_eq!(bounces.len(), expected.len());
    for (n, (bounce, expected)) in (1..).zip(bounces.iter().zip(&expected)) {
        assert!(
            relative(bounce.t, *expected) < 1e-12,
            "bounce {n} at {}, expected {expected}",
            bounce.t
        );
    }
    // The apex after the last bounce comes after the end of the run.
    let apexes: Vec<_> = trajectory.events_named("apex").collect();
    assert_eq!(apexes.len(), expected.len() - 1);
    for (n, apex) in (1..).zip(&apexes) {
        let height = e.powi(2 * n) * h0;
        assert!(
            relative(apex.q[0], height) < 1e-9,
            "apex {n}: {}",
            apex.q[0]
        );
    }
}

/// Released from rest at θ₀ against a wall at θ = 0 that reverses its swing with
/// restitution e: each impact leaves e² of the energy (all kinetic at the wall, where the
/// potential is zero), the energy holds between impacts, and the pendulum returns after
/// half the period of its new amplitude θₙ, `1 − cos θₙ = e²ⁿ (1 − cos θ₀)`:
/// `2 √(l/g) K(sin(θₙ/2))`, the first impact after a quarter period `√(l/g) K(sin(θ₀/2))`.
#[test]
fn a_pendulum_striking_a_wall_keeps_e_squared_of_its_energy_at_each_impact() {
    let pendulum = Pendulum {
        m: 0.5,
        l: 0.8,
        g: 9.81,
    };
    let (theta0, e) = (1.2f64, 0.7f64);
    let trajectory = Simulation::new(&pendulum)
        .integrator(Integrator::dormand_prince(1e-12, 1e-12))
        .event(
            Event::new("wall", |_, q, _| q[0])
                .falling()
                .reset(move |_, q, qd| (*q, -e * qd)),
        )
        .run(0.0, Vector1::new(theta0), Vector1::zeros(), 6.0)
        .unwrap();
    let impacts = trajectory.events();
    assert!(impacts.len() >= 5, "{} impacts", impacts.len());
    let root = (pendulum.l / pendulum.g).sqrt();
    let e0 = pendulum.m * pendulum.g * pendulum.l * (1.0 - theta0.cos());
    let mut t = root * elliptic_k((0.5 * theta0).sin());
    for (n, impact) in (0..).zip(impacts) {
        let after = impact.after.unwrap();
        let before = pendulum.energy(impact.t, &impact.q, &impact.qd);
        let kept = pendulum.energy(impact.t, &after.q, &after.qd);
        assert!(
            relative(kept, e * e * before) < 1e-12,
            "impact {n}: {kept} vs {before}"
        );
        assert!(
            relative(before, e.powi(2 * n) * e0) < 1e-9,
            "impact {n}: {before}"
        );
        assert!(
            relative(impact.t, t) < 1e-9,
            "impact {n} at {}, expected {t}",
            impact.t
        );
        let amplitude = (1.0 - e.powi(2 * (n + 1)) * (1.0 - theta0.cos())).acos();
        t += 2.0 * root * elliptic_k((0.5 * amplitude).sin());
    }
}

/// A Kepler orbit (m = k = 1) from its pericentre r = 1 with φ̇ = 1.2, reduced over φ and
/// stopped at the apocentre (ṙ = 0, falling): there `φ = π` by quadrature up to the event,
/// `r = 2a − 1` and `t = π a^{3/2}` (half the period), with `a = −k/(2E)`, `E = ½ v² − k/r`.
#[test]
fn a_reduced_orbit_stops_at_its_apocentre_half_a_turn_later() {
    let orbit = Orbit { m: 1.0, k: 1.0 };
    let (q0, qd0) = (Vector2::new(1.0, 0.0), Vector2::new(0.0, 1.2));
    let (reduced, r0, rd0) = orbit.reduce_state(0.0, &q0, &qd0);
    let trajectory = Simulation::new(&reduced)
        .integrator(Integrator::dormand_prince(1e-12, 1e-12))
        .output_interval(0.1)
        .event(Event::new("apocentre", |_, _, rd| rd[0]).falling().stop())
        .run_reduced(0.0, r0, rd0, Vector1::new(q0[1]), 100.0)
        .unwrap();
    let a = -1.0 / (2.0 * (0.5 * 1.2f64.powi(2) - 1.0));
    let (t, r, _) = trajectory.last().unwrap();
    let phi = trajectory.ignored().last().unwrap()[0];
    let pi = std::f64::consts::PI;
    assert!(relative(t, pi * a.powf(1.5)) < 1e-10, "t = {t}");
    assert!(relative(r[0], 2.0 * a - 1.0) < 1e-10, "r = {}", r[0]);
    assert!(relative(phi, pi) < 1e-10, "phi = {phi}");
    assert_eq!(trajectory.events().len(), 1);
}
