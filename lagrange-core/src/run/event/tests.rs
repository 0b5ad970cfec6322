//! Runs with events, against closed forms: bounces, apexes, a pendulum's turning points,
//! stops, resets, and the limits on events.

use super::*;
use crate::integrate::Integrator;
use crate::run::Simulation;
use crate::run::Trajectory;
use crate::test_systems::{Ball, DoubleIntegrator, Pendulum, state};
use nalgebra::{SVector, U1};

const PENDULUM: Pendulum = Pendulum {
    m: 1.3,
    l: 0.7,
    g: 9.81,
};
const BALL: Ball = Ball { m: 0.2, g: 9.81 };

/// The complete elliptic integral of the first kind, `K(k) = π / (2 AGM(1, √(1 − k²)))`.
fn elliptic_k(k: f64) -> f64 {
    let (mut a, mut b) = (1.0f64, (1.0 - k * k).sqrt());
    // Quadratic convergence: a few iterations reach round-off, where a fixed count
    // stops (a test on |a − b| could cycle between neighbouring floats).
    for _ in 0..32 {
        (a, b) = (0.5 * (a + b), (a * b).sqrt());
    }
    std::f64::consts::PI / (a + b)
}

/// Half the period of the pendulum released from rest at `theta0`:
/// `2 √(l/g) K(sin(θ₀/2))`.
fn half_period(theta0: f64) -> f64 {
    2.0 * (PENDULUM.l / PENDULUM.g).sqrt() * elliptic_k((0.5 * theta0).sin())
}

fn relative(a: f64, b: f64) -> f64 {
    (a - b).abs() / b.abs()
}

/// A ball bouncing on `y = 0` with restitution `e`, whose apexes are recorded.
fn bouncing(e: f64) -> [Event<'static, U1>; 2] {
    [
        Event::new("floor", |_, q, _| q[0])
            .falling()
            .reset(move |_, q, qd| (*q, -e * qd)),
        Event::new("apex", |_, _, qd| qd[0]).falling(),
    ]
}

fn times(trajectory: &Trajectory<U1>, name: &str) -> Vec<f64> {
    trajectory.events_named(name).map(|o| o.t).collect()
}

#[test]
fn the_energy_drift_of_a_bouncing_ball_is_measured_between_impacts() {
    // Each impact takes 1 − e² of the energy on purpose; between impacts the energy is
    // conserved, and that is what the drift measures.
    let (q, qd) = state([1.0], [0.0]);
    let [floor, apex] = bouncing(0.8);
    let traj = Simulation::new(&BALL)
        .integrator(Integrator::dormand_prince(1e-12, 1e-12))
        .event(floor)
        .event(apex)
        .run(0.0, q, qd, 2.0)
        .unwrap();
    let energy = traj.invariant("energy").unwrap();
    assert_eq!(energy.restarts.len(), traj.events_named("floor").count());
    assert!(energy.drift() < 1e-12, "{}", energy.drift());
    let last = *energy.values.last().unwrap();
    let bounces = traj.events_named("floor").count() as i32;
    let e0 = BALL.m * BALL.g;
    assert!(relative(last, e0 * 0.64f64.powi(bounces)) < 1e-10, "{last}");
}

