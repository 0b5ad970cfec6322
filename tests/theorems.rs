//! The general theorems of dynamics along runs, against closed forms: the two-body
//! problem in Cartesian coordinates (momentum and angular momentum conserved though no
//! coordinate is cyclic; the virial theorem 2⟨T⟩ = −⟨V⟩ over a period of a bound orbit
//! with Kepler's averages), a particle on a sphere (only Λ_z), a rod whose constraints
//! admit fewer and fewer symmetries, a harmonic cluster (dJ/dt = 2T − 2V against its
//! normal-mode solution) and dI/dt = 2J for particles and a free rigid body.

// Models shared with the examples are included as modules, as users write them.
#[path = "../examples/heavy_top.rs"]
#[allow(dead_code)]
mod heavy_top;
#[path = "../examples/spherical_pendulum.rs"]
#[allow(dead_code)]
mod spherical_pendulum;
#[path = "../examples/two_body.rs"]
#[allow(dead_code)]
mod two_body;

use heavy_top::HeavyTop;
use lagrange::nalgebra::Const;
use lagrange::nalgebra::{SVector, Vector2, Vector3, Vector4, Vector6};
use lagrange::{Integrator, Lagrangian, LagrangianSystem, Simulation, Theorem, Trajectory};
use spherical_pendulum::SphericalPendulum;
use two_body::TwoBody;

fn tight() -> Integrator {
    Integrator::dormand_prince(1e-12, 1e-12)
}

/// The names of the integrals the general theorems added to a trajectory.
fn theorem_integrals<const N: usize>(trajectory: &Trajectory<Const<N>>) -> Vec<&str> {
    trajectory
        .invariants()
        .iter()
        .map(|i| i.name.as_str())
        .filter(|n| n.starts_with("momentum_") || n.starts_with("angular_momentum_"))
        .collect()
}

const BODIES: TwoBody = TwoBody {
    m1: 1.0,
    m2: 3.0,
    k: 1.0,
};

/// The state with relative position `r`, relative velocity `v` and the centre of mass
/// moving at `drift` from the origin.
fn two_body_state(r: Vector3<f64>, v: Vector3<f64>, drift: Vector3<f64>) -> [Vector6<f64>; 2] {
    let total = BODIES.m1 + BODIES.m2;
    let (r1, r2) = (-r * BODIES.m2 / total, r * BODIES.m1 / total);
    let (v1, v2) = (drift - v * BODIES.m2 / total, drift + v * BODIES.m1 / total);
    let join = |a: Vector3<f64>, b: Vector3<f64>| Vector6::new(a.x, a.y, a.z, b.x, b.y, b.z);
    [join(r1, r2), join(v1, v2)]
}

#[test]
fn two_bodies_conserve_momentum_and_angular_momentum_though_no_coordinate_is_cyclic() {
    assert!(TwoBody::INFO.cyclic.is_empty());
    let [q0, qd0] = two_body_state(
        Vector3::new(1.0, 0.2, -0.1),
        Vector3::new(0.1, 1.4, 0.5),
        Vector3::new(0.3, -0.2, 0.1),
    );
    let run = Simulation::new(&BODIES)
        .integrator(tight())
        .run(0.0, q0, qd0, 20.0)
        .unwrap();
    assert_eq!(
        theorem_integrals(&run),
        [
            "momentum_x",
            "momentum_y",
            "momentum_z",
            "angular_momentum_x",
            "angular_momentum_y",
            "angular_momentum_z"
        ]
    );
    // Independently of the generated functions: Σ m ṙ and Σ m r × ṙ from the states.
    let of = |q: &Vector6<f64>, v: &Vector6<f64>| {
        let (r1, r2) = (q.fixed_rows::<3>(0), q.fixed_rows::<3>(3));
        let (v1, v2) = (v.fixed_rows::<3>(0), v.fixed_rows::<3>(3));
        let p = v1 * BODIES.m1 + v2 * BODIES.m2;
        let l = r1.cross(&v1) * BODIES.m1 + r2.cross(&v2) * BODIES.m2;
        [p.x, p.y, p.z, l.x, l.y, l.z]
    };
    let initial = of(&q0, &qd0);
    for (k, invariant) in run.invariants().iter().skip(1).enumerate() {
        assert!(
            (invariant.values[0] - initial[k]).abs() < 1e-14,
            "{}",
            invariant.name
        );
        assert!(
            invariant.drift() < 1e-10,
            "{}: {}",
            invariant.name,
            invariant.drift()
        );
    }
    for (q, v) in run.q().iter().zip(run.qd()) {
        let now = of(q, v);
        for k in 0..6 {
            assert!((now[k] - initial[k]).abs() < 1e-10, "component {k}");
        }
    }
}

