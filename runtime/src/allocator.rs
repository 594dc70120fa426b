//! The global allocator of `schemac` and of the validators it builds for the host: mimalloc,
//! with the last large block freed kept for the next allocation of the same size.
//!
//! mimalloc serves small blocks fast, which is most of what a run allocates. A block from
//! 256 KiB to 4 MiB costs it far more (about 1,200 instructions to allocate, more again to
//! free, then page faults on its first use), and one such block is made and freed again and
//! again: the Starlark interpreter's `Evaluator` allocates a 1 MB stack for each call, so
//! `schemac check` of a schema with custom rules made two per rule call (custom10k: 40,000,
//! ~60M instructions of its 373M). Keeping the last one freed makes each later one free of
//! cost. At most one block is kept: memory held beyond what the program holds is at most
//! 4 MiB, and larger blocks (input text, big arrays) go to mimalloc as they are.
//!
//! It also counts, per thread, the bytes the thread holds ([`thread_held_bytes`]): the
//! Starlark budget watches them, since memory a program's values hold outside the
//! interpreter's heap (the digits of big integers) escapes the heap's own count.

use std::alloc::{GlobalAlloc, Layout};
use std::cell::Cell;
use std::sync::atomic::{AtomicBool, Ordering};

use mimalloc::MiMalloc;

/// Blocks of this size and up to [`KEPT_MAX`] are kept when freed.
const KEPT_MIN: usize = 256 * 1024;
/// The largest block kept.
const KEPT_MAX: usize = 4 * 1024 * 1024;

/// mimalloc, keeping the last large block freed (see the module's documentation).
pub struct Allocator;

/// The block kept: its address and layout, behind a spin lock (allocation cannot take a
/// `Mutex`, which may allocate; the lock is held for a few instructions).
struct Kept {
    locked: AtomicBool,
    block: std::cell::UnsafeCell<Option<(*mut u8, Layout)>>,
}

// SAFETY: `block` is only read or written while `locked` is held.
unsafe impl Sync for Kept {}

static KEPT: Kept = Kept {
    locked: AtomicBool::new(false),
    block: std::cell::UnsafeCell::new(None),
};

impl Kept {
    /// Runs `f` on the block kept, with the lock held.
    fn with<R>(&self, f: impl FnOnce(&mut Option<(*mut u8, Layout)>) -> R) -> R {
        while self
            .locked
            .compare_exchange_weak(false, true, Ordering::Acquire, Ordering::Relaxed)
            .is_err()
        {
            std::hint::spin_loop();
        }
        // SAFETY: the lock is held, so no other reference to `block` exists.
        let result = f(unsafe { &mut *self.block.get() });
        self.locked.store(false, Ordering::Release);
        result
    }
}

thread_local! {
    /// Bytes allocated through [`Allocator`] on this thread less those freed on it.
    static HELD: Cell<isize> = const { Cell::new(0) };
}

fn held(change: isize) {
    HELD.with(|held| held.set(held.get().wrapping_add(change)));
}

/// Bytes this thread has allocated less those it has freed, through [`Allocator`]; always 0
/// in a program whose global allocator is another. Only differences between two readings on
/// one thread mean something (a block freed on another thread than its own counts there).
pub fn thread_held_bytes() -> isize {
    HELD.with(Cell::get)
}

/// Gives the pages of the blocks freed so far back to the system now, rather than when
/// mimalloc's purge delay has passed (it does not pass within a run: the freed pages stay
/// resident to the process's end). For a program's last step, which allocates little but
/// would touch fresh pages for it while the pages freed before it stay resident: written
/// data values hold 2 MiB of text before they are sized (`yaml::emit::write_yaml`), which
/// set the resident peak of a run whose values are large. Nothing is moved, so nothing held
/// changes; in a program whose global allocator is another, mimalloc holds nothing to give.
pub fn give_back_freed_pages() {
    extern "C" {
        fn mi_collect(force: bool);
    }
    // SAFETY: mimalloc's own entry point, which any thread may call at any time; it frees
    // only memory no block holds.
    unsafe { mi_collect(true) }
}

