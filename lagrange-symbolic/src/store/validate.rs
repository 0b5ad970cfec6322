//! The shapes of a stored derivation checked against its model: every program has the
//! counts its role requires and every index list fits, so a damaged entry is an error
//! before any program runs.

use crate::equations::layout;
use crate::equations::{Derived, Equations, Theorem};
use crate::ir::Program;
use crate::model::Model;

/// Checks a derivation of `model`: its coordinates and parameters are the model's (the
/// reduced system's parameters followed by one momentum per ignored coordinate), every
/// program has the counts its role requires (see [`Equations`]), and the index lists fit
/// the coordinates.
pub(super) fn validate(derived: &Derived, model: &Model) -> Result<(), String> {
    let full = &derived.full;
    if full.coordinates != model.coordinates || full.parameters != model.parameters {
        return Err("its coordinates or parameters are not the model's".into());
    }
    validate_equations(full, "")?;
    let Some(reduced) = &derived.reduced else {
        return Ok(());
    };
    if reduced.equations.parameters.len() != model.parameters.len() + reduced.ignored.len() {
        return Err("the reduced system's parameters do not fit the model".into());
    }
    validate_equations(&reduced.equations, "reduced ")?;
    let inputs = reduced.equations.inputs().len();
    let k = reduced.ignored.len();
    program(
        "reduced ignored_velocities",
        &reduced.ignored_velocities,
        inputs,
        k,
    )?;
    let n = derived.full.coordinates.len();
    let indices = reduced.retained.iter().chain(&reduced.ignored_indices);
    if reduced.ignored_indices.len() != k
        || reduced.retained.len() != reduced.equations.coordinates.len()
        || indices.clone().any(|&i| i >= n)
    {
        return Err("the reduced system's coordinate indices do not fit the model".into());
    }
    Ok(())
}

/// Checks equations made or read outside the store as a stored entry's are checked (every
/// program has the counts its role requires, every index list fits the coordinates), so
/// that a damaged set is an error before any of its programs runs.
pub fn check_equations(eq: &Equations) -> Result<(), String> {
    validate_equations(eq, "")
}

/// Checks one set of equations (`role` begins the names in its errors): every program
/// has the counts its role requires and every index list fits the coordinates.
fn validate_equations(eq: &Equations, role: &str) -> Result<(), String> {
    let n = eq.coordinates.len();
    let inputs = eq.inputs().len();
    let p = &eq.programs;
    let layout = eq.layout();
    for (name, prog, outputs) in [
        ("dynamics", &p.dynamics, layout::outputs(&layout.dynamics())),
        ("lagrangian", &p.lagrangian, 1),
        ("energy", &p.energy, 1),
        ("jacobi_integral", &p.jacobi_integral, 1),
        ("momenta", &p.momenta, n),
        ("momentum_rate", &p.momentum_rate, n),
        ("momentum_jacobian", &p.momentum_jacobian, n * n),
        ("lagrangian_hessian", &p.lagrangian_hessian, n * n),
    ] {
        program(&format!("{role}{name}"), prog, inputs, outputs)?;
    }
    let m = eq.parameters.len();
    if eq.inputs.iter().any(|&i| i >= m) {
        return Err(format!(
            "the {role}equations' inputs are not among their {m} parameters"
        ));
    }
    program(
        &format!("{role}residual_jacobians"),
        &p.residual_jacobians,
        eq.inputs().with_accelerations(0),
        layout::outputs(&layout.residual_jacobians()),
    )?;
    program(
        &format!("{role}inverse_dynamics"),
        &p.inverse_dynamics,
        eq.inputs().with_accelerations(0),
        n,
    )?;
    if let Some(w) = &eq.joint_wrenches {
        program(
            &format!("{role}joint_wrenches"),
            &w.program,
            eq.inputs().with_accelerations(0),
            layout::joint_wrenches(w.bodies.len()),
        )?;
    }
    validate_theorems(eq, role)?;
    validate_drawing(eq, role)?;
    validate_constraints(eq, role)?;
    let misshapen_print = eq.symbolic.as_ref().is_some_and(|s| {
        s.mass_matrix.len() != n
            || s.mass_matrix.iter().any(|row| row.len() != n)
            || s.forcing.len() != n
            || s.momenta.len() != n
            || s.linearization.as_ref().is_some_and(|l| {
                let misshapen = |rows: &[Vec<crate::syntax::Expr>], width: usize| {
                    rows.len() != n || rows.iter().any(|r| r.len() != width)
                };
                misshapen(&l.coordinates, n)
                    || misshapen(&l.velocities, n)
                    || misshapen(&l.inputs, eq.inputs.len())
            })
    });
    if eq.cyclic.iter().any(|&i| i >= n) || misshapen_print {
        return Err(format!(
            "the {role}equations' sizes do not match their {n} coordinates"
        ));
    }
    Ok(())
}

