//! A constrained linearization in minimal variables: independent coordinates and
//! independent speeds, the form in which a constrained system's linearized equations are
//! usually published (a bicycle's lean and steer, Meijaard et al. 2007) and in which
//! Kane's method linearizes.

use nalgebra::{Complex, DMatrix};

use super::Linearization;
use crate::error::Error;

/// `δż = A δz + B δu` in the minimal variables `z`: the independent coordinates, then the
/// independent speeds (their velocities), in the order given to
/// [`Linearization::minimal`]. The other coordinates and velocities follow from the
/// constraints to first order.
#[derive(Debug, Clone, PartialEq)]
pub struct MinimalLinearization {
    /// Time of the state.
    pub t: f64,
    /// The independent coordinates (indices), the first entries of `z`.
    pub coordinates: Vec<usize>,
    /// The coordinates whose velocities are the independent speeds, the last entries.
    pub speeds: Vec<usize>,
    /// `A`, square, of the tangent space's dimension `2N − K − K_h`.
    pub a: DMatrix<f64>,
    /// `B`, one column per input.
    pub b: DMatrix<f64>,
}

impl Linearization {
    /// This constrained linearization in minimal variables: the `coordinates` (indices;
    /// `N − K_h` of them, the holonomic constraints fixing the rest) and the velocities
    /// of `speeds` (`N − K`, for example [`IndependentSpeeds::independent`]) parametrize
    /// the tangent space `T` of the constraints, so a tangent state is `x = T (P T)⁻¹ z`
    /// with `P` the selection of those entries, and `ż = P A x`.
    ///
    /// Errors for a linearization without a tangent space (use
    /// [`linearize_constrained`](super::linearize_constrained)), for the wrong number of
    /// variables or an index out of range, and when the variables do not parametrize the
    /// tangent space (a coordinate a holonomic constraint fixes, a speed the others
    /// determine).
    ///
    /// [`IndependentSpeeds::independent`]: crate::IndependentSpeeds::independent
    pub fn minimal(
        &self,
        coordinates: &[usize],
        speeds: &[usize],
    ) -> Result<MinimalLinearization, Error> {
        let Some(tangent) = &self.tangent else {
            return Err(Error::InvalidInput(
                "a minimal linearization needs the constraints' tangent space: use linearize_constrained".into(),
            ));
        };
        let n = self.a.nrows() / 2;
        let dimension = tangent.ncols();
        if coordinates.len() + speeds.len() != dimension {
            return Err(Error::InvalidInput(format!(
                "the tangent space has {dimension} dimensions: {} coordinates and {} speeds do not parametrize it",
                coordinates.len(),
                speeds.len()
            )));
        }
        if let Some(i) = coordinates.iter().chain(speeds).find(|&&i| i >= n) {
            return Err(Error::InvalidInput(format!(
                "coordinate index {i} is not below the {n} coordinates"
            )));
        }
        let selected: Vec<usize> = coordinates
            .iter()
            .copied()
            .chain(speeds.iter().map(|&i| n + i))
            .collect();
        let select = |m: &DMatrix<f64>| {
            DMatrix::from_fn(selected.len(), m.ncols(), |r, c| m[(selected[r], c)])
        };
        let chart = select(tangent);
        let scale = chart.amax();
        let lu = chart.lu();
        let pivots = lu.u();
        let degenerate = (0..dimension).any(|i| {
            let p = pivots[(i, i)].abs();
            p.is_nan() || p <= 1e-10 * scale
        });
        let inverse = lu.try_inverse().filter(|_| !degenerate).ok_or_else(|| {
            Error::InvalidInput(
                "these coordinates and speeds do not parametrize the constraints' tangent space: one is fixed by the others"
                    .into(),
            )
        })?;
        let states = tangent * inverse;
        Ok(MinimalLinearization {
            t: self.t,
            coordinates: coordinates.to_vec(),
            speeds: speeds.to_vec(),
            a: select(&(&self.a * &states)),
            b: select(&self.b),
        })
    }
}

impl MinimalLinearization {
    /// The eigenvalues of `A`: those of the motion on the tangent space, as
    /// [`Linearization::eigenvalues`] gives them.
    pub fn eigenvalues(&self) -> Result<Vec<Complex<f64>>, Error> {
        super::linearization::eigenvalues(self.a.clone(), self.t)
    }
}
