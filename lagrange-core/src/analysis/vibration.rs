//! Normal modes of small oscillations about an equilibrium: `K v = ω² M v`.

use std::f64::consts::TAU;

use nalgebra::{DMatrix, DVector, DefaultAllocator, Dim, Dyn, OMatrix, OVector, U1};

use super::linearization::null_space;
use crate::error::Error;
use crate::size::{ConstraintAllocator, DimAllocator};
use crate::system::ConstrainedSystem;
use crate::system::LagrangianSystem;

/// Largest number of iterations of the symmetric eigensolver.
const EIGEN_ITERATIONS: usize = 10_000;

/// Relative size below which a defect (the residual forces at the state, the velocity
/// terms, the asymmetry of `K`, a constraint's motion) counts as round-off.
const ROUND_OFF: f64 = 1e-9;

/// One normal mode: the motion `q = q₀ + a v cos(ω t + φ)` of the linearized equations.
#[derive(Debug, Clone, PartialEq)]
pub struct NormalMode<N: Dim>
where
    DefaultAllocator: DimAllocator<N>,
{
    /// `ω²`, an eigenvalue of `K v = ω² M v`; negative along an unstable direction (the
    /// motion there grows like `e^{√(−ω²) t}`).
    pub omega_squared: f64,
    /// The mode shape `v`, normalized so that `vᵀ M v = 1`, its largest component
    /// positive.
    pub shape: OVector<f64, N>,
}

/// Copied, as its vectors are, when the size is fixed by the type.
impl<N: Dim> Copy for NormalMode<N>
where
    DefaultAllocator: DimAllocator<N>,
    OVector<f64, N>: Copy,
{
}

impl<N: Dim> NormalMode<N>
where
    DefaultAllocator: DimAllocator<N>,
{
    /// The angular frequency `ω = √(ω²)`; `None` when `ω² < 0` (no oscillation).
    pub fn frequency(&self) -> Option<f64> {
        (self.omega_squared >= 0.0).then(|| self.omega_squared.sqrt())
    }

    /// The period `2π/ω`; `None` unless `ω² > 0`.
    pub fn period(&self) -> Option<f64> {
        (self.omega_squared > 0.0).then(|| TAU / self.omega_squared.sqrt())
    }
}

/// The normal modes of `system` about its equilibrium `q` at time `t`, sorted by `ω²`:
/// the solutions of `K v = ω² M v` with `M` the mass matrix at rest and
/// `K = ∂r/∂q` at `q̇ = 0`, `q̈ = 0`, `r = M q̈ − f` the residual of Lagrange's equations.
///
/// For a conservative system `K = ∂²V/∂q²`. In general `K = ∂²(V − T₀)/∂q² − ∂Q/∂q`:
/// the centrifugal part `T₀` of the kinetic energy (the part without velocities, present
/// in rotating frames) and position-dependent forces `Q` count; for a reduced (Routh)
/// system it is the Hessian of the amended potential, so its modes are the small
/// oscillations about a steady motion. The eigenproblem is solved by a Cholesky
/// factorization `M = L Lᵀ` and the symmetric eigenproblem of `L⁻¹ K L⁻ᵀ`.
///
/// Refuses with [`Error::NoNormalModes`] when small motions are not normal modes:
/// `q` is no equilibrium (see [`equilibrium`](super::equilibrium)), the equations have
/// terms linear in `q̇` at rest (gyroscopic or damping: `∂r/∂q̇ ≠ 0`), `K` is not symmetric
/// (circulatory forces), `M` is not positive definite, or the model is constrained (see
/// [`constrained_normal_modes`]). The eigenvalues of
/// [`linearize`](super::linearize)`(…).a` describe all of these.
///
/// Errors with [`Error::InvalidInput`] for a model derived with `omit(derivatives)`.
pub fn normal_modes<S: LagrangianSystem<N>, N: Dim>(
    system: &S,
    t: f64,
    q: &OVector<f64, N>,
) -> Result<Vec<NormalMode<N>>, Error>
where
    DefaultAllocator: DimAllocator<N>,
{
    let refuse = refusal(&system.info().name, q);
    if !system.info().constraints.is_empty() {
        return Err(refuse(
            "the model is constrained: use `constrained_normal_modes`".to_string(),
        ));
    }
    crate::system::derivatives(system.info(), "the normal modes")?;
    let rest = OVector::zeros_generic(q.shape_generic().0, U1);
    let (m, f) = system.mass_matrix_and_forcing(t, q, &rest);
    let r = system.residual_jacobians(t, q, &rest, &rest);
    let problem = Problem {
        mass: dynamic(&m),
        stiffness: dynamic(&r.coordinates),
        velocity_terms: dynamic(&r.velocities),
        force: DVector::from_column_slice(f.as_slice()),
        basis: DMatrix::identity(q.len(), q.len()),
    };
    problem.solve(t, q, refuse)
}

