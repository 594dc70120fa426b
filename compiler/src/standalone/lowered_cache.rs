//! `schemac check`'s cache of lowered schemas: a schema whose files depend on nothing but
//! their names and bytes (the engine decides which: `schemac_runtime::engine::SchemaStore`)
//! is kept, lowered, in `CACHE/lowered/KEY` and read from there by the next run given the
//! same files, which then neither reads, templates nor lowers them.
//!
//! What an entry is for (its key) is the files' names and bytes (in the order given), the names
//! of the run's `.star` files, schemac's version, the digest of the sources it was built from
//! ([`BUILD_ID`]) and the budgets the run reads with ([`settings`]); KEY, the entry's
//! file name, is a 128-bit hash of that. An entry is [`MAGIC`], the length and a checksum of
//! the rest, the whole key (compared byte for byte: a hash collision is a miss, never another
//! schema), the number of templates the files compiled and of functions they kept, the
//! `.star` files they loaded with their texts (the engine uses the entry only while those
//! files have those texts), and the bytes of the schema and of its rules' translations
//! ([`encoding`]). Entries are written whole (to a file
//! beside and renamed into place), so a reader sees an old entry or a new one; one that is
//! not what this build writes (another key, truncated, corrupt, foreign) is ignored and
//! written again. A cache directory that cannot be made or written is no error: the run just
//! keeps nothing. The entries together stay within the budget [`DEFAULT_BUDGET`] (past it, the
//! oldest are removed until an eighth of it is free; their total is kept in [`TOTAL`] so that
//! a save need not list them); [`BUDGET_VAR`] sets it, and `0` turns the cache off.

mod encoding;

use std::path::{Path, PathBuf};

use schemac_runtime::engine::{SchemaStore, StoreKey, StoredRules, StoredSchema};
use schemac_runtime::schema::Type;

use super::files::TempPath;

/// The bytes of lowered schemas kept, all entries together.
pub const DEFAULT_BUDGET: u64 = schemac_runtime::budget_vars::SCHEMA_CACHE_BYTES.default;

/// The variable that sets [`DEFAULT_BUDGET`]; `0` turns the cache off.
pub const BUDGET_VAR: &str = schemac_runtime::budget_vars::SCHEMA_CACHE_BYTES.name;

/// The first bytes of an entry (the format's version is its last character).
const MAGIC: &[u8; 16] = b"schemac lowered4";

/// The digest of the sources `schemac` was built from (the compiler's, the runtime's and the
/// lock file), made by `build.rs`: a build that may lower otherwise keys otherwise.
const BUILD_ID: &str = include_str!(concat!(env!("OUT_DIR"), "/build_id"));

/// The cache in `dir` (`CACHE/lowered`), keeping up to `budget` bytes.
pub struct LoweredCache {
    dir: PathBuf,
    budget: u64,
}

impl LoweredCache {
    /// The cache under [`super::cache_dir`], unless [`BUDGET_VAR`] turns it off.
    pub fn from_env() -> Option<LoweredCache> {
        let budget = schemac_runtime::budget_vars::SCHEMA_CACHE_BYTES.get();
        (budget > 0).then(|| LoweredCache {
            dir: super::cache_dir().join("lowered"),
            budget,
        })
    }

    /// A cache in `dir` of `budget` bytes (for tests).
    pub fn new(dir: PathBuf, budget: u64) -> LoweredCache {
        LoweredCache { dir, budget }
    }

    /// The entry's file: two hashes of its key, in hex.
    fn path(&self, key: &[u8]) -> PathBuf {
        self.dir
            .join(format!("{:016x}{:016x}", hash64(key, 0), hash64(key, 1)))
    }

