//! `toml.decode` as ytt's decoder (BurntSushi's `toml` v1.2.1) reads a document: its lexer (a
//! state machine handing the parser one item at a time) and its parser, which checks items
//! (keys, strings' escapes, integers and floats, and the key it was at for `(last key "t.k")`)
//! and keeps their values in its table of keys (`toml_keys`), so the first problem in the
//! document is the one reported, whether the lexer or the parser meets it, and the values are
//! the ones BurntSushi keeps.

use super::toml_keys::{key_text, Context, Entry, Keys, Type};
use super::toml_lexer::{is_hex, quote_text, Item, Kind, Lexer};
use crate::value::Value as Data;

/// How deep a document may nest (the keys of headers, dotted keys and inline tables, and
/// arrays, counted together): as deep as Starlark values go (`SCHEMAC_MAX_VALUE_DEPTH`), which
/// the decoded value is. BurntSushi has no limit.
fn depth_budget() -> crate::yaml::parse::budget::Depth {
    crate::yaml::parse::budget::Depth::starlark_values()
}

/// The first error BurntSushi's decoder reports for `input` (its whole message, `toml: line N
/// (last key "K"): ...`), `None` when these checks find none.
#[cfg(test)]
fn first_error(input: &[u8]) -> Option<String> {
    decoded(input).err()
}

/// The first error BurntSushi's decoder reports for `input` (its whole message), else its
/// value; a date or time in it is an error too (ytt's panic), found in ytt's order.
pub(super) fn decoded(input: &[u8]) -> Result<Data, String> {
    decoded_within(input, depth_budget())
}

/// [`decoded`] with the depth budget `depth`.
fn decoded_within(input: &[u8], depth: crate::yaml::parse::budget::Depth) -> Result<Data, String> {
    let mut lexer = Lexer::new(input);
    lexer.run();
    let mut parser = Parser {
        keys: Keys::new(),
        context: Context::default(),
        current_key: String::new(),
        pos_line: 1,
        depth,
    };
    parser.read(&mut lexer.items.iter())?;
    super::toml_values::document(&parser.keys)
}

/// A `"""` string's value as BurntSushi v1.2.1 makes it (`replaceEscapes(stripFirstNewline(
/// stripEscapedNewlines(text)))`), where the TOML specification and the `toml` crate differ:
/// each line's carriage returns before its line feed are dropped, and once a line ends with a
/// line-ending backslash no later line keeps its line feed (`a`, a backslash, a line break,
/// `b`, a line break, `c` is `abc`).
pub(super) fn burntsushi_multiline(text: &[u8]) -> Option<String> {
    let joined = strip_escaped_newlines(text)?;
    let first = match joined.as_slice() {
        [b'\n', rest @ ..] | [b'\r', b'\n', rest @ ..] => rest,
        all => all,
    };
    Some(unescaped(first))
}

/// The part of BurntSushi's parser that reads items in order: the key it is at, and the checks
/// it makes of keys, strings and numbers.
struct Parser {
    keys: Keys,
    /// The table of the last header, then the keys of inline tables and dotted keys.
    context: Context,
    current_key: String,
    /// The line of the item read last by `nextPos` (the first of a key or a table name).
    pos_line: usize,
    /// How deep the document may nest ([`depth_budget`]).
    depth: crate::yaml::parse::budget::Depth,
}

/// What the parser is reading the inside of.
enum Open {
    /// A top-level `key = value`'s value: the context to go back to after it.
    TopKey(usize),
    /// A key's value in an inline table: the inline table's context.
    InlineKey(usize),
    /// An inline array: its items so far.
    Array(Vec<Entry>),
    /// An inline table: the context and key to go back to after it, and the table (in
    /// [`Keys::tables`]) of its own keys' values, BurntSushi's `hash`, which is its value in an
    /// array (a dotted key's last part its key there: `[{a.b = 1}]` is `[{b = 1}]`).
    InlineTable(usize, String, usize),
}

type Items<'i> = std::slice::Iter<'i, Item>;

impl Parser {
    /// The parser's last key, as BurntSushi's `current` names it.
    fn current(&self) -> String {
        let context = key_text(&self.context.parts);
        match (self.current_key.is_empty(), context.is_empty()) {
            (true, _) => context,
            (false, true) => self.current_key.clone(),
            (false, false) => format!("{context}.{}", self.current_key),
        }
    }

    fn error(&self, line: usize, message: &str) -> String {
        match self.current() {
            key if key.is_empty() => format!("toml: line {line}: {message}"),
            key => format!(
                "toml: line {line} (last key {}): {message}",
                quote_text(key.as_bytes())
            ),
        }
    }

