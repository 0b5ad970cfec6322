#![doc = include_str!("../README.md")]

/// The chapters of the book in `docs/book/`, compiled for `cargo test --doc` only, so that
/// every Rust block in them is a doctest, as the README's are. They stay out of the
/// rendered documentation: they are read as Markdown, where their links to one another
/// and to files of the repository resolve, which in rustdoc they would not.
#[cfg(doctest)]
mod book {
    #[doc = include_str!("../docs/book/README.md")]
    mod contents {}
    #[doc = include_str!("../docs/book/model-syntax.md")]
    mod model_syntax {}
    #[doc = include_str!("../docs/book/limits.md")]
    mod limits {}
    #[doc = include_str!("../docs/book/derive.md")]
    mod derive {}
    #[doc = include_str!("../docs/book/bodies.md")]
    mod bodies {}
    #[doc = include_str!("../docs/book/routh.md")]
    mod routh {}
    #[doc = include_str!("../docs/book/constraints.md")]
    mod constraints {}
    #[doc = include_str!("../docs/book/theorems.md")]
    mod theorems {}
    #[doc = include_str!("../docs/book/runtime.md")]
    mod runtime {}
    #[doc = include_str!("../docs/book/control.md")]
    mod control {}
    #[doc = include_str!("../docs/book/action.md")]
    mod action {}
    #[doc = include_str!("../docs/book/report.md")]
    mod report {}
    #[doc = include_str!("../docs/book/cli.md")]
    mod cli {}
    #[doc = include_str!("../docs/book/examples.md")]
    mod examples {}
    #[doc = include_str!("../docs/book/offline.md")]
    mod offline {}
    #[doc = include_str!("../docs/book/build-times.md")]
    mod build_times {}
    #[doc = include_str!("../docs/book/layout.md")]
    mod layout {}
}

extern crate self as lagrange;

pub use lagrange_core as core;
pub use lagrange_core::nalgebra;
pub use lagrange_core::{
    Axis, Balance, Check, CheckReport, Condition, Connect, Conserved, ConstrainedMotion,
    ConstrainedSystem, ConstraintInfo, Controlled, Drawing, DrawnPoint, DynamicFunctions, Error,
    Event, Formula, FromParameterValues, HtmlReport, IndependentSpeeds, Integrator, Invariant,
    LagrangianSystem, Linearization, MinimalLinearization, ModelInfo, Motion, NormalMode,
    Occurrence, Omitted, PointKind, ReducedSystem, Relation, Sample, Series, Simulation,
    SpeedBasis, Stability, Stopped, Theorem, TheoremInfo, Trajectory, constrained_equilibrium,
    constrained_normal_modes, equilibrium, linearize, linearize_constrained, normal_modes,
};
pub use lagrange_macros::Lagrangian;

/// Models loaded at run time (feature `loaded`): the crate `lagrange-loaded`.
#[cfg(feature = "loaded")]
pub use lagrange_loaded as loaded;
