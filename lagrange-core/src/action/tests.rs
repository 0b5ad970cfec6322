//! The harmonic oscillator `L = ½ m ẋ² − ½ k x²`, `ω² = k/m`, whose principal function is
//! known in closed form: `S(q₀, q₁, τ) = m ω/(2 sin ωτ) ((q₀² + q₁²) cos ωτ − 2 q₀ q₁)`, with
//! the kinetic focus of every start at `t = π/ω`.

use std::f64::consts::PI;

use nalgebra::{U1, Vector1};

use super::*;
use crate::test_systems::{CartesianPendulum, DoubleIntegrator, Oscillator};

const M: f64 = 1.5;
const K: f64 = 6.0;

fn omega() -> f64 {
    (K / M).sqrt()
}

fn principal(q0: f64, q1: f64, tau: f64) -> f64 {
    let w = omega();
    M * w / (2.0 * (w * tau).sin()) * ((q0 * q0 + q1 * q1) * (w * tau).cos() - 2.0 * q0 * q1)
}

fn one(x: f64) -> Vector1<f64> {
    Vector1::new(x)
}

/// The error of a search expected to fail (a `Motion` is too long to print).
fn failure<N: Dim>(result: Result<Vec<Motion<N>>, Error>) -> Error
where
    DefaultAllocator: DimAllocator<N>,
{
    match result {
        Ok(motions) => panic!("expected an error, found {} motions", motions.len()),
        Err(e) => e,
    }
}

fn relation<'m>(motion: &'m Motion<U1>, derivative: &str) -> &'m Relation {
    motion
        .relations
        .iter()
        .find(|r| r.derivative == derivative)
        .unwrap_or_else(|| panic!("no relation {derivative} in {:?}", motion.relations))
}

#[test]
fn the_oscillators_principal_function_and_its_derivatives_are_the_closed_forms() {
    let sys = Oscillator { m: M, k: K };
    let (q0, q1, tau) = (0.3, -0.7, 0.9);
    let motions = Connect::in_time(&sys, one(q0), one(q1), tau)
        .steps(500)
        .solve()
        .unwrap();
    assert_eq!(
        motions.len(),
        1,
        "a linear system has one motion between two points"
    );
    let m = &motions[0];
    let w = omega();
    let v0 = w * (q1 - q0 * (w * tau).cos()) / (w * tau).sin();
    assert!(
        (m.initial_velocity[0] - v0).abs() < 1e-10,
        "{} vs {v0}",
        m.initial_velocity[0]
    );
    let s = principal(q0, q1, tau);
    assert!(
        (m.principal - s).abs() < 1e-10 * s.abs(),
        "{} vs {s}",
        m.principal
    );
    // The closed form's derivatives, by central differences of the closed form.
    let h = 1e-6;
    let ds_dq1 = (principal(q0, q1 + h, tau) - principal(q0, q1 - h, tau)) / (2.0 * h);
    let ds_dq0 = (principal(q0 + h, q1, tau) - principal(q0 - h, q1, tau)) / (2.0 * h);
    let ds_dt = (principal(q0, q1, tau + h) - principal(q0, q1, tau - h)) / (2.0 * h);
    for (derivative, exact) in [("∂S/∂x(τ)", ds_dq1), ("∂S/∂x(0)", ds_dq0), ("∂S/∂τ", ds_dt)]
    {
        let r = relation(m, derivative);
        assert!(
            (r.computed - exact).abs() < 1e-7 * (1.0 + exact.abs()),
            "{r:?} vs {exact}"
        );
        assert!(r.difference().abs() < 1e-9 * (1.0 + exact.abs()), "{r:?}");
    }
    let characteristic = relation(m, "H(q(τ), ∂S/∂q(τ)) + ∂S/∂τ");
    assert!(characteristic.computed.abs() < 1e-9, "{characteristic:?}");
    assert!(
        m.foci.is_empty() && m.is_least(),
        "τ < π/ω: no focus, {:?}",
        m.foci
    );
    assert!(m.accuracy < 1e-9, "{}", m.accuracy);
    let last = m.path.last().unwrap();
    assert!((last.0 - tau).abs() < 1e-15 && (last.1[0] - q1).abs() < 1e-11);
}

