//! The data model: YAML values that remember where they came from.
//!
//! Every [`Node`] carries a [`Pos`] (file and line), because every message ytt prints names the
//! line a value came from (`values.yml:3`) and the schema line that demanded its type
//! (`by schema.yml:4`). Maps keep their source order: ytt's output and its error reports follow it.

mod cow_vec;
mod key;
mod key_index;
mod position;

pub use cow_vec::CowVec;
pub use key::Key;
use key_index::{str_key_eq, KeyBloom};
pub(crate) use key_index::{FxBuild, INDEXED_LEN};
pub use key_index::{KeyIndex, KeySet};
pub use position::{FileName, Pos};

/// A YAML value with its position.
#[derive(Clone, Debug, PartialEq)]
pub struct Node {
    pub value: Value,
    pub pos: Pos,
}

/// The text of a [`Value::Str`].
pub use compact_str::CompactString as Str;

/// The vector of an array's items: one pointer, its length and capacity kept in the
/// allocation (an empty one allocates nothing), so that a [`Value`] is 24 bytes and a
/// [`MapEntry`] 40 with its [`Key`] (a `Vec` would make them 32 and 48: the plain data of a large values file is
/// mostly map entries).
pub use thin_vec::{thin_vec, ThinVec};

/// A map's entries, in order: one pointer as a [`ThinVec`], and a clone shares them until one
/// of the two is changed (a map default filled into many maps is one allocation: see
/// [`CowVec`]).
pub type Entries = CowVec<MapEntry>;

/// A map's [`Entries`] of the items given, as `vec!` makes a `Vec`.
pub use crate::__cow_vec as entries;

/// An array's items.
pub type Items = ThinVec<Node>;

/// A YAML value. Map keys are scalars (`Value::Str` for almost every key, but YAML 1.1 allows
/// `on:` to be the boolean `true` and `1:` to be an integer, and ytt keeps them so).
#[derive(Clone, Debug, PartialEq, Default)]
pub enum Value {
    #[default]
    Null,
    Bool(bool),
    Int(i64),
    /// An integer in [2^63, 2^64): go-yaml reads one as a Go `uint64`, and ytt keeps it an
    /// integer. Every smaller integer is an `Int` (see [`Value::int`]).
    UInt(u64),
    Float(f64),
    /// Text: up to 24 bytes inline (most keys and scalars), so making or cloning one allocates
    /// nothing.
    Str(Str),
    /// A string that is not UTF-8: bytes a Starlark program made (starlark-go's strings are
    /// bytes; see `starlark::go_bytes`), a string to ytt's types, written `!!binary` in YAML
    /// and with U+FFFD for its bad bytes in JSON. Never UTF-8 (such text is a `Str`).
    Bytes(Box<[u8]>),
    Map(Entries),
    Array(Items),
}

/// One `key: value` pair of a map. The item's position is the position of its value node.
#[derive(Clone, Debug, PartialEq)]
pub struct MapEntry {
    /// One pointer to a shared value (see [`Key`]).
    pub key: Key,
    pub value: Node,
}

// The sizes the plain data's memory rests on (see [`Entries`]), on 64-bit targets.
#[cfg(target_pointer_width = "64")]
const _: () = assert!(
    std::mem::size_of::<Value>() == 24
        && std::mem::size_of::<Node>() == 32
        && std::mem::size_of::<MapEntry>() == 40
);

impl Node {
    pub fn new(value: Value, pos: Pos) -> Node {
        Node { value, pos }
    }

    pub fn null(pos: Pos) -> Node {
        Node {
            value: Value::Null,
            pos,
        }
    }

    /// The first map (in document order) that holds a key twice: its two entries. Overlays
    /// merge maps key by key, but a plain file's or a flag's map that is taken whole (inside an
    /// array, or under a key that was not there) keeps what the file repeats.
    pub fn first_repeated_key(&self) -> Option<(&MapEntry, &MapEntry)> {
        let mut stack = vec![self];
        while let Some(node) = stack.pop() {
            match &node.value {
                Value::Map(entries) => {
                    if let Some(repeated) = repeated_key(entries) {
                        return Some(repeated);
                    }
                    stack.extend(entries.iter().rev().map(|e| &e.value));
                }
                Value::Array(items) => stack.extend(items.iter().rev()),
                _ => {}
            }
        }
        None
    }
}