/// Averages over `[t₀, t_end]` of samples at equal steps, by the trapezoidal rule (exact
/// to round-off for a smooth periodic function over whole periods).
fn average(values: &[f64]) -> f64 {
    let n = values.len() - 1;
    let inner: f64 = values[1..n].iter().sum();
    (inner + 0.5 * (values[0] + values[n])) / n as f64
}

#[test]
fn the_virial_theorem_holds_over_a_period_of_a_bound_orbit() {
    // The centre of mass at rest: J is then periodic, and dJ/dt = 2T + V (n = −1)
    // averages to zero over a period.
    let (r, v) = (Vector3::new(1.0, 0.0, 0.0), Vector3::new(0.0, 0.8, 0.3));
    let [q0, qd0] = two_body_state(r, v, Vector3::zeros());
    let (m1, m2, k) = (BODIES.m1, BODIES.m2, BODIES.k);
    let total = m1 + m2;
    let reduced_mass = m1 * m2 / total;
    let energy = 0.5 * reduced_mass * v.norm_squared() - k * m1 * m2 / r.norm();
    // Kepler: a = −k m₁ m₂ / 2E, period 2π √(a³ / k M), ⟨V⟩ = −k m₁ m₂ / a, ⟨T⟩ = −⟨V⟩/2.
    let a = -k * m1 * m2 / (2.0 * energy);
    let period = 2.0 * std::f64::consts::PI * (a.powi(3) / (k * total)).sqrt();
    let steps = 4000;
    let run = Simulation::new(&BODIES)
        .integrator(tight())
        .output_interval(period / steps as f64)
        .run(0.0, q0, qd0, period)
        .unwrap();
    assert_eq!(run.len(), steps + 1);
    let (mut kinetic, mut potential) = (Vec::new(), Vec::new());
    for ((&t, q), qd) in run.times().iter().zip(run.q()).zip(run.qd()) {
        let functions = BODIES.dynamic_functions(t, q, qd).unwrap();
        kinetic.push(functions.kinetic_energy);
        potential.push(BODIES.energy(t, q, qd) - functions.kinetic_energy);
    }
    let (mean_t, mean_v) = (average(&kinetic), average(&potential));
    let expected_v = -k * m1 * m2 / a;
    assert!(
        (mean_v - expected_v).abs() < 1e-8 * expected_v.abs(),
        "⟨V⟩ = {mean_v}, Kepler: {expected_v}"
    );
    assert!(
        (2.0 * mean_t + mean_v).abs() < 1e-8 * mean_v.abs(),
        "2⟨T⟩ = {}, −⟨V⟩ = {}",
        2.0 * mean_t,
        -mean_v
    );
    // The engine found the potential homogeneous of degree −1.
    let virial = TwoBody::INFO
        .theorems
        .iter()
        .find(|t| t.theorem == Theorem::Virial)
        .unwrap();
    assert!(virial.holds && !virial.integral);
    // The balance law at every point: dJ/dt = 2T + Σ F·r.
    for law in run.balance_laws(&BODIES).unwrap() {
        assert!(
            law.max_residual() < 1e-12 * law.scale().max(1.0),
            "{}: {}",
            law.theorem.law(),
            law.max_residual()
        );
    }
}

