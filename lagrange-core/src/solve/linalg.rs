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
    MassFactor::new(m, &[]).solve(f)
}

/// `q̈` from `M q̈ = f` at the state `(t, q, q̇)`: the unconstrained accelerations, with
/// an error carrying the state when `M` is singular or the result is not finite. `tree`
/// is the shape of `M` ([`ModelInfo::mass_matrix_tree`](crate::ModelInfo)), empty for a
/// dense factorization.
pub fn solve_accelerations<N: Dim>(
    m: OMatrix<f64, N, N>,
    f: OVector<f64, N>,
    tree: &[Option<usize>],
    t: f64,
    q: &OVector<f64, N>,
    qd: &OVector<f64, N>,
) -> Result<OVector<f64, N>, Error>
where
    DefaultAllocator: DimAllocator<N>,
{
    MassFactor::new(m, tree).accelerations(f, t, q, qd)
}

/// A mass matrix factorized once for several right-hand sides: over the tree of its
/// shape when it has one (`m = Lᵀ D L` without fill-in), else `L` of `m = L Lᵀ` when `m`
/// is positive definite, else `m` itself, solved by LU for each right-hand side. Without
/// a tree every solve gives the bits [`solve_mass_matrix`] gives.
pub(crate) enum MassFactor<'a, N: Dim>
where
    DefaultAllocator: DimAllocator<N>,
{
    /// `D` on the diagonal, `L` below it, over the tree `λ`: row `i` of `L` has entries
    /// only in the columns of the chain `λ(i), λ(λ(i)), …`.
    Tree(OMatrix<f64, N, N>, &'a [Option<usize>]),
    /// The lower triangle holds `L`.
    Cholesky(OMatrix<f64, N, N>),
    /// Not positive definite.
    General(OMatrix<f64, N, N>),
}

impl<'a, N: Dim> MassFactor<'a, N>
where
    DefaultAllocator: DimAllocator<N>,
{
    /// Factorizes `m` over `tree` (see
    /// [`ModelInfo::mass_matrix_tree`](crate::ModelInfo)) when it is one for `m`'s size
    /// (every parent earlier than its child) and `m` has its shape (every entry off the
    /// chains zero: a tree a hand-written system declares wrongly costs speed, not
    /// correctness), densely otherwise.
    pub(crate) fn new(m: OMatrix<f64, N, N>, tree: &'a [Option<usize>]) -> Self {
        if has_shape(&m, tree) {
            return match tree_factor(m.clone(), tree) {
                Some(factor) => MassFactor::Tree(factor, tree),
                None => MassFactor::General(m),
            };
        }
        match cholesky(m.clone()) {
            Some(l) => MassFactor::Cholesky(l),
            None => MassFactor::General(m),
        }
    }

    /// The solution of `m x = f`; `None` when `m` is singular.
    pub(crate) fn solve(&self, x: OVector<f64, N>) -> Option<OVector<f64, N>> {
        match self {
            MassFactor::Tree(factor, tree) => Some(tree_substitute(factor, tree, x)),
            MassFactor::Cholesky(l) => Some(substitute(l, x)),
            MassFactor::General(m) => lu_solve(m.clone(), x),
        }
    }

    /// The solutions of `m x = b` for the `c` columns `b` of `rows`, stored row by row
    /// (entry `(i, j)` at `i·c + j`), in place: the factor's loops run once, each step
    /// over the row of every column at once, and a row is divided by its pivot as a
    /// product with the pivot's reciprocal. Each column agrees with what
    /// [`solve`](Self::solve) gives to rounding. `None` when `m` is singular.
    ///
    /// [`solve`](Self::solve) keeps loops of its own: it is the one-vector path of every
    /// `accelerations` call, and these row slices made it 15–30% slower (the G1's forward
    /// dynamics 3.9 → 4.5 µs, `cargo bench --bench robots`).
    pub(crate) fn solve_rows(&self, rows: &mut [f64], c: usize) -> Option<()> {
        let (l, tree) = match self {
            MassFactor::Tree(l, tree) => (l, Some(*tree)),
            MassFactor::Cholesky(l) => (l, None),
            MassFactor::General(m) => {
                let dim = m.shape_generic().0;
                let n = m.nrows();
                for j in 0..c {
                    let b = OVector::<f64, N>::from_fn_generic(dim, nalgebra::U1, |i, _| {
                        rows[i * c + j]
                    });
                    for (i, v) in lu_solve(m.clone(), b)?.iter().enumerate().take(n) {
                        rows[i * c + j] = *v;
                    }
                }
                return Some(());
            }
        };
        // The loops over whole rows, with the processor's wider instructions.
        crate::wide::wide(
            #[inline(always)]
            || substitute_rows(l, tree, rows, c),
        );
        Some(())
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

/// The rows' substitutions of [`MassFactor::solve_rows`] through the factor `l`: `Lᵀ D L`
/// over `tree`, else Cholesky's `L`.
#[inline(always)]
fn substitute_rows<N: Dim>(
    l: &OMatrix<f64, N, N>,
    tree: Option<&[Option<usize>]>,
    rows: &mut [f64],
    c: usize,
) where
    DefaultAllocator: DimAllocator<N>,
{
    let n = l.nrows();
    match tree {
        Some(tree) => {
            for k in (0..n).rev() {
                let mut j = tree[k];
                while let Some(jj) = j {
                    eliminate(rows, c, jj, k, l[(k, jj)]);
                    j = tree[jj];
                }
            }
            divide(rows, l, c);
            for k in 0..n {
                let mut j = tree[k];
                while let Some(jj) = j {
                    eliminate(rows, c, k, jj, l[(k, jj)]);
                    j = tree[jj];
                }
            }
        }
        None => {
            for i in 0..n {
                for k in 0..i {
                    eliminate(rows, c, i, k, l[(i, k)]);
                }
                divide_row(rows, i, l[(i, i)], c);
            }
            for i in (0..n).rev() {
                for k in i + 1..n {
                    eliminate(rows, c, i, k, l[(k, i)]);
                }
                divide_row(rows, i, l[(i, i)], c);
            }
        }
    }
}

/// Row `target` of the row-major `rows` (`c` columns) less `factor` times row `source`.
#[inline(always)]
fn eliminate(rows: &mut [f64], c: usize, target: usize, source: usize, factor: f64) {
    let (low, high) = rows.split_at_mut(target.max(source) * c);
    let (target, source) = if target < source {
        (&mut low[target * c..target * c + c], &high[..c])
    } else {
        (&mut high[..c], &low[source * c..source * c + c])
    };
    for (t, s) in target.iter_mut().zip(source.iter()) {
        *t -= factor * *s;
    }
}

/// Row `i` of the row-major `rows` (`c` columns) divided by `d`, as a product with
/// `1/d` (one division per row instead of one per entry).
#[inline(always)]
fn divide_row(rows: &mut [f64], i: usize, d: f64, c: usize) {
    let reciprocal = 1.0 / d;
    for v in &mut rows[i * c..i * c + c] {
        *v *= reciprocal;
    }
}

/// Every row `i` of the row-major `rows` (`c` columns) divided by `l[(i, i)]`.
#[inline(always)]
fn divide<N: Dim>(rows: &mut [f64], l: &OMatrix<f64, N, N>, c: usize)
where
    DefaultAllocator: DimAllocator<N>,
{
    for i in 0..l.nrows() {
        divide_row(rows, i, l[(i, i)], c);
    }
}

/// Whether `tree` is a tree of `m`'s size, each parent before its child, and every entry
/// of `m`'s lower triangle off the chains `i, λ(i), λ(λ(i)), …` is zero.
fn has_shape<N: Dim>(m: &OMatrix<f64, N, N>, tree: &[Option<usize>]) -> bool
where
    DefaultAllocator: DimAllocator<N>,
{
    let n = m.nrows();
    if tree.len() != n
        || tree
            .iter()
            .enumerate()
            .any(|(i, p)| p.is_some_and(|p| p >= i))
    {
        return false;
    }
    // The entries below the diagonal that are not zero (NaN included), counted column by
    // column over contiguous storage, against those on the chains: equal when every one
    // lies on a chain.
    let columns = m.as_slice().chunks_exact(n.max(1));
    let below: usize = columns
        .enumerate()
        .map(|(j, column)| {
            column[j + 1..]
                .iter()
                .map(|&x| usize::from(x != 0.0))
                .sum::<usize>()
        })
        .sum();
    let mut on_chains = 0;
    for (i, &parent) in tree.iter().enumerate() {
        let mut j = parent;
        while let Some(jj) = j {
            on_chains += usize::from(m[(i, jj)] != 0.0);
            j = tree[jj];
        }
    }
    below == on_chains
}

/// `m = Lᵀ D L` over the tree `λ` (Featherstone, *Rigid Body Dynamics Algorithms*, 2008,
/// §6.5): from the last row up, each row eliminates itself from its chain of ancestors, so
/// the factors have no entry off the chains and the cost is `Σ dᵢ²` for chains of length
/// `dᵢ` instead of `n³/6`. Only the lower triangle is read and written. `None` unless
/// every pivot is positive.
fn tree_factor<N: Dim>(
    mut m: OMatrix<f64, N, N>,
    tree: &[Option<usize>],
) -> Option<OMatrix<f64, N, N>>
where
    DefaultAllocator: DimAllocator<N>,
{
    for k in (0..m.nrows()).rev() {
        let d = m[(k, k)];
        // Also rejects NaN.
        if d.partial_cmp(&0.0) != Some(std::cmp::Ordering::Greater) {
            return None;
        }
        let mut i = tree[k];
        while let Some(ii) = i {
            let a = m[(k, ii)] / d;
            let mut j = Some(ii);
            while let Some(jj) = j {
                m[(ii, jj)] -= a * m[(k, jj)];
                j = tree[jj];
            }
            m[(k, ii)] = a;
            i = tree[ii];
        }
    }
    Some(m)
}

/// `x` of `Lᵀ D L x = b` for the factors of [`tree_factor`], `b` given in `x`.
fn tree_substitute<N: Dim>(
    factor: &OMatrix<f64, N, N>,
    tree: &[Option<usize>],
    mut x: OVector<f64, N>,
) -> OVector<f64, N>
where
    DefaultAllocator: DimAllocator<N>,
{
    let n = x.nrows();
    for k in (0..n).rev() {
        let mut j = tree[k];
        while let Some(jj) = j {
            x[jj] -= factor[(k, jj)] * x[k];
            j = tree[jj];
        }
    }
    for k in 0..n {
        x[k] /= factor[(k, k)];
    }
    for k in 0..n {
        let mut j = tree[k];
        while let Some(jj) = j {
            x[k] -= factor[(k, jj)] * x[jj];
            j = tree[jj];
        }
    }
    x
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
    fn a_tree_shaped_matrix_is_solved_over_its_tree() {
        // Coordinates 0 → 1 → 2 and 0 → 3 → 4: M_ij = 0 unless one is on the other's
        // chain. M = Aᵀ A + I with A the tree's own pattern is positive definite and has
        // that shape; a dense solve of the same system is the reference.
        let tree = [None, Some(0), Some(1), Some(0), Some(3)];
        let related = |i: usize, j: usize| {
            let on_chain = |a: usize, b: usize| {
                let mut k = Some(a);
                while let Some(kk) = k {
                    if kk == b {
                        return true;
                    }
                    k = tree[kk];
                }
                false
            };
            on_chain(i, j) || on_chain(j, i)
        };
        let a = nalgebra::SMatrix::<f64, 5, 5>::from_fn(|i, j| {
            if j <= i && related(i, j) {
                1.0 + (i + 2 * j) as f64 / 7.0
            } else {
                0.0
            }
        });
        let m = a.transpose() * a + nalgebra::SMatrix::<f64, 5, 5>::identity();
        for i in 0..5 {
            for j in 0..5 {
                assert_eq!(m[(i, j)] == 0.0, !related(i, j), "({i}, {j})");
            }
        }
        let x = nalgebra::SVector::<f64, 5>::new(1.0, -2.0, 0.5, 3.0, -0.25);
        let factor = MassFactor::new(m, &tree);
        assert!(matches!(factor, MassFactor::Tree(..)));
        let solved = factor.solve(m * x).unwrap();
        assert!((solved - x).norm() < 1e-13, "{solved} vs {x}");
        // Not positive definite: LU, as the dense path does.
        let indefinite = -m;
        assert!(matches!(
            MassFactor::new(indefinite, &tree),
            MassFactor::General(_)
        ));
        let solved = MassFactor::new(indefinite, &tree)
            .solve(indefinite * x)
            .unwrap();
        assert!((solved - x).norm() < 1e-12);
        // A tree of the wrong size, or a parent after its child, is not used.
        assert!(matches!(
            MassFactor::new(m, &tree[..4]),
            MassFactor::Cholesky(_)
        ));
        let backwards = [None, Some(2), None, Some(0), Some(3)];
        assert!(matches!(
            MassFactor::new(m, &backwards),
            MassFactor::Cholesky(_)
        ));
        // Nor a tree the matrix does not have (M_31 ≠ 0 is off 3's chain, 3 → 0): the
        // dense solve gives the solution.
        let mut coupled = m;
        coupled[(3, 1)] = 0.5;
        coupled[(1, 3)] = 0.5;
        let wrong = MassFactor::new(coupled, &tree);
        assert!(matches!(wrong, MassFactor::Cholesky(_)));
        let solved = wrong.solve(coupled * x).unwrap();
        assert!((solved - x).norm() < 1e-13);
        // Off the chains a NaN is not zero, −0 is; on a chain any value is allowed.
        assert!(has_shape(&m, &tree));
        for (value, shaped) in [(f64::NAN, false), (-0.0, true), (f64::INFINITY, false)] {
            let mut off = m;
            off[(4, 1)] = value;
            assert_eq!(has_shape(&off, &tree), shaped, "{value}");
        }
        let mut on = m;
        on[(4, 0)] = f64::NAN;
        assert!(has_shape(&on, &tree));
    }

    #[test]
    fn columns_are_solved_together_as_one_at_a_time() {
        // A tree-shaped, a dense positive definite and an indefinite matrix; three
        // right-hand sides each.
        let tree = [None, Some(0), Some(0)];
        let shaped = nalgebra::Matrix3::new(4.0, 1.0, 0.5, 1.0, 3.0, 0.0, 0.5, 0.0, 2.0);
        let dense = nalgebra::Matrix3::new(4.0, 1.0, 0.5, 1.0, 3.0, 0.7, 0.5, 0.7, 2.0);
        let indefinite = nalgebra::Matrix3::new(0.0, 1.0, 2.0, 1.0, 0.0, 3.0, 2.0, 3.0, 1.0);
        let b = nalgebra::Matrix3::new(1.0, -2.0, 0.3, 0.7, 5.0, -1.1, 2.5, 0.25, 9.0);
        for (m, tree) in [(shaped, &tree[..]), (dense, &[]), (indefinite, &[])] {
            let factor = MassFactor::new(m, tree);
            let mut together = b.transpose();
            factor.solve_rows(together.as_mut_slice(), 3).unwrap();
            for j in 0..3 {
                let alone = factor.solve(b.column(j).into_owned()).unwrap();
                for i in 0..3 {
                    let (a, b) = (together[(j, i)], alone[i]);
                    assert!((a - b).abs() <= 4.0 * f64::EPSILON * b.abs(), "{a} {b}");
                }
            }
        }
        assert!(matches!(
            MassFactor::new(shaped, &tree),
            MassFactor::Tree(..)
        ));
        assert!(matches!(
            MassFactor::new(indefinite, &[]),
            MassFactor::General(_)
        ));
    }

    #[test]
    fn singular_matrix_is_none() {
        let m = Matrix2::new(1.0, 2.0, 2.0, 4.0);
        assert!(solve_mass_matrix(m, Vector2::new(1.0, 1.0)).is_none());
    }
}
