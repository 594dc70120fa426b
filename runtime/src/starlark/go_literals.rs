//! Literals as starlark-go reads them (the 2020 fork ytt embeds), where the `starlark` crate
//! reads them otherwise. Before a program is parsed its source is scanned for number and string
//! literals:
//!
//! - `000` is `0` and `00.5` is `0.5` (the crate refuses a leading 0); `0755` is starlark-go's
//!   `obsolete form of octal literal; use 0o755`, `08` its `invalid int literal`, `0x`, `0o8`,
//!   `0b2` its `invalid hex|octal|binary literal`, `1e`, `1e400` its `invalid float literal`
//!   (the crate read `1e400` as infinity);
//! - in a string, `\u` and `\U` are no escapes (`'\u00e9'` is the six characters, as in ytt),
//!   an octal escape past `\377` is `invalid escape sequence \400`, and `\x` without two hex
//!   digits is `truncated escape sequence \x4` or `invalid escape sequence \x4g`;
//! - a raw string keeps a `\` before its quote (`r"a\"b"` is the four characters `a\"b`);
//! - `b'x'` is the name `b` followed by a string (starlark-go has no bytes literal), so it is
//!   the parser's error rather than bytes;
//! - a tab outside strings and comments is a space, as starlark-go's scanner skips it (the
//!   crate's lexer refuses every tab; ytt re-indents code lines by their `end`s, so a tab
//!   never indents).
//!
//! Escapes of bytes past ASCII that spell UTF-8 (`'\xc3\xa9'`) are its characters (`é`);
//! the others (`'\xff'`, `'\377'`) make a string that is not UTF-8 in starlark-go (ytt writes
//! it as `!!binary`): such a literal becomes a call of [`BYTES`] given the literal with each of
//! those bytes as the character [`BYTE_MARK`] + byte (and each character the source holds at
//! or past `BYTE_MARK` as the marks of its UTF-8 bytes), which makes the
//! [`super::go_bytes::GoBytes`] of the bytes.

/// The global function a string literal with escapes of bytes that are not UTF-8 becomes.
pub(super) const BYTES: &str = "__schemac_bytes";

/// The character that stands for the byte 0 in the argument of [`BYTES`] (U+10FF00; the byte
/// `b` is `BYTE_MARK + b`).
pub(super) const BYTE_MARK: u32 = 0x10FF00;

/// The bytes [`BYTES`] is given `text` for: each character past [`BYTE_MARK`] the byte it
/// marks, the others their UTF-8.
pub(super) fn marked_bytes(text: &str) -> Vec<u8> {
    let mut out = Vec::with_capacity(text.len());
    for c in text.chars() {
        match (c as u32).checked_sub(BYTE_MARK) {
            Some(b) => out.push(b as u8),
            None => out.extend_from_slice(c.encode_utf8(&mut [0; 4]).as_bytes()),
        }
    }
    out
}

/// The text whose [`marked_bytes`] are `bytes`: each byte that is no UTF-8 its mark, each
/// character at or past [`BYTE_MARK`] the marks of its bytes, the rest as it is.
pub(super) fn marked_text(bytes: &[u8]) -> String {
    let mut out = String::with_capacity(bytes.len());
    for chunk in bytes.utf8_chunks() {
        for c in chunk.valid().chars() {
            match c as u32 >= BYTE_MARK {
                true => out.extend(c.to_string().bytes().map(byte_mark)),
                false => out.push(c),
            }
        }
        out.extend(chunk.invalid().iter().map(|&b| byte_mark(b)));
    }
    out
}

/// The mark of the byte `b` (see [`BYTE_MARK`]).
pub(super) fn byte_mark(b: u8) -> char {
    char::from_u32(BYTE_MARK + u32::from(b)).unwrap_or(char::REPLACEMENT_CHARACTER)
}

/// A literal starlark-go refuses: its 0-based line in the source, where it starts on that line
/// and starlark-go's message.
#[derive(Debug, PartialEq)]
pub(super) struct LiteralError {
    pub line: usize,
    /// 0-based, in characters, in the text returned with the error (the source with the
    /// literals before this one made to read as in starlark-go); while scanning, the literal's
    /// byte offset in the source.
    pub column: usize,
    pub message: String,
}

