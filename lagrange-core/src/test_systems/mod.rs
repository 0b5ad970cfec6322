//! Hand-written systems for the tests, with textbook equations of motion.

use std::borrow::Cow;

use nalgebra::{DMatrix, Matrix1, Matrix2, RowVector2, SVector, Vector1, Vector2};

use crate::error::Error;
use crate::solve::{AccelerationJacobians, ConstraintJacobians, ResidualJacobians};
use crate::system::ConstrainedSystem;
use crate::system::{Conserved, ConstraintInfo, FromParameterValues, LagrangianSystem, ModelInfo};

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
            equations_mathml: Cow::Borrowed(""),
            formulas: Cow::Borrowed(&[]),
            drawing: None,
            constraints: Cow::Borrowed(&[]),
            inputs: Cow::Borrowed(&[]),
            theorems: Cow::Borrowed(&[]),
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
            equations_mathml: Cow::Borrowed(""),
            formulas: Cow::Borrowed(&[]),
            drawing: None,
            constraints: Cow::Borrowed(&[]),
            inputs: Cow::Borrowed(&[]),
            theorems: Cow::Borrowed(&[]),
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
            equations_mathml: Cow::Borrowed(""),
            formulas: Cow::Borrowed(&[]),
            drawing: None,
            constraints: Cow::Borrowed(&[]),
            inputs: Cow::Borrowed(&[]),
            theorems: Cow::Borrowed(&[]),
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
            equations_mathml: Cow::Borrowed(""),
            formulas: Cow::Borrowed(&[]),
            drawing: None,
            constraints: Cow::Borrowed(&[]),
            inputs: Cow::Borrowed(&[]),
            theorems: Cow::Borrowed(&[]),
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
            equations_mathml: Cow::Borrowed(""),
            formulas: Cow::Borrowed(&[]),
            drawing: None,
            constraints: Cow::Borrowed(&[]),
            inputs: Cow::Borrowed(&[]),
            theorems: Cow::Borrowed(&[]),
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
            equations_mathml: Cow::Borrowed(""),
            formulas: Cow::Borrowed(&[]),
            drawing: None,
            constraints: Cow::Borrowed(&[]),
            inputs: Cow::Borrowed(&[]),
            theorems: Cow::Borrowed(&[]),
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

/// A cart of mass `mc` on a level track carrying a point mass `m` on a massless pole of
/// length `l`, `θ` measured from the upright, pushed by the input force `F` on the cart:
/// `L = ½ (mc + m) ẋ² + m l cos θ ẋ θ̇ + ½ m l² θ̇² − m g l cos θ`, `Q = (F, 0)`.
pub(crate) struct CartPole {
    pub mc: f64,
    pub m: f64,
    pub l: f64,
    pub g: f64,
    pub force: f64,
}

impl LagrangianSystem<2> for CartPole {
    fn info(&self) -> &ModelInfo {
        const INFO: ModelInfo = ModelInfo {
            name: Cow::Borrowed("CartPole"),
            coordinates: Cow::Borrowed(&[Cow::Borrowed("x"), Cow::Borrowed("theta")]),
            parameters: Cow::Borrowed(&[
                Cow::Borrowed("mc"),
                Cow::Borrowed("m"),
                Cow::Borrowed("l"),
                Cow::Borrowed("g"),
                Cow::Borrowed("F"),
            ]),
            cyclic: Cow::Borrowed(&[]),
            conserved: Conserved::None,
            forced_or_dissipative: true,
            equations_text: Cow::Borrowed(
                "(mc + m)*ddot(x) + m*l*cos(theta)*ddot(theta) - m*l*sin(theta)*dot(theta)^2 = F\n\
                 m*l*cos(theta)*ddot(x) + m*l^2*ddot(theta) - m*g*l*sin(theta) = 0",
            ),
            equations_latex: Cow::Borrowed(r"\text{cart-pole}"),
            equations_mathml: Cow::Borrowed(""),
            formulas: Cow::Borrowed(&[]),
            drawing: None,
            constraints: Cow::Borrowed(&[]),
            inputs: Cow::Borrowed(&[4]),
            theorems: Cow::Borrowed(&[]),
        };
        &INFO
    }

