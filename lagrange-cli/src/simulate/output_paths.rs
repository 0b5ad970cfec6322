//! The checks on a run's output files before any work: none overwrites the model file or
//! another output, and each can be written.

use std::path::{Path, PathBuf};

use crate::Failure;

/// Refuses an output that would overwrite the model file or another output of the run.
pub(super) fn check_distinct(model: &Path, outputs: &[&PathBuf]) -> Result<(), Failure> {
    // The file a path names: the path resolved where it exists, else its resolved folder
    // and its name.
    let resolved = |p: &Path| {
        std::fs::canonicalize(p).unwrap_or_else(|_| {
            let folder = match p.parent() {
                Some(f) if !f.as_os_str().is_empty() => f,
                _ => Path::new("."),
            };
            std::fs::canonicalize(folder)
                .unwrap_or_else(|_| folder.to_path_buf())
                .join(p.file_name().unwrap_or_default())
        })
    };
    let model = resolved(model);
    let mut seen: Vec<PathBuf> = Vec::new();
    for output in outputs {
        let file = resolved(output);
        if file == model {
            return Err(Failure(format!(
                "cannot write `{}`: it is the model file",
                output.display()
            )));
        }
        if seen.contains(&file) {
            return Err(Failure(format!(
                "cannot write `{}` twice: give each output its own file",
                output.display()
            )));
        }
        seen.push(file);
    }
    Ok(())
}

/// Checks, before any work, that an output file can be written: its folder exists and
/// takes new files, and the file itself, if it exists, is a writable file. Nothing is
/// created or truncated.
pub(super) fn check_writable(path: &Path) -> Result<(), Failure> {
    let fail = |why: String| Failure(format!("cannot write `{}`: {why}", path.display()));
    let folder = match path.parent() {
        Some(p) if !p.as_os_str().is_empty() => p,
        _ => Path::new("."),
    };
    if !folder.is_dir() {
        return Err(fail(format!(
            "the folder `{}` does not exist",
            folder.display()
        )));
    }
    if path.is_dir() {
        return Err(fail("it is a folder".into()));
    }
    if path.exists() {
        std::fs::OpenOptions::new()
            .append(true)
            .open(path)
            .map_err(|e| fail(e.to_string()))?;
        return Ok(());
    }
    let probe = folder.join(format!(".lagrange-write-test-{}", std::process::id()));
    std::fs::OpenOptions::new()
        .write(true)
        .create_new(true)
        .open(&probe)
        .map_err(|e| {
            fail(format!(
                "the folder `{}` is not writable: {e}",
                folder.display()
            ))
        })?;
    let _ = std::fs::remove_file(&probe);
    Ok(())
}
