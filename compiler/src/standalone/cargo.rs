//! The validator's cargo project and the cargo run that builds it.
//!
//! Each build key (a digest of everything that decides the binary) has its own project
//! directory in the cache, `builds/KEY`, whose package and binary are named after the key, so
//! that concurrent builds of different schemas never share a crate or an output file in the
//! shared target directory. The runtime is linked into the project directory (a symlink named
//! after the runtime's digest), so that cargo sees it at the same relative path in every
//! project and every cache: compiled once per cache, and no absolute path reaches the binary.

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

use super::runtime::Runtime;

/// The toolchain that cargo will use: `rustc -vV`, and the host triple in it.
pub struct Toolchain {
    pub version: String,
    pub host: String,
}

fn rustc() -> Command {
    Command::new(std::env::var_os("RUSTC").unwrap_or_else(|| "rustc".into()))
}

fn cargo() -> Command {
    Command::new(std::env::var_os("CARGO").unwrap_or_else(|| "cargo".into()))
}

fn run(mut cmd: Command, what: &str) -> Result<String, String> {
    let out = cmd.output().map_err(|e| {
        format!("cannot run {what}: {e}; schemac build needs a Rust toolchain (rustc and cargo)")
    })?;
    if !out.status.success() {
        return Err(format!(
            "{what} failed: {}",
            String::from_utf8_lossy(&out.stderr).trim()
        ));
    }
    Ok(String::from_utf8_lossy(&out.stdout).into_owned())
}

pub fn toolchain() -> Result<Toolchain, String> {
    let mut cmd = rustc();
    cmd.arg("-vV");
    let version = run(cmd, "rustc -vV")?;
    let host = version
        .lines()
        .find_map(|l| l.strip_prefix("host: "))
        .unwrap_or("unknown")
        .trim()
        .to_string();
    Ok(Toolchain { version, host })
}

/// Checks that rustc knows `triple` and that its standard library is installed.
pub fn check_target(triple: &str) -> Result<(), String> {
    let mut list = rustc();
    list.args(["--print", "target-list"]);
    if !run(list, "rustc --print target-list")?
        .lines()
        .any(|t| t == triple)
    {
        return Err(format!("unknown target `{triple}`: `rustc --print target-list` names the targets this toolchain knows"));
    }
    let mut sysroot = rustc();
    sysroot.args(["--print", "sysroot"]);
    let sysroot = PathBuf::from(run(sysroot, "rustc --print sysroot")?.trim());
    if !sysroot
        .join("lib/rustlib")
        .join(triple)
        .join("lib")
        .is_dir()
    {
        return Err(format!(
            "the Rust standard library for {triple} is not installed (not in {}): run `rustup target add {triple}`",
            sysroot.display()
        ));
    }
    Ok(())
}

