//! `lagrange derive --format latex`: the derivation as a LaTeX document, rendered from
//! `templates/latex/report.tex`.

use lagrange_symbolic::equations::{Derived, Equations, Reduced};
use lagrange_symbolic::syntax::Expr;
use lagrange_symbolic::syntax::print;
use serde::Serialize;

use super::{cyclic, linearization_entries, mass_entries};
use crate::LoadError;
use crate::file::ModelFile;

/// The LaTeX report's template.
const REPORT: &str = include_str!("../../../templates/latex/report.tex");

/// The whole derivation as a LaTeX document, rendered from `templates/latex/report.tex`.
pub fn document(file: &ModelFile, derived: &Derived) -> Result<String, LoadError> {
    let mut systems = vec![LatexSystem::new(&derived.full, None)?];
    if let Some(reduced) = &derived.reduced {
        systems.push(LatexSystem::new(&reduced.equations, Some(reduced))?);
    }
    let mut tera = tera::Tera::default();
    tera.add_raw_template("report.tex", REPORT)
        .map_err(|e| LoadError(format!("the LaTeX template does not parse: {e}")))?;
    let mut context = tera::Context::new();
    context.insert("title", &latex_text(&file.model.name));
    context.insert("source", &latex_text(&file.path.display().to_string()));
    context.insert("systems", &systems);
    tera.render("report.tex", &context)
        .map_err(|e| LoadError(format!("cannot render the LaTeX report: {e}")))
}

/// One system's sections of the LaTeX report; every field is LaTeX (math unless named
/// otherwise).
#[derive(Serialize)]
struct LatexSystem {
    /// The model's name, as text.
    name: String,
    coordinates: Vec<String>,
    parameters: Vec<String>,
    lagrangian: String,
    /// The body of an `align*` environment.
    equations: String,
    /// The upper triangle's non-zero entries.
    mass_matrix: Vec<Entry>,
    forcing: Vec<Entry>,
    momenta: Vec<Entry>,
    /// Whether the energy is `T + V` (else the Jacobi integral of a given `L`).
    from_kinetic_potential: bool,
    energy: String,
    jacobi_integral: String,
    /// `energy`, `jacobi_integral` or `none`.
    conserved: &'static str,
    cyclic: Vec<String>,
    constraints: Vec<Constraint>,
    /// The non-zero entries of `K`, `C` and `B` of the linearization (empty when it is too
    /// large to print, see `linearization_printed`).
    linearization: Vec<Entry>,
    /// Whether the engine gave the linearization as expressions.
    linearization_printed: bool,
    /// The reduced system's ignored coordinates (empty for the full system).
    ignored: Vec<String>,
    /// The Routhian, for the reduced system.
    routhian: Option<String>,
}

/// A named entry: `name &= value` in an `align*`.
#[derive(Serialize)]
struct Entry {
    name: String,
    value: String,
}

/// A constraint `G = 0`, whether it is scleronomic and whether it is on the velocities.
#[derive(Serialize)]
struct Constraint {
    value: String,
    scleronomic: bool,
    on_velocities: bool,
}

impl LatexSystem {
    fn new(eq: &Equations, reduced: Option<&Reduced>) -> Result<LatexSystem, LoadError> {
        let Some(symbolic) = &eq.symbolic else {
            return Err(LoadError(format!(
                "`{}` is a kinematic tree too deep or too large to expand: its equations have no printed form (the text and JSON formats say what was derived)",
                eq.name
            )));
        };
        let names = |names: &[String]| names.iter().map(|n| print::latex_name(n)).collect();
        let q = |i: usize| print::latex_name(&eq.coordinates[i]);
        let per_coordinate = |symbol: &str, values: &[Expr]| {
            values
                .iter()
                .enumerate()
                .map(|(i, v)| Entry {
                    name: format!("{symbol}_{{{}}}", q(i)),
                    value: print::latex(v),
                })
                .collect()
        };
        let constraints = match &eq.constraints {
            Some(c) => c
                .text
                .iter()
                .zip(&c.scleronomic)
                .enumerate()
                .map(|(k, (g, &scleronomic))| {
                    let g = Expr::parse(g).map_err(|e| {
                        LoadError(format!("cannot read back the constraint `{g}`: {e}"))
                    })?;
                    Ok(Constraint {
                        value: print::latex(&g),
                        scleronomic,
                        on_velocities: k + c.on_velocities >= c.text.len(),
                    })
                })
                .collect::<Result<_, LoadError>>()?,
            None => Vec::new(),
        };
        Ok(LatexSystem {
            name: latex_text(&eq.name),
            coordinates: names(&eq.coordinates),
            parameters: names(&eq.parameters),
            lagrangian: print::latex(&symbolic.lagrangian),
            equations: eq.latex(),
            mass_matrix: mass_entries(symbolic)
                .map(|(i, j, m)| Entry {
                    name: format!("M_{{{} {}}}", q(i), q(j)),
                    value: print::latex(m),
                })
                .collect(),
            forcing: per_coordinate("f", &symbolic.forcing),
            momenta: per_coordinate("p", &symbolic.momenta),
            from_kinetic_potential: eq.from_kinetic_potential,
            energy: print::latex(&symbolic.energy),
            jacobi_integral: print::latex(&symbolic.jacobi_integral),
            conserved: eq.conserved.name().unwrap_or("none"),
            cyclic: cyclic(eq).into_iter().map(print::latex_name).collect(),
            constraints,
            linearization: linearization_entries(eq)
                .into_iter()
                .map(|(name, row, column, value)| Entry {
                    name: format!(
                        "{name}_{{{} {}}}",
                        print::latex_name(row),
                        print::latex_name(column)
                    ),
                    value: print::latex(value),
                })
                .collect(),
            linearization_printed: symbolic.linearization.is_some(),
            ignored: reduced.map_or_else(Vec::new, |r| names(&r.ignored)),
            routhian: reduced.map(|r| print::latex(&r.routhian)),
        })
    }
}

/// Text with LaTeX's special characters escaped, for text mode.
fn latex_text(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '\\' => out.push_str("\\textbackslash{}"),
            '~' => out.push_str("\\textasciitilde{}"),
            '^' => out.push_str("\\textasciicircum{}"),
            '&' | '%' | '$' | '#' | '_' | '{' | '}' => {
                out.push('\\');
                out.push(c);
            }
            _ => out.push(c),
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::latex_text;

    #[test]
    fn latex_specials_are_escaped() {
        assert_eq!(
            latex_text("a_b%c\\d~e"),
            "a\\_b\\%c\\textbackslash{}d\\textasciitilde{}e"
        );
    }
}
