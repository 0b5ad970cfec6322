//! The context the templates receive (see `templates/README.md`): the derived programs as
//! statements of the target language, the model file's defaults as literals that read back
//! bit for bit, and the names of the model, each escaped by the templates' filters.

use lagrange_core::__private::{
    CONSISTENCY_TOLERANCE, PROJECTION_ITERATIONS, PROJECTION_TOLERANCE,
};
use lagrange_symbolic::equations::{ConstraintEquations, Equations};
use serde::Serialize;

use super::code::{self, Lang, Rendered};
use super::run_time::RunTime;
use crate::Failure;
use crate::simulate::Settings;
use lagrange_loaded::file::ModelFile;

/// Default RK4 step when the model file's integrator is another one.
const DEFAULT_STEP: f64 = 1e-3;

/// What the templates receive (see `templates/README.md`).
#[derive(Serialize)]
pub(super) struct Context {
    /// The model's name (CamelCase).
    name: String,
    /// `name` in snake_case: the crate and binary name, the C prefix.
    crate_name: String,
    /// `crate_name` in upper case, for C macros.
    macro_prefix: String,
    /// The model file as given on the command line.
    source: String,
    /// `lagrange generate` and its version.
    generator: String,
    /// Number of coordinates.
    n: usize,
    /// Number of parameters.
    parameter_count: usize,
    /// The coordinates with their default initial values.
    coordinates: Vec<Coordinate>,
    /// The parameters with their default values.
    parameters: Vec<Parameter>,
    /// Default start time, end time and RK4 step, as literals: the file's `[simulation]`
    /// as `lagrange simulate` reads it, the step [`DEFAULT_STEP`] unless its integrator is
    /// `rk4`.
    t_start: String,
    t_end: String,
    dt: String,
    /// The equations of motion as `lagrange derive` and the derive's `INFO.equations_text`
    /// print them.
    equations_text: String,
    /// `energy`, `jacobi_integral`, or empty when nothing is conserved.
    conserved: String,
    /// The cyclic coordinates, whose momenta are conserved.
    cyclic: Vec<Cyclic>,
    /// The integrals the general theorems of dynamics give beyond these, in the
    /// trajectory's order (`ModelInfo::theorem_integrals`).
    integrals: Vec<Integral>,
    /// `P`, `Λ`, `T`, `J`, `I`, when an integral reads them.
    dynamic_functions: Option<Rendered>,
    /// The coordinates the model ignores (Routh); the generated code keeps them.
    ignored: Vec<String>,
    /// `M` and `f` from one program.
    dynamics: Dynamics,
    /// The parent of each coordinate in the tree of `M`'s shape, −1 for none
    /// (`ModelInfo::mass_matrix_tree`); empty when `M` is factorized dense, and for a
    /// constrained model.
    mass_matrix_tree: Vec<i64>,
    /// One-output programs: `L`, the energy, the Jacobi integral.
    lagrangian: Rendered,
    energy: Rendered,
    jacobi_integral: Rendered,
    /// `n`-output programs: `p = ∂L/∂q̇` and `ṗ`.
    momenta: Rendered,
    momentum_rate: Rendered,
    /// The holonomic constraints, if the model has any.
    constraints: Option<Constraints>,
    /// The `[inputs]` signals and the `[[events]]`.
    #[serde(flatten)]
    run_time: RunTime,
    /// Whether some statement calls `lagrange_powi` (C only: the helper is then defined).
    uses_powi: bool,
}

/// The holonomic constraints `G(t, q) = 0` of the context, with the runtime's settings of
/// the consistency check and the projection.
#[derive(Serialize)]
struct Constraints {
    /// Number of constraints.
    k: usize,
    /// Each `Gᵢ` as text.
    text: Vec<String>,
    /// `G` (`k` results).
    values: Rendered,
    /// `J = ∂G/∂q`: the program, its results row by row.
    jacobian: Split,
    /// `∂G/∂t` (`k` results).
    time_derivative: Rendered,
    /// `Ġ = J q̇ + ∂G/∂t` (`k` results).
    velocities: Rendered,
    /// `J` (rows) and the bias `c` of `G̈ = J q̈ + c`, from one program.
    dynamics: Split,
    /// Relative tolerance of the check of the initial state, as a literal.
    consistency_tolerance: String,
    /// Newton iterations allowed in the projection.
    projection_iterations: usize,
    /// Convergence threshold of the projection's Newton steps, as a literal.
    projection_tolerance: String,
}

/// A coordinate of the context.
#[derive(Serialize)]
struct Coordinate {
    index: usize,
    name: String,
    q0: String,
    qd0: String,
}

/// A parameter of the context.
#[derive(Serialize)]
struct Parameter {
    index: usize,
    name: String,
    value: String,
}

/// A cyclic coordinate of the context.
#[derive(Serialize)]
struct Cyclic {
    index: usize,
    name: String,
}

/// An integral of the general theorems: its column name and the expression of its value
/// in the function that computes the integrals.
#[derive(Serialize)]
struct Integral {
    name: String,
    value: String,
}

