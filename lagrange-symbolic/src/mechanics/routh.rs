//! Routh's reduction: the ignoration of cyclic coordinates (Thomson & Tait §319,
//! Example G).
//!
//! For ignored coordinates χ with `∂L/∂χ ≡ 0` and no force or dissipation acting on them,
//! the momenta `∂L/∂χ̇ = C` are constant (T&T eq. 2). Solving these for `χ̇` (eq. 7) and
//! forming the Routhian `R = L − Σ C χ̇` gives a Lagrangian for the retained coordinates
//! alone. Its velocity-linear terms are the gyroscopic terms of eq. 19, with
//! antisymmetric coefficients; its velocity-free part holds `−K`, so `K` acts as an extra
//! potential energy. The ignored coordinates follow by quadrature of `χ̇(t, q, q̇, C)`.

use super::System;
use crate::cas::{Session, Sym, Var};
use crate::equations::Reduced;
use crate::model::{self, CheckedModel, Item, ModelError};

/// The reduced system of `full` over `model.ignored`.
pub(crate) fn reduce(
    s: &Session,
    model: &CheckedModel,
    full: &System,
) -> Result<Reduced, Vec<ModelError>> {
    let ignored = &model.ignored;
    check_cyclic(s, model, full)?;
    let chi_dot: Vec<Var> = ignored.iter().map(|&i| Var::Velocity(i)).collect();
    // L does not depend on χ (checked, possibly only numerically: an expression built from
    // rotations can carry sin²χ + cos²χ), so χ may be given any value; 0 removes it.
    let chi: Vec<Var> = ignored.iter().map(|&i| Var::Coordinate(i)).collect();
    let lagrangian = full.lagrangian.substitute_zero(&chi);
    let momenta: Vec<Sym> = chi_dot.iter().map(|&v| lagrangian.diff(v)).collect();

    let velocities = ignored_velocities(s, model, &momenta, &chi_dot)?;
    let elimination: Vec<(Var, Sym)> = chi_dot
        .iter()
        .copied()
        .zip(velocities.iter().cloned())
        .collect();
    let eliminate = |e: &Sym| e.substitute(&elimination);

    let mut routhian = lagrangian;
    for (j, v) in chi_dot.iter().enumerate() {
        routhian = &routhian - &(&s.var(Var::ConstantMomentum(j)) * &s.var(*v));
    }
    let routhian = eliminate(&routhian);
    let retained: Vec<usize> = (0..model.coordinates.len())
        .filter(|i| !ignored.contains(i))
        .collect();
    let names: Vec<String> = ignored
        .iter()
        .map(|&i| model::momentum_name(&model.coordinates[i]))
        .collect();
    let reduced = System {
        lagrangian: routhian.clone(),
        energy: None,
        split_source: routhian.clone(),
        forces: retained
            .iter()
            .map(|&i| full.forces[i].as_ref().map(eliminate))
            .collect(),
        dissipation: full.dissipation.as_ref().map(eliminate),
        constraints: Vec::new(),
        velocity_constraints: Vec::new(),
        rolling: Vec::new(),
        // The model's parameters come first, so the inputs keep their indices.
        inputs: full.inputs.clone(),
        coordinates: retained
            .iter()
            .map(|&i| full.coordinates[i].clone())
            .collect(),
        parameters: full
            .parameters
            .iter()
            .cloned()
            .chain(
                names
                    .into_iter()
                    .enumerate()
                    .map(|(j, n)| (Var::ConstantMomentum(j), n)),
            )
            .collect(),
    };
    let name = format!("{}Reduced", model.name);
    let equations = super::equations(s, &reduced, &name, None).map_err(ModelError::whole_model)?;
    let ignored_velocities = s
        .compile(&velocities, &reduced.inputs())
        .map_err(ModelError::whole_model)?;
    Ok(Reduced {
        equations,
        ignored: ignored
            .iter()
            .map(|&i| model.coordinates[i].clone())
            .collect(),
        retained,
        ignored_indices: ignored.clone(),
        ignored_velocities,
        routhian: s
            .to_expr(&routhian.printable())
            .map_err(ModelError::whole_model)?,
    })
}

