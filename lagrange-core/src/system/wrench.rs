//! What a joint of a kinematic tree transmits.

use nalgebra::Vector3;

/// The wrench a joint transmits to its body (from the parent, or from the fixed frame):
/// the force, and the moment about the joint's origin, in the fixed frame. The component of
/// the moment along a revolute joint's axis (of the force along a prismatic one's) is what
/// a motor there must supply; the rest is what the bearing carries.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct JointWrench {
    /// The force.
    pub force: Vector3<f64>,
    /// The moment about the joint's origin.
    pub moment: Vector3<f64>,
}