#[test]
fn the_pendulum_turns_back_after_half_its_period() {
    for theta0 in [0.3, 2.5] {
        let (q, qd) = state([theta0], [0.0]);
        // Released at θ₀ > 0, θ̇ < 0 until the far extreme, where it rises through 0.
        // The start, at θ̇ = 0 exactly, is no crossing.
        let run = |integrator| {
            Simulation::new(&PENDULUM)
                .integrator(integrator)
                .event(Event::new("turn", |_, _, qd| qd[0]).rising().stop())
                .run(0.0, q, qd, 10.0)
                .unwrap()
        };
        let expected = half_period(theta0);
        let traj = run(Integrator::dormand_prince(1e-13, 1e-13));
        let [turn] = traj.events() else {
            panic!("{:?}", traj.events())
        };
        assert!(
            relative(turn.t, expected) < 1e-10,
            "{} vs {expected}",
            turn.t
        );
        let (t, q, qd) = traj.last().unwrap();
        assert_eq!((t, q, qd), (turn.t, turn.q, turn.qd));
        assert!(relative(-q[0], theta0) < 1e-10, "{}", q[0]);
        // RK4's global error is O(dt⁴): with dt = 1e-3 about 1e-12 in the state here, and
        // its Hermite interpolant (also order 4) puts the turn within ~2e-12 of the
        // closed form (1.6e-8 with dt = 1e-2).
        let traj = run(Integrator::Rk4 { dt: 1e-3 });
        let turn = traj.events()[0].t;
        assert!(relative(turn, expected) < 1e-10, "{turn} vs {expected}");
    }
}

#[test]
fn a_stop_event_ends_the_trajectory_at_the_crossing() {
    let theta0 = 0.3;
    let (q, qd) = state([theta0], [0.0]);
    let dt = 0.05;
    let traj = Simulation::new(&PENDULUM)
        .output_interval(dt)
        .event(Event::new("bottom", |_, q, _| q[0]).falling().stop())
        .run(0.0, q, qd, 10.0)
        .unwrap();
    let quarter = 0.5 * half_period(theta0);
    let (t, q, _) = traj.last().unwrap();
    assert!(relative(t, quarter) < 1e-10, "{t} vs {quarter}");
    assert!(q[0].abs() < 1e-14, "g = θ = {} at the stop", q[0]);
    // The grid before the event, then the event's own sample.
    assert_eq!(traj.len(), (quarter / dt).floor() as usize + 2);
    for (k, t) in traj.times()[..traj.len() - 1].iter().enumerate() {
        assert!((t - dt * k as f64).abs() < 1e-12, "{t}");
    }
}

#[test]
fn bounces_and_apexes_follow_the_closed_form() {
    let (h0, e): (f64, f64) = (1.5, 0.8);
    let fall = (2.0 * h0 / BALL.g).sqrt();
    // t₁ = √(2h₀/g), t_{n+1} = t_n + 2 eⁿ √(2h₀/g); apex n at t_n + eⁿ √(2h₀/g), height e^{2n} h₀.
    let mut bounces = vec![fall];
    for n in 1..10 {
        bounces.push(bounces[n - 1] + 2.0 * e.powi(n as i32) * fall);
    }
    let t_end = bounces[9] + 1.5 * e.powi(10) * fall;
    let (q, qd) = state([h0], [0.0]);
    for integrator in [
        Integrator::dormand_prince(1e-10, 1e-10),
        Integrator::Rk4 { dt: 0.01 },
        Integrator::GaussLegendre {
            dt: 0.01,
            stages: 2,
        },
        Integrator::Variational { dt: 0.01 },
    ] {
        let [floor, apex] = bouncing(e);
        let traj = Simulation::new(&BALL)
            .integrator(integrator)
            .event(floor)
            .event(apex)
            .run(0.0, q, qd, t_end)
            .unwrap();
        let floor = times(&traj, "floor");
        assert_eq!(floor.len(), 10, "{integrator:?}: {floor:?}");
        for (n, (t, expected)) in floor.iter().zip(&bounces).enumerate() {
            assert!(
                relative(*t, *expected) < 1e-12,
                "{integrator:?}: bounce {} at {t}, expected {expected}",
                n + 1
            );
        }
        let apexes: Vec<_> = traj.events_named("apex").collect();
        assert_eq!(apexes.len(), 10, "{integrator:?}");
        for (n, apex) in apexes.iter().enumerate() {
            let expected = e.powi(2 * (n as i32 + 1)) * h0;
            assert!(
                relative(apex.q[0], expected) < 1e-9,
                "{integrator:?}: apex {} at {}, expected {expected}",
                n + 1,
                apex.q[0]
            );
        }
        // Each impact is recorded with the states before and after, and the trajectory
        // holds both at its time.
        for bounce in traj.events_named("floor") {
            let after = bounce.after.as_ref().unwrap();
            assert_eq!(after.q, bounce.q);
            assert!(relative(after.qd[0], -e * bounce.qd[0]) < 1e-15);
            let k = traj.times().iter().position(|t| *t == bounce.t).unwrap();
            assert_eq!(traj.times()[k + 1], bounce.t);
            assert_eq!((traj.qd()[k], traj.qd()[k + 1]), (bounce.qd, after.qd));
        }
        assert_eq!(traj.last().unwrap().0, t_end);
    }
}

