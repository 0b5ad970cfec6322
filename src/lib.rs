//! # lagrange
//!
//! Equations of motion derived symbolically at compile time, integrated at run time.
//!
//! Annotate a struct of `f64` parameters with `#[derive(Lagrangian)]` and a
//! `#[lagrangian(...)]` attribute giving the generalized coordinates and the kinetic and
//! potential energy; the derive runs the symbolic engine while your crate compiles and
//! generates straight-line Rust for the mass matrix, the forcing, the energy and the
//! momenta. Nothing symbolic runs in your program.
//!
//! ```
//! use lagrange::{Lagrangian, LagrangianSystem};
//! use lagrange::nalgebra::Vector1;
//!
//! /// A simple pendulum.
//! #[derive(Lagrangian)]
//! #[lagrangian(
//!     coordinates(theta),
//!     kinetic = "1/2*m*l^2*dot(theta)^2",
//!     potential = "-m*g*l*cos(theta)",
//! )]
//! struct Pendulum { m: f64, l: f64, g: f64 }
//!
//! let p = Pendulum { m: 1.0, l: 2.0, g: 9.81 };
//! let qdd = p.accelerations(0.0, &Vector1::new(0.3), &Vector1::new(0.0)).unwrap();
//! assert!((qdd[0] + 9.81 / 2.0 * 0.3f64.sin()).abs() < 1e-12);
//! ```
//!
//! The README describes the attribute syntax in full.

extern crate self as lagrange;

pub use lagrange_core as core;
pub use lagrange_core::nalgebra;
pub use lagrange_core::{
    Check, Conserved, ConstrainedMotion, ConstrainedSystem, Error, Integrator, Invariant,
    LagrangianSystem, ReducedSystem, Report, Sample, Simulation, Trajectory,
};
pub use lagrange_macros::Lagrangian;
