//! `lagrange derive --format text`: the derivation as plain text in the model syntax.

use std::fmt::Write as _;

use lagrange_symbolic::equations::{
    self, Conserved, Derived, Equations, Premise, Reduced, Symbolic, Theorems,
};
use lagrange_symbolic::syntax::Expr;
use lagrange_symbolic::syntax::print;

use super::{cyclic, linearization_entries, mass_entries};

/// The longest derived rolling condition the text output prints whole.
const DERIVED_SHOWN: usize = 300;

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
pub fn document(derived: &Derived) -> String {
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
