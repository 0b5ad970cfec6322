//! Numerical solution of `M q̈ = f`: the mass matrix is never inverted symbolically.

use nalgebra::{DMatrix, DVector, SMatrix, SVector};

/// Solves `m x = f`: Cholesky when `m` is symmetric positive definite (the usual case for a
/// mass matrix), LU with partial pivoting otherwise. `None` when `m` is singular.
pub fn solve_mass_matrix<const N: usize>(
    m: SMatrix<f64, N, N>,
    f: SVector<f64, N>,
) -> Option<SVector<f64, N>> {
    if let Some(chol) = m.cholesky() {
        return Some(chol.solve(&f));
    }
    // Generic `N` has no static LU in nalgebra; the fallback runs on a dynamic copy.
    let lu = DMatrix::from_column_slice(N, N, m.as_slice()).lu();
    lu.solve(&DVector::from_column_slice(f.as_slice()))
        .map(|x| SVector::from_column_slice(x.as_slice()))
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
    fn singular_matrix_is_none() {
        let m = Matrix2::new(1.0, 2.0, 2.0, 4.0);
        assert!(solve_mass_matrix(m, Vector2::new(1.0, 1.0)).is_none());
    }
}
