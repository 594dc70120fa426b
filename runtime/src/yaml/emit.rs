//! Writing data values as YAML, byte for byte as `ytt --data-values-inspect` prints them.
//!
//! ytt encodes with its fork of go-yaml v2, whose emitter is a port of libyaml. This module
//! reproduces what plain data can reach of it: block mappings and sequences (the items of a
//! sequence under a key sit at the key's indentation), `{}` and `[]` for empty collections, plain,
//! single-quoted, double-quoted and literal (`|`, `|-`, `|+`) scalars, and `? ` for keys that
//! cannot be simple. The fork sets no line width, so long strings are never folded.
//!
//! A string is written plain only if go-yaml would read it back as a string: YAML 1.1 booleans
//! (`y`, `on`, ...), nulls, numbers, timestamps and base-60 numbers are double-quoted. The
//! emitter's own analysis then moves strings that plain style cannot carry (leading or trailing
//! spaces, `: `, ` #`, a leading indicator) to single quotes, and strings with control characters
//! or characters outside the Basic Multilingual Plane to double quotes with escapes.

use std::borrow::Cow;

use crate::value::{MapEntry, Node, Pos, Value};

pub mod budget;
mod resolve;

pub(crate) use resolve::is_timestamp;
use resolve::{is_base60_float, is_special, resolves_to_str};

/// Renders one document of data values. A null, an empty map or an empty array prints nothing,
/// because ytt skips empty documents.
pub fn to_yaml(value: &Value) -> String {
    let mut e = Emitter::default();
    e.document(value);
    e.out
}

/// Why [`write_yaml`] wrote nothing, or stopped.
pub enum WriteError {
    /// The text passes the output budget at the value of this position
    /// ([`budget::past_budget`]); nothing was written.
    PastBudget(Pos),
    /// The sink refused a block; the rest was dropped.
    Io(std::io::Error),
}

/// [`to_yaml`] of `node` written to `sink`, once its text is known to fit `max_bytes`, the
/// output budget. The text is held until then: a text of at most [`HOLD_AT`] bytes fits when it
/// is whole and no longer than the budget (which counts a lower bound of the text), with no
/// walk of its own; a longer one is sized by [`budget::past_budget`] before its first block is
/// handed on. After that it is written as it is made, a block of lines at a time, rather than
/// held whole (the text is about twice the size of the values file it came from).
pub fn write_yaml(
    node: &Node,
    max_bytes: u64,
    sink: &mut dyn std::io::Write,
) -> Result<(), WriteError> {
    let mut e = Emitter {
        // Room for the text held, made once: growing it would copy it at each doubling.
        out: String::with_capacity(HOLD_AT + FLUSH_AT),
        sink: Some(sink),
        to_size: Some((node, max_bytes)),
        flush_at: HOLD_AT,
        ..Emitter::default()
    };
    e.document(&node.value);
    e.flush(true);
    match (e.past_budget, e.failed) {
        (Some(pos), _) => Err(WriteError::PastBudget(pos)),
        (None, Some(error)) => Err(WriteError::Io(error)),
        (None, None) => Ok(()),
    }
}

/// Indentation, copied a slice at a time.
const SPACES: &str = "                                                                ";

/// A line break and the indentation of the next line, copied in one slice when it is no
/// deeper than this.
const BREAK_AND_SPACES: &str = "\n                                                                ";

/// How much text [`write_yaml`] gathers before handing it on.
const FLUSH_AT: usize = 64 * 1024;

/// How much text [`write_yaml`] holds before it sizes the whole text against the output budget
/// (most outputs are shorter: they are then not sized at all). Held text adds to the run's
/// peak memory, whose top is at writing: the largest output of `../shared/bench/gen.py`'s
/// workloads (array10k, 1.4 MB) fits.
const HOLD_AT: usize = 2 << 20;

/// A value as `yaml.encode` (and `assert.equals`) write it: as [`to_yaml`], except that an
/// empty map or array is a document of its own (`{}`, `[]`); null is still nothing.
pub fn encode(value: &Value) -> String {
    match value {
        Value::Map(entries) if entries.is_empty() => "{}\n".into(),
        Value::Array(items) if items.is_empty() => "[]\n".into(),
        other => to_yaml(other),
    }
}

