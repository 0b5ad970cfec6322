//! Least and varying action (Thomson & Tait §§326–330) on derived models, against closed
//! forms: the projectile through two points at a given energy (the low and the high aim,
//! of which only the low one has least action, T&T §327), and in a given time; the kinetic
//! foci of a circular Kepler orbit; a pendulum between two angles by several motions.

use lagrange::nalgebra::{Complex, Const};
use std::f64::consts::PI;

use lagrange::nalgebra::{Vector1, Vector2};
use lagrange::{Connect, Lagrangian, LagrangianSystem, Motion};

#[derive(Lagrangian)]
#[lagrangian(
    coordinates(x, y),
    kinetic = "1/2*m*(dot(x)^2 + dot(y)^2)",
    potential = "m*g*y"
)]
struct Projectile {
    m: f64,
    g: f64,
}

#[derive(Lagrangian)]
#[lagrangian(
    coordinates(r, phi),
    kinetic = "1/2*m*(dot(r)^2 + r^2*dot(phi)^2)",
    potential = "-mu*m/r"
)]
struct Kepler {
    m: f64,
    mu: f64,
}

#[derive(Lagrangian)]
#[lagrangian(
    coordinates(theta),
    kinetic = "1/2*m*l^2*dot(theta)^2",
    potential = "-m*g*l*cos(theta)"
)]
struct Pendulum {
    m: f64,
    g: f64,
    l: f64,
}

const G: f64 = 9.81;

/// Every relation of a motion holds to `tolerance`, relative to the size of its terms.
fn relations_hold<const N: usize>(m: &Motion<Const<N>>, tolerance: f64) {
    for r in &m.relations {
        let scale = 1.0 + r.expected.abs() + r.computed.abs();
        assert!(
            r.difference().abs() < tolerance * scale,
            "{} = {}: computed {}, expected {}",
            r.derivative,
            r.law,
            r.computed,
            r.expected
        );
    }
}

#[test]
fn a_projectile_reaches_a_point_at_a_given_energy_by_a_low_and_a_high_path() {
    let (m, v) = (2.0_f64, 12.0_f64);
    let sys = Projectile { m, g: G };
    let target = Vector2::new(9.0, 2.0);
    let (x, y) = (target[0], target[1]);
    let e = 0.5 * m * v * v;
    let motions = Connect::at_energy(&sys, Vector2::zeros(), target, e)
        .solve()
        .unwrap();
    assert_eq!(motions.len(), 2, "two aims reach the point");
    // tan α = (v² ± √(v⁴ − g (g x² + 2 y v²))) / (g x): low aim first, by its action.
    let root = (v.powi(4) - G * (G * x * x + 2.0 * y * v * v)).sqrt();
    for (motion, sign) in motions.iter().zip([-1.0, 1.0]) {
        let alpha = ((v * v + sign * root) / (G * x)).atan();
        let velocity = Vector2::new(v * alpha.cos(), v * alpha.sin());
        assert!(
            (motion.initial_velocity - velocity).norm() < 1e-9 * v,
            "{alpha}"
        );
        let tau = x / (v * alpha.cos());
        assert!((motion.time - tau).abs() < 1e-10 * tau);
        // A = ∫ m |ṙ|² dt = m ∫ (v² − 2 g y(t)) dt, y(t) = v sin α t − g t²/2.
        let height = v * alpha.sin() * tau * tau / 2.0 - G * tau.powi(3) / 6.0;
        let action = m * (v * v * tau - 2.0 * G * height);
        assert!(
            (motion.action - action).abs() < 1e-10 * action,
            "{} vs {action}",
            motion.action
        );
        relations_hold(motion, 1e-8);
        let by_energy = motion
            .relations
            .iter()
            .find(|r| r.derivative == "∂A/∂E")
            .unwrap();
        assert!((by_energy.computed - tau).abs() < 1e-8 * tau);
        // The path touches the envelope of the paths of this energy, y = v²/2g − g x²/2v²,
        // at x = v²/(g tan α), t = v/(g sin α): the kinetic focus of the start.
        let focus = v / (G * alpha.sin());
        if sign < 0.0 {
            assert!(
                focus > tau && motion.is_least(),
                "the low aim has least action"
            );
        } else {
            assert!(
                focus < tau && !motion.is_least(),
                "the high aim passes a focus"
            );
            assert_eq!(motion.foci.len(), 1, "{:?}", motion.foci);
            assert!(
                (motion.foci[0].time - focus).abs() < 1e-9 * focus,
                "{:?} vs {focus}",
                motion.foci
            );
        }
    }
    assert!(motions[0].action < motions[1].action);
}

