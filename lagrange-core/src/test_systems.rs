//! Hand-written systems for the tests, with textbook equations of motion.

use std::borrow::Cow;

use nalgebra::{DMatrix, Matrix1, Matrix2, SVector, Vector1, Vector2};

use crate::error::Error;
use crate::jacobians::ResidualJacobians;
use crate::system::{Conserved, FromParameterValues, LagrangianSystem, ModelInfo};

fn params<const K: usize>(values: &[f64]) -> Result<[f64; K], Error> {
    values
        .try_into()
        .map_err(|_| Error::InvalidInput(format!("expected {K} parameters, got {}", values.len())))
}

/// `L = ½ m ẋ² − ½ k x²`.
pub(crate) struct Oscillator {
    pub m: f64,
    pub k: f64,
}

impl LagrangianSystem<1> for Oscillator {
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
            constraints: Cow::Borrowed(&[]),
            inputs: Cow::Borrowed(&[]),
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
    ) -> ResidualJacobians<1> {
        // r = m ẍ + k x.
        ResidualJacobians {
            coordinates: Matrix1::new(self.k),
            velocities: Matrix1::zeros(),
            parameters: DMatrix::from_row_slice(1, 2, &[qdd[0], q[0]]),
        }
    }
}

impl FromParameterValues<1> for Oscillator {
    const PARAMETER_COUNT: usize = 2;
    fn from_parameter_values(values: &[f64]) -> Result<Self, Error> {
        let [m, k] = params(values)?;
        Ok(Oscillator { m, k })
    }
}

/// `L = ½ m l² θ̇² + m g l cos θ`.
pub(crate) struct Pendulum {
    pub m: f64,
    pub l: f64,
    pub g: f64,
}

impl LagrangianSystem<1> for Pendulum {
    fn info(&self) -> &ModelInfo {
        const INFO: ModelInfo = ModelInfo {
            name: Cow::Borrowed("Pendulum"),
            coordinates: Cow::Borrowed(&[Cow::Borrowed("theta")]),
            parameters: Cow::Borrowed(&[
                Cow::Borrowed("m"),
                Cow::Borrowed("l"),
                Cow::Borrowed("g"),
            ]),
            cyclic: Cow::Borrowed(&[]),
            conserved: Conserved::Energy,
            forced_or_dissipative: false,
            equations_text: Cow::Borrowed("m*l^2*ddot(theta) + m*g*l*sin(theta) = 0"),
            equations_latex: Cow::Borrowed(r"m l^2 \ddot\theta + m g l \sin\theta &= 0"),
            constraints: Cow::Borrowed(&[]),
            inputs: Cow::Borrowed(&[]),
        };
        &INFO
    }

    fn parameter_values(&self) -> Vec<f64> {
        vec![self.m, self.l, self.g]
    }
    fn with_parameter_values(&self, values: &[f64]) -> Result<Self, Error> {
        Self::from_parameter_values(values)
    }
    fn mass_matrix(&self, _: f64, _: &Vector1<f64>, _: &Vector1<f64>) -> Matrix1<f64> {
        Matrix1::new(self.m * self.l * self.l)
    }
    fn forcing(&self, _: f64, q: &Vector1<f64>, _: &Vector1<f64>) -> Vector1<f64> {
        Vector1::new(-self.m * self.g * self.l * q[0].sin())
    }
    fn lagrangian(&self, _: f64, q: &Vector1<f64>, qd: &Vector1<f64>) -> f64 {
        0.5 * self.m * (self.l * qd[0]).powi(2) + self.m * self.g * self.l * q[0].cos()
    }
    fn energy(&self, _: f64, q: &Vector1<f64>, qd: &Vector1<f64>) -> f64 {
        0.5 * self.m * (self.l * qd[0]).powi(2) - self.m * self.g * self.l * q[0].cos()
    }
    fn jacobi_integral(&self, t: f64, q: &Vector1<f64>, qd: &Vector1<f64>) -> f64 {
        self.energy(t, q, qd)
    }
    fn momenta(&self, _: f64, _: &Vector1<f64>, qd: &Vector1<f64>) -> Vector1<f64> {
        qd * (self.m * self.l * self.l)
    }
    fn momentum_rate(&self, _: f64, q: &Vector1<f64>, _: &Vector1<f64>) -> Vector1<f64> {
        Vector1::new(-self.m * self.g * self.l * q[0].sin())
    }
    fn momentum_jacobian(&self, _: f64, _: &Vector1<f64>, _: &Vector1<f64>) -> Matrix1<f64> {
        Matrix1::zeros()
    }
    fn lagrangian_hessian(&self, _: f64, q: &Vector1<f64>, _: &Vector1<f64>) -> Matrix1<f64> {
        Matrix1::new(-self.m * self.g * self.l * q[0].cos())
    }
    fn residual_jacobians(
        &self,
        _: f64,
        q: &Vector1<f64>,
        _: &Vector1<f64>,
        qdd: &Vector1<f64>,
    ) -> ResidualJacobians<1> {
        // r = m l² θ̈ + m g l sin θ.
        let (m, l, g) = (self.m, self.l, self.g);
        let (s, c, a) = (q[0].sin(), q[0].cos(), qdd[0]);
        ResidualJacobians {
            coordinates: Matrix1::new(m * g * l * c),
            velocities: Matrix1::zeros(),
            parameters: DMatrix::from_row_slice(
                1,
                3,
                &[
                    l * l * a + g * l * s,
                    2.0 * m * l * a + m * g * s,
                    m * l * s,
                ],
            ),
        }
    }
}

