//! `lagrange simulate`: integrates a model file with the runtime's integrators, prints a
//! summary, and writes the trajectory as CSV and as an SVG plot. With `--reduced`, a model
//! that ignores coordinates runs its reduced system (Routh) instead, with the ignored
//! coordinates recovered by quadrature (`Simulation::run_reduced`).

use std::fmt::Write as _;
use std::path::{Path, PathBuf};

use lagrange_core::nalgebra::SVector;
use lagrange_core::{
    Controlled, Event, HtmlReport, Integrator, LagrangianSystem, Simulation, Stopped, Trajectory,
};

use super::Failure;
use super::file::ModelFile;
use super::file::{Action, Direction, FileEvent, Target};
use super::interpreted::{
    Interpreted, ReducedState, WithReducedSystem, WithSystem, with_reduced_system, with_system,
};
use super::signal::Signal;

mod progress;

/// Tolerance of the adaptive integrator unless the file or `--tolerance` gives one.
const DEFAULT_TOLERANCE: f64 = 1e-10;

/// Output points (adaptive integrator) or steps (fixed-step ones) unless a `dt` is given.
const DEFAULT_INTERVALS: f64 = 1000.0;

/// A run whose conserved quantity drifts by more than this (relative to its initial value;
/// absolute for one that starts at zero) says so on stderr: the results are not to be
/// trusted to that accuracy.
const DRIFT_WARNING: f64 = 1e-3;

/// Arguments of `lagrange simulate`. Each setting overrides the file's `[simulation]` table.
#[derive(clap::Args)]
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
    /// Record a Dormand–Prince run at least every `(t_end − t_start)/1000` whatever the
    /// file's output interval (its step stays adaptive): a report's animation and plots
    /// then show the motion, not samples of it. Set by `lagrange report`.
    #[arg(skip)]
    fine_output: bool,
}

/// An integration method by name.
#[derive(Debug, Clone, Copy, PartialEq)]
enum Method {
    Rk4,
    DormandPrince,
    GaussLegendre(usize),
    Variational,
}

impl Method {
    /// Reads a name as `--integrator` takes it.
    fn parse(name: &str) -> Option<Method> {
        match name {
            "rk4" => Some(Method::Rk4),
            "dp54" | "dormand-prince" => Some(Method::DormandPrince),
            "gauss-legendre" => Some(Method::GaussLegendre(2)),
            "gauss-legendre-1" => Some(Method::GaussLegendre(1)),
            "gauss-legendre-2" => Some(Method::GaussLegendre(2)),
            "gauss-legendre-3" => Some(Method::GaussLegendre(3)),
            "variational" => Some(Method::Variational),
            _ => None,
        }
    }
}

/// The settings of one run, from the command line over the file's defaults.
#[derive(Debug, Clone, PartialEq)]
struct Settings {
    t0: f64,
    t_end: f64,
    method: Method,
    /// Step (fixed-step methods) or output interval (Dormand–Prince).
    dt: f64,
    tolerance: f64,
}

impl Settings {
    /// Merges `args` over the file's `[simulation]` table and checks the values.
    fn resolve(args: &Args, file: &ModelFile) -> Result<Settings, Failure> {
        let defaults = &file.simulation;
        let path = file.path.display();
        let t0 = args.t_start.or(defaults.t_start).unwrap_or(0.0);
        let t_end = args.t_end.or(defaults.t_end).ok_or_else(|| {
            Failure(format!(
                "{path}: no end time: pass --t-end or set `t_end` in the file's [simulation] table"
            ))
        })?;
        if !(t0.is_finite() && t_end.is_finite() && t_end > t0) {
            return Err(Failure(format!(
                "{path}: the end time {t_end} must be finite and after the start time {t0}"
            )));
        }
        let name = args
            .integrator
            .as_deref()
            .or(defaults.integrator.as_deref())
            .unwrap_or("dp54");
        let method = Method::parse(name).ok_or_else(|| {
            Failure(format!(
                "{path}: unknown integrator `{name}`: use rk4, dp54, gauss-legendre (or gauss-legendre-1, -2, -3) or variational"
            ))
        })?;
        let fine = (t_end - t0) / DEFAULT_INTERVALS;
        let dt = match (args.dt, defaults.dt) {
            (Some(dt), _) => dt,
            (None, Some(dt)) if args.fine_output && method == Method::DormandPrince => dt.min(fine),
            (None, Some(dt)) => dt,
            (None, None) => fine,
        };
        let tolerance = args
            .tolerance
            .or(defaults.tolerance)
            .unwrap_or(DEFAULT_TOLERANCE);
        for (what, value) in [("dt", dt), ("tolerance", tolerance)] {
            if !(value.is_finite() && value > 0.0) {
                return Err(Failure(format!(
                    "{path}: {what} must be finite and positive, got {value}"
                )));
            }
        }
        Ok(Settings {
            t0,
            t_end,
            method,
            dt,
            tolerance,
        })
    }

