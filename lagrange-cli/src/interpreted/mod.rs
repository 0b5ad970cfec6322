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
use lagrange_symbolic::equations::Equations;
use lagrange_symbolic::ir::Program;

use super::Failure;
pub(crate) use reduced::ReducedState;

mod reduced;
mod system;

/// What the systems of one model share.
struct Model {
    equations: Equations,
    info: ModelInfo,
    /// Where each entry of the residual's derivatives row by row is among its program's
    /// outputs ([`Layout::residual_jacobian_rows`](lagrange_symbolic::equations::Layout::residual_jacobian_rows)).
    rows: Vec<usize>,
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
            rows: equations.layout().residual_jacobian_rows(),
            equations: equations.clone(),
            ignored,
        });
        Ok(Interpreted {
            model,
            values: values.to_vec(),
        })
    }
}
