//! The derived equations of a model file as a [`LagrangianSystem`]: the engine's programs
//! run by the IR interpreter, so the command integrates and checks with the same runtime
//! as the derive, without compiling anything. The interpreter is the `f64` backend of the
//! same walk over the IR as the derive's code, so each program computes the derive's
//! bits (see `tests/cli_generate.rs`).
//!
//! The runtime is generic over the coordinate count `N` and the constraint count `K`;
//! [`with_system`] picks the instantiation for a model at run time, and
//! [`with_reduced_system`] for a reduced model (Routh) with `J` ignored coordinates.

use std::sync::Arc;

use lagrange_core::__private::{
    CONSISTENCY_TOLERANCE, dynamic_functions, solve_accelerations, unconstrained_jacobians,
};
use lagrange_core::nalgebra::{DMatrix, SMatrix, SVector};
use lagrange_core::{
    AccelerationJacobians, ConstrainedSystem, ConstraintInfo, ConstraintJacobians, Drawing,
    DrawnPoint, DynamicFunctions, Error, Formula, LagrangianSystem, ModelInfo, ReducedSystem,
    ResidualJacobians, TheoremInfo,
};
use lagrange_symbolic::equations::{self, ConstraintEquations, Equations, Premise, Reduced};
use lagrange_symbolic::ir::Program;

use super::Failure;

/// What the systems of one model share.
struct Model {
    equations: Equations,
    info: ModelInfo,
    /// For a reduced model: the names of the ignored coordinates and `χ̇(t, q, q̇, C)`.
    ignored: Option<(Vec<String>, Program)>,
}

/// A model's equations with parameter values, evaluated by interpreting the IR; `J` is
/// the number of ignored coordinates of a reduced model (0 otherwise).
#[derive(Clone)]
pub(crate) struct Interpreted<const N: usize, const K: usize, const J: usize = 0> {
    model: Arc<Model>,
    values: Vec<f64>,
}

/// Work to do with a model's system once its sizes are known.
pub(crate) trait WithSystem {
    /// The work's result.
    type Output;
    /// Does the work.
    fn call<const N: usize, const K: usize>(self, system: Interpreted<N, K>) -> Self::Output;
}

/// Builds the model's system with parameter `values` (in the model's order) and hands it
/// to `work`. Errors for a wrong number of values, and for sizes beyond those compiled in
/// (up to 8 coordinates and 3 constraints).
pub(crate) fn with_system<W: WithSystem>(
    equations: &Equations,
    values: &[f64],
    work: W,
) -> Result<W::Output, Failure> {
    if values.len() != equations.parameters.len() {
        return Err(Failure(format!(
            "{} takes {} parameter values, got {}",
            equations.name,
            equations.parameters.len(),
            values.len()
        )));
    }
    let model = Arc::new(Model {
        info: model_info(equations),
        equations: equations.clone(),
        ignored: None,
    });
    let values = values.to_vec();
    let n = equations.coordinates.len();
    let k = model.info.constraints.len();
    macro_rules! dispatch {
        ($(($n:literal, $k:literal)),*) => {
            match (n, k) {
                $(($n, $k) => Ok(work.call(Interpreted::<$n, $k> { model, values })),)*
                _ => Err(Failure(format!(
                    "{}: the lagrange command handles models of up to 8 coordinates and 3 constraints (this one has {n} and {k}); use #[derive(Lagrangian)] or `lagrange generate`",
                    equations.name
                ))),
            }
        };
    }
    dispatch!(
        (1, 0),
        (2, 0),
        (2, 1),
        (3, 0),
        (3, 1),
        (3, 2),
        (4, 0),
        (4, 1),
        (4, 2),
        (4, 3),
        (5, 0),
        (5, 1),
        (5, 2),
        (5, 3),
        (6, 0),
        (6, 1),
        (6, 2),
        (6, 3),
        (7, 0),
        (7, 1),
        (7, 2),
        (7, 3),
        (8, 0),
        (8, 1),
        (8, 2),
        (8, 3)
    )
}

/// Work to do with a reduced model's system once its sizes are known.
pub(crate) trait WithReducedSystem {
    /// The work's result.
    type Output;
    /// Does the work.
    fn call<const N: usize, const J: usize>(self, system: Interpreted<N, 0, J>) -> Self::Output;
}

