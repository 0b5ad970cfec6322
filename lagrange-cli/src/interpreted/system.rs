//! The interpreted model's [`Programs`]: each quantity's derived program run by the IR
//! interpreter. The runtime makes it a [`LagrangianSystem`](lagrange_core::LagrangianSystem)
//! and a [`ConstrainedSystem`](lagrange_core::ConstrainedSystem) over them, as it does
//! the derive's code.

use std::sync::Arc;

use lagrange_core::nalgebra::Dyn;
use lagrange_core::system::Arguments;
use lagrange_core::{Error, ModelInfo, Programs, Quantity};
use lagrange_symbolic::ir::Program;

use super::Interpreted;

impl Programs for Interpreted {
    type Coordinates = Dyn;
    type Constraints = Dyn;

    fn model(&self) -> &ModelInfo {
        &self.model.info
    }

    fn parameters(&self) -> Vec<f64> {
        self.values.clone()
    }

    fn with_parameters(&self, values: &[f64]) -> Result<Self, Error> {
        if values.len() != self.values.len() {
            return Err(Error::InvalidInput(format!(
                "{} takes {} parameter values, got {}",
                self.model.equations.name,
                self.values.len(),
                values.len()
            )));
        }
        Ok(Interpreted {
            model: Arc::clone(&self.model),
            values: values.to_vec(),
        })
    }

    fn run(
        &self,
        quantity: Quantity,
        arguments: &Arguments<'_, Dyn>,
        read: &mut dyn FnMut(&mut [f64]),
    ) {
        let (program, outputs) = self.program(quantity);
        let inputs: Vec<f64> = std::iter::once(arguments.t)
            .chain(arguments.q.iter().copied())
            .chain(arguments.qd.iter().copied())
            .chain(self.values.iter().copied())
            .chain(arguments.qdd.into_iter().flatten().copied())
            .chain(arguments.multipliers.iter().copied())
            .collect();
        let mut out = vec![0.0; program.outputs];
        program.evaluate(&inputs, &mut out);
        if quantity == Quantity::ResidualJacobianRows {
            // Row by row, as the runtime solves them.
            let mut rows: Vec<f64> = self.model.rows.iter().map(|&k| out[k]).collect();
            return read(&mut rows);
        }
        read(&mut out[..outputs])
    }
}

impl Interpreted {
    /// The program of `quantity` and how many of its first outputs are the quantity's.
    fn program(&self, quantity: Quantity) -> (&Program, usize) {
        let equations = &self.model.equations;
        let p = &equations.programs;
        let missing = || -> ! {
            panic!(
                "the model {} has no program of {quantity:?}",
                equations.name
            )
        };
        let theorems = || equations.theorems.as_ref().unwrap_or_else(|| missing());
        let constraints = || equations.constraints.as_ref().unwrap_or_else(|| missing());
        let program = match quantity {
            // `M` alone is the dynamics' first block, with the same bits.
            Quantity::MassMatrix => {
                let n = equations.coordinates.len();
                return (&p.dynamics, n * n);
            }
            Quantity::Dynamics => &p.dynamics,
            Quantity::Lagrangian => &p.lagrangian,
            Quantity::Energy => &p.energy,
            Quantity::JacobiIntegral => &p.jacobi_integral,
            Quantity::Momenta => &p.momenta,
            Quantity::MomentumRate => &p.momentum_rate,
            Quantity::MomentumJacobian => &p.momentum_jacobian,
            Quantity::LagrangianHessian => &p.lagrangian_hessian,
            Quantity::ResidualJacobianRows => &p.residual_jacobians,
            Quantity::InverseDynamics => &p.inverse_dynamics,
            Quantity::DynamicFunctions => &theorems().dynamic_functions,
            Quantity::Balance => &theorems().balance,
            Quantity::Drawing => match &equations.drawing {
                Some(drawing) => &drawing.program,
                None => missing(),
            },
            Quantity::ConstraintValues => &constraints().values,
            Quantity::ConstraintJacobian => &constraints().jacobian,
            Quantity::ConstraintTimeDerivative => &constraints().time_derivative,
            Quantity::ConstraintVelocities => &constraints().velocities,
            Quantity::ConstraintDynamics => &constraints().dynamics,
            Quantity::ConstraintJacobians => &constraints().jacobians,
            Quantity::IgnoredVelocities => match &self.model.ignored {
                Some((_, program)) => program,
                None => missing(),
            },
        };
        (program, program.outputs)
    }
}
