//! Just enough of a Starlark lexer to find block structure in ytt's `end` dialect (strings and
//! comments are [`code_scan`](super::code_scan)'s).
//!
//! A logical line opens a block when it ends in `:` at bracket depth 0, outside strings and
//! comments (`if c: x` on one line opens none). Lines inside brackets, strings or after a `\`
//! continue the previous logical line and are copied verbatim.

pub(crate) use super::code_scan::without_comment;
use super::code_scan::{code_bytes, CodeBytes, Within, CODE_BLANKS};
use super::generated_names::GeneratedNames;

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
    string: Within,
    backslash: bool,
    /// The last line scanned held no code and came right after a line a `\` continued.
    blank_after_backslash: bool,
    /// The last line scanned ends in a `\`, wherever it stands (in a string, after a comment).
    ended_in_backslash: bool,
}

impl LineScanner {
    /// Whether the logical line goes on after the last line scanned (an open bracket or
    /// string, or a `\` at its end).
    pub fn is_open(&self) -> bool {
        self.depth > 0 || self.in_string() || self.backslash
    }

    /// How many brackets the last line scanned left open (outside strings).
    pub fn open_brackets(&self) -> i32 {
        self.depth
    }

    /// Whether the last line scanned left a bracket open (outside strings).
    pub fn in_brackets(&self) -> bool {
        self.depth > 0 && !self.in_string()
    }

    /// Whether the last line scanned ended in a `\` that continues it (outside brackets and
    /// strings).
    pub fn after_backslash(&self) -> bool {
        self.backslash && self.depth <= 0 && !self.in_string()
    }

    /// Whether the last line scanned ends in a `\` (in code, a string or a comment): ytt then
    /// leaves the white space that starts the next line as it is.
    pub fn ended_in_backslash(&self) -> bool {
        self.ended_in_backslash
    }

    /// A line of the program stands between the last line scanned and the next (one ytt
    /// generates for a node, or a key's code in its place): a `\` ending the last line
    /// continues it into that line, which ends the logical line (`#@ x = 1 + \`, a node, then
    /// `#@   y = 2` is a statement, its white space trimmed).
    pub fn line_between(&mut self) {
        self.backslash = false;
        self.ended_in_backslash = false;
    }

    /// Whether the last line scanned held no code (a comment, or nothing) and a `\` ending the
    /// line before it continued into it: starlark-go's error at its end (`x = 1 + \` then
    /// `# c`) is then on the next line.
    pub fn blank_after_backslash(&self) -> bool {
        self.blank_after_backslash
    }

    /// Whether the next line starts inside a string.
    pub fn in_string(&self) -> bool {
        self.string != Within::Code
    }

    pub fn scan(&mut self, line: &str) -> CodeLine {
        let continuation = self.is_open();
        let after_backslash = self.after_backslash();
        self.backslash = false;
        self.ended_in_backslash = line.ends_with('\\');
        let mut code = CodeBytes::resume(line, self.string);
        // The last byte that is no blank, outside comments (a string's quote for a string).
        let mut last_significant = None;
        for (at, c) in code.by_ref() {
            match c {
                b'#' => break,
                b'(' | b'[' | b'{' => self.depth += 1,
                b')' | b']' | b'}' => self.depth -= 1,
                b'\\' if at + 1 == line.len() => {
                    self.backslash = true;
                    continue;
                }
                _ => {}
            }
            // (A character of more than one byte is read at its first.)
            if line.is_char_boundary(at) && !line[at..].starts_with(CODE_BLANKS) {
                last_significant = Some(c);
            }
        }
        // (An unterminated one-line string ended with the line, for the Starlark parser to
        // report; one whose line ends in a `\` goes on.)
        self.string = code.within();
        self.blank_after_backslash =
            after_backslash && last_significant.is_none() && !self.is_open();
        let opens_block = !self.is_open() && last_significant == Some(b':');
        if continuation {
            return CodeLine::Continuation { opens_block };
        }
        CodeLine::Statement { opens_block }
    }
}

/// What follows the wrapped value of a `return` whose value `v` ends in a comma (`return 1,`:
/// starlark-go's `unparenthesized tuple with trailing comma`, which the value in brackets
/// would no longer be): the comma again, for the parser to refuse at that line.
pub fn trailing_comma(v: &str) -> &'static str {
    match v.trim_matches(CODE_BLANKS).ends_with(',') {
        true => ",",
        false => "",
    }
}

