//! Stored derivations as the command reads them from the user-wide cache: an entry that
//! was edited by hand or damaged (a constant changed, a slot out of range, a forged count
//! of temporaries) is derived again and overwritten, never simulated with different
//! numbers and never a panic. (The same entries in a crate's `.lagrange/` folder are a
//! compile error: see `offline.rs`.)

use std::fs;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use lagrange_symbolic::equations::Derived;
use lagrange_symbolic::ir::{Instr, Slot};
use lagrange_symbolic::store::{self, Entry};

fn model() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../examples/models/double_pendulum.toml")
}

/// A fresh cache folder for one test.
fn scratch(name: &str) -> PathBuf {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR"))
        .join("stored_derivations")
        .join(name);
    let _ = fs::remove_dir_all(&dir);
    dir
}

/// `lagrange simulate` of the double pendulum with `cache` as the user-wide cache.
fn simulate(cache: &Path) -> Output {
    Command::new(env!("CARGO_BIN_EXE_lagrange"))
        .arg("simulate")
        .arg(model())
        .args(["--t-end", "0.5", "--dt", "0.01"])
        .env(store::ENV_CACHE_DIR, cache)
        .env_remove(store::ENV_CACHE)
        .output()
        .expect("run lagrange")
}

/// The one entry under `cache`.
fn entry_file(cache: &Path) -> PathBuf {
    let mut found = Vec::new();
    for version in fs::read_dir(cache).expect("cache folder") {
        for file in fs::read_dir(version.unwrap().path()).unwrap() {
            found.push(file.unwrap().path());
        }
    }
    assert_eq!(found.len(), 1, "{found:?}");
    found.pop().unwrap()
}

fn read_entry(path: &Path) -> Entry {
    serde_json::from_str(&fs::read_to_string(path).unwrap()).expect("an entry")
}

/// What a damage does to an entry, and whether the forger also updates the content hash.
struct Damage {
    what: &'static str,
    edit: fn(&mut Derived),
    rehash: bool,
}

#[test]
fn a_damaged_cache_entry_is_derived_again_and_overwritten() {
    let cache = scratch("damaged");
    let first = simulate(&cache);
    let stderr = |o: &Output| String::from_utf8_lossy(&o.stderr).into_owned();
    assert!(first.status.success(), "{}", stderr(&first));
    let path = entry_file(&cache);
    let original = read_entry(&path);
    assert_eq!(
        original.derived_hash,
        store::content_hash(&original.derived)
    );

    let damages = [
        Damage {
            what: "a constant edited by hand",
            edit: |d| {
                let c = &mut d.full.programs.dynamics.constants;
                assert!(!c.is_empty(), "the dynamics have constants");
                c[0] *= 2.0;
            },
            rehash: false,
        },
        Damage {
            what: "an input slot out of range",
            edit: |d| {
                let p = &mut d.full.programs.dynamics;
                let last = p.instructions.len() - 1;
                p.instructions[last] = Instr::Copy(Slot::Out(0), Slot::Input(1000));
            },
            rehash: true,
        },
        Damage {
            what: "an output slot out of range",
            edit: |d| {
                let p = &mut d.full.programs.energy;
                p.instructions[0] = Instr::Copy(Slot::Out(7), Slot::Input(0));
            },
            rehash: true,
        },
        Damage {
            what: "a forged count of temporaries",
            edit: |d| d.full.programs.dynamics.temporaries = 1_000_000_000_000,
            rehash: true,
        },
    ];
    for damage in damages {
        let mut entry = original.clone();
        (damage.edit)(&mut entry.derived);
        if damage.rehash {
            entry.derived_hash = store::content_hash(&entry.derived);
        }
        fs::write(&path, serde_json::to_string(&entry).unwrap()).unwrap();
        let again = simulate(&cache);
        let what = damage.what;
        assert!(again.status.success(), "{what}: {}", stderr(&again));
        assert!(
            !stderr(&again).contains("panicked"),
            "{what}: {}",
            stderr(&again)
        );
        assert!(
            stderr(&again).contains("deriving `DoublePendulum`"),
            "{what}: the entry was used: {}",
            stderr(&again)
        );
        assert_eq!(again.stdout, first.stdout, "{what}: other numbers");
        assert_eq!(read_entry(&path), original, "{what}: not overwritten");
    }
}

#[test]
fn a_model_name_that_is_a_path_writes_nothing_outside_the_cache() {
    let root = scratch("traversal");
    let cache = root.join("cache").join("inner");
    let text = fs::read_to_string(model()).unwrap();
    assert!(text.contains("name = \"DoublePendulum\""));
    // Relative to the cache's version folder, and absolute: both would land in `root`.
    let absolute = root.join("escaped").display().to_string();
    for (i, name) in ["../../../escaped", absolute.as_str(), "a/b"]
        .iter()
        .enumerate()
    {
        let file = root.join(format!("evil{i}.toml"));
        fs::create_dir_all(&root).unwrap();
        fs::write(
            &file,
            text.replace("name = \"DoublePendulum\"", &format!("name = {name:?}")),
        )
        .unwrap();
        let output = Command::new(env!("CARGO_BIN_EXE_lagrange"))
            .arg("derive")
            .arg(&file)
            .env(store::ENV_CACHE_DIR, &cache)
            .env_remove(store::ENV_CACHE)
            .output()
            .expect("run lagrange");
        let stderr = String::from_utf8_lossy(&output.stderr);
        assert!(!stderr.contains("panicked"), "{name}: {stderr}");
        // Whether or not the model checks refuse the name, no entry is written anywhere.
        let written: Vec<PathBuf> = walk(&root)
            .into_iter()
            .filter(|p| p.extension().is_some_and(|e| e == "json"))
            .collect();
        assert!(written.is_empty(), "{name}: {written:?}");
    }
}

/// Every file under `dir`.
fn walk(dir: &Path) -> Vec<PathBuf> {
    let mut files = Vec::new();
    for entry in fs::read_dir(dir).into_iter().flatten().flatten() {
        let path = entry.path();
        if path.is_dir() {
            files.extend(walk(&path));
        } else {
            files.push(path);
        }
    }
    files
}
