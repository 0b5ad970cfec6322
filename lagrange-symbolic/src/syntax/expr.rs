//! The expression tree of model expressions and derived results: exact numbers, names,
//! velocities and accelerations of coordinates, the arithmetic operators and the
//! functions in [`Func`]. Parsing is in [`super::parse`], printing in [`super::print`].

use serde::{Deserialize, Serialize};

/// The largest power of ten the engine's exact fractions hold (their numerators and
/// denominators are `i128`s, which reach about 1.7·10^38): the bound that the parser, the
/// URDF reader and their messages state.
pub const EXACT_POWER: u32 = 38;

/// `10^EXACT_POWER`.
pub const EXACT_LIMIT: i128 = 10i128.pow(EXACT_POWER);

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

    /// `num / den` in lowest terms, with a positive denominator.
    pub fn new(num: i128, den: i128) -> Self {
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

    /// The function's value at `x` in `f64`.
    pub fn apply(self, x: f64) -> f64 {
        match self {
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

impl Expr {
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

    /// Whether the tree is the number zero as the engine writes it: `0`, or an empty sum.
    /// (A structural test: `x - x` is not recognized.)
    pub fn is_zero(&self) -> bool {
        matches!(self, Expr::Number(r) if r.num == 0)
            || matches!(self, Expr::Add(terms) if terms.is_empty())
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

impl Expr {
    /// The direct subexpressions.
    pub fn children(&self) -> Vec<&Expr> {
        match self {
            Expr::Number(_) | Expr::Name(_) | Expr::Velocity(_) | Expr::Acceleration(_) => {
                Vec::new()
            }
            Expr::Neg(a) | Expr::Call(_, a) => vec![a],
            Expr::Add(terms) | Expr::Mul(terms) => terms.iter().collect(),
            Expr::Div(a, b) | Expr::Pow(a, b) => vec![a, b],
        }
    }

    /// The depth (a leaf is 1) and the number of nodes of the tree, found without
    /// recursion.
    pub fn depth_and_size(&self) -> (usize, usize) {
        let mut stack = vec![(self, 1)];
        let (mut depth, mut nodes) = (0, 0);
        while let Some((e, d)) = stack.pop() {
            depth = depth.max(d);
            nodes += 1;
            stack.extend(e.children().into_iter().map(|c| (c, d + 1)));
        }
        (depth, nodes)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn name(s: &str) -> Expr {
        Expr::Name(s.into())
    }

    #[test]
    fn zero_is_recognized_structurally() {
        assert!(Expr::Number(Rational::int(0)).is_zero());
        assert!(Expr::Add(Vec::new()).is_zero());
        assert!(!Expr::Number(Rational::int(1)).is_zero());
        let difference = Expr::Add(vec![name("x"), Expr::Neg(Box::new(name("x")))]);
        assert!(!difference.is_zero());
    }
}
