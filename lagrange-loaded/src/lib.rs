//! Models loaded at run time: the derived equations of a model file or URDF (the
//! engine's [`Equations`], derived or read from a store) as a
//! [`LagrangianSystem`](lagrange_core::LagrangianSystem), integrated and checked by the
//! same runtime as the derive's code. This is what the `lagrange` command runs.
//!
//! Each program is compiled to machine code ([`lagrange_symbolic::ir::jit`], Cranelift)
//! once it has run [`COMPILE_AFTER`] times, and interpreted ([`Program::evaluate`]) until
//! then, where the processor is one Cranelift does not support or compiling fails (a note
//! on standard error says why), and where `LAGRANGE_JIT` is `0` or `off`. Both are
//! backends of the same walk over the IR as the derive's code, so each program computes
//! the derive's bits either way, and a run that switches midway is the run that does not
//! (`lagrange-cli/tests/cli_generate.rs` and `cli_generate_simulate.rs`).
//!
//! The runtime is generic over the sizes; a loaded model is a system of any number of
//! coordinates and constraints, its vectors sized at run time (nalgebra's `Dyn`):
//! [`Loaded::new`] for a model, [`Loaded::reduced`] for its reduced model (Routh).
//!
//! A model file ([`file::ModelFile`]) is read here too, with its values, initial state,
//! inputs' signals ([`signal`]) and events, so that every front end (the command, the
//! Python package) reads it with the same syntax and the same errors.

use std::sync::atomic::{AtomicU32, Ordering};
use std::sync::{Arc, OnceLock};

use lagrange_core::{ModelInfo, Quantity};
use lagrange_symbolic::equations::{Conserved, Equations};
use lagrange_symbolic::ir::Program;
use lagrange_symbolic::ir::jit::Compiled;
use lagrange_symbolic::store::check_equations;

pub use reduced::ReducedState;

pub mod connect;
pub mod derivation;
pub mod file;
mod reduced;
pub mod signal;
mod system;

/// Why a model could not be loaded: the message names the model.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LoadError(pub String);

impl std::fmt::Display for LoadError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for LoadError {}

/// What the systems of one model share.
struct Model {
    equations: Equations,
    info: ModelInfo,
    /// Where each entry of the residual's derivatives row by row is among its program's
    /// outputs ([`Layout::residual_jacobian_rows`](lagrange_symbolic::equations::Layout::residual_jacobian_rows)).
    rows: Vec<usize>,
    /// For a reduced model: the names of the ignored coordinates and `χ̇(t, q, q̇, C)`.
    ignored: Option<(Vec<String>, Program)>,
    /// The lengths of the slices a program reads its inputs from, in order (`t`, `q`,
    /// `q̇`, the parameter values, `q̈`, the multipliers: [`Inputs::parts`](lagrange_symbolic::equations::Inputs::parts)).
    parts: [usize; 6],
    /// The programs of the conserved integral and of `L` joined into one
    /// ([`Quantity::IntegralAndLagrangian`]), for a model that conserves one.
    integral_and_lagrangian: Option<Program>,
    /// Each quantity's program, compiled once it has run [`COMPILE_AFTER`] times
    /// ([`Model::compiled`]), by `Quantity as usize`; empty where the programs are
    /// interpreted ([`Backend`]).
    compiled: Vec<Tier>,
}

/// The runs of a program after which it is compiled. Compiling a program costs about as
/// much as interpreting it 500 to 700 times, from the UR5 to the G1 and the Centauro
/// (`benches/loaded.rs`), so waiting that long costs at most twice what the best choice
/// made in hindsight would: a linearization or a check of a large robot, which runs each
/// program a few times, is not held up by compiling it, and a simulation compiles early.
pub const COMPILE_AFTER: u32 = 512;

/// One program's runs so far and its compiled code, made once.
#[derive(Default)]
struct Tier {
    runs: AtomicU32,
    code: OnceLock<Option<Compiled>>,
}

/// `0` or `off`: [`Backend::from_env`] is [`Backend::Interpreted`].
pub const ENV_JIT: &str = "LAGRANGE_JIT";

/// How a loaded model runs its programs. Both compute the same bits.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Backend {
    /// Compiled to machine code (Cranelift) once it has run [`COMPILE_AFTER`] times,
    /// interpreted until then and where compiling fails.
    Compiled,
    /// Interpreted ([`Program::evaluate`]): the reference, and the fallback.
    Interpreted,
}

impl Backend {
    /// [`Backend::Compiled`] unless [`ENV_JIT`] is `0` or `off`; the first time it is
    /// asked in a process, a note on standard error says when programs are interpreted.
    pub fn from_env() -> Backend {
        static FROM_ENV: OnceLock<Backend> = OnceLock::new();
        *FROM_ENV.get_or_init(|| match std::env::var(ENV_JIT).as_deref() {
            Ok(off @ ("0" | "off")) => {
                eprintln!("note: {ENV_JIT}={off}: the models' programs are interpreted, not compiled");
                Backend::Interpreted
            }
            Ok("" | "1" | "on") | Err(std::env::VarError::NotPresent) => Backend::Compiled,
            Err(std::env::VarError::NotUnicode(value)) => {
                eprintln!(
                    "note: {ENV_JIT}={value:?} is neither `0` nor `off`: the models' programs are compiled"
                );
                Backend::Compiled
            }
            Ok(other) => {
                eprintln!(
                    "note: {ENV_JIT}={other:?} is neither `0` nor `off`: the models' programs are compiled"
                );
                Backend::Compiled
            }
        })
    }
}

