//! Many states per call: forward dynamics, inverse dynamics, `M`, `f`, the energy and
//! the derivatives of forward dynamics over a slice of states, written into slices the caller owns, each
//! state's result the one a single call gives (the same bits), the states spread over the
//! processor's threads.
//!
//! For model-predictive control over a horizon, sampling-based planning and learning,
//! which evaluate a model at many states at once. The states and the results are laid out
//! flat, state after state, as NumPy's `(m, n)` arrays and most solvers' buffers are;
//! nothing is allocated per state that outlives its call. Any system shared between
//! threads (`Sync`, as the derive's structs and loaded models are) has these methods
//! ([`Batch`]).

use std::fmt;
use std::num::NonZeroUsize;
use std::sync::OnceLock;

use nalgebra::{DefaultAllocator, Dim, OVector, U1};

use crate::copy::copy_values;
use crate::error::Error;
use crate::size::DimAllocator;
use crate::system::LagrangianSystem;

/// The fewest states a thread is given: below it, starting a thread costs more than the
/// calls it would take over (tens of microseconds against one UR5's forward dynamics of a
/// third of a microsecond).
pub const STATES_PER_THREAD: usize = 64;

/// Many states at one time `t`, laid out flat: `q` and `q̇` hold `m · n` values each (`n`
/// coordinates), state `k`'s at `k·n .. (k+1)·n`.
#[derive(Clone, Copy, Debug)]
pub struct BatchStates<'a> {
    /// The time of every state.
    pub t: f64,
    /// The coordinates, state after state.
    pub q: &'a [f64],
    /// The velocities, state after state.
    pub qd: &'a [f64],
}

/// Where [`Batch::acceleration_jacobians_into`] writes, state after state: `q̈` (`n`
/// values a state), `∂q̈/∂q` and `∂q̈/∂q̇` (`n × n` each, row by row: `∂q̈ᵢ/∂xⱼ` at
/// `i·n + j`) and `∂q̈/∂p` (`n × p`, row by row, one column per parameter).
#[derive(Debug)]
pub struct JacobianBuffers<'a> {
    /// `q̈`.
    pub accelerations: &'a mut [f64],
    /// `∂q̈/∂q`.
    pub coordinates: &'a mut [f64],
    /// `∂q̈/∂q̇`.
    pub velocities: &'a mut [f64],
    /// `∂q̈/∂p`.
    pub parameters: &'a mut [f64],
}

/// Why a batch stopped.
#[derive(Debug)]
pub enum BatchError {
    /// A slice's length is not what the states and the model make it (nothing written).
    Length(String),
    /// The call at state `index` failed (the first such state; the results of the states
    /// before it are written, the others are not defined).
    State {
        /// The state's index.
        index: usize,
        /// The single call's error.
        error: Error,
    },
}

impl fmt::Display for BatchError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            BatchError::Length(why) => f.write_str(why),
            BatchError::State { index, error } => write!(f, "state {index}: {error}"),
        }
    }
}

impl std::error::Error for BatchError {}

