//! What the equations are derived from, in symbolic form: the Lagrangian, the forces,
//! the dissipation and the constraints of a checked model.

use super::kinetic;
use crate::cas::{Session, Sym, Var};
use crate::model::{CheckedModel, Energy};

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
    /// Indices into `parameters` of the model's inputs (signals set by a controller).
    pub inputs: Vec<usize>,
    /// Holonomic constraints `G(t, q) = 0`.
    pub constraints: Vec<Sym>,
    /// Velocity constraints `e = a(t, q)·q̇ + b(t, q) = 0`, by their left sides `e`: the
    /// written ones, then two per rolling wheel.
    pub velocity_constraints: Vec<Sym>,
    /// What each velocity constraint after the written ones is (a wheel's rolling).
    pub rolling: Vec<String>,
}

impl System {
    /// The engine variables of the [`Inputs`](crate::equations::Inputs) layout: time,
    /// coordinates, velocities, parameters.
    pub(crate) fn inputs(&self) -> Vec<Var> {
        std::iter::once(Var::Time)
            .chain(self.coordinates.iter().map(|(i, _)| Var::Coordinate(*i)))
            .chain(self.coordinates.iter().map(|(i, _)| Var::Velocity(*i)))
            .chain(self.parameters.iter().map(|(var, _)| *var))
            .collect()
    }

    /// The symbolic form of a checked model; without `bodies`, the particles' and bodies'
    /// energies are left out of `L` (for a tree whose recursions compute them).
    pub(crate) fn of_model(
        s: &Session,
        model: &CheckedModel,
        bodies: bool,
    ) -> Result<System, String> {
        let (lagrangian, energy, split_source) = match &model.energy {
            Energy::KineticPotential { kinetic, potential } => {
                let mut t = s.expr(kinetic)?;
                let mut v = s.expr(potential)?;
                if bodies {
                    let poses = kinetic::poses(s, model)?;
                    t = &t + &kinetic::of_bodies(s, model, &poses)?;
                    v = &v + &kinetic::gravity_potential(s, model, &poses)?;
                }
                (&t - &v, Some(&t + &v), t)
            }
            Energy::Lagrangian(l) => {
                let l = s.expr(l)?;
                (l.clone(), None, l)
            }
        };
        let rolling = if model.bodies.iter().any(|b| b.rolls.is_some()) {
            super::rolling::conditions(s, model, &kinetic::poses(s, model)?)?
        } else {
            Vec::new()
        };
        let mut velocity_constraints: Vec<Sym> = model
            .velocity_constraints
            .iter()
            .map(|e| s.expr(e))
            .collect::<Result<_, _>>()?;
        // The written forms were checked as written; once simplified, each must still
        // involve a velocity (`0*dot(x) + x`, `dot(x) - dot(x)` do not).
        let n = model.coordinates.len();
        for (i, e) in velocity_constraints.iter().enumerate() {
            if (0..n).all(|j| e.diff(Var::Velocity(j)).is_zero()) {
                return Err(format!(
                    "velocity_constraint[{i}] `{}` involves no velocity once simplified: a relation between coordinates is a holonomic `constraint`",
                    crate::syntax::print::excerpt_text(&crate::syntax::print::text(
                        &model.velocity_constraints[i]
                    ))
                ));
            }
        }
        velocity_constraints.extend(rolling.iter().map(|(e, _)| e.clone()));
        let system = System {
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
            inputs: model.inputs.clone(),
            constraints: model
                .constraints
                .iter()
                .map(|g| s.expr(g))
                .collect::<Result<_, _>>()?,
            velocity_constraints,
            rolling: rolling.into_iter().map(|(_, name)| name).collect(),
        };
        system.check_freedom()?;
        Ok(system)
    }

    /// With the rolling conditions counted (the model's check counted only the written
    /// constraints): fewer constraints than coordinates, or as many with one that moves.
    fn check_freedom(&self) -> Result<(), String> {
        let (k, n) = (self.all_constraints().count(), self.coordinates.len());
        let moving = self.all_constraints().any(|g| g.contains(Var::Time));
        if self.rolling.is_empty() || k < n || (k == n && moving) {
            return Ok(());
        }
        Err(format!(
            "{k} constraints on {n} coordinates, {} of them {}, leave no freedom: give fewer constraints than coordinates",
            self.rolling.len(),
            self.rolling.join(", ")
        ))
    }

    /// Every constraint's expression: each `G`, then each velocity constraint's `e`.
    pub(crate) fn all_constraints(&self) -> impl Iterator<Item = &Sym> {
        self.constraints.iter().chain(&self.velocity_constraints)
    }

    /// Whether some constraint's reaction may act on the `i`-th coordinate: a holonomic
    /// constraint that contains it, or a velocity constraint that contains its velocity
    /// (the reaction along it is `λ ∂e/∂q̇ᵢ`).
    pub(crate) fn constrains(&self, i: usize) -> bool {
        let index = self.coordinates[i].0;
        self.constraints
            .iter()
            .any(|g| g.contains(Var::Coordinate(index)))
            || self
                .velocity_constraints
                .iter()
                .any(|e| e.contains(Var::Velocity(index)))
    }

    /// Whether a constraint moves or does work: one that contains `t`, or a velocity
    /// constraint `e = a·q̇ + b` whose `b` is not identically 0 (its reaction's power is
    /// `−λ b`).
    pub(crate) fn constraints_do_work(&self, s: &Session) -> Result<bool, String> {
        if self.all_constraints().any(|g| g.contains(Var::Time)) {
            return Ok(true);
        }
        let free: Vec<Sym> = self
            .velocity_constraints
            .iter()
            .map(|e| self.velocity_free_part(e))
            .collect();
        Ok(!s.vanishing(&free)?.iter().all(|&zero| zero))
    }

    /// `b` of a velocity constraint `e = a(t, q)·q̇ + b(t, q)`: `e` at `q̇ = 0`.
    pub(crate) fn velocity_free_part(&self, e: &Sym) -> Sym {
        let velocities: Vec<Var> = self
            .coordinates
            .iter()
            .map(|&(i, _)| Var::Velocity(i))
            .collect();
        e.substitute_zero(&velocities)
    }
}
