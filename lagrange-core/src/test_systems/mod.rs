//! Hand-written systems for the tests, with textbook equations of motion, by family, and
//! the helpers their tests share.

use nalgebra::{DMatrix, SVector};

use crate::error::Error;

mod central;
mod impacts;
mod oscillators;
mod pendulums;

pub(crate) use central::{PolarParticle, RadialFall};
pub(crate) use impacts::Ball;
pub(crate) use oscillators::{BlowUp, DoubleIntegrator, Oscillator};
pub(crate) use pendulums::{CartPole, CartesianPendulum, DoublePendulum, Pendulum};

fn params<const K: usize>(values: &[f64]) -> Result<[f64; K], Error> {
    values
        .try_into()
        .map_err(|_| Error::InvalidInput(format!("expected {K} parameters, got {}", values.len())))
}

/// Central differences of `f` at `x` with step `h`, one column per component of `x`.
pub(crate) fn central_differences(
    x: &[f64],
    h: f64,
    f: impl Fn(&[f64]) -> Vec<f64>,
) -> DMatrix<f64> {
    let rows = f(x).len();
    let mut out = DMatrix::zeros(rows, x.len());
    for j in 0..x.len() {
        let step = h * (1.0 + x[j].abs());
        let (mut plus, mut minus) = (x.to_vec(), x.to_vec());
        plus[j] += step;
        minus[j] -= step;
        let (fp, fm) = (f(&plus), f(&minus));
        for i in 0..rows {
            out[(i, j)] = (fp[i] - fm[i]) / (2.0 * step);
        }
    }
    out
}

/// `(q, q̇)` from arrays.
pub(crate) fn state<const N: usize>(
    q: [f64; N],
    qd: [f64; N],
) -> (SVector<f64, N>, SVector<f64, N>) {
    (SVector::from(q), SVector::from(qd))
}
