//! An LQR controller for the cart-pole, designed on the exact linearization and run on the
//! nonlinear model: `A` and `B` from [`linearize`] at the upright state, the continuous
//! algebraic Riccati equation `AᵀP + PA − P B R⁻¹ Bᵀ P + Q = 0` solved here with nalgebra
//! (the matrix sign function of the Hamiltonian matrix), the gain `K = R⁻¹ BᵀP`, and the
//! loop `u = −K x` closed around the nonlinear cart-pole from a tilt of 0.3 rad, once
//! continuously and once through a zero-order hold of 20 ms, as a digital controller is.
//!
//! `cargo run --release --example cartpole_lqr`

use lagrange::nalgebra::{DMatrix, SVector, Vector2};
use lagrange::{Controlled, Lagrangian, LagrangianSystem, Simulation, linearize};

/// A cart of mass `M` pushed by the input force `u`, with a pendulum: a point mass `m` on
/// a massless rod of length `l`, `theta` from the upward vertical.
#[derive(Lagrangian)]
#[lagrangian(
    coordinates(x, theta),
    kinetic = "1/2*(M + m)*dot(x)^2 + m*l*cos(theta)*dot(x)*dot(theta) + 1/2*m*l^2*dot(theta)^2",
    potential = "m*g*l*cos(theta)",
    force(x = "u"),
    inputs(u)
)]
#[allow(non_snake_case)]
pub struct CartPole {
    pub M: f64,
    pub m: f64,
    pub l: f64,
    pub g: f64,
    pub u: f64,
}

/// The stabilizing solution `P` of `AᵀP + PA − P G P + Q = 0`, `G = B R⁻¹ Bᵀ`: with
/// `W = sign(H)` of the Hamiltonian matrix `H = [[A, −G], [−Q, −Aᵀ]]` (Newton's iteration
/// `Z ← (Z + Z⁻¹)/2`), the stable invariant subspace `[I; P]` solves
/// `[W₁₂; W₂₂ + I] P = −[W₁₁ + I; W₂₁]` (least squares). `None` if an inverse fails.
pub fn riccati(
    a: &DMatrix<f64>,
    b: &DMatrix<f64>,
    q: &DMatrix<f64>,
    r: &DMatrix<f64>,
) -> Option<DMatrix<f64>> {
    let n = a.nrows();
    let g = b * r.clone().try_inverse()? * b.transpose();
    let mut z = DMatrix::zeros(2 * n, 2 * n);
    z.view_mut((0, 0), (n, n)).copy_from(a);
    z.view_mut((0, n), (n, n)).copy_from(&(-&g));
    z.view_mut((n, 0), (n, n)).copy_from(&(-q));
    z.view_mut((n, n), (n, n)).copy_from(&(-a.transpose()));
    for _ in 0..100 {
        let next = (&z + z.clone().try_inverse()?) * 0.5;
        let change = (&next - &z).norm() / next.norm();
        z = next;
        if change < 1e-14 {
            break;
        }
    }
    let identity = DMatrix::<f64>::identity(n, n);
    let mut lhs = DMatrix::zeros(2 * n, n);
    lhs.view_mut((0, 0), (n, n))
        .copy_from(&z.view((0, n), (n, n)));
    lhs.view_mut((n, 0), (n, n))
        .copy_from(&(z.view((n, n), (n, n)) + &identity));
    let mut rhs = DMatrix::zeros(2 * n, n);
    rhs.view_mut((0, 0), (n, n))
        .copy_from(&(-(z.view((0, 0), (n, n)) + &identity)));
    rhs.view_mut((n, 0), (n, n))
        .copy_from(&(-z.view((n, 0), (n, n))));
    let p = lhs.svd(true, true).solve(&rhs, 1e-12).ok()?;
    // P is symmetric; average away the round-off.
    Some((&p + p.transpose()) * 0.5)
}

/// The LQR design: `(K, P)` for the cart-pole upright with state weights `Q` and input
/// weight `R`.
pub fn design(
    cart: &CartPole,
    q: &DMatrix<f64>,
    r: &DMatrix<f64>,
) -> Result<(DMatrix<f64>, DMatrix<f64>), lagrange::Error> {
    let upright = linearize(cart, 0.0, &Vector2::zeros(), &Vector2::zeros())?;
    let p = riccati(&upright.a, &upright.b, q, r)
        .ok_or_else(|| lagrange::Error::InvalidInput("the Riccati iteration failed".into()))?;
    let k = r.clone().try_inverse().expect("R is invertible") * upright.b.transpose() * &p;
    Ok((k, p))
}

/// `u = −K x` with `x = (q, q̇)`.
fn feedback(
    k: &DMatrix<f64>,
) -> impl Fn(f64, &SVector<f64, 2>, &SVector<f64, 2>) -> Vec<f64> + use<> {
    let k = k.clone();
    move |_, q, qd| {
        vec![-(k[(0, 0)] * q[0] + k[(0, 1)] * q[1] + k[(0, 2)] * qd[0] + k[(0, 3)] * qd[1])]
    }
}

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let cart = CartPole {
        M: 1.0,
        m: 0.1,
        l: 0.5,
        g: 9.81,
        u: 0.0,
    };
    let weights = DMatrix::from_diagonal(&lagrange::nalgebra::DVector::from_column_slice(&[
        10.0, 100.0, 1.0, 1.0,
    ]));
    let r = DMatrix::from_element(1, 1, 0.1);
    let (k, p) = design(&cart, &weights, &r)?;
    let upright = linearize(&cart, 0.0, &Vector2::zeros(), &Vector2::zeros())?;
    let (a, b) = (&upright.a, &upright.b);
    let residual = a.transpose() * &p + &p * a
        - &p * b * r.clone().try_inverse().unwrap() * b.transpose() * &p
        + &weights;
    println!("A (x, theta, dot x, dot theta) = {a}B = {b}");
    println!(
        "LQR gain K = {k}Riccati residual |AᵀP + PA − PBR⁻¹BᵀP + Q| = {:.2e}",
        residual.amax()
    );
    let closed = a - b * &k;
    let poles = closed.complex_eigenvalues();
    println!(
        "closed-loop poles: {}",
        poles
            .iter()
            .map(|l| format!("{:.4}{:+.4}i", l.re, l.im))
            .collect::<Vec<_>>()
            .join(", ")
    );

    let tilt = (Vector2::new(0.0, 0.3), Vector2::zeros());
    let controlled = Controlled::new(
        cart.with_parameter_values(&cart.parameter_values())?,
        feedback(&k),
    )?;
    let run = Simulation::new(&controlled)
        .output_interval(0.5)
        .run(0.0, tilt.0, tilt.1, 6.0)?;
    let sampled = Simulation::new(&cart).output_interval(0.02).run_sampled(
        feedback(&k),
        0.02,
        0.0,
        tilt.0,
        tilt.1,
        6.0,
    )?;
    println!("\nfrom a tilt of 0.3 rad:     t      x           theta");
    for (t, q) in run.times().iter().zip(run.q()) {
        println!("  continuous           {t:4.1}  {:+.6}  {:+.6}", q[0], q[1]);
    }
    let (t, q, _) = sampled.last().expect("a sampled run records its end");
    println!(
        "  zero-order hold 20 ms {t:4.1}  {:+.6}  {:+.6}",
        q[0], q[1]
    );
    Ok(())
}
