//! The one adapter between a model's derived programs and the runtime's traits.
//!
//! A derived model is a set of straight-line programs, each writing its outputs where
//! [`Layout`] places them. The derive's code (sizes fixed by the type, `Const<n>`) and
//! models loaded at run time (`lagrange::loaded`, the `lagrange` command's; sizes known at
//! run time, `Dyn`) both implement
//! [`Programs`]: run one program into a buffer. [`LagrangianSystem`],
//! [`ConstrainedSystem`] and [`ReducedSystem`] are implemented here once, over both, the
//! way nalgebra writes one algorithm for `Const` and `Dyn`: which program each method
//! runs, what it reads, and how its outputs become vectors and matrices.

use lagrange_common::layout::{self, Layout};
use nalgebra::{DMatrix, DefaultAllocator, Dim, OMatrix, OVector, U1};

use super::constrained::{CONSISTENCY_TOLERANCE, ConstrainedSystem};
use super::{
    Conserved, DynamicFunctions, LagrangianSystem, ModelInfo, Omitted, Phase, ReducedSystem,
};
use crate::copy::copy_values;
use crate::error::Error;
use crate::size::{ConstraintAllocator, DimAllocator};
use crate::solve::jacobians::{self, AccelerationJacobians, ConstraintJacobians};
use crate::solve::linalg::{self, Strides};

/// What one of a model's programs computes: the name [`Programs::run`] runs it by. Its
/// outputs are laid out as [`Layout`] says; matrices row by row.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Quantity {
    /// `M` (`n²`), then `f` (`n`): [`Layout::dynamics`].
    Dynamics,
    /// `M` alone, with the bits of [`Dynamics`](Self::Dynamics)' first block.
    MassMatrix,
    /// `L` (one output).
    Lagrangian,
    /// `T + V` (one output).
    Energy,
    /// The Jacobi integral `h` (one output).
    JacobiIntegral,
    /// The integral [`ModelInfo::conserved`] names (`T + V` or `h`), then `L`: what the
    /// integrators' step guard reads at each step's end. Each output has the bits of its
    /// own program ([`Energy`](Self::Energy) or [`JacobiIntegral`](Self::JacobiIntegral),
    /// and [`Lagrangian`](Self::Lagrangian)); a model runs them as one program that
    /// computes what they share once, or as the two. Asked only of a model that conserves
    /// one.
    IntegralAndLagrangian,
    /// `p = ∂L/∂q̇` (`n`).
    Momenta,
    /// `ṗ` (`n`).
    MomentumRate,
    /// `∂p/∂q` (`n²`).
    MomentumJacobian,
    /// `∂²L/∂q∂q` (`n²`).
    LagrangianHessian,
    /// The residual's derivatives row by row ([`Layout::residual_jacobian_rows`]); reads
    /// `q̈`.
    ResidualJacobianRows,
    /// `M q̈ − f` (`n`); reads `q̈`.
    InverseDynamics,
    /// `P`, `Λ`, `T`, `J`, `I` ([`layout::DYNAMIC_FUNCTIONS`]).
    DynamicFunctions,
    /// Each holding theorem's rate and law ([`layout::balance`]); reads `q̈`.
    Balance,
    /// The drawing's points and frames ([`layout::drawing`]); reads positions only.
    Drawing,
    /// `G` (`k`); reads positions only.
    ConstraintValues,
    /// `J = ∂G/∂q` (`k·n`); reads positions only.
    ConstraintJacobian,
    /// `∂G/∂t` (`k`); reads positions only.
    ConstraintTimeDerivative,
    /// `Ġ` (`k`).
    ConstraintVelocities,
    /// `J`, then `c` ([`Layout::constraint_dynamics`]).
    ConstraintDynamics,
    /// [`Layout::constraint_jacobians`]; reads `q̈` and the multipliers.
    ConstraintJacobians,
    /// `χ̇` of a reduced model's ignored coordinates (one each).
    IgnoredVelocities,
}

