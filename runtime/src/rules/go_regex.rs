//! Regular expressions as Go's RE2 (ytt's `@ytt:regexp`) reads them, compiled by the `regex`
//! crate: Go's Perl classes `\w`, `\d`, `\s` and the boundary `\b` are ASCII-only, the crate's
//! are Unicode (`\w` matches `é`), so they are spelled out as ASCII classes first.

use std::borrow::Cow;

/// `pattern` with Go's meaning of its Perl classes written out ([`compile`]).
fn ascii_classes(pattern: &str) -> Cow<'_, str> {
    if !pattern.contains('\\') {
        return Cow::Borrowed(pattern);
    }
    let mut out = String::with_capacity(pattern.len() + 16);
    let mut chars = pattern.chars();
    while let Some(c) = chars.next() {
        if c != '\\' {
            out.push(c);
            continue;
        }
        match chars.next() {
            Some('w') => out.push_str("[0-9A-Za-z_]"),
            Some('W') => out.push_str("[^0-9A-Za-z_]"),
            Some('d') => out.push_str("[0-9]"),
            Some('D') => out.push_str("[^0-9]"),
            Some('s') => out.push_str(r"[\t\n\f\r ]"),
            Some('S') => out.push_str(r"[^\t\n\f\r ]"),
            Some('b') => out.push_str(r"(?-u:\b)"),
            Some('B') => out.push_str(r"(?-u:\B)"),
            Some(n) => {
                out.push('\\');
                out.push(n);
            }
            None => out.push('\\'),
        }
    }
    Cow::Owned(out)
}

/// `pattern` compiled with Go's meaning of `\w`, `\d`, `\s` and `\b` (ASCII); a syntax error
/// is the crate's.
pub fn compile(pattern: &str) -> Result<regex::Regex, regex::Error> {
    regex::Regex::new(&ascii_classes(pattern))
}

#[cfg(test)]
mod tests {
    use super::compile;

    #[test]
    fn perl_classes_are_ascii_as_in_go() {
        assert!(!compile(r"^\w+$").unwrap().is_match("é"));
        assert!(compile(r"^[\w.-]+$").unwrap().is_match("a-b.c_1"));
        assert!(!compile(r"^[\w.-]+$").unwrap().is_match("aé"));
        assert!(compile(r"^\W$").unwrap().is_match("é"));
        assert!(!compile(r"^\d$").unwrap().is_match("٣"));
        assert!(!compile(r"^\s$").unwrap().is_match("\u{a0}"));
        assert!(compile(r"\bfoo\b").unwrap().is_match("a foo b"));
        assert!(compile(r"^\\w$").unwrap().is_match(r"\w"));
        assert!(compile(r"^\p{L}$").unwrap().is_match("é"));
        assert!(compile(r"^[^\d]$").unwrap().is_match("a"));
    }
}
