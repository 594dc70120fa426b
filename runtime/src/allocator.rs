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
//! Blocks larger than that are mapped from the system on their own (on Linux; see
//! [`mapped`]), so that where they land in mimalloc's arena no longer decides which freed pages
//! small blocks may reuse.
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
/// Also called as a large vector is consumed (see `crate::spare_pages`).
pub fn give_back_freed_pages() {
    extern "C" {
        fn mi_collect(force: bool);
    }
    // SAFETY: mimalloc's own entry point, which any thread may call at any time; it frees
    // only memory no block holds.
    unsafe { mi_collect(true) }
}

/// Makes room for one more item in `items`, a vector that may grow large one push at a time
/// (the block reader's open items). Grown by doubling, such a vector leaves behind it each
/// medium block it outgrew, up to 4 MiB of mimalloc's arena: touched, freed, and kept resident
/// beside what is made after them (in a chunk that small blocks do not reuse). So once it
/// holds [`KEPT_MIN`] bytes it moves at once to a block larger than [`KEPT_MAX`], which is
/// mapped on its own (see [`mapped`]) and from then on grows by moving its pages: only the
/// pages its items use are touched, and they go back to the system when it is freed. With
/// another global allocator this only reserves room sooner. See BENCHMARKS.md, "Fortieth
/// session".
#[inline]
pub(crate) fn reserve_growing<T>(items: &mut Vec<T>) {
    if items.len() == items.capacity() {
        reserve_growing_full(items);
    }
}

#[cold]
fn reserve_growing_full<T>(items: &mut Vec<T>) {
    let size = std::mem::size_of::<T>().max(1);
    let bytes = items.capacity() * size;
    if (KEPT_MIN..=KEPT_MAX).contains(&bytes) {
        items.reserve_exact(KEPT_MAX / size + 1 - items.len());
    }
}

fn is_kept_size(layout: Layout) -> bool {
    (KEPT_MIN..=KEPT_MAX).contains(&layout.size())
}

/// Whether a block of `layout` is mapped on its own (see [`mapped`]).
fn is_mapped(layout: Layout) -> bool {
    mapped::ENABLED && layout.size() > KEPT_MAX && layout.align() <= mapped::MAX_ALIGN
}

/// mimalloc's first arena, in KiB: 32 MiB (its smallest) rather than its default 1 GiB. An
/// arena's bitmaps are sized by the arena, and making them is part of the first allocation: a
/// 1 GiB arena's touched 38 more pages (a page fault each, about 4% of a typical run of a
/// validator, whose whole run is under 2 ms). A run that needs more memory reserves more
/// arenas, each later eighth of them twice the size of the one before (mimalloc's rule).
#[cfg(target_os = "linux")]
const FIRST_ARENA_KIB: std::ffi::c_long = 32 * 1024;

/// `mi_option_arena_reserve` of mimalloc v3's `mi_option_t` (`mimalloc.h`; libmimalloc-sys
/// names only the options before it).
#[cfg(target_os = "linux")]
const MI_OPTION_ARENA_RESERVE: std::ffi::c_int = 23;

/// The most `MIMALLOC_*` variables [`SET_FIRST_ARENA`] shows mimalloc on its own: with more, it
/// reads its options from the whole environment.
#[cfg(target_os = "linux")]
const MIMALLOC_VARIABLES_SHOWN: usize = 64;

/// How many options [`SET_FIRST_ARENA`] asks mimalloc for (v3 has about 47; an index past its
/// last is answered 0 and read from nowhere).
#[cfg(target_os = "linux")]
const MIMALLOC_OPTIONS_READ: std::ffi::c_int = 96;

