//! The benchmark bicycle: the Whipple model of Meijaard, Papadopoulos, Ruina and Schwab,
//! "Linearized dynamics equations for the balance and steer of a bicycle: a benchmark and
//! review", Proc. R. Soc. A 463 (2007) 1955–1982, declared as four bodies, two rolling
//! wheels (four velocity constraints) and the front wheel's contact (one holonomic
//! constraint), and linearized about the upright at forward speed `v` on the constraints'
//! tangent space. Against the paper: its matrices `M`, `C₁`, `K₀`, `K₂` of
//! `M q̈ + v C₁ q̇ + (g K₀ + v² K₂) q = f`, `q = (φ, δ)` (its eq. (A 23)–(A 25) evaluated in
//! its §5), the eigenvalues of its Table 2 at 0 to 10 m/s, and the weave and capsize speeds
//! that bound the self-stable range; then the nonlinear model, simulated, recovers from a
//! push inside that range and not below it, with its energy and constraints kept.

use lagrange::nalgebra::{DMatrix, Matrix2, Matrix4, SVector};
use lagrange::{
    ConstrainedSystem, Integrator, Lagrangian, LagrangianSystem, Simulation, linearize_constrained,
};

/// The bicycle as in `examples/bicycle.rs` (x forward, y left, z up; the paper's z points
/// down, so its heights `zB`, `zH` and products `I_xz` change sign in the expressions).
#[derive(Lagrangian)]
#[lagrangian(
    coordinates(x, y, psi, phi, theta, delta, thetaR, thetaF),
    body(name = along, mass = "0", inertia = ["0", "0", "0"], joint = prismatic(x),
         axis = ["1", "0", "0"]),
    body(name = across, mass = "0", inertia = ["0", "0", "0"], parent = along,
         joint = prismatic(y), axis = ["0", "1", "0"]),
    body(name = heading, mass = "0", inertia = ["0", "0", "0"], parent = across,
         joint = revolute(psi), axis = ["0", "0", "1"]),
    body(name = lean, mass = "0", inertia = ["0", "0", "0"], parent = heading,
         joint = revolute(phi), axis = ["1", "0", "0"]),
    body(name = rear_wheel, mass = "mR", inertia = ["IRxx", "IRxx", "IRyy"], parent = lean,
         joint = revolute(thetaR), origin = ["0", "0", "rR"], rpy = ["-pi/2", "0", "0"],
         axis = ["0", "0", "1"], rolls = "rR"),
    body(name = rear_frame, mass = "mB", inertia = ["IBxx", "IByy", "IBzz", "0", "-IBxz", "0"],
         parent = lean, joint = revolute(theta), origin = ["0", "0", "rR"],
         axis = ["0", "1", "0"], com = ["xB", "0", "-zB - rR"]),
    body(name = steer, mass = "0", inertia = ["0", "0", "0"], parent = rear_frame,
         joint = revolute(delta), origin = ["w + c", "0", "-rR"], rpy = ["0", "-lambda", "0"],
         axis = ["0", "0", "-1"]),
    body(name = front_frame, mass = "mH", inertia = ["IHxx", "IHyy", "IHzz", "0", "-IHxz", "0"],
         parent = steer, joint = fixed, rpy = ["0", "lambda", "0"],
         com = ["xH - w - c", "0", "-zH"]),
    body(name = front_wheel, mass = "mF", inertia = ["IFxx", "IFxx", "IFyy"], parent = front_frame,
         joint = revolute(thetaF), origin = ["-c", "0", "rF"], rpy = ["-pi/2", "0", "0"],
         axis = ["0", "0", "1"], rolls = "rF"),
    constraint = "(rR*cos(phi) - ((w + c)*sin(theta) + rR*cos(theta))*cos(phi)
         - (rF*sin(lambda) - c*cos(lambda))*sin(delta)*sin(phi)
         + ((rF*sin(lambda) - c*cos(lambda))*cos(delta)*sin(lambda - theta)
            + (rF*cos(lambda) + c*sin(lambda))*cos(lambda - theta))*cos(phi))^2
         - rF^2*(1 - (sin(phi)*cos(delta) + cos(phi)*sin(delta)*sin(lambda - theta))^2)",
    gravity = ["0", "0", "-g"]
)]
#[allow(non_snake_case)]
struct Bicycle {
    w: f64,
    c: f64,
    lambda: f64,
    g: f64,
    rR: f64,
    mR: f64,
    IRxx: f64,
    IRyy: f64,
    xB: f64,
    zB: f64,
    mB: f64,
    IBxx: f64,
    IByy: f64,
    IBzz: f64,
    IBxz: f64,
    xH: f64,
    zH: f64,
    mH: f64,
    IHxx: f64,
    IHyy: f64,
    IHzz: f64,
    IHxz: f64,
    rF: f64,
    mF: f64,
    IFxx: f64,
    IFyy: f64,
}