/// A ball that starts on the floor going up, with an event on `y = 0` in either
/// direction: neither the start nor the state right after each impact, both on
/// `y = 0` up to round-off, may fire it again.
#[test]
fn a_crossing_at_the_start_or_right_after_a_reset_does_not_fire_again() {
    let (v, e): (f64, f64) = (3.0, 0.9);
    let (q, qd) = state([0.0], [v]);
    let traj = Simulation::new(&BALL)
        .event(Event::new("floor", |_, q, _| q[0]).reset(move |_, q, qd| (*q, -e * qd)))
        .run(0.0, q, qd, 3.0)
        .unwrap();
    // Flights of 2 eⁿ v / g.
    let mut expected = Vec::new();
    let mut t = 0.0;
    for n in 0.. {
        t += 2.0 * e.powi(n) * v / BALL.g;
        if t > 3.0 {
            break;
        }
        expected.push(t);
    }
    let found = times(&traj, "floor");
    assert_eq!(found.len(), expected.len(), "{found:?}");
    for (t, expected) in found.iter().zip(&expected) {
        assert!(relative(*t, *expected) < 1e-12, "{t} vs {expected}");
    }
}

/// With e = ½ the ball comes to rest after infinitely many impacts by
/// `t∞ = √(2h₀/g) (1 + 2e/(1 − e))`: the cap on events ends the run with an error.
#[test]
fn a_chattering_ball_is_stopped_by_the_event_cap() {
    let (h0, e): (f64, f64) = (1.0, 0.5);
    let fall = (2.0 * h0 / BALL.g).sqrt();
    let rest = fall * (1.0 + 2.0 * e / (1.0 - e));
    let [floor, _] = bouncing(e);
    let (q, qd) = state([h0], [0.0]);
    let stopped = Simulation::new(&BALL)
        .event(floor)
        .max_events(30)
        .run_keeping_partial(0.0, q, qd, 10.0)
        .unwrap_err();
    assert!(
        matches!(stopped.error, Error::TooManyEvents { events: 30, t } if t < rest),
        "{}",
        stopped.error
    );
    let partial = stopped.partial.unwrap();
    assert_eq!(partial.events().len(), 30);
    let last = partial.events()[29].t;
    // t₃₀ = t∞ − 2 e³⁰ √(2h₀/g) / (1 − e).
    let expected = rest - 2.0 * e.powi(30) * fall / (1.0 - e);
    assert!(relative(last, expected) < 1e-12, "{last} vs {expected}");
    // The trajectory ends at the impact beyond the cap.
    let Error::TooManyEvents { t, .. } = stopped.error else {
        unreachable!()
    };
    assert_eq!(partial.last().unwrap().0, t);
    assert!(relative(t, rest - e.powi(31) * 2.0 * fall / (1.0 - e)) < 1e-12);
    // Without the cap, the run still ends, with an error, when the flights get too
    // short for floating point, a little before t∞.
    let [floor, _] = bouncing(e);
    let stopped = Simulation::new(&BALL)
        .event(floor)
        .run_keeping_partial(0.0, q, qd, 10.0)
        .unwrap_err();
    let partial = stopped.partial.unwrap();
    assert!(partial.events().len() > 30, "{}", stopped.error);
    assert!(partial.events().iter().all(|o| o.t < rest));
}

