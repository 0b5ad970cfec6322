//! The mechanics: a checked model's symbolic [`System`], Lagrange's equations, Routh's
//! reduction over ignored coordinates, holonomic constraints, and the kinetic energy of
//! particles and rigid bodies. Everything here runs inside an engine session.

mod constraints;
mod drawing;
mod euler_lagrange;
mod kinetic;
mod recursive;
mod rolling;
mod rotation;
mod routh;
mod system;
mod theorems;

pub(crate) use drawing::drawing;
pub(crate) use euler_lagrange::equations;
pub(crate) use kinetic::{expanded_terms, orthogonality};
pub use recursive::{EXPANDED_TERMS, EXPANDED_TREE_DEPTH};
pub(crate) use recursive::{
    Route, Traced, dynamics as recursive_dynamics, equations as recursive_equations,
    joint_wrenches, route,
};
pub(crate) use routh::reduce;
pub(crate) use system::System;
pub use theorems::LINEAR_GENERATOR_COORDINATES;
pub(crate) use theorems::theorems;
