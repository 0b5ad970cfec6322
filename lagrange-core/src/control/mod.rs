//! Closing the loop: a controller `(t, q, q̇) → u` sets a model's inputs
//! ([`ModelInfo::inputs`]) while the system moves, continuously ([`Controlled`]) or
//! through a zero-order hold ([`Simulation::run_sampled`](crate::Simulation::run_sampled)).

use std::borrow::Cow;
use std::marker::PhantomData;
use std::sync::Arc;

use nalgebra::{DMatrix, DefaultAllocator, Dim, OMatrix, OVector, U1};

use crate::error::{Error, Short};
use crate::size::DimAllocator;
use crate::solve::{AccelerationJacobians, ResidualJacobians};
use crate::system::{Conserved, LagrangianSystem, ModelInfo, Phase};

mod sampled;

/// A system whose inputs a controller sets at every evaluation: `u = k(t, q, q̇)`, or
/// values held fixed ([`Simulation::run_sampled`](crate::Simulation::run_sampled) holds them over each sample period).
/// It is a [`LagrangianSystem`] itself, so a [`Simulation`](crate::Simulation) runs it unchanged.
///
/// The closed loop has no inputs, no cyclic coordinates and conserves nothing (the
/// controller does work). Its parameters are the model's; the values given for the inputs
/// are overwritten by the controller's.
///
/// The methods that cannot fail return NaN where the controller's output is invalid (the
/// wrong number of values, or non-finite ones); [`accelerations`] and the others that can
/// fail return the error, so a run stops with it.
///
/// [`accelerations`]: LagrangianSystem::accelerations
pub struct Controlled<S, C, N: Dim>
where
    DefaultAllocator: DimAllocator<N>,
{
    system: S,
    controller: Arc<C>,
    parameters: Vec<f64>,
    held: Option<Vec<f64>>,
    info: ModelInfo,
    /// The size of the states the controller reads.
    size: PhantomData<N>,
}

impl<S, C, N: Dim> std::fmt::Debug for Controlled<S, C, N>
where
    DefaultAllocator: DimAllocator<N>,
{
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Controlled")
            .field("model", &self.info.name)
            .field("held", &self.held)
            .finish_non_exhaustive()
    }
}

