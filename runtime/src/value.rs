//! The data model: YAML values that remember where they came from.
//!
//! Every [`Node`] carries a [`Pos`] (file and line), because every message ytt prints names the
//! line a value came from (`values.yml:3`) and the schema line that demanded its type
//! (`by schema.yml:4`). Maps keep their source order: ytt's output and its error reports follow it.

use std::collections::hash_map::Entry;
use std::collections::{HashMap, HashSet};
use std::hash::{BuildHasher, BuildHasherDefault, Hasher};

mod cow_vec;
mod key;
mod position;

pub use cow_vec::CowVec;
pub use key::Key;
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

/// The hash of rustc's `FxHasher`: a multiply and rotate per word, fast on short keys. Keys
/// that collide only cost a scan (see [`KeyIndex::find`]).
#[derive(Default)]
pub(crate) struct FxHasher(u64);

impl FxHasher {
    fn add(&mut self, word: u64) {
        self.0 = (self.0.rotate_left(5) ^ word).wrapping_mul(0x51_7c_c1_b7_27_22_0a_95);
    }
}

impl Hasher for FxHasher {
    fn write(&mut self, bytes: &[u8]) {
        for chunk in bytes.chunks(8) {
            let mut word = [0u8; 8];
            word[..chunk.len()].copy_from_slice(chunk);
            self.add(u64::from_le_bytes(word));
        }
    }

    fn write_u64(&mut self, n: u64) {
        self.add(n);
    }

    fn write_usize(&mut self, n: usize) {
        self.add(n as u64);
    }

    fn finish(&self) -> u64 {
        self.0
    }
}

pub(crate) type FxBuild = BuildHasherDefault<FxHasher>;

/// Finds the items of a map by key, as a scan for the first item whose key is
/// [`Value::key_eq`] would, but without the scan when the map is large and looked up often.
///
/// An index is built over the items it searches and knows nothing of later changes: report
/// pushes with [`KeyIndex::pushed`] and removals with [`KeyIndex::removed`].
#[derive(Debug)]
pub struct KeyIndex {
    /// The first item with each hash of a scalar key (see [`scalar_key_hash`]); `None` when
    /// scanning is cheaper.
    by_hash: Option<HashMap<u64, usize, FxBuild>>,
    /// The hashes two indexed items share: a key given twice (YAML maps may hold one, and two
    /// NaN keys share one), or two keys whose hashes collide. A key of such a hash is scanned
    /// for once items were removed, and [`KeyIndex::find_repeat`] scans for it; every other
    /// key is still found by its hash (when any hash was shared, each lookup of 40,000 keys
    /// after one removal scanned the map: 14.7 s).
    shared_hashes: HashSet<u64, FxBuild>,
    /// The position after the item last found by hash: a map whose items are looked up in
    /// their own order (a values file that follows its schema) is found without hashing.
    next: std::cell::Cell<usize>,
    /// Items removed since the positions in `by_hash` were recorded: each item stands up to
    /// that many places before its recorded position.
    removals: usize,
}

/// Maps shorter than this are scanned.
pub(crate) const INDEXED_LEN: usize = 16;
/// Fewer lookups than this are scanned for.
const INDEXED_LOOKUPS: usize = 4;

