//! `lagrange check`: the derived equations against reference equations in residual form,
//! e.g. as a textbook prints them, at random states (the runtime's [`Check`]).
//!
//! ```toml
//! source = "Thomson & Tait §319, Example B"
//! reduced = false        # true: the equations of Routh's reduced system
//! [equations]            # one residual r(t, q, q̇, q̈) = 0 each; ddot(q) is q̈
//! r = "(m + mp)*ddot(r) - m*r*dot(theta)^2 + mp*g"
//! theta = "m*(r^2*ddot(theta) + 2*r*dot(r)*dot(theta))"
//! [ranges]               # optional, [start, end) by coordinate, parameter, dot(q) or t
//! r = [0.3, 2.0]
//! ```

use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::ops::Range;
use std::path::{Path, PathBuf};

use lagrange_core::{Check, CheckReport, LagrangianSystem};
use lagrange_loaded::file::location;
use lagrange_symbolic::equations::Equations;
use lagrange_symbolic::ir::Program;
use lagrange_symbolic::syntax::Expr;
use lagrange_symbolic::syntax::TIME;
use lagrange_symbolic::syntax::print::excerpt_text;
use serde::Deserialize;
use toml::Spanned;

use super::Failure;
use lagrange_loaded::Loaded;
use lagrange_loaded::file::ModelFile;

/// Arguments of `lagrange check`.
#[derive(clap::Args)]
pub(crate) struct Args {
    /// The model file (TOML).
    model: PathBuf,
    /// The reference equations (TOML with `source`, `[equations]`, optional `[ranges]`).
    #[arg(long)]
    reference: PathBuf,
    /// Largest relative residual accepted per equation.
    #[arg(long, default_value_t = 1e-9)]
    tolerance: f64,
    /// Number of random states.
    #[arg(long, default_value_t = 200)]
    samples: usize,
}

/// A reference file as written.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Written {
    /// Where the equations come from.
    source: String,
    /// Whether the equations are those of the reduced system (Routh).
    #[serde(default)]
    reduced: bool,
    /// Residual expressions by label.
    equations: BTreeMap<String, Spanned<String>>,
    /// Sampling ranges by name.
    #[serde(default)]
    ranges: BTreeMap<String, Spanned<[f64; 2]>>,
}

/// A parsed reference equation.
struct Equation {
    label: String,
    /// The residual over the derived programs' inputs followed by the accelerations
    /// ([`Equations::lower`]).
    residual: Program,
}

/// Runs `lagrange check`.
pub(crate) fn run(args: &Args) -> Result<(), Failure> {
    let file = ModelFile::load(&args.model)?;
    let mut values = file.parameter_values()?;
    let reference = Reference::load(&args.reference)?;
    let derived = file.derive()?;
    let equations = if reference.written.reduced {
        let reduced = derived.reduced.as_ref().ok_or_else(|| {
            Failure(format!(
                "{}: `reduced = true`, but the model `{}` ignores no coordinate",
                args.reference.display(),
                file.model.name
            ))
        })?;
        // The reduced system's parameters end with the ignored momenta; the check draws
        // every value from its range, so these only fill the slots.
        values.resize(reduced.equations.parameters.len(), 1.0);
        &reduced.equations
    } else {
        &derived.full
    };
    let parsed = reference.parse(equations)?;
    let check = reference.ranges(equations)?.into_iter().fold(
        Check::new().samples(args.samples),
        |check, (kind, range)| match kind {
            Kind::Time => check.time(range),
            Kind::Coordinate(name) => check.coordinate(&name, range),
            Kind::Velocity(name) => check.velocity(&name, range),
            Kind::Parameter(name) => check.parameter(&name, range),
        },
    );
    let work = Residuals {
        check: &check,
        equations: &parsed,
    };
    let report = work
        .call(Loaded::new(equations, &values)?)
        .map_err(|e| Failure(format!("{}: {e}", args.reference.display())))?;
    if !report.uninformative.is_empty() {
        let silent = &report.uninformative;
        return Err(Failure(format!(
            "{}: {} not depend on the accelerations: at every sampled state, ∂/∂ddot(q) of {} zero or a combination of the other equations', so the check would pass whatever was derived",
            args.reference.display(),
            silent
                .iter()
                .map(|&i| format!("equation `{}`", excerpt_text(&parsed[i].label)))
                .collect::<Vec<_>>()
                .join(", ")
                + if silent.len() == 1 { " does" } else { " do" },
            if silent.len() == 1 {
                "it is"
            } else {
                "each is"
            }
        )));
    }
    outln!(
        "{} against {}\n  source: {}\n  {} random states{}",
        equations.name,
        args.reference.display(),
        reference.written.source,
        report.evaluated,
        if report.skipped > 0 {
            format!(" ({} more skipped: singular mass matrix)", report.skipped)
        } else {
            String::new()
        }
    );
    for (eq, result) in parsed.iter().zip(&report.equations) {
        let verdict = if result.worst <= args.tolerance {
            "ok"
        } else {
            "MISMATCH"
        };
        outln!(
            "  {:<12} worst relative residual {:.3e}  {verdict}",
            eq.label,
            result.worst
        );
    }
    if report.assert_below(args.tolerance).is_ok() {
        return Ok(());
    }
    Err(mismatch(&report, &parsed, args.tolerance))
}

