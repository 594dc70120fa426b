//! Reading input files as ytt does: `-f FILE`, `-f DIR` (walked in ytt's order), and the files
//! of data-value flags.
//!
//! ytt refuses symlinks "as a security feature" unless their destination is allowed (see
//! [`Symlinks`]); it reads an allowed one as a file, whatever it points to. It reads only
//! regular files, and reports a file that is not UTF-8 as go-yaml does. Every refusal is an error
//! naming the file; nothing unreadable is taken as empty.

use std::path::{Component, Path, PathBuf};
use std::sync::Arc;

use crate::yaml::go_reader::ReaderStop;

mod symlinks;
use symlinks::is_readable_kind;
pub use symlinks::Symlinks;

/// A file to read: its name in messages and its contents, or why they cannot be used.
pub struct InputFile {
    pub name: String,
    pub text: FileText,
    /// Where go-yaml's reader stops in the file (bytes that are not UTF-8, a control
    /// character), reported when the file is parsed.
    pub reader_stop: Option<ReaderStop>,
}

impl InputFile {
    /// The text of a YAML template or a data values file, read with the inputs
    /// ([`read_files`] reads every file [`is_yaml_template`] names at once, and data values
    /// files are read whole). Only such files are asked for it: any other's text is
    /// [`FileText::get`]'s, which reads it (an unread one would be empty here: a debug build
    /// stops on it).
    pub fn yaml_text(&self) -> &Arc<str> {
        static NONE: std::sync::OnceLock<Arc<str>> = std::sync::OnceLock::new();
        debug_assert!(
            self.text.if_read().is_some(),
            "{} was not read with the inputs",
            self.name
        );
        self.text
            .if_read()
            .unwrap_or_else(|| NONE.get_or_init(|| Arc::from("")))
    }
}

/// Whether ytt reads the file `name` as a YAML template of the run's root library (the others
/// it opens only when a template loads or reads them): `.yml` or `.yaml`, and not a library's
/// (`x.lib.yml`, or under a `_ytt_lib` folder).
pub fn is_yaml_template(name: &str) -> bool {
    let library = name.ends_with(".lib.yml")
        || name.ends_with(".lib.yaml")
        || name.split('/').rev().skip(1).any(|dir| dir == "_ytt_lib");
    (name.ends_with(".yml") || name.ends_with(".yaml")) && !library
}

/// A file's contents as `load()` and `data.read()` see them: read with the inputs (YAML
/// templates, standard input), or when first asked for. ytt opens no other file unless a
/// template loads or reads it, so a FIFO or a file past the input budget that nothing loads
/// is never opened (a FIFO among a folder's files hung the run).
#[derive(Clone, Debug)]
pub enum FileText {
    Read(Arc<str>),
    Later(Arc<LaterFile>),
}

/// A file to be read when first asked for ([`FileText::Later`]).
#[derive(Debug)]
pub struct LaterFile {
    path: PathBuf,
    name: String,
    text: std::sync::OnceLock<Result<Arc<str>, String>>,
    /// The file's bytes, when they are not UTF-8 (its text is then read lossily): what
    /// `data.read()` returns, as ytt's Go strings are bytes.
    bytes: std::sync::OnceLock<Arc<[u8]>>,
}

impl FileText {
    /// The text, read now if it was not; `Err` is why it cannot be read (ytt's words for a
    /// file of `-f`).
    pub fn get(&self) -> Result<&Arc<str>, String> {
        match self {
            FileText::Read(text) => Ok(text),
            FileText::Later(file) => file
                .text
                .get_or_init(|| {
                    // Text that is not UTF-8 is read lossily; only a YAML file reports it.
                    let bytes = read_bytes_within(&file.path, &file.name, max_input_bytes())
                        .map_err(ReadError::for_template)?;
                    if std::str::from_utf8(&bytes).is_err() {
                        let _ = file.bytes.set(Arc::from(bytes.as_slice()));
                    }
                    Ok(decode_text(bytes).0)
                })
                .as_ref()
                .map_err(Clone::clone),
        }
    }

