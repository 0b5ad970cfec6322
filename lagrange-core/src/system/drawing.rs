//! What a report's animation draws of a model: its points, the lines between them and the
//! bodies' frames, placed at each instant by
//! [`LagrangianSystem::drawing`](super::LagrangianSystem::drawing).

use std::borrow::Cow;

use super::info::Text;

pub use lagrange_common::PointKind;

/// A point of a [`Drawing`].
#[derive(Debug, Clone, PartialEq)]
pub struct DrawnPoint {
    /// The name: the particle's, the body's, `body.joint`, or the drawn point's.
    pub name: Text,
    /// What the point is.
    pub kind: PointKind,
}

/// What a report's animation draws: points, the lines between them, and bodies' frames.
/// [`LagrangianSystem::drawing`](super::LagrangianSystem::drawing) places them.
#[derive(Debug, Clone, PartialEq)]
pub struct Drawing {
    /// The points, in the order of the positions `drawing` returns.
    pub points: Cow<'static, [DrawnPoint]>,
    /// Lines, as indices into `points`; `None` is the origin of the fixed frame.
    pub links: Cow<'static, [(usize, Option<usize>)]>,
    /// The points that carry a body's frame, in the order of the orientations `drawing`
    /// returns.
    pub frames: Cow<'static, [usize]>,
}
