//! Lagrange's equations (Thomson & Tait §318, eq. 24) for a checked model:
//!
//! `d/dt(∂L/∂q̇ᵢ) − ∂L/∂qᵢ = Qᵢ − ∂F/∂q̇ᵢ`, expanded into `M q̈ = f` with
//! `M = ∂²L/∂q̇∂q̇` and
//! `fᵢ = ∂L/∂qᵢ − Σⱼ ∂²L/∂q̇ᵢ∂qⱼ q̇ⱼ − ∂²L/∂q̇ᵢ∂t + Qᵢ − ∂F/∂q̇ᵢ`.
//! `M` is never inverted symbolically: the generated code solves for `q̈` numerically.

use super::{System, Traced};
use crate::cas::{Session, Sym, Var};
use crate::equations::{Conserved, Equations, Linearized, Programs, Symbolic};
use crate::ir::Program;
use crate::ir::trace::{Tracer, Value};

/// Lagrange's equations and integrals of `system`, lowered to programs. `traced`, when
/// given, holds `M`, `f` and the residual's derivatives derived another way (a kinematic
/// tree's recursions), used instead of lowering the symbolic ones.
pub(crate) fn equations(
    s: &Session,
    system: &System,
    name: &str,
    traced: Option<Traced>,
) -> Result<Equations, String> {
    let n = system.coordinates.len();
    let v = |i: usize| Var::Velocity(system.coordinates[i].0);
    let lagrangian = &system.lagrangian;
    let forces = &system.forces;
    let dissipation = &system.dissipation;

    let mut d = derivatives(s, system);
    let energy = system.energy.clone().unwrap_or_else(|| d.jacobi.clone());

    let explicit_time = explicit_time(system);
    let working_constraints = system.constraints_do_work(s)?;
    let cyclic = cyclic(s, system, &d.gradient)?;
    let velocities: Vec<Var> = (0..n).map(v).collect();
    let velocity_split =
        split_by_velocity_degree(s, &system.split_source, &velocities, &d.momenta, &d.mass);
    let kinetic_form = system.energy.is_some();
    let homogeneous_kinetic = match (&velocity_split, kinetic_form) {
        (Some([_, t1, t0]), true) => s.vanishes(t1)? && s.vanishes(t0)?,
        _ => false,
    };
    let driven = driven(system);
    let forced_or_dissipative =
        forces.iter().any(Option::is_some) || dissipation.is_some() || driven;
    let conserved = match (
        !forced_or_dissipative && !explicit_time && !working_constraints,
        homogeneous_kinetic,
    ) {
        (false, _) => Conserved::None,
        (true, true) => Conserved::Energy,
        (true, false) => Conserved::JacobiIntegral,
    };

    let inputs = system.inputs();
    // A traced tree's derivatives are traced too; the symbolic ones are then derived
    // only to print a small model's linearization.
    let small = traced
        .as_ref()
        .is_none_or(|t| t.dynamics.instructions.len() <= LINEARIZATION_SOURCE);
    let residual_jacobians = if small {
        residual_jacobians(s, system, &d.mass, &d.forcing)
    } else {
        Vec::new()
    };
    let mut jacobian_inputs = inputs.clone();
    jacobian_inputs.extend((0..n).map(|i| Var::Acceleration(system.coordinates[i].0)));
    let flat_mass: Vec<Sym> = d.mass.iter().flatten().cloned().collect();
    let dynamics_outputs: Vec<Sym> = flat_mass.iter().chain(&d.forcing).cloned().collect();
    let flat_momentum_jacobian: Vec<Sym> = std::mem::take(&mut d.momentum_jacobian)
        .into_iter()
        .flatten()
        .collect();
    let compile = |outputs: &[Sym]| s.compile(outputs, &inputs);
    let dynamics_by_recursion = traced.is_some();
    let (dynamics, jacobians, inverse_dynamics) = match traced {
        Some(Traced {
            dynamics,
            residual_jacobians,
            inverse_dynamics,
        }) => (dynamics, residual_jacobians, inverse_dynamics),
        None => {
            let dynamics = compile(&dynamics_outputs)?;
            let residual = residual(&dynamics, n);
            let jacobians = s.compile(&residual_jacobians, &jacobian_inputs)?;
            (dynamics, jacobians, residual)
        }
    };
    let programs = Programs {
        dynamics,
        lagrangian: compile(std::slice::from_ref(lagrangian))?,
        energy: compile(std::slice::from_ref(&energy))?,
        jacobi_integral: compile(std::slice::from_ref(&d.jacobi))?,
        momenta: compile(&d.momenta)?,
        momentum_rate: compile(&d.momentum_rate)?,
        momentum_jacobian: compile(&flat_momentum_jacobian)?,
        lagrangian_hessian: compile(&d.hessian)?,
        residual_jacobians: jacobians,
        inverse_dynamics,
    };

    let constraints = super::constraints::derive(s, system, &inputs)?;
    let linearization = if small && programs.dynamics.instructions.len() <= LINEARIZATION_SOURCE {
        linearized(s, system, &residual_jacobians)?
    } else {
        None
    };
    let symbolic = printed(s, system, &d, &energy, velocity_split, linearization)?;
    Ok(Equations {
        name: name.to_string(),
        coordinates: system.coordinates.iter().map(|(_, n)| n.clone()).collect(),
        parameters: system.parameters.iter().map(|(_, n)| n.clone()).collect(),
        from_kinetic_potential: kinetic_form,
        forced_or_dissipative,
        inputs: system.inputs.clone(),
        explicit_time,
        cyclic,
        conserved,
        programs,
        dynamics_by_recursion,
        constraints,
        joint_wrenches: None,
        theorems: None,
        drawing: None,
        formulas: Vec::new(),
        symbolic: Some(symbolic),
    })
}

