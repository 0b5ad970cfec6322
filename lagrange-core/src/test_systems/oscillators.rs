//! Linear systems and one that blows up: the harmonic oscillator, the double integrator under an input, and `ẍ = x²`, which leaves every bound in finite time.

use std::borrow::Cow;

use nalgebra::{DMatrix, Matrix1, U1, Vector1};

use super::params;
use crate::error::Error;
use crate::solve::ResidualJacobians;
use crate::system::{Conserved, FromParameterValues, LagrangianSystem, ModelInfo};

/// `L = ½ m ẋ² − ½ k x²`.
pub(crate) struct Oscillator {
    pub m: f64,
    pub k: f64,
}

impl LagrangianSystem<U1> for Oscillator {
    fn info(&self) -> &ModelInfo {
        const INFO: ModelInfo = ModelInfo {
            name: Cow::Borrowed("Oscillator"),
            coordinates: Cow::Borrowed(&[Cow::Borrowed("x")]),
            parameters: Cow::Borrowed(&[Cow::Borrowed("m"), Cow::Borrowed("k")]),
            cyclic: Cow::Borrowed(&[]),
            conserved: Conserved::Energy,
            forced_or_dissipative: false,
            equations_text: Cow::Borrowed("m*ddot(x) + k*x = 0"),
            equations_latex: Cow::Borrowed(r"m \ddot{x} + k x &= 0"),
            equations_mathml: Cow::Borrowed(""),
            formulas: Cow::Borrowed(&[]),
            drawing: None,
            constraints: Cow::Borrowed(&[]),
            inputs: Cow::Borrowed(&[]),
            theorems: Cow::Borrowed(&[]),
            mass_matrix_tree: Cow::Borrowed(&[]),
            omitted: crate::Omitted::NONE,
        };
        &INFO
    }

    fn parameter_values(&self) -> Vec<f64> {
        vec![self.m, self.k]
    }
    fn with_parameter_values(&self, values: &[f64]) -> Result<Self, Error> {
        Self::from_parameter_values(values)
    }
    fn mass_matrix(&self, _: f64, _: &Vector1<f64>, _: &Vector1<f64>) -> Matrix1<f64> {
        Matrix1::new(self.m)
    }
    fn forcing(&self, _: f64, q: &Vector1<f64>, _: &Vector1<f64>) -> Vector1<f64> {
        Vector1::new(-self.k * q[0])
    }
    fn lagrangian(&self, _: f64, q: &Vector1<f64>, qd: &Vector1<f64>) -> f64 {
        0.5 * self.m * qd[0].powi(2) - 0.5 * self.k * q[0].powi(2)
    }
    fn energy(&self, _: f64, q: &Vector1<f64>, qd: &Vector1<f64>) -> f64 {
        0.5 * self.m * qd[0].powi(2) + 0.5 * self.k * q[0].powi(2)
    }
    fn jacobi_integral(&self, t: f64, q: &Vector1<f64>, qd: &Vector1<f64>) -> f64 {
        self.energy(t, q, qd)
    }
    fn momenta(&self, _: f64, _: &Vector1<f64>, qd: &Vector1<f64>) -> Vector1<f64> {
        qd * self.m
    }
    fn momentum_rate(&self, _: f64, q: &Vector1<f64>, _: &Vector1<f64>) -> Vector1<f64> {
        -q * self.k
    }
    fn momentum_jacobian(&self, _: f64, _: &Vector1<f64>, _: &Vector1<f64>) -> Matrix1<f64> {
        Matrix1::zeros()
    }
    fn lagrangian_hessian(&self, _: f64, _: &Vector1<f64>, _: &Vector1<f64>) -> Matrix1<f64> {
        Matrix1::new(-self.k)
    }
    fn residual_jacobians(
        &self,
        _: f64,
        q: &Vector1<f64>,
        _: &Vector1<f64>,
        qdd: &Vector1<f64>,
    ) -> ResidualJacobians<U1> {
        // r = m ẍ + k x.
        ResidualJacobians {
            coordinates: Matrix1::new(self.k),
            velocities: Matrix1::zeros(),
            parameters: DMatrix::from_row_slice(1, 2, &[qdd[0], q[0]]),
        }
    }
}

