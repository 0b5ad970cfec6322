//! `lagrange modes`: the equilibrium near a state, its stability and its normal modes.

use std::fmt::Write as _;

use lagrange_core::nalgebra::{Complex, DVector, Dyn};
use lagrange_core::{
    Error, LagrangianSystem, NormalMode, Stability, constrained_normal_modes,
    find_constrained_equilibrium, find_equilibrium, linearize, linearize_constrained, normal_modes,
};
use serde::Serialize;

use super::{
    Args, Format, Subject, assignments, eigenvalue_list, finite_time, pairs, print, stability_name,
};
use crate::Failure;
use crate::results::{failure, json, number};
use lagrange_loaded::Loaded;
use lagrange_loaded::file::ModelFile;

/// What `modes --format json` prints.
#[derive(Serialize)]
struct ModesDocument {
    model: String,
    t: f64,
    coordinates: Vec<String>,
    /// The equilibrium found.
    equilibrium: Vec<f64>,
    /// Whether it is degenerate: zero stiffness there (see `lagrange_core::Equilibrium`).
    degenerate: bool,
    stability: &'static str,
    eigenvalues: Vec<[f64; 2]>,
    /// The normal modes, by increasing `ω²`; empty when there are none (see `note`).
    modes: Vec<ModeDocument>,
    /// Why there are no normal modes, when there are none.
    note: Option<String>,
}

#[derive(Serialize)]
struct ModeDocument {
    omega_squared: f64,
    /// `ω` in rad per time unit (`null` when `ω² < 0`).
    omega: Option<f64>,
    period: Option<f64>,
    /// The shape, `vᵀ M v = 1`, in coordinate order.
    shape: Vec<f64>,
}

/// Runs `lagrange modes`.
pub(crate) fn run(args: &Args) -> Result<(), Failure> {
    if args.minimal.is_some() {
        return Err(Failure(
            "--minimal and --speeds are options of `lagrange linearize`".into(),
        ));
    }
    let file = ModelFile::load(&args.model)?;
    let point = file.operating_point(&args.at)?;
    finite_time(args.t)?;
    let derived = file.derive()?;
    let subject = Subject::of(&derived, args.t, point);
    let work = Modes {
        file: &file,
        t: args.t,
        guess: &subject.q,
        format: args.format,
    };
    let out = work.call(Loaded::new(subject.equations, &subject.values)?)?;
    print(&subject, args.format, out);
    Ok(())
}

/// `modes` of a model at a time from a guess.
struct Modes<'a> {
    file: &'a ModelFile,
    t: f64,
    guess: &'a [f64],
    format: Format,
}

impl Modes<'_> {
    /// The equilibrium near the guess, the linearization and the normal modes there.
    fn call(self, system: Loaded) -> Result<String, Failure> {
        let guess = DVector::from_column_slice(self.guess);
        let t = self.t;
        let rest = DVector::zeros(guess.len());
        let file = self.file;
        let fail = |what: &'static str| move |e: Error| failure(file, what, e);
        let (found, linearization, modes) = if system.info().constraints.is_empty() {
            let found = find_equilibrium(&system, t, &guess).map_err(fail("no equilibrium"))?;
            let q = &found.q;
            let linearization =
                linearize(&system, t, q, &rest).map_err(fail("cannot linearize"))?;
            let modes = normal_modes(&system, t, q);
            (found, linearization, modes)
        } else {
            let found =
                find_constrained_equilibrium(&system, t, &guess).map_err(fail("no equilibrium"))?;
            let q = &found.q;
            let linearization =
                linearize_constrained(&system, t, q, &rest).map_err(fail("cannot linearize"))?;
            let modes = constrained_normal_modes(&system, t, q);
            (found, linearization, modes)
        };
        let (q, degenerate) = (found.q, found.degenerate);
        let eigenvalues = linearization
            .eigenvalues()
            .map_err(fail("cannot linearize"))?;
        let stability = linearization
            .stability()
            .map_err(fail("cannot linearize"))?;
        let (modes, note) = match modes {
            Ok(modes) => (modes, None),
            Err(Error::NoNormalModes(why)) => (Vec::new(), Some(why)),
            Err(e) => return Err(fail("no normal modes")(e)),
        };
        let info = system.info();
        let coordinates: Vec<String> = info.coordinates.iter().map(|c| c.to_string()).collect();
        Ok(match self.format {
            Format::Json => json(&ModesDocument {
                model: info.name.to_string(),
                t,
                coordinates,
                equilibrium: q.iter().copied().collect(),
                degenerate,
                stability: stability_name(stability),
                eigenvalues: pairs(&eigenvalues),
                modes: modes
                    .iter()
                    .map(|m| ModeDocument {
                        omega_squared: m.omega_squared,
                        omega: m.frequency(),
                        period: m.period(),
                        shape: m.shape.iter().copied().collect(),
                    })
                    .collect(),
                note,
            })?,
            Format::Text => modes_text(
                &info.name,
                &coordinates,
                (q.as_slice(), degenerate),
                stability,
                &eigenvalues,
                &modes,
                note.as_deref(),
            ),
        })
    }
}

/// What `modes` prints: the equilibrium `q` (and whether it is `degenerate`), its
/// stability, the eigenvalues and the normal modes or why there are none.
fn modes_text(
    name: &str,
    coordinates: &[String],
    (q, degenerate): (&[f64], bool),
    stability: Stability,
    eigenvalues: &[Complex<f64>],
    modes: &[NormalMode<Dyn>],
    note: Option<&str>,
) -> String {
    let mut out = format!("{name}: equilibrium {}\n", assignments(coordinates, q));
    if degenerate {
        let _ = writeln!(
            out,
            "degenerate: the stiffness vanishes there (∂q̈/∂q = 0 to round-off, as for V = x^4 at 0), so small motions about it are not those of the linearization"
        );
    }
    let _ = writeln!(out, "stability: {}", stability_name(stability));
    let _ = writeln!(out, "eigenvalues of A: {}", eigenvalue_list(eigenvalues));
    if let Some(why) = note {
        let _ = write!(out, "no normal modes: {why}");
        return out;
    }
    let _ = writeln!(out, "normal modes (K v = ω² M v, vᵀ M v = 1):");
    for (k, mode) in modes.iter().enumerate() {
        let frequency = match (mode.frequency(), mode.period()) {
            (Some(w), Some(p)) => format!("ω = {}, period {}", number(w), number(p)),
            (Some(w), None) => format!("ω = {}", number(w)),
            _ => "unstable: grows like exp(√(−ω²) t)".into(),
        };
        let _ = writeln!(
            out,
            "  {}: ω² = {}, {frequency}; shape {}",
            k + 1,
            number(mode.omega_squared),
            assignments(coordinates, mode.shape.as_slice())
        );
    }
    out.trim_end().to_string()
}