impl<S, C, N: Dim> Controlled<S, C, N>
where
    S: LagrangianSystem<N>,
    C: Fn(f64, &OVector<f64, N>, &OVector<f64, N>) -> Vec<f64>,
    DefaultAllocator: DimAllocator<N>,
{
    /// `system` with its inputs set by `controller`, which returns one value per input in
    /// the order of [`ModelInfo::inputs`]. Errors with [`Error::InvalidInput`] when the
    /// model has no inputs. The closed loop declares no conserved integral, cyclic
    /// coordinate or general theorem: the controller's forces are unknown to the
    /// derivation.
    pub fn new(system: S, controller: C) -> Result<Self, Error> {
        let model = system.info();
        if model.inputs.is_empty() {
            return Err(Error::InvalidInput(format!(
                "`{}` has no inputs for a controller to set (declare them with `inputs(…)`)",
                model.name
            )));
        }
        let info = ModelInfo {
            conserved: Conserved::None,
            forced_or_dissipative: true,
            cyclic: Cow::Borrowed(&[]),
            inputs: Cow::Borrowed(&[]),
            theorems: Cow::Borrowed(&[]),
            ..model.clone()
        };
        Ok(Controlled {
            parameters: system.parameter_values(),
            system,
            controller: Arc::new(controller),
            held: None,
            info,
            size: PhantomData,
        })
    }

    /// The open-loop model.
    pub fn model(&self) -> &S {
        &self.system
    }

    /// The indices of the inputs among the parameters.
    fn inputs(&self) -> &[usize] {
        &self.system.info().inputs
    }

    /// The controller's output at a state, checked: one finite value per input.
    pub fn input_values(
        &self,
        t: f64,
        q: &OVector<f64, N>,
        qd: &OVector<f64, N>,
    ) -> Result<Vec<f64>, Error> {
        if let Some(held) = &self.held {
            return Ok(held.clone());
        }
        let u = (self.controller)(t, q, qd);
        let inputs = self.inputs();
        let names = || {
            inputs
                .iter()
                .map(|&i| {
                    self.info
                        .parameters
                        .get(i)
                        .map_or_else(|| format!("parameter {i}"), |n| n.to_string())
                })
                .collect::<Vec<_>>()
                .join(", ")
        };
        if u.len() != inputs.len() {
            return Err(Error::InvalidInput(format!(
                "the controller of `{}` returned {} values for its {} inputs ({}) at t = {}",
                self.info.name,
                u.len(),
                inputs.len(),
                names(),
                Short(t)
            )));
        }
        if !u.iter().all(|x| x.is_finite()) {
            return Err(Error::InvalidInput(format!(
                "the controller of `{}` returned non-finite inputs ({}) = {u:?} at t = {}, q = {:?}, q̇ = {:?}",
                self.info.name,
                names(),
                Short(t),
                q.as_slice(),
                qd.as_slice()
            )));
        }
        Ok(u)
    }

    /// The same loop with the inputs held at `values` instead of following the controller.
    fn holding(&self, values: Vec<f64>) -> Result<Self, Error> {
        Ok(Controlled {
            system: self.system.with_parameter_values(&self.parameters)?,
            controller: Arc::clone(&self.controller),
            parameters: self.parameters.clone(),
            held: Some(values),
            info: self.info.clone(),
            size: PhantomData,
        })
    }

    /// Adds `∂x/∂u ∂u/∂(q, q̇)` (`inputs`: the input columns `∂x/∂p`) to derivatives with
    /// respect to `q` and `q̇`, and zeroes those columns: the chain rule of the closed loop.
    fn close_loop(
        &self,
        du: &DMatrix<f64>,
        coordinates: &mut OMatrix<f64, N, N>,
        velocities: &mut OMatrix<f64, N, N>,
        inputs: &mut DMatrix<f64>,
    ) {
        let n = coordinates.nrows();
        for (k, &input) in self.inputs().iter().enumerate() {
            for j in 0..n {
                for i in 0..n {
                    coordinates[(i, j)] += inputs[(i, input)] * du[(k, j)];
                    velocities[(i, j)] += inputs[(i, input)] * du[(k, n + j)];
                }
            }
            inputs.column_mut(input).fill(0.0);
        }
    }

    /// The open-loop model with its inputs set to the controller's output at a state.
    fn at(&self, t: f64, q: &OVector<f64, N>, qd: &OVector<f64, N>) -> Result<S, Error> {
        let u = self.input_values(t, q, qd)?;
        let mut values = self.parameters.clone();
        for (&i, &value) in self.inputs().iter().zip(&u) {
            let slot = values.get_mut(i).ok_or_else(|| {
                Error::InvalidInput(format!(
                    "input index {i} of `{}` is not below its {} parameters",
                    self.info.name,
                    self.parameters.len()
                ))
            })?;
            *slot = value;
        }
        self.system.with_parameter_values(&values)
    }

    /// `f` of the model at the state, or `nan` when the controller's output is invalid.
    fn eval<T>(
        &self,
        t: f64,
        q: &OVector<f64, N>,
        qd: &OVector<f64, N>,
        nan: T,
        f: impl FnOnce(&S) -> T,
    ) -> T {
        self.at(t, q, qd).map_or(nan, |model| f(&model))
    }

    /// `∂u/∂(q, q̇)` by central differences of the controller (`N_u × 2N`); zero while the
    /// inputs are held.
    fn input_jacobian(
        &self,
        t: f64,
        q: &OVector<f64, N>,
        qd: &OVector<f64, N>,
    ) -> Result<DMatrix<f64>, Error> {
        let (count, n) = (self.inputs().len(), q.len());
        let mut jacobian = DMatrix::zeros(count, 2 * n);
        if self.held.is_some() {
            return Ok(jacobian);
        }
        // The step that balances truncation (h²) and round-off (ε/h) errors.
        let relative = f64::EPSILON.cbrt();
        for j in 0..2 * n {
            let (mut qp, mut qdp, mut qm, mut qdm) = (q.clone(), qd.clone(), q.clone(), qd.clone());
            let (value, plus, minus) = if j < n {
                (q[j], &mut qp[j], &mut qm[j])
            } else {
                (qd[j - n], &mut qdp[j - n], &mut qdm[j - n])
            };
            let h = relative * (1.0 + value.abs());
            *plus += h;
            *minus -= h;
            let up = self.input_values(t, &qp, &qdp)?;
            let down = self.input_values(t, &qm, &qdm)?;
            for i in 0..count {
                jacobian[(i, j)] = (up[i] - down[i]) / (2.0 * h);
            }
        }
        Ok(jacobian)
    }
}