impl Quantity {
    /// The number of quantities: `quantity as usize` is below it, for tables indexed by
    /// quantity: the last variant's index plus one. A variant added after the last must
    /// move this to it; a table indexed past its end panics (`lagrange::loaded`'s does at a
    /// new quantity's first run), it never misses one silently.
    pub const COUNT: usize = Quantity::IgnoredVelocities as usize + 1;
}

/// What a program reads besides the parameter values. A program of positions is given
/// velocities of NaN where it is the drawing's (so that a read would show in every output
/// it reaches), of zero where it is the constraints'.
pub struct Arguments<'a, N: Dim>
where
    DefaultAllocator: DimAllocator<N>,
{
    /// `t`.
    pub t: f64,
    /// `q`.
    pub q: &'a OVector<f64, N>,
    /// `q̇`.
    pub qd: &'a OVector<f64, N>,
    /// `q̈`, for the programs that read it.
    pub qdd: Option<&'a OVector<f64, N>>,
    /// The constraints' multipliers `λ`, for the program that reads them.
    pub multipliers: &'a [f64],
}

impl<'a, N: Dim> Arguments<'a, N>
where
    DefaultAllocator: DimAllocator<N>,
{
    /// At `(t, q, q̇)`.
    pub fn new(t: f64, q: &'a OVector<f64, N>, qd: &'a OVector<f64, N>) -> Self {
        Arguments {
            t,
            q,
            qd,
            qdd: None,
            multipliers: &[],
        }
    }

    /// At `(t, q, q̇, q̈)`.
    pub fn with_accelerations(
        t: f64,
        q: &'a OVector<f64, N>,
        qd: &'a OVector<f64, N>,
        qdd: &'a OVector<f64, N>,
    ) -> Self {
        Arguments {
            qdd: Some(qdd),
            ..Arguments::new(t, q, qd)
        }
    }

    /// `q̈`, which only the programs that read it are given.
    pub fn accelerations(&self) -> &'a OVector<f64, N> {
        self.qdd
            .expect("a program that reads the accelerations is given them")
    }
}

/// A model's derived programs, runnable: what the derive generates for a struct and what
/// a model loaded at run time is (`lagrange::loaded`). Implementing it makes the
/// type a [`LagrangianSystem`] and a [`ConstrainedSystem`] (of no constraints for a model
/// without them); it is not meant to be implemented by hand.
pub trait Programs: Sized
where
    DefaultAllocator: ConstraintAllocator<Self::Coordinates, Self::Constraints>,
{
    /// The number of coordinates `n` as a dimension (`Const<n>` or `Dyn`).
    type Coordinates: Dim;
    /// The number of constraints `k` as a dimension.
    type Constraints: Dim;

    /// What the model declares and what its derivation decided about it.
    fn model(&self) -> &ModelInfo;

    /// Parameter values, in the order of [`ModelInfo::parameters`].
    fn parameters(&self) -> Vec<f64>;

    /// The same model with other parameter values; errors on a wrong count.
    fn with_parameters(&self, values: &[f64]) -> Result<Self, Error>;

    /// Runs the program of `quantity` at `arguments` (with this system's parameter
    /// values) into a buffer of its outputs that holds `+0` wherever the program writes
    /// nothing, and hands that buffer to `read`, once. The buffer is the implementor's,
    /// sized by the program: on the stack for the derive's code. Panics for a quantity the
    /// model has no program of; the runtime asks only for those its
    /// [`model`](Self::model) says it has. (`read` is a trait object so that a model's
    /// `run`, one arm per program, is compiled once, not once per caller.)
    fn run(
        &self,
        quantity: Quantity,
        arguments: &Arguments<'_, Self::Coordinates>,
        read: &mut dyn FnMut(&mut [f64]),
    );
}

/// What `read` makes of the outputs of `system`'s program of `quantity` at `arguments`
/// ([`Programs::run`]).
#[inline]
fn output<S: Programs, R>(
    system: &S,
    quantity: Quantity,
    arguments: &Arguments<'_, S::Coordinates>,
    read: impl FnOnce(&mut [f64]) -> R,
) -> R
where
    DefaultAllocator: ConstraintAllocator<S::Coordinates, S::Constraints>,
{
    let mut read = Some(read);
    let mut value = None;
    system.run(quantity, arguments, &mut |outputs| {
        value = read.take().map(|read| read(outputs));
    });
    value.expect("`Programs::run` hands the program's outputs to `read`")
}

