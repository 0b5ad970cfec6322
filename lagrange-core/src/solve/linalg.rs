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
/// dense factorization; `remake` makes `M` again where it is not positive definite
/// ([`MassFactor::remade`]).
pub(crate) fn solve_accelerations<N: Dim>(
    (m, f): (OMatrix<f64, N, N>, OVector<f64, N>),
    tree: &[Option<usize>],
    remake: impl FnOnce() -> OMatrix<f64, N, N>,
    (t, q, qd): (f64, &OVector<f64, N>, &OVector<f64, N>),
) -> Result<OVector<f64, N>, Error>
where
    DefaultAllocator: DimAllocator<N>,
{
    MassFactor::remade(m, tree, remake).accelerations(f, t, q, qd)
}

/// `q̈` of `M q̈ = f` in place: `m` is `M` (`n × n`, laid out as `s` says), factorized
/// where it lies as [`MassFactor::new`] would over `tree`, and `f` becomes `q̈`, with the
/// bits [`solve_accelerations`] gives; no allocation. `false`, with `m` partly factorized
/// and `f` as given, where `M` is not positive definite: [`solve_accelerations`] then
/// needs `M` again (its LU).
pub(crate) fn accelerations_in_place(
    m: &mut [f64],
    s: Strides,
    tree: &[Option<usize>],
    f: &mut [f64],
) -> bool {
    let n = f.len();
    if has_shape_in(m, n, s, tree) {
        if !tree_factor_in(m, n, s, tree) {
            return false;
        }
        tree_substitute_in(m, s, tree, f);
    } else {
        if !cholesky_in(m, n, s) {
            return false;
        }
        substitute_in(m, s, f);
    }
    true
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
        let original = m.clone();
        Self::remade(m, tree, || original)
    }

    /// [`new`](Self::new), factorizing `m` in place and calling `remake` for `m` again
    /// only where it is not positive definite (LU then needs all of it): no copy of `m`,
    /// which at run-time sizes would be an allocation on every call.
    pub(crate) fn remade(
        m: OMatrix<f64, N, N>,
        tree: &'a [Option<usize>],
        remake: impl FnOnce() -> OMatrix<f64, N, N>,
    ) -> Self {
        if has_shape(&m, tree) {
            return match tree_factor(m, tree) {
                Some(factor) => MassFactor::Tree(factor, tree),
                None => MassFactor::General(remake()),
            };
        }
        match cholesky(m) {
            Some(l) => MassFactor::Cholesky(l),
            None => MassFactor::General(remake()),
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
    /// (entry `(i, j)` at `i·c + j`), in place: the substitutions of [`solve`](Self::solve)
    /// in its order, over strips of columns held in registers ([`Substitution`]), a row
    /// divided by its pivot as a product with the pivot's reciprocal. Each column agrees
    /// with what [`solve`](Self::solve) gives to rounding. `None` when `m` is singular.
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
        let substitution = Substitution {
            l,
            reciprocals: OVector::from_fn_generic(l.shape_generic().0, nalgebra::U1, |i, _| {
                1.0 / l[(i, i)]
            }),
            tree: tree.map(|tree| (tree, descendants(l, tree))),
        };
        // The strips, with the processor's wider instructions.
        crate::wide::wide(
            #[inline(always)]
            || substitution.run(rows, c),
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

/// The substitutions through a factor `l` (`Lᵀ D L` over `tree`, else Cholesky's `L`)
/// over rows of `c` columns, a strip of columns at a time: each strip's rows are read
/// into registers, updated and stored, every step in the order of the one-vector solve.
struct Substitution<'a, N: Dim>
where
    DefaultAllocator: DimAllocator<N>,
{
    l: &'a OMatrix<f64, N, N>,
    /// `1 / l[(i, i)]` for every row `i`.
    reciprocals: OVector<f64, N>,
    /// The tree of a tree factor, with the rows each row's `Lᵀ` step takes (its
    /// [`descendants`]); `None` for Cholesky's `L`.
    tree: Option<(&'a [Option<usize>], Descendants<N>)>,
}

impl<N: Dim> Substitution<'_, N>
where
    DefaultAllocator: DimAllocator<N>,
{
    /// Every strip of columns, as wide as the registers hold (eight vectors of four
    /// lanes), the last one narrower, and the columns beyond a multiple of four one by
    /// one.
    #[inline(always)]
    fn run(&self, rows: &mut [f64], c: usize) {
        let mut start = 0;
        while start < c {
            start += match c - start {
                32.. => self.strip::<32>(rows, c, start),
                24.. => self.strip::<24>(rows, c, start),
                16.. => self.strip::<16>(rows, c, start),
                8.. => self.strip::<8>(rows, c, start),
                4.. => self.strip::<4>(rows, c, start),
                _ => self.strip::<1>(rows, c, start),
            };
        }
    }

    /// Both triangular solves on the `W` columns from `start`; `W`.
    #[inline(always)]
    fn strip<const W: usize>(&self, rows: &mut [f64], c: usize, start: usize) -> usize {
        let (l, n, rows) = (self.l, self.l.nrows(), &mut rows[start..]);
        match &self.tree {
            Some((tree, descendants)) => {
                // Lᵀ from the last row up: each row less its descendants' rows, the last
                // first.
                let mut first = 0;
                for k in (0..n).rev() {
                    let end = first + descendants.count[k];
                    let terms = descendants.terms[first..end].iter().copied();
                    pull::<W>(rows, c, k, 1.0, terms, 1.0);
                    first = end;
                }
                // D, then L from the first row down: each row divided by its pivot, less
                // its chain's rows, the parent first.
                for k in 0..n {
                    let terms = chain(tree, k).map(|j| (j, l[(k, j)]));
                    pull::<W>(rows, c, k, self.reciprocals[k], terms, 1.0);
                }
            }
            None => {
                for i in 0..n {
                    let terms = (0..i).map(|k| (k, l[(i, k)]));
                    pull::<W>(rows, c, i, 1.0, terms, self.reciprocals[i]);
                }
                for i in (0..n).rev() {
                    let terms = (i + 1..n).map(|k| (k, l[(k, i)]));
                    pull::<W>(rows, c, i, 1.0, terms, self.reciprocals[i]);
                }
            }
        }
        W
    }
}

/// For each row `k` of a tree factor, the rows `d` whose chains pass through `k` with
/// their entries `L[(d, k)]`, from the last `d` to the first: the order in which
/// [`tree_substitute`] subtracts them from row `k`. The rows' lists follow one another
/// from the last row up, the order of the `Lᵀ` pass.
struct Descendants<N: Dim>
where
    DefaultAllocator: DimAllocator<N>,
{
    /// How many descendants each row has.
    count: OVector<usize, N>,
    terms: Vec<(usize, f64)>,
}

/// The chain of row `k` over `tree`: its parent, the parent's parent, … to the root.
#[inline(always)]
fn chain(tree: &[Option<usize>], k: usize) -> impl Iterator<Item = usize> + '_ {
    std::iter::successors(tree[k], |&j| tree[j])
}

/// The [`Descendants`] of every row of the tree factor `l`.
fn descendants<N: Dim>(l: &OMatrix<f64, N, N>, tree: &[Option<usize>]) -> Descendants<N>
where
    DefaultAllocator: DimAllocator<N>,
{
    let (dim, n) = (l.shape_generic().0, l.nrows());
    let mut count = OVector::<usize, N>::zeros_generic(dim, nalgebra::U1);
    for d in 0..n {
        for k in chain(tree, d) {
            count[k] += 1;
        }
    }
    // Where each row's list starts, from the last row up.
    let mut next = OVector::<usize, N>::zeros_generic(dim, nalgebra::U1);
    let mut total = 0;
    for k in (0..n).rev() {
        next[k] = total;
        total += count[k];
    }
    let mut terms = vec![(0, 0.0); total];
    for d in (0..n).rev() {
        for k in chain(tree, d) {
            terms[next[k]] = (d, l[(d, k)]);
            next[k] += 1;
        }
    }
    Descendants { count, terms }
}

/// Row `i` of the `W` columns at the start of `rows` (rows of `c` entries) made
/// `(row·pre − Σ coefficient · row j)·post` over `terms` in order, in registers.
#[inline(always)]
fn pull<const W: usize>(
    rows: &mut [f64],
    c: usize,
    i: usize,
    pre: f64,
    terms: impl Iterator<Item = (usize, f64)>,
    post: f64,
) {
    let mut acc = [0.0; W];
    for (a, x) in acc.iter_mut().zip(&rows[i * c..i * c + W]) {
        *a = x * pre;
    }
    for (j, coefficient) in terms {
        for (a, x) in acc.iter_mut().zip(&rows[j * c..j * c + W]) {
            *a -= coefficient * x;
        }
    }
    for (x, a) in rows[i * c..i * c + W].iter_mut().zip(acc) {
        *x = a * post;
    }
}

/// Where a square matrix stored in a slice keeps entry `(i, j)`: at `i·row + j·column`.
/// nalgebra's storage is column by column, the programs' outputs row by row; the
/// factorizations below run on either, with the same operations in the same order, so
/// with the same bits.
#[derive(Clone, Copy)]
pub(crate) struct Strides {
    row: usize,
    column: usize,
}

impl Strides {
    /// Row by row, `n` entries a row.
    pub(crate) fn rows(n: usize) -> Strides {
        Strides { row: n, column: 1 }
    }

    /// Column by column, `n` entries a column: an `OMatrix`'s slice.
    fn columns(n: usize) -> Strides {
        Strides { row: 1, column: n }
    }

    #[inline(always)]
    fn at(self, i: usize, j: usize) -> usize {
        i * self.row + j * self.column
    }
}

/// Whether `tree` is a tree of `m`'s size, each parent before its child, and every entry
/// of `m`'s lower triangle off the chains `i, λ(i), λ(λ(i)), …` is zero.
fn has_shape<N: Dim>(m: &OMatrix<f64, N, N>, tree: &[Option<usize>]) -> bool
where
    DefaultAllocator: DimAllocator<N>,
{
    let n = m.nrows();
    has_shape_in(m.as_slice(), n, Strides::columns(n), tree)
}

/// [`has_shape`] of the `n × n` matrix `m` laid out as `s` says.
#[inline]
fn has_shape_in(m: &[f64], n: usize, s: Strides, tree: &[Option<usize>]) -> bool {
    if tree.len() != n
        || tree
            .iter()
            .enumerate()
            .any(|(i, p)| p.is_some_and(|p| p >= i))
    {
        return false;
    }
    // The entries below the diagonal that are not zero (NaN included) against those on
    // the chains: equal when every one lies on a chain.
    let below: usize = (0..n)
        .map(|j| {
            (j + 1..n)
                .map(|i| usize::from(m[s.at(i, j)] != 0.0))
                .sum::<usize>()
        })
        .sum();
    let mut on_chains = 0;
    for (i, &parent) in tree.iter().enumerate() {
        let mut j = parent;
        while let Some(jj) = j {
            on_chains += usize::from(m[s.at(i, jj)] != 0.0);
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
    let n = m.nrows();
    tree_factor_in(m.as_mut_slice(), n, Strides::columns(n), tree).then_some(m)
}

/// [`tree_factor`] in place in `m` laid out as `s` says; `false` unless every pivot is
/// positive.
#[inline]
fn tree_factor_in(m: &mut [f64], n: usize, s: Strides, tree: &[Option<usize>]) -> bool {
    for k in (0..n).rev() {
        let d = m[s.at(k, k)];
        // Also rejects NaN.
        if d.partial_cmp(&0.0) != Some(std::cmp::Ordering::Greater) {
            return false;
        }
        let mut i = tree[k];
        while let Some(ii) = i {
            let a = m[s.at(k, ii)] / d;
            let mut j = Some(ii);
            while let Some(jj) = j {
                m[s.at(ii, jj)] -= a * m[s.at(k, jj)];
                j = tree[jj];
            }
            m[s.at(k, ii)] = a;
            i = tree[ii];
        }
    }
    true
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
    tree_substitute_in(
        factor.as_slice(),
        Strides::columns(n),
        tree,
        x.as_mut_slice(),
    );
    x
}

/// [`tree_substitute`] with `factor` laid out as `s` says, in place in `x`.
#[inline]
fn tree_substitute_in(factor: &[f64], s: Strides, tree: &[Option<usize>], x: &mut [f64]) {
    let n = x.len();
    for k in (0..n).rev() {
        let mut j = tree[k];
        while let Some(jj) = j {
            x[jj] -= factor[s.at(k, jj)] * x[k];
            j = tree[jj];
        }
    }
    for k in 0..n {
        x[k] /= factor[s.at(k, k)];
    }
    for k in 0..n {
        let mut j = tree[k];
        while let Some(jj) = j {
            x[k] -= factor[s.at(k, jj)] * x[jj];
            j = tree[jj];
        }
    }
}

/// `L` of `m = L Lᵀ` in the lower triangle of `m`; `None` unless every pivot is positive.
fn cholesky<N: Dim>(mut m: OMatrix<f64, N, N>) -> Option<OMatrix<f64, N, N>>
where
    DefaultAllocator: DimAllocator<N>,
{
    let n = m.nrows();
    cholesky_in(m.as_mut_slice(), n, Strides::columns(n)).then_some(m)
}

/// [`cholesky`] in place in `m` laid out as `s` says; `false` unless every pivot is
/// positive.
#[inline]
fn cholesky_in(m: &mut [f64], n: usize, s: Strides) -> bool {
    for j in 0..n {
        let mut d = m[s.at(j, j)];
        for k in 0..j {
            d -= m[s.at(j, k)] * m[s.at(j, k)];
        }
        // Also rejects NaN.
        if d.partial_cmp(&0.0) != Some(std::cmp::Ordering::Greater) {
            return false;
        }
        let d = d.sqrt();
        m[s.at(j, j)] = d;
        for i in j + 1..n {
            let mut sum = m[s.at(i, j)];
            for k in 0..j {
                sum -= m[s.at(i, k)] * m[s.at(j, k)];
            }
            m[s.at(i, j)] = sum / d;
        }
    }
    true
}

/// `x` of `L Lᵀ x = b` by the two triangular solves, `b` given in `x`.
fn substitute<N: Dim>(l: &OMatrix<f64, N, N>, mut x: OVector<f64, N>) -> OVector<f64, N>
where
    DefaultAllocator: DimAllocator<N>,
{
    let n = x.nrows();
    substitute_in(l.as_slice(), Strides::columns(n), x.as_mut_slice());
    x
}

/// [`substitute`] with `l` laid out as `s` says, in place in `x`.
#[inline]
fn substitute_in(l: &[f64], s: Strides, x: &mut [f64]) {
    let n = x.len();
    for i in 0..n {
        let mut sum = x[i];
        for k in 0..i {
            sum -= l[s.at(i, k)] * x[k];
        }
        x[i] = sum / l[s.at(i, i)];
    }
    for i in (0..n).rev() {
        let mut sum = x[i];
        for k in i + 1..n {
            sum -= l[s.at(k, i)] * x[k];
        }
        x[i] = sum / l[s.at(i, i)];
    }
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
        // A tree-shaped (0 → 1 → 2, 0 → 3 → 4, 4 → 5), a dense positive definite and an
        // indefinite matrix; 1, 3, 45, 49 and 61 right-hand sides (strips of every width:
        // 32 + 8 + 4 + 1, 32 + 16 + 1, 32 + 24 + 4 + 1 columns), each entry a different
        // number.
        let tree = [None, Some(0), Some(1), Some(0), Some(3), Some(4)];
        let chain = |i: usize| std::iter::successors(Some(i), |&k| tree[k]);
        let related = |i: usize, j: usize| chain(i).any(|k| k == j) || chain(j).any(|k| k == i);
        let pattern = nalgebra::Matrix6::from_fn(|i, j| {
            if j <= i && related(i, j) {
                1.0 + (i + 2 * j) as f64 / 7.0
            } else {
                0.0
            }
        });
        let shaped = pattern.transpose() * pattern + nalgebra::Matrix6::identity();
        let dense = shaped + nalgebra::Matrix6::from_fn(|i, j| 0.1 / (1.0 + (i + j) as f64));
        let indefinite = nalgebra::Matrix6::from_fn(|i, j| ((i * 7 + j * 5) % 11) as f64 - 5.0);
        let indefinite = indefinite + indefinite.transpose();
        for (m, tree) in [(shaped, &tree[..]), (dense, &[]), (indefinite, &[])] {
            let factor = MassFactor::new(m, tree);
            for c in [1, 3, 45, 49, 61] {
                let b = nalgebra::DMatrix::from_fn(6, c, |i, j| {
                    ((i * 13 + j * 29) % 17) as f64 / 3.0 - 2.5
                });
                let mut together = b.transpose();
                factor.solve_rows(together.as_mut_slice(), c).unwrap();
                for j in 0..c {
                    let column = nalgebra::Vector6::from_fn(|i, _| b[(i, j)]);
                    let alone = factor.solve(column).unwrap();
                    for i in 0..6 {
                        let (a, b) = (together[(j, i)], alone[i]);
                        assert!(
                            (a - b).abs() <= 64.0 * f64::EPSILON * alone.amax(),
                            "{c} columns, ({i}, {j}): {a} {b}"
                        );
                    }
                }
            }
        }
        assert!(matches!(
            MassFactor::new(shaped, &tree),
            MassFactor::Tree(..)
        ));
        assert!(matches!(
            MassFactor::new(dense, &[]),
            MassFactor::Cholesky(_)
        ));
        assert!(matches!(
            MassFactor::new(indefinite, &[]),
            MassFactor::General(_)
        ));
    }

    /// The accelerations factorize `M` in place and make it again only for LU: at
    /// run-time sizes, positive definite or not, the bits of the dense solve of a copy.
    #[test]
    fn accelerations_remake_m_only_where_it_is_not_positive_definite() {
        use nalgebra::{DMatrix, DVector};
        let state = (0.0, &DVector::zeros(2), &DVector::zeros(2));
        let f = DVector::from_vec(vec![1.0, -2.0]);
        for (m, remade) in [
            (DMatrix::from_row_slice(2, 2, &[2.0, 0.5, 0.5, 1.0]), false),
            // Cholesky fails at its second pivot, having changed the first column.
            (DMatrix::from_row_slice(2, 2, &[4.0, 6.0, 6.0, 1.0]), true),
        ] {
            let mut calls = 0;
            let remake = || {
                calls += 1;
                m.clone()
            };
            let qdd = solve_accelerations((m.clone(), f.clone()), &[], remake, state).unwrap();
            assert_eq!(calls, usize::from(remade));
            let dense = solve_mass_matrix(m.clone(), f.clone()).unwrap();
            assert_eq!(qdd.as_slice(), dense.as_slice());
            assert!((&m * &qdd - &f).norm() < 1e-14);
        }
    }

    #[test]
    fn singular_matrix_is_none() {
        let m = Matrix2::new(1.0, 2.0, 2.0, 4.0);
        assert!(solve_mass_matrix(m, Vector2::new(1.0, 1.0)).is_none());
    }
}
