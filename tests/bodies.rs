//! Particles and rigid bodies: kinetic energies assembled from positions and orientations
//! (ω from ω× = RᵀṘ, the body-frame angular velocity of rigid-body kinematics), against the same systems written by hand.

#[path = "../examples/double_pendulum.rs"]
#[allow(dead_code)]
mod double_pendulum;
#[path = "../examples/furuta_pendulum.rs"]
#[allow(dead_code)]
mod furuta;
#[path = "../examples/heavy_top.rs"]
#[allow(dead_code)]
mod heavy_top;

use double_pendulum::DoublePendulum;
use furuta::Furuta;
use heavy_top::{HeavyTop as BodyTop, HeavyTopReduced};
use lagrange::nalgebra::Const;
use lagrange::nalgebra::{SVector, Vector1, Vector3};
use lagrange::{Check, ConstrainedSystem, Lagrangian, LagrangianSystem, Sample};

/// Residuals `M q̈ − f` of a hand-written system `H` at the accelerations of another.
fn same_equations<H: LagrangianSystem<Const<N>>, const N: usize>(
    hand: &H,
    s: &Sample<Const<N>>,
) -> Vec<f64> {
    let (m, f) = hand.mass_matrix_and_forcing(s.t, &s.q, &s.qd);
    (m * s.qdd - f).iter().copied().collect()
}

/// The double pendulum from its two point masses.
#[derive(Lagrangian)]
#[lagrangian(
    coordinates(theta1, theta2),
    particle(name = bob1, mass = "m1", position = ["l1*sin(theta1)", "-l1*cos(theta1)"]),
    particle(name = bob2, mass = "m2", position = ["l1*sin(theta1) + l2*sin(theta2)", "-l1*cos(theta1) - l2*cos(theta2)"]),
    potential = "g*(m1*bob1.y + m2*bob2.y)",
)]
struct ParticlePendulum {
    m1: f64,
    m2: f64,
    l1: f64,
    l2: f64,
    g: f64,
}

#[test]
fn particles_give_the_double_pendulum() {
    let report = Check::new()
        .all_coordinates(-3.0..3.0)
        .run(|p: &ParticlePendulum, s| {
            let hand = DoublePendulum {
                m1: p.m1,
                m2: p.m2,
                l1: p.l1,
                l2: p.l2,
                g: p.g,
            };
            same_equations(&hand, s)
        })
        .unwrap();
    report.assert_below(1e-12).unwrap();
}

/// The same top from the textbook: `T = ½A(θ̇² + φ̇² sin²θ) + ½C(ψ̇ + φ̇ cos θ)²`,
/// `V = m g l cos θ`, `A` about the fixed point.
#[derive(Lagrangian)]
#[lagrangian(
    coordinates(phi, theta, psi),
    kinetic = "1/2*A*(dot(theta)^2 + dot(phi)^2*sin(theta)^2) + 1/2*C*(dot(psi) + dot(phi)*cos(theta))^2",
    potential = "m*g*l*cos(theta)"
)]
#[allow(non_snake_case)]
struct TextbookTop {
    m: f64,
    l: f64,
    A: f64,
    C: f64,
    g: f64,
}

#[test]
fn a_top_declared_as_a_body_has_the_textbook_equations() {
    assert_eq!(
        BodyTop::INFO.cyclic,
        TextbookTop::INFO.cyclic,
        "φ and ψ are cyclic in both"
    );
    let report = Check::new()
        .coordinate("theta", 0.3..2.8)
        .parameter("A", 2.5..4.0) // A > m l² so the inertia about the centre is positive
        .parameter("l", 0.5..1.0)
        .parameter("m", 0.5..1.0)
        .run(|p: &BodyTop, s| {
            same_equations(
                &TextbookTop {
                    m: p.m,
                    l: p.l,
                    A: p.A,
                    C: p.C,
                    g: p.g,
                },
                s,
            )
        })
        .unwrap();
    report.assert_below(1e-11).unwrap();
}

