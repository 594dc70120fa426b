//! A `.star` file compiled: its lines as starlark-go reads them, each a line of code in ytt's
//! dialect (`end` closes blocks).

use super::key_code::starlark_lines;
use super::{CompileError, Compiler, GeneratedNames, Program};
use crate::template::code_scan::holds_no_token;
use crate::yaml::parse::Comment;

/// starlark-go's error for a block's `:` at the end of the file: the parser wants the body.
const BODY_AT_END_OF_FILE: &str = "got end of file, want primary expression";

/// Compiles a Starlark file in ytt's dialect (`end` closes blocks).
pub fn compile_starlark(src: &str) -> Result<Program, CompileError> {
    // starlark-go's scanner reads a NUL outside string literals as the end of the file.
    let src = &src[..crate::template::code_scan::program_end(src).unwrap_or(src.len())];
    let mut c = Compiler {
        star_file: true,
        ..Compiler::new(GeneratedNames::for_source(src))
    };
    let (lines, ends_in_break) = star_file_lines(src);
    let count = lines.len() as u32;
    // Where the file ends: an error at its end is placed there.
    let end = count + u32::from(ends_in_break);
    if let Err(e) = c.star(&lines) {
        // The line after, unless the file ends without a newline; inside brackets, where a
        // line break is no token, the next line holding one (or where the file ends).
        let in_brackets = c.scanner.in_brackets();
        return Err(e.after(c, |line| {
            let last = line >= count && !ends_in_break;
            let mut after = lines.iter().zip(1..).skip(line as usize);
            match after.find(|(text, _)| !in_brackets || !holds_no_token(text)) {
                _ if last => line,
                Some((_, next)) => next,
                None => end,
            }
        }));
    }
    // An outdent's error with no token after it stands where the file ends (past the blank
    // and comment lines after it).
    c.reached(end);
    // A `:` that ends the file opens no block: ytt's scanner opens one at a `:` and the line
    // break after it. The parser then meets the file's end where the block's body would
    // start, unless a block opened before is left open (`def f():` + `if x:`).
    let last_line_opens = !ends_in_break && c.blocks.last().is_some_and(|b| b.line == count);
    let closed = match last_line_opens {
        true => {
            c.blocks.pop();
            c.all_closed()
                .and(Err(CompileError::new(count, BODY_AT_END_OF_FILE)))
        }
        false => c.all_closed(),
    };
    match closed {
        Ok(()) => {
            c.line_map.push(end);
            Ok(c.program())
        }
        // ytt's scanner meets the block left open at the file's end, after its parser read
        // the whole file: a syntax error in it comes first, but not one at the end of a last
        // line with no line break after it, where the scanner gives the end of the file.
        Err(e) => {
            if !ends_in_break {
                c.out.pop();
            }
            let mut before = c.program();
            before.line_map.push(end);
            Err(CompileError {
                before: Some(Box::new(before)),
                scanner_stop: !ends_in_break,
                ..e
            })
        }
    }
}

/// The lines of a `.star` file as starlark-go reads them, none after the last line break, and
/// whether a line break ends the file. ytt makes each line of the file (split at `\n`) a line
/// of its template's code, its leading white space trimmed, so a `\r` there ends no line;
/// starlark-go's scanner ends one at each `\n`, `\r\n` and `\r` left.
pub(crate) fn star_file_lines(src: &str) -> (Vec<&str>, bool) {
    let mut lines = Vec::new();
    let mut physical = src.split('\n').peekable();
    let mut ends_in_break = false;
    while let Some(line) = physical.next() {
        let line = line.trim_start();
        if physical.peek().is_some() {
            // (a `\r` right before the `\n` is one line break with it)
            lines.extend(starlark_lines(line.strip_suffix('\r').unwrap_or(line)));
        } else {
            ends_in_break = if line.is_empty() {
                src.contains('\n')
            } else {
                line.ends_with('\r')
            };
            lines.extend(starlark_lines(line));
            if lines.last() == Some(&"") {
                lines.pop();
            }
        }
    }
    (lines, ends_in_break)
}

impl Compiler {
    fn star(&mut self, lines: &[&str]) -> Result<(), CompileError> {
        for (i, line) in lines.iter().enumerate() {
            self.code(&Comment {
                line: i as u32 + 1,
                text: format!(" {line}"),
            })?;
        }
        Ok(())
    }
}
