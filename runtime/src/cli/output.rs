//! Writing to stdout and stderr without panicking: a reader that went away (`| head`) ends the
//! process quietly, as it ends a Unix tool; a failed write (`> /dev/full`) is an error.

use std::io::{ErrorKind, Write};

/// The exit status after stdout's reader went away: what a shell reports for a process that a
/// SIGPIPE ended (128 + 13), without a message.
pub const BROKEN_PIPE: i32 = 141;

/// Writes `text` to stdout and flushes it: `Ok`, or the exit status to end with (the error
/// already reported on stderr).
pub fn stdout(text: &str) -> Result<(), i32> {
    stdout_with(|out| out.write_all(text.as_bytes()))
}

/// [`stdout`] for output that `write` produces as it goes.
pub fn stdout_with(write: impl FnOnce(&mut dyn Write) -> std::io::Result<()>) -> Result<(), i32> {
    let mut out = std::io::stdout().lock();
    match write(&mut out).and_then(|()| out.flush()) {
        Ok(()) => Ok(()),
        Err(e) if e.kind() == ErrorKind::BrokenPipe => Err(BROKEN_PIPE),
        Err(e) => {
            stderr(&format!("schemac: Error: writing to stdout: {e}\n"));
            Err(1)
        }
    }
}

/// Writes `text` to stderr; failures are ignored (there is nowhere left to report them).
pub fn stderr(text: &str) {
    let mut err = std::io::stderr().lock();
    let _ = err.write_all(text.as_bytes()).and_then(|()| err.flush());
}

/// The exit status of a run that printed `text` on stdout and would exit with `status`.
pub fn print_then(text: &str, status: i32) -> i32 {
    match stdout(text) {
        Ok(()) => status,
        Err(code) => code,
    }
}
