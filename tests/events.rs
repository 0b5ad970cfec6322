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

/// A ball dropped from h₀ = 1 with restitution e = 0.8 bounces infinitely often before
/// `t∞ = t₁ + 2 v₁ e / (g (1 − e))` (the first impact at `t₁ = √(2h₀/g)` with speed
/// `v₁ = √(2 g h₀)`, each flight e times the one before): a run to t = 10 stops there with
/// the accumulation named and its time estimated, whatever the integrator, where RK4 fell
/// through the floor to y(10) = −172.8 and Dormand–Prince failed with a step size underflow.
#[test]
fn bounces_that_accumulate_stop_the_run_at_their_closed_form_time() {
    let ball = Ball { m: 0.1, g: 9.81 };
    let (h0, e) = (1.0f64, 0.8f64);
    let first = (2.0 * h0 / ball.g).sqrt();
    let speed = (2.0 * ball.g * h0).sqrt();
    let zeno = first + 2.0 * speed * e / (ball.g * (1.0 - e));
    for integrator in [
        Integrator::Rk4 { dt: 0.01 },
        Integrator::dormand_prince(1e-12, 1e-12),
    ] {
        let stopped = Simulation::new(&ball)
            .integrator(integrator)
            .event(
                Event::new("floor", |_, y, _| y[0])
                    .falling()
                    .reset(move |_, y, v| (*y, -e * v)),
            )
            .run_keeping_partial(0.0, Vector1::new(h0), Vector1::zeros(), 10.0);
        let Err(stopped) = stopped else {
            panic!("{integrator:?}: the run went past the accumulation at {zeno}");
        };
        let lagrange::Error::Event { event, t, problem } = &stopped.error else {
            panic!("{integrator:?}: {}", stopped.error);
        };
        assert_eq!(event, "floor");
        assert!(
            t < &zeno && zeno - t < 1e-8,
            "{integrator:?}: stopped at {t}"
        );
        let estimate: f64 = problem
            .split("accumulate at t ≈ ")
            .nth(1)
            .and_then(|rest| rest.split(' ').next())
            .and_then(|number| number.parse().ok())
            .unwrap_or_else(|| panic!("{integrator:?}: {problem}"));
        assert!(
            relative(estimate, zeno) < 1e-10,
            "{integrator:?}: {estimate} vs {zeno}"
        );
        // Nothing fell through: the ball is never below the floor by more than round-off.
        let partial = stopped.partial.expect("the partial trajectory");
        let lowest = partial
            .q()
            .iter()
            .map(|q| q[0])
            .fold(f64::INFINITY, f64::min);
        assert!(lowest > -1e-9, "{integrator:?}: y went down to {lowest}");
    }
}

/// `tan(y)` changes sign at its zeros and at its poles: a ball falling from y = 0.5 with
/// no floor passes tan's zero at y = 0 (`t = √(2·0.5/g)`), an event, then its pole at
/// y = −π/2 (`t = √(2(0.5 + π/2)/g)`), where tan jumps from +1.6e16 to −1.6e16: that is
/// no event, and the run says so there. (With steps short enough to see each sign change:
/// Dormand–Prince integrates a free fall exactly in steps that hold the zero and the pole
/// together, whose sign changes cancel.)
#[test]
fn an_event_function_with_a_pole_is_refused_at_the_pole() {
    let ball = Ball { m: 0.1, g: 9.81 };
    let zero = (2.0 * 0.5 / ball.g).sqrt();
    let pole = (2.0 * (0.5 + std::f64::consts::FRAC_PI_2) / ball.g).sqrt();
    for integrator in [
        Integrator::Rk4 { dt: 0.01 },
        Integrator::GaussLegendre {
            dt: 0.01,
            stages: 2,
        },
    ] {
        let stopped = Simulation::new(&ball)
            .integrator(integrator)
            .event(Event::new("tangent", |_, y, _| y[0].tan()))
            .run_keeping_partial(0.0, Vector1::new(0.5), Vector1::zeros(), 1.0);
        let Err(stopped) = stopped else {
            panic!("{integrator:?}: tan's pole at t = {pole} taken for an event");
        };
        let lagrange::Error::Event { t, problem, .. } = &stopped.error else {
            panic!("{integrator:?}: {}", stopped.error);
        };
        assert!(relative(*t, pole) < 1e-12, "{integrator:?}: {t} vs {pole}");
        assert!(problem.contains("jumps from"), "{problem}");
        assert!(problem.contains("a pole or a discontinuity"), "{problem}");
        let partial = stopped.partial.expect("the partial trajectory");
        let events: Vec<f64> = partial.events().iter().map(|o| o.t).collect();
        assert_eq!(events.len(), 1, "{integrator:?}: {events:?}");
        assert!(
            relative(events[0], zero) < 1e-12,
            "{integrator:?}: {events:?}"
        );
    }
}
