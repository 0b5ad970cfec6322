//! What the derive leaves out of a program. `#[lagrangian(omit(...))]`: a model derived
//! without its variational functions or the residual's derivatives computes everything
//! else with the same bits as the full model, and every runtime function that needs what
//! was left out returns an error that names the attribute to change, instead of running
//! on a panic. (That `mass_matrix`, in a build without debug assertions the program of `M`
//! and `f` without what only `f` needs, has the bits of `mass_matrix_and_forcing` is
//! checked by the offline crate's test, `lagrange-cli/tests/offline.rs`, which builds
//! without them.)

use lagrange::nalgebra::{Vector2, Vector6};
use lagrange::{
    Connect, Integrator, Lagrangian, LagrangianSystem, Simulation, linearize, normal_modes,
};

/// A cart with a pendulum hanging from it, in full.
#[derive(Lagrangian)]
#[lagrangian(
    coordinates(x, theta),
    kinetic = "1/2*(mc + m)*dot(x)^2 + m*l*cos(theta)*dot(x)*dot(theta) + 1/2*m*l^2*dot(theta)^2",
    potential = "-m*g*l*cos(theta)"
)]
struct Cart {
    mc: f64,
    m: f64,
    l: f64,
    g: f64,
}

/// The same, derived without both groups.
#[derive(Lagrangian)]
#[lagrangian(
    coordinates(x, theta),
    kinetic = "1/2*(mc + m)*dot(x)^2 + m*l*cos(theta)*dot(x)*dot(theta) + 1/2*m*l^2*dot(theta)^2",
    potential = "-m*g*l*cos(theta)",
    omit(variational, derivatives)
)]
struct LeanCart {
    mc: f64,
    m: f64,
    l: f64,
    g: f64,
}

#[derive(Lagrangian)]
#[lagrangian(urdf = "lagrange-cli/tests/pinocchio/robots/ur5.urdf")]
struct Ur5 {
    g: f64,
}

#[derive(Lagrangian)]
#[lagrangian(
    urdf = "lagrange-cli/tests/pinocchio/robots/ur5.urdf",
    omit(variational)
)]
struct Ur5WithoutVariational {
    g: f64,
}

fn carts() -> (Cart, LeanCart) {
    let (mc, m, l, g) = (2.0, 0.5, 0.8, 9.81);
    (Cart { mc, m, l, g }, LeanCart { mc, m, l, g })
}

#[test]
fn what_is_kept_has_the_full_models_bits() {
    let (full, lean) = carts();
    assert_eq!(full.info().omitted, lagrange::Omitted::NONE);
    assert!(lean.info().omitted.variational && lean.info().omitted.derivatives);
    for (x, theta, v, w) in [(0.0, 0.3, 0.0, 0.0), (1.2, -2.0, 0.7, -3.1)] {
        let (q, qd) = (Vector2::new(x, theta), Vector2::new(v, w));
        assert_eq!(
            full.accelerations(0.0, &q, &qd).unwrap(),
            lean.accelerations(0.0, &q, &qd).unwrap()
        );
        assert_eq!(
            full.mass_matrix(0.0, &q, &qd),
            lean.mass_matrix(0.0, &q, &qd)
        );
        assert_eq!(full.momenta(0.0, &q, &qd), lean.momenta(0.0, &q, &qd));
        assert_eq!(full.energy(0.0, &q, &qd), lean.energy(0.0, &q, &qd));
        let qdd = full.accelerations(0.0, &q, &qd).unwrap();
        assert_eq!(
            full.inverse_dynamics(0.0, &q, &qd, &qdd),
            lean.inverse_dynamics(0.0, &q, &qd, &qdd)
        );
    }
    let full_run = Simulation::new(&full)
        .integrator(Integrator::Rk4 { dt: 1e-3 })
        .run(0.0, Vector2::new(0.0, 1.0), Vector2::zeros(), 1.0)
        .unwrap();
    let lean_run = Simulation::new(&lean)
        .integrator(Integrator::Rk4 { dt: 1e-3 })
        .run(0.0, Vector2::new(0.0, 1.0), Vector2::zeros(), 1.0)
        .unwrap();
    assert_eq!(full_run, lean_run);
}

