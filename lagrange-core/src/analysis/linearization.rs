//! The first-order system `x = (q, q̇)`, `ẋ = F(t, x, u)` linearized at a state, and the
//! stability its eigenvalues decide.

use nalgebra::{Complex, DMatrix, DVector, SVector};

use crate::constrained::ConstrainedSystem;
use crate::error::Error;
use crate::system::LagrangianSystem;

/// Largest number of QR sweeps allowed for the real Schur form of `A`.
const SCHUR_ITERATIONS: usize = 10_000;

/// An eigenvalue counts as on the imaginary axis when `|Re λ| ≤ MARGINAL_TOLERANCE·‖A‖`.
///
/// A simple eigenvalue of `A` is computed with an error of order `ε‖A‖` (times its
/// condition number), but mechanics is full of double eigenvalues: every cyclic coordinate
/// (and every constraint, in redundant coordinates) gives a 2×2 Jordan block at 0, whose
/// eigenvalues move by `√(ε)‖A‖ ≈ 1.5·10⁻⁸‖A‖` under a perturbation of size `ε‖A‖`. The
/// tolerance is that, with a factor of about 100 for conditioning.
pub const MARGINAL_TOLERANCE: f64 = 1.5e-6;

/// What the eigenvalues of a linearization say about the state (Lyapunov's first method).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Stability {
    /// Every eigenvalue has a negative real part (beyond the tolerance): small
    /// perturbations decay.
    AsymptoticallyStable,
    /// Some eigenvalue has a positive real part (beyond the tolerance): some small
    /// perturbations grow exponentially.
    Unstable,
    /// No eigenvalue to the right of the imaginary axis and some on it (within
    /// [`MARGINAL_TOLERANCE`]): the linearization does not decide. A conservative system
    /// at a minimum of its potential is here (small oscillations neither grow nor decay),
    /// and so is a free direction (a double eigenvalue 0: perturbations drift linearly).
    Marginal,
}

/// The linearization of `ẋ = F(t, x, u)`, `x = (q, q̇)`, at a state: `δẋ = A δx + B δu`.
#[derive(Debug, Clone, PartialEq)]
pub struct Linearization {
    /// Time of the state.
    pub t: f64,
    /// `F` at the state, `(q̇, q̈)`: zero at an equilibrium.
    pub rate: DVector<f64>,
    /// `A = ∂F/∂x`, `2N × 2N`: `[[0, I], [∂q̈/∂q, ∂q̈/∂q̇]]`.
    pub a: DMatrix<f64>,
    /// `B = ∂F/∂u`, `2N` rows and one column per input, in the order of
    /// [`ModelInfo::inputs`](crate::ModelInfo::inputs): zeros above `∂q̈/∂u`.
    pub b: DMatrix<f64>,
    /// For a constrained system ([`linearize_constrained`]): an orthonormal basis
    /// (`2N × 2(N − K)`) of the states that keep `G = 0` and `Ġ = 0` to first order, an
    /// invariant subspace of `A`. `None` without constraints.
    pub tangent: Option<DMatrix<f64>>,
}

/// Linearizes the motion of `system` at `(t, q, q̇)`, any state (not only equilibria), from
/// the exact [`acceleration_jacobians`](LagrangianSystem::acceleration_jacobians): a
/// constrained system's are those of its constrained motion (see also
/// [`linearize_constrained`], which adds the tangent space of the constraints).
///
/// Errors as the accelerations do (a singular mass matrix, dependent constraints).
pub fn linearize<S: LagrangianSystem<N>, const N: usize>(
    system: &S,
    t: f64,
    q: &SVector<f64, N>,
    qd: &SVector<f64, N>,
) -> Result<Linearization, Error> {
    let jacobians = system.acceleration_jacobians(t, q, qd)?;
    let inputs = &system.info().inputs;
    let mut a = DMatrix::zeros(2 * N, 2 * N);
    a.view_mut((0, N), (N, N)).fill_with_identity();
    a.view_mut((N, 0), (N, N)).copy_from(&jacobians.coordinates);
    a.view_mut((N, N), (N, N)).copy_from(&jacobians.velocities);
    let mut b = DMatrix::zeros(2 * N, inputs.len());
    for (column, &input) in inputs.iter().enumerate() {
        if input >= jacobians.parameters.ncols() {
            return Err(Error::InvalidInput(format!(
                "input index {input} of `{}` is not below its {} parameters",
                system.info().name,
                jacobians.parameters.ncols()
            )));
        }
        b.view_mut((N, column), (N, 1))
            .copy_from(&jacobians.parameters.column(input));
    }
    let rate = DVector::from_iterator(
        2 * N,
        qd.iter().chain(jacobians.accelerations.iter()).copied(),
    );
    Ok(Linearization {
        t,
        rate,
        a,
        b,
        tangent: None,
    })
}

