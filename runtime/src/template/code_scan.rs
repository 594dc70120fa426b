//! The one scanner of Starlark source outside string literals and comments, which every scan
//! of template code for brackets, `:`, `#`, names or operators goes through.
//!
//! The rule is starlark-go's scanner's (and the starlark crate's):
//! - a string literal opens at `'` or `"`, tripled (`'''`, `"""`) for one that may span lines;
//!   a prefix (`r`, `b`, `rb`, `br`) is a name's letters before it and changes nothing here:
//!   in every form a `\` takes the byte after it into the literal (`r"\""` is one literal);
//! - a one-line literal that reaches a line break (not escaped by a `\`) or the end of the
//!   text unclosed ends there (the scanner's error, reported by the parser): the line break is
//!   code again;
//! - a `#` outside literals starts a comment that runs to the end of its line (the line break
//!   itself is code).

/// Where a scan stands between two texts (a template's code lines, scanned one by one): in
/// code, or inside a string literal that goes on.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) enum Within {
    #[default]
    Code,
    /// A literal opened by `quote` (tripled when `triple`): a triple-quoted one, or a one-line
    /// one whose line ended in an escaping `\`.
    String { quote: u8, triple: bool },
}

/// The bytes of a Starlark source text outside string literals and comments, each with its
/// offset. A literal that opens in the text is given as its first quote (`'` or `"`, bytes
/// that are never code otherwise), the rest of it left out; one that goes on from before the
/// text (see [`CodeBytes::resume`]) is left out whole. A comment is given as its `#`, the rest
/// of its line left out.
pub(crate) struct CodeBytes<'a> {
    bytes: &'a [u8],
    at: usize,
    within: Within,
}

/// [`CodeBytes`] of `text`, starting in code.
pub(crate) fn code_bytes(text: &str) -> CodeBytes<'_> {
    CodeBytes::resume(text, Within::Code)
}

impl<'a> CodeBytes<'a> {
    /// The scan of `text` starting `within` a literal left open by the text before it.
    pub(crate) fn resume(text: &'a str, within: Within) -> Self {
        CodeBytes {
            bytes: text.as_bytes(),
            at: 0,
            within,
        }
    }

    /// Where the scan stands once every byte it has yielded has been read: at the end of the
    /// text, inside the literal it leaves open, if any.
    pub(crate) fn within(&self) -> Within {
        self.within
    }

    /// Reads the literal the scan is inside up to its end (past its closing quotes) or the
    /// text's; `Within::Code` once it is closed, or ended unclosed (see the module's rule).
    fn skip_literal(&mut self, quote: u8, triple: bool) {
        let b = self.bytes;
        while self.at < b.len() {
            match b[self.at] {
                b'\\' if self.at + 1 < b.len() => self.at += 2,
                // A `\` that ends the text: the literal goes on with the next one.
                b'\\' => {
                    self.at += 1;
                    return;
                }
                b'\n' if !triple => break,
                c if c == quote && !triple => {
                    self.at += 1;
                    break;
                }
                c if c == quote && b[self.at..].starts_with(&[quote, quote, quote]) => {
                    self.at += 3;
                    self.within = Within::Code;
                    return;
                }
                _ => self.at += 1,
            }
        }
        // (A triple-quoted literal the text ends in goes on.)
        if !triple {
            self.within = Within::Code;
        }
    }
}

impl Iterator for CodeBytes<'_> {
    type Item = (usize, u8);

    fn next(&mut self) -> Option<(usize, u8)> {
        if let Within::String { quote, triple } = self.within {
            self.skip_literal(quote, triple);
        }
        let b = self.bytes;
        let (at, c) = (self.at, *b.get(self.at)?);
        self.at += 1;
        match c {
            b'#' => {
                while self.at < b.len() && b[self.at] != b'\n' {
                    self.at += 1;
                }
            }
            b'"' | b'\'' => {
                let triple = b[at..].starts_with(&[c, c, c]);
                self.at += if triple { 2 } else { 0 };
                self.within = Within::String { quote: c, triple };
            }
            _ => {}
        }
        Some((at, c))
    }
}

/// Where starlark-go's scanner reads `text`'s end: its first NUL outside string literals (in a
/// comment too, which a NUL ends), if any. A NUL inside a literal is one of its bytes.
pub(crate) fn program_end(text: &str) -> Option<usize> {
    code_bytes(text).find_map(|(at, c)| match c {
        0 => Some(at),
        b'#' => {
            let comment = &text[at..];
            let comment = &comment[..comment.find('\n').unwrap_or(comment.len())];
            comment.find('\0').map(|n| at + n)
        }
        _ => None,
    })
}

