//! The parser of model expressions: ordinary math syntax into an [`Expr`] tree.
//!
//! Grammar: `+ - * / ^` (`^` binds tightest and is right-associative, unary minus binds
//! looser than `^`: `-x^2 = -(x^2)`), parentheses, decimal numbers, names, calls of the
//! functions in [`Func`], and `dot(q)` for the velocity of coordinate `q`.
//!
//! Limits: a source of at most [`MAX_SOURCE_BYTES`], nesting at most [`MAX_DEPTH`] levels
//! deep (parentheses, calls, signs, powers and divisions each count) and at most
//! [`MAX_NODES`] nodes, so that no recursion over an accepted tree can exhaust a stack.

use std::fmt;

use super::expr::{EXACT_POWER, Expr, Func, Rational};

/// The longest expression source, in bytes.
pub const MAX_SOURCE_BYTES: usize = 65_536;

/// The deepest nesting of an expression: of parentheses, calls, signs and powers while
/// parsing, and of the tree parsed.
pub const MAX_DEPTH: usize = 100;

/// The most nodes (numbers, names, operators, calls) of an expression tree.
pub const MAX_NODES: usize = 20_000;

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
    ///
    /// Fails beyond the limits of the module documentation, with a message that names
    /// the limit.
    pub fn parse(source: &str) -> Result<Expr, ParseError> {
        if source.len() > MAX_SOURCE_BYTES {
            return Err(ParseError {
                offset: 0,
                message: format!(
                    "the expression is {} bytes long; the limit is {MAX_SOURCE_BYTES}",
                    source.len()
                ),
            });
        }
        let mut parser = Parser {
            src: source,
            pos: 0,
            depth: 0,
        };
        let expr = parser.sum()?;
        parser.skip_space();
        if parser.pos < source.len() {
            return Err(parser.error(format!(
                "unexpected `{}`",
                super::print::excerpt_text(&parser.rest().chars().take(1).collect::<String>())
            )));
        }
        expr.check_shape()
            .map_err(|message| ParseError { offset: 0, message })?;
        Ok(expr)
    }

    /// An error when the tree is deeper than [`MAX_DEPTH`] or larger than [`MAX_NODES`];
    /// measured without recursion, so that it is safe on any tree.
    pub fn check_shape(&self) -> Result<(), String> {
        let (depth, nodes) = self.depth_and_size();
        if depth > MAX_DEPTH {
            Err(format!(
                "the expression nests {depth} levels deep; the limit is {MAX_DEPTH}"
            ))
        } else if nodes > MAX_NODES {
            Err(format!(
                "the expression has {nodes} nodes; the limit is {MAX_NODES}"
            ))
        } else {
            Ok(())
        }
    }
}

struct Parser<'a> {
    src: &'a str,
    pos: usize,
    /// Nesting of `unary` calls: every parenthesis, call, sign and exponent goes through it.
    depth: usize,
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
        // `a/b/c` nests to the left without recursion of the parser: count its levels.
        let mut levels = self.depth;
        loop {
            let nests = if self.eat('*') {
                let rhs = self.unary()?;
                let nests = !matches!(acc, Expr::Mul(_));
                acc = match acc {
                    Expr::Mul(mut factors) => {
                        factors.push(rhs);
                        Expr::Mul(factors)
                    }
                    other => Expr::Mul(vec![other, rhs]),
                };
                nests
            } else if self.eat('/') {
                acc = Expr::Div(Box::new(acc), Box::new(self.unary()?));
                true
            } else {
                break;
            };
            levels += usize::from(nests);
            if levels > MAX_DEPTH {
                return Err(self.error(format!(
                    "the expression nests more than {MAX_DEPTH} levels deep (divisions and products)"
                )));
            }
        }
        Ok(acc)
    }

    fn unary(&mut self) -> Result<Expr, ParseError> {
        if self.depth >= MAX_DEPTH {
            return Err(self.error(format!(
                "the expression nests more than {MAX_DEPTH} levels deep (parentheses, calls, signs and powers)"
            )));
        }
        self.depth += 1;
        let result = self.unary_inner();
        self.depth -= 1;
        result
    }

    fn unary_inner(&mut self) -> Result<Expr, ParseError> {
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
        Err(self.error(format!(
            "unexpected `{}`",
            super::print::excerpt_text(&c.to_string())
        )))
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
            message: format!(
                "the number is beyond the exact fractions the engine holds: numerator and denominator within 10^{EXACT_POWER} (about {EXACT_POWER} digits, 1e{EXACT_POWER} at most)"
            ),
        };
        let mantissa: i128 = format!("{int_part}{frac_part}")
            .parse()
            .map_err(|_| too_long())?;
        let scale = exponent - frac_part.len() as i32;
        if scale.unsigned_abs() > EXACT_POWER {
            return Err(too_long());
        }
        let power = 10i128.pow(scale.unsigned_abs());
        let value = if scale >= 0 {
            Rational::int(mantissa.checked_mul(power).ok_or_else(too_long)?)
        } else {
            Rational::new(mantissa, power)
        };
        Ok(Expr::Number(value))
    }
}

#[cfg(test)]
mod tests {
    use super::super::EXACT_LIMIT;
    use super::*;

    #[test]
    fn a_number_beyond_the_exact_fractions_says_where_they_end() {
        assert!(Expr::parse("1e38*x").is_ok());
        // The f64 the URDF reader scales and bounds by is the literal's.
        assert_eq!(EXACT_LIMIT as f64, 1e38);
        for text in [
            "1e39*x",
            "1e-400",
            "123456789012345678901234567890123456789012",
        ] {
            let error = Expr::parse(text).unwrap_err().to_string();
            assert!(error.contains("within 10^38"), "{text}: {error}");
        }
    }

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
    fn deep_nesting_is_an_error_not_a_stack_overflow() {
        // Each of these overflowed the stack (SIGABRT) before the limits.
        let deep = [
            format!("{}x{}", "(".repeat(100_000), ")".repeat(100_000)),
            format!("{}x", "-".repeat(200_000)),
            format!("{}x{}", "sin(".repeat(5_000), ")".repeat(5_000)),
            format!("x{}", "^x".repeat(50_000)),
            format!("x{}", "/x".repeat(200_000)),
            format!("x{}", "/x*x".repeat(100_000)),
        ];
        for source in &deep {
            let e = Expr::parse(&source[..source.len().min(MAX_SOURCE_BYTES)]).unwrap_err();
            assert!(e.message.contains("levels deep"), "{e}");
        }
        let at_limit = format!(
            "{}x{}",
            "(".repeat(MAX_DEPTH - 1),
            ")".repeat(MAX_DEPTH - 1)
        );
        assert_eq!(Expr::parse(&at_limit), Ok(name("x")));
    }

    #[test]
    fn long_and_large_sources_are_errors() {
        let long = format!("x{}", " + x".repeat(MAX_SOURCE_BYTES / 4));
        assert!(
            Expr::parse(&long)
                .unwrap_err()
                .message
                .contains("bytes long")
        );
        let wide = format!("x{}", "+x".repeat(MAX_NODES));
        assert!(Expr::parse(&wide).unwrap_err().message.contains("nodes"));
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
}
