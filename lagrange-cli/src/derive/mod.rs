//! `lagrange derive`: the derived equations of a model file as text, as a LaTeX document,
//! or as JSON.

use std::fmt::Write as _;
use std::path::PathBuf;

use lagrange_symbolic::equations::{
    self, Conserved, Derived, Equations, Premise, Reduced, Symbolic, Theorems,
};
use lagrange_symbolic::syntax::Expr;
use lagrange_symbolic::syntax::print;
use serde::Serialize;

use super::Failure;
use super::file::ModelFile;

/// Arguments of `lagrange derive`.
#[derive(clap::Args)]
pub(crate) struct Args {
    /// The model file (TOML).
    model: PathBuf,
    /// How to print the derivation.
    #[arg(long, value_enum, default_value_t = Format::Text)]
    format: Format,
}

/// Output formats.
#[derive(Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
enum Format {
    /// Plain text in the model syntax.
    Text,
    /// A complete LaTeX document.
    Latex,
    /// The model, its parameter values and the derivation, as JSON.
    Json,
}

/// Runs `lagrange derive`.
pub(crate) fn run(args: &Args) -> Result<(), Failure> {
    let file = ModelFile::load(&args.model)?;
    let values = file.parameter_values()?;
    // JSON has no NaN or infinity: refuse before the engine runs.
    let json_values = match args.format {
        Format::Json => Some(json_values(&file, &values)?),
        _ => None,
    };
    let derived = file.derive()?;
    let out = match (args.format, json_values) {
        (Format::Json, Some(values)) => json(&file, values, &derived)?,
        (Format::Latex, _) => latex(&file, &derived)?,
        _ => text(&derived),
    };
    outln!("{out}");
    Ok(())
}

/// What `--format json` prints.
#[derive(Serialize)]
struct Document<'a> {
    model: &'a lagrange_symbolic::model::Model,
    /// Parameter values by name, in the model's parameter order.
    values: serde_json::Map<String, serde_json::Value>,
    derived: &'a Derived,
}

/// The parameter values by name as JSON numbers; a value that is not finite (which JSON
/// cannot hold, and serde would silently write as `null`) is an error naming it.
fn json_values(
    file: &ModelFile,
    values: &[f64],
) -> Result<serde_json::Map<String, serde_json::Value>, Failure> {
    file.model
        .parameters
        .iter()
        .zip(values)
        .map(|(p, &v)| {
            serde_json::Number::from_f64(v)
                .map(|n| (p.clone(), serde_json::Value::Number(n)))
                .ok_or_else(|| {
                    Failure(format!(
                        "{}: the value of the parameter `{p}` is {v}, which JSON cannot represent: give a finite number in [values]",
                        file.path.display()
                    ))
                })
        })
        .collect()
}

fn json(
    file: &ModelFile,
    values: serde_json::Map<String, serde_json::Value>,
    derived: &Derived,
) -> Result<String, Failure> {
    let document = Document {
        model: &file.model,
        values,
        derived,
    };
    serde_json::to_string_pretty(&document).map_err(|e| Failure(format!("cannot write JSON: {e}")))
}

/// The upper triangle of the (symmetric) mass matrix without its zero entries:
/// `(i, j, Mᵢⱼ)`.
fn mass_entries(symbolic: &Symbolic) -> impl Iterator<Item = (usize, usize, &Expr)> {
    symbolic
        .mass_matrix
        .iter()
        .enumerate()
        .flat_map(|(i, row)| row.iter().enumerate().skip(i).map(move |(j, m)| (i, j, m)))
        .filter(|(_, _, m)| !m.is_zero())
}

/// The sentence on the conserved integral.
fn conserved(eq: &Equations) -> &'static str {
    match eq.conserved {
        Conserved::Energy => "the energy T + V (equal to the Jacobi integral)",
        Conserved::JacobiIntegral => "the Jacobi integral h (not T + V)",
        Conserved::None => {
            "none (explicit time dependence, generalized forces, dissipation or moving constraints)"
        }
    }
}

/// The names of the cyclic coordinates.
fn cyclic(eq: &Equations) -> Vec<&str> {
    eq.cyclic
        .iter()
        .map(|&i| eq.coordinates[i].as_str())
        .collect()
}

/// Whether the constraint's presentation is time-independent, in words; for a constraint
/// on the velocities, also whether its reaction can do work.
fn constraint_kind(scleronomic: bool, on_velocities: bool) -> &'static str {
    match (on_velocities, scleronomic) {
        (false, true) => "scleronomic",
        (false, false) => "rheonomic (its presentation depends on t)",
        (true, true) => "on the velocities, linear and homogeneous: its reaction does no work",
        (true, false) => {
            "on the velocities, with a term free of them or t: its reaction may do work"
        }
    }
}

/// The whole derivation as plain text.
fn text(derived: &Derived) -> String {
    let mut out = String::new();
    equations_text(&mut out, &derived.full);
    if let Some(reduced) = &derived.reduced {
        reduced_text(&mut out, reduced);
    }
    out.trim_end().to_string()
}

