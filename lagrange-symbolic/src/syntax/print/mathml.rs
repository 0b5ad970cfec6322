//! The layout spelled as MathML Core presentation markup, every text escaped.

use lagrange_common::escape_markup as xml_escape;

use super::math::{Accent, GREEK, Node, Operator, Symbol};

fn mathml_symbol(s: &Symbol, out: &mut String) {
    match s {
        Symbol::Greek(g) => {
            let lower = g.to_lowercase();
            let letter = GREEK
                .iter()
                .find(|(name, _)| *name == lower)
                .map(|&(_, c)| c);
            match (letter, g.chars().next()) {
                (Some(c), Some(first)) if first.is_uppercase() => {
                    out.push_str(&format!(
                        "<mi mathvariant=\"normal\">{}</mi>",
                        c.to_uppercase()
                    ));
                }
                (Some(c), _) => out.push_str(&format!("<mi>{c}</mi>")),
                (None, _) => out.push_str(&format!("<mi>{}</mi>", xml_escape(g))),
            }
        }
        Symbol::Letter(l) | Symbol::Word(l) if l.chars().all(|c| c.is_ascii_digit()) => {
            out.push_str(&format!("<mn>{l}</mn>"));
        }
        Symbol::Letter(l) | Symbol::Word(l) => {
            out.push_str(&format!("<mi>{}</mi>", xml_escape(l)));
        }
    }
}

pub(super) fn mathml_node(node: &Node, out: &mut String) {
    let row = |n: &Node, out: &mut String| {
        out.push_str("<mrow>");
        mathml_node(n, out);
        out.push_str("</mrow>");
    };
    match node {
        Node::Number(n) => out.push_str(&format!("<mn>{n}</mn>")),
        Node::Name { base, sub, accent } => {
            if sub.is_some() {
                out.push_str("<msub>");
            }
            match accent {
                Some(a) => {
                    out.push_str("<mover>");
                    mathml_symbol(base, out);
                    out.push_str(match a {
                        Accent::Dot => "<mo>\u{2d9}</mo>",
                        Accent::Ddot => "<mo>\u{a8}</mo>",
                    });
                    out.push_str("</mover>");
                }
                None => mathml_symbol(base, out),
            }
            if let Some(sub) = sub {
                mathml_symbol(sub, out);
                out.push_str("</msub>");
            }
        }
        Node::Operator(o) => out.push_str(match o {
            Operator::Plus => "<mo>+</mo>",
            Operator::Minus | Operator::Negative => "<mo>\u{2212}</mo>",
            Operator::Times => "<mo>\u{2062}</mo>",
            Operator::Equals => "<mo>=</mo>",
            Operator::Partial => "<mo rspace=\"0\">\u{2202}</mo>",
        }),
        Node::Row(items) => {
            out.push_str("<mrow>");
            items.iter().for_each(|n| mathml_node(n, out));
            out.push_str("</mrow>");
        }
        Node::Fenced(inner) => {
            out.push_str("<mrow><mo>(</mo>");
            mathml_node(inner, out);
            out.push_str("<mo>)</mo></mrow>");
        }
        Node::Fraction(a, b) => {
            out.push_str("<mfrac>");
            row(a, out);
            row(b, out);
            out.push_str("</mfrac>");
        }
        // A subscripted name raised to a power takes both scripts on its base: `θ̇₁²`.
        Node::Power(a, b) => match &**a {
            Node::Name {
                base,
                sub: Some(sub),
                accent,
            } => {
                out.push_str("<msubsup>");
                let bare = Node::Name {
                    base: base.clone(),
                    sub: None,
                    accent: *accent,
                };
                mathml_node(&bare, out);
                mathml_symbol(sub, out);
                row(b, out);
                out.push_str("</msubsup>");
            }
            _ => {
                out.push_str("<msup>");
                row(a, out);
                row(b, out);
                out.push_str("</msup>");
            }
        },
        Node::Sqrt(a) => {
            out.push_str("<msqrt>");
            mathml_node(a, out);
            out.push_str("</msqrt>");
        }
        Node::Function {
            name,
            power,
            argument,
        } => {
            out.push_str("<mrow>");
            match power {
                Some(p) => out.push_str(&format!("<msup><mi>{name}</mi><mn>{p}</mn></msup>")),
                None => out.push_str(&format!("<mi>{name}</mi>")),
            }
            out.push_str("<mo>\u{2061}</mo><mrow><mo>(</mo>");
            mathml_node(argument, out);
            out.push_str("<mo>)</mo></mrow></mrow>");
        }
        Node::Text(s) => out.push_str(&format!("<mtext>{}</mtext>", xml_escape(s))),
    }
}