#[test]
fn bad_event_values_are_clear_errors_and_the_run_keeps_its_events() {
    let (q, qd) = state([0.5], [2.0]);
    // Up, apex at v/g, down to the floor, where the reset fails.
    let stopped = Simulation::new(&BALL)
        .event(Event::new("apex", |_, _, qd| qd[0]).falling())
        .event(
            Event::new("floor\n", |_, q, _| q[0])
                .falling()
                .reset(|_, q, _| (*q, SVector::from([f64::NAN]))),
        )
        .run_keeping_partial(0.0, q, qd, 5.0)
        .unwrap_err();
    let message = stopped.error.to_string();
    assert!(
        matches!(&stopped.error, Error::Event { event, .. } if event == "floor\n"),
        "{message}"
    );
    assert!(
        message.contains("`floor\\n`") && message.contains("reset"),
        "{message}"
    );
    assert!(!message.chars().any(char::is_control), "{message}");
    let partial = stopped.partial.unwrap();
    let [apex] = partial.events() else {
        panic!("{:?}", partial.events())
    };
    assert!(relative(apex.t, 2.0 / BALL.g) < 1e-12);
    // The trajectory ends at the impact: y = 0.5 + 2t − g t²/2 = 0.
    let impact = (2.0 + (4.0 + BALL.g).sqrt()) / BALL.g;
    assert!(relative(partial.last().unwrap().0, impact) < 1e-12);

    let error = Simulation::new(&BALL)
        .event(Event::new(
            "nan",
            |t, _, _| if t > 0.1 { f64::NAN } else { 1.0 },
        ))
        .run(0.0, q, qd, 1.0)
        .unwrap_err();
    assert!(
        matches!(&error, Error::Event { event, .. } if event == "nan"),
        "{error}"
    );
    assert!(error.to_string().contains("NaN"), "{error}");
}

#[test]
fn record_events_leave_the_samples_alone() {
    let (q, qd) = state([0.3], [0.0]);
    let plain = Simulation::new(&PENDULUM)
        .output_interval(0.1)
        .run(0.0, q, qd, 5.0)
        .unwrap();
    let watched = Simulation::new(&PENDULUM)
        .output_interval(0.1)
        .event(Event::new("bottom", |_, q, _| q[0]))
        .run(0.0, q, qd, 5.0)
        .unwrap();
    assert_eq!(watched.times(), plain.times());
    assert_eq!(watched.q(), plain.q());
    // The bottom is passed every half period, first at a quarter period.
    let quarter = 0.5 * half_period(0.3);
    let found = times(&watched, "bottom");
    assert_eq!(found.len(), (5.0 / (2.0 * quarter) + 0.5).floor() as usize);
    for (k, t) in found.iter().enumerate() {
        let expected = (2 * k + 1) as f64 * quarter;
        assert!(relative(*t, expected) < 1e-9, "{t} vs {expected}");
    }
}

#[test]
fn resets_add_their_two_samples_to_the_output_grid_and_share_the_step_budget() {
    let (h0, e): (f64, f64) = (1.5, 0.8);
    let (q, qd) = state([h0], [0.0]);
    let run = |max_steps| {
        let [floor, _] = bouncing(e);
        Simulation::new(&BALL)
            .integrator(Integrator::DormandPrince {
                rtol: 1e-10,
                atol: 1e-10,
                h0: None,
                h_max: Some(0.02),
            })
            .output_interval(0.1)
            .max_steps(max_steps)
            .event(floor)
            .run(0.0, q, qd, 2.0)
    };
    let traj = run(1000).unwrap();
    let bounces = times(&traj, "floor");
    // t₁ = √(2h₀/g) ≈ 0.553, t₂ = t₁ (1 + 2e) ≈ 1.438.
    assert_eq!(bounces.len(), 2);
    let mut expected: Vec<f64> = (0..=20).map(|k| 0.1 * k as f64).collect();
    expected.extend(bounces.iter().chain(&bounces));
    expected.sort_by(f64::total_cmp);
    assert_eq!(traj.len(), expected.len());
    for (t, expected) in traj.times().iter().zip(&expected) {
        assert!((t - expected).abs() < 1e-12, "{t} vs {expected}");
    }
    // Every pass of the integration draws on one budget.
    let used = traj.stats().accepted + traj.stats().rejected;
    assert!(run(used).is_ok());
    let error = run(used - 1).unwrap_err();
    assert!(
        matches!(error, Error::MaxStepsExceeded { steps, .. } if steps == used - 1),
        "{error}"
    );
}

