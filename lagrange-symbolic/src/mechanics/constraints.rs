//! Holonomic constraints `G(t, q) = 0`: the Jacobian `J = ∂G/∂q`,
//! `G_t = ∂G/∂t`, the constraint velocity `Ġ = J q̇ + G_t` and the bias `c` with
//! `G̈ = J q̈ + c`, where `c = Σⱼ ∂Ġ/∂qⱼ q̇ⱼ + ∂Ġ/∂t` (the `J̇ q̇`, `2 ∂J/∂t q̇` and `G_tt`
//! terms). The runtime solves `M q̈ = f + Jᵀλ`, `J q̈ = −c` for `q̈` and the multipliers
//! `λ`; the reaction of constraint `i` is `λᵢ ∇Gᵢ`.

use crate::cas::{Session, Sym, Var};
use crate::equations::ConstraintEquations;
use crate::syntax::print;

/// The constraint programs over the inputs `inputs` for `coordinates` (engine indices);
/// `parameters` are the parameters among the inputs.
pub(crate) fn derive(
    s: &Session,
    constraints: &[Sym],
    coordinates: &[usize],
    parameters: &[Var],
    inputs: &[Var],
) -> Result<ConstraintEquations, String> {
    let q = |j: usize| Var::Coordinate(coordinates[j]);
    let v = |j: usize| s.var(Var::Velocity(coordinates[j]));
    let n = coordinates.len();
    let jacobian: Vec<Sym> = constraints
        .iter()
        .flat_map(|g| (0..n).map(move |j| g.diff(q(j))))
        .collect();
    let time_derivative: Vec<Sym> = constraints.iter().map(|g| g.diff(Var::Time)).collect();
    let velocities: Vec<Sym> = constraints
        .iter()
        .enumerate()
        .map(|(i, _)| {
            (0..n).fold(time_derivative[i].clone(), |acc, j| {
                &acc + &(&jacobian[i * n + j] * &v(j))
            })
        })
        .collect();
    let bias: Vec<Sym> = velocities
        .iter()
        .map(|gd| {
            (0..n).fold(gd.diff(Var::Time), |acc, j| {
                &acc + &(&gd.diff(q(j)) * &v(j))
            })
        })
        .collect();
    let scleronomic = time_derivative
        .iter()
        .map(|gt| s.vanishes(gt))
        .collect::<Result<_, _>>()?;
    let shown = constraints
        .iter()
        .map(|g| s.to_expr(&g.printable()).map(|e| print::text(&e)))
        .collect::<Result<_, _>>()?;
    let compile = |outputs: &[Sym]| s.compile(outputs, inputs);
    let dynamics: Vec<Sym> = jacobian.iter().chain(&bias).cloned().collect();
    let k = constraints.len();
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
    let velocity_vars: Vec<Var> = coordinates.iter().map(|&i| Var::Velocity(i)).collect();
    let coordinate_vars: Vec<Var> = (0..n).map(q).collect();
    let derivatives = |of: &[Sym], wrt: &[Var]| -> Vec<Sym> {
        of.iter()
            .flat_map(|e| wrt.iter().map(move |&x| e.diff(x)))
            .collect()
    };
    let jacobians: Vec<Sym> = [
        derivatives(&residual, &coordinate_vars),
        derivatives(&residual, &velocity_vars),
        derivatives(&residual, parameters),
        derivatives(&reaction, &coordinate_vars),
        derivatives(&reaction, parameters),
    ]
    .concat();
    let jacobian_inputs: Vec<Var> = inputs
        .iter()
        .copied()
        .chain(accelerations)
        .chain(multipliers)
        .collect();
    Ok(ConstraintEquations {
        text: shown,
        scleronomic,
        values: compile(constraints)?,
        jacobian: compile(&jacobian)?,
        time_derivative: compile(&time_derivative)?,
        velocities: compile(&velocities)?,
        dynamics: compile(&dynamics)?,
        jacobians: s.compile(&jacobians, &jacobian_inputs)?,
    })
}
