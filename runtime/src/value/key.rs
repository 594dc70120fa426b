//! [`Key`]: the key of a map entry, one pointer to a shared [`Value`].
//!
//! Why: the plain data of a large values file is mostly map entries, and an entry's key was a
//! `Value` of 24 bytes, the same few keys over and over (every item of an array of maps holds
//! the keys its schema declares). A key is now a pointer to a shared value, so that an entry is
//! 40 bytes rather than 56, and the type check gives each entry of a declared field the
//! schema's own key (a count, no copy): a map of declared keys holds no key of its own.
//! A key made from a value the schema does not declare is its own allocation (40 bytes),
//! unless [`Key::new`] finds the same short text among the keys it made last (see
//! [`RecentKeys`]).

use std::cell::RefCell;
use std::fmt;
use std::ops::Deref;
use std::ptr::NonNull;
use std::sync::Arc;

use super::Value;

/// A map entry's key: a [`Value`] (a string for almost every key; see [`Value`]) shared by
/// its clones. Reading it is reading the value (`Deref`).
///
/// One pointer: to the value of an `Arc<Value>` (`Arc::into_raw`), or, with its lowest bit set,
/// to a `static` value (generated code's schema keys: made and cloned with no allocation and
/// no count).
///
/// Why not safe code: the safe representations are larger or allocate. `enum { Shared(Arc<Value>),
/// Static(&'static Value) }` is 16 bytes (two non-null pointers leave no niche for the tag: an
/// entry would be 48 bytes, not 40); an `Arc<Value>` alone is 8 but cannot be made in a
/// `static`, so that each schema key of generated code would be an allocation when the schema
/// is made. The invariant the `unsafe` blocks rely on, kept by the only two ways to make a key
/// ([`Key::shared`], [`Key::from_static`]): the pointer with its tag bit cleared is either
/// from `Arc::into_raw` (tag clear), and this key owns one strong count of that `Arc`, or
/// from a `&'static Value` (tag set), which is never freed.
pub struct Key(NonNull<Value>);

// The tag needs the lowest bit of a value's address free, and a key hands out `&Value` on any
// thread that holds it (as `Arc<Value>` and `&'static Value` do, which are `Send` and `Sync`
// exactly when `Value` is both).
const _: () = assert!(std::mem::align_of::<Value>() > STATIC);
const _: fn() = || {
    fn send_and_sync<T: Send + Sync>() {}
    send_and_sync::<Value>();
};

// SAFETY: a key is an `Arc<Value>` (its count atomic) or a `&'static Value`, both `Send` since
// `Value` is `Send + Sync` (asserted above); nothing of a key is owned by a thread.
unsafe impl Send for Key {}
// SAFETY: as for `Send`: `&Key` gives out only `&Value` (and clones, which touch the atomic
// count), as `&Arc<Value>` does.
unsafe impl Sync for Key {}

impl Key {
    /// The key `value`. A short string key made a moment ago is shared rather than made again
    /// (keys repeat: the items of an array of maps hold the same few).
    #[inline]
    pub fn new(value: Value) -> Key {
        match &value {
            Value::Str(text) if text.len() <= RecentKeys::MAX_LEN => RecentKeys::key(value),
            _ => Key::shared(Arc::new(value)),
        }
    }

    /// The key `value`, held by a `static` (no allocation, no count).
    #[inline]
    pub const fn from_static(value: &'static Value) -> Key {
        // The address + 1 stays inside the value (24 bytes), so the pointer keeps the
        // reference's provenance and `value_ptr` gets the reference's pointer back.
        let ptr = (value as *const Value).wrapping_byte_add(STATIC) as *mut Value;
        // SAFETY: a reference's address is not null and not the last address (the value's
        // bytes follow it), so the address + 1 is not null either.
        Key(unsafe { NonNull::new_unchecked(ptr) })
    }

    #[inline]
    fn shared(value: Arc<Value>) -> Key {
        // SAFETY: `Arc::into_raw` is not null; it is aligned to `Value`'s alignment (asserted
        // above to be more than the tag), so its tag bit is clear: the key is shared, and owns
        // the count `into_raw` leaves behind.
        Key(unsafe { NonNull::new_unchecked(Arc::into_raw(value) as *mut Value) })
    }

    #[inline]
    fn is_static(&self) -> bool {
        self.0.as_ptr() as usize & STATIC != 0
    }