/// The first entry of `entries` whose key an earlier entry holds: both entries (this map only,
/// not the maps under it).
pub fn repeated_key(entries: &[MapEntry]) -> Option<(&MapEntry, &MapEntry)> {
    let mut keys = KeySet::expecting(entries.len());
    let mut seen = KeyBloom::default();
    let small = entries.len() < INDEXED_LEN;
    for (i, entry) in entries.iter().enumerate() {
        let new = if small {
            matches!(&*entry.key, Value::Str(k) if seen.surely_new(k))
        } else {
            keys.surely_new(&entries[..i], &entry.key)
        };
        if new {
            continue;
        }
        if let Some(first) = entries[..i].iter().find(|e| e.key == entry.key) {
            return Some((first, entry));
        }
    }
    None
}

impl Value {
    /// The type name ytt uses in messages (`found: string`, `expected: integer`).
    pub fn type_name(&self) -> &'static str {
        match self {
            Value::Null => "null",
            Value::Bool(_) => "boolean",
            Value::Int(_) | Value::UInt(_) => "integer",
            Value::Float(_) => "float",
            Value::Str(_) | Value::Bytes(_) => "string",
            Value::Map(_) => "map",
            Value::Array(_) => "array",
        }
    }

    /// The integer `i` as a value: an `Int` when it fits 64 signed bits, a `UInt` when it fits
    /// 64 unsigned bits, `None` past both (as ytt, which has no larger integer).
    pub fn int(i: i128) -> Option<Value> {
        i64::try_from(i)
            .map(Value::Int)
            .or_else(|_| u64::try_from(i).map(Value::UInt))
            .ok()
    }

    /// The integer this value holds, `Int` or `UInt`.
    pub fn as_int(&self) -> Option<i128> {
        match self {
            Value::Int(i) => Some(*i as i128),
            Value::UInt(u) => Some(*u as i128),
            _ => None,
        }
    }

    pub fn is_null(&self) -> bool {
        matches!(self, Value::Null)
    }

    pub fn is_collection(&self) -> bool {
        matches!(self, Value::Map(_) | Value::Array(_))
    }

    pub fn as_str(&self) -> Option<&str> {
        match self {
            Value::Str(s) => Some(s),
            _ => None,
        }
    }

    /// Looks a key up in a map value.
    pub fn get(&self, key: &str) -> Option<&Node> {
        match self {
            Value::Map(entries) => entries
                .iter()
                .find(|e| e.key.as_str() == Some(key))
                .map(|e| &e.value),
            _ => None,
        }
    }

    /// Key equality as ytt matches map items: same type and same value (`1` is not `"1"`), as
    /// Go's `==` of the values: a NaN key equals no key, not even itself (two `.nan:` keys are
    /// two items, an overlay's or a schema's `.nan:` matches neither).
    /// Inlined, with string keys (almost all) compared first: lookups scan short maps with it,
    /// and the length and first byte tell most different keys apart without a `memcmp` call.
    #[inline(always)]
    pub fn key_eq(&self, other: &Value) -> bool {
        match (self, other) {
            (Value::Str(a), Value::Str(b)) => str_key_eq(a.as_bytes(), b.as_bytes()),
            _ => self.other_key_eq(other),
        }
    }

    /// [`Value::key_eq`] for keys that are not both strings (rare, and kept out of line):
    /// floats compare as `f64`s do (NaN unequal to all, `-0.0` equal to `0.0`).
    #[inline(never)]
    fn other_key_eq(&self, other: &Value) -> bool {
        self == other
    }

    /// The value as Go's `%s` writes it, as ytt's overlay messages quote a map key: a string
    /// as it is, anything else as Go's complaint `%!s(TYPE=VALUE)`.
    pub fn go_percent_s(&self) -> String {
        match (self, self.go_scalar()) {
            (Value::Str(s), _) => s.to_string(),
            (Value::Bytes(b), _) => String::from_utf8_lossy(b).into_owned(),
            (Value::Null, _) => "%!s(<nil>)".into(),
            (_, Some((go_type, text))) => format!("%!s({go_type}={text})"),
            _ => self.key_string(),
        }
    }

    /// The value as Go's `%v` writes it, as ytt's report quotes a key the schema does not
    /// declare: `<nil>`, `+Inf`, `NaN`, a string as it is.
    pub fn go_percent_v(&self) -> String {
        match (self, self.go_scalar()) {
            (Value::Null, _) => "<nil>".into(),
            (_, Some((_, text))) => text,
            _ => self.key_string(),
        }
    }

    /// A bool or number as the Go value YAML gives it: its Go type (a YAML integer is an
    /// `int`) and its text as Go's `%v` writes it (`1e+06`, `NaN`, `+Inf`).
    pub fn go_scalar(&self) -> Option<(&'static str, String)> {
        Some(match self {
            Value::Bool(b) => ("bool", b.to_string()),
            Value::Int(i) => ("int", i.to_string()),
            Value::UInt(u) => ("uint64", u.to_string()),
            Value::Float(f) if f.is_nan() => ("float64", "NaN".into()),
            Value::Float(f) if f.is_infinite() => {
                ("float64", if *f > 0.0 { "+Inf" } else { "-Inf" }.into())
            }
            Value::Float(f) => ("float64", crate::yaml::emit::go_float_text(*f, -4..6, 2)),
            Value::Null | Value::Str(_) | Value::Bytes(_) | Value::Map(_) | Value::Array(_) => {
                return None
            }
        })
    }

    /// The key as ytt shows it in paths and messages.
    pub fn key_string(&self) -> String {
        match self {
            Value::Null => "null".into(),
            Value::Bool(b) => b.to_string(),
            Value::Int(i) => i.to_string(),
            Value::UInt(u) => u.to_string(),
            Value::Float(f) => crate::yaml::emit::format_float(*f),
            Value::Str(s) => s.to_string(),
            Value::Bytes(b) => String::from_utf8_lossy(b).into_owned(),
            Value::Map(_) => "map".into(),
            Value::Array(_) => "array".into(),
        }
    }
}