    /// The next item, an error item as its message.
    fn next<'i>(&self, items: &mut Items<'i>) -> Result<Option<&'i Item>, String> {
        match items.next() {
            Some(item) if item.kind == Kind::Error => {
                Err(self.error(item.line, &String::from_utf8_lossy(&item.val)))
            }
            item => Ok(item),
        }
    }

    /// The depth budget's error when `levels` pass it, on `line`.
    fn within_depth(&self, levels: usize, line: usize) -> Result<(), String> {
        match levels > self.depth.levels {
            true => Err(format!(
                "toml: line {line}: collections nested deeper than {} levels (raise the budget with {})",
                self.depth.levels, self.depth.var
            )),
            false => Ok(()),
        }
    }

    fn read(&mut self, items: &mut Items) -> Result<(), String> {
        let mut open: Vec<Open> = Vec::new();
        // The inline arrays in `open`.
        let mut arrays = 0;
        while let Some(item) = self.next(items)? {
            self.within_depth(self.context.len() + arrays, item.line)?;
            let awaits_value = matches!(open.last(), Some(Open::TopKey(_) | Open::InlineKey(_)));
            let (value, ty) = match item.kind {
                Kind::Eof => return Ok(()),
                Kind::CommentStart => {
                    self.next(items)?;
                    continue;
                }
                Kind::TableStart | Kind::ArrayTableStart if open.is_empty() => {
                    let key = self.key(items)?;
                    self.within_depth(key.len(), item.line)?;
                    let array = item.kind == Kind::ArrayTableStart;
                    let added = self.keys.add_context(&mut self.context, &key, array);
                    self.at_key(added)?;
                    self.keys.set_type(&self.context, "", Type::Other);
                    continue;
                }
                Kind::KeyStart if !awaits_value => {
                    let parts = self.key(items)?;
                    open.push(match open.last() {
                        Some(Open::InlineTable(..)) => Open::InlineKey(self.context.len()),
                        _ => Open::TopKey(self.context.len()),
                    });
                    if let Some((last, dotted)) = parts.split_last() {
                        self.current_key = last.clone();
                        for part in dotted {
                            self.within_depth(self.context.len() + 1 + arrays, item.line)?;
                            self.keys.add_implicit(&self.context, part);
                            let added = self.keys.add_context_part(&mut self.context, part, false);
                            self.at_key(added)?;
                        }
                    }
                    continue;
                }
                Kind::Array => {
                    self.keys
                        .set_type(&self.context, &self.current_key, Type::Array);
                    open.push(Open::Array(Vec::new()));
                    arrays += 1;
                    continue;
                }
                Kind::InlineTableStart => {
                    let in_array = matches!(open.last(), Some(Open::Array(_)));
                    let outer_key = std::mem::take(&mut self.current_key);
                    let hash = self.keys.new_table();
                    open.push(Open::InlineTable(
                        self.context.len(),
                        outer_key.clone(),
                        hash,
                    ));
                    self.keys.add_implicit(&self.context, &outer_key);
                    // BurntSushi's context holds the key while the one above is walked, and
                    // is that one after.
                    self.current_key = outer_key;
                    self.at_key(self.keys.holds_table(&self.context))?;
                    let outer_key = std::mem::take(&mut self.current_key);
                    let added = self
                        .keys
                        .add_context_part(&mut self.context, &outer_key, in_array);
                    self.at_key(added)?;
                    continue;
                }
                Kind::ArrayEnd => match open.pop() {
                    Some(Open::Array(items)) => {
                        arrays -= 1;
                        (Entry::Array(items), Type::Array)
                    }
                    _ => return Err(self.error(item.line, "bug: an array's end outside one")),
                },
                Kind::InlineTableEnd => match open.pop() {
                    Some(Open::InlineTable(outer, key, hash)) => {
                        self.context.truncate(outer);
                        self.current_key = key;
                        (Entry::Table(hash), Type::Other)
                    }
                    _ => return Err(self.error(item.line, "bug: a table's end outside one")),
                },
                _ => {
                    self.scalar(item)?;
                    let value = super::toml_values::scalar(item)
                        .map_err(|message| self.error(item.line, &message))?;
                    (Entry::Scalar(value), Type::Other)
                }
            };
            // A value was read: an array's item, or a key's value.
            let context = match open.last_mut() {
                Some(Open::Array(items)) => {
                    items.push(value);
                    continue;
                }
                Some(&mut Open::TopKey(outer)) => outer,
                Some(&mut Open::InlineKey(context)) => context,
                _ => continue,
            };
            // A key of an inline table is one of its own keys too.
            if let [.., Open::InlineTable(_, _, hash), Open::InlineKey(_)] = open[..] {
                self.keys.tables[hash].insert(self.current_key.clone(), value.clone());
            }
            let set = self.keys.set_value(&self.context, &self.current_key, value);
            self.at_key(set)?;
            self.keys.set_type(&self.context, &self.current_key, ty);
            self.context.truncate(context);
            if let Some(Open::TopKey(_)) = open.pop() {
                self.current_key.clear();
            }
        }
        Ok(())
    }

    /// A refusal of the table of keys, on the line of the key or table name read last.
    fn at_key(&self, result: Result<(), String>) -> Result<(), String> {
        result.map_err(|message| self.error(self.pos_line, &message))
    }

    /// The parts of a key or a table name, to its end.
    fn key(&mut self, items: &mut Items) -> Result<Vec<String>, String> {
        let mut parts = Vec::new();
        let mut first = true;
        while let Some(item) = self.next(items)? {
            if first {
                self.pos_line = item.line;
                first = false;
            }
            match item.kind {
                Kind::KeyEnd | Kind::TableEnd | Kind::ArrayTableEnd | Kind::Eof => break,
                _ => {
                    self.scalar(item)?;
                    parts.push(match item.kind {
                        Kind::Str => unescaped(&item.val),
                        _ => String::from_utf8_lossy(&item.val).into_owned(),
                    });
                }
            }
        }
        Ok(parts)
    }

    /// BurntSushi's checks of a scalar value (or a part of a key), in its words.
    fn scalar(&self, item: &Item) -> Result<(), String> {
        let fail = |message: String| Err(self.error(item.line, &message));
        let text = String::from_utf8_lossy(&item.val);
        match item.kind {
            Kind::Str => self.escapes(item, &item.val),
            Kind::MultilineStr => match strip_escaped_newlines(&item.val) {
                Some(joined) => self.escapes(item, &joined),
                None => Err(self.error(self.pos_line, "invalid escape: '\\ '")),
            },
            Kind::Integer => match integer_problem(&text) {
                Some(problem) => fail(problem),
                None => Ok(()),
            },
            Kind::Float => match float_problem(&text) {
                Some(problem) => fail(problem),
                None => Ok(()),
            },
            Kind::Datetime => match super::toml_datetime::datetime_problem(&text) {
                Some(problem) => fail(problem),
                None => Ok(()),
            },
            _ => Ok(()),
        }
    }

    /// The escapes of a basic string: `\ ` and `\t` (which the lexer lets by) and a `\u` or
    /// `\U` that is no Unicode scalar value.
    fn escapes(&self, item: &Item, text: &[u8]) -> Result<(), String> {
        let mut i = 0;
        while i < text.len() {
            if text[i] != b'\\' {
                i += 1;
                continue;
            }
            let digits = match text.get(i + 1) {
                Some(&c @ (b' ' | b'\t')) => {
                    let message = format!("invalid escape: '\\{}'", c as char);
                    return Err(self.error(item.line, &message));
                }
                Some(b'u') => 4,
                Some(b'U') => 8,
                _ => 0,
            };
            let hex = text.get(i + 2..i + 2 + digits).unwrap_or_default();
            let hex = std::str::from_utf8(hex).unwrap_or_default();
            if digits > 0
                && u32::from_str_radix(hex, 16)
                    .ok()
                    .and_then(char::from_u32)
                    .is_none()
            {
                let message = format!("Escaped character '\\u{hex}' is not valid UTF-8.");
                return Err(self.error(item.line, &message));
            }
            i += 2 + digits;
        }
        Ok(())
    }
}