#[test]
fn a_particle_on_a_sphere_conserves_its_angular_momentum_about_the_vertical_only() {
    let pendulum = SphericalPendulum {
        m: 1.5,
        l: 1.0,
        g: 9.81,
    };
    let (th, ph) = (1.0f64, 0.3f64);
    let q0 = Vector3::new(th.sin() * ph.cos(), th.sin() * ph.sin(), -th.cos());
    // Tangent: along the parallel (horizontal) and a little along the meridian.
    let along = Vector3::new(-ph.sin(), ph.cos(), 0.0);
    let down = Vector3::new(th.cos() * ph.cos(), th.cos() * ph.sin(), th.sin());
    let qd0 = along * 2.0 + down * 0.5;
    let run = Simulation::new(&pendulum)
        .integrator(tight())
        .output_interval(0.01)
        .run(0.0, q0, qd0, 10.0)
        .unwrap();
    assert_eq!(theorem_integrals(&run), ["angular_momentum_z"]);
    let lz = run.invariant("angular_momentum_z").unwrap();
    assert!(lz.drift() < 1e-9, "Λ_z drift {}", lz.drift());
    // Λ_z is m (x ẏ − y ẋ), and P_z changes: gravity and the rod pull vertically.
    let (mut lowest, mut highest) = (f64::INFINITY, f64::NEG_INFINITY);
    for (k, (q, v)) in run.q().iter().zip(run.qd()).enumerate() {
        let direct = pendulum.m * (q.x * v.y - q.y * v.x);
        assert!((lz.values[k] - direct).abs() < 1e-13);
        lowest = lowest.min(pendulum.m * v.z);
        highest = highest.max(pendulum.m * v.z);
    }
    assert!(highest - lowest > 1.0, "P_z should change");
    // The balance laws whose premises hold: Λ_x and Λ_y change by gravity's moment, T by
    // its power; the rod's tension appears in none.
    let laws = run.balance_laws(&pendulum).unwrap();
    let names: Vec<&str> = laws.iter().map(|b| b.theorem.function_name()).collect();
    assert_eq!(
        names,
        [
            "angular_momentum_x",
            "angular_momentum_y",
            "angular_momentum_z",
            "kinetic_energy",
            "moment_of_inertia"
        ]
    );
    for law in &laws {
        assert!(
            law.max_residual() < 1e-11 * law.scale().max(1.0),
            "{}: {} of {}",
            law.theorem.law(),
            law.max_residual(),
            law.scale()
        );
    }
    assert!(laws[0].scale() > 1.0, "gravity has a moment about x");
}

/// Two particles in a plane joined by a rod, and possibly held by one more constraint
/// (the same systems as `tests/constraints.rs`, with their masses as particles).
macro_rules! rod {
    ($name:ident $(, $extra:literal)?) => {
        #[derive(Lagrangian)]
        #[lagrangian(
            coordinates(x1, y1, x2, y2),
            particle(name = a, mass = "m1", position = ["x1", "y1"]),
            particle(name = b, mass = "m2", position = ["x2", "y2"]),
            constraint = "(x1 - x2)^2 + (y1 - y2)^2 - d^2",
            $(constraint = $extra,)?
        )]
        struct $name {
            m1: f64,
            m2: f64,
            d: f64,
        }
    };
}
rod!(FreeRod);
rod!(RodOnCircle, "x1^2 + y1^2 - 1");
rod!(RodOnLine, "y1");

/// The integrals a run finds, each checked for drift.
fn integrals_of<S: LagrangianSystem<Const<4>>>(system: &S, qd0: Vector4<f64>) -> Vec<String> {
    let run = Simulation::new(system)
        .integrator(tight())
        .run(0.0, Vector4::new(1.0, 0.0, 1.0, 1.0), qd0, 5.0)
        .unwrap();
    for name in theorem_integrals(&run) {
        let drift = run.invariant(name).unwrap().drift();
        assert!(drift < 1e-9, "{name}: {drift}");
    }
    theorem_integrals(&run)
        .into_iter()
        .map(str::to_string)
        .collect()
}

