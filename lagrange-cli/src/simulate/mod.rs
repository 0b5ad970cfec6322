//! `lagrange simulate`: integrates a model file with the runtime's integrators, prints a
//! summary, and writes the trajectory as CSV and as an SVG plot. With `--reduced`, a model
//! that ignores coordinates runs its reduced system (Routh) instead, with the ignored
//! coordinates recovered by quadrature (`Simulation::run_reduced`).

use std::fmt::Write as _;
use std::path::{Path, PathBuf};

use lagrange_core::nalgebra::{DVector, Dyn};
use lagrange_core::{
    Controlled, HtmlReport, LagrangianSystem, Short, Simulation, Stopped, Trajectory,
};

use super::Failure;
use lagrange_loaded::file::ModelFile;
use lagrange_loaded::file::Overrides;
pub(crate) use lagrange_loaded::file::Settings;
use lagrange_loaded::file::{FileEvent, motion};
use lagrange_loaded::signal::Signal;
use lagrange_loaded::{Loaded, ReducedState};
use output_paths::{check_distinct, check_writable};
use summary::{balance_summary, event_summary, stopped, summary, warn_of_drift};

mod output_paths;
mod progress;
mod summary;

/// Arguments of `lagrange simulate`. Each setting overrides the file's `[simulation]` table.
#[derive(clap::Args, Default)]
pub(crate) struct Args {
    /// The model file (TOML).
    model: PathBuf,
    /// Start time [default: 0].
    #[arg(long, allow_negative_numbers = true)]
    t_start: Option<f64>,
    /// End time (required here or in the file).
    #[arg(long, allow_negative_numbers = true)]
    t_end: Option<f64>,
    /// `rk4`, `dp54` (adaptive Dormand–Prince, also `dormand-prince`), `gauss-legendre`
    /// (2 stages; `gauss-legendre-1`..`-3` for 1 to 3) or `variational` [default: dp54].
    #[arg(long)]
    integrator: Option<String>,
    /// Step of the fixed-step integrators, output interval of dp54
    /// [default: (t_end − t_start)/1000].
    #[arg(long, allow_negative_numbers = true)]
    dt: Option<f64>,
    /// Relative and absolute tolerance of dp54 [default: 1e-10].
    #[arg(long, allow_negative_numbers = true)]
    tolerance: Option<f64>,
    /// Write the trajectory as CSV (t, coordinates, velocities, invariants).
    #[arg(long, value_name = "FILE")]
    out: Option<PathBuf>,
    /// Plot the coordinates and the invariants' relative drift as SVG.
    #[arg(long, value_name = "FILE.svg")]
    plot: Option<PathBuf>,
    /// Write a self-contained HTML report: the model, its equations as mathematics, the
    /// conserved quantities, plots and an animation.
    #[arg(long, value_name = "FILE.html")]
    html: Option<PathBuf>,
    /// Integrate the reduced system (Routh) of a model with `ignore`: the ignored
    /// coordinates' momenta keep their initial values, and the coordinates follow by
    /// quadrature (CSV columns after the velocities).
    #[arg(long)]
    reduced: bool,
    /// Record the action `A = ∫ p·q̇ dt` and the principal function `S = ∫ L dt` from the
    /// start (Thomson & Tait §§326–330), integrated with the state: CSV columns `action`
    /// and `principal`, their final values in the summary, plotted in the report.
    #[arg(long)]
    action: bool,
    /// Record a Dormand–Prince run at least every `(t_end − t_start)/1000` whatever the
    /// file's output interval (its step stays adaptive): a report's animation and plots
    /// then show the motion, not samples of it. Set by `lagrange report`.
    #[arg(skip)]
    fine_output: bool,
}

impl Args {
    /// What the command line sets over the file's `[simulation]` table.
    fn overrides(&self) -> Overrides {
        Overrides {
            t_start: self.t_start,
            t_end: self.t_end,
            integrator: self.integrator.clone(),
            dt: self.dt,
            tolerance: self.tolerance,
            fine_output: self.fine_output,
        }
    }
}

