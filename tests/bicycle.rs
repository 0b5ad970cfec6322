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

#[path = "../examples/bicycle.rs"]
#[allow(dead_code)]
mod example;

use example::{
    Bicycle, C1, DELTA, K0, K2, M, PHI, State, benchmark, boundary, eigenvalues, reduced, upright,
};
use lagrange::nalgebra::Matrix2;
use lagrange::{ConstrainedSystem, IndependentSpeeds, Integrator, LagrangianSystem, Simulation};

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
    let still = reduced(&bike, 0.0).unwrap();
    assert_matrix("M", &still.mass, &M, 1e-12);
    assert_matrix("K0", &(still.stiffness / bike.g), &K0, 1e-12);
    assert!(still.damping.amax() < 1e-12, "no speed, no damping");
    // K = g K₀ + v² K₂ and C = v C₁: read at 1 m/s, checked at 3 and 7.
    let one = reduced(&bike, 1.0).unwrap();
    assert_matrix("M at 1 m/s", &one.mass, &M, 1e-12);
    assert_matrix("C1", &one.damping, &C1, 1e-12);
    assert_matrix("K2", &(one.stiffness - still.stiffness), &K2, 1e-12);
    for v in [3.0, 7.0] {
        let at = reduced(&bike, v).unwrap();
        let k = Matrix2::from_fn(|i, j| bike.g * K0[i][j] + v * v * K2[i][j]);
        let c = Matrix2::from_fn(|i, j| v * C1[i][j]);
        assert!(
            (at.stiffness - k).amax() <= 1e-12 * k.amax(),
            "K at {v} m/s"
        );
        assert!((at.damping - c).amax() <= 1e-12 * c.amax(), "C at {v} m/s");
    }
}

#[test]
#[allow(clippy::excessive_precision)] // the table's digits as printed
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
    let still = eigenvalues(&bike, 0.0).unwrap();
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
        let got = eigenvalues(&bike, v as f64).unwrap();
        let (w, k, c) = (weave[v - 1], capsize[v - 1], castering[v - 1]);
        let mut want = vec![(w.0, -w.1), (w.0, w.1), (k, 0.0), (c, 0.0)];
        want.sort_by(|a, b| a.partial_cmp(b).unwrap());
        println!("v = {v}: {got:.14?}");
        for (got, want) in got.iter().zip(&want) {
            assert!(close(*got, *want), "v = {v}: {got:?} against {want:?}");
        }
    }
}

#[test]
fn the_self_stable_speeds_are_the_papers() {
    let bike = benchmark();
    // Table 2 (a): the weave speed (the weave pair's real part crosses 0) and the capsize
    // speed (the capsize eigenvalue crosses 0).
    let weave = boundary(&bike, 4.0, 5.0).unwrap();
    let capsize = boundary(&bike, 6.0, 7.0).unwrap();
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
    let pair = eigenvalues(&bike, 4.29238253634111).unwrap();
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

#[test]
fn maggis_equations_give_the_bicycles_motion() {
    // Off the upright, at random leans, steers and speeds: the accelerations from the
    // independent speeds (φ̇, δ̇, θ̇_R) without multipliers are those with them.
    let bike = benchmark();
    let speeds = IndependentSpeeds::named(&bike, &["phi", "delta", "thetaR"]).unwrap();
    for k in 0..10 {
        let f = k as f64;
        let mut q = State::zeros();
        (q[0], q[1], q[2]) = (f.sin(), f.cos(), 0.7 * f);
        (q[PHI], q[DELTA]) = (0.4 * (1.3 * f).sin(), 0.6 * (0.7 * f).cos());
        (q[6], q[7]) = (2.0 * f, -f);
        let (q, _) = bike
            .project_onto_constraints(0.0, &q, &State::zeros())
            .unwrap();
        let basis = speeds.basis(&bike, 0.0, &q).unwrap();
        let u = lagrange::nalgebra::Vector3::new((0.9 * f).sin(), (1.1 * f).cos(), 5.0 + f);
        let qd = State::from_column_slice((&basis.basis * u).as_slice());
        bike.check_consistent(0.0, &q, &qd, 1e-12).unwrap();
        let maggi = speeds.accelerations(&bike, 0.0, &q, &qd).unwrap();
        let multipliers = bike.constrained_motion(0.0, &q, &qd).unwrap().accelerations;
        let error = (maggi - multipliers).amax() / multipliers.amax();
        assert!(error < 1e-11, "state {k}: relative difference {error:.1e}");
    }
}
