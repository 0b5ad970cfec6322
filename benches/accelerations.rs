//! Generated `accelerations` against a hand-written closed form, planar n-link chains
//! declared with the derive (n = 2, 4, 8 from `T` and `V`; n = 6 as a kinematic tree), a
//! UR5-like 6-joint arm, and the exact derivatives of the 8-link
//! chain's accelerations (what `linearize` costs) against central differences of the
//! accelerations in `q` and `q̇`, measured side by side in one run:
//! `cargo bench --bench accelerations`.

use criterion::{Criterion, criterion_group, criterion_main};
use lagrange::nalgebra::Const;
use lagrange::nalgebra::{SVector, Vector2};
use lagrange::{FromParameterValues, Lagrangian, LagrangianSystem};
use std::hint::black_box;

#[path = "../examples/double_pendulum.rs"]
#[allow(dead_code)]
mod double_pendulum;

use double_pendulum::DoublePendulum;

/// The double pendulum's accelerations written by hand (Cramer's rule on the 2×2 system).
fn hand_written(p: &DoublePendulum, q: &Vector2<f64>, qd: &Vector2<f64>) -> Vector2<f64> {
    let (s, c) = (q[0] - q[1]).sin_cos();
    let a = (p.m1 + p.m2) * p.l1 * p.l1;
    let b = p.m2 * p.l1 * p.l2 * c;
    let d = p.m2 * p.l2 * p.l2;
    let f1 = -p.m2 * p.l1 * p.l2 * s * qd[1] * qd[1] - (p.m1 + p.m2) * p.g * p.l1 * q[0].sin();
    let f2 = p.m2 * p.l1 * p.l2 * s * qd[0] * qd[0] - p.m2 * p.g * p.l2 * q[1].sin();
    let det = a * d - b * b;
    Vector2::new((d * f1 - b * f2) / det, (a * f2 - b * f1) / det)
}

/// Planar 2-link chain of point masses on massless rods, absolute angles, T from positions.
#[derive(Lagrangian)]
#[lagrangian(
    coordinates(theta1, theta2),
    kinetic = "1/2*m1*((l1*cos(theta1)*dot(theta1))^2 + (l1*sin(theta1)*dot(theta1))^2) + 1/2*m2*((l1*cos(theta1)*dot(theta1) + l2*cos(theta2)*dot(theta2))^2 + (l1*sin(theta1)*dot(theta1) + l2*sin(theta2)*dot(theta2))^2)",
    potential = "-g*(m1*(l1*cos(theta1)) + m2*(l1*cos(theta1) + l2*cos(theta2)))"
)]
pub struct Chain2 {
    m1: f64,
    m2: f64,
    l1: f64,
    l2: f64,
    g: f64,
}

/// Planar 4-link chain of point masses on massless rods, absolute angles, T from positions.
#[derive(Lagrangian)]
#[lagrangian(
    coordinates(theta1, theta2, theta3, theta4),
    kinetic = "1/2*m1*((l1*cos(theta1)*dot(theta1))^2 + (l1*sin(theta1)*dot(theta1))^2) + 1/2*m2*((l1*cos(theta1)*dot(theta1) + l2*cos(theta2)*dot(theta2))^2 + (l1*sin(theta1)*dot(theta1) + l2*sin(theta2)*dot(theta2))^2) + 1/2*m3*((l1*cos(theta1)*dot(theta1) + l2*cos(theta2)*dot(theta2) + l3*cos(theta3)*dot(theta3))^2 + (l1*sin(theta1)*dot(theta1) + l2*sin(theta2)*dot(theta2) + l3*sin(theta3)*dot(theta3))^2) + 1/2*m4*((l1*cos(theta1)*dot(theta1) + l2*cos(theta2)*dot(theta2) + l3*cos(theta3)*dot(theta3) + l4*cos(theta4)*dot(theta4))^2 + (l1*sin(theta1)*dot(theta1) + l2*sin(theta2)*dot(theta2) + l3*sin(theta3)*dot(theta3) + l4*sin(theta4)*dot(theta4))^2)",
    potential = "-g*(m1*(l1*cos(theta1)) + m2*(l1*cos(theta1) + l2*cos(theta2)) + m3*(l1*cos(theta1) + l2*cos(theta2) + l3*cos(theta3)) + m4*(l1*cos(theta1) + l2*cos(theta2) + l3*cos(theta3) + l4*cos(theta4)))"
)]
pub struct Chain4 {
    m1: f64,
    m2: f64,
    m3: f64,
    m4: f64,
    l1: f64,
    l2: f64,
    l3: f64,
    l4: f64,
    g: f64,
}

