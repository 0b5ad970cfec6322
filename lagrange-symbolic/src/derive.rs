//! The pipeline from a written model to its derived equations: the model checks, one
//! engine session for the equations (and Routh's reduction), then the checks that need
//! the derived programs (orientations are rotations, the mass matrix is regular).

use crate::cas::{self, Names, Session};
use crate::equations::{Derived, Equations, JointWrenches};
use crate::ir::Program;
use crate::mechanics::{self, System};
use crate::model::{
    self, CheckedJoint, CheckedModel, CheckedParticle, Energy, Item, Model, ModelError,
    Orientation, Placement,
};
use crate::numeric::{SplitMix64, is_regular, sample_state};
use crate::syntax::Expr;

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
    let sources = sources(&checked, model);
    check_inputs_occur(&checked, &sources)?;
    let (derived, orientations) = cas::session(names, move |s| Ok(derive_in(s, &work, &sources)))
        .map_err(ModelError::whole_model)??;
    check_rotations(&checked, &derived.full, &orientations)?;
    check_mass_matrix(&checked, &derived.full)?;
    Ok(derived)
}

/// The equations, and for each body a program of `RᵀR` and `det R` to check its
/// orientation with.
fn derive_in(
    s: &Session,
    model: &CheckedModel,
    sources: &[(Item, Vec<Expr>)],
) -> Result<(Derived, Vec<Program>), Vec<ModelError>> {
    // A tree too deep or too large to expand is derived by its recursions alone; others
    // symbolically, a tree's dynamics traced beside.
    let route = mechanics::route(s, model).map_err(ModelError::whole_model)?;
    let by_recursions = matches!(route, mechanics::Route::Recursions { .. });
    let mut system =
        System::of_model(s, model, !by_recursions).map_err(|m| blame(s, sources, m))?;
    let recursive = if by_recursions && model.ignored.is_empty() {
        mechanics::recursive_equations(s, model, &system).map_err(ModelError::whole_model)?
    } else {
        None
    };
    let mut full = match recursive {
        Some(equations) => equations,
        None => {
            if let mechanics::Route::Recursions { terms } = route {
                // Not a tree the recursions derive: expanded, if its size allows (a deep
                // tree was not measured yet).
                let terms = match terms {
                    Some(terms) => terms,
                    None => mechanics::expanded_terms(s, model, mechanics::EXPANDED_TERMS)
                        .map_err(ModelError::whole_model)?,
                };
                if terms > mechanics::EXPANDED_TERMS {
                    return Err(too_large(model, terms));
                }
                system = System::of_model(s, model, true).map_err(|m| blame(s, sources, m))?;
            }
            let tree = mechanics::recursive_dynamics(s, model, &system)
                .map_err(ModelError::whole_model)?;
            mechanics::equations(s, &system, &model.name, tree).map_err(ModelError::whole_model)?
        }
    };
    full.joint_wrenches = joint_wrenches(s, model, &system).map_err(ModelError::whole_model)?;
    if !by_recursions {
        full.theorems = mechanics::theorems(s, model, &system).map_err(ModelError::whole_model)?;
    }
    full.drawing =
        mechanics::drawing(s, model, &system, by_recursions).map_err(ModelError::whole_model)?;
    let mut reduced = if model.ignored.is_empty() {
        None
    } else {
        Some(mechanics::reduce(s, model, &system)?)
    };
    full.formulas = model.formulas();
    if let Some(reduced) = &mut reduced {
        let routhian = ("R".to_string(), reduced.routhian.clone());
        full.formulas.push(routhian.clone());
        reduced.equations.formulas = vec![routhian];
    }
    let inputs = system.inputs();
    let orientations = mechanics::orthogonality(s, model)
        .and_then(|bodies| {
            bodies
                .iter()
                .map(|outputs| s.compile(outputs, &inputs))
                .collect()
        })
        .map_err(ModelError::whole_model)?;
    Ok((Derived { full, reduced }, orientations))
}

/// The refusal of a model whose bodies' kinetic energy would expand past
/// [`mechanics::EXPANDED_TERMS`] terms (`terms`, the estimate where it stopped), and which
/// the recursions do not derive.
fn too_large(model: &CheckedModel, terms: u64) -> Vec<ModelError> {
    let why = if model.ignored.is_empty() {
        "the recursions, which would derive it instead, take only a kinematic tree of jointed bodies whose data are numbers and parameters, without particles or a written kinetic energy"
    } else {
        "Routh's reduction over `ignore` needs it expanded"
    };
    ModelError::whole_model(format!(
        "the bodies' kinetic energy would have more terms once expanded than the {} the engine expands (the estimate from their poses reached {terms:.1e} where it stopped), and {why}",
        mechanics::EXPANDED_TERMS
    ))
}

