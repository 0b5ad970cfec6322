//! Expressions of a model file evaluated while a model moves: an input's signal, an
//! event's function and its reset. They are functions of `t`, the coordinates, their
//! velocities (`dot(q)`) and the parameters, lowered once into a one-output program of the
//! engine's IR (by tracing, without the engine) in the layout of the derived programs:
//! `simulate` runs it with the IR's interpreter and `generate` writes it through the IR's
//! one walk, so a generated solver computes the command's values bit for bit.
//!
//! The IR has no `tan`, `sinh`, `cosh` or `tanh`: they are lowered through `sin`, `cos`
//! and `exp` as the engine lowers them in a model's own expressions, and a quotient is a
//! product with a reciprocal.

use lagrange_symbolic::equations::Inputs;
use lagrange_symbolic::ir::trace::{Tracer, Value};
use lagrange_symbolic::ir::{Intrinsic, Program};
use lagrange_symbolic::model::Model;
use lagrange_symbolic::syntax::print::excerpt_text;
use lagrange_symbolic::syntax::{Expr, Func, PI, TIME};

/// A checked expression of `t`, `q`, `q̇` and the parameters, as a program.
#[derive(Debug, Clone)]
pub(crate) struct Signal {
    /// One output, reading `t`, `q`, `q̇` and the parameters in the layout of `inputs`.
    program: Program,
    inputs: Inputs,
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
        let inputs = Inputs {
            coordinates: model.coordinates.len(),
            parameters: model.parameters.len(),
        };
        let mut lowering = Lowering {
            model,
            excluded,
            tracer: Tracer::new(inputs.len()),
        };
        let value = lowering.lower(&expr).map_err(|leaf| {
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
            format!(
                "unknown name `{}` in {what}: it may use {allowed}",
                excerpt_text(&shown)
            )
        })?;
        let program = lowering.tracer.finish(&[value]);
        Ok(Signal { program, inputs })
    }

    /// The value at time `t`, state `(q, q̇)` and parameter values `p`.
    pub(crate) fn value(&self, t: f64, q: &[f64], qd: &[f64], p: &[f64]) -> f64 {
        let mut inputs = Vec::with_capacity(self.inputs.len());
        inputs.push(t);
        inputs.extend_from_slice(q);
        inputs.extend_from_slice(qd);
        inputs.extend_from_slice(p);
        let mut out = [0.0];
        self.program.evaluate(&inputs, &mut out);
        out[0]
    }

    /// The program (one output) and the layout of its inputs.
    pub(crate) fn program(&self) -> (&Program, Inputs) {
        (&self.program, self.inputs)
    }
}

/// An expression traced into a program, its leaves resolved against a model.
struct Lowering<'a> {
    model: &'a Model,
    excluded: &'a [String],
    tracer: Tracer,
}

impl Lowering<'_> {
    /// The input slot of a leaf: `t`, a coordinate, a velocity or a parameter that is not
    /// excluded.
    fn leaf(&self, leaf: &Expr) -> Option<Value> {
        let n = self.model.coordinates.len();
        let position = |names: &[String], name: &str| names.iter().position(|c| c == name);
        let slot = match leaf {
            Expr::Name(name) if name == TIME => 0,
            Expr::Name(name) if self.excluded.contains(name) => return None,
            Expr::Name(name) => match position(&self.model.coordinates, name) {
                Some(i) => 1 + i,
                None => 1 + 2 * n + position(&self.model.parameters, name)?,
            },
            Expr::Velocity(name) => 1 + n + position(&self.model.coordinates, name)?,
            _ => return None,
        };
        Some(self.tracer.input(slot))
    }

    /// `e` as traced operations; the error is the first leaf that does not resolve.
    fn lower(&mut self, e: &Expr) -> Result<Value, Expr> {
        Ok(match e {
            Expr::Number(r) => Value::Number(r.to_f64()),
            Expr::Name(name) if name == PI => Value::Number(std::f64::consts::PI),
            Expr::Name(_) | Expr::Velocity(_) | Expr::Acceleration(_) => {
                self.leaf(e).ok_or_else(|| e.clone())?
            }
            Expr::Neg(a) => {
                let a = self.lower(a)?;
                self.tracer.neg(a)
            }
            Expr::Add(terms) => {
                let terms = terms
                    .iter()
                    .map(|x| self.lower(x))
                    .collect::<Result<Vec<_>, _>>()?;
                self.tracer.sum(terms)
            }
            Expr::Mul(factors) => {
                let mut product = Value::ONE;
                for factor in factors {
                    let factor = self.lower(factor)?;
                    product = self.tracer.mul(product, factor);
                }
                product
            }
            Expr::Div(a, b) => {
                let (a, b) = (self.lower(a)?, self.lower(b)?);
                let reciprocal = self.tracer.powi(b, -1);
                self.tracer.mul(a, reciprocal)
            }
            Expr::Pow(a, b) => {
                let base = self.lower(a)?;
                match **b {
                    Expr::Number(r) if r.den == 1 && i32::try_from(r.num).is_ok() => {
                        self.tracer.powi(base, r.num as i32)
                    }
                    _ => {
                        let exponent = self.lower(b)?;
                        self.tracer.powf(base, exponent)
                    }
                }
            }
            Expr::Call(f, a) => {
                let x = self.lower(a)?;
                self.call(*f, x)
            }
        })
    }

    /// `f(x)` with the IR's intrinsics.
    fn call(&mut self, f: Func, x: Value) -> Value {
        let t = &mut self.tracer;
        let intrinsic = match f {
            Func::Sin => Intrinsic::Sin,
            Func::Cos => Intrinsic::Cos,
            Func::Exp => Intrinsic::Exp,
            Func::Log => Intrinsic::Log,
            Func::Sqrt => Intrinsic::Sqrt,
            Func::Tan => {
                let (sin, cos) = (t.call(Intrinsic::Sin, x), t.call(Intrinsic::Cos, x));
                let reciprocal = t.powi(cos, -1);
                return t.mul(sin, reciprocal);
            }
            Func::Sinh | Func::Cosh | Func::Tanh => {
                let minus_x = t.neg(x);
                let (plus, minus) = (t.call(Intrinsic::Exp, x), t.call(Intrinsic::Exp, minus_x));
                // `exp(x) ± exp(−x)`.
                let combine = |t: &mut Tracer, sign: f64| {
                    let signed = t.mul(Value::Number(sign), minus);
                    t.add(plus, signed)
                };
                return match f {
                    Func::Sinh => {
                        let difference = combine(t, -1.0);
                        t.mul(difference, Value::Number(0.5))
                    }
                    Func::Cosh => {
                        let sum = combine(t, 1.0);
                        t.mul(sum, Value::Number(0.5))
                    }
                    _ => {
                        let (difference, sum) = (combine(t, -1.0), combine(t, 1.0));
                        let reciprocal = t.powi(sum, -1);
                        t.mul(difference, reciprocal)
                    }
                };
            }
        };
        t.call(intrinsic, x)
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

    /// Every function and operator, against its closed form at `x = 0.7`, `θ̇ = −1.3`,
    /// `k = 2.5`: the lowerings of `tan`, the hyperbolic functions and quotients are exact
    /// to a few ulp.
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
        let e = Signal::parse("1 +", &model(), &[], "the signal").unwrap_err();
        assert!(e.starts_with("the signal does not parse"), "{e}");
    }
}