    fn parameter_values(&self) -> Vec<f64> {
        vec![self.mc, self.m, self.l, self.g, self.force]
    }
    fn with_parameter_values(&self, values: &[f64]) -> Result<Self, Error> {
        Self::from_parameter_values(values)
    }
    fn mass_matrix(&self, _: f64, q: &Vector2<f64>, _: &Vector2<f64>) -> Matrix2<f64> {
        let (m, l, c) = (self.m, self.l, q[1].cos());
        Matrix2::new(self.mc + m, m * l * c, m * l * c, m * l * l)
    }
    fn forcing(&self, _: f64, q: &Vector2<f64>, qd: &Vector2<f64>) -> Vector2<f64> {
        let (m, l, s) = (self.m, self.l, q[1].sin());
        Vector2::new(self.force + m * l * s * qd[1] * qd[1], m * self.g * l * s)
    }
    fn lagrangian(&self, _: f64, q: &Vector2<f64>, qd: &Vector2<f64>) -> f64 {
        let (m, l, c) = (self.m, self.l, q[1].cos());
        0.5 * (self.mc + m) * qd[0].powi(2)
            + m * l * c * qd[0] * qd[1]
            + 0.5 * m * (l * qd[1]).powi(2)
            - m * self.g * l * c
    }
    fn energy(&self, t: f64, q: &Vector2<f64>, qd: &Vector2<f64>) -> f64 {
        self.lagrangian(t, q, qd) + 2.0 * self.m * self.g * self.l * q[1].cos()
    }
    fn jacobi_integral(&self, t: f64, q: &Vector2<f64>, qd: &Vector2<f64>) -> f64 {
        self.energy(t, q, qd)
    }
    fn momenta(&self, _: f64, q: &Vector2<f64>, qd: &Vector2<f64>) -> Vector2<f64> {
        self.mass_matrix(0.0, q, qd) * qd
    }
    fn momentum_rate(&self, _: f64, q: &Vector2<f64>, qd: &Vector2<f64>) -> Vector2<f64> {
        let (m, l, s) = (self.m, self.l, q[1].sin());
        Vector2::new(self.force, -m * l * s * qd[0] * qd[1] + m * self.g * l * s)
    }
    fn momentum_jacobian(&self, _: f64, q: &Vector2<f64>, qd: &Vector2<f64>) -> Matrix2<f64> {
        let a = -self.m * self.l * q[1].sin();
        Matrix2::new(0.0, a * qd[1], 0.0, a * qd[0])
    }
    fn lagrangian_hessian(&self, _: f64, q: &Vector2<f64>, qd: &Vector2<f64>) -> Matrix2<f64> {
        let (m, l, c) = (self.m, self.l, q[1].cos());
        Matrix2::new(
            0.0,
            0.0,
            0.0,
            -m * l * c * qd[0] * qd[1] + m * self.g * l * c,
        )
    }
    fn residual_jacobians(
        &self,
        _: f64,
        q: &Vector2<f64>,
        qd: &Vector2<f64>,
        qdd: &Vector2<f64>,
    ) -> ResidualJacobians<2> {
        // r₀ = (mc + m) ẍ + m l c θ̈ − m l s θ̇² − F, r₁ = m l c ẍ + m l² θ̈ − m g l s.
        let (m, l, g) = (self.m, self.l, self.g);
        let (s, c) = (q[1].sin(), q[1].cos());
        let (td, xdd, tdd) = (qd[1], qdd[0], qdd[1]);
        ResidualJacobians {
            coordinates: Matrix2::new(
                0.0,
                -m * l * s * tdd - m * l * c * td * td,
                0.0,
                -m * l * s * xdd - m * g * l * c,
            ),
            velocities: Matrix2::new(0.0, -2.0 * m * l * s * td, 0.0, 0.0),
            parameters: DMatrix::from_row_slice(
                2,
                5,
                &[
                    xdd,
                    xdd + l * c * tdd - l * s * td * td,
                    m * c * tdd - m * s * td * td,
                    0.0,
                    -1.0,
                    0.0,
                    l * c * xdd + l * l * tdd - g * l * s,
                    m * c * xdd + 2.0 * m * l * tdd - m * g * s,
                    -m * l * s,
                    0.0,
                ],
            ),
        }
    }
}