/// The files of a validator project (relative path, text), and the runtime's folder name in it.
pub fn project_files(
    key: &str,
    runtime: &Runtime,
    starlark: bool,
    fast_alloc: bool,
    lib: &str,
    main: &str,
) -> (Vec<(String, String)>, String) {
    let runtime_link = format!("runtime-{}", &runtime.digest[..16]);
    let runtime_path = if cfg!(unix) && runtime.embedded {
        runtime_link.clone()
    } else {
        runtime.dir.to_string_lossy().into_owned()
    };
    let features = [(starlark, "\"starlark\""), (fast_alloc, "\"mimalloc\"")]
        .iter()
        .filter(|(on, _)| *on)
        .map(|(_, name)| *name)
        .collect::<Vec<_>>()
        .join(", ");
    let features = format!("[{features}]");
    // The vendored crates are the ones linked, as in schemac's own build: the YAML error
    // reader's, and the Starlark interpreter's parser and derive macros when it is linked.
    let vendor = match cfg!(unix) && runtime.embedded {
        true => format!("{runtime_link}/{}", super::runtime::VENDOR_DIR),
        false => runtime.vendor.to_string_lossy().into_owned(),
    };
    let lines: String = super::vendored_crates::VENDORED_CRATES
        .iter()
        .filter(|krate| starlark || !super::vendored_crates::STARLARK_CRATES.contains(krate))
        .map(|krate| format!("{krate} = {{ path = {:?} }}\n", format!("{vendor}/{krate}")))
        .collect();
    let patch = format!("[patch.crates-io]\n{lines}\n");
    let manifest = format!(
        "[package]\nname = \"schemac-validator-{key}\"\nversion = \"0.0.0\"\nedition = \"2021\"\npublish = false\n\n\
         [lib]\nname = \"schemac_validator\"\npath = \"src/lib.rs\"\n\n\
         [[bin]]\nname = \"schemac-validator-{key}\"\npath = \"src/main.rs\"\n\n\
         [dependencies]\nschemac-runtime = {{ path = {runtime_path:?}, default-features = false, features = {features} }}\n\n{patch}\
         [profile.release]\nstrip = true\n\n[workspace]\n"
    );
    let files = vec![
        ("Cargo.toml".to_string(), manifest),
        (
            "Cargo.lock".to_string(),
            super::runtime::LOCKFILE.to_string(),
        ),
        (
            "src/lib.rs".to_string(),
            format!("#![deny(warnings)]\n{lib}"),
        ),
        ("src/main.rs".to_string(), main.to_string()),
    ];
    (files, runtime_link)
}

/// Links the runtime into the project directory (see the module's documentation).
pub fn link_runtime(project: &Path, link: &str, runtime: &Runtime) -> Result<(), String> {
    if !(cfg!(unix) && runtime.embedded) {
        return Ok(());
    }
    let path = project.join(link);
    if std::fs::read_link(&path).is_ok_and(|t| t == runtime.dir) {
        return Ok(());
    }
    let _ = std::fs::remove_file(&path);
    #[cfg(unix)]
    std::os::unix::fs::symlink(&runtime.dir, &path)
        .map_err(|e| format!("cannot link {}: {e}", path.display()))?;
    Ok(())
}

/// Whether the C compiler finds glibc's static archive, which linking with `+crt-static` needs.
pub fn static_libc_found() -> bool {
    super::static_libc::archive("libc.a").is_some()
}

/// What a cargo build needs to know.
pub struct CargoBuild<'a> {
    pub project: &'a Path,
    pub target_dir: &'a Path,
    pub bin: &'a str,
    pub target: Option<&'a str>,
    /// The flags given to every rustc run (paths remapped, and the user's `RUSTFLAGS`).
    pub rustflags: Vec<String>,
    pub starlark: bool,
}

/// The user's rustc flags: `CARGO_ENCODED_RUSTFLAGS`, else `RUSTFLAGS`.
pub fn user_rustflags() -> Vec<String> {
    if let Some(f) = std::env::var_os("CARGO_ENCODED_RUSTFLAGS") {
        return f
            .to_string_lossy()
            .split('\x1f')
            .filter(|s| !s.is_empty())
            .map(String::from)
            .collect();
    }
    std::env::var("RUSTFLAGS")
        .map(|f| f.split_whitespace().map(String::from).collect())
        .unwrap_or_default()
}

/// Where cargo keeps the crates it downloaded.
fn cargo_home() -> Option<PathBuf> {
    std::env::var_os("CARGO_HOME")
        .map(PathBuf::from)
        .or_else(|| std::env::var_os("HOME").map(|h| PathBuf::from(h).join(".cargo")))
        .or_else(|| std::env::var_os("USERPROFILE").map(|h| PathBuf::from(h).join(".cargo")))
}

/// Flags that keep machine-specific paths out of the binary: cargo's download folder and the
/// cache (everything else is passed to rustc as relative paths).
pub fn remap_flags(cache: &Path) -> Vec<String> {
    let mut flags = Vec::new();
    if let Some(home) = cargo_home() {
        flags.push(format!("--remap-path-prefix={}=/cargo", home.display()));
    }
    flags.push(format!(
        "--remap-path-prefix={}=/schemac-cache",
        cache.display()
    ));
    flags
}

