//! The bounds a model expression must keep before the engine sees it, so that no input
//! makes the engine abort, hang or silently drop a term:
//! - its shape after the positions of particles and bodies are substituted (the
//!   parser's [`MAX_DEPTH`](crate::syntax::MAX_DEPTH) and
//!   [`MAX_NODES`](crate::syntax::MAX_NODES));
//! - its degree: a power `a^n` counts `|n|` times the degree of `a`, a product the sum of
//!   its factors' degrees, at most [`MAX_DEGREE`] (`x^10000` took the engine 47 s,
//!   `x^2147483648` aborted it on a 34 GB allocation);
//! - its constant subexpressions: each must have a defined, real, finite value (`0^0`,
//!   `0^-1`, `1/0`, `log(0)`, `sqrt(-1)`, `0^x` are errors: `0^0` made the engine drop a
//!   whole potential), an exact power of a number at most [`MAX_CONSTANT_BITS`] bits
//!   before it is computed (`2^(2^40)` panicked inside the engine), and an exact constant
//!   within `i128`, the range of the printed equations' numbers.

use crate::syntax::print::excerpt;
use crate::syntax::{Expr, Func, PI, Rational};

/// The highest degree of an expression in its variables (a function call counts 1).
pub const MAX_DEGREE: u64 = 100;

/// The most bits of an exact constant power `a^n` (about 1,200 decimal digits).
pub const MAX_CONSTANT_BITS: f64 = 4096.0;

/// The value of a constant subexpression: exact, or a float once `pi` or a function is
/// involved (or an exact result would overflow `i128`).
#[derive(Debug, Clone, Copy)]
enum Value {
    Exact(Rational),
    Real(f64),
    /// An exact number beyond `i128`, which the equations could not print.
    Overflow,
}

impl Value {
    fn to_f64(self) -> f64 {
        match self {
            Value::Exact(r) => r.to_f64(),
            Value::Real(x) => x,
            Value::Overflow => f64::INFINITY,
        }
    }

    /// Zero (a sine, cosine or tangent within round-off of zero is made exactly zero).
    fn is_zero(self) -> bool {
        match self {
            Value::Exact(r) => r.num == 0,
            Value::Real(x) => x == 0.0,
            Value::Overflow => false,
        }
    }

    /// `exact(a, b)` when both are exact ([`Value::Overflow`] beyond `i128`), else
    /// `real(a, b)`.
    fn combine(
        self,
        other: Value,
        exact: impl Fn(Rational, Rational) -> Option<Rational>,
        real: impl Fn(f64, f64) -> f64,
    ) -> Value {
        match (self, other) {
            (Value::Exact(a), Value::Exact(b)) => exact(a, b).map_or(Value::Overflow, Value::Exact),
            (Value::Overflow, _) | (_, Value::Overflow) => Value::Overflow,
            _ => Value::Real(real(self.to_f64(), other.to_f64())),
        }
    }
}

/// `num / den` reduced, or `None` when a part is `i128::MIN` (whose negation overflows).
fn checked_rational(num: Option<i128>, den: Option<i128>) -> Option<Rational> {
    let (num, den) = (num?, den?);
    (num != i128::MIN && den != i128::MIN && den != 0).then(|| Rational::new(num, den))
}

fn add(a: Rational, b: Rational) -> Option<Rational> {
    let num = a
        .num
        .checked_mul(b.den)
        .and_then(|x| x.checked_add(b.num.checked_mul(a.den)?));
    checked_rational(num, a.den.checked_mul(b.den))
}

fn mul(a: Rational, b: Rational) -> Option<Rational> {
    checked_rational(a.num.checked_mul(b.num), a.den.checked_mul(b.den))
}

/// `a^n` for a nonzero `a` (zero to a power `n ≤ 0` is rejected before).
fn pow(a: Rational, n: i128) -> Option<Rational> {
    let k = u32::try_from(n.unsigned_abs()).ok()?;
    let (num, den) = (a.num.checked_pow(k), a.den.checked_pow(k));
    if n >= 0 {
        checked_rational(num, den)
    } else {
        checked_rational(den, num)
    }
}

/// What the walk learns about a subexpression.
struct Facts {
    /// Its value, when it is constant.
    value: Option<Value>,
    /// Its degree (saturating).
    degree: u64,
}

/// The problems of `e` against the bounds, each a sentence naming the offending
/// subexpression; `what` names the item (`the potential energy`).
pub(super) fn problems(e: &Expr, what: &str) -> Vec<String> {
    if let Err(shape) = e.check_shape() {
        return vec![format!(
            "{what}, with the positions of particles and bodies substituted: {shape}"
        )];
    }
    let mut walk = Walk {
        what,
        problems: Vec::new(),
    };
    walk.facts(e);
    walk.problems
}

struct Walk<'a> {
    what: &'a str,
    problems: Vec<String>,
}