#[test]
fn the_engine_finds_the_integrals_the_constraints_admit() {
    let (m1, m2, d) = (1.0, 2.0, 1.0);
    assert_eq!(
        integrals_of(&FreeRod { m1, m2, d }, Vector4::new(0.3, 0.5, -0.7, 0.5)),
        ["momentum_x", "momentum_y", "angular_momentum_z"]
    );
    assert_eq!(
        integrals_of(
            &RodOnCircle { m1, m2, d },
            Vector4::new(0.0, 0.5, -0.7, 0.5)
        ),
        ["angular_momentum_z"]
    );
    assert_eq!(
        integrals_of(&RodOnLine { m1, m2, d }, Vector4::new(0.3, 0.0, -0.7, 0.0)),
        ["momentum_x"]
    );
    // What is not admitted is said so, with the constraint that forbids it.
    let on_line = &RodOnLine::INFO.theorems;
    let rotation = on_line
        .iter()
        .find(|t| t.theorem.function_name() == "angular_momentum_z")
        .unwrap();
    assert!(!rotation.holds);
    assert_eq!(
        rotation.why,
        "constraint 2 (`y1`) does not admit a rotation about the z axis"
    );
}

/// Three equal masses in a plane, each on a spring to the origin and to the others (all
/// of rest length zero): `V` is homogeneous of degree 2.
#[derive(Lagrangian)]
#[lagrangian(
    coordinates(x1, y1, x2, y2, x3, y3),
    particle(name = a, mass = "m", position = ["x1", "y1"]),
    particle(name = b, mass = "m", position = ["x2", "y2"]),
    particle(name = c, mass = "m", position = ["x3", "y3"]),
    potential = "1/2*k0*(x1^2 + y1^2 + x2^2 + y2^2 + x3^2 + y3^2) + 1/2*k*((x1 - x2)^2 + (y1 - y2)^2 + (x2 - x3)^2 + (y2 - y3)^2 + (x3 - x1)^2 + (y3 - y1)^2)",
)]
struct Cluster {
    m: f64,
    k0: f64,
    k: f64,
}

#[test]
fn a_harmonic_cluster_has_dj_dt_equal_to_2t_minus_2v() {
    let cluster = Cluster {
        m: 0.7,
        k0: 1.3,
        k: 0.4,
    };
    let q0 = SVector::<f64, 6>::from([1.0, 0.2, -0.5, 0.9, 0.1, -1.1]);
    let qd0 = SVector::<f64, 6>::from([0.3, -0.4, 0.8, 0.1, -0.2, 0.6]);
    // The normal modes: the centre of mass at ω₀² = k₀/m, the spread about it at
    // ω₁² = (k₀ + 3k)/m.
    let (w0, w1) = (
        (cluster.k0 / cluster.m).sqrt(),
        ((cluster.k0 + 3.0 * cluster.k) / cluster.m).sqrt(),
    );
    let point = |v: &SVector<f64, 6>, i: usize| Vector2::new(v[2 * i], v[2 * i + 1]);
    let mean = |v: &SVector<f64, 6>| (0..3).map(|i| point(v, i)).sum::<Vector2<f64>>() / 3.0;
    let (c0, u0) = (mean(&q0), mean(&qd0));
    // Exact positions, velocities and accelerations of particle i at t.
    let exact = |i: usize, t: f64| {
        let (r0, v0) = (point(&q0, i) - c0, point(&qd0, i) - u0);
        let (c, s) = ((w0 * t).cos(), (w0 * t).sin());
        let (cr, sr) = ((w1 * t).cos(), (w1 * t).sin());
        let centre = c0 * c + u0 * (s / w0);
        let centre_v = -c0 * (w0 * s) + u0 * c;
        let spread = r0 * cr + v0 * (sr / w1);
        let spread_v = -r0 * (w1 * sr) + v0 * cr;
        let acceleration = -centre * (w0 * w0) - spread * (w1 * w1);
        (centre + spread, centre_v + spread_v, acceleration)
    };
    let run = Simulation::new(&cluster)
        .integrator(tight())
        .output_interval(0.05)
        .run(0.0, q0, qd0, 10.0)
        .unwrap();
    for ((&t, q), qd) in run.times().iter().zip(run.q()).zip(run.qd()) {
        let functions = cluster.dynamic_functions(t, q, qd).unwrap();
        let v = cluster.energy(t, q, qd) - functions.kinetic_energy;
        // J = m Σ r·ṙ and dJ/dt = m Σ (ṙ² + r·r̈) from the closed form.
        let (mut j, mut rate) = (0.0, 0.0);
        for i in 0..3 {
            let (r, u, a) = exact(i, t);
            j += cluster.m * r.dot(&u);
            rate += cluster.m * (u.norm_squared() + r.dot(&a));
        }
        assert!((functions.virial - j).abs() < 1e-9, "J at t = {t}");
        let theorem = 2.0 * functions.kinetic_energy - 2.0 * v;
        assert!(
            (rate - theorem).abs() < 1e-9,
            "t = {t}: dJ/dt = {rate}, 2T − 2V = {theorem}"
        );
    }
}

