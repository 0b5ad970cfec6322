//! The algebra on [`Sym`]: the functions, derivatives, substitutions and arithmetic the
//! mechanics code writes its equations in, and the bound on expansion that keeps printing
//! and the zero test from blowing up.

use std::ops::{Add, Mul, Neg, Sub};

use symbolica::prelude::*;

use super::translate::numbers_print;
use super::{Sym, Var, symbol_of};

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
const EXPANSION_TERMS: u64 = 512;

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

/// A bound on the square of the magnitude `view`'s round-off is proportional to, read
/// off its form without expanding it: a sum of `k` terms `k Σ S(tᵢ)` (so that
/// `(Σ|tᵢ|)² ≤ k Σ tᵢ²` is covered), a product `Π S(fᵢ)`, a natural power `S(b)ⁿ`, a
/// function its value squared plus its arguments' `S`, anything else its value squared.
/// Whatever the form, a zero evaluated in floating point comes out below about `10⁻¹⁵`
/// of `√S`, and a term that does not cancel is as large as `√S` allows.
fn squared_size(view: AtomView<'_>) -> Atom {
    let square = |a: Atom| &a * &a;
    match view {
        AtomView::Num(_) | AtomView::Var(_) => square(view.to_owned()),
        AtomView::Add(a) => {
            let k = Atom::num(a.iter().count() as i64);
            k * a
                .iter()
                .map(squared_size)
                .fold(Atom::num(0), |acc, t| acc + t)
        }
        AtomView::Mul(m) => m
            .iter()
            .map(squared_size)
            .fold(Atom::num(1), |acc, f| acc * f),
        AtomView::Pow(p) => {
            let (base, exponent) = p.get_base_exp();
            match exponent {
                AtomView::Num(n) if matches!(n.get_coeff_view(), CoefficientView::Natural(k, 1, 0, _) if k > 0) => {
                    squared_size(base).pow(exponent.to_owned())
                }
                _ => square(view.to_owned()),
            }
        }
        AtomView::Fun(f) => f
            .iter()
            .map(squared_size)
            .fold(square(view.to_owned()), |acc, s| acc + s),
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

    /// `sqrt(self)`.
    pub fn sqrt(&self) -> Sym {
        Sym(self.0.sqrt())
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

    /// An upper bound on the number of terms of `self` expanded ([`expansion_terms`]).
    pub(crate) fn expansion_bound(&self) -> u64 {
        expansion_terms(self.0.as_view())
    }

    /// Whether the expansion of `self` has at most [`EXPANSION_TERMS`] terms by the
    /// upper bound of [`expansion_terms`].
    fn expandable(&self) -> bool {
        expansion_terms(self.0.as_view()) <= EXPANSION_TERMS
    }

    /// The square of the size of the terms that cancel in a sum that is zero, the scale
    /// round-off is measured against: `Σ tᵢ²` over the terms `tᵢ` of the expression
    /// expanded, when that is cheap (see [`printable`](Self::printable)); otherwise
    /// [`squared_size`] of the expression as it is, so that a zero written in a form too
    /// large to expand is still told from a small number.
    pub(super) fn squared_terms(&self) -> Sym {
        if !self.expandable() {
            return Sym(squared_size(self.0.as_view()));
        }
        let expanded = self.0.expand();
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