impl FromParameterValues<1> for Pendulum {
    const PARAMETER_COUNT: usize = 3;
    fn from_parameter_values(values: &[f64]) -> Result<Self, Error> {
        let [m, l, g] = params(values)?;
        Ok(Pendulum { m, l, g })
    }
}

/// A free particle in polar coordinates: `L = ½ m (ṙ² + r² φ̇²)`, `φ` cyclic.
pub(crate) struct PolarParticle {
    pub m: f64,
}

impl LagrangianSystem<2> for PolarParticle {
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
            constraints: Cow::Borrowed(&[]),
            inputs: Cow::Borrowed(&[]),
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
    ) -> ResidualJacobians<2> {
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

impl FromParameterValues<2> for PolarParticle {
    const PARAMETER_COUNT: usize = 1;
    fn from_parameter_values(values: &[f64]) -> Result<Self, Error> {
        let [m] = params(values)?;
        Ok(PolarParticle { m })
    }
}

/// `q̈ = q²` (`L = ½ q̇² + q³/3`): from `q = 1`, `q̇ = 0` it blows up at a finite time.
pub(crate) struct BlowUp;

impl LagrangianSystem<1> for BlowUp {
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
            constraints: Cow::Borrowed(&[]),
            inputs: Cow::Borrowed(&[]),
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
    ) -> ResidualJacobians<1> {
        // r = q̈ − q².
        ResidualJacobians {
            coordinates: Matrix1::new(-2.0 * q[0]),
            velocities: Matrix1::zeros(),
            parameters: DMatrix::zeros(1, 0),
        }
    }
}

impl FromParameterValues<1> for BlowUp {
    const PARAMETER_COUNT: usize = 0;
    fn from_parameter_values(values: &[f64]) -> Result<Self, Error> {
        let [] = params(values)?;
        Ok(BlowUp)
    }
}

/// A ball in uniform gravity, `L = ½ m ẏ² − m g y`: `m ÿ = −m g`.
pub(crate) struct Ball {
    pub m: f64,
    pub g: f64,
}

impl LagrangianSystem<1> for Ball {
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
            constraints: Cow::Borrowed(&[]),
            inputs: Cow::Borrowed(&[]),
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
    ) -> ResidualJacobians<1> {
        // r = m ÿ + m g: ∂r/∂m = ÿ + g, ∂r/∂g = m.
        ResidualJacobians {
            coordinates: Matrix1::zeros(),
            velocities: Matrix1::zeros(),
            parameters: DMatrix::from_row_slice(1, 2, &[qdd[0] + self.g, self.m]),
        }
    }
}

impl FromParameterValues<1> for Ball {
    const PARAMETER_COUNT: usize = 2;
    fn from_parameter_values(values: &[f64]) -> Result<Self, Error> {
        let [m, g] = params(values)?;
        Ok(Ball { m, g })
    }
}

/// Radial fall in a central field, `L = ½ m ṙ² + μ m / r`: from rest at `r₀` it reaches
/// `r = 0` at the free-fall time `(π/2) √(r₀³ / (2μ))`, where `q̈ = −μ/r²` is singular.
pub(crate) struct RadialFall {
    pub m: f64,
    pub mu: f64,
}

impl LagrangianSystem<1> for RadialFall {
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
            constraints: Cow::Borrowed(&[]),
            inputs: Cow::Borrowed(&[]),
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
    ) -> ResidualJacobians<1> {
        // r = m r̈ + μ m / r².
        let (m, mu, r) = (self.m, self.mu, q[0]);
        ResidualJacobians {
            coordinates: Matrix1::new(-2.0 * mu * m / r.powi(3)),
            velocities: Matrix1::zeros(),
            parameters: DMatrix::from_row_slice(1, 2, &[qdd[0] + mu / (r * r), m / (r * r)]),
        }
    }
}

impl FromParameterValues<1> for RadialFall {
    const PARAMETER_COUNT: usize = 2;
    fn from_parameter_values(values: &[f64]) -> Result<Self, Error> {
        let [m, mu] = params(values)?;
        Ok(RadialFall { m, mu })
    }
}

/// `(q, q̇)` from arrays.
pub(crate) fn state<const N: usize>(
    q: [f64; N],
    qd: [f64; N],
) -> (SVector<f64, N>, SVector<f64, N>) {
    (SVector::from(q), SVector::from(qd))
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
