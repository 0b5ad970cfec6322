//! The exact Jacobians the derive generates, against central finite differences of the
//! equations they differentiate: the residual `M q̈ − f` (which the generated inverse
//! dynamics must reproduce) and the accelerations of the
//! motion (the constrained motion for a constrained model), at random states away from any
//! equilibrium, in the coordinates, the velocities and the parameters.

#[path = "../examples/cartesian_pendulum.rs"]
#[allow(dead_code)]
mod cartesian;
#[path = "../examples/double_pendulum.rs"]
#[allow(dead_code)]
mod double;
#[path = "../examples/tt_g_gyrostat.rs"]
#[allow(dead_code)]
mod gyrostat;
#[path = "../examples/cartpole_lqr.rs"]
#[allow(dead_code)]
mod lqr;
#[path = "../examples/tt_f_moving_string.rs"]
#[allow(dead_code)]
mod moving;
#[path = "../examples/central_orbit_routh.rs"]
#[allow(dead_code)]
mod orbit;
#[path = "../examples/tt_e_rotating_axes.rs"]
#[allow(dead_code)]
mod rotating;
#[path = "../examples/heavy_top.rs"]
#[allow(dead_code)]
mod top;

use lagrange::nalgebra::Const;
use lagrange::nalgebra::{DMatrix, SVector};
use lagrange::{FromParameterValues, Lagrangian, LagrangianSystem};

/// Uniform numbers in `[lo, hi)` from a fixed seed (xorshift).
struct Draw(u64);

impl Draw {
    fn next(&mut self, lo: f64, hi: f64) -> f64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        lo + (hi - lo) * (self.0 >> 11) as f64 / (1u64 << 53) as f64
    }
    fn vector<const N: usize>(&mut self, lo: f64, hi: f64) -> SVector<f64, N> {
        SVector::from_fn(|_, _| self.next(lo, hi))
    }
}

/// Central difference of `f` along each of `n` directions of `x`, as columns.
fn central(n: usize, x: &[f64], f: impl Fn(&[f64]) -> Vec<f64>) -> DMatrix<f64> {
    let columns: Vec<Vec<f64>> = (0..n)
        .map(|j| {
            let h = 1e-6 * (1.0 + x[j].abs());
            let shifted = |s: f64| {
                let mut y = x.to_vec();
                y[j] += s * h;
                f(&y)
            };
            let (plus, minus) = (shifted(1.0), shifted(-1.0));
            plus.iter()
                .zip(&minus)
                .map(|(a, b)| (a - b) / (2.0 * h))
                .collect()
        })
        .collect();
    let rows = columns.first().map_or(0, Vec::len);
    DMatrix::from_fn(rows, n, |i, j| columns[j][i])
}

fn assert_close(what: &str, model: &str, exact: &DMatrix<f64>, numeric: &DMatrix<f64>) {
    assert_eq!(exact.shape(), numeric.shape(), "{model}: {what}");
    let scale = 1.0 + numeric.amax();
    let error = (exact - numeric).amax();
    assert!(
        error <= 1e-6 * scale,
        "{model}: {what} differs from central differences by {error:.3e} (scale {scale:.3e})\nexact {exact}\nnumeric {numeric}"
    );
}

fn dynamic<const N: usize>(m: &lagrange::nalgebra::SMatrix<f64, N, N>) -> DMatrix<f64> {
    DMatrix::from_column_slice(N, N, m.as_slice())
}

