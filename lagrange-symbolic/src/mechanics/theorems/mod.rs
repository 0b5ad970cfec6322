//! The general theorems of dynamics for a model whose masses are all particles and
//! bodies: the dynamic functions `P`, `Λ`, `T`, `J`, `I`, and for each theorem whether
//! the constraints admit its symmetry.
//!
//! A symmetry is established by exhibiting its generator: a vector field `ξ(q)` in the
//! coordinates that moves every particle and body as the symmetry does,
//! `Σᵢ ∂r/∂qᵢ ξᵢ = a` (translation along `a`), `a × r` (rotation about `a` through the
//! origin, with `Σᵢ ∂R/∂qᵢ ξᵢ = [a]× R` for a body's orientation) or `r` (homothety), and
//! that every written constraint admits, `Σᵢ ∂G/∂qᵢ ξᵢ = 0`. For particles in Cartesian
//! coordinates these are the identities of the lecture (`Σᵥ ∂f/∂xᵥ = 0`, …). Then the
//! symmetry's displacement is a virtual one, the reactions do no work on it, and the
//! applied forces' part of the law is the virtual work `Q·ξ` of the generalized forces
//! (`−∂V/∂q`, the written forces and `−∂F/∂q̇`): how a generalized force maps to the
//! resultant `Σ F_a`, the moment `M_a` or `Σ F·r`.
//!
//! The generator is searched among the constant ones and then those linear in the
//! coordinates (up to [`LINEAR_GENERATOR_COORDINATES`]), with rational coefficients: fitted
//! at sample points, then verified as an identity in `t`, `q` and the parameters by
//! [`Session::vanishing`]. A symmetry not found this way is "not established", never
//! "absent".

use super::System;
use super::kinetic::{self, Pose};
use crate::cas::{Session, Sym, Var};
use crate::equations::{Law, Premise, Theorem, Theorems};
use crate::model::{CheckedModel, CheckedParticle, Energy};
use crate::numeric::{SplitMix64, nearby_fraction, sample_state};
use crate::syntax::{Expr, Rational, print};
use dynamic_functions::{dynamic_functions, total_rate};
use generator::Search;

mod dynamic_functions;
mod generator;

/// The most coordinates for which a generator linear in them is searched: the fit has
/// `n² + n` unknowns.
pub const LINEAR_GENERATOR_COORDINATES: usize = 12;

/// The largest denominator of a generator's coefficients.
const DENOMINATOR: i64 = 24;

/// A mass as the theorems see it: its centre of mass and, for a body, its orientation,
/// angular velocity and inertia.
struct Mass {
    mass: Sym,
    com: [Sym; 3],
    body: Option<Turning>,
}

struct Turning {
    name: String,
    r: [[Sym; 3]; 3],
    omega: [Sym; 3],
    inertia: Vec<Vec<Sym>>,
}

/// The symmetry a theorem asks the constraints to admit.
#[derive(Clone, Copy)]
enum Symmetry {
    Translation(usize),
    Rotation(usize),
    Homothety,
}

const AXES: [&str; 3] = ["x", "y", "z"];

impl Symmetry {
    fn describe(self) -> String {
        match self {
            Symmetry::Translation(a) => format!("a translation along {}", AXES[a]),
            Symmetry::Rotation(a) => format!("a rotation about the {} axis", AXES[a]),
            Symmetry::Homothety => "a homothety about the origin".into(),
        }
    }
}