/// A basic string's text with its escapes replaced (those [`Parser::escapes`] let by).
pub(super) fn unescaped(text: &[u8]) -> String {
    let text = String::from_utf8_lossy(text);
    let mut out = String::new();
    let mut chars = text.chars();
    while let Some(c) = chars.next() {
        if c != '\\' {
            out.push(c);
            continue;
        }
        let digits = match chars.next() {
            Some('b') => Some('\u{8}'),
            Some('t') => Some('\t'),
            Some('n') => Some('\n'),
            Some('f') => Some('\u{c}'),
            Some('r') => Some('\r'),
            Some('u') => hex_char(&mut chars, 4),
            Some('U') => hex_char(&mut chars, 8),
            other => other,
        };
        out.extend(digits);
    }
    out
}

fn hex_char(chars: &mut std::str::Chars, count: usize) -> Option<char> {
    let hex: String = chars.take(count).collect();
    u32::from_str_radix(&hex, 16).ok().and_then(char::from_u32)
}

/// A `"""` string's text with its line-ending backslashes taken out as BurntSushi's
/// `stripEscapedNewlines` does, `None` where it refuses one on the string's last line.
fn strip_escaped_newlines(text: &[u8]) -> Option<Vec<u8>> {
    let trim_left = |s: &[u8]| -> Vec<u8> {
        let n = s
            .iter()
            .take_while(|b| matches!(b, b' ' | b'\t' | b'\r'))
            .count();
        s[n..].to_vec()
    };
    let mut split: Vec<Vec<u8>> = text.split(|&b| b == b'\n').map(<[u8]>::to_vec).collect();
    let last = split.len() - 1;
    let mut escaped_newline = false;
    for i in 0..split.len() {
        let trimmed_len = split[i].len()
            - split[i]
                .iter()
                .rev()
                .take_while(|b| matches!(b, b' ' | b'\t' | b'\r'))
                .count();
        let line = split[i][..trimmed_len].to_vec();
        if line.last() != Some(&b'\\') {
            while split[i].last() == Some(&b'\r') {
                split[i].pop();
            }
            if !escaped_newline && i != last {
                split[i].push(b'\n');
            }
            continue;
        }
        let backslashes = line.iter().rev().take_while(|&&b| b == b'\\').count();
        let backslash_escaped = backslashes % 2 == 0;
        let line = if escaped_newline {
            trim_left(&line)
        } else {
            line
        };
        escaped_newline = !backslash_escaped;
        if backslash_escaped {
            split[i].push(b'\n');
            continue;
        }
        if i == last {
            return None;
        }
        split[i] = line[..line.len() - 1].to_vec();
        split[i + 1] = trim_left(&split[i + 1]);
    }
    Some(split.concat())
}