/// Formats a float as go-yaml does: Go's shortest `%g` (exponent form when the decimal exponent
/// is below -4 or at least 6, with at least two exponent digits), and `.inf`, `-.inf`, `.nan`.
pub fn format_float(f: f64) -> String {
    if let Some(i) = whole_float(f) {
        i.to_string()
    } else if f.is_nan() {
        ".nan".into()
    } else if f.is_infinite() {
        if f > 0.0 { ".inf" } else { "-.inf" }.into()
    } else if (1e-4..1e6).contains(&f.abs()) {
        // The fixed form, whose shortest digits Rust's `Display` writes as Go does (`1`,
        // `-250`, `0.5`; no digits that round-trip can reach the next power of ten, a double
        // of its own).
        f.to_string()
    } else {
        go_float_text(f, -4..6, 2)
    }
}

/// The integer a float holds when [`format_float`] writes it as that integer's digits: a
/// whole number below 10^6 in magnitude (the fixed form, no point; most floats of configuration
/// data, such as `weight: 1.0`), except -0, which keeps its sign.
fn whole_float(f: f64) -> Option<i64> {
    (f.fract() == 0.0 && f.abs() < 1e6 && !(f == 0.0 && f.is_sign_negative())).then_some(f as i64)
}

/// Go's `strconv.FormatFloat` of a finite `f` with the shortest digits that read back as `f`:
/// fixed notation when the decimal exponent is in `fixed`, else exponent notation with at least
/// `exp_width` exponent digits.
pub(crate) fn go_float_text(f: f64, fixed: std::ops::Range<i32>, exp_width: usize) -> String {
    let sign = if f.is_sign_negative() { "-" } else { "" };
    if f == 0.0 {
        return format!("{sign}0");
    }
    let sci = shortest_scientific(f.abs());
    let (mantissa, exp) = split_exponent(&sci);
    if !fixed.contains(&exp) {
        return format!("{sign}{}", go_exponent(mantissa, exp, exp_width));
    }
    let digits = mantissa.replace('.', "");
    let point = exp + 1;
    if point <= 0 {
        format!(
            "{sign}0.{}{digits}",
            "0".repeat(point.unsigned_abs() as usize)
        )
    } else if point as usize >= digits.len() {
        format!(
            "{sign}{digits}{}",
            "0".repeat(point as usize - digits.len())
        )
    } else {
        let (int, frac) = digits.split_at(point as usize);
        format!("{sign}{int}.{frac}")
    }
}

/// The shortest digits that read back as the finite `a`, in Rust's `{:e}` form (`1.2345e8`).
/// Where two such are equally near (`a` is halfway between them), Go takes the even digit and
/// Rust's `{:e}` the larger: the digits are then `a` rounded exactly to as many, half to even
/// as Rust's exact formatting rounds (`775980573185096.25` is `7.759805731850962e14`).
fn shortest_scientific(a: f64) -> String {
    let sci = format!("{a:e}");
    let mantissa = sci.split('e').next().unwrap_or_default();
    let digits = mantissa.bytes().filter(u8::is_ascii_digit).count();
    let exact = format!("{a:.*e}", digits.saturating_sub(1));
    if exact.parse::<f64>() == Ok(a) {
        exact
    } else {
        sci
    }
}

/// Rust's `{:e}` text of a float (`1.25e8`, `-3e-7`) as its mantissa and decimal exponent.
pub(crate) fn split_exponent(sci: &str) -> (&str, i32) {
    let (mantissa, exp) = sci.split_once('e').unwrap_or((sci, "0"));
    (mantissa, exp.parse().unwrap_or(0))
}

/// Go's exponent form of `mantissa` × 10^`exp`: `1.25e+08`, with at least `width` exponent
/// digits.
pub(crate) fn go_exponent(mantissa: &str, exp: i32, width: usize) -> String {
    let sign = if exp < 0 { '-' } else { '+' };
    format!("{mantissa}e{sign}{:0width$}", exp.unsigned_abs())
}

/// The scalar styles that block-style data can use.
#[derive(Clone, Copy, PartialEq)]
enum Style {
    Plain,
    Single,
    Double,
    Literal,
}

fn is_break(c: char) -> bool {
    matches!(c, '\r' | '\n' | '\u{85}' | '\u{2028}' | '\u{2029}')
}