impl Model {
    /// The program of `quantity`, `program`, compiled once it has run [`COMPILE_AFTER`]
    /// times, for its inputs in slices of the lengths [`Model::parts`]: `None` before,
    /// where the programs are interpreted, or where compiling it failed (a note says why
    /// once; the interpreter computes the same bits).
    fn compiled(&self, quantity: Quantity, program: &Program) -> Option<&Compiled> {
        // `M` is the dynamics' program.
        let key = match quantity {
            Quantity::MassMatrix => Quantity::Dynamics,
            other => other,
        };
        if self.compiled.is_empty() {
            return None;
        }
        // Every quantity has a place: `Quantity::COUNT` is one past the last.
        let tier = &self.compiled[key as usize];
        if let Some(code) = tier.code.get() {
            return code.as_ref();
        }
        if tier.runs.fetch_add(1, Ordering::Relaxed) < COMPILE_AFTER {
            return None;
        }
        tier.code
            .get_or_init(|| {
                let compiled = match key {
                    // Its outputs in row order, the order the runtime reads.
                    Quantity::ResidualJacobianRows => {
                        Compiled::with_pieces(&program.with_outputs_at(&self.rows), &self.parts)
                    }
                    _ => Compiled::with_pieces(program, &self.parts),
                };
                match compiled {
                    Ok(compiled) => Some(compiled),
                    Err(e) => {
                        eprintln!(
                            "note: {}: the program of {key:?} is interpreted, as it could not be compiled: {e}",
                            self.equations.name
                        );
                        None
                    }
                }
            })
            .as_ref()
    }
}

/// A model's equations with parameter values, loaded at run time: a system of any size,
/// its vectors sized at run time (`Dyn`), its programs compiled once they run often.
#[derive(Clone)]
pub struct Loaded {
    model: Arc<Model>,
    values: Vec<f64>,
}

impl Loaded {
    /// The model's system with parameter `values` (in the model's order), its programs
    /// run as [`Backend::from_env`] says. Errors for a wrong number of values, and for a
    /// model whose constraints leave no motion to integrate.
    pub fn new(equations: &Equations, values: &[f64]) -> Result<Loaded, LoadError> {
        Loaded::with_backend(equations, values, Backend::from_env())
    }

    /// [`Loaded::new`], its programs run by `backend`.
    pub fn with_backend(
        equations: &Equations,
        values: &[f64],
        backend: Backend,
    ) -> Result<Loaded, LoadError> {
        let system = Loaded::of(equations, values, None, "", backend)?;
        let (n, k) = (
            equations.coordinates.len(),
            system.model.info.constraints.len(),
        );
        if k > 0 && k >= n {
            return Err(LoadError(format!(
                "{}: its {k} constraints prescribe the motion of all {n} coordinates, which a loaded model does not run; use #[derive(Lagrangian)] or `lagrange generate`",
                equations.name
            )));
        }
        Ok(system)
    }

    /// The system of `equations` with parameter `values`, and for a reduced model the
    /// ignored coordinates; `which` qualifies the model's name in the error.
    fn of(
        equations: &Equations,
        values: &[f64],
        ignored: Option<(Vec<String>, Program)>,
        which: &str,
        backend: Backend,
    ) -> Result<Loaded, LoadError> {
        if values.len() != equations.parameters.len() {
            return Err(LoadError(format!(
                "{which}{} takes {} parameter values, got {}",
                equations.name,
                equations.parameters.len(),
                values.len()
            )));
        }
        // Equations given by a caller, not only read from the store (which checks its
        // entries): a program of the wrong shape is refused here, not at its first run.
        let ignored_shape = ignored.as_ref().map_or(Ok(()), |(names, program)| {
            let inputs = equations.inputs().len();
            program
                .validate(inputs, names.len())
                .map_err(|e| format!("program `ignored_velocities`: {e}"))
        });
        if let Err(problem) = check_equations(equations).and(ignored_shape) {
            return Err(LoadError(format!(
                "{which}{} cannot be loaded: {problem}",
                equations.name
            )));
        }
        let programs = &equations.programs;
        let integral = match equations.conserved {
            Conserved::Energy => Some(&programs.energy),
            Conserved::JacobiIntegral => Some(&programs.jacobi_integral),
            Conserved::None => None,
        };
        let model = Arc::new(Model {
            integral_and_lagrangian: integral
                .map(|integral| Program::joined(&[integral, &programs.lagrangian])),
            parts: equations.inputs().parts(equations.layout().constraints),
            info: equations.model_info(),
            rows: equations.layout().residual_jacobian_rows(),
            equations: equations.clone(),
            ignored,
            compiled: match backend {
                Backend::Compiled => (0..Quantity::COUNT).map(|_| Tier::default()).collect(),
                Backend::Interpreted => Vec::new(),
            },
        });
        Ok(Loaded {
            model,
            values: values.to_vec(),
        })
    }
}
