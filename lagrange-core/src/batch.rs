//! Many states per call: forward dynamics, inverse dynamics, `M` and the derivatives of
//! forward dynamics over a slice of states, each state's result the one a single call
//! gives (the same bits), the states spread over the processor's threads.
//!
//! For model-predictive control over a horizon, sampling-based planning and learning,
//! which evaluate a model at many states at once. Any system shared between threads
//! (`Sync`, as the derive's structs and loaded models are) has these methods ([`Batch`]).

use std::num::NonZeroUsize;
use std::sync::OnceLock;

use nalgebra::{DefaultAllocator, Dim, OMatrix, OVector};

use crate::error::Error;
use crate::size::DimAllocator;
use crate::solve::AccelerationJacobians;
use crate::system::{LagrangianSystem, TimedPhase};

/// The fewest states a thread is given: below it, starting a thread costs more than the
/// calls it would take over (tens of microseconds against one UR5's forward dynamics of a
/// third of a microsecond).
pub const STATES_PER_THREAD: usize = 64;

/// A system's calls over many states `(t, q, q̇)`: each result is what the single call
/// at that state returns, bit for bit, in the states' order. Implemented for every
/// [`LagrangianSystem`] that can be shared between threads.
pub trait Batch<N: Dim>: LagrangianSystem<N> + Sync
where
    DefaultAllocator: DimAllocator<N>,
    OVector<f64, N>: Send + Sync,
    OMatrix<f64, N, N>: Send,
    AccelerationJacobians<N>: Send,
{
    /// [`accelerations`](LagrangianSystem::accelerations) at each state.
    fn accelerations_each(&self, states: &[TimedPhase<N>]) -> Vec<Result<OVector<f64, N>, Error>> {
        each(states, |(t, q, qd)| self.accelerations(*t, q, qd))
    }

    /// [`inverse_dynamics`](LagrangianSystem::inverse_dynamics) at each state with the
    /// accelerations of the same index. Errors unless there are as many as states.
    fn inverse_dynamics_each(
        &self,
        states: &[TimedPhase<N>],
        accelerations: &[OVector<f64, N>],
    ) -> Result<Vec<OVector<f64, N>>, Error> {
        if accelerations.len() != states.len() {
            return Err(Error::InvalidInput(format!(
                "{} accelerations for {} states",
                accelerations.len(),
                states.len()
            )));
        }
        let pairs: Vec<(&TimedPhase<N>, &OVector<f64, N>)> =
            states.iter().zip(accelerations).collect();
        Ok(each(&pairs, |((t, q, qd), qdd)| {
            self.inverse_dynamics(*t, q, qd, qdd)
        }))
    }

    /// [`mass_matrix`](LagrangianSystem::mass_matrix) at each state.
    fn mass_matrix_each(&self, states: &[TimedPhase<N>]) -> Vec<OMatrix<f64, N, N>> {
        each(states, |(t, q, qd)| self.mass_matrix(*t, q, qd))
    }

    /// [`acceleration_jacobians`](LagrangianSystem::acceleration_jacobians) at each state.
    fn acceleration_jacobians_each(
        &self,
        states: &[TimedPhase<N>],
    ) -> Vec<Result<AccelerationJacobians<N>, Error>> {
        each(states, |(t, q, qd)| self.acceleration_jacobians(*t, q, qd))
    }
}

impl<N: Dim, S: LagrangianSystem<N> + Sync> Batch<N> for S
where
    DefaultAllocator: DimAllocator<N>,
    // Every size's vectors and matrices are (fixed or run-time sized): nalgebra states
    // it per storage, not for a generic dimension.
    OVector<f64, N>: Send + Sync,
    OMatrix<f64, N, N>: Send,
    AccelerationJacobians<N>: Send,
{
}

/// `f` of every item, in order: the items in contiguous blocks, one per thread, no block
/// smaller than [`STATES_PER_THREAD`] and no more blocks than the processor's threads (as
/// the first large batch found them).
fn each<T: Sync, R: Send>(items: &[T], f: impl Fn(&T) -> R + Sync) -> Vec<R> {
    // One block without asking for the threads: asking reads the control groups' files
    // on Linux (tens of microseconds, more than a small batch's calls).
    if items.len() < 2 * STATES_PER_THREAD {
        return items.iter().map(&f).collect();
    }
    static THREADS: OnceLock<usize> = OnceLock::new();
    let threads =
        *THREADS.get_or_init(|| std::thread::available_parallelism().map_or(1, NonZeroUsize::get));
    let blocks = (items.len() / STATES_PER_THREAD).clamp(1, threads);
    if blocks == 1 {
        return items.iter().map(&f).collect();
    }
    let size = items.len().div_ceil(blocks);
    std::thread::scope(|scope| {
        let f = &f;
        let handles: Vec<_> = items
            .chunks(size)
            .map(|block| scope.spawn(move || block.iter().map(f).collect::<Vec<R>>()))
            .collect();
        handles
            .into_iter()
            .flat_map(|handle| match handle.join() {
                Ok(results) => results,
                // A panic in a block is the caller's: it goes on as if in one thread.
                Err(panic) => std::panic::resume_unwind(panic),
            })
            .collect()
    })
}

#[cfg(test)]
mod tests {
    use nalgebra::{U2, Vector2};

    use super::*;
    use crate::test_systems::DoublePendulum;

    fn system() -> DoublePendulum {
        DoublePendulum {
            m1: 1.0,
            m2: 1.5,
            l1: 1.0,
            l2: 0.8,
            g: 9.81,
        }
    }

    /// `n` states of the double pendulum, spread over its phase space.
    fn states(n: usize) -> Vec<TimedPhase<U2>> {
        (0..n)
            .map(|i| {
                let x = i as f64 * 0.37;
                (
                    0.1 * x,
                    Vector2::new(x.sin(), (1.3 * x).cos()),
                    Vector2::new(0.5 * x.cos(), -x.sin()),
                )
            })
            .collect()
    }

    /// Enough states for several threads, and a few for one: every result is the single
    /// call's, bit for bit, in order.
    #[test]
    fn each_result_is_the_single_calls() {
        let system = system();
        for n in [0, 3, 5 * STATES_PER_THREAD + 7] {
            let states = states(n);
            let batch = system.accelerations_each(&states);
            let masses = system.mass_matrix_each(&states);
            assert_eq!(batch.len(), n);
            for (k, (t, q, qd)) in states.iter().enumerate() {
                let one = system.accelerations(*t, q, qd).expect("q̈");
                let bits = |v: &Vector2<f64>| v.iter().map(|x| x.to_bits()).collect::<Vec<_>>();
                assert_eq!(bits(batch[k].as_ref().expect("q̈")), bits(&one), "state {k}");
                assert_eq!(masses[k], system.mass_matrix(*t, q, qd), "state {k}");
            }
            let accelerations: Vec<_> = batch.into_iter().map(|a| a.expect("q̈")).collect();
            let torques = system
                .inverse_dynamics_each(&states, &accelerations)
                .expect("as many accelerations as states");
            for (k, (t, q, qd)) in states.iter().enumerate() {
                assert_eq!(
                    torques[k],
                    system.inverse_dynamics(*t, q, qd, &accelerations[k])
                );
            }
        }
    }

    #[test]
    fn a_count_of_accelerations_unlike_the_states_is_an_error() {
        let system = system();
        let states = states(4);
        let error = system
            .inverse_dynamics_each(&states, &[Vector2::zeros()])
            .expect_err("one acceleration for four states");
        assert!(
            error.to_string().contains("1 accelerations for 4 states"),
            "{error}"
        );
    }
}
