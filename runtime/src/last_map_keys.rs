//! [`LastMapKeys`]: the keys the last map of a type held, place by place, with the field each
//! key is. The two walks over values (the type check's fill-and-check, the rules' walk) find
//! the fields of an array's maps with it, rather than looking each key up.
//!
//! The maps of an array's items are one type, and hold mostly the same keys in the same places,
//! the same values too (the reader shares a key it read a moment ago, the typed API's document
//! the node's keys, and the type check gives a declared key the schema's own): an entry whose
//! key is the one (the same value, not an equal one) the last map held at its place is that
//! key's field, found without comparing it with the fields' keys.

use crate::schema::Field;

/// A key recognised by identity: two keys that are [`SameKey::same`] are one value, so equal
/// by every comparison. Whoever keeps one makes sure no other key takes its identity while it
/// is kept (a clone held, or an address borrowed for the whole walk).
pub(crate) trait SameKey {
    fn same(&self, other: &Self) -> bool;
}

/// A key held (a clone: its allocation stays while it is kept).
impl SameKey for crate::value::Key {
    #[inline]
    fn same(&self, other: &Self) -> bool {
        crate::value::Key::same(self, other)
    }
}

/// A key value's address, the value borrowed for the whole walk.
impl SameKey for *const crate::value::Value {
    #[inline]
    fn same(&self, other: &Self) -> bool {
        std::ptr::eq(*self, *other)
    }
}

/// The keys of the last map of one type, place by place, with their fields.
pub(crate) struct LastMapKeys<K> {
    /// The address of the map type's fields (0 before any map): the schema outlives a walk,
    /// so no other type takes it while this is kept.
    fields: usize,
    keys: Vec<(K, u32)>,
}

/// The field of a key its map does not declare.
const UNDECLARED: u32 = u32::MAX;

impl<K> Default for LastMapKeys<K> {
    fn default() -> Self {
        LastMapKeys {
            fields: 0,
            keys: Vec::new(),
        }
    }
}

impl<K: SameKey> LastMapKeys<K> {
    /// Starts a map whose type's fields are `fields`: whether the last map was of this type
    /// (its keys are then kept); if not, they are forgotten.
    #[inline]
    pub fn start(&mut self, fields: &[Field]) -> bool {
        let id = fields.as_ptr() as usize;
        if self.fields == id {
            return true;
        }
        self.fields = id;
        self.keys.clear();
        false
    }

    /// The field of the map's `k`th entry, whose key is `key`, if the last map held that key
    /// at that place (`Some(None)`: a key the type does not declare).
    #[inline]
    pub fn known(&self, k: usize, key: &K) -> Option<Option<usize>> {
        match self.keys.get(k) {
            Some((known, field)) if known.same(key) => {
                Some((*field != UNDECLARED).then_some(*field as usize))
            }
            _ => None,
        }
    }

    /// Keeps `field` (`None`: undeclared) as the field of `key`, the map's `k`th entry's, for
    /// the next map of this type. Places are kept from the first on: one past those kept is
    /// not (nor a field whose index does not fit: the key is then looked up each time).
    pub fn record(&mut self, k: usize, key: K, field: Option<usize>) {
        let field = match field {
            None => UNDECLARED,
            Some(i) => match u32::try_from(i) {
                Ok(i) if i != UNDECLARED => i,
                _ => return,
            },
        };
        if k > self.keys.len() {
            return;
        }
        match self.keys.get_mut(k) {
            Some(slot) => *slot = (key, field),
            None => self.keys.push((key, field)),
        }
    }
}
