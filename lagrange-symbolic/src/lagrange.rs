//! Lagrange's equations (Thomson & Tait §318, eq. 24) for a checked model:
//!
//! `d/dt(∂L/∂q̇ᵢ) − ∂L/∂qᵢ = Qᵢ − ∂F/∂q̇ᵢ`, expanded into `M q̈ = f` with
//! `M = ∂²L/∂q̇∂q̇` and
//! `fᵢ = ∂L/∂qᵢ − Σⱼ ∂²L/∂q̇ᵢ∂qⱼ q̇ⱼ − ∂²L/∂q̇ᵢ∂t + Qᵢ − ∂F/∂q̇ᵢ`.
//! `M` is never inverted symbolically: the generated code solves for `q̈` numerically.

use crate::cas::{self, Names, Session, Sym, Var};
use crate::equations::{Conserved, Derived, Equations, Programs, Symbolic};
use crate::ir::Program;
use crate::kinetic;
use crate::model::{self, CheckedModel, Energy, Item, Model, ModelError};
use crate::routh;

/// Checks `model` and derives its equations of motion (and its reduced system when it
/// ignores coordinates).
pub fn derive(model: &Model) -> Result<Derived, Vec<ModelError>> {
    let checked = model.check()?;
    let names = Names {
        coordinates: checked.coordinates.clone(),
        parameters: checked.parameters.clone(),
        momenta: checked
            .ignored
            .iter()
            .map(|&i| model::momentum_name(&checked.coordinates[i]))
            .collect(),
    };
    let work = checked.clone();
    let (derived, orientations) =
        cas::session(names, move |s| Ok(derive_in(s, &work))).map_err(engine_failure)??;
    check_rotations(&checked, &derived.full, &orientations)?;
    check_mass_matrix(&checked, &derived.full)?;
    Ok(derived)
}

/// An engine failure (not the model's fault) as a model-level error.
pub(crate) fn engine_failure(message: String) -> Vec<ModelError> {
    vec![ModelError {
        item: Item::Model,
        message,
    }]
}

/// The equations, and for each body a program of `RᵀR` and `det R` to check its
/// orientation with.
fn derive_in(
    s: &Session,
    model: &CheckedModel,
) -> Result<(Derived, Vec<Program>), Vec<ModelError>> {
    let system = System::of_model(s, model).map_err(engine_failure)?;
    let full = equations(s, &system, &model.name).map_err(engine_failure)?;
    let reduced = if model.ignored.is_empty() {
        None
    } else {
        Some(routh::reduce(s, model, &system)?)
    };
    let inputs = system.inputs();
    let orientations = kinetic::orthogonality(s, model)
        .and_then(|bodies| {
            bodies
                .iter()
                .map(|outputs| s.compile(outputs, &inputs))
                .collect()
        })
        .map_err(engine_failure)?;
    Ok((Derived { full, reduced }, orientations))
}

/// Rejects a body whose orientation is not a rotation: `RᵀR ≠ I` or `det R ≠ 1` at a
/// sampled state.
fn check_rotations(
    model: &CheckedModel,
    equations: &Equations,
    programs: &[Program],
) -> Result<(), Vec<ModelError>> {
    let mut rng = SplitMix(0x00b0_d1e5);
    let mut errors = Vec::new();
    for (i, program) in programs.iter().enumerate() {
        for _ in 0..3 {
            let state: Vec<f64> = (0..equations.inputs().len())
                .map(|_| 0.5 + 1.5 * rng.unit())
                .collect();
            let mut out = [0.0; 10];
            program.evaluate(&state, &mut out);
            let worst = (0..9)
                .map(|k| (out[k] - if k % 4 == 0 { 1.0 } else { 0.0 }).abs())
                .chain([(out[9] - 1.0).abs()])
                .fold(0.0, f64::max);
            if worst.is_nan() || worst > 1e-9 {
                errors.push(ModelError {
                    item: Item::Body(i),
                    message: format!(
                        "the orientation of body `{}` is not a rotation matrix: RᵀR − I or det R − 1 reaches {worst:.3e} at a sampled state",
                        model.bodies[i].name
                    ),
                });
                break;
            }
        }
    }
    if errors.is_empty() {
        Ok(())
    } else {
        Err(errors)
    }
}

