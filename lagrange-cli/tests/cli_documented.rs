//! The command lines that the README and the book show in their `sh` blocks are the
//! command's own: each names a subcommand that exists, and every `--option` written after
//! it is one that the subcommand's `--help` lists. Their `toml` blocks are TOML.

use std::path::{Path, PathBuf};
use std::process::Command;

/// The README and the chapters of the book.
fn documents() -> Vec<PathBuf> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    let mut files: Vec<PathBuf> = std::fs::read_dir(root.join("docs/book"))
        .expect("the book's folder")
        .map(|entry| entry.expect("an entry").path())
        .filter(|path| path.extension().is_some_and(|e| e == "md"))
        .collect();
    files.push(root.join("README.md"));
    files.sort();
    files
}

/// The blocks of `text` fenced as ```` ```language ````, each as its text.
fn blocks(text: &str, language: &str) -> Vec<String> {
    // Inside a fenced block: whether it is collected, and its text so far.
    let mut inside: Option<(bool, String)> = None;
    let mut found = Vec::new();
    for line in text.lines() {
        if let Some(info) = line.trim_start().strip_prefix("```") {
            match inside.take() {
                Some((true, block)) => found.push(block),
                Some((false, _)) => {}
                None => inside = Some((info.trim() == language, String::new())),
            }
        } else if let Some((_, block)) = &mut inside {
            block.push_str(line);
            block.push('\n');
        }
    }
    found
}

/// The lines of `text`'s ```sh blocks that run `lagrange`, without their comments.
fn command_lines(text: &str) -> Vec<String> {
    blocks(text, "sh")
        .iter()
        .flat_map(|block| block.lines())
        .filter(|line| line.starts_with("lagrange "))
        .map(|line| line.split(" #").next().unwrap_or(line).trim().to_string())
        .collect()
}

/// The subcommand of a command line and the options it writes (`[--check]` and
/// `--out=x` give `--check` and `--out`).
fn subcommand_and_options(line: &str) -> (String, Vec<String>) {
    let mut words = line.split_whitespace().skip(1);
    let subcommand = words.next().unwrap_or_default().to_string();
    let options = words
        .map(|word| word.trim_matches(|c| c == '[' || c == ']'))
        .filter(|word| word.starts_with("--"))
        .map(|word| word.split('=').next().unwrap_or(word).to_string())
        .collect();
    (subcommand, options)
}

fn help(subcommand: &str) -> String {
    let output = Command::new(env!("CARGO_BIN_EXE_lagrange"))
        .args([subcommand, "--help"])
        .output()
        .expect("the lagrange binary runs");
    assert!(
        output.status.success(),
        "`lagrange {subcommand} --help` fails: {}",
        String::from_utf8_lossy(&output.stderr)
    );
    String::from_utf8_lossy(&output.stdout).into_owned()
}

#[test]
fn every_documented_command_line_is_accepted_by_the_command() {
    let mut checked = 0;
    let mut wrong = Vec::new();
    for document in documents() {
        let text = std::fs::read_to_string(&document).expect("a document");
        for line in command_lines(&text) {
            let (subcommand, options) = subcommand_and_options(&line);
            let listed = help(&subcommand);
            for option in options {
                if !listed.contains(&format!("{option} "))
                    && !listed.contains(&format!("{option}\n"))
                {
                    wrong.push(format!("{}: `{line}`: no {option}", document.display()));
                }
            }
            checked += 1;
        }
    }
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
    // The chapter on the command shows every subcommand at least once.
    assert!(checked >= 14, "only {checked} command lines found");
}

#[test]
fn every_toml_block_is_toml() {
    let mut checked = 0;
    for document in documents() {
        let text = std::fs::read_to_string(&document).expect("a document");
        for block in blocks(&text, "toml") {
            if let Err(e) = block.parse::<toml::Table>() {
                panic!(
                    "{}: a toml block is not TOML: {e}\n{block}",
                    document.display()
                );
            }
            checked += 1;
        }
    }
    // The profile settings of the build-times chapter and the report's `[[draw]]` entries.
    assert!(checked >= 2, "only {checked} toml blocks found");
}

#[test]
fn options_are_read_from_the_written_line() {
    let text = "```sh\nlagrange prepare [--manifest-path Cargo.toml] [--check]   # CI\n```\n\
                ```toml\nlagrange = 1\n```\n```\nlagrange derive --nothing\n```\n";
    assert_eq!(blocks(text, "toml"), ["lagrange = 1\n"]);
    let lines = command_lines(text);
    assert_eq!(
        lines,
        ["lagrange prepare [--manifest-path Cargo.toml] [--check]"]
    );
    assert_eq!(
        subcommand_and_options(&lines[0]),
        (
            "prepare".to_string(),
            vec!["--manifest-path".to_string(), "--check".to_string()]
        )
    );
}