#[test]
fn a_projectile_in_a_given_time_has_the_closed_form_principal_function() {
    let m = 0.5;
    let sys = Projectile { m, g: G };
    let (target, tau) = (Vector2::new(4.0, -1.0), 0.8_f64);
    let motions = Connect::in_time(&sys, Vector2::zeros(), target, tau)
        .solve()
        .unwrap();
    assert_eq!(motions.len(), 1);
    let motion = &motions[0];
    let (vx, vy) = (target[0] / tau, target[1] / tau + G * tau / 2.0);
    assert!((motion.initial_velocity - Vector2::new(vx, vy)).norm() < 1e-10 * vy.abs());
    // S = ∫ (½ m (vx² + (vy − g t)²) − m g (vy t − g t²/2)) dt.
    let kinetic =
        0.5 * m * (vx * vx * tau + vy * vy * tau - vy * G * tau * tau + G * G * tau.powi(3) / 3.0);
    let potential = m * G * (vy * tau * tau / 2.0 - G * tau.powi(3) / 6.0);
    let s = kinetic - potential;
    assert!(
        (motion.principal - s).abs() < 1e-10 * s.abs(),
        "{} vs {s}",
        motion.principal
    );
    relations_hold(motion, 1e-9);
    // ∂q(t)/∂q̇₀ = t I never vanishes again: no focus at any time.
    assert!(motion.is_least());
}

/// `8 (1 − cos θ) − 3 θ sin θ`: `ω² det ∂(r, R φ)/∂q̇₀` along a circular orbit, from
/// Hill's equations of the motion near it.
fn circular_focus_function(theta: f64) -> f64 {
    8.0 * (1.0 - theta.cos()) - 3.0 * theta * theta.sin()
}

/// The zero of `f` between `a` and `b`, by bisection.
fn bisect(f: impl Fn(f64) -> f64, mut a: f64, mut b: f64) -> f64 {
    for _ in 0..200 {
        let mid = 0.5 * (a + b);
        if f(mid).signum() == f(a).signum() {
            a = mid;
        } else {
            b = mid;
        }
    }
    0.5 * (a + b)
}

#[test]
fn a_circular_orbits_kinetic_foci_are_at_a_period_and_where_hills_equations_put_them() {
    let (m, mu, radius) = (1.0_f64, 4.0_f64, 2.0_f64);
    let sys = Kepler { m, mu };
    let omega = (mu / radius.powi(3)).sqrt();
    let period = 2.0 * PI / omega;
    let tau = 1.5 * period;
    let from = Vector2::new(radius, 0.0);
    let to = Vector2::new(radius, omega * tau);
    let motions = Connect::in_time(&sys, from, to, tau)
        .starts([Vector2::new(0.0, omega)])
        .solve()
        .unwrap();
    let orbit = &motions[0];
    assert!((orbit.initial_velocity - Vector2::new(0.0, omega)).norm() < 1e-9);
    relations_hold(orbit, 1e-8);
    let second = bisect(circular_focus_function, 2.2 * PI, 2.9 * PI) / omega;
    assert_eq!(orbit.foci.len(), 2, "{:?}", orbit.foci);
    assert!(
        (orbit.foci[0].time - period).abs() < 1e-8 * period,
        "{:?}",
        orbit.foci
    );
    assert!(
        (orbit.foci[1].time - second).abs() < 1e-8 * period,
        "{:?} vs {second}",
        orbit.foci
    );
    // At the orbit's energy the neighbours of the same energy meet it at the antipode:
    // the line from the start through the empty focus, here the centre.
    let energy = -mu * m / (2.0 * radius);
    let to = Vector2::new(radius, 1.5 * PI);
    let motions = Connect::at_energy(&sys, from, to, energy)
        .starts([Vector2::new(0.0, omega)])
        .solve()
        .unwrap();
    let orbit = &motions[0];
    assert!((orbit.time - 1.5 * PI / omega).abs() < 1e-9 * period);
    relations_hold(orbit, 1e-8);
    assert_eq!(orbit.foci.len(), 1, "{:?}", orbit.foci);
    assert!(
        (orbit.foci[0].time - PI / omega).abs() < 1e-8 * period,
        "{:?}",
        orbit.foci
    );
}