/// Appends the expanded equations, mass matrix, forcing, momenta and energies.
fn symbolic_text(out: &mut String, eq: &Equations, symbolic: &Symbolic) {
    let t = print::text;
    let indent = |s: String| s.lines().map(|l| format!("  {l}\n")).collect::<String>();
    let _ = writeln!(out, "Lagrangian:\n  L = {}\n", t(&symbolic.lagrangian));
    let _ = writeln!(out, "Equations of motion:\n{}", indent(eq.text()));
    let _ = writeln!(out, "Mass matrix M (symmetric; zero entries omitted):");
    for (i, j, m) in mass_entries(symbolic) {
        let _ = writeln!(
            out,
            "  M[{}, {}] = {}",
            eq.coordinates[i],
            eq.coordinates[j],
            t(m)
        );
    }
    let _ = writeln!(out, "\nForcing f (M q'' = f):");
    for (q, f) in eq.coordinates.iter().zip(&symbolic.forcing) {
        let _ = writeln!(out, "  f[{q}] = {}", t(f));
    }
    let _ = writeln!(out, "\nMomenta:");
    for (q, p) in eq.coordinates.iter().zip(&symbolic.momenta) {
        let _ = writeln!(out, "  p[{q}] = {}", t(p));
    }
    let energy = if eq.from_kinetic_potential {
        "Energy T + V"
    } else {
        "Energy (the Jacobi integral of L)"
    };
    let _ = writeln!(out, "\n{energy}:\n  E = {}", t(&symbolic.energy));
    let _ = writeln!(
        out,
        "Jacobi integral:\n  h = {}",
        t(&symbolic.jacobi_integral)
    );
}

/// Appends the sections of one system to `out`.
fn equations_text(out: &mut String, eq: &Equations) {
    let t = print::text;
    let indent = |s: String| s.lines().map(|l| format!("  {l}\n")).collect::<String>();
    let _ = writeln!(out, "{}", eq.name);
    let _ = writeln!(out, "  coordinates: {}", eq.coordinates.join(", "));
    let _ = writeln!(out, "  parameters: {}\n", eq.parameters.join(", "));
    match &eq.symbolic {
        Some(symbolic) => symbolic_text(out, eq, symbolic),
        None => {
            let _ = writeln!(out, "Equations of motion:\n{}", indent(eq.text()));
            let _ = writeln!(
                out,
                "  (`lagrange linearize` and `simulate` evaluate them; the printed forms of a tree this deep or this large would not fit on a page)\n"
            );
        }
    }
    let _ = writeln!(out, "Conserved: {}", conserved(eq));
    if eq.dynamics_by_recursion && eq.symbolic.is_some() {
        let _ = writeln!(
            out,
            "Evaluated: M by the composite-rigid-body algorithm, f and the derivatives by recursive Newton-Euler, traced into code (an independent derivation of the equations above)"
        );
    }
    let cyclic = cyclic(eq);
    let _ = writeln!(
        out,
        "Cyclic coordinates: {}\n",
        if cyclic.is_empty() {
            "none".to_string()
        } else {
            format!("{} (their momenta are conserved)", cyclic.join(", "))
        }
    );
    match eq.symbolic.as_ref().and_then(|s| s.linearization.as_ref()) {
        Some(_) => {
            let _ = writeln!(
                out,
                "Linearized about any motion, M dq'' + C dq' + K dq = B du, with K = dr/dq, C = dr/dq', B = df/du of r = M q'' - f (zero entries omitted):"
            );
            for (name, row, column, value) in linearization_entries(eq) {
                let _ = writeln!(out, "  {name}[{row}, {column}] = {}", t(value));
            }
            let _ = writeln!(out);
        }
        None => {
            let _ = writeln!(
                out,
                "Linearization: too large to print; `lagrange linearize` evaluates it at a state\n"
            );
        }
    }
    if let Some(c) = &eq.constraints {
        let _ = writeln!(out, "Constraints:");
        let holonomic = c.text.len() - c.on_velocities.min(c.text.len());
        let derived = c.text.len() - c.rolling.len().min(c.text.len());
        for (k, (g, &s)) in c.text.iter().zip(&c.scleronomic).enumerate() {
            let kind = constraint_kind(s, k >= holonomic);
            match c
                .rolling
                .get(k.wrapping_sub(derived))
                .filter(|_| k >= derived)
            {
                // A derived rolling condition runs to kilobytes: its name, and where the
                // expression is.
                Some(name) if g.len() > DERIVED_SHOWN => {
                    let _ = writeln!(
                        out,
                        "  G{} := {name}, from the body's pose ({} characters; `--format json` has it) = 0: {kind}",
                        k + 1,
                        g.chars().count()
                    );
                }
                Some(name) => {
                    let _ = writeln!(out, "  G{} := {g} = 0 ({name}): {kind}", k + 1);
                }
                None => {
                    let _ = writeln!(out, "  G{} := {g} = 0: {kind}", k + 1);
                }
            }
        }
        let _ = writeln!(out);
    }
    if let Some(theorems) = &eq.theorems {
        theorems_text(out, theorems);
    }
}

