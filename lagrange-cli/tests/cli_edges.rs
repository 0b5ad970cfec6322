//! `lagrange generate` at the edges of its output folder: it writes only into a new or
//! empty folder unless `--force`, never through a symbolic link, and the manifest last;
//! it creates missing parent folders, only below the deepest one that exists, and its
//! messages never name its hidden staging folder.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

fn lagrange(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_lagrange"))
        .args(args)
        .output()
        .expect("the lagrange binary runs")
}

/// A fresh scratch folder for one test.
fn scratch(test: &str) -> PathBuf {
    let dir =
        std::env::temp_dir().join(format!("lagrange-cli-edges-{}-{test}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

fn model() -> String {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../examples/models/double_pendulum.toml")
        .display()
        .to_string()
}

fn generate(out: &Path, force: bool) -> Output {
    let model = model();
    let out = out.display().to_string();
    let mut args = vec!["generate", &model, "--out", &out];
    if force {
        args.push("--force");
    }
    lagrange(&args)
}

fn stderr(output: &Output) -> String {
    String::from_utf8_lossy(&output.stderr).into_owned()
}

#[test]
fn a_folder_that_is_not_empty_needs_force() {
    let dir = scratch("force");
    let out = dir.join("solver");
    // New folder: created.
    let output = generate(&out, false);
    assert!(output.status.success(), "{}", stderr(&output));
    assert!(out.join("Cargo.toml").is_file() && out.join("src/main.rs").is_file());
    // No staging folder is left beside it.
    let left: Vec<_> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().file_name())
        .collect();
    assert_eq!(left, ["solver"]);
    // Again: refused, nothing touched.
    std::fs::write(out.join("notes.txt"), "mine").unwrap();
    std::fs::write(out.join("README.md"), "edited").unwrap();
    let output = generate(&out, false);
    assert!(!output.status.success());
    assert!(stderr(&output).contains("not empty"), "{}", stderr(&output));
    assert_eq!(
        std::fs::read_to_string(out.join("README.md")).unwrap(),
        "edited"
    );
    // With --force: the generated files are replaced, others left alone.
    let output = generate(&out, true);
    assert!(output.status.success(), "{}", stderr(&output));
    assert_ne!(
        std::fs::read_to_string(out.join("README.md")).unwrap(),
        "edited"
    );
    assert_eq!(
        std::fs::read_to_string(out.join("notes.txt")).unwrap(),
        "mine"
    );
    // An empty folder needs no --force.
    let empty = dir.join("empty");
    std::fs::create_dir(&empty).unwrap();
    let output = generate(&empty, false);
    assert!(output.status.success(), "{}", stderr(&output));
    std::fs::remove_dir_all(&dir).unwrap();
}

#[cfg(unix)]
#[test]
fn a_planted_symbolic_link_does_not_redirect_a_write() {
    use std::os::unix::fs::symlink;
    let dir = scratch("symlink");
    let elsewhere = dir.join("elsewhere");
    std::fs::create_dir(&elsewhere).unwrap();
    std::fs::write(elsewhere.join("victim"), "precious").unwrap();
    let out = dir.join("solver");
    std::fs::create_dir(&out).unwrap();
    // A link where a file goes: replaced by the file, its target untouched.
    symlink(elsewhere.join("victim"), out.join("README.md")).unwrap();
    let output = generate(&out, true);
    assert!(output.status.success(), "{}", stderr(&output));
    assert_eq!(
        std::fs::read_to_string(elsewhere.join("victim")).unwrap(),
        "precious"
    );
    let readme = std::fs::symlink_metadata(out.join("README.md")).unwrap();
    assert!(readme.is_file(), "the link is still there");
    // A link where a folder goes: refused, nothing written through it.
    std::fs::remove_dir_all(out.join("src")).unwrap();
    symlink(&elsewhere, out.join("src")).unwrap();
    let output = generate(&out, true);
    assert!(!output.status.success());
    assert!(
        stderr(&output).contains("is not a folder"),
        "{}",
        stderr(&output)
    );
    let mut entries: Vec<_> = std::fs::read_dir(&elsewhere)
        .unwrap()
        .map(|e| e.unwrap().file_name())
        .collect();
    entries.sort();
    assert_eq!(entries, ["victim"]);
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn the_manifest_is_written_last() {
    let dir = scratch("manifest");
    let out = dir.join("solver");
    // A folder in the manifest's place makes its move fail: every other file must be in
    // place by then.
    std::fs::create_dir_all(out.join("Cargo.toml")).unwrap();
    std::fs::write(out.join("Cargo.toml/keep"), "").unwrap();
    let output = generate(&out, true);
    assert!(!output.status.success());
    assert!(
        stderr(&output).contains("Cargo.toml"),
        "{}",
        stderr(&output)
    );
    for file in ["README.md", "src/main.rs", "src/model.rs", "src/solver.rs"] {
        assert!(out.join(file).is_file(), "{file} missing");
    }
    std::fs::remove_dir_all(&dir).unwrap();
}

/// The entries of `dir`, sorted.
fn entries(dir: &Path) -> Vec<String> {
    let mut names: Vec<String> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    names
}

/// Asserts a failure whose message contains `needle` and no staging folder's name.
fn assert_refused(output: &Output, needle: &str) {
    let message = stderr(output);
    assert!(!output.status.success(), "should fail: {message}");
    assert!(message.contains(needle), "`{needle}` not in: {message}");
    assert!(!message.contains("lagrange-generate-"), "{message}");
}

#[test]
fn missing_parent_folders_are_created() {
    let dir = scratch("parents");
    let out = dir.join("build/solvers/model");
    let output = generate(&out, false);
    assert!(output.status.success(), "{}", stderr(&output));
    assert!(out.join("Cargo.toml").is_file() && out.join("src/main.rs").is_file());
    // Nothing else was created on the way, and no staging folder is left.
    assert_eq!(entries(&dir), ["build"]);
    assert_eq!(entries(&dir.join("build")), ["solvers"]);
    assert_eq!(entries(&dir.join("build/solvers")), ["model"]);
    // Through an existing folder and back up: what the path names.
    std::fs::create_dir(dir.join("existing")).unwrap();
    let output = generate(&dir.join("existing/../up/model"), false);
    assert!(output.status.success(), "{}", stderr(&output));
    assert!(dir.join("up/model/Cargo.toml").is_file());
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn hostile_output_paths_are_refused_without_writing() {
    let dir = scratch("hostile");
    std::fs::write(dir.join("a_file"), "mine").unwrap();
    // A file where a parent folder goes.
    assert_refused(&generate(&dir.join("a_file/sub/model"), false), "a_file");
    // A `..` below a folder that would have to be created: it would climb out of it.
    assert_refused(&generate(&dir.join("new/../model"), false), "new/..");
    // A missing path that ends in `..`.
    assert_refused(&generate(&dir.join("new/deeper/.."), false), "..");
    assert_eq!(entries(&dir), ["a_file"]);
    assert_eq!(std::fs::read_to_string(dir.join("a_file")).unwrap(), "mine");
    std::fs::remove_dir_all(&dir).unwrap();
}

#[cfg(unix)]
#[test]
fn symbolic_links_on_the_output_path_are_refused() {
    use std::os::unix::fs::symlink;
    let dir = scratch("links");
    let elsewhere = dir.join("elsewhere");
    std::fs::create_dir(&elsewhere).unwrap();
    // `--out` itself a link to an empty folder: not written through.
    symlink(&elsewhere, dir.join("link")).unwrap();
    assert_refused(&generate(&dir.join("link"), false), "symbolic link");
    assert_refused(&generate(&dir.join("link"), true), "symbolic link");
    assert!(entries(&elsewhere).is_empty());
    // A dangling link among the parents: not created through.
    symlink(dir.join("nowhere"), dir.join("dangling")).unwrap();
    assert_refused(
        &generate(&dir.join("dangling/sub/model"), false),
        "points nowhere",
    );
    assert!(!dir.join("nowhere").exists());
    assert_eq!(entries(&dir), ["dangling", "elsewhere", "link"]);
    std::fs::remove_dir_all(&dir).unwrap();
}
