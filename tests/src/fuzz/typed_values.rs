//! Data values shaped by a schema, drawn from fuzz input bytes: the `typed` target's second
//! mode. Byte-level mutations of a values file mostly make YAML errors or unknown keys; values
//! made from the schema's own types reach its rules, conversions and defaults, with the
//! scalars rules and typed fields find hard (integers at the edges of 64 bits, NaN, long and
//! non-ASCII strings, values of the wrong type, nesting up to and past the depth budget in
//! `any` values).

use schemac_runtime::schema::{Kind, Scalar, Type};
use schemac_runtime::value::{MapEntry, Node, Pos, Value};

/// The input's bytes, read as choices (zero once they run out: the shortest values).
pub struct Choices<'a> {
    bytes: &'a [u8],
}

impl<'a> Choices<'a> {
    pub fn new(bytes: &'a [u8]) -> Choices<'a> {
        Choices { bytes }
    }

    fn byte(&mut self) -> u8 {
        match self.bytes.split_first() {
            Some((b, rest)) => {
                self.bytes = rest;
                *b
            }
            None => 0,
        }
    }

    fn below(&mut self, n: usize) -> usize {
        usize::from(self.byte()) % n.max(1)
    }

    fn pick<T: Clone>(&mut self, items: &[T]) -> T {
        items[self.below(items.len())].clone()
    }
}

const STRINGS: &[&str] = &[
    "",
    "web",
    "Web",
    "-web",
    "a",
    "x",
    "pq",
    "TCP",
    "UDP",
    "tcp-v2",
    "a_b",
    "debug",
    "80",
    "0x1F",
    "1e3",
    "null",
    "true",
    " padded ",
    "a,b,,c",
    "host0.example.com",
    "a..b",
    "ünïcödé",
    "İstanbul",
    "ǅ",
    "\u{202e}rtl",
    "tab\there",
    "line\nbreak",
    "quote\"s'",
    "#@ not a comment",
    "an-unusually-long-host-name-that-goes-on-and-on-and-on-and-on.example.com",
];

fn int(c: &mut Choices) -> Value {
    match c.below(12) {
        0 => Value::UInt(u64::MAX),
        1 => Value::UInt(1 << 63),
        2 => Value::Int(i64::MAX),
        3 => Value::Int(i64::MIN),
        _ => Value::Int(c.pick(&[0, 1, -1, 2, 3, 7, 13, 80, 999, 1000, 1001, 65535, 65536])),
    }
}

fn float(c: &mut Choices) -> Value {
    let floats = [0.0, -0.0, 0.5, 1.0, -2.5, 1e300, 1e-300, 65535.5];
    match c.below(8) {
        0 => Value::Float(c.pick(&[f64::NAN, f64::INFINITY, f64::NEG_INFINITY])),
        1 => int(c),
        _ => Value::Float(c.pick(&floats)),
    }
}

/// A value of any type, nested at most `depth` more levels.
fn any(c: &mut Choices, depth: usize) -> Value {
    match c.below(if depth == 0 { 6 } else { 9 }) {
        0 => Value::Null,
        1 => Value::Bool(c.below(2) == 0),
        2 => int(c),
        3 => float(c),
        4 | 5 => Value::Str(c.pick(STRINGS).into()),
        6 => Value::Array((0..c.below(4)).map(|_| node(any(c, depth - 1))).collect()),
        7 => Value::Map(
            (0..c.below(4))
                .map(|i| entry(format!("k{i}"), any(c, depth - 1)))
                .collect(),
        ),
        // A chain of arrays up to and past the depth budget (2,000).
        _ => {
            let mut value = Value::Str("bottom".into());
            for _ in 0..c.pick(&[10, 100, 1999, 2001]) {
                value = Value::Array(schemac_runtime::value::thin_vec![node(value)]);
            }
            value
        }
    }
}

fn node(value: Value) -> Node {
    Node::new(value, Pos::unknown())
}

fn entry(key: String, value: Value) -> MapEntry {
    MapEntry {
        key: Value::Str(key.into()).into(),
        value: node(value),
    }
}

/// A value for `t`: mostly of its type, now and then null or of another type.
pub fn sample(t: &Type, c: &mut Choices, depth: usize) -> Value {
    match c.below(16) {
        0 => return Value::Null,
        1 => return any(c, 1),
        _ => {}
    }
    match &t.kind {
        Kind::Scalar(Scalar::String) => Value::Str(c.pick(STRINGS).into()),
        Kind::Scalar(Scalar::Int) => int(c),
        Kind::Scalar(Scalar::Float) => float(c),
        Kind::Scalar(Scalar::Bool) => Value::Bool(c.below(2) == 0),
        Kind::Any => any(c, depth),
        Kind::Map(fields) => {
            let mut entries = Vec::new();
            for f in fields {
                // Some keys are left to their defaults.
                if c.below(3) != 0 {
                    entries.push(MapEntry {
                        key: f.key.clone(),
                        value: node(sample(&f.ty, c, depth.saturating_sub(1))),
                    });
                }
            }
            if c.below(32) == 0 {
                entries.push(entry("unknown".into(), Value::Int(1)));
            }
            Value::Map(entries.into())
        }
        Kind::Array(item) => Value::Array(
            (0..c.below(5))
                .map(|_| node(sample(item, c, depth.saturating_sub(1))))
                .collect(),
        ),
    }
}
