//! Derivations kept as files, so that an expansion need not run the engine: the offline
//! folder checked in with a crate ([`OFFLINE_DIR`], written by `lagrange prepare`, read
//! when the engine is off) and the user-wide cache of the engine path. This module owns
//! the folder's name, the environment variables that steer both, and the entry format.
//!
//! An entry is one JSON file on one line (its version first), named `<Model>-<hash>.json`,
//! where the hash is taken over the model as written and the model's name must pass the
//! rule for names ([`crate::model::name_problem`]: an ASCII identifier of at most 64
//! bytes), so no name reaches outside the folder or makes an unportable file name. The
//! entry repeats the model, the engine version and a content hash of the derivation;
//! [`read`] uses it only when all three match and every program in it passes
//! [`Program::validate`](crate::ir::Program::validate) with the counts its role requires,
//! so a damaged or edited entry is an error (or, in the cache, a new derivation), never a
//! panic or silently different numbers.
//!
//! `folders` says where entries live (the offline folder, the user cache, the variables
//! that steer both); `validate` checks an entry's programs against its model.

mod folders;
mod validate;

use std::fmt;
use std::fs;
use std::io;
use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};
use serde_json::value::RawValue;

use crate::equations::Derived;
use crate::model::{Model, name_problem};
use crate::syntax::print::excerpt_text;
#[cfg(feature = "engine")]
pub use folders::derive_cached;
pub use folders::{
    ENV_CACHE, ENV_CACHE_DIR, ENV_OFFLINE, ENV_PREPARE, ENV_PREPARE_CRATE, ENV_PREPARE_RUN,
    EXPANSION_ENV, OFFLINE_DIR, cache_dir, cache_subdir, offline_dir, offline_requested,
    prepare_staging,
};
pub use validate::check_equations;
use validate::validate;

/// The version of the engine and of the entry format; an entry written by another
/// version is stale.
pub const ENGINE_VERSION: &str = concat!(
    "lagrange-symbolic ",
    env!("CARGO_PKG_VERSION"),
    ", format 12"
);

/// One stored derivation.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Entry {
    /// [`ENGINE_VERSION`] of the engine that derived it.
    pub engine: String,
    /// The model it was derived from.
    pub model: Model,
    /// [`content_hash`] of `derived`, to detect an entry edited by hand.
    pub derived_hash: String,
    /// The derivation.
    pub derived: Derived,
}

/// Why no usable entry was found.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum StoreError {
    /// No entry for this model (it was never prepared, or it changed since).
    Missing(PathBuf),
    /// An entry exists but was written by another engine version, or for another model.
    Stale(PathBuf, String),
    /// The entry could not be read or parsed.
    Unreadable(PathBuf, String),
    /// The entry parses but was edited or damaged: a content hash that does not match,
    /// or a program that fails validation.
    Invalid(PathBuf, String),
    /// The model's name breaks the rule for names, so it names no entry.
    Name(String),
    /// The entry could not be written.
    Unwritable(PathBuf, String),
}

impl fmt::Display for StoreError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            StoreError::Missing(path) => write!(f, "no stored derivation `{}`", path.display()),
            StoreError::Stale(path, why) => {
                write!(
                    f,
                    "the stored derivation `{}` is stale: {why}",
                    path.display()
                )
            }
            StoreError::Unreadable(path, why) => {
                write!(
                    f,
                    "cannot read the stored derivation `{}`: {why}",
                    path.display()
                )
            }
            StoreError::Invalid(path, why) => write!(
                f,
                "the stored derivation `{}` was edited or damaged: {why}",
                path.display()
            ),
            StoreError::Name(name) => {
                let why = name_problem(name, "a stored derivation").unwrap_or_default();
                write!(f, "no stored derivation for the model {name:?}: {why}")
            }
            StoreError::Unwritable(path, why) => {
                write!(f, "cannot write `{}`: {why}", path.display())
            }
        }
    }
}

impl std::error::Error for StoreError {}

/// A 64-bit FNV-1a hash of `text`, as 16 hex digits.
fn fnv1a(text: &str) -> String {
    let mut hash: u64 = 0xcbf2_9ce4_8422_2325;
    for byte in text.bytes() {
        hash ^= u64::from(byte);
        hash = hash.wrapping_mul(0x0100_0000_01b3);
    }
    format!("{hash:016x}")
}

/// The hash of the model as written, as 16 hex digits.
pub fn model_hash(model: &Model) -> String {
    fnv1a(&serde_json::to_string(model).expect("a model always serializes"))
}