/// The source with its literals made to read as in starlark-go (`None`: nothing to change),
/// or the first literal starlark-go refuses and the source with the literals before it made so.
/// `bytes_call` is the program's name of [`BYTES`] ([`super::guard_names`]); empty, such a
/// literal is left a string literal (of its marks), for a parse that finds starlark-go's syntax
/// errors where a literal stands (`def f("\xff")`).
pub(super) fn go_literals(
    src: &str,
    bytes_call: &str,
) -> Result<Option<String>, (LiteralError, String)> {
    let mut edits: Vec<(usize, usize, String)> = Vec::new();
    match scan(src, bytes_call, &mut edits) {
        Ok(()) => Ok((!edits.is_empty()).then(|| edited(src, &edits))),
        Err(mut e) => {
            // A syntax error before the literal on its line is starlark-go's first error.
            let start = e.column;
            let before: Vec<_> = edits.iter().filter(|e| e.1 <= start).cloned().collect();
            let up_to = edited(&src[..start], &before);
            let line_start = up_to.rfind('\n').map_or(0, |i| i + 1);
            e.column = up_to[line_start..].chars().count();
            Err((e, edited(src, &edits)))
        }
    }
}

fn edited(src: &str, edits: &[(usize, usize, String)]) -> String {
    let mut out = String::with_capacity(src.len() + edits.len());
    let mut at = 0;
    for (start, end, text) in edits {
        out.push_str(&src[at..*start]);
        out.push_str(text);
        at = *end;
    }
    out.push_str(&src[at..]);
    out
}

fn scan(
    src: &str,
    bytes_call: &str,
    edits: &mut Vec<(usize, usize, String)>,
) -> Result<(), LiteralError> {
    let b = src.as_bytes();
    let (mut i, mut line) = (0, 0);
    // Inside a `load(...)` statement's brackets (its arguments are string literals and names).
    let mut in_load = false;
    while i < b.len() {
        let c = b[i];
        match c {
            b'\n' => {
                line += 1;
                i += 1;
            }
            b'#' => {
                while i < b.len() && b[i] != b'\n' {
                    i += 1;
                }
            }
            b'"' | b'\'' => {
                let literal = Literal {
                    start: i,
                    raw: false,
                    in_load,
                };
                i = string(b, literal, &mut line, bytes_call, edits)?
            }
            b')' => {
                in_load = false;
                i += 1;
            }
            b'\t' => {
                edits.push((i, i + 1, " ".into()));
                i += 1;
            }
            c if c.is_ascii_alphabetic() || c == b'_' || c >= 0x80 => {
                let start = i;
                while i < b.len() && (b[i].is_ascii_alphanumeric() || b[i] == b'_' || b[i] >= 0x80)
                {
                    i += 1;
                }
                // The keyword `load` (an attribute `x.load` is a name).
                if &b[start..i] == b"load"
                    && !src[..start].trim_end().ends_with('.')
                    && src[i..].trim_start().starts_with('(')
                {
                    in_load = true;
                }
                if matches!(b.get(i), Some(b'"' | b'\'')) {
                    if &b[start..i] == b"r" {
                        let literal = Literal {
                            start: i,
                            raw: true,
                            in_load,
                        };
                        i = string(b, literal, &mut line, bytes_call, edits)?;
                    } else {
                        // `b'x'`: a name, then a string.
                        edits.push((i, i, " ".into()));
                    }
                }
            }
            c if c.is_ascii_digit()
                || (c == b'.' && b.get(i + 1).is_some_and(u8::is_ascii_digit)) =>
            {
                i = number(b, i, line, edits)?;
            }
            _ => i += 1,
        }
    }
    Ok(())
}

