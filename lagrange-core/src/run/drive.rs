//! The integration loop of a run: passes from the start or a reset to the end, a stop or
//! the next reset; the output grid sampled on each step's dense output; events located,
//! recorded and acted on.

use std::ops::ControlFlow;

use nalgebra::{DefaultAllocator, Dim, OVector};

use super::event::{Crossing, Occurrence, Watch, accumulation};
use super::simulation::{Simulation, Stopped};
use super::trajectory::Trajectory;
use crate::error::{Error, Short};
use crate::integrate::{ActionIntegrals, State, Stats, Step};
use crate::size::DimAllocator;
use crate::system::LagrangianSystem;

/// What [`Simulation::drive`] reports.
pub(super) enum Output<'a, N: Dim>
where
    DefaultAllocator: DimAllocator<N>,
{
    /// A state to record, with the action integrals there when the run carries them;
    /// `step` is the step it lies in (`None` for the initial state and the state a reset
    /// restarts from).
    Sample {
        t: f64,
        y: State<N>,
        action: Option<ActionIntegrals>,
        step: Option<&'a Step<N>>,
    },
    /// A step is finished, up to `end`: its end time, or an event's that cut it short.
    StepDone { step: &'a Step<N>, end: f64 },
}

/// Why an integration pass ended before `t_end`.
enum Cut<N: Dim>
where
    DefaultAllocator: DimAllocator<N>,
{
    /// A stop event fired.
    Stop,
    /// A reset event fired: the run goes on from `y` at `t`, with the action integrals
    /// `action` when the run carries them.
    Reset {
        t: f64,
        y: State<N>,
        action: Option<ActionIntegrals>,
    },
    /// An event failed.
    Failed(Error),
}

impl<S: LagrangianSystem<N>, N: Dim> Simulation<'_, S, N>
where
    DefaultAllocator: DimAllocator<N>,
{
    /// Validates, integrates and hands every output time and every finished step to
    /// `handle`, which records into the trajectory; watches the events, records them and
    /// stops or restarts the integration at them. On a failure after the start, the
    /// trajectory recorded so far comes with the error.
    pub(super) fn drive(
        &self,
        t0: f64,
        q0: OVector<f64, N>,
        qd0: OVector<f64, N>,
        t_end: f64,
        mut handle: impl FnMut(&mut Trajectory<N>, Output<'_, N>),
    ) -> Result<Trajectory<N>, Stopped<N>> {
        let y0 = State::new(q0, qd0);
        self.check_start(t0, &y0, t_end)?;
        let mut trajectory = Trajectory::new(self.system, self.record_action)?;
        let action0 = self.record_action.then(ActionIntegrals::default);
        handle(
            &mut trajectory,
            Output::Sample {
                t: t0,
                y: y0.clone(),
                action: action0,
                step: None,
            },
        );
        let mut watch = Watch::new(&self.events);
        let mut next = 1usize;
        let mut stats = Stats::default();
        // Each pass integrates from `start` until `t_end`, a stop or a reset.
        let mut start = (t0, y0, action0);
        let outcome = loop {
            let used = stats.accepted + stats.rejected;
            let mut cut = None;
            let (counted, outcome) = self.integrator.run_counted(
                self.system,
                start,
                t_end,
                self.max_steps.saturating_sub(used),
                |step| {
                    let crossings = match watch.scan(step) {
                        Ok(crossings) => crossings,
                        Err(error) => {
                            cut = Some(Cut::Failed(error));
                            return ControlFlow::Break(());
                        }
                    };
                    let terminal = crossings
                        .last()
                        .filter(|c| self.events[c.index].is_terminal())
                        .cloned();
                    let end = terminal.as_ref().map_or(step.end_time(), |c| c.t);
                    let mut sample = |t: f64, y: State<N>| {
                        handle(
                            &mut trajectory,
                            Output::Sample {
                                t,
                                y,
                                action: step.action_at(t),
                                step: Some(step),
                            },
                        )
                    };
                    match self.output_interval {
                        None if terminal.is_none() => sample(step.end_time(), step.end().clone()),
                        None => {}
                        Some(dt) => sample_grid(
                            step,
                            (t0, dt),
                            t_end,
                            end,
                            terminal.is_some(),
                            &mut next,
                            &mut sample,
                        ),
                    }
                    if let Some(c) = terminal {
                        sample(c.t, c.y);
                    }
                    handle(&mut trajectory, Output::StepDone { step, end });
                    self.report_progress(end);
                    match self.fire_all(&mut trajectory, crossings, step) {
                        None => ControlFlow::Continue(()),
                        Some(next_cut) => {
                            cut = Some(next_cut);
                            ControlFlow::Break(())
                        }
                    }
                },
            );
            stats += counted;
            match (outcome, cut) {
                (Err(Error::MaxStepsExceeded { t, .. }), _) => {
                    break Err(Error::MaxStepsExceeded {
                        t,
                        steps: self.max_steps,
                    });
                }
                (Err(error), _) | (Ok(()), Some(Cut::Failed(error))) => break Err(error),
                (Ok(()), Some(Cut::Reset { t, y, action })) if t < t_end => {
                    let sample = Output::Sample {
                        t,
                        y: y.clone(),
                        action,
                        step: None,
                    };
                    handle(&mut trajectory, sample);
                    watch.restart();
                    start = (t, y, action);
                }
                (Ok(()), _) => break Ok(()),
            }
        };
        trajectory.set_stats(stats);
        match outcome {
            Ok(()) => Ok(trajectory),
            Err(error) => Err(Stopped {
                error,
                partial: Some(Box::new(trajectory)),
            }),
        }
    }

    /// Checks the run's arguments before it starts: the output interval (finite, positive
    /// and giving at most `max_steps` points), the integrator's arguments and span, and
    /// the initial state.
    fn check_start(&self, t0: f64, y0: &State<N>, t_end: f64) -> Result<(), Error> {
        if let Some(dt) = self.output_interval {
            if !(dt.is_finite() && dt > 0.0) {
                return Err(Error::InvalidInput(format!(
                    "output interval must be finite and positive, got {}",
                    Short(dt)
                )));
            }
            if (t_end - t0) / dt > self.max_steps as f64 {
                return Err(Error::InvalidInput(format!(
                    "output interval {} gives more than max_steps = {} points",
                    Short(dt),
                    self.max_steps
                )));
            }
        }
        self.integrator.check_arguments(t0, y0, t_end)?;
        self.integrator.check_span(t0, t_end, self.max_steps)?;
        self.system.check_initial_state(t0, &y0.q, &y0.qd)
    }

    /// Fires the `crossings` of `step` in order, with the action integrals at each, until
    /// one cuts the pass short: that cut (a failure among them), or `None`.
    fn fire_all(
        &self,
        trajectory: &mut Trajectory<N>,
        crossings: Vec<Crossing<N>>,
        step: &Step<N>,
    ) -> Option<Cut<N>> {
        for c in crossings {
            let action = step.action_at(c.t);
            match self.fire(trajectory, c, action) {
                Ok(None) => {}
                Ok(Some(next_cut)) => return Some(next_cut),
                Err(error) => return Some(Cut::Failed(error)),
            }
        }
        None
    }

    /// Records the occurrence of the crossing `c` and says how the integration goes on:
    /// `None` to continue, or the stop or reset the event asks for (a reset keeps the
    /// action integrals `action` at the crossing).
    fn fire(
        &self,
        trajectory: &mut Trajectory<N>,
        c: Crossing<N>,
        action: Option<ActionIntegrals>,
    ) -> Result<Option<Cut<N>>, Error> {
        if trajectory.events().len() >= self.max_events {
            return Err(Error::TooManyEvents {
                t: c.t,
                events: self.max_events,
            });
        }
        let event = &self.events[c.index];
        let after = event.apply(c.t, &c.y)?;
        if let Some(after) = &after {
            self.system
                .check_initial_state(c.t, &after.q, &after.qd)
                .map_err(|error| Error::Event {
                    event: event.name().to_string(),
                    t: c.t,
                    problem: format!("its reset gives an inadmissible state: {error}"),
                })?;
        }
        let cut = match &after {
            Some(y) => Some(Cut::Reset {
                t: c.t,
                y: y.clone(),
                action,
            }),
            None if event.stops() => Some(Cut::Stop),
            None => None,
        };
        let resets = after.is_some();
        trajectory.push_event(Occurrence {
            index: c.index,
            name: event.name().to_string(),
            t: c.t,
            q: c.y.q,
            qd: c.y.qd,
            after,
        });
        if resets {
            let mut earlier = (trajectory.events().iter().rev())
                .filter(|o| o.index == c.index && o.after.is_some())
                .map(|o| o.t);
            let mut times = [c.t; 4];
            for time in times.iter_mut().rev() {
                *time = earlier.next().unwrap_or(f64::NAN);
            }
            if let Some(at) = accumulation(times) {
                return Err(event.error(
                    c.t,
                    format!(
                        "its resets come ever closer and accumulate at t ≈ {} (the last intervals {:.3e}, {:.3e}): infinitely many events before that time (a Zeno point, as a ball bouncing ever lower comes to rest), which a run cannot follow; end the run before it, or model what follows it (the ball at rest)",
                        Short(at),
                        times[2] - times[1],
                        times[3] - times[2]
                    ),
                ));
            }
        }
        Ok(cut)
    }
}

/// Hands `sample` the output times `t0 + k·dt` of `step`, from `k = *next` on (counted up
/// as they go), up to `end` (the step's end, or the time of the terminal event that cuts
/// it short, `at_event`, whose own sample it is) and short of `t_end`; then `t_end`
/// itself if the step reaches it.
fn sample_grid<N: Dim>(
    step: &Step<N>,
    (t0, dt): (f64, f64),
    t_end: f64,
    end: f64,
    at_event: bool,
    next: &mut usize,
    sample: &mut impl FnMut(f64, State<N>),
) where
    DefaultAllocator: DimAllocator<N>,
{
    // Output times closer to `t_end` than this are taken as `t_end` itself.
    let last = t_end - 1e-9 * dt;
    loop {
        let t = t0 + *next as f64 * dt;
        // The sample at an event time is the event's own.
        let past = if at_event { t >= end } else { t > end };
        if past || t >= last {
            break;
        }
        sample(t, step.interpolate(t));
        *next += 1;
    }
    if !at_event && step.end_time() >= t_end {
        sample(t_end, step.end().clone());
    }
}
