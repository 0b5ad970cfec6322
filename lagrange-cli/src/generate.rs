//! `lagrange generate`: a standalone solver for a model file, rendered from the tera
//! templates in `templates/` (built in; `--templates DIR` reads edited copies instead).
//!
//! The Rust target is a std-only Cargo crate, the C target a header, its source and a
//! `main.c`; both integrate the full system (a model's `ignore` is not applied) with
//! fixed-step RK4 and write the trajectory as CSV. For a model with holonomic constraints
//! they solve for the accelerations and multipliers through the Schur complement and
//! project onto the constraints after each step, as the runtime does
//! (`lagrange-core/src/system/constrained.rs`). Models whose inputs follow `[inputs]` signals or that
//! have `[[events]]` are refused (the templates do not evaluate them).
//! `templates/README.md` describes the context the templates receive.

mod code;
mod escape;
mod output;

use std::path::{Path, PathBuf};

use lagrange_core::__private::{
    CONSISTENCY_TOLERANCE, PROJECTION_ITERATIONS, PROJECTION_TOLERANCE,
};
use lagrange_symbolic::equations::Equations;
use serde::Serialize;

use self::code::{Lang, Rendered};
use super::Failure;
use super::file::ModelFile;

/// Arguments of `lagrange generate`.
#[derive(clap::Args)]
pub(crate) struct Args {
    /// The model file (TOML).
    model: PathBuf,
    /// The directory to write into: new or empty, unless `--force`. Everything is written
    /// to a temporary folder beside it first, then moved in, the manifest last; symbolic
    /// links inside it are never followed.
    #[arg(long)]
    out: PathBuf,
    /// Write into a directory that is not empty: files of the same names are replaced
    /// (a symbolic link by a file, never its target), others left alone.
    #[arg(long)]
    force: bool,
    /// What to generate.
    #[arg(long, value_enum, default_value_t = Target::Rust)]
    target: Target,
    /// Read the templates from this directory (laid out as `templates/`: `rust/…`, `c/…`)
    /// instead of the built-in ones.
    #[arg(long)]
    templates: Option<PathBuf>,
}

/// The generated solver's language.
#[derive(Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
enum Target {
    /// A std-only Cargo crate.
    Rust,
    /// A C99 header, source and `main.c`.
    C,
}

/// One template and the file it renders to.
struct Template {
    /// Path under the templates directory.
    path: &'static str,
    /// Path under `--out`.
    output: &'static str,
    /// The built-in text.
    builtin: &'static str,
}

/// Declares a built-in template by its path under `templates/`.
macro_rules! template {
    ($path:literal => $output:literal) => {
        Template {
            path: $path,
            output: $output,
            builtin: include_str!(concat!(env!("CARGO_MANIFEST_DIR"), "/../templates/", $path)),
        }
    };
}

/// The templates of the Rust target.
const RUST: &[Template] = &[
    template!("rust/Cargo.toml.tera" => "Cargo.toml"),
    template!("rust/README.md.tera" => "README.md"),
    template!("rust/src/main.rs.tera" => "src/main.rs"),
    template!("rust/src/model.rs.tera" => "src/model.rs"),
    template!("rust/src/solver.rs.tera" => "src/solver.rs"),
];

/// The templates of the C target.
const C: &[Template] = &[
    template!("c/README.md.tera" => "README.md"),
    template!("c/model.h.tera" => "model.h"),
    template!("c/model.c.tera" => "model.c"),
    template!("c/main.c.tera" => "main.c"),
];

/// Default RK4 step unless the model file asks for `integrator = "rk4"` with a `dt`.
const DEFAULT_STEP: f64 = 1e-3;
/// Default end time unless the model file gives `t_end`.
const DEFAULT_END: f64 = 10.0;