/// Before the program's first allocation: sets [`FIRST_ARENA_KIB`], and has mimalloc read its
/// options from the `MIMALLOC_*` variables alone. Run by the C runtime before the other
/// constructors of `.init_array` (priority 99: before mimalloc's own, 101 when clang builds it,
/// unprioritised when gcc does), as the option is read when the first arena is reserved. A `MIMALLOC_ARENA_RESERVE` in the environment still decides
/// (mimalloc reads it into an option not yet set).
///
/// mimalloc reads each of its options by scanning the whole environment for `mimalloc_<name>`
/// with a case-insensitive compare (`_mi_prim_getenv`): with this machine's 35 variables, 14%
/// of a typical run's instructions, more with a larger environment. Every name it looks for
/// starts with `mimalloc_`, so it is shown an environment of those variables only while it
/// reads them all (`mi_option_get` of each, each then set to what it read: mimalloc does not
/// tell an option set from one read), then the environment is put back; nothing else runs
/// meanwhile (no thread has started, no other constructor has run).
#[cfg(target_os = "linux")]
#[used]
#[link_section = ".init_array.00099"]
static SET_FIRST_ARENA: extern "C" fn() = {
    extern "C" fn set_first_arena() {
        extern "C" {
            fn mi_option_set(option: std::ffi::c_int, value: std::ffi::c_long);
            fn mi_option_get(option: std::ffi::c_int) -> std::ffi::c_long;
            static mut environ: *mut *mut std::ffi::c_char;
        }
        // `getenv`, which allocates nothing (`std::env::var_os` would, reserving the arena).
        // SAFETY: a NUL-terminated name; nothing sets the environment this early.
        if unsafe { libc::getenv(c"MIMALLOC_ARENA_RESERVE".as_ptr()) }.is_null() {
            // SAFETY: mimalloc's own entry point, which may be called at any time; an option
            // set before the first arena is reserved sizes it.
            unsafe { mi_option_set(MI_OPTION_ARENA_RESERVE, FIRST_ARENA_KIB) }
        }
        let mut shown = [std::ptr::null_mut(); MIMALLOC_VARIABLES_SHOWN + 1];
        let mut count = 0;
        // SAFETY: `environ` is the C runtime's NULL-terminated array of NUL-terminated
        // strings, read and set here before any thread or other constructor runs; it is put
        // back as it was before this function returns.
        unsafe {
            let whole = environ;
            if whole.is_null() {
                return;
            }
            let mut at = whole;
            while !(*at).is_null() {
                let name = std::ffi::CStr::from_ptr(*at).to_bytes();
                if name.len() >= 9 && name[..9].eq_ignore_ascii_case(b"mimalloc_") {
                    if count == MIMALLOC_VARIABLES_SHOWN {
                        return;
                    }
                    shown[count] = *at;
                    count += 1;
                }
                at = at.add(1);
            }
            environ = shown.as_mut_ptr();
            // Read while mimalloc is still "preloading", an option found in no variable would
            // be read again at its start (`mi_option_init`): each is set to what was read, its
            // default or the variable's value.
            for option in 0..MIMALLOC_OPTIONS_READ {
                mi_option_set(option, mi_option_get(option));
            }
            environ = whole;
        }
    }
    set_first_arena
};

// SAFETY: every block comes from mimalloc and goes back to it (freed, or resized by it) with its
// own layout; a kept block is handed out again only for an allocation of exactly its layout.
unsafe impl GlobalAlloc for Allocator {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        held(layout.size() as isize);
        if is_mapped(layout) {
            return mapped::map(layout.size());
        }
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
        if is_mapped(layout) {
            // SAFETY: a block `alloc` mapped for this layout.
            return unsafe { mapped::unmap(ptr, layout.size()) };
        }
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
        if is_mapped(layout) {
            // Fresh anonymous pages read as zeros.
            return mapped::map(layout.size());
        }
        // SAFETY: as the caller's (a kept block is not zeroed, so it is not used here).
        unsafe { MiMalloc.alloc_zeroed(layout) }
    }

    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        // SAFETY: the caller's layout and size, as `GlobalAlloc::realloc` requires.
        let new_layout = unsafe { Layout::from_size_align_unchecked(new_size, layout.align()) };
        match (is_mapped(layout), is_mapped(new_layout)) {
            (true, true) => {
                held((new_size as isize).wrapping_sub(layout.size() as isize));
                // SAFETY: a block `alloc` mapped for `layout`.
                unsafe { mapped::remap(ptr, layout.size(), new_size) }
            }
            (false, false) => {
                // Every other block, kept or not, is mimalloc's: mimalloc resizes it (in place
                // when it can).
                held((new_size as isize).wrapping_sub(layout.size() as isize));
                // SAFETY: as the caller's.
                unsafe { MiMalloc.realloc(ptr, layout, new_size) }
            }
            _ => {
                // From one kind of block to the other: a new block, the contents copied.
                // SAFETY: a layout of non-zero size (the caller's `new_size`).
                let new = unsafe { self.alloc(new_layout) };
                if !new.is_null() {
                    // SAFETY: both blocks hold at least the smaller size, and do not overlap.
                    unsafe {
                        std::ptr::copy_nonoverlapping(ptr, new, layout.size().min(new_size));
                        self.dealloc(ptr, layout);
                    }
                }
                new
            }
        }
    }
}

