//! Where the C compiler finds glibc's static archives, which a static link needs: `schemac
//! build` asks it whether a validator can link statically, and `compiler/build.rs` (which
//! includes this file by its path) whether `schemac` itself can.

use std::path::PathBuf;
use std::process::Command;

/// The archive `name` (`libc.a`) as the C compiler `$CC`, else `cc`, finds it: `cc
/// -print-file-name=NAME` names the file, or echoes the bare name when it finds none.
pub fn archive(name: &str) -> Option<PathBuf> {
    let out = Command::new(std::env::var_os("CC").unwrap_or_else(|| "cc".into()))
        .arg(format!("-print-file-name={name}"))
        .output()
        .ok()?;
    if !out.status.success() {
        return None;
    }
    let path = PathBuf::from(String::from_utf8_lossy(&out.stdout).trim());
    (path.is_absolute() && path.is_file()).then_some(path)
}