/// [`with_system`] for the reduced model `reduced`, whose parameter `values` are the
/// model's followed by the constant momenta; the system also gives the ignored
/// coordinates' velocities (a [`ReducedSystem`]). Handles up to 4 retained and 2 ignored
/// coordinates.
pub(crate) fn with_reduced_system<W: WithReducedSystem>(
    reduced: &Reduced,
    values: &[f64],
    work: W,
) -> Result<W::Output, Failure> {
    let equations = &reduced.equations;
    if values.len() != equations.parameters.len() {
        return Err(Failure(format!(
            "the reduced {} takes {} parameter values, got {}",
            equations.name,
            equations.parameters.len(),
            values.len()
        )));
    }
    let model = Arc::new(Model {
        info: model_info(equations),
        equations: equations.clone(),
        ignored: Some((reduced.ignored.clone(), reduced.ignored_velocities.clone())),
    });
    let values = values.to_vec();
    let (n, j) = (equations.coordinates.len(), reduced.ignored.len());
    macro_rules! dispatch {
        ($(($n:literal, $j:literal)),*) => {
            match (n, j) {
                $(($n, $j) => Ok(work.call(Interpreted::<$n, 0, $j> { model, values })),)*
                _ => Err(Failure(format!(
                    "{}: the lagrange command runs reduced systems of up to 4 retained and 2 ignored coordinates (this one has {n} and {j}); run the full system, or use #[derive(Lagrangian)]",
                    equations.name
                ))),
            }
        };
    }
    dispatch!(
        (1, 1),
        (2, 1),
        (3, 1),
        (4, 1),
        (1, 2),
        (2, 2),
        (3, 2),
        (4, 2)
    )
}

/// The reduced state (Routh) of a full state `(t, q, q̇)` of a model that ignores
/// coordinates, with the model's parameter `values`.
pub(crate) struct ReducedState {
    /// The reduced system's parameter values: the model's, then the constant momenta.
    pub(crate) values: Vec<f64>,
    /// The momenta of the ignored coordinates at the state.
    pub(crate) momenta: Vec<f64>,
    /// The retained coordinates and velocities.
    pub(crate) q: Vec<f64>,
    pub(crate) qd: Vec<f64>,
    /// The ignored coordinates.
    pub(crate) ignored: Vec<f64>,
}

impl ReducedState {
    /// Splits the state of `full` and takes the momenta `∂L/∂χ̇` of the ignored
    /// coordinates from its momenta program.
    pub(crate) fn of(
        full: &Equations,
        reduced: &Reduced,
        t: f64,
        q: &[f64],
        qd: &[f64],
        values: &[f64],
    ) -> ReducedState {
        let inputs: Vec<f64> = std::iter::once(t)
            .chain(q.iter().copied())
            .chain(qd.iter().copied())
            .chain(values.iter().copied())
            .collect();
        let mut all = vec![0.0; q.len()];
        full.programs.momenta.evaluate(&inputs, &mut all);
        let pick = |v: &[f64], indices: &[usize]| indices.iter().map(|&i| v[i]).collect();
        let momenta: Vec<f64> = pick(&all, &reduced.ignored_indices);
        ReducedState {
            values: values.iter().chain(&momenta).copied().collect(),
            momenta,
            q: pick(q, &reduced.retained),
            qd: pick(qd, &reduced.retained),
            ignored: pick(q, &reduced.ignored_indices),
        }
    }
}

/// The [`ModelInfo`] of derived equations, owned.
pub(crate) fn model_info(equations: &Equations) -> ModelInfo {
    let texts = |names: &[String]| names.iter().cloned().map(Into::into).collect::<Vec<_>>();
    let constraints = equations.constraints.iter().flat_map(|c| {
        c.text
            .iter()
            .zip(&c.scleronomic)
            .map(|(text, &scleronomic)| ConstraintInfo {
                text: text.clone().into(),
                scleronomic,
            })
    });
    ModelInfo {
        name: equations.name.clone().into(),
        coordinates: texts(&equations.coordinates).into(),
        parameters: texts(&equations.parameters).into(),
        cyclic: equations.cyclic.clone().into(),
        conserved: equations.conserved,
        forced_or_dissipative: equations.forced_or_dissipative,
        equations_text: equations.text().into(),
        equations_latex: equations.latex().into(),
        equations_mathml: equations.mathml().into(),
        formulas: equations
            .printed_formulas()
            .iter()
            .map(|f| Formula {
                name: f.name.clone().into(),
                text: f.text.clone().into(),
                mathml: f.mathml.clone().into(),
            })
            .collect::<Vec<_>>()
            .into(),
        drawing: equations.drawing.as_ref().map(|d| Drawing {
            points: d
                .points
                .iter()
                .map(|p| DrawnPoint {
                    name: p.name.clone().into(),
                    kind: p.kind,
                })
                .collect::<Vec<_>>()
                .into(),
            links: d.links.clone().into(),
            frames: d.frames.clone().into(),
        }),
        constraints: constraints.collect::<Vec<_>>().into(),
        inputs: equations.inputs.clone().into(),
        theorems: theorem_infos(equations).into(),
    }
}

/// The runtime's account of the general theorems the engine decided.
fn theorem_infos(equations: &Equations) -> Vec<TheoremInfo> {
    let Some(theorems) = &equations.theorems else {
        return Vec::new();
    };
    theorems
        .laws
        .iter()
        .map(|law| {
            let (holds, why) = match &law.premise {
                Premise::Holds { symmetry, .. } => (true, symmetry.clone()),
                Premise::NotEstablished(why) => (false, why.clone()),
            };
            TheoremInfo {
                theorem: law.theorem,
                holds,
                why: why.into(),
                integral: law.integral,
            }
        })
        .collect()
}