    /// The runtime's integrator.
    fn integrator(&self) -> Integrator {
        match self.method {
            Method::Rk4 => Integrator::Rk4 { dt: self.dt },
            Method::DormandPrince => Integrator::dormand_prince(self.tolerance, self.tolerance),
            Method::GaussLegendre(stages) => Integrator::GaussLegendre {
                dt: self.dt,
                stages,
            },
            Method::Variational => Integrator::Variational { dt: self.dt },
        }
    }

    /// The output interval: `dt` for the adaptive method; fixed-step methods record
    /// every step.
    fn output_interval(&self) -> Option<f64> {
        (self.method == Method::DormandPrince).then_some(self.dt)
    }

    /// One line for the summary.
    fn describe(&self) -> String {
        let method = match self.method {
            Method::Rk4 => format!("rk4 with dt = {}", self.dt),
            Method::DormandPrince => format!(
                "dp54 with tolerance {:e}, output every {}",
                self.tolerance, self.dt
            ),
            Method::GaussLegendre(s) => {
                format!("gauss-legendre ({s} stages) with dt = {}", self.dt)
            }
            Method::Variational => format!("variational with dt = {}", self.dt),
        };
        format!("{method}, from t = {} to {}", self.t0, self.t_end)
    }
}

/// Runs `lagrange simulate`.
pub(crate) fn run(args: &Args) -> Result<(), Failure> {
    let file = ModelFile::load(&args.model)?;
    let settings = Settings::resolve(args, &file)?;
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
        return with_reduced_system(
            reduced,
            &state.values,
            IntegrateReduced {
                outputs: Outputs {
                    args,
                    path: &file.path,
                    settings: &settings,
                },
                state: &state,
                line,
            },
        )?;
    }
    with_system(
        &derived.full,
        &values,
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
        },
    )?
}

/// What a run adds to its report besides what every run has (the reactions of a
/// constrained system's constraints).
type AddToReport<'a, const N: usize> =
    dyn Fn(HtmlReport, &Trajectory<N>) -> Result<HtmlReport, lagrange_core::Error> + 'a;

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

/// Runs `lagrange report`: `simulate --html` with the file's settings, recorded at
/// least every `(t_end − t_start)/1000` when the integrator is Dormand–Prince.
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