#[test]
fn past_half_a_period_the_action_is_only_stationary_and_a_perturbed_path_has_less() {
    let sys = Oscillator { m: M, k: K };
    let w = omega();
    let tau = 1.4 * PI / w;
    let m = &Connect::in_time(&sys, one(0.2), one(0.5), tau)
        .steps(500)
        .solve()
        .unwrap()[0];
    assert_eq!(m.foci.len(), 1, "{:?}", m.foci);
    assert_eq!(m.foci[0].multiplicity, 1);
    assert!(
        (m.foci[0].time - PI / w).abs() < 1e-10,
        "focus {} vs π/ω = {}",
        m.foci[0].time,
        PI / w
    );
    assert!(!m.is_least());
    let s = principal(0.2, 0.5, tau);
    assert!(
        (m.principal - s).abs() < 1e-9 * s.abs(),
        "{} vs {s}",
        m.principal
    );
    // S[q + εη] − S[q] = ε²/2 ∫ (m η̇² − k η²) dt for η = sin(πt/τ):
    // ε² m τ/4 ((π/τ)² − ω²) < 0, by Simpson's rule along the path.
    let eps = 1e-2;
    let perturbed: Vec<f64> = m
        .path
        .iter()
        .map(|(t, q, qd)| {
            let (eta, eta_dot) = ((PI * t / tau).sin(), PI / tau * (PI * t / tau).cos());
            sys.lagrangian(*t, &(q + one(eps * eta)), &(qd + one(eps * eta_dot)))
        })
        .collect();
    let steps = perturbed.len() - 1;
    let h = tau / steps as f64;
    let simpson: f64 = (0..steps)
        .step_by(2)
        .map(|i| h / 3.0 * (perturbed[i] + 4.0 * perturbed[i + 1] + perturbed[i + 2]))
        .sum();
    let second = eps * eps * M * tau / 4.0 * ((PI / tau).powi(2) - w * w);
    assert!(second < 0.0);
    let change = simpson - m.principal;
    assert!(
        (change - second).abs() < 1e-6 * second.abs(),
        "{change} vs {second}"
    );
}

#[test]
fn at_a_given_energy_the_time_is_the_derivative_of_the_action() {
    let sys = Oscillator { m: M, k: K };
    let (q0, q1, e) = (0.1, 0.6, 2.0);
    let motions = Connect::at_energy(&sys, one(q0), one(q1), e)
        .steps(500)
        .solve()
        .unwrap();
    let m = &motions[0];
    assert!((m.energy - e).abs() < 1e-10, "{}", m.energy);
    // x(t) = a sin(ωt + φ) with ½ k a² = E: the time from q₀ to q₁ moving up.
    let (w, a) = (omega(), (2.0 * e / K).sqrt());
    let tau = ((q1 / a).asin() - (q0 / a).asin()) / w;
    assert!((m.time - tau).abs() < 1e-10, "{} vs {tau}", m.time);
    // A = ∫ m ẋ dx = ∫ √(2m(E − ½ k x²)) dx from q₀ to q₁.
    let p = |x: f64| (2.0 * M * (e - 0.5 * K * x * x)).sqrt();
    let prim = |x: f64| 0.5 * (x * p(x) + 2.0 * M * e / (M * K).sqrt() * (x / a).asin());
    let action = prim(q1) - prim(q0);
    assert!(
        (m.action - action).abs() < 1e-10 * action,
        "{} vs {action}",
        m.action
    );
    let by_energy = relation(m, "∂A/∂E");
    assert!((by_energy.computed - tau).abs() < 1e-9, "{by_energy:?}");
    for derivative in ["∂A/∂x(τ)", "∂A/∂x(0)", "H(q(τ), ∂A/∂q(τ)) − E"] {
        let r = relation(m, derivative);
        assert!(r.difference().abs() < 1e-9, "{r:?}");
    }
    assert!((relation(m, "∂A/∂x(τ)").computed - p(q1)).abs() < 1e-9);
}

