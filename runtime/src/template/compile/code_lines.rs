//! The template's `#@` code lines compiled into the program: statements, blocks opened and
//! closed (`end`, `else`, `elif`), lines continued inside brackets and strings, and the words
//! ytt's scanner refuses (`pass`) or reads as outdents (`end` names).

use super::*;
use crate::template::code_scan::{
    backslash_before_blanks, code_bytes, holds_no_token, without_comment, CODE_BLANKS,
};
use crate::template::lexer::CodeLine;
use crate::template::refused::node_specific;
use crate::template::reserved_words::{pass_position, RESERVED_PASS};

/// Whether starlark-go's scanner refuses the first token of `code`, inside `brackets` open
/// brackets (`crate::starlark::first_token`; without the interpreter, whose parse would tell
/// that token's error from another, the program is only looked at, never run).
fn scanner_refuses_first_token(code: &str, brackets: i32) -> bool {
    #[cfg(feature = "starlark")]
    return crate::starlark::first_token::scanner_refuses_first_token(code, brackets);
    #[cfg(not(feature = "starlark"))]
    {
        let _ = (code, brackets);
        false
    }
}

/// starlark-go's scanner's error for a `\` that no line break follows.
const STRAY_BACKSLASH: &str = "stray backslash in program";

/// How many blocks (`if`, `for`, `def`, `while`) may nest in one another in a template or a
/// `.star` file, where ytt's `end` closes them. The program written for the interpreter
/// indents each line by its block depth, so its text grows with the square of the depth (10,000
/// nested `#@ if` took 5.8 s and 360 MB, 30,000 55 s and 2.8 GB; ytt 0.9 s and 6 s). Raised with
/// `SCHEMAC_STARLARK_BLOCK_DEPTH`.
pub const DEFAULT_MAX_BLOCK_DEPTH: usize = crate::budget_vars::STARLARK_BLOCK_DEPTH.default_size();

fn max_block_depth() -> usize {
    static DEPTH: std::sync::OnceLock<usize> = std::sync::OnceLock::new();
    *DEPTH.get_or_init(|| crate::budget_vars::STARLARK_BLOCK_DEPTH.get_size())
}

impl Compiler {
    /// `block` opened inside the blocks open, within the block depth budget.
    fn open_block(&mut self, block: Block) -> Result<(), CompileError> {
        let max = max_block_depth();
        if self.blocks.len() >= max {
            return Err(CompileError::new(
                block.line,
                format!(
                    "blocks nested deeper than {max} levels (if, for, def or while in one another; raise the budget with SCHEMAC_STARLARK_BLOCK_DEPTH)"
                ),
            ));
        }
        self.blocks.push(block);
        Ok(())
    }

    /// ytt's scanner refuses `pass` as it reaches it, after the parser has read the tokens
    /// before it: those are compiled (after `opening`, what the line's code is compiled into)
    /// so that a syntax error among them is the one reported (`def f(*a,): pass`).
    pub(super) fn refuse_pass(
        &mut self,
        line: u32,
        depth: usize,
        opening: &str,
        code: &str,
    ) -> Result<(), CompileError> {
        match pass_position(code) {
            Some(at) => self.scanner_stop(line, depth, opening, &code[..at], RESERVED_PASS),
            None => Ok(()),
        }
    }

    /// ytt's scanner stops with `message` after the tokens `before` (compiled after
    /// `opening`), which its parser reads first: a syntax error among them is the one reported.
    pub(super) fn scanner_stop(
        &mut self,
        line: u32,
        depth: usize,
        opening: &str,
        before: &str,
        message: &str,
    ) -> Result<(), CompileError> {
        self.emit(line, depth, &format!("{opening}{before}"));
        // No newline follows the tokens before the stop.
        self.out.pop();
        Err(CompileError {
            scanner_stop: true,
            ..CompileError::new(line, message)
        })
    }