/// The benchmark's parameters (Meijaard et al. 2007, Table 1).
fn benchmark() -> Bicycle {
    Bicycle {
        w: 1.02,
        c: 0.08,
        lambda: std::f64::consts::PI / 10.0,
        g: 9.81,
        rR: 0.3,
        mR: 2.0,
        IRxx: 0.0603,
        IRyy: 0.12,
        xB: 0.3,
        zB: -0.9,
        mB: 85.0,
        IBxx: 9.2,
        IByy: 11.0,
        IBzz: 2.8,
        IBxz: 2.4,
        xH: 0.9,
        zH: -0.7,
        mH: 4.0,
        IHxx: 0.05892,
        IHyy: 0.06,
        IHzz: 0.00708,
        IHxz: -0.00756,
        rF: 0.35,
        mF: 3.0,
        IFxx: 0.1405,
        IFyy: 0.28,
    }
}

type State = SVector<f64, 8>;
const PHI: usize = 3;
const DELTA: usize = 5;
const THETA_R: usize = 6;

/// The published matrices (Meijaard et al. 2007, §5, to 14 digits).
const M: [[f64; 2]; 2] = [
    [80.81722, 2.31941332208709],
    [2.31941332208709, 0.29784188199686],
];
const C1: [[f64; 2]; 2] = [
    [0.0, 33.86641391492494],
    [-0.85035641456978, 1.68540397397560],
];
const K0: [[f64; 2]; 2] = [
    [-80.95, -2.59951685249872],
    [-2.59951685249872, -0.80329488458618],
];
const K2: [[f64; 2]; 2] = [[0.0, 76.59734589573222], [0.0, 2.65431523794604]];

/// The upright straight run at speed `v` of the rear contact: the wheels turn at `v/r`.
fn upright(bike: &Bicycle, v: f64) -> (State, State) {
    let mut qd = State::zeros();
    qd[0] = v;
    qd[THETA_R] = v / bike.rR;
    qd[7] = v / bike.rF;
    (State::zeros(), qd)
}

/// The lean and steer dynamics at speed `v`, read off the linearization on the tangent
/// space: the reduced mass matrix `Nᵀ M N` of the independent speeds `(φ̇, δ̇)` (Kane's
/// generalized inertia, `N` the velocities they give with the rear wheel's rate fixed),
/// and `−M⁻¹K`, `−M⁻¹C`, the responses of `(φ̈, δ̈)` to `(φ, δ)` and `(φ̇, δ̇)` along
/// tangent states that change nothing else that is independent.
struct Reduced {
    mass: Matrix2<f64>,
    stiffness: Matrix2<f64>,
    damping: Matrix2<f64>,
}

