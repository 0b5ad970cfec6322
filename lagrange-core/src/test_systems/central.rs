//! Motion under a central force: a free particle in polar coordinates (its angle cyclic), and the radial fall into an inverse-square centre.

use std::borrow::Cow;

use nalgebra::{DMatrix, Matrix1, Matrix2, U1, U2, Vector1, Vector2};

use super::params;
use crate::error::Error;
use crate::solve::ResidualJacobians;
use crate::system::{Conserved, FromParameterValues, LagrangianSystem, ModelInfo};

/// A free particle in polar coordinates: `L = ½ m (ṙ² + r² φ̇²)`, `φ` cyclic.
pub(crate) struct PolarParticle {
    pub m: f64,
}

impl LagrangianSystem<U2> for PolarParticle {
    fn info(&self) -> &ModelInfo {
        const INFO: ModelInfo = ModelInfo {
            name: Cow::Borrowed("PolarParticle"),
            coordinates: Cow::Borrowed(&[Cow::Borrowed("r"), Cow::Borrowed("phi")]),
            parameters: Cow::Borrowed(&[Cow::Borrowed("m")]),
            cyclic: Cow::Borrowed(&[1]),
            conserved: Conserved::Energy,
            forced_or_dissipative: false,
            equations_text: Cow::Borrowed(
                "m*ddot(r) - m*r*dot(phi)^2 = 0\nm*r^2*ddot(phi) + 2*m*r*dot(r)*dot(phi) = 0",
            ),
            equations_latex: Cow::Borrowed(
                r"m \ddot r - m r \dot\phi^2 &= 0 \\ m r^2 \ddot\phi + 2 m r \dot r \dot\phi &= 0",
            ),
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
        vec![self.m]
    }
    fn with_parameter_values(&self, values: &[f64]) -> Result<Self, Error> {
        Self::from_parameter_values(values)
    }
    fn mass_matrix(&self, _: f64, q: &Vector2<f64>, _: &Vector2<f64>) -> Matrix2<f64> {
        Matrix2::new(self.m, 0.0, 0.0, self.m * q[0] * q[0])
    }
    fn forcing(&self, _: f64, q: &Vector2<f64>, qd: &Vector2<f64>) -> Vector2<f64> {
        let (r, rd, phid) = (q[0], qd[0], qd[1]);
        Vector2::new(self.m * r * phid * phid, -2.0 * self.m * r * rd * phid)
    }
    fn lagrangian(&self, _: f64, q: &Vector2<f64>, qd: &Vector2<f64>) -> f64 {
        0.5 * self.m * (qd[0].powi(2) + (q[0] * qd[1]).powi(2))
    }
    fn energy(&self, t: f64, q: &Vector2<f64>, qd: &Vector2<f64>) -> f64 {
        self.lagrangian(t, q, qd)
    }
    fn jacobi_integral(&self, t: f64, q: &Vector2<f64>, qd: &Vector2<f64>) -> f64 {
        self.lagrangian(t, q, qd)
    }
    fn momenta(&self, _: f64, q: &Vector2<f64>, qd: &Vector2<f64>) -> Vector2<f64> {
        Vector2::new(self.m * qd[0], self.m * q[0] * q[0] * qd[1])
    }
    fn momentum_rate(&self, _: f64, q: &Vector2<f64>, qd: &Vector2<f64>) -> Vector2<f64> {
        Vector2::new(self.m * q[0] * qd[1] * qd[1], 0.0)
    }
    fn momentum_jacobian(&self, _: f64, q: &Vector2<f64>, qd: &Vector2<f64>) -> Matrix2<f64> {
        Matrix2::new(0.0, 0.0, 2.0 * self.m * q[0] * qd[1], 0.0)
    }
    fn lagrangian_hessian(&self, _: f64, _: &Vector2<f64>, qd: &Vector2<f64>) -> Matrix2<f64> {
        Matrix2::new(self.m * qd[1] * qd[1], 0.0, 0.0, 0.0)
    }
    fn residual_jacobians(
        &self,
        _: f64,
        q: &Vector2<f64>,
        qd: &Vector2<f64>,
        qdd: &Vector2<f64>,
    ) -> ResidualJacobians<U2> {
        // r₀ = m r̈ − m r φ̇², r₁ = m r² φ̈ + 2 m r ṙ φ̇.
        let m = self.m;
        let (r, rd, phid, rdd, phidd) = (q[0], qd[0], qd[1], qdd[0], qdd[1]);
        ResidualJacobians {
            coordinates: Matrix2::new(
                -m * phid * phid,
                0.0,
                2.0 * m * r * phidd + 2.0 * m * rd * phid,
                0.0,
            ),
            velocities: Matrix2::new(
                0.0,
                -2.0 * m * r * phid,
                2.0 * m * r * phid,
                2.0 * m * r * rd,
            ),
            parameters: DMatrix::from_row_slice(
                2,
                1,
                &[rdd - r * phid * phid, r * r * phidd + 2.0 * r * rd * phid],
            ),
        }
    }
}

impl FromParameterValues<U2> for PolarParticle {
    const PARAMETER_COUNT: usize = 1;
    fn from_parameter_values(values: &[f64]) -> Result<Self, Error> {
        let [m] = params(values)?;
        Ok(PolarParticle { m })
    }
}

/// Radial fall in a central field, `L = ½ m ṙ² + μ m / r`: from rest at `r₀` it reaches
/// `r = 0` at the free-fall time `(π/2) √(r₀³ / (2μ))`, where `q̈ = −μ/r²` is singular.
pub(crate) struct RadialFall {
    pub m: f64,
    pub mu: f64,
}

impl LagrangianSystem<U1> for RadialFall {
    fn info(&self) -> &ModelInfo {
        const INFO: ModelInfo = ModelInfo {
            name: Cow::Borrowed("RadialFall"),
            coordinates: Cow::Borrowed(&[Cow::Borrowed("r")]),
            parameters: Cow::Borrowed(&[Cow::Borrowed("m"), Cow::Borrowed("mu")]),
            cyclic: Cow::Borrowed(&[]),
            conserved: Conserved::Energy,
            forced_or_dissipative: false,
            equations_text: Cow::Borrowed("m*ddot(r) + mu*m/r^2 = 0"),
            equations_latex: Cow::Borrowed(r"m \ddot{r} + \frac{\mu m}{r^{2}} &= 0"),
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
        vec![self.m, self.mu]
    }
    fn with_parameter_values(&self, values: &[f64]) -> Result<Self, Error> {
        Self::from_parameter_values(values)
    }
    fn mass_matrix(&self, _: f64, _: &Vector1<f64>, _: &Vector1<f64>) -> Matrix1<f64> {
        Matrix1::new(self.m)
    }
    fn forcing(&self, _: f64, q: &Vector1<f64>, _: &Vector1<f64>) -> Vector1<f64> {
        Vector1::new(-self.mu * self.m / q[0].powi(2))
    }
    fn lagrangian(&self, _: f64, q: &Vector1<f64>, qd: &Vector1<f64>) -> f64 {
        0.5 * self.m * qd[0].powi(2) + self.mu * self.m / q[0]
    }
    fn energy(&self, _: f64, q: &Vector1<f64>, qd: &Vector1<f64>) -> f64 {
        0.5 * self.m * qd[0].powi(2) - self.mu * self.m / q[0]
    }
    fn jacobi_integral(&self, t: f64, q: &Vector1<f64>, qd: &Vector1<f64>) -> f64 {
        self.energy(t, q, qd)
    }
    fn momenta(&self, _: f64, _: &Vector1<f64>, qd: &Vector1<f64>) -> Vector1<f64> {
        qd * self.m
    }
    fn momentum_rate(&self, t: f64, q: &Vector1<f64>, qd: &Vector1<f64>) -> Vector1<f64> {
        self.forcing(t, q, qd)
    }
    fn momentum_jacobian(&self, _: f64, _: &Vector1<f64>, _: &Vector1<f64>) -> Matrix1<f64> {
        Matrix1::zeros()
    }
    fn lagrangian_hessian(&self, _: f64, q: &Vector1<f64>, _: &Vector1<f64>) -> Matrix1<f64> {
        Matrix1::new(2.0 * self.mu * self.m / q[0].powi(3))
    }
    fn residual_jacobians(
        &self,
        _: f64,
        q: &Vector1<f64>,
        _: &Vector1<f64>,
        qdd: &Vector1<f64>,
    ) -> ResidualJacobians<U1> {
        // r = m r̈ + μ m / r².
        let (m, mu, r) = (self.m, self.mu, q[0]);
        ResidualJacobians {
            coordinates: Matrix1::new(-2.0 * mu * m / r.powi(3)),
            velocities: Matrix1::zeros(),
            parameters: DMatrix::from_row_slice(1, 2, &[qdd[0] + mu / (r * r), m / (r * r)]),
        }
    }
}

impl FromParameterValues<U1> for RadialFall {
    const PARAMETER_COUNT: usize = 2;
    fn from_parameter_values(values: &[f64]) -> Result<Self, Error> {
        let [m, mu] = params(values)?;
        Ok(RadialFall { m, mu })
    }
}
