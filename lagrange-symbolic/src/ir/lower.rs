//! Expressions as written, lowered to programs without the engine: each node of an
//! [`Expr`] becomes the traced operation ([`super::trace`]) that computes it, so an
//! expression evaluated at run time (a signal, an event, a reference equation) goes
//! through the one walk of [`super::emit`] like every derived program.
//!
//! The functions without an instruction are spelled in those that have one: `tan x` as
//! `sin x · (cos x)⁻¹`, `sinh x` and `cosh x` as `½(eˣ ∓ e⁻ˣ)` (as the engine defines
//! them), `tanh x` as `1 − 2 (e²ˣ + 1)⁻¹` (finite for every `x`, where the quotient of
//! the two sums overflows past |x| ≈ 710).

use super::trace::{Tracer, Value};
use super::{Intrinsic, Program, Slot};
use crate::syntax::{Expr, Func, PI};

/// One program over `inputs` input slots whose output `i` is `exprs[i]`; `slot` gives the
/// input each name, velocity and acceleration is read from (`pi` is π). The error is the
/// first leaf without a slot.
pub fn program(
    exprs: &[Expr],
    inputs: usize,
    slot: &impl Fn(&Expr) -> Option<usize>,
) -> Result<Program, Expr> {
    let mut t = Tracer::new(inputs);
    let leaf = |e: &Expr| {
        slot(e)
            .filter(|&i| i < inputs)
            .map(|i| Value::At(Slot::Input(i)))
    };
    let outputs = exprs
        .iter()
        .map(|e| trace(&mut t, e, &leaf))
        .collect::<Result<Vec<Value>, Expr>>()?;
    Ok(t.finish(&outputs))
}

/// `e` as operations recorded in `t`, with `leaf` giving the value of each name, velocity
/// and acceleration (`pi` is π). The error is the first leaf without a value.
pub fn trace(
    t: &mut Tracer,
    e: &Expr,
    leaf: &impl Fn(&Expr) -> Option<Value>,
) -> Result<Value, Expr> {
    let each = |xs: &[Expr], t: &mut Tracer| {
        xs.iter()
            .map(|x| trace(t, x, leaf))
            .collect::<Result<Vec<_>, _>>()
    };
    Ok(match e {
        Expr::Number(r) => Value::Number(r.to_f64()),
        Expr::Name(n) if n == PI => Value::Number(std::f64::consts::PI),
        Expr::Name(_) | Expr::Velocity(_) | Expr::Acceleration(_) => {
            leaf(e).ok_or_else(|| e.clone())?
        }
        Expr::Neg(a) => {
            let a = trace(t, a, leaf)?;
            t.neg(a)
        }
        Expr::Add(terms) => {
            let terms = each(terms, t)?;
            t.sum(terms)
        }
        Expr::Mul(factors) => {
            let factors = each(factors, t)?;
            factors.into_iter().fold(Value::ONE, |acc, x| t.mul(acc, x))
        }
        Expr::Div(a, b) => {
            let (a, b) = (trace(t, a, leaf)?, trace(t, b, leaf)?);
            let reciprocal = t.powi(b, -1);
            t.mul(a, reciprocal)
        }
        Expr::Pow(a, b) => {
            let base = trace(t, a, leaf)?;
            match **b {
                Expr::Number(r) if r.den == 1 && i32::try_from(r.num).is_ok() => {
                    t.powi(base, r.num as i32)
                }
                _ => {
                    let exponent = trace(t, b, leaf)?;
                    t.powf(base, exponent)
                }
            }
        }
        Expr::Call(f, a) => {
            let x = trace(t, a, leaf)?;
            call(t, *f, x)
        }
    })
}