#[test]
fn what_needs_a_left_out_group_is_an_error_that_names_it() {
    let (full, lean) = carts();
    let (q, qd) = (Vector2::new(0.0, 0.4), Vector2::new(0.1, 0.2));
    let says = |error: lagrange::Error, group: &str| {
        let text = error.to_string();
        assert!(
            text.contains("LeanCart") && text.contains(&format!("remove `{group}`")),
            "{text}"
        );
    };
    says(
        lean.acceleration_jacobians(0.0, &q, &qd).unwrap_err(),
        "derivatives",
    );
    says(linearize(&lean, 0.0, &q, &qd).unwrap_err(), "derivatives");
    says(normal_modes(&lean, 0.0, &q).unwrap_err(), "derivatives");
    says(
        lean.canonical_rhs(0.0, &q, &lean.momenta(0.0, &q, &qd))
            .unwrap_err(),
        "variational",
    );
    for integrator in [
        Integrator::Variational { dt: 1e-2 },
        Integrator::GaussLegendre {
            dt: 1e-2,
            stages: 2,
        },
    ] {
        let error = Simulation::new(&lean)
            .integrator(integrator)
            .run(0.0, q, qd, 0.1)
            .unwrap_err();
        says(error, "variational");
    }
    says(
        Connect::in_time(&lean, Vector2::new(0.0, 0.1), Vector2::new(0.0, 0.2), 0.5)
            .solve()
            .unwrap_err(),
        "variational",
    );
    // The full model does all of it.
    assert!(full.acceleration_jacobians(0.0, &q, &qd).is_ok());
    assert!(normal_modes(&full, 0.0, &Vector2::zeros()).is_ok());
    assert!(
        Simulation::new(&full)
            .integrator(Integrator::Variational { dt: 1e-2 })
            .run(0.0, q, qd, 0.1)
            .is_ok()
    );
}

#[test]
fn a_left_out_function_called_directly_panics_with_the_same_message() {
    let (_, lean) = carts();
    let (q, qd) = (Vector2::new(0.0, 0.4), Vector2::new(0.1, 0.2));
    let message = |call: &dyn Fn()| -> String {
        let payload = std::panic::catch_unwind(std::panic::AssertUnwindSafe(call)).unwrap_err();
        payload
            .downcast_ref::<String>()
            .cloned()
            .unwrap_or_default()
    };
    let rate = message(&|| {
        lean.momentum_rate(0.0, &q, &qd);
    });
    assert!(
        rate.contains("`momentum_rate`") && rate.contains("remove `variational`"),
        "{rate}"
    );
    let residual = message(&|| {
        lean.residual_jacobians(0.0, &q, &qd, &qd);
    });
    assert!(
        residual.contains("`residual_jacobians`") && residual.contains("remove `derivatives`"),
        "{residual}"
    );
}

#[test]
fn a_urdf_robot_without_its_variational_functions_still_linearizes() {
    let (full, lean) = (Ur5 { g: 9.81 }, Ur5WithoutVariational { g: 9.81 });
    let q = Vector6::new(0.3, -1.1, 0.9, 0.2, -0.4, 1.3);
    let qd = Vector6::new(0.5, 0.1, -0.2, 0.3, 0.0, -0.7);
    let (a, b) = (
        linearize(&full, 0.0, &q, &qd).unwrap(),
        linearize(&lean, 0.0, &q, &qd).unwrap(),
    );
    assert_eq!(a.a, b.a);
    assert_eq!(a.b, b.b);
    assert!(lean.info().omitted.variational && !lean.info().omitted.derivatives);
}