/// The programs of a model reduced over ignored coordinates (Routh), which also give the
/// ignored coordinates' velocities ([`Quantity::IgnoredVelocities`]): implementing it
/// makes the type a [`ReducedSystem`].
pub trait ReducedPrograms: Programs
where
    DefaultAllocator: ConstraintAllocator<Self::Coordinates, Self::Constraints>,
{
    /// The number of ignored coordinates as a dimension.
    type Ignored: Dim;

    /// Names of the ignored coordinates.
    fn ignored(&self) -> Vec<&str>;
}

/// The layout of `system`'s programs.
fn layout_of<S: Programs>(system: &S) -> Layout
where
    DefaultAllocator: ConstraintAllocator<S::Coordinates, S::Constraints>,
{
    let info = system.model();
    Layout {
        coordinates: info.coordinates.len(),
        parameters: info.parameters.len(),
        constraints: info.constraints.len(),
    }
}

/// Panics, naming `function`, when the model was derived without its variational programs
/// ([`Omitted::variational`]).
fn require_variational(info: &ModelInfo, function: &str) {
    if info.omitted.variational {
        panic!("{}", Omitted::message(&info.name, "variational", function));
    }
}

/// Panics, naming `function`, when the model was derived without the residual's
/// derivatives ([`Omitted::derivatives`]); [`super::derivatives`] is the same check as an
/// error.
fn require_derivatives(info: &ModelInfo, function: &str) {
    if info.omitted.derivatives {
        panic!("{}", Omitted::message(&info.name, "derivatives", function));
    }
}

fn vector<N: Dim>(n: N, values: &[f64]) -> OVector<f64, N>
where
    DefaultAllocator: DimAllocator<N>,
{
    OVector::from_column_slice_generic(n, U1, values)
}

/// `rows` × `columns` from its entries row by row.
fn matrix<R: Dim, C: Dim>(rows: R, columns: C, values: &[f64]) -> OMatrix<f64, R, C>
where
    DefaultAllocator: nalgebra::allocator::Allocator<R, C>,
{
    OMatrix::from_row_slice_generic(rows, columns, values)
}