fn reduced(bike: &Bicycle, v: f64) -> Reduced {
    let (q, qd) = upright(bike, v);
    bike.check_consistent(0.0, &q, &qd, 1e-14).unwrap();
    let linearization = linearize_constrained(bike, 0.0, &q, &qd).unwrap();
    let tangent = linearization.tangent.as_ref().unwrap();
    assert_eq!(tangent.ncols(), 10, "2·8 − 5 − 1 tangent dimensions");
    // Independent: x, y, ψ, φ, δ, θ_R, θ_F and the speeds φ̇, δ̇, θ̇_R; the pitch θ and the
    // other velocities follow from the constraints.
    let independent = [
        0,
        1,
        2,
        PHI,
        DELTA,
        THETA_R,
        7,
        8 + PHI,
        8 + DELTA,
        8 + THETA_R,
    ];
    let select = DMatrix::from_fn(10, 10, |i, j| tangent[(independent[i], j)]);
    let lu = select.lu();
    let along = |k: usize| {
        let mut target = lagrange::nalgebra::DVector::zeros(10);
        target[k] = 1.0;
        tangent * lu.solve(&target).unwrap()
    };
    let (lean, steer, lean_rate, steer_rate) = (along(3), along(4), along(7), along(8));
    let response = |x: &lagrange::nalgebra::DVector<f64>| {
        let rate = &linearization.a * x;
        (rate[8 + PHI], rate[8 + DELTA])
    };
    let column = |x| {
        let (a, b) = response(x);
        lagrange::nalgebra::Vector2::new(a, b)
    };
    let stiffness = Matrix2::from_columns(&[column(&lean), column(&steer)]);
    let damping = Matrix2::from_columns(&[column(&lean_rate), column(&steer_rate)]);
    let mass_matrix = bike.mass_matrix(0.0, &q, &qd);
    let n = DMatrix::from_columns(&[
        lean_rate.rows(8, 8).into_owned(),
        steer_rate.rows(8, 8).into_owned(),
    ]);
    let full = DMatrix::from_fn(8, 8, |i, j| mass_matrix[(i, j)]);
    let kane = n.transpose() * full * &n;
    let mass = Matrix2::from_fn(|i, j| kane[(i, j)]);
    Reduced {
        mass,
        stiffness: -(mass * stiffness),
        damping: -(mass * damping),
    }
}

fn assert_matrix(name: &str, got: &Matrix2<f64>, want: &[[f64; 2]; 2], tolerance: f64) {
    let worst = (0..4)
        .map(|k| {
            (got[(k / 2, k % 2)] - want[k / 2][k % 2]).abs() / want[k / 2][k % 2].abs().max(1.0)
        })
        .fold(0.0, f64::max);
    println!("{name}: {got:.14} largest relative difference from the paper {worst:.1e}");
    for i in 0..2 {
        for j in 0..2 {
            let error = (got[(i, j)] - want[i][j]).abs();
            assert!(
                error <= tolerance * want[i][j].abs().max(1.0),
                "{name}[{i}][{j}] = {:.14} against the paper's {:.14} (error {error:.1e})",
                got[(i, j)],
                want[i][j]
            );
        }
    }
}

#[test]
fn the_linearized_equations_are_the_papers() {
    let bike = benchmark();
    let still = reduced(&bike, 0.0);
    assert_matrix("M", &still.mass, &M, 1e-12);
    assert_matrix("K0", &(still.stiffness / bike.g), &K0, 1e-12);
    assert!(still.damping.amax() < 1e-12, "no speed, no damping");
    // K = g K₀ + v² K₂ and C = v C₁: read at 1 m/s, checked at 3 and 7.
    let one = reduced(&bike, 1.0);
    assert_matrix("M at 1 m/s", &one.mass, &M, 1e-12);
    assert_matrix("C1", &one.damping, &C1, 1e-12);
    assert_matrix("K2", &(one.stiffness - still.stiffness), &K2, 1e-12);
    for v in [3.0, 7.0] {
        let at = reduced(&bike, v);
        let k = Matrix2::from_fn(|i, j| bike.g * K0[i][j] + v * v * K2[i][j]);
        let c = Matrix2::from_fn(|i, j| v * C1[i][j]);
        assert!(
            (at.stiffness - k).amax() <= 1e-12 * k.amax(),
            "K at {v} m/s"
        );
        assert!((at.damping - c).amax() <= 1e-12 * c.amax(), "C at {v} m/s");
    }
}

