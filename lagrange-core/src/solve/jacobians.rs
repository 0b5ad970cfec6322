//! Exact first derivatives of the equations of motion, from the derivatives of their
//! residuals that the derive generates symbolically.
//!
//! Lagrange's equations are the residual `r(t, q, q̇, q̈, p) = M q̈ − f = 0`; for a
//! constrained system also `M q̈ − f − Jᵀλ = 0` and `s = J q̈ + c = 0`. Differentiating
//! them at a solution gives the derivatives of `q̈` (and `λ`) by one linear solve, valid at
//! any state, not only at equilibria: `∂q̈/∂x = −M⁻¹ ∂r/∂x` without constraints.

use nalgebra::{DMatrix, DefaultAllocator, Dim, OMatrix, OVector};

use crate::error::Error;
use crate::size::{ConstraintAllocator, DimAllocator};
use crate::solve::linalg::MassFactor;

/// Derivatives of the residual `r = M(t, q, q̇) q̈ − f(t, q, q̇)` at a point
/// `(t, q, q̇, q̈)`, with `q̈` held fixed.
#[derive(Debug, Clone, PartialEq)]
pub struct ResidualJacobians<N: Dim>
where
    DefaultAllocator: DimAllocator<N>,
{
    /// `∂r/∂q`: entry `(i, j)` is `∂rᵢ/∂qⱼ`.
    pub coordinates: OMatrix<f64, N, N>,
    /// `∂r/∂q̇`.
    pub velocities: OMatrix<f64, N, N>,
    /// `∂r/∂p`, `N` rows and one column per parameter (inputs included), in the order of
    /// [`ModelInfo::parameters`](crate::ModelInfo::parameters).
    pub parameters: DMatrix<f64>,
}

impl<N: Dim> ResidualJacobians<N>
where
    DefaultAllocator: DimAllocator<N>,
{
    /// The three blocks row by row, the layout of
    /// [`LagrangianSystem::residual_jacobian_rows`](crate::LagrangianSystem::residual_jacobian_rows):
    /// for each row `i`, `∂rᵢ/∂q`, `∂rᵢ/∂q̇`, `∂rᵢ/∂p`.
    pub fn rows(&self) -> Vec<f64> {
        let (n, m) = (self.coordinates.nrows(), self.parameters.ncols());
        let mut rows = Vec::with_capacity(n * (2 * n + m));
        for i in 0..n {
            rows.extend(self.coordinates.row(i).iter());
            rows.extend(self.velocities.row(i).iter());
            rows.extend(self.parameters.row(i).iter());
        }
        rows
    }

    /// The blocks of `rows`, laid out as [`rows`](Self::rows) gives them, for `n`
    /// coordinates. Errors unless `rows` is `n` rows of `2n` entries and one per parameter.
    pub fn from_rows(n: N, rows: &[f64]) -> Result<Self, Error> {
        let width = row_width(n.value(), rows.len())?;
        let mut blocks = ResidualJacobians {
            coordinates: OMatrix::zeros_generic(n, n),
            velocities: OMatrix::zeros_generic(n, n),
            parameters: DMatrix::zeros(n.value(), width - 2 * n.value()),
        };
        fill_blocks(
            rows,
            (n.value(), width),
            [
                blocks.coordinates.as_mut_slice(),
                blocks.velocities.as_mut_slice(),
                blocks.parameters.as_mut_slice(),
            ],
            |x| x,
        );
        Ok(blocks)
    }
}