    /// [`FileText::get`] for `schemac build` and `gen`, which build every input file in: a FIFO
    /// of the file system that no template read is refused, not opened (with no writer,
    /// opening it waits for ever; ytt builds nothing in, and opens only what a template loads).
    pub fn get_to_build_in(&self) -> Result<&Arc<str>, String> {
        match self {
            FileText::Later(file) if file.text.get().is_none() && is_named_fifo(&file.path) => {
                Err(format!(
                    "Reading file '{}': a FIFO no template loads is not opened (it may wait for a writer for ever), and every file given is built in: leave it out",
                    file.name
                ))
            }
            _ => self.get(),
        }
    }

    /// The bytes read, when they are not UTF-8 (the text is then lossy); `None` for text that
    /// is, or that has not been read ([`FileText::get`]) or was read with the inputs.
    pub fn bytes_not_utf8(&self) -> Option<&Arc<[u8]>> {
        match self {
            FileText::Read(_) => None,
            FileText::Later(file) => file.bytes.get(),
        }
    }

    /// The text, when it has been read.
    pub fn if_read(&self) -> Option<&Arc<str>> {
        match self {
            FileText::Read(text) => Some(text),
            FileText::Later(file) => file.text.get()?.as_ref().ok(),
        }
    }

    /// Whether `self` and `other` are one text: the same text read, or the same file (two
    /// files not read yet are two texts, whatever they hold).
    pub fn same(&self, other: &FileText) -> bool {
        match (self, other) {
            (FileText::Read(a), FileText::Read(b)) => Arc::ptr_eq(a, b) || a == b,
            (FileText::Later(a), FileText::Later(b)) => Arc::ptr_eq(a, b) || a.path == b.path,
            _ => false,
        }
    }
}

impl From<Arc<str>> for FileText {
    fn from(text: Arc<str>) -> FileText {
        FileText::Read(text)
    }
}

/// Whether `path` is a FIFO of the file system (`mkfifo`), which opening may block on; an open
/// pipe (`/dev/fd/N`, `/dev/stdin`, `<(...)`) has no path of its own.
pub fn is_named_fifo(path: &Path) -> bool {
    use std::os::unix::fs::FileTypeExt;
    let fifo = std::fs::metadata(path).is_ok_and(|m| m.file_type().is_fifo());
    fifo && std::fs::canonicalize(path).is_ok()
}

fn max_input_bytes() -> usize {
    crate::yaml::parse::budget::max_input_bytes()
}

/// A file found by `-f`: a YAML template is read now, any other file when first asked for
/// ([`FileText`]).
fn input_file(path: &Path, name: String) -> Result<InputFile, ReadError> {
    if is_yaml_template(&name) {
        return read_regular(path, name);
    }
    let later = LaterFile {
        path: path.to_path_buf(),
        name: name.clone(),
        text: std::sync::OnceLock::new(),
        bytes: std::sync::OnceLock::new(),
    };
    Ok(InputFile {
        name,
        text: FileText::Later(Arc::new(later)),
        reader_stop: None,
    })
}

/// The files named by `-f` arguments, directories expanded in ytt's order. `-f -` reads
/// standard input (once), named `stdin.yml`; `-f NAME=PATH` names a file `NAME` (a directory's
/// files keep their names). `Err` is ytt's message (after `Error: `).
pub fn read_files(paths: &[String], symlinks: &Symlinks) -> Result<Vec<InputFile>, String> {
    let mut out = Vec::new();
    let mut stdin_read = false;
    for arg in paths {
        let (name, p) = name_and_path(arg)?;
        if p == "-" {
            if std::mem::replace(&mut stdin_read, true) {
                return Err(STDIN_READ_TWICE.into());
            }
            let name = name.unwrap_or("stdin.yml").to_string();
            out.push(read_stdin(name).map_err(ReadError::for_template)?);
            continue;
        }
        let path = Path::new(p);
        let meta = crate::stdin_at_start::lstat(path)
            .map_err(|e| format!("Checking file '{p}': {}", lstat_message(p, &e)))?;
        let link = meta.file_type().is_symlink();
        if link {
            symlinks
                .check(p)
                .map_err(|e| format!("Checking symlink file '{p}': {e}"))?;
        }
        if meta.is_dir() {
            for (f, name) in dir_files(path, symlinks)? {
                out.push(input_file(&f, name).map_err(ReadError::for_template)?);
            }
        } else if unread_link_to_dir(path) {
            continue;
        } else if is_readable_kind(&meta) {
            let name = name.map_or_else(|| base_name(p), str::to_string);
            out.push(input_file(path, name).map_err(ReadError::for_template)?);
        } else {
            return Err(format!(
                "Expected file '{p}' to be a regular file, but was not"
            ));
        }
    }
    Ok(out)
}

