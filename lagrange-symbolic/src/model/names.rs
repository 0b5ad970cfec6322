//! The rule for the names a model declares (its own, its coordinates', parameters',
//! particles' and bodies'): they become Rust and C identifiers in generated code and file
//! names in the derivation cache, so each must be an ASCII identifier that is no keyword
//! of either language.

use crate::syntax::print::excerpt_text;
use crate::syntax::{Func, PI, TIME};

/// The longest name, in bytes.
pub const MAX_NAME_LEN: usize = 64;

/// Keywords of Rust (strict, reserved and weak) and C (C11 and C23), which generated code
/// cannot use as names.
const KEYWORDS: [&str; 81] = [
    // Rust.
    "as",
    "async",
    "await",
    "break",
    "const",
    "continue",
    "crate",
    "dyn",
    "else",
    "enum",
    "extern",
    "false",
    "fn",
    "for",
    "if",
    "impl",
    "in",
    "let",
    "loop",
    "match",
    "mod",
    "move",
    "mut",
    "pub",
    "ref",
    "return",
    "self",
    "Self",
    "static",
    "struct",
    "super",
    "trait",
    "true",
    "type",
    "unsafe",
    "use",
    "where",
    "while",
    "abstract",
    "become",
    "box",
    "do",
    "final",
    "gen",
    "macro",
    "override",
    "priv",
    "try",
    "typeof",
    "unsized",
    "virtual",
    "yield",
    "union", // C.
    "auto",
    "bool",
    "case",
    "char",
    "default",
    "double",
    "float",
    "goto",
    "inline",
    "int",
    "long",
    "register",
    "restrict",
    "short",
    "signed",
    "sizeof",
    "switch",
    "typedef",
    "unsigned",
    "void",
    "volatile",
    "nullptr",
    "alignas",
    "alignof",
    "constexpr",
    "static_assert",
    "thread_local",
    "typeof_unqual",
];

/// Whether `name` is taken by the expressions' own language, so no coordinate or parameter
/// may use it: time `t`, `pi`, `dot`, `ddot` and the functions (`sin`, `sqrt`, …).
pub fn reserved(name: &str) -> bool {
    name == TIME || name == PI || name == "dot" || name == "ddot" || Func::from_name(name).is_some()
}

/// Why `name` cannot name `what` (`a coordinate`), or `None` when it can.
pub fn problem(name: &str, what: &str) -> Option<String> {
    let shown = excerpt_text(name);
    let identifier = name
        .chars()
        .next()
        .is_some_and(|c| c.is_ascii_alphabetic() || c == '_')
        && name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_');
    if name.is_empty() {
        Some(format!("{what} has an empty name"))
    } else if name.len() > MAX_NAME_LEN {
        Some(format!(
            "the name `{shown}` of {what} is {} bytes long; the limit is {MAX_NAME_LEN}",
            name.len()
        ))
    } else if !identifier {
        Some(format!(
            "`{shown}` cannot name {what}: a name is an ASCII identifier (a letter or `_`, then letters, digits and `_`)"
        ))
    } else if name == "_" || name.starts_with("__") {
        Some(format!(
            "`{shown}` cannot name {what}: `_` alone and names starting with `__` are reserved in generated code"
        ))
    } else if KEYWORDS.contains(&name) || is_c_reserved(name) {
        Some(format!(
            "`{shown}` cannot name {what}: it is a keyword of Rust or C, and names become code"
        ))
    } else {
        None
    }
}

/// C's reserved `_Uppercase` names (`_Bool`, `_Complex`, …).
fn is_c_reserved(name: &str) -> bool {
    let mut chars = name.chars();
    chars.next() == Some('_') && chars.next().is_some_and(|c| c.is_ascii_uppercase())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_are_identifiers() {
        for good in ["theta1", "m_2", "_x", "Pendulum", "gamma", "x"] {
            assert_eq!(problem(good, "a coordinate"), None, "{good}");
        }
        for bad in [
            "",
            "_",
            "__x",
            "1x",
            "θ",
            "p.x",
            "P */ int injected = 42; /*",
            "../../x/evil",
            "a\u{1b}[31m",
            "fn",
            "int",
            "_Complex",
            &"x".repeat(MAX_NAME_LEN + 1),
        ] {
            let message = problem(bad, "the model").expect(bad);
            assert!(!message.chars().any(char::is_control), "{message}");
        }
    }
}