/// Composite Simpson sums of `2J` against `I(t) − I(0)` at every even point: the
/// integral form of dI/dt = 2J from recorded values alone.
fn moment_of_inertia_grows_by_twice_the_virial<S: LagrangianSystem<Const<N>>, const N: usize>(
    system: &S,
    run: &Trajectory<Const<N>>,
) {
    let h = run.times()[1] - run.times()[0];
    let functions: Vec<_> = run
        .times()
        .iter()
        .zip(run.q())
        .zip(run.qd())
        .map(|((&t, q), qd)| system.dynamic_functions(t, q, qd).unwrap())
        .collect();
    let scale = functions
        .iter()
        .fold(1.0f64, |m, f| m.max(f.moment_of_inertia.abs()));
    let mut integral = 0.0;
    for k in (2..functions.len()).step_by(2) {
        let (a, b, c) = (
            functions[k - 2].virial,
            functions[k - 1].virial,
            functions[k].virial,
        );
        integral += 2.0 * h / 3.0 * (a + 4.0 * b + c);
        let grown = functions[k].moment_of_inertia - functions[0].moment_of_inertia;
        assert!(
            (grown - integral).abs() < 1e-7 * scale,
            "t = {}: I grew by {grown}, ∫2J = {integral}",
            run.times()[k]
        );
    }
}

/// A free rigid body with three different moments, in z-x-z Euler angles.
#[derive(Lagrangian)]
#[lagrangian(
    coordinates(x, y, z, phi, theta, psi),
    body(
        name = brick,
        mass = "m",
        inertia = ["A", "B", "C"],
        rotation = euler_zxz(phi, theta, psi),
        position = ["x", "y", "z"],
    ),
)]
#[allow(non_snake_case)]
struct FreeBody {
    m: f64,
    A: f64,
    B: f64,
    C: f64,
}

#[test]
fn moment_of_inertia_and_spin_of_a_free_body() {
    let body = FreeBody {
        m: 2.0,
        A: 0.3,
        B: 0.5,
        C: 0.9,
    };
    let q0 = Vector6::new(0.5, -0.2, 0.3, 0.2, 0.9, -0.4);
    let qd0 = Vector6::new(0.4, 0.3, -0.2, 0.7, -0.5, 1.1);
    let run = Simulation::new(&body)
        .integrator(tight())
        .output_interval(0.01)
        .run(0.0, q0, qd0, 4.0)
        .unwrap();
    // Translations move the centre and keep the orientation; the rotation about z moves
    // both (δφ = 1 with δx = −y, δy = x). Λ_z includes the spin R Θ ω, which tumbles: it
    // is conserved only if the spin is right.
    assert_eq!(
        theorem_integrals(&run),
        [
            "momentum_x",
            "momentum_y",
            "momentum_z",
            "angular_momentum_z"
        ]
    );
    for name in theorem_integrals(&run) {
        let invariant = run.invariant(name).unwrap();
        assert!(invariant.drift() < 1e-9, "{name}: {}", invariant.drift());
    }
    moment_of_inertia_grows_by_twice_the_virial(&body, &run);
    // The points' spread about the centre of mass, Σ m ρ² = (A + B + C)/2, is in I; the
    // energy is all kinetic.
    let (q, qd) = (&run.q()[0], &run.qd()[0]);
    let functions = body.dynamic_functions(0.0, q, qd).unwrap();
    let centre = q.fixed_rows::<3>(0).norm_squared();
    let spread = (body.A + body.B + body.C) / 2.0;
    assert!((functions.moment_of_inertia - (body.m * centre + spread)).abs() < 1e-14);
    assert!((functions.kinetic_energy - body.energy(0.0, q, qd)).abs() < 1e-14);
}

