//! A model read from a file instead of written in the attribute: `model = "…"` (a model
//! file's `[model]` and `[[draw]]` tables, as `lagrange simulate` reads them) or
//! `urdf = "…"` (a robot, translated as `lagrange import` does, with `fixed_joint_merge`
//! and `actuated` as its `--fixed-joint-merge` and `--actuated`). The path is relative to the crate's manifest; the crate is
//! rebuilt when the file changes, and errors name the file (and, in a model file, the line
//! and column of the key).

use std::path::PathBuf;

use lagrange_symbolic::model::{Model, ModelError};
use lagrange_symbolic::source::{self, item_location, item_subject, urdf};
use lagrange_symbolic::syntax::print::escape_text;
use proc_macro2::{Span, TokenStream};
use quote::quote;
use syn::LitStr;

/// What a file holds.
#[derive(Clone, Copy, PartialEq, Eq)]
pub(crate) enum Kind {
    /// A model file (TOML).
    ModelFile,
    /// A URDF robot.
    Urdf,
}

impl Kind {
    /// The attribute's key for this kind, if `key` is one.
    pub(crate) fn of_key(key: &str) -> Option<Kind> {
        match key {
            "model" => Some(Kind::ModelFile),
            "urdf" => Some(Kind::Urdf),
            _ => None,
        }
    }

    fn key(self) -> &'static str {
        match self {
            Kind::ModelFile => "model",
            Kind::Urdf => "urdf",
        }
    }
}

/// The attribute's request for a file: its kind, its path as written, and where the
/// URDF's options `fixed_joint_merge` and `actuated` were given.
pub(crate) struct Request {
    pub(crate) kind: Kind,
    pub(crate) path: LitStr,
    pub(crate) merge: Option<Span>,
    pub(crate) actuated: Option<Span>,
}

/// A file a model was read from.
pub(crate) struct ModelSource {
    kind: Kind,
    /// The absolute path, for the rebuild tracking.
    path: PathBuf,
    /// The path as the attribute writes it, escaped for messages.
    shown: String,
    text: String,
}

impl ModelSource {
    /// Reads the file of `request` and its model (named after the struct by the caller).
    pub(crate) fn read(request: &Request) -> syn::Result<(ModelSource, Model)> {
        let span = request.path.span();
        let error = |message: String| syn::Error::new(span, message);
        let written = request.path.value();
        if written.is_empty() {
            return Err(error(format!("`{}` names no file", request.kind.key())));
        }
        let shown = escape_text(&written);
        if request.merge.is_some() && request.kind != Kind::Urdf {
            return Err(error(
                "`fixed_joint_merge` is an option of `urdf = \"…\"`".into(),
            ));
        }
        let manifest = std::env::var_os("CARGO_MANIFEST_DIR")
            .ok_or_else(|| error("CARGO_MANIFEST_DIR is not set: the file's path is relative to the crate's manifest, which only cargo gives".into()))?;
        let path = PathBuf::from(manifest).join(&written);
        let text = source::read_file(&path).map_err(|e| error(format!("{shown}: {e}")))?;
        let model = match request.kind {
            Kind::ModelFile => source::model_of(&text).map_err(|((line, column), message)| {
                error(format!(
                    "{shown}:{line}:{column}: {}",
                    escape_text(&message)
                ))
            })?,
            Kind::Urdf => {
                let options = urdf::Options {
                    merge_fixed: request.merge.is_some(),
                    actuated: request.actuated.is_some(),
                };
                urdf::import(&text, options)
                    .map_err(|e| error(format!("{shown}: {e}")))?
                    .model
            }
        };
        Ok((
            ModelSource {
                kind: request.kind,
                path,
                shown,
                text,
            },
            model,
        ))
    }

    /// An error of the model read from this file, located in it.
    pub(crate) fn message(&self, model: &Model, e: &ModelError) -> String {
        match self.kind {
            Kind::ModelFile => {
                let (line, column) = item_location(&self.text, e.item);
                format!(
                    "{}:{line}:{column}: {}: {}",
                    self.shown,
                    item_subject(model, e.item),
                    escape_text(&e.message)
                )
            }
            Kind::Urdf => format!("{} (`urdf`): {}", self.shown, escape_text(&e.message)),
        }
    }

    /// Makes the crate depend on the file: it is rebuilt when the file changes.
    pub(crate) fn tracking(&self) -> syn::Result<TokenStream> {
        let path = self.path.to_str().ok_or_else(|| {
            syn::Error::new(
                Span::call_site(),
                format!("{}: the path is not UTF-8", self.shown),
            )
        })?;
        Ok(quote!(
            const _: &[u8] = ::core::include_bytes!(#path);
        ))
    }

    /// The attribute key the file was given by.
    pub(crate) fn key(&self) -> &'static str {
        self.kind.key()
    }
}

#[cfg(test)]
mod tests {
    use crate::attr::parse;
    use syn::DeriveInput;

