//! Constraints: holonomic `G(t, q) = 0` and on the velocities `e = a(t, q)·q̇ + b(t, q) = 0`,
//! both as rows of one constraint on the velocities `J q̇ + ∂G/∂t = 0` — for `G`, its
//! Jacobian `J = ∂G/∂q` and `∂G/∂t`; for `e`, `J = a = ∂e/∂q̇` and `b` in place of `∂G/∂t`,
//! and `G` itself taken as 0, so that a projection onto the constraints moves the
//! coordinates only along what the velocity constraints allow. The constraint velocity
//! `Ġ = J q̇ + ∂G/∂t` (`e` itself) and the bias `c` with `G̈ = J q̈ + c`, where
//! `c = Σⱼ ∂Ġ/∂qⱼ q̇ⱼ + ∂Ġ/∂t` (the `J̇ q̇`, `2 ∂J/∂t q̇` and `G_tt` terms), are then one
//! formula for both kinds. The runtime solves `M q̈ = f + Jᵀλ`, `J q̈ = −c` for `q̈` and the
//! multipliers `λ` (Lagrange–d'Alembert for the velocity constraints); the reaction of
//! constraint `i` is `λᵢ Jᵢ`.

use super::System;
use crate::cas::{Session, Sym, Var};
use crate::equations::ConstraintEquations;
use crate::syntax::print;

/// The constraint programs of `system` over `inputs`, if it has constraints: the
/// holonomic ones, then those on the velocities.
pub(crate) fn derive(
    s: &Session,
    system: &System,
    inputs: &[Var],
) -> Result<Option<ConstraintEquations>, String> {
    let (holonomic, on_velocities) = (&system.constraints, &system.velocity_constraints);
    if holonomic.is_empty() && on_velocities.is_empty() {
        return Ok(None);
    }
    let coordinates: Vec<usize> = system.coordinates.iter().map(|(i, _)| *i).collect();
    let parameters: Vec<Var> = system.parameters.iter().map(|(var, _)| *var).collect();
    let q = |j: usize| Var::Coordinate(coordinates[j]);
    let velocity_vars: Vec<Var> = coordinates.iter().map(|&i| Var::Velocity(i)).collect();
    let v = |j: usize| s.var(velocity_vars[j]);
    let n = coordinates.len();
    let jacobian: Vec<Sym> = holonomic
        .iter()
        .flat_map(|g| (0..n).map(move |j| g.diff(q(j))))
        .chain(
            on_velocities
                .iter()
                .flat_map(|e| velocity_vars.iter().map(move |&x| e.diff(x))),
        )
        .collect();
    let time_derivative: Vec<Sym> = holonomic
        .iter()
        .map(|g| g.diff(Var::Time))
        .chain(on_velocities.iter().map(|e| system.velocity_free_part(e)))
        .collect();
    let values: Vec<Sym> = holonomic
        .iter()
        .cloned()
        .chain(on_velocities.iter().map(|_| s.int(0)))
        .collect();
    let velocities: Vec<Sym> = holonomic
        .iter()
        .enumerate()
        .map(|(i, _)| {
            (0..n).fold(time_derivative[i].clone(), |acc, j| {
                &acc + &(&jacobian[i * n + j] * &v(j))
            })
        })
        .chain(on_velocities.iter().cloned())
        .collect();
    let bias: Vec<Sym> = velocities
        .iter()
        .map(|gd| {
            (0..n).fold(gd.diff(Var::Time), |acc, j| {
                &acc + &(&gd.diff(q(j)) * &v(j))
            })
        })
        .collect();
    // A velocity constraint is fixed when it does no work: `b ≡ 0` and no `t` in `a`.
    let scleronomic = time_derivative
        .iter()
        .zip(system.all_constraints())
        .enumerate()
        .map(|(i, (gt, g))| Ok(s.vanishes(gt)? && (i < holonomic.len() || !g.contains(Var::Time))))
        .collect::<Result<_, String>>()?;
    let shown = system
        .all_constraints()
        .map(|g| s.to_expr(&g.printable()).map(|e| print::text(&e)))
        .collect::<Result<_, _>>()?;
    let compile = |outputs: &[Sym]| s.compile(outputs, inputs);
    let dynamics: Vec<Sym> = jacobian.iter().chain(&bias).cloned().collect();
    let k = values.len();
    let accelerations: Vec<Var> = coordinates.iter().map(|&i| Var::Acceleration(i)).collect();
    let multipliers: Vec<Var> = (0..k).map(Var::Multiplier).collect();
    // s = J q̈ + c and the reaction Jᵀλ.
    let residual: Vec<Sym> = (0..k)
        .map(|i| {
            (0..n).fold(bias[i].clone(), |acc, j| {
                &acc + &(&jacobian[i * n + j] * &s.var(accelerations[j]))
            })
        })
        .collect();
    let reaction: Vec<Sym> = (0..n)
        .map(|j| {
            (0..k).fold(s.int(0), |acc, i| {
                &acc + &(&jacobian[i * n + j] * &s.var(multipliers[i]))
            })
        })
        .collect();
    let coordinate_vars: Vec<Var> = (0..n).map(q).collect();
    let derivatives = |of: &[Sym], wrt: &[Var]| -> Vec<Sym> {
        of.iter()
            .flat_map(|e| wrt.iter().map(move |&x| e.diff(x)))
            .collect()
    };
    let jacobians: Vec<Sym> = [
        derivatives(&residual, &coordinate_vars),
        derivatives(&residual, &velocity_vars),
        derivatives(&residual, &parameters),
        derivatives(&reaction, &coordinate_vars),
        derivatives(&reaction, &parameters),
    ]
    .concat();
    let jacobian_inputs: Vec<Var> = inputs
        .iter()
        .copied()
        .chain(accelerations)
        .chain(multipliers)
        .collect();
    Ok(Some(ConstraintEquations {
        text: shown,
        scleronomic,
        on_velocities: on_velocities.len(),
        rolling: system.rolling.clone(),
        values: compile(&values)?,
        jacobian: compile(&jacobian)?,
        time_derivative: compile(&time_derivative)?,
        velocities: compile(&velocities)?,
        dynamics: compile(&dynamics)?,
        jacobians: s.compile(&jacobians, &jacobian_inputs)?,
    }))
}
