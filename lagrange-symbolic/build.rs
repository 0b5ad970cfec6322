//! Fingerprints the engine's sources, so that the user-wide cache of derivations keeps the
//! results of each engine apart: two builds of the same version whose sources differ (a
//! path or git dependency, a local change) must not serve each other's derivations.

use std::fs;
use std::path::{Path, PathBuf};

fn main() {
    println!("cargo:rerun-if-changed=src");
    let mut files = Vec::new();
    collect(Path::new("src"), &mut files);
    files.sort();
    // FNV-1a over each file's path and contents.
    let mut hash: u64 = 0xcbf2_9ce4_8422_2325;
    for file in files {
        let bytes = fs::read(&file).expect("the engine's sources are readable");
        for byte in file.to_string_lossy().bytes().chain([0]).chain(bytes) {
            hash ^= u64::from(byte);
            hash = hash.wrapping_mul(0x0100_0000_01b3);
        }
    }
    println!("cargo:rustc-env=LAGRANGE_ENGINE_SOURCES={hash:016x}");
}

fn collect(dir: &Path, files: &mut Vec<PathBuf>) {
    for entry in fs::read_dir(dir).expect("the engine's source folder is readable") {
        let path = entry.expect("a readable folder entry").path();
        if path.is_dir() {
            collect(&path, files);
        } else {
            files.push(path);
        }
    }
}