/// Whether `s`'s underscores each stand between two characters of a number (BurntSushi's
/// `numUnderscoresOK`).
fn underscores_ok(s: &str) -> bool {
    if matches!(s, "nan" | "+nan" | "-nan" | "inf" | "-inf" | "+inf") {
        return true;
    }
    let mut accept = false;
    for c in s.chars() {
        if c == '_' && !accept {
            return false;
        }
        accept = is_hex(c);
    }
    accept
}

fn has_leading_zero(s: &str) -> bool {
    let b = s.as_bytes();
    (b.len() > 1 && b[0] == b'0' && !matches!(b[1], b'b' | b'o' | b'x'))
        || (b.len() > 2 && matches!(b[0], b'-' | b'+') && b[1] == b'0')
}

/// BurntSushi's refusal of an integer the lexer read, if any.
fn integer_problem(s: &str) -> Option<String> {
    if !underscores_ok(s) {
        return Some(format!(
            "Invalid integer {}: underscores must be surrounded by digits",
            quote_text(s.as_bytes())
        ));
    }
    if has_leading_zero(s) {
        return Some(format!(
            "Invalid integer {}: cannot have leading zeroes",
            quote_text(s.as_bytes())
        ));
    }
    let digits = s.replace('_', "");
    let (_, radix, digits) = sign_and_radix(&digits);
    match (go_integer(s), digits) {
        (Some(_), _) => None,
        // Digits Go would not read at all are BurntSushi's `bug`.
        (None, digits)
            if digits.bytes().any(|b| !(b as char).is_digit(radix)) || digits.is_empty() =>
        {
            None
        }
        _ => Some(format!("{s} is out of range for int64")),
    }
}

/// An integer's sign, base and digits, as Go's `ParseInt(s, 0, 64)` reads a sign and then a
/// base prefix.
fn sign_and_radix(digits: &str) -> (bool, u32, &str) {
    let (negative, digits) = match digits.as_bytes().first() {
        Some(b'-') => (true, &digits[1..]),
        Some(b'+') => (false, &digits[1..]),
        _ => (false, digits),
    };
    let (radix, digits) = match digits.get(..2) {
        Some("0x") => (16, &digits[2..]),
        Some("0o") => (8, &digits[2..]),
        Some("0b") => (2, &digits[2..]),
        _ => (10, digits),
    };
    (negative, radix, digits)
}

/// The value of an integer the lexer read, its underscores taken out, as Go's `ParseInt(s, 0,
/// 64)` reads it; `None` where Go refuses it.
pub(super) fn go_integer(s: &str) -> Option<i64> {
    let digits = s.replace('_', "");
    let (negative, radix, digits) = sign_and_radix(&digits);
    if digits.starts_with(['+', '-']) {
        return None;
    }
    let magnitude = u128::from_str_radix(digits, radix).ok()?;
    match negative {
        true if magnitude <= 1u128 << 63 => Some((magnitude as i128).wrapping_neg() as i64),
        false => i64::try_from(magnitude).ok(),
        true => None,
    }
}

