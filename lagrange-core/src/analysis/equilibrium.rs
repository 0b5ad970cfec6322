//! Equilibria: states at rest with no acceleration, `q̈(t, q, 0) = 0`, found by Newton's
//! method with the exact `∂q̈/∂q`.

use nalgebra::{DMatrix, DVector, DefaultAllocator, Dim, OVector, U1};

use crate::error::Error;
use crate::size::{ConstraintAllocator, DimAllocator};
use crate::system::ConstrainedSystem;
use crate::system::LagrangianSystem;

/// Newton iterations allowed.
const ITERATIONS: usize = 50;

/// Singular values below this fraction of the largest count as zero in a Newton step.
const RANK_TOLERANCE: f64 = 1e-10;

/// Newton stops when its step is below this, relative to `1 + |q|`.
const STEP_TOLERANCE: f64 = 1e-12;

/// A point where Newton stopped is an equilibrium when its residual is below this,
/// relative to `‖∂residual/∂q‖ (1 + |q|)`: the residual a relative error of this size in
/// `q` would leave.
const RESIDUAL_TOLERANCE: f64 = 1e-8;

/// An equilibrium of `system` at time `t` near `guess`: coordinates `q` where the system
/// stays at rest, `q̈(t, q, 0) = 0` (for the steady motions of a reduced system: its
/// equilibria, Thomson & Tait §319 Example B).
///
/// Newton's method with the exact `∂q̈/∂q`, each step the minimum-norm least-squares
/// solution (by SVD): where equilibria are not isolated (a coordinate on which nothing
/// depends, like the position of a cart on a level track) it moves only across the family
/// and stops at the member nearest the guess.
///
/// A constrained system is refused ([`Error::InvalidInput`]): use
/// [`constrained_equilibrium`], its `∂q̈/∂q` is singular along the constraint normals.
///
/// Errors with [`Error::NoEquilibrium`] (the residual `|q̈|` reached and the iterations
/// made) when the iteration does not converge, stalls at a non-zero residual (there is no
/// equilibrium near the guess, e.g. under a constant force) or leaves the finite numbers;
/// and as the accelerations do.
pub fn equilibrium<S: LagrangianSystem<N>, N: Dim>(
    system: &S,
    t: f64,
    guess: &OVector<f64, N>,
) -> Result<OVector<f64, N>, Error>
where
    DefaultAllocator: DimAllocator<N>,
{
    find_equilibrium(system, t, guess).map(|found| found.q)
}

/// An equilibrium as [`find_equilibrium`] and [`find_constrained_equilibrium`] report it.
#[derive(Debug, Clone, PartialEq)]
pub struct Equilibrium<N: Dim>
where
    DefaultAllocator: DimAllocator<N>,
{
    /// The coordinates.
    pub q: OVector<f64, N>,
    /// Whether it is degenerate: the stiffness `∂q̈/∂q` vanishes there (`V = x⁴` at 0),
    /// Newton's method closes in only linearly, and the point is accepted because its
    /// residual is round-off (`ε`) of the largest `‖∂q̈/∂q‖ (1 + |q|)` met on the way,
    /// not of the stiffness there. Small motions about it are not those of the
    /// linearization.
    pub degenerate: bool,
}

/// [`equilibrium`], saying whether the equilibrium is degenerate ([`Equilibrium`]).
pub fn find_equilibrium<S: LagrangianSystem<N>, N: Dim>(
    system: &S,
    t: f64,
    guess: &OVector<f64, N>,
) -> Result<Equilibrium<N>, Error>
where
    DefaultAllocator: DimAllocator<N>,
{
    let info = system.info();
    if !info.constraints.is_empty() {
        return Err(Error::InvalidInput(format!(
            "`{}` is constrained: find its equilibria with `constrained_equilibrium`",
            info.name
        )));
    }
    let n = guess.len();
    let rest = OVector::zeros_generic(guess.shape_generic().0, U1);
    newton(t, guess.clone(), |q| {
        let jacobians = system.acceleration_jacobians(t, q, &rest)?;
        Ok((
            DVector::from_column_slice(jacobians.accelerations.as_slice()),
            DMatrix::from_column_slice(n, n, jacobians.coordinates.as_slice()),
        ))
    })
}

