//! Expressions as written in a model: ordinary math syntax parsed into a small tree.
//!
//! Grammar: `+ - * / ^` (`^` binds tightest and is right-associative, unary minus binds
//! looser than `^`: `-x^2 = -(x^2)`), parentheses, decimal numbers, names, calls of the
//! functions in [`Func`], and `dot(q)` for the velocity of coordinate `q`.
//! The same tree carries derived results back out of the engine for printing.

use serde::{Deserialize, Serialize};
use std::fmt;

/// An exact rational number `num / den` with `den > 0`, as in the model's literals.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Rational {
    /// Numerator.
    pub num: i128,
    /// Denominator, positive.
    pub den: i128,
}

impl Rational {
    /// The integer `n`.
    pub fn int(n: i128) -> Self {
        Rational { num: n, den: 1 }
    }

    /// The nearest `f64`.
    pub fn to_f64(self) -> f64 {
        self.num as f64 / self.den as f64
    }
}

/// An elementary function that model expressions may call.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Func {
    /// Sine.
    Sin,
    /// Cosine.
    Cos,
    /// Tangent.
    Tan,
    /// Exponential.
    Exp,
    /// Natural logarithm.
    Log,
    /// Square root.
    Sqrt,
    /// Hyperbolic sine.
    Sinh,
    /// Hyperbolic cosine.
    Cosh,
    /// Hyperbolic tangent.
    Tanh,
}

impl Func {
    /// Every function, for lookup by name.
    pub const ALL: [Func; 9] = [
        Func::Sin,
        Func::Cos,
        Func::Tan,
        Func::Exp,
        Func::Log,
        Func::Sqrt,
        Func::Sinh,
        Func::Cosh,
        Func::Tanh,
    ];

    /// The name used in model expressions.
    pub fn name(self) -> &'static str {
        match self {
            Func::Sin => "sin",
            Func::Cos => "cos",
            Func::Tan => "tan",
            Func::Exp => "exp",
            Func::Log => "log",
            Func::Sqrt => "sqrt",
            Func::Sinh => "sinh",
            Func::Cosh => "cosh",
            Func::Tanh => "tanh",
        }
    }

    /// The function with this name, if any.
    pub fn from_name(name: &str) -> Option<Func> {
        Func::ALL.into_iter().find(|f| f.name() == name)
    }
}

/// An expression tree.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub enum Expr {
    /// An exact number.
    Number(Rational),
    /// A name: a coordinate, a parameter, `t` or `pi`.
    Name(String),
    /// `dot(q)`: the velocity of coordinate `q`.
    Velocity(String),
    /// `ddot(q)`: the acceleration of coordinate `q` (only in derived equations).
    Acceleration(String),
    /// `-a`.
    Neg(Box<Expr>),
    /// `a + b + …`.
    Add(Vec<Expr>),
    /// `a * b * …`.
    Mul(Vec<Expr>),
    /// `a / b`.
    Div(Box<Expr>, Box<Expr>),
    /// `a ^ b`.
    Pow(Box<Expr>, Box<Expr>),
    /// `f(a)`.
    Call(Func, Box<Expr>),
}

/// A parse error at a byte offset of the source text.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ParseError {
    /// Byte offset in the source where the problem is.
    pub offset: usize,
    /// What is wrong.
    pub message: String,
}

impl fmt::Display for ParseError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} (at character {})", self.message, self.offset + 1)
    }
}

impl Expr {
    /// Parses a model expression.
    pub fn parse(source: &str) -> Result<Expr, ParseError> {
        let mut parser = Parser {
            src: source,
            pos: 0,
        };
        let expr = parser.sum()?;
        parser.skip_space();
        if parser.pos < source.len() {
            return Err(parser.error(format!(
                "unexpected `{}`",
                parser.rest().chars().next().unwrap_or(' ')
            )));
        }
        Ok(expr)
    }

    /// The tree with every name for which `replace` gives an expression replaced by it.
    pub fn substitute(&self, replace: &impl Fn(&str) -> Option<Expr>) -> Expr {
        let sub = |e: &Expr| Box::new(e.substitute(replace));
        match self {
            Expr::Name(n) => replace(n).unwrap_or_else(|| self.clone()),
            Expr::Number(_) | Expr::Velocity(_) | Expr::Acceleration(_) => self.clone(),
            Expr::Neg(a) => Expr::Neg(sub(a)),
            Expr::Call(f, a) => Expr::Call(*f, sub(a)),
            Expr::Add(terms) => Expr::Add(terms.iter().map(|e| e.substitute(replace)).collect()),
            Expr::Mul(factors) => {
                Expr::Mul(factors.iter().map(|e| e.substitute(replace)).collect())
            }
            Expr::Div(a, b) => Expr::Div(sub(a), sub(b)),
            Expr::Pow(a, b) => Expr::Pow(sub(a), sub(b)),
        }
    }