/// [`linearize`] for a constrained system, with the [`tangent`](Linearization::tangent)
/// space of the constraints: the states `(δq, δq̇)` with `J δq = 0` and
/// `J δq̇ + ∂Ġ/∂q δq = 0`. In redundant coordinates `A` also carries `2K` eigenvalues 0 of
/// the constraint violations (`δG̈ = 0`), which say nothing about the motion;
/// [`Linearization::stability`] looks only at the tangent space.
///
/// `∂Ġ/∂q` is `½ ∂s/∂q̇` of the constraints' [`constraint_jacobians`]
/// (`s = J q̈ + c` and `∂c/∂q̇ = 2 ∂Ġ/∂q`).
///
/// [`constraint_jacobians`]: ConstrainedSystem::constraint_jacobians
pub fn linearize_constrained<S: ConstrainedSystem<N, K>, const N: usize, const K: usize>(
    system: &S,
    t: f64,
    q: &SVector<f64, N>,
    qd: &SVector<f64, N>,
) -> Result<Linearization, Error> {
    let mut linearization = linearize(system, t, q, qd)?;
    let motion = system.constrained_motion(t, q, qd)?;
    let s = system.constraint_jacobians(t, q, qd, &motion.accelerations, &motion.multipliers);
    let j = system.constraint_jacobian(t, q);
    let mut rows = DMatrix::zeros(2 * K, 2 * N);
    rows.view_mut((0, 0), (K, N)).copy_from(&j);
    rows.view_mut((K, 0), (K, N))
        .copy_from(&(s.acceleration_velocities * 0.5));
    rows.view_mut((K, N), (K, N)).copy_from(&j);
    linearization.tangent = Some(null_space(rows, 2 * (N - K)).ok_or_else(|| {
        Error::DependentConstraints {
            t,
            q: q.as_slice().to_vec(),
            constraints: system
                .info()
                .constraints
                .iter()
                .map(|c| c.text.to_string())
                .collect(),
        }
    })?);
    Ok(linearization)
}

/// An orthonormal basis of the null space of `rows` (`m × n`), expected of dimension
/// `dimension`; `None` when the rows are not independent.
fn null_space(rows: DMatrix<f64>, dimension: usize) -> Option<DMatrix<f64>> {
    let n = rows.ncols();
    // The null space of `rows` is the orthogonal complement of its row space: the last
    // `dimension` columns of the full, square Q of `rowsᵀ = Q R`.
    let rank = n - dimension;
    let qr = rows.transpose().qr();
    let r = qr.r();
    let scale = r.diagonal().amax();
    if (0..rank).any(|i| r[(i, i)].abs() <= 1e-12 * scale) {
        return None;
    }
    let mut transposed = DMatrix::identity(n, n);
    qr.q_tr_mul(&mut transposed);
    Some(transposed.rows(rank, dimension).transpose())
}

impl Linearization {
    /// The matrix whose eigenvalues describe the motion: `A`, or `Tᵀ A T` on the
    /// [`tangent`](Self::tangent) space of the constraints.
    pub fn motion_matrix(&self) -> DMatrix<f64> {
        match &self.tangent {
            Some(basis) => basis.transpose() * &self.a * basis,
            None => self.a.clone(),
        }
    }

    /// The eigenvalues of the [`motion_matrix`](Self::motion_matrix), from its real Schur
    /// form; errors with [`Error::NoConvergence`] when the QR iteration does not converge.
    pub fn eigenvalues(&self) -> Result<Vec<Complex<f64>>, Error> {
        let matrix = self.motion_matrix();
        let schur = nalgebra::Schur::try_new(matrix, f64::EPSILON, SCHUR_ITERATIONS).ok_or(
            Error::NoConvergence {
                t: self.t,
                iterations: SCHUR_ITERATIONS,
            },
        )?;
        Ok(schur.complex_eigenvalues().iter().copied().collect())
    }

    /// The stability the eigenvalues decide (see [`Stability`] and
    /// [`MARGINAL_TOLERANCE`]). Meaningful at an equilibrium (`rate = 0`).
    pub fn stability(&self) -> Result<Stability, Error> {
        let matrix = self.motion_matrix();
        let tolerance = MARGINAL_TOLERANCE * matrix.norm();
        let eigenvalues = self.eigenvalues()?;
        Ok(if eigenvalues.iter().any(|l| l.re > tolerance) {
            Stability::Unstable
        } else if eigenvalues.iter().all(|l| l.re < -tolerance) {
            Stability::AsymptoticallyStable
        } else {
            Stability::Marginal
        })
    }
}
