//! A stack for the engine when it runs on its caller's thread (the typed API). The caller's
//! stack may be small (2 MiB for a spawned thread or a tokio worker), and deep documents (up to
//! the reader's depth budget) and deep Starlark calls recurse past that: a stack overflow
//! aborts the process. So the engine runs on a stack of the command line's size
//! ([`crate::cli::STACK_BYTES`]) unless the caller's has half of that left.
//!
//! `stacker::grow` maps a new stack at each call, and the fresh stack's page faults and the
//! mapping cost more than a small load itself (a 7 µs load took 30 µs). So each thread keeps
//! the stack it was given (mapped once, untouched pages not resident, guarded below by a page
//! that faults) for its later calls; a nested call while it is in use, or a platform where
//! stacks cannot be switched, falls back to `stacker::grow`.

use crate::cli::STACK_BYTES;

/// Runs `f` on a stack of [`STACK_BYTES`], or on the current one when half of that is left.
pub fn run<R>(f: impl FnOnce() -> R) -> R {
    if stacker::remaining_stack().is_some_and(|left| left >= STACK_BYTES / 2) {
        return f();
    }
    #[cfg(all(unix, target_pointer_width = "64"))]
    if let Some(stack) = kept::take() {
        return kept::run_on(stack, f);
    }
    stacker::grow(STACK_BYTES, f)
}

#[cfg(all(unix, target_pointer_width = "64"))]
mod kept {
    use std::cell::Cell;
    use std::panic::{catch_unwind, resume_unwind, AssertUnwindSafe};

    use super::STACK_BYTES;

    /// A mapped stack: `len` usable bytes from `base`, a page below them that faults.
    pub struct Stack {
        base: *mut u8,
        len: usize,
        page: usize,
    }

    impl Stack {
        fn map() -> Option<Stack> {
            // SAFETY: sysconf has no preconditions.
            let page = usize::try_from(unsafe { libc::sysconf(libc::_SC_PAGESIZE) }).ok()?;
            let len = STACK_BYTES.next_multiple_of(page);
            // SAFETY: a new anonymous mapping, nothing else refers to it; its first page stays
            // PROT_NONE as the guard, the rest is made readable and writable.
            unsafe {
                let map = libc::mmap(
                    std::ptr::null_mut(),
                    len + page,
                    libc::PROT_NONE,
                    libc::MAP_PRIVATE | libc::MAP_ANON | libc::MAP_NORESERVE,
                    -1,
                    0,
                );
                if map == libc::MAP_FAILED {
                    return None;
                }
                let base = map.cast::<u8>().add(page);
                let rw = libc::PROT_READ | libc::PROT_WRITE;
                if libc::mprotect(base.cast(), len, rw) != 0 {
                    libc::munmap(map, len + page);
                    return None;
                }
                Some(Stack { base, len, page })
            }
        }
    }

    impl Drop for Stack {
        fn drop(&mut self) {
            // SAFETY: the mapping made in `map`, no longer in use (it is not running code).
            unsafe {
                libc::munmap(self.base.sub(self.page).cast(), self.len + self.page);
            }
        }
    }

    thread_local! {
        /// The thread's stack, when it is not in use.
        static KEPT: Cell<Option<Stack>> = const { Cell::new(None) };
    }

    /// The thread's stack (mapped at its first use); `None` while it is in use or when it
    /// cannot be mapped.
    pub fn take() -> Option<Stack> {
        let used = KEPT.try_with(|k| k.take()).ok()?;
        used.or_else(Stack::map)
    }

    /// Runs `f` on `stack`, then keeps the stack for the thread's next call. A panic in `f`
    /// is caught on the stack and resumed here (unwinding must not cross the switch).
    pub fn run_on<R>(stack: Stack, f: impl FnOnce() -> R) -> R {
        let mut f = Some(f);
        let mut out = None;
        // SAFETY: `base` is page-aligned and `len` a multiple of the page size, both valid for
        // the call (the stack is owned here); the callback catches every panic, so it returns
        // normally.
        let panic = unsafe {
            psm::on_stack(stack.base, stack.len, || {
                catch_unwind(AssertUnwindSafe(|| {
                    out = f.take().map(|f| f());
                }))
                .err()
            })
        };
        // A stack kept by a nested call meanwhile is dropped for this one.
        let _ = KEPT.try_with(|k| k.set(Some(stack)));
        if let Some(p) = panic {
            resume_unwind(p);
        }
        out.expect("the callback ran")
    }
}

#[cfg(test)]
mod tests {
    /// Recursion `n` deep, each level holding a KiB of stack.
    fn depth(n: usize) -> usize {
        let frame = std::hint::black_box([0u8; 1024]);
        if n == 0 {
            frame[0] as usize
        } else {
            1 + depth(n - 1) + std::hint::black_box(frame[n % 1024] as usize)
        }
    }

    #[test]
    fn deep_code_runs_on_a_small_thread_and_panics_come_back() {
        let small = std::thread::Builder::new().stack_size(1 << 20);
        let (first, again, panicked) = small
            .spawn(|| {
                // About 20 MiB of stack on a 1 MiB thread, twice (the kept stack the second time).
                let first = super::run(|| depth(20_000));
                let again = super::run(|| depth(20_000));
                let panicked =
                    std::panic::catch_unwind(|| super::run(|| panic!("inside"))).is_err();
                (first, again, panicked)
            })
            .unwrap()
            .join()
            .unwrap();
        assert_eq!((first, again, panicked), (20_000, 20_000, true));
    }
}