impl<S, N: Dim> LagrangianSystem<N> for S
where
    S: Programs<Coordinates = N>,
    DefaultAllocator: ConstraintAllocator<N, S::Constraints>,
{
    fn info(&self) -> &ModelInfo {
        self.model()
    }

    fn parameter_values(&self) -> Vec<f64> {
        self.parameters()
    }

    fn with_parameter_values(&self, values: &[f64]) -> Result<Self, Error> {
        self.with_parameters(values)
    }

    fn mass_matrix(&self, t: f64, q: &OVector<f64, N>, qd: &OVector<f64, N>) -> OMatrix<f64, N, N> {
        let n = q.shape_generic().0;
        output(self, Quantity::MassMatrix, &Arguments::new(t, q, qd), |v| {
            matrix(n, n, v)
        })
    }

    fn forcing(&self, t: f64, q: &OVector<f64, N>, qd: &OVector<f64, N>) -> OVector<f64, N> {
        self.mass_matrix_and_forcing(t, q, qd).1
    }

    fn mass_matrix_and_forcing(
        &self,
        t: f64,
        q: &OVector<f64, N>,
        qd: &OVector<f64, N>,
    ) -> (OMatrix<f64, N, N>, OVector<f64, N>) {
        let n = q.shape_generic().0;
        let [mass, forcing] = layout_of(self).dynamics();
        output(self, Quantity::Dynamics, &Arguments::new(t, q, qd), |v| {
            (matrix(n, n, &v[mass]), vector(n, &v[forcing]))
        })
    }

    fn lagrangian(&self, t: f64, q: &OVector<f64, N>, qd: &OVector<f64, N>) -> f64 {
        output(self, Quantity::Lagrangian, &Arguments::new(t, q, qd), |v| {
            v[0]
        })
    }

    fn energy(&self, t: f64, q: &OVector<f64, N>, qd: &OVector<f64, N>) -> f64 {
        output(self, Quantity::Energy, &Arguments::new(t, q, qd), |v| v[0])
    }

    fn jacobi_integral(&self, t: f64, q: &OVector<f64, N>, qd: &OVector<f64, N>) -> f64 {
        output(
            self,
            Quantity::JacobiIntegral,
            &Arguments::new(t, q, qd),
            |v| v[0],
        )
    }

    fn conserved_value_and_lagrangian(
        &self,
        t: f64,
        q: &OVector<f64, N>,
        qd: &OVector<f64, N>,
    ) -> Option<(f64, f64)> {
        if self.model().conserved == Conserved::None {
            return None;
        }
        Some(output(
            self,
            Quantity::IntegralAndLagrangian,
            &Arguments::new(t, q, qd),
            |v| (v[0], v[1]),
        ))
    }

    fn momenta(&self, t: f64, q: &OVector<f64, N>, qd: &OVector<f64, N>) -> OVector<f64, N> {
        let n = q.shape_generic().0;
        output(self, Quantity::Momenta, &Arguments::new(t, q, qd), |v| {
            vector(n, v)
        })
    }

    fn momentum_rate(&self, t: f64, q: &OVector<f64, N>, qd: &OVector<f64, N>) -> OVector<f64, N> {
        let info = self.model();
        require_variational(info, "`momentum_rate`");
        let n = q.shape_generic().0;
        output(
            self,
            Quantity::MomentumRate,
            &Arguments::new(t, q, qd),
            |v| vector(n, v),
        )
    }

    fn momentum_jacobian(
        &self,
        t: f64,
        q: &OVector<f64, N>,
        qd: &OVector<f64, N>,
    ) -> OMatrix<f64, N, N> {
        let info = self.model();
        require_variational(info, "`momentum_jacobian`");
        let n = q.shape_generic().0;
        output(
            self,
            Quantity::MomentumJacobian,
            &Arguments::new(t, q, qd),
            |v| matrix(n, n, v),
        )
    }

    fn lagrangian_hessian(
        &self,
        t: f64,
        q: &OVector<f64, N>,
        qd: &OVector<f64, N>,
    ) -> OMatrix<f64, N, N> {
        let info = self.model();
        require_variational(info, "`lagrangian_hessian`");
        let n = q.shape_generic().0;
        output(
            self,
            Quantity::LagrangianHessian,
            &Arguments::new(t, q, qd),
            |v| matrix(n, n, v),
        )
    }

    fn residual_jacobians(
        &self,
        t: f64,
        q: &OVector<f64, N>,
        qd: &OVector<f64, N>,
        qdd: &OVector<f64, N>,
    ) -> jacobians::ResidualJacobians<N> {
        let info = self.model();
        require_derivatives(info, "`residual_jacobians`");
        let rows = self.residual_jacobian_rows(t, q, qd, qdd);
        jacobians::ResidualJacobians::from_rows(q.shape_generic().0, &rows)
            .expect("the derived program writes the rows of the residual's derivatives")
    }

    fn residual_jacobian_rows(
        &self,
        t: f64,
        q: &OVector<f64, N>,
        qd: &OVector<f64, N>,
        qdd: &OVector<f64, N>,
    ) -> Vec<f64> {
        let info = self.model();
        require_derivatives(info, "`residual_jacobian_rows`");
        let arguments = Arguments::with_accelerations(t, q, qd, qdd);
        output(self, Quantity::ResidualJacobianRows, &arguments, |v| {
            v.to_vec()
        })
    }

    fn inverse_dynamics(
        &self,
        t: f64,
        q: &OVector<f64, N>,
        qd: &OVector<f64, N>,
        qdd: &OVector<f64, N>,
    ) -> OVector<f64, N> {
        let n = q.shape_generic().0;
        let arguments = Arguments::with_accelerations(t, q, qd, qdd);
        output(self, Quantity::InverseDynamics, &arguments, |v| {
            vector(n, v)
        })
    }

    fn acceleration_jacobians(
        &self,
        t: f64,
        q: &OVector<f64, N>,
        qd: &OVector<f64, N>,
    ) -> Result<AccelerationJacobians<N>, Error> {
        if !self.model().constraints.is_empty() {
            return self.constrained_acceleration_jacobians(t, q, qd);
        }
        let info = self.model();
        super::derivatives(info, "the derivatives of the motion")?;
        let n = q.shape_generic().0;
        let [mass, forcing] = layout_of(self).dynamics();
        // The large values stay where they are made (the factor in the dynamics' reader,
        // the derivatives in `result`, made after the solve), and the rows are solved in
        // the program's own buffer: a reader returns only whether it succeeded.
        let mut result = None;
        output(self, Quantity::Dynamics, &Arguments::new(t, q, qd), |v| {
            let (m, f) = (matrix(n, n, &v[mass]), vector(n, &v[forcing]));
            let (factor, qdd) = jacobians::factored(m, f, &info.mass_matrix_tree, (t, q, qd))?;
            let arguments = Arguments::with_accelerations(t, q, qd, &qdd);
            output(self, Quantity::ResidualJacobianRows, &arguments, |rows| {
                let accelerations = (&qdd, info.parameters.len());
                jacobians::solved(&factor, rows, accelerations, &mut result, (t, q, qd))
            })
        })?;
        Ok(result.expect("the dynamics' reader made the derivatives"))
    }

    fn accelerations(
        &self,
        t: f64,
        q: &OVector<f64, N>,
        qd: &OVector<f64, N>,
    ) -> Result<OVector<f64, N>, Error> {
        let mut qdd = OVector::zeros_generic(q.shape_generic().0, U1);
        self.write_accelerations(t, q, qd, qdd.as_mut_slice())?;
        Ok(qdd)
    }

    fn write_accelerations(
        &self,
        t: f64,
        q: &OVector<f64, N>,
        qd: &OVector<f64, N>,
        out: &mut [f64],
    ) -> Result<(), Error> {
        if !self.model().constraints.is_empty() {
            let qdd = self.constrained_motion(t, q, qd)?.accelerations;
            out.copy_from_slice(qdd.as_slice());
            return Ok(());
        }
        let n = q.shape_generic().0;
        let [mass, forcing] = layout_of(self).dynamics();
        let tree = &self.model().mass_matrix_tree;
        let arguments = Arguments::new(t, q, qd);
        // Factorized and solved where the program wrote `M` and `f`: nothing allocated.
        let solved = output(self, Quantity::Dynamics, &arguments, |v| {
            let (m, f) = v.split_at_mut(forcing.start);
            let f = &mut f[..forcing.len()];
            let solved = linalg::accelerations_in_place(
                &mut m[mass.clone()],
                Strides::rows(n.value()),
                tree,
                f,
            );
            if solved {
                copy_values(out, f);
            }
            solved
        });
        if !solved {
            // `M` is not positive definite: LU on it, made again.
            let qdd = output(self, Quantity::Dynamics, &arguments, |v| {
                let dynamics = (
                    matrix(n, n, &v[mass.clone()]),
                    vector(n, &v[forcing.clone()]),
                );
                let remake = || matrix(n, n, &v[mass]);
                linalg::solve_accelerations(dynamics, tree, remake, (t, q, qd))
            })?;
            out.copy_from_slice(qdd.as_slice());
        }
        if out.iter().all(|x| x.is_finite()) {
            Ok(())
        } else {
            Err(Error::singular(t, q.as_slice(), qd.as_slice()))
        }
    }

    fn project(
        &self,
        t: f64,
        q: &OVector<f64, N>,
        qd: &OVector<f64, N>,
    ) -> Result<Option<Phase<N>>, Error> {
        if self.model().constraints.is_empty() {
            return Ok(None);
        }
        self.project_onto_constraints(t, q, qd).map(Some)
    }

    fn check_initial_state(
        &self,
        t: f64,
        q: &OVector<f64, N>,
        qd: &OVector<f64, N>,
    ) -> Result<(), Error> {
        if self.model().constraints.is_empty() {
            return Ok(());
        }
        self.check_consistent(t, q, qd, CONSISTENCY_TOLERANCE)
    }

    fn dynamic_functions(
        &self,
        t: f64,
        q: &OVector<f64, N>,
        qd: &OVector<f64, N>,
    ) -> Option<DynamicFunctions> {
        if self.model().theorems.is_empty() {
            return None;
        }
        let arguments = Arguments::new(t, q, qd);
        Some(output(self, Quantity::DynamicFunctions, &arguments, |v| {
            DynamicFunctions::from_outputs(v)
        }))
    }

    fn drawing(&self, t: f64, q: &OVector<f64, N>) -> Vec<f64> {
        if self.model().drawing.is_none() {
            return Vec::new();
        }
        let unread = OVector::from_element_generic(q.shape_generic().0, U1, f64::NAN);
        output(
            self,
            Quantity::Drawing,
            &Arguments::new(t, q, &unread),
            |v| v.to_vec(),
        )
    }

    fn balance(
        &self,
        t: f64,
        q: &OVector<f64, N>,
        qd: &OVector<f64, N>,
        qdd: &OVector<f64, N>,
    ) -> Vec<(f64, f64)> {
        let theorems = &self.model().theorems;
        if theorems.is_empty() {
            return Vec::new();
        }
        let holding = theorems.iter().filter(|law| law.holds).count();
        let arguments = Arguments::with_accelerations(t, q, qd, qdd);
        output(self, Quantity::Balance, &arguments, |v| {
            (0..holding)
                .map(|k| layout::balance(k).map(|i| v[i]))
                .map(|[rate, law]| (rate, law))
                .collect()
        })
    }
}

