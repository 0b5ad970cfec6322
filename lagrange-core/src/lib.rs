//! Runtime of lagrange: the traits that generated code implements, and everything done
//! with a system at run time. This crate never runs computer algebra: everything symbolic
//! happened at compile time.
//!
//! The modules follow the stages of that work, each using only the ones before it (the
//! code map of ARCHITECTURE.md, checked by its tests):
//!
//! - `size` (internal): the numbers of coordinates and constraints, fixed by the type or
//!   known at run time ([`DimAllocator`], [`ConstraintAllocator`]);
//! - `wide` (internal): large generated programs and the solve of many right-hand sides
//!   compiled for the processor's wider instructions when it has them, with the same bits;
//! - `solve` (internal): `M q̈ = f` at one state, and the exact derivatives of `q̈`;
//! - [`system`]: the traits a model implements ([`LagrangianSystem`], its constrained
//!   and reduced forms), implemented once over a model's derived programs
//!   ([`Programs`]), and what they say about it ([`ModelInfo`]);
//! - [`batch`]: the system's calls over many states at once, spread over threads;
//! - [`integrate`]: the integrators, one step at a time;
//! - [`run`]: a [`Simulation`] and the [`Trajectory`] it records, with [`Event`]s;
//! - [`control`]: a loop closed around a system;
//! - [`analysis`]: linearization, stability, equilibria and normal modes;
//! - [`action`]: least and varying action, the motions between two configurations;
//! - [`check`]: derived equations against reference equations;
//! - [`report`]: the self-contained HTML page of a run.

#[doc(hidden)]
#[path = "private.rs"]
pub mod __private;
pub mod action;
pub mod analysis;
pub mod batch;
pub mod check;
pub mod control;
mod copy;
pub mod error;
pub mod integrate;
pub mod report;
pub mod run;
mod size;
mod solve;
pub mod system;
#[cfg(test)]
mod test_systems;
mod wide;

pub use action::{Condition, Connect, Focus, Motion, Relation, Search};
pub use analysis::{
    Equilibrium, Linearization, MinimalLinearization, NormalMode, Stability,
    constrained_equilibrium, constrained_normal_modes, equilibrium, find_constrained_equilibrium,
    find_equilibrium, linearize, linearize_constrained, normal_modes,
};
pub use batch::{Batch, BatchError, BatchStates, JacobianBuffers};
pub use check::{Check, CheckReport, Sample};
pub use control::Controlled;
pub use error::{Error, Short};
pub use integrate::{Integrator, State, Stats, Step};
pub use nalgebra;
pub use report::{HtmlReport, Series};
pub use run::{
    Balance, Event, Invariant, Occurrence, Simulation, Stopped, Trajectory, balance_table,
};
pub use size::{ConstraintAllocator, DimAllocator};
pub use solve::{AccelerationJacobians, ConstraintJacobians, ResidualJacobians};
pub use system::{
    Axis, Conserved, ConstrainedMotion, ConstrainedSystem, ConstraintInfo, Drawing, DrawnPoint,
    DynamicFunctions, Formula, FromParameterValues, IndependentSpeeds, JointWrench,
    LagrangianSystem, ModelInfo, Omitted, Phase, PointKind, Programs, Quantity, ReducedPrograms,
    ReducedSystem, SpeedBasis, Text, Theorem, TheoremInfo, TimedPhase,
};