/// Thomson & Tait Example C (b), the governor, from two bodies: `m` turning about the
/// fixed axis `z`, and `n` (centre of mass at `N`, at distance `h` from the axis) pivoted
/// about the radial axis `NK` through `N`; `θ` inclines `n`'s principal axis `NE` to the
/// fixed axis. Radii of gyration of `n` about `NK`, the third axis and `NE`: `k`, `f`, `e`.
#[derive(Lagrangian)]
#[lagrangian(
    coordinates(psi, theta),
    body(name = frame, mass = "m", inertia = ["0", "0", "m*j^2"], rotation = about_z(psi), position = ["0", "0", "0"]),
    body(
        name = flyer,
        mass = "n",
        inertia = ["n*k^2", "n*f^2", "n*e^2"],
        rotation = [
            "cos(psi)", "-sin(psi)*cos(theta)", "sin(psi)*sin(theta)",
            "sin(psi)", "cos(psi)*cos(theta)", "-cos(psi)*sin(theta)",
            "0", "sin(theta)", "cos(theta)",
        ],
        position = ["h*cos(psi)", "h*sin(psi)", "0"],
    ),
)]
struct GovernorFromBodies {
    m: f64,
    n: f64,
    j: f64,
    h: f64,
    k: f64,
    e: f64,
    f: f64,
}

/// T&T's kinetic energy of Example C (b).
#[derive(Lagrangian)]
#[lagrangian(
    coordinates(psi, theta),
    kinetic = "1/2*((m*j^2 + n*(h^2 + e^2*cos(theta)^2 + f^2*sin(theta)^2))*dot(psi)^2 + n*k^2*dot(theta)^2)"
)]
struct GovernorTextbook {
    m: f64,
    n: f64,
    j: f64,
    h: f64,
    k: f64,
    e: f64,
    f: f64,
}

#[test]
fn the_governor_from_bodies_has_the_texts_kinetic_energy() {
    let report = Check::new()
        .run(|p: &GovernorFromBodies, s| {
            let hand = GovernorTextbook {
                m: p.m,
                n: p.n,
                j: p.j,
                h: p.h,
                k: p.k,
                e: p.e,
                f: p.f,
            };
            let mut r = same_equations(&hand, s);
            r.push(p.energy(s.t, &s.q, &s.qd) - hand.energy(s.t, &s.q, &s.qd));
            r
        })
        .unwrap();
    report.assert_below(1e-12).unwrap();
}

/// A compound pendulum in the plane, free coordinates `(x, y, θ)` of its centre of mass,
/// pinned at the origin by two constraints: the pivot is at distance `d` from the centre.
#[derive(Lagrangian)]
#[lagrangian(
    coordinates(x, y, theta),
    body(name = bar, mass = "m", inertia = ["0", "0", "I"], rotation = about_z(theta), position = ["x", "y", "0"]),
    potential = "m*g*bar.y",
    constraint = "x - d*sin(theta)",
    constraint = "y + d*cos(theta)",
)]
#[allow(non_snake_case)]
struct PinnedBar {
    m: f64,
    I: f64,
    d: f64,
    g: f64,
}