/// An equilibrium of a constrained system near `guess`: `q` with `G(t, q) = 0` and
/// `q̈(t, q, 0) = 0` for the constrained accelerations.
///
/// In redundant coordinates `∂q̈/∂q` of the constrained motion is singular along the
/// constraint normals (moving off the constraints changes nothing the constrained motion
/// sees), so the equations alone do not fix `q`. The guess is first projected onto the
/// constraints; then Newton's method solves `q̈ = 0` and `G = 0` together, the rows
/// `J = ∂G/∂q` appended to `∂q̈/∂q`, each step the minimum-norm least-squares solution.
/// The residual reported on failure is `|(q̈, G)|`.
///
/// Rest must be a state of the system: the constraints must not move (`∂G/∂t = 0` at
/// the equilibrium), otherwise [`Error::InvalidInput`]. Errors as [`equilibrium`] does
/// otherwise.
pub fn constrained_equilibrium<S: ConstrainedSystem<N, K>, N: Dim, K: Dim>(
    system: &S,
    t: f64,
    guess: &OVector<f64, N>,
) -> Result<OVector<f64, N>, Error>
where
    DefaultAllocator: ConstraintAllocator<N, K>,
{
    find_constrained_equilibrium(system, t, guess).map(|found| found.q)
}

/// [`constrained_equilibrium`], saying whether the equilibrium is degenerate
/// ([`Equilibrium`]).
pub fn find_constrained_equilibrium<S: ConstrainedSystem<N, K>, N: Dim, K: Dim>(
    system: &S,
    t: f64,
    guess: &OVector<f64, N>,
) -> Result<Equilibrium<N>, Error>
where
    DefaultAllocator: ConstraintAllocator<N, K>,
{
    let (n, k) = (guess.len(), system.constraint_dimension().value());
    let rest = OVector::zeros_generic(guess.shape_generic().0, U1);
    let (start, _) = system.project_onto_constraints(t, guess, &rest)?;
    let found = newton(t, start, |q| {
        let jacobians = system.acceleration_jacobians(t, q, &rest)?;
        let g = system.constraint_values(t, q);
        let j = system.constraint_jacobian(t, q);
        let residual = DVector::from_iterator(
            n + k,
            jacobians.accelerations.iter().chain(g.iter()).copied(),
        );
        let mut matrix = DMatrix::zeros(n + k, n);
        matrix
            .view_mut((0, 0), (n, n))
            .copy_from_slice(jacobians.coordinates.as_slice());
        matrix
            .view_mut((n, 0), (k, n))
            .copy_from_slice(j.as_slice());
        Ok((residual, matrix))
    })?;
    let q = &found.q;
    let moving = system.constraint_time_derivative(t, q);
    let j = system.constraint_jacobian(t, q);
    for i in 0..k {
        let scale = j.row(i).norm() * (1.0 + q.norm());
        if moving[i].abs() > RESIDUAL_TOLERANCE * scale {
            let constraint = system
                .info()
                .constraints
                .get(i)
                .map_or_else(|| format!("constraint {i}"), |c| c.text.to_string());
            return Err(Error::InvalidInput(format!(
                "the constraint `{constraint} = 0` moves (∂G/∂t = {:e} at t = {t}): rest is not a state of `{}`",
                moving[i],
                system.info().name
            )));
        }
    }
    Ok(found)
}

/// Halvings of a Newton step tried before the iteration counts as stalled.
const LINE_SEARCH: usize = 40;