/// Checks the theorems of `eq`, if any: the dynamic functions' and balances' programs,
/// the nine theorems in order, and no integral without its premise.
fn validate_theorems(eq: &Equations, role: &str) -> Result<(), String> {
    let Some(t) = &eq.theorems else {
        return Ok(());
    };
    let inputs = eq.inputs().len();
    program(
        &format!("{role}dynamic_functions"),
        &t.dynamic_functions,
        inputs,
        layout::DYNAMIC_FUNCTIONS,
    )?;
    let theorems: Vec<_> = t.laws.iter().map(|law| law.theorem).collect();
    if theorems != Theorem::ALL {
        return Err(format!("{role}theorems: not the nine theorems in order"));
    }
    if t.laws.iter().any(|law| law.integral && !law.holds()) {
        return Err(format!(
            "{role}theorems: an integral whose premise does not hold"
        ));
    }
    let holding = t.laws.iter().filter(|law| law.holds()).count();
    program(
        &format!("{role}balance"),
        &t.balance,
        eq.inputs().with_accelerations(0),
        layout::balances(holding),
    )?;
    Ok(())
}

/// Checks the drawing of `eq`, if any: its program, and every line and frame of a drawn
/// point.
fn validate_drawing(eq: &Equations, role: &str) -> Result<(), String> {
    let Some(d) = &eq.drawing else {
        return Ok(());
    };
    let inputs = eq.inputs().len();
    program(
        &format!("{role}drawing"),
        &d.program,
        inputs,
        layout::drawing(d.points.len(), d.frames.len()),
    )?;
    let points = d.points.len();
    let inside = |i: usize| i < points;
    if !d.frames.iter().all(|&i| inside(i))
        || !d
            .links
            .iter()
            .all(|&(a, b)| inside(a) && b.is_none_or(inside))
    {
        return Err(format!("{role}drawing: a line or frame of no drawn point"));
    }
    Ok(())
}

/// Checks the constraints of `eq`, if any: their programs, and one flag per constraint.
fn validate_constraints(eq: &Equations, role: &str) -> Result<(), String> {
    let Some(c) = &eq.constraints else {
        return Ok(());
    };
    let n = eq.coordinates.len();
    let inputs = eq.inputs().len();
    let layout = eq.layout();
    let k = c.text.len();
    program(
        &format!("{role}constraint jacobians"),
        &c.jacobians,
        eq.inputs().with_accelerations(k),
        layout::outputs(&layout.constraint_jacobians()),
    )?;
    if c.scleronomic.len() != k {
        return Err(format!(
            "{role}constraints: {k} constraints, {} flags",
            c.scleronomic.len()
        ));
    }
    if c.on_velocities > k {
        return Err(format!(
            "{role}constraints: {} on the velocities of {k}",
            c.on_velocities
        ));
    }
    for (name, prog, outputs) in [
        ("values", &c.values, k),
        ("jacobian", &c.jacobian, k * n),
        ("time_derivative", &c.time_derivative, k),
        ("velocities", &c.velocities, k),
        (
            "dynamics",
            &c.dynamics,
            layout::outputs(&layout.constraint_dynamics()),
        ),
    ] {
        program(&format!("{role}constraint {name}"), prog, inputs, outputs)?;
    }
    Ok(())
}

fn program(name: &str, program: &Program, inputs: usize, outputs: usize) -> Result<(), String> {
    program
        .validate(inputs, outputs)
        .map_err(|e| format!("program `{name}`: {e}"))
}