/// What equations are derived from, in symbolic form.
pub(crate) struct System {
    /// `L`.
    pub lagrangian: Sym,
    /// `T + V`, when the model gives `T` and `V`.
    pub energy: Option<Sym>,
    /// `T` when given, else `L`: the function split by degree in the velocities.
    pub split_source: Sym,
    /// Generalized force on each coordinate of `coordinates`.
    pub forces: Vec<Option<Sym>>,
    /// Rayleigh dissipation function.
    pub dissipation: Option<Sym>,
    /// The coordinates, as indices of [`Var::Coordinate`], with their names.
    pub coordinates: Vec<(usize, String)>,
    /// The inputs after time, coordinates and velocities, with their names.
    pub parameters: Vec<(Var, String)>,
    /// Holonomic constraints `G(t, q) = 0`.
    pub constraints: Vec<Sym>,
}

impl System {
    /// The engine variables of the [`Inputs`](crate::equations::Inputs) layout: time,
    /// coordinates, velocities, parameters.
    pub fn inputs(&self) -> Vec<Var> {
        std::iter::once(Var::Time)
            .chain(self.coordinates.iter().map(|(i, _)| Var::Coordinate(*i)))
            .chain(self.coordinates.iter().map(|(i, _)| Var::Velocity(*i)))
            .chain(self.parameters.iter().map(|(var, _)| *var))
            .collect()
    }

    fn of_model(s: &Session, model: &CheckedModel) -> Result<System, String> {
        let (lagrangian, energy, split_source) = match &model.energy {
            Energy::KineticPotential { kinetic, potential } => {
                let t = &s.expr(kinetic)? + &kinetic::of_bodies(s, model)?;
                let v = s.expr(potential)?;
                (&t - &v, Some(&t + &v), t)
            }
            Energy::Lagrangian(l) => {
                let l = s.expr(l)?;
                (l.clone(), None, l)
            }
        };
        Ok(System {
            lagrangian,
            energy,
            split_source,
            forces: model
                .forces
                .iter()
                .map(|f| f.as_ref().map(|f| s.expr(f)).transpose())
                .collect::<Result<_, _>>()?,
            dissipation: model.dissipation.as_ref().map(|f| s.expr(f)).transpose()?,
            coordinates: model.coordinates.iter().cloned().enumerate().collect(),
            parameters: model
                .parameters
                .iter()
                .enumerate()
                .map(|(i, p)| (Var::Parameter(i), p.clone()))
                .collect(),
            constraints: model
                .constraints
                .iter()
                .map(|g| s.expr(g))
                .collect::<Result<_, _>>()?,
        })
    }
}

