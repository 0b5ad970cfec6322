//! Derivations kept as files, so that an expansion need not run the engine: the offline
//! folder checked in with a crate ([`OFFLINE_DIR`], written by `lagrange prepare`, read
//! when the engine is off) and the user-wide cache of the engine path. This module owns
//! the folder's name, the environment variables that steer both, and the entry format.
//!
//! An entry is one JSON file named `<Model>-<hash>.json`, where the hash is taken over the
//! model as written and the model's name must be a plain identifier (so no name reaches
//! outside the folder). The entry repeats the model, the engine version and a content
//! hash of the derivation; [`read`] uses it only when all three match and every program
//! in it passes [`Program::validate`] with the counts its role requires, so a damaged or
//! edited entry is an error (or, in the cache, a new derivation), never a panic or
//! silently different numbers.

use std::fmt;
use std::fs;
use std::io;
use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};

use crate::equations::{Derived, Equations};
use crate::ir::Program;
use crate::model::Model;
#[cfg(feature = "engine")]
use crate::model::ModelError;

/// The version of the engine and of the entry format; an entry written by another
/// version is stale.
pub const ENGINE_VERSION: &str = concat!(
    "lagrange-symbolic ",
    env!("CARGO_PKG_VERSION"),
    ", format 10"
);

/// The offline folder, beside a crate's manifest.
pub const OFFLINE_DIR: &str = ".lagrange";

/// `1` or `true`: expand from the offline folder even when the engine is available.
pub const ENV_OFFLINE: &str = "LAGRANGE_OFFLINE";
/// Set by `lagrange prepare`: the staging folder each expansion writes its entry to.
pub const ENV_PREPARE: &str = "LAGRANGE_PREPARE";
/// Set by `lagrange prepare`: the crate being prepared (its dependencies do not stage).
pub const ENV_PREPARE_CRATE: &str = "LAGRANGE_PREPARE_CRATE";
/// Set by `lagrange prepare`: a fresh value per run, so that cargo re-expands.
pub const ENV_PREPARE_RUN: &str = "LAGRANGE_PREPARE_RUN";
/// `0` or `off`: no user-wide cache.
pub const ENV_CACHE: &str = "LAGRANGE_CACHE";
/// The user-wide cache's folder (default: under `$XDG_CACHE_HOME` or `$HOME/.cache`).
pub const ENV_CACHE_DIR: &str = "LAGRANGE_CACHE_DIR";
/// The variables an expansion depends on, which the derive tells cargo to track.
pub const EXPANSION_ENV: [&str; 4] = [ENV_OFFLINE, ENV_PREPARE, ENV_PREPARE_CRATE, ENV_PREPARE_RUN];

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
    /// The model's name is not a plain identifier, so it names no entry.
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
            StoreError::Name(name) => write!(
                f,
                "the model name {name:?} is not a plain identifier (letters, digits and `_`, not starting with a digit), so it cannot name a stored derivation"
            ),
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

/// Whether `name` is a plain identifier: a letter or `_`, then letters, digits or `_`.
/// Only such a name is used in a path, so none can leave the folder.
fn is_plain_identifier(name: &str) -> bool {
    let mut chars = name.chars();
    chars.next().is_some_and(|c| c.is_alphabetic() || c == '_')
        && chars.all(|c| c.is_alphanumeric() || c == '_')
}

/// The path of the model's entry in `dir`; an error for a name that is not a plain
/// identifier.
pub fn entry_path(dir: &Path, model: &Model) -> Result<PathBuf, StoreError> {
    if !is_plain_identifier(&model.name) {
        return Err(StoreError::Name(model.name.clone()));
    }
    Ok(dir.join(format!("{}-{}.json", model.name, model_hash(model))))
}

/// The offline folder of the crate whose manifest is in `crate_dir`.
pub fn offline_dir(crate_dir: &Path) -> PathBuf {
    crate_dir.join(OFFLINE_DIR)
}

/// Whether [`ENV_OFFLINE`] asks for offline expansion.
pub fn offline_requested() -> bool {
    std::env::var(ENV_OFFLINE).is_ok_and(|v| v == "1" || v == "true")
}