/// The derivatives of a system's Lagrangian that its equations and programs are made of.
struct Derivatives {
    /// `p = ∂L/∂q̇`.
    momenta: Vec<Sym>,
    /// `M = ∂²L/∂q̇∂q̇`, by rows.
    mass: Vec<Vec<Sym>>,
    /// `∂L/∂q`.
    gradient: Vec<Sym>,
    /// `ṗ = ∂L/∂q + Q − ∂F/∂q̇`.
    momentum_rate: Vec<Sym>,
    /// `∂p/∂q`, by rows.
    momentum_jacobian: Vec<Vec<Sym>>,
    /// `f = ṗ − Σⱼ ∂p/∂qⱼ q̇ⱼ − ∂p/∂t`.
    forcing: Vec<Sym>,
    /// `∂²L/∂q²`, row by row.
    hessian: Vec<Sym>,
    /// The Jacobi integral `h = Σ q̇ᵢ pᵢ − L`.
    jacobi: Sym,
}

/// The derivatives of `system`'s Lagrangian, in the order the equations derive them.
fn derivatives(s: &Session, system: &System) -> Derivatives {
    let n = system.coordinates.len();
    let q = |i: usize| Var::Coordinate(system.coordinates[i].0);
    let v = |i: usize| Var::Velocity(system.coordinates[i].0);
    let lagrangian = &system.lagrangian;
    let forces = &system.forces;
    let dissipation = &system.dissipation;

    let momenta: Vec<Sym> = (0..n).map(|i| lagrangian.diff(v(i))).collect();
    let mass: Vec<Vec<Sym>> = momenta
        .iter()
        .map(|p| (0..n).map(|j| p.diff(v(j))).collect())
        .collect();
    let gradient: Vec<Sym> = (0..n).map(|i| lagrangian.diff(q(i))).collect();
    // ṗ = ∂L/∂q + Q − ∂F/∂q̇.
    let momentum_rate: Vec<Sym> = (0..n)
        .map(|i| {
            let mut rate = gradient[i].clone();
            if let Some(f) = &forces[i] {
                rate = &rate + f;
            }
            if let Some(d) = dissipation {
                rate = &rate - &d.diff(v(i));
            }
            rate
        })
        .collect();
    // f = ṗ − Σⱼ ∂p/∂qⱼ q̇ⱼ − ∂p/∂t.
    let momentum_jacobian: Vec<Vec<Sym>> = momenta
        .iter()
        .map(|p| (0..n).map(|j| p.diff(q(j))).collect())
        .collect();
    let forcing: Vec<Sym> = (0..n)
        .map(|i| {
            let mut f = &momentum_rate[i] - &momenta[i].diff(Var::Time);
            for (j, dp) in momentum_jacobian[i].iter().enumerate() {
                f = &f - &(dp * &s.var(v(j)));
            }
            f
        })
        .collect();
    let hessian: Vec<Sym> = gradient
        .iter()
        .flat_map(|g| (0..n).map(move |j| g.diff(q(j))))
        .collect();
    let mut jacobi = -lagrangian;
    for (i, p) in momenta.iter().enumerate() {
        jacobi = &jacobi + &(&s.var(v(i)) * p);
    }
    Derivatives {
        momenta,
        mass,
        gradient,
        momentum_rate,
        momentum_jacobian,
        forcing,
        hessian,
        jacobi,
    }
}

