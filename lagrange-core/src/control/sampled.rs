//! The zero-order hold: a controller sampled at fixed instants, its output held between
//! them, as a digital controller acts on a continuous plant.

use nalgebra::{DefaultAllocator, Dim, OVector};

use super::Controlled;
use crate::error::Error;
use crate::integrate::{State, Stats};
use crate::run::{Simulation, Trajectory};
use crate::size::DimAllocator;
use crate::system::LagrangianSystem;

impl<S: LagrangianSystem<N>, N: Dim> Simulation<'_, S, N>
where
    DefaultAllocator: DimAllocator<N>,
{
    /// Runs the system with its inputs set by `controller` through a zero-order hold: the
    /// controller is evaluated at the sample instants `t0 + k·period` and its output held
    /// until the next one. The run goes period by period, so that no integration step
    /// straddles a switch of the inputs (the solution is only continuous there, and a
    /// step across would lose the integrator's order).
    ///
    /// The trajectory records what [`run`](Self::run) would within each period; the step
    /// budget counts over the whole run. With an [`output_interval`](Self::output_interval)
    /// the period must be a whole multiple of it, so that the output times fall on one
    /// grid.
    ///
    /// Errors with [`Error::InvalidInput`] for a period that is not finite and positive or
    /// not a multiple of the output interval, a simulation given events, more periods than the step budget, a model
    /// without inputs or a controller that returns the wrong number of values or non-finite
    /// ones; and as [`run`](Self::run) does (what was computed before is not kept).
    pub fn run_sampled<C>(
        &self,
        controller: C,
        period: f64,
        t0: f64,
        q0: OVector<f64, N>,
        qd0: OVector<f64, N>,
        t_end: f64,
    ) -> Result<Trajectory<N>, Error>
    where
        C: Fn(f64, &OVector<f64, N>, &OVector<f64, N>) -> Vec<f64>,
    {
        if !(period.is_finite() && period > 0.0) {
            return Err(Error::InvalidInput(format!(
                "the sample period must be finite and positive, got {period}"
            )));
        }
        if !self.events.is_empty() {
            return Err(Error::InvalidInput(
                "a sampled run does not watch events; use `run`".to_string(),
            ));
        }
        if let Some(dt) = self.output_interval {
            let ratio = period / dt;
            if !(ratio.round() >= 1.0 && (ratio - ratio.round()).abs() <= 1e-9 * ratio) {
                return Err(Error::InvalidInput(format!(
                    "the sample period {period} is not a whole multiple of the output interval {dt}"
                )));
            }
        }
        let initial = State::new(q0, qd0);
        self.integrator.check_arguments(t0, &initial, t_end)?;
        let periods = ((t_end - t0) / period).ceil();
        if periods > self.max_steps as f64 {
            return Err(Error::InvalidInput(format!(
                "{periods} sample periods exceed max_steps = {}",
                self.max_steps
            )));
        }
        let model = self
            .system
            .with_parameter_values(&self.system.parameter_values())?;
        let closed = Controlled::new(model, controller)?;
        let mut trajectory = Trajectory::new(&closed, self.record_action)?;
        let State { mut q, mut qd } = initial;
        for k in 0_usize.. {
            let start = t0 + k as f64 * period;
            let next = t0 + (k + 1) as f64 * period;
            // A last period shorter than this is merged into the one before.
            let end = if next >= t_end - 1e-9 * period {
                t_end
            } else {
                next
            };
            let piece = closed.holding(closed.input_values(start, &q, &qd)?)?;
            let Stats {
                accepted, rejected, ..
            } = trajectory.stats();
            let simulation = Simulation {
                system: &piece,
                integrator: self.integrator,
                output_interval: self.output_interval,
                max_steps: self.max_steps.saturating_sub(accepted + rejected),
                progress: None,
                events: Vec::new(),
                max_events: self.max_events,
                record_action: self.record_action,
            };
            let run = simulation.run(start, q.clone(), qd.clone(), end)?;
            if let Some((_, q_end, qd_end)) = run.last() {
                (q, qd) = (q_end, qd_end);
            }
            trajectory.append(run);
            self.report_progress(end);
            if end == t_end {
                break;
            }
        }
        Ok(trajectory)
    }
}

#[cfg(test)]
mod tests {
    use std::cell::Cell;

    use nalgebra::SVector;

    use super::*;
    use crate::integrate::Integrator;
    use crate::test_systems::DoubleIntegrator;

    type V1 = SVector<f64, 1>;

    #[test]
    fn a_zero_order_hold_matches_the_exact_discrete_double_integrator() {
        // Under a held u the double integrator moves exactly by
        // x ← x + h v + h² u/(2m), v ← v + h u/m.
        let (m, h, k, d) = (2.0, 0.1, 3.0, 1.5);
        let calls = Cell::new(0);
        let controller = |_: f64, q: &V1, qd: &V1| {
            calls.set(calls.get() + 1);
            vec![-k * q[0] - d * qd[0]]
        };
        let system = DoubleIntegrator { m, u: 0.0 };
        let trajectory = Simulation::new(&system)
            .integrator(Integrator::Rk4 { dt: 0.03 })
            .output_interval(0.05)
            .run_sampled(controller, h, 0.0, V1::new(1.0), V1::new(0.0), 2.0)
            .unwrap();
        assert_eq!(calls.get(), 20, "one evaluation per period");
        let (mut x, mut v) = (1.0, 0.0);
        for (i, (&t, (q, qd))) in trajectory
            .times()
            .iter()
            .zip(trajectory.q().iter().zip(trajectory.qd()))
            .enumerate()
        {
            assert!((t - 0.05 * i as f64).abs() < 1e-12, "{t}");
            if i % 2 == 0 {
                assert!((q[0] - x).abs() < 1e-13 && (qd[0] - v).abs() < 1e-13, "{t}");
                let u = -k * x - d * v;
                (x, v) = (x + h * v + h * h * u / (2.0 * m), v + h * u / m);
            }
        }
        assert_eq!(trajectory.len(), 41);
    }
}