/// Under `lagrange prepare`: the staging folder and the crate being prepared.
pub fn prepare_staging() -> Option<(PathBuf, PathBuf)> {
    let staging = std::env::var_os(ENV_PREPARE).filter(|d| !d.is_empty())?;
    let prepared = std::env::var_os(ENV_PREPARE_CRATE)?;
    Some((PathBuf::from(staging), PathBuf::from(prepared)))
}

/// Reads the model's entry from `dir`, checked as the module documentation describes.
pub fn read(dir: &Path, model: &Model) -> Result<Derived, StoreError> {
    let path = entry_path(dir, model)?;
    let text = match fs::read_to_string(&path) {
        Ok(text) => text,
        Err(e) if e.kind() == io::ErrorKind::NotFound => return Err(StoreError::Missing(path)),
        Err(e) => return Err(StoreError::Unreadable(path, e.to_string())),
    };
    let entry: Entry = serde_json::from_str(&text)
        .map_err(|e| StoreError::Unreadable(path.clone(), e.to_string()))?;
    if entry.engine != ENGINE_VERSION {
        let why = format!("written by {}, this is {ENGINE_VERSION}", entry.engine);
        return Err(StoreError::Stale(path, why));
    }
    if entry.model != *model {
        let why = "it was derived from a different model".to_string();
        return Err(StoreError::Stale(path, why));
    }
    let hash = content_hash(&entry.derived);
    if entry.derived_hash != hash {
        let why = format!(
            "its content hash is {hash}, the entry records {}",
            entry.derived_hash
        );
        return Err(StoreError::Invalid(path, why));
    }
    validate(&entry.derived, model).map_err(|why| StoreError::Invalid(path, why))?;
    Ok(entry.derived)
}

/// Checks a derivation of `model`: its coordinates and parameters are the model's (the
/// reduced system's parameters followed by one momentum per ignored coordinate), every
/// program has the counts its role requires (see [`Equations`]), and the index lists fit
/// the coordinates.
fn validate(derived: &Derived, model: &Model) -> Result<(), String> {
    let full = &derived.full;
    if full.coordinates != model.coordinates || full.parameters != model.parameters {
        return Err("its coordinates or parameters are not the model's".into());
    }
    validate_equations(full, "")?;
    let Some(reduced) = &derived.reduced else {
        return Ok(());
    };
    if reduced.equations.parameters.len() != model.parameters.len() + reduced.ignored.len() {
        return Err("the reduced system's parameters do not fit the model".into());
    }
    validate_equations(&reduced.equations, "reduced ")?;
    let inputs = reduced.equations.inputs().len();
    let k = reduced.ignored.len();
    program(
        "reduced ignored_velocities",
        &reduced.ignored_velocities,
        inputs,
        k,
    )?;
    let n = derived.full.coordinates.len();
    let indices = reduced.retained.iter().chain(&reduced.ignored_indices);
    if reduced.ignored_indices.len() != k
        || reduced.retained.len() != reduced.equations.coordinates.len()
        || indices.clone().any(|&i| i >= n)
    {
        return Err("the reduced system's coordinate indices do not fit the model".into());
    }
    Ok(())
}

