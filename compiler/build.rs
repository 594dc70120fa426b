//! Packs the runtime's sources into the `schemac` binary, so that `schemac build` needs no
//! checkout: `$OUT_DIR/runtime_files.rs` lists `runtime/Cargo.toml` and every file under
//! `runtime/src`, each as `include_str!` of its path, sorted by path.

use std::fmt::Write as _;
use std::path::{Path, PathBuf};

fn walk(dir: &Path, files: &mut Vec<PathBuf>) {
    let entries =
        std::fs::read_dir(dir).unwrap_or_else(|e| panic!("cannot read {}: {e}", dir.display()));
    for entry in entries {
        let path = entry.expect("a directory entry").path();
        if path.is_dir() {
            walk(&path, files);
        } else if path.extension().is_some_and(|e| e == "rs") {
            files.push(path);
        }
    }
}

fn main() {
    let manifest_dir = PathBuf::from(
        std::env::var_os("CARGO_MANIFEST_DIR").expect("cargo sets CARGO_MANIFEST_DIR"),
    );
    let runtime = manifest_dir.join("../runtime");
    let workspace = manifest_dir.join("../Cargo.toml");
    println!("cargo:rerun-if-changed={}", runtime.join("src").display());
    println!(
        "cargo:rerun-if-changed={}",
        runtime.join("Cargo.toml").display()
    );
    println!("cargo:rerun-if-changed={}", workspace.display());
    println!(
        "cargo:rerun-if-changed={}",
        manifest_dir.join("src").display()
    );

    let mut files = vec![runtime.join("Cargo.toml")];
    walk(&runtime.join("src"), &mut files);
    files.sort();
    let mut out = String::from(
        "/// The runtime's files (relative path, text), `Cargo.toml` first, then `src/` sorted.\n\
         pub const RUNTIME_FILES: &[(&str, &str)] = &[\n",
    );
    for file in &files {
        let rel = file.strip_prefix(&runtime).expect("under runtime/");
        let rel = rel
            .components()
            .map(|c| c.as_os_str().to_string_lossy())
            .collect::<Vec<_>>()
            .join("/");
        let abs = file
            .canonicalize()
            .unwrap_or_else(|e| panic!("cannot read {}: {e}", file.display()));
        writeln!(
            out,
            "    ({rel:?}, include_str!({:?})),",
            abs.to_string_lossy()
        )
        .unwrap();
    }
    out.push_str("];\n\n/// The workspace manifest, whose `[workspace.package]` and `[workspace.dependencies]` the runtime's manifest inherits.\n");
    let ws = workspace.canonicalize().expect("the workspace Cargo.toml");
    writeln!(
        out,
        "pub const WORKSPACE_MANIFEST: &str = include_str!({:?});",
        ws.to_string_lossy()
    )
    .unwrap();
    let lock = manifest_dir
        .join("../Cargo.lock")
        .canonicalize()
        .expect("the workspace Cargo.lock");
    out.push_str("\n/// The lockfile the runtime was tested with.\n");
    writeln!(
        out,
        "pub const LOCKFILE: &str = include_str!({:?});",
        lock.to_string_lossy()
    )
    .unwrap();
    let out_dir = PathBuf::from(std::env::var_os("OUT_DIR").expect("cargo sets OUT_DIR"));
    write_build_id(&manifest_dir, &files, &lock, &out_dir);
    let dest = out_dir.join("runtime_files.rs");
    std::fs::write(&dest, out).unwrap_or_else(|e| panic!("cannot write {}: {e}", dest.display()));

    // On Linux, `schemac` is linked at a fixed address rather than as a position-independent
    // executable (as Go links ytt): the dynamic loader then has ~60,000 fewer relocations to
    // apply at each start, about a third of a small `schemac check` run's instructions.
    if std::env::var("CARGO_CFG_TARGET_OS").as_deref() == Ok("linux") {
        println!("cargo:rustc-link-arg-bin=schemac=-no-pie");
    }
}

/// `$OUT_DIR/build_id`: a digest of the sources the schema's lowering is made of (the
/// compiler's, the runtime's `files` and the lock file), which keys `schemac check`'s cache of
/// lowered schemas (`src/standalone/lowered_cache.rs`): a build from other sources keys its
/// entries otherwise. SipHash with fixed keys: the same sources give the same digest.
fn write_build_id(manifest_dir: &Path, runtime_files: &[PathBuf], lock: &Path, out_dir: &Path) {
    use std::hash::Hasher;
    let mut files = Vec::new();
    walk(&manifest_dir.join("src"), &mut files);
    files.sort();
    files.extend(runtime_files.iter().cloned());
    files.push(lock.to_path_buf());
    #[allow(deprecated)]
    let mut hash =
        std::hash::SipHasher::new_with_keys(0x7363_6865_6d61_6321, 0x6c6f_7765_7265_6431);
    for file in &files {
        let text =
            std::fs::read(file).unwrap_or_else(|e| panic!("cannot read {}: {e}", file.display()));
        let name = file
            .file_name()
            .map(|n| n.to_string_lossy())
            .unwrap_or_default();
        hash.write(name.as_bytes());
        hash.write_u64(text.len() as u64);
        hash.write(&text);
    }
    let id = format!("{:016x}", hash.finish());
    std::fs::write(out_dir.join("build_id"), id)
        .unwrap_or_else(|e| panic!("cannot write the build id: {e}"));
}
