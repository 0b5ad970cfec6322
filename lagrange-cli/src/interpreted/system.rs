//! The runtime's [`LagrangianSystem`] and [`ConstrainedSystem`] of an interpreted model:
//! each method runs the derived program that computes it.

use std::sync::Arc;

use lagrange_core::__private::{
    CONSISTENCY_TOLERANCE, dynamic_functions, solve_accelerations, unconstrained_jacobians,
};
use lagrange_core::nalgebra::{DMatrix, DVector, Dyn};
use lagrange_core::{
    AccelerationJacobians, ConstrainedSystem, ConstraintJacobians, DynamicFunctions, Error,
    LagrangianSystem, ModelInfo, ResidualJacobians,
};

use lagrange_symbolic::equations::layout;

use super::Interpreted;

impl LagrangianSystem<Dyn> for Interpreted {
    fn info(&self) -> &ModelInfo {
        &self.model.info
    }

    fn parameter_values(&self) -> Vec<f64> {
        self.values.clone()
    }

    fn with_parameter_values(&self, values: &[f64]) -> Result<Self, Error> {
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

    fn mass_matrix(&self, t: f64, q: &DVector<f64>, qd: &DVector<f64>) -> DMatrix<f64> {
        self.mass_matrix_and_forcing(t, q, qd).0
    }

    fn forcing(&self, t: f64, q: &DVector<f64>, qd: &DVector<f64>) -> DVector<f64> {
        self.mass_matrix_and_forcing(t, q, qd).1
    }

    fn mass_matrix_and_forcing(
        &self,
        t: f64,
        q: &DVector<f64>,
        qd: &DVector<f64>,
    ) -> (DMatrix<f64>, DVector<f64>) {
        let values = self.run_dynamic(&self.programs().dynamics, t, q, qd);
        let [mass, forcing] = self.layout().dynamics();
        (self.matrix(&values[mass]), Self::vector(&values[forcing]))
    }

    fn lagrangian(&self, t: f64, q: &DVector<f64>, qd: &DVector<f64>) -> f64 {
        let [value] = self.run::<1>(&self.programs().lagrangian, t, q, qd);
        value
    }

    fn energy(&self, t: f64, q: &DVector<f64>, qd: &DVector<f64>) -> f64 {
        let [value] = self.run::<1>(&self.programs().energy, t, q, qd);
        value
    }

    fn jacobi_integral(&self, t: f64, q: &DVector<f64>, qd: &DVector<f64>) -> f64 {
        let [value] = self.run::<1>(&self.programs().jacobi_integral, t, q, qd);
        value
    }

    fn momenta(&self, t: f64, q: &DVector<f64>, qd: &DVector<f64>) -> DVector<f64> {
        Self::vector(&self.run_dynamic(&self.programs().momenta, t, q, qd))
    }

    fn momentum_rate(&self, t: f64, q: &DVector<f64>, qd: &DVector<f64>) -> DVector<f64> {
        Self::vector(&self.run_dynamic(&self.programs().momentum_rate, t, q, qd))
    }

    fn momentum_jacobian(&self, t: f64, q: &DVector<f64>, qd: &DVector<f64>) -> DMatrix<f64> {
        self.matrix(&self.run_dynamic(&self.programs().momentum_jacobian, t, q, qd))
    }

    fn lagrangian_hessian(&self, t: f64, q: &DVector<f64>, qd: &DVector<f64>) -> DMatrix<f64> {
        self.matrix(&self.run_dynamic(&self.programs().lagrangian_hessian, t, q, qd))
    }

    fn dynamic_functions(
        &self,
        t: f64,
        q: &DVector<f64>,
        qd: &DVector<f64>,
    ) -> Option<DynamicFunctions> {
        let theorems = self.model.equations.theorems.as_ref()?;
        let values =
            self.run::<{ layout::DYNAMIC_FUNCTIONS }>(&theorems.dynamic_functions, t, q, qd);
        Some(dynamic_functions(values))
    }

    fn drawing(&self, t: f64, q: &DVector<f64>) -> Vec<f64> {
        let Some(drawing) = &self.model.equations.drawing else {
            return Vec::new();
        };
        self.run_positions(&drawing.program, t, q)
    }

    fn balance(
        &self,
        t: f64,
        q: &DVector<f64>,
        qd: &DVector<f64>,
        qdd: &DVector<f64>,
    ) -> Vec<(f64, f64)> {
        let Some(theorems) = &self.model.equations.theorems else {
            return Vec::new();
        };
        let values = self.run_extended(&theorems.balance, t, q, qd, qdd.as_slice());
        let holding = theorems.laws.iter().filter(|law| law.holds()).count();
        (0..holding)
            .map(|k| layout::balance(k).map(|i| values[i]))
            .map(|[rate, law]| (rate, law))
            .collect()
    }

    fn residual_jacobian_rows(
        &self,
        t: f64,
        q: &DVector<f64>,
        qd: &DVector<f64>,
        qdd: &DVector<f64>,
    ) -> Vec<f64> {
        let program = &self.programs().residual_jacobians;
        let values = self.run_extended(program, t, q, qd, qdd.as_slice());
        self.layout()
            .residual_jacobian_rows()
            .into_iter()
            .map(|k| values[k])
            .collect()
    }

    fn residual_jacobians(
        &self,
        t: f64,
        q: &DVector<f64>,
        qd: &DVector<f64>,
        qdd: &DVector<f64>,
    ) -> ResidualJacobians<Dyn> {
        let rows = self.residual_jacobian_rows(t, q, qd, qdd);
        ResidualJacobians::from_rows(Dyn(q.len()), &rows)
            .expect("the derived program writes the rows of the residual's derivatives")
    }

    fn acceleration_jacobians(
        &self,
        t: f64,
        q: &DVector<f64>,
        qd: &DVector<f64>,
    ) -> Result<AccelerationJacobians<Dyn>, Error> {
        if !self.constrained() {
            unconstrained_jacobians(
                self.mass_matrix_and_forcing(t, q, qd),
                &self.info().mass_matrix_tree,
                (t, q, qd),
                |qdd| self.residual_jacobian_rows(t, q, qd, qdd),
            )
        } else {
            self.constrained_acceleration_jacobians(t, q, qd)
        }
    }

    fn accelerations(
        &self,
        t: f64,
        q: &DVector<f64>,
        qd: &DVector<f64>,
    ) -> Result<DVector<f64>, Error> {
        if !self.constrained() {
            let (m, f) = self.mass_matrix_and_forcing(t, q, qd);
            solve_accelerations(m, f, &self.info().mass_matrix_tree, t, q, qd)
        } else {
            self.constrained_motion(t, q, qd).map(|m| m.accelerations)
        }
    }

    #[allow(clippy::type_complexity)]
    fn project(
        &self,
        t: f64,
        q: &DVector<f64>,
        qd: &DVector<f64>,
    ) -> Result<Option<(DVector<f64>, DVector<f64>)>, Error> {
        if !self.constrained() {
            Ok(None)
        } else {
            self.project_onto_constraints(t, q, qd).map(Some)
        }
    }

    fn check_initial_state(
        &self,
        t: f64,
        q: &DVector<f64>,
        qd: &DVector<f64>,
    ) -> Result<(), Error> {
        if !self.constrained() {
            Ok(())
        } else {
            self.check_consistent(t, q, qd, CONSISTENCY_TOLERANCE)
        }
    }
}

impl ConstrainedSystem<Dyn, Dyn> for Interpreted {
    fn constraint_values(&self, t: f64, q: &DVector<f64>) -> DVector<f64> {
        let values = self.run_dynamic(&self.constraints().values, t, q, &q.map(|_| 0.0));
        DVector::from_vec(values)
    }