impl<S, N: Dim> ConstrainedSystem<N, S::Constraints> for S
where
    S: Programs<Coordinates = N>,
    DefaultAllocator: ConstraintAllocator<N, S::Constraints>,
{
    fn constraint_values(&self, t: f64, q: &OVector<f64, N>) -> OVector<f64, S::Constraints> {
        let k = self.constraint_dimension();
        let zero = OVector::zeros_generic(q.shape_generic().0, U1);
        output(
            self,
            Quantity::ConstraintValues,
            &Arguments::new(t, q, &zero),
            |v| vector(k, v),
        )
    }

    fn constraint_jacobian(&self, t: f64, q: &OVector<f64, N>) -> OMatrix<f64, S::Constraints, N> {
        let (k, n) = (self.constraint_dimension(), q.shape_generic().0);
        let zero = OVector::zeros_generic(n, U1);
        output(
            self,
            Quantity::ConstraintJacobian,
            &Arguments::new(t, q, &zero),
            |v| matrix(k, n, v),
        )
    }

    fn constraint_time_derivative(
        &self,
        t: f64,
        q: &OVector<f64, N>,
    ) -> OVector<f64, S::Constraints> {
        let k = self.constraint_dimension();
        let zero = OVector::zeros_generic(q.shape_generic().0, U1);
        let arguments = Arguments::new(t, q, &zero);
        output(self, Quantity::ConstraintTimeDerivative, &arguments, |v| {
            vector(k, v)
        })
    }

    fn constraint_velocities(
        &self,
        t: f64,
        q: &OVector<f64, N>,
        qd: &OVector<f64, N>,
    ) -> OVector<f64, S::Constraints> {
        let k = self.constraint_dimension();
        let arguments = Arguments::new(t, q, qd);
        output(self, Quantity::ConstraintVelocities, &arguments, |v| {
            vector(k, v)
        })
    }

    fn constraint_jacobian_and_bias(
        &self,
        t: f64,
        q: &OVector<f64, N>,
        qd: &OVector<f64, N>,
    ) -> (
        OMatrix<f64, S::Constraints, N>,
        OVector<f64, S::Constraints>,
    ) {
        let (k, n) = (self.constraint_dimension(), q.shape_generic().0);
        let [jacobian, bias] = layout_of(self).constraint_dynamics();
        let arguments = Arguments::new(t, q, qd);
        output(self, Quantity::ConstraintDynamics, &arguments, |v| {
            (matrix(k, n, &v[jacobian]), vector(k, &v[bias]))
        })
    }

    fn constraint_jacobians(
        &self,
        t: f64,
        q: &OVector<f64, N>,
        qd: &OVector<f64, N>,
        qdd: &OVector<f64, N>,
        multipliers: &OVector<f64, S::Constraints>,
    ) -> ConstraintJacobians<N, S::Constraints> {
        let info = self.model();
        require_derivatives(info, "`constraint_jacobians`");
        let (k, n) = (self.constraint_dimension(), q.shape_generic().0);
        let layout = layout_of(self);
        let m = layout.parameters;
        let [sq, sv, sp, rq, rp] = layout.constraint_jacobians();
        let arguments = Arguments {
            multipliers: multipliers.as_slice(),
            ..Arguments::with_accelerations(t, q, qd, qdd)
        };
        output(self, Quantity::ConstraintJacobians, &arguments, |v| {
            ConstraintJacobians {
                acceleration_coordinates: matrix(k, n, &v[sq]),
                acceleration_velocities: matrix(k, n, &v[sv]),
                acceleration_parameters: DMatrix::from_row_slice(k.value(), m, &v[sp]),
                reaction_coordinates: matrix(n, n, &v[rq]),
                reaction_parameters: DMatrix::from_row_slice(n.value(), m, &v[rp]),
            }
        })
    }
}

