//! The only door to symbolica.
//!
//! Everything symbolic runs inside [`session`], on a worker thread that holds the
//! per-user lock (see [`lock`]). Inside, mechanics code works with [`Sym`], an opaque
//! symbolic expression; what leaves a session is plain data of this crate: [`Expr`]
//! trees for printing and [`Program`]s for evaluation. No symbolica type crosses the
//! boundary.

mod lock;
mod lower;

use std::ops::{Add, Mul, Neg, Sub};

use symbolica::prelude::*;

use crate::ir::Program;
use crate::numeric::SplitMix;
use crate::syntax::{Expr, Func, PI, Rational, TIME};

/// A variable of the symbolic world.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Var {
    /// Time `t`.
    Time,
    /// Coordinate `i`.
    Coordinate(usize),
    /// Velocity of coordinate `i`.
    Velocity(usize),
    /// Acceleration of coordinate `i`.
    Acceleration(usize),
    /// Parameter `i`.
    Parameter(usize),
    /// The constant momentum of ignored coordinate `j` (Routh's reduction).
    ConstantMomentum(usize),
    /// The multiplier of constraint `k`.
    Multiplier(usize),
}

/// Names of coordinates and parameters, to translate [`Expr`] leaves to [`Var`]s and back.
#[derive(Debug, Clone)]
pub(crate) struct Names {
    /// Coordinate names, in order.
    pub coordinates: Vec<String>,
    /// Parameter names, in order.
    pub parameters: Vec<String>,
    /// Names of the constant momenta of ignored coordinates, in order.
    pub momenta: Vec<String>,
}

/// Runs `work` with exclusive use of symbolica; see the module documentation.
pub(crate) fn session<R: Send + 'static>(
    names: Names,
    work: impl FnOnce(&Session) -> Result<R, String> + Send + 'static,
) -> Result<R, String> {
    lock::exclusive(move || {
        register_symbols();
        work(&Session { names })
    })
    .and_then(|r| r)
}

/// Symbols registered up front, in one fixed order.
const REGISTERED: usize = 64;

/// Keeps symbolica from logging (see below) and registers the symbols of models of up to [`REGISTERED`] coordinates (and 4× as many
/// parameters) once per process, in a fixed order. Symbolica orders terms by when their
/// symbols were first created, so without this a derivation would depend on which models
/// the process derived before (the derive expands many models in one compiler process)
/// and its programs would differ in the order of operands, and in the last bits of their
/// results, between builds.
fn register_symbols() {
    static ONCE: std::sync::Once = std::sync::Once::new();
    ONCE.call_once(|| {
        // Otherwise symbolica's first warning (`0^0`, `1/0`) installs a logger that writes
        // coloured lines to standard output, into `--format json` and CSV; lagrange
        // reports those problems as errors naming the expression instead.
        symbolica::GLOBAL_SETTINGS
            .initialize_tracing
            .store(false, std::sync::atomic::Ordering::Relaxed);
        symbol_of(Var::Time);
        for i in 0..REGISTERED {
            symbol_of(Var::Coordinate(i));
        }
        for i in 0..REGISTERED {
            symbol_of(Var::Velocity(i));
        }
        for i in 0..REGISTERED {
            symbol_of(Var::Acceleration(i));
        }
        for i in 0..4 * REGISTERED {
            symbol_of(Var::Parameter(i));
        }
        for i in 0..REGISTERED {
            symbol_of(Var::ConstantMomentum(i));
        }
        for i in 0..REGISTERED {
            symbol_of(Var::Multiplier(i));
        }
    });
}

/// The context of one symbolic computation.
pub(crate) struct Session {
    names: Names,
}

/// An opaque symbolic expression; only usable inside a [`session`].
#[derive(Clone)]
pub struct Sym(Atom);

