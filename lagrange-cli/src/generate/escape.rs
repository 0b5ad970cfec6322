//! The tera filters through which user-written text reaches a template, escaped for its
//! target: Rust and C string literals, TOML strings, comments, Markdown.

use std::collections::HashMap;

/// Registers every filter on `tera`.
pub(super) fn register(tera: &mut tera::Tera) {
    tera.register_filter("rust_str", rust_str);
    tera.register_filter("c_str", c_str);
    tera.register_filter("toml_str", toml_str);
    tera.register_filter("comment", comment);
    tera.register_filter("markdown", markdown);
}

/// `{{ s | rust_str }}`: a Rust string literal.
fn rust_str(value: &tera::Value, _: &HashMap<String, tera::Value>) -> tera::Result<tera::Value> {
    let s = tera::from_value::<String>(value.clone())?;
    Ok(tera::Value::String(format!("{s:?}")))
}

/// `{{ s | c_str }}`: a C string literal (non-ASCII bytes and controls as octal escapes,
/// `?` escaped against trigraphs).
fn c_str(value: &tera::Value, _: &HashMap<String, tera::Value>) -> tera::Result<tera::Value> {
    let s = tera::from_value::<String>(value.clone())?;
    let mut out = String::from("\"");
    for byte in s.bytes() {
        match byte {
            b'"' => out.push_str("\\\""),
            b'\\' => out.push_str("\\\\"),
            b'?' => out.push_str("\\?"),
            b'\n' => out.push_str("\\n"),
            b' '..=b'~' => out.push(char::from(byte)),
            _ => out.push_str(&format!("\\{byte:03o}")),
        }
    }
    out.push('"');
    Ok(tera::Value::String(out))
}

/// `{{ s | toml_str }}`: a TOML basic string (quotes, backslashes and control characters
/// escaped).
fn toml_str(value: &tera::Value, _: &HashMap<String, tera::Value>) -> tera::Result<tera::Value> {
    let s = tera::from_value::<String>(value.clone())?;
    let mut out = String::from("\"");
    for c in s.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            c if c.is_control() => out.push_str(&format!("\\u{:04X}", u32::from(c))),
            c => out.push(c),
        }
    }
    out.push('"');
    Ok(tera::Value::String(out))
}

/// `{{ s | comment }}`: text that stays inside a one-line comment of any target (`//`,
/// `#`, `/* … */`): control characters, line breaks included, become `\u{…}` escapes and
/// `*/` becomes `*\/`.
fn comment(value: &tera::Value, _: &HashMap<String, tera::Value>) -> tera::Result<tera::Value> {
    let s = tera::from_value::<String>(value.clone())?;
    Ok(tera::Value::String(visible(&s).replace("*/", "*\\/")))
}

/// `{{ s | markdown }}`: inline Markdown text that reads as written: ASCII punctuation
/// backslash-escaped (CommonMark), control characters as `\u{…}` escapes.
fn markdown(value: &tera::Value, _: &HashMap<String, tera::Value>) -> tera::Result<tera::Value> {
    let s = tera::from_value::<String>(value.clone())?;
    let mut out = String::new();
    for c in visible(&s).chars() {
        if c.is_ascii_punctuation() {
            out.push('\\');
        }
        out.push(c);
    }
    Ok(tera::Value::String(out))
}

/// `s` with its control characters (line breaks included) written as `\u{…}` escapes.
fn visible(s: &str) -> String {
    s.chars()
        .map(|c| {
            if c.is_control() {
                c.escape_unicode().to_string()
            } else {
                c.to_string()
            }
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn c_strings_escape_what_c_reads_specially() {
        let map = std::collections::HashMap::new();
        let value = c_str(&tera::Value::String("a\"b\\?\nθ".into()), &map).unwrap();
        assert_eq!(
            value,
            tera::Value::String("\"a\\\"b\\\\\\?\\n\\316\\270\"".into())
        );
    }
}
