//! The kinetic foci of the start along a motion (Thomson & Tait §§356–358; conjugate
//! points): where the neighbouring motions from `q₀` under the same condition meet the
//! motion again. Under the time condition they are the zeros of `det ∂q(t)/∂q̇₀`; under
//! the energy condition, of the same Jacobian bordered by the velocity `q̇(t)` (a shift in
//! time) and by `∂h/∂q̇₀` (the variations that keep the energy).

use nalgebra::{DMatrix, DefaultAllocator, Dim, OVector};

use super::Condition;
use super::flow::Point;
use crate::error::Error;
use crate::size::DimAllocator;
use crate::system::LagrangianSystem;

/// Bisections of a step that contains a focus.
const BISECTIONS: usize = 60;

/// The foci found along a motion, step by step.
pub(super) struct Foci<'s, S, N: Dim>
where
    DefaultAllocator: DimAllocator<N>,
{
    system: &'s S,
    condition: Condition,
    /// `∂h/∂q̇₀`, for the energy condition.
    energy_gradient: OVector<f64, N>,
    /// The focus function at the last point after the start where it was not zero.
    previous: Option<f64>,
    /// The foci, in time order.
    pub times: Vec<f64>,
}

impl<'s, S: LagrangianSystem<N>, N: Dim> Foci<'s, S, N>
where
    DefaultAllocator: DimAllocator<N>,
{
    pub(super) fn new(
        system: &'s S,
        condition: Condition,
        energy_gradient: OVector<f64, N>,
    ) -> Self {
        Foci {
            system,
            condition,
            energy_gradient,
            previous: None,
            times: Vec::new(),
        }
    }

    /// The function whose zeros are the foci, at `point`.
    fn function(&self, point: &Point<N>) -> f64 {
        let n = point.q.len();
        match self.condition {
            Condition::Time(_) => {
                DMatrix::from_column_slice(n, n, point.q_v.as_slice()).determinant()
            }
            Condition::Energy(_) => {
                let mut b = DMatrix::zeros(n + 1, n + 1);
                b.view_mut((0, 0), (n, n))
                    .copy_from_slice(point.q_v.as_slice());
                b.view_mut((0, n), (n, 1))
                    .copy_from_slice(point.qd.as_slice());
                b.view_mut((n, 0), (1, n))
                    .copy_from_slice(self.energy_gradient.as_slice());
                b.determinant()
            }
        }
    }

    /// Looks for a focus in the step from `before` to `after`. The start itself, where the
    /// motions from `q₀` all meet, is not one.
    pub(super) fn visit(&mut self, before: &Point<N>, after: &Point<N>) -> Result<(), Error> {
        let value = self.function(after);
        if value == 0.0 {
            self.times.push(after.t);
            return Ok(());
        }
        if let Some(previous) = self.previous
            && previous.signum() != value.signum()
        {
            self.times.push(self.bisect(before, after, previous)?);
        }
        self.previous = Some(value);
        Ok(())
    }

    /// The time of the zero in the step from `before` (where the function is `at_before`
    /// or, just after the start, of that sign) to `after`, by bisection on shorter steps
    /// from `before`.
    fn bisect(&self, before: &Point<N>, after: &Point<N>, at_before: f64) -> Result<f64, Error> {
        let (mut low, mut high) = (0.0, after.t - before.t);
        for _ in 0..BISECTIONS {
            let mid = 0.5 * (low + high);
            if mid <= low || mid >= high {
                break;
            }
            let value = self.function(&before.step(self.system, mid)?);
            if value.signum() == at_before.signum() {
                low = mid;
            } else {
                high = mid;
            }
        }
        Ok(before.t + 0.5 * (low + high))
    }
}
