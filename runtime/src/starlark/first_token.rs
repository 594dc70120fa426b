//! The first token of some code as starlark-go's scanner reads it: whether it refuses it.

use starlark::codemap::CodeMap;
use starlark_syntax::lexer::Lexer;

/// Whether starlark-go's scanner refuses the first token of `code`, one line of code that
/// starts outside strings inside `brackets` open brackets: a character no token starts with,
/// a string its line ends, a literal it refuses (`01`, `"\400"`), a `\` no line break follows,
/// a bracket that closes none. Blanks, a comment or the line's end are no token.
pub(crate) fn scanner_refuses_first_token(code: &str, brackets: i32) -> bool {
    let code = code.trim_start_matches([' ', '\t']);
    match code.bytes().next() {
        None | Some(b'#' | b'\r' | b'\n') => return false,
        Some(b')' | b']' | b'}') => return brackets <= 0,
        // (a line continued)
        Some(b'\\') if code[1..].trim_end_matches([' ', '\t', '\r']).is_empty() => return false,
        _ => {}
    }
    // starlark-go's literals: the crate's lexer refuses some it reads (`00`).
    if let Err((e, _)) = super::go_literals::go_literals(code, "") {
        if e.line == 0 && e.column == 0 {
            return true;
        }
    }
    if code.starts_with(|c: char| c.is_ascii_digit()) {
        return false;
    }
    let codemap = CodeMap::new(String::new(), code.to_string());
    let first = Lexer::new(codemap.source(), &super::dialect(), codemap.clone()).next();
    match first {
        Some(Err(e)) => {
            // (starlark-go reads the crate's reserved words as names or keywords)
            let raw = e.into_error().without_diagnostic().to_string();
            !raw.starts_with("Parse error: cannot use reserved keyword")
        }
        _ => false,
    }
}

#[cfg(test)]
mod tests {
    use super::scanner_refuses_first_token as refuses;

    #[test]
    fn tokens_starlark_go_refuses() {
        for code in [
            " )",
            "$",
            " \"abc",
            "'a",
            "01",
            "0x",
            "1e",
            "\"\\400\"",
            "\\ x",
            "`",
        ] {
            assert!(refuses(code, 0), "{code:?}");
        }
        for code in [
            "", " # c", "x", "00", "1.5", "\"a\"", "\\", "while", "pass", "+ 1", "if",
        ] {
            assert!(!refuses(code, 0), "{code:?}");
        }
        assert!(!refuses(")", 1));
    }
}