#[test]
fn a_pendulum_joins_two_angles_by_several_motions() {
    let sys = Pendulum {
        m: 1.0,
        g: G,
        l: 1.0,
    };
    let (from, to, tau) = (Vector1::new(0.3), Vector1::new(-0.2), 3.0);
    // Swinging and whirling over the top once or twice each way.
    let starts = [-9.0, -6.0, -3.0, -1.0, 1.0, 3.0, 6.0, 9.0].map(Vector1::new);
    let motions = Connect::in_time(&sys, from, to, tau)
        .starts(starts)
        .solve()
        .unwrap();
    assert!(motions.len() >= 3, "found {}", motions.len());
    for (k, m) in motions.iter().enumerate() {
        relations_hold(m, 1e-8);
        let (t, q, _) = m.path.last().unwrap();
        assert!(
            (t - tau).abs() < 1e-14 && (q[0] - to[0]).abs() < 1e-10,
            "motion {k}"
        );
        // Its energy is conserved along the path, to the integration's accuracy.
        let energies = m.path.iter().map(|(t, q, qd)| sys.energy(*t, q, qd));
        assert!(energies.map(|e| (e - m.energy).abs()).fold(0.0, f64::max) < 1e-8);
    }
    assert!(motions.windows(2).all(|w| w[0].principal <= w[1].principal));
}

#[derive(Lagrangian)]
#[lagrangian(
    coordinates(x, y),
    kinetic = "1/2*m*(dot(x)^2 + dot(y)^2)",
    potential = "1/2*m*w^2*(x^2 + y^2)"
)]
struct Isotropic {
    m: f64,
    w: f64,
}

#[derive(Lagrangian)]
#[lagrangian(
    coordinates(x, y),
    lagrangian = "1/2*m*(dot(x)^2 + dot(y)^2) + 1/2*m*w*(x*dot(y) - y*dot(x))"
)]
struct Magnetic {
    m: f64,
    w: f64,
}

#[derive(Lagrangian)]
#[lagrangian(
    coordinates(theta, phi),
    kinetic = "1/2*m*r^2*(dot(theta)^2 + sin(theta)^2*dot(phi)^2)"
)]
struct Sphere {
    m: f64,
    r: f64,
}

/// `∫ L dt` along a motion's path for the path moved by `ε η(t)`, by Simpson's rule over
/// its (even number of) steps.
fn perturbed_action<S: LagrangianSystem<Const<2>>>(
    sys: &S,
    m: &Motion<Const<2>>,
    eta: impl Fn(f64) -> (Vector2<f64>, Vector2<f64>),
) -> f64 {
    let values: Vec<f64> = m
        .path
        .iter()
        .map(|(t, q, qd)| {
            let (e, e_dot) = eta(*t);
            sys.lagrangian(*t, &(q + e), &(qd + e_dot))
        })
        .collect();
    let steps = values.len() - 1;
    assert_eq!(steps % 2, 0);
    let h = m.time / steps as f64;
    (0..steps)
        .step_by(2)
        .map(|i| h / 3.0 * (values[i] + 4.0 * values[i + 1] + values[i + 2]))
        .sum()
}