/// The three blocks (`∂/∂q`, `∂/∂q̇`, `∂/∂p`, column-major, `n` rows each) of `rows` of
/// `width` entries each, every entry passed through `entry`: in tiles of four rows by four
/// columns (four reads of a row's four entries, four writes of a column's four), the rows
/// and columns beyond multiples of four entry by entry; with the processor's wider
/// instructions.
fn fill_blocks(
    rows: &[f64],
    (n, width): (usize, usize),
    blocks: [&mut [f64]; 3],
    entry: impl Fn(f64) -> f64,
) {
    const TILE: usize = 4;
    if n == 0 {
        return;
    }
    let tiled = n - n % TILE;
    crate::wide::wide(
        #[inline(always)]
        || {
            for (offset, block) in [0, n, 2 * n].into_iter().zip(blocks) {
                let columns = block.len() / n;
                let at = |i: usize, j: usize| i * width + offset + j;
                for first in (0..tiled).step_by(TILE) {
                    let [a, b, c, d]: [&[f64]; TILE] =
                        std::array::from_fn(|r| &rows[at(first + r, 0)..at(first + r, columns)]);
                    let tiles = (a.chunks_exact(TILE).zip(b.chunks_exact(TILE)))
                        .zip(c.chunks_exact(TILE).zip(d.chunks_exact(TILE)));
                    let outputs = block.chunks_exact_mut(TILE * n);
                    for (((a, b), (c, d)), output) in tiles.zip(outputs) {
                        for k in 0..TILE {
                            let column = &mut output[k * n + first..k * n + first + TILE];
                            column[0] = entry(a[k]);
                            column[1] = entry(b[k]);
                            column[2] = entry(c[k]);
                            column[3] = entry(d[k]);
                        }
                    }
                    for j in columns - columns % TILE..columns {
                        for (r, x) in block[j * n + first..j * n + first + TILE]
                            .iter_mut()
                            .enumerate()
                        {
                            *x = entry(rows[at(first + r, j)]);
                        }
                    }
                }
                for i in tiled..n {
                    for j in 0..columns {
                        block[j * n + i] = entry(rows[at(i, j)]);
                    }
                }
            }
        },
    );
}

/// Whether every entry of `x` is finite: `0·x` is ±0 for a finite `x` and NaN for an
/// infinite or NaN one, summed over eight lanes without an early exit (so on whole
/// vectors, with the processor's wider instructions).
fn all_finite(x: &[f64]) -> bool {
    const LANES: usize = 8;
    crate::wide::wide(
        #[inline(always)]
        || {
            let mut sums = [0.0; LANES];
            let chunks = x.chunks_exact(LANES);
            let rest = chunks.remainder();
            for chunk in chunks {
                for (s, v) in sums.iter_mut().zip(chunk) {
                    *s += v * 0.0;
                }
            }
            for (s, v) in sums.iter_mut().zip(rest) {
                *s += v * 0.0;
            }
            sums.iter().all(|&s| s == 0.0)
        },
    )
}

/// The number of entries in each of the `n` rows of `len` residual derivatives (`2n` and
/// one per parameter), or the error saying they are not such rows.
fn row_width(n: usize, len: usize) -> Result<usize, Error> {
    match (n, len) {
        (0, 0) => Ok(0),
        (0, _) => Err(Error::InvalidInput(format!(
            "the residual's derivatives of no coordinates came as {len} values"
        ))),
        _ if len.is_multiple_of(n) && len / n >= 2 * n => Ok(len / n),
        _ => Err(Error::InvalidInput(format!(
            "the residual's derivatives of {n} coordinates came as {len} values, not {n} rows of {} entries and one per parameter",
            2 * n
        ))),
    }
}

/// Derivatives of a constrained system's constraint residual `s = J q̈ + c` (the second
/// time derivative of `G`) and of its reaction `Jᵀλ`, at `(t, q, q̇, q̈, λ)` with `q̈`
/// and `λ` held fixed.
#[derive(Debug, Clone, PartialEq)]
pub struct ConstraintJacobians<N: Dim, K: Dim>
where
    DefaultAllocator: ConstraintAllocator<N, K>,
{
    /// `∂s/∂q`.
    pub acceleration_coordinates: OMatrix<f64, K, N>,
    /// `∂s/∂q̇`.
    pub acceleration_velocities: OMatrix<f64, K, N>,
    /// `∂s/∂p`, `K` rows and one column per parameter.
    pub acceleration_parameters: DMatrix<f64>,
    /// `∂(Jᵀλ)/∂q` (the reaction does not depend on `q̇`).
    pub reaction_coordinates: OMatrix<f64, N, N>,
    /// `∂(Jᵀλ)/∂p`, `N` rows and one column per parameter.
    pub reaction_parameters: DMatrix<f64>,
}

/// Derivatives of the accelerations `q̈(t, q, q̇, p)` of the motion (the constrained
/// motion for a constrained system) at a state.
#[derive(Debug, Clone, PartialEq)]
pub struct AccelerationJacobians<N: Dim>
where
    DefaultAllocator: DimAllocator<N>,
{
    /// The accelerations at the state.
    pub accelerations: OVector<f64, N>,
    /// `∂q̈/∂q`.
    pub coordinates: OMatrix<f64, N, N>,
    /// `∂q̈/∂q̇`.
    pub velocities: OMatrix<f64, N, N>,
    /// `∂q̈/∂p`, `N` rows and one column per parameter.
    pub parameters: DMatrix<f64>,
}

