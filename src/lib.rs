#![doc = include_str!("../README.md")]

extern crate self as lagrange;

pub use lagrange_core as core;
pub use lagrange_core::nalgebra;
pub use lagrange_core::{
    Check, Conserved, ConstrainedMotion, ConstrainedSystem, ConstraintInfo, Error, Event,
    FromParameterValues, Integrator, Invariant, LagrangianSystem, ModelInfo, Occurrence,
    ReducedSystem, Report, Sample, Simulation, Stopped, Trajectory,
};
pub use lagrange_macros::Lagrangian;
