//! Whether standard input was open when the process started.
//!
//! ytt reads `-f -` from file descriptor 0 as it finds it, so a closed standard input
//! (`schemac check -f - <&-`) is `read /dev/stdin: bad file descriptor`. Rust's runtime
//! reopens a closed descriptor 0 as `/dev/null` before `main` runs, which would read as an
//! empty file; a constructor the C runtime calls before Rust's (the executable's
//! `.init_array` runs ahead of `main`, and so ahead of `std`'s start-up) notes the descriptor's
//! state first. Every binary linking this crate (`schemac`, the built validators) records it
//! alike; where the constructor cannot run, standard input counts as open.

use std::sync::atomic::{AtomicBool, Ordering};

/// Set by [`note_stdin`] when descriptor 0 was not open at start.
static CLOSED_AT_START: AtomicBool = AtomicBool::new(false);

/// Notes whether descriptor 0 is open; called by the C runtime before `main`.
#[cfg(target_os = "linux")]
extern "C" fn note_stdin() {
    // SAFETY: `fcntl(F_GETFD)` only queries the descriptor table; it touches no memory.
    let closed = unsafe { libc::fcntl(0, libc::F_GETFD) } == -1
        && std::io::Error::last_os_error().raw_os_error() == Some(libc::EBADF);
    CLOSED_AT_START.store(closed, Ordering::Relaxed);
}

/// The constructor's entry in the executable's `.init_array` (kept by `#[used]`; this module's
/// object is linked whenever standard input can be read, as [`closed_at_start`] lives here).
#[cfg(target_os = "linux")]
#[used]
#[link_section = ".init_array"]
static NOTE_STDIN: extern "C" fn() = note_stdin;

/// True when descriptor 0 was closed as the process started (Rust's runtime has since opened
/// `/dev/null` there).
pub(crate) fn closed_at_start() -> bool {
    CLOSED_AT_START.load(Ordering::Relaxed)
}

/// `lstat` of `path` (`std::fs::symlink_metadata`), as it was when the process started: with
/// standard input closed then, descriptor 0's entry in this process's `/proc/PID/fd` did not
/// exist (`-f /dev/stdin` is ytt's `Eval symlink: lstat /proc/PID/fd/0: no such file or
/// directory`, `-f /dev/fd/0` its `lstat /dev/fd/0: ...`), though Rust's runtime has since
/// opened `/dev/null` there.
pub(crate) fn lstat(path: &std::path::Path) -> std::io::Result<std::fs::Metadata> {
    if closed_at_start() && path.file_name() == Some("0".as_ref()) {
        let parent = match path.parent() {
            Some(p) if !p.as_os_str().is_empty() => p,
            _ => ".".as_ref(),
        };
        let fds = std::path::PathBuf::from(format!("/proc/{}/fd", std::process::id()));
        if std::fs::canonicalize(parent).is_ok_and(|p| p == fds) {
            return Err(std::io::Error::from_raw_os_error(libc::ENOENT));
        }
    }
    std::fs::symlink_metadata(path)
}
