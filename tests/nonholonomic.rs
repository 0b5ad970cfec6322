//! Velocity (nonholonomic) constraints `a(t, q)·q̇ + b(t, q) = 0` against closed forms: a
//! knife edge turning at a constant rate along a circle with the centripetal reaction, the
//! Chaplygin sleigh's decay to a straight line (`u = U tanh(m a U t/J + c)`), an upright
//! disk rolling on a circle; a holonomic constraint written on the velocities moves as the
//! holonomic one does; the sleigh's straight motion damping a turn at `−m a U/J` on the
//! constraints' tangent space; what the engine decides: energy conserved, the momenta
//! the constraints' reactions leave alone and none of the others, and the general theorems
//! a skate's blade forbids; and Maggi's equations on independent speeds, without
//! multipliers, giving the multipliers' motion on every system here (the rolling bodies
//! of `tests/rolling.rs` too).

use lagrange::nalgebra::Const;
use lagrange::nalgebra::{Vector2, Vector3, Vector4};
use lagrange::{
    Conserved, ConstrainedSystem, IndependentSpeeds, Integrator, Lagrangian, LagrangianSystem,
    Simulation,
};

fn tight() -> Integrator {
    Integrator::dormand_prince(1e-12, 1e-12)
}

/// A knife edge (a skate) whose blade passes through its centre of mass: the centre may
/// move only along the blade, `ẏ cos θ − ẋ sin θ = 0`.
#[derive(Lagrangian)]
#[lagrangian(
    coordinates(x, y, theta),
    kinetic = "1/2*m*(dot(x)^2 + dot(y)^2) + 1/2*I*dot(theta)^2",
    velocity_constraint = "dot(y)*cos(theta) - dot(x)*sin(theta)"
)]
#[allow(non_snake_case)]
struct KnifeEdge {
    m: f64,
    I: f64,
}

/// The Chaplygin sleigh: the knife edge a distance `a` behind the centre of mass, whose
/// lateral velocity is then `a θ̇`.
#[derive(Lagrangian)]
#[lagrangian(
    coordinates(x, y, theta),
    kinetic = "1/2*m*(dot(x)^2 + dot(y)^2) + 1/2*I*dot(theta)^2",
    velocity_constraint = "dot(y)*cos(theta) - dot(x)*sin(theta) - a*dot(theta)"
)]
#[allow(non_snake_case)]
struct Sleigh {
    m: f64,
    I: f64,
    a: f64,
}

/// An upright disk of radius `R` rolling without slipping: its contact point `(x, y)`
/// moves along the heading `θ` at `R φ̇`.
#[derive(Lagrangian)]
#[lagrangian(
    coordinates(x, y, theta, phi),
    kinetic = "1/2*m*(dot(x)^2 + dot(y)^2) + 1/2*A*dot(theta)^2 + 1/2*C*dot(phi)^2",
    velocity_constraint = "dot(x) - R*cos(theta)*dot(phi)",
    velocity_constraint = "dot(y) - R*sin(theta)*dot(phi)"
)]
#[allow(non_snake_case)]
struct UprightDisk {
    m: f64,
    A: f64,
    C: f64,
    R: f64,
}

/// A pendulum in `(x, y)` held at the length of its start by `x ẋ + y ẏ = 0`, the time
/// derivative of `x² + y² − l²`.
#[derive(Lagrangian)]
#[lagrangian(
    coordinates(x, y),
    kinetic = "1/2*m*(dot(x)^2 + dot(y)^2)",
    potential = "m*g*y",
    velocity_constraint = "x*dot(x) + y*dot(y)"
)]
struct VelocityPendulum {
    m: f64,
    g: f64,
}

/// The same pendulum held by the holonomic constraint.
#[derive(Lagrangian)]
#[lagrangian(
    coordinates(x, y),
    kinetic = "1/2*m*(dot(x)^2 + dot(y)^2)",
    potential = "m*g*y",
    constraint = "x^2 + y^2 - l^2"
)]
struct HolonomicPendulum {
    m: f64,
    g: f64,
    l: f64,
}

