//! ytt's libraries of a run's files: each directory holding files is a library, `_ytt_lib`
//! ones private. `load()`, `data.read()` and `data.list()` name files and libraries relative
//! to the library of the calling file (its directory), or to the root of its library with a
//! leading `/` (the run's root, or the private library `load("@name:file")` loaded it from);
//! a path has no `.`, `..` or empty names (they are libraries that do not exist).

use crate::inputs::FileText;

/// The run's files: their names (relative paths) and texts, in the run's order.
pub type Files = [(String, FileText)];

const PRIVATE: &str = "_ytt_lib";

/// The directory of file `name` (with its trailing `/`; `""` at the run's root).
pub fn dir_of(name: &str) -> &str {
    name.rfind('/').map_or("", |i| &name[..=i])
}

/// Where `path` starts from, in directory `dir` of a library rooted at `root`: the root for a
/// leading `/`, else `dir`; and the path without its `/`.
fn start<'a>(root: &'a str, dir: &'a str, path: &'a str) -> (&'a str, &'a str) {
    match path.strip_prefix('/') {
        Some(rest) => (root, rest),
        None => (dir, path),
    }
}

/// The directory of the private library `name` (`load("@name:file")`) seen from directory
/// `dir`: under its `_ytt_lib`, or ytt's error.
pub fn private_library(files: &Files, dir: &str, name: &str) -> Result<String, String> {
    let mut at = format!("{dir}{PRIVATE}/");
    if !files.iter().any(|(n, _)| n.starts_with(&at)) {
        return Err(format!(
            "Could not find private library (directory '{PRIVATE}' missing?)"
        ));
    }
    let pieces: Vec<&str> = name.split('/').collect();
    for (i, piece) in pieces.iter().enumerate() {
        let lib = format!("{at}{piece}/");
        if !files.iter().any(|(n, _)| n.starts_with(&lib)) {
            return Err(format!(
                "Expected to find library '{name}', but did not find '{}'",
                pieces[..i].join("/")
            ));
        }
        if *piece == PRIVATE {
            return Err(format!(
                "Could not load private library '{}'",
                pieces[..i].join("/")
            ));
        }
        at = lib;
    }
    Ok(at)
}

/// The directory (with its trailing `/`) of the library `pieces` name below `at`, or ytt's
/// error (`Did not find 'a/b'`: the pieces that were found).
fn library(files: &Files, at: &str, pieces: &[&str]) -> Result<String, String> {
    let mut at = at.to_string();
    for (i, piece) in pieces.iter().enumerate() {
        let dir = format!("{at}{piece}/");
        if !files.iter().any(|(n, _)| n.starts_with(&dir)) {
            return Err(format!("Did not find '{}'", pieces[..i].join("/")));
        }
        if *piece == PRIVATE {
            return Err(format!("Encountered private library '{PRIVATE}'"));
        }
        at = dir;
    }
    Ok(at)
}

/// The file `path` names from directory `dir` of the library rooted at `root` (`load()`,
/// `data.read()`), or ytt's error.
pub fn find(
    files: &Files,
    root: &str,
    dir: &str,
    path: &str,
) -> Result<(String, FileText), String> {
    let (at, wanted) = start(root, dir, path);
    let (dirs, name) = match wanted.rsplit_once('/') {
        Some((dirs, name)) => (dirs.split('/').collect::<Vec<_>>(), name),
        None => (Vec::new(), wanted),
    };
    let dir = library(files, at, &dirs)
        .map_err(|e| format!("Expected to find file '{wanted}', but did not: {e}"))?;
    let full = format!("{dir}{name}");
    files
        .iter()
        .find(|(n, _)| *n == full)
        .cloned()
        .ok_or_else(|| {
            format!(
                "Expected to find file '{wanted}' (hint: only files included via -f flag are available)"
            )
        })
}

/// The files of the library `path` names from directory `dir` of the library rooted at `root`
/// (`data.list()`): its own files, then each of its libraries' in turn (in the order their
/// first file came), private ones left out; named relative to that library, with a leading
/// `/` when `path` has one.
pub fn list(files: &Files, root: &str, dir: &str, path: &str) -> Result<Vec<String>, String> {
    let (at, rest) = start(root, dir, path);
    let pieces: Vec<&str> = if rest.is_empty() {
        Vec::new()
    } else {
        rest.split('/').collect()
    };
    let dir = library(files, at, &pieces)?;
    let inside: Vec<&str> = files
        .iter()
        .filter_map(|(n, _)| n.strip_prefix(dir.as_str()))
        .collect();
    let mut out = Vec::new();
    listing(&inside, "", &mut out);
    let prefix = if path.starts_with('/') { "/" } else { "" };
    Ok(out.into_iter().map(|n| format!("{prefix}{n}")).collect())
}

fn listing(names: &[&str], parent: &str, out: &mut Vec<String>) {
    let mut children: Vec<&str> = Vec::new();
    for name in names {
        match name.split_once('/') {
            None => out.push(format!("{parent}{name}")),
            Some((child, _)) if child != PRIVATE && !children.contains(&child) => {
                children.push(child)
            }
            Some(_) => {}
        }
    }
    for child in children {
        let prefix = format!("{child}/");
        let below: Vec<&str> = names
            .iter()
            .filter_map(|n| n.strip_prefix(&prefix))
            .collect();
        listing(&below, &format!("{parent}{prefix}"), out);
    }
}
