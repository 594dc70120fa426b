//! Where starlark-go's parser stands when it meets a syntax error: it places the error where
//! its scanner stands (past a newline it read, at a `:` that ends parameters), and ytt's block
//! scanner reads a token past an `else`; and what the crate's parser meets in place of
//! starlark-go's tokens (schemac's brackets around a `return`'s value).

use super::{code_bytes, error_column, in_return_value, is_name_char, open_brackets};

/// Whether a parser error `msg` stopped at the end of a line: starlark-go places that token
/// (`got newline`) on the next line.
pub(in crate::starlark) fn at_newline(msg: &str) -> bool {
    // A conditional without `else` is placed at its `if`, on the line that ends.
    msg.starts_with("Parse error: unexpected new line, expected ") && !missing_else(msg)
}

/// Whether the crate's parser error `msg` on the code `line` stands at the `))` that closes a
/// `return`'s value (`return __ytt_ctx_end((7 +))`, see [`in_return_value`]): schemac's
/// brackets, where ytt's value ends with its line, so that starlark-go's parser meets the
/// newline (`got newline`, placed on the next line).
pub(in crate::starlark) fn at_return_close(msg: &str, line: &str, before: Option<&str>) -> bool {
    let after = line
        .get(error_column(before)..)
        .and_then(crate::template::lexer::after_return_close);
    msg.starts_with("Parse error: unexpected symbol ')'")
        && before.is_some_and(in_return_value)
        && after.is_some_and(|rest| {
            crate::template::code_scan::without_comment(rest)
                .trim()
                .is_empty()
        })
}

/// Whether the crate's parser error `msg` on the code `line` is at an `else` that ends its line
/// (no `:` after it): ytt's scanner reads the token after an `else` to see whether a `:`
/// follows, here its newline, and starlark-go's parser places the error where the scanner
/// stands, on the next line.
pub(in crate::starlark) fn at_bare_else(msg: &str, line: &str, before: Option<&str>) -> bool {
    let rest = line.get(error_column(before)..).unwrap_or("");
    msg.starts_with("Parse error: unexpected keyword 'else'")
        && rest.strip_prefix("else").is_some_and(|r| {
            crate::template::code_scan::without_comment(r)
                .trim()
                .is_empty()
        })
}

/// Where the `:` stands that ends the parameters of the `def` whose `(` the code `before` an
/// error on the code `line` leaves open (`def f(v:`, `def f(a, b=1:`), as a byte offset in
/// `before` (its length when the error is at it): starlark-go's parser stops there wanting the
/// `)`, where the crate's reads a type annotation.
pub(in crate::starlark) fn colon_in_def_parameters(before: &str, line: &str) -> Option<usize> {
    let at_colon = line
        .get(error_column(Some(before))..)
        .is_some_and(|rest| rest.starts_with(':'));
    let with_colon;
    let before = match at_colon {
        true => {
            with_colon = format!("{before}:");
            with_colon.as_str()
        }
        false => before,
    };
    let open = *open_brackets(before).first()?;
    let head = before[..open].trim_end();
    let statement = head[head.rfind('\n').map_or(0, |i| i + 1)..].trim_start();
    let name = statement.strip_prefix("def")?;
    let named = name.starts_with([' ', '\t']) && !name.trim().is_empty();
    if !named || !name.trim().chars().all(is_name_char) {
        return None;
    }
    let bytes = before.as_bytes();
    let mut depth = 0i32;
    for i in code_bytes(before).filter(|&i| i > open) {
        match bytes[i] {
            b'(' | b'[' | b'{' => depth += 1,
            b')' | b']' | b'}' => depth -= 1,
            b':' if depth == 0 => return Some(i),
            // (a default value's lambda has a `:` of its own)
            b'l' if bytes[i..].starts_with(b"lambda") => return None,
            _ => {}
        }
    }
    None
}

/// Whether the code `before` ends in the parameters of a `lambda` that has one
/// (`lambda v`, `lambda a, b=1`): not past its `:`, nor out of brackets it stands in.
pub(super) fn in_lambda_parameters(code: &str) -> bool {
    let bytes = code.as_bytes();
    let word = |b: &u8| *b == b'_' || b.is_ascii_alphanumeric();
    // Where the last `lambda`'s parameters start, and the bracket depth there.
    let (mut last, mut depth) = (None::<(usize, i32)>, 0i32);
    for i in code_bytes(code) {
        match bytes[i] {
            b'l' if bytes[i..].starts_with(b"lambda")
                && !i.checked_sub(1).is_some_and(|b| word(&bytes[b]))
                && !bytes.get(i + 6).is_some_and(word) =>
            {
                last = Some((i + 6, depth))
            }
            b'(' | b'[' | b'{' => depth += 1,
            b')' | b']' | b'}' => {
                depth -= 1;
                last = last.filter(|&(_, d)| depth >= d);
            }
            b':' => last = last.filter(|&(_, d)| depth != d),
            _ => {}
        }
    }
    last.is_some_and(|(at, _)| !code[at..].trim().is_empty())
}

/// Whether `msg` is the crate's error for `x if c` without `else`, whatever token follows.
pub(in crate::starlark) fn missing_else(msg: &str) -> bool {
    msg.starts_with("Parse error: unexpected ") && msg.ends_with(", expected keyword 'else'")
}

/// Whether `source` ends inside brackets, with nothing but blank lines after its line `line`
/// (0-based).
pub(in crate::starlark) fn ends_in_brackets(source: &str, line: usize) -> bool {
    if source.lines().skip(line + 1).any(|l| !l.trim().is_empty()) {
        return false;
    }
    let mut depth = 0i64;
    for i in code_bytes(source) {
        match source.as_bytes()[i] {
            b'(' | b'[' | b'{' => depth += 1,
            b')' | b']' | b'}' => depth -= 1,
            _ => {}
        }
    }
    depth > 0
}

/// The line (0-based) of the last keyword `if` in `code`, outside strings and comments:
/// where starlark-go places a conditional expression without `else`, whichever line the token
/// that lacks the `else` stands on (inside brackets, the next line's).
pub(in crate::starlark) fn last_if_line(code: &str) -> Option<usize> {
    let bytes = code.as_bytes();
    let ident = |b: u8| b.is_ascii_alphanumeric() || b == b'_';
    let mut found = None;
    for i in code_bytes(code) {
        if bytes[i] == b'i'
            && bytes.get(i + 1) == Some(&b'f')
            && (i == 0 || !ident(bytes[i - 1]))
            && bytes.get(i + 2).is_none_or(|&b| !ident(b))
        {
            found = Some(i);
        }
    }
    // (Counting the lines a triple-quoted string spans.)
    found.map(|at| code[..at].matches('\n').count())
}
