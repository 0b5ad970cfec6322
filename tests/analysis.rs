//! Linearization, equilibria, stability and normal modes of derived models against closed
//! forms: the double pendulum's modes, the steady motions of Thomson & Tait §319 (the
//! conical pendulum, Example B's string through a hole) as equilibria of the reduced
//! systems, the cart-pole's textbook linearization, and the pendulum in Cartesian
//! coordinates on its constraint, also in minimal variables.

#[path = "../examples/cartesian_pendulum.rs"]
#[allow(dead_code)]
mod cartesian;
#[path = "../examples/double_pendulum.rs"]
#[allow(dead_code)]
mod double;
#[path = "../examples/cartpole_lqr.rs"]
#[allow(dead_code)]
mod lqr;
#[path = "../examples/tt_e_rotating_axes.rs"]
#[allow(dead_code)]
mod rotating;

use std::f64::consts::{PI, SQRT_2};

use lagrange::nalgebra::{DMatrix, SVector, Vector1, Vector2, Vector3};
use lagrange::{
    Lagrangian, LagrangianSystem, Stability, constrained_equilibrium, constrained_normal_modes,
    equilibrium, linearize, linearize_constrained, normal_modes,
};

#[test]
fn the_double_pendulum_modes_are_the_closed_forms() {
    // Equal masses and lengths: ω² = (g/l)(2 ∓ √2), shapes ∝ (1, ±√2).
    let (m, l, g) = (0.9, 1.2, 9.81);
    let equal = double::DoublePendulum {
        m1: m,
        m2: m,
        l1: l,
        l2: l,
        g,
    };
    let rest = equilibrium(&equal, 0.0, &Vector2::new(0.2, -0.3)).unwrap();
    assert!(rest.amax() < 1e-12, "{rest}");
    let modes = normal_modes(&equal, 0.0, &rest).unwrap();
    // vᵀ M v = 1 with M = m l² [[2, 1], [1, 1]]: (4 ± 2√2) m l² for (1, ±√2); the second
    // mode's largest component is made positive: (−1, √2).
    let expected = [
        (2.0 - SQRT_2, [1.0, SQRT_2], 4.0 + 2.0 * SQRT_2),
        (2.0 + SQRT_2, [-1.0, SQRT_2], 4.0 - 2.0 * SQRT_2),
    ];
    for (mode, (factor, shape, norm)) in modes.iter().zip(expected) {
        let omega_squared = g / l * factor;
        assert!((mode.omega_squared - omega_squared).abs() < 1e-12 * omega_squared);
        let shape = Vector2::from(shape) / (norm * m * l * l).sqrt();
        assert!(
            (mode.shape - shape).amax() < 1e-12,
            "{} vs {shape}",
            mode.shape
        );
    }
    // Unequal: m₁ l₁ l₂ λ² − (m₁ + m₂) g (l₁ + l₂) λ + (m₁ + m₂) g² = 0, from
    // det(K − λ M) = 0 with K = diag((m₁ + m₂) g l₁, m₂ g l₂).
    let (m1, m2, l1, l2) = (1.3, 0.4, 0.8, 1.5);
    let unequal = double::DoublePendulum { m1, m2, l1, l2, g };
    let (a, b, c) = (m1 * l1 * l2, -(m1 + m2) * g * (l1 + l2), (m1 + m2) * g * g);
    let root = (b * b - 4.0 * a * c).sqrt();
    let roots = [(-b - root) / (2.0 * a), (-b + root) / (2.0 * a)];
    let modes = normal_modes(&unequal, 0.0, &Vector2::zeros()).unwrap();
    for (mode, omega_squared) in modes.iter().zip(roots) {
        assert!((mode.omega_squared - omega_squared).abs() < 1e-12 * omega_squared);
    }
    // Both rods up: two unstable directions; one up: one.
    let up = normal_modes(&unequal, 0.0, &Vector2::new(PI, PI)).unwrap();
    assert!(up[0].omega_squared < 0.0 && up[1].omega_squared < 0.0);
    let lower_up = normal_modes(&unequal, 0.0, &Vector2::new(0.0, PI)).unwrap();
    assert!(lower_up[0].omega_squared < 0.0 && lower_up[1].omega_squared > 0.0);
    let zero = Vector2::zeros();
    let hanging = linearize(&unequal, 0.0, &zero, &zero).unwrap();
    assert_eq!(hanging.stability().unwrap(), Stability::Marginal);
}