#[test]
fn past_half_a_period_the_isotropic_oscillators_double_focus_makes_the_action_only_stationary() {
    // x(t) = x₀ cos ωt + ẋ₀ sin(ωt)/ω in each coordinate: ∂q(t)/∂q̇₀ = sin(ωt)/ω I, whose
    // determinant (sin ωt/ω)² does not change sign at its double zero t = π/ω.
    let (m, w) = (1.0, 1.0);
    let sys = Isotropic { m, w };
    let (from, to) = (Vector2::new(1.0, 0.0), Vector2::new(0.5, 0.8));
    for tau in [2.0, 4.0] {
        let motions = Connect::in_time(&sys, from, to, tau).solve().unwrap();
        assert_eq!(
            motions.len(),
            1,
            "τ = {tau}: a linear system has one motion"
        );
        let motion = &motions[0];
        let (s, c) = ((w * tau).sin(), (w * tau).cos());
        let velocity = (to - from * c) * (w / s);
        assert!(
            (motion.initial_velocity - velocity).norm() < 1e-9,
            "τ = {tau}"
        );
        // S = Σ m ω/(2 sin ωτ) ((q₀² + q₁²) cos ωτ − 2 q₀ q₁), coordinate by coordinate.
        let principal = (0..2)
            .map(|i| {
                m * w / (2.0 * s) * ((from[i].powi(2) + to[i].powi(2)) * c - 2.0 * from[i] * to[i])
            })
            .sum::<f64>();
        assert!(
            (motion.principal - principal).abs() < 1e-9 * principal.abs(),
            "τ = {tau}: {} vs {principal}",
            motion.principal
        );
        relations_hold(motion, 1e-8);
        if tau < PI / w {
            assert!(motion.is_least() && motion.foci.is_empty(), "τ = {tau}");
            continue;
        }
        assert!(!motion.is_least(), "τ = {tau} > π/ω: only stationary");
        focus_of_multiplicity(motion, PI / w, 2);
        // A nearby path with the same ends has less action: S[q + εη] − S[q] =
        // ε² m τ/4 ((π/τ)² − ω²) for η = sin(πt/τ) along x.
        let eps = 1e-2;
        let k = PI / tau;
        let perturbed = perturbed_action(&sys, motion, |t| {
            (
                Vector2::new(eps * (k * t).sin(), 0.0),
                Vector2::new(eps * k * (k * t).cos(), 0.0),
            )
        });
        let second = eps * eps * m * tau / 4.0 * (k * k - w * w);
        assert!(second < 0.0);
        let change = perturbed - motion.principal;
        assert!(
            (change - second).abs() < 1e-6 * second.abs(),
            "{change} vs {second}"
        );
    }
}

/// `z = x + i y` of a vector.
fn complex(v: Vector2<f64>) -> Complex<f64> {
    Complex::new(v[0], v[1])
}

#[test]
fn a_charged_particle_in_a_magnetic_field_passes_its_double_focus_after_one_turn() {
    // m z̈ = −i m ω ż, z = x + i y: z(t) = z₀ + ż₀ (1 − e^{−iωt})/(iω), so ∂q(t)/∂q̇₀ is
    // (2 sin(ωt/2)/ω) times a rotation, singular (twice) at 2π/ω = 4.488 for ω = 1.4.
    let (m, w) = (1.0, 1.4);
    let sys = Magnetic { m, w };
    let (from, to) = (Vector2::new(0.3, -0.2), Vector2::new(0.5, 0.4));
    let (z0, z1) = (complex(from), complex(to));
    let i = Complex::new(0.0, 1.0);
    let turn = 2.0 * PI / w;
    for tau in [3.0, 6.0, 7.5] {
        let motions = Connect::in_time(&sys, from, to, tau).solve().unwrap();
        assert_eq!(
            motions.len(),
            1,
            "τ = {tau}: a linear system has one motion"
        );
        let motion = &motions[0];
        let v0 = (z1 - z0) * i * w / (1.0 - (-i * w * tau).exp());
        assert!(
            (complex(motion.initial_velocity) - v0).norm() < 1e-9,
            "τ = {tau}: {:?} vs {v0}",
            motion.initial_velocity
        );
        // z = C + B e^{−iωt} with the centre C = z₀ + ż₀/(iω): S = −½ m ω Im(C̄ (z₀ − z₁)).
        let centre = z0 + v0 / (i * w);
        let principal = -0.5 * m * w * (centre.conj() * (z0 - z1)).im;
        assert!(
            (motion.principal - principal).abs() < 1e-9 * principal.abs(),
            "τ = {tau}: {} vs {principal}",
            motion.principal
        );
        relations_hold(motion, 1e-8);
        if tau < turn {
            assert!(motion.is_least() && motion.foci.is_empty(), "τ = {tau}");
            continue;
        }
        assert!(!motion.is_least(), "τ = {tau} > 2π/ω: only stationary");
        focus_of_multiplicity(motion, turn, 2);
        // η = sin(πt/τ) e^{−iωt/2}: S[q + εη] − S[q] = ε² m τ/4 ((π/τ)² − (ω/2)²) < 0.
        let (eps, k) = (1e-2, PI / tau);
        let perturbed = perturbed_action(&sys, motion, |t| {
            let (s, s_dot, th) = ((k * t).sin(), k * (k * t).cos(), w * t / 2.0);
            let eta = Vector2::new(s * th.cos(), -s * th.sin());
            let eta_dot = Vector2::new(
                s_dot * th.cos() - s * w / 2.0 * th.sin(),
                -s_dot * th.sin() - s * w / 2.0 * th.cos(),
            );
            (eps * eta, eps * eta_dot)
        });
        let second = eps * eps * m * tau / 4.0 * (k * k - w * w / 4.0);
        assert!(second < 0.0);
        let change = perturbed - motion.principal;
        assert!(
            (change - second).abs() < 1e-6 * second.abs(),
            "{change} vs {second}"
        );
    }
}

