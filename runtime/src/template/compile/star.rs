//! A `.star` file compiled: its lines as starlark-go reads them, each a line of code in ytt's
//! dialect (`end` closes blocks).

use super::key_code::star_file_lines;
use super::{CompileError, Compiler, GeneratedNames, Program};
use crate::yaml::parse::Comment;

/// Compiles a Starlark file in ytt's dialect (`end` closes blocks).
pub fn compile_starlark(src: &str) -> Result<Program, CompileError> {
    // starlark-go's scanner reads a NUL outside string literals as the end of the file.
    let src = &src[..crate::template::code_scan::program_end(src).unwrap_or(src.len())];
    let mut c = Compiler {
        star_file: true,
        ..Compiler::new(GeneratedNames::for_source(src))
    };
    let lines = star_file_lines(src);
    let count = lines.len() as u32;
    let ends_in_break = src.ends_with(['\n', '\r']);
    match c.star(&lines) {
        Ok(()) => {
            // Where the file ends: an error at its end is placed there.
            c.line_map.push(count + u32::from(ends_in_break));
            Ok(c.program())
        }
        // The line after, unless the file ends without a newline.
        Err(e) => Err(e.after(c, |line| {
            let last = line >= count && !ends_in_break;
            if last {
                line
            } else {
                line + 1
            }
        })),
    }
}

impl Compiler {
    fn star(&mut self, lines: &[&str]) -> Result<(), CompileError> {
        for (i, line) in lines.iter().enumerate() {
            self.code(&Comment {
                line: i as u32 + 1,
                text: format!(" {line}"),
            })?;
        }
        self.all_closed()
    }
}
