//! The strings of `#@yaml/text-templated-strings`: text with `(@= VALUE @)` and code blocks
//! `(@ CODE @)` (`(@ if c: @)A(@ else: @)B(@ end @)`, `(@ for i in x: @)...(@ end @)`,
//! `(@ x = 1 @)`), where `(@-` trims the whitespace at the end of the text before and `-@)` the
//! whitespace at the start of the text after, as ytt reads them.

use crate::value::Value;
use crate::yaml::parse::{RawFile, RawNode, RawValue};

/// A piece of a templated text: a text, a `(@= CODE @)` whose value is written into it, or a
/// `(@ CODE @)` statement.
#[derive(Debug, PartialEq)]
pub(super) struct Piece<'a> {
    pub kind: PieceKind,
    /// The text, or the code without its markers (`=`, `-`).
    pub code: &'a str,
    /// What ytt quotes as the line of an error in the piece: a value's whole `(@...@)` content,
    /// a statement's code, a text as it is.
    pub quote: &'a str,
    /// The line of the text the piece starts on, from 1.
    pub line: u32,
}

#[derive(Debug, PartialEq, Clone, Copy)]
pub(super) enum PieceKind {
    Text,
    Value,
    Code,
}

/// The pieces of `text`; `None` when it has neither `(@` nor `@)` (nothing to template). The
/// error is ytt's when its lexer refuses the text, with lines counted from `first_line`, the
/// line of the text's node.
pub(super) fn pieces(text: &str, first_line: u32) -> Result<Option<Vec<Piece<'_>>>, String> {
    if !text.contains("(@") && !text.contains("@)") {
        return Ok(None);
    }
    // ytt's lexer: texts and codes alternate, starting and ending with a text (maybe empty).
    let mut raw: Vec<(&str, u32)> = Vec::new();
    let (mut start, mut start_line) = (0, 1);
    let (mut line, mut col, mut last) = (1u32, 1u32, '\0');
    let at = |line: u32, col: u32| format!("at line {} col {col}", first_line + line - 1);
    for (i, c) in text.char_indices() {
        let in_code = raw.len() % 2 == 1;
        if last == '(' && c == '@' {
            if in_code {
                return Err(format!("Unexpected code opening '(@' {}", at(line, col)));
            }
            raw.push((&text[start..i - 1], start_line));
            (start, start_line) = (i + 1, line);
        } else if last == '@' && c == ')' {
            if !in_code {
                // ytt's message, cut at its first `)` as ytt prints it.
                return Err("Unexpected code closing '@".into());
            }
            if i - 1 < start {
                // `(@)`: ytt's lexer fails on it (a Go panic); this is schemac's wording.
                return Err(format!(
                    "Code closing '@)' overlaps its opening '(@' {}",
                    at(line, col)
                ));
            }
            raw.push((&text[start..i - 1], start_line));
            (start, start_line) = (i + 1, line);
        }
        if c == '\n' {
            (line, col) = (line + 1, 1);
        } else {
            col += 1;
        }
        last = c;
    }
    if raw.len() % 2 == 1 {
        return Err("Missing code closing '@".into());
    }
    raw.push((&text[start..], start_line));
    let trims_before = |content: &str| content.starts_with('-');
    let trims_after = |content: &str| content.ends_with('-');
    let mut out = Vec::with_capacity(raw.len());
    for (i, &(content, line)) in raw.iter().enumerate() {
        if i % 2 == 0 {
            // Every text is a piece, even an empty one, as in ytt: an error in the code
            // before it may be placed on its line. ytt quotes it as it was before a `(@-`
            // after it trimmed its end.
            let mut text = content;
            if i > 0 && trims_after(raw[i - 1].0) {
                text = text.trim_start();
            }
            let quote = text;
            if raw.get(i + 1).is_some_and(|next| trims_before(next.0)) {
                text = text.trim_end();
            }
            out.push(Piece {
                kind: PieceKind::Text,
                code: text,
                quote,
                line,
            });
            continue;
        }
        // ytt's markers: `=` (or `-=`) prints, and the code is what is left once a leading
        // `-=`, then `=`, then `-`, and a trailing `-` are taken off.
        let prints = content.starts_with('=') || content.starts_with("-=");
        let code = content.strip_prefix("-=").unwrap_or(content);
        let code = code.strip_prefix('=').unwrap_or(code);
        let code = code.strip_prefix('-').unwrap_or(code);
        let code = code.strip_suffix('-').unwrap_or(code);
        out.push(match prints {
            true => Piece {
                kind: PieceKind::Value,
                code,
                quote: content,
                line,
            },
            false => Piece {
                kind: PieceKind::Code,
                code,
                quote: code,
                line,
            },
        });
    }
    Ok(Some(out))
}

