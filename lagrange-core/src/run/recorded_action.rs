//! The action integrals recorded along runs ([`Simulation::record_action`]), against
//! closed forms: the harmonic oscillator's `A(t)` and `S(t)` for every method at its own
//! order and in the dense output, a bouncing ball's across its resets, a double
//! integrator's under a zero-order hold; and a run that records them takes the same steps
//! to the same numbers as one that does not.

use nalgebra::{U1, Vector1};

use crate::integrate::Integrator;
use crate::run::{Event, Simulation, Trajectory};
use crate::test_systems::{Ball, DoubleIntegrator, Oscillator, state};

/// ω = 2 from x = 1 at rest: x = cos 2t.
const OSC: Oscillator = Oscillator { m: 1.5, k: 6.0 };
const OMEGA: f64 = 2.0;

/// The oscillator's `A(t) = ∫ m ẋ² dt = m ω² (t/2 − sin 2ωt / 4ω)` and
/// `S(t) = ∫ (½ m ẋ² − ½ k x²) dt = −(m ω / 4) sin 2ωt` along `x = cos ωt`.
fn oscillator_integrals(t: f64) -> (f64, f64) {
    let m = OSC.m;
    let action = m * OMEGA * OMEGA * (t / 2.0 - (2.0 * OMEGA * t).sin() / (4.0 * OMEGA));
    let principal = -m * OMEGA / 4.0 * (2.0 * OMEGA * t).sin();
    (action, principal)
}

/// The largest error of the recorded `A` and `S` against the closed forms.
fn oscillator_error(trajectory: &Trajectory<U1>) -> f64 {
    let (a, s) = (
        trajectory.action().unwrap(),
        trajectory.principal_function().unwrap(),
    );
    trajectory
        .times()
        .iter()
        .enumerate()
        .map(|(k, &t)| {
            let (action, principal) = oscillator_integrals(t);
            (a[k] - action).abs().max((s[k] - principal).abs())
        })
        .fold(0.0, f64::max)
}

fn oscillator_run(integrator: Integrator, t_end: f64) -> Trajectory<U1> {
    let (q, qd) = state([1.0], [0.0]);
    Simulation::new(&OSC)
        .integrator(integrator)
        .record_action()
        .run(0.0, q, qd, t_end)
        .unwrap()
}

/// A fixed-step method of step `dt`, a step to try it with and `2^order`.
type Method = (fn(f64) -> Integrator, f64, f64);

#[test]
fn every_method_integrates_the_action_to_its_own_order() {
    let methods: [Method; 5] = [
        (|dt| Integrator::Rk4 { dt }, 0.05, 16.0),
        (|dt| Integrator::GaussLegendre { dt, stages: 1 }, 0.02, 4.0),
        (|dt| Integrator::GaussLegendre { dt, stages: 2 }, 0.05, 16.0),
        (|dt| Integrator::GaussLegendre { dt, stages: 3 }, 0.2, 64.0),
        (|dt| Integrator::Variational { dt }, 0.02, 4.0),
    ];
    for (method, dt, expected) in methods {
        // Halving the step divides the error by 2^order.
        let coarse = oscillator_error(&oscillator_run(method(dt), 2.0));
        let fine = oscillator_error(&oscillator_run(method(dt / 2.0), 2.0));
        let ratio = coarse / fine;
        assert!(
            (0.75 * expected..1.33 * expected).contains(&ratio),
            "{:?}: error ratio {ratio}, expected about {expected}",
            method(dt)
        );
    }
    // Dormand–Prince at its tolerance, relative to the size A reaches.
    let adaptive = oscillator_run(Integrator::dormand_prince(1e-12, 1e-12), 10.0);
    let error = oscillator_error(&adaptive);
    assert!(error < 1e-11 * oscillator_integrals(10.0).0, "{error:e}");
}

#[test]
fn sampled_values_follow_the_steps_dense_output() {
    let (q, qd) = state([1.0], [0.0]);
    for (integrator, tolerance) in [
        (Integrator::dormand_prince(1e-10, 1e-10), 1e-8),
        (Integrator::Rk4 { dt: 0.01 }, 1e-7),
    ] {
        let trajectory = Simulation::new(&OSC)
            .integrator(integrator)
            .output_interval(0.0173)
            .record_action()
            .run(0.0, q, qd, 5.0)
            .unwrap();
        let error = oscillator_error(&trajectory);
        assert!(error < tolerance, "{integrator:?}: {error:e}");
    }
}

