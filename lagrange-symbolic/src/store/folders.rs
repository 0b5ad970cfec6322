//! Where entries live: the offline folder checked in beside a crate, the user-wide cache
//! of the engine path, and the environment variables that steer both.

use std::path::{Path, PathBuf};

#[cfg(feature = "engine")]
use super::{read, write};
#[cfg(feature = "engine")]
use crate::equations::Derived;
#[cfg(feature = "engine")]
use crate::model::{Model, ModelError};

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
}