    /// `text`, a line of code starting outside strings, with an `end` name that ytt reads as an
    /// outdent made `def`: no expression or statement takes a `def` there, so the parser stops
    /// at it as starlark-go's stops at the outdent (and the error's words are made its, see
    /// [`Program::outdent_at`]). With no block open, ytt's `unexpected end`, which its scanner
    /// gives as it reaches the `end`: the tokens before it are compiled (at `depth`), so that
    /// a syntax error among them is the one reported (`"a" "b" end`). `brackets`: how many
    /// brackets are open where `text` starts.
    pub(super) fn end_as_outdent(
        &mut self,
        line: u32,
        depth: usize,
        text: &str,
        brackets: i32,
    ) -> Result<String, CompileError> {
        let Some((at, last)) = crate::template::lexer::end_name(text) else {
            return Ok(text.to_string());
        };
        // ytt's scanner reads the token after an `end` before it gives the outdent (or its
        // `unexpected end`): a token it refuses there is the error (`end )`, `end $`), which
        // the parser meets where the `end` stood once that is blanked out.
        let open = code_bytes(&text[..at]).fold(brackets, |open, (_, c)| match c {
            b'(' | b'[' | b'{' => open + 1,
            b')' | b']' | b'}' => open - 1,
            _ => open,
        });
        if !last && scanner_refuses_first_token(&text[at + 3..], open) {
            return Ok(format!("{}   {}", &text[..at], &text[at + 3..]));
        }
        // (The loop of a `while` whose condition goes on is no block of ytt's yet.)
        if self.blocks.len() == usize::from(self.pending_while) {
            self.emit(line, depth, &text[..at]);
            // The scanner stops at the `end`: no newline follows the tokens before it.
            self.out.pop();
            return Err(CompileError {
                past_line: last,
                scanner_stop: true,
                ..CompileError::new(line, UNEXPECTED_END)
            });
        }
        self.outdents.push(Outdent {
            gen_line: self.line_map.len(),
            ends_line: last,
            next_line: None,
            next_quote: None,
        });
        Ok(format!("{}def{}", &text[..at], &text[at + 3..]))
    }

    /// The template's next line of code, annotation or node is `line`: where an outdent that
    /// ended its line waits.
    pub(super) fn reached(&mut self, line: u32) {
        self.reached_quoting(line, None);
    }

    /// [`Compiler::reached`], for a line of a text template whose errors quote `quote`.
    pub(super) fn reached_quoting(&mut self, line: u32, quote: Option<&str>) {
        if let Some(o) = self.outdents.last_mut() {
            if o.ends_line && o.next_line.is_none() {
                o.next_line = Some(line);
                o.next_quote = quote.map(Box::from);
            }
        }
    }

    pub(super) fn code(&mut self, comment: &Comment) -> Result<(), CompileError> {
        if self.out.len() != self.code_end {
            self.scanner.line_between();
        }
        let compiled = self.code_line(comment);
        self.code_end = self.out.len();
        compiled
    }

    fn code_line(&mut self, comment: &Comment) -> Result<(), CompileError> {
        let line = comment.line;
        let text = comment.text.strip_prefix(' ').unwrap_or(&comment.text);
        // Inside brackets, where a line break is no token, a line of no token (blank, or only
        // a comment) is not where an outdent's error stands: starlark-go's scanner reads on.
        if !self.scanner.in_brackets() || !holds_no_token(text) {
            self.reached(line);
        }
        // ytt trims the white space that starts each code line but one right after a line of
        // its program that ends in `\`: inside brackets and strings too (`"""a` then `#@   b`
        // is `a\nb`).
        let text = match self.scanner.ended_in_backslash() {
            true => text,
            false => text.trim_start(),
        };
        let in_string = self.scanner.in_string();
        let brackets = self.scanner.open_brackets();
        if !in_string && backslash_before_blanks(text) {
            return Err(CompileError::new(line, STRAY_BACKSLASH));
        }
        let scanned = self.scanner.scan(text);
        match scanned {
            CodeLine::Continuation { opens_block } => {
                // Inside brackets or a string: copy verbatim, `assert` renamed outside strings.
                if in_string {
                    self.out.push_str(text);
                } else {
                    self.refuse_pass(line, 0, "", text)?;
                    let text = self.end_as_outdent(line, 0, text, brackets)?;
                    self.out.push_str(&text);
                }
                self.out.push('\n');
                self.line_map.push(line);
                if self.open_return && !self.scanner.is_open() {
                    // On a line of its own, past a comment that may end this one.
                    self.out.push_str("))");
                    let code = without_comment(text);
                    self.out
                        .push_str(crate::template::lexer::trailing_comma(code));
                    self.out.push('\n');
                    self.line_map.push(line);
                    self.open_return = false;
                }
                if self.pending_while && (opens_block || !self.scanner.is_open()) {
                    self.pending_while = false;
                    // Without a `:` after the brackets close, no `else` is written: the
                    // parser's error is at the next line, as ytt's.
                    if opens_block || body_after_brackets(text) {
                        self.end_while_condition(line, opens_block);
                    }
                } else if let (true, Some(branch)) = (opens_block, self.pending_branch.take()) {
                    self.open_block(Block { line, ..branch })?;
                } else if opens_block {
                    // A statement such as `if a and \` + `b:` opens its block on its last line.
                    let is_def = self.pending_def;
                    self.open_block(Block {
                        line,
                        is_def,
                        ..Block::default()
                    })?;
                    if is_def {
                        let d = self.depth();
                        self.start_def(d);
                    }
                }
                Ok(())
            }
            CodeLine::Statement { opens_block } => self.statement(line, text, opens_block),
        }
    }