fn validate_equations(eq: &Equations, role: &str) -> Result<(), String> {
    let n = eq.coordinates.len();
    let inputs = eq.inputs().len();
    let p = &eq.programs;
    for (name, prog, outputs) in [
        ("dynamics", &p.dynamics, n * n + n),
        ("lagrangian", &p.lagrangian, 1),
        ("energy", &p.energy, 1),
        ("jacobi_integral", &p.jacobi_integral, 1),
        ("momenta", &p.momenta, n),
        ("momentum_rate", &p.momentum_rate, n),
        ("momentum_jacobian", &p.momentum_jacobian, n * n),
        ("lagrangian_hessian", &p.lagrangian_hessian, n * n),
    ] {
        program(&format!("{role}{name}"), prog, inputs, outputs)?;
    }
    let m = eq.parameters.len();
    if eq.inputs.iter().any(|&i| i >= m) {
        return Err(format!(
            "the {role}equations' inputs are not among their {m} parameters"
        ));
    }
    program(
        &format!("{role}residual_jacobians"),
        &p.residual_jacobians,
        eq.inputs().with_accelerations(0),
        2 * n * n + n * m,
    )?;
    if let Some(w) = &eq.joint_wrenches {
        program(
            &format!("{role}joint_wrenches"),
            &w.program,
            eq.inputs().with_accelerations(0),
            6 * w.bodies.len(),
        )?;
    }
    if let Some(t) = &eq.theorems {
        program(
            &format!("{role}dynamic_functions"),
            &t.dynamic_functions,
            inputs,
            9,
        )?;
        let theorems: Vec<_> = t.laws.iter().map(|law| law.theorem).collect();
        if theorems != crate::equations::Theorem::ALL {
            return Err(format!("{role}theorems: not the nine theorems in order"));
        }
        let holds = |law: &crate::equations::Law| {
            matches!(law.premise, crate::equations::Premise::Holds { .. })
        };
        if t.laws.iter().any(|law| law.integral && !holds(law)) {
            return Err(format!(
                "{role}theorems: an integral whose premise does not hold"
            ));
        }
        let holding = t.laws.iter().filter(|law| holds(law)).count();
        program(
            &format!("{role}balance"),
            &t.balance,
            eq.inputs().with_accelerations(0),
            2 * holding,
        )?;
    }
    if let Some(d) = &eq.drawing {
        program(
            &format!("{role}drawing"),
            &d.program,
            inputs,
            3 * d.points.len() + 9 * d.frames.len(),
        )?;
        let points = d.points.len();
        let inside = |i: usize| i < points;
        if !d.frames.iter().all(|&i| inside(i))
            || !d
                .links
                .iter()
                .all(|&(a, b)| inside(a) && b.is_none_or(inside))
        {
            return Err(format!("{role}drawing: a line or frame of no drawn point"));
        }
    }
    if let Some(c) = &eq.constraints {
        let k = c.text.len();
        program(
            &format!("{role}constraint jacobians"),
            &c.jacobians,
            eq.inputs().with_accelerations(k),
            2 * k * n + k * m + n * n + n * m,
        )?;
        if c.scleronomic.len() != k {
            return Err(format!(
                "{role}constraints: {k} constraints, {} flags",
                c.scleronomic.len()
            ));
        }
        for (name, prog, outputs) in [
            ("values", &c.values, k),
            ("jacobian", &c.jacobian, k * n),
            ("time_derivative", &c.time_derivative, k),
            ("velocities", &c.velocities, k),
            ("dynamics", &c.dynamics, k * n + k),
        ] {
            program(&format!("{role}constraint {name}"), prog, inputs, outputs)?;
        }
    }
    let misshapen_print = eq.symbolic.as_ref().is_some_and(|s| {
        s.mass_matrix.len() != n
            || s.mass_matrix.iter().any(|row| row.len() != n)
            || s.forcing.len() != n
            || s.momenta.len() != n
            || s.linearization.as_ref().is_some_and(|l| {
                let misshapen = |rows: &[Vec<crate::syntax::Expr>], width: usize| {
                    rows.len() != n || rows.iter().any(|r| r.len() != width)
                };
                misshapen(&l.coordinates, n)
                    || misshapen(&l.velocities, n)
                    || misshapen(&l.inputs, eq.inputs.len())
            })
    });
    if eq.cyclic.iter().any(|&i| i >= n) || misshapen_print {
        return Err(format!(
            "the {role}equations' sizes do not match their {n} coordinates"
        ));
    }
    Ok(())
}

fn program(name: &str, program: &Program, inputs: usize, outputs: usize) -> Result<(), String> {
    program
        .validate(inputs, outputs)
        .map_err(|e| format!("program `{name}`: {e}"))
}

/// Writes the model's entry to `dir` (created if needed), atomically: a concurrent reader
/// sees the old file or the new one, never a part.
pub fn write(dir: &Path, model: &Model, derived: &Derived) -> Result<PathBuf, StoreError> {
    let path = entry_path(dir, model)?;
    let entry = Entry {
        engine: ENGINE_VERSION.to_string(),
        model: model.clone(),
        derived_hash: content_hash(derived),
        derived: derived.clone(),
    };
    let failed = |e: &dyn fmt::Display| StoreError::Unwritable(path.clone(), e.to_string());
    let mut text = serde_json::to_string_pretty(&entry).map_err(|e| failed(&e))?;
    text.push('\n');
    let partial = path.with_extension(format!("json.{}.partial", std::process::id()));
    fs::create_dir_all(dir).map_err(|e| failed(&e))?;
    fs::write(&partial, text).map_err(|e| failed(&e))?;
    fs::rename(&partial, &path).map_err(|e| failed(&e))?;
    Ok(path)
}

