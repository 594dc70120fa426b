//! End to end: `schemac build` makes a validator that answers exactly as `schemac check`,
//! concurrently, from its cache, reproducibly, and leaves no partial file behind.
//!
//! Every test shares one build cache, `schemac-cache` in cargo's target directory (beside the
//! `release` folder of the `schemac` under test), so that the runtime is compiled once; the
//! reproducibility test adds a second one, `schemac-cache-repro`. Schemas stay tiny. Tests
//! that must miss the cache put a nonce in a comment and remove their projects afterwards.

use std::io::{BufRead, BufReader};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Instant, SystemTime, UNIX_EPOCH};

fn target_dir() -> PathBuf {
    Path::new(env!("CARGO_BIN_EXE_schemac"))
        .parent()
        .and_then(Path::parent)
        .expect("target/release/schemac")
        .to_path_buf()
}

fn schemac_in(cache: &Path) -> Command {
    let mut c = Command::new(env!("CARGO_BIN_EXE_schemac"));
    c.env("SCHEMAC_CACHE_DIR", cache)
        .env_remove("SCHEMAC_RUNTIME_DIR");
    c
}

fn schemac() -> Command {
    schemac_in(&target_dir().join("schemac-cache"))
}

fn output(mut c: Command, dir: &Path) -> (i32, String, String) {
    let o = c.current_dir(dir).output().expect("runs");
    (
        o.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&o.stdout).into(),
        String::from_utf8_lossy(&o.stderr).into(),
    )
}

/// A fresh directory holding `files`.
fn dir_with(name: &str, files: &[(&str, &str)]) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("schemac-test-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    for (file, text) in files {
        std::fs::write(dir.join(file), text).unwrap();
    }
    dir
}

fn listing(dir: &Path) -> Vec<String> {
    let mut names: Vec<String> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into())
        .collect();
    names.sort();
    names
}

fn nonce() -> u128 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .unwrap()
        .as_nanos()
}

/// Removes the cache projects (and their binaries) that a build's progress names.
fn forget(progress: &str) {
    for project in progress
        .split_whitespace()
        .filter(|w| w.contains("/builds/"))
    {
        let project = Path::new(project.trim_end_matches(','));
        if project
            .parent()
            .and_then(Path::file_name)
            .is_none_or(|p| p != "builds")
        {
            continue;
        }
        if let Some(key) = project.file_name() {
            let release = target_dir().join("schemac-cache/target/release");
            let bin = format!("schemac-validator-{}", key.to_string_lossy());
            let _ = std::fs::remove_file(release.join(&bin));
            let crate_name = format!("{}-", bin.replace('-', "_"));
            for entry in std::fs::read_dir(release.join("deps"))
                .into_iter()
                .flatten()
                .flatten()
            {
                if entry.file_name().to_string_lossy().starts_with(&crate_name) {
                    let _ = std::fs::remove_file(entry.path());
                }
            }
        }
        let _ = std::fs::remove_dir_all(project);
    }
}

const SCHEMA: &str =
    "#@data/values-schema\n---\n#@schema/validation min=1\nreplicas: 1\nname: web\nports:\n- 80\n";