/// What closes the value of a `return` before a function's first node ([`wrap_returns`]).
pub const RETURN_BEFORE_NODES_CLOSE: &str = "), True)";

/// What follows the brackets that close a `return`'s value ([`wrap_returns`]) at the start of
/// `code`, when they stand there.
pub fn after_return_close(code: &str) -> Option<&str> {
    code.strip_prefix("))")
        .or_else(|| code.strip_prefix(RETURN_BEFORE_NODES_CLOSE))
}

/// A statement of a template function with each `return X` in it made
/// `return __ytt_ctx_end((X))` (which ends the function's node context): a `return` that starts
/// the statement, follows a `;` or ends a one-line compound (`if c: return 1`); `return` of no
/// value `return __ytt_ctx_end()`, or `return __ytt_ctx_end((BARE))` when `bare` is given (what
/// a function with a text context returns: its text). When the
/// statement goes on past this line (`continues`), the last return's value is left open, and
/// the second result says so: its `)` goes where the statement ends. A comment is not part of a
/// value. `names` are the program's ([`GeneratedNames::return_value_open`]).
///
/// ytt wraps only the `return`s that come after the function's first node in its text: one
/// before it (`before_nodes`, in a function without a text context) leaves a fragment
/// function's context open, which ytt cannot go on from. Such a return is
/// `return __ytt_ctx_end((X), True)` (`__ytt_ctx_end(None, True)` with no value), which
/// fails where it would leave a fragment function's context open.
pub fn wrap_returns(
    stmt: &str,
    continues: bool,
    bare: Option<&str>,
    before_nodes: bool,
    names: &GeneratedNames,
) -> (String, bool) {
    let before_nodes = before_nodes && bare.is_none();
    let return_value_open = names.return_value_open();
    let ident = |c: char| c.is_alphanumeric() || c == '_';
    let mut out = String::with_capacity(stmt.len() + 32);
    let (mut copied, mut value_at) = (0, None::<usize>);
    // A `return` of no value is `__ytt_ctx_end()`: the function's nodes, if it builds any.
    let close = |out: &mut String, value: &str| match (value.trim_matches(CODE_BLANKS), bare) {
        ("", None) if before_nodes => {
            out.pop();
            out.push_str("None, True)");
        }
        ("", None) => {
            out.pop();
            out.push(')');
        }
        (v, None) if before_nodes => {
            out.push_str(v);
            out.push_str(RETURN_BEFORE_NODES_CLOSE);
            out.push_str(trailing_comma(v));
        }
        ("", Some(v)) | (v, _) => {
            out.push_str(v);
            out.push_str("))");
            out.push_str(trailing_comma(v));
        }
    };
    let (mut depth, mut at_start) = (0i32, true);
    let mut code_end = stmt.len();
    for (at, c) in code_bytes(stmt) {
        match c {
            b'#' => {
                code_end = at;
                break;
            }
            b'(' | b'[' | b'{' => depth += 1,
            b')' | b']' | b'}' => depth -= 1,
            b';' | b':' if depth == 0 => {
                if let Some(v) = value_at.filter(|_| c == b';') {
                    close(&mut out, &stmt[v..at]);
                    (copied, value_at) = (at, None);
                }
                at_start = true;
                continue;
            }
            // (A character of more than one byte is read at its first.)
            _ if !stmt.is_char_boundary(at) || stmt[at..].starts_with(CODE_BLANKS) => continue,
            _ if at_start
                && value_at.is_none()
                && stmt[at..].starts_with("return")
                && !stmt[at + 6..].starts_with(ident) =>
            {
                out.push_str(&stmt[copied..at]);
                out.push_str(&return_value_open);
                value_at = Some(at + 6);
                copied = at + 6;
            }
            _ => {}
        }
        at_start = false;
    }
    match value_at {
        Some(v) if continues => {
            out.push_str(stmt[v..].trim_start_matches(CODE_BLANKS));
            (out, true)
        }
        Some(v) => {
            close(&mut out, &stmt[v..code_end]);
            (out, false)
        }
        None => {
            out.push_str(&stmt[copied..]);
            (out, false)
        }
    }
}

/// The name `end` in a line of code that starts outside strings: ytt's scanner reads every
/// `end` name as the end of a block (an outdent), wherever it stands, inside brackets or after
/// a `;` as well as at the start of a statement. The byte offset of the first one, and whether
/// only blanks and a comment follow it on the line (its newline is then read with it).
pub fn end_name(code: &str) -> Option<(usize, bool)> {
    let at = first_identifier(code, "end")?;
    let last = without_comment(&code[at + 3..])
        .trim_matches(CODE_BLANKS)
        .is_empty();
    Some((at, last))
}