/// The user-wide cache of derivations for this build of the engine:
/// `$LAGRANGE_CACHE_DIR`, else `$XDG_CACHE_HOME/lagrange`, else `$HOME/.cache/lagrange`,
/// each followed by [`cache_subdir`]. `None` when `LAGRANGE_CACHE` is `0` or `off`, or
/// when no home directory is known.
pub fn cache_dir() -> Option<PathBuf> {
    let var = |name| std::env::var_os(name).filter(|v| !v.is_empty());
    if var(ENV_CACHE).is_some_and(|v| v == "0" || v == "off") {
        return None;
    }
    let base = var(ENV_CACHE_DIR)
        .map(PathBuf::from)
        .or_else(|| var("XDG_CACHE_HOME").map(|d| PathBuf::from(d).join("lagrange")))
        .or_else(|| var("HOME").map(|d| PathBuf::from(d).join(".cache").join("lagrange")))?;
    Some(base.join(cache_subdir()))
}

/// The cache's folder for this build of the engine: the version and a fingerprint of the
/// engine's sources (taken by its build script), e.g. `0.1.0-3f9a…`. Builds of one version
/// from different sources (a git or path dependency, a local change) derive with different
/// code, so they never serve each other's entries.
pub fn cache_subdir() -> String {
    format!(
        "{}-{}",
        env!("CARGO_PKG_VERSION"),
        env!("LAGRANGE_ENGINE_SOURCES")
    )
}

/// Derives the model's equations, reusing the entry in `cache` when there is a current,
/// valid one and storing the result there otherwise (overwriting a stale or damaged
/// entry). The cache is best effort: a failure to read or write it costs a derivation,
/// never a result.
#[cfg(feature = "engine")]
pub fn derive_cached(model: &Model, cache: Option<&Path>) -> Result<Derived, Vec<ModelError>> {
    // Checked first: an entry serves only a model that today's checks accept (one stored
    // by an older engine may hold equations derived from an undefined `0^0`), and only a
    // checked name is a safe file name.
    model.check()?;
    if let Some(derived) = cache.and_then(|dir| read(dir, model).ok()) {
        return Ok(derived);
    }
    let derived = crate::derive(model)?;
    if let Some(dir) = cache {
        let _ = write(dir, model, &derived);
    }
    Ok(derived)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::Body;
    use crate::model::{Axis, Rotation};

    #[test]
    fn the_cache_folder_names_the_version_and_the_sources() {
        let subdir = cache_subdir();
        let (version, fingerprint) = subdir.split_once('-').unwrap();
        assert_eq!(version, env!("CARGO_PKG_VERSION"));
        assert_eq!(fingerprint.len(), 16, "{subdir}");
        assert!(
            fingerprint.bytes().all(|b| b.is_ascii_hexdigit()),
            "{subdir}"
        );
    }

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

        let text = fs::read_to_string(&path).unwrap();
        fs::write(
            &path,
            text.replace(ENGINE_VERSION, "lagrange-symbolic 0.0.0"),
        )
        .unwrap();
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
    fn names_that_are_not_identifiers_never_reach_the_file_system() {
        let dir = scratch("names");
        let inner = dir.join("a/b");
        let derived = derived();
        for name in [
            "../../x/evil",
            "/tmp/evil",
            "a/b",
            "a\\b",
            "",
            "9lives",
            "..",
            "C:evil",
        ] {
            let m = Model {
                name: name.into(),
                ..model()
            };
            assert_eq!(
                write(&inner, &m, &derived),
                Err(StoreError::Name(name.into()))
            );
            assert_eq!(read(&inner, &m), Err(StoreError::Name(name.into())));
            assert!(entry_path(&inner, &m).is_err());
        }
        assert!(!dir.exists(), "nothing was written");
        for name in ["Door", "_private", "Pendule_é", "x9"] {
            assert!(is_plain_identifier(name), "{name}");
        }
    }
}
