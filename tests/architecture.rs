//! The layout rules of ARCHITECTURE.md, checked on the sources: symbolica is used only in
//! `lagrange-symbolic/src/cas/`, the runtime names no engine crate, and within each crate
//! the top-level modules import one another without a cycle (data flows one way).

use std::collections::{BTreeMap, BTreeSet};
use std::fs;
use std::path::{Path, PathBuf};

const CRATES: [&str; 4] = [
    "lagrange-core",
    "lagrange-symbolic",
    "lagrange-macros",
    "lagrange-cli",
];

/// A path into the engine crate, as code would write it. (Spelled in two parts so that
/// text searches for the path do not find this file.)
const ENGINE_PATH: &str = concat!("symbol", "ica::");

fn workspace() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

/// Every `.rs` file under `dir`.
fn sources(dir: &Path) -> Vec<PathBuf> {
    let mut files = Vec::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(dir) = stack.pop() {
        for entry in fs::read_dir(&dir).expect("a source folder") {
            let path = entry.expect("an entry").path();
            if path.is_dir() {
                stack.push(path);
            } else if path.extension().is_some_and(|e| e == "rs") {
                files.push(path);
            }
        }
    }
    files.sort();
    files
}

/// The code of a source file: comments and the unit-test module removed.
fn code(path: &Path) -> String {
    let text = fs::read_to_string(path).expect("a readable source");
    let text = match text.find("#[cfg(test)]\nmod tests") {
        Some(at) => &text[..at],
        None => &text[..],
    };
    text.lines()
        .map(|line| match line.find("//") {
            Some(at) => &line[..at],
            None => line,
        })
        .collect::<Vec<_>>()
        .join("\n")
}

/// The top-level module a file of `src` belongs to (`None` for the crate root).
fn top_module(src: &Path, file: &Path) -> Option<String> {
    let relative = file.strip_prefix(src).ok()?;
    let first = relative.components().next()?.as_os_str().to_str()?;
    let name = first.strip_suffix(".rs").unwrap_or(first);
    (!matches!(name, "lib" | "main")).then(|| name.to_string())
}

/// The names that follow `prefix` in `code`, as identifiers.
fn paths_after<'a>(code: &'a str, prefix: &'a str) -> impl Iterator<Item = &'a str> + 'a {
    code.match_indices(prefix).filter_map(move |(at, _)| {
        let before = code[..at].chars().next_back();
        if before.is_some_and(|c| c.is_alphanumeric() || c == '_') {
            return None;
        }
        let rest = &code[at + prefix.len()..];
        let end = rest
            .find(|c: char| !(c.is_alphanumeric() || c == '_'))
            .unwrap_or(rest.len());
        Some(&rest[..end])
    })
}

#[test]
fn symbolica_is_used_only_in_the_cas_module() {
    let cas = workspace().join("lagrange-symbolic/src/cas");
    let mut offenders = Vec::new();
    for krate in CRATES {
        for file in sources(&workspace().join(krate).join("src")) {
            if file.starts_with(&cas) {
                continue;
            }
            if paths_after(&code(&file), ENGINE_PATH).next().is_some() {
                offenders.push(file.display().to_string());
            }
        }
    }
    assert!(
        offenders.is_empty(),
        "symbolica outside cas/: {offenders:?}"
    );
}

#[test]
fn the_runtime_never_names_the_engine() {
    let manifest = fs::read_to_string(workspace().join("lagrange-core/Cargo.toml")).unwrap();
    for engine in ["symbolica", "lagrange-symbolic", "lagrange-macros"] {
        assert!(
            !manifest.contains(engine),
            "lagrange-core depends on {engine}"
        );
    }
}

#[test]
fn top_level_modules_import_one_another_without_a_cycle() {
    for krate in CRATES {
        let src = workspace().join(krate).join("src");
        let files = sources(&src);
        let modules: BTreeSet<String> = files.iter().filter_map(|f| top_module(&src, f)).collect();
        let mut imports: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
        for file in &files {
            let Some(module) = top_module(&src, file) else {
                continue;
            };
            let code = code(file);
            let at_root = file.parent() == Some(src.as_path());
            let mut used: Vec<&str> = paths_after(&code, "crate::").collect();
            if at_root {
                // A file at the root of `src` reaches its siblings through `super::`.
                used.extend(paths_after(&code, "super::"));
            }
            let entry = imports.entry(module.clone()).or_default();
            for name in used {
                if name != module && modules.contains(name) {
                    entry.insert(name.to_string());
                }
            }
        }
        // Depth-first search for a back edge.
        fn visit(
            node: &str,
            imports: &BTreeMap<String, BTreeSet<String>>,
            path: &mut Vec<String>,
            done: &mut BTreeSet<String>,
        ) -> Option<Vec<String>> {
            if let Some(at) = path.iter().position(|n| n == node) {
                let mut cycle = path[at..].to_vec();
                cycle.push(node.to_string());
                return Some(cycle);
            }
            if done.contains(node) {
                return None;
            }
            path.push(node.to_string());
            for next in imports.get(node).into_iter().flatten() {
                if let Some(cycle) = visit(next, imports, path, done) {
                    return Some(cycle);
                }
            }
            path.pop();
            done.insert(node.to_string());
            None
        }
        let mut done = BTreeSet::new();
        for module in &modules {
            if let Some(cycle) = visit(module, &imports, &mut Vec::new(), &mut done) {
                panic!("{krate}: import cycle {}", cycle.join(" → "));
            }
        }
    }
}

#[test]
fn the_checks_see_imports_and_cycles() {
    // The scanner itself: a path after `crate::` is found, one in a comment is not.
    let dir = std::env::temp_dir().join(format!("lagrange-arch-{}", std::process::id()));
    fs::create_dir_all(&dir).unwrap();
    let file = dir.join("a.rs");
    fs::write(
        &file,
        format!("use crate::b::X; // crate::c\nfn f() {{ {ENGINE_PATH}x(); }}\n"),
    )
    .unwrap();
    let code = code(&file);
    assert_eq!(paths_after(&code, "crate::").collect::<Vec<_>>(), ["b"]);
    assert_eq!(paths_after(&code, ENGINE_PATH).count(), 1);
    assert_eq!(
        paths_after(&format!("lagrange_{ENGINE_PATH}x"), ENGINE_PATH).count(),
        0
    );
    fs::remove_dir_all(&dir).unwrap();
}
