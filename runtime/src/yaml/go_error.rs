//! YAML syntax errors in go-yaml's words and lines.
//!
//! ytt reads YAML with go-yaml v3, a port of libyaml, and prints the first error as
//! `yaml: line N: PROBLEM`. schemac reads with saphyr-parser (or its own block reader), whose
//! errors are found at other places and worded otherwise. When a file does not parse, the
//! error is therefore taken from `libyaml-safer` (a safe Rust port of libyaml), which stops
//! where go-yaml stops, and its problem and mark are printed as go-yaml's `parser.fail()` does:
//! the problem's line (0-based), else the context's, plus one for scanner errors.

use super::parse::SyntaxError;

/// The first syntax error libyaml finds in `src`, as go-yaml prints it; `None` if libyaml
/// reads the whole text.
pub(super) fn first_error(src: &str) -> Option<SyntaxError> {
    // libyaml-safer's scanner panics where a text ends without a line break inside a block
    // scalar (libyaml reads a NUL there): it is given one, which changes no line. Any other
    // panic counts as no error found (the caller's reader decides).
    let text;
    let src = if src.ends_with(['\n', '\r']) {
        src
    } else {
        text = format!("{src}\n");
        &text
    };
    let error = crate::panic_guard::catch_panic(|| {
        let mut input = src.as_bytes();
        let mut parser = libyaml_safer::Parser::new();
        parser.set_input_string(&mut input);
        parser.find_map(Result::err)
    })
    .ok()
    .flatten()?;
    let scanner = error.kind() == libyaml_safer::ErrorKind::Scanner;
    // A scanner error counts its line from 1 (even the first line); a parser error's line 0
    // means no line at all.
    let line = [error.problem_mark(), error.context_mark()]
        .into_iter()
        .flatten()
        .map(|mark| mark.line)
        .find(|&line| line != 0)
        .unwrap_or(0)
        + u64::from(scanner);
    Some(SyntaxError {
        line: u32::try_from(line).unwrap_or(u32::MAX),
        message: truncated(error.problem()),
        strict: None,
    })
}

/// ytt's message ends at the first `]` or `}`: `did not find expected ',' or '`.
fn truncated(problem: &str) -> String {
    match problem.find([']', '}']) {
        Some(end) => problem[..end].to_string(),
        None => problem.to_string(),
    }
}
