//! The runtime's [`LagrangianSystem`] and [`ConstrainedSystem`] of an interpreted model:
//! each method runs the derived program that computes it.

use std::sync::Arc;

use lagrange_core::__private::{
    CONSISTENCY_TOLERANCE, dynamic_functions, solve_accelerations, unconstrained_jacobians,
};
use lagrange_core::nalgebra::{DMatrix, SMatrix, SVector};
use lagrange_core::{
    AccelerationJacobians, ConstrainedSystem, ConstraintJacobians, DynamicFunctions, Error,
    LagrangianSystem, ModelInfo, ResidualJacobians,
};

use lagrange_symbolic::equations::layout;

use super::Interpreted;

impl<const N: usize, const K: usize, const J: usize> LagrangianSystem<N> for Interpreted<N, K, J> {
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

    fn mass_matrix(&self, t: f64, q: &SVector<f64, N>, qd: &SVector<f64, N>) -> SMatrix<f64, N, N> {
        self.mass_matrix_and_forcing(t, q, qd).0
    }

    fn forcing(&self, t: f64, q: &SVector<f64, N>, qd: &SVector<f64, N>) -> SVector<f64, N> {
        self.mass_matrix_and_forcing(t, q, qd).1
    }

    fn mass_matrix_and_forcing(
        &self,
        t: f64,
        q: &SVector<f64, N>,
        qd: &SVector<f64, N>,
    ) -> (SMatrix<f64, N, N>, SVector<f64, N>) {
        let values = self.run_dynamic(&self.programs().dynamics, t, q, qd);
        let [mass, forcing] = self.layout().dynamics();
        (Self::matrix(&values[mass]), Self::vector(&values[forcing]))
    }

    fn lagrangian(&self, t: f64, q: &SVector<f64, N>, qd: &SVector<f64, N>) -> f64 {
        let [value] = self.run::<1>(&self.programs().lagrangian, t, q, qd);
        value
    }

    fn energy(&self, t: f64, q: &SVector<f64, N>, qd: &SVector<f64, N>) -> f64 {
        let [value] = self.run::<1>(&self.programs().energy, t, q, qd);
        value
    }

    fn jacobi_integral(&self, t: f64, q: &SVector<f64, N>, qd: &SVector<f64, N>) -> f64 {
        let [value] = self.run::<1>(&self.programs().jacobi_integral, t, q, qd);
        value
    }

    fn momenta(&self, t: f64, q: &SVector<f64, N>, qd: &SVector<f64, N>) -> SVector<f64, N> {
        Self::vector(&self.run::<N>(&self.programs().momenta, t, q, qd))
    }

    fn momentum_rate(&self, t: f64, q: &SVector<f64, N>, qd: &SVector<f64, N>) -> SVector<f64, N> {
        Self::vector(&self.run::<N>(&self.programs().momentum_rate, t, q, qd))
    }

    fn momentum_jacobian(
        &self,
        t: f64,
        q: &SVector<f64, N>,
        qd: &SVector<f64, N>,
    ) -> SMatrix<f64, N, N> {
        Self::matrix(&self.run_dynamic(&self.programs().momentum_jacobian, t, q, qd))
    }

    fn lagrangian_hessian(
        &self,
        t: f64,
        q: &SVector<f64, N>,
        qd: &SVector<f64, N>,
    ) -> SMatrix<f64, N, N> {
        Self::matrix(&self.run_dynamic(&self.programs().lagrangian_hessian, t, q, qd))
    }

    fn dynamic_functions(
        &self,
        t: f64,
        q: &SVector<f64, N>,
        qd: &SVector<f64, N>,
    ) -> Option<DynamicFunctions> {
        let theorems = self.model.equations.theorems.as_ref()?;
        let values =
            self.run::<{ layout::DYNAMIC_FUNCTIONS }>(&theorems.dynamic_functions, t, q, qd);
        Some(dynamic_functions(values))
    }

    fn drawing(&self, t: f64, q: &SVector<f64, N>) -> Vec<f64> {
        let Some(drawing) = &self.model.equations.drawing else {
            return Vec::new();
        };
        self.run_positions(&drawing.program, t, q)
    }