    /// Lists the entries and, when `incoming` more bytes would pass the budget, removes the
    /// oldest until an eighth of the budget is free beside them (so that the saves after this
    /// one find room without listing the folder again); returns the size of the entries left.
    fn make_room(&self, incoming: u64) -> u64 {
        let Ok(entries) = std::fs::read_dir(&self.dir) else {
            return 0;
        };
        let mut kept: Vec<(std::time::SystemTime, u64, PathBuf)> = entries
            .flatten()
            .filter(|e| e.file_name() != TOTAL)
            .filter_map(|e| {
                let meta = e.metadata().ok()?;
                let modified = meta.modified().ok()?;
                meta.is_file().then(|| (modified, meta.len(), e.path()))
            })
            .collect();
        let mut total: u64 = kept.iter().map(|(_, len, _)| len).sum();
        if total.saturating_add(incoming) <= self.budget {
            return total;
        }
        let target = self.budget - self.budget / 8;
        kept.sort();
        for (_, len, path) in kept {
            if total.saturating_add(incoming) <= target {
                break;
            }
            if std::fs::remove_file(&path).is_ok() {
                total -= len;
            }
        }
        total
    }

    /// The entries' total size as the last save wrote it in [`TOTAL`] (none if it is not a
    /// small regular file holding a number: then the folder is listed).
    fn read_total(&self) -> Option<u64> {
        let path = self.dir.join(TOTAL);
        let meta = std::fs::metadata(&path).ok()?;
        if !meta.is_file() || meta.len() > 20 {
            return None;
        }
        std::fs::read_to_string(path).ok()?.trim().parse().ok()
    }
}

/// The file beside the entries that holds their total size in bytes (decimal), written by each
/// save while it holds the folder's lock ([`lock_folder`]): a save lists the folder (a
/// `stat` of every entry) only when that total would pass the budget. Listing it at each save
/// made a schema's first run with 16,000 entries kept take 60–130 ms, where a run takes 3.
const TOTAL: &str = ".total";

/// How long a save waits for another run's lock on the folder before it keeps nothing.
const LOCK_WAIT: std::time::Duration = std::time::Duration::from_secs(1);