impl Walk<'_> {
    fn fail(&mut self, e: &Expr, why: &str) {
        let message = format!("{} has `{}`: {why}", self.what, excerpt(e));
        if !self.problems.contains(&message) {
            self.problems.push(message);
        }
    }

    /// A constant's value, rejected (as `None`) when it is not finite or beyond the
    /// exact numbers.
    fn finite(&mut self, e: &Expr, value: Value) -> Option<Value> {
        match value {
            Value::Overflow => {
                self.fail(e, "it is an exact number beyond ±1.7·10^38 (i128), which the equations cannot print");
                None
            }
            _ if value.to_f64().is_finite() => Some(value),
            _ => {
                self.fail(e, "its value overflows a 64-bit float");
                None
            }
        }
    }

    /// The facts of `e`; recursion is safe, the tree's depth is bounded.
    fn facts(&mut self, e: &Expr) -> Facts {
        let constant = |value| Facts { value, degree: 0 };
        let variable = |degree| Facts {
            value: None,
            degree,
        };
        match e {
            Expr::Number(r) => constant(Some(Value::Exact(*r))),
            Expr::Name(n) if n == PI => constant(Some(Value::Real(std::f64::consts::PI))),
            Expr::Name(_) | Expr::Velocity(_) | Expr::Acceleration(_) => variable(1),
            Expr::Neg(a) => {
                let a = self.facts(a);
                let value = a.value.map(|v| match v {
                    Value::Exact(r) => checked_rational(r.num.checked_neg(), Some(r.den))
                        .map_or(Value::Overflow, Value::Exact),
                    Value::Real(x) => Value::Real(-x),
                    Value::Overflow => Value::Overflow,
                });
                let value = value.and_then(|v| self.finite(e, v));
                Facts { value, ..a }
            }
            Expr::Add(terms) | Expr::Mul(terms) => {
                let is_sum = matches!(e, Expr::Add(_));
                let facts: Vec<Facts> = terms.iter().map(|t| self.facts(t)).collect();
                let degree = if is_sum {
                    facts.iter().map(|f| f.degree).max().unwrap_or(0)
                } else {
                    facts.iter().map(|f| f.degree).fold(0, u64::saturating_add)
                };
                let parts_within = facts.iter().all(|f| f.degree <= MAX_DEGREE);
                if degree > MAX_DEGREE && parts_within {
                    self.fail(e, &degree_problem(degree));
                }
                let values: Option<Vec<Value>> = facts.iter().map(|f| f.value).collect();
                let value = values.and_then(|values| {
                    type Exact = fn(Rational, Rational) -> Option<Rational>;
                    let (start, exact, real): (Value, Exact, fn(f64, f64) -> f64) = if is_sum {
                        (Value::Exact(Rational::int(0)), add, |a, b| a + b)
                    } else {
                        (Value::Exact(Rational::int(1)), mul, |a, b| a * b)
                    };
                    let total = values
                        .into_iter()
                        .fold(start, |acc, v| acc.combine(v, exact, real));
                    self.finite(e, total)
                });
                Facts { value, degree }
            }
            Expr::Div(a, b) => {
                let (fa, fb) = (self.facts(a), self.facts(b));
                if fb.value.is_some_and(Value::is_zero) {
                    self.fail(e, "a division by a constant that is zero");
                    return variable(0);
                }
                let degree = fa.degree.saturating_add(fb.degree);
                if degree > MAX_DEGREE && fa.degree <= MAX_DEGREE && fb.degree <= MAX_DEGREE {
                    self.fail(e, &degree_problem(degree));
                }
                let value = fa.value.zip(fb.value).and_then(|(x, y)| {
                    let quotient = x.combine(
                        y,
                        |p, q| mul(p, checked_rational(Some(q.den), Some(q.num))?),
                        |p, q| p / q,
                    );
                    self.finite(e, quotient)
                });
                Facts { value, degree }
            }
            Expr::Pow(a, b) => self.power(e, a, b),
            Expr::Call(f, a) => {
                let fa = self.facts(a);
                let value = fa.value.and_then(|v| self.call(e, *f, v));
                Facts {
                    value,
                    degree: if fa.degree == 0 { 0 } else { 1 },
                }
            }
        }
    }

    fn power(&mut self, e: &Expr, a: &Expr, b: &Expr) -> Facts {
        let (fa, fb) = (self.facts(a), self.facts(b));
        let Some(n) = fb.value else {
            // A variable exponent: `2^x`, `x^y`; not of zero (its derivative holds
            // `log 0`) or of a negative number (not real).
            match fa.value.map(Value::to_f64) {
                Some(base) if base == 0.0 || fa.value.is_some_and(Value::is_zero) => self.fail(
                    e,
                    "zero to a variable power is undefined where the power is not positive",
                ),
                Some(base) if base < 0.0 => {
                    self.fail(e, "a negative number to a variable power is not real")
                }
                _ => {}
            }
            return Facts {
                value: None,
                degree: fa.degree.max(1),
            };
        };
        let exponent = n.to_f64();
        let integer = match n {
            Value::Exact(r) if r.den == 1 => Some(r.num),
            _ => None,
        };
        let Some(base) = fa.value else {
            let degree = (exponent.abs().ceil() * fa.degree as f64).min(u64::MAX as f64) as u64;
            if degree > MAX_DEGREE && fa.degree <= MAX_DEGREE {
                self.fail(e, &degree_problem(degree));
            }
            return Facts {
                value: None,
                degree,
            };
        };
        let x = base.to_f64();
        if base.is_zero() && exponent <= 0.0 {
            self.fail(e, "zero to a zero or negative power is undefined");
            return Facts {
                value: None,
                degree: 0,
            };
        }
        if x < 0.0 && integer.is_none() {
            self.fail(e, "a negative number to a fractional power is not real");
            return Facts {
                value: None,
                degree: 0,
            };
        }
        let bits = match base {
            Value::Exact(r) => {
                let bits = |k: i128| (k.unsigned_abs() as f64).log2();
                bits(r.num) + bits(r.den)
            }
            Value::Real(x) => x.abs().log2().abs(),
            Value::Overflow => f64::INFINITY,
        };
        if !base.is_zero() && exponent.abs() * bits > MAX_CONSTANT_BITS {
            self.fail(
                e,
                &format!(
                    "the power has more than {MAX_CONSTANT_BITS} bits; write a smaller constant"
                ),
            );
            return Facts {
                value: None,
                degree: 0,
            };
        }
        let value = match (base, integer) {
            (Value::Exact(r), Some(n)) => pow(r, n).map_or(Value::Overflow, Value::Exact),
            _ => Value::Real(x.powf(exponent)),
        };
        Facts {
            value: self.finite(e, value),
            degree: 0,
        }
    }

    fn call(&mut self, e: &Expr, f: Func, v: Value) -> Option<Value> {
        let x = v.to_f64();
        let undefined = match f {
            Func::Log if x <= 0.0 => Some("the logarithm of a constant that is not positive"),
            Func::Sqrt if x < 0.0 => Some("the square root of a negative constant is not real"),
            Func::Tan if x.cos().abs() < 1e-12 => Some("the tangent at a pole"),
            _ => None,
        };
        if let Some(why) = undefined {
            self.fail(e, why);
            return None;
        }
        let trigonometric = matches!(f, Func::Sin | Func::Cos | Func::Tan);
        let value = f.apply(x);
        // `sin(pi)` is 1.2e-16 in floats and 0 to the engine.
        if trigonometric && value.abs() < 1e-12 * x.abs().max(1.0) {
            return Some(Value::Exact(Rational::int(0)));
        }
        self.finite(e, Value::Real(value))
    }
}