/// Scans the number at `start` as starlark-go's scanner does: the index after it.
fn number(
    b: &[u8],
    start: usize,
    line: usize,
    edits: &mut Vec<(usize, usize, String)>,
) -> Result<usize, LiteralError> {
    let err = |message: String| {
        Err(LiteralError {
            line,
            column: start,
            message,
        })
    };
    let digits = |mut i: usize, ok: fn(&u8) -> bool| {
        while b.get(i).is_some_and(ok) {
            i += 1;
        }
        i
    };
    let mut i = start;
    let (mut fraction, mut exponent) = (false, false);
    if b[i] == b'.' {
        fraction = true;
    } else if b[i] == b'0' {
        i += 1;
        // `radix` for octal and binary, which starlark-go reads as 64-bit ints alone (only a
        // hex or decimal literal past them falls back to a big int): `0b1` and 63 zeros is its
        // `invalid int literal`.
        let based = |i: usize, ok: fn(&u8) -> bool, name: &str, radix: Option<i64>| {
            let end = digits(i + 1, ok);
            if end == i + 1 {
                return err(format!("invalid {name} literal"));
            }
            if let Some(radix) = radix {
                let fits = b[i + 1..end].iter().try_fold(0i64, |n, &c| {
                    n.checked_mul(radix)?.checked_add(i64::from(c - b'0'))
                });
                if fits.is_none() {
                    return err("invalid int literal".into());
                }
            }
            Ok(end)
        };
        match b.get(i) {
            Some(b'x' | b'X') => return based(i, u8::is_ascii_hexdigit, "hex", None),
            Some(b'o' | b'O') => return based(i, |c| matches!(c, b'0'..=b'7'), "octal", Some(8)),
            Some(b'b' | b'B') => return based(i, |c| matches!(c, b'0' | b'1'), "binary", Some(2)),
            _ => {}
        }
        let end = digits(i, u8::is_ascii_digit);
        let (all_zeros, octal) = (
            b[i..end].iter().all(|&c| c == b'0'),
            b[i..end].iter().all(|&c| c <= b'7'),
        );
        match b.get(end) {
            Some(b'.') => fraction = true,
            Some(b'e' | b'E') => exponent = true,
            _ if all_zeros => {}
            _ if octal => {
                let raw = String::from_utf8_lossy(&b[start + 1..end]);
                return err(format!("obsolete form of octal literal; use 0o{raw}"));
            }
            _ => return err("invalid int literal".into()),
        }
        // The crate refuses a leading 0 before other digits: `000` is `0`, `007.5` is `7.5`.
        let zeros = digits(start, |&c| c == b'0');
        let keep = if zeros == end { zeros - 1 } else { zeros };
        if keep > start {
            edits.push((start, keep, String::new()));
        }
        i = end;
    } else {
        i = digits(i, u8::is_ascii_digit);
        match b.get(i) {
            Some(b'.') => fraction = true,
            Some(b'e' | b'E') => exponent = true,
            _ => {}
        }
    }
    if fraction {
        i = digits(i + 1, u8::is_ascii_digit);
        exponent = matches!(b.get(i), Some(b'e' | b'E'));
    }
    if exponent {
        i += 1;
        if matches!(b.get(i), Some(b'+' | b'-')) {
            i += 1;
        }
        i = digits(i, u8::is_ascii_digit);
    }
    if fraction || exponent {
        let raw = std::str::from_utf8(&b[start..i]).unwrap_or("");
        if !raw.parse::<f64>().is_ok_and(f64::is_finite) {
            return err("invalid float literal".into());
        }
    }
    Ok(i)
}

/// Scans the string whose quote is at `start` (after its `r` prefix when `raw`): the index
/// after it. A string without its closing quote is left to the parser's error.
/// A string literal met by [`scan`]: where its first quote is, whether it is raw (`r"..."`),
/// and whether it is an argument of a `load` statement.
struct Literal {
    start: usize,
    raw: bool,
    in_load: bool,
}