/// The files `-f DIR` reads, in ytt's order: the path to open each at and its name, its path
/// inside `dir`. `Err` is ytt's message (after `Error: `).
pub fn dir_files(dir: &Path, symlinks: &Symlinks) -> Result<Vec<(PathBuf, String)>, String> {
    let mut files = Vec::new();
    walk(dir, &mut files, symlinks)
        .map_err(|e| format!("Listing files '{}': {e}", dir.display()))?;
    let mut named: Vec<(PathBuf, String)> = files
        .into_iter()
        .filter(|f| !unread_link_to_dir(f))
        .map(|f| {
            let name = f
                .strip_prefix(dir)
                .unwrap_or(&f)
                .to_string_lossy()
                .to_string();
            (clean(&f), name)
        })
        .collect();
    sort_by_name(&mut named);
    Ok(named)
}

/// The name and path of a file flag's argument: `NAME=PATH` names the file `NAME` (an empty
/// one leaves its own name), `PATH` alone keeps its own. `Err` is ytt's refusal of a second `=`.
fn name_and_path(arg: &str) -> Result<(Option<&str>, &str), String> {
    match arg.split_once('=') {
        Some((_, path)) if path.contains('=') => Err(format!(
            "Expected file '{arg}' to only have single '=' sign to for relative path assignment"
        )),
        Some((name, path)) => Ok((Some(name).filter(|n| !n.is_empty()), path)),
        None => Ok((None, arg)),
    }
}

/// Whether the file flag's argument `arg` (`-f`, `--data-values-file`) reads standard input.
pub fn reads_stdin(arg: &str) -> bool {
    matches!(name_and_path(arg), Ok((_, "-")))
}

/// ytt's refusal of a second `-` among the file flags.
const STDIN_READ_TWICE: &str =
    "Standard input has already been read, has the '-' argument been used in more than one flag?";

/// The name ytt gives a file named on the command line: its base name (`config/schema.yml`
/// is `schema.yml` in messages and to `load()`, as if it were in the current directory).
fn base_name(path: &str) -> String {
    Path::new(path)
        .file_name()
        .map_or_else(|| path.to_string(), |n| n.to_string_lossy().to_string())
}

/// The files of `--data-values-file [NAME=]PATH`: the file (named `NAME` or by its base name),
/// standard input for `-` (named `NAME` or `stdin.yml`; `stdin_read` says whether a flag read it
/// already), or the files under the directory (YAML files only below its top level, as ytt takes
/// them), named by their paths inside it. `Err` is ytt's message after `Extracting data value
/// from file: `: finding the files is a step of its own (`Find files 'ARG': `), reading them is
/// not.
/// The files are read one by one as the iterator is walked (ytt reads and checks each before
/// the next: a file of annotations is reported before an unreadable one after it).
pub fn data_values_files<'a>(
    arg: &'a str,
    symlinks: &Symlinks,
    stdin_read: &mut bool,
) -> Result<Box<dyn Iterator<Item = Result<InputFile, String>> + 'a>, String> {
    let (name, path) = name_and_path(arg).map_err(|e| format!("Find files '{arg}': {e}"))?;
    if path == "-" {
        let name = name.unwrap_or("stdin.yml").to_string();
        if std::mem::replace(stdin_read, true) {
            return Err(format!("Reading file '{name}': {STDIN_READ_TWICE}"));
        }
        let read = read_stdin(name).map_err(ReadError::for_data_values);
        return Ok(Box::new(std::iter::once(read)));
    }
    let found =
        data_values_paths(path, symlinks).map_err(|e| format!("Find files '{arg}': {e}"))?;
    Ok(Box::new(found.into_iter().map(move |(f, own)| {
        let named = name.filter(|_| f == Path::new(path)).map(str::to_string);
        read_regular(&clean(&f), named.unwrap_or(own)).map_err(ReadError::for_data_values)
    })))
}