/// The joint wrenches of a model with jointed bodies, as a program over the inputs and
/// the accelerations.
fn joint_wrenches(
    s: &Session,
    model: &CheckedModel,
    system: &System,
) -> Result<Option<JointWrenches>, String> {
    let Some(program) = mechanics::joint_wrenches(s, model, system.inputs().len())? else {
        return Ok(None);
    };
    let bodies = model
        .bodies
        .iter()
        .filter(|b| matches!(b.placement, Placement::Jointed { .. }))
        .map(|b| b.name.clone())
        .collect();
    Ok(Some(JointWrenches { bodies, program }))
}

/// Every checked expression with the item it was written in (forces in the order
/// written), to name the item the engine rejects.
fn sources(checked: &CheckedModel, written: &Model) -> Vec<(Item, Vec<Expr>)> {
    let mut sources = match &checked.energy {
        Energy::KineticPotential { kinetic, potential } => vec![
            (Item::Kinetic, vec![kinetic.clone()]),
            (Item::Potential, vec![potential.clone()]),
        ],
        Energy::Lagrangian(l) => vec![(Item::Lagrangian, vec![l.clone()])],
    };
    for (k, (q, _)) in written.forces.iter().enumerate() {
        let force = checked.coordinates.iter().position(|c| c == q);
        if let Some(f) = force.and_then(|i| checked.forces[i].clone()) {
            sources.push((Item::Force(k), vec![f]));
        }
    }
    sources.extend(
        checked
            .dissipation
            .iter()
            .map(|f| (Item::Dissipation, vec![f.clone()])),
    );
    sources.extend(checked.gravity.iter().map(|g| (Item::Gravity, g.to_vec())));
    for (i, g) in checked.constraints.iter().enumerate() {
        sources.push((Item::Constraint(i), vec![g.clone()]));
    }
    for (i, e) in checked.velocity_constraints.iter().enumerate() {
        sources.push((Item::VelocityConstraint(i), vec![e.clone()]));
    }
    for (i, CheckedParticle { mass, position, .. }) in checked.particles.iter().enumerate() {
        let all = std::iter::once(mass).chain(position).cloned().collect();
        sources.push((Item::Particle(i), all));
    }
    for (i, body) in checked.bodies.iter().enumerate() {
        let placement: Vec<Expr> = match &body.placement {
            Placement::Given {
                orientation,
                position,
            } => {
                let angles: Vec<Expr> = match orientation {
                    Orientation::Matrix(m) => m.iter().flatten().cloned().collect(),
                    Orientation::About(_, angle) => vec![angle.clone()],
                    Orientation::EulerZxz(angles) => angles.to_vec(),
                    Orientation::Product(factors) => {
                        factors.iter().map(|(_, a)| a.clone()).collect()
                    }
                };
                angles.into_iter().chain(position.iter().cloned()).collect()
            }
            Placement::Jointed {
                joint,
                origin,
                rpy,
                com,
                ..
            } => {
                let axis = match &**joint {
                    CheckedJoint::Revolute(_, axis) | CheckedJoint::Prismatic(_, axis) => {
                        axis.to_vec()
                    }
                    CheckedJoint::Fixed | CheckedJoint::Spherical(_) | CheckedJoint::Free(_) => {
                        Vec::new()
                    }
                };
                axis.into_iter()
                    .chain(origin.iter().chain(rpy).chain(com).cloned())
                    .collect()
            }
        };
        let all = std::iter::once(&body.mass)
            .chain(body.inertia.iter().flatten())
            .chain(&placement)
            .cloned()
            .collect();
        sources.push((Item::Body(i), all));
    }
    sources
}

/// Rejects an input that no expression uses: a misspelt or forgotten one, which a
/// controller would drive to no effect.
fn check_inputs_occur(
    model: &CheckedModel,
    sources: &[(Item, Vec<Expr>)],
) -> Result<(), Vec<ModelError>> {
    let errors: Vec<ModelError> = model
        .inputs
        .iter()
        .enumerate()
        .filter(|&(_, &k)| {
            let name = &model.parameters[k];
            let mut used = false;
            for e in sources.iter().flat_map(|(_, exprs)| exprs) {
                e.for_each_leaf(&mut |leaf| used |= matches!(leaf, Expr::Name(n) if n == name));
            }
            !used
        })
        .map(|(i, &k)| ModelError {
            item: Item::Input(i),
            message: format!(
                "input `{}` occurs in no expression of the model: use it (e.g. in a force) or remove it",
                model.parameters[k]
            ),
        })
        .collect();
    if errors.is_empty() {
        Ok(())
    } else {
        Err(errors)
    }
}