#[test]
fn a_knife_edge_turning_at_a_constant_rate_runs_a_circle_against_the_centripetal_reaction() {
    let edge = KnifeEdge { m: 2.0, I: 0.3 };
    let (v, omega) = (1.5_f64, 0.7_f64);
    assert_eq!(KnifeEdge::INFO.conserved, Conserved::Energy);
    // θ's momentum is conserved (no reaction acts on θ); x and y are pushed sideways.
    assert_eq!(KnifeEdge::INFO.cyclic.as_ref(), &[2]);
    let info = &KnifeEdge::INFO.constraints[0];
    assert!(info.on_velocities && info.scleronomic);
    let trajectory = Simulation::new(&edge)
        .integrator(tight())
        .output_interval(0.25)
        .run(0.0, Vector3::zeros(), Vector3::new(v, 0.0, omega), 10.0)
        .unwrap();
    for (k, &t) in trajectory.times().iter().enumerate() {
        let q = trajectory.q()[k];
        let radius = v / omega;
        let expected = Vector3::new(
            radius * (omega * t).sin(),
            radius * (1.0 - (omega * t).cos()),
            omega * t,
        );
        assert!((q - expected).norm() < 1e-9, "t = {t}: {q} vs {expected}");
        // The blade's reaction is the centripetal force m v ω.
        let motion = edge.constrained_motion(t, &q, &trajectory.qd()[k]).unwrap();
        let lambda = motion.multipliers[0];
        assert!((lambda - edge.m * v * omega).abs() < 1e-9, "λ = {lambda}");
    }
    for invariant in trajectory.invariants() {
        assert!(
            invariant.relative_drift() < 1e-10,
            "{}",
            trajectory.drift_table()
        );
    }
}

#[test]
fn the_chaplygin_sleigh_straightens_out_as_the_closed_form_says() {
    let sleigh = Sleigh {
        m: 1.5,
        I: 0.2,
        a: 0.4,
    };
    assert_eq!(Sleigh::INFO.conserved, Conserved::Energy);
    assert!(
        Sleigh::INFO.cyclic.is_empty(),
        "every velocity is constrained"
    );
    // Forward speed u = ẋ cos θ + ẏ sin θ and ω = θ̇: u̇ = a ω², ω̇ = −m a u ω / J with
    // J = I + m a², and E = ½ m u² + ½ J ω². So u = U tanh(k t + c), U = √(2E/m),
    // k = m a U / J, and ω = ω₀ cosh c / cosh(k t + c).
    let (m, a) = (sleigh.m, sleigh.a);
    let j = sleigh.I + m * a * a;
    let (u0, omega0) = (0.3_f64, 2.0_f64);
    let energy = 0.5 * m * u0 * u0 + 0.5 * j * omega0 * omega0;
    let big_u = (2.0 * energy / m).sqrt();
    let (k, c) = (m * a * big_u / j, (u0 / big_u).atanh());
    // From θ = 0: ẋ = u, ẏ = a ω.
    let qd0 = Vector3::new(u0, a * omega0, omega0);
    let trajectory = Simulation::new(&sleigh)
        .integrator(tight())
        .output_interval(0.5)
        .run(0.0, Vector3::zeros(), qd0, 20.0)
        .unwrap();
    for (idx, &t) in trajectory.times().iter().enumerate() {
        let (q, qd) = (trajectory.q()[idx], trajectory.qd()[idx]);
        let u = qd[0] * q[2].cos() + qd[1] * q[2].sin();
        let lateral = qd[1] * q[2].cos() - qd[0] * q[2].sin();
        let (u_exact, omega_exact) = (
            big_u * (k * t + c).tanh(),
            omega0 * c.cosh() / (k * t + c).cosh(),
        );
        assert!((u - u_exact).abs() < 1e-9, "t = {t}: u = {u} vs {u_exact}");
        assert!(
            (qd[2] - omega_exact).abs() < 1e-9,
            "t = {t}: ω = {} vs {omega_exact}",
            qd[2]
        );
        assert!(
            (lateral - a * qd[2]).abs() < 1e-12,
            "the blade slips sideways at t = {t}"
        );
        // The blade's sideways push, λ = m (a ω̇ + u ω) = m u ω I / J.
        let lambda = sleigh.constrained_motion(t, &q, &qd).unwrap().multipliers[0];
        let push = m * u_exact * omega_exact * sleigh.I / j;
        assert!(
            (lambda - push).abs() < 1e-9,
            "t = {t}: λ = {lambda} vs {push}"
        );
    }
    // The straight-line limit: all the energy in the forward motion.
    let (_, _, qd) = trajectory.last().unwrap();
    assert!(qd[2].abs() < 1e-3 * omega0 && (qd.norm() - big_u).abs() < 1e-6 * big_u);
    let drift = trajectory.invariant("energy").unwrap().relative_drift();
    assert!(drift < 1e-10, "{}", trajectory.drift_table());
}