/// The files [`data_values_files`] reads, with their names.
fn data_values_paths(path: &str, symlinks: &Symlinks) -> Result<Vec<(PathBuf, String)>, String> {
    let p = Path::new(path);
    let meta = crate::stdin_at_start::lstat(p)
        .map_err(|e| format!("Checking file '{path}': {}", lstat_message(path, &e)))?;
    let link = meta.file_type().is_symlink();
    if link {
        symlinks
            .check(path)
            .map_err(|e| format!("Checking symlink file '{path}': {e}"))?;
    }
    if is_readable_kind(&meta) {
        return Ok(vec![(p.to_path_buf(), base_name(path))]);
    }
    if !meta.is_dir() {
        return Err(format!(
            "Expected file '{path}' to be a regular file, but was not"
        ));
    }
    let mut files = Vec::new();
    walk(p, &mut files, symlinks).map_err(|e| format!("Listing files '{path}': {e}"))?;
    let mut out = Vec::new();
    for f in files {
        // ytt names a file found in the directory by its path inside it.
        let name = f
            .strip_prefix(p)
            .unwrap_or(&f)
            .to_string_lossy()
            .to_string();
        let top_level = f.parent() == Some(p);
        if top_level || name.ends_with(".yml") || name.ends_with(".yaml") {
            out.push((f, name));
        }
    }
    sort_by_name(&mut out);
    Ok(out)
}

/// A directory's files in ytt's order: by their names inside it, byte by byte (`values.yml`
/// before `values/prod.yml`, where a walk of the tree meets the folder `values` first).
fn sort_by_name(files: &mut [(PathBuf, String)]) {
    files.sort_by(|a, b| a.1.as_bytes().cmp(b.1.as_bytes()));
}

/// The bytes of `--data-value-file KEY=ARG` (a string to ytt, UTF-8 or not): `ARG` is a file
/// flag's `[NAME=]PATH`, as `-f` reads it (the name is dropped; ytt names the whole `ARG` where
/// it cannot read the file, and the path alone where it cannot find it).
/// `Err` is ytt's message after `Finding file 'ARG': `.
pub fn data_value_file(
    arg: &str,
    symlinks: &Symlinks,
    stdin_read: &mut bool,
) -> Result<Vec<u8>, String> {
    let (_, path) = name_and_path(arg)?;
    if path == "-" {
        // ytt gives no reason when standard input was read already: `Reading file '-'`.
        if std::mem::replace(stdin_read, true) {
            return Err(format!("Reading file '{arg}'"));
        }
        return match read_stdin_bytes(arg) {
            Ok(bytes) => Ok(bytes),
            Err(ReadError::Unreadable { .. }) => Err(format!("Reading file '{arg}'")),
            Err(ReadError::TooLarge(message)) => Err(message),
        };
    }
    let p = Path::new(path);
    let meta = crate::stdin_at_start::lstat(p)
        .map_err(|e| format!("Checking file '{path}': {}", lstat_message(path, &e)))?;
    let link = meta.file_type().is_symlink();
    if link {
        symlinks
            .check(path)
            .map_err(|e| format!("Checking symlink file '{path}': {e}"))?;
    }
    if meta.is_dir() {
        // A directory holding exactly one file stands for that file (ytt panics on an empty one).
        let mut files = Vec::new();
        walk(p, &mut files, symlinks).map_err(|e| format!("Listing files '{path}': {e}"))?;
        return match files.as_slice() {
            [file] => Ok(read_value_file(&clean(file), arg)?),
            _ => Err(format!("Expected '{arg}' to be a file, but is a directory")),
        };
    }
    if !is_readable_kind(&meta) {
        return Err(format!(
            "Expected file '{path}' to be a regular file, but was not"
        ));
    }
    read_value_file(p, arg)
}

/// The bytes of the file of `--data-value-file KEY=PATH`. ytt gives no reason when it cannot
/// read it: `Reading file 'PATH'`.
fn read_value_file(file: &Path, path: &str) -> Result<Vec<u8>, String> {
    let max = crate::yaml::parse::budget::max_input_bytes();
    match read_bytes_within(file, path, max) {
        Ok(bytes) => Ok(bytes),
        Err(ReadError::Unreadable { .. }) => Err(format!("Reading file '{path}'")),
        Err(ReadError::TooLarge(message)) => Err(message),
    }
}

/// Why a regular file could not be read.
pub(crate) enum ReadError {
    /// Opening or reading failed (no permission, a directory): the file's name and Go's
    /// `open PATH: REASON` or `read PATH: REASON`.
    Unreadable { name: String, failure: String },
    /// The file is larger than the input budget (the whole message).
    TooLarge(String),
}

