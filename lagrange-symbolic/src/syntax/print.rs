//! Printing of expressions as plain text (the model syntax, so that it can be pasted
//! back) and as LaTeX.

use super::{Expr, Func, PI, Rational};

/// Binding strength of an expression's top operator, for parenthesization.
fn precedence(e: &Expr) -> u8 {
    match e {
        Expr::Add(_) => 1,
        Expr::Neg(_) => 2,
        Expr::Mul(_) | Expr::Div(..) => 3,
        Expr::Number(r) if r.num < 0 || r.den != 1 => 3,
        Expr::Pow(..) => 4,
        _ => 5,
    }
}

/// What the two notations write differently around the shared operators.
struct Notation {
    print: fn(&Expr) -> String,
    open: &'static str,
    close: &'static str,
    times: &'static str,
}

const TEXT: Notation = Notation {
    print: text,
    open: "(",
    close: ")",
    times: "*",
};

const LATEX: Notation = Notation {
    print: latex,
    open: "\\left(",
    close: "\\right)",
    times: " ",
};

impl Notation {
    /// `inner`, parenthesized when it binds looser than `min`.
    fn wrap(&self, inner: &Expr, min: u8) -> String {
        let s = (self.print)(inner);
        if precedence(inner) < min {
            format!("{}{s}{}", self.open, self.close)
        } else {
            s
        }
    }

    /// Negations, sums and products, which both notations write alike.
    fn operators(&self, e: &Expr) -> String {
        match e {
            Expr::Neg(a) => format!("-{}", self.wrap(a, 3)),
            Expr::Add(terms) => join_terms(terms, self.print),
            Expr::Mul(factors) => match split_sign(factors) {
                (true, rest) => format!("-{}", self.wrap(&rest, 3)),
                (false, _) => factors
                    .iter()
                    .map(|f| self.wrap(f, 4))
                    .collect::<Vec<_>>()
                    .join(self.times),
            },
            other => (self.print)(other),
        }
    }
}

/// The expression in the model syntax.
pub fn text(e: &Expr) -> String {
    let wrap = |inner: &Expr, min: u8| TEXT.wrap(inner, min);
    match e {
        Expr::Number(r) if r.den == 1 => r.num.to_string(),
        Expr::Number(r) => format!("{}/{}", r.num, r.den),
        Expr::Name(n) => n.clone(),
        Expr::Velocity(q) => format!("dot({q})"),
        Expr::Acceleration(q) => format!("ddot({q})"),
        Expr::Neg(_) | Expr::Add(_) | Expr::Mul(_) => TEXT.operators(e),
        Expr::Div(a, b) => format!("{}/{}", wrap(a, 3), wrap(b, 4)),
        Expr::Pow(a, b) => format!("{}^{}", wrap(a, 5), wrap(b, 5)),
        Expr::Call(f, a) => format!("{}({})", f.name(), text(a)),
    }
}

/// Longest user text echoed in a message, in characters.
pub const EXCERPT_CHARS: usize = 100;

/// Longest run of digits echoed in full.
const EXCERPT_DIGITS: usize = 24;

/// User text as a message may echo it in full: control characters escaped (no terminal
/// escape sequence reaches the terminal) and runs of more than 24 digits shortened to
/// their first digits and their length.
pub fn escape_text(text: &str) -> String {
    let mut out = String::new();
    let mut chars = text.chars().peekable();
    while let Some(c) = chars.next() {
        if c.is_ascii_digit() {
            let mut digits = String::from(c);
            while let Some(&d) = chars.peek().filter(|d| d.is_ascii_digit()) {
                digits.push(d);
                chars.next();
            }
            if digits.len() > EXCERPT_DIGITS {
                digits = format!("{}…({} digits)", &digits[..8], digits.len());
            }
            out.push_str(&digits);
        } else if c.is_control() {
            out.extend(c.escape_default());
        } else {
            out.push(c);
        }
    }
    out
}

/// User text as a message may echo it inline: [`escape_text`], cut at
/// [`EXCERPT_CHARS`] characters.
pub fn excerpt_text(text: &str) -> String {
    let escaped = escape_text(text);
    if escaped.chars().count() > EXCERPT_CHARS {
        escaped.chars().take(EXCERPT_CHARS).chain(['…']).collect()
    } else {
        escaped
    }
}

/// An expression as a message may echo it: its text through [`excerpt_text`].
pub fn excerpt(e: &Expr) -> String {
    excerpt_text(&text(e))
}

/// A sum with `a + -b` printed as `a - b`.
fn join_terms(terms: &[Expr], print: fn(&Expr) -> String) -> String {
    let mut out = String::new();
    for (k, term) in terms.iter().enumerate() {
        let s = print(term);
        match s.strip_prefix('-') {
            Some(rest) if k > 0 => {
                out.push_str(" - ");
                out.push_str(rest);
            }
            _ => {
                if k > 0 {
                    out.push_str(" + ");
                }
                out.push_str(&s);
            }
        }
    }
    out
}