/// The dynamics program, its outputs split into `M` (row by row) and `f`.
#[derive(Serialize)]
struct Dynamics {
    declarations: Vec<String>,
    statements: Vec<code::Statement>,
    mass: Vec<Vec<String>>,
    forcing: Vec<String>,
}

/// A program whose leading results form a matrix of `columns` results a row, then the
/// `rest`.
#[derive(Serialize)]
struct Split {
    declarations: Vec<String>,
    statements: Vec<code::Statement>,
    rows: Vec<Vec<String>>,
    rest: Vec<String>,
}

impl Split {
    /// `rendered` with its first `matrix` results as rows of `columns`.
    fn new(rendered: Rendered, matrix: usize, columns: usize) -> Split {
        let (matrix, rest) = rendered.results.split_at(matrix);
        Split {
            rows: matrix.chunks(columns).map(<[String]>::to_vec).collect(),
            rest: rest.to_vec(),
            declarations: rendered.declarations,
            statements: rendered.statements,
        }
    }
}

impl Context {
    /// The context of `eq` from `file`, with statements and literals in `lang`.
    pub(super) fn new(
        file: &ModelFile,
        settings: &Settings,
        eq: &Equations,
        lang: Lang,
    ) -> Result<Context, Failure> {
        let literal = |x: f64, what: &str| literal(file, x, what, lang);
        let dt = settings.rk4_step().unwrap_or(DEFAULT_STEP);
        let failure =
            |e: String| Failure(format!("{}: model `{}`: {e}", file.path.display(), eq.name));
        let inputs = eq.inputs();
        let program =
            |p: &lagrange_symbolic::ir::Program| code::render(p, inputs, lang).map_err(failure);
        let n = eq.coordinates.len();
        let dynamics = program(&eq.programs.dynamics)?;
        let layout = eq.layout();
        let [mass, forcing] = layout.dynamics();
        let [constraint_jacobian, _] = layout.constraint_dynamics();
        let crate_name = snake_case(&eq.name);
        let lagrangian = program(&eq.programs.lagrangian)?;
        let energy = program(&eq.programs.energy)?;
        let jacobi_integral = program(&eq.programs.jacobi_integral)?;
        let momenta = program(&eq.programs.momenta)?;
        let momentum_rate = program(&eq.programs.momentum_rate)?;
        let constraints = eq
            .constraints
            .as_ref()
            .map(|c| -> Result<_, Failure> {
                Ok((
                    c,
                    [
                        program(&c.values)?,
                        program(&c.jacobian)?,
                        program(&c.time_derivative)?,
                        program(&c.velocities)?,
                        program(&c.dynamics)?,
                    ],
                ))
            })
            .transpose()?;
        let run_time = RunTime::new(file, lang)?;
        // A loop closed by signals conserves nothing, as the runtime's `Controlled` says:
        // the trajectory has no invariants.
        let closed_loop = !run_time.signals.is_empty();
        let (integrals, dynamic_functions) = if closed_loop {
            (Vec::new(), None)
        } else {
            integrals(eq, lang, &crate_name, &program)?
        };
        let uses_powi = run_time.uses_powi()
            || [
                &dynamics,
                &lagrangian,
                &energy,
                &jacobi_integral,
                &momenta,
                &momentum_rate,
            ]
            .into_iter()
            .chain(&dynamic_functions)
            .chain(constraints.iter().flat_map(|(_, programs)| programs))
            .flat_map(|r| &r.statements)
            .any(code::calls_powi);
        let constraints = constraints
            .map(|(c, programs)| Constraints::new(c, programs, n, constraint_jacobian.end, lang));
        let (coordinates, parameters) = initial_values(file, eq, lang)?;
        Ok(Context {
            name: eq.name.clone(),
            macro_prefix: crate_name.to_ascii_uppercase(),
            crate_name,
            source: file.path.display().to_string(),
            generator: format!("lagrange generate {}", env!("CARGO_PKG_VERSION")),
            n,
            parameter_count: eq.parameters.len(),
            coordinates,
            parameters,
            t_start: literal(settings.t0, "t_start")?,
            t_end: literal(settings.t_end, "t_end")?,
            dt: literal(dt, "dt")?,
            equations_text: eq.text(),
            conserved: match eq.conserved.name() {
                Some(name) if !closed_loop => name.to_string(),
                _ => String::new(),
            },
            cyclic: eq
                .cyclic
                .iter()
                .filter(|_| !closed_loop)
                .map(|&index| Cyclic {
                    index,
                    name: eq.coordinates[index].clone(),
                })
                .collect(),
            integrals,
            dynamic_functions,
            ignored: file.model.ignore.clone(),
            dynamics: Dynamics {
                mass: dynamics.results[mass]
                    .chunks(n)
                    .map(<[String]>::to_vec)
                    .collect(),
                forcing: dynamics.results[forcing].to_vec(),
                declarations: dynamics.declarations,
                statements: dynamics.statements,
            },
            mass_matrix_tree: eq
                .mass_matrix_tree()
                .into_iter()
                .map(|parent| parent.map_or(-1, |p| p as i64))
                .collect(),
            lagrangian,
            energy,
            jacobi_integral,
            momenta,
            momentum_rate,
            constraints,
            run_time,
            uses_powi,
        })
    }
}

