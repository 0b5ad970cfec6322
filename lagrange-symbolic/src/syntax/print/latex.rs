//! The layout spelled as LaTeX.

use super::math::{Accent, Node, Operator, Symbol};

/// Capital Greek letters that LaTeX sets as Latin ones (it has no command for them).
const LATIN_CAPITALS: [(&str, &str); 12] = [
    ("Alpha", "A"),
    ("Beta", "B"),
    ("Epsilon", "E"),
    ("Zeta", "Z"),
    ("Eta", "H"),
    ("Iota", "I"),
    ("Kappa", "K"),
    ("Mu", "M"),
    ("Nu", "N"),
    ("Rho", "P"),
    ("Tau", "T"),
    ("Chi", "X"),
];

fn latex_symbol(s: &Symbol, out: &mut String) {
    match s {
        Symbol::Greek(g) if g == "Varphi" => out.push_str("\\Phi"),
        Symbol::Greek(g) => match LATIN_CAPITALS.iter().find(|(name, _)| name == g) {
            Some((_, latin)) => {
                out.push_str("\\mathrm{");
                out.push_str(latin);
                out.push('}');
            }
            None => {
                out.push('\\');
                out.push_str(g);
            }
        },
        Symbol::Letter(l) => out.push_str(l),
        Symbol::Word(w) => {
            out.push_str("\\mathrm{");
            out.push_str(&w.replace('_', "\\_"));
            out.push('}');
        }
    }
}

pub(super) fn latex_node(node: &Node, out: &mut String) {
    let braced = |n: &Node, out: &mut String| {
        out.push('{');
        latex_node(n, out);
        out.push('}');
    };
    match node {
        Node::Number(n) => out.push_str(&n.to_string()),
        Node::Name { base, sub, accent } => {
            match accent {
                Some(a) => {
                    out.push_str(match a {
                        Accent::Dot => "\\dot{",
                        Accent::Ddot => "\\ddot{",
                    });
                    latex_symbol(base, out);
                    out.push('}');
                }
                None => latex_symbol(base, out),
            }
            if let Some(sub) = sub {
                out.push_str("_{");
                latex_symbol(sub, out);
                out.push('}');
            }
        }
        Node::Operator(o) => out.push_str(match o {
            Operator::Plus => " + ",
            Operator::Minus => " - ",
            Operator::Negative => "-",
            Operator::Times => " ",
            Operator::Equals => " = ",
            Operator::Partial => "\\partial ",
        }),
        Node::Row(items) => items.iter().for_each(|n| latex_node(n, out)),
        Node::Fenced(inner) => {
            out.push_str("\\left(");
            latex_node(inner, out);
            out.push_str("\\right)");
        }
        Node::Fraction(a, b) => {
            out.push_str("\\frac");
            braced(a, out);
            braced(b, out);
        }
        Node::Power(a, b) => {
            braced(a, out);
            out.push('^');
            braced(b, out);
        }
        Node::Sqrt(a) => {
            out.push_str("\\sqrt");
            braced(a, out);
        }
        Node::Function {
            name,
            power,
            argument,
        } => {
            out.push('\\');
            out.push_str(name);
            if let Some(p) = power {
                out.push_str(&format!("^{{{p}}}"));
            }
            out.push_str("\\left(");
            latex_node(argument, out);
            out.push_str("\\right)");
        }
        Node::Text(s) => {
            out.push_str("\\text{");
            out.push_str(s);
            out.push('}');
        }
    }
}
