//! [`CowVec`]: the vector of a map's entries. One pointer, as a `ThinVec` (its length and
//! capacity live in the allocation), and its clones share that allocation until one of them is
//! changed, as an `Arc` made mutable with `Arc::make_mut`.
//!
//! Why: a map default of the schema is filled into every map of the data values that lacks its
//! key (array10k's `labels`, in two items of three), and a clone of the shared default's plain
//! data was a copy of its entries; now it is a count. The header is 12 bytes (the count, the
//! length and the capacity as `u32`), so that with 8-byte aligned items it takes the 16 bytes a
//! `ThinVec`'s header takes and a map's allocation keeps its size class.

use std::alloc::{self, Layout};
use std::fmt;
use std::marker::PhantomData;
use std::mem::{align_of, size_of, ManuallyDrop};
use std::ops::{Deref, DerefMut};
use std::ptr::{self, NonNull};
use std::sync::atomic::{self, AtomicU32, Ordering};

/// What stands before the items.
#[repr(C)]
struct Header {
    /// How many vectors share the allocation.
    refs: AtomicU32,
    len: u32,
    /// 0 only for [`EMPTY`], which every empty vector without an allocation points at.
    cap: u32,
}

/// The header of every vector that has no allocation: never written, never freed.
#[repr(C, align(16))]
struct EmptyHeader(Header);

static EMPTY: EmptyHeader = EmptyHeader(Header {
    refs: AtomicU32::new(1),
    len: 0,
    cap: 0,
});

/// A vector of one pointer whose clones share their items until one is changed (see the
/// module's documentation). Reading is a slice (`Deref`); changing it (`DerefMut`, `push`,
/// ...) first copies the items if the allocation is shared.
pub struct CowVec<T> {
    ptr: NonNull<Header>,
    _owns: PhantomData<T>,
}

// The count is atomic: clones may be used and dropped on other threads, as an `Arc`'s.
unsafe impl<T: Send + Sync> Send for CowVec<T> {}
unsafe impl<T: Send + Sync> Sync for CowVec<T> {}

impl<T> CowVec<T> {
    /// Where the items start after the header.
    const OFFSET: usize = {
        assert!(size_of::<T>() > 0 && align_of::<T>() <= align_of::<EmptyHeader>());
        let align = align_of::<T>();
        (size_of::<Header>() + align - 1) & !(align - 1)
    };

    /// An empty vector (it allocates nothing).
    #[inline]
    pub fn new() -> CowVec<T> {
        CowVec {
            ptr: NonNull::from(&EMPTY.0),
            _owns: PhantomData,
        }
    }

    /// An empty vector with room for `cap` items.
    pub fn with_capacity(cap: usize) -> CowVec<T> {
        if cap == 0 {
            return CowVec::new();
        }
        let cap32 = u32::try_from(cap).expect("capacity overflow");
        let layout = Self::layout(cap);
        // SAFETY: the layout is not zero-sized (the header is in it).
        let ptr = unsafe { alloc::alloc(layout) } as *mut Header;
        let Some(ptr) = NonNull::new(ptr) else {
            alloc::handle_alloc_error(layout)
        };
        // SAFETY: the allocation is fresh, aligned and large enough for a header.
        unsafe {
            ptr.as_ptr().write(Header {
                refs: AtomicU32::new(1),
                len: 0,
                cap: cap32,
            })
        };
        CowVec {
            ptr,
            _owns: PhantomData,
        }
    }

    fn layout(cap: usize) -> Layout {
        size_of::<T>()
            .checked_mul(cap)
            .and_then(|items| items.checked_add(Self::OFFSET))
            .and_then(|size| {
                Layout::from_size_align(size, align_of::<Header>().max(align_of::<T>())).ok()
            })
            .expect("capacity overflow")
    }

    #[inline]
    fn header(&self) -> &Header {
        // SAFETY: `ptr` is the header of a live allocation or `EMPTY`.
        unsafe { self.ptr.as_ref() }
    }

    #[inline]
    pub fn len(&self) -> usize {
        self.header().len as usize
    }

