//! `lagrange prepare`: stores the derivation of every `#[derive(Lagrangian)]` model of a
//! crate in its offline folder ([`store::OFFLINE_DIR`], `.lagrange/`), so that builds with the engine off (the `engine`
//! feature of `lagrange` disabled, or `LAGRANGE_OFFLINE=1`) expand without symbolica.
//!
//! It runs `cargo check --all-targets` on the crate with the engine enabled and with
//! `LAGRANGE_PREPARE` naming a staging folder: each expansion of the crate's derives
//! writes its entry there. Only when the check succeeds does the staged set replace the
//! contents of `.lagrange/`, so a failed run loses nothing.

use std::collections::BTreeMap;
use std::fs;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::{SystemTime, UNIX_EPOCH};

use lagrange_symbolic::store;

use super::Failure;

/// Arguments of `lagrange prepare`.
#[derive(clap::Args)]
pub(crate) struct Args {
    /// The crate's manifest.
    #[arg(long, default_value = "Cargo.toml")]
    manifest_path: PathBuf,
    /// Do not write: exit non-zero unless `.lagrange/` already holds exactly what would be
    /// written (for CI).
    #[arg(long)]
    check: bool,
    /// Extra arguments for `cargo check` (after `--`).
    #[arg(last = true)]
    cargo_args: Vec<String>,
}

/// Runs `lagrange prepare`.
pub(crate) fn run(args: &Args) -> Result<(), Failure> {
    let manifest = args.manifest_path.canonicalize().map_err(|e| {
        Failure(format!(
            "cannot find the manifest `{}`: {e}",
            args.manifest_path.display()
        ))
    })?;
    let crate_dir = manifest
        .parent()
        .ok_or_else(|| Failure(format!("`{}` has no parent folder", manifest.display())))?
        .to_path_buf();
    let offline_dir = store::offline_dir(&crate_dir);
    let run_id = SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map(|d| d.as_nanos())
        .unwrap_or_default();
    let staging =
        std::env::temp_dir().join(format!("lagrange-prepare-{}-{run_id}", std::process::id()));
    fs::create_dir_all(&staging)
        .map_err(|e| Failure(format!("cannot create `{}`: {e}", staging.display())))?;
    let result =
        stage(&manifest, &crate_dir, &staging, run_id, &args.cargo_args).and_then(|staged| {
            if args.check {
                compare(&offline_dir, &staged)
            } else {
                replace(&offline_dir, &staged)
            }
        });
    let _ = fs::remove_dir_all(&staging);
    result
}

/// Runs the check with the engine on and returns the staged entries by file name.
fn stage(
    manifest: &Path,
    crate_dir: &Path,
    staging: &Path,
    run_id: u128,
    extra: &[String],
) -> Result<BTreeMap<String, Vec<u8>>, Failure> {
    let cargo = std::env::var_os("CARGO").unwrap_or_else(|| "cargo".into());
    let mut command = Command::new(cargo);
    command
        .arg("check")
        .arg("--all-targets")
        .arg("--manifest-path")
        .arg(manifest);
    if depends_on_lagrange(manifest)? {
        command.arg("--features").arg("lagrange/engine");
    }
    command
        .args(extra)
        .env(store::ENV_PREPARE, staging)
        .env(store::ENV_PREPARE_CRATE, crate_dir)
        .env(store::ENV_PREPARE_RUN, run_id.to_string())
        .env_remove(store::ENV_OFFLINE);
    eprintln!(
        "lagrange prepare: cargo check --all-targets on `{}` with the engine on",
        manifest.display()
    );
    let status = command
        .status()
        .map_err(|e| Failure(format!("cannot run cargo: {e}")))?;
    if !status.success() {
        return Err(Failure(format!(
            "`cargo check` failed on `{}` ({status}); `.lagrange/` is unchanged",
            manifest.display()
        )));
    }
    let staged = read_entries(staging)?;
    if staged.is_empty() {
        return Err(Failure(format!(
            "no #[derive(Lagrangian)] of `{}` was expanded; nothing to prepare",
            manifest.display()
        )));
    }
    Ok(staged)
}

/// Whether the manifest names `lagrange` among its dependencies (then its `engine`
/// feature can be switched on from the command line).
fn depends_on_lagrange(manifest: &Path) -> Result<bool, Failure> {
    let text = fs::read_to_string(manifest)
        .map_err(|e| Failure(format!("cannot read `{}`: {e}", manifest.display())))?;
    let table: toml::Table = toml::from_str(&text)
        .map_err(|e| Failure(format!("`{}`: {}", manifest.display(), e.message())))?;
    Ok(["dependencies", "dev-dependencies", "build-dependencies"]
        .iter()
        .any(|section| {
            table
                .get(*section)
                .and_then(|d| d.as_table())
                .is_some_and(|d| d.contains_key("lagrange"))
        }))
}

/// The `*.json` entries of a folder by file name (empty if the folder does not exist).
fn read_entries(dir: &Path) -> Result<BTreeMap<String, Vec<u8>>, Failure> {
    let mut entries = BTreeMap::new();
    let Ok(listing) = fs::read_dir(dir) else {
        return Ok(entries);
    };
    for entry in listing.flatten() {
        let path = entry.path();
        if path.extension().is_some_and(|e| e == "json") {
            let bytes = fs::read(&path)
                .map_err(|e| Failure(format!("cannot read `{}`: {e}", path.display())))?;
            entries.insert(entry.file_name().to_string_lossy().into_owned(), bytes);
        }
    }
    Ok(entries)
}

/// Makes `dir` hold exactly the staged entries.
fn replace(dir: &Path, staged: &BTreeMap<String, Vec<u8>>) -> Result<(), Failure> {
    let io = |path: &Path, e: std::io::Error| Failure(format!("`{}`: {e}", path.display()));
    fs::create_dir_all(dir).map_err(|e| io(dir, e))?;
    for name in read_entries(dir)?.keys() {
        if !staged.contains_key(name) {
            let path = dir.join(name);
            fs::remove_file(&path).map_err(|e| io(&path, e))?;
            outln!("removed {}", path.display());
        }
    }
    for (name, bytes) in staged {
        let path = dir.join(name);
        fs::write(&path, bytes).map_err(|e| io(&path, e))?;
        outln!("wrote {}", path.display());
    }
    Ok(())
}

/// An error unless `dir` holds exactly the staged entries.
fn compare(dir: &Path, staged: &BTreeMap<String, Vec<u8>>) -> Result<(), Failure> {
    let current = read_entries(dir)?;
    let mut problems = Vec::new();
    for (name, bytes) in staged {
        match current.get(name) {
            None => problems.push(format!("missing: {name}")),
            Some(old) if old != bytes => problems.push(format!("differs: {name}")),
            Some(_) => {}
        }
    }
    for name in current.keys().filter(|n| !staged.contains_key(*n)) {
        problems.push(format!("not used by any model: {name}"));
    }
    if problems.is_empty() {
        outln!("{} is up to date ({} entries)", dir.display(), staged.len());
        Ok(())
    } else {
        Err(Failure(format!(
            "{} is out of date; run `lagrange prepare`:\n  {}",
            dir.display(),
            problems.join("\n  ")
        )))
    }
}