impl WithReducedSystem for IntegrateReduced<'_> {
    type Output = Result<(), Failure>;

    fn call<const N: usize, const J: usize>(self, system: Interpreted<N, 0, J>) -> Self::Output {
        let Settings { t0, t_end, .. } = *self.outputs.settings;
        let mut bar = progress::Progress::new(t0, t_end);
        let result = self
            .outputs
            .simulation(&system)
            .on_progress(|t| bar.update(t))
            .run_reduced(
                t0,
                SVector::from_column_slice(&self.state.q),
                SVector::from_column_slice(&self.state.qd),
                SVector::<f64, J>::from_column_slice(&self.state.ignored),
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

/// The integration and its outputs, once the model's sizes are known.
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

impl WithSystem for Integrate<'_> {
    type Output = Result<(), Failure>;

    fn call<const N: usize, const K: usize>(self, system: Interpreted<N, K>) -> Self::Output {
        if self.signals.is_empty() {
            // The reactions of the constraints, for the report.
            let forces = |report: HtmlReport, trajectory: &Trajectory<N>| {
                if K == 0 {
                    Ok(report)
                } else {
                    report.constraint_forces(trajectory, &system)
                }
            };
            return self.integrate(&system, &forces);
        }
        // The inputs with a signal follow it; the others keep their value.
        let values = system.parameter_values();
        let inputs = system.info().inputs.to_vec();
        let signals = self.signals.clone();
        let controller = move |t: f64, q: &SVector<f64, N>, qd: &SVector<f64, N>| {
            inputs
                .iter()
                .map(|&k| match signals.iter().find(|(i, _)| *i == k) {
                    Some((_, signal)) => signal.value(t, q.as_slice(), qd.as_slice(), &values),
                    None => values[k],
                })
                .collect::<Vec<f64>>()
        };
        let controlled = Controlled::new(system, controller)
            .map_err(|e| Failure(format!("{}: {e}", self.outputs.path.display())))?;
        self.integrate(&controlled, &|report, _| Ok(report))
    }
}

impl Integrate<'_> {
    /// Integrates `system` and writes the outputs.
    fn integrate<S: LagrangianSystem<N>, const N: usize>(
        &self,
        system: &S,
        extra: &AddToReport<'_, N>,
    ) -> Result<(), Failure> {
        let Settings { t0, t_end, .. } = *self.outputs.settings;
        let mut simulation = self.outputs.simulation(system);
        for event in &self.events {
            simulation = simulation.event(core_event(event, self.values));
        }
        let mut bar = progress::Progress::new(t0, t_end);
        let result = simulation
            .on_progress(|t| bar.update(t))
            .run_keeping_partial(
                t0,
                SVector::from_column_slice(self.q0),
                SVector::from_column_slice(self.qd0),
                t_end,
            );
        bar.finish();
        self.outputs.report(system, result, "", extra)
    }
}

impl Outputs<'_> {
    /// The simulation of `system` with the settings' integrator and output interval.
    fn simulation<'s, S: LagrangianSystem<N>, const N: usize>(
        &self,
        system: &'s S,
    ) -> Simulation<'s, S, N> {
        let simulation = Simulation::new(system).integrator(self.settings.integrator());
        match self.settings.output_interval() {
            Some(dt) => simulation.output_interval(dt),
            None => simulation,
        }
    }

    /// Writes the CSV and the plot of a run of `system`, warns of drift, and prints the
    /// summary, after `line` (empty, or a line about the run).
    fn report<S: LagrangianSystem<N>, const N: usize>(
        &self,
        system: &S,
        result: Result<Trajectory<N>, Stopped<N>>,
        line: &str,
        extra: &AddToReport<'_, N>,
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
            let _ = write!(title, " (stopped at t = {t})");
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
        print!(
            "{line}{}",
            summary(name, &path.to_string(), self.settings, &trajectory)
        );
        print!("{}", event_summary(&trajectory));
        print!("{}", balance_summary(system, &trajectory));
        Ok(())
    }
}

/// The balance laws of the general theorems along the run, or a line saying why they
/// could not be evaluated; empty when no theorem's premise holds.
fn balance_summary<S: LagrangianSystem<N>, const N: usize>(
    system: &S,
    trajectory: &Trajectory<N>,
) -> String {
    match trajectory.balance_laws(system) {
        Ok(laws) if laws.is_empty() => String::new(),
        Ok(laws) => format!(
            "balance laws of the general theorems (dΦ/dt against the right-hand side, at every point):\n{}",
            lagrange_core::balance_table(&laws)
        ),
        Err(e) => format!("balance laws: not evaluated ({e})\n"),
    }
}

