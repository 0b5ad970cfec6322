//! The README and the book in `docs/book/` hold together: every chapter's Rust blocks are
//! doctests (the chapter is included in `src/lib.rs`), every chapter is reachable from the
//! README, and every relative link, in them and in the other Markdown files of the
//! repository, names a file that exists and, after `#`, a heading of that file.

use std::collections::{BTreeMap, BTreeSet, VecDeque};
use std::fs;
use std::path::{Component, Path, PathBuf};

fn workspace() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

/// The Markdown files of the book, sorted.
fn chapters() -> Vec<PathBuf> {
    let mut files: Vec<PathBuf> = fs::read_dir(workspace().join("docs/book"))
        .expect("the book's folder")
        .map(|entry| entry.expect("an entry").path())
        .filter(|path| path.extension().is_some_and(|e| e == "md"))
        .collect();
    files.sort();
    assert!(files.len() > 10, "chapters: {files:?}");
    files
}

/// The Markdown files whose links are checked: the README, the book, and the other
/// documents of the repository that link into them.
fn documents() -> Vec<PathBuf> {
    let mut files = chapters();
    for other in ["README.md", "ARCHITECTURE.md", "templates/README.md"] {
        files.push(workspace().join(other));
    }
    files
}

/// The text of a Markdown file without its fenced code blocks, whose brackets are code.
fn prose(path: &Path) -> String {
    let text = fs::read_to_string(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    let mut fenced = false;
    let mut kept = String::new();
    for line in text.lines() {
        if line.trim_start().starts_with("```") {
            fenced = !fenced;
        } else if !fenced {
            kept.push_str(line);
            kept.push('\n');
        }
    }
    kept
}

/// The targets of the inline links and images of `text`: what stands in `](…)`.
fn link_targets(text: &str) -> Vec<String> {
    text.split("](")
        .skip(1)
        .filter_map(|rest| rest.split_once(')').map(|(target, _)| target.to_string()))
        .collect()
}

/// The anchor GitHub gives a heading: lower case, spaces as `-`, other punctuation dropped.
fn anchor(heading: &str) -> String {
    heading
        .trim()
        .to_lowercase()
        .chars()
        .filter_map(|c| match c {
            ' ' => Some('-'),
            c if c.is_alphanumeric() || c == '-' || c == '_' => Some(c),
            _ => None,
        })
        .collect()
}

/// The anchors of a Markdown file's headings.
fn anchors(path: &Path) -> BTreeSet<String> {
    prose(path)
        .lines()
        .filter_map(|line| line.strip_prefix('#'))
        .map(|heading| anchor(heading.trim_start_matches('#')))
        .collect()
}

/// `path` with its `.` and `..` components resolved, without touching the file system.
fn normal(path: &Path) -> PathBuf {
    let mut parts = PathBuf::new();
    for part in path.components() {
        match part {
            Component::ParentDir => {
                parts.pop();
            }
            Component::CurDir => {}
            other => parts.push(other),
        }
    }
    parts
}

/// The relative links of `document`: each target file with its anchor, if any.
fn relative_links(document: &Path) -> Vec<(PathBuf, Option<String>)> {
    link_targets(&prose(document))
        .into_iter()
        .filter(|target| !target.contains("://") && !target.starts_with("mailto:"))
        .map(|target| {
            let (file, fragment) = match target.split_once('#') {
                Some((file, fragment)) => (file.to_string(), Some(fragment.to_string())),
                None => (target, None),
            };
            let file = if file.is_empty() {
                document.to_path_buf()
            } else {
                normal(&document.parent().expect("a folder").join(file))
            };
            (file, fragment)
        })
        .collect()
}

#[test]
fn every_relative_link_reaches_a_file_and_a_heading() {
    let mut broken = Vec::new();
    for document in documents() {
        for (file, fragment) in relative_links(&document) {
            let name = document.strip_prefix(workspace()).unwrap().display();
            if !file.exists() {
                broken.push(format!("{name}: no file {}", file.display()));
            } else if let Some(fragment) = fragment
                && !anchors(&file).contains(&fragment)
            {
                broken.push(format!(
                    "{name}: no heading #{fragment} in {}",
                    file.display()
                ));
            }
        }
    }
    assert!(broken.is_empty(), "broken links:\n{}", broken.join("\n"));
}

#[test]
fn every_chapter_is_reachable_from_the_readme() {
    let start = normal(&workspace().join("README.md"));
    let mut seen = BTreeSet::from([start.clone()]);
    let mut queue = VecDeque::from([start]);
    while let Some(document) = queue.pop_front() {
        for (file, _) in relative_links(&document) {
            // A link to a missing file is `every_relative_link_reaches_a_file_and_a_heading`'s.
            let markdown = file.extension().is_some_and(|e| e == "md") && file.is_file();
            if markdown && file.starts_with(workspace()) && seen.insert(file.clone()) {
                queue.push_back(file);
            }
        }
    }
    let unreached: Vec<PathBuf> = chapters()
        .into_iter()
        .map(|chapter| normal(&chapter))
        .filter(|chapter| !seen.contains(chapter))
        .collect();
    assert!(unreached.is_empty(), "not linked: {unreached:?}");
}

#[test]
fn every_chapter_is_a_doctest_module() {
    let lib = fs::read_to_string(workspace().join("src/lib.rs")).expect("src/lib.rs");
    let included: BTreeMap<String, usize> = chapters()
        .iter()
        .map(|chapter| {
            let name = chapter.file_name().unwrap().to_str().unwrap();
            let include = format!("include_str!(\"../docs/book/{name}\")");
            (name.to_string(), lib.matches(&include).count())
        })
        .collect();
    assert!(
        included.values().all(|&n| n == 1),
        "each chapter must be included once in src/lib.rs: {included:?}"
    );
    assert!(lib.contains("#[cfg(doctest)]\nmod book {"), "{lib}");
}

#[test]
fn anchors_are_those_of_github() {
    assert_eq!(
        anchor(" Symbolica: licensing and the one-thread limit"),
        "symbolica-licensing-and-the-one-thread-limit"
    );
    assert_eq!(anchor(" `ModelInfo`"), "modelinfo");
    assert_eq!(
        anchor(" Ignoring coordinates: Routh's reduction"),
        "ignoring-coordinates-rouths-reduction"
    );
    assert_eq!(
        link_targets("see [a](b.md#c) and ![d](e.png)"),
        ["b.md#c", "e.png"]
    );
}
