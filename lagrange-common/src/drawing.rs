//! What the points of a model's drawing are.

/// What a point of a model's drawing is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub enum PointKind {
    /// A particle.
    Particle,
    /// A body's centre of mass, where its frame is drawn.
    Body,
    /// The joint of a jointed body (its frame's origin).
    Joint,
    /// A point the model names in its drawing.
    Point,
}