/// The equations' printable forms: `L`, `M`, `f`, `p`, the energy, the Jacobi integral,
/// `L` split by degree in the velocities, and the linearization.
fn printed(
    s: &Session,
    system: &System,
    d: &Derivatives,
    energy: &Sym,
    velocity_split: Option<[Sym; 3]>,
    linearization: Option<Linearized>,
) -> Result<Symbolic, String> {
    let show = |x: &Sym| s.to_expr(&x.printable());
    let show_all = |xs: &[Sym]| xs.iter().map(show).collect::<Result<Vec<_>, _>>();
    Ok(Symbolic {
        lagrangian: show(&system.lagrangian)?,
        mass_matrix: d
            .mass
            .iter()
            .map(|row| show_all(row))
            .collect::<Result<_, _>>()?,
        forcing: show_all(&d.forcing)?,
        momenta: show_all(&d.momenta)?,
        energy: show(energy)?,
        jacobi_integral: show(&d.jacobi)?,
        velocity_split: velocity_split
            .map(|[t2, t1, t0]| Ok::<_, String>([show(&t2)?, show(&t1)?, show(&t0)?]))
            .transpose()?,
        linearization,
    })
}

/// Whether the time occurs explicitly in the Lagrangian, the forces, the dissipation or
/// the constraints (a moving constraint does work through its reaction, like an explicit
/// time in `L`).
fn explicit_time(system: &System) -> bool {
    let lagrangian = &system.lagrangian;
    let forces = &system.forces;
    let dissipation = &system.dissipation;
    lagrangian.contains(Var::Time)
        || forces.iter().flatten().any(|f| f.contains(Var::Time))
        || dissipation.as_ref().is_some_and(|d| d.contains(Var::Time))
        || system.all_constraints().any(|g| g.contains(Var::Time))
}

/// The cyclic coordinates: those whose `∂L/∂q` (`gradient`) vanishes, with no force, no
/// dissipation and no constraint on them.
fn cyclic(s: &Session, system: &System, gradient: &[Sym]) -> Result<Vec<usize>, String> {
    let n = system.coordinates.len();
    let v = |i: usize| Var::Velocity(system.coordinates[i].0);
    let forces = &system.forces;
    let dissipation = &system.dissipation;
    let free_gradient = s.vanishing(gradient)?;
    let dissipation_rates: Vec<Sym> = match dissipation {
        Some(d) => (0..n).map(|i| d.diff(v(i))).collect(),
        None => Vec::new(),
    };
    let undissipated = s.vanishing(&dissipation_rates)?;
    Ok((0..n)
        .filter(|&i| {
            free_gradient[i]
                && forces[i].is_none()
                && undissipated.get(i).copied().unwrap_or(true)
                && !system.constrains(i)
        })
        .collect())
}

