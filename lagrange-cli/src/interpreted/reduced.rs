//! The reduced model (Routh) as a [`ReducedSystem`]: its instantiation by retained and
//! ignored coordinate counts, the reduced state of a full one, and the ignored coordinates'
//! velocities.

use std::sync::Arc;

use lagrange_core::ReducedSystem;
use lagrange_core::nalgebra::SVector;
use lagrange_symbolic::equations::{Equations, Reduced};
use lagrange_symbolic::ir::Program;

use lagrange_symbolic::equations::Layout;

use super::{Interpreted, Model};
use crate::Failure;

/// Work to do with a reduced model's system once its sizes are known.
pub(crate) trait WithReducedSystem {
    /// The work's result.
    type Output;
    /// Does the work.
    fn call<const N: usize, const J: usize>(self, system: Interpreted<N, 0, J>) -> Self::Output;
}

/// [`with_system`] for the reduced model `reduced`, whose parameter `values` are the
/// model's followed by the constant momenta; the system also gives the ignored
/// coordinates' velocities (a [`ReducedSystem`]). Handles up to 4 retained and 2 ignored
/// coordinates.
pub(crate) fn with_reduced_system<W: WithReducedSystem>(
    reduced: &Reduced,
    values: &[f64],
    work: W,
) -> Result<W::Output, Failure> {
    let equations = &reduced.equations;
    if values.len() != equations.parameters.len() {
        return Err(Failure(format!(
            "the reduced {} takes {} parameter values, got {}",
            equations.name,
            equations.parameters.len(),
            values.len()
        )));
    }
    let model = Arc::new(Model {
        info: equations.model_info(),
        layout: Layout::of(equations),
        equations: equations.clone(),
        ignored: Some((reduced.ignored.clone(), reduced.ignored_velocities.clone())),
    });
    let values = values.to_vec();
    let (n, j) = (equations.coordinates.len(), reduced.ignored.len());
    macro_rules! dispatch {
        ($(($n:literal, $j:literal)),*) => {
            match (n, j) {
                $(($n, $j) => Ok(work.call(Interpreted::<$n, 0, $j> { model, values })),)*
                _ => Err(Failure(format!(
                    "{}: the lagrange command runs reduced systems of up to 4 retained and 2 ignored coordinates (this one has {n} and {j}); run the full system, or use #[derive(Lagrangian)]",
                    equations.name
                ))),
            }
        };
    }
    dispatch!(
        (1, 1),
        (2, 1),
        (3, 1),
        (4, 1),
        (1, 2),
        (2, 2),
        (3, 2),
        (4, 2)
    )
}

/// The reduced state (Routh) of a full state `(t, q, q̇)` of a model that ignores
/// coordinates, with the model's parameter `values`.
pub(crate) struct ReducedState {
    /// The reduced system's parameter values: the model's, then the constant momenta.
    pub(crate) values: Vec<f64>,
    /// The momenta of the ignored coordinates at the state.
    pub(crate) momenta: Vec<f64>,
    /// The retained coordinates and velocities.
    pub(crate) q: Vec<f64>,
    pub(crate) qd: Vec<f64>,
    /// The ignored coordinates.
    pub(crate) ignored: Vec<f64>,
}

impl ReducedState {
    /// Splits the state of `full` and takes the momenta `∂L/∂χ̇` of the ignored
    /// coordinates from its momenta program.
    pub(crate) fn of(
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

impl<const N: usize, const J: usize> ReducedSystem<N, J> for Interpreted<N, 0, J> {
    fn ignored_names(&self) -> [&str; J] {
        std::array::from_fn(|i| self.ignored().0[i].as_str())
    }

    fn ignored_velocities(
        &self,
        t: f64,
        q: &SVector<f64, N>,
        qd: &SVector<f64, N>,
    ) -> SVector<f64, J> {
        SVector::from(self.run::<J>(&self.ignored().1, t, q, qd))
    }
}

impl<const N: usize, const J: usize> Interpreted<N, 0, J> {
    /// The ignored coordinates' names and velocities program.
    fn ignored(&self) -> &(Vec<String>, Program) {
        self.model
            .ignored
            .as_ref()
            .expect("J > 0 only for reduced models")
    }
}