/// Checks the residual and acceleration Jacobians of `S` at three random states and
/// parameter values.
fn check<S: FromParameterValues<Const<N>>, const N: usize>(seed: u64) {
    let mut draw = Draw(seed);
    let name = S::from_parameter_values(&vec![1.0; S::PARAMETER_COUNT])
        .unwrap()
        .info()
        .name
        .to_string();
    for _ in 0..3 {
        let p: Vec<f64> = (0..S::PARAMETER_COUNT)
            .map(|_| draw.next(0.5, 1.5))
            .collect();
        let system = S::from_parameter_values(&p).unwrap();
        let t = draw.next(0.0, 1.0);
        let q: SVector<f64, N> = draw.vector(0.3, 1.3);
        let qd: SVector<f64, N> = draw.vector(-1.0, 1.0);
        let qdd: SVector<f64, N> = draw.vector(-1.0, 1.0);
        let split = |x: &[f64]| {
            (
                SVector::<f64, N>::from_column_slice(&x[..N]),
                SVector::<f64, N>::from_column_slice(&x[N..]),
            )
        };
        let state: Vec<f64> = q.iter().chain(qd.iter()).copied().collect();

        // The residual r = M q̈ − f at fixed q̈.
        let residual = |s: &S, x: &[f64]| {
            let (q, qd) = split(x);
            let (m, f) = s.mass_matrix_and_forcing(t, &q, &qd);
            (m * qdd - f).as_slice().to_vec()
        };
        // The generated inverse dynamics (Newton–Euler for a tree) is that residual.
        let tau = system.inverse_dynamics(t, &q, &qd, &qdd);
        let r = residual(&system, &state);
        let scale = 1.0 + r.iter().fold(0.0f64, |m, x| m.max(x.abs()));
        for (i, (a, b)) in tau.iter().zip(&r).enumerate() {
            assert!(
                (a - b).abs() <= 1e-12 * scale,
                "{name}: inverse dynamics {i} = {a}, M q̈ − f = {b}"
            );
        }
        let exact = system.residual_jacobians(t, &q, &qd, &qdd);
        let by_state = central(2 * N, &state, |x| residual(&system, x));
        assert_close(
            "∂r/∂q",
            &name,
            &dynamic(&exact.coordinates),
            &by_state.columns(0, N).into_owned(),
        );
        assert_close(
            "∂r/∂q̇",
            &name,
            &dynamic(&exact.velocities),
            &by_state.columns(N, N).into_owned(),
        );
        let by_parameters = central(p.len(), &p, |values| {
            residual(&system.with_parameter_values(values).unwrap(), &state)
        });
        assert_close("∂r/∂p", &name, &exact.parameters, &by_parameters);

        // The accelerations of the motion.
        let accelerations = |s: &S, x: &[f64]| {
            let (q, qd) = split(x);
            s.accelerations(t, &q, &qd).unwrap().as_slice().to_vec()
        };
        let exact = system.acceleration_jacobians(t, &q, &qd).unwrap();
        assert_eq!(
            exact.accelerations,
            system.accelerations(t, &q, &qd).unwrap()
        );
        let by_state = central(2 * N, &state, |x| accelerations(&system, x));
        assert_close(
            "∂q̈/∂q",
            &name,
            &dynamic(&exact.coordinates),
            &by_state.columns(0, N).into_owned(),
        );
        assert_close(
            "∂q̈/∂q̇",
            &name,
            &dynamic(&exact.velocities),
            &by_state.columns(N, N).into_owned(),
        );
        let by_parameters = central(p.len(), &p, |values| {
            accelerations(&system.with_parameter_values(values).unwrap(), &state)
        });
        assert_close("∂q̈/∂p", &name, &exact.parameters, &by_parameters);
    }
}

/// Forces, dissipation and an explicit time in one model.
#[derive(Lagrangian)]
#[lagrangian(
    coordinates(x, theta),
    kinetic = "1/2*(M + m)*dot(x)^2 + m*l*cos(theta)*dot(x)*dot(theta) + 1/2*m*l^2*dot(theta)^2",
    potential = "m*g*l*cos(theta) + 1/2*k*x^2",
    force(x = "F*sin(w*t)"),
    dissipation = "1/2*c*dot(x)^2 + 1/2*d*dot(theta)^2*(1 + x^2)"
)]
#[allow(non_snake_case)]
struct DrivenCartPole {
    M: f64,
    m: f64,
    l: f64,
    g: f64,
    k: f64,
    F: f64,
    w: f64,
    c: f64,
    d: f64,
}

/// A particle on an ellipsoid and on a moving tilted plane, with a spring: two constraints
/// whose Jacobians depend on the parameters and on time.
#[derive(Lagrangian)]
#[lagrangian(
    coordinates(x, y, z),
    kinetic = "1/2*m*(dot(x)^2 + dot(y)^2 + dot(z)^2)",
    potential = "m*g*z + 1/2*k*(x^2 + y^2)",
    constraint = "x^2/a^2 + y^2/b^2 + z^2/c^2 - 1",
    constraint = "z - s*x - h*sin(t)"
)]
struct EllipsoidAndPlane {
    m: f64,
    g: f64,
    k: f64,
    a: f64,
    b: f64,
    c: f64,
    s: f64,
    h: f64,
}

#[test]
fn unconstrained_models_match_central_differences() {
    check::<double::DoublePendulum, 2>(1);
    check::<DrivenCartPole, 2>(2);
    check::<rotating::RotatingAxes, 3>(3);
    check::<moving::MovingString, 2>(4);
}

#[test]
fn bodies_match_central_differences() {
    check::<top::HeavyTop, 3>(5);
    check::<gyrostat::Gyrostat, 3>(6);
}

#[test]
fn reduced_systems_match_central_differences() {
    check::<orbit::OrbitReduced, 1>(7);
    check::<top::HeavyTopReduced, 1>(8);
}

#[test]
fn constrained_motion_matches_central_differences() {
    // The constrained accelerations are defined at every state, on the constraint or not;
    // their derivatives eliminate the multipliers.
    check::<cartesian::CartesianPendulum, 2>(9);
    check::<EllipsoidAndPlane, 3>(10);
}