/// Whether an input (set by a controller while the system moves: it acts like a force)
/// occurs in the Lagrangian, the forces, the dissipation or the constraints.
fn driven(system: &System) -> bool {
    let lagrangian = &system.lagrangian;
    let forces = &system.forces;
    let dissipation = &system.dissipation;
    system.inputs.iter().any(|&k| {
        let input = system.parameters[k].0;
        lagrangian.contains(input)
            || forces.iter().flatten().any(|f| f.contains(input))
            || dissipation.as_ref().is_some_and(|d| d.contains(input))
            || system.all_constraints().any(|g| g.contains(input))
    })
}

/// The residual `r = M q̈ − f` from the `dynamics` program of `n` coordinates, over its
/// inputs followed by the accelerations.
fn residual(dynamics: &Program, n: usize) -> Program {
    let inputs = dynamics.inputs;
    let mut t = Tracer::new(inputs + n);
    let values: Vec<Value> = (0..inputs).map(|i| t.input(i)).collect();
    let outputs = t.splice(dynamics, &values);
    let (mass, forcing) = outputs.split_at(n * n);
    let residual: Vec<Value> = forcing
        .iter()
        .enumerate()
        .map(|(i, &f)| {
            let terms: Vec<Value> = (0..n)
                .map(|j| t.mul(mass[i * n + j], t.input(inputs + j)))
                .collect();
            let product = t.sum(terms);
            t.sub(product, f)
        })
        .collect();
    t.finish(&residual)
}

/// Models whose dynamics program has more instructions than this get no printed
/// linearization (converting it would cost more than it shows).
const LINEARIZATION_SOURCE: usize = 400;

/// Nodes the printed linearization may have in all.
const LINEARIZATION_NODES: usize = 4_000;

/// The printable linearization from the residual's derivatives (`∂r/∂q`, `∂r/∂q̇`, `∂r/∂p`
/// row-major), or `None` when it is too large to read.
fn linearized(
    s: &Session,
    system: &System,
    derivatives: &[Sym],
) -> Result<Option<Linearized>, String> {
    let n = system.coordinates.len();
    let m = system.parameters.len();
    let show = |x: &Sym| s.to_expr(&x.printable());
    let mut nodes = 0;
    // The block starting at `offset` with rows of `width`, at the given columns.
    let mut block = |offset: usize, width: usize, columns: &[usize], negate: bool| {
        (0..n)
            .map(|i| {
                columns
                    .iter()
                    .map(|&j| {
                        let x = &derivatives[offset + i * width + j];
                        let e = if negate { show(&-x)? } else { show(x)? };
                        nodes += e.depth_and_size().1;
                        Ok(e)
                    })
                    .collect::<Result<Vec<_>, String>>()
            })
            .collect::<Result<Vec<_>, String>>()
    };
    let all: Vec<usize> = (0..n).collect();
    let coordinates = block(0, n, &all, false)?;
    let velocities = block(n * n, n, &all, false)?;
    let inputs = block(2 * n * n, m, &system.inputs, true)?;
    Ok((nodes <= LINEARIZATION_NODES).then_some(Linearized {
        coordinates,
        velocities,
        inputs,
    }))
}

/// `∂r/∂q`, `∂r/∂q̇` and `∂r/∂p` of the residual `r = M q̈ − f`, row-major one after the
/// other, with the accelerations as symbols held fixed.
fn residual_jacobians(
    s: &Session,
    system: &System,
    mass: &[Vec<Sym>],
    forcing: &[Sym],
) -> Vec<Sym> {
    let n = system.coordinates.len();
    let residual: Vec<Sym> = (0..n)
        .map(|i| {
            (0..n).fold(-&forcing[i], |acc, j| {
                let a = s.var(Var::Acceleration(system.coordinates[j].0));
                &acc + &(&mass[i][j] * &a)
            })
        })
        .collect();
    let wrt: Vec<Var> = (0..n)
        .map(|j| Var::Coordinate(system.coordinates[j].0))
        .chain((0..n).map(|j| Var::Velocity(system.coordinates[j].0)))
        .chain(system.parameters.iter().map(|(var, _)| *var))
        .collect();
    let (coordinates, rest) = wrt.split_at(n);
    let (velocities, parameters) = rest.split_at(n);
    [coordinates, velocities, parameters]
        .into_iter()
        .flat_map(|vars| {
            residual
                .iter()
                .flat_map(move |r| vars.iter().map(move |&x| r.diff(x)))
        })
        .collect()
}