    /// `text`, a statement that starts on `line` (its logical line ends in `:` when
    /// `opens_block`).
    fn statement(&mut self, line: u32, text: &str, opens_block: bool) -> Result<(), CompileError> {
        // ytt's node-specific keywords (`if/end`, `def/end`, ...): the block closes
        // after the next node.
        // (Its start is trimmed: other white space is code, which the parser refuses.)
        let text = text.trim_matches(CODE_BLANKS);
        let (stmt, auto_close) = match node_specific(text) {
            Some(s) => (s, true),
            None => (text.to_string(), false),
        };
        let stmt = stmt.as_str();
        let first = first_word(stmt);
        if first == "end" {
            return self.end_statement(line, stmt, opens_block);
        }
        // `else` only when a `:` follows it: ytt reads `else if x:` as a statement (whose
        // parse fails at the `else`, `else pass` too). One followed by a character
        // starlark-go's scanner refuses (`else\u{3000}:`) is refused there, past the `else`.
        let branch = first == "elif"
            || first == "else"
                && stmt["else".len()..]
                    .trim_start_matches(CODE_BLANKS)
                    .starts_with(|c: char| c == ':' || !c.is_ascii());
        if branch {
            // (Compiled as the blocks they close, not as written.)
            if pass_position(stmt).is_some() {
                return Err(CompileError::new(line, RESERVED_PASS));
            }
        } else {
            let depth = self.depth();
            self.refuse_pass(line, depth, "", stmt)?;
        }
        match first {
            "elif" | "else" if branch => {
                self.close_frames_in_block(line)?;
                let has_body = self.blocks.last().is_some_and(|b| b.has_body);
                if !has_body {
                    let d = self.depth();
                    self.emit(line, d, "pass");
                }
                // With no block open, ytt's parser reads the `elif`/`else` as the
                // end of one, which it did not expect (at the keyword's own line).
                let Some(b) = self.blocks.pop() else {
                    return Err(CompileError::new(line, UNEXPECTED_END));
                };
                let d = self.depth();
                self.emit(line, d, stmt);
                let branch = Block {
                    line,
                    auto_close,
                    is_def: b.is_def,
                    builds_nodes: b.builds_nodes,
                    ctx_start_at: b.ctx_start_at,
                    builds_text: b.builds_text,
                    body_end: match first {
                        "else" => first_statement::BodyEnd::of_else(&b),
                        _ => Default::default(),
                    },
                    ..Block::default()
                };
                // A condition left in brackets opens its block where it ends.
                match opens_block || !self.scanner.is_open() {
                    true => self.open_block(branch)?,
                    false => self.pending_branch = Some(branch),
                }
                return Ok(());
            }
            _ => {}
        }
        self.note_statement(stmt);
        let d = self.depth();
        self.pending_def = first == "def";
        let in_def = self.blocks.iter().any(|b| b.is_def);
        let stmt = self.end_as_outdent(line, d, stmt, 0)?;
        let continued = !opens_block && self.scanner.is_open();
        let cond = match opens_block {
            true => while_condition(&stmt).map(|c| format!("if {c}:")),
            // A condition continued on the next lines (its `:` ends the last one), or
            // one followed by its body on its line (`while n < 2: n += 1`).
            false => while_start(&stmt)
                .filter(|_| continued || body_after_brackets(&stmt))
                .map(|c| format!("if {c}")),
        };
        if let Some(cond) = cond {
            // ytt's dialect has `while`, the interpreter's has not: a loop over more
            // items than the statement budget allows, left when the condition fails.
            let var = self.names.of(gen::WHILE);
            self.emit(line, d, &format!("for {var} in range(2147483647):"));
            self.open_block(Block {
                line,
                auto_close,
                ..Block::default()
            })?;
            // `if COND: pass` / `else: break`, not `if not (COND): break`: errors of
            // the condition keep the span of an `if` condition.
            self.emit(line, d + 1, &cond);
            match continued {
                true => self.pending_while = true,
                false => self.end_while_condition(line, opens_block),
            }
            return Ok(());
        }
        // A one-line `def g(): return 1` inside a function has no context of its own.
        let stmt = if in_def && first != "def" {
            // A `return`'s value is wrapped in brackets of this program's own, which would close
            // a bracket that closes nothing, which ytt's scanner refuses as it reads it
            // (`return 1 + )`: not the parser's error at the bracket).
            if let Some((at, c)) = super::text_code::unmatched_close(&stmt, 0, false) {
                let message = format!("unexpected '{}'", char::from(c));
                return self.scanner_stop(line, d, "", &stmt[..at], &message);
            }
            // (the innermost function's: with a text context, its text)
            let text_def = self.blocks.iter().rev().find(|b| b.is_def);
            let bare = text_def
                .is_some_and(|b| b.builds_text)
                .then(|| self.text_result());
            let before_nodes = !self.star_file && text_def.is_some_and(|b| !b.builds_nodes);
            let (stmt, open) = crate::template::lexer::wrap_returns(
                &stmt,
                self.scanner.is_open(),
                bare.as_deref(),
                before_nodes,
                &self.names,
            );
            self.open_return = open;
            stmt
        } else {
            stmt
        };
        self.emit(line, d, &stmt);
        if opens_block {
            let is_def = first == "def";
            self.open_block(Block {
                line,
                is_def,
                auto_close,
                ..Block::default()
            })?;
            if is_def {
                self.start_def(d + 1);
            }
        }
        Ok(())
    }
}