    #[inline]
    pub fn is_empty(&self) -> bool {
        self.header().len == 0
    }

    #[inline]
    pub fn capacity(&self) -> usize {
        self.header().cap as usize
    }

    #[inline]
    fn data(&self) -> *mut T {
        // SAFETY: the items start `OFFSET` bytes into the allocation (for `EMPTY`, which is
        // aligned for any `T` allowed, the pointer is only used for empty slices).
        unsafe { (self.ptr.as_ptr() as *mut u8).add(Self::OFFSET) as *mut T }
    }

    /// Whether no other vector shares the allocation (`EMPTY` counts as not shared: nothing is
    /// ever written to it).
    #[inline]
    fn is_unique(&self) -> bool {
        let header = self.header();
        header.cap == 0 || header.refs.load(Ordering::Acquire) == 1
    }

    /// Sets the length of a vector that [`CowVec::is_unique`].
    ///
    /// SAFETY: the allocation is not shared, `len <= capacity`, and the first `len` items are
    /// initialised.
    #[inline]
    unsafe fn set_len(&mut self, len: usize) {
        if self.header().cap != 0 {
            (*self.ptr.as_ptr()).len = len as u32;
        }
    }

    /// Room for `additional` more items in a vector that [`CowVec::is_unique`] (out of line:
    /// the pushes that need it are few).
    #[inline(never)]
    fn grow_unique(&mut self, additional: usize) {
        let len = self.len();
        let cap = self.capacity();
        let needed = len.checked_add(additional).expect("capacity overflow");
        if needed <= cap {
            return;
        }
        let new_cap = needed.max(cap.saturating_mul(2)).max(4);
        if cap == 0 {
            *self = CowVec::with_capacity(new_cap);
            return;
        }
        let new_cap32 = u32::try_from(new_cap).expect("capacity overflow");
        let (old, new) = (Self::layout(cap), Self::layout(new_cap));
        // SAFETY: the allocation is this vector's alone and was made with `old`.
        let ptr = unsafe { alloc::realloc(self.ptr.as_ptr() as *mut u8, old, new.size()) };
        let Some(ptr) = NonNull::new(ptr as *mut Header) else {
            alloc::handle_alloc_error(new)
        };
        self.ptr = ptr;
        // SAFETY: the header moved with the allocation, which is this vector's alone.
        unsafe { (*ptr.as_ptr()).cap = new_cap32 };
    }

    /// Appends to a vector that [`CowVec::is_unique`].
    #[inline]
    fn push_unique(&mut self, item: T) {
        let len = self.len();
        if len == self.capacity() {
            self.grow_unique(1);
        }
        // SAFETY: there is room for one more item (so the vector has an allocation), which is
        // not shared.
        unsafe {
            self.data().add(len).write(item);
            (*self.ptr.as_ptr()).len = len as u32 + 1;
        }
    }

    /// The items, moved into a vector of exactly their number (`items` is one pointer too).
    pub fn from_array<const N: usize>(items: [T; N]) -> CowVec<T> {
        let mut vec = CowVec::with_capacity(N);
        for item in items {
            vec.push_unique(item);
        }
        vec
    }
}

impl<T: Clone> CowVec<T> {
    /// Makes the allocation this vector's alone, copying the items if it is shared.
    #[inline]
    fn make_unique(&mut self) {
        if !self.is_unique() {
            self.copy_items();
        }
    }

    /// The items of a shared allocation copied into one of this vector's own.
    #[cold]
    #[inline(never)]
    fn copy_items(&mut self) {
        let mut copy = CowVec::with_capacity(self.len());
        for item in self.iter() {
            copy.push_unique(item.clone());
        }
        *self = copy;
    }

    /// The items, to change (copied first if the allocation is shared).
    #[inline]
    pub fn make_mut(&mut self) -> &mut [T] {
        self.make_unique();
        // SAFETY: the allocation is this vector's alone, its first `len` items initialised.
        unsafe { std::slice::from_raw_parts_mut(self.data(), self.len()) }
    }