impl FromParameterValues<2> for CartPole {
    const PARAMETER_COUNT: usize = 5;
    fn from_parameter_values(values: &[f64]) -> Result<Self, Error> {
        let [mc, m, l, g, force] = params(values)?;
        Ok(CartPole { mc, m, l, g, force })
    }
}

/// Two point masses on massless rods, `θ₁`, `θ₂` from the downward vertical:
/// `L = ½ (m₁ + m₂) l₁² θ̇₁² + ½ m₂ l₂² θ̇₂² + m₂ l₁ l₂ cos(θ₁ − θ₂) θ̇₁ θ̇₂
/// + (m₁ + m₂) g l₁ cos θ₁ + m₂ g l₂ cos θ₂`.
pub(crate) struct DoublePendulum {
    pub m1: f64,
    pub m2: f64,
    pub l1: f64,
    pub l2: f64,
    pub g: f64,
}

impl LagrangianSystem<2> for DoublePendulum {
    fn info(&self) -> &ModelInfo {
        const INFO: ModelInfo = ModelInfo {
            name: Cow::Borrowed("DoublePendulum"),
            coordinates: Cow::Borrowed(&[Cow::Borrowed("theta1"), Cow::Borrowed("theta2")]),
            parameters: Cow::Borrowed(&[
                Cow::Borrowed("m1"),
                Cow::Borrowed("m2"),
                Cow::Borrowed("l1"),
                Cow::Borrowed("l2"),
                Cow::Borrowed("g"),
            ]),
            cyclic: Cow::Borrowed(&[]),
            conserved: Conserved::Energy,
            forced_or_dissipative: false,
            equations_text: Cow::Borrowed("double pendulum"),
            equations_latex: Cow::Borrowed(r"\text{double pendulum}"),
            equations_mathml: Cow::Borrowed(""),
            formulas: Cow::Borrowed(&[]),
            drawing: None,
            constraints: Cow::Borrowed(&[]),
            inputs: Cow::Borrowed(&[]),
            theorems: Cow::Borrowed(&[]),
        };
        &INFO
    }