    /// Calls `visit` on every name, velocity and acceleration in the tree.
    pub fn for_each_leaf(&self, visit: &mut impl FnMut(&Expr)) {
        match self {
            Expr::Number(_) => {}
            Expr::Name(_) | Expr::Velocity(_) | Expr::Acceleration(_) => visit(self),
            Expr::Neg(a) | Expr::Call(_, a) => a.for_each_leaf(visit),
            Expr::Add(terms) | Expr::Mul(terms) => {
                terms.iter().for_each(|e| e.for_each_leaf(visit));
            }
            Expr::Div(a, b) | Expr::Pow(a, b) => {
                a.for_each_leaf(visit);
                b.for_each_leaf(visit);
            }
        }
    }
}

struct Parser<'a> {
    src: &'a str,
    pos: usize,
}

impl Parser<'_> {
    fn rest(&self) -> &str {
        &self.src[self.pos..]
    }

    fn error(&self, message: String) -> ParseError {
        ParseError {
            offset: self.pos,
            message,
        }
    }

    fn missing_paren(&self, opened: &str) -> ParseError {
        if self.rest().trim().is_empty() {
            self.error(format!(
                "the expression ends before the `)` that closes {opened}"
            ))
        } else {
            self.error(format!("expected `)` to close {opened}"))
        }
    }

    fn skip_space(&mut self) {
        let rest = self.rest();
        self.pos += rest.len() - rest.trim_start().len();
    }

    fn eat(&mut self, c: char) -> bool {
        self.skip_space();
        if self.rest().starts_with(c) {
            self.pos += c.len_utf8();
            true
        } else {
            false
        }
    }

    fn sum(&mut self) -> Result<Expr, ParseError> {
        let mut terms = vec![self.product()?];
        loop {
            if self.eat('+') {
                terms.push(self.product()?);
            } else if self.eat('-') {
                terms.push(Expr::Neg(Box::new(self.product()?)));
            } else {
                break;
            }
        }
        Ok(if terms.len() == 1 {
            terms.pop().unwrap_or(Expr::Number(Rational::int(0)))
        } else {
            Expr::Add(terms)
        })
    }

    fn product(&mut self) -> Result<Expr, ParseError> {
        let mut acc = self.unary()?;
        loop {
            if self.eat('*') {
                let rhs = self.unary()?;
                acc = match acc {
                    Expr::Mul(mut factors) => {
                        factors.push(rhs);
                        Expr::Mul(factors)
                    }
                    other => Expr::Mul(vec![other, rhs]),
                };
            } else if self.eat('/') {
                acc = Expr::Div(Box::new(acc), Box::new(self.unary()?));
            } else {
                break;
            }
        }
        Ok(acc)
    }

    fn unary(&mut self) -> Result<Expr, ParseError> {
        if self.eat('-') {
            return Ok(Expr::Neg(Box::new(self.unary()?)));
        }
        if self.eat('+') {
            return self.unary();
        }
        self.power()
    }

    fn power(&mut self) -> Result<Expr, ParseError> {
        let base = self.atom()?;
        if self.eat('^') {
            let exponent = self.unary()?;
            return Ok(Expr::Pow(Box::new(base), Box::new(exponent)));
        }
        Ok(base)
    }

    fn atom(&mut self) -> Result<Expr, ParseError> {
        self.skip_space();
        let start = self.pos;
        let Some(c) = self.rest().chars().next() else {
            return Err(self.error("expression ends where a value was expected".into()));
        };
        if c == '(' {
            self.pos += 1;
            let inner = self.sum()?;
            if !self.eat(')') {
                return Err(self.missing_paren("`(`"));
            }
            return Ok(inner);
        }
        if c.is_ascii_digit() || c == '.' {
            return self.number();
        }
        if c.is_alphabetic() || c == '_' {
            let len = self
                .rest()
                .find(|c: char| !(c.is_alphanumeric() || c == '_'))
                .unwrap_or(self.rest().len());
            let mut len = len;
            // `p.x`: a component of a particle's or body's position.
            let rest = &self.rest()[len..];
            if let Some(component) = rest.strip_prefix('.')
                && component.starts_with(|c: char| c.is_alphabetic())
            {
                len += 1 + component
                    .find(|c: char| !(c.is_alphanumeric() || c == '_'))
                    .unwrap_or(component.len());
            }
            let name = &self.src[start..start + len];
            self.pos += len;
            if self.eat('(') {
                return self.call(name, start);
            }
            return Ok(Expr::Name(name.to_string()));
        }
        Err(self.error(format!("unexpected `{c}`")))
    }

    fn call(&mut self, name: &str, start: usize) -> Result<Expr, ParseError> {
        let arg_start = self.pos;
        let arg = self.sum()?;
        if !self.eat(')') {
            return Err(self.missing_paren(&format!("`{name}(`")));
        }
        if name == "dot" || name == "ddot" {
            return match arg {
                Expr::Name(q) if name == "dot" => Ok(Expr::Velocity(q)),
                Expr::Name(q) => Ok(Expr::Acceleration(q)),
                _ => Err(ParseError {
                    offset: arg_start,
                    message: format!("`{name}(…)` takes the name of a coordinate"),
                }),
            };
        }
        match Func::from_name(name) {
            Some(f) => Ok(Expr::Call(f, Box::new(arg))),
            None => Err(ParseError {
                offset: start,
                message: format!(
                    "unknown function `{name}` (known: dot, {})",
                    Func::ALL.map(Func::name).join(", ")
                ),
            }),
        }
    }

    fn number(&mut self) -> Result<Expr, ParseError> {
        let start = self.pos;
        let digits = |s: &str| s.find(|c: char| !c.is_ascii_digit()).unwrap_or(s.len());
        let int_len = digits(self.rest());
        let int_part = &self.src[start..start + int_len];
        self.pos += int_len;
        let mut frac_part = "";
        if self.rest().starts_with('.') {
            self.pos += 1;
            let len = digits(self.rest());
            frac_part = &self.src[self.pos..self.pos + len];
            self.pos += len;
        }
        let mut exponent: i32 = 0;
        if self.rest().starts_with(['e', 'E']) {
            let save = self.pos;
            self.pos += 1;
            let sign = if self.rest().starts_with('-') {
                self.pos += 1;
                -1
            } else {
                if self.rest().starts_with('+') {
                    self.pos += 1;
                }
                1
            };
            let len = digits(self.rest());
            if len == 0 {
                self.pos = save;
            } else {
                let text = &self.src[self.pos..self.pos + len];
                self.pos += len;
                exponent = sign
                    * text
                        .parse::<i32>()
                        .map_err(|_| self.error("exponent too large".into()))?;
            }
        }
        if int_part.is_empty() && frac_part.is_empty() {
            return Err(ParseError {
                offset: start,
                message: "malformed number".into(),
            });
        }
        let too_long = || ParseError {
            offset: start,
            message: "number has too many digits".into(),
        };
        let mantissa: i128 = format!("{int_part}{frac_part}")
            .parse()
            .map_err(|_| too_long())?;
        let scale = exponent - frac_part.len() as i32;
        let power = 10i128
            .checked_pow(scale.unsigned_abs())
            .ok_or_else(too_long)?;
        let value = if scale >= 0 {
            Rational::int(mantissa.checked_mul(power).ok_or_else(too_long)?)
        } else {
            reduce(mantissa, power)
        };
        Ok(Expr::Number(value))
    }
}

