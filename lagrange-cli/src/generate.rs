//! `lagrange generate`: a standalone solver for a model file, rendered from the tera
//! templates in `templates/` (built in; `--templates DIR` reads edited copies instead).
//!
//! The Rust target is a std-only Cargo crate, the C target a header, its source and a
//! `main.c`; both integrate the full system (a model's `ignore` is not applied) with
//! fixed-step RK4 and write the trajectory as CSV. For a model with holonomic constraints
//! they solve for the accelerations and multipliers through the Schur complement and
//! project onto the constraints after each step, as the runtime does
//! (`lagrange-core/src/system/constrained.rs`). Inputs that follow `[inputs]` signals are set at every
//! evaluation, and `[[events]]` are located on each step's interpolant and recorded,
//! stop or reset the run, as `lagrange simulate` does (`generate/run_time.rs`).
//! `templates/README.md` describes the context the templates receive.

mod code;
mod context;
mod escape;
mod output;
mod run_time;

use std::path::{Path, PathBuf};

use serde::Serialize;

use self::code::Lang;
use self::context::Context;
use super::Failure;
use super::simulate::Settings;
use lagrange_loaded::file::ModelFile;

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

/// Runs `lagrange generate`.
pub(crate) fn run(args: &Args) -> Result<(), Failure> {
    let file = ModelFile::load(&args.model)?;
    let settings = Settings::of_file(&file)?;
    let derived = file.derive()?;
    let eq = &derived.full;
    let lang = match args.target {
        Target::Rust => Lang::Rust,
        Target::C => Lang::C,
    };
    let context = Context::new(&file, &settings, eq, lang)?;
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
    outln!(
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

#[cfg(test)]
mod tests {
    use super::context::snake_case;
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

    /// The file's settings, as `run` reads them.
    fn settings(file: &ModelFile) -> Settings {
        Settings::of_file(file).unwrap()
    }

    /// A model of one coordinate driven by the input `u`, without `[inputs]` or events.
    const FREE: &str = "[model]\nname = \"Free\"\ncoordinates = [\"x\"]\nparameters = [\"m\", \"u\"]\ninputs = [\"u\"]\nkinetic = \"1/2*m*dot(x)^2\"\nforce = { x = \"u\" }\n\n[values]\nm = 1.0\n\n[initial]\nq = { x = 0.0 }\nqd = { x = 1.0 }\n\n[simulation]\nt_end = 1.0\n\n";

    /// Hostile names and paths (of the model, its signals and events) reach every template
    /// only through its escaping filters:
    /// the C and Rust code outside comments and strings, the TOML keys and the Markdown
    /// are those of a harmless name.
    #[test]
    fn user_text_cannot_write_code() {
        let dir = std::env::temp_dir().join(format!("lagrange-hostile-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let model = dir.join("free.toml");
        std::fs::write(
            &model,
            format!("{FREE}[inputs]\nu = \"-m*x\"\n\n[[events]]\nname = \"e\"\nwhen = \"x - 1\"\nreset = {{ \"dot(x)\" = \"-dot(x)\" }}\n"),
        )
        .unwrap();
        let file = ModelFile::load(&model).unwrap();
        let derived = file.derive().unwrap();
        // An expression is parsed and its names resolved: text that is not an expression
        // of the model's names never reaches a template.
        for when in ["x); injected(", "injected", "x /* */ + 1"] {
            let text = format!("{FREE}[inputs]\nu = \"-m*x\"\n\n[[events]]\nwhen = {when:?}\n");
            std::fs::write(&model, text).unwrap();
            let file = ModelFile::load(&model).unwrap();
            assert!(
                Context::new(&file, &settings(&file), &derived.full, Lang::C).is_err(),
                "{when}"
            );
        }
        let name = "P */ int injected = 42; /*\" \nbuild = \"injected.rs\"\n[click](http://injected) // x\u{1b}[31m";
        let source = "m.toml`\n#define injected 1\n*/ int injected; /*";
        for (lang, templates) in [(Lang::C, C), (Lang::Rust, RUST)] {
            let context = Context::new(&file, &settings(&file), &derived.full, lang).unwrap();
            let mut value = serde_json::to_value(&context).unwrap();
            value["name"] = name.into();
            value["source"] = source.into();
            value["signals"][0]["name"] = name.into();
            value["events"][0]["name"] = name.into();
            value["events"][0]["csv_name"] = name.into();
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
