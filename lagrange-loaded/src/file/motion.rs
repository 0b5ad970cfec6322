//! What moves a model file's model besides its equations: its `[inputs]` signals, which
//! set the inputs while it moves, and its `[[events]]`, as the runtime's events. The
//! command and the Python package run a file through these.

use lagrange_core::Event;
use lagrange_core::nalgebra::{DVector, Dyn};

use super::{Action, Direction, FileEvent, Target};
use crate::signal::Signal;

/// The value of the input parameter `k` at `(t, q, q̇)`: its signal's among `signals` (by
/// parameter index), else its value among the parameter `values`.
pub fn input_value(
    k: usize,
    signals: &[(usize, Signal)],
    values: &[f64],
    (t, q, qd): (f64, &[f64], &[f64]),
) -> f64 {
    match signals.iter().find(|(i, _)| *i == k) {
        Some((_, signal)) => signal.value(t, q, qd, values),
        None => values[k],
    }
}

/// The runtime's event of a file's `[[events]]` entry; its functions read the parameter
/// `values`.
pub fn event<'a>(event: &'a FileEvent, values: &'a [f64]) -> Event<'a, Dyn> {
    let when = &event.when;
    let core = Event::new(
        event.name.clone(),
        move |t, q: &DVector<f64>, qd: &DVector<f64>| {
            when.value(t, q.as_slice(), qd.as_slice(), values)
        },
    );
    let core = match event.direction {
        Direction::Rising => core.rising(),
        Direction::Falling => core.falling(),
        Direction::Either => core,
    };
    match &event.action {
        Action::Record => core,
        Action::Stop => core.stop(),
        Action::Reset(targets) => {
            core.reset(move |t, q: &DVector<f64>, qd: &DVector<f64>| {
                // Every new value is computed from the state before the reset.
                let (mut q_after, mut qd_after) = (q.clone(), qd.clone());
                for (target, signal) in targets {
                    let value = signal.value(t, q.as_slice(), qd.as_slice(), values);
                    match *target {
                        Target::Coordinate(i) => q_after[i] = value,
                        Target::Velocity(i) => qd_after[i] = value,
                    }
                }
                (q_after, qd_after)
            })
        }
    }
}