// Longer than 120 lines because it is one pass over the nine theorems in order, every law
// built from the same shared locals (the applied forces, `along`, the `balance` rows pushed
// in order, the virial's `homogeneity`): a split would pass them all around and hide the
// order in which the balance rows are built.
/// The theorems of a model whose kinetic energy comes from particles and bodies alone
/// (no written `T` or `L`); `None` for any other model.
pub(crate) fn theorems(
    s: &Session,
    model: &CheckedModel,
    system: &System,
) -> Result<Option<Theorems>, String> {
    let Energy::KineticPotential { kinetic, potential } = &model.energy else {
        return Ok(None);
    };
    if !kinetic.is_zero() || (model.particles.is_empty() && model.bodies.is_empty()) {
        return Ok(None);
    }
    let n = model.coordinates.len();
    let poses = kinetic::poses(s, model)?;
    let masses = masses(s, model, &poses)?;
    let functions = dynamic_functions(s, &masses, n);
    let v = &s.expr(potential)? + &kinetic::gravity_potential(s, model, &poses)?;
    // The applied generalized forces: −∂V/∂q, the written forces, −∂F/∂q̇.
    let applied: Vec<Sym> = (0..n)
        .map(|i| {
            let mut q = -&v.diff(Var::Coordinate(i));
            if let Some(f) = &system.forces[i] {
                q = &q + f;
            }
            if let Some(d) = &system.dissipation {
                q = &q - &d.diff(Var::Velocity(i));
            }
            q
        })
        .collect();
    let along = |xi: &[Sym]| {
        applied
            .iter()
            .zip(xi)
            .fold(s.int(0), |acc, (q, x)| &acc + &(q * x))
    };
    let inputs = system.inputs();
    let search = Search::new(s, model, system, &masses, &inputs)?;
    // Every theorem assumes constant masses: the points' T is then all that moves.
    let varying = varying_mass(&masses, n);

    let mut laws = Vec::new();
    let mut balance: Vec<Sym> = Vec::new();
    let mut homogeneity = None;
    let rate = |phi: &Sym| total_rate(s, phi, n);
    for theorem in Theorem::ALL {
        let phi = &functions[theorem.function_index()];
        let found = match (theorem, &varying) {
            (_, Some(why)) => Err(why.clone()),
            (theorem, None) => match theorem {
                Theorem::Momentum(a) => search.generator(Symmetry::Translation(a.index()))?,
                Theorem::AngularMomentum(a) => search.generator(Symmetry::Rotation(a.index()))?,
                Theorem::Virial => search.generator(Symmetry::Homothety)?,
                Theorem::KineticEnergy => search.stationary()?.map(|()| Vec::new()),
                Theorem::MomentOfInertia => Ok(Vec::new()),
            },
        };
        let law = match found {
            Err(reason) => Law {
                theorem,
                premise: Premise::NotEstablished(reason),
                integral: false,
            },
            Ok(xi) => {
                let (symmetry, applied_part, rhs, integral) = match theorem {
                    Theorem::KineticEnergy => {
                        let velocities: Vec<Sym> =
                            (0..n).map(|i| s.var(Var::Velocity(i))).collect();
                        let power = along(&velocities);
                        // d(T + V)/dt = (Q − ∂F/∂q̇)·q̇ + ∂V/∂t.
                        let work = &power + &kinetic::time_derivative(s, &v, n);
                        let integral = s.vanishes(&work)?;
                        let symmetry = "the constraints are stationary: no position, orientation or constraint depends on t".to_string();
                        (symmetry, Some(power.clone()), power, integral)
                    }
                    Theorem::MomentOfInertia => {
                        let two_j = &s.int(2) * &functions[7];
                        (
                            "no premise: I = Σ m r², so dI/dt = 2 Σ m r·ṙ".to_string(),
                            None,
                            two_j,
                            false,
                        )
                    }
                    Theorem::Virial => {
                        let work = along(&xi);
                        let rhs = &(&s.int(2) * &functions[6]) + &work;
                        let integral = s.vanishes(&rhs)?;
                        if system.forces.iter().all(Option::is_none) && system.dissipation.is_none()
                        {
                            homogeneity = degree(s, &v, &work, &inputs)?;
                        }
                        (
                            generated_by(s, model, Symmetry::Homothety, &xi)?,
                            Some(work),
                            rhs,
                            integral,
                        )
                    }
                    Theorem::Momentum(a) | Theorem::AngularMomentum(a) => {
                        let symmetry = match theorem {
                            Theorem::Momentum(_) => Symmetry::Translation(a.index()),
                            _ => Symmetry::Rotation(a.index()),
                        };
                        let work = along(&xi);
                        let integral = s.vanishes(&work)?;
                        (
                            generated_by(s, model, symmetry, &xi)?,
                            Some(work.clone()),
                            work,
                            integral,
                        )
                    }
                };
                balance.push(rate(phi));
                balance.push(rhs);
                let applied = applied_part
                    .map(|w| s.to_expr(&w.printable()))
                    .transpose()?;
                Law {
                    theorem,
                    premise: Premise::Holds { symmetry, applied },
                    integral,
                }
            }
        };
        laws.push(law);
    }
    let mut with_accelerations = inputs.clone();
    with_accelerations.extend((0..n).map(Var::Acceleration));
    Ok(Some(Theorems {
        dynamic_functions: s.compile(&functions, &inputs)?,
        laws,
        balance: s.compile(&balance, &with_accelerations)?,
        homogeneity,
    }))
}

