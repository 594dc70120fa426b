//! `@ytt:toml`: `encode` lays data out as ytt's TOML encoder does (BurntSushi's `toml` v1.2.1,
//! fed Go maps, so keys come out sorted), `decode` reads TOML into dicts, lists and scalars.
//!
//! The encoder's layout, as BurntSushi's: in a table, the keys whose values are not tables
//! first (`key = value`, null values left out), then the tables (`[a.b]`) and arrays of tables
//! (`[[a.b]]`), each group in byte order; a table below the top level is indented one
//! `indent=` step (two spaces by default, also for `indent=0`) per level of its key, and a
//! top-level table is preceded by an empty line. Arrays that are not all tables are inline
//! (`[1, {a = 1}]`), their tables inline too.

use starlark::environment::GlobalsBuilder;
use starlark::starlark_module;
use starlark::values::tuple::UnpackTuple;
use starlark::values::{Heap, Value};

use super::text_modules::{only_arg, only_bytes};
use super::written_size::Writing;
use crate::value::{MapEntry, Node, Pos, Value as Data};

type Kwargs<'v> = starlark::collections::SmallMap<starlark::values::StringValue<'v>, Value<'v>>;

#[starlark_module]
pub(super) fn toml_members(builder: &mut GlobalsBuilder) {
    /// TOML text for a dict, struct or YAML map; `indent=N` (0 to 8) indents nested tables by
    /// N spaces a level (0 keeps BurntSushi's two).
    fn encode<'v>(
        #[starlark(args)] args: UnpackTuple<Value<'v>>,
        #[starlark(kwargs)] kwargs: Kwargs<'v>,
        heap: Heap<'v>,
    ) -> anyhow::Result<String> {
        const NAME: &str = "toml.encode";
        let value = only_arg(NAME, &args.items)?;
        super::modules::check_kwarg_names(NAME, &kwargs, &["indent"])?;
        super::budget::reserve_written(value, Writing::Encoded, heap)?;
        let tree = super::convert::to_tree_value(value, &Pos::unknown(), heap)
            .map_err(|e| super::assertion::encode_error(NAME, &e))?;
        let data = tree.to_value();
        if let Some(ty) = super::modules::non_string_key(&data) {
            anyhow::bail!(
                "{NAME}: a map key of type {ty} is not a string (ytt fails with a Go panic here)"
            );
        }
        // ytt writes such a string's bytes as they are, making TOML text that is not UTF-8;
        // a key was left out and a value written with U+FFFD.
        if holds_bytes(&data) {
            anyhow::bail!(
                "{NAME}: a string that is not UTF-8 is not supported here by schemac (ytt writes its bytes)"
            );
        }
        let indent = super::modules::indent_kwarg(NAME, &kwargs)?;
        if data == Data::Null {
            anyhow::bail!("{NAME}: None is not a TOML document (ytt fails with a Go panic here)");
        }
        let step = match indent {
            0 => "  ".to_string(),
            n => " ".repeat(usize::try_from(n).unwrap_or(0)),
        };
        // The text, not the value, is what grows: each nested table's header repeats the keys
        // above it, so a dict nested N deep is about N * N bytes (100,000 levels: 20 GB).
        let room = super::budget::heap_room(heap);
        let mut encoder = Encoder {
            out: String::new(),
            indent: &step,
            room,
            header: String::new(),
        };
        let written = encoder.encode(&mut Vec::new(), &data);
        super::budget::within(encoder.out.len() as u128, room)?;
        written.map_err(|e| anyhow::anyhow!("{NAME}: {}", e.message()))?;
        Ok(encoder.out)
    }

    /// The value of a TOML document: its tables as dicts with sorted keys.
    fn decode<'v>(
        #[starlark(args)] args: UnpackTuple<Value<'v>>,
        #[starlark(kwargs)] _kwargs: Kwargs<'v>,
        heap: Heap<'v>,
    ) -> anyhow::Result<Value<'v>> {
        let bytes = only_bytes("toml.decode", &args.items)?;
        // BurntSushi's parser skips a UTF-16 byte-order mark, then takes a NUL among the first
        // six bytes for a UTF-16 file, before it reads a character.
        let bytes = [&b"\xff\xfe"[..], b"\xfe\xff"]
            .iter()
            .find_map(|bom| bytes.strip_prefix(*bom))
            .unwrap_or(bytes);
        if bytes.iter().take(6).any(|&b| b == 0) {
            anyhow::bail!("toml.decode: toml: line 1: files cannot contain NULL bytes; probably using UTF-16; TOML files must be UTF-8");
        }
        // BurntSushi's lexer and parser find the first problem in document order (a byte its
        // lexer stops at, a syntax error before it, a key given twice) and make the values.
        let data = super::toml_syntax::decoded(bytes)
            .map_err(|error| anyhow::anyhow!("toml.decode: {error}"))?;
        Ok(super::modules::plain(&data, heap, false))
    }
}

