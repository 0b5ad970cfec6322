//! Where each quantity sits among the outputs of a model's programs: the rule is
//! [`lagrange_common::layout`], which the runtime reads too; here, the layout of an
//! [`Equations`].

pub use lagrange_common::layout::*;

use super::Equations;

impl Equations {
    /// The output layout of these equations' programs.
    pub fn layout(&self) -> Layout {
        Layout {
            coordinates: self.coordinates.len(),
            parameters: self.parameters.len(),
            constraints: self.constraints.as_ref().map_or(0, |c| c.text.len()),
        }
    }
}