/// Runs `lagrange simulate`.
pub(crate) fn run(args: &Args) -> Result<(), Failure> {
    let file = ModelFile::load(&args.model)?;
    let settings = Settings::resolve(&args.overrides(), &file)?;
    let outputs: Vec<&PathBuf> = [&args.out, &args.plot, &args.html]
        .into_iter()
        .flatten()
        .collect();
    check_distinct(&args.model, &outputs)?;
    for path in outputs {
        check_writable(path)?;
    }
    let values = file.parameter_values()?;
    let (q0, qd0) = file.initial_state()?;
    let signals = file.input_signals()?;
    let events = file.events()?;
    let derived = file.derive()?;
    if args.reduced {
        let path = file.path.display();
        let reduced = derived.reduced.as_ref().ok_or_else(|| {
            Failure(format!(
                "{path}: --reduced needs a model that ignores coordinates (`ignore = [...]` in [model])"
            ))
        })?;
        if !signals.is_empty() || !events.is_empty() {
            return Err(Failure(format!(
                "{path}: --reduced runs neither [inputs] signals nor [[events]]; run the full system"
            )));
        }
        let t0 = settings.t0;
        let state = ReducedState::of(&derived.full, reduced, t0, &q0, &qd0, &values);
        let names = &reduced.equations.parameters[values.len()..];
        let momenta: Vec<String> = names
            .iter()
            .zip(&state.momenta)
            .map(|(name, p)| format!("{name} = {p:?}"))
            .collect();
        let line = format!(
            "reduced over {} with the constant momenta {} of the initial state\n",
            reduced.ignored.join(", "),
            momenta.join(", ")
        );
        let system = Loaded::reduced(reduced, &state.values)?;
        return IntegrateReduced {
            outputs: Outputs {
                args,
                path: &file.path,
                settings: &settings,
            },
            state: &state,
            line,
        }
        .call(system);
    }
    let system = Loaded::new(&derived.full, &values)?;
    Integrate {
        outputs: Outputs {
            args,
            path: &file.path,
            settings: &settings,
        },
        q0: &q0,
        qd0: &qd0,
        signals,
        events,
        values: &values,
    }
    .call(system)
}

/// What a run adds to its report besides what every run has (the reactions of a
/// constrained system's constraints).
type AddToReport<'a> =
    dyn Fn(HtmlReport, &Trajectory<Dyn>) -> Result<HtmlReport, lagrange_core::Error> + 'a;

/// Arguments of `lagrange report`: a run with the file's settings, written as an HTML
/// page.
#[derive(clap::Args)]
pub(crate) struct ReportArgs {
    /// The model file (TOML).
    model: PathBuf,
    /// Where to write the page [default: the model file's name with `.html`, in the
    /// current folder].
    #[arg(short, long, value_name = "FILE.html")]
    output: Option<PathBuf>,
    /// End time (overrides the file's).
    #[arg(long, allow_negative_numbers = true)]
    t_end: Option<f64>,
    /// Output interval (step of a fixed-step integrator), overriding the file's: a
    /// smoother animation.
    #[arg(long, allow_negative_numbers = true)]
    dt: Option<f64>,
}

/// Runs `lagrange report`: `simulate --html --action` with the file's settings, recorded
/// at least every `(t_end − t_start)/1000` when the integrator is Dormand–Prince.
pub(crate) fn run_report(args: &ReportArgs) -> Result<(), Failure> {
    let output = match &args.output {
        Some(path) => path.clone(),
        None => {
            let stem = args
                .model
                .file_stem()
                .ok_or_else(|| Failure(format!("`{}` names no file", args.model.display())))?;
            PathBuf::from(stem).with_extension("html")
        }
    };
    run(&Args {
        model: args.model.clone(),
        t_start: None,
        t_end: args.t_end,
        integrator: None,
        dt: args.dt,
        tolerance: None,
        out: None,
        plot: None,
        html: Some(output),
        reduced: false,
        action: true,
        fine_output: true,
    })
}

/// What a run writes and prints, and where.
struct Outputs<'a> {
    args: &'a Args,
    path: &'a Path,
    settings: &'a Settings,
}

/// The integration of a reduced system from a reduced state, and its outputs.
struct IntegrateReduced<'a> {
    outputs: Outputs<'a>,
    state: &'a ReducedState,
    /// The summary's line about the reduction.
    line: String,
}

impl IntegrateReduced<'_> {
    /// Integrates the reduced `system` and writes the outputs.
    fn call(self, system: Loaded) -> Result<(), Failure> {
        let Settings { t0, t_end, .. } = *self.outputs.settings;
        let mut bar = progress::Progress::new(t0, t_end);
        let result = self
            .outputs
            .simulation(&system)
            .on_progress(|t| bar.update(t))
            .run_reduced(
                t0,
                DVector::from_column_slice(&self.state.q),
                DVector::from_column_slice(&self.state.qd),
                DVector::from_column_slice(&self.state.ignored),
                t_end,
            )
            .map_err(|error| Stopped {
                error,
                partial: None,
            });
        bar.finish();
        self.outputs
            .report(&system, result, &self.line, &|report, _| Ok(report))
    }
}

/// The integration and its outputs.
struct Integrate<'a> {
    outputs: Outputs<'a>,
    q0: &'a [f64],
    qd0: &'a [f64],
    /// The `[inputs]` signals, by parameter index.
    signals: Vec<(usize, Signal)>,
    /// The `[[events]]`.
    events: Vec<FileEvent>,
    /// The parameter values the signals and events read.
    values: &'a [f64],
}

