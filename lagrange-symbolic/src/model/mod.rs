//! A mechanical model as a front end declares it (the derive's attributes or a model
//! file), and its validation into a [`CheckedModel`] whose expressions are parsed and
//! refer only to known names.
//!
//! Validation needs no computer algebra: every error here is found from the text alone,
//! and each names the [`Item`] it is about so that a front end can point at it.

mod bodies;
mod bounds;
mod check;
mod checked;
mod draw;
mod error;
mod names;
mod physical;
mod rotation;
mod scope;
mod velocity;
mod written;

pub use bodies::MAX_TREE_DEPTH;
pub use bounds::{MAX_CONSTANT_BITS, MAX_DEGREE};
pub use check::{MAX_COORDINATES, momentum_name};
pub use checked::{
    CheckedBody, CheckedDraw, CheckedJoint, CheckedModel, CheckedParticle, Energy, Matrix3,
    Orientation, Placement,
};
pub use draw::{MAX_DRAWN, ORIGIN};
pub use error::{Item, ModelError};
pub use names::{MAX_NAME_LEN, problem as name_problem, reserved};
pub use physical::{Unphysical, inertia_problem, mass_problem, radius_problem};
pub use rotation::{Axis, Rotation};
pub use written::{Body, Draw, Joint, Model, Particle};