#[test]
fn an_upright_disk_rolls_on_a_circle_at_constant_rates() {
    let disk = UprightDisk {
        m: 1.0,
        A: 0.25,
        C: 0.5,
        R: 0.5,
    };
    assert_eq!(
        UprightDisk::INFO.cyclic.as_ref(),
        &[2],
        "only the heading's momentum"
    );
    let (turn, spin) = (0.8_f64, 3.0_f64);
    let v = disk.R * spin;
    let qd0 = Vector4::new(v, 0.0, turn, spin);
    let trajectory = Simulation::new(&disk)
        .integrator(tight())
        .output_interval(0.5)
        .run(0.0, Vector4::zeros(), qd0, 8.0)
        .unwrap();
    for (k, &t) in trajectory.times().iter().enumerate() {
        let q = trajectory.q()[k];
        let radius = v / turn;
        let expected = Vector4::new(
            radius * (turn * t).sin(),
            radius * (1.0 - (turn * t).cos()),
            turn * t,
            spin * t,
        );
        assert!((q - expected).norm() < 1e-9, "t = {t}: {q} vs {expected}");
        // The ground pushes the contact point towards the centre, m v θ̇; it does not
        // brake the spin.
        let lambda = disk
            .constrained_motion(t, &q, &trajectory.qd()[k])
            .unwrap()
            .multipliers;
        let centripetal = Vector2::new(-(turn * t).sin(), (turn * t).cos()) * (disk.m * v * turn);
        assert!((lambda - centripetal).norm() < 1e-9, "λ = {lambda}");
    }
}

#[test]
fn a_holonomic_constraint_written_on_the_velocities_gives_the_same_motion() {
    let (m, g, l) = (1.2, 9.81, 0.9);
    let theta0: f64 = 1.0;
    let q0 = Vector2::new(l * theta0.sin(), -l * theta0.cos());
    let run = |trajectory: lagrange::Trajectory<Const<2>>| trajectory;
    let by_velocity = run(Simulation::new(&VelocityPendulum { m, g })
        .integrator(tight())
        .output_interval(0.1)
        .run(0.0, q0, Vector2::zeros(), 5.0)
        .unwrap());
    let holonomic = Simulation::new(&HolonomicPendulum { m, g, l })
        .integrator(tight())
        .output_interval(0.1)
        .run(0.0, q0, Vector2::zeros(), 5.0)
        .unwrap();
    assert_eq!(by_velocity.len(), holonomic.len());
    for k in 0..holonomic.len() {
        let (a, b) = (by_velocity.q()[k], holonomic.q()[k]);
        assert!(
            (a - b).norm() < 1e-8,
            "t = {}: {a} vs {b}",
            holonomic.times()[k]
        );
    }
    // The velocity form holds |r| = l only as well as the integration: no projection of
    // positions exists for it.
    let length = by_velocity
        .q()
        .iter()
        .map(|q| (q.norm() - l).abs())
        .fold(0.0, f64::max);
    assert!(length < 1e-9, "|r| − l up to {length:e}");
    let p = VelocityPendulum { m, g };
    assert_eq!(VelocityPendulum::INFO.conserved, Conserved::Energy);
    assert!(p.info().cyclic.is_empty());
}

#[test]
fn the_sleighs_straight_motion_damps_its_turning_at_the_closed_form_rate() {
    // About u = U, ω = 0: ω̇ = −(m a U / J) ω, and nothing else moves away. On the tangent
    // space of the velocity constraint (dimension 2·3 − 1 = 5, the coordinates free) the
    // eigenvalues are −m a U / J and four zeros.
    let sleigh = Sleigh {
        m: 1.5,
        I: 0.2,
        a: 0.4,
    };
    let big_u = 1.3;
    let rate = sleigh.m * sleigh.a * big_u / (sleigh.I + sleigh.m * sleigh.a * sleigh.a);
    let linearization = lagrange::linearize_constrained(
        &sleigh,
        0.0,
        &Vector3::zeros(),
        &Vector3::new(big_u, 0.0, 0.0),
    )
    .unwrap();
    assert_eq!(linearization.tangent.as_ref().unwrap().ncols(), 5);
    let mut eigenvalues = linearization.eigenvalues().unwrap();
    eigenvalues.sort_by(|a, b| a.re.total_cmp(&b.re));
    assert!(
        (eigenvalues[0].re + rate).abs() < 1e-9 * rate,
        "{eigenvalues:?}"
    );
    for l in &eigenvalues[1..] {
        assert!(l.norm() < 1e-7 * rate, "{eigenvalues:?}");
    }
    // Its normal modes about rest are refused, with the reason.
    let error = lagrange::constrained_normal_modes(&sleigh, 0.0, &Vector3::zeros()).unwrap_err();
    assert!(
        error.to_string().contains("is on the velocities"),
        "{error}"
    );
}

/// Two equal point masses a rod `l` apart, the first on a skate's blade along the rod.
#[derive(Lagrangian)]
#[lagrangian(
    coordinates(x, y, theta),
    particle(name = blade, mass = "m", position = ["x", "y", "0"]),
    particle(name = tip, mass = "m", position = ["x + l*cos(theta)", "y + l*sin(theta)", "0"]),
    velocity_constraint = "dot(y)*cos(theta) - dot(x)*sin(theta)"
)]
struct Skate {
    m: f64,
    l: f64,
}