/// Newton's method for `residual(q) = 0` from `q`, with minimum-norm least-squares steps,
/// each no longer than `1 + |guess|` and shortened (halved) until it decreases
/// `|residual|`: a full step from a guess where the Jacobian is nearly singular can land
/// anywhere (from a double pendulum held horizontal, at angles of 10¹⁵, where `sin` is
/// noise and a relative convergence test passes on garbage).
///
/// A point where it stops without converging (the iterations spent, or a step that does
/// not decrease the residual) is still a degenerate equilibrium when its residual is
/// round-off of the largest scale `‖∂residual/∂q‖ (1 + |q|)` met on the way: where the
/// stiffness vanishes (`V = x⁴`), Newton closes in only linearly.
fn newton<N: Dim>(
    t: f64,
    mut q: OVector<f64, N>,
    evaluate: impl Fn(&OVector<f64, N>) -> Result<(DVector<f64>, DMatrix<f64>), Error>,
) -> Result<Equilibrium<N>, Error>
where
    DefaultAllocator: DimAllocator<N>,
{
    // The largest scale of the residual met so far.
    let mut largest: f64 = 0.0;
    let degenerate = |q: &OVector<f64, N>, size: f64, largest: f64| {
        (size <= f64::EPSILON * largest).then(|| Equilibrium {
            q: q.clone(),
            degenerate: true,
        })
    };
    let regular = |q: &OVector<f64, N>| Equilibrium {
        q: q.clone(),
        degenerate: false,
    };
    let failure = |q: &OVector<f64, N>, residual: f64, iterations, reason| Error::NoEquilibrium {
        t,
        q: q.as_slice().to_vec(),
        residual,
        iterations,
        reason,
    };
    let radius = 1.0 + q.norm();
    let mut iteration = 0;
    loop {
        let (residual, jacobian) = evaluate(&q)?;
        let size = residual.norm();
        let scale = jacobian.norm() * (1.0 + q.norm());
        if !size.is_finite() || !scale.is_finite() {
            return Err(failure(&q, size, iteration, "the residual is not finite"));
        }
        largest = largest.max(scale);
        if size <= f64::EPSILON * scale || size == 0.0 {
            return Ok(regular(&q));
        }
        if iteration == ITERATIONS {
            return degenerate(&q, size, largest)
                .ok_or_else(|| failure(&q, size, iteration, "Newton's method did not converge"));
        }
        let step = least_squares(q.shape_generic().0, jacobian, &residual)
            .ok_or_else(|| failure(&q, size, iteration, "the Newton step is not finite"))?;
        let stalled = |q: &OVector<f64, N>| {
            if size <= RESIDUAL_TOLERANCE * scale {
                Ok(regular(q))
            } else {
                degenerate(q, size, largest).ok_or_else(|| {
                    failure(
                        q,
                        size,
                        iteration,
                        "Newton's method stalled at a non-zero residual (the Jacobian is singular there)",
                    )
                })
            }
        };
        let step: OVector<f64, N> = step;
        let step = &step * (radius / step.norm()).min(1.0);
        let decreasing = (0..LINE_SEARCH)
            .map(|halvings| &step * 0.5f64.powi(halvings as i32))
            .find(|trial| evaluate(&(&q - trial)).is_ok_and(|(r, _)| r.norm() < size));
        let Some(step) = decreasing else {
            return stalled(&q);
        };
        q -= &step;
        iteration += 1;
        if step.norm() <= STEP_TOLERANCE * (1.0 + q.norm()) {
            let (residual, jacobian) = evaluate(&q)?;
            let size = residual.norm();
            let scale = jacobian.norm() * (1.0 + q.norm());
            return if size <= RESIDUAL_TOLERANCE * scale {
                Ok(regular(&q))
            } else {
                degenerate(&q, size, largest).ok_or_else(|| {
                    failure(
                        &q,
                        size,
                        iteration,
                        "Newton's method stalled at a non-zero residual (the Jacobian is singular there)",
                    )
                })
            };
        }
    }
}