    /// `n` clones of `item`.
    pub fn from_elem(item: T, n: usize) -> CowVec<T> {
        let mut vec = CowVec::with_capacity(n);
        for _ in 0..n {
            vec.push_unique(item.clone());
        }
        vec
    }

    pub fn reserve(&mut self, additional: usize) {
        self.make_unique();
        self.grow_unique(additional);
    }

    #[inline]
    pub fn push(&mut self, item: T) {
        self.make_unique();
        self.push_unique(item);
    }

    pub fn pop(&mut self) -> Option<T> {
        let len = self.len().checked_sub(1)?;
        self.make_unique();
        // SAFETY: the item at `len` is initialised and, with the length lowered, no longer
        // dropped by the vector.
        unsafe {
            self.set_len(len);
            Some(self.data().add(len).read())
        }
    }

    pub fn insert(&mut self, at: usize, item: T) {
        let len = self.len();
        assert!(at <= len, "insertion index {at} past the length {len}");
        self.make_unique();
        self.grow_unique(1);
        // SAFETY: there is room for one more item; the items from `at` move up by one.
        unsafe {
            let place = self.data().add(at);
            ptr::copy(place, place.add(1), len - at);
            place.write(item);
            self.set_len(len + 1);
        }
    }

    pub fn remove(&mut self, at: usize) -> T {
        let len = self.len();
        assert!(at < len, "removal index {at} past the length {len}");
        self.make_unique();
        // SAFETY: the item at `at` is read out and the ones after it move down over it.
        unsafe {
            let place = self.data().add(at);
            let item = place.read();
            ptr::copy(place.add(1), place, len - at - 1);
            self.set_len(len - 1);
            item
        }
    }

    /// Keeps the first `len` items.
    pub fn truncate(&mut self, len: usize) {
        let old = self.len();
        if len >= old {
            return;
        }
        if len == 0 && !self.is_unique() {
            *self = CowVec::new();
            return;
        }
        self.make_unique();
        // SAFETY: the items past `len` are dropped once, after the length stops covering them.
        unsafe {
            self.set_len(len);
            ptr::drop_in_place(ptr::slice_from_raw_parts_mut(
                self.data().add(len),
                old - len,
            ));
        }
    }

    pub fn clear(&mut self) {
        self.truncate(0);
    }

    /// Keeps the items for which `keep` is true, in order.
    pub fn retain(&mut self, mut keep: impl FnMut(&T) -> bool) {
        self.retain_mut(|item| keep(item));
    }

    /// Keeps the items for which `keep` is true, in order.
    pub fn retain_mut(&mut self, mut keep: impl FnMut(&mut T) -> bool) {
        self.make_unique();
        let len = self.len();
        // SAFETY: while the items are walked the length is 0, so a panic in `keep` leaks the
        // rest rather than dropping one twice; each item is kept (moved down) or dropped once.
        unsafe {
            self.set_len(0);
            let data = self.data();
            let mut kept = 0;
            for i in 0..len {
                let item = data.add(i);
                if keep(&mut *item) {
                    if kept != i {
                        ptr::copy_nonoverlapping(item, data.add(kept), 1);
                    }
                    kept += 1;
                } else {
                    ptr::drop_in_place(item);
                }
            }
            self.set_len(kept);
        }
    }
}

impl<T> Drop for CowVec<T> {
    #[inline]
    fn drop(&mut self) {
        let header = self.header();
        if header.cap == 0 || header.refs.fetch_sub(1, Ordering::Release) != 1 {
            return;
        }
        self.drop_last();
    }
}

impl<T> CowVec<T> {
    /// Drops the items and frees the allocation of the last vector that held it.
    #[inline(never)]
    fn drop_last(&mut self) {
        // What the other vectors did before dropping theirs happens before the items go.
        atomic::fence(Ordering::Acquire);
        let cap = self.capacity();
        // SAFETY: this was the last vector of the allocation: its items are dropped and it is
        // freed with the layout it was made with.
        unsafe {
            ptr::drop_in_place(ptr::slice_from_raw_parts_mut(self.data(), self.len()));
            alloc::dealloc(self.ptr.as_ptr() as *mut u8, Self::layout(cap));
        }
    }
}