    #[inline]
    fn value_ptr(&self) -> *const Value {
        if self.is_static() {
            self.0.as_ptr().wrapping_byte_sub(STATIC)
        } else {
            self.0.as_ptr()
        }
    }

    /// Whether two keys are one value (a clone of one another, or the same `static`): then
    /// they are equal by every comparison that gives one answer for a value (whatever it is).
    #[inline]
    pub fn same(&self, other: &Key) -> bool {
        self.0 == other.0
    }

    /// The key as a value of its own (a copy if another key shares it).
    pub fn into_value(self) -> Value {
        Value::clone(&self)
    }
}

impl Default for Key {
    /// The null key, held by a `static` (what a key taken out of a tree leaves behind: no
    /// allocation).
    #[inline]
    fn default() -> Key {
        static NULL: Value = Value::Null;
        Key::from_static(&NULL)
    }
}

/// The tag of a key held by a `static`, in the lowest bit of its pointer (a `Value` is
/// aligned to 8).
const STATIC: usize = 1;

impl Clone for Key {
    #[inline]
    fn clone(&self) -> Key {
        if !self.is_static() {
            // SAFETY: untagged, so the pointer came from `Arc::into_raw` and this key owns a
            // count: the `Arc` is alive. The new count is the clone's.
            unsafe { Arc::increment_strong_count(self.0.as_ptr()) };
        }
        Key(self.0)
    }
}

impl Drop for Key {
    #[inline]
    fn drop(&mut self) {
        if !self.is_static() {
            // SAFETY: untagged, so the pointer came from `Arc::into_raw` and this key owns a
            // count, which it gives up here (once: this is its drop).
            unsafe { Arc::decrement_strong_count(self.0.as_ptr()) };
        }
    }
}

impl Deref for Key {
    type Target = Value;

    #[inline]
    fn deref(&self) -> &Value {
        // SAFETY: `value_ptr` is the pointer `Arc::into_raw` gave (its value alive while this
        // key owns its count, so for the borrow of `self`) or a `&'static Value`'s; the value is
        // only ever read through it.
        unsafe { &*self.value_ptr() }
    }
}

impl From<Value> for Key {
    #[inline]
    fn from(value: Value) -> Key {
        Key::new(value)
    }
}

impl From<&str> for Key {
    fn from(text: &str) -> Key {
        Key::new(Value::Str(text.into()))
    }
}

impl PartialEq for Key {
    /// As their values (so a key holding NaN is not equal to its clone, as before keys were
    /// shared).
    #[inline]
    fn eq(&self, other: &Key) -> bool {
        **self == **other
    }
}

impl PartialEq<Value> for Key {
    fn eq(&self, other: &Value) -> bool {
        **self == *other
    }
}

impl fmt::Debug for Key {
    /// As the value's: a key prints as the `Value` it was before it was shared.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        Value::fmt(self, f)
    }
}

/// The short string keys made last on this thread, by a hash of their text: a key made again
/// (a map key of a document the schema does not declare, read or converted item by item) is
/// a count rather than an allocation. A slot keeps its key alive until another key takes it
/// (at most `SLOTS` keys of at most `MAX_LEN` bytes: a few KB a thread).
struct RecentKeys {
    /// Allocated when the thread makes its first key: not in the thread's own storage, whose
    /// static block a library loaded at run time shares with every other (a procedural macro
    /// such as `include_schema!` is one: 2 KB of slots there made it fail to load, `cannot
    /// allocate memory in static TLS block`).
    slots: Option<Box<[Option<Key>]>>,
}

impl RecentKeys {
    const SLOTS: usize = 256;
    /// Longer keys are rarely repeated item by item, and hashing them costs more.
    const MAX_LEN: usize = 24;

    fn key(mut value: Value) -> Key {
        thread_local! {
            static RECENT: RefCell<RecentKeys> = const { RefCell::new(RecentKeys { slots: None }) };
        }
        let slot = match &value {
            Value::Str(text) => Self::slot(text.as_bytes()),
            _ => return Key::shared(Arc::new(value)),
        };
        let found = RECENT.try_with(|recent| {
            let mut recent = recent.try_borrow_mut().ok()?;
            let slots = recent
                .slots
                .get_or_insert_with(|| (0..Self::SLOTS).map(|_| None).collect());
            let slot = slots.get_mut(slot)?;
            match slot {
                Some(key) if key.as_str() == value.as_str() => Some(key.clone()),
                _ => {
                    let key = Key::shared(Arc::new(std::mem::take(&mut value)));
                    *slot = Some(key.clone());
                    Some(key)
                }
            }
        });
        match found {
            Ok(Some(key)) => key,
            // The thread is ending (or the slots are in use): a key of its own.
            _ => Key::shared(Arc::new(value)),
        }
    }