fn degree_problem(degree: u64) -> String {
    format!(
        "its degree is {degree}; the limit is {MAX_DEGREE} (a power `a^n` counts n times the degree of `a`, a product the sum of its factors')"
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    fn problems_of(source: &str) -> Vec<String> {
        problems(&Expr::parse(source).unwrap(), "the potential energy")
    }

    #[test]
    fn undefined_constants_are_rejected() {
        for (source, why) in [
            ("sinh(y - sqrt(0^0))", "zero to a zero"),
            ("x*0^(-2)", "zero to a zero or negative"),
            ("x/(2 - 2)", "division by a constant that is zero"),
            ("x/sin(pi)", "division by a constant that is zero"),
            ("x + log(0)", "logarithm"),
            ("x*log(1 - 3)", "logarithm"),
            ("x + sqrt(-1)", "square root"),
            ("x*(-8)^(1/3)", "fractional power"),
            ("tan(pi/2)*x", "pole"),
            ("x*exp(1000)", "overflows"),
            ("x + tan(0^x)", "zero to a variable power"),
            ("-k*(2 + 2.5e-1)^50", "beyond ±1.7·10^38"),
            ("2^1000*x", "beyond ±1.7·10^38"),
            ("(-2)^x", "negative number to a variable power"),
        ] {
            let found = problems_of(source);
            assert!(found.iter().any(|p| p.contains(why)), "{source}: {found:?}");
        }
    }

    #[test]
    fn huge_powers_are_rejected() {
        for source in [
            "x^2147483648",
            "x^10000",
            "x*2^(2^40)",
            "2^2^2^2^2^2",
            "(x^20)^20",
            "(1/2)^(10^30)*x",
            "x^(10^30/7)",
        ] {
            assert!(!problems_of(source).is_empty(), "{source}");
        }
        let product = vec!["x"; 101].join("*");
        assert!(problems_of(&product)[0].contains("degree is 101"));
    }

    #[test]
    fn ordinary_expressions_pass() {
        for source in [
            "1/2*m*l^2*dot(theta)^2 - m*g*l*cos(theta)",
            "x^100 + 2^100*x + 0^2*x + (-8)^(1/3 + 2/3)*x",
            "sqrt(2)*exp(-x^2)/(1 + tanh(x)) + log(2)*x^(1/2)",
            "1/sin(x) + x^-3 + x/exp(-30) + x/(pi - 3.14159)",
        ] {
            assert_eq!(problems_of(source), Vec::<String>::new(), "{source}");
        }
    }
}