fn string(
    b: &[u8],
    literal: Literal,
    line: &mut usize,
    bytes_call: &str,
    edits: &mut Vec<(usize, usize, String)>,
) -> Result<usize, LiteralError> {
    let Literal {
        start,
        raw,
        in_load,
    } = literal;
    let q = b[start];
    let triple = b.get(start + 1) == Some(&q) && b.get(start + 2) == Some(&q);
    let open = if triple { 3 } else { 1 };
    let first_line = *line;
    // Where the string ends, as starlark-go's scanner finds it (a `\` escapes any byte).
    let mut end = start + open;
    loop {
        match b.get(end) {
            None => return Ok(b.len()),
            Some(b'\\') => end += 2,
            Some(b'\n') if !triple => return Ok(end),
            Some(&c) if c == q && (!triple || b.get(end + 1..end + 3) == Some(&[q, q][..])) => {
                break
            }
            Some(_) => end += 1,
        }
    }
    let body = start + open..end.min(b.len());
    *line += b[body.clone()].iter().filter(|&&c| c == b'\n').count();
    let after = end + open;
    if raw {
        // starlark-go keeps a raw string's `\` before a quote (`r"a\"b"` and `r"a\'b"` are
        // `a\"b` and `a\'b`, as in Python); the crate drops it: such a literal becomes the
        // plain string it means.
        let mut i = body.start;
        while i < body.end {
            if b[i] == b'\\' && matches!(b.get(i + 1), Some(b'"' | b'\'')) {
                let quotes = std::str::from_utf8(&b[start..start + open]).unwrap_or("\"");
                let mut text = String::new();
                for c in String::from_utf8_lossy(&b[body.clone()]).chars() {
                    if c == '\\' || c == char::from(q) {
                        text.push('\\');
                    }
                    text.push(c);
                }
                edits.push((start - 1, after, format!("{quotes}{text}{quotes}")));
                break;
            }
            i += if b[i] == b'\\' { 2 } else { 1 };
        }
        return Ok(after);
    }
    let err = |message: String| {
        Err(LiteralError {
            line: first_line,
            column: start,
            message,
        })
    };
    let mut i = body.start;
    let first_edit = edits.len();
    let mut not_utf8 = false;
    // The escapes of bytes past ASCII just read: (start, end, byte) each.
    let mut high_bytes: Vec<(usize, usize, u8)> = Vec::new();
    while i < body.end {
        if b[i] != b'\\' {
            not_utf8 |= decode_utf8_escapes(&mut high_bytes, edits);
            i += 1;
            continue;
        }
        let mut escaped_byte = None;
        let mut next = i + 2;
        match b.get(i + 1) {
            Some(b'u' | b'U') => {
                // The run of escaped bytes before ends here (edits stay in order).
                not_utf8 |= decode_utf8_escapes(&mut high_bytes, edits);
                edits.push((i, i, "\\".into()));
            }
            Some(b'0'..=b'7') => {
                let mut n = 0u32;
                let mut j = i + 1;
                while j < body.end && j < i + 4 && matches!(b[j], b'0'..=b'7') {
                    n = n * 8 + u32::from(b[j] - b'0');
                    j += 1;
                }
                if n >= 256 {
                    return err(format!("invalid escape sequence \\{n:03o}"));
                }
                (escaped_byte, next) = (u8::try_from(n).ok(), j);
            }
            Some(b'x') => {
                let rest = &b[i..body.end];
                if rest.len() < 4 {
                    let rest = String::from_utf8_lossy(rest);
                    return err(format!("truncated escape sequence {rest}"));
                }
                if !rest[2..4].iter().all(u8::is_ascii_hexdigit) {
                    let rest = String::from_utf8_lossy(&rest[..4]);
                    return err(format!("invalid escape sequence {rest}"));
                }
                let hex = std::str::from_utf8(&rest[2..4]).unwrap_or("0");
                (escaped_byte, next) = (u8::from_str_radix(hex, 16).ok(), i + 4);
            }
            _ => {}
        }
        match escaped_byte {
            Some(byte) if byte >= 0x80 => high_bytes.push((i, next, byte)),
            _ => not_utf8 |= decode_utf8_escapes(&mut high_bytes, edits),
        }
        i = next;
    }
    not_utf8 |= decode_utf8_escapes(&mut high_bytes, edits);
    if not_utf8 {
        // The characters that would read as marks stand for their own bytes.
        let text = String::from_utf8_lossy(&b[body.clone()]);
        let mut at = body.start;
        for c in text.chars() {
            if c as u32 >= BYTE_MARK {
                let marks: String = c.to_string().bytes().map(byte_mark).collect();
                edits.push((at, at + c.len_utf8(), marks));
            }
            at += c.len_utf8();
        }
        edits[first_edit..].sort_by_key(|&(from, to, _)| (from, to));
        if in_load {
            // A module or a name a `load` gives is text to the crate, which reads no call
            // there: the literal is its text, each byte that is no UTF-8 U+FFFD, as a report
            // shows the bytes ytt names in its error (`cannot load \xc3`).
            let shifted: Vec<_> = edits[first_edit..]
                .iter()
                .map(|(from, to, text)| (from - start, to - start, text.clone()))
                .collect();
            let source = String::from_utf8_lossy(&b[start..after]);
            let text = edited(&source, &shifted);
            edits.truncate(first_edit);
            let lossy = String::from_utf8_lossy(&marked_bytes(&text)).into_owned();
            edits.push((start, after, lossy));
        } else if !bytes_call.is_empty() {
            edits.insert(first_edit, (start, start, format!("{bytes_call}(")));
            edits.push((after, after, ")".into()));
        }
    }
    Ok(after)
}

