//! The derived equations printed as text (one line per coordinate, in the model syntax)
//! and as LaTeX, with the reactions of any constraints.

use super::{Equations, Symbolic};
use crate::syntax::print::{latex, latex_name, text};
use crate::syntax::{Expr, Rational};

/// What stands for the equations of a tree that is not expanded.
const NOT_EXPANDED: &str = "M(q) q'' = f(t, q, q'), a kinematic tree evaluated by its composite-rigid-body and Newton-Euler recursions (too deep to expand)";

/// Left-hand side `Σⱼ Mᵢⱼ q̈ⱼ` of equation `i`, skipping zero entries.
fn inertia_terms(symbolic: &Symbolic, coordinates: &[String], i: usize) -> Expr {
    let terms: Vec<Expr> = symbolic.mass_matrix[i]
        .iter()
        .zip(coordinates)
        .filter(|(m, _)| !m.is_zero())
        .map(|(m, q)| {
            let a = Expr::Acceleration(q.clone());
            match m {
                Expr::Number(r) if *r == Rational::int(1) => a,
                Expr::Add(_) => Expr::Mul(vec![m.clone(), a]),
                Expr::Mul(fs) => Expr::Mul(fs.iter().cloned().chain([a]).collect()),
                _ => Expr::Mul(vec![m.clone(), a]),
            }
        })
        .collect();
    Expr::Add(terms)
}

impl Equations {
    /// The equations of motion as text, one `Σ Mᵢⱼ ddot(qⱼ) = fᵢ` line per coordinate. With
    /// constraints, each line also carries the reactions `λₖ ∂Gₖ/∂qᵢ`, and one line
    /// `Gₖ := … = 0` per constraint follows.
    pub fn text(&self) -> String {
        let eq = self;
        let reactions = |q: &str| {
            constraint_count(eq)
                .map(|k| format!(" + lambda{k}*dG{k}/d{q}"))
                .collect::<String>()
        };
        let mut lines: Vec<String> = match &eq.symbolic {
            Some(symbolic) => (0..eq.coordinates.len())
                .map(|i| {
                    let (forcing, reactions) =
                        (text(&symbolic.forcing[i]), reactions(&eq.coordinates[i]));
                    let rhs = match reactions.strip_prefix(" + ") {
                        Some(only) if forcing == "0" => only.to_string(),
                        _ => format!("{forcing}{reactions}"),
                    };
                    format!(
                        "{} = {rhs}",
                        text(&inertia_terms(symbolic, &eq.coordinates, i))
                    )
                })
                .collect(),
            None => vec![NOT_EXPANDED.to_string()],
        };
        if let Some(c) = &eq.constraints {
            lines.extend(
                c.text
                    .iter()
                    .enumerate()
                    .map(|(k, g)| format!("G{} := {g} = 0", k + 1)),
            );
        }
        lines.join("\n")
    }

    /// The equations of motion as the body of a LaTeX `align` environment, with the
    /// reactions `λₖ ∂Gₖ/∂qᵢ` of any constraints.
    pub fn latex(&self) -> String {
        let eq = self;
        let reactions = |q: &str| {
            constraint_count(eq)
                .map(|k| {
                    format!(
                        " + \\lambda_{{{k}}} \\frac{{\\partial G_{{{k}}}}}{{\\partial {}}}",
                        latex_name(q)
                    )
                })
                .collect::<String>()
        };
        let Some(symbolic) = &eq.symbolic else {
            return format!("&\\text{{{NOT_EXPANDED}}}");
        };
        (0..eq.coordinates.len())
            .map(|i| {
                format!(
                    "{} &= {}{}",
                    latex(&inertia_terms(symbolic, &eq.coordinates, i)),
                    latex(&symbolic.forcing[i]),
                    reactions(&eq.coordinates[i])
                )
            })
            .collect::<Vec<_>>()
            .join(" \\\\\n")
    }
}

/// `1..=k` for the model's `k` constraints.
fn constraint_count(eq: &Equations) -> std::ops::RangeInclusive<usize> {
    1..=eq.constraints.as_ref().map_or(0, |c| c.text.len())
}
