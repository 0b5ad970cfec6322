//! The layout of a formula ([`Math`]): every decision of notation (fractions, powers,
//! functions, Greek letters, subscripts, accents), made once, for LaTeX and MathML to
//! spell.

use super::latex::latex_node;
use super::mathml::mathml_node;
use super::{precedence, split_sign, text};
use crate::syntax::{Expr, Func, PI};

/// A letter or word as mathematics sets it.
#[derive(Debug, Clone, PartialEq)]
pub(super) enum Symbol {
    /// A Greek letter spelled out (`theta`, `Omega`), as written.
    Greek(String),
    /// One character, set in italics.
    Letter(String),
    /// A longer word, set upright.
    Word(String),
}

/// An accent over a name: the time derivatives.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(super) enum Accent {
    Dot,
    Ddot,
}

/// An operator between or before items.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(super) enum Operator {
    Plus,
    /// Binary minus.
    Minus,
    /// Unary minus, written against its operand.
    Negative,
    /// Juxtaposition in a product.
    Times,
    Equals,
    /// The partial-derivative sign.
    Partial,
}

/// The layout of a formula: what both LaTeX and MathML spell out. Built once, by
/// [`layout`], which makes every decision of notation.
#[derive(Debug, Clone, PartialEq)]
pub struct Math(Node);

#[derive(Debug, Clone, PartialEq)]
pub(super) enum Node {
    Number(u128),
    Name {
        base: Symbol,
        sub: Option<Symbol>,
        accent: Option<Accent>,
    },
    Operator(Operator),
    Row(Vec<Node>),
    Fenced(Box<Node>),
    Fraction(Box<Node>, Box<Node>),
    Power(Box<Node>, Box<Node>),
    Sqrt(Box<Node>),
    /// A named function, possibly raised to a power (`sin²(x)`).
    Function {
        name: &'static str,
        power: Option<u128>,
        argument: Box<Node>,
    },
    /// Words inside a formula.
    Text(String),
}

/// A name split as mathematics sets it: Greek letters spelled out become symbols, a
/// trailing number or `_x` becomes a subscript, longer words are upright.
fn name_node(name: &str, accent: Option<Accent>) -> Node {
    let (base, sub) = match name.split_once('_') {
        Some((b, s)) if !b.is_empty() && !s.is_empty() => (b, Some(s)),
        _ => {
            let digits = name.len() - name.trim_end_matches(|c: char| c.is_ascii_digit()).len();
            if digits > 0 && digits < name.len() {
                (
                    &name[..name.len() - digits],
                    Some(&name[name.len() - digits..]),
                )
            } else {
                (name, None)
            }
        }
    };
    let symbol = |s: &str| {
        // `theta` or `Theta`, not `THETA`.
        let lower = s.to_lowercase();
        let cased = s == lower || s.get(1..) == lower.get(1..);
        if cased && GREEK.iter().any(|(g, _)| *g == lower) {
            Symbol::Greek(s.to_string())
        } else if s.chars().count() == 1 {
            Symbol::Letter(s.to_string())
        } else {
            Symbol::Word(s.to_string())
        }
    };
    Node::Name {
        base: symbol(base),
        sub: sub.map(symbol),
        accent,
    }
}

/// `inner`, fenced when it binds looser than `min`. A positive fraction is set stacked,
/// which groups it: it needs no fence, but as the base of a power.
fn wrapped(inner: &Expr, min: u8) -> Node {
    let node = node(inner);
    let stacked = match inner {
        Expr::Div(..) => true,
        Expr::Number(r) => r.num > 0 && r.den != 1,
        _ => false,
    };
    if precedence(inner) < min && !(stacked && min < 5) {
        Node::Fenced(Box::new(node))
    } else {
        node
    }
}

/// `-x` as a row led by the unary minus; a negative `x` is fenced: `−(−x)`.
fn negative(x: Node) -> Node {
    let x = match without_minus(&x) {
        Some(_) => Node::Fenced(Box::new(x)),
        None => x,
    };
    Node::Row(vec![Node::Operator(Operator::Negative), x])
}

/// The rest of a row led by a unary minus.
fn without_minus(node: &Node) -> Option<Node> {
    match node {
        Node::Row(items) if items.first() == Some(&Node::Operator(Operator::Negative)) => {
            Some(match &items[1..] {
                [only] => only.clone(),
                rest => Node::Row(rest.to_vec()),
            })
        }
        _ => None,
    }
}

/// A sum with `a + -b` set as `a - b`.
fn sum(terms: Vec<Node>) -> Node {
    let mut items = Vec::new();
    for (k, term) in terms.into_iter().enumerate() {
        match without_minus(&term) {
            Some(rest) if k > 0 => items.extend([Node::Operator(Operator::Minus), rest]),
            _ => {
                if k > 0 {
                    items.push(Node::Operator(Operator::Plus));
                }
                items.push(term);
            }
        }
    }
    Node::Row(items)
}