/// Blocks larger than [`KEPT_MAX`] mapped from the system on their own and given back to it
/// when freed (as glibc's malloc does past its threshold), rather than carved from mimalloc's
/// arena. In the arena a large block takes slices of a 32 MiB chunk, and mimalloc reserves a
/// chunk for the size class of the first block placed at its start: once the block is freed,
/// its slices stay resident, and small blocks made after it may not reuse them. Which chunk
/// a large block lands in turns on every allocation before it, so a run's resident peak did
/// too: `schemac check` at 10.4 MB peaked 22 MB higher in a schema's first run, which
/// allocates a few hundred bytes more before reading the values than the next runs do
/// (BENCHMARKS.md, "Thirty-eighth session"). A mapped block grows and shrinks in place or by
/// moving its pages (`mremap`), never by copying them.
#[cfg(target_os = "linux")]
mod mapped {
    pub(super) const ENABLED: bool = true;
    /// `mmap` gives page-aligned blocks, and no page is smaller than this.
    pub(super) const MAX_ALIGN: usize = 4096;

    /// A new block of `size` bytes, zeroed; null if the system has none.
    pub(super) fn map(size: usize) -> *mut u8 {
        // SAFETY: a new private anonymous mapping: it aliases nothing.
        let p = unsafe {
            libc::mmap(
                std::ptr::null_mut(),
                size,
                libc::PROT_READ | libc::PROT_WRITE,
                libc::MAP_PRIVATE | libc::MAP_ANONYMOUS,
                -1,
                0,
            )
        };
        if p == libc::MAP_FAILED {
            std::ptr::null_mut()
        } else {
            p.cast()
        }
    }

    /// Gives back a block [`map`] or [`remap`] made of `size` bytes.
    ///
    /// # Safety
    /// `ptr` is such a block, of that size, and nothing uses it any more.
    pub(super) unsafe fn unmap(ptr: *mut u8, size: usize) {
        // SAFETY: the caller's block (the length is rounded up to whole pages as `mmap`'s
        // was). A failure leaves the pages mapped: memory not given back, nothing unsound.
        unsafe {
            libc::munmap(ptr.cast(), size);
        }
    }

    /// The block [`map`] made at `ptr` with `old` bytes, resized to `new` bytes (moved if need
    /// be, its contents kept); null, with the block left as it was, if the system has no room.
    ///
    /// # Safety
    /// `ptr` is such a block, of `old` bytes.
    pub(super) unsafe fn remap(ptr: *mut u8, old: usize, new: usize) -> *mut u8 {
        // SAFETY: the caller's block; the kernel moves its pages (or extends or trims the
        // mapping in place), so the first `min(old, new)` bytes are kept.
        let p = unsafe { libc::mremap(ptr.cast(), old, new, libc::MREMAP_MAYMOVE) };
        if p == libc::MAP_FAILED {
            std::ptr::null_mut()
        } else {
            p.cast()
        }
    }
}

/// Elsewhere every block is mimalloc's.
#[cfg(not(target_os = "linux"))]
mod mapped {
    pub(super) const ENABLED: bool = false;
    pub(super) const MAX_ALIGN: usize = 0;

    pub(super) fn map(_: usize) -> *mut u8 {
        unreachable!("no block is mapped")
    }

    pub(super) unsafe fn unmap(_: *mut u8, _: usize) {
        unreachable!("no block is mapped")
    }

    pub(super) unsafe fn remap(_: *mut u8, _: usize, _: usize) -> *mut u8 {
        unreachable!("no block is mapped")
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
    fn a_large_block_keeps_its_contents_as_it_grows_and_shrinks() {
        let a = Allocator;
        let size = |n: usize| Layout::from_size_align(n, 8).unwrap();
        let before = thread_held_bytes();
        unsafe {
            let p = a.alloc_zeroed(size(8 << 20));
            assert!(!p.is_null());
            let all = std::slice::from_raw_parts_mut(p, 8 << 20);
            assert!(all.iter().all(|&b| b == 0));
            for (i, b) in all.iter_mut().enumerate() {
                *b = (i % 251) as u8;
            }
            // Larger and smaller, mapped both; then to a block of mimalloc's and back.
            let steps = [24 << 20, 5 << 20, 1 << 20, 6 << 20 | 3, 100];
            let (mut p, mut len) = (p, 8 << 20);
            for new in steps {
                p = a.realloc(p, size(len), new);
                assert!(!p.is_null());
                let kept = std::slice::from_raw_parts(p, len.min(new));
                assert!(kept.iter().enumerate().all(|(i, &b)| b == (i % 251) as u8));
                len = new;
                assert_eq!(thread_held_bytes() - before, len as isize);
            }
            a.dealloc(p, size(len));
        }
        assert_eq!(thread_held_bytes(), before);
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
