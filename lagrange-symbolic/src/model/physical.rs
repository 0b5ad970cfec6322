//! The one rule for the inertial data and wheels a model may hold, whether written as
//! numbers (a model file, an imported URDF) or given by parameter values: a mass is not
//! negative, an inertia tensor is positive semi-definite (no principal moment is negative:
//! with it the mass matrix is positive definite, never indefinite), and a rolling wheel's
//! radius is a positive length.
//!
//! The triangle inequalities of the principal moments (`A + B ≥ C`, which every
//! distribution of mass meets) are not required: tensors written by hand or exported from
//! CAD break them by a few per cent (four of the tests' own), and the motion stays well
//! posed.

use super::{CheckedBody, CheckedParticle, Item, Model, ModelError};
use crate::ir::lower;
use crate::syntax::Expr;
use crate::syntax::print::excerpt_text;

/// The relative round-off a principal moment may fall below zero by: a thin rod's
/// smallest moment is 0, and a turned tensor's is computed with round-off.
const ROUND_OFF: f64 = 1e-9;

/// The absolute amount a principal moment may fall below zero by: CAD exports write zero
/// as round-off (iCub's head and ankles have no moment and the one product
/// `ixz = 2.4e-35`, `1.4e-20`); in kg·m², 10⁻¹⁸ is a microgram a millimetre away.
const NEGLIGIBLE: f64 = 1e-18;

/// Why `mass` is not a mass (it is negative or not finite), or `None`.
pub fn mass_problem(mass: f64) -> Option<String> {
    (!(mass >= 0.0 && mass.is_finite()))
        .then(|| format!("the mass is {mass}, and a mass is a finite number, not negative"))
}

/// Why the symmetric tensor of entries `xx, yy, zz, xy, xz, yz` is no rigid body's inertia,
/// or `None`: its principal moments must not be negative (beyond 10⁻⁹ of their sum of
/// magnitudes, and 10⁻¹⁸ for the round-off of zero that CAD exports write).
pub fn inertia_problem(entries: [f64; 6]) -> Option<String> {
    if entries.iter().any(|x| !x.is_finite()) {
        return Some(format!("the inertia entries {entries:?} are not finite"));
    }
    let moments = principal_moments(entries);
    let slack = ROUND_OFF * moments.iter().map(|m| m.abs()).sum::<f64>() + NEGLIGIBLE;
    let smallest = moments.iter().fold(f64::MAX, |a, &b| a.min(b));
    // Shown to 6 significant digits: the last of the closed form's are round-off.
    let shown: f64 = format!("{smallest:.5e}").parse().unwrap_or(smallest);
    (smallest < -slack).then(|| {
        format!(
            "the inertia tensor is not positive semi-definite: it has the principal moment {shown}"
        )
    })
}

/// Why `radius` is not a wheel's radius (a positive, finite length), or `None`.
pub fn radius_problem(radius: f64) -> Option<String> {
    (!(radius > 0.0 && radius.is_finite()))
        .then(|| format!("`rolls` takes the wheel's radius, a positive length, not {radius}"))
}

/// The eigenvalues of the symmetric tensor of entries `xx, yy, zz, xy, xz, yz`, in closed
/// form (the trigonometric solution of the characteristic cubic).
fn principal_moments([xx, yy, zz, xy, xz, yz]: [f64; 6]) -> [f64; 3] {
    let off = xy * xy + xz * xz + yz * yz;
    if off == 0.0 {
        return [xx, yy, zz];
    }
    let q = (xx + yy + zz) / 3.0;
    let (a, b, c) = (xx - q, yy - q, zz - q);
    let p = ((a * a + b * b + c * c + 2.0 * off) / 6.0).sqrt();
    // det((T − q)/p) / 2, in [−1, 1] but for round-off.
    let det = a * (b * c - yz * yz) - xy * (xy * c - yz * xz) + xz * (xy * yz - b * xz);
    let r = (det / (2.0 * p * p * p)).clamp(-1.0, 1.0);
    let phi = r.acos() / 3.0;
    let largest = q + 2.0 * p * phi.cos();
    let smallest = q + 2.0 * p * (phi + 2.0 * std::f64::consts::FRAC_PI_3).cos();
    [largest, 3.0 * q - largest - smallest, smallest]
}

