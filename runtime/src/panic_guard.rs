//! Panics of third-party code turned into errors: the interpreter panics on a value over
//! 4 GiB, libyaml-safer on some texts that end inside a scalar. Such a panic is caught and its
//! message returned, without the default hook printing it.

use std::cell::Cell;
use std::sync::Once;

thread_local! {
    /// Whether this thread is inside [`catch_panic`] (its panics are not printed).
    static GUARDED: Cell<u32> = const { Cell::new(0) };
}

/// Runs `f`; a panic inside it is returned as its message.
pub(crate) fn catch_panic<T>(f: impl FnOnce() -> T) -> Result<T, String> {
    static HOOK: Once = Once::new();
    HOOK.call_once(|| {
        let previous = std::panic::take_hook();
        std::panic::set_hook(Box::new(move |info| {
            if GUARDED.with(Cell::get) == 0 {
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