impl<T> Clone for CowVec<T> {
    /// Another vector of the same allocation: a count, not a copy.
    #[inline]
    fn clone(&self) -> CowVec<T> {
        let header = self.header();
        if header.cap == 0 {
            return CowVec::new();
        }
        // As `Arc`: past this many clones (each a live value somewhere), something leaks them.
        if header.refs.fetch_add(1, Ordering::Relaxed) >= u32::MAX / 2 {
            std::process::abort();
        }
        CowVec {
            ptr: self.ptr,
            _owns: PhantomData,
        }
    }
}

impl<T> Default for CowVec<T> {
    fn default() -> CowVec<T> {
        CowVec::new()
    }
}

impl<T> Deref for CowVec<T> {
    type Target = [T];

    #[inline]
    fn deref(&self) -> &[T] {
        // SAFETY: the first `len` items are initialised (none for `EMPTY`, whose pointer is
        // aligned).
        unsafe { std::slice::from_raw_parts(self.data(), self.len()) }
    }
}

impl<T: Clone> DerefMut for CowVec<T> {
    #[inline]
    fn deref_mut(&mut self) -> &mut [T] {
        self.make_mut()
    }
}

impl<T: fmt::Debug> fmt::Debug for CowVec<T> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_list().entries(self.iter()).finish()
    }
}

impl<T: PartialEq> PartialEq for CowVec<T> {
    fn eq(&self, other: &CowVec<T>) -> bool {
        **self == **other
    }
}

impl<T> FromIterator<T> for CowVec<T> {
    fn from_iter<I: IntoIterator<Item = T>>(items: I) -> CowVec<T> {
        let items = items.into_iter();
        let mut vec = CowVec::with_capacity(items.size_hint().0);
        for item in items {
            vec.push_unique(item);
        }
        vec
    }
}

impl<T: Clone> Extend<T> for CowVec<T> {
    fn extend<I: IntoIterator<Item = T>>(&mut self, items: I) {
        let items = items.into_iter();
        self.reserve(items.size_hint().0);
        for item in items {
            self.push_unique(item);
        }
    }
}

impl<T> From<Vec<T>> for CowVec<T> {
    fn from(items: Vec<T>) -> CowVec<T> {
        items.into_iter().collect()
    }
}

impl<T> From<thin_vec::ThinVec<T>> for CowVec<T> {
    fn from(items: thin_vec::ThinVec<T>) -> CowVec<T> {
        items.into_iter().collect()
    }
}

impl<'a, T> IntoIterator for &'a CowVec<T> {
    type Item = &'a T;
    type IntoIter = std::slice::Iter<'a, T>;

    fn into_iter(self) -> Self::IntoIter {
        self.iter()
    }
}

impl<'a, T: Clone> IntoIterator for &'a mut CowVec<T> {
    type Item = &'a mut T;
    type IntoIter = std::slice::IterMut<'a, T>;

    fn into_iter(self) -> Self::IntoIter {
        self.make_mut().iter_mut()
    }
}

/// The items of a [`CowVec`], moved out of it (cloned first if its allocation was shared).
pub struct IntoIter<T> {
    /// Its length is 0: the items `next..end` are this iterator's, to move out or drop.
    vec: ManuallyDrop<CowVec<T>>,
    next: usize,
    end: usize,
}

impl<T: Clone> IntoIterator for CowVec<T> {
    type Item = T;
    type IntoIter = IntoIter<T>;

    fn into_iter(mut self) -> IntoIter<T> {
        self.make_unique();
        let end = self.len();
        // SAFETY: the allocation is this vector's alone; the iterator owns the items now.
        unsafe { self.set_len(0) };
        IntoIter {
            vec: ManuallyDrop::new(self),
            next: 0,
            end,
        }
    }
}

impl<T> Iterator for IntoIter<T> {
    type Item = T;