impl Compiler {
    /// `stmt`, an `end` and what follows it on its line: ytt's scanner reads the `end` as an
    /// outdent and the rest as the next statement (`end end` closes two blocks, `end x = 1`
    /// closes one and assigns).
    fn end_statement(
        &mut self,
        line: u32,
        stmt: &str,
        opens_block: bool,
    ) -> Result<(), CompileError> {
        let rest = stmt["end".len()..].trim_start_matches(CODE_BLANKS);
        let follows = !without_comment(rest).trim_matches(CODE_BLANKS).is_empty();
        // An `end` that closes nothing is met once the scanner has read the token after it:
        // past the line when that is its newline, on it when code follows, unless the scanner
        // refuses that token (`end $`: its error).
        match self.close_block(line) {
            Err(_) if follows && scanner_refuses_first_token(rest, 0) => {}
            closed => closed.map_err(|e| CompileError {
                past_line: e.past_line && !follows,
                ..e
            })?,
        }
        match follows {
            true => self.statement(line, rest, opens_block),
            false => Ok(()),
        }
    }
}

/// The condition of the statement `while COND:` (on one line).
fn while_condition(stmt: &str) -> Option<&str> {
    let rest = without_comment(while_start(stmt)?);
    Some(
        rest.trim_matches(CODE_BLANKS)
            .strip_suffix(':')?
            .trim_matches(CODE_BLANKS),
    )
}

/// Whether the last line `text` of a statement (a `while` whose condition is on it, or whose
/// brackets close on it) holds a `:` once the brackets it closes are closed (`< 2): f(n)`,
/// `while n < 2: n += 1`): a body follows the condition. Outside strings and comments.
fn body_after_brackets(text: &str) -> bool {
    // The code bytes with the bracket depth before each, from 0 at the line's start.
    let mut code = Vec::new();
    let mut depth = 0i64;
    for (_, c) in code_bytes(text) {
        match c {
            b'#' => break,
            b'"' | b'\'' => {}
            _ => {
                code.push((c, depth));
                match c {
                    b'(' | b'[' | b'{' => depth += 1,
                    b')' | b']' | b'}' => depth -= 1,
                    _ => {}
                }
            }
        }
    }
    // The depth where the statement's brackets are all closed: the least reached.
    let closed = code
        .iter()
        .map(|&(_, d)| d)
        .chain([depth])
        .min()
        .unwrap_or(0);
    code.iter().any(|&(c, d)| c == b':' && d == closed)
}

/// What follows `while` in the statement `stmt` (a condition, or its start).
fn while_start(stmt: &str) -> Option<&str> {
    let rest = stmt.strip_prefix("while")?;
    rest.starts_with([' ', '(', '\t', '[', '{', '"', '\'', '\\'])
        .then_some(rest)
}

impl Compiler {
    /// The rest of a `while` loop's `if COND:` (just written, at the loop's depth): the loop
    /// goes on while the condition holds. A `while` whose body followed its condition on the
    /// line (`while n < 2: n += 1`, `opens_block` false) has no block of its own: as in ytt,
    /// no `end` closes it.
    fn end_while_condition(&mut self, line: u32, opens_block: bool) {
        let d = self.depth();
        if opens_block {
            self.emit(line, d + 1, "pass");
        }
        self.emit(line, d, "else:");
        self.emit(line, d + 1, "break");
        if !opens_block {
            self.blocks.pop();
        }
    }
}