/// The ignored velocities `χ̇` solved from their momenta `∂L/∂χ̇ = C` (`momenta`, linear
/// in `chi_dot`) by Cramer's rule; an error when they are not linear in them or their
/// block of the kinetic energy is singular.
fn ignored_velocities(
    s: &Session,
    model: &CheckedModel,
    momenta: &[Sym],
    chi_dot: &[Var],
) -> Result<Vec<Sym>, Vec<ModelError>> {
    let ignored = &model.ignored;
    // ∂L/∂χ̇ = A χ̇ + r with A = ∂²L/∂χ̇∂χ̇ and r = ∂L/∂χ̇ at χ̇ = 0.
    let a: Vec<Vec<Sym>> = momenta
        .iter()
        .map(|p| chi_dot.iter().map(|&v| p.diff(v)).collect())
        .collect();
    if let Some(k) =
        (0..ignored.len()).find(|&k| a[k].iter().any(|e| chi_dot.iter().any(|&v| e.contains(v))))
    {
        return Err(vec![ModelError {
            item: Item::Ignore(k),
            message: format!(
                "cannot ignore `{}`: its momentum is not linear in the ignored velocities, so they cannot be eliminated",
                model.coordinates[ignored[k]]
            ),
        }]);
    }
    let rhs: Vec<Sym> = momenta
        .iter()
        .enumerate()
        .map(|(j, p)| &s.var(Var::ConstantMomentum(j)) - &p.substitute_zero(chi_dot))
        .collect();
    let determinant = det(s, &a);
    // Numerically as well: an expression too large to expand is not zero structurally.
    if s.vanishes(&determinant).map_err(ModelError::whole_model)? {
        return Err(vec![ModelError {
            item: Item::Ignore(0),
            message: "cannot ignore these coordinates: the kinetic energy's block for their velocities is singular".into(),
        }]);
    }
    // Cramer's rule: χ̇ⱼ = det(A with column j replaced by C − r) / det A.
    let velocities: Vec<Sym> = (0..ignored.len())
        .map(|j| {
            let replaced: Vec<Vec<Sym>> = a
                .iter()
                .zip(&rhs)
                .map(|(row, r)| {
                    let mut row = row.clone();
                    row[j] = r.clone();
                    row
                })
                .collect();
            &det(s, &replaced) / &determinant
        })
        .collect();
    Ok(velocities)
}

/// Each ignored coordinate must be cyclic: absent from `L`, from the dissipation's
/// dependence on its velocity, and from the forces on the retained coordinates.
fn check_cyclic(s: &Session, model: &CheckedModel, full: &System) -> Result<(), Vec<ModelError>> {
    let mut errors = Vec::new();
    for (k, &i) in model.ignored.iter().enumerate() {
        let chi = &model.coordinates[i];
        let mut fail = |why: String| {
            errors.push(ModelError {
                item: Item::Ignore(k),
                message: format!("cannot ignore `{chi}`: it is not cyclic, {why}"),
            })
        };
        if !s
            .vanishes(&full.lagrangian.diff(Var::Coordinate(i)))
            .map_err(ModelError::whole_model)?
        {
            fail(format!("the Lagrangian depends on it (∂L/∂{chi} ≠ 0)"));
        }
        let dissipated = match &full.dissipation {
            Some(d) => !s
                .vanishes(&d.diff(Var::Velocity(i)))
                .map_err(ModelError::whole_model)?,
            None => false,
        };
        if dissipated {
            fail(format!("the dissipation function depends on `dot({chi})`"));
        }
        let q = Var::Coordinate(i);
        if full.forces.iter().flatten().any(|f| f.contains(q))
            || full.dissipation.as_ref().is_some_and(|d| d.contains(q))
        {
            fail("a generalized force or the dissipation function depends on it".into());
        }
    }
    if errors.is_empty() {
        Ok(())
    } else {
        Err(errors)
    }
}

/// The determinant by expansion along the first row (the blocks are small: one entry
/// per ignored coordinate).
fn det(s: &Session, m: &[Vec<Sym>]) -> Sym {
    match m.len() {
        0 => s.int(1),
        1 => m[0][0].clone(),
        n => (0..n).fold(s.int(0), |acc, j| {
            let minor: Vec<Vec<Sym>> = m[1..]
                .iter()
                .map(|row| {
                    row.iter()
                        .enumerate()
                        .filter(|&(c, _)| c != j)
                        .map(|(_, e)| e.clone())
                        .collect()
                })
                .collect();
            let term = &m[0][j] * &det(s, &minor);
            if j % 2 == 0 {
                &acc + &term
            } else {
                &acc - &term
            }
        }),
    }
}