impl ReadError {
    /// The message as ytt gives it for an `-f` file: Go's error alone.
    pub(crate) fn for_template(self) -> String {
        match self {
            ReadError::Unreadable { failure, .. } => failure,
            ReadError::TooLarge(message) => message,
        }
    }

    /// The message as ytt gives it for a data values file: `Reading file 'NAME': ` first.
    fn for_data_values(self) -> String {
        match self {
            ReadError::Unreadable { name, failure } => format!("Reading file '{name}': {failure}"),
            ReadError::TooLarge(message) => message,
        }
    }
}

/// Reads a regular file (already checked to be one), within the input budget.
pub(crate) fn read_regular(path: &Path, name: String) -> Result<InputFile, ReadError> {
    read_within(path, name, max_input_bytes())
}

/// Reads a file of at most `max` bytes; a larger one is an error naming the budget.
fn read_within(path: &Path, name: String, max: usize) -> Result<InputFile, ReadError> {
    let bytes = read_bytes_within(path, &name, max)?;
    Ok(decode(name, bytes))
}

/// The bytes of a file of at most `max` bytes; a larger one is an error naming the budget.
fn read_bytes_within(path: &Path, name: &str, max: usize) -> Result<Vec<u8>, ReadError> {
    // Go's error for a file it cannot open or read (`open d/v.yml: permission denied`): ytt
    // prints it alone for `-f`, after `Reading file 'NAME': ` for data values files.
    // Go's words name the step that failed: `read d: is a directory` for a directory (which
    // opens), `open v.yml: permission denied`.
    let failed = |step: &'static str| {
        let shown = name.to_string();
        move |e: std::io::Error| ReadError::Unreadable {
            name: shown.clone(),
            failure: format!("{step} {}: {}", path.display(), io_text(&e)),
        }
    };
    let file = std::fs::File::open(path).map_err(failed("open"))?;
    // A regular file's size, for one read of it rather than reads of growing buffers, and to
    // refuse one past the budget unread (a directory's size is not its bytes, `/proc`'s files
    // have none: 0, read to learn).
    let size = file
        .metadata()
        .map_or(0, |m| if m.is_file() { m.len() } else { 0 });
    let reading = failed("read");
    read_source(file, size, name, max, reading)
}

/// Standard input as the file `name`, within the input budget.
fn read_stdin(name: String) -> Result<InputFile, ReadError> {
    let bytes = read_stdin_bytes(&name)?;
    Ok(decode(name, bytes))
}

/// The bytes of standard input (named `name` in errors), within the input budget.
fn read_stdin_bytes(name: &str) -> Result<Vec<u8>, ReadError> {
    let shown = name.to_string();
    let reading = move |e: std::io::Error| ReadError::Unreadable {
        name: shown.clone(),
        failure: format!("read /dev/stdin: {}", io_text(&e)),
    };
    if crate::stdin_at_start::closed_at_start() {
        return Err(reading(std::io::Error::from_raw_os_error(libc::EBADF)));
    }
    let max = crate::yaml::parse::budget::max_input_bytes();
    read_source(std::io::stdin().lock(), 0, name, max, reading)
}

/// The bytes of `source` (a regular file of `size` bytes, or of an unknown size: 0) as the file
/// `name`: at most `max` bytes, else an error naming the budget.
fn read_source(
    source: impl std::io::Read,
    size: u64,
    name: &str,
    max: usize,
    reading: impl Fn(std::io::Error) -> ReadError,
) -> Result<Vec<u8>, ReadError> {
    use std::io::Read;
    let too_large = || {
        ReadError::TooLarge(format!(
            "Reading file '{name}': it is larger than the input budget of {max} bytes (raise it with {})",
            crate::yaml::parse::budget::INPUT_VAR
        ))
    };
    // A regular file whose size is past the budget is refused unread (a 3 GB file took 1.3 s
    // and the budget's 256 MiB of memory to be refused).
    if size > max as u64 {
        return Err(too_large());
    }
    // One byte past the budget tells a larger file (stdin's size is not known, a file may
    // grow); saturating, as `SCHEMAC_MAX_INPUT_BYTES` may be `usize::MAX` (where `+ 1` wrapped
    // to 0 and every file was read as empty).
    let limit = (max as u64).saturating_add(1);
    let mut bytes = Vec::with_capacity(
        usize::try_from(size.min(limit))
            .unwrap_or(0)
            .saturating_add(1),
    );
    source
        .take(limit)
        .read_to_end(&mut bytes)
        .map_err(reading)?;
    if bytes.len() > max {
        return Err(too_large());
    }
    Ok(bytes)
}

