//! Third-party code that may panic on hostile input (the `starlark` crate on a value over
//! 4 GiB, `libyaml-safer` on some texts that end early) runs inside [`catch_panic`]: its panic
//! becomes an error value, and its message is not printed.

use std::cell::Cell;

thread_local! {
    /// How many [`catch_panic`] calls this thread is inside (their panics print nothing).
    static GUARDED: Cell<u32> = const { Cell::new(0) };
}

/// Runs `f`; a panic in it is returned as its message instead of unwinding further.
pub(crate) fn catch_panic<T>(f: impl FnOnce() -> T) -> Result<T, String> {
    static HOOK: std::sync::Once = std::sync::Once::new();
    HOOK.call_once(|| {
        let previous = std::panic::take_hook();
        std::panic::set_hook(Box::new(move |info| {
            if GUARDED.with(|g| g.get()) == 0 {
                previous(info);
            }
        }));
    });
    GUARDED.with(|g| g.set(g.get() + 1));
    let result = std::panic::catch_unwind(std::panic::AssertUnwindSafe(f));
    GUARDED.with(|g| g.set(g.get() - 1));
    result.map_err(|payload| {
        payload
            .downcast_ref::<&str>()
            .map(|s| s.to_string())
            .or_else(|| payload.downcast_ref::<String>().cloned())
            .unwrap_or_else(|| "unknown failure".into())
    })
}
