//! Finding a map's items by key without scanning: [`KeyIndex`] for lookups, [`KeySet`] for the
//! keys of a map being built, and the hash they share ([`FxHasher`]).

use std::collections::hash_map::Entry;
use std::collections::{HashMap, HashSet};
use std::hash::{BuildHasher, BuildHasherDefault, Hasher};

use super::{Keyed, Value};

/// The hash of rustc's `FxHasher`: a multiply and rotate per word, fast on short keys. Keys
/// that collide only cost a scan (see [`KeyIndex::find`]).
#[derive(Default)]
pub(crate) struct FxHasher(u64);

impl FxHasher {
    fn add(&mut self, word: u64) {
        self.0 = (self.0.rotate_left(5) ^ word).wrapping_mul(0x51_7c_c1_b7_27_22_0a_95);
    }
}

/// The little-endian word of up to 8 bytes, zeros after them: read in at most three loads (a
/// copy into a zeroed word of a length known only at run time called `memcpy`, most of a
/// short key's hash).
#[inline]
fn padded_word(bytes: &[u8]) -> u64 {
    let mut word = 0u64;
    let mut at = 0;
    if bytes.len() >= 8 {
        return u64::from_le_bytes(bytes[..8].try_into().expect("8 bytes"));
    }
    if bytes.len() - at >= 4 {
        word |= u64::from(u32::from_le_bytes(
            bytes[at..at + 4].try_into().expect("4 bytes"),
        ));
        at += 4;
    }
    if bytes.len() - at >= 2 {
        word |= u64::from(u16::from_le_bytes(
            bytes[at..at + 2].try_into().expect("2 bytes"),
        )) << (8 * at);
        at += 2;
    }
    if bytes.len() > at {
        word |= u64::from(bytes[at]) << (8 * at);
    }
    word
}

impl Hasher for FxHasher {
    /// Each 8 bytes a word, the last ones padded with zeros.
    fn write(&mut self, bytes: &[u8]) {
        for chunk in bytes.chunks(8) {
            self.add(padded_word(chunk));
        }
    }

    /// One byte is a word of its own, as [`FxHasher::write`] makes it (a string's hash ends
    /// with one).
    fn write_u8(&mut self, n: u8) {
        self.add(u64::from(n));
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
#[derive(Clone, Debug)]
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

/// A string key's hash, its bits spread ([`spread`]): the sets and maps of these hashes hash
/// them again with [`FxHasher`], whose multiply keeps a word's low bits those of its low bits,
/// and the low bits pick the table's bucket. A string's Fx hash ends with the `0xff` that
/// closes it, which leaves its low bits those of the key's first bytes: the keys `k0`, `k1`,
/// ... fell into 256 of every 65,536 buckets, and a values file of 400,000 of them took three
/// times the CPU (0.90 s, 0.29 s spread).
fn key_hash(key: &str) -> u64 {
    spread(FxBuild::default().hash_one(key))
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
pub(super) fn str_key_eq(a: &[u8], b: &[u8]) -> bool {
    a.len() == b.len() && a.first() == b.first() && a == b
}

/// A 64-bit summary of the string keys seen so far in a map (one bit per length and first and
/// last byte): a key whose bit is not set yet is surely new, with no compare. [`KeySet`] uses
/// one for maps too small to hash.
#[derive(Default)]
pub(super) struct KeyBloom(u64);

impl KeyBloom {
    #[inline]
    pub(super) fn surely_new(&mut self, key: &str) -> bool {
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
    let hash = match key {
        Value::Str(k) => return Some(key_hash(k)),
        Value::Null => fx.hash_one(0u8),
        Value::Bool(b) => fx.hash_one((1u8, *b)),
        Value::Int(i) => fx.hash_one((2u8, spread(*i as u64))),
        Value::UInt(u) => fx.hash_one((3u8, spread(*u))),
        // 0.0 == -0.0; a NaN equals no key (`Value::key_eq`), so any one hash will do.
        Value::Float(f) if f.is_nan() => fx.hash_one((4u8, u64::MAX)),
        Value::Float(f) => fx.hash_one((4u8, spread(if *f == 0.0 { 0 } else { f.to_bits() }))),
        Value::Bytes(b) => fx.hash_one((5u8, &b[..])),
        Value::Map(_) | Value::Array(_) => return None,
    };
    // Spread as a string's ([`key_hash`]): a byte string's hash ends with its last bytes.
    Some(spread(hash))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The low bits of a key's hash hashed again (the bucket of the sets and maps of hashes)
    /// differ for keys that differ in their last bytes: `k0` ... `k99999` took 256 of 65,536.
    #[test]
    fn keys_alike_but_for_their_ends_spread_over_the_buckets() {
        let buckets = |hash: fn(&Value) -> Option<u64>, key: fn(u32) -> Value| {
            (0..100_000u32)
                .map(|i| FxBuild::default().hash_one(hash(&key(i)).expect("a scalar")) & 0xffff)
                .collect::<HashSet<u64>>()
                .len()
        };
        for key in [
            (|i: u32| Value::Str(format!("k{i}").into())) as fn(u32) -> Value,
            |i| Value::Str(format!("a-long-common-prefix-{i}").into()),
            |i| Value::Bytes(format!("k{i}").into_bytes().into()),
            |i| Value::Int(i64::from(i) << 20),
        ] {
            assert!(buckets(scalar_key_hash, key) > 30_000, "{:?}", key(7));
        }
        assert_eq!(
            scalar_key_hash(&Value::Str("k7".into())),
            Some(key_hash("k7"))
        );
    }

    #[test]
    fn a_word_is_its_bytes_padded_with_zeros() {
        let bytes: Vec<u8> = (1..=20).collect();
        for len in 0..=bytes.len() {
            let mut hasher = FxHasher::default();
            hasher.write(&bytes[..len]);
            hasher.write_u8(0xff);
            let mut padded = FxHasher::default();
            for chunk in bytes[..len].chunks(8) {
                let mut word = [0u8; 8];
                word[..chunk.len()].copy_from_slice(chunk);
                padded.add(u64::from_le_bytes(word));
            }
            padded.add(0xff);
            assert_eq!(hasher.finish(), padded.finish(), "{len} bytes");
        }
    }
}
