//! Code compiled for the wider instructions of the processor it runs on, chosen at run
//! time: a build for the target's baseline (x86-64 without AVX unless the user asks for
//! more) runs its large straight-line programs, the solve of many right-hand sides and
//! the reading out of its solutions with AVX and FMA where the processor has them.
//!
//! The result has the same bits either way: the same operations run in the same order,
//! Rust never fuses a product and a sum into one rounding on its own, the fused
//! multiply-adds a program asks for (`f64::mul_add`) round once with the FMA instruction
//! or without it (the C library's `fma`), and the vector instructions round each lane as
//! the scalar ones do. What changes is the encoding: three-operand instructions instead
//! of two-operand ones and the copies between them (the G1 humanoid's residual
//! derivatives: 40,351 instructions instead of 59,525 before its products were fused),
//! one instruction for each fused multiply-add instead of a call, and four lanes instead
//! of two in the loops.

/// `code()` compiled for AVX and FMA when the processor has both, else for the build's
/// target. Only what is inlined into `code` is compiled for them: generated programs and loops
/// pass a closure marked `#[inline(always)]`, and what it calls is `#[inline(always)]`
/// too or runs the baseline instructions.
#[inline(always)]
pub fn wide<R>(code: impl FnOnce() -> R) -> R {
    #[cfg(target_arch = "x86_64")]
    if std::arch::is_x86_feature_detected!("avx") && std::arch::is_x86_feature_detected!("fma") {
        // SAFETY: the processor has AVX and FMA, checked on the line above.
        return unsafe { with_avx_and_fma(code) };
    }
    code()
}

// The same operations in the same order: Rust never fuses a product and a sum on its
// own, and `mul_add` rounds once with or without the FMA instructions.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx,fma")]
fn with_avx_and_fma<R>(code: impl FnOnce() -> R) -> R {
    code()
}

#[cfg(test)]
mod tests {
    use super::wide;

    /// A product and a sum per step, square roots and a division: compiled for AVX (when
    /// the processor has it) they give the baseline build's bits.
    #[test]
    fn the_wide_build_has_the_baseline_bits() {
        let inputs: Vec<f64> = (1..2000).map(|i| (i as f64).sqrt() * 0.37 - 3.1).collect();
        #[inline(always)]
        fn steps(x: &[f64]) -> Vec<f64> {
            let mut acc = 0.1f64;
            x.iter()
                .map(|&v| {
                    acc = acc * v + (v * v + 1.0).sqrt() / (1.5 + acc.abs());
                    acc
                })
                .collect()
        }
        let baseline = std::hint::black_box(steps)(&inputs);
        let widened = wide(
            #[inline(always)]
            || steps(&inputs),
        );
        let bits = |v: &[f64]| v.iter().map(|x| x.to_bits()).collect::<Vec<_>>();
        assert_eq!(bits(&baseline), bits(&widened));
    }
}