fn key_hash(key: &str) -> u64 {
    FxBuild::default().hash_one(key)
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

impl KeyIndex {
    /// An index over `items`, which are about to be searched `lookups` times.
    pub fn new<T: Keyed>(items: &[T], lookups: usize) -> KeyIndex {
        if items.len() < INDEXED_LEN || lookups < INDEXED_LOOKUPS {
            return KeyIndex {
                by_hash: None,
                shared_hashes: HashSet::default(),
                next: std::cell::Cell::new(0),
                removals: 0,
            };
        }
        let mut index = KeyIndex {
            by_hash: Some(HashMap::with_capacity_and_hasher(
                items.len(),
                FxBuild::default(),
            )),
            shared_hashes: HashSet::default(),
            next: std::cell::Cell::new(0),
            removals: 0,
        };
        for (i, item) in items.iter().enumerate() {
            index.record(item, i);
        }
        index
    }

    fn record<T: Keyed>(&mut self, item: &T, i: usize) {
        let Some(by_hash) = &mut self.by_hash else {
            return;
        };
        if let Some(hash) = item.map_key().and_then(scalar_key_hash) {
            match by_hash.entry(hash) {
                Entry::Occupied(_) => {
                    self.shared_hashes.insert(hash);
                }
                Entry::Vacant(slot) => {
                    slot.insert(i);
                }
            }
        }
    }

    /// Whether the index hashes its keys (a map long enough to be worth it), rather than scans.
    pub fn is_hashed(&self) -> bool {
        self.by_hash.is_some()
    }

    /// The position of the first item of `items` whose key is `key`.
    pub fn find<T: Keyed>(&self, items: &[T], key: &Value) -> Option<usize> {
        self.find_from(items, key, 0)
    }

    /// [`KeyIndex::find`] when the caller knows that no item before `from` has the key `key`.
    pub fn find_from<T: Keyed>(&self, items: &[T], key: &Value, from: usize) -> Option<usize> {
        // Keys that are no strings (`1:`, keys made in code) are hashed too: 100,000 integer
        // keys overlaid by a second file were scanned for each, 33 s.
        if matches!(key, Value::Float(f) if f.is_nan()) {
            // A NaN equals no key (`Value::key_eq`).
            return None;
        }
        if let (Some(by_hash), true) = (&self.by_hash, is_scalar_key(key)) {
            let is_key = |i: usize| {
                items
                    .get(i)
                    .and_then(Keyed::map_key)
                    .is_some_and(|k| k.key_eq(key))
            };
            // Every key indexed is there once (no two share a hash): the item after
            // the last one found, when it has the key, is the only one that has it.
            let next = self.next.get();
            if self.shared_hashes.is_empty() && is_key(next) {
                self.next.set(next + 1);
                return Some(next);
            }
            // No key has this hash: no key equals `key`.
            let hash = scalar_key_hash(key)?;
            let i = *by_hash.get(&hash)?;
            // The item recorded at `i` stands up to `removals` places before it. Where its hash
            // is shared, items with the key may stand anywhere before it since: scan then.
            let shared = self.shared_hashes.contains(&hash);
            let back = match (shared, self.removals) {
                (false, removals) => Some(removals),
                (true, 0) => Some(0),
                (true, _) => None,
            };
            let found =
                back.and_then(|back| (i.saturating_sub(back)..=i).rev().find(|&at| is_key(at)));
            if let Some(at) = found {
                self.next.set(at + 1);
                return Some(at);
            }
            // Another key with the same hash came first, or the item was removed: scan.
        }
        let rest = items.get(from..)?;
        let found = if let Value::Str(s) = key {
            // The common case, with the searched key's bytes found once rather than per item.
            let want = s.as_bytes();
            rest.iter().position(|item| match item.map_key() {
                Some(Value::Str(k)) => str_key_eq(k.as_bytes(), want),
                _ => false,
            })
        } else {
            rest.iter()
                .position(|item| item.map_key().is_some_and(|k| k.key_eq(key)))
        };
        found.map(|i| i + from)
    }

    /// The position of the next item after the one at `after` whose key is `key` too: ytt
    /// matches every item of a map that holds a key twice. An index that saw each scalar key
    /// once answers without a scan.
    pub fn find_repeat<T: Keyed>(&self, items: &[T], key: &Value, after: usize) -> Option<usize> {
        // A scalar key is hashed only when some hash is shared (the common case needs none).
        let unshared = |key: &Value| {
            self.shared_hashes.is_empty()
                || scalar_key_hash(key).is_some_and(|hash| !self.shared_hashes.contains(&hash))
        };
        if self.by_hash.is_some() && is_scalar_key(key) && unshared(key) {
            return None;
        }
        let from = after + 1;
        let rest = items.get(from..)?;
        rest.iter()
            .position(|item| item.map_key().is_some_and(|k| k.key_eq(key)))
            .map(|i| i + from)
    }

    /// Records the item just pushed onto `items`.
    pub fn pushed<T: Keyed>(&mut self, items: &[T]) {
        if let Some(last) = items.last() {
            self.record(last, items.len() - 1);
        }
    }

    /// Notes that `count` items were removed from what is now `items` (later items moved
    /// back): [`KeyIndex::find`] looks back that many places from a recorded position, and
    /// past the square root of the map's length of such removals the items are indexed again.
    /// (Indexing again at each removal made 5,000 removals from a map of 10,000 keys take
    /// 6.5 s, and 50,000 from 100,000 past two minutes.)
    pub fn removed<T: Keyed>(&mut self, items: &[T], count: usize) {
        if self.by_hash.is_some() {
            self.removals += count;
            if self.removals > items.len().isqrt().max(INDEXED_LEN) {
                self.rekeyed(items);
            }
        }
    }

    /// Indexes `items` again after keys changed in place.
    pub fn rekeyed<T: Keyed>(&mut self, items: &[T]) {
        if self.by_hash.is_some() {
            *self = KeyIndex::new(items, INDEXED_LOOKUPS);
        }
    }
}

/// String keys compared as [`Value::key_eq`] compares them: the length and first byte tell most
/// different keys apart without a `memcmp` call.
#[inline]
fn str_key_eq(a: &[u8], b: &[u8]) -> bool {
    a.len() == b.len() && a.first() == b.first() && a == b
}

/// A 64-bit summary of the string keys seen so far in a map (one bit per length and first and
/// last byte): a key whose bit is not set yet is surely new, with no compare. [`KeySet`] uses
/// one for maps too small to hash.
#[derive(Default)]
struct KeyBloom(u64);

impl KeyBloom {
    #[inline]
    fn surely_new(&mut self, key: &str) -> bool {
        let b = key.as_bytes();
        let (first, last) = (b.first().copied(), b.last().copied());
        let mix =
            b.len() as u64 ^ u64::from(first.unwrap_or(0)) << 2 ^ u64::from(last.unwrap_or(0)) << 4;
        let bit = 1u64 << (mix.wrapping_mul(0x9E37_79B9_7F4A_7C15) >> 58);
        let new = self.0 & bit == 0;
        self.0 |= bit;
        new
    }
}

/// The keys a map being built holds, for maps of many keys: whether a new key may already be
/// there, so that adding each of n keys does not scan the map (n² compares for 5,000 keys).
/// Small maps are scanned as before (their string keys through a bloom filter first).
pub struct KeySet {
    /// The hashes of the scalar keys added so far, once the map has [`INDEXED_LEN`] items.
    hashes: Option<HashSet<u64, FxBuild>>,
    /// The string keys added before that: most new keys of a small map are surely new by it.
    small: KeyBloom,
    /// How many keys the map will have, when known: the set is made that large at once.
    expected: usize,
}

impl KeySet {
    /// A set for a map that will have `len` keys.
    pub fn expecting(len: usize) -> KeySet {
        KeySet {
            hashes: None,
            small: KeyBloom::default(),
            expected: len,
        }
    }

    /// Records `key`, about to be added to `items`; `true` if no item of `items` has it (then
    /// there is no need to look), `false` if one may.
    #[inline]
    pub fn surely_new<T: Keyed>(&mut self, items: &[T], key: &Value) -> bool {
        let Value::Str(text) = key else {
            return self.other_surely_new(items, key);
        };
        if self.hashes.is_none() && items.len() < INDEXED_LEN {
            return self.small.surely_new(text);
        }
        self.hashes(items).insert(key_hash(text))
    }

    /// [`KeySet::surely_new`] for a key that is no string (`1:`, `true:`, a key made in code;
    /// rare, and kept out of line): scalars are hashed too once the map is large (100,000
    /// integer keys were scanned for each, 40 s); a key that [`Value::key_eq`] finds unequal to
    /// itself (a NaN) equals no key.
    #[inline(never)]
    fn other_surely_new<T: Keyed>(&mut self, items: &[T], key: &Value) -> bool {
        if !key.key_eq(key) {
            return true;
        }
        match scalar_key_hash(key) {
            Some(hash) if self.hashes.is_some() || items.len() >= INDEXED_LEN => {
                self.hashes(items).insert(hash)
            }
            _ => false,
        }
    }

    /// The hashes of the keys of `items`, made on first use.
    fn hashes<T: Keyed>(&mut self, items: &[T]) -> &mut HashSet<u64, FxBuild> {
        let expected = self.expected.max(items.len() + 1);
        self.hashes.get_or_insert_with(|| {
            let mut hashes = HashSet::with_capacity_and_hasher(expected, FxBuild::default());
            hashes.extend(
                items
                    .iter()
                    .filter_map(|item| item.map_key().and_then(scalar_key_hash)),
            );
            hashes
        })
    }
}

/// The bits of a number spread over its whole word (splitmix64's finalizer). Fx's multiply
/// leaves a hash's low bits those of the last word hashed, which pick the table's bucket:
/// floats such as `1.5`, `2.5`, ... (whose low bits are all 0) or integers that are multiples
/// of a power of two fell into a few buckets, 100,000 such keys took 4 to 5 s.
fn spread(mut x: u64) -> u64 {
    x = (x ^ (x >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    x = (x ^ (x >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    x ^ (x >> 31)
}

/// Whether [`scalar_key_hash`] hashes `key` (it is no map or array), told without hashing.
fn is_scalar_key(key: &Value) -> bool {
    !matches!(key, Value::Map(_) | Value::Array(_))
}

/// A hash of a scalar map key that keys equal by [`Value::key_eq`] share (a string's is
/// [`key_hash`]; every NaN's is one); `None` for a map or array.
fn scalar_key_hash(key: &Value) -> Option<u64> {
    let fx = FxBuild::default();
    Some(match key {
        Value::Str(k) => key_hash(k),
        Value::Null => fx.hash_one(0u8),
        Value::Bool(b) => fx.hash_one((1u8, *b)),
        Value::Int(i) => fx.hash_one((2u8, spread(*i as u64))),
        Value::UInt(u) => fx.hash_one((3u8, spread(*u))),
        // 0.0 == -0.0; a NaN equals no key (`Value::key_eq`), so any one hash will do.
        Value::Float(f) if f.is_nan() => fx.hash_one((4u8, u64::MAX)),
        Value::Float(f) => fx.hash_one((4u8, spread(if *f == 0.0 { 0 } else { f.to_bits() }))),
        Value::Bytes(b) => fx.hash_one((5u8, &b[..])),
        Value::Map(_) | Value::Array(_) => return None,
    })
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
