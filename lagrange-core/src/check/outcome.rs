//! The outcome of a [`Check`](super::Check): per reference equation, the worst relative
//! residual and the state where it occurred, in words a reader can act on.

use std::fmt;

use crate::error::Error;

/// The state at which an equation's worst residual occurred.
#[derive(Debug, Clone, PartialEq)]
pub struct Witness {
    /// Index of the sample, in drawing order.
    pub sample: usize,
    /// Time.
    pub t: f64,
    /// Coordinates.
    pub q: Vec<f64>,
    /// Velocities.
    pub qd: Vec<f64>,
    /// The system's accelerations.
    pub qdd: Vec<f64>,
    /// Parameter values.
    pub parameters: Vec<f64>,
}

/// The worst relative residual of one reference equation.
#[derive(Debug, Clone, PartialEq)]
pub struct EquationReport {
    /// The worst relative residual (absolute where the equation's scale vanishes).
    pub worst: f64,
    /// Where it occurred.
    pub at: Witness,
}

/// The outcome of a [`Check`](super::Check).
#[derive(Debug, Clone, PartialEq)]
pub struct CheckReport {
    /// The worst relative residual over all equations and samples.
    pub worst: f64,
    /// Per reference equation, in the order the residual function returns them.
    pub equations: Vec<EquationReport>,
    /// Samples evaluated.
    pub evaluated: usize,
    /// Samples skipped because the accelerations failed there.
    pub skipped: usize,
    /// The equations that do not depend on the accelerations: their rows of `∂r/∂q̈` are
    /// zero, or (short of full rank) combinations of the earlier equations', at every
    /// sampled state. As equations of motion they check nothing.
    pub uninformative: Vec<usize>,
    pub(super) coordinates: Vec<String>,
    pub(super) parameters: Vec<String>,
}

impl CheckReport {
    /// `Ok` when every equation's worst relative residual is at most `tolerance`; otherwise
    /// [`Error::CheckFailed`] naming the worst equation and its state.
    pub fn assert_below(&self, tolerance: f64) -> Result<(), Error> {
        if tolerance.is_nan() || tolerance < 0.0 {
            return Err(Error::InvalidInput(format!(
                "tolerance must be nonnegative, got {tolerance}"
            )));
        }
        let worst = self
            .equations
            .iter()
            .enumerate()
            .filter(|(_, e)| e.worst > tolerance)
            .max_by(|(_, a), (_, b)| a.worst.total_cmp(&b.worst));
        match worst {
            None => Ok(()),
            Some((i, e)) => Err(Error::CheckFailed(format!(
                "residuals[{i}] has relative residual {:e} > {tolerance:e} at {}",
                e.worst,
                self.describe(&e.at)
            ))),
        }
    }

    /// A witness state in words, names as in the model's expressions:
    /// `sample 7 (t = 0.5, x = 1, dot(x) = 0, ddot(x) = -1, m = 2)`.
    pub fn describe(&self, w: &Witness) -> String {
        let named = |wrap: &str, names: &[String], values: &[f64]| {
            names
                .iter()
                .zip(values)
                .map(|(n, v)| {
                    if wrap.is_empty() {
                        format!(", {n} = {v}")
                    } else {
                        format!(", {wrap}({n}) = {v}")
                    }
                })
                .collect::<String>()
        };
        format!(
            "sample {} (t = {}{}{}{}{})",
            w.sample,
            w.t,
            named("", &self.coordinates, &w.q),
            named("dot", &self.coordinates, &w.qd),
            named("ddot", &self.coordinates, &w.qdd),
            named("", &self.parameters, &w.parameters)
        )
    }
}

impl fmt::Display for CheckReport {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(
            f,
            "worst relative residual {:e} over {} samples ({} skipped)",
            self.worst, self.evaluated, self.skipped
        )?;
        for (i, e) in self.equations.iter().enumerate() {
            writeln!(
                f,
                "  residuals[{i}]: {:e} at {}{}",
                e.worst,
                self.describe(&e.at),
                if self.uninformative.contains(&i) {
                    " (does not depend on the accelerations)"
                } else {
                    ""
                }
            )?;
        }
        Ok(())
    }
}