/// The blanks starlark-go's scanner skips between tokens: spaces and tabs. Other white space
/// (a no-break space, U+3000) is an `unexpected input character` in code, even at a line's
/// end.
pub(crate) const CODE_BLANKS: [char; 2] = [' ', '\t'];

/// Whether `text` (a line) ends in a `\` followed by blanks only, outside string literals and
/// comments: starlark-go's scanner takes a `\` only right before a line break (`stray
/// backslash in program`), where the starlark crate's takes blanks between them.
pub(crate) fn backslash_before_blanks(text: &str) -> bool {
    let code = text.trim_end_matches(CODE_BLANKS);
    code.len() < text.len()
        && code.ends_with('\\')
        && code_bytes(text).any(|(at, _)| at == code.len() - 1)
}

/// Whether the code line `text` (outside any string) holds no token: blanks and a comment
/// at most. starlark-go's scanner reads past such lines to the next token.
pub(crate) fn holds_no_token(text: &str) -> bool {
    without_comment(text).trim_matches(CODE_BLANKS).is_empty()
}

/// `text` (a line) without the comment that ends it (`1 # c` → `1 `).
pub(crate) fn without_comment(text: &str) -> &str {
    match code_bytes(text).find(|&(_, c)| c == b'#') {
        Some((at, _)) => &text[..at],
        None => text,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn backslash_before_blanks_outside_strings_and_comments() {
        assert!(backslash_before_blanks("x = 1 + \\ "));
        assert!(!backslash_before_blanks("x = 1 + \\"));
        assert!(!backslash_before_blanks("x = \"\\ \""));
        assert!(!backslash_before_blanks("x = 1 # \\ "));
    }

    #[test]
    fn program_end_is_a_nul_outside_string_literals() {
        assert_eq!(program_end("1 \0 2"), Some(2));
        assert_eq!(program_end("\"a\0\" + '\0'"), None);
        assert_eq!(program_end("'''a\0''' \0"), Some(9));
        assert_eq!(program_end("1 # c\0\n2"), Some(5));
        assert_eq!(program_end("1 # c\n\"\0\""), None);
    }

    fn code(text: &str) -> String {
        code_bytes(text).map(|(_, c)| c as char).collect()
    }

    #[test]
    fn literals_of_every_form_are_left_out() {
        assert_eq!(code("f('a(', \"b)\") # )"), "f(', \") #");
        assert_eq!(code("x = \"\"\"a\"b\n)\"\"\" + 1"), "x = \" + 1");
        assert_eq!(code("r'\\'' + b\"\\\\\" + rb'''x'''"), "r' + b\" + rb'");
        assert_eq!(code("'#' # '"), "' #");
        // A one-line literal left open ends at its line break, which is code.
        assert_eq!(code("x = 'a(\ny)"), "x = '\ny)");
        // An escaped line break keeps it open.
        assert_eq!(code("x = 'a\\\n(' + 1"), "x = ' + 1");
        assert_eq!(code("x = 1 # c\ny"), "x = 1 #\ny");
    }

    #[test]
    fn a_scan_resumes_inside_a_literal() {
        let mut first = code_bytes("s = '''a (");
        assert_eq!(first.by_ref().count(), 5);
        let within = first.within();
        assert_eq!(
            within,
            Within::String {
                quote: b'\'',
                triple: true
            }
        );
        let rest: String = CodeBytes::resume("b ''' + (", within)
            .map(|(_, c)| c as char)
            .collect();
        assert_eq!(rest, " + (");
        // A one-line literal goes on past a `\` that ends its text, and only then.
        let mut escaped = code_bytes("s = 'a\\");
        escaped.by_ref().for_each(drop);
        assert_eq!(
            escaped.within(),
            Within::String {
                quote: b'\'',
                triple: false
            }
        );
        let mut open = code_bytes("s = 'a");
        open.by_ref().for_each(drop);
        assert_eq!(open.within(), Within::Code);
    }

    #[test]
    fn comments_end_the_code_outside_strings() {
        assert_eq!(without_comment("while c: # c"), "while c: ");
        assert_eq!(
            without_comment(" '#' + \"#\\\"#\" # c"),
            " '#' + \"#\\\"#\" "
        );
        assert_eq!(without_comment("# only"), "");
        assert_eq!(without_comment("s = '''# a''' # b"), "s = '''# a''' ");
    }
}