/// How many nodes ytt numbers in the text template `text`: its root, each text (one more than
/// its code pieces, empty ones too) and each `(@= @)` value. (A text ytt's lexer refuses is
/// refused before any node is numbered.)
pub(super) fn node_count(text: &str) -> u32 {
    match pieces(text, 1) {
        Ok(Some(pieces)) => {
            let numbered = pieces.iter().filter(|p| p.kind != PieceKind::Code);
            1 + numbered.count() as u32
        }
        Ok(None) | Err(_) => 2,
    }
}

/// The first text of `file` that ytt's text-template lexer refuses (in a key or a string value
/// of a node under `#@yaml/text-templated-strings`): its line and ytt's message.
pub(super) fn refused(file: &RawFile) -> Option<(u32, String)> {
    fn walk(node: &RawNode, templated: bool) -> Option<(u32, String)> {
        let templated = templated || is_templated(node);
        if templated {
            let key = node.key_str();
            let value = match &node.value {
                RawValue::Scalar(Value::Str(text)) => Some(text.as_str()),
                _ => None,
            };
            for text in key.into_iter().chain(value) {
                if let Err(message) = pieces(text, node.line) {
                    return Some((node.line, message));
                }
            }
        }
        match &node.value {
            RawValue::Map(items) | RawValue::Array(items) => {
                items.iter().find_map(|n| walk(n, templated))
            }
            RawValue::Scalar(_) => None,
        }
    }
    // (no node is templated when no document is and nothing below them has a comment)
    if !file.comments_below_documents && !file.docs.iter().any(is_templated) {
        return None;
    }
    file.docs.iter().find_map(|d| walk(d, false))
}

/// Whether `node` is annotated `#@yaml/text-templated-strings` (its strings and those of the
/// nodes under it are text templates).
pub(super) fn is_templated(node: &RawNode) -> bool {
    node.comments
        .iter()
        .any(|c| super::compile::split_annotation(&c.text).0 == "yaml/text-templated-strings")
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
    use super::*;

    fn piece(
        kind: PieceKind,
        code: &'static str,
        quote: &'static str,
        line: u32,
    ) -> Piece<'static> {
        Piece {
            kind,
            code,
            quote,
            line,
        }
    }

    #[test]
    fn values_code_and_trimming() {
        use PieceKind::*;
        assert_eq!(pieces("plain", 1), Ok(None));
        assert_eq!(
            pieces("a(@= x @)b", 1).unwrap().unwrap(),
            vec![
                piece(Text, "a", "a", 1),
                piece(Value, " x ", "= x ", 1),
                piece(Text, "b", "b", 1)
            ]
        );
        assert_eq!(
            pieces("a (@- if True: -@) b\n(@- end @)", 1)
                .unwrap()
                .unwrap(),
            vec![
                piece(Text, "a", "a ", 1),
                piece(Code, " if True: ", " if True: ", 1),
                piece(Text, "b", "b\n", 1),
                piece(Code, " end ", " end ", 2),
                piece(Text, "", "", 2)
            ]
        );
        // ytt takes `-=` off first, then `=`, then `-`.
        assert_eq!(
            pieces("(@=-x-@)", 1).unwrap().unwrap(),
            vec![
                piece(Text, "", "", 1),
                piece(Value, "x", "=-x-", 1),
                piece(Text, "", "", 1)
            ]
        );
    }

    #[test]
    fn lexer_errors_as_ytt_words_them() {
        assert_eq!(pieces("(@ x = 5", 4), Err("Missing code closing '@".into()));
        assert_eq!(
            pieces("a @) b", 4),
            Err("Unexpected code closing '@".into())
        );
        assert_eq!(
            pieces("ab\n x (@= (@ 1 @)", 4),
            Err("Unexpected code opening '(@' at line 5 col 9".into())
        );
        assert!(pieces("(@)", 1).is_err());
    }
}