/// A system's calls over many [`BatchStates`], each state's results written where the
/// single call's would be laid out flat, bit for bit. Implemented for every [`LagrangianSystem`]
/// that can be shared between threads.
pub trait Batch<N: Dim>: LagrangianSystem<N> + Sync
where
    DefaultAllocator: DimAllocator<N>,
{
    /// [`accelerations`](LagrangianSystem::accelerations) at each state into `out`
    /// (`m · n` values).
    fn accelerations_into(
        &self,
        states: BatchStates<'_>,
        out: &mut [f64],
    ) -> Result<(), BatchError> {
        let (m, n) = shape(self, states)?;
        each_into(states, m, [("out", out, n)], |_, (q, qd), [out]| {
            self.write_accelerations(states.t, q, qd, out)
        })
    }

    /// [`inverse_dynamics`](LagrangianSystem::inverse_dynamics) at each state with the
    /// accelerations `qdd` (`m · n` values, laid out as `q`) into `out` (`m · n`).
    fn inverse_dynamics_into(
        &self,
        states: BatchStates<'_>,
        qdd: &[f64],
        out: &mut [f64],
    ) -> Result<(), BatchError> {
        let (m, n) = shape(self, states)?;
        length("qdd", qdd.len(), m * n)?;
        each_into(states, m, [("out", out, n)], |k, (q, qd), [out]| {
            let qdd = vector::<N>(&qdd[k * n..(k + 1) * n]);
            let tau = self.inverse_dynamics(states.t, q, qd, &qdd);
            out.copy_from_slice(tau.as_slice());
            Ok(())
        })
    }

    /// [`mass_matrix`](LagrangianSystem::mass_matrix) at each state into `out` (`m · n²`
    /// values, each `M` row by row).
    fn mass_matrix_into(&self, states: BatchStates<'_>, out: &mut [f64]) -> Result<(), BatchError> {
        let (m, n) = shape(self, states)?;
        each_into(states, m, [("out", out, n * n)], |_, (q, qd), [out]| {
            row_major(&self.mass_matrix(states.t, q, qd), out);
            Ok(())
        })
    }

    /// [`forcing`](LagrangianSystem::forcing) at each state into `out` (`m · n` values).
    fn forcing_into(&self, states: BatchStates<'_>, out: &mut [f64]) -> Result<(), BatchError> {
        let (m, n) = shape(self, states)?;
        each_into(states, m, [("out", out, n)], |_, (q, qd), [out]| {
            out.copy_from_slice(self.forcing(states.t, q, qd).as_slice());
            Ok(())
        })
    }

    /// [`energy`](LagrangianSystem::energy) at each state into `out` (`m` values).
    fn energy_into(&self, states: BatchStates<'_>, out: &mut [f64]) -> Result<(), BatchError> {
        let (m, _) = shape(self, states)?;
        each_into(states, m, [("out", out, 1)], |_, (q, qd), [out]| {
            out[0] = self.energy(states.t, q, qd);
            Ok(())
        })
    }

    /// [`acceleration_jacobians`](LagrangianSystem::acceleration_jacobians) at each state
    /// into `out`.
    fn acceleration_jacobians_into(
        &self,
        states: BatchStates<'_>,
        out: JacobianBuffers<'_>,
    ) -> Result<(), BatchError> {
        let (m, n) = shape(self, states)?;
        let p = self.info().parameters.len();
        let outs = [
            ("accelerations", out.accelerations, n),
            ("coordinates", out.coordinates, n * n),
            ("velocities", out.velocities, n * n),
            ("parameters", out.parameters, n * p),
        ];
        each_into(states, m, outs, |_, (q, qd), [qdd, dq, dqd, dp]| {
            let j = self.acceleration_jacobians(states.t, q, qd)?;
            qdd.copy_from_slice(j.accelerations.as_slice());
            row_major(&j.coordinates, dq);
            row_major(&j.velocities, dqd);
            row_major(&j.parameters, dp);
            Ok(())
        })
    }
}

impl<N: Dim, S: LagrangianSystem<N> + Sync> Batch<N> for S where DefaultAllocator: DimAllocator<N> {}

/// The number of states `m` and of coordinates `n`, or why the slices do not hold states.
fn shape<N: Dim, S: LagrangianSystem<N>>(
    system: &S,
    states: BatchStates<'_>,
) -> Result<(usize, usize), BatchError>
where
    DefaultAllocator: DimAllocator<N>,
{
    let n = system.info().coordinates.len();
    let m = states.q.len().checked_div(n).unwrap_or(0);
    length("q", states.q.len(), m * n)?;
    length("qd", states.qd.len(), m * n)?;
    Ok((m, n))
}

/// An error unless a slice `name` has the `expected` length.
fn length(name: &str, found: usize, expected: usize) -> Result<(), BatchError> {
    if found == expected {
        return Ok(());
    }
    Err(BatchError::Length(format!(
        "{name} holds {found} values where {expected} were expected"
    )))
}

/// `values` as a vector of `N` (their count is `N`'s, checked by [`shape`]).
fn vector<N: Dim>(values: &[f64]) -> OVector<f64, N>
where
    DefaultAllocator: DimAllocator<N>,
{
    OVector::from_column_slice_generic(N::from_usize(values.len()), U1, values)
}