impl FromParameterValues<U1> for Oscillator {
    const PARAMETER_COUNT: usize = 2;
    fn from_parameter_values(values: &[f64]) -> Result<Self, Error> {
        let [m, k] = params(values)?;
        Ok(Oscillator { m, k })
    }
}

/// `m ẍ = u`: a double integrator driven by the input force `u`.
pub(crate) struct DoubleIntegrator {
    pub m: f64,
    pub u: f64,
}

impl LagrangianSystem<U1> for DoubleIntegrator {
    fn info(&self) -> &ModelInfo {
        const INFO: ModelInfo = ModelInfo {
            name: Cow::Borrowed("DoubleIntegrator"),
            coordinates: Cow::Borrowed(&[Cow::Borrowed("x")]),
            parameters: Cow::Borrowed(&[Cow::Borrowed("m"), Cow::Borrowed("u")]),
            cyclic: Cow::Borrowed(&[]),
            conserved: Conserved::None,
            forced_or_dissipative: true,
            equations_text: Cow::Borrowed("m*ddot(x) = u"),
            equations_latex: Cow::Borrowed(r"m \ddot x &= u"),
            equations_mathml: Cow::Borrowed(""),
            formulas: Cow::Borrowed(&[]),
            drawing: None,
            constraints: Cow::Borrowed(&[]),
            inputs: Cow::Borrowed(&[1]),
            theorems: Cow::Borrowed(&[]),
            mass_matrix_tree: Cow::Borrowed(&[]),
            omitted: crate::Omitted::NONE,
        };
        &INFO
    }

    fn parameter_values(&self) -> Vec<f64> {
        vec![self.m, self.u]
    }
    fn with_parameter_values(&self, values: &[f64]) -> Result<Self, Error> {
        let [m, u] = params(values)?;
        Ok(DoubleIntegrator { m, u })
    }
    fn mass_matrix(&self, _: f64, _: &Vector1<f64>, _: &Vector1<f64>) -> Matrix1<f64> {
        Matrix1::new(self.m)
    }
    fn forcing(&self, _: f64, _: &Vector1<f64>, _: &Vector1<f64>) -> Vector1<f64> {
        Vector1::new(self.u)
    }
    fn lagrangian(&self, _: f64, _: &Vector1<f64>, qd: &Vector1<f64>) -> f64 {
        0.5 * self.m * qd[0] * qd[0]
    }
    fn energy(&self, t: f64, q: &Vector1<f64>, qd: &Vector1<f64>) -> f64 {
        self.lagrangian(t, q, qd)
    }
    fn jacobi_integral(&self, t: f64, q: &Vector1<f64>, qd: &Vector1<f64>) -> f64 {
        self.lagrangian(t, q, qd)
    }
    fn momenta(&self, _: f64, _: &Vector1<f64>, qd: &Vector1<f64>) -> Vector1<f64> {
        qd * self.m
    }
    fn momentum_rate(&self, _: f64, _: &Vector1<f64>, _: &Vector1<f64>) -> Vector1<f64> {
        Vector1::new(self.u)
    }
    fn momentum_jacobian(&self, _: f64, _: &Vector1<f64>, _: &Vector1<f64>) -> Matrix1<f64> {
        Matrix1::zeros()
    }
    fn lagrangian_hessian(&self, _: f64, _: &Vector1<f64>, _: &Vector1<f64>) -> Matrix1<f64> {
        Matrix1::zeros()
    }
    fn residual_jacobians(
        &self,
        _: f64,
        _: &Vector1<f64>,
        _: &Vector1<f64>,
        qdd: &Vector1<f64>,
    ) -> ResidualJacobians<U1> {
        // r = m ẍ − u.
        ResidualJacobians {
            coordinates: Matrix1::zeros(),
            velocities: Matrix1::zeros(),
            parameters: DMatrix::from_row_slice(1, 2, &[qdd[0], -1.0]),
        }
    }
}

