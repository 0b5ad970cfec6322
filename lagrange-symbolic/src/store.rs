//! Derivations kept as files, so that an expansion need not run the engine: the offline
//! folder checked in with a crate (`.lagrange/`, written by `lagrange prepare`, read when
//! the engine is off) and the user-wide cache of the engine path.
//!
//! An entry is one JSON file named `<Model>-<hash>.json`, where the hash is taken over the
//! model as written; the entry repeats the model and the engine version, and is used only
//! when both match exactly.

use std::fmt;
use std::fs;
use std::io;
use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};

use crate::equations::Derived;
use crate::model::Model;
#[cfg(feature = "engine")]
use crate::model::ModelError;

/// The version of the engine and of the entry format; an entry written by another
/// version is stale.
pub const ENGINE_VERSION: &str = concat!(
    "lagrange-symbolic ",
    env!("CARGO_PKG_VERSION"),
    ", format 2"
);

/// One stored derivation.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Entry {
    /// [`ENGINE_VERSION`] of the engine that derived it.
    pub engine: String,
    /// The model it was derived from.
    pub model: Model,
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
        }
    }
}

/// A 64-bit FNV-1a hash of the model as written, as 16 hex digits.
pub fn model_hash(model: &Model) -> String {
    let text = serde_json::to_string(model).expect("a model always serializes");
    let mut hash: u64 = 0xcbf2_9ce4_8422_2325;
    for byte in text.bytes() {
        hash ^= u64::from(byte);
        hash = hash.wrapping_mul(0x0100_0000_01b3);
    }
    format!("{hash:016x}")
}

/// The path of the model's entry in `dir`.
pub fn entry_path(dir: &Path, model: &Model) -> PathBuf {
    dir.join(format!("{}-{}.json", model.name, model_hash(model)))
}

/// Reads the model's entry from `dir`.
pub fn read(dir: &Path, model: &Model) -> Result<Derived, StoreError> {
    let path = entry_path(dir, model);
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
    Ok(entry.derived)
}

/// Writes the model's entry to `dir` (created if needed), atomically: a concurrent reader
/// sees the old file or the new one, never a part.
pub fn write(dir: &Path, model: &Model, derived: &Derived) -> io::Result<PathBuf> {
    fs::create_dir_all(dir)?;
    let path = entry_path(dir, model);
    let entry = Entry {
        engine: ENGINE_VERSION.to_string(),
        model: model.clone(),
        derived: derived.clone(),
    };
    let mut text = serde_json::to_string_pretty(&entry).map_err(io::Error::other)?;
    text.push('\n');
    let partial = path.with_extension(format!("json.{}.partial", std::process::id()));
    fs::write(&partial, text)?;
    fs::rename(&partial, &path)?;
    Ok(path)
}

/// The user-wide cache of derivations for this engine version:
/// `$LAGRANGE_CACHE_DIR`, else `$XDG_CACHE_HOME/lagrange`, else `$HOME/.cache/lagrange`,
/// each followed by the engine version. `None` when `LAGRANGE_CACHE` is `0` or `off`, or
/// when no home directory is known.
pub fn cache_dir() -> Option<PathBuf> {
    let var = |name| std::env::var_os(name).filter(|v| !v.is_empty());
    if var("LAGRANGE_CACHE").is_some_and(|v| v == "0" || v == "off") {
        return None;
    }
    let base = var("LAGRANGE_CACHE_DIR")
        .map(PathBuf::from)
        .or_else(|| var("XDG_CACHE_HOME").map(|d| PathBuf::from(d).join("lagrange")))
        .or_else(|| var("HOME").map(|d| PathBuf::from(d).join(".cache").join("lagrange")))?;
    Some(base.join(env!("CARGO_PKG_VERSION")))
}

/// Derives the model's equations, reusing the entry in `cache` when there is a current
/// one and storing the result there otherwise. The cache is best effort: a failure to
/// read or write it costs a derivation, never a result.
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
                rotation: Rotation::About(Axis::Z, "theta".into()),
                position: vec!["a*cos(theta)".into(), "a*sin(theta)".into(), "0".into()],
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

    /// A small derivation by hand (the store does not look inside it).
    fn derived() -> Derived {
        use crate::equations::{Conserved, Equations, Programs, Symbolic};
        use crate::ir::Program;
        use crate::syntax::Expr;
        let program = Program {
            constants: vec![0.1, std::f64::consts::PI, 1e-300],
            ..Program::default()
        };
        let zero = Expr::Name("m".into());
        Derived {
            full: Equations {
                name: "Door".into(),
                coordinates: vec!["theta".into()],
                parameters: vec!["m".into(), "a".into()],
                from_kinetic_potential: true,
                conservative: false,
                explicit_time: false,
                cyclic: vec![],
                conserved: Conserved::None,
                programs: Programs {
                    dynamics: program.clone(),
                    lagrangian: program.clone(),
                    energy: program.clone(),
                    jacobi_integral: program.clone(),
                    momenta: program.clone(),
                    momentum_rate: program.clone(),
                    momentum_jacobian: program.clone(),
                    lagrangian_hessian: program,
                },
                constraints: None,
                symbolic: Symbolic {
                    lagrangian: zero.clone(),
                    mass_matrix: vec![vec![zero.clone()]],
                    forcing: vec![zero.clone()],
                    momenta: vec![zero.clone()],
                    energy: zero.clone(),
                    jacobi_integral: zero,
                    velocity_split: None,
                },
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
}
