//! Writing a generated solver to its folder: only into a new or empty folder (unless
//! `--force`), through a staging folder, never through a symbolic link, and with the
//! manifest last so that an interrupted run never leaves a folder that looks complete.

use std::path::{Path, PathBuf};

use crate::Failure;

/// The file that makes a generated folder usable (the crate's manifest, the C header):
/// written last, so that an interrupted run never leaves a folder that looks complete.
const MANIFESTS: &[&str] = &["Cargo.toml", "model.h"];

/// Refuses an output directory that exists and is not an empty directory, unless `force`.
pub(super) fn check_destination(out: &Path, force: bool) -> Result<(), Failure> {
    let fail = |why: String| Failure(format!("cannot generate into `{}`: {why}", out.display()));
    match std::fs::symlink_metadata(out) {
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(()),
        // E.g. a file on the way: the folder cannot be created.
        Err(e) => Err(fail(format!("cannot create it: {e}"))),
        Ok(meta) if meta.is_file() => Err(fail("it is a file".into())),
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
    let parent = match out.parent() {
        Some(p) if !p.as_os_str().is_empty() => p.to_path_buf(),
        _ => PathBuf::from("."),
    };
    let stem = out
        .file_name()
        .map_or("out".into(), |n| n.to_string_lossy());
    let staging = parent.join(format!(".{stem}.lagrange-generate-{}", std::process::id()));
    let result = stage(&staging, files).and_then(|()| move_into(&staging, out, files));
    if staging.exists() {
        let _ = std::fs::remove_dir_all(&staging);
    }
    result
}

/// Creates `staging` (which must not exist) and writes every file into it.
fn stage(staging: &Path, files: &[(&str, String)]) -> Result<(), Failure> {
    let io =
        |path: &Path, e: std::io::Error| Failure(format!("cannot write `{}`: {e}", path.display()));
    std::fs::create_dir(staging).map_err(|e| io(staging, e))?;
    for (output, text) in files {
        let path = staging.join(output);
        if let Some(folder) = path.parent() {
            std::fs::create_dir_all(folder).map_err(|e| io(folder, e))?;
        }
        let mut file = std::fs::OpenOptions::new()
            .write(true)
            .create_new(true)
            .open(&path)
            .map_err(|e| io(&path, e))?;
        std::io::Write::write_all(&mut file, text.as_bytes()).map_err(|e| io(&path, e))?;
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
