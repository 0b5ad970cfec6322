//! Printing of expressions as plain text (the model syntax, so that it can be pasted
//! back), and as mathematics: one layout ([`Math`]) decides the notation (fractions,
//! powers, functions, Greek letters, subscripts, accents), and LaTeX and MathML are its
//! two spellings, so the two always agree.
//!
//! The text printer and the excerpts of user text in messages are here; `math` holds
//! the layout, spelled by [`latex`] and [`mathml`].

mod latex;
mod math;
mod mathml;

use super::{Expr, Rational};
pub use math::{Formula, Math, latex, latex_name, layout, mathml};

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

/// `inner` in the model syntax, parenthesized when it binds looser than `min`.
fn text_wrap(inner: &Expr, min: u8) -> String {
    let s = text(inner);
    if precedence(inner) < min {
        format!("({s})")
    } else {
        s
    }
}

/// The expression in the model syntax.
pub fn text(e: &Expr) -> String {
    match e {
        Expr::Number(r) if r.den == 1 => r.num.to_string(),
        Expr::Number(r) => format!("{}/{}", r.num, r.den),
        Expr::Name(n) => n.clone(),
        Expr::Velocity(q) => format!("dot({q})"),
        Expr::Acceleration(q) => format!("ddot({q})"),
        Expr::Neg(a) => format!("-{}", text_wrap(a, 3)),
        Expr::Add(terms) => {
            let mut out = String::new();
            for (k, term) in terms.iter().enumerate() {
                let s = text(term);
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
        Expr::Mul(factors) => match split_sign(factors) {
            (true, rest) => format!("-{}", text_wrap(&rest, 3)),
            (false, _) => factors
                .iter()
                .map(|f| text_wrap(f, 4))
                .collect::<Vec<_>>()
                .join("*"),
        },
        Expr::Div(a, b) => format!("{}/{}", text_wrap(a, 3), text_wrap(b, 4)),
        Expr::Pow(a, b) => format!("{}^{}", text_wrap(a, 5), text_wrap(b, 5)),
        Expr::Call(f, a) => format!("{}({})", f.name(), text(a)),
    }
}

/// Longest user text echoed in a message, in characters.
pub const EXCERPT_CHARS: usize = 100;

/// Longest run of digits echoed in full.
const EXCERPT_DIGITS: usize = 24;

/// User text as a message may echo it in full: control characters and bidirectional
/// formatting marks escaped (no terminal escape sequence reaches the terminal, and no
/// right-to-left override reorders the message around it) and runs of more than 24 digits shortened to
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
        } else if c.is_control() || is_bidi_mark(c) {
            out.extend(c.escape_default());
        } else {
            out.push(c);
        }
    }
    out
}

/// The bidirectional formatting marks (Unicode's `Bidi_Control`), which reorder the text
/// around them when displayed.
fn is_bidi_mark(c: char) -> bool {
    matches!(c, '\u{061C}' | '\u{200E}' | '\u{200F}' | '\u{202A}'..='\u{202E}' | '\u{2066}'..='\u{2069}')
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

#[cfg(test)]
mod tests {
    use super::*;

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
        assert_eq!(excerpt_text("a\u{202E}b\u{2066}"), "a\\u{202e}b\\u{2066}");
        let long = format!("x + {}", "9".repeat(30_000));
        assert_eq!(excerpt_text(&long), "x + 99999999…(30000 digits)");
        let wide = "y".repeat(500);
        assert_eq!(excerpt_text(&wide).chars().count(), EXCERPT_CHARS + 1);
    }
}