/// The content hash of a derivation, as 16 hex digits: it changes with any value in it
/// (floats serialize as their shortest round-trip decimal, so reading and writing an
/// entry keeps it).
pub fn content_hash(derived: &Derived) -> String {
    fnv1a(&serde_json::to_string(derived).expect("a derivation always serializes"))
}

/// The path of the model's entry in `dir`; an error for a name that breaks the rule for
/// names (one rule for code and files: only such a name is used in a path, so none can
/// leave the folder).
pub fn entry_path(dir: &Path, model: &Model) -> Result<PathBuf, StoreError> {
    if name_problem(&model.name, "the model").is_some() {
        return Err(StoreError::Name(model.name.clone()));
    }
    Ok(dir.join(format!("{}-{}.json", model.name, model_hash(model))))
}

/// The part of an entry every format shares: which engine wrote it.
#[derive(Deserialize)]
struct Written {
    engine: String,
}

/// An entry as read: the derivation kept as its text until that text's hash is checked.
#[derive(Deserialize)]
struct Stored<'a> {
    model: Model,
    derived_hash: String,
    #[serde(borrow)]
    derived: &'a RawValue,
}

/// Reads the model's entry from `dir`, checked as the module documentation describes.
pub fn read(dir: &Path, model: &Model) -> Result<Derived, StoreError> {
    let path = entry_path(dir, model)?;
    let text = match fs::read_to_string(&path) {
        Ok(text) => text,
        Err(e) if e.kind() == io::ErrorKind::NotFound => return Err(StoreError::Missing(path)),
        Err(e) => return Err(StoreError::Unreadable(path, e.to_string())),
    };
    parse_entry(&text, model, path)
}

/// The derivation of `model` in an entry's `text` (what [`entry_text`] writes), checked as
/// [`read`] checks a stored file; `path` names where the text came from in the errors.
pub fn parse_entry(text: &str, model: &Model, path: PathBuf) -> Result<Derived, StoreError> {
    let unreadable = |e: serde_json::Error| StoreError::Unreadable(path.clone(), e.to_string());
    // The version first: an entry of another format need not parse as this one's, and
    // is stale rather than damaged. [`write`] puts it first, so this version's entries
    // are told by their first bytes; others are parsed for the version they name.
    if !text.starts_with(&header()) {
        let written: Written = serde_json::from_str(text).map_err(unreadable)?;
        if written.engine != ENGINE_VERSION {
            let why = format!(
                "written by {}, this is {ENGINE_VERSION}",
                excerpt_text(&written.engine)
            );
            return Err(StoreError::Stale(path, why));
        }
    }
    let stored: Stored = serde_json::from_str(text).map_err(unreadable)?;
    if stored.model != *model {
        let why = "it was derived from a different model".to_string();
        return Err(StoreError::Stale(path, why));
    }
    // The hash is of the derivation's text as [`write`] writes it, without whitespace:
    // that text itself in an entry written so, else (an entry indented by hand, or by an
    // engine that indented) the derivation written again.
    let derived: Derived = serde_json::from_str(stored.derived.get()).map_err(unreadable)?;
    if fnv1a(stored.derived.get()) != stored.derived_hash {
        let hash = content_hash(&derived);
        if stored.derived_hash != hash {
            let why = format!(
                "its content hash is {hash}, the entry records {}",
                excerpt_text(&stored.derived_hash)
            );
            return Err(StoreError::Invalid(path, why));
        }
    }
    validate(&derived, model).map_err(|why| StoreError::Invalid(path, why))?;
    Ok(derived)
}

/// The entry of `model`'s derivation as text: what [`write()`] stores, and what a model
/// loaded in one process is sent to another as ([`parse_entry`] reads it back).
pub fn entry_text(model: &Model, derived: &Derived) -> Result<String, serde_json::Error> {
    let entry = Entry {
        engine: ENGINE_VERSION.to_string(),
        model: model.clone(),
        derived_hash: content_hash(derived),
        derived: derived.clone(),
    };
    // Without indentation: a derivation of a 29-joint robot is 3.9 MB so and 22 MB
    // indented, and the derive reads it with an engine built without optimization.
    serde_json::to_string(&entry)
}

/// How an entry of this version begins: `{"engine":` and [`ENGINE_VERSION`].
fn header() -> String {
    let version = serde_json::to_string(ENGINE_VERSION).expect("a string always serializes");
    format!("{{\"engine\":{version},")
}