/// A run of escaped bytes past ASCII (`"\\xc3\\xa9"`, `"\\303\\251"`) is UTF-8 text in
/// starlark-go: each complete UTF-8 sequence in it becomes its character. The escapes of bytes
/// that are no such sequence become their marks (see the module's doc), and so do those of a
/// character at or past [`BYTE_MARK`] (which would read as a mark); `true` if there were any
/// (the literal becomes a call of [`BYTES`]).
fn decode_utf8_escapes(
    run: &mut Vec<(usize, usize, u8)>,
    edits: &mut Vec<(usize, usize, String)>,
) -> bool {
    let bytes: Vec<u8> = run.iter().map(|&(_, _, byte)| byte).collect();
    let mut at = 0;
    let mut not_utf8 = false;
    for chunk in bytes.utf8_chunks() {
        let valid = chunk.valid();
        if !valid.is_empty() {
            let mut text = String::with_capacity(valid.len());
            for c in valid.chars() {
                if c as u32 >= BYTE_MARK {
                    text.extend(c.to_string().bytes().map(byte_mark));
                    not_utf8 = true;
                } else {
                    text.push(c);
                }
            }
            edits.push((run[at].0, run[at + valid.len() - 1].1, text));
        }
        at += valid.len();
        for &b in chunk.invalid() {
            edits.push((run[at].0, run[at].1, byte_mark(b).to_string()));
            not_utf8 = true;
            at += 1;
        }
    }
    run.clear();
    not_utf8
}

#[cfg(test)]
mod tests {
    use super::*;

    fn fixed(src: &str) -> String {
        go_literals(src, BYTES)
            .unwrap()
            .unwrap_or_else(|| src.to_string())
    }

    fn refused(src: &str) -> String {
        go_literals(src, BYTES).unwrap_err().0.message
    }

