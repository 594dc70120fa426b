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
    }
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
    // SAFETY: the range is whole pages inside a vector's spare capacity (past its length,
    // inside its capacity), which Rust treats as uninitialized and nothing reads: the items
    // there were moved out by `pop`. MADV_DONTNEED only replaces the pages' contents (with
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
