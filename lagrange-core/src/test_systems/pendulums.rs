//! Pendulums: simple and double, one in Cartesian coordinates held by a constraint, and one on a cart pushed by an input.

use std::borrow::Cow;

use nalgebra::{DMatrix, Matrix1, Matrix2, RowVector2, U1, U2, Vector1, Vector2};

use super::params;
use crate::error::Error;
use crate::solve::{AccelerationJacobians, ConstraintJacobians, ResidualJacobians};
use crate::system::{
    Conserved, ConstrainedSystem, ConstraintInfo, FromParameterValues, LagrangianSystem, ModelInfo,
    Phase,
};

/// `L = ½ m l² θ̇² + m g l cos θ`.
pub(crate) struct Pendulum {
    pub m: f64,
    pub l: f64,
    pub g: f64,
}

impl LagrangianSystem<U1> for Pendulum {
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
            mass_matrix_tree: Cow::Borrowed(&[]),
            omitted: crate::Omitted::NONE,
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
    ) -> ResidualJacobians<U1> {
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

impl FromParameterValues<U1> for Pendulum {
    const PARAMETER_COUNT: usize = 3;
    fn from_parameter_values(values: &[f64]) -> Result<Self, Error> {
        let [m, l, g] = params(values)?;
        Ok(Pendulum { m, l, g })
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

impl LagrangianSystem<U2> for DoublePendulum {
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
            mass_matrix_tree: Cow::Borrowed(&[]),
            omitted: crate::Omitted::NONE,
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
    ) -> ResidualJacobians<U2> {
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

impl FromParameterValues<U2> for DoublePendulum {
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

impl LagrangianSystem<U2> for CartesianPendulum {
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
                on_velocities: false,
            }]),
            inputs: Cow::Borrowed(&[]),
            theorems: Cow::Borrowed(&[]),
            mass_matrix_tree: Cow::Borrowed(&[]),
            omitted: crate::Omitted::NONE,
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
    ) -> ResidualJacobians<U2> {
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
    ) -> Result<AccelerationJacobians<U2>, Error> {
        self.constrained_acceleration_jacobians(t, q, qd)
    }
    fn project(
        &self,
        t: f64,
        q: &Vector2<f64>,
        qd: &Vector2<f64>,
    ) -> Result<Option<Phase<U2>>, Error> {
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

impl ConstrainedSystem<U2, U1> for CartesianPendulum {
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
    ) -> ConstraintJacobians<U2, U1> {
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

impl LagrangianSystem<U2> for CartPole {
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
            mass_matrix_tree: Cow::Borrowed(&[]),
            omitted: crate::Omitted::NONE,
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
    ) -> ResidualJacobians<U2> {
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

impl FromParameterValues<U2> for CartPole {
    const PARAMETER_COUNT: usize = 5;
    fn from_parameter_values(values: &[f64]) -> Result<Self, Error> {
        let [mc, m, l, g, force] = params(values)?;
        Ok(CartPole { mc, m, l, g, force })
    }
}
