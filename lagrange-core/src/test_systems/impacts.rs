//! A ball falling under gravity, for events: bounces, apexes, resets.

use std::borrow::Cow;

use nalgebra::{DMatrix, Matrix1, U1, Vector1};

use super::params;
use crate::error::Error;
use crate::solve::ResidualJacobians;
use crate::system::{Conserved, FromParameterValues, LagrangianSystem, ModelInfo};

/// A ball in uniform gravity, `L = ½ m ẏ² − m g y`: `m ÿ = −m g`.
pub(crate) struct Ball {
    pub m: f64,
    pub g: f64,
}

impl LagrangianSystem<U1> for Ball {
    fn info(&self) -> &ModelInfo {
        const INFO: ModelInfo = ModelInfo {
            name: Cow::Borrowed("Ball"),
            coordinates: Cow::Borrowed(&[Cow::Borrowed("y")]),
            parameters: Cow::Borrowed(&[Cow::Borrowed("m"), Cow::Borrowed("g")]),
            cyclic: Cow::Borrowed(&[]),
            conserved: Conserved::Energy,
            forced_or_dissipative: false,
            equations_text: Cow::Borrowed("m*ddot(y) + m*g = 0"),
            equations_latex: Cow::Borrowed(r"m \ddot y + m g &= 0"),
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
        vec![self.m, self.g]
    }
    fn with_parameter_values(&self, values: &[f64]) -> Result<Self, Error> {
        Self::from_parameter_values(values)
    }
    fn mass_matrix(&self, _: f64, _: &Vector1<f64>, _: &Vector1<f64>) -> Matrix1<f64> {
        Matrix1::new(self.m)
    }
    fn forcing(&self, _: f64, _: &Vector1<f64>, _: &Vector1<f64>) -> Vector1<f64> {
        Vector1::new(-self.m * self.g)
    }
    fn lagrangian(&self, _: f64, q: &Vector1<f64>, qd: &Vector1<f64>) -> f64 {
        0.5 * self.m * qd[0].powi(2) - self.m * self.g * q[0]
    }
    fn energy(&self, _: f64, q: &Vector1<f64>, qd: &Vector1<f64>) -> f64 {
        0.5 * self.m * qd[0].powi(2) + self.m * self.g * q[0]
    }
    fn jacobi_integral(&self, t: f64, q: &Vector1<f64>, qd: &Vector1<f64>) -> f64 {
        self.energy(t, q, qd)
    }
    fn momenta(&self, _: f64, _: &Vector1<f64>, qd: &Vector1<f64>) -> Vector1<f64> {
        qd * self.m
    }
    fn momentum_rate(&self, _: f64, _: &Vector1<f64>, _: &Vector1<f64>) -> Vector1<f64> {
        Vector1::new(-self.m * self.g)
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
        // r = m ÿ + m g: ∂r/∂m = ÿ + g, ∂r/∂g = m.
        ResidualJacobians {
            coordinates: Matrix1::zeros(),
            velocities: Matrix1::zeros(),
            parameters: DMatrix::from_row_slice(1, 2, &[qdd[0] + self.g, self.m]),
        }
    }
}

impl FromParameterValues<U1> for Ball {
    const PARAMETER_COUNT: usize = 2;
    fn from_parameter_values(values: &[f64]) -> Result<Self, Error> {
        let [m, g] = params(values)?;
        Ok(Ball { m, g })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The hand-written `∂r/∂(q, q̇, p)` of `r = M q̈ − f` against central differences.
    #[test]
    fn the_ball_residual_jacobians_match_finite_differences() {
        let ball = Ball { m: 0.3, g: 9.81 };
        let (t, q, qd, qdd) = (
            0.2,
            Vector1::new(0.7),
            Vector1::new(-1.1),
            Vector1::new(0.4),
        );
        let residual = |sys: &Ball, q: &Vector1<f64>, qd: &Vector1<f64>| {
            (sys.mass_matrix(t, q, qd) * qdd - sys.forcing(t, q, qd))[0]
        };
        let jac = ball.residual_jacobians(t, &q, &qd, &qdd);
        let h = 1e-6;
        let dh = Vector1::new(h);
        let dq = (residual(&ball, &(q + dh), &qd) - residual(&ball, &(q - dh), &qd)) / (2.0 * h);
        let dqd = (residual(&ball, &q, &(qd + dh)) - residual(&ball, &q, &(qd - dh))) / (2.0 * h);
        assert!((jac.coordinates[0] - dq).abs() < 1e-8);
        assert!((jac.velocities[0] - dqd).abs() < 1e-8);
        for k in 0..2 {
            let shifted = |s: f64| {
                let mut values = ball.parameter_values();
                values[k] += s;
                residual(&ball.with_parameter_values(&values).unwrap(), &q, &qd)
            };
            let dp = (shifted(h) - shifted(-h)) / (2.0 * h);
            assert!(
                (jac.parameters[(0, k)] - dp).abs() < 1e-7,
                "parameter {k}: {dp}"
            );
        }
    }
}
