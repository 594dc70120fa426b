//! The runtime's sources, carried inside the `schemac` binary (packed by `build.rs`) and
//! written into the cache on first use, under a name made of schemac's version and a digest
//! of their content; `SCHEMAC_RUNTIME_DIR` points builds at a checkout's `runtime` instead.
//! The vendored crates (`vendor/README.md`) come with them: inside the copy, under
//! [`VENDOR_DIR`]; beside a checkout's `runtime`, in `../vendor`.

use std::path::{Path, PathBuf};

use sha2::{Digest, Sha256};

use super::files::{write_atomically, TempPath};
use super::vendored_crates::VENDORED_CRATES;

include!(concat!(env!("OUT_DIR"), "/runtime_files.rs"));

/// Where the runtime's copy holds the vendored crates, one folder each.
pub const VENDOR_DIR: &str = "vendor";

/// Where a build finds the runtime, and what it holds.
pub struct Runtime {
    pub dir: PathBuf,
    /// The folder of the vendored crates that validators linking Starlark build with.
    pub vendor: PathBuf,
    /// The SHA-256 of its files (and of the pinned lockfile), in hex.
    pub digest: String,
    /// Whether `dir` is the copy written from the binary (else `SCHEMAC_RUNTIME_DIR`).
    pub embedded: bool,
    /// Whether this build wrote the copy (a cache miss).
    pub written: bool,
}

/// The digest of a list of files and the lockfile.
fn digest(files: &[(String, String)]) -> String {
    let mut h = Sha256::new();
    for (name, text) in files {
        h.update((name.len() as u64).to_le_bytes());
        h.update(name.as_bytes());
        h.update((text.len() as u64).to_le_bytes());
        h.update(text.as_bytes());
    }
    h.update(LOCKFILE.as_bytes());
    hex(&h.finalize())
}

pub fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

/// The runtime for a build: `SCHEMAC_RUNTIME_DIR` if set, else the embedded sources written
/// into `cache/runtime/VERSION-DIGEST` (once: later builds find them there).
pub fn prepare(cache: &Path) -> Result<Runtime, String> {
    if let Some(dir) = std::env::var_os("SCHEMAC_RUNTIME_DIR") {
        let dir = PathBuf::from(dir);
        let dir = dir.canonicalize().map_err(|e| {
            format!("cannot use SCHEMAC_RUNTIME_DIR={}: {e}; it must name the `runtime` folder of a schemac checkout", dir.display())
        })?;
        let vendor = dir.join("..").join(VENDOR_DIR);
        let vendor = vendor.canonicalize().map_err(|e| {
            format!(
                "cannot use SCHEMAC_RUNTIME_DIR={}: {e} ({} is missing)",
                dir.display(),
                vendor.display()
            )
        })?;
        let mut files = vec![("Cargo.toml".to_string(), read(&dir.join("Cargo.toml"))?)];
        read_sources(&dir, &dir.join("src"), &mut files)?;
        for krate in VENDORED_CRATES {
            let root = vendor.join(krate);
            let mut crate_files = vec![("Cargo.toml".to_string(), read(&root.join("Cargo.toml"))?)];
            read_sources(&root, &root.join("src"), &mut crate_files)?;
            files.extend(
                crate_files
                    .into_iter()
                    .map(|(rel, text)| (format!("{VENDOR_DIR}/{krate}/{rel}"), text)),
            );
        }
        files.sort();
        return Ok(Runtime {
            digest: digest(&files),
            vendor,
            dir,
            embedded: false,
            written: false,
        });
    }
    let files = embedded_files()?;
    let digest = digest(&files);
    let dir =
        cache
            .join("runtime")
            .join(format!("{}-{}", env!("CARGO_PKG_VERSION"), &digest[..16]));
    let vendor = dir.join(VENDOR_DIR);
    if dir.join(".complete").exists() {
        return Ok(Runtime {
            vendor,
            dir,
            digest,
            embedded: true,
            written: false,
        });
    }
    let parent = cache.join("runtime");
    std::fs::create_dir_all(&parent)
        .map_err(|e| format!("cannot create {}: {e}", parent.display()))?;
    let tmp = TempPath::beside(&dir);
    for (rel, text) in &files {
        let path = tmp.path().join(rel);
        if let Some(d) = path.parent() {
            std::fs::create_dir_all(d)
                .map_err(|e| format!("cannot create {}: {e}", d.display()))?;
        }
        write_atomically(&path, text.as_bytes())?;
    }
    write_atomically(&tmp.path().join(".complete"), b"")?;
    if tmp.persist(&dir).is_err() && !dir.join(".complete").exists() {
        return Err(format!(
            "cannot write the runtime's sources to {}",
            dir.display()
        ));
    }
    // Another build may have written the same files first; its copy serves as well.
    Ok(Runtime {
        vendor,
        dir,
        digest,
        embedded: true,
        written: true,
    })
}

fn read(path: &Path) -> Result<String, String> {
    std::fs::read_to_string(path).map_err(|e| format!("cannot read {}: {e}", path.display()))
}