fn symbol_of(var: Var) -> Symbol {
    let name = match var {
        Var::Time => "lagrange::t".to_string(),
        Var::Coordinate(i) => format!("lagrange::q{i}"),
        Var::Velocity(i) => format!("lagrange::v{i}"),
        Var::Acceleration(i) => format!("lagrange::a{i}"),
        Var::Parameter(i) => format!("lagrange::p{i}"),
        Var::ConstantMomentum(j) => format!("lagrange::c{j}"),
        Var::Multiplier(k) => format!("lagrange::l{k}"),
    };
    symbol!(&name)
}

fn var_of(symbol: Symbol) -> Option<Var> {
    let name = symbol.get_stripped_name();
    let (kind, index) = name.split_at_checked(1)?;
    let index: usize = index.parse().ok()?;
    Some(match kind {
        "q" => Var::Coordinate(index),
        "v" => Var::Velocity(index),
        "a" => Var::Acceleration(index),
        "p" => Var::Parameter(index),
        "c" => Var::ConstantMomentum(index),
        "l" => Var::Multiplier(index),
        _ => return None,
    })
}

impl Session {
    /// The symbolic value of a variable.
    pub(crate) fn var(&self, var: Var) -> Sym {
        Sym(Atom::var(symbol_of(var)))
    }

    /// The number ½.
    pub(crate) fn half(&self) -> Sym {
        Sym(Atom::num(1) / Atom::num(2))
    }

    /// An exact integer.
    pub(crate) fn int(&self, n: i64) -> Sym {
        Sym(Atom::num(n))
    }

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

    /// Whether `e` is identically zero: structurally after expansion, or else numerically
    /// at several random points. The numeric test is a probabilistic identity test; it
    /// catches identities such as `sin² + cos² = 1`, which symbolica does not simplify.
    /// It is relative: at each point the value must be below `10⁻¹⁰` of the size of the
    /// expression's terms (so a small constant such as `6.674e-11` is not taken for
    /// zero), and it samples values of both signs (so `sqrt(x^2) - x` is not zero).
    /// A point of mixed signs where a value is not finite (outside a `sqrt`'s or a
    /// `log`'s domain) is skipped; at a point of positive values it means "not zero".
    pub(crate) fn vanishes(&self, e: &Sym) -> Result<bool, String> {
        Ok(self.vanishing(std::slice::from_ref(e))?[0])
    }

    /// [`vanishes`](Self::vanishes) for several expressions, with one compiled program for
    /// all that are not structurally zero.
    pub(crate) fn vanishing(&self, exprs: &[Sym]) -> Result<Vec<bool>, String> {
        let mut result: Vec<bool> = exprs.iter().map(Sym::is_zero).collect();
        let open: Vec<usize> = (0..exprs.len()).filter(|&i| !result[i]).collect();
        if open.is_empty() {
            return Ok(result);
        }
        let mut vars = Vec::new();
        for &i in &open {
            for symbol in exprs[i].0.get_all_symbols(false) {
                let var = if symbol == Symbol::PI || symbol == Symbol::E {
                    continue;
                } else if symbol == symbol_of(Var::Time) {
                    Var::Time
                } else {
                    match var_of(symbol) {
                        Some(v) => v,
                        // Not one of ours: leave it to the structural answer.
                        None => return Ok(result),
                    }
                };
                if !vars.contains(&var) {
                    vars.push(var);
                }
            }
        }
        // Each expression and the sum of the squares of its terms.
        let outputs: Vec<Sym> = open
            .iter()
            .flat_map(|&i| [exprs[i].clone(), exprs[i].squared_terms()])
            .collect();
        let program = self.compile(&outputs, &vars)?;
        let mut rng = SplitMix::new(0x9e37_79b9_7f4a_7c15);
        let mut zero = vec![true; open.len()];
        let mut out = vec![0.0; outputs.len()];
        for k in 0..10 {
            // Five points of positive values, then five of mixed signs.
            let point: Vec<f64> = vars
                .iter()
                .map(|_| {
                    let x = 0.5 + rng.unit();
                    if k >= 5 && rng.unit() < 0.5 { -x } else { x }
                })
                .collect();
            program.evaluate(&point, &mut out);
            for (z, pair) in zero.iter_mut().zip(out.chunks_exact(2)) {
                let (value, size) = (pair[0], pair[1]);
                let finite = value.is_finite() && size.is_finite();
                if k >= 5 && !finite {
                    continue;
                }
                *z &= finite && value.abs() <= 1e-10 * size.sqrt();
            }
        }
        for (k, &i) in open.iter().enumerate() {
            result[i] = zero[k];
        }
        Ok(result)
    }