#[test]
fn an_input_is_a_parameter_a_controller_sets_and_its_column_is_the_closed_form() {
    let info = &lqr::CartPole::INFO;
    assert_eq!(
        info.inputs
            .iter()
            .map(|&i| &*info.parameters[i])
            .collect::<Vec<_>>(),
        ["u"]
    );
    // The input works on the system like a force: nothing is conserved.
    assert_eq!(info.conserved, lagrange::Conserved::None);
    assert!(info.forced_or_dissipative);
    check::<lqr::CartPole, 2>(11);
    // ∂q̈/∂u = M(q)⁻¹ (1, 0)ᵀ with M = [[M + m, m l cos θ], [m l cos θ, m l²]].
    let cart = lqr::CartPole {
        M: 1.5,
        m: 0.4,
        l: 0.7,
        g: 9.81,
        u: 0.3,
    };
    let (q, qd) = (SVector::from([0.2, 0.9]), SVector::from([-0.4, 1.1]));
    let column = cart
        .acceleration_jacobians(0.0, &q, &qd)
        .unwrap()
        .parameters
        .column(4)
        .into_owned();
    let c = q[1].cos();
    let det = (cart.M + cart.m) * cart.m * cart.l * cart.l - (cart.m * cart.l * c).powi(2);
    let expected = [cart.m * cart.l * cart.l / det, -cart.m * cart.l * c / det];
    for (got, want) in column.iter().zip(expected) {
        assert!(
            (got - want).abs() <= 1e-14 * want.abs().max(1.0),
            "{got} vs {want}"
        );
    }
}

/// A planar chain of eight point masses on massless rods: its Jacobian program has about
/// 7,000 instructions, which a `let` per instruction made rustc crash on (with debug info,
/// LLVM's stack overflowed on the nested scopes).
#[derive(Lagrangian)]
#[lagrangian(
    coordinates(theta1, theta2, theta3, theta4, theta5, theta6, theta7, theta8),
    particle(name = b1, mass = "m1", position = ["l1*sin(theta1)", "-l1*cos(theta1)"]),
    particle(name = b2, mass = "m2", position = ["l1*sin(theta1) + l2*sin(theta2)", "-l1*cos(theta1) - l2*cos(theta2)"]),
    particle(name = b3, mass = "m3", position = ["l1*sin(theta1) + l2*sin(theta2) + l3*sin(theta3)", "-l1*cos(theta1) - l2*cos(theta2) - l3*cos(theta3)"]),
    particle(name = b4, mass = "m4", position = ["l1*sin(theta1) + l2*sin(theta2) + l3*sin(theta3) + l4*sin(theta4)", "-l1*cos(theta1) - l2*cos(theta2) - l3*cos(theta3) - l4*cos(theta4)"]),
    particle(name = b5, mass = "m5", position = ["l1*sin(theta1) + l2*sin(theta2) + l3*sin(theta3) + l4*sin(theta4) + l5*sin(theta5)", "-l1*cos(theta1) - l2*cos(theta2) - l3*cos(theta3) - l4*cos(theta4) - l5*cos(theta5)"]),
    particle(name = b6, mass = "m6", position = ["l1*sin(theta1) + l2*sin(theta2) + l3*sin(theta3) + l4*sin(theta4) + l5*sin(theta5) + l6*sin(theta6)", "-l1*cos(theta1) - l2*cos(theta2) - l3*cos(theta3) - l4*cos(theta4) - l5*cos(theta5) - l6*cos(theta6)"]),
    particle(name = b7, mass = "m7", position = ["l1*sin(theta1) + l2*sin(theta2) + l3*sin(theta3) + l4*sin(theta4) + l5*sin(theta5) + l6*sin(theta6) + l7*sin(theta7)", "-l1*cos(theta1) - l2*cos(theta2) - l3*cos(theta3) - l4*cos(theta4) - l5*cos(theta5) - l6*cos(theta6) - l7*cos(theta7)"]),
    particle(name = b8, mass = "m8", position = ["l1*sin(theta1) + l2*sin(theta2) + l3*sin(theta3) + l4*sin(theta4) + l5*sin(theta5) + l6*sin(theta6) + l7*sin(theta7) + l8*sin(theta8)", "-l1*cos(theta1) - l2*cos(theta2) - l3*cos(theta3) - l4*cos(theta4) - l5*cos(theta5) - l6*cos(theta6) - l7*cos(theta7) - l8*cos(theta8)"]),
    potential = "g*(m1*b1.y + m2*b2.y + m3*b3.y + m4*b4.y + m5*b5.y + m6*b6.y + m7*b7.y + m8*b8.y)"
)]
struct Chain8 {
    m1: f64,
    m2: f64,
    m3: f64,
    m4: f64,
    m5: f64,
    m6: f64,
    m7: f64,
    m8: f64,
    l1: f64,
    l2: f64,
    l3: f64,
    l4: f64,
    l5: f64,
    l6: f64,
    l7: f64,
    l8: f64,
    g: f64,
}

#[test]
fn an_eight_link_chain_compiles_and_matches_central_differences() {
    check::<Chain8, 8>(12);
}