impl<S, C, N: Dim> LagrangianSystem<N> for Controlled<S, C, N>
where
    S: LagrangianSystem<N>,
    C: Fn(f64, &OVector<f64, N>, &OVector<f64, N>) -> Vec<f64>,
    DefaultAllocator: DimAllocator<N>,
{
    fn info(&self) -> &ModelInfo {
        &self.info
    }
    fn parameter_values(&self) -> Vec<f64> {
        self.parameters.clone()
    }
    /// Where the model's points are: positions do not depend on the inputs' values.
    fn drawing(&self, t: f64, q: &OVector<f64, N>) -> Vec<f64> {
        self.system.drawing(t, q)
    }
    fn with_parameter_values(&self, values: &[f64]) -> Result<Self, Error> {
        Ok(Controlled {
            system: self.system.with_parameter_values(values)?,
            controller: Arc::clone(&self.controller),
            parameters: values.to_vec(),
            held: self.held.clone(),
            info: self.info.clone(),
            size: PhantomData,
        })
    }
    fn mass_matrix(&self, t: f64, q: &OVector<f64, N>, qd: &OVector<f64, N>) -> OMatrix<f64, N, N> {
        self.eval(t, q, qd, nan_matrix(q), |s| s.mass_matrix(t, q, qd))
    }
    fn forcing(&self, t: f64, q: &OVector<f64, N>, qd: &OVector<f64, N>) -> OVector<f64, N> {
        self.eval(t, q, qd, nan_vector(q), |s| s.forcing(t, q, qd))
    }
    fn mass_matrix_and_forcing(
        &self,
        t: f64,
        q: &OVector<f64, N>,
        qd: &OVector<f64, N>,
    ) -> (OMatrix<f64, N, N>, OVector<f64, N>) {
        let nan = (nan_matrix(q), nan_vector(q));
        self.eval(t, q, qd, nan, |s| s.mass_matrix_and_forcing(t, q, qd))
    }
    fn lagrangian(&self, t: f64, q: &OVector<f64, N>, qd: &OVector<f64, N>) -> f64 {
        self.eval(t, q, qd, f64::NAN, |s| s.lagrangian(t, q, qd))
    }
    fn energy(&self, t: f64, q: &OVector<f64, N>, qd: &OVector<f64, N>) -> f64 {
        self.eval(t, q, qd, f64::NAN, |s| s.energy(t, q, qd))
    }
    fn jacobi_integral(&self, t: f64, q: &OVector<f64, N>, qd: &OVector<f64, N>) -> f64 {
        self.eval(t, q, qd, f64::NAN, |s| s.jacobi_integral(t, q, qd))
    }
    fn momenta(&self, t: f64, q: &OVector<f64, N>, qd: &OVector<f64, N>) -> OVector<f64, N> {
        self.eval(t, q, qd, nan_vector(q), |s| s.momenta(t, q, qd))
    }
    fn momentum_rate(&self, t: f64, q: &OVector<f64, N>, qd: &OVector<f64, N>) -> OVector<f64, N> {
        self.eval(t, q, qd, nan_vector(q), |s| s.momentum_rate(t, q, qd))
    }
    /// The model's `∂p/∂q` at the inputs of the state (the inputs held: the closed loop
    /// has no conserved integral, so the integrators that need this refuse it).
    fn momentum_jacobian(
        &self,
        t: f64,
        q: &OVector<f64, N>,
        qd: &OVector<f64, N>,
    ) -> OMatrix<f64, N, N> {
        self.eval(t, q, qd, nan_matrix(q), |s| s.momentum_jacobian(t, q, qd))
    }
    /// The model's `∂²L/∂q∂q` at the inputs of the state (the inputs held, as for
    /// [`momentum_jacobian`](Self::momentum_jacobian)).
    fn lagrangian_hessian(
        &self,
        t: f64,
        q: &OVector<f64, N>,
        qd: &OVector<f64, N>,
    ) -> OMatrix<f64, N, N> {
        self.eval(t, q, qd, nan_matrix(q), |s| s.lagrangian_hessian(t, q, qd))
    }
    /// The closed loop's: the model's, plus `∂r/∂u ∂u/∂x` by the chain rule, with the
    /// controller's derivatives `∂u/∂x` by central differences (the controller is a
    /// closure, not a formula; exact for a linear one up to round-off, zero while the
    /// inputs are held). The input columns of `∂r/∂p` are zero: the controller overrides
    /// those parameters.
    fn residual_jacobians(
        &self,
        t: f64,
        q: &OVector<f64, N>,
        qd: &OVector<f64, N>,
        qdd: &OVector<f64, N>,
    ) -> ResidualJacobians<N> {
        let (Ok(model), Ok(du)) = (self.at(t, q, qd), self.input_jacobian(t, q, qd)) else {
            return ResidualJacobians {
                coordinates: nan_matrix(q),
                velocities: nan_matrix(q),
                parameters: DMatrix::repeat(q.len(), self.parameters.len(), f64::NAN),
            };
        };
        let mut r = model.residual_jacobians(t, q, qd, qdd);
        self.close_loop(
            &du,
            &mut r.coordinates,
            &mut r.velocities,
            &mut r.parameters,
        );
        r
    }
    /// The model's (the constrained motion's for a constrained model), closed by the chain
    /// rule as [`residual_jacobians`](Self::residual_jacobians) is.
    fn acceleration_jacobians(
        &self,
        t: f64,
        q: &OVector<f64, N>,
        qd: &OVector<f64, N>,
    ) -> Result<AccelerationJacobians<N>, Error> {
        // Before the controller's 4n calls.
        crate::system::derivatives(&self.info, "the derivatives of the motion")?;
        let du = self.input_jacobian(t, q, qd)?;
        let mut a = self.at(t, q, qd)?.acceleration_jacobians(t, q, qd)?;
        self.close_loop(
            &du,
            &mut a.coordinates,
            &mut a.velocities,
            &mut a.parameters,
        );
        Ok(a)
    }
    fn accelerations(
        &self,
        t: f64,
        q: &OVector<f64, N>,
        qd: &OVector<f64, N>,
    ) -> Result<OVector<f64, N>, Error> {
        self.at(t, q, qd)?.accelerations(t, q, qd)
    }
    fn project(
        &self,
        t: f64,
        q: &OVector<f64, N>,
        qd: &OVector<f64, N>,
    ) -> Result<Option<Phase<N>>, Error> {
        self.at(t, q, qd)?.project(t, q, qd)
    }
    fn check_initial_state(
        &self,
        t: f64,
        q: &OVector<f64, N>,
        qd: &OVector<f64, N>,
    ) -> Result<(), Error> {
        self.at(t, q, qd)?.check_initial_state(t, q, qd)
    }
}