/// `x` as a literal of `lang`; an error naming `what` in `file` when it is not finite.
fn literal(file: &ModelFile, x: f64, what: &str, lang: Lang) -> Result<String, Failure> {
    if x.is_finite() {
        Ok(code::float_literal(x, lang))
    } else {
        Err(Failure(format!(
            "{}: {what} is not finite ({x})",
            file.path.display()
        )))
    }
}

/// The coordinates with their initial values and the parameters with theirs, from `file`.
fn initial_values(
    file: &ModelFile,
    eq: &Equations,
    lang: Lang,
) -> Result<(Vec<Coordinate>, Vec<Parameter>), Failure> {
    let values = file.parameter_values()?;
    let (q0, qd0) = file.initial_state()?;
    let literal = |x: f64, what: &str| literal(file, x, what, lang);
    let coordinates = eq
        .coordinates
        .iter()
        .enumerate()
        .map(|(index, name)| {
            Ok(Coordinate {
                index,
                name: name.clone(),
                q0: literal(q0[index], &format!("the initial value of `{name}`"))?,
                qd0: literal(qd0[index], &format!("the initial velocity of `{name}`"))?,
            })
        })
        .collect::<Result<_, Failure>>()?;
    let parameters = eq
        .parameters
        .iter()
        .enumerate()
        .map(|(index, name)| {
            Ok(Parameter {
                index,
                name: name.clone(),
                value: literal(values[index], &format!("the value of `{name}`"))?,
            })
        })
        .collect::<Result<_, Failure>>()?;
    Ok((coordinates, parameters))
}

impl Constraints {
    /// The constraints `c` of a model of `n` coordinates, from their rendered programs
    /// (values, Jacobian, time derivative, velocities, dynamics); the dynamics' Jacobian
    /// rows end at `jacobian_end`.
    fn new(
        c: &ConstraintEquations,
        [values, jacobian, time_derivative, velocities, dynamics]: [Rendered; 5],
        n: usize,
        jacobian_end: usize,
        lang: Lang,
    ) -> Constraints {
        let k = c.text.len();
        Constraints {
            k,
            text: c.text.clone(),
            values,
            jacobian: Split::new(jacobian, k * n, n),
            time_derivative,
            velocities,
            dynamics: Split::new(dynamics, jacobian_end, n),
            consistency_tolerance: code::float_literal(CONSISTENCY_TOLERANCE, lang),
            projection_iterations: PROJECTION_ITERATIONS,
            projection_tolerance: code::float_literal(PROJECTION_TOLERANCE, lang),
        }
    }
}

/// The integrals of the general theorems a trajectory of `eq` records, each with the
/// expression of its value: a result of the rendered dynamic functions (returned too, when
/// an integral reads them), or the energy's function for `T + V`.
fn integrals(
    eq: &Equations,
    lang: Lang,
    crate_name: &str,
    program: &dyn Fn(&lagrange_symbolic::ir::Program) -> Result<Rendered, Failure>,
) -> Result<(Vec<Integral>, Option<Rendered>), Failure> {
    let info = eq.model_info();
    let (Some(theorems), true) = (&eq.theorems, info.theorem_integrals().next().is_some()) else {
        return Ok((Vec::new(), None));
    };
    let functions = program(&theorems.dynamic_functions)?;
    let energy = match lang {
        Lang::Rust => "energy(t, q, qd, p)".to_string(),
        Lang::C => format!("{crate_name}_energy(t, q, qd, p)"),
    };
    let integrals = info
        .theorem_integrals()
        .map(|theorem| {
            let name = theorem.integral_name().to_string();
            let value = match theorem {
                lagrange_core::Theorem::KineticEnergy => energy.clone(),
                other => {
                    let law = theorems
                        .laws
                        .iter()
                        .find(|l| l.theorem.function_name() == other.function_name())
                        .ok_or_else(|| {
                            Failure(format!("{}: no theorem `{name}` was derived", eq.name))
                        })?;
                    functions.results[law.theorem.function_index()].clone()
                }
            };
            Ok(Integral { name, value })
        })
        .collect::<Result<_, Failure>>()?;
    Ok((integrals, Some(functions)))
}

/// `DoublePendulum` → `double_pendulum`; anything but ASCII letters and digits becomes
/// `_`, and a name that does not start with a letter gets a `model_` prefix.
pub(super) fn snake_case(name: &str) -> String {
    let mut out = String::new();
    for (i, c) in name.chars().enumerate() {
        if c.is_ascii_uppercase() {
            if i > 0 && !out.ends_with('_') {
                out.push('_');
            }
            out.push(c.to_ascii_lowercase());
        } else if c.is_ascii_alphanumeric() {
            out.push(c);
        } else if !out.ends_with('_') {
            out.push('_');
        }
    }
    let out = out.trim_matches('_').to_string();
    if out.starts_with(|c: char| c.is_ascii_alphabetic()) {
        out
    } else {
        format!("model_{out}")
    }
}
