//! Models that use `exp`, `sinh`, `cosh` and `tanh`, derived and compared with the
//! equations derived by hand. Before symbolica's `𝑒` was read back, every one of them
//! failed with "unexpected symbol 𝑒".

use lagrange_symbolic::equations::Equations;
use lagrange_symbolic::model::Model;

/// A one-coordinate model in `x` with parameters `k` and `c`.
fn model(kinetic: &str, potential: &str) -> Model {
    Model {
        name: "Functions".into(),
        coordinates: vec!["x".into()],
        parameters: vec!["k".into(), "c".into()],
        kinetic: Some(kinetic.into()),
        potential: Some(potential.into()),
        ..Model::default()
    }
}

const STATES: [[f64; 5]; 3] = [
    // t, x, ẋ, k, c
    [0.0, 0.3, -0.7, 2.5, 0.4],
    [1.2, -1.1, 0.9, 0.8, 1.3],
    [3.5, 2.0, 0.25, 1.7, 0.6],
];

/// Checks the mass and forcing of `eq`, both as programs and as printed expression
/// trees, against `m(state)` and `f(state)` at a few states.
fn check(eq: &Equations, m: impl Fn(&[f64; 5]) -> f64, f: impl Fn(&[f64; 5]) -> f64) {
    for state in &STATES {
        let mut out = [0.0; 2];
        eq.programs.dynamics.evaluate(state, &mut out);
        let close = |got: f64, want: f64| (got - want).abs() <= 1e-12 * (1.0 + want.abs());
        assert!(close(out[0], m(state)), "M: {} vs {}", out[0], m(state));
        assert!(close(out[1], f(state)), "f: {} vs {}", out[1], f(state));
        // The printed tree, lowered without the engine, at the state and q̈ = 0.
        let forcing = &eq.symbolic.as_ref().unwrap().forcing[0];
        let mut printed = [0.0];
        let at: Vec<f64> = state.iter().copied().chain([0.0]).collect();
        eq.lower(std::slice::from_ref(forcing))
            .unwrap()
            .evaluate(&at, &mut printed);
        let printed = printed[0];
        assert!(
            close(printed, f(state)),
            "printed f: {printed} vs {}",
            f(state)
        );
    }
}

fn derive(model: &Model) -> Equations {
    lagrange_symbolic::derive(model)
        .unwrap_or_else(|e| panic!("{e:?}"))
        .full
}

#[test]
fn cosh_potential_gives_minus_sinh_force() {
    let eq = derive(&model("1/2*dot(x)^2", "k*cosh(x)"));
    check(&eq, |_| 1.0, |s| -s[3] * s[1].sinh());
}

#[test]
fn sinh_and_tanh_potentials() {
    let eq = derive(&model("1/2*dot(x)^2", "k*sinh(x)"));
    check(&eq, |_| 1.0, |s| -s[3] * s[1].cosh());
    // d/dx tanh x = 1 − tanh² x.
    let eq = derive(&model("1/2*dot(x)^2", "k*tanh(c*x)"));
    check(
        &eq,
        |_| 1.0,
        |s| -s[3] * s[4] * (1.0 - (s[4] * s[1]).tanh().powi(2)),
    );
}

#[test]
fn exponential_well_and_exp_of_one() {
    // V = −k e^{−x²}: f = −2 k x e^{−x²}; exp(1) is the constant e.
    let eq = derive(&model("1/2*exp(1)*dot(x)^2", "-k*exp(-x^2)"));
    check(
        &eq,
        |_| std::f64::consts::E,
        |s| -2.0 * s[3] * s[1] * (-s[1] * s[1]).exp(),
    );
}

#[test]
fn caldirola_kanai_damped_oscillator() {
    // L = e^{ct}(½ẋ² − ½kx²): M = e^{ct}, f = −k x e^{ct} − ∂p/∂t = −e^{ct}(k x + c ẋ),
    // the damped oscillator ẍ = −c ẋ − k x.
    let mut m = model("", "");
    m.kinetic = None;
    m.potential = None;
    m.lagrangian = Some("exp(c*t)*(1/2*dot(x)^2 - 1/2*k*x^2)".into());
    let eq = derive(&m);
    check(
        &eq,
        |s| (s[4] * s[0]).exp(),
        |s| -(s[4] * s[0]).exp() * (s[3] * s[1] + s[4] * s[2]),
    );
}

#[test]
fn exp_damped_generalized_force() {
    // Q = −c e^{−t} ẋ on V = ½kx²: f = −k x − c e^{−t} ẋ.
    let mut m = model("1/2*dot(x)^2", "1/2*k*x^2");
    m.forces = vec![("x".into(), "-c*exp(-t)*dot(x)".into())];
    let eq = derive(&m);
    check(&eq, |_| 1.0, |s| -s[3] * s[1] - s[4] * (-s[0]).exp() * s[2]);
}
