//! The derived equations of a model file as a
//! [`LagrangianSystem`](lagrange_core::LagrangianSystem): the engine's programs
//! run by the IR interpreter, so the command integrates and checks with the same runtime
//! as the derive, without compiling anything. The interpreter is the `f64` backend of the
//! same walk over the IR as the derive's code, so each program computes the derive's
//! bits (see `tests/cli_generate.rs`).
//!
//! The runtime is generic over the sizes; an interpreted model is a system of any number
//! of coordinates and constraints, its vectors sized at run time (nalgebra's `Dyn`):
//! [`Interpreted::new`] for a model, [`Interpreted::reduced`] for its reduced model (Routh).

use std::sync::Arc;

use lagrange_core::ModelInfo;
use lagrange_core::nalgebra::{DMatrix, DVector};
use lagrange_symbolic::equations::{self, ConstraintEquations, Equations, Input, Layout};
use lagrange_symbolic::ir::Program;

use super::Failure;
pub(crate) use reduced::ReducedState;

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

/// A model's equations with parameter values, evaluated by interpreting the IR: a system
/// of any size, its vectors sized at run time (`Dyn`).
#[derive(Clone)]
pub(crate) struct Interpreted {
    model: Arc<Model>,
    values: Vec<f64>,
}

impl Interpreted {
    /// The model's system with parameter `values` (in the model's order). Errors for a
    /// wrong number of values, and for a model whose constraints leave no motion to
    /// integrate.
    pub(crate) fn new(equations: &Equations, values: &[f64]) -> Result<Interpreted, Failure> {
        let system = Interpreted::of(equations, values, None, "")?;
        let (n, k) = (
            equations.coordinates.len(),
            system.model.info.constraints.len(),
        );
        if k > 0 && k >= n {
            return Err(Failure(format!(
                "{}: its {k} constraints prescribe the motion of all {n} coordinates, which the lagrange command does not run; use #[derive(Lagrangian)] or `lagrange generate`",
                equations.name
            )));
        }
        Ok(system)
    }

    /// The system of `equations` with parameter `values`, and for a reduced model the
    /// ignored coordinates; `which` qualifies the model's name in the error.
    fn of(
        equations: &Equations,
        values: &[f64],
        ignored: Option<(Vec<String>, Program)>,
        which: &str,
    ) -> Result<Interpreted, Failure> {
        if values.len() != equations.parameters.len() {
            return Err(Failure(format!(
                "{which}{} takes {} parameter values, got {}",
                equations.name,
                equations.parameters.len(),
                values.len()
            )));
        }
        let model = Arc::new(Model {
            info: equations.model_info(),
            layout: Layout::of(equations),
            equations: equations.clone(),
            ignored,
        });
        Ok(Interpreted {
            model,
            values: values.to_vec(),
        })
    }

    /// Runs `program` at `(t, q, q̇)` with this system's parameter values, into `M`
    /// values.
    fn run<const M: usize>(
        &self,
        program: &Program,
        t: f64,
        q: &DVector<f64>,
        qd: &DVector<f64>,
    ) -> [f64; M] {
        let mut out = [0.0; M];
        program.evaluate(&self.inputs(t, q, qd, &[]), &mut out);
        out
    }

    /// Runs a program of positions (the drawing's) at `(t, q)`: its velocity slots hold
    /// NaN, as [`Inputs::of_positions`](equations::Inputs::of_positions) says.
    fn run_positions(&self, program: &Program, t: f64, q: &DVector<f64>) -> Vec<f64> {
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
            .expect("only the systems of models with constraints are asked for them")
    }

    /// Whether the model has constraints (holonomic or on the velocities).
    fn constrained(&self) -> bool {
        self.model.equations.constraints.is_some()
    }

    fn vector(values: &[f64]) -> DVector<f64> {
        DVector::from_column_slice(values)
    }

    /// The square matrix of the coordinates' size, from its entries row by row.
    fn matrix(&self, values: &[f64]) -> DMatrix<f64> {
        let n = self.model.equations.coordinates.len();
        DMatrix::from_row_slice(n, n, values)
    }

    /// Evaluates a program at `(t, q, q̇)` into its outputs.
    fn run_dynamic(
        &self,
        program: &Program,
        t: f64,
        q: &DVector<f64>,
        qd: &DVector<f64>,
    ) -> Vec<f64> {
        self.run_extended(program, t, q, qd, &[])
    }

    /// [`run_dynamic`](Self::run_dynamic) of a Jacobian program, whose inputs go on with
    /// `extra` (the accelerations, then the multipliers).
    fn run_extended(
        &self,
        program: &Program,
        t: f64,
        q: &DVector<f64>,
        qd: &DVector<f64>,
        extra: &[f64],
    ) -> Vec<f64> {
        let mut out = vec![0.0; program.outputs];
        program.evaluate(&self.inputs(t, q, qd, extra), &mut out);
        out
    }

    /// A program's inputs: `t`, `q`, `q̇`, the parameter values, then `extra`.
    fn inputs(&self, t: f64, q: &DVector<f64>, qd: &DVector<f64>, extra: &[f64]) -> Vec<f64> {
        std::iter::once(t)
            .chain(q.iter().copied())
            .chain(qd.iter().copied())
            .chain(self.values.iter().copied())
            .chain(extra.iter().copied())
            .collect()
    }
}