/// The eigenvalues of the lean and steer motion at speed `v`, sorted by real part then
/// imaginary part.
fn eigenvalues(bike: &Bicycle, v: f64) -> Vec<(f64, f64)> {
    let r = reduced(bike, v);
    let inverse = r.mass.try_inverse().unwrap();
    let (k, c) = (-(inverse * r.stiffness), -(inverse * r.damping));
    let state = Matrix4::new(
        0.0,
        0.0,
        1.0,
        0.0, //
        0.0,
        0.0,
        0.0,
        1.0, //
        k[(0, 0)],
        k[(0, 1)],
        c[(0, 0)],
        c[(0, 1)], //
        k[(1, 0)],
        k[(1, 1)],
        c[(1, 0)],
        c[(1, 1)],
    );
    let mut values: Vec<(f64, f64)> = state
        .complex_eigenvalues()
        .iter()
        .map(|z| (z.re, z.im))
        .collect();
    values.sort_by(|a, b| a.partial_cmp(b).unwrap());
    values
}

#[test]
fn the_eigenvalues_are_those_of_table_2() {
    // Meijaard et al. 2007, Table 2: at v = 0, 1, …, 10 m/s, each row (re, im) of the four
    // eigenvalues, sorted as `eigenvalues` sorts them.
    let weave = [
        (3.52696170990070, 0.80774027519930),
        (2.68234517512745, 1.68066296590675),
        (1.70675605663975, 2.31582447384325),
        (0.41325331521125, 3.07910818603206),
        (-0.77534188219585, 4.46486771378823),
        (-1.52644486584142, 5.87673060598709),
        (-2.13875644258362, 7.19525913329805),
        (-2.69348683581097, 8.46037971396931),
        (-3.21675402252485, 9.69377351531791),
        (-3.72016840437287, 10.90681139476287),
    ];
    let capsize = [
        -3.13423125066578,
        -3.07158645641514,
        -2.63366137253667,
        -1.42944427361326,
        -0.32286642900409,
        -0.00406690076970,
        0.10268170574766,
        0.14327879765713,
        0.15790184030917,
        0.16105338653172,
    ];
    let castering = [
        -7.11008014637442,
        -8.67387984831735,
        -10.35101467245920,
        -12.15861426576450,
        -14.07838969279820,
        -16.08537123098030,
        -18.15788466125262,
        -20.27940894394569,
        -22.43788559040858,
        -24.62459635017404,
    ];
    let bike = benchmark();
    let close = |got: (f64, f64), want: (f64, f64)| {
        let scale = want.0.hypot(want.1).max(1.0);
        (got.0 - want.0).abs() <= 1e-12 * scale && (got.1 - want.1).abs() <= 1e-12 * scale
    };
    // Standing still: two inverted-pendulum pairs ±3.13164324790656, ±5.53094371765393.
    let still = eigenvalues(&bike, 0.0);
    let want = [
        -5.53094371765393,
        -3.13164324790656,
        3.13164324790656,
        5.53094371765393,
    ];
    for (got, want) in still.iter().zip(want) {
        assert!(close(*got, (want, 0.0)), "v = 0: {got:?} against {want}");
    }
    for v in 1..=10 {
        let got = eigenvalues(&bike, v as f64);
        let (w, k, c) = (weave[v - 1], capsize[v - 1], castering[v - 1]);
        let mut want = vec![(w.0, -w.1), (w.0, w.1), (k, 0.0), (c, 0.0)];
        want.sort_by(|a, b| a.partial_cmp(b).unwrap());
        println!("v = {v}: {got:.14?}");
        for (got, want) in got.iter().zip(&want) {
            assert!(close(*got, *want), "v = {v}: {got:?} against {want:?}");
        }
    }
}