/// BurntSushi's refusal of a float the lexer read, if any.
fn float_problem(s: &str) -> Option<String> {
    let quoted = quote_text(s.as_bytes());
    let parts: Vec<&str> = s.split(['.', 'e', 'E']).filter(|p| !p.is_empty()).collect();
    if parts.iter().any(|p| !underscores_ok(p)) {
        return Some(format!(
            "Invalid float {quoted}: underscores must be surrounded by digits"
        ));
    }
    if parts.first().is_some_and(|p| has_leading_zero(p)) {
        return Some(format!(
            "Invalid float {quoted}: cannot have leading zeroes"
        ));
    }
    let mut period = false;
    for c in s.chars() {
        if period && !c.is_ascii_digit() {
            return Some(format!(
                "Invalid float {quoted}: '.' must be followed by one or more digits"
            ));
        }
        period = c == '.';
    }
    if period {
        return Some(format!(
            "Invalid float {quoted}: '.' must be followed by one or more digits"
        ));
    }
    let value = s.replace('_', "");
    if matches!(
        value.as_str(),
        "nan" | "+nan" | "-nan" | "inf" | "+inf" | "-inf"
    ) {
        return None;
    }
    match value.parse::<f64>() {
        Ok(f) if f.is_infinite() => Some(format!("{s} is out of range for float64")),
        Ok(_) => None,
        Err(_) => Some(format!("Invalid float value: {quoted}")),
    }
}

#[cfg(test)]
mod tests {
    use super::{first_error, go_integer};

    fn error(text: &[u8]) -> String {
        first_error(text).unwrap_or_default()
    }

    #[test]
    fn errors_come_in_document_order_with_the_last_key() {
        assert_eq!(error(b"a = 1\nb = 1 x\n\x01"), "toml: line 2: expected a top-level item to end with a newline, comment, or EOF, but got 'x' instead");
        assert_eq!(
            error(b"a = [1,\n\x02]"),
            "toml: line 2 (last key \"a\"): TOML files cannot contain control characters: '0x02'"
        );
        assert_eq!(
            error(b"[t]\nb = {c = [1, {d = \"\xff\"}]}"),
            "toml: line 2 (last key \"t.b.c.d\"): invalid UTF-8 byte: 0xff"
        );
        assert_eq!(
            error(b"\xef\xbb\xbfa = 1"),
            "toml: line 1: expected '.' or '=', but got '\\ufeff' instead"
        );
        assert_eq!(
            error(b"a = 1\na = 2 \x01"),
            "toml: line 2 (last key \"a\"): Key 'a' has already been defined."
        );
        assert_eq!(error(b"a = 1\nb = 2"), "");
    }

    #[test]
    fn nesting_past_the_depth_budget_is_refused() {
        let depth = crate::yaml::parse::budget::Depth {
            levels: 3,
            var: "SCHEMAC_MAX_VALUE_DEPTH",
        };
        let error = |text: &[u8]| super::decoded_within(text, depth).err().unwrap_or_default();
        let refused = |line: usize| {
            format!("toml: line {line}: collections nested deeper than 3 levels (raise the budget with SCHEMAC_MAX_VALUE_DEPTH)")
        };
        assert_eq!(error(b"a = [[[1]]]\nb = [[[[1]]]]"), refused(2));
        // (Counted as the collections around a value, the document's own table left out.)
        assert_eq!(
            error(b"a = {b = {c = 1}}\nx = {b = {c = {d = {e = 1}}}}"),
            refused(2)
        );
        assert_eq!(error(b"a.b.c.d = 1\n[t.u.v]\nw = 1\n[a.b.c.d]"), refused(4));
        assert_eq!(error(b"a.b.c.d.e = 1"), refused(1));
        assert_eq!(error(b"a = [{b = [1]}]\nc = [{d = [[1]]}]"), refused(2));
    }

    #[test]
    fn integers_are_read_as_go_reads_them() {
        assert_eq!(go_integer("-9_223_372_036_854_775_808"), Some(i64::MIN));
        assert_eq!(go_integer("0x7fffffffffffffff"), Some(i64::MAX));
        assert_eq!(go_integer("9223372036854775808"), None);
        assert_eq!(go_integer("+0o17"), Some(15));
        assert_eq!(go_integer("0b"), None);
    }
}
