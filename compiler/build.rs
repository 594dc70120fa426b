//! Packs the runtime's sources into the `schemac` binary, so that `schemac build` needs no
//! checkout: `$OUT_DIR/runtime_files.rs` lists `runtime/Cargo.toml` and every file under
//! `runtime/src`, each as `include_str!` of its path, sorted by path, then the vendored
//! crates' manifests and sources (under `vendor/<crate>/`, where the runtime's copy holds them:
//! `vendor/README.md`).

use std::fmt::Write as _;
use std::path::{Path, PathBuf};

#[path = "src/standalone/static_libc.rs"]
mod static_libc;

/// The crates under `vendor/` that replace crates.io's (`[patch.crates-io]`, vendor/README.md).
#[path = "src/standalone/vendored_crates.rs"]
#[allow(dead_code)] // `STARLARK_CRATES` is the validators' manifests'.
mod vendored_crates;
use vendored_crates::VENDORED_CRATES;

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
    let vendor = manifest_dir.join("../vendor");
    let workspace = manifest_dir.join("../Cargo.toml");
    println!("cargo:rerun-if-changed={}", runtime.join("src").display());
    println!("cargo:rerun-if-changed={}", vendor.display());
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
    let mut folders: Vec<String> = std::fs::read_dir(&vendor)
        .unwrap_or_else(|e| panic!("cannot read {}: {e}", vendor.display()))
        .map(|e| e.expect("a directory entry").path())
        .filter(|p| p.join("Cargo.toml").is_file())
        .map(|p| {
            p.file_name()
                .expect("a name")
                .to_string_lossy()
                .into_owned()
        })
        .collect();
    folders.sort();
    let mut listed: Vec<&str> = VENDORED_CRATES.to_vec();
    listed.sort();
    assert_eq!(
        folders, listed,
        "vendor/'s crates and VENDORED_CRATES (src/standalone/vendored_crates.rs) must agree"
    );
    let mut vendored_files = Vec::new();
    for krate in VENDORED_CRATES {
        let dir = vendor.join(krate);
        let mut crate_files = vec![dir.join("Cargo.toml")];
        walk(&dir.join("src"), &mut crate_files);
        crate_files.sort();
        vendored_files.extend(crate_files);
    }
    let mut out = String::from(
        "/// The runtime's files (relative path, text), `Cargo.toml` first, then `src/` sorted, then\n\
         /// the vendored crates', under `vendor/<crate>/`.\n\
         pub const RUNTIME_FILES: &[(&str, &str)] = &[\n",
    );
    let runtime_rel = files
        .iter()
        .map(|f| f.strip_prefix(&runtime).expect("under runtime/"));
    let vendored_rel = vendored_files
        .iter()
        .map(|f| Path::new("vendor").join(f.strip_prefix(&vendor).expect("vendored")));
    let rels: Vec<PathBuf> = runtime_rel
        .map(Path::to_path_buf)
        .chain(vendored_rel)
        .collect();
    files.extend(vendored_files);
    for (file, rel) in files.iter().zip(&rels) {
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
        link_libc_statically(&out_dir);
        println!("cargo:rustc-link-arg-bin=schemac=-no-pie");
    }
}

/// glibc's archives, for a static link of `schemac`: the C library's (before glibc 2.34,
/// libutil, librt, libpthread and libdl were apart from libc), and libgcc's unwinder for
/// Rust's panics.
const STATIC_ARCHIVES: &[(&str, bool)] = &[
    ("libc.a", true),
    ("libm.a", true),
    ("libutil.a", false),
    ("librt.a", false),
    ("libpthread.a", false),
    ("libdl.a", false),
    ("libgcc_eh.a", true),
    ("libgcc.a", true),
];

/// The libraries the standard library asks the linker for (`-lgcc_s -lutil -lrt -lpthread
/// -lm -ldl -lc`, behind `-Bdynamic`).
const STD_LIBRARIES: &[&str] = &["gcc_s", "util", "rt", "pthread", "m", "dl", "c"];

/// Links `schemac` with glibc statically, as the validators it builds are (README, "Linking"):
/// no dynamic loader mapping and relocating libc, libm and libgcc_s at each start (0.29M of a
/// typical `schemac check` run's 1.40M instructions, BENCHMARKS.md "Twenty-sixth session").
/// rustc links the C library statically only under `-C target-feature=+crt-static`, which
/// cargo gives to every crate or none (proc-macros cannot be static), so this does it with link
/// arguments for the `schemac` binary alone: `-static` (the C start files for a static
/// program, no interpreter) and a search folder, first in the linker's search order, where each
/// library the standard library asks for is an archive (`libc.a`, ...) holding a linker
/// script that names glibc's and libgcc's archives: the linker takes an archive where it finds
/// no shared library in the same folder, so `-lc` finds the static C library even behind
/// `-Bdynamic`. The same archives `+crt-static` would link. Only for a native glibc build
/// whose C compiler finds the archives, and not under `SCHEMAC_LINK=dynamic`; otherwise
/// `schemac` links dynamically as before.
fn link_libc_statically(out_dir: &Path) {
    println!("cargo:rerun-if-env-changed=SCHEMAC_LINK");
    println!("cargo:rerun-if-env-changed=CC");
    let env = |name| std::env::var(name).unwrap_or_default();
    let native_glibc = env("CARGO_CFG_TARGET_ENV") == "gnu" && env("TARGET") == env("HOST");
    let crt_static = env("CARGO_CFG_TARGET_FEATURE")
        .split(',')
        .any(|f| f == "crt-static");
    if !native_glibc || crt_static || env("SCHEMAC_LINK") == "dynamic" {
        return;
    }
    let mut archives = Vec::new();
    for (name, required) in STATIC_ARCHIVES {
        match static_libc::archive(name) {
            Some(path) => archives.push(path),
            None if *required => return,
            None => {}
        }
    }
    let group = archives
        .iter()
        .map(|a| format!("{:?}", a.to_string_lossy()))
        .collect::<Vec<_>>()
        .join(" ");
    let dir = out_dir.join("static-libs");
    std::fs::create_dir_all(&dir).unwrap_or_else(|e| panic!("cannot make {}: {e}", dir.display()));
    for lib in STD_LIBRARIES {
        let path = dir.join(format!("lib{lib}.a"));
        std::fs::write(&path, format!("GROUP ( {group} )\n"))
            .unwrap_or_else(|e| panic!("cannot write {}: {e}", path.display()));
    }
    println!("cargo:rustc-link-arg-bin=schemac=-static");
    println!("cargo:rustc-link-arg-bin=schemac=-L{}", dir.display());
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