/// Characters libyaml writes unescaped (it treats everything beyond the BMP as unprintable).
fn is_printable(c: char) -> bool {
    matches!(c, '\n' | '\u{20}'..='\u{7E}' | '\u{A0}'..='\u{D7FF}' | '\u{E000}'..='\u{FFFD}')
        && c != '\u{FEFF}'
}

/// What libyaml's scalar analysis finds in a text, in one pass.
#[derive(Default)]
struct Analysis {
    multiline: bool,
    special: bool,
    space_break: bool,
    break_space: bool,
    edge: bool,
    trailing_space: bool,
    indicator: bool,
}

fn analyse(text: &str) -> Analysis {
    let mut a = Analysis {
        indicator: text.starts_with("---") || text.starts_with("..."),
        ..Default::default()
    };
    let mut prev: Option<char> = None;
    let mut preceded_by_ws = true;
    let mut chars = text.chars().enumerate().peekable();
    while let Some((i, c)) = chars.next() {
        let next = chars.peek().map(|(_, n)| *n);
        let brk = is_break(c);
        a.multiline |= brk;
        a.special |= !is_printable(c);
        if let Some(p) = prev {
            a.space_break |= p == ' ' && brk;
            a.break_space |= is_break(p) && c == ' ';
        }
        if i == 0 {
            a.edge |= c == ' ' || brk;
        }
        if next.is_none() {
            a.edge |= c == ' ' || brk;
            a.trailing_space = c == ' ';
        }
        // A plain scalar in block context would be misread: a leading indicator, `: ` or ` #`.
        let followed_by_ws = next.is_none_or(|n| n == ' ' || n == '\t');
        a.indicator |= match c {
            '#' => i == 0 || preceded_by_ws,
            ',' | '[' | ']' | '{' | '}' | '&' | '*' | '!' | '|' | '>' | '\'' | '"' | '%' | '@'
            | '`' => i == 0,
            '?' | '-' => i == 0 && followed_by_ws,
            ':' => followed_by_ws,
            _ => false,
        };
        preceded_by_ws = matches!(c, ' ' | '\t' | '\0') || brk;
        prev = Some(c);
    }
    a
}

/// The style libyaml settles on for a scalar, given the style the encoder asked for. This is
/// libyaml's scalar analysis, without the parts that only flow collections or tags reach.
fn choose_style(text: &str, requested: Style, simple_key: bool) -> Style {
    // Most keys and values are words such as `host0.example.com`: nothing to analyse.
    let word = text.bytes().enumerate().all(|(i, b)| {
        b.is_ascii_alphanumeric() || b == b'_' || b == b'/' || (i > 0 && matches!(b, b'.' | b'-'))
    });
    if word && !text.is_empty() {
        return match requested {
            Style::Plain | Style::Single => requested,
            _ => Style::Double,
        };
    }
    let a = analyse(text);
    let single_ok = !(a.space_break || a.break_space || a.special);
    let block_plain =
        single_ok && !(a.edge || a.multiline || a.indicator) && !(text.is_empty() && simple_key);
    let block_ok = !(text.is_empty() || a.trailing_space || a.space_break || a.special);
    match requested {
        _ if simple_key && a.multiline => Style::Double,
        Style::Plain if block_plain => Style::Plain,
        Style::Plain | Style::Single if single_ok => Style::Single,
        Style::Literal if block_ok && !simple_key => Style::Literal,
        _ => Style::Double,
    }
}

/// Whether go-yaml and libyaml write `s` plain and as it is, decided without the analysis
/// above: a word of ASCII letters, digits, `_`, `/`, `.` and `-` that starts with a letter and
/// is not one of YAML 1.1's booleans or nulls (most keys and values: `port`, `host0.example.com`).
/// What [`scalar_request`] and [`choose_style`] decide for such a word, in one pass.
fn is_plain_word(s: &str) -> bool {
    let bytes = s.as_bytes();
    bytes.first().is_some_and(u8::is_ascii_alphabetic)
        && bytes.iter().all(|&b| WORD_BYTES[b as usize])
        && !is_special(s)
}

/// The bytes of a word that [`is_plain_word`] takes, as a table (one load a byte).
static WORD_BYTES: [bool; 256] = {
    let mut table = [false; 256];
    let mut b = 0;
    while b < 256 {
        let c = b as u8;
        table[b] = c.is_ascii_alphanumeric() || matches!(c, b'_' | b'/' | b'.' | b'-');
        b += 1;
    }
    table
};

