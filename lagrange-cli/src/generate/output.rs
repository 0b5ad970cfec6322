//! Writing a generated solver to its folder: only into a new or empty folder (unless
//! `--force`), through a staging folder, never through a symbolic link, and with the
//! manifest last so that an interrupted run never leaves a folder that looks complete.
//! Missing parent folders are created, as `cargo new` does (and removed again if the
//! write fails), but only below the deepest folder of the path that exists: a `..` or a
//! file among the missing part is an error. Messages name the paths the user asked for,
//! never the staging folder.

use std::path::{Component, Path, PathBuf};

use crate::Failure;

/// The file that makes a generated folder usable (the crate's manifest, the C header):
/// written last, so that an interrupted run never leaves a folder that looks complete.
const MANIFESTS: &[&str] = &["Cargo.toml", "model.h"];

/// Refuses an output directory that exists and is not an empty directory (unless `force`),
/// that is a symbolic link, or that cannot be created (see [`missing_folders`]).
pub(super) fn check_destination(out: &Path, force: bool) -> Result<(), Failure> {
    let fail = |why: String| Failure(format!("cannot generate into `{}`: {why}", out.display()));
    match std::fs::symlink_metadata(out) {
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => missing_folders(out).map(|_| ()),
        // E.g. a file on the way: the folder cannot be created.
        Err(e) => Err(fail(format!("cannot create it: {e}"))),
        Ok(meta) if meta.is_file() => Err(fail("it is a file".into())),
        Ok(meta) if meta.file_type().is_symlink() => Err(fail(
            "it is a symbolic link; name the folder it points to".into(),
        )),
        Ok(_) if force => Ok(()),
        Ok(_) => {
            let mut entries = std::fs::read_dir(out).map_err(|e| fail(e.to_string()))?;
            match entries.next() {
                None => Ok(()),
                Some(_) => Err(fail(
                    "it is not empty; pass --force to replace the generated files in it".into(),
                )),
            }
        }
    }
}

/// Writes `files` (paths under `out`) into a fresh temporary folder beside `out`, then
/// renames it to `out` if that does not exist, or moves each file in, manifests last.
/// No write follows a symbolic link: the temporary folder is new, and a move replaces a
/// link at its destination instead of writing through it (a linked folder on the way is
/// an error).
pub(super) fn write_all(out: &Path, files: &[(&str, String)]) -> Result<(), Failure> {
    let created = create_parents(out)?;
    let parent = match out.parent() {
        Some(p) if !p.as_os_str().is_empty() => p.to_path_buf(),
        _ => PathBuf::from("."),
    };
    let stem = out
        .file_name()
        .map_or("out".into(), |n| n.to_string_lossy());
    let staging = parent.join(format!(".{stem}.lagrange-generate-{}", std::process::id()));
    let result = stage(&staging, out, files).and_then(|()| move_into(&staging, out, files));
    if staging.exists() {
        let _ = std::fs::remove_dir_all(&staging);
    }
    if result.is_err() {
        // Only folders this run created, deepest first, and only while empty.
        for folder in created.iter().rev() {
            let _ = std::fs::remove_dir(folder);
        }
    }
    result
}

/// The folders between the deepest existing ancestor of `out` and `out` itself, outermost
/// first (`out` excluded). An error when one of them cannot be created where it is
/// named: a `..` or `.` below a missing folder (it would climb out of what is created,
/// or name it twice), or an ancestor that exists but is not a folder.
fn missing_folders(out: &Path) -> Result<Vec<PathBuf>, Failure> {
    let fail = |why: String| Failure(format!("cannot generate into `{}`: {why}", out.display()));
    let mut missing = Vec::new();
    let mut ancestor = out.parent();
    while let Some(folder) = ancestor.filter(|p| !p.as_os_str().is_empty()) {
        match std::fs::metadata(folder) {
            Ok(meta) if meta.is_dir() => break,
            Ok(_) => {
                return Err(fail(format!("`{}` is not a folder", folder.display())));
            }
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
                if std::fs::symlink_metadata(folder).is_ok() {
                    return Err(fail(format!(
                        "`{}` is a symbolic link that points nowhere",
                        folder.display()
                    )));
                }
                if !matches!(folder.components().next_back(), Some(Component::Normal(_))) {
                    return Err(fail(format!(
                        "`{}` does not exist, and a path that climbs out of a folder to create is not followed",
                        folder.display()
                    )));
                }
                missing.push(folder.to_path_buf());
            }
            Err(e) => return Err(fail(format!("`{}`: {e}", folder.display()))),
        }
        ancestor = folder.parent();
    }
    if !missing.is_empty()
        && out
            .components()
            .next_back()
            .is_some_and(|c| !matches!(c, Component::Normal(_)))
    {
        return Err(fail(
            "it does not exist and ends in `..` or `.`; name the folder to create".into(),
        ));
    }
    missing.reverse();
    Ok(missing)
}