impl<S, N: Dim> ReducedSystem<N, S::Ignored> for S
where
    S: ReducedPrograms<Coordinates = N>,
    DefaultAllocator: ConstraintAllocator<N, S::Constraints> + ConstraintAllocator<N, S::Ignored>,
{
    fn ignored_names(&self) -> Vec<&str> {
        self.ignored()
    }

    fn ignored_velocities(
        &self,
        t: f64,
        q: &OVector<f64, N>,
        qd: &OVector<f64, N>,
    ) -> OVector<f64, S::Ignored> {
        output(
            self,
            Quantity::IgnoredVelocities,
            &Arguments::new(t, q, qd),
            |v| vector(S::Ignored::from_usize(v.len()), v),
        )
    }
}

#[cfg(test)]
mod tests {
    use super::Quantity::{self, *};

    /// The quantities' indices are `0..COUNT`, without gaps. The match names every variant,
    /// so a new one does not compile until it is listed there, and then in `all`.
    #[test]
    fn the_count_covers_every_quantity() {
        let all = [
            Dynamics,
            MassMatrix,
            Lagrangian,
            Energy,
            JacobiIntegral,
            IntegralAndLagrangian,
            Momenta,
            MomentumRate,
            MomentumJacobian,
            LagrangianHessian,
            ResidualJacobianRows,
            InverseDynamics,
            DynamicFunctions,
            Balance,
            Drawing,
            ConstraintValues,
            ConstraintJacobian,
            ConstraintTimeDerivative,
            ConstraintVelocities,
            ConstraintDynamics,
            ConstraintJacobians,
            IgnoredVelocities,
        ];
        let listed = |q: Quantity| match q {
            Dynamics
            | MassMatrix
            | Lagrangian
            | Energy
            | JacobiIntegral
            | IntegralAndLagrangian
            | Momenta
            | MomentumRate
            | MomentumJacobian
            | LagrangianHessian
            | ResidualJacobianRows
            | InverseDynamics
            | DynamicFunctions
            | Balance
            | Drawing
            | ConstraintValues
            | ConstraintJacobian
            | ConstraintTimeDerivative
            | ConstraintVelocities
            | ConstraintDynamics
            | ConstraintJacobians
            | IgnoredVelocities => q as usize,
        };
        let mut indices: Vec<usize> = all.iter().map(|&q| listed(q)).collect();
        indices.dedup();
        assert_eq!(indices, (0..Quantity::COUNT).collect::<Vec<_>>());
    }
}