    /// Builds an optimized straight-line program for `outputs` over `inputs` (in order).
    pub(crate) fn compile(&self, outputs: &[Sym], inputs: &[Var]) -> Result<Program, String> {
        lower::compile(outputs, inputs)
    }
}

impl Session {
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

/// Whether a negative power (a division) occurs anywhere in the expression.
fn has_denominator(view: AtomView<'_>) -> bool {
    match view {
        AtomView::Pow(p) => {
            let (base, exponent) = p.get_base_exp();
            exponent.to_string().starts_with('-') || has_denominator(base)
        }
        AtomView::Mul(m) => m.iter().any(has_denominator),
        AtomView::Add(a) => a.iter().any(has_denominator),
        AtomView::Fun(f) => f.iter().any(has_denominator),
        AtomView::Num(_) | AtomView::Var(_) => false,
    }
}

/// The most terms an expansion may produce before [`Sym::printable`] and [`Sym::is_zero`]
/// leave an expression unexpanded. Measured: `(x+1)(x+2)…(x+n)` as a potential derives in
/// 0.1 s for n = 8 (bound 256) and 1.1 s for n = 12 (bound 4096) when expanded.
pub(crate) const EXPANSION_TERMS: u64 = 512;

/// An upper bound on the number of terms `view` expands to (and on the work of expanding
/// its function arguments): sums add, products multiply, a positive integer power `n` of
/// `k` terms gives `C(n+k−1, n)` terms. Saturates at `u64::MAX`.
fn expansion_terms(view: AtomView<'_>) -> u64 {
    match view {
        AtomView::Num(_) | AtomView::Var(_) => 1,
        AtomView::Fun(f) => f.iter().map(expansion_terms).max().unwrap_or(1),
        AtomView::Add(a) => a.iter().map(expansion_terms).fold(0, u64::saturating_add),
        AtomView::Mul(m) => m.iter().map(expansion_terms).fold(1, u64::saturating_mul),
        AtomView::Pow(p) => {
            let (base, exponent) = p.get_base_exp();
            let k = expansion_terms(base);
            let inner = k.max(expansion_terms(exponent));
            let n = match exponent {
                AtomView::Num(n) => match n.get_coeff_view() {
                    CoefficientView::Natural(n, 1, 0, _) if n > 0 => n as u64,
                    _ => return inner,
                },
                _ => return inner,
            };
            // C(n+k−1, k−1) = Π_{i<k} (n+i)/i; every partial product C(n+i, i) is an
            // integer, and they increase, so the loop stops once past the limit.
            let mut terms: u64 = 1;
            for i in 1..k {
                terms = terms.saturating_mul(n.saturating_add(i)) / i;
                if terms > EXPANSION_TERMS {
                    break;
                }
            }
            terms.max(inner)
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

impl Sym {
    /// `sin(self)`.
    pub fn sin(&self) -> Sym {
        Sym(self.0.sin())
    }

    /// `cos(self)`.
    pub fn cos(&self) -> Sym {
        Sym(self.0.cos())
    }

    /// `∂self/∂var`.
    pub fn diff(&self, var: Var) -> Sym {
        Sym(self.0.derivative(symbol_of(var)))
    }

    /// A form for printing: the shortest of the expression as derived, expanded, and, when
    /// it has denominators, over a common denominator with common factors cancelled.
    ///
    /// An expression whose expansion could exceed [`EXPANSION_TERMS`] terms is kept as it
    /// is: expanding `(x+1)(x+2)…(x+18)` term by term takes minutes.
    pub fn printable(&self) -> Sym {
        if !self.expandable() {
            return self.clone();
        }
        let expanded = self.0.expand();
        let mut candidates = vec![self.0.clone(), expanded.clone()];
        if has_denominator(expanded.as_view()) {
            candidates.push(expanded.cancel());
        }
        // Expanding can make numbers beyond `i128` (`(x+9)^50`): keep the forms that print.
        let shortest = candidates
            .into_iter()
            .filter(|a| numbers_print(a.as_view()))
            .min_by_key(|a| a.to_string().len())
            .unwrap_or_else(|| self.0.clone());
        Sym(shortest)
    }

    /// Whether the expression is zero after expansion (a structural test: identities
    /// such as `sin² + cos² = 1` are not recognized).
    /// An expression too large to expand (see [`printable`](Self::printable)) is not zero
    /// by this test; [`Session::vanishes`] then decides numerically.
    pub fn is_zero(&self) -> bool {
        self.0.is_zero() || (self.expandable() && self.0.expand().is_zero())
    }

    /// Whether the expansion of `self` has at most [`EXPANSION_TERMS`] terms by the
    /// upper bound of [`expansion_terms`].
    fn expandable(&self) -> bool {
        expansion_terms(self.0.as_view()) <= EXPANSION_TERMS
    }

    /// `Σ tᵢ²` over the terms `tᵢ` of the expression, expanded when that is cheap (see
    /// [`printable`](Self::printable)): the size of the terms that cancel in a sum that
    /// is zero.
    fn squared_terms(&self) -> Sym {
        let expanded = if self.expandable() {
            self.0.expand()
        } else {
            self.0.clone()
        };
        let square = |t: Atom| &t * &t;
        Sym(match expanded.as_view() {
            AtomView::Add(a) => a
                .iter()
                .map(|t| square(t.to_owned()))
                .fold(Atom::num(0), |acc, t| acc + t),
            _ => square(expanded.clone()),
        })
    }

    /// Whether `var` occurs in the expression.
    pub fn contains(&self, var: Var) -> bool {
        self.0.contains_symbol(symbol_of(var))
    }

    /// `self` with each variable replaced by its value, all at once.
    pub fn substitute(&self, values: &[(Var, Sym)]) -> Sym {
        let replacements: Vec<Replacement> = values
            .iter()
            .map(|(v, e)| Replacement::new(Atom::var(symbol_of(*v)).to_pattern(), e.0.to_pattern()))
            .collect();
        Sym(self.0.replace_multiple(&replacements))
    }

    /// `self` with every variable of `vars` set to zero.
    pub fn substitute_zero(&self, vars: &[Var]) -> Sym {
        let zeros: Vec<(Var, Sym)> = vars.iter().map(|&v| (v, Sym(Atom::num(0)))).collect();
        self.substitute(&zeros)
    }
}

impl Add for &Sym {
    type Output = Sym;
    fn add(self, rhs: &Sym) -> Sym {
        Sym(&self.0 + &rhs.0)
    }
}

impl Sub for &Sym {
    type Output = Sym;
    fn sub(self, rhs: &Sym) -> Sym {
        Sym(&self.0 - &rhs.0)
    }
}

impl Mul for &Sym {
    type Output = Sym;
    fn mul(self, rhs: &Sym) -> Sym {
        Sym(&self.0 * &rhs.0)
    }
}

impl std::ops::Div for &Sym {
    type Output = Sym;
    fn div(self, rhs: &Sym) -> Sym {
        Sym(&self.0 / &rhs.0)
    }
}

impl Neg for &Sym {
    type Output = Sym;
    fn neg(self) -> Sym {
        Sym(-&self.0)
    }
}

/// Whether every number in `view` is a rational that [`Rational`] holds.
fn numbers_print(view: AtomView<'_>) -> bool {
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
fn first_non_real(view: AtomView<'_>) -> Option<&'static str> {
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