/// The text go-yaml's encoder writes for a scalar value, and the style it asks for.
fn scalar_request(value: &Value) -> (Cow<'_, str>, Style) {
    match value {
        Value::Null => (Cow::Borrowed("null"), Style::Plain),
        Value::Bool(true) => (Cow::Borrowed("true"), Style::Plain),
        Value::Bool(false) => (Cow::Borrowed("false"), Style::Plain),
        Value::Int(i) => (Cow::Owned(i.to_string()), Style::Plain),
        Value::UInt(u) => (Cow::Owned(u.to_string()), Style::Plain),
        Value::Float(f) => (Cow::Owned(format_float(*f)), Style::Plain),
        Value::Str(s) if s.contains('\n') => (Cow::Borrowed(s), Style::Literal),
        Value::Str(s) if resolves_to_str(s) && !is_base60_float(s) => {
            (Cow::Borrowed(s), Style::Plain)
        }
        Value::Str(s) => (Cow::Borrowed(s), Style::Double),
        Value::Bytes(b) => {
            let text = binary_text(b);
            let style = if text.contains('\n') {
                Style::Literal
            } else {
                Style::Plain
            };
            (Cow::Owned(text), style)
        }
        Value::Map(_) | Value::Array(_) => (Cow::Borrowed(""), Style::Plain),
    }
}

/// The tag go-yaml gives a string that is not UTF-8, written before its base64.
const BINARY_TAG: &str = "!!binary";

/// A string that is not UTF-8 as go-yaml writes it under [`BINARY_TAG`]: its base64 (standard,
/// padded), on one line up to 70 characters; longer, in lines of 70 each ended by a newline
/// (a literal block).
fn binary_text(bytes: &[u8]) -> String {
    use base64::Engine as _;
    const LINE: usize = 70;
    let encoded = base64::engine::general_purpose::STANDARD.encode(bytes);
    if encoded.len() < LINE {
        return encoded;
    }
    let mut text = String::with_capacity(encoded.len() + encoded.len() / LINE + 1);
    for line in encoded.as_bytes().chunks(LINE) {
        text.push_str(std::str::from_utf8(line).unwrap_or_default());
        text.push('\n');
    }
    text
}

/// libyaml writes a key as `key: value` when it is a one-line scalar (or an empty collection)
/// of at most 128 bytes, and as `? key` followed by `: value` otherwise. `request` is the
/// scalar key's [`scalar_request`].
fn is_simple_key(key: &Value, request: Option<&(Cow<'_, str>, Style)>) -> bool {
    match (key, request) {
        (Value::Map(entries), _) => entries.is_empty(),
        (Value::Array(items), _) => items.is_empty(),
        (Value::Bytes(_), Some((text, _))) => {
            !text.contains(is_break) && BINARY_TAG.len() + text.len() <= 128
        }
        (_, Some((text, _))) => !text.contains(is_break) && text.len() <= 128,
        (_, None) => false,
    }
}

/// The emitter's state. The fields and methods carry the names libyaml gives them.
struct Emitter<'w> {
    out: String,
    /// Where [`write_yaml`] hands each block of `out` on, and the first write that failed (the
    /// rest is dropped).
    sink: Option<&'w mut dyn std::io::Write>,
    failed: Option<std::io::Error>,
    /// The node written and the output budget, until the text is known to fit it; then
    /// `flush_at` falls from [`HOLD_AT`] to [`FLUSH_AT`].
    to_size: Option<(&'w Node, u64)>,
    flush_at: usize,
    /// Where the text passes the output budget: nothing is written.
    past_budget: Option<Pos>,
    /// Writing has failed or was refused: the rest of the document is not made.
    stopped: bool,
    column: usize,
    indent: i64,
    indents: Vec<i64>,
    /// The last character written was whitespace (or nothing was written on this line).
    whitespace: bool,
    /// Only indentation has been written on the current line.
    indention: bool,
    /// Keys already found to be plain words (see [`PlainKeys`]).
    plain_keys: PlainKeys,
}

/// The addresses of map keys the emitter has found to be plain words of at most 128 bytes,
/// which it writes as they are: the maps of an array share their keys (a default's map, or the
/// reader's keys of one text), so most keys are found here rather than scanned again. A
/// direct-mapped table of a few slots; an address is only compared, never read, and no key is
/// freed while a tree is written (it is borrowed whole).
#[derive(Default)]
struct PlainKeys {
    slots: [usize; PLAIN_KEY_SLOTS],
}

const PLAIN_KEY_SLOTS: usize = 32;

impl PlainKeys {
    fn slot(at: *const Value) -> usize {
        let at = at as usize;
        (at >> 3 ^ at >> 8) % PLAIN_KEY_SLOTS
    }

    fn known(&self, at: *const Value) -> bool {
        self.slots[Self::slot(at)] == at as usize
    }

    fn remember(&mut self, at: *const Value) {
        self.slots[Self::slot(at)] = at as usize;
    }
}

impl Default for Emitter<'_> {
    fn default() -> Self {
        Emitter {
            out: String::new(),
            sink: None,
            failed: None,
            to_size: None,
            flush_at: FLUSH_AT,
            past_budget: None,
            stopped: false,
            column: 0,
            indent: -1,
            indents: Vec::new(),
            whitespace: true,
            indention: true,
            plain_keys: PlainKeys::default(),
        }
    }
}

