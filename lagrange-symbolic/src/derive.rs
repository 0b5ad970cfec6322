//! The pipeline from a written model to its derived equations: the model checks, one
//! engine session for the equations (and Routh's reduction), then the checks that need
//! the derived programs (orientations are rotations, the mass matrix is regular).

use crate::cas::{self, Names, Session};
use crate::equations::{Derived, Equations};
use crate::ir::Program;
use crate::mechanics::{self, System};
use crate::model::{self, CheckedModel, Item, Model, ModelError};
use crate::numeric::{SplitMix, is_regular};

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
    let (derived, orientations) = cas::session(names, move |s| Ok(derive_in(s, &work)))
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
) -> Result<(Derived, Vec<Program>), Vec<ModelError>> {
    let system = System::of_model(s, model).map_err(ModelError::whole_model)?;
    let full = mechanics::equations(s, &system, &model.name).map_err(ModelError::whole_model)?;
    let reduced = if model.ignored.is_empty() {
        None
    } else {
        Some(mechanics::reduce(s, model, &system)?)
    };
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

/// Rejects a body whose orientation is not a rotation: `RᵀR ≠ I` or `det R ≠ 1` at a
/// sampled state.
fn check_rotations(
    model: &CheckedModel,
    equations: &Equations,
    programs: &[Program],
) -> Result<(), Vec<ModelError>> {
    let mut rng = SplitMix::new(0x00b0_d1e5);
    let mut errors = Vec::new();
    for (i, program) in programs.iter().enumerate() {
        for _ in 0..3 {
            let state = rng.state(equations.inputs().len());
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
    let mut rng = SplitMix::new(0x5eed_1a9a_2a9e);
    let mut zero_rows = vec![true; n];
    let mut regular = false;
    for _ in 0..8 {
        let state = rng.state(inputs.len());
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