    fn parameter_values(&self) -> Vec<f64> {
        vec![self.m1, self.m2, self.l1, self.l2, self.g]
    }
    fn with_parameter_values(&self, values: &[f64]) -> Result<Self, Error> {
        Self::from_parameter_values(values)
    }
    fn mass_matrix(&self, _: f64, q: &Vector2<f64>, _: &Vector2<f64>) -> Matrix2<f64> {
        let a = self.m2 * self.l1 * self.l2 * (q[0] - q[1]).cos();
        Matrix2::new(
            (self.m1 + self.m2) * self.l1 * self.l1,
            a,
            a,
            self.m2 * self.l2 * self.l2,
        )
    }
    fn forcing(&self, _: f64, q: &Vector2<f64>, qd: &Vector2<f64>) -> Vector2<f64> {
        let a = self.m2 * self.l1 * self.l2 * (q[0] - q[1]).sin();
        Vector2::new(
            -a * qd[1] * qd[1] - (self.m1 + self.m2) * self.g * self.l1 * q[0].sin(),
            a * qd[0] * qd[0] - self.m2 * self.g * self.l2 * q[1].sin(),
        )
    }
    fn lagrangian(&self, t: f64, q: &Vector2<f64>, qd: &Vector2<f64>) -> f64 {
        let kinetic = 0.5 * qd.dot(&(self.mass_matrix(t, q, qd) * qd));
        kinetic - self.potential(q)
    }
    fn energy(&self, t: f64, q: &Vector2<f64>, qd: &Vector2<f64>) -> f64 {
        let kinetic = 0.5 * qd.dot(&(self.mass_matrix(t, q, qd) * qd));
        kinetic + self.potential(q)
    }
    fn jacobi_integral(&self, t: f64, q: &Vector2<f64>, qd: &Vector2<f64>) -> f64 {
        self.energy(t, q, qd)
    }
    fn momenta(&self, t: f64, q: &Vector2<f64>, qd: &Vector2<f64>) -> Vector2<f64> {
        self.mass_matrix(t, q, qd) * qd
    }
    fn momentum_rate(&self, _: f64, q: &Vector2<f64>, qd: &Vector2<f64>) -> Vector2<f64> {
        let a = self.m2 * self.l1 * self.l2 * (q[0] - q[1]).sin() * qd[0] * qd[1];
        Vector2::new(
            -a - (self.m1 + self.m2) * self.g * self.l1 * q[0].sin(),
            a - self.m2 * self.g * self.l2 * q[1].sin(),
        )
    }
    fn momentum_jacobian(&self, _: f64, q: &Vector2<f64>, qd: &Vector2<f64>) -> Matrix2<f64> {
        let a = self.m2 * self.l1 * self.l2 * (q[0] - q[1]).sin();
        Matrix2::new(-a * qd[1], a * qd[1], -a * qd[0], a * qd[0])
    }
    fn lagrangian_hessian(&self, _: f64, q: &Vector2<f64>, qd: &Vector2<f64>) -> Matrix2<f64> {
        let a = self.m2 * self.l1 * self.l2 * (q[0] - q[1]).cos() * qd[0] * qd[1];
        Matrix2::new(
            -a - (self.m1 + self.m2) * self.g * self.l1 * q[0].cos(),
            a,
            a,
            -a - self.m2 * self.g * self.l2 * q[1].cos(),
        )
    }
    fn residual_jacobians(
        &self,
        _: f64,
        q: &Vector2<f64>,
        qd: &Vector2<f64>,
        qdd: &Vector2<f64>,
    ) -> ResidualJacobians<2> {
        // r₁ = (m₁+m₂) l₁² θ̈₁ + a c θ̈₂ + a s θ̇₂² + (m₁+m₂) g l₁ sin θ₁,
        // r₂ = m₂ l₂² θ̈₂ + a c θ̈₁ − a s θ̇₁² + m₂ g l₂ sin θ₂, a = m₂ l₁ l₂, c, s of θ₁ − θ₂.
        let (m1, m2, l1, l2, g) = (self.m1, self.m2, self.l1, self.l2, self.g);
        let a = m2 * l1 * l2;
        let (s, c) = (q[0] - q[1]).sin_cos();
        let (d1, d2, a1, a2) = (qd[0], qd[1], qdd[0], qdd[1]);
        let (s1, c1, s2, c2) = (q[0].sin(), q[0].cos(), q[1].sin(), q[1].cos());
        // The coupling terms of each equation, without their factor a.
        let (k1, k2) = (c * a2 + s * d2 * d2, c * a1 - s * d1 * d1);
        ResidualJacobians {
            coordinates: Matrix2::new(
                a * (-s * a2 + c * d2 * d2) + (m1 + m2) * g * l1 * c1,
                a * (s * a2 - c * d2 * d2),
                a * (-s * a1 - c * d1 * d1),
                a * (s * a1 + c * d1 * d1) + m2 * g * l2 * c2,
            ),
            velocities: Matrix2::new(0.0, 2.0 * a * s * d2, -2.0 * a * s * d1, 0.0),
            parameters: DMatrix::from_row_slice(
                2,
                5,
                &[
                    l1 * l1 * a1 + g * l1 * s1,
                    l1 * l1 * a1 + l1 * l2 * k1 + g * l1 * s1,
                    2.0 * (m1 + m2) * l1 * a1 + m2 * l2 * k1 + (m1 + m2) * g * s1,
                    m2 * l1 * k1,
                    (m1 + m2) * l1 * s1,
                    0.0,
                    l2 * l2 * a2 + l1 * l2 * k2 + g * l2 * s2,
                    m2 * l2 * k2,
                    2.0 * m2 * l2 * a2 + m2 * l1 * k2 + m2 * g * s2,
                    m2 * l2 * s2,
                ],
            ),
        }
    }
}

impl DoublePendulum {
    fn potential(&self, q: &Vector2<f64>) -> f64 {
        -(self.m1 + self.m2) * self.g * self.l1 * q[0].cos()
            - self.m2 * self.g * self.l2 * q[1].cos()
    }
}

impl FromParameterValues<2> for DoublePendulum {
    const PARAMETER_COUNT: usize = 5;
    fn from_parameter_values(values: &[f64]) -> Result<Self, Error> {
        let [m1, m2, l1, l2, g] = params(values)?;
        Ok(DoublePendulum { m1, m2, l1, l2, g })
    }
}

