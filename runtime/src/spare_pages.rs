//! The pages of a large vector's spare capacity given back to the system while the vector
//! lives: a vector consumed from its back (its items popped) holds pages no item uses any more,
//! which the allocator gets back only when the whole block is freed, and copying what is left
//! into a smaller block (`shrink_to_fit`) made the resident peak higher under mimalloc (the
//! new block is fresh pages, and the freed one's are not reused by small blocks at once).

/// The spare capacity of one vector not yet given back.
pub(crate) struct SparePages {
    /// The end of the part of the vector's block whose pages may still be resident: the
    /// block's end at first, then the start of the last range given back.
    kept_to: usize,
}

/// Pages are given back in ranges of at least this many bytes (a system call each).
const RELEASE_AT: usize = 1 << 20;

impl SparePages {
    pub(crate) fn new<T>(items: &Vec<T>) -> SparePages {
        SparePages {
            kept_to: items.as_ptr() as usize + items.capacity() * std::mem::size_of::<T>(),
        }
    }

    /// Gives back the whole pages between the end of `items` and the part given back before,
    /// once they are at least [`RELEASE_AT`] bytes. `items` must be the items left of the
    /// vector [`SparePages::new`] was given, not reallocated since (it is only popped).
    pub(crate) fn release<T>(&mut self, items: &[T]) {
        let start = items.as_ptr() as usize + std::mem::size_of_val(items);
        if self.kept_to.saturating_sub(start) < RELEASE_AT {
            return;
        }
        let Some(page) = page_size() else { return };
        let from = start.next_multiple_of(page);
        let to = self.kept_to / page * page;
        if to <= from {
            return;
        }
        advise_dont_need(from, to - from);
        self.kept_to = from;
        give_back_freed_blocks();
    }
}

/// The consumed front of a vector taken item by item from its front (`into_iter`), given
/// back to the system while the rest is walked: the items there were moved out, and the
/// whole block is freed only when the walk ends.
pub(crate) struct ConsumedPages {
    /// Where the part of the block not given back yet begins.
    kept_from: usize,
}

impl ConsumedPages {
    pub(crate) fn new<T>(items: &std::vec::IntoIter<T>) -> ConsumedPages {
        ConsumedPages {
            kept_from: items.as_slice().as_ptr() as usize,
        }
    }

    /// Gives back the whole pages between the part given back before and the first item left
    /// in `items`, once they are at least [`RELEASE_AT`] bytes. `items` must be the iterator
    /// [`ConsumedPages::new`] was given, only advanced since.
    pub(crate) fn release<T>(&mut self, items: &std::vec::IntoIter<T>) {
        if std::mem::size_of::<T>() == 0 {
            return;
        }
        let end = items.as_slice().as_ptr() as usize;
        if end.saturating_sub(self.kept_from) < RELEASE_AT {
            return;
        }
        let Some(page) = page_size() else { return };
        let from = self.kept_from.next_multiple_of(page);
        let to = end / page * page;
        if to <= from {
            return;
        }
        advise_dont_need(from, to - from);
        self.kept_from = to;
        give_back_freed_blocks();
    }
}

/// With each range of a large vector given back, the pages of the blocks freed since go back
/// too (mimalloc's, see [`crate::allocator::give_back_freed_pages`]): the walk that consumes
/// the vector frees the trees its items held (the raw nodes as the template tree is made,
/// the template trees as the plain data is made), and mimalloc keeps the pages it does not
/// reuse resident, so that the resident set at the walk's end held them beside the data made.
/// Once a MiB of the vector (16,384 template trees, 21,845 raw nodes): nothing for arrays
/// under that.
fn give_back_freed_blocks() {
    #[cfg(feature = "mimalloc")]
    crate::allocator::give_back_freed_pages();
}

/// The system's page size, where pages can be given back.
fn page_size() -> Option<usize> {
    #[cfg(target_os = "linux")]
    {
        static PAGE: std::sync::OnceLock<Option<usize>> = std::sync::OnceLock::new();
        // SAFETY: `sysconf` reads a configuration value; it has no preconditions.
        *PAGE.get_or_init(|| {
            usize::try_from(unsafe { libc::sysconf(libc::_SC_PAGESIZE) })
                .ok()
                .filter(|p| p.is_power_of_two())
        })
    }
    #[cfg(not(target_os = "linux"))]
    {
        None
    }
}

/// `madvise(MADV_DONTNEED)` of `len` bytes at `addr`, both multiples of the page size.
#[cfg(target_os = "linux")]
fn advise_dont_need(addr: usize, len: usize) {
    // SAFETY: the range is whole pages inside a vector's block whose items were moved out (by
    // `pop` past its length, or by its `IntoIter` before the items left), which Rust treats
    // as uninitialized and nothing reads. MADV_DONTNEED only replaces the pages' contents (with
    // zeros, for the allocator's private anonymous memory) the next time they are touched; the
    // mapping stays, so the allocator may reuse the block later as it would any memory it
    // holds. A failure (EINVAL on memory that cannot be advised so) leaves the pages as they
    // are, which is only memory not given back.
    unsafe {
        libc::madvise(addr as *mut libc::c_void, len, libc::MADV_DONTNEED);
    }
}

#[cfg(not(target_os = "linux"))]
fn advise_dont_need(_addr: usize, _len: usize) {}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn items_left_are_kept_as_the_front_is_given_back() {
        let items: Vec<[u64; 8]> = (0..100_000u64).map(|i| [i; 8]).collect();
        let mut items = items.into_iter();
        let mut consumed = ConsumedPages::new(&items);
        let mut next = 0;
        while let Some(item) = items.next() {
            assert_eq!(item, [next; 8]);
            next += 1;
            consumed.release(&items);
            if let Some(last) = items.as_slice().last() {
                assert_eq!(*last, [99_999; 8]);
            }
        }
        assert_eq!(next, 100_000);
    }

    #[test]
    fn items_left_are_kept_as_pages_are_given_back() {
        let mut items: Vec<[u64; 8]> = (0..100_000u64).map(|i| [i; 8]).collect();
        let mut spare = SparePages::new(&items);
        while let Some(item) = items.pop() {
            assert_eq!(item, [items.len() as u64; 8]);
            spare.release(&items);
            if let Some(last) = items.last() {
                assert_eq!(*last, [items.len() as u64 - 1; 8]);
            }
        }
    }
}