#[test]
fn the_pivot_reaction_is_the_newton_euler_force() {
    let bar = PinnedBar {
        m: 1.5,
        I: 0.2,
        d: 0.4,
        g: 9.81,
    };
    for (theta, omega) in [(0.3f64, 0.0), (1.2, -2.0), (-2.5, 3.0)] {
        let q = Vector3::new(bar.d * theta.sin(), -bar.d * theta.cos(), theta);
        let qd = Vector3::new(
            bar.d * theta.cos() * omega,
            bar.d * theta.sin() * omega,
            omega,
        );
        bar.check_consistent(0.0, &q, &qd, 1e-12).unwrap();
        // Newton–Euler: (I + m d²) α = −m g d sin θ about the pivot; m a_c = F + R.
        let alpha = -bar.m * bar.g * bar.d * theta.sin() / (bar.I + bar.m * bar.d * bar.d);
        let a_c = Vector3::new(
            bar.d * (alpha * theta.cos() - omega * omega * theta.sin()),
            bar.d * (alpha * theta.sin() + omega * omega * theta.cos()),
            alpha,
        );
        let expected = Vector3::new(bar.m * a_c[0], bar.m * a_c[1] + bar.m * bar.g, 0.0);
        let motion = bar.constrained_motion(0.0, &q, &qd).unwrap();
        assert!(
            (motion.accelerations - a_c).norm() < 1e-12,
            "{} vs {a_c}",
            motion.accelerations
        );
        let total: SVector<f64, 3> = bar.reactions(0.0, &q, &qd).unwrap().column_sum();
        // The reaction's generalized components (x, y): the pivot force. Its θ component is
        // the moment of that force about the centre of mass, I α + … (the couple balance).
        assert!(
            (total.fixed_rows::<2>(0) - expected.fixed_rows::<2>(0)).norm() < 1e-12,
            "{total} vs {expected}"
        );
        let torque = bar.I * alpha;
        assert!(
            (total[2] - torque).abs() < 1e-12,
            "{} vs {torque}",
            total[2]
        );
    }
    let _ = Vector1::new(0.0);
}

#[test]
fn the_tops_reduced_nutation_equation_is_the_classical_one() {
    // With p_φ, p_ψ constant: φ̇ = (p_φ − p_ψ cos θ)/(A sin²θ) and
    // A θ̈ = A φ̇² sin θ cos θ − p_ψ φ̇ sin θ + m g l sin θ.
    let report = Check::new()
        .coordinate("theta", 0.3..2.8)
        .parameter("A", 2.5..4.0)
        .parameter("l", 0.5..1.0)
        .parameter("m", 0.5..1.0)
        .parameter("p_phi", -2.0..2.0)
        .parameter("p_psi", -2.0..2.0)
        .run(|p: &HeavyTopReduced, s| {
            let (sn, cs) = s.q[0].sin_cos();
            let phi_dot = (p.p_phi - p.p_psi * cs) / (p.A * sn * sn);
            vec![
                p.A * s.qdd[0] - p.A * phi_dot * phi_dot * sn * cs + p.p_psi * phi_dot * sn
                    - p.m * p.g * p.l * sn,
            ]
        })
        .unwrap();
    report.assert_below(1e-10).unwrap();
}

/// The Furuta pendulum as the literature writes it (Cazzolato & Prime, "On the dynamics
/// of the Furuta pendulum", 2011, slender arm):
/// `T = ½ (J₀ + J₂ sin²θ₂) θ̇₁² − m L l cos θ₂ θ̇₁ θ̇₂ + ½ J₂ θ̇₂²`, `V = m g l cos θ₂`, with
/// `J₀ = M L²/3 + m L²` the arm's and the pendulum's inertia about the vertical axis and
/// `J₂ = J + m l²` the pendulum's about its pivot. (The coupling's sign is that of `θ₂`
/// turning about the arm's outward axis: the pendulum then tips against `θ₁`'s sense.)
#[derive(Lagrangian)]
#[lagrangian(
    coordinates(theta1, theta2),
    kinetic = "1/2*(M*L^2/3 + m*L^2 + (J + m*l^2)*sin(theta2)^2)*dot(theta1)^2 - m*L*l*cos(theta2)*dot(theta1)*dot(theta2) + 1/2*(J + m*l^2)*dot(theta2)^2",
    potential = "m*g*l*cos(theta2)"
)]
#[allow(non_snake_case)]
struct FurutaTextbook {
    M: f64,
    m: f64,
    L: f64,
    l: f64,
    J: f64,
    g: f64,
}