/// The spherical pendulum, `θ` from the downward vertical, with the azimuth `φ` ignored.
#[derive(Lagrangian)]
#[lagrangian(
    coordinates(theta, phi),
    kinetic = "1/2*m*l^2*(dot(theta)^2 + sin(theta)^2*dot(phi)^2)",
    potential = "-m*g*l*cos(theta)",
    ignore(phi)
)]
struct SphericalPendulum {
    m: f64,
    l: f64,
    g: f64,
}

#[test]
fn the_conical_pendulum_is_an_equilibrium_of_the_reduced_system_with_the_closed_form_frequency() {
    // Steady motion at the cone angle α: Ω² cos α = g/l, p_φ = m l² sin²α Ω. Small
    // oscillations about it: ω² = (g/l)(1 + 3 cos²α)/cos α.
    let (m, l, g, alpha) = (0.7, 1.3, 9.81, 0.6_f64);
    let omega = (g / (l * alpha.cos())).sqrt();
    let full = SphericalPendulum { m, l, g };
    let (reduced, _, _) =
        full.reduce_state(0.0, &Vector2::new(alpha, 0.0), &Vector2::new(0.0, omega));
    let p = m * l * l * alpha.sin().powi(2) * omega;
    assert!((reduced.parameter_values()[3] - p).abs() < 1e-12 * p);
    let cone = equilibrium(&reduced, 0.0, &Vector1::new(alpha + 0.15)).unwrap();
    assert!((cone[0] - alpha).abs() < 1e-12, "{cone}");
    let modes = normal_modes(&reduced, 0.0, &cone).unwrap();
    let expected = g / l * (1.0 + 3.0 * alpha.cos().powi(2)) / alpha.cos();
    assert!(
        (modes[0].omega_squared - expected).abs() < 1e-10 * expected,
        "{} vs {expected}",
        modes[0].omega_squared
    );
    let linearization = linearize(&reduced, 0.0, &cone, &Vector1::zeros()).unwrap();
    assert_eq!(linearization.stability().unwrap(), Stability::Marginal);
}

/// Thomson & Tait §319, Example B, with the string's direction `θ` ignored.
#[derive(Lagrangian)]
#[lagrangian(
    coordinates(r, theta),
    kinetic = "1/2*(m + mp)*dot(r)^2 + 1/2*m*r^2*dot(theta)^2",
    potential = "mp*g*r",
    ignore(theta)
)]
struct StringThroughHole {
    m: f64,
    mp: f64,
    g: f64,
}

#[test]
fn example_b_circular_orbit_is_an_equilibrium_with_the_closed_form_radial_frequency() {
    // The circle r₀ with p²/(m r₀³) = m′ g, m′ at rest; radial oscillations about it:
    // ω² = 3 p² / (m r₀⁴ (m + m′)).
    let (m, mp, g, p) = (1.0, 0.5, 9.81, 1.7);
    // Reduced from a state of the full system with that moment of momentum: r = 1, θ̇ = p/m.
    let full = StringThroughHole { m, mp, g };
    let (reduced, _, _) =
        full.reduce_state(0.0, &Vector2::new(1.0, 0.3), &Vector2::new(0.2, p / m));
    assert_eq!(
        reduced,
        StringThroughHoleReduced {
            m,
            mp,
            g,
            p_theta: p
        }
    );
    let r0 = (p * p / (m * mp * g)).cbrt();
    let circle = equilibrium(&reduced, 0.0, &Vector1::new(1.4 * r0)).unwrap();
    assert!((circle[0] - r0).abs() < 1e-12 * r0, "{circle} vs {r0}");
    let modes = normal_modes(&reduced, 0.0, &circle).unwrap();
    let expected = 3.0 * p * p / (m * r0.powi(4) * (m + mp));
    assert!((modes[0].omega_squared - expected).abs() < 1e-10 * expected);
    let period = 2.0 * PI / expected.sqrt();
    assert!((modes[0].period().unwrap() - period).abs() < 1e-10 * period);
}