/// The C compiler's flags for the C code of dependencies (mimalloc): the user's `CFLAGS`, and
/// the paths that `rustflags` remaps remapped the same way, so that a build does not depend on
/// where the cache is.
fn c_flags(rustflags: &[String]) -> String {
    let mut flags: Vec<String> = std::env::var("CFLAGS").into_iter().collect();
    flags.extend(
        rustflags
            .iter()
            .filter_map(|f| f.strip_prefix("--remap-path-prefix="))
            .map(|map| format!("-ffile-prefix-map={map}")),
    );
    flags.join(" ")
}

/// How a cargo run went: whether crates had to be downloaded.
pub struct CargoRun {
    pub fetched: bool,
    pub artifact: PathBuf,
}

/// Builds the project: offline when cargo's cache holds every crate, else (saying so)
/// downloading the missing ones.
pub fn build(b: &CargoBuild, progress: &mut dyn FnMut(&str)) -> Result<CargoRun, String> {
    let attempt = |offline: bool| -> Result<(bool, String), String> {
        let mut cmd = cargo();
        cmd.args(["build", "--release", "--quiet", "--bin", b.bin]);
        if offline {
            cmd.arg("--offline");
        }
        if let Some(t) = b.target {
            cmd.args(["--target", t]);
        }
        cmd.current_dir(b.project)
            .env("CARGO_TARGET_DIR", b.target_dir)
            .env("CARGO_ENCODED_RUSTFLAGS", b.rustflags.join("\x1f"))
            .env("CFLAGS", c_flags(&b.rustflags))
            // mimalloc's C code holds `__DATE__` and `__TIME__`: GCC and Clang take them from
            // here, so that two builds of one schema are the same bytes.
            .env(
                "SOURCE_DATE_EPOCH",
                std::env::var("SOURCE_DATE_EPOCH").unwrap_or_else(|_| "0".into()),
            )
            .env_remove("RUSTFLAGS");
        cmd.stdout(Stdio::null()).stderr(Stdio::piped());
        // cargo and the rustc processes it starts in a process group of their own, which the
        // interrupt handler stops whole (cargo stopped alone leaves its rustc running).
        #[cfg(unix)]
        std::os::unix::process::CommandExt::process_group(&mut cmd, 0);
        let child = cmd
            .spawn()
            .map_err(|e| format!("cannot run cargo: {e}; schemac build needs a Rust toolchain"))?;
        super::files::CHILD.store(child.id(), std::sync::atomic::Ordering::SeqCst);
        let out = child.wait_with_output();
        super::files::CHILD.store(0, std::sync::atomic::Ordering::SeqCst);
        super::files::yield_to_interrupt();
        let out = out.map_err(|e| format!("cannot run cargo: {e}"))?;
        Ok((
            out.status.success(),
            String::from_utf8_lossy(&out.stderr).into_owned(),
        ))
    };
    let (ok, messages) = attempt(true)?;
    let fetched = !ok && messages.contains("offline");
    if fetched {
        let missing = missing_crates(b.starlark);
        progress(&format!(
            "fetch: cargo's cache lacks crates the runtime needs{}; downloading them from crates.io",
            if missing.is_empty() { String::new() } else { format!(" ({})", missing.join(", ")) }
        ));
        let (ok, messages) = attempt(false)?;
        if !ok {
            return Err(format!(
                "cargo could not download the crates the validator needs{}:\n{}\nconnect to the network once, or build once where it is reachable and copy cargo's cache ({})",
                if missing.is_empty() { String::new() } else { format!(" (not in cargo's cache: {})", missing.join(", ")) },
                messages.trim(),
                cargo_home().map(|h| h.join("registry").display().to_string()).unwrap_or_else(|| "~/.cargo/registry".into())
            ));
        }
        eprint!("{messages}");
    } else if !ok {
        return Err(format!(
            "cargo failed to build the validator:\n{}",
            messages.trim_end()
        ));
    } else {
        eprint!("{messages}");
    }
    let mut artifact = b.target_dir.to_path_buf();
    if let Some(t) = b.target {
        artifact.push(t);
    }
    let exe = if b.target.map_or(cfg!(windows), |t| t.contains("windows")) {
        ".exe"
    } else {
        ""
    };
    artifact.push("release");
    artifact.push(format!("{}{exe}", b.bin));
    Ok(CargoRun { fetched, artifact })
}