/// Why BurntSushi's encoder refuses a value.
#[derive(Debug)]
enum EncodeError {
    /// An array holds a null (`[1, None]`).
    NilElement,
    /// The value to encode is not a table (`toml.encode([1])`).
    NoKey,
    /// The text passed the heap budget left (the caller says so).
    Budget,
}

impl EncodeError {
    fn message(&self) -> &'static str {
        match self {
            EncodeError::NilElement => "toml: cannot encode array with nil element",
            EncodeError::NoKey => "toml: top-level values must be Go maps or structs",
            EncodeError::Budget => "the text passed the heap budget",
        }
    }
}

/// The TOML type of a value, as the encoder tells tables from the rest.
#[derive(PartialEq)]
enum Kind {
    Table,
    /// A non-empty array of tables only: `[[key]]` sections.
    ArrayOfTables,
    Other,
}

/// The kind of `v`, `None` for a null; an array holding a null (at any depth of arrays) is an
/// error, found while the encoder looks at the array's type.
fn kind(v: &Data) -> Result<Option<Kind>, EncodeError> {
    Ok(Some(match v {
        Data::Null => return Ok(None),
        Data::Map(_) => Kind::Table,
        Data::Array(items) if is_array_of_tables(items)? => Kind::ArrayOfTables,
        _ => Kind::Other,
    }))
}

fn is_array_of_tables(items: &[Node]) -> Result<bool, EncodeError> {
    let mut all_tables = !items.is_empty();
    for item in items {
        match kind(&item.value)? {
            None => return Err(EncodeError::NilElement),
            Some(Kind::Table) => {}
            Some(_) => all_tables = false,
        }
    }
    Ok(all_tables)
}

/// Whether a key or a value in `data` is a string that is not UTF-8.
fn holds_bytes(data: &Data) -> bool {
    let mut todo = vec![data];
    while let Some(d) = todo.pop() {
        match d {
            Data::Bytes(_) => return true,
            Data::Map(entries) => {
                for e in entries.iter() {
                    if matches!(*e.key, Data::Bytes(_)) {
                        return true;
                    }
                    todo.push(&e.value.value);
                }
            }
            Data::Array(items) => todo.extend(items.iter().map(|n| &n.value)),
            _ => {}
        }
    }
    false
}

/// A map's values by key, in byte order; a key given twice keeps its last value (a Go map).
fn sorted_entries(entries: &[MapEntry]) -> std::collections::BTreeMap<&str, &Data> {
    entries
        .iter()
        .filter_map(|e| Some((e.key.as_str()?, &e.value.value)))
        .collect()
}

struct Encoder<'a> {
    out: String,
    /// One level of indentation of nested tables and their keys.
    indent: &'a str,
    /// The bytes the text may take (the heap budget left).
    room: u128,
    /// The key of the table being written, its parts quoted where they must be and joined
    /// with `.` (each nested table's header adds its part to its parent's).
    header: String,
}

