//! SplitMix64 (Steele, Lea, Flood 2014): a tiny reproducible generator, so that every
//! check samples the same states in every build and on every machine.

use std::ops::Range;

/// The generator's state.
#[derive(Debug, Clone)]
pub struct SplitMix64(u64);

impl SplitMix64 {
    /// A generator started from `seed`.
    pub fn new(seed: u64) -> Self {
        SplitMix64(seed)
    }

    /// The next 64 random bits.
    pub fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }

    /// Uniform in `[0, 1)`, with 53 random bits.
    pub fn next_f64(&mut self) -> f64 {
        (self.next_u64() >> 11) as f64 / (1u64 << 53) as f64
    }

    /// Uniform in `[range.start, range.end)` (exactly `start` when the range is empty).
    pub fn uniform(&mut self, range: &Range<f64>) -> f64 {
        range.start + (range.end - range.start) * self.next_f64()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn matches_the_reference_sequence() {
        // First outputs of the reference implementation (Vigna's splitmix64.c) from seed 0.
        let mut rng = SplitMix64::new(0);
        assert_eq!(rng.next_u64(), 0xe220_a839_7b1d_cdaf);
        assert_eq!(rng.next_u64(), 0x6e78_9e6a_a1b9_65f4);
    }

    #[test]
    fn uniform_stays_in_range() {
        let mut rng = SplitMix64::new(42);
        for _ in 0..1000 {
            let x = rng.uniform(&(-1.5..2.5));
            assert!((-1.5..2.5).contains(&x));
        }
        assert_eq!(rng.uniform(&(3.0..3.0)), 3.0);
    }
}
