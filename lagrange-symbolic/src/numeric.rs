//! The numeric helpers of the engine's checks: a deterministic generator of sample
//! points and a regularity test of small matrices.

pub(crate) use lagrange_common::SplitMix64;

/// `len` values uniformly in `[0.5, 2)`: a sample state away from zero, where degenerate
/// values (`sin 0`, `x^0`) could hide a dependence.
pub(crate) fn sample_state(rng: &mut SplitMix64, len: usize) -> Vec<f64> {
    (0..len).map(|_| rng.uniform(&(0.5..2.0))).collect()
}

/// Gaussian elimination with partial pivoting; regular when every pivot is well above
/// round-off relative to the matrix's size.
pub(crate) fn is_regular(m: &mut [f64], n: usize) -> bool {
    let scale = m.iter().fold(0.0f64, |a, x| a.max(x.abs()));
    if !(scale.is_finite() && scale > 0.0) {
        return false;
    }
    for col in 0..n {
        let pivot = (col..n)
            .max_by(|&a, &b| m[a * n + col].abs().total_cmp(&m[b * n + col].abs()))
            .unwrap_or(col);
        if m[pivot * n + col].abs() <= 1e-10 * scale {
            return false;
        }
        for k in 0..n {
            m.swap(col * n + k, pivot * n + k);
        }
        for row in col + 1..n {
            let factor = m[row * n + col] / m[col * n + col];
            for k in col..n {
                m[row * n + k] -= factor * m[col * n + k];
            }
        }
    }
    true
}

/// The least-squares solution of the `rows × cols` system `a x = b` (row-major) by
/// Householder reflections, or `None` when `a` has fewer rows than columns or a column
/// is dependent on the others up to round-off (the solution would not be unique).
pub(crate) fn least_squares(a: &[f64], rows: usize, cols: usize, b: &[f64]) -> Option<Vec<f64>> {
    if rows < cols || a.len() != rows * cols || b.len() != rows {
        return None;
    }
    let (mut a, mut b) = (a.to_vec(), b.to_vec());
    let scale = a.iter().fold(0.0f64, |m, x| m.max(x.abs()));
    if !(scale.is_finite() && scale > 0.0) {
        return None;
    }
    for col in 0..cols {
        let norm = (col..rows)
            .map(|r| a[r * cols + col].powi(2))
            .sum::<f64>()
            .sqrt();
        if norm <= 1e-10 * scale * (rows as f64).sqrt() {
            return None;
        }
        let alpha = if a[col * cols + col] > 0.0 {
            -norm
        } else {
            norm
        };
        // v = column − alpha e, reflected: H = I − 2 v vᵀ / vᵀv.
        let mut v: Vec<f64> = (col..rows).map(|r| a[r * cols + col]).collect();
        v[0] -= alpha;
        let vv: f64 = v.iter().map(|x| x * x).sum();
        for k in col..cols {
            let dot: f64 = (col..rows).map(|r| v[r - col] * a[r * cols + k]).sum();
            for r in col..rows {
                a[r * cols + k] -= 2.0 * dot / vv * v[r - col];
            }
        }
        let dot: f64 = (col..rows).map(|r| v[r - col] * b[r]).sum();
        for r in col..rows {
            b[r] -= 2.0 * dot / vv * v[r - col];
        }
    }
    let mut x = vec![0.0; cols];
    for row in (0..cols).rev() {
        let sum: f64 = (row + 1..cols).map(|k| a[row * cols + k] * x[k]).sum();
        x[row] = (b[row] - sum) / a[row * cols + row];
    }
    x.iter().all(|v| v.is_finite()).then_some(x)
}

/// The fraction `num/den` with `den ≤ max_den` nearest to `x`, when it is within `1e-9`
/// of `x` (relative to `max(1, |x|)`), by continued fractions.
pub(crate) fn nearby_fraction(x: f64, max_den: i64) -> Option<(i64, i64)> {
    if !x.is_finite() || x.abs() > 1e12 {
        return None;
    }
    let tolerance = 1e-9 * x.abs().max(1.0);
    let (mut h0, mut h1, mut k0, mut k1) = (0i64, 1i64, 1i64, 0i64);
    let mut rest = x;
    for _ in 0..64 {
        let a = rest.floor() as i64;
        let next = |p: i64, q: i64| a.checked_mul(p)?.checked_add(q);
        let (h, k) = (next(h1, h0)?, next(k1, k0)?);
        if k > max_den {
            return None;
        }
        if (h as f64 / k as f64 - x).abs() <= tolerance {
            return Some((h, k));
        }
        (h0, h1, k0, k1) = (h1, h, k1, k);
        let frac = rest - a as f64;
        if frac.abs() < 1e-15 {
            return None;
        }
        rest = 1.0 / frac;
    }
    None
}

#[cfg(test)]
mod tests {
    use super::{least_squares, nearby_fraction};

    #[test]
    fn least_squares_solves_an_overdetermined_consistent_system() {
        // x + y = 3, x − y = 1, 2x = 4: x = 2, y = 1.
        let a = [1.0, 1.0, 1.0, -1.0, 2.0, 0.0];
        let x = least_squares(&a, 3, 2, &[3.0, 1.0, 4.0]).unwrap();
        assert!(
            (x[0] - 2.0).abs() < 1e-14 && (x[1] - 1.0).abs() < 1e-14,
            "{x:?}"
        );
        // Dependent columns: no unique solution.
        assert!(least_squares(&[1.0, 2.0, 2.0, 4.0, 3.0, 6.0], 3, 2, &[1.0, 2.0, 3.0]).is_none());
        assert!(least_squares(&[1.0, 2.0], 1, 2, &[1.0]).is_none());
    }

    #[test]
    fn fractions_are_recognized_and_irrationals_are_not() {
        assert_eq!(nearby_fraction(0.5, 24), Some((1, 2)));
        assert_eq!(nearby_fraction(-1.0, 24), Some((-1, 1)));
        assert_eq!(nearby_fraction(-2.0 / 3.0 + 1e-13, 24), Some((-2, 3)));
        assert_eq!(nearby_fraction(0.0, 24), Some((0, 1)));
        assert_eq!(nearby_fraction(std::f64::consts::PI, 24), None);
        assert_eq!(nearby_fraction(f64::NAN, 24), None);
    }
}