/// The accelerations of the unconstrained motion `M q̈ = f` and their derivatives
/// `∂q̈/∂x = −M⁻¹ ∂r/∂x` (the default of
/// [`LagrangianSystem::acceleration_jacobians`](crate::LagrangianSystem::acceleration_jacobians)),
/// from `M` and `f` at the state `(t, q, q̇)` and the residual's derivatives at `q̈` row by
/// row, as
/// [`LagrangianSystem::residual_jacobian_rows`](crate::LagrangianSystem::residual_jacobian_rows)
/// gives them: every column is solved in that buffer, in place. `M` is factorized once
/// (over `tree`, the shape of `M`, when it is not empty), for `q̈` and for every column;
/// `q̈` has the bits `solve_accelerations` gives. Errors when `M` is singular, a
/// derivative is not finite, or the rows are not `N` rows of `2N` entries and one per
/// parameter.
pub(crate) fn unconstrained<N: Dim>(
    (m, f): (OMatrix<f64, N, N>, OVector<f64, N>),
    tree: &[Option<usize>],
    state: (f64, &OVector<f64, N>, &OVector<f64, N>),
    residual_jacobian_rows: impl FnOnce(&OVector<f64, N>) -> Vec<f64>,
) -> Result<AccelerationJacobians<N>, Error>
where
    DefaultAllocator: DimAllocator<N>,
{
    let (factor, qdd) = factored(m, f, tree, state)?;
    let mut rows = residual_jacobian_rows(&qdd);
    let n = qdd.len();
    let parameters = row_width(n, rows.len())? - 2 * n;
    let mut result = None;
    solved(&factor, &mut rows, (&qdd, parameters), &mut result, state)?;
    Ok(result.expect("`solved` made the derivatives"))
}

impl<N: Dim> AccelerationJacobians<N>
where
    DefaultAllocator: DimAllocator<N>,
{
    /// The accelerations `qdd` with derivatives of zero, for `parameters` parameters: what
    /// [`solved`] fills.
    pub(crate) fn zeros(qdd: OVector<f64, N>, parameters: usize) -> Self {
        let dim = qdd.shape_generic().0;
        let n = qdd.len();
        AccelerationJacobians {
            accelerations: qdd,
            coordinates: OMatrix::zeros_generic(dim, dim),
            velocities: OMatrix::zeros_generic(dim, dim),
            parameters: DMatrix::zeros(n, parameters),
        }
    }
}

