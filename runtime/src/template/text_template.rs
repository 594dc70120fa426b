//! The strings of `#@yaml/text-templated-strings`: text with `(@= VALUE @)` and code blocks
//! `(@ CODE @)` (`(@ if c: @)A(@ else: @)B(@ end @)`, `(@ for i in x: @)...(@ end @)`,
//! `(@ x = 1 @)`), where `(@-` trims the whitespace at the end of the text before and `-@)` the
//! whitespace at the start of the text after, as ytt reads them.

/// A piece of a templated text.
#[derive(Debug, PartialEq)]
pub(super) enum Piece<'a> {
    Text(&'a str),
    Value(&'a str),
    Code(&'a str),
}

/// The pieces of `text`; `None` when it has no `(@` (nothing to template) or a `(@` that no
/// `@)` closes (left as it is).
pub(super) fn pieces(text: &str) -> Option<Vec<Piece<'_>>> {
    if !text.contains("(@") {
        return None;
    }
    let mut out = Vec::new();
    let (mut rest, mut trim_next) = (text, false);
    while let Some(start) = rest.find("(@") {
        let end = rest[start..].find("@)")? + start;
        let mut before = &rest[..start];
        if trim_next {
            before = before.trim_start();
        }
        let mut code = &rest[start + 2..end];
        if let Some(c) = code.strip_prefix('-') {
            before = before.trim_end();
            code = c;
        }
        trim_next = code.ends_with('-');
        if trim_next {
            code = &code[..code.len() - 1];
        }
        if !before.is_empty() {
            out.push(Piece::Text(before));
        }
        out.push(match code.strip_prefix('=') {
            Some(value) => Piece::Value(value),
            None => Piece::Code(code),
        });
        rest = &rest[end + 2..];
    }
    let rest = if trim_next { rest.trim_start() } else { rest };
    if !rest.is_empty() {
        out.push(Piece::Text(rest));
    }
    Some(out)
}

/// `text` as a Starlark string literal both starlark-go and the `starlark` crate read back:
/// ASCII control characters as `\xNN`, everything else but `"` and `\\` as it is (Rust's `{:?}`
/// writes `\u{1b}`, which neither reads).
pub(super) fn quote(text: &str) -> String {
    let mut out = String::with_capacity(text.len() + 2);
    out.push('"');
    for c in text.chars() {
        match c {
            '"' | '\\' => {
                out.push('\\');
                out.push(c);
            }
            '\n' => out.push_str("\\n"),
            c if c.is_ascii_control() => out.push_str(&format!("\\x{:02x}", c as u32)),
            c => out.push(c),
        }
    }
    out.push('"');
    out
}

#[cfg(test)]
mod tests {
    use super::Piece::*;
    use super::*;

    #[test]
    fn values_code_and_trimming() {
        assert_eq!(pieces("plain"), None);
        assert_eq!(
            pieces("a(@= x @)b").unwrap(),
            vec![Text("a"), Value(" x "), Text("b")]
        );
        assert_eq!(
            pieces("a (@- if True: -@) b (@- end @)").unwrap(),
            vec![Text("a"), Code(" if True: "), Text("b"), Code(" end ")]
        );
        assert_eq!(pieces("(@ x = 5"), None);
    }
}