/// The failure naming every equation above the tolerance and the state of its worst
/// residual. (An invalid tolerance is an error of its own.)
fn mismatch(report: &CheckReport, parsed: &[Equation], tolerance: f64) -> Failure {
    if tolerance.is_nan() || tolerance < 0.0 {
        return Failure(format!(
            "the tolerance must be nonnegative, got {tolerance}"
        ));
    }
    let mut message =
        format!("the derived equations disagree with the reference (tolerance {tolerance:e}):");
    for (equation, result) in parsed.iter().zip(&report.equations) {
        if result.worst <= tolerance {
            continue;
        }
        let _ = write!(
            message,
            "\n  equation `{}`: relative residual {:e} at {}",
            excerpt_text(&equation.label),
            result.worst,
            report.describe(&result.at)
        );
    }
    Failure(message)
}

/// The reference file and its text, for locating errors.
struct Reference {
    path: PathBuf,
    text: String,
    written: Written,
}

/// What a `[ranges]` key names.
enum Kind {
    Time,
    Coordinate(String),
    Velocity(String),
    Parameter(String),
}

impl Reference {
    fn load(path: &Path) -> Result<Reference, Failure> {
        let text = std::fs::read_to_string(path)
            .map_err(|e| Failure(format!("cannot read `{}`: {e}", path.display())))?;
        let written: Written = toml::from_str(&text).map_err(|e| {
            let (line, column) = location(&text, e.span().map_or(0, |s| s.start));
            Failure(format!(
                "{}:{line}:{column}: {}",
                path.display(),
                e.message()
            ))
        })?;
        if written.equations.is_empty() {
            return Err(Failure(format!(
                "{}: [equations] is empty: give at least one residual",
                path.display()
            )));
        }
        Ok(Reference {
            path: path.to_path_buf(),
            text,
            written,
        })
    }

    /// `file:line:column: message` at byte `offset`.
    fn failure_at(&self, offset: usize, message: String) -> Failure {
        let (line, column) = location(&self.text, offset);
        Failure(format!(
            "{}:{line}:{column}: {message}",
            self.path.display()
        ))
    }

    /// The equations in file order, parsed, with every name known to `eq`.
    fn parse(&self, eq: &Equations) -> Result<Vec<Equation>, Failure> {
        let mut written: Vec<_> = self.written.equations.iter().collect();
        written.sort_by_key(|(_, source)| source.span().start);
        written
            .into_iter()
            .map(|(label, source)| {
                // The expression starts after the opening quote.
                let start = source.span().start + 1;
                let expr = Expr::parse(source.get_ref()).map_err(|e| {
                    self.failure_at(
                        start + e.offset,
                        format!("equation `{}`: {}", excerpt_text(label), e.message),
                    )
                })?;
                let leaf = match eq.lower(std::slice::from_ref(&expr)) {
                    Ok(residual) => {
                        return Ok(Equation {
                            label: label.clone(),
                            residual,
                        });
                    }
                    Err(leaf) => leaf,
                };
                let what = match &leaf {
                    Expr::Name(n) => format!("unknown name `{n}`"),
                    other => format!(
                        "`{}` is not the derivative of a coordinate",
                        lagrange_symbolic::syntax::print::text(other)
                    ),
                };
                Err(self.failure_at(
                    start,
                    format!(
                        "equation `{}` = \"{}\": {what} (coordinates: {}; parameters: {}; and t, pi)",
                        excerpt_text(label),
                        excerpt_text(source.get_ref()),
                        eq.coordinates.join(", "),
                        eq.parameters.join(", ")
                    ),
                ))
            })
            .collect()
    }

    /// The sampling ranges, each with what it is for.
    fn ranges(&self, eq: &Equations) -> Result<Vec<(Kind, Range<f64>)>, Failure> {
        self.written
            .ranges
            .iter()
            .map(|(name, range)| {
                let [start, end] = *range.get_ref();
                let velocity = name
                    .strip_prefix("dot(")
                    .and_then(|rest| rest.strip_suffix(')'))
                    .filter(|q| eq.coordinates.iter().any(|c| c == q));
                let kind = if name == TIME {
                    Kind::Time
                } else if let Some(q) = velocity {
                    Kind::Velocity(q.to_string())
                } else if eq.coordinates.contains(name) {
                    Kind::Coordinate(name.clone())
                } else if eq.parameters.contains(name) {
                    Kind::Parameter(name.clone())
                } else {
                    return Err(self.failure_at(
                        range.span().start,
                        format!(
                            "[ranges]: `{name}` is none of t, the coordinates ({}), their dot(…), or the parameters ({})",
                            eq.coordinates.join(", "),
                            eq.parameters.join(", ")
                        ),
                    ));
                };
                if !(start.is_finite() && end.is_finite() && start <= end) {
                    return Err(self.failure_at(
                        range.span().start,
                        format!("[ranges]: `{name}` must be [start, end] with start <= end"),
                    ));
                }
                Ok((kind, start..end))
            })
            .collect()
    }
}

/// The check, run on the model's system.
struct Residuals<'a> {
    check: &'a Check,
    equations: &'a [Equation],
}

impl Residuals<'_> {
    /// The reference equations' residuals at the check's samples of `system`.
    fn call(self, system: Loaded) -> Result<CheckReport, lagrange_core::Error> {
        self.check.run_on(&system, |system, sample| {
            let inputs: Vec<f64> = std::iter::once(sample.t)
                .chain(sample.q.iter().chain(&sample.qd).copied())
                .chain(system.parameter_values())
                .chain(sample.qdd.iter().copied())
                .collect();
            self.equations
                .iter()
                .map(|e| {
                    let mut out = [0.0];
                    e.residual.evaluate(&inputs, &mut out);
                    out[0]
                })
                .collect()
        })
    }
}
