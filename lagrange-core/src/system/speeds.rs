//! The equations of a constrained system on independent speeds, without multipliers:
//! Maggi's equations, which Kane's method also gives (Kane and Levinson, *Dynamics:
//! Theory and Applications*, 1985, ch. 4 and 6). The velocities are split into `N − K`
//! independent speeds `u` and `K` dependent ones, solved from the velocity form of every
//! constraint (`J q̇ + ∂G/∂t = 0`, holonomic ones differentiated once): `q̇ = B u + b₀`,
//! the columns of `B` the velocity of each unit speed with the others at zero (Kane's
//! partial velocities in generalized coordinates). Projecting Lagrange's equations on
//! them removes the reactions, which do no work along `B`: `Bᵀ (M q̈ − f) = 0`, with
//! `q̈ = B u̇ + w` and `w` the dependent accelerations `J q̈ + c = 0` asks at `u̇ = 0`:
//! `(Bᵀ M B) u̇ = Bᵀ (f − M w)`. `Bᵀ M B` is Kane's generalized inertia of the speeds.
//! The accelerations are those of the multipliers' formulation
//! ([`ConstrainedSystem::constrained_motion`]), from a smaller and symmetric system.

use nalgebra::{DMatrix, DVector, DefaultAllocator, Dim, OMatrix, OVector, U1};

use super::ConstrainedSystem;
use crate::error::Error;
use crate::size::ConstraintAllocator;

/// A choice of independent speeds for a constrained system of `N` coordinates and `K`
/// constraints: the velocities of `N − K` coordinates, the other `K` solved from the
/// constraints.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct IndependentSpeeds {
    independent: Vec<usize>,
    dependent: Vec<usize>,
}

/// The velocities in terms of the independent speeds at a configuration.
#[derive(Debug, Clone, PartialEq)]
pub struct SpeedBasis {
    /// `B`, `N × (N − K)`: column `i` is `q̇` for the speed `uᵢ = 1`, the others 0.
    pub basis: DMatrix<f64>,
    /// `b₀`: the velocities at `u = 0` (zero unless a constraint moves with time).
    pub offset: DVector<f64>,
}

impl IndependentSpeeds {
    /// The velocities of the coordinates named in `independent`, in that order, as the
    /// speeds of `system`. Errors for an unknown or repeated name, and unless there are
    /// `N − K` of them.
    pub fn named<S: ConstrainedSystem<N, K>, N: Dim, K: Dim>(
        system: &S,
        independent: &[&str],
    ) -> Result<Self, Error>
    where
        DefaultAllocator: ConstraintAllocator<N, K>,
    {
        let info = system.info();
        let coordinates = &info.coordinates;
        let mut chosen = Vec::with_capacity(independent.len());
        for name in independent {
            let Some(index) = coordinates.iter().position(|c| c == name) else {
                return Err(Error::InvalidInput(format!(
                    "`{name}` is not a coordinate of `{}` (its coordinates: {})",
                    info.name,
                    coordinates.join(", ")
                )));
            };
            if chosen.contains(&index) {
                return Err(Error::InvalidInput(format!(
                    "`{name}` is named twice as an independent speed"
                )));
            }
            chosen.push(index);
        }
        let (n, k) = (
            system.dimension().value(),
            system.constraint_dimension().value(),
        );
        if chosen.len() + k != n {
            return Err(Error::InvalidInput(format!(
                "`{}` has {n} coordinates and {k} constraints: {} independent speeds, not {}",
                info.name,
                n - k,
                chosen.len()
            )));
        }
        let dependent = (0..n).filter(|i| !chosen.contains(i)).collect();
        Ok(IndependentSpeeds {
            independent: chosen,
            dependent,
        })
    }

    /// The coordinates whose velocities are the speeds, in order.
    pub fn independent(&self) -> &[usize] {
        &self.independent
    }

    /// The coordinates whose velocities the constraints determine.
    pub fn dependent(&self) -> &[usize] {
        &self.dependent
    }

    /// `q̇ = B u + b₀` at `(t, q)`. Errors with [`Error::DependentSpeeds`] when the
    /// constraints do not determine the dependent velocities there (their columns of `J`
    /// are singular).
    pub fn basis<S: ConstrainedSystem<N, K>, N: Dim, K: Dim>(
        &self,
        system: &S,
        t: f64,
        q: &OVector<f64, N>,
    ) -> Result<SpeedBasis, Error>
    where
        DefaultAllocator: ConstraintAllocator<N, K>,
    {
        let j = system.constraint_jacobian(t, q);
        let time = system.constraint_time_derivative(t, q);
        let (basis, offset) = self.completed(system, t, q, &j, -time)?;
        Ok(SpeedBasis { basis, offset })
    }

    /// Kane's generalized inertia `Bᵀ M B` of the speeds at the state `(t, q, q̇)`.
    pub fn generalized_inertia<S: ConstrainedSystem<N, K>, N: Dim, K: Dim>(
        &self,
        system: &S,
        t: f64,
        q: &OVector<f64, N>,
        qd: &OVector<f64, N>,
    ) -> Result<DMatrix<f64>, Error>
    where
        DefaultAllocator: ConstraintAllocator<N, K>,
    {
        let b = self.basis(system, t, q)?.basis;
        let m = system.mass_matrix(t, q, qd);
        let m = DMatrix::from_column_slice(m.nrows(), m.ncols(), m.as_slice());
        Ok(b.transpose() * m * &b)
    }