fn read_sources(root: &Path, dir: &Path, files: &mut Vec<(String, String)>) -> Result<(), String> {
    let entries =
        std::fs::read_dir(dir).map_err(|e| format!("cannot read {}: {e}", dir.display()))?;
    for entry in entries {
        let path = entry
            .map_err(|e| format!("cannot read {}: {e}", dir.display()))?
            .path();
        if path.is_dir() {
            read_sources(root, &path, files)?;
        } else if path.extension().is_some_and(|e| e == "rs") {
            let rel = path.strip_prefix(root).unwrap_or(&path);
            let rel = rel
                .components()
                .map(|c| c.as_os_str().to_string_lossy())
                .collect::<Vec<_>>()
                .join("/");
            files.push((rel, read(&path)?));
        }
    }
    Ok(())
}

/// The embedded files, with the manifest's workspace inheritance resolved.
fn embedded_files() -> Result<Vec<(String, String)>, String> {
    RUNTIME_FILES
        .iter()
        .map(|(rel, text)| {
            let text = if *rel == "Cargo.toml" {
                standalone_manifest(text, WORKSPACE_MANIFEST)?
            } else {
                text.to_string()
            };
            Ok((rel.to_string(), text))
        })
        .collect()
}

/// The `[section]` and `key = value` lines of a manifest, one level deep (what the
/// workspace's manifest uses: one line per key).
fn section_values(manifest: &str, section: &str) -> Vec<(String, String)> {
    let mut current = String::new();
    let mut values = Vec::new();
    for line in manifest.lines() {
        let line = line.trim();
        if line.starts_with('[') {
            current = line.trim_matches(['[', ']']).to_string();
        } else if current == section {
            if let Some((k, v)) = line.split_once('=') {
                values.push((k.trim().to_string(), v.trim().to_string()));
            }
        }
    }
    values
}

/// The runtime's manifest with `x.workspace = true` and `{ workspace = true, ... }` replaced
/// by the workspace's values, and without its `[lints]` table, so that it builds outside the
/// workspace.
pub fn standalone_manifest(manifest: &str, workspace: &str) -> Result<String, String> {
    let package = section_values(workspace, "workspace.package");
    let deps = section_values(workspace, "workspace.dependencies");
    let lookup = |table: &[(String, String)], key: &str| {
        table
            .iter()
            .find(|(k, _)| k == key)
            .map(|(_, v)| v.clone())
            .ok_or(format!("the workspace declares no `{key}`"))
    };
    let mut out = String::new();
    let mut section = String::new();
    for line in manifest.lines() {
        let trimmed = line.trim();
        if trimmed.starts_with('[') {
            section = trimmed.trim_matches(['[', ']']).to_string();
        }
        // The workspace's lints are for its own development: a validator's build needs none.
        if section == "lints" {
            continue;
        }
        let table = if section == "package" {
            &package
        } else {
            &deps
        };
        let resolved = if let Some(key) = trimmed.strip_suffix(".workspace = true") {
            format!("{key} = {}", lookup(table, key)?)
        } else if let Some((key, rest)) = trimmed.split_once("= { workspace = true") {
            let key = key.trim();
            let rest = rest.trim().trim_start_matches(',').trim();
            let inherited = lookup(table, key)?;
            let inner = match inherited
                .strip_prefix('{')
                .and_then(|i| i.strip_suffix('}'))
            {
                Some(inner) => inner.trim().to_string(),
                None => format!("version = {inherited}"),
            };
            if rest.contains("features =") && inner.contains("features =") {
                return Err(format!(
                    "cannot merge the features of `{key}` with the workspace's"
                ));
            }
            let rest = rest.trim_end_matches('}').trim();
            if rest.is_empty() {
                format!("{key} = {{ {inner} }}")
            } else {
                format!("{key} = {{ {inner}, {rest} }}")
            }
        } else {
            line.to_string()
        };
        if resolved.contains("workspace") && !trimmed.starts_with('#') {
            return Err(format!(
                "cannot resolve the runtime manifest's line `{trimmed}` outside the workspace"
            ));
        }
        out.push_str(&resolved);
        out.push('\n');
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_embedded_manifest_stands_alone() {
        let manifest = standalone_manifest(RUNTIME_FILES[0].1, WORKSPACE_MANIFEST).unwrap();
        assert!(!manifest.contains("workspace"), "{manifest}");
        assert!(
            manifest.contains(&format!("version = \"{}\"", env!("CARGO_PKG_VERSION"))),
            "{manifest}"
        );
        assert!(manifest.contains("starlark = { version = "), "{manifest}");
        assert!(manifest.contains("optional = true }"), "{manifest}");
    }

    #[test]
    fn inherited_tables_merge_with_local_keys() {
        let ws = "[workspace.package]\nedition = \"2021\"\n[workspace.dependencies]\nserde = { version = \"1\", features = [\"derive\"] }\nregex = \"1\"\n";
        let m = "[package]\nedition.workspace = true\n[dependencies]\nserde = { workspace = true, optional = true }\nregex.workspace = true\n";
        assert_eq!(
            standalone_manifest(m, ws).unwrap(),
            "[package]\nedition = \"2021\"\n[dependencies]\nserde = { version = \"1\", features = [\"derive\"], optional = true }\nregex = \"1\"\n"
        );
        assert!(standalone_manifest("[dependencies]\nnope.workspace = true\n", ws).is_err());
    }
}
