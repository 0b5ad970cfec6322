//! The reduced model (Routh): its system, the reduced state of a full one, and the
//! ignored coordinates' velocities (a [`ReducedSystem`](lagrange_core::ReducedSystem)
//! through [`ReducedPrograms`]).

use lagrange_core::ReducedPrograms;
use lagrange_core::nalgebra::Dyn;
use lagrange_symbolic::equations::{Equations, Reduced};

use crate::Loaded;
use crate::{Backend, LoadError};

impl Loaded {
    /// The system of the reduced model `reduced`, whose parameter `values` are the
    /// model's followed by the constant momenta; it also gives the ignored coordinates'
    /// velocities (a [`ReducedSystem`](lagrange_core::ReducedSystem)).
    pub fn reduced(reduced: &Reduced, values: &[f64]) -> Result<Loaded, LoadError> {
        let ignored = (reduced.ignored.clone(), reduced.ignored_velocities.clone());
        Loaded::of(
            &reduced.equations,
            values,
            Some(ignored),
            "the reduced ",
            Backend::from_env(),
        )
    }
}

/// The reduced state (Routh) of a full state `(t, q, q̇)` of a model that ignores
/// coordinates, with the model's parameter `values`.
pub struct ReducedState {
    /// The reduced system's parameter values: the model's, then the constant momenta.
    pub values: Vec<f64>,
    /// The momenta of the ignored coordinates at the state.
    pub momenta: Vec<f64>,
    /// The retained coordinates.
    pub q: Vec<f64>,
    /// The retained velocities.
    pub qd: Vec<f64>,
    /// The ignored coordinates.
    pub ignored: Vec<f64>,
}

impl ReducedState {
    /// Splits the state of `full` and takes the momenta `∂L/∂χ̇` of the ignored
    /// coordinates from its momenta program.
    pub fn of(
        full: &Equations,
        reduced: &Reduced,
        t: f64,
        q: &[f64],
        qd: &[f64],
        values: &[f64],
    ) -> ReducedState {
        let inputs: Vec<f64> = std::iter::once(t)
            .chain(q.iter().copied())
            .chain(qd.iter().copied())
            .chain(values.iter().copied())
            .collect();
        let mut all = vec![0.0; q.len()];
        full.programs.momenta.evaluate(&inputs, &mut all);
        let pick = |v: &[f64], indices: &[usize]| indices.iter().map(|&i| v[i]).collect();
        let momenta: Vec<f64> = pick(&all, &reduced.ignored_indices);
        ReducedState {
            values: values.iter().chain(&momenta).copied().collect(),
            momenta,
            q: pick(q, &reduced.retained),
            qd: pick(qd, &reduced.retained),
            ignored: pick(q, &reduced.ignored_indices),
        }
    }
}

impl ReducedPrograms for Loaded {
    type Ignored = Dyn;

    fn ignored(&self) -> Vec<&str> {
        let (names, _) = self
            .model
            .ignored
            .as_ref()
            .expect("only reduced models ignore coordinates");
        names.iter().map(String::as_str).collect()
    }
}
