//! Running a system and recording what it did: the [`Simulation`] builder, the
//! [`Trajectory`] it records (invariants and their drift, balance laws), and the
//! [`Event`]s that note, stop or reset a run.

mod balance;
mod drive;
pub(crate) mod event;
#[cfg(test)]
mod recorded_action;
mod simulation;
mod trajectory;

pub use balance::{Balance, balance_table};
pub use event::{ACCUMULATION_WINDOW, Event, Occurrence, RESTART_WINDOW};
pub use simulation::{DEFAULT_MAX_EVENTS, DEFAULT_MAX_STEPS, Simulation, Stopped};
pub use trajectory::{Invariant, RELATIVE_FLOOR, Trajectory};
