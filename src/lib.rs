#![doc = include_str!("../README.md")]

extern crate self as lagrange;

pub use lagrange_core as core;
pub use lagrange_core::nalgebra;
pub use lagrange_core::{
    Axis, Balance, Check, CheckReport, Conserved, ConstrainedMotion, ConstrainedSystem,
    ConstraintInfo, Controlled, Drawing, DrawnPoint, DynamicFunctions, Error, Event, Formula,
    FromParameterValues, HtmlReport, Integrator, Invariant, LagrangianSystem, Linearization,
    ModelInfo, NormalMode, Occurrence, PointKind, ReducedSystem, Sample, Series, Simulation,
    Stability, Stopped, Theorem, TheoremInfo, Trajectory, constrained_equilibrium,
    constrained_normal_modes, equilibrium, linearize, linearize_constrained, normal_modes,
};
pub use lagrange_macros::Lagrangian;