impl<const N: usize, const K: usize, const J: usize> Interpreted<N, K, J> {
    /// Runs `program` at `(t, q, q̇)` with this system's parameter values.
    fn run<const M: usize>(
        &self,
        program: &Program,
        t: f64,
        q: &SVector<f64, N>,
        qd: &SVector<f64, N>,
    ) -> [f64; M] {
        let inputs: Vec<f64> = std::iter::once(t)
            .chain(q.iter().copied())
            .chain(qd.iter().copied())
            .chain(self.values.iter().copied())
            .collect();
        let mut out = [0.0; M];
        program.evaluate(&inputs, &mut out);
        out
    }

    fn programs(&self) -> &equations::Programs {
        &self.model.equations.programs
    }

    fn constraints(&self) -> &ConstraintEquations {
        self.model
            .equations
            .constraints
            .as_ref()
            .expect("K > 0 only for models with constraints")
    }

    fn vector(values: &[f64]) -> SVector<f64, N> {
        SVector::from_column_slice(values)
    }

    fn matrix(values: &[f64]) -> SMatrix<f64, N, N> {
        SMatrix::from_row_slice(values)
    }

    /// Evaluates a program with `outputs` values (sizes that const generics cannot
    /// spell, like `N²`), into a vector.
    fn run_dynamic(
        &self,
        program: &Program,
        t: f64,
        q: &SVector<f64, N>,
        qd: &SVector<f64, N>,
    ) -> Vec<f64> {
        self.run_extended(program, t, q, qd, &[])
    }

    /// [`run_dynamic`](Self::run_dynamic) of a Jacobian program, whose inputs go on with
    /// `extra` (the accelerations, then the multipliers).
    fn run_extended(
        &self,
        program: &Program,
        t: f64,
        q: &SVector<f64, N>,
        qd: &SVector<f64, N>,
        extra: &[f64],
    ) -> Vec<f64> {
        let inputs: Vec<f64> = std::iter::once(t)
            .chain(q.iter().copied())
            .chain(qd.iter().copied())
            .chain(self.values.iter().copied())
            .chain(extra.iter().copied())
            .collect();
        let mut out = vec![0.0; program.outputs];
        program.evaluate(&inputs, &mut out);
        out
    }
}

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
        (
            Self::matrix(&values[..N * N]),
            Self::vector(&values[N * N..]),
        )
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
        let values = self.run::<9>(&theorems.dynamic_functions, t, q, qd);
        Some(dynamic_functions(values))
    }

    fn drawing(&self, t: f64, q: &SVector<f64, N>) -> Vec<f64> {
        let Some(drawing) = &self.model.equations.drawing else {
            return Vec::new();
        };
        // A position depends on no velocity; were one read, NaN would say so.
        let inputs: Vec<f64> = std::iter::once(t)
            .chain(q.iter().copied())
            .chain(std::iter::repeat_n(f64::NAN, N))
            .chain(self.values.iter().copied())
            .collect();
        let mut out = vec![0.0; drawing.program.outputs];
        drawing.program.evaluate(&inputs, &mut out);
        out
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
        values.chunks_exact(2).map(|p| (p[0], p[1])).collect()
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
        let nn = N * N;
        ResidualJacobians {
            coordinates: Self::matrix(&values[..nn]),
            velocities: Self::matrix(&values[nn..2 * nn]),
            parameters: DMatrix::from_row_slice(N, self.values.len(), &values[2 * nn..]),
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
        (
            SMatrix::from_row_slice(&values[..K * N]),
            SVector::from_column_slice(&values[K * N..]),
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
        let (kn, nn) = (K * N, N * N);
        let (sv, sp, rq, rp) = (kn, 2 * kn, 2 * kn + K * m, 2 * kn + K * m + nn);
        ConstraintJacobians {
            acceleration_coordinates: SMatrix::from_row_slice(&values[..sv]),
            acceleration_velocities: SMatrix::from_row_slice(&values[sv..sp]),
            acceleration_parameters: DMatrix::from_row_slice(K, m, &values[sp..rq]),
            reaction_coordinates: Self::matrix(&values[rq..rp]),
            reaction_parameters: DMatrix::from_row_slice(N, m, &values[rp..]),
        }
    }
}

impl<const N: usize, const J: usize> ReducedSystem<N, J> for Interpreted<N, 0, J> {
    fn ignored_names(&self) -> [&str; J] {
        std::array::from_fn(|i| self.ignored().0[i].as_str())
    }

    fn ignored_velocities(
        &self,
        t: f64,
        q: &SVector<f64, N>,
        qd: &SVector<f64, N>,
    ) -> SVector<f64, J> {
        SVector::from(self.run::<J>(&self.ignored().1, t, q, qd))
    }
}

impl<const N: usize, const J: usize> Interpreted<N, 0, J> {
    /// The ignored coordinates' names and velocities program.
    fn ignored(&self) -> &(Vec<String>, Program) {
        self.model
            .ignored
            .as_ref()
            .expect("J > 0 only for reduced models")
    }
}
