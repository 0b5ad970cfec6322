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
use crate::ir::Program;
use crate::model::{CheckedModel, CheckedParticle, Energy};
use crate::numeric::{SplitMix, least_squares, nearby_fraction, sample_state};
use crate::syntax::{Expr, Rational, print};

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

/// `P` (3), `Λ` (3), `T`, `J`, `I`.
fn dynamic_functions(s: &Session, masses: &[Mass], n: usize) -> Vec<Sym> {
    let zero = || s.int(0);
    let mut out: Vec<Sym> = (0..9).map(|_| zero()).collect();
    let dot = |a: &[Sym; 3], b: &[Sym; 3]| (0..3).fold(zero(), |acc, i| &acc + &(&a[i] * &b[i]));
    for Mass { mass, com, body } in masses {
        let velocity: [Sym; 3] = std::array::from_fn(|i| kinetic::time_derivative(s, &com[i], n));
        let moment = cross(com, &velocity);
        for a in 0..3 {
            out[a] = &out[a] + &(mass * &velocity[a]);
            out[3 + a] = &out[3 + a] + &(mass * &moment[a]);
        }
        out[6] = &out[6] + &(&(&s.half() * mass) * &dot(&velocity, &velocity));
        out[7] = &out[7] + &(mass * &dot(com, &velocity));
        out[8] = &out[8] + &(mass * &dot(com, com));
        if let Some(Turning {
            r, omega, inertia, ..
        }) = body
        {
            // The spin R Θ ω, the rotational energy ½ ωᵀ Θ ω and the points' spread
            // Σ m ρ² = tr Θ / 2 about the centre of mass.
            let spin_body: [Sym; 3] = std::array::from_fn(|i| {
                (0..3).fold(zero(), |acc, j| &acc + &(&inertia[i][j] * &omega[j]))
            });
            for (a, row) in r.iter().enumerate() {
                let spin = (0..3).fold(zero(), |acc, j| &acc + &(&row[j] * &spin_body[j]));
                out[3 + a] = &out[3 + a] + &spin;
            }
            out[6] = &out[6] + &(&s.half() * &dot(omega, &spin_body));
            let trace = &(&inertia[0][0] + &inertia[1][1]) + &inertia[2][2];
            out[8] = &out[8] + &(&s.half() * &trace);
        }
    }
    out
}

fn cross(a: &[Sym; 3], b: &[Sym; 3]) -> [Sym; 3] {
    std::array::from_fn(|i| {
        let (j, k) = ((i + 1) % 3, (i + 2) % 3);
        &(&a[j] * &b[k]) - &(&a[k] * &b[j])
    })
}

/// `dΦ/dt = ∂Φ/∂t + Σ ∂Φ/∂qᵢ q̇ᵢ + Σ ∂Φ/∂q̇ᵢ q̈ᵢ` of a function of `(t, q, q̇)`.
fn total_rate(s: &Session, phi: &Sym, n: usize) -> Sym {
    (0..n).fold(kinetic::time_derivative(s, phi, n), |acc, i| {
        &acc + &(&phi.diff(Var::Velocity(i)) * &s.var(Var::Acceleration(i)))
    })
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
    let mut rng = SplitMix::new(0x7e0f_a1d3_55c2_9b01);
    let mut out = [0.0; 2];
    program.evaluate(&sample_state(&mut rng, inputs.len()), &mut out);
    let Some((num, den)) = nearby_fraction(-out[1] / out[0], DENOMINATOR) else {
        return Ok(None);
    };
    let n = Rational::new(i128::from(num), i128::from(den));
    let identity = work + &(&s.expr(&Expr::Number(n))? * v);
    Ok(s.vanishes(&identity)?.then_some(n))
}

/// The positions a symmetry moves, with their derivatives, ready to fit generators to.
struct Search<'a> {
    s: &'a Session,
    model: &'a CheckedModel,
    masses: &'a [Mass],
    constraints: &'a [Sym],
    n: usize,
    /// Every centre of mass (3 entries) and body orientation (9), in order.
    entries: Vec<Sym>,
    /// `entries` and `∂entries/∂q` (row-major) at the sample points.
    samples: Vec<(Vec<f64>, Vec<f64>)>,
    /// The coordinates at the sample points.
    points: Vec<Vec<f64>>,
}