    /// The accelerations `q̈` at a consistent state from Maggi's equations
    /// `(Bᵀ M B) u̇ = Bᵀ (f − M w)`, `q̈ = B u̇ + w`. Errors as [`basis`](Self::basis),
    /// and when the generalized inertia is singular.
    pub fn accelerations<S: ConstrainedSystem<N, K>, N: Dim, K: Dim>(
        &self,
        system: &S,
        t: f64,
        q: &OVector<f64, N>,
        qd: &OVector<f64, N>,
    ) -> Result<OVector<f64, N>, Error>
    where
        DefaultAllocator: ConstraintAllocator<N, K>,
    {
        let (m, f) = system.mass_matrix_and_forcing(t, q, qd);
        let (j, c) = system.constraint_jacobian_and_bias(t, q, qd);
        // w: zero independent accelerations, the dependent ones from J_d w_d = −c.
        let (b, w) = self.completed(system, t, q, &j, -c)?;
        let m = DMatrix::from_column_slice(m.nrows(), m.ncols(), m.as_slice());
        let f = DVector::from_column_slice(f.as_slice());
        let inertia = b.transpose() * &m * &b;
        let speeds = inertia
            .cholesky()
            .map(|l| l.solve(&(b.transpose() * (f - &m * &w))))
            .ok_or_else(|| Error::singular(t, q.as_slice(), qd.as_slice()))?;
        let accelerations = b * speeds + w;
        if accelerations.iter().all(|x| x.is_finite()) {
            Ok(OVector::from_column_slice_generic(
                q.shape_generic().0,
                U1,
                accelerations.as_slice(),
            ))
        } else {
            Err(Error::singular(t, q.as_slice(), qd.as_slice()))
        }
    }

    /// An error unless this choice was made for a system of `n` coordinates and `k`
    /// constraints.
    fn fits(&self, n: usize, k: usize) -> Result<(), Error> {
        if self.independent.len() + k == n && self.dependent.len() == k {
            Ok(())
        } else {
            Err(Error::InvalidInput(format!(
                "{} independent and {} dependent speeds used with a system of {n} coordinates and {k} constraints",
                self.independent.len(),
                self.dependent.len()
            )))
        }
    }

    /// `B` and the completion of `rest`: from one factorization of the dependent
    /// velocities' columns `J_d` of `j`, `B` (`J_d B_d + J_i = 0`, `B_i = I`) and the
    /// vector whose dependent entries solve `J_d x_d = rest` and whose others are 0. Errors
    /// when `J_d` is singular (a pivot of its LU factorization at most `10⁻¹²` of `J`'s
    /// largest entry) or the solution is not finite.
    fn completed<S: ConstrainedSystem<N, K>, N: Dim, K: Dim>(
        &self,
        system: &S,
        t: f64,
        q: &OVector<f64, N>,
        j: &OMatrix<f64, K, N>,
        rest: OVector<f64, K>,
    ) -> Result<(DMatrix<f64>, DVector<f64>), Error>
    where
        DefaultAllocator: ConstraintAllocator<N, K>,
    {
        let (n, k) = (j.ncols(), j.nrows());
        self.fits(n, k)?;
        let unsolvable = || self.unsolvable(system, t, q);
        let lu = DMatrix::from_fn(k, k, |r, c| j[(r, self.dependent[c])]).lu();
        let scale = j.amax();
        let pivots = lu.u();
        let tiny = |p: f64| p.is_nan() || p.abs() <= 1e-12 * scale;
        if (0..k).any(|i| tiny(pivots[(i, i)])) {
            return Err(unsolvable());
        }
        // The right-hand sides −J_i and `rest` together.
        let mut rhs = DMatrix::zeros(k, n - k + 1);
        for (column, &i) in self.independent.iter().enumerate() {
            for row in 0..k {
                rhs[(row, column)] = -j[(row, i)];
            }
        }
        rhs.column_mut(n - k).copy_from_slice(rest.as_slice());
        let solved = lu
            .solve(&rhs)
            .filter(|x| x.iter().all(|v| v.is_finite()))
            .ok_or_else(unsolvable)?;
        let mut basis = DMatrix::zeros(n, n - k);
        let mut completion = DVector::zeros(n);
        for (column, &i) in self.independent.iter().enumerate() {
            basis[(i, column)] = 1.0;
        }
        for (row, &d) in self.dependent.iter().enumerate() {
            basis
                .row_mut(d)
                .copy_from(&solved.view((row, 0), (1, n - k)));
            completion[d] = solved[(row, n - k)];
        }
        Ok((basis, completion))
    }

    fn unsolvable<S: ConstrainedSystem<N, K>, N: Dim, K: Dim>(
        &self,
        system: &S,
        t: f64,
        q: &OVector<f64, N>,
    ) -> Error
    where
        DefaultAllocator: ConstraintAllocator<N, K>,
    {
        let coordinates = &system.info().coordinates;
        Error::DependentSpeeds {
            t,
            q: q.as_slice().to_vec(),
            dependent: self
                .dependent
                .iter()
                .map(|&d| {
                    coordinates
                        .get(d)
                        .map_or_else(|| d.to_string(), |c| c.to_string())
                })
                .collect(),
        }
    }
}