/// Planar 8-link chain of point masses on massless rods, absolute angles, T from positions.
#[derive(Lagrangian)]
#[lagrangian(
    coordinates(theta1, theta2, theta3, theta4, theta5, theta6, theta7, theta8),
    kinetic = "1/2*m1*((l1*cos(theta1)*dot(theta1))^2 + (l1*sin(theta1)*dot(theta1))^2) + 1/2*m2*((l1*cos(theta1)*dot(theta1) + l2*cos(theta2)*dot(theta2))^2 + (l1*sin(theta1)*dot(theta1) + l2*sin(theta2)*dot(theta2))^2) + 1/2*m3*((l1*cos(theta1)*dot(theta1) + l2*cos(theta2)*dot(theta2) + l3*cos(theta3)*dot(theta3))^2 + (l1*sin(theta1)*dot(theta1) + l2*sin(theta2)*dot(theta2) + l3*sin(theta3)*dot(theta3))^2) + 1/2*m4*((l1*cos(theta1)*dot(theta1) + l2*cos(theta2)*dot(theta2) + l3*cos(theta3)*dot(theta3) + l4*cos(theta4)*dot(theta4))^2 + (l1*sin(theta1)*dot(theta1) + l2*sin(theta2)*dot(theta2) + l3*sin(theta3)*dot(theta3) + l4*sin(theta4)*dot(theta4))^2) + 1/2*m5*((l1*cos(theta1)*dot(theta1) + l2*cos(theta2)*dot(theta2) + l3*cos(theta3)*dot(theta3) + l4*cos(theta4)*dot(theta4) + l5*cos(theta5)*dot(theta5))^2 + (l1*sin(theta1)*dot(theta1) + l2*sin(theta2)*dot(theta2) + l3*sin(theta3)*dot(theta3) + l4*sin(theta4)*dot(theta4) + l5*sin(theta5)*dot(theta5))^2) + 1/2*m6*((l1*cos(theta1)*dot(theta1) + l2*cos(theta2)*dot(theta2) + l3*cos(theta3)*dot(theta3) + l4*cos(theta4)*dot(theta4) + l5*cos(theta5)*dot(theta5) + l6*cos(theta6)*dot(theta6))^2 + (l1*sin(theta1)*dot(theta1) + l2*sin(theta2)*dot(theta2) + l3*sin(theta3)*dot(theta3) + l4*sin(theta4)*dot(theta4) + l5*sin(theta5)*dot(theta5) + l6*sin(theta6)*dot(theta6))^2) + 1/2*m7*((l1*cos(theta1)*dot(theta1) + l2*cos(theta2)*dot(theta2) + l3*cos(theta3)*dot(theta3) + l4*cos(theta4)*dot(theta4) + l5*cos(theta5)*dot(theta5) + l6*cos(theta6)*dot(theta6) + l7*cos(theta7)*dot(theta7))^2 + (l1*sin(theta1)*dot(theta1) + l2*sin(theta2)*dot(theta2) + l3*sin(theta3)*dot(theta3) + l4*sin(theta4)*dot(theta4) + l5*sin(theta5)*dot(theta5) + l6*sin(theta6)*dot(theta6) + l7*sin(theta7)*dot(theta7))^2) + 1/2*m8*((l1*cos(theta1)*dot(theta1) + l2*cos(theta2)*dot(theta2) + l3*cos(theta3)*dot(theta3) + l4*cos(theta4)*dot(theta4) + l5*cos(theta5)*dot(theta5) + l6*cos(theta6)*dot(theta6) + l7*cos(theta7)*dot(theta7) + l8*cos(theta8)*dot(theta8))^2 + (l1*sin(theta1)*dot(theta1) + l2*sin(theta2)*dot(theta2) + l3*sin(theta3)*dot(theta3) + l4*sin(theta4)*dot(theta4) + l5*sin(theta5)*dot(theta5) + l6*sin(theta6)*dot(theta6) + l7*sin(theta7)*dot(theta7) + l8*sin(theta8)*dot(theta8))^2)",
    potential = "-g*(m1*(l1*cos(theta1)) + m2*(l1*cos(theta1) + l2*cos(theta2)) + m3*(l1*cos(theta1) + l2*cos(theta2) + l3*cos(theta3)) + m4*(l1*cos(theta1) + l2*cos(theta2) + l3*cos(theta3) + l4*cos(theta4)) + m5*(l1*cos(theta1) + l2*cos(theta2) + l3*cos(theta3) + l4*cos(theta4) + l5*cos(theta5)) + m6*(l1*cos(theta1) + l2*cos(theta2) + l3*cos(theta3) + l4*cos(theta4) + l5*cos(theta5) + l6*cos(theta6)) + m7*(l1*cos(theta1) + l2*cos(theta2) + l3*cos(theta3) + l4*cos(theta4) + l5*cos(theta5) + l6*cos(theta6) + l7*cos(theta7)) + m8*(l1*cos(theta1) + l2*cos(theta2) + l3*cos(theta3) + l4*cos(theta4) + l5*cos(theta5) + l6*cos(theta6) + l7*cos(theta7) + l8*cos(theta8)))"
)]
pub struct Chain8 {
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

/// A UR5-like arm as a kinematic tree: the UR5's joint placements and link masses as the
/// `ur_description` package publishes them, diagonal inertias of our own. Its `M` and `f`
/// come from the composite-body and Newton–Euler recursions traced into code.
#[derive(Lagrangian)]
#[lagrangian(
    coordinates(q1, q2, q3, q4, q5, q6),
    body(name = shoulder, mass = "3.7", inertia = ["0.0103", "0.0103", "0.00666"],
         joint = revolute(q1), axis = ["0", "0", "1"], origin = ["0", "0", "0.089159"]),
    body(name = upper_arm, mass = "8.393", inertia = ["0.2269", "0.2269", "0.0151"], parent = shoulder,
         joint = revolute(q2), axis = ["0", "1", "0"], origin = ["0", "0.13585", "0"],
         rpy = ["0", "pi/2", "0"], com = ["0", "0", "0.28"]),
    body(name = forearm, mass = "2.275", inertia = ["0.0494", "0.0494", "0.004"], parent = upper_arm,
         joint = revolute(q3), axis = ["0", "1", "0"], origin = ["0", "-0.1197", "0.425"],
         com = ["0", "0", "0.25"]),
    body(name = wrist_1, mass = "1.219", inertia = ["0.00111", "0.00111", "0.00219"], parent = forearm,
         joint = revolute(q4), axis = ["0", "1", "0"], origin = ["0", "0", "0.39225"],
         rpy = ["0", "pi/2", "0"]),
    body(name = wrist_2, mass = "1.219", inertia = ["0.00111", "0.00111", "0.00219"], parent = wrist_1,
         joint = revolute(q5), axis = ["0", "0", "1"], origin = ["0", "0.093", "0"]),
    body(name = wrist_3, mass = "0.1879", inertia = ["0.000171", "0.000171", "0.000033"],
         parent = wrist_2, joint = revolute(q6), axis = ["0", "1", "0"], origin = ["0", "0", "0.09465"]),
    gravity = ["0", "0", "-g"],
)]
pub struct Ur5Arm {
    g: f64,
}

