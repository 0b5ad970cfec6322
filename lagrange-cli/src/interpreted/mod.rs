//! The derived equations of a model file as a
//! [`LagrangianSystem`](lagrange_core::LagrangianSystem): the engine's programs
//! run by the IR interpreter, so the command integrates and checks with the same runtime
//! as the derive, without compiling anything. The interpreter is the `f64` backend of the
//! same walk over the IR as the derive's code, so each program computes the derive's
//! bits (see `tests/cli_generate.rs`).
//!
//! The runtime is generic over the coordinate count `N` and the constraint count `K`;
//! [`with_system`] picks the instantiation for a model at run time, and
//! [`with_reduced_system`] for a reduced model (Routh) with `J` ignored coordinates.

use std::sync::Arc;

use lagrange_core::ModelInfo;
use lagrange_core::nalgebra::{SMatrix, SVector};
use lagrange_symbolic::equations::{self, ConstraintEquations, Equations, Input, Layout};
use lagrange_symbolic::ir::Program;

use super::Failure;
pub(crate) use reduced::{ReducedState, WithReducedSystem, with_reduced_system};

mod reduced;
mod system;

/// What the systems of one model share.
struct Model {
    equations: Equations,
    info: ModelInfo,
    layout: Layout,
    /// For a reduced model: the names of the ignored coordinates and `χ̇(t, q, q̇, C)`.
    ignored: Option<(Vec<String>, Program)>,
}

/// A model's equations with parameter values, evaluated by interpreting the IR; `J` is
/// the number of ignored coordinates of a reduced model (0 otherwise).
#[derive(Clone)]
pub(crate) struct Interpreted<const N: usize, const K: usize, const J: usize = 0> {
    model: Arc<Model>,
    values: Vec<f64>,
}

/// Work to do with a model's system once its sizes are known.
pub(crate) trait WithSystem {
    /// The work's result.
    type Output;
    /// Does the work.
    fn call<const N: usize, const K: usize>(self, system: Interpreted<N, K>) -> Self::Output;
}

/// Builds the model's system with parameter `values` (in the model's order) and hands it
/// to `work`. Errors for a wrong number of values, and for sizes beyond those compiled in
/// (up to 8 coordinates and 3 constraints, and 8 with 5 for the benchmark bicycle).
pub(crate) fn with_system<W: WithSystem>(
    equations: &Equations,
    values: &[f64],
    work: W,
) -> Result<W::Output, Failure> {
    if values.len() != equations.parameters.len() {
        return Err(Failure(format!(
            "{} takes {} parameter values, got {}",
            equations.name,
            equations.parameters.len(),
            values.len()
        )));
    }
    let model = Arc::new(Model {
        info: equations.model_info(),
        layout: Layout::of(equations),
        equations: equations.clone(),
        ignored: None,
    });
    let values = values.to_vec();
    let n = equations.coordinates.len();
    let k = model.info.constraints.len();
    macro_rules! dispatch {
        ($(($n:literal, $k:literal)),*) => {
            match (n, k) {
                $(($n, $k) => Ok(work.call(Interpreted::<$n, $k> { model, values })),)*
                _ if k >= n => Err(Failure(format!(
                    "{}: its {k} constraints prescribe the motion of all {n} coordinates, which the lagrange command does not run; use #[derive(Lagrangian)] or `lagrange generate`",
                    equations.name
                ))),
                _ => Err(Failure(format!(
                    "{}: the lagrange command handles models of up to 8 coordinates and 3 constraints, and of 8 coordinates and 5 constraints as the benchmark bicycle has (this one has {n} and {k}); use #[derive(Lagrangian)] or `lagrange generate`",
                    equations.name
                ))),
            }
        };
    }
    dispatch!(
        (1, 0),
        (2, 0),
        (2, 1),
        (3, 0),
        (3, 1),
        (3, 2),
        (4, 0),
        (4, 1),
        (4, 2),
        (4, 3),
        (5, 0),
        (5, 1),
        (5, 2),
        (5, 3),
        (6, 0),
        (6, 1),
        (6, 2),
        (6, 3),
        (7, 0),
        (7, 1),
        (7, 2),
        (7, 3),
        (8, 0),
        (8, 1),
        (8, 2),
        (8, 3),
        (8, 5)
    )
}

impl<const N: usize, const K: usize, const J: usize> Interpreted<N, K, J> {
    /// Runs `program` at `(t, q, q̇)` with this system's parameter values.
    fn run<const M: usize>(
        &self,
        program: &Program,
        t: f64,
        q: &SVector<f64, N>,
        qd: &SVector<f64, N>,
    ) -> [f64; M] {
        let inputs: Vec<f64> = std::iter::once(t)
            .chain(q.iter().copied())
            .chain(qd.iter().copied())
            .chain(self.values.iter().copied())
            .collect();
        let mut out = [0.0; M];
        program.evaluate(&inputs, &mut out);
        out
    }

    /// Runs a program of positions (the drawing's) at `(t, q)`: its velocity slots hold
    /// NaN, as [`Inputs::of_positions`](equations::Inputs::of_positions) says.
    fn run_positions(&self, program: &Program, t: f64, q: &SVector<f64, N>) -> Vec<f64> {
        let layout = self.model.equations.inputs();
        let inputs: Vec<f64> = (0..layout.len())
            .map(|i| match layout.of_positions(i) {
                None => f64::NAN,
                Some(Input::Time) => t,
                Some(Input::Coordinate(k)) => q[k],
                Some(Input::Parameter(k)) => self.values[k],
                Some(other) => unreachable!("{other:?} is not an input of a position"),
            })
            .collect();
        let mut out = vec![0.0; program.outputs];
        program.evaluate(&inputs, &mut out);
        out
    }

    fn layout(&self) -> &Layout {
        &self.model.layout
    }

    fn programs(&self) -> &equations::Programs {
        &self.model.equations.programs
    }

    fn constraints(&self) -> &ConstraintEquations {
        self.model
            .equations
            .constraints
            .as_ref()
            .expect("K > 0 only for models with constraints")
    }

    fn vector(values: &[f64]) -> SVector<f64, N> {
        SVector::from_column_slice(values)
    }

    fn matrix(values: &[f64]) -> SMatrix<f64, N, N> {
        SMatrix::from_row_slice(values)
    }

    /// Evaluates a program with `outputs` values (sizes that const generics cannot
    /// spell, like `N²`), into a vector.
    fn run_dynamic(
        &self,
        program: &Program,
        t: f64,
        q: &SVector<f64, N>,
        qd: &SVector<f64, N>,
    ) -> Vec<f64> {
        self.run_extended(program, t, q, qd, &[])
    }

    /// [`run_dynamic`](Self::run_dynamic) of a Jacobian program, whose inputs go on with
    /// `extra` (the accelerations, then the multipliers).
    fn run_extended(
        &self,
        program: &Program,
        t: f64,
        q: &SVector<f64, N>,
        qd: &SVector<f64, N>,
        extra: &[f64],
    ) -> Vec<f64> {
        let inputs: Vec<f64> = std::iter::once(t)
            .chain(q.iter().copied())
            .chain(qd.iter().copied())
            .chain(self.values.iter().copied())
            .chain(extra.iter().copied())
            .collect();
        let mut out = vec![0.0; program.outputs];
        program.evaluate(&inputs, &mut out);
        out
    }
}