/// Something that may carry a map key: a map entry, a map item of a template tree, a schema
/// field.
pub trait Keyed {
    fn map_key(&self) -> Option<&Value>;
}

impl Keyed for MapEntry {
    fn map_key(&self) -> Option<&Value> {
        Some(&self.key)
    }
}

/// The decimal digits of `n`, written at the end of `buf`: by hand rather than with `write!`,
/// whose formatting machinery costs hundreds of instructions per number (array indices in
/// paths, integers in the output).
pub(crate) fn decimal(n: u64, buf: &mut [u8; 20]) -> &str {
    /// "00" to "99": two digits a division.
    const PAIRS: &[u8; 200] = b"0001020304050607080910111213141516171819\
        2021222324252627282930313233343536373839\
        4041424344454647484950515253545556575859\
        6061626364656667686970717273747576777879\
        8081828384858687888990919293949596979899";
    let mut at = buf.len();
    let mut rest = n;
    while rest >= 100 {
        let pair = (rest % 100) as usize * 2;
        rest /= 100;
        at -= 2;
        buf[at..at + 2].copy_from_slice(&PAIRS[pair..pair + 2]);
    }
    if rest >= 10 {
        let pair = rest as usize * 2;
        at -= 2;
        buf[at..at + 2].copy_from_slice(&PAIRS[pair..pair + 2]);
    } else {
        at -= 1;
        buf[at] = b'0' + rest as u8;
    }
    // Only ASCII digits were written.
    std::str::from_utf8(&buf[at..]).unwrap_or_default()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn entries(keys: &[Value]) -> Vec<MapEntry> {
        keys.iter()
            .map(|k| MapEntry {
                key: k.clone().into(),
                value: Node::null(Pos::unknown()),
            })
            .collect()
    }

    fn s(text: &str) -> Value {
        Value::Str(text.into())
    }

    #[test]
    fn decimal_writes_what_display_writes() {
        let mut n = 1u64;
        let mut numbers = vec![0, 9, 10, 99, 100, 101, 999, 1000, u64::MAX, u64::MAX - 1];
        while let Some(next) = n.checked_mul(7) {
            numbers.extend([n - 1, n, n + 1]);
            n = next;
        }
        for n in numbers {
            assert_eq!(decimal(n, &mut [0; 20]), n.to_string());
        }
    }

    #[test]
    fn finds_the_first_match_in_small_and_large_maps() {
        for len in [3, 40] {
            let mut keys: Vec<Value> = (0..len).map(|i| s(&format!("k{i}"))).collect();
            keys.push(Value::Int(1));
            keys.push(s("k1"));
            let items = entries(&keys);
            let index = KeyIndex::new(&items, 100);
            assert_eq!(index.find(&items, &s("k1")), Some(1));
            assert_eq!(index.find(&items, &Value::Int(1)), Some(len));
            assert_eq!(index.find(&items, &s("1")), None);
            assert_eq!(index.find(&items, &s("absent")), None);
        }
    }

    #[test]
    fn follows_pushes_and_removals() {
        let mut items = entries(&(0..20).map(|i| s(&format!("k{i}"))).collect::<Vec<_>>());
        let mut index = KeyIndex::new(&items, 100);
        items.push(MapEntry {
            key: s("new").into(),
            value: Node::null(Pos::unknown()),
        });
        index.pushed(&items);
        assert_eq!(index.find(&items, &s("new")), Some(20));
        items.remove(0);
        index.removed(&items, 1);
        assert_eq!(index.find(&items, &s("new")), Some(19));
        assert_eq!(index.find(&items, &s("k0")), None);
    }

    #[test]
    fn finds_as_a_scan_does_through_many_removals_and_pushes() {
        // Keys given twice too (a YAML map may hold one twice), or two NaN keys (which share a
        // hash and equal no key), so that hashes are shared.
        for (len, twice, nans) in [
            (400, false, false),
            (400, true, false),
            (40, false, false),
            (400, false, true),
        ] {
            let mut keys: Vec<Value> = (0..len).map(|i| s(&format!("k{i}"))).collect();
            if twice {
                keys.extend((0..len).step_by(7).map(|i| s(&format!("k{i}"))));
            }
            if nans {
                keys.insert(3, Value::Float(f64::NAN));
                keys.push(Value::Float(f64::NAN));
            }
            let mut items = entries(&keys);
            let mut index = KeyIndex::new(&items, usize::MAX);
            let scan = |items: &[MapEntry], key: &Value| items.iter().position(|e| e.key == *key);
            let mut seed = 12345u64;
            for step in 0..3000 {
                seed = seed
                    .wrapping_mul(6364136223846793005)
                    .wrapping_add(1442695040888963407);
                let key = match step % 13 {
                    12 => Value::Float(f64::NAN),
                    _ => s(&format!("k{}", (seed >> 33) as usize % (len + 50))),
                };
                match step % 5 {
                    0 | 1 if !items.is_empty() => {
                        let at = (seed >> 20) as usize % items.len();
                        items.remove(at);
                        index.removed(&items, 1);
                    }
                    2 => {
                        items.push(MapEntry {
                            key: key.clone().into(),
                            value: Node::null(Pos::unknown()),
                        });
                        index.pushed(&items);
                    }
                    _ => {}
                }
                assert_eq!(index.find(&items, &key), scan(&items, &key), "{key:?}");
                let first = index.find(&items, &key);
                let repeat = first.and_then(|f| index.find_repeat(&items, &key, f));
                let scanned = first.and_then(|f| scan(&items[f + 1..], &key).map(|i| i + f + 1));
                assert_eq!(repeat, scanned, "{key:?} again");
            }
        }
    }

    #[test]
    fn finds_every_item_of_a_key_given_twice() {
        for len in [3, 40] {
            let mut keys: Vec<Value> = (0..len).map(|i| s(&format!("k{i}"))).collect();
            keys.push(s("k1"));
            keys.push(Value::Int(1));
            keys.push(Value::Int(1));
            let items = entries(&keys);
            let index = KeyIndex::new(&items, 100);
            assert_eq!(index.find_repeat(&items, &s("k1"), 1), Some(len));
            assert_eq!(index.find_repeat(&items, &s("k1"), len), None);
            assert_eq!(index.find_repeat(&items, &s("k2"), 2), None);
            assert_eq!(
                index.find_repeat(&items, &Value::Int(1), len + 1),
                Some(len + 2)
            );
        }
    }

    #[test]
    fn finds_from_a_start_the_caller_vouches_for() {
        for len in [3, 40] {
            let keys: Vec<Value> = (0..len).map(|i| s(&format!("k{i}"))).collect();
            let items = entries(&keys);
            let index = KeyIndex::new(&items, 100);
            assert_eq!(index.find_from(&items, &s("k2"), 2), Some(2));
            assert_eq!(index.find_from(&items, &s("k2"), 1), Some(2));
            assert_eq!(index.find_from(&items, &s("k9"), 3), (len > 9).then_some(9));
            assert_eq!(index.find_from(&items, &s("absent"), len + 1), None);
        }
    }

    #[test]
    fn finds_a_repeated_key_in_small_and_large_maps() {
        for len in [2, 9, 15, 16, 40] {
            let mut keys: Vec<Value> = (0..len).map(|i| s(&format!("k{i}"))).collect();
            let map = |keys: &[Value]| Node::new(Value::Map(entries(keys).into()), Pos::unknown());
            assert!(map(&keys).first_repeated_key().is_none(), "{len}");
            // Keys alike in length and first and last byte, and one repeated.
            keys.push(s("kx0"));
            keys.push(s("k0"));
            let repeated = map(&keys);
            let (first, again) = repeated.first_repeated_key().expect("repeated");
            assert_eq!((&*first.key, &*again.key), (&s("k0"), &s("k0")));
            // A key repeated as another type is another key.
            keys.pop();
            keys.push(Value::Int(0));
            keys.push(s("0"));
            assert!(map(&keys).first_repeated_key().is_none(), "{len}");
        }
    }
}