    fn constraint_jacobian(&self, t: f64, q: &DVector<f64>) -> DMatrix<f64> {
        let values = self.run_dynamic(&self.constraints().jacobian, t, q, &q.map(|_| 0.0));
        self.constraint_matrix(&values)
    }

    fn constraint_time_derivative(&self, t: f64, q: &DVector<f64>) -> DVector<f64> {
        let values = self.run_dynamic(&self.constraints().time_derivative, t, q, &q.map(|_| 0.0));
        DVector::from_vec(values)
    }

    fn constraint_velocities(&self, t: f64, q: &DVector<f64>, qd: &DVector<f64>) -> DVector<f64> {
        let values = self.run_dynamic(&self.constraints().velocities, t, q, qd);
        DVector::from_vec(values)
    }

    fn constraint_jacobian_and_bias(
        &self,
        t: f64,
        q: &DVector<f64>,
        qd: &DVector<f64>,
    ) -> (DMatrix<f64>, DVector<f64>) {
        let values = self.run_dynamic(&self.constraints().dynamics, t, q, qd);
        let [jacobian, bias] = self.layout().constraint_dynamics();
        (
            self.constraint_matrix(&values[jacobian]),
            DVector::from_column_slice(&values[bias]),
        )
    }

    fn constraint_jacobians(
        &self,
        t: f64,
        q: &DVector<f64>,
        qd: &DVector<f64>,
        qdd: &DVector<f64>,
        multipliers: &DVector<f64>,
    ) -> ConstraintJacobians<Dyn, Dyn> {
        let extra: Vec<f64> = qdd.iter().chain(multipliers.iter()).copied().collect();
        let values = self.run_extended(&self.constraints().jacobians, t, q, qd, &extra);
        let (n, k, m) = (q.len(), multipliers.len(), self.values.len());
        let [sq, sv, sp, rq, rp] = self.layout().constraint_jacobians();
        ConstraintJacobians {
            acceleration_coordinates: self.constraint_matrix(&values[sq]),
            acceleration_velocities: self.constraint_matrix(&values[sv]),
            acceleration_parameters: DMatrix::from_row_slice(k, m, &values[sp]),
            reaction_coordinates: self.matrix(&values[rq]),
            reaction_parameters: DMatrix::from_row_slice(n, m, &values[rp]),
        }
    }
}

impl Interpreted {
    /// A matrix of one row per constraint and one column per coordinate, from its
    /// entries row by row.
    fn constraint_matrix(&self, values: &[f64]) -> DMatrix<f64> {
        let n = self.model.equations.coordinates.len();
        DMatrix::from_row_slice(values.len() / n, n, values)
    }
}