#[test]
fn the_derived_cart_pole_upright_has_the_textbook_linearization() {
    let (big, m, l, g) = (2.0, 0.5, 0.8, 9.81);
    let cart = lqr::CartPole {
        M: big,
        m,
        l,
        g,
        u: 0.0,
    };
    let upright = equilibrium(&cart, 0.0, &Vector2::new(0.4, 0.1)).unwrap();
    assert!(
        (upright - Vector2::new(0.4, 0.0)).amax() < 1e-12,
        "{upright}"
    );
    let linearization = linearize(&cart, 0.0, &upright, &Vector2::zeros()).unwrap();
    // ẍ = −(m g/M) θ + u/M, θ̈ = (M + m) g θ/(M l) − u/(M l).
    #[rustfmt::skip]
    let a = DMatrix::from_row_slice(4, 4, &[
        0.0, 0.0, 1.0, 0.0,
        0.0, 0.0, 0.0, 1.0,
        0.0, -m * g / big, 0.0, 0.0,
        0.0, (big + m) * g / (big * l), 0.0, 0.0,
    ]);
    let b = DMatrix::from_column_slice(4, 1, &[0.0, 0.0, 1.0 / big, -1.0 / (big * l)]);
    assert!((&linearization.a - a).amax() < 1e-13, "{}", linearization.a);
    assert!((&linearization.b - b).amax() < 1e-13, "{}", linearization.b);
    assert_eq!(linearization.stability().unwrap(), Stability::Unstable);
}

#[test]
fn the_cartesian_pendulum_oscillates_on_its_constraint() {
    let (l, g) = (1.3, 9.81);
    let pendulum = cartesian::CartesianPendulum { m: 0.6, l, g };
    let bottom = constrained_equilibrium(&pendulum, 0.0, &Vector2::new(0.4, -0.9)).unwrap();
    assert!((bottom - Vector2::new(0.0, -l)).amax() < 1e-12, "{bottom}");
    let linearization = linearize_constrained(&pendulum, 0.0, &bottom, &SVector::zeros()).unwrap();
    // On the tangent space: ±i √(g/l), and nothing else.
    let eigenvalues = linearization.eigenvalues().unwrap();
    assert_eq!(eigenvalues.len(), 2);
    for eigenvalue in &eigenvalues {
        assert!(eigenvalue.re.abs() < 1e-12, "{eigenvalue}");
        assert!(
            (eigenvalue.im.abs() - (g / l).sqrt()).abs() < 1e-12,
            "{eigenvalue}"
        );
    }
    assert_eq!(linearization.stability().unwrap(), Stability::Marginal);
    let modes = constrained_normal_modes(&pendulum, 0.0, &bottom).unwrap();
    assert_eq!(modes.len(), 1);
    assert!((modes[0].omega_squared - g / l).abs() < 1e-12 * g / l);
    let top = constrained_equilibrium(&pendulum, 0.0, &Vector2::new(-0.3, 1.1)).unwrap();
    assert!((top - Vector2::new(0.0, l)).amax() < 1e-12, "{top}");
    let linearization = linearize_constrained(&pendulum, 0.0, &top, &SVector::zeros()).unwrap();
    assert_eq!(linearization.stability().unwrap(), Stability::Unstable);
}