impl Expr {
    /// The expression's value in `f64`, with `leaf` giving the value of each name,
    /// velocity and acceleration (`pi` is π unless `leaf` gives it). The error is the
    /// first leaf without a value.
    pub fn evaluate(&self, leaf: &impl Fn(&Expr) -> Option<f64>) -> Result<f64, Expr> {
        let eval = |e: &Expr| e.evaluate(leaf);
        Ok(match self {
            Expr::Number(r) => r.to_f64(),
            Expr::Name(n) if n == crate::model::PI => leaf(self).unwrap_or(std::f64::consts::PI),
            Expr::Name(_) | Expr::Velocity(_) | Expr::Acceleration(_) => {
                leaf(self).ok_or_else(|| self.clone())?
            }
            Expr::Neg(a) => -eval(a)?,
            Expr::Add(terms) => terms.iter().map(eval).sum::<Result<f64, _>>()?,
            Expr::Mul(factors) => factors.iter().map(eval).product::<Result<f64, _>>()?,
            Expr::Div(a, b) => eval(a)? / eval(b)?,
            Expr::Pow(a, b) => match **b {
                Expr::Number(r) if r.den == 1 && i32::try_from(r.num).is_ok() => {
                    eval(a)?.powi(r.num as i32)
                }
                _ => eval(a)?.powf(eval(b)?),
            },
            Expr::Call(f, a) => {
                let x = eval(a)?;
                match f {
                    Func::Sin => x.sin(),
                    Func::Cos => x.cos(),
                    Func::Tan => x.tan(),
                    Func::Exp => x.exp(),
                    Func::Log => x.ln(),
                    Func::Sqrt => x.sqrt(),
                    Func::Sinh => x.sinh(),
                    Func::Cosh => x.cosh(),
                    Func::Tanh => x.tanh(),
                }
            }
        })
    }
}