impl<'a> Search<'a> {
    fn new(
        s: &'a Session,
        model: &'a CheckedModel,
        system: &'a System,
        masses: &'a [Mass],
        inputs: &[Var],
    ) -> Result<Search<'a>, String> {
        let n = model.coordinates.len();
        let mut entries = Vec::new();
        for m in masses {
            entries.extend(m.com.iter().cloned());
            if let Some(body) = &m.body {
                entries.extend(body.r.iter().flatten().cloned());
            }
        }
        let mut outputs = entries.clone();
        for e in &entries {
            outputs.extend((0..n).map(|i| e.diff(Var::Coordinate(i))));
        }
        let program: Program = s.compile(&outputs, inputs)?;
        // Enough points that the fit's unknowns (n² + n for a linear generator) are
        // overdetermined.
        // A coordinate may move a single entry, whose rows must then determine its
        // n + 1 coefficients alone: at least n + 4 points.
        let count = if n <= LINEAR_GENERATOR_COORDINATES {
            (3 + (n * n + n).div_ceil(entries.len().max(1))).max(n + 4)
        } else {
            3 + n.div_ceil(entries.len().max(1))
        };
        let mut rng = SplitMix::new(0x51f1_5eed_0bad_cafe);
        let (mut samples, mut points) = (Vec::new(), Vec::new());
        for _ in 0..count {
            let point = sample_state(&mut rng, inputs.len());
            let mut out = vec![0.0; outputs.len()];
            program.evaluate(&point, &mut out);
            let values = out[..entries.len()].to_vec();
            samples.push((values, out[entries.len()..].to_vec()));
            points.push(point[1..=n].to_vec());
        }
        Ok(Search {
            s,
            model,
            masses,
            constraints: &system.constraints,
            n,
            entries,
            samples,
            points,
        })
    }

    /// What the symmetry moves each entry by, given the entries' values (`e`: symbols or
    /// numbers), in the order of `entries`.
    fn targets<T: Clone>(
        &self,
        symmetry: Symmetry,
        e: &[T],
        zero: T,
        one: T,
        neg: impl Fn(&T) -> T,
    ) -> Vec<T> {
        let mut out = Vec::with_capacity(e.len());
        let mut k = 0;
        // (a × v)_i = ε_{i a j} v_j: the component i gets +v_j or −v_j.
        let rotate = |a: usize, v: &[T]| -> [T; 3] {
            std::array::from_fn(|i| {
                if i == a {
                    zero.clone()
                } else if (a + 1) % 3 == i {
                    neg(&v[(a + 2) % 3])
                } else {
                    v[(a + 1) % 3].clone()
                }
            })
        };
        for m in self.masses {
            let com = &e[k..k + 3];
            out.extend(match symmetry {
                Symmetry::Translation(a) => {
                    std::array::from_fn::<T, 3, _>(
                        |i| if i == a { one.clone() } else { zero.clone() },
                    )
                }
                Symmetry::Rotation(a) => rotate(a, com),
                Symmetry::Homothety => std::array::from_fn(|i| com[i].clone()),
            });
            k += 3;
            if m.body.is_some() {
                let r = &e[k..k + 9];
                let mut turned: Vec<T> = vec![zero.clone(); 9];
                if let Symmetry::Rotation(a) = symmetry {
                    // [a]× R, column by column.
                    for j in 0..3 {
                        let column: Vec<T> = (0..3).map(|i| r[3 * i + j].clone()).collect();
                        for (i, x) in rotate(a, &column).into_iter().enumerate() {
                            turned[3 * i + j] = x;
                        }
                    }
                }
                out.extend(turned);
                k += 9;
            }
        }
        out
    }

    /// The generator of `symmetry`, or why none was established.
    fn generator(&self, symmetry: Symmetry) -> Result<Result<Vec<Sym>, String>, String> {
        if let Symmetry::Homothety = symmetry
            && let Some(body) = self.masses.iter().find_map(|m| m.body.as_ref())
        {
            return Ok(Err(format!(
                "a rigid body keeps its size: no homothety moves `{}`",
                body.name
            )));
        }
        let what = symmetry.describe();
        let Some(xi) = self.fit(symmetry, false).or_else(|| {
            (self.n <= LINEAR_GENERATOR_COORDINATES)
                .then(|| self.fit(symmetry, true))
                .flatten()
        }) else {
            let searched = if self.n <= LINEAR_GENERATOR_COORDINATES {
                "constant or linear in the coordinates"
            } else {
                "constant (linear ones are searched up to 12 coordinates)"
            };
            return Ok(Err(format!(
                "no generator {searched} with rational coefficients moves every particle and body as {what} does"
            )));
        };
        let s = self.s;
        let n = self.n;
        let moved: Vec<Sym> = self
            .entries
            .iter()
            .map(|e| {
                (0..n).fold(s.int(0), |acc, i| {
                    &acc + &(&e.diff(Var::Coordinate(i)) * &xi[i])
                })
            })
            .collect();
        let targets = self.targets(symmetry, &self.entries, s.int(0), s.int(1), |x| -x);
        let differences: Vec<Sym> = moved.iter().zip(&targets).map(|(m, t)| m - t).collect();
        if !s.vanishing(&differences)?.iter().all(|&z| z) {
            return Ok(Err(format!(
                "the generator fitted at sample points does not move every particle and body as {what} does identically"
            )));
        }
        let tangents: Vec<Sym> = self
            .constraints
            .iter()
            .map(|g| {
                (0..n).fold(s.int(0), |acc, i| {
                    &acc + &(&g.diff(Var::Coordinate(i)) * &xi[i])
                })
            })
            .collect();
        if let Some(k) = s.vanishing(&tangents)?.iter().position(|&z| !z) {
            return Ok(Err(format!(
                "constraint {} (`{}`) does not admit {what}",
                k + 1,
                print::excerpt(&self.model.constraints[k])
            )));
        }
        Ok(Ok(xi))
    }

    /// A generator `ξ = C q + d` (`C = 0` unless `linear`) with rational coefficients
    /// that moves the entries as `symmetry` does at every sample point, or `None`.
    fn fit(&self, symmetry: Symmetry, linear: bool) -> Option<Vec<Sym>> {
        let n = self.n;
        let width = if linear { n * n + n } else { n };
        let (mut a, mut b) = (Vec::new(), Vec::new());
        for ((values, jacobian), q) in self.samples.iter().zip(&self.points) {
            let targets = self.targets(symmetry, values, 0.0, 1.0, |x| -x);
            for (row, target) in targets.iter().enumerate() {
                let d = &jacobian[row * n..(row + 1) * n];
                if linear {
                    for di in d {
                        a.extend(q.iter().map(|ql| di * ql));
                    }
                }
                a.extend_from_slice(d);
                b.push(*target);
            }
        }
        let rows = b.len();
        let u = least_squares(&a, rows, width, &b)?;
        let scale = 1.0 + b.iter().fold(0.0f64, |m, x| m.max(x.abs()));
        let consistent = (0..rows).all(|r| {
            let fitted: f64 = (0..width).map(|c| a[r * width + c] * u[c]).sum();
            (fitted - b[r]).abs() <= 1e-8 * scale
        });
        if !consistent {
            return None;
        }
        let s = self.s;
        let number = |x: f64| -> Option<Sym> {
            let (num, den) = nearby_fraction(x, DENOMINATOR)?;
            s.expr(&Expr::Number(Rational::new(
                i128::from(num),
                i128::from(den),
            )))
            .ok()
        };
        (0..n)
            .map(|i| {
                let offset = if linear { n * n } else { 0 };
                let mut xi = number(u[offset + i])?;
                if linear {
                    for l in 0..n {
                        let c = number(u[i * n + l])?;
                        xi = &xi + &(&c * &s.var(Var::Coordinate(l)));
                    }
                }
                Some(xi)
            })
            .collect()
    }

    /// `Ok(())` when no position, orientation or constraint depends on `t`, else why.
    fn stationary(&self) -> Result<Result<(), String>, String> {
        let s = self.s;
        let rates: Vec<Sym> = self.entries.iter().map(|e| e.diff(Var::Time)).collect();
        let fixed = s.vanishing(&rates)?;
        let mut k = 0;
        for (index, m) in self.masses.iter().enumerate() {
            let width = if m.body.is_some() { 12 } else { 3 };
            if !fixed[k..k + width].iter().all(|&z| z) {
                let what = match &m.body {
                    Some(body) => format!("body `{}`", body.name),
                    None => format!("particle {}", index + 1),
                };
                return Ok(Err(format!("the placement of {what} depends on t")));
            }
            k += width;
        }
        let moving: Vec<Sym> = self.constraints.iter().map(|g| g.diff(Var::Time)).collect();
        if let Some(k) = s.vanishing(&moving)?.iter().position(|&z| !z) {
            return Ok(Err(format!(
                "constraint {} (`{}`) depends on t",
                k + 1,
                print::excerpt(&self.model.constraints[k])
            )));
        }
        Ok(Ok(()))
    }
}