/// NaN in every entry of a vector of the size of `q`.
fn nan_vector<N: Dim>(q: &OVector<f64, N>) -> OVector<f64, N>
where
    DefaultAllocator: DimAllocator<N>,
{
    OVector::repeat_generic(q.shape_generic().0, U1, f64::NAN)
}

/// NaN in every entry of a square matrix of the size of `q`.
fn nan_matrix<N: Dim>(q: &OVector<f64, N>) -> OMatrix<f64, N, N>
where
    DefaultAllocator: DimAllocator<N>,
{
    let n = q.shape_generic().0;
    OMatrix::repeat_generic(n, n, f64::NAN)
}

#[cfg(test)]
mod tests {
    use super::*;

    use nalgebra::{Matrix4, RowVector4, SVector, Vector4};

    use crate::analysis::{linearize, normal_modes};
    use crate::run::Simulation;
    use crate::test_systems::{CartPole, DoubleIntegrator, Pendulum, central_differences};

    type V2 = SVector<f64, 2>;
    type V1 = SVector<f64, 1>;

    fn cart_pole() -> CartPole {
        CartPole {
            mc: 1.5,
            m: 0.4,
            l: 0.6,
            g: 9.81,
            force: 0.0,
        }
    }

    #[test]
    fn the_closed_loop_linearization_matches_finite_differences() {
        let gains = [1.2, -30.0, 2.5, -6.0];
        let closed = Controlled::new(cart_pole(), move |_: f64, q: &V2, qd: &V2| {
            vec![-(gains[0] * q[0] + gains[1] * q[1] + gains[2] * qd[0] + gains[3] * qd[1])]
        })
        .unwrap();
        let (q, qd) = (V2::new(0.3, -0.4), V2::new(0.7, 1.1));
        let x = [q[0], q[1], qd[0], qd[1]];
        let reference = central_differences(&x, 1e-5, |x| {
            let (q, qd) = (V2::new(x[0], x[1]), V2::new(x[2], x[3]));
            let qdd = closed.accelerations(0.0, &q, &qd).unwrap();
            vec![qd[0], qd[1], qdd[0], qdd[1]]
        });
        let a = linearize(&closed, 0.0, &q, &qd).unwrap().a;
        assert!(
            (&a - &reference).amax() < 1e-6 * reference.amax(),
            "{a}\nvs\n{reference}"
        );
        assert_eq!(linearize(&closed, 0.0, &q, &qd).unwrap().b.ncols(), 0);
    }