/// The first half of [`unconstrained`]: `M` factorized (over `tree`) and the
/// accelerations `q̈` at the state, with the bits `solve_accelerations` gives.
pub(crate) fn factored<'a, N: Dim>(
    m: OMatrix<f64, N, N>,
    f: OVector<f64, N>,
    tree: &'a [Option<usize>],
    (t, q, qd): (f64, &OVector<f64, N>, &OVector<f64, N>),
) -> Result<(MassFactor<'a, N>, OVector<f64, N>), Error>
where
    DefaultAllocator: DimAllocator<N>,
{
    let factor = MassFactor::new(m, tree);
    let qdd = factor.accelerations(f, t, q, qd)?;
    Ok((factor, qdd))
}

/// The second half of [`unconstrained`]: the residual's derivatives at the accelerations
/// `qdd`, `rows` in the layout of
/// [`LagrangianSystem::residual_jacobian_rows`](crate::LagrangianSystem::residual_jacobian_rows)
/// with `parameters` parameters' columns, solved in place by `factor` and read out negated
/// into `result` (made here, after the solve, in a place the caller keeps: a large
/// model's derivatives are not moved again).
pub(crate) fn solved<N: Dim>(
    factor: &MassFactor<'_, N>,
    rows: &mut [f64],
    (qdd, parameters): (&OVector<f64, N>, usize),
    result: &mut Option<AccelerationJacobians<N>>,
    (t, q, qd): (f64, &OVector<f64, N>, &OVector<f64, N>),
) -> Result<(), Error>
where
    DefaultAllocator: DimAllocator<N>,
{
    let singular = || Error::singular(t, q.as_slice(), qd.as_slice());
    let n = qdd.len();
    let c = row_width(n, rows.len())?;
    if c - 2 * n != parameters {
        return Err(Error::InvalidInput(format!(
            "the residual's derivatives came with {} parameters' columns, not {parameters}",
            c - 2 * n
        )));
    }
    // −M⁻¹ [∂r/∂q  ∂r/∂q̇  ∂r/∂p]: all 2n + m columns in one solve.
    factor.solve_rows(rows, c).ok_or_else(singular)?;
    // Checked, then read out negated into the result's own matrices.
    if !all_finite(rows) {
        return Err(singular());
    }
    let result = result.insert(AccelerationJacobians::zeros(qdd.clone(), parameters));
    fill_blocks(
        rows,
        (n, c),
        [
            result.coordinates.as_mut_slice(),
            result.velocities.as_mut_slice(),
            result.parameters.as_mut_slice(),
        ],
        |x| -x,
    );
    Ok(())
}

/// The derivatives of the constrained motion with accelerations `qdd` and multipliers
/// `lambda`: `[M −Jᵀ; J 0] [∂q̈; ∂λ] = −[∂r/∂x − ∂(Jᵀλ)/∂x; ∂s/∂x]`.
pub(crate) fn constrained<N: Dim, K: Dim>(
    m: &OMatrix<f64, N, N>,
    j: &OMatrix<f64, K, N>,
    qdd: OVector<f64, N>,
    r: ResidualJacobians<N>,
    s: ConstraintJacobians<N, K>,
    singular: impl Fn() -> Error,
) -> Result<AccelerationJacobians<N>, Error>
where
    DefaultAllocator: ConstraintAllocator<N, K>,
{
    let (dim, n, k) = (m.shape_generic().0, m.nrows(), j.nrows());
    let size = n + k;
    let mut saddle = DMatrix::zeros(size, size);
    let j = DMatrix::from_column_slice(k, n, j.as_slice());
    saddle
        .view_mut((0, 0), (n, n))
        .copy_from_slice(m.as_slice());
    saddle.view_mut((0, n), (n, k)).copy_from(&(-j.transpose()));
    saddle.view_mut((n, 0), (k, n)).copy_from(&j);
    let lu = saddle.lu();
    // The first N rows of the solution for the stacked right-hand sides.
    let solve = |top: DMatrix<f64>, bottom: DMatrix<f64>| -> Result<DMatrix<f64>, Error> {
        let mut rhs = DMatrix::zeros(size, top.ncols());
        rhs.view_mut((0, 0), (n, top.ncols())).copy_from(&(-top));
        rhs.view_mut((n, 0), (k, bottom.ncols()))
            .copy_from(&(-bottom));
        let x = lu.solve(&rhs).ok_or_else(&singular)?;
        Ok(x.rows(0, n).into_owned())
    };
    let dynamic = |x: &[f64], rows: usize| DMatrix::from_column_slice(rows, n, x);
    let fixed = |x: DMatrix<f64>| sized(dim, x);
    let coordinates = solve(
        dynamic((r.coordinates - s.reaction_coordinates).as_slice(), n),
        dynamic(s.acceleration_coordinates.as_slice(), k),
    )?;
    let velocities = solve(
        dynamic(r.velocities.as_slice(), n),
        dynamic(s.acceleration_velocities.as_slice(), k),
    )?;
    let parameters = solve(
        r.parameters - s.reaction_parameters,
        s.acceleration_parameters,
    )?;
    let jacobians = AccelerationJacobians {
        accelerations: qdd,
        coordinates: fixed(coordinates),
        velocities: fixed(velocities),
        parameters,
    };
    finite(jacobians, singular)
}

/// The square matrix of size `n` with the entries of `x`.
fn sized<N: Dim>(n: N, x: DMatrix<f64>) -> OMatrix<f64, N, N>
where
    DefaultAllocator: DimAllocator<N>,
{
    OMatrix::from_column_slice_generic(n, n, x.as_slice())
}

fn finite<N: Dim>(
    j: AccelerationJacobians<N>,
    singular: impl Fn() -> Error,
) -> Result<AccelerationJacobians<N>, Error>
where
    DefaultAllocator: DimAllocator<N>,
{
    let all = j
        .coordinates
        .iter()
        .chain(j.velocities.iter())
        .chain(j.parameters.iter());
    if all.clone().all(|x| x.is_finite()) {
        Ok(j)
    } else {
        Err(singular())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use nalgebra::{Matrix2, Vector2};

    #[test]
    fn residual_rows_are_solved_in_place_and_a_wrong_length_is_an_error() {
        let (m, f) = (Matrix2::new(2.0, 0.0, 0.0, 1.0), Vector2::new(1.0, 1.0));
        let q = Vector2::zeros();
        for wrong in [7, 3, 0] {
            let error =
                unconstrained((m, f), &[], (0.0, &q, &q), |_| vec![0.0; wrong]).unwrap_err();
            assert!(
                error
                    .to_string()
                    .contains(&format!("came as {wrong} values")),
                "{error}"
            );
        }
        // ∂r/∂q = ∂r/∂q̇ = [[1, 2], [3, 4]], ∂r/∂p = [5; 6], row by row: −M⁻¹ of each.
        let rows = vec![1.0, 2.0, 1.0, 2.0, 5.0, 3.0, 4.0, 3.0, 4.0, 6.0];
        let solved = unconstrained((m, f), &[], (0.0, &q, &q), |_| rows.clone()).unwrap();
        let expected = Matrix2::new(-0.5, -1.0, -3.0, -4.0);
        let close = |a: &[f64], b: &[f64]| {
            assert!(
                a.iter().zip(b).all(|(a, b)| (a - b).abs() < 1e-15),
                "{a:?} {b:?}"
            );
        };
        close(solved.coordinates.as_slice(), expected.as_slice());
        close(solved.velocities.as_slice(), expected.as_slice());
        close(solved.parameters.as_slice(), &[-2.5, -6.0]);
        close(solved.accelerations.as_slice(), &[0.5, 1.0]);
        // The blocks and the rows are one another's layout.
        let blocks = ResidualJacobians::from_rows(nalgebra::U2, &rows).unwrap();
        assert_eq!(blocks.coordinates, Matrix2::new(1.0, 2.0, 3.0, 4.0));
        assert_eq!(blocks.parameters.as_slice(), &[5.0, 6.0]);
        assert_eq!(blocks.rows(), rows);
        assert!(ResidualJacobians::from_rows(nalgebra::U2, &rows[..9]).is_err());
    }

    #[test]
    fn blocks_are_read_out_in_tiles_and_the_rest_entry_by_entry() {
        // 17 rows: four tiles of four rows and one row; blocks of 17, 3 and 6 columns
        // (tiles of four columns and the rest). Every entry of the rows a different
        // number, so that a swapped block, row or column shows.
        use nalgebra::{Const, DMatrix, SMatrix, SVector};
        const N: usize = 17;
        for parameters in [0, 3, 6] {
            let width = 2 * N + parameters;
            let entry = |i: usize, j: usize| (i * width + j) as f64 + 0.25;
            let rows: Vec<f64> = (0..N * width)
                .map(|k| entry(k / width, k % width))
                .collect();
            let blocks = ResidualJacobians::from_rows(Const::<N>, &rows).unwrap();
            assert_eq!(blocks.coordinates, SMatrix::<f64, N, N>::from_fn(entry));
            assert_eq!(
                blocks.velocities,
                SMatrix::<f64, N, N>::from_fn(|i, j| entry(i, N + j))
            );
            assert_eq!(
                blocks.parameters,
                DMatrix::from_fn(N, parameters, |i, j| entry(i, 2 * N + j))
            );
            assert_eq!(blocks.rows(), rows);
            // With M = 4·1 (Cholesky's L = 2·1): −M⁻¹ of each block, exactly.
            let m = SMatrix::<f64, N, N>::identity() * 4.0;
            let (f, q) = (SVector::<f64, N>::repeat(1.0), SVector::<f64, N>::zeros());
            let solved = unconstrained((m, f), &[], (0.0, &q, &q), |_| rows.clone()).unwrap();
            assert_eq!(solved.coordinates, blocks.coordinates * -0.25);
            assert_eq!(solved.velocities, blocks.velocities * -0.25);
            assert_eq!(solved.parameters, blocks.parameters * -0.25);
        }
    }

    #[test]
    fn a_derivative_not_finite_anywhere_in_the_rows_is_an_error() {
        // 3 rows of 2·3 + 3 entries: 27, three chunks of eight and three more; an
        // infinity or a NaN at the first, a middle, a chunk's last and the last entry.
        use nalgebra::{Matrix3, Vector3};
        let (m, f, q) = (
            Matrix3::identity() * 2.0,
            Vector3::repeat(1.0),
            Vector3::zeros(),
        );
        let rows: Vec<f64> = (0..27).map(|k| k as f64 - 13.5).collect();
        assert!(unconstrained((m, f), &[], (0.0, &q, &q), |_| rows.clone()).is_ok());
        for at in [0, 11, 23, 26] {
            for bad in [f64::INFINITY, f64::NEG_INFINITY, f64::NAN] {
                let mut rows = rows.clone();
                rows[at] = bad;
                let solved = unconstrained((m, f), &[], (0.0, &q, &q), |_| rows);
                assert!(
                    matches!(solved, Err(Error::SingularMassMatrix { .. })),
                    "{at} {bad}"
                );
            }
        }
    }
}