/// The engine's failure to take in the model, as an error of the first item it rejects
/// (of the whole model when it takes each one alone).
fn blame(s: &Session, sources: &[(Item, Vec<Expr>)], message: String) -> Vec<ModelError> {
    sources
        .iter()
        .find_map(|(item, exprs)| {
            exprs.iter().find_map(|e| {
                s.expr(e).err().map(|message| ModelError {
                    item: *item,
                    message,
                })
            })
        })
        .map_or_else(|| ModelError::whole_model(message), |e| vec![e])
}

/// Rejects a body whose orientation is not a rotation: `RᵀR ≠ I` or `det R ≠ 1` at a
/// sampled state.
fn check_rotations(
    model: &CheckedModel,
    equations: &Equations,
    programs: &[Program],
) -> Result<(), Vec<ModelError>> {
    let mut rng = SplitMix64::new(0x00b0_d1e5);
    let mut errors = Vec::new();
    for (i, program) in programs.iter().enumerate() {
        for _ in 0..3 {
            let state = sample_state(&mut rng, equations.inputs().len());
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

/// Rejects a mass matrix that is singular at every sampled state: the equations would
/// not determine the accelerations (e.g. a coordinate whose velocity is missing from `T`).
fn check_mass_matrix(model: &CheckedModel, equations: &Equations) -> Result<(), Vec<ModelError>> {
    let n = model.coordinates.len();
    let inputs = equations.inputs();
    let mut rng = SplitMix64::new(0x5eed_1a9a_2a9e);
    let mut zero_rows = vec![true; n];
    let mut regular = false;
    for _ in 0..8 {
        let state = sample_state(&mut rng, inputs.len());
        let [mass, _] = equations.layout().dynamics();
        let mut dynamics = vec![0.0; equations.programs.dynamics.outputs];
        equations.programs.dynamics.evaluate(&state, &mut dynamics);
        let mut m = dynamics[mass].to_vec();
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::equations::Conserved;

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

    /// A one-coordinate model `T = ½ẋ²`, `V = potential`.
    fn well(potential: &str) -> Model {
        Model {
            name: "Well".into(),
            coordinates: vec!["x".into()],
            parameters: vec!["k".into()],
            kinetic: Some("1/2*dot(x)^2".into()),
            potential: Some(potential.into()),
            ..Model::default()
        }
    }

    #[test]
    fn what_the_engine_rejects_is_named_with_its_item() {
        // `x - x` is not a constant to the checks; the engine makes `1/(x - x)` infinite.
        let errors = derive(&well("k*x^2 + 1/(x - x)")).unwrap_err();
        assert_eq!(errors[0].item, Item::Potential, "{errors:?}");
        assert!(
            errors[0]
                .message
                .contains("`1/(x - x)` is an infinite number"),
            "{errors:?}"
        );
    }

    #[test]
    fn a_panic_in_the_engine_is_an_error() {
        let names = Names {
            coordinates: vec![],
            parameters: vec![],
            momenta: vec![],
        };
        let result: Result<(), String> = cas::session(names, |_| panic!("deliberate"));
        let message = result.unwrap_err();
        assert!(
            message.contains("the symbolic engine failed: deliberate"),
            "{message}"
        );
    }

    #[test]
    fn a_product_of_many_sums_derives_without_expanding() {
        // Expanding the derivative term by term took minutes (2^17 terms per product).
        let factors: Vec<String> = (1..=18).map(|i| format!("(x + {i})")).collect();
        let started = std::time::Instant::now();
        let eq = derive(&well(&factors.join("*"))).unwrap().full;
        assert!(started.elapsed().as_secs() < 30, "{:?}", started.elapsed());
        // f = −V'(x) = −V(x) Σ 1/(x + i), at x = 0.5.
        let x = 0.5;
        let v: f64 = (1..=18).map(|i| x + i as f64).product();
        let want = -v * (1..=18).map(|i| 1.0 / (x + i as f64)).sum::<f64>();
        let mut out = [0.0; 2];
        eq.programs.dynamics.evaluate(&[0.0, x, 0.0, 1.0], &mut out);
        assert!(
            (out[1] - want).abs() <= 1e-12 * want.abs(),
            "{} vs {want}",
            out[1]
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
}
