//! Numerical solution of `M q̈ = f`: the mass matrix is never inverted symbolically.

use nalgebra::{DefaultAllocator, Dim, OMatrix, OVector};

use crate::error::Error;
use crate::size::DimAllocator;

/// Solves `m x = f`: Cholesky when `m` is symmetric positive definite (the usual case for a
/// mass matrix), LU with partial pivoting otherwise. `None` when `m` is singular.
///
/// Both factorizations work in place, with loops over the size `N`: on the stack, and
/// unrolled by the compiler for the small systems of mechanics, when `N` is a constant.
pub(crate) fn solve_mass_matrix<N: Dim>(
    m: OMatrix<f64, N, N>,
    f: OVector<f64, N>,
) -> Option<OVector<f64, N>>
where
    DefaultAllocator: DimAllocator<N>,
{
    MassFactor::new(m).solve(f)
}

/// `q̈` from `M q̈ = f` at the state `(t, q, q̇)`: the unconstrained accelerations, with
/// an error carrying the state when `M` is singular or the result is not finite.
pub fn solve_accelerations<N: Dim>(
    m: OMatrix<f64, N, N>,
    f: OVector<f64, N>,
    t: f64,
    q: &OVector<f64, N>,
    qd: &OVector<f64, N>,
) -> Result<OVector<f64, N>, Error>
where
    DefaultAllocator: DimAllocator<N>,
{
    MassFactor::new(m).accelerations(f, t, q, qd)
}

/// A mass matrix factorized once for several right-hand sides, as [`solve_mass_matrix`]
/// solves: `L` of `m = L Lᵀ` when `m` is positive definite, else `m` itself, solved by LU
/// for each right-hand side. Every solve gives the bits `solve_mass_matrix` gives.
pub(crate) enum MassFactor<N: Dim>
where
    DefaultAllocator: DimAllocator<N>,
{
    /// The lower triangle holds `L`.
    Cholesky(OMatrix<f64, N, N>),
    /// Not positive definite.
    General(OMatrix<f64, N, N>),
}

impl<N: Dim> MassFactor<N>
where
    DefaultAllocator: DimAllocator<N>,
{
    pub(crate) fn new(m: OMatrix<f64, N, N>) -> Self {
        match cholesky(m.clone()) {
            Some(l) => MassFactor::Cholesky(l),
            None => MassFactor::General(m),
        }
    }

    /// The solution of `m x = f`; `None` when `m` is singular.
    pub(crate) fn solve(&self, x: OVector<f64, N>) -> Option<OVector<f64, N>> {
        match self {
            MassFactor::Cholesky(l) => Some(substitute(l, x)),
            MassFactor::General(m) => lu_solve(m.clone(), x),
        }
    }

    /// [`solve_accelerations`] on this factor.
    pub(crate) fn accelerations(
        &self,
        f: OVector<f64, N>,
        t: f64,
        q: &OVector<f64, N>,
        qd: &OVector<f64, N>,
    ) -> Result<OVector<f64, N>, Error> {
        self.solve(f)
            .filter(|qdd| qdd.iter().all(|x| x.is_finite()))
            .ok_or_else(|| Error::singular(t, q.as_slice(), qd.as_slice()))
    }
}

/// `L` of `m = L Lᵀ` in the lower triangle of `m`; `None` unless every pivot is positive.
fn cholesky<N: Dim>(mut m: OMatrix<f64, N, N>) -> Option<OMatrix<f64, N, N>>
where
    DefaultAllocator: DimAllocator<N>,
{
    let n = m.nrows();
    for j in 0..n {
        let mut d = m[(j, j)];
        for k in 0..j {
            d -= m[(j, k)] * m[(j, k)];
        }
        // Also rejects NaN.
        if d.partial_cmp(&0.0) != Some(std::cmp::Ordering::Greater) {
            return None;
        }
        let d = d.sqrt();
        m[(j, j)] = d;
        for i in j + 1..n {
            let mut s = m[(i, j)];
            for k in 0..j {
                s -= m[(i, k)] * m[(j, k)];
            }
            m[(i, j)] = s / d;
        }
    }
    Some(m)
}