/// The normal modes of a constrained system about its equilibrium `q` (see
/// [`constrained_equilibrium`](super::constrained_equilibrium)), on the tangent space of
/// the constraints: with `Z` an orthonormal basis of the null space of `J = ∂G/∂q`, the
/// eigenproblem `Zᵀ K' Z w = ω² Zᵀ M Z w` with `K' = ∂r/∂q − ∂(Jᵀλ)/∂q` (the reaction's
/// stiffness counts: it is the constraint's curvature times its tension), and the shapes
/// `v = Z w` in the model's coordinates, `vᵀ M v = 1`. Sorted by `ω²`.
///
/// The equilibrium test looks at the applied forces along the constraints (`Zᵀ f`), the
/// velocity test at `Zᵀ ∂r/∂q̇ Z`. Refuses as [`normal_modes`] does, when a constraint
/// moves (rest is then no state of the system), and for constraints on the velocities.
pub fn constrained_normal_modes<S, N: Dim, K: Dim>(
    system: &S,
    t: f64,
    q: &OVector<f64, N>,
) -> Result<Vec<NormalMode<N>>, Error>
where
    S: ConstrainedSystem<N, K>,
    DefaultAllocator: ConstraintAllocator<N, K>,
{
    let refuse = refusal(&system.info().name, q);
    if let Some(c) = system.info().constraints.iter().find(|c| c.on_velocities) {
        return Err(refuse(format!(
            "the constraint `{}` is on the velocities: the small motions of a nonholonomic system about rest are not normal modes of one configuration space (linearize about a steady motion instead)",
            c.text
        )));
    }
    crate::system::derivatives(system.info(), "the normal modes")?;
    let rest = OVector::zeros_generic(q.shape_generic().0, U1);
    let j = system.constraint_jacobian(t, q);
    let moving = system.constraint_time_derivative(t, q);
    if moving.norm() > ROUND_OFF * j.norm() * (1.0 + q.norm()) {
        return Err(refuse(format!(
            "a constraint moves (∂G/∂t = {:?}): rest is no state of the system",
            moving.as_slice()
        )));
    }
    let motion = system.constrained_motion(t, q, &rest)?;
    let (m, f) = system.mass_matrix_and_forcing(t, q, &rest);
    let r = system.residual_jacobians(t, q, &rest, &rest);
    let s = system.constraint_jacobians(t, q, &rest, &rest, &motion.multipliers);
    let (k, n) = j.shape();
    let basis = null_space(DMatrix::from_column_slice(k, n, j.as_slice()), n - k)
        .ok_or_else(|| refuse("the constraints are not independent here".to_string()))?;
    let problem = Problem {
        mass: dynamic(&m),
        stiffness: dynamic(&(r.coordinates - s.reaction_coordinates)),
        velocity_terms: dynamic(&r.velocities),
        force: DVector::from_column_slice(f.as_slice()),
        basis,
    };
    problem.solve(t, q, refuse)
}

/// The error of a refusal for the model `name` at `q`.
fn refusal<N: Dim>(name: &str, q: &OVector<f64, N>) -> impl Fn(String) -> Error
where
    DefaultAllocator: DimAllocator<N>,
{
    let at = format!("`{name}` at q = {:?}", q.as_slice());
    move |why| Error::NoNormalModes(format!("{at}: {why}"))
}

fn dynamic<N: Dim>(x: &OMatrix<f64, N, N>) -> DMatrix<f64>
where
    DefaultAllocator: DimAllocator<N>,
{
    DMatrix::from_column_slice(x.nrows(), x.ncols(), x.as_slice())
}