impl Integrate<'_> {
    /// Integrates `system`, under the file's signals if any, and writes the outputs.
    fn call(self, system: Loaded) -> Result<(), Failure> {
        if self.signals.is_empty() {
            // The reactions of the constraints, for the report.
            let forces = |report: HtmlReport, trajectory: &Trajectory<Dyn>| {
                system.with_reactions(report, trajectory)
            };
            return self.integrate(&system, &forces);
        }
        // The inputs with a signal follow it; the others keep their value.
        let values = system.parameter_values();
        let inputs = system.info().inputs.to_vec();
        let signals = self.signals.clone();
        let controller = move |t: f64, q: &DVector<f64>, qd: &DVector<f64>| {
            inputs
                .iter()
                .map(|&k| {
                    motion::input_value(k, &signals, &values, (t, q.as_slice(), qd.as_slice()))
                })
                .collect::<Vec<f64>>()
        };
        let controlled = Controlled::new(system, controller)
            .map_err(|e| Failure(format!("{}: {e}", self.outputs.path.display())))?;
        self.integrate(&controlled, &|report, _| Ok(report))
    }

    /// Integrates `system` and writes the outputs.
    fn integrate<S: LagrangianSystem<Dyn>>(
        &self,
        system: &S,
        extra: &AddToReport<'_>,
    ) -> Result<(), Failure> {
        let Settings { t0, t_end, .. } = *self.outputs.settings;
        let mut simulation = self.outputs.simulation(system);
        for event in &self.events {
            simulation = simulation.event(motion::event(event, self.values));
        }
        let mut bar = progress::Progress::new(t0, t_end);
        let result = simulation
            .on_progress(|t| bar.update(t))
            .run_keeping_partial(
                t0,
                DVector::from_column_slice(self.q0),
                DVector::from_column_slice(self.qd0),
                t_end,
            );
        bar.finish();
        self.outputs.report(system, result, "", extra)
    }
}

impl Outputs<'_> {
    /// The simulation of `system` with the settings' integrator and output interval,
    /// recording the action integrals if asked.
    fn simulation<'s, S: LagrangianSystem<Dyn>>(&self, system: &'s S) -> Simulation<'s, S, Dyn> {
        let mut simulation = Simulation::new(system).integrator(self.settings.integrator());
        if self.args.action {
            simulation = simulation.record_action();
        }
        match self.settings.output_interval() {
            Some(dt) => simulation.output_interval(dt),
            None => simulation,
        }
    }

    /// Writes the CSV and the plot of a run of `system`, warns of drift, and prints the
    /// summary, after `line` (empty, or a line about the run).
    fn report<S: LagrangianSystem<Dyn>>(
        &self,
        system: &S,
        result: Result<Trajectory<Dyn>, Stopped<Dyn>>,
        line: &str,
        extra: &AddToReport<'_>,
    ) -> Result<(), Failure> {
        let path = self.path.display();
        let (trajectory, error) = match result {
            Ok(trajectory) => (trajectory, None),
            Err(Stopped {
                error,
                partial: Some(trajectory),
            }) => (*trajectory, Some(error)),
            Err(Stopped {
                error,
                partial: None,
            }) => return Err(Failure(format!("{path}: integration failed: {error}"))),
        };
        let name = &system.info().name;
        let mut title = format!("{name}: {}", self.settings.describe());
        if let Some((t, _, _)) = trajectory.last().filter(|_| error.is_some()) {
            let _ = write!(title, " (stopped at t = {})", Short(t));
        }
        let mut written = Vec::new();
        if let Some(out) = &self.args.out {
            trajectory
                .save_csv(out)
                .map_err(|e| Failure(format!("cannot write `{}`: {e}", out.display())))?;
            written.push(out.display().to_string());
        }
        if let Some(svg) = &self.args.plot {
            std::fs::write(svg, trajectory.plot_svg(&title))
                .map_err(|e| Failure(format!("cannot plot to `{}`: {e}", svg.display())))?;
            written.push(svg.display().to_string());
        }
        if let Some(html) = &self.args.html {
            let fail = |e: lagrange_core::Error| {
                Failure(format!("cannot write `{}`: {e}", html.display()))
            };
            let mut report = HtmlReport::new(&trajectory, system).note(title.clone());
            if let Some(error) = &error {
                report = report.note(format!("The run stopped: {error}"));
            }
            extra(report, &trajectory)
                .and_then(|report| report.save(html))
                .map_err(fail)?;
            written.push(html.display().to_string());
        }
        warn_of_drift(&trajectory);
        if let Some(error) = error {
            return Err(stopped(&path.to_string(), &trajectory, &error, &written));
        }
        out!(
            "{line}{}",
            summary(name, &path.to_string(), self.settings, &trajectory)
        );
        out!("{}", event_summary(&trajectory));
        out!("{}", balance_summary(system, &trajectory));
        Ok(())
    }
}