/// For a product with a negative numeric factor: `(true, the product with it made positive)`.
fn split_sign(factors: &[Expr]) -> (bool, Expr) {
    let mut negative = false;
    let rest: Vec<Expr> = factors
        .iter()
        .filter_map(|f| match f {
            Expr::Number(r) if r.num < 0 => {
                negative = !negative;
                (r.num != -1 || r.den != 1).then(|| {
                    Expr::Number(Rational {
                        num: -r.num,
                        den: r.den,
                    })
                })
            }
            other => Some(other.clone()),
        })
        .collect();
    let rest = match rest.len() {
        0 => Expr::Number(Rational::int(1)),
        1 => rest
            .into_iter()
            .next()
            .unwrap_or(Expr::Number(Rational::int(1))),
        _ => Expr::Mul(rest),
    };
    (negative, rest)
}

const GREEK: [&str; 24] = [
    "alpha", "beta", "gamma", "delta", "epsilon", "zeta", "eta", "theta", "iota", "kappa",
    "lambda", "mu", "nu", "xi", "pi", "rho", "sigma", "tau", "upsilon", "phi", "chi", "psi",
    "omega", "varphi",
];

/// A model name in LaTeX: Greek letters spelled out become symbols, a trailing number or
/// `_x` becomes a subscript, longer words are upright.
pub fn latex_name(name: &str) -> String {
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
        let lower = s.to_lowercase();
        if GREEK.contains(&lower.as_str()) {
            let mut c = s.chars();
            match c.next() {
                Some(first) if first.is_uppercase() => format!("\\{}{}", first, c.as_str()),
                _ => format!("\\{s}"),
            }
        } else if s.chars().count() == 1 {
            s.to_string()
        } else {
            format!("\\mathrm{{{s}}}")
        }
    };
    match sub {
        Some(sub) => format!("{}_{{{}}}", symbol(base), symbol(sub)),
        None => symbol(base),
    }
}

/// `\dot{θ}_{1}`: the accent goes on the base of a subscripted name.
fn accented(accent: &str, name: &str) -> String {
    let l = latex_name(name);
    match l.split_once("_{") {
        Some((base, sub)) => format!("\\{accent}{{{base}}}_{{{sub}"),
        None => format!("\\{accent}{{{l}}}"),
    }
}

/// The expression in LaTeX.
pub fn latex(e: &Expr) -> String {
    let wrap = |inner: &Expr, min: u8| LATEX.wrap(inner, min);
    match e {
        Expr::Number(r) if r.den == 1 => r.num.to_string(),
        Expr::Number(r) if r.num < 0 => format!("-\\frac{{{}}}{{{}}}", -r.num, r.den),
        Expr::Number(r) => format!("\\frac{{{}}}{{{}}}", r.num, r.den),
        Expr::Name(n) if n == PI => "\\pi".into(),
        Expr::Name(n) => latex_name(n),
        Expr::Velocity(q) => accented("dot", q),
        Expr::Acceleration(q) => accented("ddot", q),
        Expr::Neg(_) | Expr::Add(_) | Expr::Mul(_) => LATEX.operators(e),
        Expr::Div(a, b) => format!("\\frac{{{}}}{{{}}}", latex(a), latex(b)),
        Expr::Pow(a, b) => match (&**a, &**b) {
            (Expr::Call(f, x), Expr::Number(r)) if r.den == 1 && r.num > 0 && *f != Func::Sqrt => {
                format!("\\{}^{{{}}}\\left({}\\right)", f.name(), r.num, latex(x))
            }
            _ => format!("{{{}}}^{{{}}}", wrap(a, 5), latex(b)),
        },
        Expr::Call(Func::Sqrt, a) => format!("\\sqrt{{{}}}", latex(a)),
        Expr::Call(Func::Log, a) => format!("\\ln\\left({}\\right)", latex(a)),
        Expr::Call(f, a) => format!("\\{}\\left({}\\right)", f.name(), latex(a)),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn show(source: &str) -> (String, String) {
        let e = Expr::parse(source).unwrap();
        (text(&e), latex(&e))
    }

    #[test]
    fn text_round_trips_through_the_parser() {
        for source in [
            "1/2*m*l^2*dot(theta1)^2 - m*g*l*cos(theta1)",
            "-(a + b)^2/(c*d)",
            "x^(1/2) + sin(t)^2",
        ] {
            let e = Expr::parse(source).unwrap();
            assert_eq!(Expr::parse(&text(&e)).unwrap(), e, "{source}");
        }
    }

    #[test]
    fn excerpts_escape_controls_and_shorten_numbers() {
        assert_eq!(excerpt_text("a\u{1b}[31mb\n"), "a\\u{1b}[31mb\\n");
        let long = format!("x + {}", "9".repeat(30_000));
        assert_eq!(excerpt_text(&long), "x + 99999999…(30000 digits)");
        let wide = "y".repeat(500);
        assert_eq!(excerpt_text(&wide).chars().count(), EXCERPT_CHARS + 1);
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
    }
}