/// `num / den` in lowest terms.
pub fn reduce(num: i128, den: i128) -> Rational {
    fn gcd(a: i128, b: i128) -> i128 {
        if b == 0 { a.abs() } else { gcd(b, a % b) }
    }
    let g = gcd(num, den).max(1);
    let sign = if den < 0 { -1 } else { 1 };
    Rational {
        num: sign * num / g,
        den: sign * den / g,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn name(s: &str) -> Expr {
        Expr::Name(s.into())
    }

    #[test]
    fn precedence_and_associativity() {
        let e = Expr::parse("-a^b^2 + c*d/e").unwrap();
        let pow = Expr::Pow(
            Box::new(name("a")),
            Box::new(Expr::Pow(
                Box::new(name("b")),
                Box::new(Expr::Number(Rational::int(2))),
            )),
        );
        let prod = Expr::Div(
            Box::new(Expr::Mul(vec![name("c"), name("d")])),
            Box::new(name("e")),
        );
        assert_eq!(e, Expr::Add(vec![Expr::Neg(Box::new(pow)), prod]));
    }

    #[test]
    fn decimals_are_exact() {
        assert_eq!(
            Expr::parse("9.81").unwrap(),
            Expr::Number(Rational { num: 981, den: 100 })
        );
        assert_eq!(
            Expr::parse("2.5e3").unwrap(),
            Expr::Number(Rational::int(2500))
        );
        assert_eq!(
            Expr::parse("1e-2").unwrap(),
            Expr::Number(Rational { num: 1, den: 100 })
        );
    }

    #[test]
    fn velocities_and_calls() {
        assert_eq!(
            Expr::parse("cos(dot(q))").unwrap(),
            Expr::Call(Func::Cos, Box::new(Expr::Velocity("q".into())))
        );
    }

    #[test]
    fn dotted_names_are_components() {
        assert_eq!(
            Expr::parse("m*g*p1.z").unwrap(),
            Expr::Mul(vec![name("m"), name("g"), name("p1.z")])
        );
        // A decimal point after a number is not a component.
        assert_eq!(
            Expr::parse("x*1.5").unwrap(),
            Expr::Mul(vec![name("x"), Expr::Number(Rational { num: 3, den: 2 })])
        );
    }

    #[test]
    fn errors_point_at_the_problem() {
        let e = Expr::parse("m*(x + ").unwrap_err();
        assert_eq!(e.offset, 7);
        let e = Expr::parse("foo(x)").unwrap_err();
        assert!(e.message.contains("unknown function `foo`"), "{e}");
        assert_eq!(e.offset, 0);
        let e = Expr::parse("dot(2*x)").unwrap_err();
        assert!(e.message.contains("coordinate"), "{e}");
        let e = Expr::parse("a b").unwrap_err();
        assert_eq!(e.offset, 2);
    }

    #[test]
    fn evaluation_follows_the_grammar() {
        let leaf = |e: &Expr| match e {
            Expr::Name(n) if n == "x" => Some(2.0),
            Expr::Velocity(q) if q == "x" => Some(3.0),
            Expr::Acceleration(q) if q == "x" => Some(-1.0),
            _ => None,
        };
        let value = |s: &str| Expr::parse(s).unwrap().evaluate(&leaf);
        assert_eq!(value("-x^2 + 1/2*dot(x)"), Ok(-2.5));
        assert_eq!(value("2^3^2"), Ok(512.0));
        assert_eq!(value("x*ddot(x) - 6/x"), Ok(-5.0));
        assert_eq!(value("(-x)^3"), Ok(-8.0));
        assert_eq!(value("sqrt(x^2) + exp(0) + log(1)"), Ok(3.0));
        assert!((value("sin(pi/2)*cos(0) + tan(0)").unwrap() - 1.0).abs() < 1e-15);
        assert_eq!(
            value("sinh(0) + cosh(0) + tanh(0) + x^(1/2)"),
            Ok(1.0 + 2f64.sqrt())
        );
        assert_eq!(value("x + y*dot(x)"), Err(name("y")));
        assert_eq!(value("dot(y)"), Err(Expr::Velocity("y".into())));
    }
}
