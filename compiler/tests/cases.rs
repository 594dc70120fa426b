//! The project's own corpus (`tests/cases/<group>/<case>/`): inputs with ytt's answer recorded
//! by `tests/cases/record`, replayed through `schemac check`. stdout and the exit status must be
//! identical; stderr too, with ytt's `ytt: ` prefix read as `schemac: `. Cases listed in
//! `tests/xfail-cases.txt` (with a reason) must still differ. A case with an `unreadable` file
//! runs with the paths it lists made unreadable, as a user other than root when the tests run
//! as root (skipped with a message when that cannot be done). A case's `stdin` file is its
//! standard input. A case with a `cpu` file (`avx2 fma`) is skipped with a message on a
//! processor without those features (see [`missing_cpu_features`]).

use std::path::{Path, PathBuf};
use std::process::Command;

fn corpus() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../tests/cases")
}

fn cases() -> Vec<PathBuf> {
    let mut out = Vec::new();
    for group in std::fs::read_dir(corpus()).unwrap().flatten() {
        if !group.path().is_dir() {
            continue;
        }
        for case in std::fs::read_dir(group.path()).unwrap().flatten() {
            if case.path().join("args").exists() || case.path().join("argv0").exists() {
                out.push(case.path());
            }
        }
    }
    out.sort();
    out
}