/// Which general theorems apply, why, and which give integrals.
fn theorems_text(out: &mut String, theorems: &Theorems) {
    let _ = writeln!(
        out,
        "General theorems (the masses are particles and bodies; reactions of the constraints appear in none):"
    );
    for law in &theorems.laws {
        let name = law.theorem.function_name();
        let equation = law.theorem.law();
        let resultant = law.theorem.resultant().unwrap_or("");
        let line = match &law.premise {
            Premise::NotEstablished(why) => format!("not established: {why}"),
            Premise::Holds { symmetry, applied } => {
                let verdict = match (law.theorem, law.integral, applied, theorems.homogeneity) {
                    (equations::Theorem::KineticEnergy, true, _, _) => {
                        "integral T + V (the forces have a potential without t)".to_string()
                    }
                    (_, true, _, _) => format!("integral {name} ({resultant} = 0)"),
                    (equations::Theorem::Virial, _, _, Some(n)) => format!(
                        "holds, {resultant} = -n V: V is homogeneous of degree n = {}",
                        print::text(&Expr::Number(n))
                    ),
                    (_, false, Some(applied), _) => {
                        format!("holds, {resultant} = {}", print::excerpt(applied))
                    }
                    (_, false, None, _) => "holds".to_string(),
                };
                format!("{verdict}; {symmetry}")
            }
        };
        let _ = writeln!(out, "  {equation}: {line}");
    }
    let _ = writeln!(out);
}

/// The non-zero entries of the printed linearization, as (matrix, row, column, value):
/// `K` and `C` by coordinates, `B` by coordinate and input.
fn linearization_entries(eq: &Equations) -> Vec<(&'static str, &str, &str, &Expr)> {
    let Some(l) = eq.symbolic.as_ref().and_then(|s| s.linearization.as_ref()) else {
        return Vec::new();
    };
    let inputs: Vec<&str> = eq
        .inputs
        .iter()
        .map(|&k| eq.parameters[k].as_str())
        .collect();
    let coordinates: Vec<&str> = eq.coordinates.iter().map(String::as_str).collect();
    [
        ("K", &l.coordinates, &coordinates),
        ("C", &l.velocities, &coordinates),
        ("B", &l.inputs, &inputs),
    ]
    .into_iter()
    .flat_map(|(name, rows, columns)| {
        let coordinates = &coordinates;
        rows.iter().enumerate().flat_map(move |(i, row)| {
            row.iter()
                .zip(columns.iter())
                .filter(|(value, _)| !value.is_zero())
                .map(move |(value, &column)| (name, coordinates[i], column, value))
        })
    })
    .collect()
}

/// Appends Routh's reduction to `out`.
fn reduced_text(out: &mut String, reduced: &Reduced) {
    let _ = writeln!(
        out,
        "Routh's reduction, ignoring {} (the last parameters are their constant momenta):\n\
         Routhian:\n  R = {}\n",
        reduced.ignored.join(", "),
        print::text(&reduced.routhian)
    );
    equations_text(out, &reduced.equations);
}

/// The LaTeX report's template.
const REPORT: &str = include_str!("../../templates/latex/report.tex");

/// The whole derivation as a LaTeX document, rendered from `templates/latex/report.tex`.
fn latex(file: &ModelFile, derived: &Derived) -> Result<String, Failure> {
    let mut systems = vec![LatexSystem::new(&derived.full, None)?];
    if let Some(reduced) = &derived.reduced {
        systems.push(LatexSystem::new(&reduced.equations, Some(reduced))?);
    }
    let mut tera = tera::Tera::default();
    tera.add_raw_template("report.tex", REPORT)
        .map_err(|e| Failure(format!("the LaTeX template does not parse: {e}")))?;
    let mut context = tera::Context::new();
    context.insert("title", &latex_text(&file.model.name));
    context.insert("source", &latex_text(&file.path.display().to_string()));
    context.insert("systems", &systems);
    tera.render("report.tex", &context)
        .map_err(|e| Failure(format!("cannot render the LaTeX report: {e}")))
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

/// The longest derived rolling condition the text output prints whole.
const DERIVED_SHOWN: usize = 300;

/// A constraint `G = 0`, whether it is scleronomic and whether it is on the velocities.
#[derive(Serialize)]
struct Constraint {
    value: String,
    scleronomic: bool,
    on_velocities: bool,
}

impl LatexSystem {
    fn new(eq: &Equations, reduced: Option<&Reduced>) -> Result<LatexSystem, Failure> {
        let Some(symbolic) = &eq.symbolic else {
            return Err(Failure(format!(
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
                        Failure(format!("cannot read back the constraint `{g}`: {e}"))
                    })?;
                    Ok(Constraint {
                        value: print::latex(&g),
                        scleronomic,
                        on_velocities: k + c.on_velocities >= c.text.len(),
                    })
                })
                .collect::<Result<_, Failure>>()?,
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