impl Encoder<'_> {
    /// [`EncodeError::Budget`] once the text is longer than it may be.
    fn within_room(&self) -> Result<(), EncodeError> {
        match self.out.len() as u128 > self.room {
            true => Err(EncodeError::Budget),
            false => Ok(()),
        }
    }

    /// `v` at `key` (the keys from the top, one stack for the whole walk: a copy per level
    /// was the square of the depth in memory, 12 GB for a dict nested 45,000 deep).
    fn encode<'d>(&mut self, key: &mut Vec<&'d str>, v: &'d Data) -> Result<(), EncodeError> {
        match v {
            Data::Null => Ok(()),
            Data::Map(entries) => self.table(key, entries),
            Data::Array(items) if is_array_of_tables(items)? => self.array_of_tables(key, items),
            _ => self.key_value(key, v, false),
        }
    }

    /// A line break, unless nothing is written yet.
    fn newline(&mut self) {
        if !self.out.is_empty() {
            self.out.push('\n');
        }
    }

    fn indent_for(&mut self, key: &[&str]) {
        for _ in 1..key.len() {
            self.out.push_str(self.indent);
        }
    }

    /// The key of the table being written, as its header has it.
    fn write_key(&mut self) {
        self.out.push_str(&self.header);
    }

    fn table<'d>(
        &mut self,
        key: &mut Vec<&'d str>,
        entries: &'d [MapEntry],
    ) -> Result<(), EncodeError> {
        if key.len() == 1 {
            self.newline();
        }
        if !key.is_empty() {
            self.indent_for(key);
            self.out.push('[');
            self.write_key();
            self.out.push(']');
            self.newline();
            self.within_room()?;
        }
        self.map(key, entries, false)
    }

    fn array_of_tables<'d>(
        &mut self,
        key: &mut Vec<&'d str>,
        items: &'d [Node],
    ) -> Result<(), EncodeError> {
        if key.is_empty() {
            return Err(EncodeError::NoKey);
        }
        for item in items {
            let Data::Map(entries) = &item.value else {
                continue;
            };
            self.newline();
            self.indent_for(key);
            self.out.push_str("[[");
            self.write_key();
            self.out.push_str("]]");
            self.newline();
            self.within_room()?;
            self.map(key, entries, false)?;
        }
        Ok(())
    }

    /// A map's members: those that are not tables first, then the tables; `inline` writes
    /// `{k = v, ...}` (where BurntSushi leaves a `, ` after a last member that is null).
    fn map<'d>(
        &mut self,
        key: &mut Vec<&'d str>,
        entries: &'d [MapEntry],
        inline: bool,
    ) -> Result<(), EncodeError> {
        let mut direct = Vec::new();
        let mut tables = Vec::new();
        for (k, v) in sorted_entries(entries) {
            match kind(v)? {
                Some(Kind::Table | Kind::ArrayOfTables) => tables.push((k, v)),
                _ => direct.push((k, v)),
            }
        }
        if inline {
            self.out.push('{');
        }
        let comma_after_direct = !tables.is_empty();
        for (group, trailing_comma) in [(direct, comma_after_direct), (tables, false)] {
            let last = group.len().saturating_sub(1);
            for (i, (k, v)) in group.into_iter().enumerate() {
                if *v == Data::Null {
                    continue;
                }
                if inline {
                    self.key_value(&[k], v, true)?;
                    if trailing_comma || i != last {
                        self.out.push_str(", ");
                    }
                } else {
                    let header = self.header.len();
                    if !key.is_empty() {
                        self.header.push('.');
                    }
                    self.header.push_str(&maybe_quoted(k));
                    key.push(k);
                    let written = self.encode(key, v);
                    key.pop();
                    self.header.truncate(header);
                    written?;
                }
            }
        }
        if inline {
            self.out.push('}');
        }
        Ok(())
    }

    fn key_value(&mut self, key: &[&str], v: &Data, inline: bool) -> Result<(), EncodeError> {
        let Some(last) = key.last() else {
            return Err(EncodeError::NoKey);
        };
        self.indent_for(key);
        self.out.push_str(&maybe_quoted(last));
        self.out.push_str(" = ");
        self.element(v)?;
        if !inline {
            self.newline();
        }
        self.within_room()
    }

    fn element(&mut self, v: &Data) -> Result<(), EncodeError> {
        match v {
            Data::Null => return Err(EncodeError::NilElement),
            Data::Bool(b) => self.out.push_str(if *b { "true" } else { "false" }),
            Data::Int(i) => self.out.push_str(&i.to_string()),
            Data::UInt(u) => self.out.push_str(&u.to_string()),
            Data::Float(f) => self.out.push_str(&float(*f)),
            Data::Str(s) => self.out.push_str(&quoted(s)),
            // (Refused before: see `holds_bytes`.)
            Data::Bytes(b) => self.out.push_str(&quoted(&String::from_utf8_lossy(b))),
            Data::Array(items) => {
                self.out.push('[');
                for (i, item) in items.iter().enumerate() {
                    if i > 0 {
                        self.out.push_str(", ");
                    }
                    self.element(&item.value)?;
                }
                self.out.push(']');
            }
            Data::Map(entries) => self.map(&mut Vec::new(), entries, true)?,
        }
        Ok(())
    }
}