#[test]
fn recording_the_action_changes_nothing_else() {
    let (q, qd) = state([1.0], [0.3]);
    for integrator in [
        Integrator::default(),
        Integrator::Rk4 { dt: 0.01 },
        Integrator::GaussLegendre {
            dt: 0.05,
            stages: 3,
        },
        Integrator::Variational { dt: 0.01 },
    ] {
        let run = |record: bool| {
            let simulation = Simulation::new(&OSC)
                .integrator(integrator)
                .output_interval(0.1);
            let simulation = if record {
                simulation.record_action()
            } else {
                simulation
            };
            simulation.run(0.0, q, qd, 3.0).unwrap()
        };
        let (plain, recorded) = (run(false), run(true));
        assert_eq!(plain.times(), recorded.times());
        assert_eq!(plain.q(), recorded.q());
        assert_eq!(plain.qd(), recorded.qd());
        assert_eq!(plain.invariants(), recorded.invariants());
        assert_eq!(plain.stats(), recorded.stats());
        assert!(plain.action().is_none() && plain.principal_function().is_none());
        let mut csv = Vec::new();
        recorded.write_csv(&mut csv).unwrap();
        let csv = String::from_utf8(csv).unwrap();
        assert_eq!(
            csv.lines().next(),
            Some("t,x,dot_x,energy,action,principal")
        );
    }
}

#[test]
fn a_reset_keeps_the_action_and_each_arc_adds_its_closed_form() {
    // Dropped from rest at h with e = 1, the ball repeats one arc of duration 2τ,
    // τ = √(2h/g). Over a fall from rest, y = h − g t²/2: A = ∫ m g² t² dt = m g² τ³/3 and
    // S = ∫ (m g² t² − m g h) dt = −m g² τ³/6; the rise is the fall reversed.
    let ball = Ball { m: 0.2, g: 9.81 };
    let h = 1.0;
    let tau = (2.0 * h / ball.g).sqrt();
    let (q, qd) = state([h], [0.0]);
    let trajectory = Simulation::new(&ball)
        .integrator(Integrator::dormand_prince(1e-12, 1e-12))
        .event(
            Event::new("floor", |_, q, _| q[0])
                .falling()
                .reset(|_, q, qd| (*q, -qd)),
        )
        .record_action()
        .run(0.0, q, qd, 4.0 * tau)
        .unwrap();
    assert_eq!(trajectory.events().len(), 2);
    let half_arc = ball.m * ball.g * ball.g * tau.powi(3);
    let (a, s) = (
        trajectory.action().unwrap(),
        trajectory.principal_function().unwrap(),
    );
    let last = trajectory.len() - 1;
    assert!(
        (a[last] - 4.0 * half_arc / 3.0).abs() < 1e-9 * half_arc,
        "{}",
        a[last]
    );
    assert!(
        (s[last] + 4.0 * half_arc / 6.0).abs() < 1e-9 * half_arc,
        "{}",
        s[last]
    );
    // At each impact the point before the reset and the restart have the same A and S.
    for occurrence in trajectory.events() {
        let at: Vec<usize> = (0..trajectory.len())
            .filter(|&k| trajectory.times()[k] == occurrence.t)
            .collect();
        assert_eq!(at.len(), 2, "the impact and the restart are both recorded");
        assert_eq!((a[at[0]], s[at[0]]), (a[at[1]], s[at[1]]));
    }
}

#[test]
fn a_zero_order_hold_carries_the_action_from_period_to_period() {
    // Under a held u the double integrator's v grows linearly over each period h, and
    // L = ½ m v²: A = ∫ m v² dt = m (v² h + v (u/m) h² + (u/m)² h³/3), S = A/2.
    let (m, h, k, d) = (2.0, 0.1, 3.0, 1.5);
    let controller = |_: f64, q: &Vector1<f64>, qd: &Vector1<f64>| vec![-k * q[0] - d * qd[0]];
    let system = DoubleIntegrator { m, u: 0.0 };
    let trajectory = Simulation::new(&system)
        .integrator(Integrator::Rk4 { dt: 0.025 })
        .record_action()
        .run_sampled(
            controller,
            h,
            0.0,
            Vector1::new(1.0),
            Vector1::new(0.0),
            2.0,
        )
        .unwrap();
    let (mut x, mut v, mut action) = (1.0, 0.0, 0.0);
    for _ in 0..20 {
        let a = (-k * x - d * v) / m;
        action += m * (v * v * h + v * a * h * h + a * a * h.powi(3) / 3.0);
        x += h * v + 0.5 * h * h * a;
        v += h * a;
    }
    let last = trajectory.len() - 1;
    let (a, s) = (
        trajectory.action().unwrap()[last],
        trajectory.principal_function().unwrap()[last],
    );
    // RK4 integrates the quadratic v² exactly.
    assert!((a - action).abs() < 1e-12 * action, "{a} vs {action}");
    assert!(
        (s - action / 2.0).abs() < 1e-12 * action,
        "{s} vs {}",
        action / 2.0
    );
}