fn is_kept_size(layout: Layout) -> bool {
    (KEPT_MIN..=KEPT_MAX).contains(&layout.size())
}

// SAFETY: every block comes from mimalloc and goes back to it (freed, or resized by it) with its
// own layout; a kept block is handed out again only for an allocation of exactly its layout.
unsafe impl GlobalAlloc for Allocator {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        held(layout.size() as isize);
        if is_kept_size(layout) {
            let kept = KEPT.with(|kept| match *kept {
                Some((block, kept_layout)) if kept_layout == layout => {
                    *kept = None;
                    Some(block)
                }
                _ => None,
            });
            if let Some(block) = kept {
                return block;
            }
        }
        // SAFETY: the caller's layout, as `GlobalAlloc::alloc` requires.
        unsafe { MiMalloc.alloc(layout) }
    }

    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        held(-(layout.size() as isize));
        if is_kept_size(layout) {
            let before = KEPT.with(|kept| kept.replace((ptr, layout)));
            if let Some((block, layout)) = before {
                // SAFETY: a block from mimalloc with the layout it was allocated with.
                unsafe { MiMalloc.dealloc(block, layout) }
            }
            return;
        }
        // SAFETY: as the caller's.
        unsafe { MiMalloc.dealloc(ptr, layout) }
    }

    unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
        held(layout.size() as isize);
        // SAFETY: as the caller's (a kept block is not zeroed, so it is not used here).
        unsafe { MiMalloc.alloc_zeroed(layout) }
    }

    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        // Every block, kept or not, is mimalloc's: mimalloc resizes it (in place when it can).
        held((new_size as isize).wrapping_sub(layout.size() as isize));
        // SAFETY: as the caller's.
        unsafe { MiMalloc.realloc(ptr, layout, new_size) }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_kept_block_is_reused_only_for_its_own_layout() {
        let a = Allocator;
        let big = Layout::from_size_align(1_000_000, 8).unwrap();
        let other = Layout::from_size_align(1_000_008, 8).unwrap();
        unsafe {
            let p = a.alloc(big);
            assert!(!p.is_null());
            p.write_bytes(7, big.size());
            a.dealloc(p, big);
            // Another size does not get it (other threads of the test binary may take or
            // replace the kept block, so only what must never happen is asserted).
            let q = a.alloc(other);
            assert!(!q.is_null());
            q.write_bytes(1, other.size());
            a.dealloc(q, other);
            // Resizing (mimalloc's, for kept sizes too) keeps the contents.
            let small = Layout::from_size_align(1024, 8).unwrap();
            let r = a.alloc(small);
            r.write_bytes(3, small.size());
            let r = a.realloc(r, small, 2_000_000);
            assert_eq!(*r.add(1023), 3);
            let r = a.realloc(r, Layout::from_size_align(2_000_000, 8).unwrap(), 512);
            assert_eq!(*r.add(511), 3);
            a.dealloc(r, Layout::from_size_align(512, 8).unwrap());
            let z = a.alloc_zeroed(big);
            assert!(std::slice::from_raw_parts(z, big.size())
                .iter()
                .all(|&b| b == 0));
            a.dealloc(z, big);
        }
    }

    #[test]
    fn a_thread_counts_the_bytes_it_holds() {
        let a = Allocator;
        let layout = Layout::from_size_align(10_000, 8).unwrap();
        let before = thread_held_bytes();
        unsafe {
            let p = a.alloc(layout);
            assert_eq!(thread_held_bytes() - before, 10_000);
            let p = a.realloc(p, layout, 30_000);
            assert_eq!(thread_held_bytes() - before, 30_000);
            a.dealloc(p, Layout::from_size_align(30_000, 8).unwrap());
        }
        assert_eq!(thread_held_bytes(), before);
    }
}