/// A particle's or body's mass, inertia or wheel radius that is not physical with some
/// parameter values.
#[derive(Debug, Clone, PartialEq)]
pub struct Unphysical {
    /// The particle or body, and why.
    pub error: ModelError,
    /// The parameters the quantity reads, in the model's order (none: it is a number).
    pub parameters: Vec<String>,
}

impl Model {
    /// The masses, inertias and wheel radii among the checked `particles` and `bodies` (of
    /// this model) that break the rule of this module once each parameter `p` with a
    /// `value(p)` takes it; a quantity that reads a parameter without one is not checked.
    pub fn unphysical(
        &self,
        particles: &[CheckedParticle],
        bodies: &[CheckedBody],
        value: &dyn Fn(&str) -> Option<f64>,
    ) -> Vec<Unphysical> {
        let known: Vec<Option<f64>> = self.parameters.iter().map(|p| value(p)).collect();
        // The value of `exprs` and the parameters they read, if every leaf has a value.
        let evaluate = |exprs: &[&Expr]| -> Option<(Vec<f64>, Vec<String>)> {
            let slot = |e: &Expr| match e {
                Expr::Name(n) => self.parameters.iter().position(|p| p == n),
                _ => None,
            };
            let owned: Vec<Expr> = exprs.iter().map(|&e| e.clone()).collect();
            let program = lower::program(&owned, known.len(), &slot).ok()?;
            let mut read = vec![false; known.len()];
            for e in &owned {
                e.for_each_leaf(&mut |leaf| {
                    if let Some(i) = slot(leaf) {
                        read[i] = true;
                    }
                });
            }
            let inputs: Vec<f64> = known
                .iter()
                .zip(&read)
                .map(|(v, &r)| if r { *v } else { Some(0.0) })
                .collect::<Option<_>>()?;
            let mut out = vec![0.0; owned.len()];
            program.evaluate(&inputs, &mut out);
            let names = self
                .parameters
                .iter()
                .zip(&read)
                .filter(|(_, r)| **r)
                .map(|(p, _)| p.clone())
                .collect();
            Some((out, names))
        };
        let mut found = Vec::new();
        let mut report = |item: Item, what: String, problem: Option<String>, parameters| {
            if let Some(problem) = problem {
                found.push(Unphysical {
                    error: ModelError {
                        item,
                        message: format!("{what}: {problem}"),
                    },
                    parameters,
                });
            }
        };
        for p in particles {
            if let Some((m, read)) = evaluate(&[&p.mass]) {
                let item = Item::Particle(position(&self.particles, |q| q.name == p.name));
                let what = format!("particle `{}`", excerpt_text(&p.name));
                report(item, what, mass_problem(m[0]), read);
            }
        }
        for b in bodies {
            let item = Item::Body(position(&self.bodies, |c| c.name == b.name));
            let what = || format!("body `{}`", excerpt_text(&b.name));
            if let Some((m, read)) = evaluate(&[&b.mass]) {
                report(item, what(), mass_problem(m[0]), read);
            }
            let t = &b.inertia;
            let entries = [&t[0][0], &t[1][1], &t[2][2], &t[0][1], &t[0][2], &t[1][2]];
            if let Some((e, read)) = evaluate(&entries) {
                let entries = [e[0], e[1], e[2], e[3], e[4], e[5]];
                report(item, what(), inertia_problem(entries), read);
            }
            if let Some((r, read)) = b.rolls.as_ref().and_then(|r| evaluate(&[r])) {
                report(item, what(), radius_problem(r[0]), read);
            }
        }
        found
    }
}