/// Creates the missing parent folders of `out` (see [`missing_folders`]), one by one;
/// returns those created.
fn create_parents(out: &Path) -> Result<Vec<PathBuf>, Failure> {
    let mut created = Vec::new();
    for folder in missing_folders(out)? {
        if let Err(e) = std::fs::create_dir(&folder) {
            for folder in created.iter().rev() {
                let _ = std::fs::remove_dir(folder);
            }
            return Err(Failure(format!(
                "cannot generate into `{}`: cannot create `{}`: {e}",
                out.display(),
                folder.display()
            )));
        }
        created.push(folder);
    }
    Ok(created)
}

/// Creates `staging` (which must not exist) and writes every file into it; errors name
/// each file at its place under `out`.
fn stage(staging: &Path, out: &Path, files: &[(&str, String)]) -> Result<(), Failure> {
    let io = |output: &str, e: std::io::Error| {
        Failure(format!(
            "cannot write `{}`: {e}",
            out.join(output).display()
        ))
    };
    std::fs::create_dir(staging).map_err(|e| {
        Failure(format!(
            "cannot generate into `{}`: cannot write beside it: {e}",
            out.display()
        ))
    })?;
    for (output, text) in files {
        let path = staging.join(output);
        if let Some(folder) = path.parent() {
            std::fs::create_dir_all(folder).map_err(|e| io(output, e))?;
        }
        let mut file = std::fs::OpenOptions::new()
            .write(true)
            .create_new(true)
            .open(&path)
            .map_err(|e| io(output, e))?;
        std::io::Write::write_all(&mut file, text.as_bytes()).map_err(|e| io(output, e))?;
    }
    Ok(())
}

/// Moves the staged files into `out`: the whole folder when `out` does not exist, else
/// file by file with the manifests last.
fn move_into(staging: &Path, out: &Path, files: &[(&str, String)]) -> Result<(), Failure> {
    let io =
        |path: &Path, e: std::io::Error| Failure(format!("cannot write `{}`: {e}", path.display()));
    if std::fs::symlink_metadata(out).is_err() {
        return std::fs::rename(staging, out).map_err(|e| io(out, e));
    }
    let mut order: Vec<&str> = files.iter().map(|(output, _)| *output).collect();
    order.sort_by_key(|output| MANIFESTS.contains(output));
    for output in order {
        let destination = out.join(output);
        // Every folder between `out` and the file must be a real folder, not a link.
        let mut folder = out.to_path_buf();
        for part in Path::new(output)
            .parent()
            .into_iter()
            .flat_map(Path::components)
        {
            folder.push(part);
            match std::fs::symlink_metadata(&folder) {
                Ok(meta) if meta.file_type().is_symlink() || !meta.is_dir() => {
                    return Err(Failure(format!(
                        "cannot write `{}`: `{}` is not a folder (a symbolic link or a file); remove it first",
                        destination.display(),
                        folder.display()
                    )));
                }
                Ok(_) => {}
                Err(_) => std::fs::create_dir(&folder).map_err(|e| io(&folder, e))?,
            }
        }
        if std::fs::symlink_metadata(&destination).is_ok_and(|m| m.is_dir()) {
            return Err(io(
                &destination,
                std::io::Error::other("a folder of that name is in the way"),
            ));
        }
        std::fs::rename(staging.join(output), &destination).map_err(|e| io(&destination, e))?;
    }
    Ok(())
}