/// The file's text, read lossily where it is not UTF-8, and where go-yaml's reader stops in it.
pub fn decode(name: String, bytes: Vec<u8>) -> InputFile {
    let (text, reader_stop) = decode_text(bytes);
    InputFile {
        name,
        text: FileText::Read(text),
        reader_stop,
    }
}

/// [`decode`]'s text (invalid UTF-8 read lossily) and where go-yaml's reader stops in it (a
/// file's, or a text `yaml.decode` is given: ytt hands both to go-yaml the same way).
pub(crate) fn decode_text(bytes: Vec<u8>) -> (Arc<str>, Option<ReaderStop>) {
    use crate::yaml::go_reader::{reader_stop, refuses_any};
    // (UTF-8 checked once: a file's bytes are looked at again only when the reader stops.)
    match String::from_utf8(bytes) {
        Ok(text) if !refuses_any(&text) => (Arc::from(text), None),
        Ok(text) => {
            let stop = reader_stop(text.as_bytes());
            (Arc::from(text), stop)
        }
        Err(e) => {
            let stop = reader_stop(e.as_bytes());
            (Arc::from(String::from_utf8_lossy(e.as_bytes())), stop)
        }
    }
}

/// The regular files under `dir`, as Go's `filepath.Walk` visits them: each directory's
/// entries sorted by name, subdirectories entered where they sort. (Go opens a file at its
/// path made by `filepath.Join`, which cleans it: `open d/t.txt` under `./d/`; the paths here
/// keep `dir` as given, from which ytt names the files.)
fn walk(dir: &Path, out: &mut Vec<PathBuf>, symlinks: &Symlinks) -> Result<(), String> {
    walk_from(dir, out, symlinks, true)
}

/// [`walk`] of `dir`, the folder given (`top`) or one under it.
fn walk_from(
    dir: &Path,
    out: &mut Vec<PathBuf>,
    symlinks: &Symlinks,
    top: bool,
) -> Result<(), String> {
    // Go's error for a directory it cannot list: `open d: permission denied`, the folder given
    // as it was given, one under it at its joined (cleaned) path.
    let shown_dir = if top { dir.to_path_buf() } else { clean(dir) };
    let listing = |e: std::io::Error| format!("open {}: {}", shown_dir.display(), io_text(&e));
    let entries = std::fs::read_dir(dir).map_err(listing)?;
    let mut entries: Vec<_> = entries
        .map(|e| e.map(|e| e.path()))
        .collect::<Result<_, _>>()
        .map_err(listing)?;
    entries.sort_by(|a, b| a.file_name().cmp(&b.file_name()));
    for path in entries {
        // As Go's `filepath.Walk` names it (`link.yml` under `.`, not `./link.yml`).
        let shown = clean(&path).to_string_lossy().to_string();
        // Go's `filepath.Walk` hands its own `lstat`'s error on as it is (a name past
        // `PATH_MAX`, a folder that can be listed but not searched).
        let meta = crate::stdin_at_start::lstat(&path).map_err(|e| lstat_message(&shown, &e))?;
        let link = meta.file_type().is_symlink();
        if link {
            symlinks
                .check(&shown)
                .map_err(|e| format!("Checking symlink file '{shown}': {e}"))?;
        }
        if meta.is_dir() {
            walk_from(&path, out, symlinks, false)?;
        } else if !is_readable_kind(&meta) {
            // A socket or a device among the files: ytt's walk stops at it.
            return Err(format!(
                "Expected file '{shown}' to be a regular file, but was not"
            ));
        } else {
            out.push(path);
        }
    }
    Ok(())
}

/// Whether `path` is an allowed link to a directory that ytt takes as a file and never reads:
/// ytt reads a file only when its type needs it, and a name that is not a template's or a
/// library's (`.yml`, `.yaml`, `.star`, `.txt`) gives it none.
/// (A data values file is read whatever its name: see [`data_values_paths`].)
fn unread_link_to_dir(path: &Path) -> bool {
    let name = path.to_string_lossy();
    let typed = [".yml", ".yaml", ".star", ".txt"]
        .iter()
        .any(|ext| name.ends_with(ext));
    let link = crate::stdin_at_start::lstat(path).is_ok_and(|m| m.file_type().is_symlink());
    link && path.is_dir() && !typed
}

