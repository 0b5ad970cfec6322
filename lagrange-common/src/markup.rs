//! Text made safe for HTML and XML, as element content or as an attribute value.

/// `s` as HTML or XML text or attribute value: `&`, `<`, `>`, `"` and `'` replaced by
/// their character references, everything else as it is.
pub fn escape_markup(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for c in s.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#39;"),
            c => out.push(c),
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn markup_characters_become_references_and_nothing_else_changes() {
        assert_eq!(
            escape_markup("<a href='x'>\"T & V\"</a>"),
            "&lt;a href=&#39;x&#39;&gt;&quot;T &amp; V&quot;&lt;/a&gt;"
        );
        assert_eq!(escape_markup("θ̇ ≥ 0"), "θ̇ ≥ 0");
        // Escaping twice escapes the ampersands of the first pass: no input is trusted.
        assert_eq!(escape_markup("&lt;"), "&amp;lt;");
    }
}
