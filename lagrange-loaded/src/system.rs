//! The loaded model's [`Programs`]: each quantity's derived program run compiled or
//! interpreted. The runtime makes it a [`LagrangianSystem`](lagrange_core::LagrangianSystem)
//! and a [`ConstrainedSystem`](lagrange_core::ConstrainedSystem) over them, as it does
//! the derive's code.

use std::cell::RefCell;
use std::sync::Arc;

use lagrange_core::__private::copy_values;
use lagrange_core::nalgebra::Dyn;
use lagrange_core::system::Arguments;
use lagrange_core::{Error, HtmlReport, ModelInfo, Programs, Quantity, Trajectory};
use lagrange_symbolic::ir::Program;

use crate::Loaded;

impl Programs for Loaded {
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
        Ok(Loaded {
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
        let pieces: [&[f64]; 6] = [
            std::slice::from_ref(&arguments.t),
            arguments.q.as_slice(),
            arguments.qd.as_slice(),
            &self.values,
            arguments.qdd.map_or(&[], |qdd| qdd.as_slice()),
            arguments.multipliers,
        ];
        // Compiled for the layout the model's programs read, not for a call's: a call of
        // other lengths is interpreted, as it was before compiling. Compiled with its
        // outputs in row order already (`Model::compiled`), and its inputs read where they
        // lie, if they lie as compiled for.
        if let Some(compiled) = self.model.compiled(quantity, program) {
            let ran = scratch(program.outputs, |out| {
                let ran = compiled.evaluate_pieces(&pieces, out);
                if ran {
                    read(&mut out[..outputs]);
                }
                ran
            });
            if ran {
                return;
            }
        }
        self.interpret((quantity, program, outputs), &pieces, read)
    }
}

/// `f` of a buffer of `length` values, which it must write before it reads them (the
/// programs write every output): on the stack when it is small, as most models' arguments
/// and outputs are, else from a pool of this thread's buffers; so calls, nested ones too,
/// neither allocate nor clear one after the first.
fn scratch<R>(length: usize, f: impl FnOnce(&mut [f64]) -> R) -> R {
    thread_local! {
        static POOL: RefCell<Vec<Vec<f64>>> = const { RefCell::new(Vec::new()) };
    }
    // Arrays of four sizes: each is zeroed first, and 2 kB zeroed on every call of a small
    // model's programs was 7 % of its run.
    if length <= 8 {
        return f(&mut [0.0; 8][..length]);
    }
    if length <= 16 {
        return f(&mut [0.0; 16][..length]);
    }
    if length <= 32 {
        return f(&mut [0.0; 32][..length]);
    }
    if length <= 256 {
        return f(&mut [0.0; 256][..length]);
    }
    let mut buffer = POOL.with_borrow_mut(Vec::pop).unwrap_or_default();
    if buffer.len() < length {
        buffer.resize(length, 0.0);
    }
    let result = f(&mut buffer[..length]);
    POOL.with_borrow_mut(|pool| pool.push(buffer));
    result
}

impl Loaded {
    /// `read` of the first `outputs` outputs of `program` (the program of `quantity`),
    /// interpreted on the inputs `pieces` laid end to end.
    fn interpret(
        &self,
        (quantity, program, outputs): (Quantity, &Program, usize),
        pieces: &[&[f64]],
        read: &mut dyn FnMut(&mut [f64]),
    ) {
        let length = pieces.iter().map(|piece| piece.len()).sum::<usize>();
        scratch(length + program.outputs, |buffer| {
            let (inputs, out) = buffer.split_at_mut(length);
            let mut at = 0;
            for piece in pieces {
                copy_values(&mut inputs[at..at + piece.len()], piece);
                at += piece.len();
            }
            program.evaluate(inputs, out);
            if quantity == Quantity::ResidualJacobianRows {
                // Row by row, as the runtime solves them.
                let mut rows: Vec<f64> = self.model.rows.iter().map(|&k| out[k]).collect();
                return read(&mut rows);
            }
            read(&mut out[..outputs])
        })
    }

    /// `report` with the reactions of the constraints along `trajectory` (a run of this
    /// system, no input set while it moved), where the model has constraints: the page the
    /// command and the Python package write of a constrained model.
    pub fn with_reactions(
        &self,
        report: HtmlReport,
        trajectory: &Trajectory<Dyn>,
    ) -> Result<HtmlReport, Error> {
        if self.model.info.constraints.is_empty() {
            Ok(report)
        } else {
            report.constraint_forces(trajectory, self)
        }
    }

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
            Quantity::IntegralAndLagrangian => match &self.model.integral_and_lagrangian {
                Some(program) => program,
                None => missing(),
            },
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