/// The planar 6-link chain as a kinematic tree (relative angles, point masses at the
/// links' ends), traced like the arm.
#[derive(Lagrangian)]
#[lagrangian(
    coordinates(q1, q2, q3, q4, q5, q6),
    body(name = b1, mass = "m1", inertia = ["0", "0", "0"], joint = revolute(q1), axis = ["0", "0", "1"], com = ["l1", "0", "0"]),
    body(name = b2, mass = "m2", inertia = ["0", "0", "0"], parent = b1, joint = revolute(q2), axis = ["0", "0", "1"], origin = ["l1", "0", "0"], com = ["l2", "0", "0"]),
    body(name = b3, mass = "m3", inertia = ["0", "0", "0"], parent = b2, joint = revolute(q3), axis = ["0", "0", "1"], origin = ["l2", "0", "0"], com = ["l3", "0", "0"]),
    body(name = b4, mass = "m4", inertia = ["0", "0", "0"], parent = b3, joint = revolute(q4), axis = ["0", "0", "1"], origin = ["l3", "0", "0"], com = ["l4", "0", "0"]),
    body(name = b5, mass = "m5", inertia = ["0", "0", "0"], parent = b4, joint = revolute(q5), axis = ["0", "0", "1"], origin = ["l4", "0", "0"], com = ["l5", "0", "0"]),
    body(name = b6, mass = "m6", inertia = ["0", "0", "0"], parent = b5, joint = revolute(q6), axis = ["0", "0", "1"], origin = ["l5", "0", "0"], com = ["l6", "0", "0"]),
    gravity = ["0", "-g", "0"],
)]
pub struct TreeChain6 {
    m1: f64,
    m2: f64,
    m3: f64,
    m4: f64,
    m5: f64,
    m6: f64,
    l1: f64,
    l2: f64,
    l3: f64,
    l4: f64,
    l5: f64,
    l6: f64,
    g: f64,
}