/// The unit vector of `(θ, φ)` on the sphere.
fn on_sphere(theta: f64, phi: f64) -> [f64; 3] {
    [
        theta.sin() * phi.cos(),
        theta.sin() * phi.sin(),
        theta.cos(),
    ]
}

#[test]
fn on_a_sphere_every_motion_reported_is_a_great_circle_to_the_target() {
    let (m, r) = (1.0, 1.0);
    let sys = Sphere { m, r };
    let (from, to, tau) = (Vector2::new(0.6, -0.4), Vector2::new(2.0, 1.1), 1.7);
    let motions = Connect::in_time(&sys, from, to, tau).solve().unwrap();
    assert!(!motions.is_empty());
    let (a, b) = (on_sphere(from[0], from[1]), on_sphere(to[0], to[1]));
    let dot = |u: [f64; 3], v: [f64; 3]| u[0] * v[0] + u[1] * v[1] + u[2] * v[2];
    let arc = dot(a, b).acos();
    for motion in &motions {
        // r(t) = r₀ cos(|v|t) + v̂ sin(|v|t), v = θ̇ e_θ + sin θ φ̇ e_φ: a great circle.
        let (th, ph) = (from[0], from[1]);
        let e_theta = [th.cos() * ph.cos(), th.cos() * ph.sin(), -th.sin()];
        let e_phi = [-ph.sin(), ph.cos(), 0.0];
        let (vt, vp) = (
            motion.initial_velocity[0],
            th.sin() * motion.initial_velocity[1],
        );
        let v = [0, 1, 2].map(|k| vt * e_theta[k] + vp * e_phi[k]);
        let speed = dot(v, v).sqrt();
        let angle = speed * tau;
        let end = [0, 1, 2].map(|k| a[k] * angle.cos() + v[k] / speed * angle.sin());
        let miss = [0, 1, 2].map(|k| end[k] - b[k]);
        assert!(
            dot(miss, miss).sqrt() < 1e-8,
            "q̇₀ = {:?} ends at {end:?}, not at {b:?}",
            motion.initial_velocity
        );
        // S = E τ with E = ½ m R² |v|².
        let energy = 0.5 * m * r * r * speed * speed;
        assert!((motion.energy - energy).abs() < 1e-9 * energy);
        assert!(
            (motion.principal - energy * tau).abs() < 1e-8 * energy * tau,
            "q̇₀ = {:?}: S = {} vs E τ = {}",
            motion.initial_velocity,
            motion.principal,
            energy * tau
        );
        // The great circle covers the arc, or the arc plus turns, or the other way round.
        let turns = (angle - arc) / (2.0 * PI);
        let other = (angle + arc) / (2.0 * PI);
        assert!(
            (turns - turns.round()).abs() < 1e-8 || (other - other.round()).abs() < 1e-8,
            "{angle} vs the arc {arc}"
        );
    }
    // The shorter arc is found, with least action (its antipode, a focus, lies beyond).
    let first = &motions[0];
    assert!(first.is_least());
    assert!((first.energy - 0.5 * m * (arc / tau).powi(2)).abs() < 1e-9);
}

/// One focus, at `time`, counted `multiplicity` times.
fn focus_of_multiplicity<const N: usize>(m: &Motion<Const<N>>, time: f64, multiplicity: usize) {
    assert_eq!(m.foci.len(), 1, "{:?}", m.foci);
    assert_eq!(m.foci[0].multiplicity, multiplicity, "{:?}", m.foci);
    assert_eq!(m.index(), multiplicity);
    assert!(
        (m.foci[0].time - time).abs() < 1e-8 * time,
        "{:?} vs {time}",
        m.foci
    );
}