/// The same pendulum with its orientation as an explicit matrix `R_z(θ₁) R_x(θ₂)`, so
/// that its angular velocity comes from `ω× = RᵀṘ` instead of the composition.
#[derive(Lagrangian)]
#[lagrangian(
    coordinates(theta1, theta2),
    body(name = arm, mass = "M", inertia = ["0", "M*L^2/12", "M*L^2/12"], rotation = about_z(theta1),
         position = ["L/2*cos(theta1)", "L/2*sin(theta1)", "0"]),
    body(name = pendulum, mass = "m", inertia = ["J", "J", "0"],
         rotation = ["cos(theta1)", "-sin(theta1)*cos(theta2)", "sin(theta1)*sin(theta2)",
                     "sin(theta1)", "cos(theta1)*cos(theta2)", "-cos(theta1)*sin(theta2)",
                     "0", "sin(theta2)", "cos(theta2)"],
         position = ["L*cos(theta1) + l*sin(theta1)*sin(theta2)", "L*sin(theta1) - l*cos(theta1)*sin(theta2)", "l*cos(theta2)"]),
    potential = "m*g*pendulum.z",
)]
#[allow(non_snake_case)]
struct FurutaMatrix {
    M: f64,
    m: f64,
    L: f64,
    l: f64,
    J: f64,
    g: f64,
}

#[test]
fn a_composed_rotation_gives_the_furuta_pendulum_of_the_literature() {
    let report = Check::new()
        .all_coordinates(-3.0..3.0)
        .run(|p: &Furuta, s| {
            let textbook = FurutaTextbook {
                M: p.M,
                m: p.m,
                L: p.L,
                l: p.l,
                J: p.J,
                g: p.g,
            };
            let matrix = FurutaMatrix {
                M: p.M,
                m: p.m,
                L: p.L,
                l: p.l,
                J: p.J,
                g: p.g,
            };
            let mut r = same_equations(&textbook, s);
            r.extend(same_equations(&matrix, s));
            r
        })
        .unwrap();
    report.assert_below(1e-12).unwrap();
}

/// A body turned by `about_z(a) * about_y(b) * about_x(c)` (yaw, pitch, roll) against the
/// same product written as a matrix, with a full inertia tensor.
#[derive(Lagrangian)]
#[lagrangian(
    coordinates(a, b, c),
    body(name = craft, mass = "m", inertia = ["A", "B", "C", "D", "E", "F"],
         rotation = about_z(a) * about_y(b) * about_x(c), position = ["0", "0", "0"]),
)]
#[allow(non_snake_case)]
struct Tumbler {
    m: f64,
    A: f64,
    B: f64,
    C: f64,
    D: f64,
    E: f64,
    F: f64,
}

#[derive(Lagrangian)]
#[lagrangian(
    coordinates(a, b, c),
    body(name = craft, mass = "m", inertia = ["A", "B", "C", "D", "E", "F"],
         rotation = ["cos(a)*cos(b)", "cos(a)*sin(b)*sin(c) - sin(a)*cos(c)", "cos(a)*sin(b)*cos(c) + sin(a)*sin(c)",
                     "sin(a)*cos(b)", "sin(a)*sin(b)*sin(c) + cos(a)*cos(c)", "sin(a)*sin(b)*cos(c) - cos(a)*sin(c)",
                     "-sin(b)", "cos(b)*sin(c)", "cos(b)*cos(c)"],
         position = ["0", "0", "0"]),
)]
#[allow(non_snake_case)]
struct TumblerMatrix {
    m: f64,
    A: f64,
    B: f64,
    C: f64,
    D: f64,
    E: f64,
    F: f64,
}