/// Writes the model's entry to `dir` (created if needed), atomically: a concurrent reader
/// sees the old file or the new one, never a part.
pub fn write(dir: &Path, model: &Model, derived: &Derived) -> Result<PathBuf, StoreError> {
    let path = entry_path(dir, model)?;
    let failed = |e: &dyn fmt::Display| StoreError::Unwritable(path.clone(), e.to_string());
    let mut text = entry_text(model, derived).map_err(|e| failed(&e))?;
    text.push('\n');
    let partial = path.with_extension(format!("json.{}.partial", std::process::id()));
    fs::create_dir_all(dir).map_err(|e| failed(&e))?;
    fs::write(&partial, text).map_err(|e| failed(&e))?;
    fs::rename(&partial, &path).map_err(|e| failed(&e))?;
    Ok(path)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ir::Program;
    use crate::model::Body;
    use crate::model::{Axis, Rotation};

    fn model() -> Model {
        Model {
            name: "Door".into(),
            coordinates: vec!["theta".into()],
            parameters: vec!["m".into(), "a".into()],
            forces: vec![("theta".into(), "-a*dot(theta)".into())],
            bodies: vec![Body {
                name: "leaf".into(),
                mass: "m".into(),
                inertia: vec!["a".into(), "a".into(), "2*a".into()],
                rotation: Some(Rotation::About(Axis::Z, "theta".into())),
                position: vec!["a*cos(theta)".into(), "a*sin(theta)".into(), "0".into()],
                ..Body::default()
            }],
            ..Model::default()
        }
    }

    #[test]
    fn a_model_survives_its_serialized_form() {
        let m = model();
        let json = serde_json::to_string(&m).unwrap();
        assert!(
            json.contains(r#""force":{"theta":"-a*dot(theta)"}"#),
            "{json}"
        );
        assert!(json.contains(r#""rotation":"about_z(theta)""#), "{json}");
        assert_eq!(serde_json::from_str::<Model>(&json).unwrap(), m);
        let euler = Rotation::EulerZxz(["phi".into(), "f(a, b)".into(), "psi".into()]);
        let json = serde_json::to_string(&euler).unwrap();
        assert_eq!(serde_json::from_str::<Rotation>(&json).unwrap(), euler);
        assert!(serde_json::from_str::<Rotation>(r#""spin(x)""#).is_err());
    }

    #[test]
    fn the_hash_follows_every_part_of_the_model() {
        let m = model();
        let mut other = m.clone();
        other.forces[0].1 = "-2*a*dot(theta)".into();
        assert_ne!(model_hash(&m), model_hash(&other));
        assert_eq!(model_hash(&m), model_hash(&m.clone()));
    }

    /// A small, valid derivation by hand: one coordinate and two parameters, so every
    /// program reads 5 inputs; each writes its first output from three constants.
    fn derived() -> Derived {
        use crate::equations::{Conserved, Equations, Programs, Symbolic};
        use crate::ir::{Instr, Slot};
        use crate::syntax::Expr;
        let program = |outputs| Program {
            inputs: 5,
            outputs,
            temporaries: 0,
            constants: vec![0.1, std::f64::consts::PI, 1e-300],
            instructions: vec![Instr::Mul(
                Slot::Out(0),
                vec![
                    Slot::Const(0),
                    Slot::Const(1),
                    Slot::Const(2),
                    Slot::Input(1),
                ],
            )],
        };
        let zero = Expr::Name("m".into());
        Derived {
            full: Equations {
                name: "Door".into(),
                coordinates: vec!["theta".into()],
                parameters: vec!["m".into(), "a".into()],
                from_kinetic_potential: true,
                forced_or_dissipative: true,
                inputs: vec![],
                explicit_time: false,
                cyclic: vec![],
                conserved: Conserved::None,
                programs: Programs {
                    dynamics: program(2),
                    lagrangian: program(1),
                    energy: program(1),
                    jacobi_integral: program(1),
                    momenta: program(1),
                    momentum_rate: program(1),
                    momentum_jacobian: program(1),
                    lagrangian_hessian: program(1),
                    residual_jacobians: Program {
                        inputs: 6,
                        ..program(4)
                    },
                    inverse_dynamics: Program {
                        inputs: 6,
                        ..program(1)
                    },
                },
                constraints: None,
                dynamics_by_recursion: false,
                joint_wrenches: None,
                theorems: None,
                drawing: None,
                formulas: Vec::new(),
                symbolic: Some(Symbolic {
                    lagrangian: zero.clone(),
                    mass_matrix: vec![vec![zero.clone()]],
                    forcing: vec![zero.clone()],
                    momenta: vec![zero.clone()],
                    energy: zero.clone(),
                    jacobi_integral: zero,
                    velocity_split: None,
                    linearization: None,
                }),
            },
            reduced: None,
        }
    }

    #[test]
    fn entries_are_found_only_for_the_same_model_and_engine() {
        let dir = std::env::temp_dir().join(format!("lagrange-store-{}", std::process::id()));
        let m = model();
        let derived = derived();
        assert!(matches!(read(&dir, &m), Err(StoreError::Missing(_))));
        let path = write(&dir, &m, &derived).unwrap();
        assert_eq!(read(&dir, &m).unwrap(), derived);
        // Written on one line, the version first; the same entry indented (as an engine
        // of this format wrote it before) reads the same.
        let text = fs::read_to_string(&path).unwrap();
        assert!(text.starts_with(&header()) && text.trim_end().lines().count() == 1);
        let entry: Entry = serde_json::from_str(&text).unwrap();
        fs::write(&path, serde_json::to_string_pretty(&entry).unwrap()).unwrap();
        assert_eq!(read(&dir, &m).unwrap(), derived);

        fs::write(
            &path,
            text.replace(ENGINE_VERSION, "lagrange-symbolic 0.0.0"),
        )
        .unwrap();
        assert!(matches!(read(&dir, &m), Err(StoreError::Stale(..))));
        // An older format lacks fields this one has: stale, not unreadable.
        fs::write(&path, r#"{"engine": "lagrange-symbolic 0.1.0, format 1"}"#).unwrap();
        assert!(matches!(read(&dir, &m), Err(StoreError::Stale(..))));
        fs::write(&path, "{").unwrap();
        assert!(matches!(read(&dir, &m), Err(StoreError::Unreadable(..))));
        fs::remove_dir_all(&dir).unwrap();
    }

    /// A scratch folder for one test.
    fn scratch(name: &str) -> PathBuf {
        let dir =
            std::env::temp_dir().join(format!("lagrange-store-{name}-{}", std::process::id()));
        let _ = fs::remove_dir_all(&dir);
        dir
    }

    /// Rewrites the entry at `path` through `edit`, then stores the matching content
    /// hash, as a forger who knows the format would: what is left to catch it is the
    /// validation of the programs.
    fn forge(path: &Path, edit: impl FnOnce(&mut Derived)) {
        let mut entry: Entry = serde_json::from_str(&fs::read_to_string(path).unwrap()).unwrap();
        edit(&mut entry.derived);
        entry.derived_hash = content_hash(&entry.derived);
        fs::write(path, serde_json::to_string(&entry).unwrap()).unwrap();
    }

    #[test]
    fn a_constant_edited_by_hand_is_detected() {
        let dir = scratch("edited");
        let m = model();
        let path = write(&dir, &m, &derived()).unwrap();
        let text = fs::read_to_string(&path).unwrap();
        assert!(text.contains("0.1,"), "{text}");
        fs::write(&path, text.replacen("0.1,", "0.2,", 1)).unwrap();
        let error = read(&dir, &m).unwrap_err();
        assert!(matches!(error, StoreError::Invalid(..)), "{error}");
        assert!(error.to_string().contains("content hash"), "{error}");
        fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn forged_programs_are_refused_with_the_program_named() {
        use crate::ir::{Instr, Slot};
        fn operands(input: usize) -> Vec<Slot> {
            vec![
                Slot::Const(0),
                Slot::Const(1),
                Slot::Const(2),
                Slot::Input(input),
            ]
        }
        let dir = scratch("forged");
        let m = model();
        let path = write(&dir, &m, &derived()).unwrap();
        type Edit = fn(&mut Derived);
        let cases: [(&str, Edit); 5] = [
            ("out-of-range Input(99)", |d| {
                d.full.programs.energy.instructions[0] = Instr::Mul(Slot::Out(0), operands(99));
            }),
            ("temporaries", |d| {
                d.full.programs.momenta.temporaries = 1_000_000_000_000
            }),
            ("outputs", |d| d.full.programs.dynamics.outputs = 1),
            ("inputs", |d| d.full.programs.lagrangian.inputs = 3),
            ("writes to", |d| {
                d.full.programs.energy.instructions[0] = Instr::Mul(Slot::Const(0), operands(1));
            }),
        ];
        for (needle, edit) in cases {
            write(&dir, &m, &derived()).unwrap();
            forge(&path, edit);
            let error = read(&dir, &m).unwrap_err();
            assert!(
                matches!(error, StoreError::Invalid(..)),
                "{needle}: {error}"
            );
            assert!(error.to_string().contains(needle), "{needle}: {error}");
            assert!(error.to_string().contains("program `"), "{needle}: {error}");
        }
        fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn a_forged_drawing_is_refused() {
        use crate::equations::{Drawing, DrawnPoint, PointKind};
        let dir = scratch("drawing");
        let m = model();
        let path = write(&dir, &m, &derived()).unwrap();
        let drawing = |links, outputs| {
            let mut program = derived().full.programs.energy;
            program.outputs = outputs;
            Drawing {
                points: vec![DrawnPoint {
                    name: "bob".into(),
                    kind: PointKind::Point,
                }],
                links,
                frames: vec![],
                program,
            }
        };
        // As written, the drawing reads back.
        forge(&path, |d| {
            d.full.drawing = Some(drawing(vec![(0, None)], 3))
        });
        assert!(read(&dir, &m).is_ok());
        for (links, outputs, needle) in [
            (vec![(0, Some(7))], 3, "a line or frame of no drawn point"),
            (vec![(3, None)], 3, "a line or frame of no drawn point"),
            (vec![], 2, "program `drawing`"),
        ] {
            write(&dir, &m, &derived()).unwrap();
            forge(&path, |d| d.full.drawing = Some(drawing(links, outputs)));
            let error = read(&dir, &m).unwrap_err().to_string();
            assert!(error.contains(needle), "{needle}: {error}");
        }
        fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn a_derivation_of_other_coordinates_or_parameters_is_refused() {
        let dir = scratch("other");
        let m = model();
        let path = write(&dir, &m, &derived()).unwrap();
        forge(&path, |d| d.full.parameters.push("extra".into()));
        let error = read(&dir, &m).unwrap_err();
        assert!(error.to_string().contains("not the model's"), "{error}");
        fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn hostile_names_never_reach_the_file_system() {
        let dir = scratch("names");
        let inner = dir.join("a/b");
        let derived = derived();
        let long = "x".repeat(300);
        let just_too_long = "x".repeat(crate::model::MAX_NAME_LEN + 1);
        for name in [
            "../../x/evil",
            "/tmp/evil",
            "/",
            "a/b",
            "a\\b",
            "",
            "9lives",
            "..",
            ".",
            "C:evil",
            "Pendule_é",
            "θ",
            "Маятник",
            "ｘ",
            "a\u{202E}nosj.exe",
            "\u{200F}x",
            "x\u{0301}",
            "a b",
            "a\0b",
            &long,
            &just_too_long,
        ] {
            let m = Model {
                name: name.into(),
                ..model()
            };
            assert_eq!(
                write(&inner, &m, &derived),
                Err(StoreError::Name(name.into())),
                "{name:?}"
            );
            assert_eq!(read(&inner, &m), Err(StoreError::Name(name.into())));
            assert!(entry_path(&inner, &m).is_err());
            let message = StoreError::Name(name.into()).to_string();
            let bidi = |c: char| matches!(c, '\u{200E}' | '\u{200F}' | '\u{202A}'..='\u{202E}');
            assert!(
                !message.chars().any(|c| c.is_control() || bidi(c)),
                "{message:?}"
            );
        }
        assert!(!dir.exists(), "nothing was written");
        // Windows device names (and every other name the rule accepts) get the hash after
        // them, so no entry's file is a device; the entry stays inside the folder.
        let devices = ["con", "prn", "aux", "nul", "com1", "lpt9"];
        for name in [
            "Door", "_private", "x9", "con", "CON", "Nul", "com1", "LPT9",
        ] {
            let m = Model {
                name: name.into(),
                ..model()
            };
            let path = write(&inner, &m, &derived).unwrap();
            assert_eq!(path.parent(), Some(inner.as_path()));
            let file = path.file_name().unwrap().to_str().unwrap();
            let stem = file.split('.').next().unwrap().to_ascii_lowercase();
            assert!(!devices.contains(&stem.as_str()), "{file}");
            assert_eq!(read(&inner, &m).unwrap(), derived);
        }
        fs::remove_dir_all(&dir).unwrap();
    }
}