impl Emitter<'_> {
    /// Writes one document (nothing for a null, an empty map or an empty array).
    fn document(&mut self, value: &Value) {
        match value {
            Value::Null => return,
            Value::Map(entries) if entries.is_empty() => return,
            Value::Array(items) if items.is_empty() => return,
            _ => {}
        }
        self.node(value, false, false);
        // The end of the document finishes the last line.
        self.write_indent();
    }

    /// Hands the text so far to the sink, if there is one; `whole`: the document is done. The
    /// first block waits for the output budget's answer (see [`write_yaml`]).
    fn flush(&mut self, whole: bool) {
        let Some(sink) = &mut self.sink else {
            return;
        };
        if let Some((node, max_bytes)) = self.to_size.take() {
            let fits = whole && self.out.len() as u64 <= max_bytes;
            if !fits {
                self.past_budget = budget::past_budget(node, max_bytes);
            }
            self.flush_at = FLUSH_AT;
        }
        if self.failed.is_none() && self.past_budget.is_none() {
            self.failed = sink.write_all(self.out.as_bytes()).err();
        }
        self.stopped = self.failed.is_some() || self.past_budget.is_some();
        self.out.clear();
    }

    fn put(&mut self, c: char) {
        self.out.push(c);
        self.column += 1;
    }

    /// Writes a line break: LF itself, or a break character found inside a scalar.
    fn put_break(&mut self, c: char) {
        self.out.push(c);
        self.column = 0;
        if self.out.len() >= self.flush_at {
            self.flush(false);
        }
    }

    fn increase_indent(&mut self, flow: bool, indentless: bool) {
        self.indents.push(self.indent);
        if self.indent < 0 {
            self.indent = if flow { 2 } else { 0 };
        } else if !indentless {
            self.indent += 2;
        }
    }

    fn restore_indent(&mut self) {
        self.indent = self.indents.pop().unwrap_or(-1);
    }

    /// Starts a new line unless the current one holds only indentation, then indents it. The
    /// common case, inlined: a new line no deeper than [`BREAK_AND_SPACES`] while no block is
    /// due to be handed on; [`Emitter::write_indent_otherwise`] does the rest.
    #[inline(always)]
    fn write_indent(&mut self) {
        let indent = self.indent.max(0) as usize;
        let new_line =
            !self.indention || self.column > indent || (self.column == indent && !self.whitespace);
        if new_line && indent < BREAK_AND_SPACES.len() && self.out.len() < self.flush_at {
            // The break and the indentation in one copy.
            self.out.push_str(&BREAK_AND_SPACES[..=indent]);
            self.column = indent;
            self.whitespace = true;
            self.indention = true;
        } else {
            self.write_indent_otherwise(new_line, indent);
        }
    }

    #[inline(never)]
    fn write_indent_otherwise(&mut self, new_line: bool, indent: usize) {
        if new_line {
            self.put_break('\n');
        }
        if self.column < indent {
            let mut spaces = indent - self.column;
            while spaces > 0 {
                let n = spaces.min(SPACES.len());
                self.out.push_str(&SPACES[..n]);
                spaces -= n;
            }
            self.column = indent;
        }
        self.whitespace = true;
        self.indention = true;
    }

    fn write_indicator(&mut self, text: &str, need_space: bool, is_space: bool, indention: bool) {
        if need_space && !self.whitespace {
            self.put(' ');
        }
        self.out.push_str(text);
        self.column += if text.is_ascii() {
            text.len()
        } else {
            text.chars().count()
        };
        self.whitespace = is_space;
        self.indention = self.indention && indention;
    }

    /// Emits any node; `mapping` and `simple_key` are libyaml's context flags.
    fn node(&mut self, value: &Value, mapping: bool, simple_key: bool) {
        match value {
            Value::Map(entries) if entries.is_empty() => self.empty_flow("{", "}"),
            Value::Array(items) if items.is_empty() => self.empty_flow("[", "]"),
            Value::Map(entries) => self.block_mapping(entries),
            Value::Array(items) => self.block_sequence(items, mapping),
            Value::Str(s) if is_plain_word(s) => self.plain(s),
            Value::Str(s) if s.is_empty() => {
                self.write_indicator("\"", true, false, false);
                self.write_indicator("\"", false, false, false);
            }
            Value::Int(i) => self.plain_int(*i),
            Value::Float(f) if whole_float(*f).is_some() => self.plain_int(*f as i64),
            Value::Bool(b) => self.plain(if *b { "true" } else { "false" }),
            Value::Null => self.plain("null"),
            Value::Bytes(_) => self.key(value, Some(&scalar_request(value)), simple_key),
            _ => self.requested_scalar(&scalar_request(value), simple_key),
        }
    }

    /// Writes a scalar that is plain as it is (what [`Emitter::scalar`] does in plain style,
    /// where the indentation it sets is not used): [`Emitter::write_indicator`] for text that
    /// is ASCII, a word or a number (one column a byte).
    fn plain(&mut self, ascii: &str) {
        debug_assert!(ascii.is_ascii());
        if !self.whitespace {
            self.put(' ');
        }
        self.out.push_str(ascii);
        self.column += ascii.len();
        self.whitespace = false;
        self.indention = false;
    }

    /// Writes an integer: always plain, in decimal (go-yaml's `strconv.FormatInt`).
    fn plain_int(&mut self, i: i64) {
        if i < 0 {
            if !self.whitespace {
                self.put(' ');
            }
            self.put('-');
            self.whitespace = true;
        }
        self.plain(crate::value::decimal(i.unsigned_abs(), &mut [0; 20]));
    }

    /// Writes a scalar whose [`scalar_request`] is `request`.
    fn requested_scalar(&mut self, request: &(Cow<'_, str>, Style), simple_key: bool) {
        let (text, requested) = request;
        self.scalar(text, choose_style(text, *requested, simple_key));
    }

    /// Writes a map key: a scalar (with its request, worked out once) or a collection.
    fn key(&mut self, key: &Value, request: Option<&(Cow<'_, str>, Style)>, simple_key: bool) {
        if matches!(key, Value::Bytes(_)) {
            self.write_indicator(BINARY_TAG, true, false, false);
        }
        match request {
            Some(r) => self.requested_scalar(r, simple_key),
            None => self.node(key, true, simple_key),
        }
    }

    /// Writes an empty collection in flow style, `{}` or `[]`.
    fn empty_flow(&mut self, open: &str, close: &str) {
        self.write_indicator(open, true, true, false);
        self.write_indicator(close, false, false, false);
    }

    /// Writes `- item` lines. A sequence that is a mapping value stays at its key's indentation.
    fn block_sequence(&mut self, items: &[Node], mapping: bool) {
        self.increase_indent(false, mapping && !self.indention);
        for item in items {
            if self.stopped {
                return;
            }
            self.write_indent();
            self.write_indicator("-", true, false, true);
            self.node(&item.value, false, false);
        }
        self.restore_indent();
    }

    /// Writes `key: value` lines, or `? key` and `: value` for keys that cannot be simple.
    fn block_mapping(&mut self, entries: &[MapEntry]) {
        self.increase_indent(false, false);
        for entry in entries {
            if self.stopped {
                return;
            }
            self.write_indent();
            if let Value::Str(key) = &*entry.key {
                // A simple key (one line, at most 128 bytes) written plain.
                let at: *const Value = &*entry.key;
                if self.plain_keys.known(at) || (key.len() <= 128 && is_plain_word(key)) {
                    self.plain_keys.remember(at);
                    self.plain(key);
                    self.write_indicator(":", false, false, false);
                    self.node(&entry.value.value, true, false);
                    continue;
                }
            }
            let request = match &*entry.key {
                Value::Map(_) | Value::Array(_) => None,
                scalar => Some(scalar_request(scalar)),
            };
            if is_simple_key(&entry.key, request.as_ref()) {
                self.key(&entry.key, request.as_ref(), true);
                self.write_indicator(":", false, false, false);
            } else {
                self.write_indicator("?", true, false, true);
                self.key(&entry.key, request.as_ref(), false);
                self.write_indent();
                self.write_indicator(":", true, false, true);
            }
            self.node(&entry.value.value, true, false);
        }
        self.restore_indent();
    }

    fn scalar(&mut self, text: &str, style: Style) {
        self.increase_indent(true, false);
        match style {
            Style::Plain => self.write_indicator(text, true, false, false),
            Style::Single => {
                self.write_indicator("'", true, false, false);
                self.lines(text, false);
                self.write_indicator("'", false, false, false);
            }
            Style::Double => self.double_quoted(text),
            Style::Literal => {
                self.write_indicator("|", true, false, false);
                self.block_hints(text);
                self.put_break('\n');
                self.indention = true;
                self.whitespace = true;
                self.lines(text, true);
            }
        }
        self.restore_indent();
    }

    /// Writes the text of a single-quoted or literal scalar, indenting each line. In single
    /// quotes a quote is doubled and a newline needs an empty line, as YAML folds lines there.
    fn lines(&mut self, text: &str, literal: bool) {
        let mut breaks = literal;
        for c in text.chars() {
            if is_break(c) {
                if !literal && !breaks && c == '\n' {
                    self.put_break('\n');
                }
                self.put_break(c);
                self.indention = true;
                breaks = true;
            } else {
                if breaks {
                    self.write_indent();
                }
                if !literal && c == '\'' {
                    self.put('\'');
                }
                self.put(c);
                self.indention = false;
                breaks = false;
            }
        }
    }

    /// Writes a literal scalar's indentation hint (for text starting with a space or a break)
    /// and its chomping indicator: `-` without a final break, `+` with more than one.
    fn block_hints(&mut self, text: &str) {
        let chars: Vec<char> = text.chars().collect();
        if chars.first().is_some_and(|&c| c == ' ' || is_break(c)) {
            self.write_indicator("2", false, false, false);
        }
        let chomp = match chars.as_slice() {
            [.., last] if is_break(*last) => match chars.as_slice() {
                [_] => "+",
                [.., before, _] if is_break(*before) => "+",
                _ => "",
            },
            _ => "-",
        };
        self.write_indicator(chomp, false, false, false);
    }

    /// Writes a double-quoted scalar, escaping what libyaml cannot print as it is.
    fn double_quoted(&mut self, text: &str) {
        // The escapes with a letter of their own, in the order of `LETTERS`.
        const ESCAPED: &str = "\0\u{7}\u{8}\t\n\u{B}\u{C}\r\u{1B}\"\\\u{85}\u{A0}\u{2028}\u{2029}";
        const LETTERS: &str = "0abtnvfre\"\\N_LP";
        self.write_indicator("\"", true, false, false);
        // libyaml escapes every character of a value that starts with a byte order mark.
        let bom = text.starts_with('\u{FEFF}');
        for c in text.chars() {
            if !(bom || !is_printable(c) || is_break(c) || c == '"' || c == '\\') {
                self.put(c);
                continue;
            }
            let letter = ESCAPED
                .chars()
                .position(|e| e == c)
                .and_then(|i| LETTERS.chars().nth(i));
            let escape = match (letter, c as u32) {
                (Some(letter), _) => format!("\\{letter}"),
                (None, v @ 0..=0xFF) => format!("\\x{v:02X}"),
                (None, v @ 0..=0xFFFF) => format!("\\u{v:04X}"),
                (None, v) => format!("\\U{v:08X}"),
            };
            escape.chars().for_each(|e| self.put(e));
        }
        self.write_indicator("\"", false, false, false);
    }
}

#[cfg(test)]
mod tests;