fn node(e: &Expr) -> Node {
    let fraction = |num: i128, den: i128| {
        let f = Node::Fraction(
            Box::new(Node::Number(num.unsigned_abs())),
            Box::new(Node::Number(den.unsigned_abs())),
        );
        if num < 0 { negative(f) } else { f }
    };
    match e {
        Expr::Number(r) if r.den == 1 && r.num < 0 => negative(Node::Number(r.num.unsigned_abs())),
        Expr::Number(r) if r.den == 1 => Node::Number(r.num.unsigned_abs()),
        Expr::Number(r) => fraction(r.num, r.den),
        Expr::Name(n) if n == PI => node_symbol(Symbol::Greek("pi".into())),
        Expr::Name(n) => name_node(n, None),
        Expr::Velocity(q) => name_node(q, Some(Accent::Dot)),
        Expr::Acceleration(q) => name_node(q, Some(Accent::Ddot)),
        Expr::Neg(a) => negative(wrapped(a, 3)),
        // A sum inside a sum is set as one sum.
        Expr::Add(terms) => {
            fn flat<'e>(terms: &'e [Expr], out: &mut Vec<&'e Expr>) {
                for t in terms {
                    match t {
                        Expr::Add(inner) => flat(inner, out),
                        t => out.push(t),
                    }
                }
            }
            let mut all = Vec::new();
            flat(terms, &mut all);
            sum(all.into_iter().map(node).collect())
        }
        Expr::Mul(factors) => match split_sign(factors) {
            (true, rest) => negative(wrapped(&rest, 3)),
            // `(-a) b` is set `-a b`.
            (false, _) if matches!(factors.first(), Some(Expr::Neg(_))) => {
                let mut factors = factors.clone();
                if let Expr::Neg(a) = factors.remove(0) {
                    factors.insert(0, *a);
                }
                negative(node(&Expr::Mul(factors)))
            }
            (false, _) => {
                let mut items = Vec::new();
                for (k, f) in factors.iter().enumerate() {
                    if k > 0 {
                        items.push(Node::Operator(Operator::Times));
                    }
                    items.push(wrapped(f, 4));
                }
                Node::Row(items)
            }
        },
        Expr::Div(a, b) => Node::Fraction(Box::new(node(a)), Box::new(node(b))),
        Expr::Pow(a, b) => match (&**a, &**b) {
            (Expr::Call(f, x), Expr::Number(r)) if r.den == 1 && r.num > 0 && *f != Func::Sqrt => {
                Node::Function {
                    name: function_name(*f),
                    power: Some(r.num.unsigned_abs()),
                    argument: Box::new(node(x)),
                }
            }
            _ => Node::Power(Box::new(wrapped(a, 5)), Box::new(node(b))),
        },
        Expr::Call(Func::Sqrt, a) => Node::Sqrt(Box::new(node(a))),
        Expr::Call(f, a) => Node::Function {
            name: function_name(*f),
            power: None,
            argument: Box::new(node(a)),
        },
    }
}

fn node_symbol(base: Symbol) -> Node {
    Node::Name {
        base,
        sub: None,
        accent: None,
    }
}

/// How mathematics names a function: `ln` for the natural logarithm.
fn function_name(f: Func) -> &'static str {
    match f {
        Func::Log => "ln",
        f => f.name(),
    }
}

/// The layout of an expression.
pub fn layout(e: &Expr) -> Math {
    Math(node(e))
}

impl Math {
    /// A model name (`theta1`, `Q_x`) as a symbol.
    pub fn name(name: &str) -> Math {
        Math(name_node(name, None))
    }

    /// `lhs = rhs`.
    pub fn equation(lhs: Math, rhs: Math) -> Math {
        Math(Node::Row(vec![
            lhs.0,
            Node::Operator(Operator::Equals),
            rhs.0,
        ]))
    }

    /// `∂a/∂b`.
    pub fn partial(a: Math, b: Math) -> Math {
        let d = |x: Node| Node::Row(vec![Node::Operator(Operator::Partial), x]);
        Math(Node::Fraction(Box::new(d(a.0)), Box::new(d(b.0))))
    }

    /// The product `a b`.
    pub fn times(a: Math, b: Math) -> Math {
        Math(Node::Row(vec![a.0, Node::Operator(Operator::Times), b.0]))
    }

    /// The sum of `terms`, a negative term set as a difference.
    pub fn sum(terms: Vec<Math>) -> Math {
        Math(sum(terms.into_iter().map(|m| m.0).collect()))
    }

    /// Words, set as text.
    pub fn words(s: &str) -> Math {
        Math(Node::Text(s.to_string()))
    }

    /// The layout in LaTeX.
    pub fn latex(&self) -> String {
        let mut out = String::new();
        latex_node(&self.0, &mut out);
        out
    }

    /// The layout as MathML Core presentation markup (the content of a `<math>`
    /// element); every text is escaped.
    pub fn mathml(&self) -> String {
        let mut out = String::new();
        mathml_node(&self.0, &mut out);
        out
    }
}