/// The runtime's event of a model file's `[[events]]` entry, its expressions reading the
/// parameter `values`.
fn core_event<'a, const N: usize>(event: &'a FileEvent, values: &'a [f64]) -> Event<'a, N> {
    let when = &event.when;
    let core = Event::new(
        event.name.clone(),
        move |t, q: &SVector<f64, N>, qd: &SVector<f64, N>| {
            when.value(t, q.as_slice(), qd.as_slice(), values)
        },
    );
    let core = match event.direction {
        Direction::Rising => core.rising(),
        Direction::Falling => core.falling(),
        Direction::Either => core,
    };
    match &event.action {
        Action::Record => core,
        Action::Stop => core.stop(),
        Action::Reset(targets) => {
            core.reset(move |t, q: &SVector<f64, N>, qd: &SVector<f64, N>| {
                // Every new value is computed from the state before the reset.
                let (mut q_after, mut qd_after) = (*q, *qd);
                for (target, signal) in targets {
                    let value = signal.value(t, q.as_slice(), qd.as_slice(), values);
                    match *target {
                        Target::Coordinate(i) => q_after[i] = value,
                        Target::Velocity(i) => qd_after[i] = value,
                    }
                }
                (q_after, qd_after)
            })
        }
    }
}

/// Events to list in the summary before only counting them.
const LISTED_EVENTS: usize = 20;

/// The events that fired, one line each (the first [`LISTED_EVENTS`]), or nothing.
fn event_summary<const N: usize>(trajectory: &Trajectory<N>) -> String {
    let events = trajectory.events();
    if events.is_empty() {
        return String::new();
    }
    let mut text = format!("{} events:\n", events.len());
    for e in events.iter().take(LISTED_EVENTS) {
        let state: Vec<String> = trajectory
            .coordinates()
            .iter()
            .enumerate()
            .map(|(i, c)| format!("{c} = {:.6e}", e.q[i]))
            .collect();
        let _ = writeln!(
            text,
            "  {} at t = {:.15e}: {}",
            e.name.escape_debug(),
            e.t,
            state.join(", ")
        );
    }
    if events.len() > LISTED_EVENTS {
        let _ = writeln!(text, "  … and {} more", events.len() - LISTED_EVENTS);
    }
    text
}

/// Says on stderr which invariants drift by more than [`DRIFT_WARNING`].
fn warn_of_drift<const N: usize>(trajectory: &Trajectory<N>) {
    for invariant in trajectory.invariants() {
        let drift = invariant.scaled_drift();
        if drift.is_nan() || drift > DRIFT_WARNING {
            let kind = if invariant.is_relative() {
                "relative"
            } else {
                "absolute"
            };
            eprintln!(
                "warning: {} drifts by {drift:.3e} ({kind}), more than {DRIFT_WARNING:e}: the step is too large for this model, or the motion is near a singularity",
                invariant.name
            );
        }
    }
}

/// The failure of a run that stopped early: where (the last recorded time) and why, and
/// which files hold what it computed.
fn stopped<const N: usize>(
    path: &str,
    trajectory: &Trajectory<N>,
    error: &lagrange_core::Error,
    written: &[String],
) -> Failure {
    let t = trajectory.last().map_or(f64::NAN, |(t, _, _)| t);
    let mut message = format!("{path}: integration stopped at t = {t}: {error}");
    if written.is_empty() {
        message.push_str("\n(pass --out, --plot or --html to keep the partial trajectory)");
    } else {
        let _ = write!(
            message,
            "\nthe partial trajectory up to t = {t} is in {}",
            written
                .iter()
                .map(|w| format!("`{w}`"))
                .collect::<Vec<_>>()
                .join(" and ")
        );
    }
    Failure(message)
}

/// Refuses an output that would overwrite the model file or another output of the run.
fn check_distinct(model: &Path, outputs: &[&PathBuf]) -> Result<(), Failure> {
    // The file a path names: the path resolved where it exists, else its resolved folder
    // and its name.
    let resolved = |p: &Path| {
        std::fs::canonicalize(p).unwrap_or_else(|_| {
            let folder = match p.parent() {
                Some(f) if !f.as_os_str().is_empty() => f,
                _ => Path::new("."),
            };
            std::fs::canonicalize(folder)
                .unwrap_or_else(|_| folder.to_path_buf())
                .join(p.file_name().unwrap_or_default())
        })
    };
    let model = resolved(model);
    let mut seen: Vec<PathBuf> = Vec::new();
    for output in outputs {
        let file = resolved(output);
        if file == model {
            return Err(Failure(format!(
                "cannot write `{}`: it is the model file",
                output.display()
            )));
        }
        if seen.contains(&file) {
            return Err(Failure(format!(
                "cannot write `{}` twice: give each output its own file",
                output.display()
            )));
        }
        seen.push(file);
    }
    Ok(())
}

