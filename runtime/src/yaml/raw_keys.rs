//! The keys the block reader gives map items: one [`Key`] for the items of one map type.
//!
//! Why: the raw nodes of a large values file are mostly map items, and the items of an array of
//! maps hold the same few keys, item after item (`name`, `port`, `host` ...). A raw node's key
//! is one shared pointer (a [`RawNode`](super::parse::RawNode) of 56 bytes, where a key of its
//! own made it 64), and the key written at the same place as in the map before it (the same
//! text, the same position in a map at the same depth) is that map's key again: a count, found
//! by comparing the text, with no resolving and no hashing. A key not found so is made by
//! [`Key::new`], which shares the short keys made last on the thread.

use crate::value::{Key, Value};

/// The keys of the last map read at each depth, by position, with their text as written.
pub(super) struct RawKeys<'s> {
    /// `last[depth][index]`: the text (as in the source, quotes included) and key of the
    /// `index`th item of the last map at `depth` that had one there. At most [`Self::WIDTH`]
    /// a depth, so that a long map with keys of its own is not copied here.
    last: Vec<Vec<(&'s [u8], Key)>>,
}

impl<'s> RawKeys<'s> {
    /// The positions remembered a depth (24 KB at most): maps of one type are mostly
    /// shorter, and a longer map's keys are rarely its sibling's.
    const WIDTH: usize = 1024;

    pub(super) fn new() -> RawKeys<'s> {
        RawKeys { last: Vec::new() }
    }

    /// The key written as `source`, the `index`th item of a map at `depth`: the last map's at
    /// that place when it is written alike, otherwise made of the value `resolve` gives (`None`
    /// when the reader gives up on the key). The same text always resolves to the same value
    /// in one reader, so taking the last map's key is taking the key `resolve` would give.
    #[inline]
    pub(super) fn key(
        &mut self,
        depth: usize,
        index: usize,
        source: &'s [u8],
        resolve: impl FnOnce() -> Option<Value>,
    ) -> Option<Key> {
        if depth >= self.last.len() {
            self.last.resize_with(depth + 1, Vec::new);
        }
        let level = &mut self.last[depth];
        if let Some((text, key)) = level.get(index) {
            if *text == source {
                return Some(key.clone());
            }
        }
        let key = Key::new(resolve()?);
        if index < level.len() {
            level[index] = (source, key.clone());
        } else if index == level.len() && index < Self::WIDTH {
            level.push((source, key.clone()));
        }
        Some(key)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_key_written_alike_at_the_same_place_is_the_last_maps() {
        let mut keys = RawKeys::new();
        let name = |v: &str| Some(Value::Str(v.into()));
        let first = keys.key(2, 0, b"name", || name("name")).unwrap();
        let again = keys
            .key(2, 0, b"name", || panic!("not resolved again"))
            .unwrap();
        assert!(std::ptr::eq(&*first, &*again));
        // Another depth, another position or another text: made (equal by value).
        assert_eq!(keys.key(3, 0, b"name", || name("name")).unwrap(), first);
        assert_eq!(keys.key(2, 1, b"name", || name("name")).unwrap(), first);
        let quoted = keys.key(2, 0, b"'name'", || name("name")).unwrap();
        assert_eq!(quoted, first);
        // The place now remembers the quoted text.
        assert!(keys.key(2, 0, b"'name'", || panic!("remembered")).is_some());
        // A key the reader gives up on is no key, and is not remembered.
        assert!(keys.key(2, 0, b"<<", || None).is_none());
        assert!(keys
            .key(2, 0, b"'name'", || panic!("still remembered"))
            .is_some());
        // Past the width: made each time.
        let far = RawKeys::WIDTH;
        let mut made = 0;
        for _ in 0..2 {
            for i in 0..=far {
                keys.key(1, i, b"k", || {
                    made += 1;
                    name("k")
                })
                .unwrap();
            }
        }
        assert_eq!(made, far + 2);
    }
}