/// The Greek letters spelled out, with the character MathML sets for each.
pub(super) const GREEK: [(&str, char); 24] = [
    ("alpha", 'α'),
    ("beta", 'β'),
    ("gamma", 'γ'),
    ("delta", 'δ'),
    ("epsilon", 'ϵ'),
    ("zeta", 'ζ'),
    ("eta", 'η'),
    ("theta", 'θ'),
    ("iota", 'ι'),
    ("kappa", 'κ'),
    ("lambda", 'λ'),
    ("mu", 'μ'),
    ("nu", 'ν'),
    ("xi", 'ξ'),
    ("pi", 'π'),
    ("rho", 'ρ'),
    ("sigma", 'σ'),
    ("tau", 'τ'),
    ("upsilon", 'υ'),
    ("phi", 'ϕ'),
    ("chi", 'χ'),
    ("psi", 'ψ'),
    ("omega", 'ω'),
    ("varphi", 'φ'),
];

/// A formula `name = expression` of a model, in the model syntax and as mathematics.
#[derive(Debug, Clone, PartialEq)]
pub struct Formula {
    /// What it defines, as the model names it (`T`, `Q_theta`, `G1`).
    pub name: String,
    /// The expression in the model syntax.
    pub text: String,
    /// `name = expression` in LaTeX.
    pub latex: String,
    /// `name = expression` as a MathML `<math>` element.
    pub mathml: String,
}

impl Formula {
    /// The formula `name = e`.
    pub fn new(name: &str, e: &Expr) -> Formula {
        let math = Math::equation(Math::name(name), layout(e));
        Formula {
            name: name.to_string(),
            text: text(e),
            latex: math.latex(),
            mathml: format!("<math display=\"block\">{}</math>", math.mathml()),
        }
    }
}

/// A model name in LaTeX: Greek letters spelled out become symbols, a trailing number or
/// `_x` becomes a subscript, longer words are upright.
pub fn latex_name(name: &str) -> String {
    Math::name(name).latex()
}

/// The expression in LaTeX.
pub fn latex(e: &Expr) -> String {
    layout(e).latex()
}

/// The expression as MathML presentation markup (the content of a `<math>` element).
pub fn mathml(e: &Expr) -> String {
    layout(e).mathml()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn show(source: &str) -> (String, String) {
        let e = Expr::parse(source).unwrap();
        (text(&e), latex(&e))
    }

    #[test]
    fn latex_uses_textbook_notation() {
        assert_eq!(show("dot(theta1)").1, "\\dot{\\theta}_{1}");
        assert_eq!(show("ddot(x)").1, "\\ddot{x}");
        assert_eq!(
            show("sin(phi)^2*m_2").1,
            "\\sin^{2}\\left(\\phi\\right) m_{2}"
        );
        assert_eq!(show("Omega/2").1, "\\frac{\\Omega}{2}");
        assert_eq!(show("mass").1, "\\mathrm{mass}");
        assert_eq!(show("phi_dot_1").1, "\\phi_{\\mathrm{dot\\_1}}");
        assert_eq!(
            show("Tau + Varphi + THETA").1,
            "\\mathrm{T} + \\Phi + \\mathrm{THETA}"
        );
        assert_eq!(show("-((-3)*x)").1, "-\\left(-3 x\\right)");
        assert_eq!(show("a + (-b + c)").1, "a - b + c");
        assert_eq!(show("log(x)^2").1, "\\ln^{2}\\left(x\\right)");
    }

    #[test]
    fn mathml_sets_what_latex_sets() {
        let ml = |source: &str| mathml(&Expr::parse(source).unwrap());
        assert_eq!(
            ml("dot(theta1)"),
            "<msub><mover><mi>θ</mi><mo>\u{2d9}</mo></mover><mn>1</mn></msub>"
        );
        assert_eq!(
            ml("-(m/2)"),
            "<mrow><mo>\u{2212}</mo><mfrac><mrow><mi>m</mi></mrow><mrow><mn>2</mn></mrow></mfrac></mrow>"
        );
        assert_eq!(
            ml("a - sin(Omega)^2"),
            "<mrow><mi>a</mi><mo>\u{2212}</mo><mrow><msup><mi>sin</mi><mn>2</mn></msup>\
             <mo>\u{2061}</mo><mrow><mo>(</mo><mi mathvariant=\"normal\">Ω</mi><mo>)</mo>\
             </mrow></mrow></mrow>"
        );
        assert_eq!(ml("mass_x"), "<msub><mi>mass</mi><mi>x</mi></msub>");
        assert_eq!(
            ml("dot(theta1)^2"),
            "<msubsup><mover><mi>θ</mi><mo>\u{2d9}</mo></mover><mn>1</mn><mrow><mn>2</mn></mrow></msubsup>"
        );
        let (_, latex) = show("(-(a + b))*c");
        assert_eq!(latex, "-\\left(a + b\\right) c");
    }

    #[test]
    fn mathml_escapes_every_text() {
        let words = Math::words("</math><script>&");
        assert_eq!(
            words.mathml(),
            "<mtext>&lt;/math&gt;&lt;script&gt;&amp;</mtext>"
        );
    }
}
