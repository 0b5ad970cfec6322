//! The derived equations printed as text (one line per coordinate, in the model syntax)
//! and as mathematics (LaTeX and MathML, from one layout), with the reactions of any
//! constraints.

use super::{Equations, Symbolic};
use crate::syntax::print::{Formula, Math, layout, text};
use crate::syntax::{Expr, Rational};

/// What stands for the equations of a tree that is not expanded.
const NOT_EXPANDED: &str = "M(q) q'' = f(t, q, q'), a kinematic tree evaluated by its composite-rigid-body and Newton-Euler recursions (too deep or too large to expand)";

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
    /// constraints, each line also carries the reactions `λₖ ∂Gₖ/∂qᵢ` (`∂Gₖ/∂q̇ᵢ` for a
    /// constraint on the velocities), and one line `Gₖ := … = 0` per constraint follows.
    pub fn text(&self) -> String {
        let eq = self;
        let holonomic = holonomic_count(eq);
        let reactions = |q: &str| {
            constraint_count(eq)
                .map(|k| match k > holonomic {
                    true => format!(" + lambda{k}*dG{k}/d(dot({q}))"),
                    false => format!(" + lambda{k}*dG{k}/d{q}"),
                })
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
        match self.rows() {
            Some(rows) => rows
                .iter()
                .map(|(lhs, rhs)| format!("{} &= {}", lhs.latex(), rhs.latex()))
                .collect::<Vec<_>>()
                .join(" \\\\\n"),
            None => format!("&\\text{{{NOT_EXPANDED}}}"),
        }
    }

    /// The equations of motion as a MathML `<math>` element, one table row per
    /// coordinate, set as [`latex`](Self::latex) sets them.
    pub fn mathml(&self) -> String {
        let body = match self.rows() {
            Some(rows) => rows
                .iter()
                .map(|(lhs, rhs)| {
                    format!(
                        "<mtr><mtd>{}</mtd><mtd><mo>=</mo></mtd><mtd>{}</mtd></mtr>",
                        lhs.mathml(),
                        rhs.mathml()
                    )
                })
                .collect::<String>(),
            None => format!(
                "<mtr><mtd>{}</mtd></mtr>",
                Math::words(NOT_EXPANDED).mathml()
            ),
        };
        format!("<math display=\"block\"><mtable>{body}</mtable></math>")
    }

    /// The model's formulas as written, each as text and as mathematics.
    pub fn printed_formulas(&self) -> Vec<Formula> {
        self.formulas
            .iter()
            .map(|(name, e)| Formula::new(name, e))
            .collect()
    }

    /// Each equation's two sides: `Σⱼ Mᵢⱼ q̈ⱼ` and `fᵢ + Σₖ λₖ ∂Gₖ/∂qᵢ` (`∂Gₖ/∂q̇ᵢ` for
    /// a constraint on the velocities); `None` for a tree too deep or too large to expand.
    fn rows(&self) -> Option<Vec<(Math, Math)>> {
        let symbolic = self.symbolic.as_ref()?;
        let holonomic = holonomic_count(self);
        let reaction = |k: usize, q: &str| {
            let g = Math::name(&format!("G{k}"));
            let by = if k > holonomic {
                layout(&Expr::Velocity(q.to_string()))
            } else {
                Math::name(q)
            };
            Math::times(Math::name(&format!("lambda{k}")), Math::partial(g, by))
        };
        let rows = (0..self.coordinates.len())
            .map(|i| {
                let q = &self.coordinates[i];
                let forcing = &symbolic.forcing[i];
                let reactions = constraint_count(self).map(|k| reaction(k, q));
                let rhs = if forcing.is_zero() && !constraint_count(self).is_empty() {
                    Math::sum(reactions.collect())
                } else {
                    Math::sum(std::iter::once(layout(forcing)).chain(reactions).collect())
                };
                (layout(&inertia_terms(symbolic, &self.coordinates, i)), rhs)
            })
            .collect();
        Some(rows)
    }
}

/// How many of the model's constraints, the first ones, are holonomic.
fn holonomic_count(eq: &Equations) -> usize {
    eq.constraints
        .as_ref()
        .map_or(0, |c| c.text.len() - c.on_velocities.min(c.text.len()))
}

/// `1..=k` for the model's `k` constraints.
fn constraint_count(eq: &Equations) -> std::ops::RangeInclusive<usize> {
    1..=eq.constraints.as_ref().map_or(0, |c| c.text.len())
}
