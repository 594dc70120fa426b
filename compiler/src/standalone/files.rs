//! Files written whole or not at all: each output is written to a temporary file beside it
//! and renamed into place; temporary files and directories are removed on failure (their
//! guards' `Drop`) and on SIGINT/SIGTERM/SIGHUP ([`remove_on_interrupt`], which stops a
//! running cargo too).

use std::path::{Path, PathBuf};
use std::sync::Mutex;

/// Temporary paths to remove if the process is interrupted.
static PENDING: Mutex<Vec<PathBuf>> = Mutex::new(Vec::new());

/// The process id of a running cargo, the leader of its process group, stopped with its
/// group on interrupt (0: none).
pub static CHILD: std::sync::atomic::AtomicU32 = std::sync::atomic::AtomicU32::new(0);

/// Set first thing when the process is interrupted, before the handler stops cargo.
static INTERRUPTED: std::sync::atomic::AtomicBool = std::sync::atomic::AtomicBool::new(false);

/// Called when a child process ends: if it ended because the interrupt handler stopped it,
/// the handler is cleaning up and will exit with status 130, so this thread waits for it
/// instead of reporting the child's failure (and exiting with another status first).
pub fn yield_to_interrupt() {
    if INTERRUPTED.load(std::sync::atomic::Ordering::SeqCst) {
        loop {
            std::thread::park();
        }
    }
}

/// The suffix of temporary files, so that a leftover one is recognisable.
pub const TMP_SUFFIX: &str = "schemac-tmp";

/// Installs a handler that removes every pending temporary path and exits with status 130
/// when the process is interrupted. Call it once, early; later calls do nothing.
pub fn remove_on_interrupt() {
    static INSTALLED: std::sync::Once = std::sync::Once::new();
    INSTALLED.call_once(|| {
        // A failure to install leaves only the guards' cleanup, on ordinary errors.
        let _ = ctrlc::set_handler(|| {
            INTERRUPTED.store(true, std::sync::atomic::Ordering::SeqCst);
            let child = CHILD.load(std::sync::atomic::Ordering::SeqCst);
            // cargo leads a process group of its own (see `cargo::build`): stop all of it.
            if cfg!(unix) && child != 0 {
                let _ = std::process::Command::new("kill")
                    .args(["-TERM", "--", &format!("-{child}")])
                    .status();
            }
            let pending = PENDING.lock().map(|p| p.clone()).unwrap_or_default();
            for path in pending {
                remove(&path);
            }
            eprintln!("schemac: interrupted");
            std::process::exit(130);
        });
    });
}

fn remove(path: &Path) {
    if path.is_dir() {
        let _ = std::fs::remove_dir_all(path);
    } else {
        let _ = std::fs::remove_file(path);
    }
}

/// A temporary file or directory that is removed unless it is kept (renamed into place).
pub struct TempPath {
    path: PathBuf,
    armed: bool,
}

impl TempPath {
    /// Registers `path` (not yet created) for removal on failure and on interrupt.
    pub fn new(path: PathBuf) -> TempPath {
        if let Ok(mut pending) = PENDING.lock() {
            pending.push(path.clone());
        }
        TempPath { path, armed: true }
    }

    /// A fresh name beside `target`: `.NAME.PID.N.schemac-tmp`.
    pub fn beside(target: &Path) -> TempPath {
        static COUNTER: std::sync::atomic::AtomicU32 = std::sync::atomic::AtomicU32::new(0);
        let n = COUNTER.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
        let name = target
            .file_name()
            .map(|n| n.to_string_lossy().to_string())
            .unwrap_or_default();
        TempPath::new(
            target.with_file_name(format!(".{name}.{}.{n}.{TMP_SUFFIX}", std::process::id())),
        )
    }

    pub fn path(&self) -> &Path {
        &self.path
    }

    /// Renames the temporary path to `target` (atomically, on one file system): made
    /// [`TempPath::beside`] the destination [`writable_target`] gives for `target`.
    pub fn persist(mut self, target: &Path) -> Result<(), String> {
        let dest = writable_target(target)?;
        std::fs::rename(&self.path, &dest)
            .map_err(|e| format!("cannot write {}: {e}", shown(target, &dest)))?;
        self.disarm();
        Ok(())
    }

    fn disarm(&mut self) {
        self.armed = false;
        if let Ok(mut pending) = PENDING.lock() {
            pending.retain(|p| p != &self.path);
        }
    }
}

impl Drop for TempPath {
    fn drop(&mut self) {
        if self.armed {
            remove(&self.path);
            self.disarm();
        }
    }
}

/// Where an output named `target` is written, and whether it may be: through a symbolic link
/// to where it leads (as a shell's `>` and `cp` write; renaming over the link replaced it with
/// a file, and a dangling link's target was never made), a regular file there replaced or a new
/// one made; renaming over anything else would replace a device (`-o /dev/null` as root), a
/// FIFO or a socket with a file, and a directory cannot be replaced.
pub fn writable_target(target: &Path) -> Result<PathBuf, String> {
    let dest = follow_links(target)?;
    match std::fs::metadata(&dest) {
        Ok(meta) if meta.is_dir() => Err(format!(
            "cannot write {}: it is a directory",
            shown(target, &dest)
        )),
        Ok(meta) if !meta.is_file() => Err(format!(
            "cannot write {}: it is not a regular file (outputs are written whole to a file \
             beside it and renamed into place)",
            shown(target, &dest)
        )),
        // `-o ''` (or `dir/..`): a file beside it could be written, the rename could not.
        _ if dest.file_name().is_none() => Err(format!(
            "cannot write '{}': the path names no file",
            shown(target, &dest)
        )),
        _ => Ok(dest),
    }
}

