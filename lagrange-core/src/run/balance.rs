//! The balance laws of the general theorems along a recorded run: each law's function,
//! its rate at the motion's accelerations and its right-hand side, which agree along a
//! motion.

use crate::system::Theorem;

/// One balance law along a trajectory: its function `Φ`, the rate `dΦ/dt` at the
/// motion's accelerations and the law's right-hand side, at every recorded point.
#[derive(Debug, Clone, PartialEq)]
pub struct Balance {
    /// Which theorem.
    pub theorem: Theorem,
    /// `Φ`.
    pub values: Vec<f64>,
    /// `dΦ/dt`.
    pub rates: Vec<f64>,
    /// The right-hand side.
    pub right_hand_sides: Vec<f64>,
}

impl Balance {
    /// The largest `|dΦ/dt − right-hand side|` (NaN if one is not finite).
    pub fn max_residual(&self) -> f64 {
        let mut max = 0.0f64;
        for (r, f) in self.rates.iter().zip(&self.right_hand_sides) {
            let d = (r - f).abs();
            if !d.is_finite() {
                return f64::NAN;
            }
            max = max.max(d);
        }
        max
    }

    /// The largest `|dΦ/dt|` or `|right-hand side|`: the scale of the residual.
    pub fn scale(&self) -> f64 {
        self.rates
            .iter()
            .chain(&self.right_hand_sides)
            .fold(0.0f64, |m, x| m.max(x.abs()))
    }
}

/// A plain-text table of balance laws: the law, the largest residual
/// `|dΦ/dt − right-hand side|` and the largest term, its scale.
pub fn balance_table(laws: &[Balance]) -> String {
    let width = laws
        .iter()
        .map(|b| b.theorem.law().chars().count())
        .chain([3])
        .max()
        .unwrap_or(3);
    let mut table = format!(
        "{:<width$}  {:>14}  {:>11}\n",
        "law", "max |residual|", "max |term|"
    );
    for b in laws {
        table.push_str(&format!(
            "{:<width$}  {:>14.3e}  {:>11.3e}\n",
            b.theorem.law(),
            b.max_residual(),
            b.scale()
        ));
    }
    table
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_balance_reports_its_largest_residual_and_scale() {
        let balance = Balance {
            theorem: Theorem::Virial,
            values: vec![0.0, 1.0],
            rates: vec![2.0, -4.0],
            right_hand_sides: vec![2.5, -4.0],
        };
        assert_eq!(balance.max_residual(), 0.5);
        assert_eq!(balance.scale(), 4.0);
        let broken = Balance {
            rates: vec![f64::NAN],
            right_hand_sides: vec![0.0],
            ..balance
        };
        assert!(broken.max_residual().is_nan());
    }
}