/// The minimum-norm least-squares solution of `matrix x = rhs`, by SVD, of size `n`.
fn least_squares<N: Dim>(n: N, matrix: DMatrix<f64>, rhs: &DVector<f64>) -> Option<OVector<f64, N>>
where
    DefaultAllocator: DimAllocator<N>,
{
    let svd = matrix.try_svd(true, true, f64::EPSILON, 0)?;
    let largest = svd.singular_values.max();
    let x = svd.solve(rhs, RANK_TOLERANCE * largest).ok()?;
    let x = OVector::from_column_slice_generic(n, U1, x.as_slice());
    x.iter().all(|v| v.is_finite()).then_some(x)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::test_systems::{CartPole, CartesianPendulum, DoubleIntegrator, DoublePendulum};
    use nalgebra::SVector;
    use std::f64::consts::PI;

    fn double() -> DoublePendulum {
        DoublePendulum {
            m1: 1.1,
            m2: 0.6,
            l1: 0.9,
            l2: 1.4,
            g: 9.81,
        }
    }

    #[test]
    fn newton_finds_the_double_pendulum_equilibria_from_perturbed_guesses() {
        let cases = [
            ([0.3, -0.2], [0.0, 0.0]),
            ([PI + 0.2, 0.1], [PI, 0.0]),
            ([-0.1, PI - 0.3], [0.0, PI]),
            ([PI - 0.2, PI + 0.25], [PI, PI]),
        ];
        for (guess, expected) in cases {
            let q = equilibrium(&double(), 0.0, &SVector::from(guess)).unwrap();
            assert!(
                (q - SVector::from(expected)).amax() < 1e-12,
                "{guess:?}: {q} vs {expected:?}"
            );
        }
    }

    #[test]
    fn a_guess_where_the_jacobian_is_nearly_singular_does_not_run_off() {
        // Both links horizontal: a full Newton step went to angles of 10¹⁵, where the
        // residual is noise and passed a relative convergence test.
        let pendulum = DoublePendulum {
            m1: 1.0,
            m2: 1.0,
            l1: 1.0,
            l2: 1.0,
            g: 9.81,
        };
        let q = equilibrium(&pendulum, 0.0, &SVector::from([PI / 2.0, PI / 2.0])).unwrap();
        let nearest = q.map(|a| (a / PI).round() * PI);
        assert!(q.amax() < 10.0 && (q - nearest).amax() < 1e-12, "{q}");
    }

    #[test]
    fn a_family_of_equilibria_is_reached_at_the_member_nearest_the_guess() {
        // The cart's position is free: the pole rights itself over the same x.
        let cart_pole = CartPole {
            mc: 1.0,
            m: 0.3,
            l: 0.5,
            g: 9.81,
            force: 0.0,
        };
        let q = equilibrium(&cart_pole, 0.0, &SVector::from([1.5, 0.2])).unwrap();
        assert!((q - SVector::from([1.5, 0.0])).amax() < 1e-12, "{q}");
    }

    #[test]
    fn a_constant_force_has_no_equilibrium() {
        // m ẍ = u: q̈ = u/m everywhere.
        let pushed = DoubleIntegrator { m: 2.0, u: 3.0 };
        let error = equilibrium(&pushed, 0.0, &SVector::from([0.5])).unwrap_err();
        match error {
            Error::NoEquilibrium { residual, .. } => assert!((residual - 1.5).abs() < 1e-15),
            other => panic!("{other}"),
        }
        // Pushing the cart: every state accelerates.
        let cart_pole = CartPole {
            mc: 1.0,
            m: 0.3,
            l: 0.5,
            g: 9.81,
            force: 2.0,
        };
        let error = equilibrium(&cart_pole, 0.0, &SVector::from([0.0, 0.1])).unwrap_err();
        assert!(matches!(error, Error::NoEquilibrium { .. }), "{error}");
        let message = error.to_string();
        assert!(message.contains("no equilibrium"), "{message}");
    }

    #[test]
    fn a_constrained_equilibrium_lies_on_the_constraint() {
        let pendulum = CartesianPendulum {
            m: 0.8,
            l: 1.2,
            g: 9.81,
            c: 0.3,
        };
        let error = equilibrium(&pendulum, 0.0, &SVector::from([0.0, -1.2])).unwrap_err();
        assert!(
            error.to_string().contains("constrained_equilibrium"),
            "{error}"
        );
        // Off the circle, near the bottom and near the top.
        let cases = [([0.3, -0.9], [0.0, -1.2]), ([-0.2, 1.5], [0.0, 1.2])];
        for (guess, expected) in cases {
            let q = constrained_equilibrium(&pendulum, 0.0, &SVector::from(guess)).unwrap();
            assert!(
                (q - SVector::from(expected)).amax() < 1e-12,
                "{guess:?}: {q} vs {expected:?}"
            );
        }
    }
}