#[test]
fn the_cartesian_pendulum_in_minimal_variables_is_the_textbook_one() {
    // About the bottom, x is the independent coordinate and ẋ the speed: ẍ = −(g/l) x.
    let (l, g) = (1.3, 9.81);
    let pendulum = cartesian::CartesianPendulum { m: 0.6, l, g };
    let bottom = Vector2::new(0.0, -l);
    let linearization = linearize_constrained(&pendulum, 0.0, &bottom, &SVector::zeros()).unwrap();
    let minimal = linearization.minimal(&[0], &[0]).unwrap();
    let expected = DMatrix::from_row_slice(2, 2, &[0.0, 1.0, -g / l, 0.0]);
    assert!((&minimal.a - &expected).amax() < 1e-12, "{}", minimal.a);
    // y is fixed by the constraint at the bottom (δy = 0): it cannot be the coordinate.
    let error = linearization.minimal(&[1], &[1]).unwrap_err();
    assert!(error.to_string().contains("do not parametrize"), "{error}");
    for (coordinates, speeds) in [(&[0, 1][..], &[0][..]), (&[5][..], &[0][..])] {
        assert!(linearization.minimal(coordinates, speeds).is_err());
    }
    // Without constraints there is no tangent space to be minimal on.
    let free = linearize(&pendulum, 0.0, &bottom, &SVector::zeros()).unwrap();
    assert!(free.minimal(&[0], &[0]).is_err());
    // Off the constraint there is nothing to linearize on.
    let off = linearize_constrained(&pendulum, 0.0, &Vector2::new(0.1, -l), &SVector::zeros());
    assert!(matches!(
        off,
        Err(lagrange::Error::InconsistentState { .. })
    ));
}

#[test]
fn uniformly_rotating_axes_have_gyroscopic_terms_and_no_normal_modes() {
    // Thomson & Tait §319, Example E with α = ω t: at the origin the particle is at rest
    // in the turning axes, but its small motions couple x and y through 2 m ω ẏ.
    let omega = 0.8;
    let axes = rotating::RotatingAxes {
        m: 1.5,
        omega,
        epsilon: 0.0,
        nu: 1.0,
        X: 0.0,
        Y: 0.0,
        Z: 0.0,
    };
    let origin = Vector3::zeros();
    let error = normal_modes(&axes, 0.0, &origin).unwrap_err().to_string();
    assert!(
        error.contains("RotatingAxes") && error.contains("gyroscopic"),
        "{error}"
    );
    // In the plane z = x + i y obeys (d/dt + i ω)² z = 0: double eigenvalues ±i ω (free
    // uniform motion seen from turning axes), and a double 0 along z. Defective double
    // eigenvalues are computed only to √ε: marginal within the tolerance.
    let linearization = linearize(&axes, 0.0, &origin, &origin).unwrap();
    assert_eq!(linearization.stability().unwrap(), Stability::Marginal);
    let mut imaginary: Vec<f64> = linearization
        .eigenvalues()
        .unwrap()
        .iter()
        .map(|l| l.im)
        .collect();
    imaginary.sort_by(f64::total_cmp);
    let expected = [-omega, -omega, 0.0, 0.0, omega, omega];
    for (found, expected) in imaginary.iter().zip(expected) {
        assert!((found - expected).abs() < 1e-6, "{imaginary:?}");
    }
}

#[test]
fn the_lqr_example_solves_the_riccati_equation_and_stabilizes_the_cart_pole() {
    use lagrange::nalgebra::{DMatrix, DVector};
    let cart = lqr::CartPole {
        M: 1.0,
        m: 0.1,
        l: 0.5,
        g: 9.81,
        u: 0.0,
    };
    let q = DMatrix::from_diagonal(&DVector::from_column_slice(&[10.0, 100.0, 1.0, 1.0]));
    let r = DMatrix::from_element(1, 1, 0.1);
    let (k, p) = lqr::design(&cart, &q, &r).unwrap();
    let upright = linearize(&cart, 0.0, &Vector2::zeros(), &Vector2::zeros()).unwrap();
    let (a, b) = (&upright.a, &upright.b);
    let residual = a.transpose() * &p + &p * a - &p * b * (b.transpose() * &p) / r[(0, 0)] + &q;
    assert!(
        residual.amax() < 1e-9 * q.amax(),
        "Riccati residual {}",
        residual.amax()
    );
    // The cart's position is the end of a chain of integrators driven through the pole:
    // its LQR gain is √(Q₁₁/R) whatever the rest (Q₁₁ = 10, R = 0.1).
    assert!((k[(0, 0)] + (10.0f64 / 0.1).sqrt()).abs() < 1e-9, "{k}");
    let closed = a - b * &k;
    assert!(closed.complex_eigenvalues().iter().all(|l| l.re < 0.0));
    // P is the cost-to-go: positive definite.
    assert!(p.clone().cholesky().is_some());
}