    /// The errors of reading the struct `source` (paths relative to this crate).
    fn errors(source: &str) -> String {
        let input: DeriveInput = syn::parse_str(source).unwrap();
        let parsed = parse(&input);
        parsed
            .errors
            .map(|e| {
                e.into_iter()
                    .map(|e| e.to_string())
                    .collect::<Vec<_>>()
                    .join("\n")
            })
            .unwrap_or_default()
    }

    /// A file in a fresh folder of the system's temporary folder, by absolute path.
    fn written(name: &str, text: &str) -> String {
        let dir = std::env::temp_dir().join(format!("lagrange-macros-file-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join(name);
        std::fs::write(&path, text).unwrap();
        path.to_str().unwrap().to_string()
    }

    #[test]
    fn a_model_file_gives_the_model_named_after_the_struct() {
        let input: DeriveInput = syn::parse_str(
            r#"#[lagrangian(model = "../examples/models/double_pendulum.toml")]
            struct Swing { m1: f64, m2: f64, l1: f64, l2: f64, g: f64 }"#,
        )
        .unwrap();
        let parsed = parse(&input);
        assert!(parsed.errors.is_none());
        assert_eq!(parsed.model.name, "Swing");
        assert_eq!(parsed.model.coordinates, ["theta1", "theta2"]);
        assert!(
            parsed
                .model
                .kinetic
                .as_deref()
                .unwrap()
                .contains("cos(theta1-theta2)")
        );
        // Its checks' errors are located in the file: a name the model does not know.
        let path = written(
            "unknown.toml",
            "[model]\ncoordinates = [\"x\"]\nparameters = [\"m\"]\n\nkinetic = \"1/2*m*dot(x)^2\"\npotential = \"k*x^2\"\n",
        );
        let input: DeriveInput = syn::parse_str(&format!(
            "#[lagrangian(model = {path:?})] struct S {{ m: f64 }}"
        ))
        .unwrap();
        let parsed = parse(&input);
        assert!(parsed.errors.is_none());
        let problems = parsed.model.check().unwrap_err();
        let message = parsed
            .file
            .as_ref()
            .unwrap()
            .message(&parsed.model, &problems[0]);
        assert!(
            message.starts_with(&format!("{path}:6:1: potential = \"k*x^2\": ")),
            "{message}"
        );
        assert!(message.contains('k'), "{message}");
    }

    #[test]
    fn what_cannot_be_read_is_a_clear_error() {
        let syntax = written("syntax.toml", "[model]\ncoordinates = [\"x\"\n");
        let loop_urdf = written(
            "itself.urdf",
            r#"<robot name="r"><link name="a"/><link name="b"><inertial><mass value="1"/><inertia ixx="1" ixy="0" ixz="0" iyy="1" iyz="0" izz="1"/></inertial></link>
            <joint name="j" type="revolute"><parent link="a"/><child link="b"/><axis xyz="0 0 1"/><mimic joint="j"/></joint></robot>"#,
        );
        let cases = [
            (
                r#"model = "no/such/file.toml""#,
                "struct S;",
                "no/such/file.toml: cannot read",
            ),
            (
                &*format!("model = {syntax:?}"),
                "struct S;",
                "syntax.toml:2:19: unclosed array",
            ),
            (
                &*format!("urdf = {loop_urdf:?}"),
                "struct S { g: f64 }",
                "joint `j` mimics itself",
            ),
            (
                r#"model = "/dev/zero""#,
                "struct S;",
                "larger than 16777216 bytes",
            ),
            (
                r#"model = "../examples/models/double_pendulum.toml", fixed_joint_merge"#,
                "struct S { m1: f64, m2: f64, l1: f64, l2: f64, g: f64 }",
                "`fixed_joint_merge` is an option of `urdf",
            ),
            (
                r#"urdf = "../lagrange-cli/tests/fixtures/arm3.urdf""#,
                "struct S { m: f64 }",
                "the file has (g), the struct (m)",
            ),
            (
                r#"urdf = "../lagrange-cli/tests/fixtures/arm3.urdf", kinetic = "0""#,
                "struct S { g: f64 }",
                "`kinetic`: the model is read from `urdf",
            ),
            (
                r#"urdf = "../lagrange-cli/tests/fixtures/arm3.urdf", model = "x.toml""#,
                "struct S { g: f64 }",
                "one file",
            ),
            (r#"fixed_joint_merge"#, "struct S;", "follows `urdf"),
            (
                r#"urdf = "../lagrange-cli/tests/fixtures/arm3.urdf", actuated, actuated"#,
                "struct S { g: f64 }",
                "`actuated` is given twice",
            ),
        ];
        for (keys, item, needle) in cases {
            let found = errors(&format!("#[lagrangian({keys})] {item}"));
            assert!(found.contains(needle), "{keys}: {found}");
        }
        // A file that does not give the model is the one error: no "no coordinates" after.
        let input: DeriveInput =
            syn::parse_str(r#"#[lagrangian(model = "no/such/file.toml")] struct S;"#).unwrap();
        assert!(parse(&input).file_failed);
        let found = errors(r#"#[lagrangian(model = "")] struct S;"#);
        assert!(found.contains("`model` names no file"), "{found}");
    }
}