#[test]
fn the_angular_momentum_of_a_top_is_the_momentum_of_its_precession() {
    let top = HeavyTop {
        m: 1.0,
        l: 0.5,
        A: 0.6,
        C: 0.4,
        g: 9.81,
    };
    let run = Simulation::new(&top)
        .integrator(tight())
        .output_interval(0.05)
        .run(
            0.0,
            Vector3::new(0.0, 0.4, 0.0),
            Vector3::new(0.3, 0.0, 30.0),
            2.0,
        )
        .unwrap();
    assert_eq!(theorem_integrals(&run), ["angular_momentum_z"]);
    // Λ_z = m r × v + R Θ ω from the body, p_φ = ∂L/∂φ̇ from the Lagrangian: the same
    // number (δφ generates the rotation about z), with the spin making most of it.
    let lz = &run.invariant("angular_momentum_z").unwrap().values;
    let p_phi = &run.invariant("p_phi").unwrap().values;
    for (a, b) in lz.iter().zip(p_phi) {
        assert!((a - b).abs() < 1e-12 * b.abs(), "Λ_z = {a}, p_φ = {b}");
    }
}

/// The double pendulum of two particles.
#[derive(Lagrangian)]
#[lagrangian(
    coordinates(theta1, theta2),
    particle(name = bob1, mass = "m1", position = ["l1*sin(theta1)", "-l1*cos(theta1)"]),
    particle(name = bob2, mass = "m2", position = ["l1*sin(theta1) + l2*sin(theta2)", "-l1*cos(theta1) - l2*cos(theta2)"]),
    gravity = ["0", "-g", "0"],
)]
struct DoublePendulum {
    m1: f64,
    m2: f64,
    l1: f64,
    l2: f64,
    g: f64,
}

#[test]
fn moment_of_inertia_of_a_double_pendulum_grows_by_twice_the_virial() {
    let pendulum = DoublePendulum {
        m1: 1.0,
        m2: 0.5,
        l1: 1.0,
        l2: 0.7,
        g: 9.81,
    };
    let run = Simulation::new(&pendulum)
        .integrator(tight())
        .output_interval(0.002)
        .run(0.0, Vector2::new(1.2, -0.4), Vector2::new(0.0, 2.0), 5.0)
        .unwrap();
    moment_of_inertia_grows_by_twice_the_virial(&pendulum, &run);
    // Rotations about z are admitted (δθ₁ = δθ₂ = 1) but gravity has a moment: a
    // balance law, whose residual vanishes along the motion.
    assert!(theorem_integrals(&run).is_empty());
    let laws = run.balance_laws(&pendulum).unwrap();
    let rotation = laws
        .iter()
        .find(|b| b.theorem.function_name() == "angular_momentum_z")
        .unwrap();
    assert!(rotation.scale() > 1.0);
    assert!(rotation.max_residual() < 1e-11 * rotation.scale());
}

/// A charged particle in a uniform magnetic field along z: the Lorentz force does no
/// work, so the model conserves `T + V` though it is forced.
#[derive(Lagrangian)]
#[lagrangian(
    coordinates(x, y),
    particle(name = ion, mass = "m", position = ["x", "y"]),
    force(x = "b*dot(y)", y = "-b*dot(x)"),
)]
struct Gyrating {
    m: f64,
    b: f64,
}

#[test]
fn a_force_that_does_no_work_keeps_the_energy() {
    let ion = Gyrating { m: 2.0, b: 0.7 };
    let run = Simulation::new(&ion)
        .integrator(tight())
        .run(0.0, Vector2::new(1.0, 0.0), Vector2::new(0.0, 1.5), 10.0)
        .unwrap();
    // The force is no potential's, so the model declares no conserved integral; the
    // kinetic-energy theorem finds T + V (here T) conserved all the same.
    assert_eq!(Gyrating::INFO.conserved, lagrange::Conserved::None);
    let energy = run.invariant("energy").expect("T + V from the theorem");
    assert!((energy.values[0] - 0.5 * 2.0 * 1.5 * 1.5).abs() < 1e-14);
    assert!(energy.drift() < 1e-10, "{}", energy.drift());
    // The force has a moment about z (b (x ẋ + y ẏ)): Λ_z obeys its law, no integral.
    assert!(!theorem_integrals(&run).contains(&"angular_momentum_z"));
}
