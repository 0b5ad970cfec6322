//! Errors of a model, each about one item of it.

use std::fmt;

/// The part of a [`Model`](super::Model) an error is about.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Item {
    /// The model as a whole.
    Model,
    /// The model's name.
    Name,
    /// The coordinate list as a whole (e.g. it is missing).
    Coordinates,
    /// Coordinate `i`.
    Coordinate(usize),
    /// Parameter `i`.
    Parameter(usize),
    /// Input `i` (in the order of [`Model::inputs`](super::Model::inputs)).
    Input(usize),
    /// The kinetic energy.
    Kinetic,
    /// The potential energy.
    Potential,
    /// The Lagrangian.
    Lagrangian,
    /// Generalized force `i` (in the order of [`Model::forces`](super::Model::forces)).
    Force(usize),
    /// The coordinate generalized force `i` acts on.
    ForceCoordinate(usize),
    /// The dissipation function.
    Dissipation,
    /// The gravitational field.
    Gravity,
    /// Ignored coordinate `i` (in the order of [`Model::ignore`](super::Model::ignore)).
    Ignore(usize),
    /// Constraint `i` (in the order of [`Model::constraints`](super::Model::constraints)).
    Constraint(usize),
    /// Velocity constraint `i` (in the order of
    /// [`Model::velocity_constraints`](super::Model::velocity_constraints)).
    VelocityConstraint(usize),
    /// Particle `i`.
    Particle(usize),
    /// Body `i`.
    Body(usize),
    /// Drawing entry `i` (in the order of [`Model::draw`](super::Model::draw)).
    Draw(usize),
}

/// A problem with a model, and the item it is about.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ModelError {
    /// Where the problem is.
    pub item: Item,
    /// What is wrong, in a sentence that names the offending thing.
    pub message: String,
}

impl ModelError {
    /// A failure about the model as a whole that is not in any one item (the engine
    /// failed, a stored derivation is unusable), as the error list the pipeline returns.
    pub fn whole_model(message: String) -> Vec<Self> {
        vec![ModelError {
            item: Item::Model,
            message,
        }]
    }
}

impl fmt::Display for ModelError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message)
    }
}

pub(super) fn item_label(item: Item) -> &'static str {
    match item {
        Item::Kinetic => "the kinetic energy",
        Item::Potential => "the potential energy",
        Item::Lagrangian => "the Lagrangian",
        Item::Force(_) => "the generalized force",
        Item::Dissipation => "the dissipation function",
        Item::Gravity => "the gravity field",
        Item::Constraint(_) => "the constraint",
        Item::VelocityConstraint(_) => "the velocity constraint",
        Item::Particle(_) => "the particle",
        Item::Body(_) => "the body",
        Item::Draw(_) => "the drawn point",
        Item::Model
        | Item::Name
        | Item::Coordinates
        | Item::Coordinate(_)
        | Item::Parameter(_)
        | Item::Input(_)
        | Item::ForceCoordinate(_)
        | Item::Ignore(_) => "the model",
    }
}