/// Runs `lagrange generate`.
pub(crate) fn run(args: &Args) -> Result<(), Failure> {
    let file = ModelFile::load(&args.model)?;
    let refuse = |what: String| {
        Failure(format!(
            "{}: cannot generate a solver for the model `{}`: {what}, which the templates do not evaluate; integrate it with `lagrange simulate`",
            file.path.display(),
            file.model.name,
        ))
    };
    if !file.input_signals()?.is_empty() {
        return Err(refuse(format!(
            "its inputs ({}) follow signals in [inputs] (a constant in [values] would do)",
            file.model.inputs.join(", ")
        )));
    }
    if !file.events()?.is_empty() {
        return Err(refuse("it has [[events]]".into()));
    }
    let derived = file.derive()?;
    let eq = &derived.full;
    let lang = match args.target {
        Target::Rust => Lang::Rust,
        Target::C => Lang::C,
    };
    let context = Context::new(&file, eq, lang)?;
    let templates = match args.target {
        Target::Rust => RUST,
        Target::C => C,
    };
    let rendered = render(templates, args.templates.as_deref(), &context)?;
    output::check_destination(&args.out, args.force)?;
    // Unformattable Rust is written as rendered, for the template's author to inspect.
    let mut invalid = None;
    let files: Vec<(&str, String)> = rendered
        .into_iter()
        .map(|(output, text)| match format(output, &text) {
            Ok(formatted) => (output, formatted),
            Err(e) => {
                invalid.get_or_insert((output, e));
                (output, text)
            }
        })
        .collect();
    output::write_all(&args.out, &files)?;
    if let Some((output, e)) = invalid {
        let template = templates
            .iter()
            .find(|t| t.output == output)
            .map_or("", |t| t.path);
        return Err(Failure(format!(
            "the template `{template}` rendered invalid Rust ({e}); the unformatted text is in `{}`",
            args.out.join(output).display()
        )));
    }
    let names: Vec<&str> = files.iter().map(|(output, _)| *output).collect();
    println!(
        "wrote {} in `{}`: {}",
        eq.name.escape_debug(),
        args.out.display(),
        names.join(", ")
    );
    Ok(())
}

/// Renders every template (from `dir` if given, else the built-in text). Returns each
/// output path with its text.
fn render(
    templates: &[Template],
    dir: Option<&Path>,
    context: &impl Serialize,
) -> Result<Vec<(&'static str, String)>, Failure> {
    let mut tera = tera::Tera::default();
    tera.autoescape_on(Vec::new());
    escape::register(&mut tera);
    for template in templates {
        let text = match dir {
            Some(dir) => {
                let path = dir.join(template.path);
                std::fs::read_to_string(&path).map_err(|e| {
                    Failure(format!(
                        "cannot read the template `{}`: {e}",
                        path.display()
                    ))
                })?
            }
            None => template.builtin.to_string(),
        };
        tera.add_raw_template(template.path, &text)
            .map_err(|e| Failure(format!("template `{}`: {}", template.path, chain(&e))))?;
    }
    let context = tera::Context::from_serialize(context)
        .map_err(|e| Failure(format!("internal error: template context: {e}")))?;
    templates
        .iter()
        .map(|template| {
            let text = tera
                .render(template.path, &context)
                .map_err(|e| Failure(format!("template `{}`: {}", template.path, chain(&e))))?;
            Ok((template.output, text))
        })
        .collect()
}

/// An error with its causes, which is where tera puts the useful part.
fn chain(e: &dyn std::error::Error) -> String {
    let mut message = e.to_string();
    let mut source = e.source();
    while let Some(cause) = source {
        message.push_str(": ");
        message.push_str(&cause.to_string());
        source = cause.source();
    }
    message
}

/// Rust source formatted with prettyplease; other text as it is.
fn format(output: &str, text: &str) -> Result<String, String> {
    if output.ends_with(".rs") {
        let file = syn::parse_file(text).map_err(|e| e.to_string())?;
        Ok(prettyplease::unparse(&file))
    } else {
        Ok(text.to_string())
    }
}

