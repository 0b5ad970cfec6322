//! The search for a symmetry's generator: fitted among the constant and then the linear
//! vector fields at sample points, with rational coefficients, then verified as an
//! identity.

use super::{DENOMINATOR, LINEAR_GENERATOR_COORDINATES, Mass, Symmetry};
use crate::cas::{Session, Sym, Var};
use crate::ir::Program;
use crate::mechanics::System;
use crate::model::CheckedModel;
use crate::numeric::{SplitMix64, least_squares, nearby_fraction, sample_state};
use crate::syntax::{Expr, Rational, print};

/// The positions a symmetry moves, with their derivatives, ready to fit generators to.
pub(super) struct Search<'a> {
    s: &'a Session,
    model: &'a CheckedModel,
    masses: &'a [Mass],
    system: &'a System,
    n: usize,
    /// Every centre of mass (3 entries) and body orientation (9), in order.
    entries: Vec<Sym>,
    /// `entries` and `∂entries/∂q` (row-major) at the sample points.
    samples: Vec<(Vec<f64>, Vec<f64>)>,
    /// The coordinates at the sample points.
    points: Vec<Vec<f64>>,
}

impl<'a> Search<'a> {
    pub(super) fn new(
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
        let mut rng = SplitMix64::new(0x51f1_5eed_0bad_cafe);
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
            system,
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
    pub(super) fn generator(&self, symmetry: Symmetry) -> Result<Result<Vec<Sym>, String>, String> {
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
        // The reactions, `λ ∂G/∂q` and `λ ∂e/∂q̇`, must do no work along the generator.
        let tangent = |g: &Sym, var: fn(usize) -> Var| {
            (0..n).fold(s.int(0), |acc, i| &acc + &(&g.diff(var(i)) * &xi[i]))
        };
        let tangents: Vec<Sym> = self
            .system
            .constraints
            .iter()
            .map(|g| tangent(g, Var::Coordinate))
            .chain(
                self.system
                    .velocity_constraints
                    .iter()
                    .map(|e| tangent(e, Var::Velocity)),
            )
            .collect();
        if let Some(k) = s.vanishing(&tangents)?.iter().position(|&z| !z) {
            return Ok(Err(format!(
                "constraint {} (`{}`) does not admit {what}",
                k + 1,
                self.constraint_shown(k)
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
    pub(super) fn stationary(&self) -> Result<Result<(), String>, String> {
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
        let moving: Vec<Sym> = self
            .system
            .all_constraints()
            .map(|g| g.diff(Var::Time))
            .collect();
        if let Some(k) = s.vanishing(&moving)?.iter().position(|&z| !z) {
            return Ok(Err(format!(
                "constraint {} (`{}`) depends on t",
                k + 1,
                self.constraint_shown(k)
            )));
        }
        // A velocity constraint `a·q̇ + b` does work `−λ b` unless `b ≡ 0`.
        let working: Vec<Sym> = self
            .system
            .velocity_constraints
            .iter()
            .map(|e| self.system.velocity_free_part(e))
            .collect();
        if let Some(k) = s.vanishing(&working)?.iter().position(|&z| !z) {
            let k = k + self.system.constraints.len();
            return Ok(Err(format!(
                "constraint {} (`{}`) has a term free of the velocities, through which its reaction does work",
                k + 1,
                self.constraint_shown(k)
            )));
        }
        Ok(Ok(()))
    }

    /// Constraint `k` as the model writes it (the holonomic ones, then those on the
    /// velocities), or what it is (a wheel's rolling).
    fn constraint_shown(&self, k: usize) -> String {
        let (holonomic, on_velocities) =
            (&self.model.constraints, &self.model.velocity_constraints);
        match (
            holonomic.get(k),
            on_velocities.get(k.wrapping_sub(holonomic.len())),
        ) {
            (Some(g), _) => print::excerpt(g),
            (None, Some(e)) => print::excerpt(e),
            (None, None) => {
                let written = holonomic.len() + on_velocities.len();
                self.system
                    .rolling
                    .get(k - written)
                    .cloned()
                    .unwrap_or_default()
            }
        }
    }
}