#[test]
fn yaw_pitch_roll_composed_equals_the_matrix() {
    let report = Check::new()
        .all_coordinates(-1.2..1.2)
        .run(|p: &Tumbler, s| {
            let matrix = TumblerMatrix {
                m: p.m,
                A: p.A,
                B: p.B,
                C: p.C,
                D: p.D,
                E: p.E,
                F: p.F,
            };
            same_equations(&matrix, s)
        })
        .unwrap();
    report.assert_below(1e-11).unwrap();
}

#[test]
fn the_upright_furuta_pendulum_falls_at_the_closed_form_rate() {
    // The upright linearization of the textbook equations: λ² = m g l J₀ / (J₀ J₂ − (m L l)²).
    let p = Furuta {
        M: 0.3,
        m: 0.1,
        L: 0.2,
        l: 0.15,
        J: 0.00075,
        g: 9.81,
    };
    let upright = lagrange::linearize(&p, 0.0, &SVector::zeros(), &SVector::zeros()).unwrap();
    let (j0, j2) = (
        p.M * p.L * p.L / 3.0 + p.m * p.L * p.L,
        p.J + p.m * p.l * p.l,
    );
    let rate = (p.m * p.g * p.l * j0 / (j0 * j2 - (p.m * p.L * p.l).powi(2))).sqrt();
    let fastest = upright
        .eigenvalues()
        .unwrap()
        .iter()
        .map(|l| l.re)
        .fold(f64::MIN, f64::max);
    assert!((fastest - rate).abs() < 1e-10 * rate, "{fastest} vs {rate}");
}

/// The double pendulum of [`ParticlePendulum`], its potential from `gravity`.
#[derive(Lagrangian)]
#[lagrangian(
    coordinates(theta1, theta2),
    particle(name = bob1, mass = "m1", position = ["l1*sin(theta1)", "-l1*cos(theta1)"]),
    particle(name = bob2, mass = "m2", position = ["l1*sin(theta1) + l2*sin(theta2)", "-l1*cos(theta1) - l2*cos(theta2)"]),
    gravity = ["0", "-g", "0"],
)]
struct FieldPendulum {
    m1: f64,
    m2: f64,
    l1: f64,
    l2: f64,
    g: f64,
}

/// The Furuta pendulum of the example, its potential from a field along `−z`, against
/// the literature's.
#[derive(Lagrangian)]
#[lagrangian(
    coordinates(theta1, theta2),
    body(name = arm, mass = "M", inertia = ["0", "M*L^2/12", "M*L^2/12"], rotation = about_z(theta1),
         position = ["L/2*cos(theta1)", "L/2*sin(theta1)", "0"]),
    body(name = pendulum, mass = "m", inertia = ["J", "J", "0"], rotation = about_z(theta1) * about_x(theta2),
         position = ["L*cos(theta1) + l*sin(theta1)*sin(theta2)", "L*sin(theta1) - l*cos(theta1)*sin(theta2)", "l*cos(theta2)"]),
    gravity = ["0", "0", "-g"],
)]
#[allow(non_snake_case)]
struct FieldFuruta {
    M: f64,
    m: f64,
    L: f64,
    l: f64,
    J: f64,
    g: f64,
}

#[test]
fn gravity_is_the_potential_of_every_particle_and_body() {
    let report = Check::new()
        .all_coordinates(-3.0..3.0)
        .run(|p: &FieldPendulum, s| {
            let hand = DoublePendulum {
                m1: p.m1,
                m2: p.m2,
                l1: p.l1,
                l2: p.l2,
                g: p.g,
            };
            same_equations(&hand, s)
        })
        .unwrap();
    report.assert_below(1e-12).unwrap();
    let report = Check::new()
        .all_coordinates(-3.0..3.0)
        .run(|p: &FieldFuruta, s| {
            let textbook = FurutaTextbook {
                M: p.M,
                m: p.m,
                L: p.L,
                l: p.l,
                J: p.J,
                g: p.g,
            };
            same_equations(&textbook, s)
        })
        .unwrap();
    report.assert_below(1e-12).unwrap();
}
