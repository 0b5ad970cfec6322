//! Text made safe for the page: HTML text and attribute values, JSON strings inside a
//! script element, and numbers as a table shows them.

use std::fmt::Write as _;

use crate::error::Short;

/// A number as a table shows it: as written where that is short, else in scientific
/// notation ([`Short`]).
pub(super) fn number(v: f64) -> String {
    Short(v).to_string()
}

pub(crate) use lagrange_common::escape_markup as escape;

/// `s` as a JSON string that is safe inside a `<script>` element.
pub(super) fn json_string(s: &str) -> String {
    let mut out = String::from("\"");
    for c in s.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '<' | '>' | '&' => {
                let _ = write!(out, "\\u{:04x}", c as u32);
            }
            c if (c as u32) < 0x20 || c == '\u{2028}' || c == '\u{2029}' => {
                let _ = write!(out, "\\u{:04x}", c as u32);
            }
            c => out.push(c),
        }
    }
    out.push('"');
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn json_strings_cannot_close_the_script() {
        assert_eq!(
            json_string("a</script>\"\n"),
            "\"a\\u003c/script\\u003e\\\"\\u000a\""
        );
    }
}