/// `K v = ω² M v` restricted to the columns of `basis`, with the checks that make it the
/// small motions.
struct Problem {
    mass: DMatrix<f64>,
    stiffness: DMatrix<f64>,
    /// `∂r/∂q̇` at rest: must vanish.
    velocity_terms: DMatrix<f64>,
    /// `f` at rest: must vanish along the basis.
    force: DVector<f64>,
    /// Orthonormal columns spanning the admissible displacements.
    basis: DMatrix<f64>,
}

impl Problem {
    fn solve<N: Dim>(
        self,
        t: f64,
        q: &OVector<f64, N>,
        refuse: impl Fn(String) -> Error,
    ) -> Result<Vec<NormalMode<N>>, Error>
    where
        DefaultAllocator: DimAllocator<N>,
    {
        let use_eigenvalues = "use the eigenvalues of `linearize(…).a`";
        let z = &self.basis;
        let project = |x: &DMatrix<f64>| z.transpose() * x * z;
        let (m, k, c) = (
            project(&self.mass),
            project(&self.stiffness),
            project(&self.velocity_terms),
        );
        let force = z.transpose() * &self.force;
        let (k_size, m_size) = (k.norm(), m.norm());
        if force.norm() > ROUND_OFF * k_size * (1.0 + q.norm()) && force.norm() != 0.0 {
            return Err(refuse(format!(
                "this is no equilibrium, the forces at rest are {:?} (find one with `equilibrium`)",
                self.force.as_slice()
            )));
        }
        // ∂r/∂q̇ has the units of √(K M).
        if c.norm() > ROUND_OFF * (k_size * m_size).sqrt() && c.norm() != 0.0 {
            return Err(refuse(format!(
                "the equations have velocity terms at rest (gyroscopic or damping, |∂r/∂q̇| = {:e}); {use_eigenvalues}",
                c.norm()
            )));
        }
        if (&k - k.transpose()).norm() > ROUND_OFF * k_size {
            return Err(refuse(format!(
                "the stiffness ∂r/∂q is not symmetric (circulatory forces); {use_eigenvalues}"
            )));
        }
        let symmetric = |x: DMatrix<f64>| (&x + x.transpose()) * 0.5;
        let (m, k) = (symmetric(m), symmetric(k));
        // The factorizations' sizes are named: with bounds on `N` in scope, inference
        // would take `N` for them.
        let l = nalgebra::Cholesky::<f64, Dyn>::new(m)
            .ok_or_else(|| refuse("the mass matrix is not positive definite".to_string()))?
            .l();
        // L⁻¹ K L⁻ᵀ = L⁻¹ (L⁻¹ K)ᵀ for a symmetric K.
        let reduced = l
            .solve_lower_triangular(&k)
            .and_then(|x| l.solve_lower_triangular(&x.transpose()))
            .ok_or_else(|| refuse("the mass matrix is singular".to_string()))?;
        let eigen = nalgebra::SymmetricEigen::<f64, Dyn>::try_new(
            symmetric(reduced),
            f64::EPSILON,
            EIGEN_ITERATIONS,
        )
        .ok_or(Error::NoConvergence {
            t,
            iterations: EIGEN_ITERATIONS,
        })?;
        let lt = l.transpose();
        let mut modes = Vec::with_capacity(eigen.eigenvalues.len());
        for (i, &omega_squared) in eigen.eigenvalues.iter().enumerate() {
            // w = L⁻ᵀ y has wᵀ (Zᵀ M Z) w = yᵀ y = 1; v = Z w.
            let w = lt
                .solve_upper_triangular(&eigen.eigenvectors.column(i).into_owned())
                .ok_or_else(|| refuse("the mass matrix is singular".to_string()))?;
            let shape = z * w;
            let shape = &shape / shape.dot(&(&self.mass * &shape)).sqrt();
            let sign = if shape[shape.iamax()] < 0.0 {
                -1.0
            } else {
                1.0
            };
            modes.push(NormalMode {
                omega_squared,
                shape: OVector::from_iterator_generic(
                    q.shape_generic().0,
                    U1,
                    shape.iter().map(|x| x * sign),
                ),
            });
        }
        modes.sort_by(|a, b| a.omega_squared.total_cmp(&b.omega_squared));
        Ok(modes)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::test_systems::{CartesianPendulum, DoublePendulum, Pendulum};
    use nalgebra::{SVector, Vector2};
    use std::f64::consts::{PI, SQRT_2};

    #[test]
    fn the_double_pendulum_with_equal_masses_and_lengths_has_the_textbook_modes() {
        let (m, l, g) = (0.7, 1.3, 9.81);
        let double = DoublePendulum {
            m1: m,
            m2: m,
            l1: l,
            l2: l,
            g,
        };
        let modes = normal_modes(&double, 0.0, &SVector::zeros()).unwrap();
        // ω² = (g/l)(2 ∓ √2), shapes ∝ (1, √2) and (1, −√2), with vᵀ M v = 1 for
        // M = m l² [[2, 1], [1, 1]]: (4 ± 2√2) m l² for the unnormalized shapes. The second
        // is reported as (−1, √2): its largest component positive.
        let expected = [
            (2.0 - SQRT_2, [1.0, SQRT_2], 4.0 + 2.0 * SQRT_2),
            (2.0 + SQRT_2, [-1.0, SQRT_2], 4.0 - 2.0 * SQRT_2),
        ];
        for (mode, (factor, shape, norm)) in modes.iter().zip(expected) {
            let omega_squared = g / l * factor;
            assert!((mode.omega_squared - omega_squared).abs() < 1e-12 * omega_squared);
            let shape = SVector::from(shape) / (norm * m * l * l).sqrt();
            assert!(
                (mode.shape - shape).amax() < 1e-12,
                "{} vs {shape}",
                mode.shape
            );
            let period = 2.0 * PI / omega_squared.sqrt();
            assert!((mode.period().unwrap() - period).abs() < 1e-12 * period);
        }
    }

    #[test]
    fn an_unstable_direction_has_a_negative_omega_squared() {
        let (l, g) = (2.0, 9.81);
        let pendulum = Pendulum { m: 1.5, l, g };
        let modes = normal_modes(&pendulum, 0.0, &SVector::from([PI])).unwrap();
        assert!((modes[0].omega_squared + g / l).abs() < 1e-12);
        assert_eq!(modes[0].frequency(), None);
        assert_eq!(modes[0].period(), None);
    }

    #[test]
    fn normal_modes_are_refused_where_they_do_not_exist() {
        let pendulum = Pendulum {
            m: 1.0,
            l: 1.0,
            g: 9.81,
        };
        let error = normal_modes(&pendulum, 0.0, &SVector::from([1.0])).unwrap_err();
        assert!(error.to_string().contains("no equilibrium"), "{error}");
        let constrained = CartesianPendulum {
            m: 1.0,
            l: 1.0,
            g: 9.81,
            c: 0.0,
        };
        let error = normal_modes(&constrained, 0.0, &SVector::from([0.0, -1.0])).unwrap_err();
        let message = error.to_string();
        assert!(
            message.contains("CartesianPendulum") && message.contains("constrained_normal_modes"),
            "{message}"
        );
    }

    #[test]
    fn the_cartesian_pendulum_has_the_pendulum_mode_on_its_constraint() {
        // Along the circle at the bottom: m l² φ̈ + m g l φ = 0, ω² = g/l; the shape is a
        // displacement along x with m v² = 1.
        let (m, l, g) = (0.8, 1.2, 9.81);
        let pendulum = CartesianPendulum { m, l, g, c: 0.0 };
        let modes = constrained_normal_modes(&pendulum, 0.0, &Vector2::new(0.0, -l)).unwrap();
        assert_eq!(modes.len(), 1);
        assert!((modes[0].omega_squared - g / l).abs() < 1e-12 * g / l);
        let shape = Vector2::new(1.0 / m.sqrt(), 0.0);
        assert!(
            (modes[0].shape - shape).amax() < 1e-12,
            "{}",
            modes[0].shape
        );
        // At the top the same direction is unstable: ω² = −g/l.
        let top = constrained_normal_modes(&pendulum, 0.0, &Vector2::new(0.0, l)).unwrap();
        assert!((top[0].omega_squared + g / l).abs() < 1e-12 * g / l);
        // Off the bottom it is no equilibrium; with damping, no normal modes.
        let side = Vector2::new(l * 0.3f64.sin(), -l * 0.3f64.cos());
        let error = constrained_normal_modes(&pendulum, 0.0, &side).unwrap_err();
        assert!(error.to_string().contains("no equilibrium"), "{error}");
        let damped = CartesianPendulum { m, l, g, c: 0.2 };
        let error = constrained_normal_modes(&damped, 0.0, &Vector2::new(0.0, -l)).unwrap_err();
        assert!(error.to_string().contains("damping"), "{error}");
    }
}