/// A point mass `m` in the vertical plane held at distance `l` from the origin, in
/// Cartesian coordinates: `L = ½ m (ẋ² + ẏ²) − m g y` with the constraint
/// `x² + y² − l² = 0`, and a viscous damping `−c q̇` on both coordinates.
pub(crate) struct CartesianPendulum {
    pub m: f64,
    pub l: f64,
    pub g: f64,
    pub c: f64,
}

impl LagrangianSystem<2> for CartesianPendulum {
    fn info(&self) -> &ModelInfo {
        const INFO: ModelInfo = ModelInfo {
            name: Cow::Borrowed("CartesianPendulum"),
            coordinates: Cow::Borrowed(&[Cow::Borrowed("x"), Cow::Borrowed("y")]),
            parameters: Cow::Borrowed(&[
                Cow::Borrowed("m"),
                Cow::Borrowed("l"),
                Cow::Borrowed("g"),
                Cow::Borrowed("c"),
            ]),
            cyclic: Cow::Borrowed(&[]),
            conserved: Conserved::None,
            forced_or_dissipative: true,
            equations_text: Cow::Borrowed(
                "m*ddot(x) + c*dot(x) = 2*x*lambda\nm*ddot(y) + c*dot(y) + m*g = 2*y*lambda",
            ),
            equations_latex: Cow::Borrowed(r"\text{Cartesian pendulum}"),
            equations_mathml: Cow::Borrowed(""),
            formulas: Cow::Borrowed(&[]),
            drawing: None,
            constraints: Cow::Borrowed(&[ConstraintInfo {
                text: Cow::Borrowed("x^2 + y^2 - l^2"),
                scleronomic: true,
            }]),
            inputs: Cow::Borrowed(&[]),
            theorems: Cow::Borrowed(&[]),
        };
        &INFO
    }

    fn parameter_values(&self) -> Vec<f64> {
        vec![self.m, self.l, self.g, self.c]
    }
    fn with_parameter_values(&self, values: &[f64]) -> Result<Self, Error> {
        let [m, l, g, c] = params(values)?;
        Ok(CartesianPendulum { m, l, g, c })
    }
    fn mass_matrix(&self, _: f64, _: &Vector2<f64>, _: &Vector2<f64>) -> Matrix2<f64> {
        Matrix2::identity() * self.m
    }
    fn forcing(&self, _: f64, _: &Vector2<f64>, qd: &Vector2<f64>) -> Vector2<f64> {
        Vector2::new(0.0, -self.m * self.g) - qd * self.c
    }
    fn lagrangian(&self, _: f64, q: &Vector2<f64>, qd: &Vector2<f64>) -> f64 {
        0.5 * self.m * qd.norm_squared() - self.m * self.g * q[1]
    }
    fn energy(&self, _: f64, q: &Vector2<f64>, qd: &Vector2<f64>) -> f64 {
        0.5 * self.m * qd.norm_squared() + self.m * self.g * q[1]
    }
    fn jacobi_integral(&self, t: f64, q: &Vector2<f64>, qd: &Vector2<f64>) -> f64 {
        self.energy(t, q, qd)
    }
    fn momenta(&self, _: f64, _: &Vector2<f64>, qd: &Vector2<f64>) -> Vector2<f64> {
        qd * self.m
    }
    fn momentum_rate(&self, t: f64, q: &Vector2<f64>, qd: &Vector2<f64>) -> Vector2<f64> {
        self.forcing(t, q, qd)
    }
    fn momentum_jacobian(&self, _: f64, _: &Vector2<f64>, _: &Vector2<f64>) -> Matrix2<f64> {
        Matrix2::zeros()
    }
    fn lagrangian_hessian(&self, _: f64, _: &Vector2<f64>, _: &Vector2<f64>) -> Matrix2<f64> {
        Matrix2::zeros()
    }
    fn residual_jacobians(
        &self,
        _: f64,
        _: &Vector2<f64>,
        qd: &Vector2<f64>,
        qdd: &Vector2<f64>,
    ) -> ResidualJacobians<2> {
        // r = m q̈ + c q̇ + (0, m g).
        ResidualJacobians {
            coordinates: Matrix2::zeros(),
            velocities: Matrix2::identity() * self.c,
            parameters: DMatrix::from_row_slice(
                2,
                4,
                &[qdd[0], 0.0, 0.0, qd[0], qdd[1] + self.g, 0.0, self.m, qd[1]],
            ),
        }
    }
    fn accelerations(
        &self,
        t: f64,
        q: &Vector2<f64>,
        qd: &Vector2<f64>,
    ) -> Result<Vector2<f64>, Error> {
        self.constrained_motion(t, q, qd).map(|m| m.accelerations)
    }
    fn acceleration_jacobians(
        &self,
        t: f64,
        q: &Vector2<f64>,
        qd: &Vector2<f64>,
    ) -> Result<AccelerationJacobians<2>, Error> {
        self.constrained_acceleration_jacobians(t, q, qd)
    }
    #[allow(clippy::type_complexity)]
    fn project(
        &self,
        t: f64,
        q: &Vector2<f64>,
        qd: &Vector2<f64>,
    ) -> Result<Option<(Vector2<f64>, Vector2<f64>)>, Error> {
        self.project_onto_constraints(t, q, qd).map(Some)
    }
    fn check_initial_state(
        &self,
        t: f64,
        q: &Vector2<f64>,
        qd: &Vector2<f64>,
    ) -> Result<(), Error> {
        self.check_consistent(t, q, qd, crate::__private::CONSISTENCY_TOLERANCE)
    }
}