/// What the templates receive (see `templates/README.md`).
#[derive(Serialize)]
struct Context {
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
    /// Default start time, end time and RK4 step, as literals.
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
    /// One-output programs: `L`, the energy, the Jacobi integral.
    lagrangian: Rendered,
    energy: Rendered,
    jacobi_integral: Rendered,
    /// `n`-output programs: `p = ∂L/∂q̇` and `ṗ`.
    momenta: Rendered,
    momentum_rate: Rendered,
    /// The holonomic constraints, if the model has any.
    constraints: Option<Constraints>,
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

/// A program whose leading results form a matrix: `rows` of `columns` results each, then
/// the `rest`.
#[derive(Serialize)]
struct Split {
    declarations: Vec<String>,
    statements: Vec<code::Statement>,
    rows: Vec<Vec<String>>,
    rest: Vec<String>,
}

impl Split {
    /// `rendered` with its first `rows · columns` results as rows.
    fn new(rendered: Rendered, rows: usize, columns: usize) -> Split {
        let (matrix, rest) = rendered.results.split_at(rows * columns);
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
    fn new(file: &ModelFile, eq: &Equations, lang: Lang) -> Result<Context, Failure> {
        let values = file.parameter_values()?;
        let (q0, qd0) = file.initial_state()?;
        let sim = &file.simulation;
        let t_start = sim.t_start.unwrap_or(0.0);
        let t_end = sim.t_end.unwrap_or(DEFAULT_END);
        let rk4 = sim
            .integrator
            .as_deref()
            .is_some_and(|i| i.eq_ignore_ascii_case("rk4"));
        let dt = sim.dt.filter(|_| rk4).unwrap_or(DEFAULT_STEP);
        let literal = |x: f64, what: &str| {
            if x.is_finite() {
                Ok(code::float_literal(x, lang))
            } else {
                Err(Failure(format!(
                    "{}: {what} is not finite ({x})",
                    file.path.display()
                )))
            }
        };
        let failure =
            |e: String| Failure(format!("{}: model `{}`: {e}", file.path.display(), eq.name));
        let inputs = eq.inputs();
        let program =
            |p: &lagrange_symbolic::ir::Program| code::render(p, inputs, lang).map_err(failure);
        let n = eq.coordinates.len();
        let dynamics = program(&eq.programs.dynamics)?;
        let crate_name = snake_case(&eq.name);
        let programs = [
            &eq.programs.lagrangian,
            &eq.programs.energy,
            &eq.programs.jacobi_integral,
            &eq.programs.momenta,
            &eq.programs.momentum_rate,
        ]
        .map(program);
        let [lagrangian, energy, jacobi_integral, momenta, momentum_rate] = programs;
        let (lagrangian, energy, jacobi_integral, momenta, momentum_rate) = (
            lagrangian?,
            energy?,
            jacobi_integral?,
            momenta?,
            momentum_rate?,
        );
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
        let (integrals, dynamic_functions) = integrals(eq, lang, &crate_name, &program)?;
        let uses_powi = [
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
        .any(|s| s.value.contains("lagrange_powi("));
        let constraints = constraints.map(
            |(c, [values, jacobian, time_derivative, velocities, dynamics])| {
                let k = c.text.len();
                Constraints {
                    k,
                    text: c.text.clone(),
                    values,
                    jacobian: Split::new(jacobian, k, n),
                    time_derivative,
                    velocities,
                    dynamics: Split::new(dynamics, k, n),
                    consistency_tolerance: code::float_literal(CONSISTENCY_TOLERANCE, lang),
                    projection_iterations: PROJECTION_ITERATIONS,
                    projection_tolerance: code::float_literal(PROJECTION_TOLERANCE, lang),
                }
            },
        );
        Ok(Context {
            name: eq.name.clone(),
            macro_prefix: crate_name.to_ascii_uppercase(),
            crate_name,
            source: file.path.display().to_string(),
            generator: format!("lagrange generate {}", env!("CARGO_PKG_VERSION")),
            n,
            parameter_count: eq.parameters.len(),
            coordinates: eq
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
                .collect::<Result<_, Failure>>()?,
            parameters: eq
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
                .collect::<Result<_, Failure>>()?,
            t_start: literal(t_start, "t_start")?,
            t_end: literal(t_end, "t_end")?,
            dt: literal(dt, "dt")?,
            equations_text: eq.text(),
            conserved: eq.conserved.name().unwrap_or_default().to_string(),
            cyclic: eq
                .cyclic
                .iter()
                .map(|&index| Cyclic {
                    index,
                    name: eq.coordinates[index].clone(),
                })
                .collect(),
            integrals,
            dynamic_functions,
            ignored: file.model.ignore.clone(),
            dynamics: Dynamics {
                mass: dynamics.results[..n * n]
                    .chunks(n)
                    .map(<[String]>::to_vec)
                    .collect(),
                forcing: dynamics.results[n * n..].to_vec(),
                declarations: dynamics.declarations,
                statements: dynamics.statements,
            },
            lagrangian,
            energy,
            jacobi_integral,
            momenta,
            momentum_rate,
            constraints,
            uses_powi,
        })
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
    let info = super::interpreted::model_info(eq);
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
fn snake_case(name: &str) -> String {
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

#[cfg(test)]
mod tests {
    use super::*;

    /// `text` without its comments and string literals (C and Rust, no raw strings):
    /// what a compiler reads as code.
    fn code_only(text: &str) -> String {
        let mut code = String::new();
        let mut chars = text.chars().peekable();
        while let Some(c) = chars.next() {
            match (c, chars.peek()) {
                ('/', Some('/')) => {
                    for c in chars.by_ref() {
                        if c == '\n' {
                            code.push('\n');
                            break;
                        }
                    }
                }
                ('/', Some('*')) => {
                    chars.next();
                    let mut star = false;
                    for c in chars.by_ref() {
                        if star && c == '/' {
                            break;
                        }
                        star = c == '*';
                    }
                    code.push(' ');
                }
                ('"', _) => {
                    while let Some(c) = chars.next() {
                        match c {
                            '\\' => {
                                chars.next();
                            }
                            '"' => break,
                            _ => {}
                        }
                    }
                    code.push_str("\"\"");
                }
                _ => code.push(c),
            }
        }
        code
    }

    #[test]
    fn names_become_crate_names() {
        assert_eq!(snake_case("DoublePendulum"), "double_pendulum");
        assert_eq!(snake_case("DoorG1"), "door_g1");
        assert_eq!(snake_case("3d top"), "model_3d_top");
    }

    #[test]
    fn the_code_filter_of_the_test_sees_code() {
        let code = code_only("int a; /* b */ // c\nchar *d = \"e\\\" f\"; g");
        assert_eq!(code, "int a;   \nchar *d = \"\"; g");
    }

    /// Hostile names and paths reach every template only through its escaping filters:
    /// the C and Rust code outside comments and strings, the TOML keys and the Markdown
    /// are those of a harmless name.
    #[test]
    fn user_text_cannot_write_code() {
        let dir = std::env::temp_dir().join(format!("lagrange-hostile-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let model = dir.join("free.toml");
        std::fs::write(
            &model,
            "[model]\nname = \"Free\"\ncoordinates = [\"x\"]\nparameters = [\"m\"]\nkinetic = \"1/2*m*dot(x)^2\"\n\n[values]\nm = 1.0\n\n[initial]\nq = { x = 0.0 }\nqd = { x = 1.0 }\n",
        )
        .unwrap();
        let file = ModelFile::load(&model).unwrap();
        let derived = file.derive().unwrap();
        let name = "P */ int injected = 42; /*\" \nbuild = \"injected.rs\"\n[click](http://injected) // x\u{1b}[31m";
        let source = "m.toml`\n#define injected 1\n*/ int injected; /*";
        for (lang, templates) in [(Lang::C, C), (Lang::Rust, RUST)] {
            let context = Context::new(&file, &derived.full, lang).unwrap();
            let mut value = serde_json::to_value(&context).unwrap();
            value["name"] = name.into();
            value["source"] = source.into();
            let rendered = render(templates, None, &value).unwrap();
            for (output, text) in &rendered {
                assert!(
                    !text.contains('\u{1b}'),
                    "{output}: a raw control character"
                );
                if output.ends_with(".c") || output.ends_with(".h") || output.ends_with(".rs") {
                    let code = code_only(text);
                    assert!(!code.contains("injected"), "{output}:\n{code}");
                    if output.ends_with(".rs") {
                        format(output, text).unwrap_or_else(|e| panic!("{output}: {e}"));
                    }
                } else if output.ends_with(".toml") {
                    let manifest: toml::Table = toml::from_str(text).unwrap();
                    let mut keys: Vec<&String> = manifest.keys().collect();
                    keys.sort();
                    assert_eq!(keys, ["dependencies", "package", "workspace"], "{text}");
                    let package = manifest["package"].as_table().unwrap();
                    let mut keys: Vec<&String> = package.keys().collect();
                    keys.sort();
                    assert_eq!(
                        keys,
                        ["description", "edition", "name", "publish", "version"],
                        "{text}"
                    );
                    let description = package["description"].as_str().unwrap();
                    assert!(description.contains(name), "{description}");
                } else {
                    assert!(output.ends_with(".md"));
                    assert!(!text.contains("[click]("), "{output}:\n{text}");
                    assert!(!text.contains("\n#define"), "{output}:\n{text}");
                }
            }
        }
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