    #[test]
    fn pole_placement_on_the_textbook_linearization_holds_the_cart_pole_upright() {
        let CartPole { mc, m, l, g, .. } = cart_pole();
        // x = (x, θ, ẋ, θ̇), upright: ẍ = −(m g/M) θ + F/M, θ̈ = (M+m) g θ/(M l) − F/(M l).
        #[rustfmt::skip]
        let a = Matrix4::new(
            0.0, 0.0, 1.0, 0.0,
            0.0, 0.0, 0.0, 1.0,
            0.0, -m * g / mc, 0.0, 0.0,
            0.0, (mc + m) * g / (mc * l), 0.0, 0.0,
        );
        let b = Vector4::new(0.0, 0.0, 1.0 / mc, -1.0 / (mc * l));
        // Ackermann: K = e₄ᵀ C⁻¹ p(A) for the poles −2, −2.5, −3, −3.5.
        let controllability = Matrix4::from_columns(&[b, a * b, a * a * b, a * a * a * b]);
        let identity = Matrix4::identity();
        let p = [2.0, 2.5, 3.0, 3.5]
            .iter()
            .fold(identity, |acc, &pole| acc * (a + identity * pole));
        let gains: RowVector4<f64> =
            RowVector4::new(0.0, 0.0, 0.0, 1.0) * controllability.try_inverse().unwrap() * p;
        let closed = Controlled::new(cart_pole(), move |_: f64, q: &V2, qd: &V2| {
            vec![-(gains * Vector4::new(q[0], q[1], qd[0], qd[1]))[0]]
        })
        .unwrap();
        let trajectory = Simulation::new(&closed)
            .run(0.0, V2::new(0.2, 0.25), V2::zeros(), 15.0)
            .unwrap();
        let (_, q, qd) = trajectory.last().unwrap();
        assert!(q.amax() < 1e-4 && qd.amax() < 1e-4, "{q} {qd}");
    }