#[test]
fn a_start_whose_end_is_a_focus_and_unreachable_ends_are_clear_errors() {
    let sys = Oscillator { m: M, k: K };
    let half = PI / omega();
    // Every motion from 0.3 is at −0.3 after half a period: 0.5 cannot be reached.
    let unreachable = failure(
        Connect::in_time(&sys, one(0.3), one(0.5), half)
            .steps(200)
            .solve(),
    );
    assert!(matches!(unreachable, Error::NoMotion(_)), "{unreachable}");
    let text = unreachable.to_string();
    assert_eq!(text.matches("kinetic focus").count(), 1, "{text}");
    // −0.3 is reached by every motion: the end is a focus.
    let focus = failure(
        Connect::in_time(&sys, one(0.3), one(-0.3), half)
            .steps(200)
            .solve(),
    );
    assert_eq!(
        focus.to_string().matches("kinetic focus").count(),
        1,
        "{focus}"
    );
    // Below the potential at the start.
    let low = failure(Connect::at_energy(&sys, one(1.0), one(0.0), 0.1).solve());
    assert!(matches!(low, Error::InvalidInput(_)), "{low}");
    assert!(low.to_string().contains("below the potential"), "{low}");
}

#[test]
fn what_the_method_does_not_cover_is_refused_before_integrating() {
    let sys = Oscillator { m: M, k: K };
    for (tau, steps) in [
        (0.0, 10),
        (-1.0, 10),
        (f64::NAN, 10),
        (f64::INFINITY, 10),
        (1.0, 0),
        // Its square underflows: no step, no kinetic energy, resolves.
        (1e-300, 10),
        (1e300, 10),
    ] {
        let e = failure(
            Connect::in_time(&sys, one(0.0), one(1.0), tau)
                .steps(steps)
                .solve(),
        );
        assert!(matches!(e, Error::InvalidInput(_)), "{e}");
    }
    let too_many = Connect::in_time(&sys, one(0.0), one(1.0), 1.0).steps(MAX_STEPS + 1);
    assert!(matches!(failure(too_many.solve()), Error::InvalidInput(_)));
    let nan = failure(Connect::in_time(&sys, one(f64::NAN), one(1.0), 1.0).solve());
    assert!(matches!(nan, Error::InvalidInput(_)), "{nan}");
    let far = failure(Connect::in_time(&sys, one(0.0), one(1e300), 1.0).solve());
    assert!(far.to_string().contains("double precision"), "{far}");
    // Numbers in messages in short form, not 301 digits.
    let backwards = failure(Connect::in_time(&sys, one(0.0), one(1.0), -1e300).solve());
    assert!(backwards.to_string().ends_with("got -1e300"), "{backwards}");
    assert!(far.to_string().contains("the coordinate 1e300"), "{far}");
    let driven = DoubleIntegrator { m: 1.0, u: 0.0 };
    let e = failure(Connect::in_time(&driven, one(0.0), one(1.0), 1.0).solve());
    assert!(e.to_string().contains("conservative"), "{e}");
    let pendulum = CartesianPendulum {
        m: 1.0,
        g: 9.81,
        l: 1.0,
        c: 0.0,
    };
    let from = nalgebra::Vector2::new(0.0, -1.0);
    let e = failure(Connect::in_time(&pendulum, from, from, 1.0).solve());
    assert!(matches!(e, Error::InvalidInput(_)), "{e}");
}

#[test]
fn at_a_given_energy_each_turning_point_is_a_focus() {
    // x = a sin(ωt + φ), ½ k a² = E: the motion comes to rest where ωt + φ = π/2 + jπ,
    // where the bordered matrix's column q̇ vanishes; a path that turned sooner would
    // join the ends with less action.
    let sys = Oscillator { m: M, k: K };
    let (q0, q1, e) = (0.1, 0.3, 2.0);
    let motions = Connect::at_energy(&sys, one(q0), one(q1), e)
        .steps(500)
        .starts([one(1.0), one(-1.0)])
        .solve()
        .unwrap();
    let (w, a) = (omega(), (2.0 * e / K).sqrt());
    assert!(motions.len() >= 2, "{}", motions.len());
    assert!(motions.iter().any(|m| !m.foci.is_empty()));
    for m in &motions {
        let phase = (q0 / a).asin();
        let phase = if m.initial_velocity[0] >= 0.0 {
            phase
        } else {
            PI - phase
        };
        let turns: Vec<f64> = (0..10)
            .map(|j| ((0.5 + j as f64) * PI - phase) / w)
            .filter(|&t| t > 0.0 && t < m.time)
            .collect();
        assert_eq!(m.foci.len(), turns.len(), "{:?} vs {turns:?}", m.foci);
        for (f, t) in m.foci.iter().zip(&turns) {
            assert!((f.time - t).abs() < 1e-9, "{f:?} vs {t}");
            assert_eq!(f.multiplicity, 1);
        }
        assert_eq!(m.is_least(), turns.is_empty());
    }
}