/// The path a chain of symbolic links at `target` ends at (`target` itself if it is none):
/// each link read relative to its folder, as the kernel reads it, at most 40 of them.
fn follow_links(target: &Path) -> Result<PathBuf, String> {
    let mut path = target.to_path_buf();
    for _ in 0..40 {
        match std::fs::symlink_metadata(&path) {
            Ok(meta) if meta.file_type().is_symlink() => {
                let link = std::fs::read_link(&path)
                    .map_err(|e| format!("cannot write {}: {e}", target.display()))?;
                path = match path.parent() {
                    Some(dir) => dir.join(link),
                    None => link,
                };
            }
            _ => return Ok(path),
        }
    }
    Err(format!(
        "cannot write {}: too many levels of symbolic links",
        target.display()
    ))
}

/// `target` in a message, with where it leads when that is elsewhere.
pub(crate) fn shown(target: &Path, dest: &Path) -> String {
    if target == dest {
        target.display().to_string()
    } else {
        format!("{} (a link to {})", target.display(), dest.display())
    }
}

/// An output may not replace a file it is made from: `schemac gen s.yml -o s.yml` (or
/// `inspect --output-file`, `build -o`) replaced the schema with what was made of it. The same
/// file however it is named (another spelling, a link): by device and inode on Unix.
pub fn not_an_input(target: &Path, inputs: &[String]) -> Result<(), String> {
    match inputs
        .iter()
        .find(|input| same_file(target, Path::new(input)))
    {
        Some(input) => Err(format!(
            "cannot write {}: it is the input file {input} (give another output path)",
            target.display()
        )),
        None => in_an_input_folder(target, inputs),
    }
}

/// Nor may it be made inside a folder given as an input (a package's `config/`): every file
/// there is read as an input, so `build config/ -o config/v` built the last binary into the
/// next (5 MB, then 13, then 31), and an output there that exists is an input already.
fn in_an_input_folder(target: &Path, inputs: &[String]) -> Result<(), String> {
    let Ok(dest) = follow_links(target) else {
        return Ok(());
    };
    let parent = match dest.parent() {
        Some(p) if !p.as_os_str().is_empty() => p,
        _ => Path::new("."),
    };
    // A folder that does not exist holds no input (the write fails later, naming it).
    let Ok(parent) = parent.canonicalize() else {
        return Ok(());
    };
    let folder = inputs.iter().find(|input| {
        let input = Path::new(input);
        input.is_dir()
            && input
                .canonicalize()
                .is_ok_and(|input| parent.starts_with(input))
    });
    match folder {
        Some(folder) => Err(format!(
            "cannot write {}: it is inside the input folder {folder}, whose files are all \
             read as inputs (give another output path)",
            target.display()
        )),
        None => Ok(()),
    }
}

fn same_file(a: &Path, b: &Path) -> bool {
    #[cfg(unix)]
    {
        use std::os::unix::fs::MetadataExt;
        match (std::fs::metadata(a), std::fs::metadata(b)) {
            (Ok(a), Ok(b)) => a.dev() == b.dev() && a.ino() == b.ino(),
            _ => false,
        }
    }
    #[cfg(not(unix))]
    {
        matches!((a.canonicalize(), b.canonicalize()), (Ok(a), Ok(b)) if a == b)
    }
}

/// Writes `bytes` to `path` whole or not at all.
pub fn write_atomically(path: &Path, bytes: &[u8]) -> Result<(), String> {
    let dest = writable_target(path)?;
    let tmp = TempPath::beside(&dest);
    std::fs::write(tmp.path(), bytes)
        .map_err(|e| format!("cannot write {}: {e}", shown(path, &dest)))?;
    tmp.persist(&dest)
}

/// Copies `from` to `path` whole or not at all (keeping `from`'s permissions).
pub fn copy_atomically(from: &Path, path: &Path) -> Result<(), String> {
    let dest = writable_target(path)?;
    let tmp = TempPath::beside(&dest);
    std::fs::copy(from, tmp.path())
        .map_err(|e| format!("cannot write {}: {e}", shown(path, &dest)))?;
    tmp.persist(&dest)
}

/// Writes `text` to `path` unless it already holds exactly that (so that cargo, which
/// compares modification times, sees unchanged files as unchanged).
pub fn write_if_changed(path: &Path, text: &str) -> Result<(), String> {
    if std::fs::read(path).is_ok_and(|old| old == text.as_bytes()) {
        return Ok(());
    }
    if let Some(dir) = path.parent() {
        std::fs::create_dir_all(dir)
            .map_err(|e| format!("cannot create {}: {e}", dir.display()))?;
    }
    write_atomically(path, text.as_bytes())
}