/// `[X₂, X₁, X₀]`: the parts of `x` (`T`, or `L` for a model given by `L`) homogeneous of
/// degree 2, 1 and 0 in the velocities, from its derivatives at `q̇ = 0`:
/// `X₀ = x|₀`, `X₁ = Σ q̇ᵢ (∂x/∂q̇ᵢ)|₀`, `X₂ = ½ Σ q̇ᵢ q̇ⱼ ∂²x/∂q̇ᵢ∂q̇ⱼ`.
/// `∂x/∂q̇` are the momenta and `∂²x/∂q̇∂q̇` the mass matrix (`V` has no velocities).
/// Exact when the mass matrix is free of velocities; `None` otherwise.
fn split_by_velocity_degree(
    s: &Session,
    x: &Sym,
    velocities: &[Var],
    momenta: &[Sym],
    mass: &[Vec<Sym>],
) -> Option<[Sym; 3]> {
    if mass
        .iter()
        .flatten()
        .any(|m| velocities.iter().any(|&v| m.contains(v)))
    {
        return None;
    }
    let v = |i: usize| s.var(velocities[i]);
    let at_rest = |e: &Sym| e.substitute_zero(velocities);
    let x0 = at_rest(x);
    let mut x1 = s.int(0);
    let mut x2 = s.int(0);
    for (i, (p, row)) in momenta.iter().zip(mass).enumerate() {
        x1 = &x1 + &(&v(i) * &at_rest(p));
        for (j, m) in row.iter().enumerate() {
            x2 = &x2 + &(&(&v(i) * &v(j)) * m);
        }
    }
    Some([&x2 * &s.half(), x1, x0])
}

#[cfg(test)]
mod tests {
    use crate::cas::{self, Names};
    use crate::equations::Conserved;
    use crate::model::Model;
    use crate::syntax::Expr;