/// `f(x)` in the functions the IR has.
fn call(t: &mut Tracer, f: Func, x: Value) -> Value {
    let exponentials = |t: &mut Tracer| {
        let minus_x = t.neg(x);
        (t.call(Intrinsic::Exp, x), t.call(Intrinsic::Exp, minus_x))
    };
    match f {
        Func::Sin => t.call(Intrinsic::Sin, x),
        Func::Cos => t.call(Intrinsic::Cos, x),
        Func::Exp => t.call(Intrinsic::Exp, x),
        Func::Log => t.call(Intrinsic::Log, x),
        Func::Sqrt => t.call(Intrinsic::Sqrt, x),
        Func::Tan => {
            let (sin, cos) = (t.call(Intrinsic::Sin, x), t.call(Intrinsic::Cos, x));
            let secant = t.powi(cos, -1);
            t.mul(sin, secant)
        }
        Func::Sinh | Func::Cosh => {
            let (up, down) = exponentials(t);
            let down = if f == Func::Sinh { t.neg(down) } else { down };
            let sum = t.add(up, down);
            t.mul(Value::Number(0.5), sum)
        }
        Func::Tanh => {
            let two_x = t.mul(Value::Number(2.0), x);
            let up = t.call(Intrinsic::Exp, two_x);
            let denominator = t.add(up, Value::ONE);
            let reciprocal = t.powi(denominator, -1);
            let fraction = t.mul(Value::Number(-2.0), reciprocal);
            t.add(Value::ONE, fraction)
        }
    }
}

/// The value of `e` when it names nothing but numbers and `pi`; the error is its first
/// other leaf.
pub fn number(e: &Expr) -> Result<f64, Expr> {
    let program = program(std::slice::from_ref(e), 0, &|_| None)?;
    let mut out = [0.0];
    program.evaluate(&[], &mut out);
    Ok(out[0])
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The value of `source` with `x = 2`, `dot(x) = 3`, `ddot(x) = −1`.
    fn value(source: &str) -> Result<f64, Expr> {
        let slot = |e: &Expr| match e {
            Expr::Name(n) if n == "x" => Some(0),
            Expr::Velocity(q) if q == "x" => Some(1),
            Expr::Acceleration(q) if q == "x" => Some(2),
            _ => None,
        };
        let expr = Expr::parse(source).unwrap();
        let program = program(&[expr], 3, &slot)?;
        let mut out = [0.0];
        program.evaluate(&[2.0, 3.0, -1.0], &mut out);
        Ok(out[0])
    }

    #[test]
    fn lowering_follows_the_grammar() {
        assert_eq!(value("-x^2 + 1/2*dot(x)"), Ok(-2.5));
        assert_eq!(value("2^3^2"), Ok(512.0));
        assert_eq!(value("x*ddot(x) - 6/x"), Ok(-5.0));
        assert_eq!(value("(-x)^3"), Ok(-8.0));
        assert_eq!(value("sqrt(x^2) + exp(0) + log(1)"), Ok(3.0));
        assert_eq!(value("x^(1/2)"), Ok(2f64.sqrt()));
        assert!((value("sin(pi/2)*cos(0) + tan(0)").unwrap() - 1.0).abs() < 1e-15);
        assert_eq!(value("x + y*dot(x)"), Err(Expr::Name("y".into())));
        assert_eq!(value("dot(y)"), Err(Expr::Velocity("y".into())));
    }

    #[test]
    fn functions_without_an_instruction_match_the_library() {
        // Reference: Rust's own `tan`, `sinh`, `cosh`, `tanh`, within a few ulps of each.
        for x in [-3.0f64, -0.7, 0.0, 0.2, 1.0, 2.5] {
            let at = |f: &str| value(&format!("{f}({x}*x/2)")).unwrap();
            let close = |a: f64, b: f64| (a - b).abs() <= 1e-14 * (1.0 + b.abs());
            assert!(close(at("tan"), x.tan()), "tan({x})");
            assert!(close(at("sinh"), x.sinh()), "sinh({x})");
            assert!(close(at("cosh"), x.cosh()), "cosh({x})");
            assert!(close(at("tanh"), x.tanh()), "tanh({x})");
        }
        // tanh stays finite where e^x overflows.
        assert_eq!(value("tanh(400*x)"), Ok(1.0));
        assert_eq!(value("tanh(-400*x)"), Ok(-1.0));
    }

    #[test]
    fn numbers_alone_need_no_inputs() {
        assert_eq!(number(&Expr::parse("sqrt(1/4) + 2^-1").unwrap()), Ok(1.0));
        assert_eq!(
            number(&Expr::parse("1 + a").unwrap()),
            Err(Expr::Name("a".into()))
        );
    }
}
