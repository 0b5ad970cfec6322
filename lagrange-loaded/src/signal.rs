//! Expressions of a model file evaluated while a model moves: an input's signal, an
//! event's function and its reset. They are functions of `t`, the coordinates, their
//! velocities (`dot(q)`) and the parameters, lowered to a program without the engine
//! ([`lagrange_symbolic::ir::lower`]) and run by the same walk as every derived program.

use lagrange_symbolic::equations::Inputs;
use lagrange_symbolic::ir::{Program, lower};
use lagrange_symbolic::model::Model;
use lagrange_symbolic::syntax::print::excerpt_text;
use lagrange_symbolic::syntax::{Expr, TIME};

/// A checked expression of `t`, `q`, `q̇` and the parameters.
#[derive(Debug, Clone)]
pub struct Signal {
    /// One output over `(t, q, q̇, p)`, the derived programs' input layout.
    program: Program,
    /// The sizes of that layout.
    inputs: Inputs,
}

impl Signal {
    /// Parses `source` and resolves its names against `model`; `excluded` parameters
    /// (an input's signal may not read the inputs) are unknown names. The error is a
    /// sentence about `what` (e.g. "the signal of input `u`").
    pub fn parse(
        source: &str,
        model: &Model,
        excluded: &[String],
        what: &str,
    ) -> Result<Signal, String> {
        let expr = Expr::parse(source).map_err(|e| format!("{what} does not parse: {e}"))?;
        let (n, parameters) = (model.coordinates.len(), model.parameters.len());
        let position = |names: &[String], x: &str| names.iter().position(|c| c == x);
        let slot = |leaf: &Expr| match leaf {
            Expr::Name(x) if x == TIME => Some(0),
            Expr::Name(x) if excluded.contains(x) => None,
            Expr::Name(x) => position(&model.coordinates, x)
                .map(|i| 1 + i)
                .or_else(|| position(&model.parameters, x).map(|k| 1 + 2 * n + k)),
            Expr::Velocity(q) => position(&model.coordinates, q).map(|i| 1 + n + i),
            _ => None,
        };
        let layout = Inputs {
            coordinates: n,
            parameters,
        };
        let problem = match lower::program(std::slice::from_ref(&expr), layout.len(), &slot) {
            // A constant part folded to infinity or NaN (`1/0`, `log(0)`, `2^2000`): the
            // engine refuses it in a model's expressions, and so is it here.
            Ok(program) if program.validate(layout.len(), 1).is_err() => {
                return Err(format!(
                    "{what} has a constant part that is not a finite number (a division by zero, the logarithm of 0, a value past the largest double): `{}`",
                    excerpt_text(source)
                ));
            }
            Ok(program) => {
                return Ok(Signal {
                    program,
                    inputs: layout,
                });
            }
            Err(leaf) => leaf,
        };
        let shown = match &problem {
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
        Err(format!(
            "unknown name `{}` in {what}: it may use {allowed}",
            excerpt_text(&shown)
        ))
    }

    /// The value at time `t`, state `(q, q̇)` and parameter values `p`.
    pub fn value(&self, t: f64, q: &[f64], qd: &[f64], p: &[f64]) -> f64 {
        let inputs: Vec<f64> = std::iter::once(t)
            .chain(q.iter().chain(qd).chain(p).copied())
            .collect();
        let mut out = [0.0];
        self.program.evaluate(&inputs, &mut out);
        out[0]
    }

    /// The program (one output) and the layout of its inputs, for `generate` to write.
    pub fn program(&self) -> (&Program, Inputs) {
        (&self.program, self.inputs)
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
    fn every_function_lowers_to_its_value() {
        let (x, w, k): (f64, f64, f64) = (0.7, -1.3, 2.5);
        let cases: [(&str, f64); 12] = [
            ("tan(x)", x.tan()),
            ("sinh(x)", x.sinh()),
            ("cosh(dot(theta))", w.cosh()),
            ("tanh(dot(theta))", w.tanh()),
            ("x / k", x / k),
            ("k^(-3)", k.powi(-3)),
            ("x^(3/2)", x.powf(1.5)),
            (
                "sqrt(k) * log(x) * exp(dot(theta))",
                k.sqrt() * x.ln() * w.exp(),
            ),
            ("-(x - k)^2", -(x - k).powi(2)),
            ("2^3^2 * x", 512.0 * x),
            ("k^x", k.powf(x)),
            ("cos(theta) + t", 1.0 + 0.5),
        ];
        for (source, expected) in cases {
            let s = Signal::parse(source, &model(), &[], "it").unwrap();
            let value = s.value(0.5, &[x, 0.0], &[0.0, w], &[k, 9.0]);
            assert!(
                (value - expected).abs() <= 4.0 * f64::EPSILON * expected.abs(),
                "{source}: {value} vs {expected}"
            );
        }
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
        for source in [
            "1/0",
            "x/0 + t",
            "log(0)",
            "sqrt(-1)",
            "2^2000",
            "exp(1000)*x",
        ] {
            let e = Signal::parse(source, &model(), &[], "the signal").unwrap_err();
            assert!(e.contains("not a finite number"), "{source}: {e}");
        }
        let e = Signal::parse("1 +", &model(), &[], "the signal").unwrap_err();
        assert!(e.starts_with("the signal does not parse"), "{e}");
    }
}