/// Checks, before any work, that an output file can be written: its folder exists and
/// takes new files, and the file itself, if it exists, is a writable file. Nothing is
/// created or truncated.
fn check_writable(path: &Path) -> Result<(), Failure> {
    let fail = |why: String| Failure(format!("cannot write `{}`: {why}", path.display()));
    let folder = match path.parent() {
        Some(p) if !p.as_os_str().is_empty() => p,
        _ => Path::new("."),
    };
    if !folder.is_dir() {
        return Err(fail(format!(
            "the folder `{}` does not exist",
            folder.display()
        )));
    }
    if path.is_dir() {
        return Err(fail("it is a folder".into()));
    }
    if path.exists() {
        std::fs::OpenOptions::new()
            .append(true)
            .open(path)
            .map_err(|e| fail(e.to_string()))?;
        return Ok(());
    }
    let probe = folder.join(format!(".lagrange-write-test-{}", std::process::id()));
    std::fs::OpenOptions::new()
        .write(true)
        .create_new(true)
        .open(&probe)
        .map_err(|e| {
            fail(format!(
                "the folder `{}` is not writable: {e}",
                folder.display()
            ))
        })?;
    let _ = std::fs::remove_file(&probe);
    Ok(())
}

/// What the run did: settings, step counts, the final state and the invariants' drift.
fn summary<const N: usize>(
    name: &str,
    path: &str,
    settings: &Settings,
    trajectory: &Trajectory<N>,
) -> String {
    let stats = trajectory.stats();
    let mut text = format!(
        "{name} ({path}): {}\n{} steps ({} rejected, {} evaluations), {} points\n",
        settings.describe(),
        stats.accepted,
        stats.rejected,
        stats.evaluations,
        trajectory.len()
    );
    if let Some((t, q, qd)) = trajectory.last() {
        let _ = writeln!(text, "state at t = {t}:");
        for (i, c) in trajectory.coordinates().iter().enumerate() {
            let _ = writeln!(text, "  {c} = {:.15e}, dot_{c} = {:.15e}", q[i], qd[i]);
        }
    }
    if trajectory.invariants().is_empty() {
        text.push_str("no invariants: the model conserves neither energy nor a momentum\n");
    } else {
        text.push_str(&trajectory.drift_table());
    }
    text
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn integrator_names() {
        assert_eq!(Method::parse("dp54"), Some(Method::DormandPrince));
        assert_eq!(Method::parse("dormand-prince"), Some(Method::DormandPrince));
        assert_eq!(
            Method::parse("gauss-legendre"),
            Some(Method::GaussLegendre(2))
        );
        assert_eq!(
            Method::parse("gauss-legendre-3"),
            Some(Method::GaussLegendre(3))
        );
        assert_eq!(Method::parse("gauss-legendre-4"), None);
        assert_eq!(Method::parse("euler"), None);
    }

    #[test]
    fn only_dormand_prince_samples_at_an_output_interval() {
        let settings = |method| Settings {
            t0: 0.0,
            t_end: 1.0,
            method,
            dt: 0.1,
            tolerance: 1e-8,
        };
        let dp = settings(Method::DormandPrince);
        assert_eq!(dp.output_interval(), Some(0.1));
        assert_eq!(dp.integrator(), Integrator::dormand_prince(1e-8, 1e-8));
        let gl = settings(Method::GaussLegendre(3));
        assert_eq!(gl.output_interval(), None);
        assert_eq!(
            gl.integrator(),
            Integrator::GaussLegendre { dt: 0.1, stages: 3 }
        );
    }
}
