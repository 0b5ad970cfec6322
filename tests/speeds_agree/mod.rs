//! Maggi's equations against the multipliers, shared by the tests of velocity
//! constraints (`nonholonomic.rs`) and of rolling bodies (`rolling.rs`).

use lagrange::nalgebra::Const;
use lagrange::nalgebra::{DVector, SVector};
use lagrange::{ConstrainedSystem, IndependentSpeeds};

/// Pseudo-random numbers in `[−1, 1)` (a fixed sequence, so failures repeat).
pub struct Sample(u64);

impl Sample {
    pub fn next(&mut self) -> f64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        (self.0 >> 11) as f64 / (1u64 << 52) as f64 - 1.0
    }
}

/// At random configurations (`configuration` draws one) and random independent speeds:
/// the velocities `B u + b₀` keep every constraint, Kane's generalized inertia is
/// symmetric, and Maggi's accelerations are the multipliers' to `10⁻¹¹` relative.
pub fn maggi_agrees<S: ConstrainedSystem<Const<N>, Const<K>>, const N: usize, const K: usize>(
    system: &S,
    independent: &[&str],
    configuration: impl Fn(&mut Sample) -> SVector<f64, N>,
) {
    let speeds = IndependentSpeeds::named(system, independent).unwrap();
    let mut sample = Sample(0x9E37_79B9_7F4A_7C15);
    for _ in 0..20 {
        let t = sample.next();
        let q = configuration(&mut sample);
        let basis = speeds.basis(system, t, &q).unwrap();
        let u = DVector::from_fn(N - K, |_, _| 3.0 * sample.next());
        let qd =
            SVector::<f64, N>::from_column_slice((&basis.basis * u + &basis.offset).as_slice());
        system.check_consistent(t, &q, &qd, 1e-12).unwrap();
        let inertia = speeds.generalized_inertia(system, t, &q, &qd).unwrap();
        assert!((&inertia - inertia.transpose()).amax() <= 1e-12 * inertia.amax());
        let maggi = speeds.accelerations(system, t, &q, &qd).unwrap();
        let multipliers = system.constrained_motion(t, &q, &qd).unwrap().accelerations;
        let scale = multipliers.amax().max(1.0);
        assert!(
            (maggi - multipliers).amax() <= 1e-11 * scale,
            "{}: Maggi {maggi:?} against the multipliers' {multipliers:?}",
            system.info().name
        );
    }
}