    #[test]
    fn raw_strings_keep_a_backslash_before_their_quote() {
        assert_eq!(fixed(r#"x = r"a\"b""#), r#"x = "a\\\"b""#);
        assert_eq!(fixed(r#"x = r"""a\"""b""""#), r#"x = """a\\\"\"\"b""""#);
        assert_eq!(fixed(r#"x = r"a\nb""#), r#"x = r"a\nb""#);
        assert_eq!(fixed(r#"x = r'a\"b'"#), r#"x = 'a\\"b'"#);
    }

    #[test]
    fn numbers() {
        assert_eq!(
            fixed("x = 000 + 00.5 + 007.5 + 0 + 10 + 0x1F + 1e5 + .5"),
            "x = 0 + 0.5 + 7.5 + 0 + 10 + 0x1F + 1e5 + .5"
        );
        assert_eq!(
            refused("x = 0755"),
            "obsolete form of octal literal; use 0o755"
        );
        assert_eq!(refused("x = 08"), "invalid int literal");
        assert_eq!(refused("x = 0x"), "invalid hex literal");
        assert_eq!(refused("x = 0o8"), "invalid octal literal");
        // Octal and binary literals are 64-bit ints in starlark-go; hex and decimal are not.
        let ones = "1".repeat(63);
        assert_eq!(
            fixed(&format!("x = 0b{ones} + 0b000{ones}")),
            format!("x = 0b{ones} + 0b000{ones}")
        );
        assert_eq!(refused(&format!("x = 0b1{ones}")), "invalid int literal");
        assert_eq!(
            refused("x = -0o1000000000000000000000"),
            "invalid int literal"
        );
        assert_eq!(
            fixed("x = 0o777777777777777777777"),
            "x = 0o777777777777777777777"
        );
        assert_eq!(fixed("x = 0x10000000000000000"), "x = 0x10000000000000000");
        assert_eq!(refused("x = 1e400"), "invalid float literal");
        assert_eq!(refused("x = 1e"), "invalid float literal");
        assert_eq!(fixed("x1e400 = a.b0"), "x1e400 = a.b0");
    }

    #[test]
    fn strings() {
        assert_eq!(
            fixed(r#"x = '\u00e9' + "\U0001F600" + r'\u1234'"#),
            r#"x = '\\u00e9' + "\\U0001F600" + r'\u1234'"#
        );
        assert_eq!(fixed("x = b'x'"), "x = b 'x'");
        // The bytes that spell no UTF-8 become marks, and the literal a call of BYTES.
        let mark = |b: u32| char::from_u32(BYTE_MARK + b).unwrap();
        assert_eq!(
            fixed(r"x = '\xc3\xa9-\303\251\xff\xe2\x82\xac\xe2\x82\xc3\xa9\u00e9'"),
            format!(
                r"x = {BYTES}('é-é{}€{}{}é\\u00e9')",
                mark(0xff),
                mark(0xe2),
                mark(0x82)
            )
        );
        // A character of the source at or past the marks stands for its own bytes.
        let own = mark(0x41);
        let fixed_own = fixed(&format!("x = '\\xff{own}'"));
        let marked = fixed_own
            .strip_prefix(&format!("x = {BYTES}('"))
            .and_then(|m| m.strip_suffix("')"))
            .unwrap();
        let mut want = vec![0xff];
        want.extend_from_slice(own.to_string().as_bytes());
        assert_eq!(marked_bytes(marked), want);
        // Escapes that spell a character at or past the marks stand for its bytes too.
        let escaped = fixed(r"x = '\xf4\x8f\xbd\x81a'");
        let marked = escaped
            .strip_prefix(&format!("x = {BYTES}('"))
            .and_then(|m| m.strip_suffix("')"))
            .unwrap();
        assert_eq!(marked_bytes(marked), b"\xf4\x8f\xbd\x81a");
        // In a `load`, the literal is its text with U+FFFD for such bytes (no call there).
        assert_eq!(
            fixed(r#"load("\xc3", x="\xff\xfe", "a\xc3\xa9")"#),
            "load(\"\u{fffd}\", x=\"\u{fffd}\u{fffd}\", \"aé\")"
        );
        assert_eq!(
            fixed(r#"y = x.load("\xc3")"#),
            format!("y = x.load({BYTES}(\"{}\"))", mark(0xc3))
        );
        assert_eq!(refused(r"x = '\400'"), r"invalid escape sequence \400");
        assert_eq!(refused(r"x = '\x4'"), r"truncated escape sequence \x4");
        assert_eq!(refused(r"x = '\x4g'"), r"invalid escape sequence \x4g");
        assert_eq!(
            go_literals(
                "# '\\400'\nx = '#' # 0755\ny = \"\"\"a\n\\u\"\"\"\nz = 08",
                BYTES
            )
            .unwrap_err()
            .0,
            LiteralError {
                line: 4,
                column: 4,
                message: "invalid int literal".into()
            }
        );
        assert_eq!(
            go_literals("x = 'it\\'s' + \"\\\"\" + '''a ' b'''", BYTES).unwrap(),
            None
        );
    }
}
