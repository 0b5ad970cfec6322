//! The numeric helpers of the engine's checks: a deterministic generator of sample
//! points and a regularity test of small matrices.

/// A deterministic generator of sample values (splitmix64), so that every check sees
/// the same points in every build.
pub(crate) struct SplitMix(u64);

impl SplitMix {
    /// A generator started from `seed`.
    pub(crate) fn new(seed: u64) -> Self {
        SplitMix(seed)
    }

    /// A value uniformly in `[0, 1)`.
    pub(crate) fn unit(&mut self) -> f64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^= z >> 31;
        (z >> 11) as f64 / (1u64 << 53) as f64
    }

    /// `len` values uniformly in `[0.5, 2)`: a sample state away from zero, where
    /// degenerate values (`sin 0`, `x^0`) could hide a dependence.
    pub(crate) fn state(&mut self, len: usize) -> Vec<f64> {
        (0..len).map(|_| 0.5 + 1.5 * self.unit()).collect()
    }
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