/// The model's particles and bodies as [`Mass`]es (a planar particle at `z = 0`).
fn masses(s: &Session, model: &CheckedModel, poses: &[Pose]) -> Result<Vec<Mass>, String> {
    let mut masses = Vec::new();
    for CheckedParticle { mass, position, .. } in &model.particles {
        let mut com = [s.int(0), s.int(0), s.int(0)];
        for (c, e) in com.iter_mut().zip(position) {
            *c = s.expr(e)?;
        }
        masses.push(Mass {
            mass: s.expr(mass)?,
            com,
            body: None,
        });
    }
    for (body, pose) in model.bodies.iter().zip(poses) {
        masses.push(Mass {
            mass: s.expr(&body.mass)?,
            com: pose.com.clone(),
            body: Some(Turning {
                name: body.name.clone(),
                r: pose.r.clone(),
                omega: pose.omega.clone(),
                inertia: kinetic::matrix(s, &body.inertia)?,
            }),
        });
    }
    Ok(masses)
}

/// Why the theorems do not apply when a mass or an inertia depends on the coordinates,
/// the velocities or `t` (the model checks allow it), or `None`.
fn varying_mass(masses: &[Mass], n: usize) -> Option<String> {
    let moving = |e: &Sym| {
        e.contains(Var::Time)
            || (0..n).any(|i| e.contains(Var::Coordinate(i)) || e.contains(Var::Velocity(i)))
    };
    for (index, m) in masses.iter().enumerate() {
        let inertia = m.body.iter().flat_map(|b| b.inertia.iter().flatten());
        if moving(&m.mass) || inertia.clone().any(moving) {
            let what = match &m.body {
                Some(body) => format!("body `{}`", body.name),
                None => format!("particle {}", index + 1),
            };
            return Some(format!(
                "the mass or inertia of {what} depends on the coordinates or t; the theorems assume constant masses"
            ));
        }
    }
    None
}

/// `δq = …` of a generator, naming the coordinates it moves.
fn generated_by(
    s: &Session,
    model: &CheckedModel,
    symmetry: Symmetry,
    xi: &[Sym],
) -> Result<String, String> {
    let mut parts = Vec::new();
    for (name, x) in model.coordinates.iter().zip(xi) {
        if !x.is_zero() {
            parts.push(format!(
                "δ{name} = {}",
                print::text(&s.to_expr(&x.printable())?)
            ));
        }
    }
    Ok(format!(
        "{}, generated by {}",
        symmetry.describe(),
        parts.join(", ")
    ))
}

/// The degree `n` with `Σ ∂V/∂qᵢ ξᵢ = n V` (Euler's theorem for a function homogeneous
/// under the homothety `ξ`), when `V` is not zero and the identity holds for a rational
/// `n`; `work` is `−Σ ∂V/∂qᵢ ξᵢ`.
fn degree(s: &Session, v: &Sym, work: &Sym, inputs: &[Var]) -> Result<Option<Rational>, String> {
    if s.vanishes(v)? {
        return Ok(None);
    }
    let program = s.compile(&[v.clone(), work.clone()], inputs)?;
    let mut rng = SplitMix64::new(0x7e0f_a1d3_55c2_9b01);
    let mut out = [0.0; 2];
    program.evaluate(&sample_state(&mut rng, inputs.len()), &mut out);
    let Some((num, den)) = nearby_fraction(-out[1] / out[0], DENOMINATOR) else {
        return Ok(None);
    };
    let n = Rational::new(i128::from(num), i128::from(den));
    let identity = work + &(&s.expr(&Expr::Number(n))? * v);
    Ok(s.vanishes(&identity)?.then_some(n))
}
