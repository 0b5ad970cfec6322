//! Expressions carried between this crate's [`Expr`] and symbolica's atoms: a checked
//! model expression in (with every undefined number caught where it appears), a derived
//! one back out with the model's names.

use symbolica::prelude::*;

use super::{Session, Sym, Var, symbol_of, var_of};
use crate::syntax::{Expr, Func, PI, Rational, TIME};

impl Session {
    /// Converts a checked model expression (names must be known).
    ///
    /// Fails when the engine's normal form of `e` holds an undefined or non-real number
    /// (`0^0`, `1/0`, `sqrt(-1)` after simplification): symbolica would carry it on as a
    /// coefficient and could drop the term it sits in when differentiating.
    pub(crate) fn expr(&self, e: &Expr) -> Result<Sym, String> {
        Ok(Sym(self.atom(e)?))
    }

    /// The atom of `e`, checked node by node: an undefined number absorbs what it is
    /// added to (`y + 0^0` is `0^0`, `exp(0^0) − exp(−0^0)` is 0), so it is caught where
    /// it appears, and the error names that subexpression.
    fn atom(&self, e: &Expr) -> Result<Atom, String> {
        let atom = self.atom_unchecked(e)?;
        match first_non_real(atom.as_view()) {
            Some(number) => Err(format!(
                "`{}` is {number} to the engine",
                crate::syntax::print::excerpt(e)
            )),
            None => Ok(atom),
        }
    }

    fn atom_unchecked(&self, e: &Expr) -> Result<Atom, String> {
        let index_of = |list: &[String], name: &str| list.iter().position(|n| n == name);
        let coordinate = |q: &str| {
            index_of(&self.names.coordinates, q).ok_or_else(|| format!("unknown coordinate `{q}`"))
        };
        Ok(match e {
            Expr::Number(r) => rational(*r),
            Expr::Name(n) if n == TIME => Atom::var(symbol_of(Var::Time)),
            Expr::Name(n) if n == PI => Atom::var(Symbol::PI),
            Expr::Name(n) => match index_of(&self.names.coordinates, n) {
                Some(i) => Atom::var(symbol_of(Var::Coordinate(i))),
                None => match index_of(&self.names.parameters, n) {
                    Some(i) => Atom::var(symbol_of(Var::Parameter(i))),
                    None => return Err(format!("unknown name `{n}`")),
                },
            },
            Expr::Velocity(q) => Atom::var(symbol_of(Var::Velocity(coordinate(q)?))),
            Expr::Acceleration(q) => Atom::var(symbol_of(Var::Acceleration(coordinate(q)?))),
            Expr::Neg(a) => -self.atom(a)?,
            Expr::Add(terms) => {
                let terms = terms
                    .iter()
                    .map(|t| self.atom(t))
                    .collect::<Result<Vec<_>, _>>()?;
                Atom::add_many(terms.iter())
            }
            Expr::Mul(factors) => {
                let factors = factors
                    .iter()
                    .map(|t| self.atom(t))
                    .collect::<Result<Vec<_>, _>>()?;
                Atom::mul_many(factors.iter())
            }
            Expr::Div(a, b) => self.atom(a)? / self.atom(b)?,
            Expr::Pow(a, b) => self.atom(a)?.pow(self.atom(b)?),
            Expr::Call(f, a) => {
                let x = self.atom(a)?;
                match f {
                    Func::Sin => x.sin(),
                    Func::Cos => x.cos(),
                    Func::Tan => x.sin() / x.cos(),
                    Func::Exp => x.exp(),
                    Func::Log => x.log(),
                    Func::Sqrt => x.sqrt(),
                    Func::Sinh => (x.exp() - (-&x).exp()) / 2,
                    Func::Cosh => (x.exp() + (-&x).exp()) / 2,
                    Func::Tanh => (x.exp() - (-&x).exp()) / (x.exp() + (-&x).exp()),
                }
            }
        })
    }

    /// Reads an expression back as a tree of this crate, with the model's names.
    pub(crate) fn to_expr(&self, s: &Sym) -> Result<Expr, String> {
        self.read(s.0.as_view())
    }