impl ConstrainedSystem<2, 1> for CartesianPendulum {
    fn constraint_values(&self, _: f64, q: &Vector2<f64>) -> Vector1<f64> {
        Vector1::new(q.norm_squared() - self.l * self.l)
    }
    fn constraint_jacobian(&self, _: f64, q: &Vector2<f64>) -> RowVector2<f64> {
        q.transpose() * 2.0
    }
    fn constraint_time_derivative(&self, _: f64, _: &Vector2<f64>) -> Vector1<f64> {
        Vector1::zeros()
    }
    fn constraint_velocities(&self, _: f64, q: &Vector2<f64>, qd: &Vector2<f64>) -> Vector1<f64> {
        Vector1::new(2.0 * q.dot(qd))
    }
    fn constraint_jacobian_and_bias(
        &self,
        t: f64,
        q: &Vector2<f64>,
        qd: &Vector2<f64>,
    ) -> (RowVector2<f64>, Vector1<f64>) {
        (
            self.constraint_jacobian(t, q),
            Vector1::new(2.0 * qd.norm_squared()),
        )
    }
    fn constraint_jacobians(
        &self,
        _: f64,
        _: &Vector2<f64>,
        qd: &Vector2<f64>,
        qdd: &Vector2<f64>,
        multipliers: &Vector1<f64>,
    ) -> ConstraintJacobians<2, 1> {
        // s = 2 q·q̈ + 2 |q̇|², Jᵀλ = 2 λ q.
        ConstraintJacobians {
            acceleration_coordinates: qdd.transpose() * 2.0,
            acceleration_velocities: qd.transpose() * 4.0,
            acceleration_parameters: DMatrix::zeros(1, 4),
            reaction_coordinates: Matrix2::identity() * (2.0 * multipliers[0]),
            reaction_parameters: DMatrix::zeros(2, 4),
        }
    }
}

/// `m ẍ = u`: a double integrator driven by the input force `u`.
pub(crate) struct DoubleIntegrator {
    pub m: f64,
    pub u: f64,
}

impl LagrangianSystem<1> for DoubleIntegrator {
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
    ) -> ResidualJacobians<1> {
        // r = m ẍ − u.
        ResidualJacobians {
            coordinates: Matrix1::zeros(),
            velocities: Matrix1::zeros(),
            parameters: DMatrix::from_row_slice(1, 2, &[qdd[0], -1.0]),
        }
    }
}

/// Central differences of `f` at `x` with step `h`, one column per component of `x`.
pub(crate) fn central_differences(
    x: &[f64],
    h: f64,
    f: impl Fn(&[f64]) -> Vec<f64>,
) -> DMatrix<f64> {
    let rows = f(x).len();
    let mut out = DMatrix::zeros(rows, x.len());
    for j in 0..x.len() {
        let step = h * (1.0 + x[j].abs());
        let (mut plus, mut minus) = (x.to_vec(), x.to_vec());
        plus[j] += step;
        minus[j] -= step;
        let (fp, fm) = (f(&plus), f(&minus));
        for i in 0..rows {
            out[(i, j)] = (fp[i] - fm[i]) / (2.0 * step);
        }
    }
    out
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
