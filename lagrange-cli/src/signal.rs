//! Expressions of a model file evaluated while a model moves: an input's signal, an
//! event's function and its reset. They are functions of `t`, the coordinates, their
//! velocities (`dot(q)`) and the parameters, evaluated on their tree (they are small and
//! the engine is not needed for them).

use lagrange_symbolic::model::Model;
use lagrange_symbolic::syntax::print::excerpt_text;
use lagrange_symbolic::syntax::{Expr, PI, TIME};

/// What a leaf of a [`Signal`] reads.
#[derive(Debug, Clone, Copy, PartialEq)]
enum Leaf {
    Time,
    Coordinate(usize),
    Velocity(usize),
    Parameter(usize),
}

/// A checked expression of `t`, `q`, `q̇` and the parameters.
#[derive(Debug, Clone)]
pub(crate) struct Signal {
    expr: Expr,
    /// Each name, velocity or `t` of `expr`, resolved once.
    leaves: Vec<(Expr, Leaf)>,
}

impl Signal {
    /// Parses `source` and resolves its names against `model`; `excluded` parameters
    /// (an input's signal may not read the inputs) are unknown names. The error is a
    /// sentence about `what` (e.g. "the signal of input `u`").
    pub(crate) fn parse(
        source: &str,
        model: &Model,
        excluded: &[String],
        what: &str,
    ) -> Result<Signal, String> {
        let expr = Expr::parse(source).map_err(|e| format!("{what} does not parse: {e}"))?;
        let mut leaves: Vec<(Expr, Leaf)> = Vec::new();
        let mut problem = None;
        let position = |names: &[String], n: &str| names.iter().position(|c| c == n);
        expr.for_each_leaf(&mut |leaf| {
            if problem.is_some() || leaves.iter().any(|(e, _)| e == leaf) {
                return;
            }
            let resolved = match leaf {
                Expr::Name(n) if n == TIME => Some(Leaf::Time),
                Expr::Name(n) if n == PI => return,
                Expr::Name(n) if excluded.contains(n) => None,
                Expr::Name(n) => position(&model.coordinates, n)
                    .map(Leaf::Coordinate)
                    .or_else(|| position(&model.parameters, n).map(Leaf::Parameter)),
                Expr::Velocity(q) => position(&model.coordinates, q).map(Leaf::Velocity),
                _ => None,
            };
            match resolved {
                Some(l) => leaves.push((leaf.clone(), l)),
                None => problem = Some(leaf.clone()),
            }
        });
        if let Some(leaf) = problem {
            let shown = match &leaf {
                Expr::Velocity(q) => format!("dot({q})"),
                Expr::Acceleration(q) => format!("ddot({q})"),
                Expr::Name(n) => n.clone(),
                _ => String::new(),
            };
            let allowed = if excluded.is_empty() {
                "`t`, a coordinate, its `dot(…)` or a parameter"
            } else {
                "`t`, a coordinate, its `dot(…)` or a parameter that is not an input"
            };
            return Err(format!(
                "unknown name `{}` in {what}: it may use {allowed}",
                excerpt_text(&shown)
            ));
        }
        Ok(Signal { expr, leaves })
    }

    /// The value at time `t`, state `(q, q̇)` and parameter values `p`.
    pub(crate) fn value(&self, t: f64, q: &[f64], qd: &[f64], p: &[f64]) -> f64 {
        let leaf = |e: &Expr| {
            self.leaves
                .iter()
                .find(|(l, _)| l == e)
                .map(|(_, l)| match *l {
                    Leaf::Time => t,
                    Leaf::Coordinate(i) => q[i],
                    Leaf::Velocity(i) => qd[i],
                    Leaf::Parameter(i) => p[i],
                })
        };
        // Every leaf was resolved by `parse`.
        self.expr.evaluate(&leaf).unwrap_or(f64::NAN)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn model() -> Model {
        Model {
            name: "Cart".into(),
            coordinates: vec!["x".into(), "theta".into()],
            parameters: vec!["k".into(), "u".into()],
            inputs: vec!["u".into()],
            ..Model::default()
        }
    }

    #[test]
    fn a_signal_reads_time_state_and_parameters() {
        let s = Signal::parse("-k*x - 2*dot(theta) + sin(pi*t)", &model(), &[], "it").unwrap();
        let value = s.value(0.25, &[1.5, 0.0], &[0.0, 0.5], &[2.0, 7.0]);
        let expected = -2.0 * 1.5 - 2.0 * 0.5 + (std::f64::consts::PI * 0.25).sin();
        assert!((value - expected).abs() < 1e-15);
    }

    #[test]
    fn unknown_and_excluded_names_are_errors() {
        let inputs = model().inputs;
        for (source, name) in [
            ("u + x", "u"),
            ("dot(k)", "dot(k)"),
            ("ddot(x)", "ddot(x)"),
            ("y", "y"),
        ] {
            let e = Signal::parse(source, &model(), &inputs, "the signal").unwrap_err();
            assert!(e.contains(&format!("`{name}`")), "{source}: {e}");
        }
        let e = Signal::parse("1 +", &model(), &[], "the signal").unwrap_err();
        assert!(e.starts_with("the signal does not parse"), "{e}");
    }
}
