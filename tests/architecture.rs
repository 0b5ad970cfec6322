//! The layout rules of ARCHITECTURE.md, checked on the sources: symbolica is used only in
//! `lagrange-symbolic/src/cas/`, the runtime names no engine crate, within each crate the
//! top-level modules import one another without a cycle (data flows one way), and the
//! code map of every crate lists every module with what it may import.

use std::collections::{BTreeMap, BTreeSet};
use std::fs;
use std::path::{Path, PathBuf};

const CRATES: [&str; 6] = [
    "lagrange-common",
    "lagrange-core",
    "lagrange-symbolic",
    "lagrange-macros",
    "lagrange-loaded",
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

/// The test-only parts of a crate's sources: the hand-written test systems and unit
/// tests kept in files of their own.
fn is_test_only(src: &Path, file: &Path) -> bool {
    let relative = file.strip_prefix(src).unwrap_or(file);
    relative.starts_with("test_systems") || file.file_name().is_some_and(|n| n == "tests.rs")
}

/// The crate's top-level modules, each with the top-level modules its code names.
fn imports(krate: &str) -> BTreeMap<String, BTreeSet<String>> {
    let src = workspace().join(krate).join("src");
    let files: Vec<PathBuf> = sources(&src)
        .into_iter()
        .filter(|f| !is_test_only(&src, f))
        .collect();
    let modules: BTreeSet<String> = files.iter().filter_map(|f| top_module(&src, f)).collect();
    let mut imports: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
    for file in &files {
        let Some(module) = top_module(&src, file) else {
            continue;
        };
        let code = code(file);
        let mut used: Vec<&str> = paths_after(&code, "crate::").collect();
        // A file reaches the crate root, and so its module's siblings, through as many
        // `super::` as it is deep (`a.rs` and `a/mod.rs` one, `a/b.rs` two).
        let relative = file.strip_prefix(&src).expect("a file of the crate");
        let depth = relative.components().count()
            - usize::from(file.file_name().is_some_and(|n| n == "mod.rs"));
        let to_root = "super::".repeat(depth);
        used.extend(paths_after(&code, &to_root).filter(|name| *name != "super"));
        let entry = imports.entry(module.clone()).or_default();
        for name in used {
            // `__private` is the public name of `private.rs`.
            let name = if name == "__private" { "private" } else { name };
            if name != module && modules.contains(name) {
                entry.insert(name.to_string());
            }
        }
    }
    imports
}

#[test]
fn the_shared_vocabulary_depends_on_nothing_but_an_optional_serde() {
    let manifest = fs::read_to_string(workspace().join("lagrange-common/Cargo.toml")).unwrap();
    let dependencies = manifest
        .split("[dependencies]")
        .nth(1)
        .expect("lagrange-common has a [dependencies] table");
    let dependencies = dependencies.split("\n[").next().unwrap_or("");
    let names: Vec<&str> = dependencies
        .lines()
        .filter_map(|l| l.split('=').next())
        .map(str::trim)
        .filter(|n| !n.is_empty() && !n.starts_with('#'))
        .collect();
    assert_eq!(names, ["serde"], "lagrange-common depends on {names:?}");
    assert!(
        dependencies.contains("optional = true"),
        "serde is optional in lagrange-common"
    );
}

#[test]
fn top_level_modules_import_one_another_without_a_cycle() {
    for krate in CRATES {
        let imports = imports(krate);
        let modules: BTreeSet<String> = imports.keys().cloned().collect();
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
    // A file two deep reaches the root through two `super::`, not one.
    let nested = "use super::super::file::Y; use super::sibling::Z;";
    assert_eq!(
        paths_after(nested, &"super::".repeat(2)).collect::<Vec<_>>(),
        ["file"]
    );
    assert_eq!(paths_after(&code, ENGINE_PATH).count(), 1);
    assert_eq!(
        paths_after(&format!("lagrange_{ENGINE_PATH}x"), ENGINE_PATH).count(),
        0
    );
    fs::remove_dir_all(&dir).unwrap();
}

/// The code map of ARCHITECTURE.md for `folder`: each module of its table with the
/// modules it may import (`None`: any).
fn code_map(folder: &str) -> BTreeMap<String, Option<BTreeSet<String>>> {
    let text = fs::read_to_string(workspace().join("ARCHITECTURE.md")).unwrap();
    let heading = format!("### `{folder}`");
    let at = text
        .find(&heading)
        .unwrap_or_else(|| panic!("ARCHITECTURE.md has no section {heading}"));
    let mut map = BTreeMap::new();
    let rows = text[at + heading.len()..]
        .lines()
        .skip_while(|l| !l.starts_with('|'))
        .take_while(|l| l.starts_with('|'))
        .skip(2);
    for row in rows {
        let cells: Vec<&str> = row.trim_matches('|').split(" | ").map(str::trim).collect();
        assert_eq!(
            cells.len(),
            4,
            "a code-map row of {folder} has 4 cells: {row}"
        );
        let ticked = |cell: &str| -> Vec<String> {
            cell.split('`')
                .skip(1)
                .step_by(2)
                .map(|name| {
                    name.trim_end_matches('/')
                        .trim_end_matches(".rs")
                        .to_string()
                })
                .collect()
        };
        let module = ticked(cells[0])
            .into_iter()
            .next()
            .unwrap_or_else(|| panic!("a code-map row of {folder} names no module: {row}"));
        let allowed = match cells[2] {
            "anything" => None,
            "nothing" => Some(BTreeSet::new()),
            cell => Some(ticked(cell).into_iter().collect()),
        };
        map.insert(module, allowed);
    }
    map
}

#[test]
fn the_code_map_lists_every_module_and_what_it_may_import() {
    let mut drift = Vec::new();
    for krate in CRATES {
        let folder = format!("{krate}/src/");
        let folder = folder.as_str();
        let map = code_map(folder);
        let imports = imports(krate);
        for module in map.keys().filter(|m| !imports.contains_key(*m)) {
            drift.push(format!(
                "{folder}: the code map lists `{module}`, which does not exist"
            ));
        }
        for (module, used) in &imports {
            match map.get(module) {
                None => drift.push(format!("{folder}: `{module}` is missing from the code map")),
                Some(Some(allowed)) => {
                    let extra: Vec<&String> = used.difference(allowed).collect();
                    if !extra.is_empty() {
                        drift.push(format!(
                            "{folder}{module} imports {extra:?}, which its row does not allow"
                        ));
                    }
                }
                Some(None) => {}
            }
        }
    }
    assert!(
        drift.is_empty(),
        "ARCHITECTURE.md's code map disagrees with the sources:\n{}",
        drift.join("\n")
    );
}