#[test]
fn a_built_validator_answers_as_check_does() {
    let dir = dir_with(
        "answers",
        &[
            ("schema.yml", SCHEMA),
            (
                "good.yml",
                "#@data/values\n---\nreplicas: 3\nports:\n- 443\n",
            ),
            ("bad.yml", "#@data/values\n---\nreplicas: 0\nname: 7\n"),
        ],
    );
    let mut build = schemac();
    build.args(["build", "schema.yml", "-o", "web-values"]);
    let (rc, _, err) = output(build, &dir);
    assert_eq!(rc, 0, "{err}");
    assert!(err.contains("schemac: built web-values"), "{err}");

    for values in ["good.yml", "bad.yml"] {
        let mut check = schemac();
        check.args(["check", "-f", "schema.yml", "-f", values]);
        let mut validator = Command::new(dir.join("web-values"));
        validator.args(["-f", values]);
        assert_eq!(output(validator, &dir), output(check, &dir), "{values}");
    }
    // ytt's flags: the validator parses and answers them as `schemac check` does.
    for args in [
        &["-f", "good.yml", "--bogus"][..],
        &["-f"],
        &["-xyz"],
        &["-f", "good.yml", "-o", "xml"],
        &["-f", "good.yml", "-o", "json,yaml"],
        &["-f", "good.yml", "extra"],
        &["--data-values-schema-inspect", "-o", "openapi-v3,json"],
        &["-f", "good.yml", "-s"],
    ] {
        let mut check = schemac();
        check.args(["check", "-f", "schema.yml"]).args(args);
        let mut validator = Command::new(dir.join("web-values"));
        validator.args(args);
        assert_eq!(output(validator, &dir), output(check, &dir), "{args:?}");
    }
    // Standard input closed (`<&-`, which `sh` does: `Command` only redirects it): both read
    // `-f -` as ytt does, `read /dev/stdin: bad file descriptor`.
    let closed = |program: &Path, args: &[&str]| {
        let mut c = Command::new("sh");
        c.arg("-c")
            .arg("exec \"$0\" \"$@\" <&-")
            .arg(program)
            .args(args);
        c.env("SCHEMAC_CACHE_DIR", target_dir().join("schemac-cache"));
        output(c, &dir)
    };
    let bin = Path::new(env!("CARGO_BIN_EXE_schemac"));
    let answer = closed(&dir.join("web-values"), &["-f", "-"]);
    assert_eq!(
        answer,
        (
            1,
            String::new(),
            "schemac: Error: read /dev/stdin: bad file descriptor\n".into()
        )
    );
    assert_eq!(
        answer,
        closed(bin, &["check", "-f", "schema.yml", "-f", "-"])
    );
    // A path to descriptor 0 is a missing entry of `/proc/PID/fd`, as ytt finds it.
    let answer = closed(&dir.join("web-values"), &["-f", "/dev/fd/0"]);
    assert_eq!(
        answer,
        (
            1,
            String::new(),
            "schemac: Error: Checking file '/dev/fd/0': lstat /dev/fd/0: no such file or directory\n"
                .into()
        )
    );
    assert_eq!(
        answer,
        closed(bin, &["check", "-f", "schema.yml", "-f", "/dev/fd/0"])
    );
    // A budget variable set to a bad value stops both before any work, with exit status 2.
    for (var, value) in [
        ("SCHEMAC_MAX_DEPTH", "abc"),
        ("SCHEMAC_STARLARK_MEMORY", "-1"),
    ] {
        let mut check = schemac();
        check
            .args(["check", "-f", "schema.yml", "-f", "good.yml"])
            .env(var, value);
        let mut validator = Command::new(dir.join("web-values"));
        validator.args(["-f", "good.yml"]).env(var, value);
        let (rc, out, err) = output(validator, &dir);
        assert_eq!((rc, out.as_str()), (2, ""), "{err}");
        assert!(
            err.starts_with(&format!(
                "schemac: Error: {var}: {value:?} is not a whole number"
            )),
            "{err}"
        );
        assert_eq!((rc, out, err), output(check, &dir), "{var}");
    }
    let mut help = Command::new(dir.join("web-values"));
    help.args(["-f", "good.yml", "--help"]);
    let (rc, out, _) = output(help, &dir);
    assert_eq!(rc, 0);
    assert!(
        out.contains("Usage: web-values [OPTIONS]") && out.contains("--data-values-file"),
        "{out}"
    );
    // `--version` alone is answered by the validator's `main` (it panicked, exit status 101).
    for args in [&[][..], &["--version"]] {
        let Ok(full) = std::fs::OpenOptions::new().write(true).open("/dev/full") else {
            break;
        };
        let o = Command::new(dir.join("web-values"))
            .args(args)
            .current_dir(&dir)
            .stdout(full)
            .output()
            .unwrap();
        let stderr = String::from_utf8_lossy(&o.stderr);
        assert_eq!(o.status.code(), Some(1), "{args:?}: {stderr}");
        assert!(
            stderr.starts_with("schemac: Error: writing to stdout"),
            "{args:?}: {stderr}"
        );
    }
    // `--version`: the sources' SHA-256 as `sha256sum` prints them, and their digest.
    let mut version = Command::new(dir.join("web-values"));
    version.arg("--version");
    let (rc, out, _) = output(version, &dir);
    assert_eq!(rc, 0);
    let lines: Vec<&str> = out.lines().collect();
    assert!(
        lines[0]
            .starts_with("web-values — data values validator for schema.yml, built by schemac "),
        "{out}"
    );
    assert!(
        lines[1].starts_with("schema sha256: ") && lines[1].len() == 15 + 64,
        "{out}"
    );
    assert!(
        lines[2].ends_with("  schema.yml") && lines[2].trim().len() == 64 + 2 + 10,
        "{out}"
    );
    assert!(
        lines[3].starts_with("built with rustc ") && lines[3].contains(" for "),
        "{out}"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

/// Keys that are Rust keywords or the same identifier once made one, and defaults Rust has
/// no literal for (`.nan`, `.inf`, `1e400`) or whose typed field cannot hold them (an int in
/// [2^63, 2^64)): the validator builds (it has no typed structs) and answers as `check` does.
const HOSTILE_SCHEMA: &str = "#@data/values-schema\n---\na-b: 1\na_b: 2\ntype: t\nself: true\n\
    Self: false\ncrate: 1.5\nr#x: 3\nFoo: 1\nfoo: 2\n\"\": empty\n\"1\": one\ntrue: bool\n\
    null: nul\n\"\u{1f389}\": party\n_: u\nr#self: 6\nnested:\n  type:\n    self: [1]\n\
    inf: .inf\nninf: -.inf\nnan: .nan\nnegz: -0.0\nbig: 1e400\nbigint: 123456789012345678901234567890\n\
    u64: 18446744073709551615\n";

#[test]
fn hostile_keys_and_defaults_build() {
    let dir = dir_with(
        "hostile",
        &[
            ("schema.yml", HOSTILE_SCHEMA),
            (
                "v.yml",
                "#@data/values\n---\nSelf: true\nu64: 5\nnan: 1\ninf: x\n",
            ),
        ],
    );
    let mut build = schemac();
    build.args(["build", "schema.yml", "-o", "hostile"]);
    let (rc, _, err) = output(build, &dir);
    assert_eq!(rc, 0, "{err}");
    for args in [
        &[][..],
        &["-o", "json"],
        &["-f", "v.yml"],
        &["--data-values-schema-inspect", "-o", "openapi-v3"],
        // `--strict` refuses the built-in schema (`.inf`) as ytt given it first would.
        &["-s"],
        &["-f", "v.yml", "--strict"],
    ] {
        let mut check = schemac();
        check.args(["check", "-f", "schema.yml"]).args(args);
        let mut validator = Command::new(dir.join("hostile"));
        validator.args(args);
        assert_eq!(output(validator, &dir), output(check, &dir), "{args:?}");
    }
    // An argument that is not UTF-8 is the flags' error, as in `check` (the validator's `main`
    // looked for `--version` with `std::env::args`, which panics on one).
    #[cfg(unix)]
    {
        use std::os::unix::ffi::OsStrExt;
        let bad = std::ffi::OsStr::from_bytes(b"\xff");
        let mut check = schemac();
        check.args(["check", "-f", "schema.yml"]).arg(bad);
        let mut validator = Command::new(dir.join("hostile"));
        validator.arg(bad);
        let answer = output(validator, &dir);
        assert_eq!(answer, output(check, &dir));
        assert_eq!(answer.0, 1, "{}", answer.2);
    }
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn schema_errors_stop_the_build_before_compiling() {
    let dir = dir_with(
        "bad",
        &[("schema.yml", "#@data/values-schema\n---\nlist: []\n")],
    );
    let mut build = schemac();
    build.args(["build", "schema.yml", "-o", "out"]);
    let (rc, _, err) = output(build, &dir);
    assert_eq!(rc, 1);
    assert!(
        err.contains("wrong number of items in array definition"),
        "{err}"
    );
    let mut gen = schemac();
    gen.args(["gen", "schema.yml", "-o", "out.rs"]);
    assert_eq!(output(gen, &dir).0, 1);
    assert_eq!(listing(&dir), ["schema.yml"]);
    let mut usage = schemac();
    usage.args(["build", "schema.yml"]);
    assert_eq!(output(usage, &dir).0, 2);
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn outputs_that_cannot_be_written_leave_nothing_behind() {
    let dir = dir_with("unwritable", &[("schema.yml", SCHEMA), ("file", "")]);
    for out in ["no/such/dir/out", "file/out"] {
        let mut build = schemac();
        build.args(["build", "schema.yml", "-o", out]);
        let (rc, _, err) = output(build, &dir);
        assert_eq!(rc, 1, "{err}");
        assert!(err.contains(&format!("cannot write {out}")), "{err}");
        assert!(!err.contains("compile:"), "nothing is compiled: {err}");
        let mut gen = schemac();
        gen.args(["gen", "schema.yml", "-o", &format!("{out}.rs")]);
        let (rc, _, err) = output(gen, &dir);
        assert_eq!(rc, 1, "{err}");
    }
    // A path that names no file: refused before anything is compiled (`-o ''` compiled, then
    // failed to rename).
    for out in ["", "file/.."] {
        for cmd in ["build", "gen"] {
            let mut c = schemac();
            c.args([cmd, "schema.yml", "-o", out]);
            let (rc, _, err) = output(c, &dir);
            assert_eq!(rc, 1, "{err}");
            assert!(err.contains("the path names no file"), "{err}");
            assert!(!err.contains("compile:"), "nothing is compiled: {err}");
        }
    }
    // A directory in the way of the output: the binary cannot replace it.
    std::fs::create_dir(dir.join("taken")).unwrap();
    let mut gen = schemac();
    gen.args(["gen", "schema.yml", "-o", "taken"]);
    assert_eq!(output(gen, &dir).0, 1);
    assert_eq!(listing(&dir), ["file", "schema.yml", "taken"]);
    assert_eq!(listing(&dir.join("taken")), Vec::<String>::new());
    // Something other than a file in the way (a FIFO, or a link to one; a device such as
    // `/dev/null`, which root's rename would replace with the binary): refused before anything
    // is compiled, and left as it was.
    #[cfg(unix)]
    {
        let fifo = dir.join("fifo");
        assert!(Command::new("mkfifo")
            .arg(&fifo)
            .status()
            .unwrap()
            .success());
        std::os::unix::fs::symlink("fifo", dir.join("link")).unwrap();
        for out in ["fifo", "link"] {
            for cmd in ["build", "gen"] {
                let mut c = schemac();
                c.args([cmd, "schema.yml", "-o", out]);
                let (rc, _, err) = output(c, &dir);
                assert_eq!(rc, 1, "{err}");
                assert!(err.contains(&format!("cannot write {out}")), "{err}");
                assert!(err.contains(": it is not a regular file"), "{err}");
                assert!(!err.contains("compile:"), "nothing is compiled: {err}");
            }
        }
        use std::os::unix::fs::FileTypeExt;
        assert!(std::fs::metadata(&fifo).unwrap().file_type().is_fifo());
        assert!(std::fs::symlink_metadata(dir.join("link"))
            .unwrap()
            .is_symlink());
    }
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn concurrent_builds_of_different_schemas_get_their_own_binaries() {
    let started = Instant::now();
    let n = nonce();
    let dirs: Vec<PathBuf> = (1..=4)
        .map(|i| {
            dir_with(
                &format!("concurrent{i}"),
                &[(
                    "schema.yml",
                    &format!("#@data/values-schema\n---\n#! {n}\nschema: {i}\n"),
                )],
            )
        })
        .collect();
    let children: Vec<_> = dirs
        .iter()
        .map(|dir| {
            let mut build = schemac();
            build
                .args(["build", "schema.yml", "-o", "values"])
                .current_dir(dir)
                .stdout(Stdio::null())
                .stderr(Stdio::piped());
            build.spawn().expect("runs")
        })
        .collect();
    for (i, (child, dir)) in children.into_iter().zip(&dirs).enumerate() {
        let out = child.wait_with_output().unwrap();
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(out.status.success(), "{err}");
        assert!(err.contains("compile: cache miss"), "{err}");
        let (rc, values, _) = output(Command::new(dir.join("values")), dir);
        assert_eq!(
            (rc, values.as_str()),
            (0, format!("schema: {}\n", i + 1).as_str()),
            "{err}"
        );
        forget(&err);
        let _ = std::fs::remove_dir_all(dir);
    }
    eprintln!(
        "four concurrent builds: {:.1}s",
        started.elapsed().as_secs_f64()
    );
}

#[test]
fn a_second_build_is_a_cache_hit_and_quiet_is_quiet() {
    let dir = dir_with(
        "cache",
        &[("schema.yml", "#@data/values-schema\n---\ncached: true\n")],
    );
    let mut first = schemac();
    first.args(["build", "schema.yml", "-o", "cached-values"]);
    let (rc, _, err) = output(first, &dir);
    assert_eq!(rc, 0, "{err}");
    for phase in [
        "schema: ",
        "generate: ",
        "runtime: ",
        "compile: ",
        "write: cached-values, ",
    ] {
        assert!(
            err.lines()
                .any(|l| l.starts_with(&format!("schemac: {phase}")) && l.ends_with("s)")),
            "{phase}: {err}"
        );
    }
    let mut second = schemac();
    second.args(["build", "schema.yml", "-o", "cached-values"]);
    let (rc, _, err) = output(second, &dir);
    assert_eq!(rc, 0, "{err}");
    assert!(
        err.contains("schemac: compile: cache hit") && err.contains("from the cache"),
        "{err}"
    );
    std::fs::remove_file(dir.join("cached-values")).unwrap();
    let mut quiet = schemac();
    quiet.args(["build", "--quiet", "schema.yml", "-o", "cached-values"]);
    assert_eq!(output(quiet, &dir), (0, String::new(), String::new()));
    assert_eq!(
        output(Command::new(dir.join("cached-values")), &dir).1,
        "cached: true\n"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn an_interrupted_build_leaves_nothing_behind() {
    let dir = dir_with(
        "interrupt",
        &[(
            "schema.yml",
            &format!("#@data/values-schema\n---\n#! {}\nstopped: true\n", nonce()),
        )],
    );
    let mut build = schemac();
    build
        .args(["build", "schema.yml", "-o", "stopped"])
        .current_dir(&dir)
        .stderr(Stdio::piped());
    let mut child = build.spawn().unwrap();
    let mut progress = String::new();
    let mut err = BufReader::new(child.stderr.take().unwrap());
    // The runtime phase is the last before cargo runs.
    while err.read_line(&mut progress).unwrap() > 0 && !progress.contains("schemac: runtime: ") {}
    Command::new("kill")
        .args(["-TERM", &child.id().to_string()])
        .status()
        .unwrap();
    let status = child.wait().unwrap();
    std::io::Read::read_to_string(&mut err, &mut progress).unwrap();
    let cache_builds = target_dir().join("schemac-cache/builds");
    match status.code() {
        Some(130) => {
            assert!(progress.contains("schemac: interrupted"), "{progress}");
            assert_eq!(listing(&dir), ["schema.yml"]);
        }
        // The build won the race: its output is whole.
        _ => assert_eq!(
            output(Command::new(dir.join("stopped")), &dir).1,
            "stopped: true\n",
            "{progress}"
        ),
    }
    let leftovers: Vec<String> = listing(&cache_builds)
        .into_iter()
        .filter(|n| n.contains("schemac-tmp"))
        .collect();
    assert!(leftovers.is_empty(), "{leftovers:?}");
    forget(&progress);
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_target_without_its_standard_library_says_how_to_add_it() {
    let sysroot = Command::new("rustc")
        .args(["--print", "sysroot"])
        .output()
        .unwrap();
    let sysroot = PathBuf::from(String::from_utf8_lossy(&sysroot.stdout).trim());
    let candidates = [
        "aarch64-unknown-linux-gnu",
        "riscv64gc-unknown-linux-gnu",
        "x86_64-unknown-freebsd",
    ];
    let Some(triple) = candidates
        .into_iter()
        .find(|t| !sysroot.join("lib/rustlib").join(t).exists())
    else {
        panic!("every candidate target is installed: name another in this test");
    };
    let dir = dir_with("target", &[("schema.yml", SCHEMA)]);
    let mut build = schemac();
    build.args(["build", "schema.yml", "-o", "cross", "--target", triple]);
    let (rc, _, err) = output(build, &dir);
    assert_eq!(rc, 1, "{err}");
    assert!(
        err.contains(&format!("run `rustup target add {triple}`")),
        "{err}"
    );
    let mut unknown = schemac();
    unknown.args([
        "build",
        "schema.yml",
        "-o",
        "cross",
        "--target",
        "no-such-target",
    ]);
    let (rc, _, err) = output(unknown, &dir);
    assert_eq!(rc, 1, "{err}");
    assert!(err.contains("unknown target `no-such-target`"), "{err}");
    assert_eq!(listing(&dir), ["schema.yml"]);
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn the_same_schema_builds_to_the_same_bytes_in_another_cache() {
    let started = Instant::now();
    let dir = dir_with(
        "repro",
        &[(
            "schema.yml",
            "#@data/values-schema\n---\nreproducible: true\n",
        )],
    );
    let sub = dir.join("other");
    std::fs::create_dir(&sub).unwrap();
    std::fs::copy(dir.join("schema.yml"), sub.join("schema.yml")).unwrap();
    let mut first = schemac();
    first.args(["build", "schema.yml", "-o", "repro-values"]);
    let (rc, _, err) = output(first, &dir);
    assert_eq!(rc, 0, "{err}");
    let mut second = schemac_in(&target_dir().join("schemac-cache-repro"));
    second.args(["build", "schema.yml", "-o", "repro-values"]);
    let (rc, _, err) = output(second, &sub);
    assert_eq!(rc, 0, "{err}");
    let (a, b) = (
        std::fs::read(dir.join("repro-values")).unwrap(),
        std::fs::read(sub.join("repro-values")).unwrap(),
    );
    assert!(a == b, "the two builds differ");
    eprintln!("reproducibility: {:.1}s", started.elapsed().as_secs_f64());
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn without_network_the_missing_crates_are_named() {
    let home = dir_with("cargo-home", &[]);
    let dir = dir_with(
        "offline",
        &[("schema.yml", "#@data/values-schema\n---\noffline: true\n")],
    );
    // A cache of its own (the runtime's sources are written there), an empty cargo home, and
    // a proxy that refuses connections.
    let mut build = schemac_in(&dir.join("cache"));
    build.args(["build", "schema.yml", "-o", "offline"]);
    build
        .env("CARGO_HOME", &home)
        .env("CARGO_HTTP_PROXY", "http://127.0.0.1:9")
        .env("CARGO_NET_RETRY", "0");
    let (rc, _, err) = output(build, &dir);
    assert_eq!(rc, 1, "{err}");
    assert!(
        err.contains("schemac: fetch: cargo's cache lacks crates the runtime needs ("),
        "{err}"
    );
    assert!(
        err.contains(
            "cargo could not download the crates the validator needs (not in cargo's cache: "
        ),
        "{err}"
    );
    assert!(
        err.contains("saphyr-parser 0.3.3") && err.contains("connect to the network once"),
        "{err}"
    );
    assert!(!dir.join("offline").exists());
    let _ = std::fs::remove_dir_all(&dir);
    let _ = std::fs::remove_dir_all(&home);
}

/// `cargo install` from a copy of the sources, the copy deleted, a validator built from
/// another directory: slow (it compiles schemac), so it runs when SCHEMAC_TEST_INSTALL=1
/// (`.ci/install-check` is the script).
#[test]
fn an_installed_schemac_needs_no_checkout() {
    if std::env::var_os("SCHEMAC_TEST_INSTALL").is_none() {
        eprintln!("skipped: set SCHEMAC_TEST_INSTALL=1 to run .ci/install-check");
        return;
    }
    let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("../.ci/install-check");
    let status = Command::new("bash").arg(script).status().unwrap();
    assert!(status.success());
}

/// Whether an ELF file asks for a dynamic loader (has a `PT_INTERP` program header).
fn has_interpreter(path: &Path) -> bool {
    let elf = std::fs::read(path).unwrap();
    assert_eq!(&elf[..4], b"\x7fELF", "{}", path.display());
    let word = |at: usize, n: usize| {
        let mut b = [0u8; 8];
        b[..n].copy_from_slice(&elf[at..at + n]);
        u64::from_le_bytes(b) as usize
    };
    let (phoff, phentsize, phnum) = (word(0x20, 8), word(0x36, 2), word(0x38, 2));
    (0..phnum).any(|i| word(phoff + i * phentsize, 4) == 3)
}

#[test]
fn the_c_library_is_linked_statically_where_glibc_allows_and_dynamically_on_request() {
    if !cfg!(all(
        target_os = "linux",
        target_env = "gnu",
        target_arch = "x86_64"
    )) {
        eprintln!("skipped: the link modes are checked on x86_64 Linux with glibc");
        return;
    }
    let libc_a = Command::new("cc")
        .arg("-print-file-name=libc.a")
        .output()
        .map(|o| PathBuf::from(String::from_utf8_lossy(&o.stdout).trim()))
        .unwrap_or_default();
    let dir = dir_with(
        "link",
        &[
            ("schema.yml", "#@data/values-schema\n---\nlinked: 1\n"),
            ("values.yml", "#@data/values\n---\nlinked: 2\n"),
        ],
    );
    let mut modes = vec![("dynamic", "dynamic-values")];
    if libc_a.is_absolute() && libc_a.is_file() {
        modes.push(("", "default-values"));
    } else {
        eprintln!("no libc.a: the default (static) build is not checked");
    }
    for (mode, out) in modes {
        let mut build = schemac();
        build.args(["build", "-q", "schema.yml", "-o", out]);
        if !mode.is_empty() {
            build.args(["--link", mode]);
        }
        let (rc, _, err) = output(build, &dir);
        assert_eq!(rc, 0, "{err}");
        let validator = dir.join(out);
        assert_eq!(has_interpreter(&validator), mode == "dynamic", "{out}");
        let mut run = Command::new(&validator);
        run.args(["-f", "values.yml"]);
        assert_eq!(output(run, &dir).1, "linked: 2\n", "{out}");
        let mut version = Command::new(&validator);
        version.arg("--version");
        let version = output(version, &dir).1;
        assert_eq!(
            version.contains(", static\n"),
            mode != "dynamic",
            "{version}"
        );
    }
    // Static linking is for native glibc builds only, and says so.
    let mut cross = schemac();
    cross.args([
        "build",
        "schema.yml",
        "-o",
        "cross",
        "--link",
        "static",
        "--target",
        "x86_64-unknown-linux-musl",
    ]);
    let (rc, _, err) = output(cross, &dir);
    assert_eq!(rc, 1, "{err}");
    assert!(
        err.contains("--link static is supported for native builds on Linux with glibc, not for x86_64-unknown-linux-musl"),
        "{err}"
    );
    let _ = std::fs::remove_dir_all(&dir);
}