/// `x` of `L Lᵀ x = b` by the two triangular solves, `b` given in `x`.
fn substitute<N: Dim>(l: &OMatrix<f64, N, N>, mut x: OVector<f64, N>) -> OVector<f64, N>
where
    DefaultAllocator: DimAllocator<N>,
{
    let n = x.nrows();
    for i in 0..n {
        let mut s = x[i];
        for k in 0..i {
            s -= l[(i, k)] * x[k];
        }
        x[i] = s / l[(i, i)];
    }
    for i in (0..n).rev() {
        let mut s = x[i];
        for k in i + 1..n {
            s -= l[(k, i)] * x[k];
        }
        x[i] = s / l[(i, i)];
    }
    x
}

/// Solves `m x = f` for a general (nonsymmetric) `m` by LU with partial pivoting; `None`
/// when `m` is singular.
pub(crate) fn solve_general<N: Dim>(
    m: OMatrix<f64, N, N>,
    f: OVector<f64, N>,
) -> Option<OVector<f64, N>>
where
    DefaultAllocator: DimAllocator<N>,
{
    lu_solve(m, f)
}

/// Gaussian elimination with partial pivoting; `None` on a zero pivot.
fn lu_solve<N: Dim>(mut m: OMatrix<f64, N, N>, mut x: OVector<f64, N>) -> Option<OVector<f64, N>>
where
    DefaultAllocator: DimAllocator<N>,
{
    let n = x.nrows();
    for col in 0..n {
        let pivot = (col..n).max_by(|&a, &b| m[(a, col)].abs().total_cmp(&m[(b, col)].abs()))?;
        if m[(pivot, col)] == 0.0 || !m[(pivot, col)].is_finite() {
            return None;
        }
        m.swap_rows(col, pivot);
        x.swap_rows(col, pivot);
        for row in col + 1..n {
            let factor = m[(row, col)] / m[(col, col)];
            for k in col..n {
                m[(row, k)] -= factor * m[(col, k)];
            }
            x[row] -= factor * x[col];
        }
    }
    for i in (0..n).rev() {
        let mut s = x[i];
        for k in i + 1..n {
            s -= m[(i, k)] * x[k];
        }
        x[i] = s / m[(i, i)];
    }
    Some(x)
}

#[cfg(test)]
mod tests {
    use super::*;
    use nalgebra::{Matrix2, Vector2};

    #[test]
    fn positive_definite_matrix_is_solved() {
        let m = Matrix2::new(4.0, 1.0, 1.0, 3.0);
        let x = Vector2::new(1.0, -2.0);
        let solved = solve_mass_matrix(m, m * x).unwrap();
        assert!((solved - x).norm() < 1e-14);
    }

    #[test]
    fn indefinite_matrix_falls_back_to_lu() {
        let m = Matrix2::new(0.0, 1.0, 1.0, 0.0);
        let x = Vector2::new(3.0, 5.0);
        let solved = solve_mass_matrix(m, m * x).unwrap();
        assert!((solved - x).norm() < 1e-14);
    }

    #[test]
    fn larger_systems_match_a_known_solution() {
        // A Hilbert-like SPD matrix and a nonsymmetric one, each against a chosen x.
        let spd = nalgebra::Matrix4::from_fn(|i, j| {
            1.0 / (i + j + 1) as f64 + if i == j { 1.0 } else { 0.0 }
        });
        let general = nalgebra::Matrix4::from_fn(|i, j| ((3 * i + 5 * j) % 7) as f64 - 3.0);
        let x = nalgebra::Vector4::new(1.0, -2.0, 0.5, 3.0);
        for m in [spd, general] {
            let solved = solve_mass_matrix(m, m * x).unwrap();
            assert!((solved - x).norm() < 1e-12, "{solved} vs {x}");
        }
        assert!(cholesky(general).is_none());
    }

    #[test]
    fn singular_matrix_is_none() {
        let m = Matrix2::new(1.0, 2.0, 2.0, 4.0);
        assert!(solve_mass_matrix(m, Vector2::new(1.0, 1.0)).is_none());
    }
}