/// The `k`-th state's `(q, q̇)`.
fn state<N: Dim>(states: BatchStates<'_>, k: usize, n: usize) -> (OVector<f64, N>, OVector<f64, N>)
where
    DefaultAllocator: DimAllocator<N>,
{
    let at = k * n..(k + 1) * n;
    (vector(&states.q[at.clone()]), vector(&states.qd[at]))
}

/// A matrix's entries row by row into `out`.
fn row_major<R: Dim, C: Dim, S: nalgebra::RawStorage<f64, R, C>>(
    m: &nalgebra::Matrix<f64, R, C, S>,
    out: &mut [f64],
) {
    let columns = m.ncols();
    for ((i, j), x) in (0..m.nrows())
        .flat_map(|i| (0..columns).map(move |j| (i, j)))
        .zip(out)
    {
        *x = m[(i, j)];
    }
}

/// The processor's threads, asked once (asking reads the control groups' files on Linux,
/// tens of microseconds).
fn threads() -> usize {
    static THREADS: OnceLock<usize> = OnceLock::new();
    *THREADS.get_or_init(|| std::thread::available_parallelism().map_or(1, NonZeroUsize::get))
}

/// `f(k, (q, q̇), outs)` for every state `k < m` of `states`, each output the state's
/// `width` values of the caller's slice `(name, slice, width)` (its length checked first):
/// the states in contiguous blocks, one per thread, no block smaller than
/// [`STATES_PER_THREAD`] and no more blocks than the processor's threads. Stops at the
/// first state whose call fails, and returns it.
fn each_into<N: Dim, const K: usize, F>(
    states: BatchStates<'_>,
    m: usize,
    outs: [(&str, &mut [f64], usize); K],
    f: F,
) -> Result<(), BatchError>
where
    DefaultAllocator: DimAllocator<N>,
    F: Fn(usize, (&OVector<f64, N>, &OVector<f64, N>), [&mut [f64]; K]) -> Result<(), Error> + Sync,
{
    for (name, out, width) in &outs {
        length(name, out.len(), m * width)?;
    }
    let widths = outs.each_ref().map(|(_, _, width)| *width);
    let mut rest = outs.map(|(_, out, _)| out);
    // Splits the next `count` states' values off each output.
    let mut take = |count: usize| -> [&mut [f64]; K] {
        std::array::from_fn(|i| {
            let (head, tail) = std::mem::take(&mut rest[i]).split_at_mut(count * widths[i]);
            rest[i] = tail;
            head
        })
    };
    if m == 0 {
        return Ok(());
    }
    let n = states.q.len() / m;
    let run = |first: usize, count: usize, mut block: [&mut [f64]; K]| -> Result<(), BatchError> {
        // One `(q, q̇)` for the block, each state copied in: at run-time sizes a vector made
        // for each state would be two allocations a state.
        let (mut q, mut qd) = state::<N>(states, first, n);
        for k in first..first + count {
            let at = k * n..(k + 1) * n;
            copy_values(q.as_mut_slice(), &states.q[at.clone()]);
            copy_values(qd.as_mut_slice(), &states.qd[at]);
            let one = std::array::from_fn(|i| {
                let (head, tail) = std::mem::take(&mut block[i]).split_at_mut(widths[i]);
                block[i] = tail;
                head
            });
            f(k, (&q, &qd), one).map_err(|error| BatchError::State { index: k, error })?;
        }
        Ok(())
    };
    // One block without asking for the threads when the batch is small.
    let blocks = match m < 2 * STATES_PER_THREAD {
        true => 1,
        false => (m / STATES_PER_THREAD).clamp(1, threads()),
    };
    if blocks == 1 {
        return run(0, m, take(m));
    }
    let size = m.div_ceil(blocks);
    let parts: Vec<(usize, usize, [&mut [f64]; K])> = (0..m)
        .step_by(size)
        .map(|first| {
            let count = size.min(m - first);
            (first, count, take(count))
        })
        .collect();
    std::thread::scope(|scope| {
        let run = &run;
        let handles: Vec<_> = parts
            .into_iter()
            .map(|(first, count, block)| scope.spawn(move || run(first, count, block)))
            .collect();
        // The blocks in order: the first failure found is the lowest state's (the scope
        // joins the others).
        handles
            .into_iter()
            .try_for_each(|handle| match handle.join() {
                Ok(result) => result,
                // A panic in a block is the caller's: it goes on as if in one thread.
                Err(panic) => std::panic::resume_unwind(panic),
            })
    })
}

#[cfg(test)]
mod tests {
    use nalgebra::{U2, Vector2};

    use super::*;
    use crate::system::TimedPhase;
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

    /// `m` states of the double pendulum at `t = 0.3`, spread over its phase space, flat.
    fn flat(m: usize) -> (Vec<f64>, Vec<f64>) {
        let mut q = Vec::new();
        let mut qd = Vec::new();
        for i in 0..m {
            let x = i as f64 * 0.37;
            q.extend([x.sin(), (1.3 * x).cos()]);
            qd.extend([0.5 * x.cos(), -x.sin()]);
        }
        (q, qd)
    }

    fn bits(v: &[f64]) -> Vec<u64> {
        v.iter().map(|x| x.to_bits()).collect()
    }

    /// Enough states for several threads, a few for one, and none: every result is the
    /// single call's, bit for bit, where the single call's would be laid out.
    #[test]
    fn each_result_is_the_single_calls() {
        let system = system();
        let t = 0.3;
        for m in [0, 3, 5 * STATES_PER_THREAD + 7] {
            let (q, qd) = flat(m);
            let states = BatchStates { t, q: &q, qd: &qd };
            let mut qdd = vec![f64::NAN; 2 * m];
            let mut masses = vec![f64::NAN; 4 * m];
            let mut tau = vec![f64::NAN; 2 * m];
            let (mut forcing, mut energy) = (vec![f64::NAN; 2 * m], vec![f64::NAN; m]);
            system.forcing_into(states, &mut forcing).expect("f");
            system.energy_into(states, &mut energy).expect("E");
            let (mut dq, mut dqd) = (vec![f64::NAN; 4 * m], vec![f64::NAN; 4 * m]);
            let mut dp = vec![f64::NAN; 10 * m];
            system.accelerations_into(states, &mut qdd).expect("q̈");
            system.mass_matrix_into(states, &mut masses).expect("M");
            system
                .inverse_dynamics_into(states, &qdd, &mut tau)
                .expect("τ");
            let buffers = JacobianBuffers {
                accelerations: &mut vec![f64::NAN; 2 * m],
                coordinates: &mut dq,
                velocities: &mut dqd,
                parameters: &mut dp,
            };
            system
                .acceleration_jacobians_into(states, buffers)
                .expect("∇q̈");
            for k in 0..m {
                let one: TimedPhase<U2> = (
                    t,
                    Vector2::new(q[2 * k], q[2 * k + 1]),
                    Vector2::new(qd[2 * k], qd[2 * k + 1]),
                );
                let (t, q, qd) = &one;
                let a = system.accelerations(*t, q, qd).expect("q̈");
                assert_eq!(
                    bits(&qdd[2 * k..2 * k + 2]),
                    bits(a.as_slice()),
                    "state {k}"
                );
                let mass = system.mass_matrix(*t, q, qd);
                let rows = [mass[(0, 0)], mass[(0, 1)], mass[(1, 0)], mass[(1, 1)]];
                assert_eq!(bits(&masses[4 * k..4 * k + 4]), bits(&rows), "state {k}");
                let f = system.forcing(*t, q, qd);
                assert_eq!(bits(&forcing[2 * k..2 * k + 2]), bits(f.as_slice()));
                assert_eq!(energy[k].to_bits(), system.energy(*t, q, qd).to_bits());
                let torque = system.inverse_dynamics(*t, q, qd, &a);
                assert_eq!(bits(&tau[2 * k..2 * k + 2]), bits(torque.as_slice()));
                let j = system.acceleration_jacobians(*t, q, qd).expect("∇q̈");
                let at = |m: &nalgebra::DMatrix<f64>, i: usize, j: usize| m[(i, j)];
                assert_eq!(dq[4 * k + 1].to_bits(), j.coordinates[(0, 1)].to_bits());
                assert_eq!(dqd[4 * k + 2].to_bits(), j.velocities[(1, 0)].to_bits());
                // ∂q̈/∂p row by row: q̈₁'s derivative by the third parameter at 1·5 + 2.
                assert_eq!(dp[10 * k + 7].to_bits(), at(&j.parameters, 1, 2).to_bits());
            }
        }
    }

    #[test]
    fn slices_of_the_wrong_length_are_refused_before_any_call() {
        let system = system();
        let (q, qd) = flat(4);
        let states = BatchStates {
            t: 0.0,
            q: &q,
            qd: &qd,
        };
        let mut out = vec![0.0; 8];
        let short = BatchStates {
            qd: &qd[..6],
            ..states
        };
        let error = system.accelerations_into(short, &mut out).unwrap_err();
        assert_eq!(error.to_string(), "qd holds 6 values where 8 were expected");
        let odd = BatchStates {
            q: &q[..7],
            qd: &qd[..7],
            ..states
        };
        let error = system.accelerations_into(odd, &mut out).unwrap_err();
        assert_eq!(error.to_string(), "q holds 7 values where 6 were expected");
        let error = system
            .inverse_dynamics_into(states, &[0.0], &mut out)
            .unwrap_err();
        assert_eq!(
            error.to_string(),
            "qdd holds 1 values where 8 were expected"
        );
        let error = system.mass_matrix_into(states, &mut out).unwrap_err();
        assert_eq!(
            error.to_string(),
            "out holds 8 values where 16 were expected"
        );
        assert!(out.iter().all(|x| *x == 0.0), "nothing written");
    }

    /// The first state whose call fails is reported, with its index, from any block.
    #[test]
    fn the_first_failing_state_is_named() {
        let system = system();
        let m = 5 * STATES_PER_THREAD + 7;
        // On two threads the blocks are states 0–163 and 164–326.
        for failing in [[100, 300], [200, 300]] {
            let (mut q, qd) = flat(m);
            for k in failing {
                q[2 * k] = f64::NAN;
            }
            let mut out = vec![0.0; 2 * m];
            let states = BatchStates {
                t: 0.0,
                q: &q,
                qd: &qd,
            };
            match system.accelerations_into(states, &mut out) {
                Err(BatchError::State { index, .. }) => assert_eq!(index, failing[0]),
                other => panic!("{other:?}"),
            }
        }
    }
}