/// Go's `filepath.Clean`: `.` and `x/..` removed lexically.
fn clean(path: &Path) -> PathBuf {
    let mut out = PathBuf::new();
    for c in path.components() {
        match c {
            Component::CurDir => {}
            Component::ParentDir
                if matches!(out.components().next_back(), Some(Component::Normal(_))) =>
            {
                out.pop();
            }
            // `/..` is `/`.
            Component::ParentDir
                if matches!(out.components().next_back(), Some(Component::RootDir)) => {}
            other => out.push(other),
        }
    }
    if out.as_os_str().is_empty() {
        out.push(".");
    }
    out
}

/// `lstat PATH: no such file or directory`, as Go words a failed `os.Lstat`.
pub fn lstat_message(path: &str, e: &std::io::Error) -> String {
    format!("lstat {path}: {}", io_text(e))
}

/// An I/O error in Go's words (`no such file or directory`), without Rust's `(os error 2)`.
pub fn io_text(e: &std::io::Error) -> String {
    let text = e.to_string();
    let text = match text.find(" (os error") {
        Some(i) => text[..i].to_string(),
        None => text,
    };
    // Rust capitalises the OS's message; Go prints it as the C library does.
    let mut chars = text.chars();
    match chars.next() {
        Some(c) => c.to_lowercase().chain(chars).collect(),
        None => text,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn clean_is_lexical() {
        assert_eq!(
            clean(Path::new("d/../outside.yml")),
            PathBuf::from("outside.yml")
        );
        assert_eq!(clean(Path::new("./a/./b")), PathBuf::from("a/b"));
        assert_eq!(
            clean(Path::new("/etc/passwd")),
            PathBuf::from("/etc/passwd")
        );
    }

    #[test]
    fn invalid_utf8_is_named_as_go_yaml_names_it() {
        assert_eq!(
            decode("x".into(), b"a: \xff\n".to_vec())
                .reader_stop
                .map(|s| s.message),
            Some("invalid leading UTF-8 octet")
        );
        assert_eq!(
            decode("x".into(), b"a: \xc3(".to_vec())
                .reader_stop
                .map(|s| s.message),
            Some("invalid trailing UTF-8 octet")
        );
        assert_eq!(
            decode("x".into(), b"a: \xc3".to_vec())
                .reader_stop
                .map(|s| s.message),
            Some("incomplete UTF-8 octet sequence")
        );
        for (bytes, message) in [
            (&b"a: \xc0\xaf"[..], "invalid length of a UTF-8 sequence"),
            (b"a: \xed\xa0\x80", "invalid Unicode character"),
            (b"a: \xf4\x90\x80\x80", "invalid Unicode character"),
            (b"a: \xf5\x80\x80\x80", "invalid Unicode character"),
        ] {
            let error = decode("x".into(), bytes.to_vec())
                .reader_stop
                .map(|s| s.message);
            assert_eq!(error, Some(message));
        }
        assert_eq!(
            decode("x".into(), b"a: 1".to_vec())
                .reader_stop
                .map(|s| s.message),
            None
        );
    }

    #[test]
    fn a_socket_in_a_walked_folder_is_refused_by_name() {
        let dir = std::env::temp_dir().join(format!("schemac-walk-socket-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        std::fs::write(dir.join("a.yml"), "a: 1\n").unwrap();
        let _socket = std::os::unix::net::UnixListener::bind(dir.join("s.sock")).unwrap();
        let mut files = Vec::new();
        let e = walk(&dir, &mut files, &Symlinks::default()).unwrap_err();
        assert_eq!(
            e,
            format!(
                "Expected file '{}/s.sock' to be a regular file, but was not",
                dir.display()
            )
        );
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn a_file_past_the_input_budget_is_refused_by_name() {
        let dir = std::env::temp_dir().join(format!("schemac-inputs-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("big.yml");
        std::fs::write(&path, "a: 123456789\n").unwrap();
        assert!(read_within(&path, "big.yml".into(), 13).is_ok());
        let Err(e) = read_within(&path, "big.yml".into(), 12) else {
            panic!("read past the budget")
        };
        assert_eq!(
            e.for_template(),
            "Reading file 'big.yml': it is larger than the input budget of 12 bytes (raise it with SCHEMAC_MAX_INPUT_BYTES)"
        );
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