    fn balance(
        &self,
        t: f64,
        q: &SVector<f64, N>,
        qd: &SVector<f64, N>,
        qdd: &SVector<f64, N>,
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

    fn residual_jacobians(
        &self,
        t: f64,
        q: &SVector<f64, N>,
        qd: &SVector<f64, N>,
        qdd: &SVector<f64, N>,
    ) -> ResidualJacobians<N> {
        let program = &self.programs().residual_jacobians;
        let values = self.run_extended(program, t, q, qd, qdd.as_slice());
        let [coordinates, velocities, parameters] = self.layout().residual_jacobians();
        ResidualJacobians {
            coordinates: Self::matrix(&values[coordinates]),
            velocities: Self::matrix(&values[velocities]),
            parameters: DMatrix::from_row_slice(N, self.values.len(), &values[parameters]),
        }
    }

    fn acceleration_jacobians(
        &self,
        t: f64,
        q: &SVector<f64, N>,
        qd: &SVector<f64, N>,
    ) -> Result<AccelerationJacobians<N>, Error> {
        if K == 0 {
            let qdd = self.accelerations(t, q, qd)?;
            let m = self.mass_matrix(t, q, qd);
            let r = self.residual_jacobians(t, q, qd, &qdd);
            unconstrained_jacobians(&m, qdd, r, || {
                Error::singular(t, q.as_slice(), qd.as_slice())
            })
        } else {
            self.constrained_acceleration_jacobians(t, q, qd)
        }
    }

    fn accelerations(
        &self,
        t: f64,
        q: &SVector<f64, N>,
        qd: &SVector<f64, N>,
    ) -> Result<SVector<f64, N>, Error> {
        if K == 0 {
            let (m, f) = self.mass_matrix_and_forcing(t, q, qd);
            solve_accelerations(m, f, t, q, qd)
        } else {
            self.constrained_motion(t, q, qd).map(|m| m.accelerations)
        }
    }

    #[allow(clippy::type_complexity)]
    fn project(
        &self,
        t: f64,
        q: &SVector<f64, N>,
        qd: &SVector<f64, N>,
    ) -> Result<Option<(SVector<f64, N>, SVector<f64, N>)>, Error> {
        if K == 0 {
            Ok(None)
        } else {
            self.project_onto_constraints(t, q, qd).map(Some)
        }
    }

    fn check_initial_state(
        &self,
        t: f64,
        q: &SVector<f64, N>,
        qd: &SVector<f64, N>,
    ) -> Result<(), Error> {
        if K == 0 {
            Ok(())
        } else {
            self.check_consistent(t, q, qd, CONSISTENCY_TOLERANCE)
        }
    }
}

impl<const N: usize, const K: usize, const J: usize> ConstrainedSystem<N, K>
    for Interpreted<N, K, J>
{
    fn constraint_values(&self, t: f64, q: &SVector<f64, N>) -> SVector<f64, K> {
        let values = self.run_dynamic(&self.constraints().values, t, q, &SVector::zeros());
        SVector::from_column_slice(&values)
    }

    fn constraint_jacobian(&self, t: f64, q: &SVector<f64, N>) -> SMatrix<f64, K, N> {
        let values = self.run_dynamic(&self.constraints().jacobian, t, q, &SVector::zeros());
        SMatrix::from_row_slice(&values)
    }

    fn constraint_time_derivative(&self, t: f64, q: &SVector<f64, N>) -> SVector<f64, K> {
        let values = self.run_dynamic(&self.constraints().time_derivative, t, q, &SVector::zeros());
        SVector::from_column_slice(&values)
    }

    fn constraint_velocities(
        &self,
        t: f64,
        q: &SVector<f64, N>,
        qd: &SVector<f64, N>,
    ) -> SVector<f64, K> {
        let values = self.run_dynamic(&self.constraints().velocities, t, q, qd);
        SVector::from_column_slice(&values)
    }

    fn constraint_jacobian_and_bias(
        &self,
        t: f64,
        q: &SVector<f64, N>,
        qd: &SVector<f64, N>,
    ) -> (SMatrix<f64, K, N>, SVector<f64, K>) {
        let values = self.run_dynamic(&self.constraints().dynamics, t, q, qd);
        let [jacobian, bias] = self.layout().constraint_dynamics();
        (
            SMatrix::from_row_slice(&values[jacobian]),
            SVector::from_column_slice(&values[bias]),
        )
    }

    fn constraint_jacobians(
        &self,
        t: f64,
        q: &SVector<f64, N>,
        qd: &SVector<f64, N>,
        qdd: &SVector<f64, N>,
        multipliers: &SVector<f64, K>,
    ) -> ConstraintJacobians<N, K> {
        let extra: Vec<f64> = qdd.iter().chain(multipliers.iter()).copied().collect();
        let values = self.run_extended(&self.constraints().jacobians, t, q, qd, &extra);
        let m = self.values.len();
        let [sq, sv, sp, rq, rp] = self.layout().constraint_jacobians();
        ConstraintJacobians {
            acceleration_coordinates: SMatrix::from_row_slice(&values[sq]),
            acceleration_velocities: SMatrix::from_row_slice(&values[sv]),
            acceleration_parameters: DMatrix::from_row_slice(K, m, &values[sp]),
            reaction_coordinates: Self::matrix(&values[rq]),
            reaction_parameters: DMatrix::from_row_slice(N, m, &values[rp]),
        }
    }
}