    /// Reads a symbolica expression back into an [`Expr`].
    fn read(&self, view: AtomView<'_>) -> Result<Expr, String> {
        Ok(match view {
            AtomView::Num(n) => Expr::Number(real_rational(n.get_coeff_view())?),
            AtomView::Var(v) => {
                let s = v.get_symbol();
                if s == Symbol::PI {
                    Expr::Name(PI.into())
                } else if s == Symbol::E {
                    Expr::Call(Func::Exp, Box::new(Expr::Number(Rational::int(1))))
                } else if s == symbol_of(Var::Time) {
                    Expr::Name(TIME.into())
                } else {
                    let var = var_of(s).ok_or_else(|| format!("unexpected symbol {s}"))?;
                    self.leaf(var)
                }
            }
            AtomView::Fun(f) => {
                let s = f.get_symbol();
                let func = if s == Symbol::SIN {
                    Func::Sin
                } else if s == Symbol::COS {
                    Func::Cos
                } else if s == Symbol::EXP {
                    Func::Exp
                } else if s == Symbol::LOG {
                    Func::Log
                } else if s == Symbol::SQRT {
                    Func::Sqrt
                } else {
                    return Err(format!("unexpected function {s}"));
                };
                if f.get_nargs() != 1 {
                    return Err(format!("{s} with {} arguments", f.get_nargs()));
                }
                Expr::Call(func, Box::new(self.read(f.get(0))?))
            }
            AtomView::Pow(p) => {
                let (base, exponent) = p.get_base_exp();
                // symbolica writes `exp(x)` as `𝑒^x`.
                if base == Atom::var(Symbol::E).as_view() {
                    return Ok(Expr::Call(Func::Exp, Box::new(self.read(exponent)?)));
                }
                let base = self.read(base)?;
                match self.read(exponent)? {
                    Expr::Number(Rational { num: 1, den: 2 }) => {
                        Expr::Call(Func::Sqrt, Box::new(base))
                    }
                    Expr::Number(r) if r.num < 0 => {
                        let positive = Expr::Number(Rational {
                            num: -r.num,
                            den: r.den,
                        });
                        let denominator = if positive == Expr::Number(Rational::int(1)) {
                            base
                        } else {
                            Expr::Pow(Box::new(base), Box::new(positive))
                        };
                        Expr::Div(
                            Box::new(Expr::Number(Rational::int(1))),
                            Box::new(denominator),
                        )
                    }
                    e => Expr::Pow(Box::new(base), Box::new(e)),
                }
            }
            AtomView::Mul(m) => {
                Expr::Mul(m.iter().map(|v| self.read(v)).collect::<Result<_, _>>()?)
            }
            AtomView::Add(a) => {
                Expr::Add(a.iter().map(|v| self.read(v)).collect::<Result<_, _>>()?)
            }
        })
    }

    fn leaf(&self, var: Var) -> Expr {
        let coordinate = |i: usize| self.names.coordinates[i].clone();
        match var {
            Var::Time => Expr::Name(TIME.into()),
            Var::Coordinate(i) => Expr::Name(coordinate(i)),
            Var::Velocity(i) => Expr::Velocity(coordinate(i)),
            Var::Acceleration(i) => Expr::Acceleration(coordinate(i)),
            Var::Parameter(i) => Expr::Name(self.names.parameters[i].clone()),
            Var::ConstantMomentum(j) => Expr::Name(self.names.momenta[j].clone()),
            Var::Multiplier(k) => Expr::Name(format!("lambda{k}")),
        }
    }
}

fn rational(r: Rational) -> Atom {
    let num = Atom::num(Integer::from(r.num));
    if r.den == 1 {
        num
    } else {
        num / Atom::num(Integer::from(r.den))
    }
}

/// Whether every number in `view` is a rational that [`Rational`] holds.
pub(super) fn numbers_print(view: AtomView<'_>) -> bool {
    match view {
        AtomView::Num(n) => real_rational(n.get_coeff_view()).is_ok(),
        AtomView::Var(_) => true,
        AtomView::Fun(f) => f.iter().all(numbers_print),
        AtomView::Pow(p) => {
            let (base, exponent) = p.get_base_exp();
            numbers_print(base) && numbers_print(exponent)
        }
        AtomView::Mul(m) => m.iter().all(numbers_print),
        AtomView::Add(a) => a.iter().all(numbers_print),
    }
}

/// What the first number in `view` that is undefined (`0^0`), infinite or not real is.
pub(super) fn first_non_real(view: AtomView<'_>) -> Option<&'static str> {
    match view {
        AtomView::Num(n) => non_real(n.get_coeff_view()),
        AtomView::Var(_) => None,
        AtomView::Fun(f) => f.iter().find_map(first_non_real),
        AtomView::Pow(p) => {
            let (base, exponent) = p.get_base_exp();
            first_non_real(base).or_else(|| first_non_real(exponent))
        }
        AtomView::Mul(m) => m.iter().find_map(first_non_real),
        AtomView::Add(a) => a.iter().find_map(first_non_real),
    }
}

/// What a coefficient is when it is not a finite real number (one too large for
/// [`Rational`] is still real).
fn non_real(c: CoefficientView<'_>) -> Option<&'static str> {
    match c {
        CoefficientView::Natural(_, _, 0, _) => None,
        CoefficientView::Large(_, im) if im.to_rat().is_zero() => None,
        CoefficientView::Indeterminate => Some("an undefined number (such as 0^0 or 0/0)"),
        CoefficientView::Infinity(_) => {
            Some("an infinite number (a division by zero or the log of 0)")
        }
        _ => Some("a number that is not real"),
    }
}

/// A real rational coefficient as a [`Rational`]; an error for anything else.
fn real_rational(c: CoefficientView<'_>) -> Result<Rational, String> {
    match c {
        CoefficientView::Natural(num, den, 0, _) => Ok(Rational::new(num.into(), den.into())),
        CoefficientView::Large(re, im) if im.to_rat().is_zero() => {
            let re = re.to_rat();
            let part = |x: &Integer| {
                let text = x.to_string();
                text.parse::<i128>()
                    .ok()
                    .filter(|&n| n != i128::MIN)
                    .ok_or_else(|| {
                        format!(
                            "a derived expression holds a number of {} digits, beyond the range of printed numbers (i128)",
                            text.trim_start_matches('-').len()
                        )
                    })
            };
            Ok(Rational::new(
                part(&re.numerator())?,
                part(&re.denominator())?,
            ))
        }
        other => Err(format!(
            "cannot print {}",
            non_real(other).unwrap_or("a number that is not a rational")
        )),
    }
}