fn read(path: &Path) -> Vec<u8> {
    std::fs::read(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

/// What differs between schemac's run of `case` and ytt's recorded one, if anything.
fn run(case: &Path) -> Option<String> {
    // `args` holds one argument a line; `argv0` separates them by NUL bytes instead, for an
    // argument that holds a newline (and `env0` the environment's `K=V` entries).
    let (args_file, separator) = match case.join("argv0").exists() {
        true => ("argv0", '\0'),
        false => ("args", '\n'),
    };
    let args: Vec<String> = String::from_utf8(read(&case.join(args_file)))
        .unwrap()
        .split(separator)
        .filter(|a| !a.is_empty() && *a != "--data-values-inspect")
        .map(str::to_string)
        .collect();
    let _locked = Unreadable::lock(case);
    let mut cmd = Command::new(UNPRIVILEGED[0]);
    let drop_root = is_root() && case.join("unreadable").exists();
    if drop_root {
        cmd.args(&UNPRIVILEGED[1..])
            .arg(env!("CARGO_BIN_EXE_schemac"));
    } else {
        cmd = Command::new(env!("CARGO_BIN_EXE_schemac"));
    }
    cmd.arg("check")
        .args(&args)
        .current_dir(case)
        .env_clear()
        .env("PATH", std::env::var_os("PATH").unwrap_or_default());
    let env = std::fs::read_to_string(case.join("env"))
        .map(|env| env.lines().map(str::to_string).collect::<Vec<_>>())
        .or_else(|_| {
            std::fs::read_to_string(case.join("env0"))
                .map(|env| env.split('\0').map(str::to_string).collect())
        });
    if let Ok(env) = env {
        for line in env {
            if let Some((k, v)) = line.split_once('=') {
                cmd.env(k, v);
            }
        }
    }
    // A case's `stdin` file is its standard input (`-f -`); nothing otherwise.
    let stdin = std::fs::File::open(case.join("stdin"))
        .map_or_else(|_| std::process::Stdio::null(), std::process::Stdio::from);
    let out = cmd.stdin(stdin).output().unwrap();
    let expected_rc: i32 = String::from_utf8(read(&case.join("expected.rc")))
        .unwrap()
        .trim()
        .parse()
        .unwrap();
    let expected_err = String::from_utf8_lossy(&read(&case.join("expected.stderr"))).replacen(
        "ytt: ",
        "schemac: ",
        1,
    );
    let mut diffs = Vec::new();
    if out.status.code() != Some(expected_rc) {
        diffs.push(format!("exit {:?}, ytt {expected_rc}", out.status.code()));
    }
    if out.stdout != read(&case.join("expected.stdout")) {
        diffs.push(format!("stdout:\n{}", String::from_utf8_lossy(&out.stdout)));
    }
    if String::from_utf8_lossy(&out.stderr) != expected_err {
        diffs.push(format!(
            "stderr:\n{}\nytt's:\n{expected_err}",
            String::from_utf8_lossy(&out.stderr)
        ));
    }
    (!diffs.is_empty()).then(|| diffs.join("\n"))
}

/// `setpriv` and its arguments: the command after them runs as `nobody` (uid and gid 65534),
/// as `tests/cases/record` runs the oracle for such a case.
const UNPRIVILEGED: [&str; 4] = [
    "setpriv",
    "--reuid=65534",
    "--regid=65534",
    "--clear-groups",
];

/// Whether the tests run as root (`/proc/self` belongs to the process's user).
fn is_root() -> bool {
    use std::os::unix::fs::MetadataExt;
    std::fs::metadata("/proc/self").is_ok_and(|m| m.uid() == 0)
}

/// Why the `unreadable` case `case` cannot run here, if it cannot: as root, a file without
/// permissions is still read, so schemac must run as another user, who must reach it.
fn cannot_drop_root(case: &Path) -> Option<String> {
    if !case.join("unreadable").exists() || !is_root() {
        return None;
    }
    let probe = Command::new(UNPRIVILEGED[0])
        .args(&UNPRIVILEGED[1..])
        .args([
            "test",
            "-x",
            env!("CARGO_BIN_EXE_schemac"),
            "-a",
            "-r",
            "args",
        ])
        .current_dir(case)
        .status();
    match probe {
        Err(e) => Some(format!("setpriv is not available ({e})")),
        Ok(s) if !s.success() => Some("uid 65534 cannot reach schemac or the case".into()),
        Ok(_) => None,
    }
}

/// Why `case` cannot run here, if it cannot: its `cpu` file names the processor features
/// ytt's recorded answer depended on (`@ytt:math`'s `exp` fuses multiply-adds on a processor
/// with `avx2` and `fma`, as Go chooses at run time, and schemac follows it), and this
/// processor lacks one.
fn missing_cpu_features(case: &Path) -> Option<String> {
    let wanted = std::fs::read_to_string(case.join("cpu")).ok()?;
    let has = |feature: &str| -> bool {
        #[cfg(target_arch = "x86_64")]
        {
            match feature {
                "avx2" => std::arch::is_x86_feature_detected!("avx2"),
                "fma" => std::arch::is_x86_feature_detected!("fma"),
                _ => false,
            }
        }
        #[cfg(not(target_arch = "x86_64"))]
        {
            let _ = feature;
            false
        }
    };
    let missing: Vec<&str> = wanted.split_whitespace().filter(|f| !has(f)).collect();
    (!missing.is_empty()).then(|| {
        format!(
            "ytt's recorded answer needs processor features this one lacks: {}",
            missing.join(" ")
        )
    })
}

/// The paths of a case's `unreadable` file without permissions while it lives; they get the
/// usual ones back (0644 for a file, 0755 for a directory) when it is dropped.
struct Unreadable(Vec<PathBuf>);

impl Unreadable {
    fn lock(case: &Path) -> Unreadable {
        use std::os::unix::fs::PermissionsExt;
        let list = std::fs::read_to_string(case.join("unreadable")).unwrap_or_default();
        let paths: Vec<PathBuf> = list.lines().map(|l| case.join(l)).collect();
        for p in &paths {
            std::fs::set_permissions(p, std::fs::Permissions::from_mode(0o000)).unwrap();
        }
        Unreadable(paths)
    }
}

impl Drop for Unreadable {
    fn drop(&mut self) {
        use std::os::unix::fs::PermissionsExt;
        for p in self.0.iter().rev() {
            let mode = if p.is_dir() { 0o755 } else { 0o644 };
            let _ = std::fs::set_permissions(p, std::fs::Permissions::from_mode(mode));
        }
    }
}

#[test]
fn own_corpus_agrees_with_recorded_ytt() {
    let xfail_text =
        std::fs::read_to_string(corpus().join("../xfail-cases.txt")).unwrap_or_default();
    let xfail: Vec<&str> = xfail_text
        .lines()
        .filter_map(|l| l.split_whitespace().next())
        .collect();
    let mut failures = Vec::new();
    let mut count = 0;
    for case in cases() {
        count += 1;
        let id = case
            .strip_prefix(corpus())
            .unwrap()
            .to_string_lossy()
            .to_string();
        if let Some(reason) = cannot_drop_root(&case).or_else(|| missing_cpu_features(&case)) {
            eprintln!("{id}: skipped: {reason}");
            continue;
        }
        match (run(&case), xfail.contains(&id.as_str())) {
            (Some(diff), false) => failures.push(format!("{id}: {diff}")),
            (None, true) => failures.push(format!(
                "{id}: listed in xfail-cases.txt but now agrees with ytt"
            )),
            _ => {}
        }
    }
    assert!(count > 0, "no cases found under {}", corpus().display());
    assert!(
        failures.is_empty(),
        "{} of {count} cases differ:\n\n{}",
        failures.len(),
        failures.join("\n\n")
    );
}