    #[test]
    fn a_pd_controller_gives_the_damped_oscillator() {
        // m ẍ = −k x − d ẋ with m = 1, k = 4, d = 1:
        // x = e^{−t/2} (x₀ cos ωt + (v₀ + x₀/2)/ω sin ωt), ω = √(4 − 1/4).
        let closed = Controlled::new(
            DoubleIntegrator { m: 1.0, u: 0.0 },
            |_: f64, q: &V1, qd: &V1| vec![-4.0 * q[0] - qd[0]],
        )
        .unwrap();
        let (x0, v0, t) = (0.5, -0.3, 3.0);
        let trajectory = Simulation::new(&closed)
            .run(0.0, V1::new(x0), V1::new(v0), t)
            .unwrap();
        let omega = (4.0_f64 - 0.25).sqrt();
        let exact = (-t / 2.0).exp()
            * (x0 * (omega * t).cos() + (v0 + x0 / 2.0) / omega * (omega * t).sin());
        let (_, q, _) = trajectory.last().unwrap();
        assert!((q[0] - exact).abs() < 1e-9, "{} vs {exact}", q[0]);
        // Its small motions are damped: no normal modes; without damping ω² = k/m.
        let error = normal_modes(&closed, 0.0, &V1::zeros()).unwrap_err();
        assert!(error.to_string().contains("velocity terms"), "{error}");
        let spring = Controlled::new(
            DoubleIntegrator { m: 2.0, u: 0.0 },
            |_: f64, q: &V1, _: &V1| vec![-4.0 * q[0]],
        )
        .unwrap();
        let modes = normal_modes(&spring, 0.0, &V1::zeros()).unwrap();
        assert!((modes[0].omega_squared - 2.0).abs() < 1e-8, "{modes:?}");
    }

    #[test]
    fn bad_controllers_and_models_without_inputs_are_clear_errors() {
        let system = DoubleIntegrator { m: 1.0, u: 0.0 };
        let two = Controlled::new(system, |_: f64, _: &V1, _: &V1| vec![1.0, 2.0]).unwrap();
        let error = Simulation::new(&two)
            .run(0.0, V1::zeros(), V1::zeros(), 1.0)
            .unwrap_err()
            .to_string();
        assert!(
            error.contains("returned 2 values for its 1 inputs (u)"),
            "{error}"
        );
        let system = DoubleIntegrator { m: 1.0, u: 0.0 };
        let error = Simulation::new(&system)
            .run_sampled(
                |_: f64, q: &V1, _: &V1| vec![1.0 / q[0]],
                0.1,
                0.0,
                V1::zeros(),
                V1::zeros(),
                1.0,
            )
            .unwrap_err()
            .to_string();
        assert!(error.contains("non-finite inputs (u) = [inf]"), "{error}");
        let pendulum = Pendulum {
            m: 1.0,
            l: 1.0,
            g: 9.81,
        };
        let error = Controlled::new(pendulum, |_: f64, _: &V1, _: &V1| vec![]).unwrap_err();
        assert!(
            error.to_string().contains("`Pendulum` has no inputs"),
            "{error}"
        );
        let error = Simulation::new(&system)
            .output_interval(0.03)
            .run_sampled(
                |_: f64, _: &V1, _: &V1| vec![0.0],
                0.1,
                0.0,
                V1::zeros(),
                V1::zeros(),
                1.0,
            )
            .unwrap_err();
        assert!(
            error.to_string().contains("not a whole multiple"),
            "{error}"
        );
    }
}
