//! The only door to symbolica.
//!
//! Everything symbolic runs inside [`session`], on a worker thread that holds the
//! per-user lock (see [`lock`]). Inside, mechanics code works with [`Sym`], an opaque
//! symbolic expression; what leaves a session is plain data of this crate: [`Expr`](crate::syntax::Expr)
//! trees for printing and [`Program`]s for evaluation. No symbolica type crosses the
//! boundary.

//!
//! This file holds the session and the variables; [`translate`] carries expressions
//! between this crate's [`Expr`](crate::syntax::Expr) and symbolica, [`sym`] is the algebra on [`Sym`], and
//! [`lower`] compiles them into programs.

mod lock;
mod lower;
mod sym;
mod translate;

use symbolica::prelude::*;

use crate::ir::Program;
use crate::numeric::SplitMix64;

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

/// Names of coordinates and parameters, to translate [`Expr`](crate::syntax::Expr) leaves to [`Var`]s and back.
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
        let mut rng = SplitMix64::new(0x9e37_79b9_7f4a_7c15);
        let mut zero = vec![true; open.len()];
        let mut out = vec![0.0; outputs.len()];
        for k in 0..10 {
            // Five points of positive values, then five of mixed signs.
            let point: Vec<f64> = vars
                .iter()
                .map(|_| {
                    let x = 0.5 + rng.next_f64();
                    if k >= 5 && rng.next_f64() < 0.5 {
                        -x
                    } else {
                        x
                    }
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