/// A float as BurntSushi writes one: Go's shortest digits without an exponent, with a `.0`
/// when they have no point; `nan`, `+inf`, `-inf`.
fn float(f: f64) -> String {
    if f.is_nan() {
        return "nan".into();
    }
    if f.is_infinite() {
        return if f < 0.0 { "-inf" } else { "+inf" }.into();
    }
    // Rust's `Display` of a float is Go's `FormatFloat(f, 'f', -1, 64)`: shortest round-trip
    // digits, never an exponent, `-0` for negative zero.
    let text = f.to_string();
    match text.contains('.') {
        true => text,
        false => text + ".0",
    }
}

/// A key bare when it is made of `A-Za-z0-9_-` only (and not empty), else a quoted string.
pub(super) fn maybe_quoted(key: &str) -> String {
    let bare = |c: char| c.is_ascii_alphanumeric() || c == '_' || c == '-';
    match !key.is_empty() && key.chars().all(bare) {
        true => key.to_string(),
        false => quoted(key),
    }
}

/// A basic string: `"` and `\` escaped, control characters and DEL as `\b \t \n \f \r` or
/// `\u00XX`, everything else as it is.
fn quoted(s: &str) -> String {
    use std::fmt::Write as _;
    let mut out = String::with_capacity(s.len() + 2);
    out.push('"');
    for c in s.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\u{8}' => out.push_str("\\b"),
            '\t' => out.push_str("\\t"),
            '\n' => out.push_str("\\n"),
            '\u{c}' => out.push_str("\\f"),
            '\r' => out.push_str("\\r"),
            '\0'..='\u{1f}' | '\u{7f}' => {
                let _ = write!(out, "\\u{:04x}", c as u32);
            }
            _ => out.push(c),
        }
    }
    out.push('"');
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn floats_are_written_without_exponents() {
        assert_eq!(float(1e21), "1000000000000000000000.0");
        assert_eq!(float(1.5e-7), "0.00000015");
        assert_eq!(float(-0.0), "-0.0");
        assert_eq!(float(f64::NEG_INFINITY), "-inf");
    }

    #[test]
    fn keys_are_quoted_unless_bare() {
        assert_eq!(maybe_quoted("a-b_9"), "a-b_9");
        assert_eq!(maybe_quoted(""), "\"\"");
        assert_eq!(maybe_quoted("a.b"), "\"a.b\"");
        assert_eq!(quoted("\u{1}\u{7f}\t\"é"), "\"\\u0001\\u007f\\t\\\"é\"");
    }
}