/// The registry crates the runtime may need (from the pinned lockfile) that are not in
/// cargo's download cache.
pub fn missing_crates(starlark: bool) -> Vec<String> {
    let packages = lock_packages(super::runtime::LOCKFILE);
    let optional = [
        "starlark",
        "starlark_derive",
        "allocative",
        "anyhow",
        "serde",
    ];
    let mut todo: Vec<String> = packages
        .iter()
        .find(|p| p.name == "schemac-runtime")
        .map(|p| {
            p.deps
                .iter()
                .filter(|d| starlark || !optional.contains(&d.split(' ').next().unwrap_or("")))
                .cloned()
                .collect()
        })
        .unwrap_or_default();
    let mut seen = std::collections::BTreeSet::new();
    while let Some(dep) = todo.pop() {
        let mut words = dep.split(' ');
        let name = words.next().unwrap_or("");
        let version = words.next();
        let Some(p) = packages
            .iter()
            .find(|p| p.name == name && version.is_none_or(|v| v == p.version))
        else {
            continue;
        };
        if seen.insert((p.name.clone(), p.version.clone())) {
            todo.extend(p.deps.iter().cloned());
        }
    }
    let caches: Vec<PathBuf> = cargo_home()
        .and_then(|h| std::fs::read_dir(h.join("registry/cache")).ok())
        .map(|dirs| dirs.filter_map(|d| d.ok().map(|d| d.path())).collect())
        .unwrap_or_default();
    seen.into_iter()
        .filter(|(n, v)| {
            packages
                .iter()
                .any(|p| &p.name == n && &p.version == v && p.registry)
        })
        .filter(|(n, v)| {
            !caches
                .iter()
                .any(|c| c.join(format!("{n}-{v}.crate")).exists())
        })
        .map(|(n, v)| format!("{n} {v}"))
        .collect()
}

struct LockPackage {
    name: String,
    version: String,
    registry: bool,
    deps: Vec<String>,
}

/// The `[[package]]` entries of a `Cargo.lock`.
fn lock_packages(lock: &str) -> Vec<LockPackage> {
    let mut packages: Vec<LockPackage> = Vec::new();
    let mut in_deps = false;
    let unquote = |s: &str| s.trim().trim_end_matches(',').trim_matches('"').to_string();
    for line in lock.lines() {
        if line == "[[package]]" {
            packages.push(LockPackage {
                name: String::new(),
                version: String::new(),
                registry: false,
                deps: Vec::new(),
            });
            in_deps = false;
        } else if let Some(p) = packages.last_mut() {
            if in_deps {
                if line.starts_with(']') {
                    in_deps = false;
                } else {
                    p.deps.push(unquote(line));
                }
            } else if let Some(v) = line.strip_prefix("name = ") {
                p.name = unquote(v);
            } else if let Some(v) = line.strip_prefix("version = ") {
                p.version = unquote(v);
            } else if line.starts_with("source = \"registry+") {
                p.registry = true;
            } else if line.starts_with("dependencies = [") {
                in_deps = true;
            }
        }
    }
    packages
}

#[cfg(test)]
mod tests {
    #[test]
    fn the_runtime_crates_come_from_the_lockfile() {
        let all = super::lock_packages(super::super::runtime::LOCKFILE);
        let runtime = all
            .iter()
            .find(|p| p.name == "schemac-runtime")
            .expect("the runtime is locked");
        assert!(
            runtime.deps.iter().any(|d| d.starts_with("regex")),
            "{:?}",
            runtime.deps
        );
        assert!(all.iter().any(|p| p.name == "regex" && p.registry));
    }
}