/// Whether `code` names the identifier `name` outside strings and comments, an attribute's
/// name included (`x.pass`: ytt's scanner reads every identifier token alike).
pub fn names_identifier(code: &str, name: &str) -> bool {
    first_identifier(code, name).is_some()
}

/// The byte offset where `code` first names the identifier `name` outside strings and comments
/// (also as an attribute's name).
pub fn first_identifier(code: &str, name: &str) -> Option<usize> {
    if !code.contains(name) {
        return None;
    }
    let ident_char = |c: char| c.is_alphanumeric() || c == '_';
    for (at, c) in code_bytes(code) {
        if c == b'#' {
            break;
        }
        if !code.is_char_boundary(at) || !code[at..].starts_with(name) {
            continue;
        }
        let before = code[..at].chars().next_back();
        if before.is_none_or(|b| !ident_char(b)) && !code[at + name.len()..].starts_with(ident_char)
        {
            return Some(at);
        }
    }
    None
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
    fn a_line_of_no_code_right_after_a_backslash() {
        let after = |lines: &[&str]| {
            let mut scanner = LineScanner::default();
            lines.iter().for_each(|l| {
                scanner.scan(l);
            });
            scanner.blank_after_backslash()
        };
        assert!(after(&["x = 1 + \\", "# c"]));
        assert!(after(&["x = 1 + \\", ""]));
        assert!(!after(&["x = 1 + \\", "# c", "# d"]));
        assert!(!after(&["x = 1 + \\", "2"]));
        assert!(!after(&["x = [1, \\", "# c"]));
        assert!(!after(&["x = 1", "# c"]));
    }

    #[test]
    fn returns_end_the_node_context() {
        let wrapped = |s: &str| wrap_returns(s, false, None, false, &GeneratedNames::default()).0;
        assert_eq!(wrapped("return 1 # c"), "return __ytt_ctx_end((1))");
        assert_eq!(wrapped("return"), "return __ytt_ctx_end()");
        assert_eq!(wrapped("return # c"), "return __ytt_ctx_end()");
        assert_eq!(
            wrap_returns(
                "if c: return",
                false,
                Some("t"),
                false,
                &GeneratedNames::default()
            )
            .0,
            "if c: return __ytt_ctx_end((t))"
        );
        assert_eq!(
            wrapped("x = 1; return x"),
            "x = 1; return __ytt_ctx_end((x))"
        );
        assert_eq!(
            wrapped("if c: return {'a': 1}; y = 2"),
            "if c: return __ytt_ctx_end(({'a': 1})); y = 2"
        );
        assert_eq!(wrapped("returns = 1"), "returns = 1");
        assert_eq!(
            wrapped("return lambda x: x"),
            "return __ytt_ctx_end((lambda x: x))"
        );
        assert_eq!(wrapped("x = '; return 1'"), "x = '; return 1'");
        assert_eq!(
            wrap_returns(
                "return [1, # c",
                true,
                None,
                false,
                &GeneratedNames::default()
            ),
            ("return __ytt_ctx_end(([1, # c".to_string(), true)
        );
        assert_eq!(
            wrap_returns("x = [1,", true, None, false, &GeneratedNames::default()),
            ("x = [1,".to_string(), false)
        );
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
    fn end_names_anywhere_in_code() {
        assert_eq!(end_name("x = [1, end"), Some((8, true)));
        assert_eq!(end_name("x = 1; end # c"), Some((7, true)));
        assert_eq!(end_name("end )"), Some((0, false)));
        assert_eq!(end_name("x = a.end + 1"), Some((6, false)));
        assert_eq!(end_name("x = 'end' # end"), None);
        assert_eq!(end_name("ends = endless + _end + end2"), None);
    }

    #[test]
    fn names_an_identifier_as_the_scanner_reads_it() {
        assert!(names_identifier("x = pass", "pass"));
        assert!(names_identifier("\"x\".upper().pass()", "pass"));
        assert!(names_identifier("1.pass", "pass"));
        assert!(!names_identifier("load(\"h.star\", \"pass\")", "pass"));
        assert!(!names_identifier("pass_ = 'pass' # pass", "pass"));
        assert!(!names_identifier("é = passé", "pass"));
    }
}
