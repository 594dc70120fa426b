//! Just enough of a Starlark lexer to find block structure in ytt's `end` dialect.
//!
//! A logical line opens a block when it ends in `:` at bracket depth 0, outside strings and
//! comments (`if c: x` on one line opens none). Lines inside brackets, strings or after a `\`
//! continue the previous logical line and are copied verbatim.

/// What a physical code line is.
#[derive(Debug, PartialEq)]
pub enum CodeLine {
    /// The line continues an open bracket, string or backslash continuation;
    /// `opens_block` when it ends a logical line that ends in `:`.
    Continuation { opens_block: bool },
    /// The line starts a statement; `opens_block` when its logical line ends in `:`.
    /// For a statement that continues on later lines, this is decided on its first line
    /// (ytt block openers do not span lines in practice).
    Statement { opens_block: bool },
}

/// Carries lexer state (open brackets and strings) from one code line to the next.
#[derive(Default, Debug)]
pub struct LineScanner {
    depth: i32,
    string: Option<(char, bool)>,
    backslash: bool,
}

impl LineScanner {
    pub fn scan(&mut self, line: &str) -> CodeLine {
        let continuation = self.depth > 0 || self.string.is_some() || self.backslash;
        self.backslash = false;
        let chars: Vec<char> = line.chars().collect();
        let mut last_significant = None;
        let mut i = 0;
        while i < chars.len() {
            let c = chars[i];
            if let Some((q, triple)) = self.string {
                if c == '\\' {
                    i += 2;
                    continue;
                }
                if c == q {
                    if !triple {
                        self.string = None;
                    } else if chars.get(i + 1) == Some(&q) && chars.get(i + 2) == Some(&q) {
                        self.string = None;
                        i += 3;
                        last_significant = Some(q);
                        continue;
                    }
                }
                last_significant = Some(c);
                i += 1;
                continue;
            }
            match c {
                '#' => break,
                '"' | '\'' => {
                    let triple = chars.get(i + 1) == Some(&c) && chars.get(i + 2) == Some(&c);
                    self.string = Some((c, triple));
                    i += if triple { 3 } else { 1 };
                    last_significant = Some(c);
                    continue;
                }
                '(' | '[' | '{' => self.depth += 1,
                ')' | ']' | '}' => self.depth -= 1,
                '\\' if i + 1 == chars.len() => {
                    self.backslash = true;
                    i += 1;
                    continue;
                }
                _ => {}
            }
            if !c.is_whitespace() {
                last_significant = Some(c);
            }
            i += 1;
        }
        if self.string.is_some_and(|(_, triple)| !triple) {
            // An unterminated one-line string: let the Starlark parser report it.
            self.string = None;
        }
        let ends_open = self.depth > 0 || self.string.is_some() || self.backslash;
        let opens_block = !ends_open && last_significant == Some(':');
        if continuation {
            return CodeLine::Continuation { opens_block };
        }
        CodeLine::Statement { opens_block }
    }
}

/// Renames an identifier outside strings, comments and attribute accesses (`x.assert` stays).
pub fn rename_identifier(code: &str, from: &str, to: &str) -> String {
    if !code.contains(from) {
        return code.to_string();
    }
    let chars: Vec<char> = code.chars().collect();
    let from_chars: Vec<char> = from.chars().collect();
    let mut out = String::with_capacity(code.len() + 4);
    let mut string: Option<char> = None;
    let mut i = 0;
    while i < chars.len() {
        let c = chars[i];
        if let Some(q) = string {
            out.push(c);
            if c == '\\' && i + 1 < chars.len() {
                out.push(chars[i + 1]);
                i += 2;
                continue;
            }
            if c == q {
                string = None;
            }
            i += 1;
            continue;
        }
        if c == '"' || c == '\'' {
            string = Some(c);
            out.push(c);
            i += 1;
            continue;
        }
        if c == '#' {
            out.extend(&chars[i..]);
            break;
        }
        let ident_char = |c: char| c.is_alphanumeric() || c == '_';
        let starts_here = chars[i..].starts_with(&from_chars)
            && (i == 0 || !ident_char(chars[i - 1]) && chars[i - 1] != '.')
            && chars
                .get(i + from_chars.len())
                .is_none_or(|&n| !ident_char(n));
        if starts_here {
            // `load("@ytt:assert", "assert")` binds the name through a string: keep the
            // module's symbol and bind it under the new name.
            out.push_str(to);
            i += from_chars.len();
            continue;
        }
        out.push(c);
        i += 1;
    }
    fix_assert_load(&out, from, to)
}

/// `load("@ytt:assert", "assert")` → `load("@ytt:assert", assert_="assert")`.
fn fix_assert_load(code: &str, from: &str, to: &str) -> String {
    let needle = format!("\"{from}\"");
    if !code.trim_start().starts_with("load(") || !code.contains(&needle) {
        return code.to_string();
    }
    code.replacen(&format!(", {needle}"), &format!(", {to}={needle}"), 1)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn opens(line: &str) -> bool {
        matches!(
            LineScanner::default().scan(line),
            CodeLine::Statement { opens_block: true }
        )
    }

    #[test]
    fn block_openers() {
        assert!(opens("if x:"));
        assert!(opens("def f(a, b={\"k\": 1}):  # note:"));
        assert!(!opens("if x: return 1"));
        assert!(!opens("x = {'a:': 1}"));
        assert!(!opens("y = \"ends with:\""));
    }

    #[test]
    fn continuations() {
        let mut s = LineScanner::default();
        assert_eq!(s.scan("x = ["), CodeLine::Statement { opens_block: false });
        assert_eq!(
            s.scan("  1,"),
            CodeLine::Continuation { opens_block: false }
        );
        assert_eq!(s.scan("]"), CodeLine::Continuation { opens_block: false });
        assert_eq!(
            s.scan("if a and \\"),
            CodeLine::Statement { opens_block: false }
        );
        assert_eq!(s.scan("  b:"), CodeLine::Continuation { opens_block: true });
        assert_eq!(
            s.scan("s = \"\"\"if x:"),
            CodeLine::Statement { opens_block: false }
        );
        assert_eq!(
            s.scan("end \"\"\""),
            CodeLine::Continuation { opens_block: false }
        );
        assert_eq!(s.scan("z = 1"), CodeLine::Statement { opens_block: false });
    }

    #[test]
    fn renames_assert() {
        assert_eq!(
            rename_identifier("assert.min(1)", "assert", "assert_"),
            "assert_.min(1)"
        );
        assert_eq!(
            rename_identifier("x.assert + 'assert'", "assert", "assert_"),
            "x.assert + 'assert'"
        );
        assert_eq!(
            rename_identifier("load(\"@ytt:assert\", \"assert\")", "assert", "assert_"),
            "load(\"@ytt:assert\", assert_=\"assert\")"
        );
        assert_eq!(
            rename_identifier("asserted(1)", "assert", "assert_"),
            "asserted(1)"
        );
    }
}