/// The index of the first of `items` that `is` holds for (0 if none does).
fn position<T>(items: &[T], is: impl Fn(&T) -> bool) -> usize {
    items.iter().position(is).unwrap_or(0)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_principal_moments_are_the_eigenvalues() {
        // A diagonal tensor's moments are its diagonal.
        let [a, b, c] = principal_moments([2.0, 1.0, 3.0, 0.0, 0.0, 0.0]);
        assert_eq!((a, b, c), (2.0, 1.0, 3.0));
        // [[2, 1, 0], [1, 2, 0], [0, 0, 5]]: eigenvalues 3, 1 and 5.
        let mut moments = principal_moments([2.0, 2.0, 5.0, 1.0, 0.0, 0.0]);
        moments.sort_by(f64::total_cmp);
        for (got, want) in moments.iter().zip([1.0, 3.0, 5.0]) {
            assert!((got - want).abs() < 1e-12, "{moments:?}");
        }
    }

    #[test]
    fn a_tensor_is_an_inertia_when_no_principal_moment_is_negative() {
        // A thin rod (0, B, B) and a point are on the boundary.
        assert_eq!(inertia_problem([0.0, 3.0, 3.0, 0.0, 0.0, 0.0]), None);
        assert_eq!(inertia_problem([0.0; 6]), None);
        // [[1, 1, 0], [1, 1, 0], [0, 0, 2]] has the moments 2, 2 and 0.
        assert_eq!(inertia_problem([1.0, 1.0, 2.0, 1.0, 0.0, 0.0]), None);
        // CAD round-off of zero is no moment; a product larger than the moments is.
        assert_eq!(
            inertia_problem([0.0, 0.0, 0.0, 0.0, 2.40741e-35, 0.0]),
            None
        );
        assert!(
            inertia_problem([2.371e-8, 2.833e-8, 3.849e-8, 6.119e-8, 1.179e-8, 7.74e-9]).is_some()
        );
        let negative = inertia_problem([1.0, -1.0, 1.0, 0.0, 0.0, 0.0]).unwrap();
        assert!(negative.contains("moment -1"), "{negative}");
        // Positive diagonal, yet [[1, 2, 0], [2, 1, 0], [0, 0, 1]] has the moment −1.
        let products = inertia_problem([1.0, 1.0, 1.0, 2.0, 0.0, 0.0]).unwrap();
        assert!(products.contains("moment -1"), "{products}");
        assert!(mass_problem(-50.0).is_some() && mass_problem(0.0).is_none());
        assert!(mass_problem(f64::NAN).is_some());
        assert!(radius_problem(0.0).is_some() && radius_problem(0.012).is_none());
    }

    /// A particle's mass read from a parameter is checked with its value, a written one
    /// with the model; each error names the particle's item.
    #[test]
    fn a_particles_mass_is_checked_as_written_and_with_its_value() {
        let model = |mass: &str| Model {
            name: "Bob".into(),
            coordinates: vec!["x".into()],
            parameters: vec!["m".into(), "k".into()],
            particles: vec![crate::model::Particle {
                name: "bob".into(),
                mass: mass.into(),
                position: vec!["x".into(), "0".into()],
            }],
            potential: Some("k*x^2".into()),
            ..Model::default()
        };
        let errors = model("-2").check().unwrap_err();
        assert_eq!(errors.len(), 1, "{errors:?}");
        assert_eq!(errors[0].item, Item::Particle(0));
        assert!(errors[0].message.contains("particle `bob`: the mass is -2"));
        let written = model("2*m");
        let checked = written.check().unwrap();
        let values = |m: f64| move |p: &str| (p == "m").then_some(m);
        let found = written.unphysical(&checked.particles, &checked.bodies, &values(-0.5));
        assert_eq!(found.len(), 1, "{found:?}");
        assert_eq!(found[0].parameters, ["m"]);
        assert!(
            found[0].error.message.contains("the mass is -1"),
            "{found:?}"
        );
        let fine = written.unphysical(&checked.particles, &checked.bodies, &values(0.5));
        assert!(fine.is_empty(), "{fine:?}");
    }
}