/// One RK4 step of 1 s holds all the crossings of a fall from 1 m (exact: the motion
/// is quadratic): the heights pass 0.5 (recorded), 0.25 (stop), 0.1 (recorded) and 0
/// (stop) at `√(2(1 − y)/g)`. The earliest stop acts; nothing after it is recorded.
#[test]
fn several_crossings_in_one_step_act_earliest_first() {
    let (q, qd) = state([1.0], [0.0]);
    let height = |name: &'static str, y: f64| Event::new(name, move |_, q, _| q[0] - y);
    let traj = Simulation::new(&BALL)
        .integrator(Integrator::Rk4 { dt: 1.0 })
        .event(height("floor", 0.0).stop())
        .event(height("low", 0.1))
        .event(height("quarter", 0.25).falling().stop())
        .event(height("half", 0.5).falling())
        .run(0.0, q, qd, 2.0)
        .unwrap();
    assert_eq!(traj.stats().accepted, 1);
    let at = |y: f64| (2.0 * (1.0 - y) / BALL.g).sqrt();
    let fired: Vec<_> = traj
        .events()
        .iter()
        .map(|o| (o.name.as_str(), o.t))
        .collect();
    let [("half", half), ("quarter", quarter)] = fired[..] else {
        panic!("{fired:?}")
    };
    assert!(relative(half, at(0.5)) < 1e-14, "{half}");
    assert!(relative(quarter, at(0.25)) < 1e-14, "{quarter}");
    let (t, y, _) = traj.last().unwrap();
    assert_eq!(t, quarter);
    assert!((y[0] - 0.25).abs() < 1e-14);
}

/// A sampled run integrates period by period with systems of its own, so it does not
/// carry events: it says so instead of ignoring them.
#[test]
fn a_sampled_run_refuses_events() {
    let system = DoubleIntegrator { m: 1.0, u: 0.0 };
    let (q, qd) = state([1.0], [0.0]);
    let error = Simulation::new(&system)
        .event(Event::new("origin", |_, q, _| q[0]).stop())
        .run_sampled(|_, q, _| vec![-q[0]], 0.1, 0.0, q, qd, 1.0)
        .unwrap_err();
    assert!(
        matches!(&error, Error::InvalidInput(why) if why.contains("events")),
        "{error}"
    );
}

/// Resets at times whose intervals shrink geometrically accumulate at the sum of the
/// series, and are said to only within `ACCUMULATION_WINDOW` ulp of it; intervals that do
/// not shrink (a periodic kick) never accumulate.
#[test]
fn accumulating_resets_are_those_whose_intervals_converge_close_by() {
    // Intervals d, d r, d r², … from t = 1 converge to 1 + d / (1 − r).
    let (r, at) = (0.5f64, 1.0);
    let times = |d: f64| {
        let start = at - d / (1.0 - r);
        [0, 1, 2, 3].map(|n| start + d * (1.0 - r.powi(n)) / (1.0 - r))
    };
    let close = accumulation(times(1e-12)).expect("accumulates");
    assert!((close - at).abs() < 1e-15, "{close}");
    assert_eq!(accumulation(times(1e-3)), None, "far from the accumulation");
    assert_eq!(accumulation([1.0, 2.0, 3.0, 4.0]), None, "periodic");
    assert_eq!(
        accumulation([f64::NAN, 1.0, 1.5, 1.75]),
        None,
        "too few resets"
    );
}