/// Lagrange's equations and integrals of `system`, lowered to programs.
pub(crate) fn equations(s: &Session, system: &System, name: &str) -> Result<Equations, String> {
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
    let energy = system.energy.clone().unwrap_or_else(|| jacobi.clone());

    // A moving constraint does work through its reaction, like an explicit time in L.
    let explicit_time = lagrangian.contains(Var::Time)
        || forces.iter().flatten().any(|f| f.contains(Var::Time))
        || dissipation.as_ref().is_some_and(|d| d.contains(Var::Time))
        || system.constraints.iter().any(|g| g.contains(Var::Time));
    let free_gradient = s.vanishing(&gradient)?;
    let dissipation_rates: Vec<Sym> = match dissipation {
        Some(d) => (0..n).map(|i| d.diff(v(i))).collect(),
        None => Vec::new(),
    };
    let undissipated = s.vanishing(&dissipation_rates)?;
    let cyclic: Vec<usize> = (0..n)
        .filter(|&i| {
            free_gradient[i]
                && forces[i].is_none()
                && undissipated.get(i).copied().unwrap_or(true)
                && !system.constraints.iter().any(|g| g.contains(q(i)))
        })
        .collect();
    let velocities: Vec<Var> = (0..n).map(v).collect();
    let velocity_split =
        split_by_velocity_degree(s, &system.split_source, &velocities, &momenta, &mass);
    let kinetic_form = system.energy.is_some();
    let homogeneous_kinetic = match (&velocity_split, kinetic_form) {
        (Some([_, t1, t0]), true) => s.vanishes(t1)? && s.vanishes(t0)?,
        _ => false,
    };
    let conservative = forces.iter().all(Option::is_none) && dissipation.is_none();
    let conserved = match (conservative && !explicit_time, homogeneous_kinetic) {
        (false, _) => Conserved::None,
        (true, true) => Conserved::Energy,
        (true, false) => Conserved::JacobiIntegral,
    };

    let inputs = system.inputs();
    let flat_mass: Vec<Sym> = mass.iter().flatten().cloned().collect();
    let dynamics_outputs: Vec<Sym> = flat_mass.iter().chain(&forcing).cloned().collect();
    let flat_momentum_jacobian: Vec<Sym> = momentum_jacobian.into_iter().flatten().collect();
    let compile = |outputs: &[Sym]| s.compile(outputs, &inputs);
    let programs = Programs {
        dynamics: compile(&dynamics_outputs)?,
        lagrangian: compile(std::slice::from_ref(lagrangian))?,
        energy: compile(std::slice::from_ref(&energy))?,
        jacobi_integral: compile(std::slice::from_ref(&jacobi))?,
        momenta: compile(&momenta)?,
        momentum_rate: compile(&momentum_rate)?,
        momentum_jacobian: compile(&flat_momentum_jacobian)?,
        lagrangian_hessian: compile(&hessian)?,
    };

    let constraints = if system.constraints.is_empty() {
        None
    } else {
        let coordinates: Vec<usize> = system.coordinates.iter().map(|(i, _)| *i).collect();
        Some(crate::constraints::derive(
            s,
            &system.constraints,
            &coordinates,
            &inputs,
        )?)
    };
    let show = |x: &Sym| s.to_expr(&x.printable());
    let show_all = |xs: &[Sym]| xs.iter().map(show).collect::<Result<Vec<_>, _>>();
    let symbolic = Symbolic {
        lagrangian: show(lagrangian)?,
        mass_matrix: mass
            .iter()
            .map(|row| show_all(row))
            .collect::<Result<_, _>>()?,
        forcing: show_all(&forcing)?,
        momenta: show_all(&momenta)?,
        energy: show(&energy)?,
        jacobi_integral: show(&jacobi)?,
        velocity_split: velocity_split
            .map(|[t2, t1, t0]| Ok::<_, String>([show(&t2)?, show(&t1)?, show(&t0)?]))
            .transpose()?,
    };
    Ok(Equations {
        name: name.to_string(),
        coordinates: system.coordinates.iter().map(|(_, n)| n.clone()).collect(),
        parameters: system.parameters.iter().map(|(_, n)| n.clone()).collect(),
        from_kinetic_potential: kinetic_form,
        conservative,
        explicit_time,
        cyclic,
        conserved,
        programs,
        constraints,
        symbolic,
    })
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

/// Rejects a mass matrix that is singular at every sampled state: the equations would
/// not determine the accelerations (e.g. a coordinate whose velocity is missing from `T`).
fn check_mass_matrix(model: &CheckedModel, equations: &Equations) -> Result<(), Vec<ModelError>> {
    let n = model.coordinates.len();
    let inputs = equations.inputs();
    let mut rng = SplitMix(0x5eed_1a9a_2a9e);
    let mut zero_rows = vec![true; n];
    let mut regular = false;
    for _ in 0..8 {
        let state: Vec<f64> = (0..inputs.len()).map(|_| 0.5 + 1.5 * rng.unit()).collect();
        let mut dynamics = vec![0.0; n * n + n];
        equations.programs.dynamics.evaluate(&state, &mut dynamics);
        let mut m = dynamics[..n * n].to_vec();
        for (i, zero) in zero_rows.iter_mut().enumerate() {
            *zero &= m[i * n..(i + 1) * n].iter().all(|&x| x == 0.0);
        }
        regular |= is_regular(&mut m, n);
    }
    if regular {
        return Ok(());
    }
    let item = if equations.from_kinetic_potential {
        Item::Kinetic
    } else {
        Item::Lagrangian
    };
    let missing: Vec<&String> = zero_rows
        .iter()
        .zip(&model.coordinates)
        .filter(|(zero, _)| **zero)
        .map(|(_, q)| q)
        .collect();
    let what = if item == Item::Kinetic {
        "the kinetic energy"
    } else {
        "the Lagrangian"
    };
    let list =
        |f: &dyn Fn(&String) -> String| missing.iter().map(|q| f(q)).collect::<Vec<_>>().join(", ");
    let message = if missing.is_empty() {
        format!(
            "the mass matrix ∂²L/∂q̇∂q̇ is singular at every sampled state: {what} does not determine all accelerations"
        )
    } else {
        format!(
            "the mass matrix ∂²L/∂q̇∂q̇ is singular: {what} has no term quadratic in {}, so the equations of motion do not determine the acceleration of {}",
            list(&|q| format!("`dot({q})`")),
            list(&|q| format!("`{q}`")),
        )
    };
    Err(vec![ModelError { item, message }])
}

/// Gaussian elimination with partial pivoting; regular when every pivot is well above
/// round-off relative to the matrix's size.
fn is_regular(m: &mut [f64], n: usize) -> bool {
    let scale = m.iter().fold(0.0f64, |a, x| a.max(x.abs()));
    if !(scale.is_finite() && scale > 0.0) {
        return false;
    }
    for col in 0..n {
        let pivot = (col..n)
            .max_by(|&a, &b| m[a * n + col].abs().total_cmp(&m[b * n + col].abs()))
            .unwrap_or(col);
        if m[pivot * n + col].abs() <= 1e-10 * scale {
            return false;
        }
        for k in 0..n {
            m.swap(col * n + k, pivot * n + k);
        }
        for row in col + 1..n {
            let factor = m[row * n + col] / m[col * n + col];
            for k in col..n {
                m[row * n + k] -= factor * m[col * n + k];
            }
        }
    }
    true
}

/// A tiny deterministic generator for sample states (splitmix64).
struct SplitMix(u64);

impl SplitMix {
    fn unit(&mut self) -> f64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^= z >> 31;
        (z >> 11) as f64 / (1u64 << 53) as f64
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::expr::Expr;
    use crate::model::Model;

    fn double_pendulum() -> Model {
        Model {
            name: "DoublePendulum".into(),
            coordinates: vec!["theta1".into(), "theta2".into()],
            parameters: ["m1", "m2", "l1", "l2", "g"].map(String::from).to_vec(),
            kinetic: Some("1/2*(m1+m2)*l1^2*dot(theta1)^2 + m2*l1*l2*cos(theta1-theta2)*dot(theta1)*dot(theta2) + 1/2*m2*l2^2*dot(theta2)^2".into()),
            potential: Some("-(m1+m2)*g*l1*cos(theta1) - m2*g*l2*cos(theta2)".into()),
            ..Model::default()
        }
    }

    #[test]
    fn double_pendulum_matches_the_closed_form() {
        let eq = derive(&double_pendulum()).unwrap().full;
        let (m1, m2, l1, l2, g) = (1.3, 0.7, 0.9, 1.1, 9.81);
        let (t1, t2, w1, w2) = (0.4, -1.2, 0.8, -0.3);
        let state = [0.0, t1, t2, w1, w2, m1, m2, l1, l2, g];
        let mut out = [0.0; 6];
        eq.programs.dynamics.evaluate(&state, &mut out);
        let c = (t1 - t2).cos();
        let s = (t1 - t2).sin();
        let expected = [
            (m1 + m2) * l1 * l1,
            m2 * l1 * l2 * c,
            m2 * l1 * l2 * c,
            m2 * l2 * l2,
            -m2 * l1 * l2 * s * w2 * w2 - (m1 + m2) * g * l1 * t1.sin(),
            m2 * l1 * l2 * s * w1 * w1 - m2 * g * l2 * t2.sin(),
        ];
        for (got, want) in out.iter().zip(expected) {
            assert!((got - want).abs() < 1e-12, "{got} vs {want}");
        }
        assert_eq!(eq.conserved, Conserved::Energy);
        assert!(eq.cyclic.is_empty());
        assert!(!eq.explicit_time);
    }

    #[test]
    fn singular_mass_matrix_is_rejected() {
        let mut model = double_pendulum();
        model.kinetic = Some("1/2*m1*l1^2*dot(theta1)^2".into());
        let errors = derive(&model).unwrap_err();
        assert_eq!(errors[0].item, Item::Kinetic);
        assert!(
            errors[0].message.contains("`dot(theta2)`"),
            "{}",
            errors[0].message
        );
    }

    #[test]
    fn concurrent_derivations_are_serialized_not_aborted() {
        // Symbolica's restricted mode aborts the process on a second concurrent thread;
        // every derivation goes through the session lock, so these all succeed.
        let handles: Vec<_> = (0..8)
            .map(|_| {
                std::thread::spawn(|| derive(&double_pendulum()).map(|e| e.full.programs.dynamics))
            })
            .collect();
        let programs: Vec<_> = handles
            .into_iter()
            .map(|h| h.join().unwrap().unwrap())
            .collect();
        assert!(
            programs.windows(2).all(|w| w[0] == w[1]),
            "derivation is deterministic"
        );
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
        let eq = derive(&model).unwrap().full;
        assert_eq!(eq.conserved, Conserved::JacobiIntegral);
        let [t2, t1, t0] = eq.symbolic.velocity_split.clone().unwrap();
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