    /// The slot of a key's text: a multiply-and-rotate hash of its 8-byte words (as
    /// [`super::key_index::FxHasher`]), mixed once more, its top bits (the low bits of a product mix too
    /// little).
    #[inline]
    fn slot(text: &[u8]) -> usize {
        let mut hash = text.len() as u64;
        for chunk in text.chunks(8) {
            let word = chunk
                .iter()
                .rev()
                .fold(0u64, |word, &byte| word << 8 | byte as u64);
            hash = (hash.rotate_left(5) ^ word).wrapping_mul(0x51_7c_c1_b7_27_22_0a_95);
        }
        // The top bits of one product mix short keys (`k1`, `k2`, ...) poorly: once more.
        hash ^= hash >> 32;
        (hash.wrapping_mul(0x51_7c_c1_b7_27_22_0a_95) >> 56) as usize % Self::SLOTS
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_key_is_one_pointer_and_reads_as_its_value() {
        assert_eq!(std::mem::size_of::<Key>(), std::mem::size_of::<usize>());
        let key = Key::from("name");
        assert_eq!(key.as_str(), Some("name"));
        assert_eq!(key, Value::Str("name".into()));
        assert_eq!(
            format!("{key:?}"),
            format!("{:?}", Value::Str("name".into()))
        );
        assert_eq!(Key::new(Value::Int(1)).into_value(), Value::Int(1));
    }

    #[test]
    fn a_short_key_made_again_is_shared_and_equal_keys_compare_equal() {
        let a = Key::from("port");
        let b = Key::from("port");
        assert!(a.same(&b));
        let long = "a key longer than the recent keys keep".repeat(2);
        let (c, d) = (Key::from(long.as_str()), Key::from(long.as_str()));
        assert!(!c.same(&d));
        assert_eq!(c, d);
        assert_ne!(Key::from("port"), Key::new(Value::Int(1)));
        static NAME: Value = Value::Str(crate::value::Str::const_new("name"));
        let (e, f) = (Key::from_static(&NAME), Key::from_static(&NAME));
        assert!(e.same(&f) && e.clone().same(&e));
        assert_eq!(e, Key::from("name"));
        assert_eq!(e.as_str(), Some("name"));
        // A float key equal to another by value (0.0 and -0.0) is not taken for it.
        assert_eq!(
            Key::new(Value::Float(-0.0)).into_value(),
            Value::Float(-0.0)
        );
    }

    /// The invariant of the `unsafe` blocks, as far as a test sees it: a key reads the value it
    /// was made of (a `static`'s own address, a shared value's one address for all clones),
    /// a clone or a drop on another thread leaves the others' value alive, and a key equals
    /// another by value only.
    #[test]
    fn keys_read_their_value_on_any_thread_and_compare_by_value() {
        static PORT: Value = Value::Str(crate::value::Str::const_new("port"));
        let fixed = Key::from_static(&PORT);
        assert!(std::ptr::eq(&*fixed, &PORT));
        assert!(std::ptr::eq(&*fixed.clone(), &PORT));
        let nested = Value::Map(crate::value::entries![crate::value::MapEntry {
            key: Key::from("inner"),
            value: crate::value::Node::new(Value::Int(7), crate::value::Pos::unknown()),
        }]);
        let shared = Key::new(nested.clone());
        let first = shared.clone();
        assert!(std::ptr::eq(&*first, &*shared));
        std::thread::scope(|scope| {
            for _ in 0..4 {
                let (shared, fixed, nested) = (shared.clone(), &fixed, &nested);
                scope.spawn(move || {
                    for _ in 0..100 {
                        let again = shared.clone();
                        assert_eq!(*again, *nested);
                        assert_eq!(fixed.as_str(), Some("port"));
                    }
                    drop(shared);
                });
            }
        });
        drop(shared);
        assert_eq!(*first, nested);
        assert_eq!(first.into_value(), nested);
        let nan = Key::new(Value::Float(f64::NAN));
        assert_ne!(nan, nan.clone());
        assert_eq!(Key::from("port"), fixed);
    }
}