    fn next(&mut self) -> Option<T> {
        if self.next == self.end {
            return None;
        }
        self.next += 1;
        // SAFETY: the item at `next - 1` is initialised and read out once.
        Some(unsafe { self.vec.data().add(self.next - 1).read() })
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        let left = self.end - self.next;
        (left, Some(left))
    }
}

impl<T> DoubleEndedIterator for IntoIter<T> {
    fn next_back(&mut self) -> Option<T> {
        if self.next == self.end {
            return None;
        }
        self.end -= 1;
        // SAFETY: the item at `end` is initialised and read out once.
        Some(unsafe { self.vec.data().add(self.end).read() })
    }
}

impl<T> ExactSizeIterator for IntoIter<T> {}

impl<T> Drop for IntoIter<T> {
    fn drop(&mut self) {
        // SAFETY: the items not read out are dropped once; then the vector, whose length is 0,
        // frees its allocation.
        unsafe {
            ptr::drop_in_place(ptr::slice_from_raw_parts_mut(
                self.vec.data().add(self.next),
                self.end - self.next,
            ));
            ManuallyDrop::drop(&mut self.vec);
        }
    }
}

/// A [`CowVec`] of the items given, as `vec!` makes a `Vec`.
#[doc(hidden)]
#[macro_export]
macro_rules! __cow_vec {
    () => {
        $crate::value::CowVec::new()
    };
    ($item:expr; $n:expr) => {
        $crate::value::CowVec::from_elem($item, $n)
    };
    ($($item:expr),+ $(,)?) => {
        $crate::value::CowVec::from_array([$($item),+])
    };
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::rc::Rc;

    #[test]
    fn clones_share_until_one_is_changed() {
        let mut a: CowVec<String> = ["x", "y"].iter().map(|s| s.to_string()).collect();
        let b = a.clone();
        assert_eq!(a.ptr, b.ptr);
        a.push("z".into());
        assert_ne!(a.ptr, b.ptr);
        assert_eq!(&*a, ["x", "y", "z"]);
        assert_eq!(&*b, ["x", "y"]);
        let mut c = b.clone();
        c[0] = "w".into();
        assert_eq!(&*b, ["x", "y"]);
        assert_eq!(&*c, ["w", "y"]);
    }

    #[test]
    fn changes_as_a_vec_does() {
        let mut v: CowVec<u64> = CowVec::new();
        let mut w: Vec<u64> = Vec::new();
        let mut seed = 7u64;
        for step in 0..2000 {
            seed = seed
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            let n = seed >> 40;
            let shared = v.clone();
            let before = shared.to_vec();
            match step % 7 {
                0..=2 => {
                    v.push(n);
                    w.push(n);
                }
                3 if !w.is_empty() => {
                    let at = n as usize % w.len();
                    assert_eq!(v.remove(at), w.remove(at));
                }
                4 => {
                    let at = n as usize % (w.len() + 1);
                    v.insert(at, n);
                    w.insert(at, n);
                }
                5 => {
                    v.retain(|x| x % 5 != n % 5);
                    w.retain(|x| x % 5 != n % 5);
                }
                6 => assert_eq!(v.pop(), w.pop()),
                _ => v.truncate(w.len()),
            }
            assert_eq!(&*v, &w[..]);
            assert_eq!(&*shared, &before[..], "a clone is not changed");
        }
        assert_eq!(v.clone().into_iter().rev().collect::<Vec<_>>(), {
            w.reverse();
            w
        });
    }

    #[test]
    fn drops_every_item_once() {
        let item = Rc::new(());
        let mut v: CowVec<Rc<()>> = CowVec::from_elem(item.clone(), 10);
        let shared = v.clone();
        v.truncate(4);
        assert_eq!(Rc::strong_count(&item), 1 + 10 + 4);
        let mut iter = shared.into_iter();
        iter.next();
        iter.next_back();
        drop(iter);
        assert_eq!(Rc::strong_count(&item), 1 + 4);
        v.retain(|_| false);
        assert!(v.is_empty());
        drop(v);
        assert_eq!(Rc::strong_count(&item), 1);
    }
}