    #[test]
    fn the_printed_linearization_is_the_derivative_of_the_equations() {
        // A driven cart-pole with damping: K, C and B as printed, evaluated at random
        // states, against central differences of M q̈ − f from the dynamics program.
        let model = Model {
            name: "Cart".into(),
            coordinates: vec!["x".into(), "theta".into()],
            parameters: ["M", "m", "l", "g", "c", "u"].map(String::from).to_vec(),
            inputs: vec!["u".into()],
            kinetic: Some(
                "1/2*(M + m)*dot(x)^2 + m*l*cos(theta)*dot(x)*dot(theta) + 1/2*m*l^2*dot(theta)^2"
                    .into(),
            ),
            potential: Some("m*g*l*cos(theta)".into()),
            forces: vec![("x".into(), "u*cos(theta)".into())],
            dissipation: Some("1/2*c*dot(theta)^2*(1 + x^2)".into()),
            ..Model::default()
        };
        let eq = crate::derive(&model).unwrap().full;
        let l = eq
            .symbolic
            .as_ref()
            .expect("printed")
            .linearization
            .clone()
            .expect("a small model's is printed");
        let mut rng = crate::numeric::SplitMix64::new(7);
        for _ in 0..5 {
            let state = crate::numeric::sample_state(&mut rng, eq.inputs().len());
            let qdd = [0.3, -0.7];
            // r(q, q̇, p) = M q̈ − f at fixed q̈, from the dynamics program.
            let residual = |x: &[f64]| {
                let mut out = [0.0; 6];
                eq.programs.dynamics.evaluate(x, &mut out);
                (0..2)
                    .map(|i| out[2 * i] * qdd[0] + out[2 * i + 1] * qdd[1] - out[4 + i])
                    .collect::<Vec<f64>>()
            };
            let derivative = |slot: usize| {
                let h = 1e-6;
                let (mut plus, mut minus) = (state.clone(), state.clone());
                plus[slot] += h;
                minus[slot] -= h;
                let (a, b) = (residual(&plus), residual(&minus));
                [(a[0] - b[0]) / (2.0 * h), (a[1] - b[1]) / (2.0 * h)]
            };
            let names = ["x", "theta"];
            // The state, then the accelerations.
            let at: Vec<f64> = state.iter().chain(&qdd).copied().collect();
            let slot = |e: &Expr| match e {
                Expr::Name(n) if n == "t" => Some(0),
                Expr::Name(n) => names
                    .iter()
                    .position(|c| c == n)
                    .map(|i| 1 + i)
                    .or_else(|| eq.parameters.iter().position(|p| p == n).map(|k| 5 + k)),
                Expr::Velocity(q) => names.iter().position(|c| c == q).map(|i| 3 + i),
                Expr::Acceleration(q) => names.iter().position(|c| c == q).map(|i| state.len() + i),
                _ => None,
            };
            let value = |e: &Expr| {
                let program = crate::ir::lower::program(std::slice::from_ref(e), at.len(), &slot);
                let mut out = [0.0];
                program.unwrap().evaluate(&at, &mut out);
                out[0]
            };
            for i in 0..2 {
                for j in 0..2 {
                    let (dq, dv) = (derivative(1 + j)[i], derivative(3 + j)[i]);
                    assert!((value(&l.coordinates[i][j]) - dq).abs() < 1e-6 * (1.0 + dq.abs()));
                    assert!((value(&l.velocities[i][j]) - dv).abs() < 1e-6 * (1.0 + dv.abs()));
                }
                // B = ∂f/∂u = −∂r/∂u; u is parameter 5.
                let du = -derivative(5 + 5)[i];
                assert!((value(&l.inputs[i][0]) - du).abs() < 1e-6 * (1.0 + du.abs()));
            }
        }
    }

    #[test]
    fn kinetic_energy_splits_by_velocity_degree() {
        // Thomson & Tait §319 Example E (axes turning at the rate w):
        // T₂ = ½m(ẋ² + ẏ²), T₁ = m w (x ẏ − y ẋ), T₀ = ½ m w² (x² + y²).
        let model = Model {
            name: "E".into(),
            coordinates: vec!["x".into(), "y".into()],
            parameters: vec!["m".into(), "w".into()],
            kinetic: Some("1/2*m*((dot(x) - w*y)^2 + (dot(y) + w*x)^2)".into()),
            ..Model::default()
        };
        let eq = crate::derive(&model).unwrap().full;
        assert_eq!(eq.conserved, Conserved::JacobiIntegral);
        let [t2, t1, t0] = eq
            .symbolic
            .as_ref()
            .unwrap()
            .velocity_split
            .clone()
            .unwrap();
        let expected = [
            "1/2*m*(dot(x)^2 + dot(y)^2)",
            "m*w*(x*dot(y) - y*dot(x))",
            "1/2*m*w^2*(x^2 + y^2)",
        ];
        let names = Names {
            coordinates: model.coordinates.clone(),
            parameters: model.parameters.clone(),
            momenta: Vec::new(),
        };
        let parts = [t2, t1, t0];
        let expected: Vec<Expr> = expected.iter().map(|e| Expr::parse(e).unwrap()).collect();
        let differences_vanish = cas::session(names, move |s| {
            Ok(parts
                .iter()
                .zip(&expected)
                .all(|(got, want)| (&s.expr(got).unwrap() - &s.expr(want).unwrap()).is_zero()))
        })
        .unwrap();
        assert!(differences_vanish);
    }
}