/// A lock on the cache's folder (`flock` of the folder itself: no file of its own to create).
enum FolderLock {
    /// The folder opened, locked until it is dropped.
    Held(#[allow(dead_code)] std::fs::File),
    /// The folder cannot be opened or locked here: the save lists it, as without [`TOTAL`].
    Unsupported,
    /// Another run held it for [`LOCK_WAIT`].
    Busy,
}

fn lock_folder(dir: &Path) -> FolderLock {
    let Ok(folder) = std::fs::File::open(dir) else {
        return FolderLock::Unsupported;
    };
    let start = std::time::Instant::now();
    loop {
        match folder.try_lock() {
            Ok(()) => return FolderLock::Held(folder),
            Err(std::fs::TryLockError::WouldBlock) if start.elapsed() < LOCK_WAIT => {
                std::thread::sleep(std::time::Duration::from_millis(5));
            }
            Err(std::fs::TryLockError::WouldBlock) => return FolderLock::Busy,
            Err(std::fs::TryLockError::Error(_)) => return FolderLock::Unsupported,
        }
    }
}

/// The size of the entry file at `path` (0 if there is none).
fn entry_len(path: &Path) -> u64 {
    std::fs::symlink_metadata(path)
        .ok()
        .filter(|m| m.is_file())
        .map_or(0, |m| m.len())
}

/// What an entry is for: schemac's version, the digest of its sources ([`BUILD_ID`]), the
/// schema files' names and bytes in order (after their number) and the names of the run's
/// `.star` files. Written into the entry and compared whole when it is read.
fn key(of: &StoreKey) -> Vec<u8> {
    let size: usize = of.files.iter().map(|(n, t)| 16 + n.len() + t.len()).sum();
    let mut key = Vec::with_capacity(64 + size);
    let mut part = |bytes: &[u8]| {
        key.extend_from_slice(&(bytes.len() as u64).to_le_bytes());
        key.extend_from_slice(bytes);
    };
    part(env!("CARGO_PKG_VERSION").as_bytes());
    part(BUILD_ID.as_bytes());
    for (name, value) in settings() {
        part(name.as_encoded_bytes());
        part(value.as_encoded_bytes());
    }
    part(&(of.files.len() as u64).to_le_bytes());
    for (name, text) in &of.files {
        part(name.as_bytes());
        part(text.as_bytes());
    }
    for name in &of.star_files {
        part(name.as_bytes());
    }
    key
}

/// The environment variables that may change how a schema is read (the budgets of the YAML
/// reader, `SCHEMAC_MAX_DEPTH` and the others: every `SCHEMAC_` variable but the cache's
/// own), sorted: a run with other budgets reads its schema again.
fn settings() -> Vec<(std::ffi::OsString, std::ffi::OsString)> {
    let mut vars: Vec<_> = std::env::vars_os()
        .filter(|(name, _)| {
            let name = name.as_encoded_bytes();
            name.starts_with(b"SCHEMAC_")
                && name != b"SCHEMAC_CACHE_DIR"
                && name != BUDGET_VAR.as_bytes()
        })
        .collect();
    vars.sort();
    vars
}

/// A 64-bit hash of `bytes` from `seed`, to name an entry (two of them) and to check its body
/// (the key is compared whole, so a collision can only cost a miss): FNV-1a over 8-byte
/// words, each product's high bits folded in, then the tail's bytes.
fn hash64(bytes: &[u8], seed: u64) -> u64 {
    const PRIME: u64 = 0x0000_0100_0000_01b3;
    let mut h: u64 = 0xcbf2_9ce4_8422_2325 ^ seed;
    let mut words = bytes.chunks_exact(8);
    for w in &mut words {
        h = (h ^ u64::from_le_bytes(w.try_into().expect("8 bytes"))).wrapping_mul(PRIME);
        h ^= h >> 29;
    }
    for &b in words.remainder() {
        h = (h ^ u64::from(b)).wrapping_mul(PRIME);
    }
    h
}

/// The header's length: magic, body length, body checksum.
const HEADER: usize = 16 + 8 + 8;

/// An entry's bytes: the header, then the body: the key, the templates, the functions, the
/// `.star` files loaded (their number, then each one's name and text), the schema and its
/// rules' translations.
fn entry(
    key: &[u8],
    schema: &Type,
    templates: u32,
    rules: &StoredRules,
    loaded: &[(&str, &str)],
) -> Option<Vec<u8>> {
    let schema = encoding::encode(schema, rules.program.as_deref())?;
    let mut body = Vec::with_capacity(key.len() + 24 + schema.len());
    body.extend_from_slice(key);
    body.extend_from_slice(&u64::from(templates).to_le_bytes());
    body.extend_from_slice(&(rules.functions as u64).to_le_bytes());
    body.extend_from_slice(&(loaded.len() as u64).to_le_bytes());
    for part in loaded.iter().flat_map(|(name, text)| [name, text]) {
        body.extend_from_slice(&(part.len() as u64).to_le_bytes());
        body.extend_from_slice(part.as_bytes());
    }
    body.extend(schema);
    let mut out = Vec::with_capacity(HEADER + body.len());
    out.extend_from_slice(MAGIC);
    out.extend_from_slice(&(body.len() as u64).to_le_bytes());
    out.extend_from_slice(&hash64(&body, 0).to_le_bytes());
    out.extend(body);
    Some(out)
}

/// The schema of an entry's `bytes` if they are an entry for `key` as this build writes it.
fn read_entry(bytes: &[u8], key: &[u8]) -> Option<StoredSchema> {
    let header = bytes.get(..HEADER)?;
    let body = &bytes[HEADER..];
    let word = |at: usize| u64::from_le_bytes(header[at..at + 8].try_into().expect("8 bytes"));
    if &header[..16] != MAGIC
        || word(16) != body.len() as u64
        || word(24) != hash64(body, 0)
        || body.get(..key.len())? != key
    {
        return None;
    }
    let mut rest = &body[key.len()..];
    let templates = u32::try_from(take_word(&mut rest)?).ok()?;
    let functions = take_word(&mut rest)?;
    // Each file loaded is named in the key (after the schema files' texts).
    let count = usize::try_from(take_word(&mut rest)?)
        .ok()
        .filter(|&n| n <= key.len())?;
    let mut loaded = Vec::with_capacity(count);
    for _ in 0..count {
        loaded.push((take_text(&mut rest)?, take_text(&mut rest)?));
    }
    let (schema, program) = encoding::decode(rest)?;
    // Each function was kept by an annotation of the files, whose bytes are in the key.
    let functions = usize::try_from(functions)
        .ok()
        .filter(|&n| n <= key.len())?;
    Some(StoredSchema {
        schema,
        templates,
        rules: StoredRules {
            functions,
            program: program.map(std::sync::Arc::new),
        },
        loaded,
    })
}

impl SchemaStore for LoweredCache {
    fn load(&self, of: &StoreKey) -> Option<StoredSchema> {
        let key = key(of);
        read_entry(&read_kept(&self.path(&key), self.budget, &key)?, &key)
    }