/// `q̈ = q²` (`L = ½ q̇² + q³/3`): from `q = 1`, `q̇ = 0` it blows up at a finite time.
pub(crate) struct BlowUp;

impl LagrangianSystem<U1> for BlowUp {
    fn info(&self) -> &ModelInfo {
        const INFO: ModelInfo = ModelInfo {
            name: Cow::Borrowed("BlowUp"),
            coordinates: Cow::Borrowed(&[Cow::Borrowed("q")]),
            parameters: Cow::Borrowed(&[]),
            cyclic: Cow::Borrowed(&[]),
            conserved: Conserved::Energy,
            forced_or_dissipative: false,
            equations_text: Cow::Borrowed("ddot(q) - q^2 = 0"),
            equations_latex: Cow::Borrowed(r"\ddot q - q^2 &= 0"),
            equations_mathml: Cow::Borrowed(""),
            formulas: Cow::Borrowed(&[]),
            drawing: None,
            constraints: Cow::Borrowed(&[]),
            inputs: Cow::Borrowed(&[]),
            theorems: Cow::Borrowed(&[]),
            mass_matrix_tree: Cow::Borrowed(&[]),
            omitted: crate::Omitted::NONE,
        };
        &INFO
    }

    fn parameter_values(&self) -> Vec<f64> {
        Vec::new()
    }
    fn with_parameter_values(&self, values: &[f64]) -> Result<Self, Error> {
        Self::from_parameter_values(values)
    }
    fn mass_matrix(&self, _: f64, _: &Vector1<f64>, _: &Vector1<f64>) -> Matrix1<f64> {
        Matrix1::new(1.0)
    }
    fn forcing(&self, _: f64, q: &Vector1<f64>, _: &Vector1<f64>) -> Vector1<f64> {
        Vector1::new(q[0] * q[0])
    }
    fn lagrangian(&self, _: f64, q: &Vector1<f64>, qd: &Vector1<f64>) -> f64 {
        0.5 * qd[0].powi(2) + q[0].powi(3) / 3.0
    }
    fn energy(&self, _: f64, q: &Vector1<f64>, qd: &Vector1<f64>) -> f64 {
        0.5 * qd[0].powi(2) - q[0].powi(3) / 3.0
    }
    fn jacobi_integral(&self, t: f64, q: &Vector1<f64>, qd: &Vector1<f64>) -> f64 {
        self.energy(t, q, qd)
    }
    fn momenta(&self, _: f64, _: &Vector1<f64>, qd: &Vector1<f64>) -> Vector1<f64> {
        *qd
    }
    fn momentum_rate(&self, _: f64, q: &Vector1<f64>, _: &Vector1<f64>) -> Vector1<f64> {
        Vector1::new(q[0] * q[0])
    }
    fn momentum_jacobian(&self, _: f64, _: &Vector1<f64>, _: &Vector1<f64>) -> Matrix1<f64> {
        Matrix1::zeros()
    }
    fn lagrangian_hessian(&self, _: f64, q: &Vector1<f64>, _: &Vector1<f64>) -> Matrix1<f64> {
        Matrix1::new(2.0 * q[0])
    }
    fn residual_jacobians(
        &self,
        _: f64,
        q: &Vector1<f64>,
        _: &Vector1<f64>,
        _: &Vector1<f64>,
    ) -> ResidualJacobians<U1> {
        // r = q̈ − q².
        ResidualJacobians {
            coordinates: Matrix1::new(-2.0 * q[0]),
            velocities: Matrix1::zeros(),
            parameters: DMatrix::zeros(1, 0),
        }
    }
}

impl FromParameterValues<U1> for BlowUp {
    const PARAMETER_COUNT: usize = 0;
    fn from_parameter_values(values: &[f64]) -> Result<Self, Error> {
        let [] = params(values)?;
        Ok(BlowUp)
    }
}