/// The speed in `(low, high)` where the largest real part of an eigenvalue of the lean and
/// steer motion changes sign, by bisection.
fn boundary(bike: &Bicycle, mut low: f64, mut high: f64) -> f64 {
    let abscissa = |v: f64| {
        eigenvalues(bike, v)
            .iter()
            .map(|z| z.0)
            .fold(f64::NEG_INFINITY, f64::max)
    };
    let rising = abscissa(high) > abscissa(low);
    while high - low > 1e-13 {
        let middle = 0.5 * (low + high);
        if (abscissa(middle) > 0.0) == rising {
            high = middle;
        } else {
            low = middle;
        }
    }
    0.5 * (low + high)
}

#[test]
fn the_self_stable_speeds_are_the_papers() {
    let bike = benchmark();
    // Table 2 (a): the weave speed (the weave pair's real part crosses 0) and the capsize
    // speed (the capsize eigenvalue crosses 0).
    let weave = boundary(&bike, 4.0, 5.0);
    let capsize = boundary(&bike, 6.0, 7.0);
    println!("weave speed {weave:.14}, capsize speed {capsize:.14}");
    assert!(
        (weave - 4.29238253634111).abs() <= 1e-12 * 4.3,
        "weave speed {weave:.14}"
    );
    assert!(
        (capsize - 6.02426201538837).abs() <= 1e-12 * 6.0,
        "capsize speed {capsize:.14}"
    );
    // At the weave speed the pair is ±3.43503384866144 i.
    let pair = eigenvalues(&bike, 4.29238253634111);
    assert!(
        pair.iter().any(|z| (z.1 - 3.43503384866144).abs() < 1e-9),
        "{pair:?}"
    );
}

/// Runs the nonlinear bicycle for `seconds` from upright at speed `v` with a roll rate;
/// returns the largest lean in the first and in the last second.
fn pushed(bike: &Bicycle, v: f64, seconds: f64) -> (f64, f64) {
    let (q, mut qd) = upright(bike, v);
    qd[PHI] = 0.5;
    let energy = bike.energy(0.0, &q, &qd);
    let trajectory = Simulation::new(bike)
        .integrator(Integrator::dormand_prince(1e-10, 1e-10))
        .run(0.0, q, qd, seconds)
        .unwrap();
    let (t, q, qd) = (trajectory.times(), trajectory.q(), trajectory.qd());
    let last = t.len() - 1;
    let drift = (bike.energy(t[last], &q[last], &qd[last]) - energy).abs() / energy;
    assert!(drift < 1e-8, "energy drifted by {drift:.1e} at {v} m/s");
    let held = bike.constraint_values(t[last], &q[last]).amax()
        + bike
            .constraint_velocities(t[last], &q[last], &qd[last])
            .amax();
    assert!(held < 1e-8, "constraints off by {held:.1e} at {v} m/s");
    let largest = |from: f64, to: f64| {
        (0..t.len())
            .filter(|&i| t[i] >= from && t[i] <= to)
            .map(|i| q[i][PHI].abs())
            .fold(0.0, f64::max)
    };
    (largest(0.0, 1.0), largest(seconds - 1.0, seconds))
}

#[test]
fn the_nonlinear_bicycle_is_self_stable_only_in_the_range() {
    let bike = benchmark();
    // At 5 m/s the weave decays as e^(−0.775 t): over 4 s, by a factor of about 22.
    let (first, last) = pushed(&bike, 5.0, 5.0);
    assert!(last < first / 10.0, "5 m/s: lean {first:.4} then {last:.4}");
    // At 3 m/s it grows as e^(0.413 t).
    let (first, last) = pushed(&bike, 3.0, 4.0);
    assert!(last > 2.0 * first, "3 m/s: lean {first:.4} then {last:.4}");
}