fn state<const N: usize>() -> (SVector<f64, N>, SVector<f64, N>) {
    (
        SVector::from_fn(|i, _| 0.3 + 0.1 * i as f64),
        SVector::from_fn(|i, _| 0.5 - 0.05 * i as f64),
    )
}

fn chain<S: FromParameterValues<Const<N>>, const N: usize>(c: &mut Criterion, name: &str) {
    let values: Vec<f64> = (0..S::PARAMETER_COUNT)
        .map(|i| 1.0 + 0.01 * i as f64)
        .collect();
    let system = S::from_parameter_values(&values).expect("parameter count");
    let (q, qd) = state::<N>();
    c.bench_function(name, |b| {
        b.iter(|| system.accelerations(0.0, black_box(&q), black_box(&qd)))
    });
}

fn accelerations(c: &mut Criterion) {
    let p = DoublePendulum {
        m1: 1.0,
        m2: 1.0,
        l1: 1.0,
        l2: 1.0,
        g: 9.81,
    };
    let (q, qd) = state::<2>();
    c.bench_function("double pendulum/hand-written", |b| {
        b.iter(|| hand_written(&p, black_box(&q), black_box(&qd)))
    });
    c.bench_function("double pendulum/generated", |b| {
        b.iter(|| p.accelerations(0.0, black_box(&q), black_box(&qd)))
    });
    chain::<Chain2, 2>(c, "chain/n=2");
    chain::<Chain4, 4>(c, "chain/n=4");
    chain::<Chain8, 8>(c, "chain/n=8");
    chain::<TreeChain6, 6>(c, "chain as a tree/n=6");
    let arm = Ur5Arm { g: 9.81 };
    let (q, qd) = state::<6>();
    c.bench_function("arm/UR5-like, 6 joints", |b| {
        b.iter(|| arm.accelerations(0.0, black_box(&q), black_box(&qd)))
    });
    jacobians(c);
}

/// `∂q̈/∂(q, q̇)` of the 8-link chain: exact (generated residual derivatives and one
/// solve) against the `4n` evaluations of `accelerations` of central differences.
fn jacobians(c: &mut Criterion) {
    let values: Vec<f64> = (0..Chain8::PARAMETER_COUNT)
        .map(|i| 1.0 + 0.01 * i as f64)
        .collect();
    let system = Chain8::from_parameter_values(&values).expect("parameter count");
    let (q, qd) = state::<8>();
    c.bench_function("chain/n=8/jacobians exact", |b| {
        b.iter(|| system.acceleration_jacobians(0.0, black_box(&q), black_box(&qd)))
    });
    c.bench_function("chain/n=8/jacobians central differences", |b| {
        b.iter(|| {
            let mut columns = [SVector::<f64, 8>::zeros(); 16];
            for (j, column) in columns.iter_mut().enumerate() {
                let h = 1e-6;
                let (mut qp, mut qdp, mut qm, mut qdm) = (q, qd, q, qd);
                if j < 8 {
                    qp[j] += h;
                    qm[j] -= h;
                } else {
                    qdp[j - 8] += h;
                    qdm[j - 8] -= h;
                }
                let plus = system.accelerations(0.0, black_box(&qp), black_box(&qdp));
                let minus = system.accelerations(0.0, black_box(&qm), black_box(&qdm));
                *column = (plus.expect("regular") - minus.expect("regular")) / (2.0 * h);
            }
            columns
        })
    });
}

criterion_group!(benches, accelerations);
criterion_main!(benches);