#[test]
fn the_general_theorems_know_what_the_blade_forbids() {
    let theorem = |name: &str| {
        Skate::INFO
            .theorems
            .iter()
            .find(|t| t.theorem.function_name() == name)
            .unwrap()
    };
    for (name, what) in [
        ("momentum_x", "a translation along x"),
        ("momentum_y", "a translation along y"),
        ("angular_momentum_z", "a rotation about the z axis"),
    ] {
        let verdict = theorem(name);
        assert!(!verdict.holds, "{name}");
        assert_eq!(
            verdict.why,
            format!("constraint 1 (`dot(y)*cos(theta) - dot(x)*sin(theta)`) does not admit {what}")
        );
    }
    let energy = theorem("kinetic_energy");
    assert!(energy.holds && energy.integral);
    // And along a run: the energy is kept, the momentum along x is not.
    let skate = Skate { m: 1.0, l: 0.5 };
    let trajectory = Simulation::new(&skate)
        .integrator(tight())
        .run(0.0, Vector3::zeros(), Vector3::new(1.0, 0.0, 2.0), 3.0)
        .unwrap();
    assert!(trajectory.invariant("energy").unwrap().relative_drift() < 1e-10);
    let momentum_x = |k: usize| {
        let (q, qd) = (trajectory.q()[k], trajectory.qd()[k]);
        2.0 * skate.m * qd[0] - skate.m * skate.l * q[2].sin() * qd[2]
    };
    let spread = (0..trajectory.len())
        .map(|k| (momentum_x(k) - momentum_x(0)).abs())
        .fold(0.0, f64::max);
    assert!(spread > 0.1, "P_x moved by only {spread}");
}

mod speeds_agree;

use speeds_agree::{Sample, maggi_agrees};

#[test]
fn maggis_equations_on_independent_speeds_give_the_multipliers_motion() {
    let plane = |s: &mut Sample| Vector3::new(s.next(), s.next(), 3.0 * s.next());
    maggi_agrees(&KnifeEdge { m: 2.0, I: 0.3 }, &["x", "theta"], plane);
    maggi_agrees(
        &Sleigh {
            m: 2.0,
            I: 0.3,
            a: 0.4,
        },
        &["theta", "y"],
        plane,
    );
    let disk = UprightDisk {
        m: 1.5,
        A: 0.2,
        C: 0.4,
        R: 0.3,
    };
    maggi_agrees(&disk, &["theta", "phi"], |s| {
        Vector4::new(s.next(), s.next(), 3.0 * s.next(), 3.0 * s.next())
    });
    // Holonomic in velocity form: x ẋ + y ẏ = 0 off the circle too.
    let pendulum = VelocityPendulum { m: 1.0, g: 9.81 };
    maggi_agrees(&pendulum, &["x"], |s| {
        Vector2::new(1.0 + s.next(), 2.0 + s.next())
    });
}

#[test]
fn independent_speeds_the_constraints_cannot_complete_are_refused() {
    let skate = KnifeEdge { m: 2.0, I: 0.3 };
    // The blade ẏ cos θ − ẋ sin θ = 0 says nothing about θ̇.
    let speeds = IndependentSpeeds::named(&skate, &["x", "y"]).unwrap();
    let q = Vector3::new(0.0, 0.0, 0.4);
    let error = speeds.basis(&skate, 0.0, &q).unwrap_err();
    assert!(
        matches!(&error, lagrange::Error::DependentSpeeds { dependent, .. } if dependent == &["theta"])
    );
    assert!(
        error.to_string().contains("velocities of `theta`"),
        "{error}"
    );
    // Along x the blade fixes ẏ = ẋ tan θ, except across it: at θ = π/2 it cannot.
    let speeds = IndependentSpeeds::named(&skate, &["x", "theta"]).unwrap();
    let across = Vector3::new(0.0, 0.0, std::f64::consts::FRAC_PI_2);
    assert!(speeds.basis(&skate, 0.0, &across).is_err());
    assert!(
        speeds
            .accelerations(&skate, 0.0, &across, &Vector3::zeros())
            .is_err()
    );
    for (names, says) in [
        (&["x"][..], "2 independent speeds, not 1"),
        (&["x", "x"][..], "named twice"),
        (&["x", "z"][..], "`z` is not a coordinate"),
    ] {
        let error = IndependentSpeeds::named(&skate, names).unwrap_err();
        assert!(error.to_string().contains(says), "{names:?}: {error}");
    }
}