    fn save(
        &self,
        of: &StoreKey,
        schema: &Type,
        templates: u32,
        rules: &StoredRules,
        loaded: &[(&str, &str)],
    ) {
        let key = key(of);
        let Some(bytes) = entry(&key, schema, templates, rules, loaded) else {
            return;
        };
        let incoming = bytes.len() as u64;
        if incoming > self.budget || std::fs::create_dir_all(&self.dir).is_err() {
            return;
        }
        // Held until the entry and the total are written.
        let lock = lock_folder(&self.dir);
        let locked = match lock {
            FolderLock::Held(_) => true,
            FolderLock::Unsupported => false,
            FolderLock::Busy => return,
        };
        let total = match self.read_total().filter(|_| locked) {
            Some(total) if total.saturating_add(incoming) <= self.budget => total,
            _ => self.make_room(incoming),
        };
        let path = self.path(&key);
        let replaced = entry_len(&path);
        if write_whole(&path, &bytes).is_ok() && locked {
            let total = total.saturating_sub(replaced) + incoming;
            let _ = write_whole(&self.dir.join(TOTAL), total.to_string().as_bytes());
        }
    }
}

/// The 8-byte little-endian number at the start of `rest`, taken from it.
fn take_word(rest: &mut &[u8]) -> Option<u64> {
    let (word, after) = rest.split_first_chunk::<8>()?;
    *rest = after;
    Some(u64::from_le_bytes(*word))
}

/// The text at the start of `rest` (its length as [`take_word`] reads it, then its bytes),
/// taken from it.
fn take_text(rest: &mut &[u8]) -> Option<String> {
    let len = usize::try_from(take_word(rest)?).ok()?;
    let (bytes, after) = rest.split_at_checked(len)?;
    *rest = after;
    Some(std::str::from_utf8(bytes).ok()?.to_string())
}

/// The bytes of the file at `path` if it is one [`LoweredCache::save`] may have written for
/// `key`: a regular file of at most `budget` bytes, whose header gives its length and whose
/// body starts with `key`, both read before the rest. Anything else put in its place is no
/// entry: a FIFO would block the run, a link to `/dev/zero` read until memory ran out, and a
/// large file of other bytes take its size in memory.
fn read_kept(path: &Path, budget: u64, key: &[u8]) -> Option<Vec<u8>> {
    use std::io::Read;
    let meta = std::fs::metadata(path).ok()?;
    let len = meta.len();
    if !meta.is_file() || len > budget {
        return None;
    }
    let mut file = std::fs::File::open(path).ok()?;
    let mut bytes = vec![0; HEADER + key.len()];
    file.read_exact(&mut bytes).ok()?;
    let body_len = u64::from_le_bytes(bytes[16..24].try_into().expect("8 bytes"));
    if &bytes[..16] != MAGIC
        || (HEADER as u64).checked_add(body_len) != Some(len)
        || &bytes[HEADER..] != key
    {
        return None;
    }
    // An allocation that fails is a miss, not an abort.
    bytes
        .try_reserve_exact(usize::try_from(len).ok()? - bytes.len())
        .ok()?;
    file.take(len - bytes.len() as u64)
        .read_to_end(&mut bytes)
        .ok()?;
    (bytes.len() as u64 == len).then_some(bytes)
}

/// Writes `bytes` to a file beside `path` and renames it into place.
fn write_whole(path: &Path, bytes: &[u8]) -> std::io::Result<()> {
    let tmp = TempPath::beside(path);
    std::fs::write(tmp.path(), bytes)?;
    tmp.persist(path).map_err(std::io::Error::other)
}

#[cfg(test)]
mod tests;
