//! What the lagrange engine decides at compile time and its runtime reads at run time,
//! stated once for both: which integral a model conserves, the general theorems of
//! dynamics, the kinds of points a drawing has, what a model declares (`ModelInfo`), where
//! each quantity sits among the outputs of its programs (`layout`); and two rules both
//! sides follow, the reproducible generator of sampled states and the
//! escaping of text into HTML and XML.
//!
//! No dependency beyond the standard library; with the feature `serde`, the enums
//! serialize as the engine stores them.

mod conserved;
mod drawing;
mod info;
pub mod layout;
mod markup;
mod rng;
mod theorem;

pub use conserved::Conserved;
pub use drawing::PointKind;
pub use info::{
    ConstraintInfo, Drawing, DrawnPoint, Formula, ModelInfo, Omitted, Text, TheoremInfo,
};
pub use markup::escape_markup;
pub use rng::SplitMix64;
pub use theorem::{Axis, Theorem};
