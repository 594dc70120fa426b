//! The `schemac` command line, run as a process.
//!
//! `cli/ytt-flags.txt` holds cases of `schemac check` that mirror ytt: arguments, environment
//! and what ytt answered (recorded by running the oracle, never written by hand). Regenerate
//! it after adding a case with `SCHEMAC_RECORD=1 cargo test --release -p schemac --test cli`
//! (it needs `../shared/oracle/ytt`; without it the recorded answers are used as they are).
//! `cli/help/*.txt` are schemac's own help texts: regenerate them with
//! `SCHEMAC_BLESS=1 cargo test --release -p schemac --test cli`.
#![cfg(unix)]

use std::ffi::OsString;
use std::io::Read;
use std::os::unix::ffi::OsStringExt;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

const BIN: &str = env!("CARGO_BIN_EXE_schemac");

fn here(rel: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join(rel)
}

/// A directory with the files the cases name.
fn workdir() -> PathBuf {
    static ONCE: std::sync::OnceLock<PathBuf> = std::sync::OnceLock::new();
    ONCE.get_or_init(|| {
        let dir = std::env::temp_dir().join(format!("schemac-cli-test-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        let files = [
            (
                "schema.yml",
                "#@data/values-schema\n---\nname: \"\"\nport: 8080\na:\n  b: \"\"\n",
            ),
            ("values.yml", "#@data/values\n---\nname: hi\n"),
            (
                "bad-schema.yml",
                "#@data/values-schema\n---\n#@schema/nullable foo=1\nname: \"\"\n",
            ),
            ("missing-key.yml", "#@data/values\n---\nnokey: 1\n"),
            (
                "any.yml",
                "#@data/values-schema\n#@schema/type any=True\n---\n",
            ),
        ];
        for (name, text) in files {
            std::fs::write(dir.join(name), text).unwrap();
        }
        let mut big = String::from("#@data/values-schema\n---\n");
        for i in 0..30000 {
            big.push_str(&format!("key{i}: \"value {i}\"\n"));
        }
        std::fs::write(dir.join("big.yml"), big).unwrap();
        dir
    })
    .clone()
}

/// `\xNN` → that byte, `\s` → a space, `''` → the empty argument.
fn unescape(word: &str) -> OsString {
    if word == "''" {
        return OsString::new();
    }
    let (mut out, b) = (Vec::new(), word.as_bytes());
    let mut i = 0;
    while i < b.len() {
        match (b[i], b.get(i + 1)) {
            (b'\\', Some(b'x')) => {
                out.push(u8::from_str_radix(&word[i + 2..i + 4], 16).unwrap());
                i += 4;
            }
            (b'\\', Some(b's')) => {
                out.push(b' ');
                i += 2;
            }
            (c, _) => {
                out.push(c);
                i += 1;
            }
        }
    }
    OsString::from_vec(out)
}

struct Answer {
    rc: i32,
    stdout: String,
    stderr: String,
}

fn run(program: &str, check: bool, args: &str, env: &str) -> Answer {
    // `env -i` sets the variables in the order given (`Command::env` would sort them).
    let mut c = Command::new("env");
    c.arg("-i")
        .args(env.split_whitespace().map(unescape))
        .arg(program);
    if check {
        c.arg("check");
    }
    c.args(args.split_whitespace().map(unescape))
        .current_dir(workdir())
        .stdin(Stdio::null());
    let o = c.output().expect("runs");
    Answer {
        rc: o.status.code().unwrap_or(-1),
        stdout: String::from_utf8_lossy(&o.stdout).into(),
        stderr: String::from_utf8_lossy(&o.stderr).into(),
    }
}

/// Text as the case file keeps it: `|` before every line, a last line saying when the text
/// does not end with a newline.
fn quote(text: &str) -> String {
    let mut out: String = text
        .split_inclusive('\n')
        .map(|l| format!("|{}", l))
        .collect();
    if !text.is_empty() && !text.ends_with('\n') {
        out.push_str("\n\\ no newline\n");
    }
    out
}

fn unquote(lines: &[&str]) -> String {
    let mut out = String::new();
    for l in lines {
        match l.strip_prefix('|') {
            Some(text) => {
                out.push_str(text);
                out.push('\n');
            }
            None => {
                out.pop();
            }
        }
    }
    out
}

struct Case {
    name: String,
    args: String,
    env: String,
    /// Why schemac still answers differently (a known difference, outside the command line).
    xfail: String,
    expected: Option<Answer>,
}

fn read_cases(text: &str) -> Vec<Case> {
    let mut cases = Vec::new();
    for block in text.split("\n=== ").skip(1) {
        let lines: Vec<&str> = block.lines().collect();
        let field = |key: &str| {
            lines[1..]
                .iter()
                .find_map(|l| l.strip_prefix(key))
                .unwrap_or("")
                .trim()
                .to_string()
        };
        let section = |from: &str, to: &str| {
            let start = lines.iter().position(|l| *l == from).map(|i| i + 1);
            let end = lines.iter().position(|l| *l == to).unwrap_or(lines.len());
            start.map(|s| unquote(&lines[s..end.max(s)]))
        };
        let expected = field("rc:").parse().ok().map(|rc| Answer {
            rc,
            stdout: section("--- stdout", "--- stderr").unwrap_or_default(),
            stderr: section("--- stderr", "").unwrap_or_default(),
        });
        cases.push(Case {
            name: lines[0].to_string(),
            args: field("args:"),
            env: field("env:"),
            xfail: field("xfail:"),
            expected,
        });
    }
    cases
}

fn oracle() -> Option<PathBuf> {
    let p = here("../../shared/oracle/ytt");
    p.exists().then_some(p)
}

#[test]
fn check_answers_flags_as_ytt_does() {
    let path = here("tests/cli/ytt-flags.txt");
    let text = std::fs::read_to_string(&path).unwrap();
    let mut cases = read_cases(&text);
    if std::env::var_os("SCHEMAC_RECORD").is_some() {
        let ytt = oracle().expect("SCHEMAC_RECORD needs the oracle at ../shared/oracle/ytt");
        let mut out = text.split("\n=== ").next().unwrap().to_string();
        for case in &mut cases {
            let a = run(ytt.to_str().unwrap(), false, &case.args, &case.env);
            out.push_str(&format!("\n=== {}\nargs: {}\n", case.name, case.args));
            if !case.env.is_empty() {
                out.push_str(&format!("env: {}\n", case.env));
            }
            if !case.xfail.is_empty() {
                out.push_str(&format!("xfail: {}\n", case.xfail));
            }
            out.push_str(&format!(
                "rc: {}\n--- stdout\n{}--- stderr\n{}",
                a.rc,
                quote(&a.stdout),
                quote(&a.stderr)
            ));
            case.expected = Some(a);
        }
        std::fs::write(&path, out).unwrap();
    }
    let mut failures = Vec::new();
    for case in &cases {
        let expected = case
            .expected
            .as_ref()
            .unwrap_or_else(|| panic!("{}: not recorded (SCHEMAC_RECORD=1)", case.name));
        let got = run(BIN, true, &case.args, &case.env);
        let stderr = got.stderr.replace("schemac: ", "ytt: ");
        let same =
            (got.rc, &got.stdout, &stderr) == (expected.rc, &expected.stdout, &expected.stderr);
        if same && !case.xfail.is_empty() {
            failures.push(format!(
                "{}: listed as a known difference ({}) but answers as ytt: remove the xfail line",
                case.name, case.xfail
            ));
        }
        if !same && case.xfail.is_empty() {
            failures.push(format!(
                "{} (check {}):\n  expected rc {} stdout {:?} stderr {:?}\n  got      rc {} stdout {:?} stderr {:?}",
                case.name, case.args, expected.rc, expected.stdout, expected.stderr, got.rc, got.stdout, stderr
            ));
        }
    }
    assert!(
        failures.is_empty(),
        "{} of {} cases differ from ytt:\n{}",
        failures.len(),
        cases.len(),
        failures.join("\n")
    );
}

#[test]
fn help_texts() {
    let bless = std::env::var_os("SCHEMAC_BLESS").is_some();
    for (name, args) in [
        ("schemac", "--help"),
        ("check", "check --help"),
        ("gen", "gen --help"),
        ("build", "build --help"),
        ("explain-rules", "explain-rules --help"),
        ("inspect", "inspect --help"),
        ("completions", "completions --help"),
    ] {
        let a = run(BIN, false, args, "");
        assert_eq!((a.rc, a.stderr.as_str()), (0, ""), "{args}");
        let golden = here(&format!("tests/cli/help/{name}.txt"));
        if bless {
            std::fs::create_dir_all(golden.parent().unwrap()).unwrap();
            std::fs::write(&golden, &a.stdout).unwrap();
        }
        let expected = std::fs::read_to_string(&golden).unwrap_or_default();
        assert_eq!(
            a.stdout,
            expected,
            "{args}: help differs from {} (SCHEMAC_BLESS=1 to update)",
            golden.display()
        );
    }
    assert_eq!(
        run(BIN, true, "-h", "").stdout,
        run(BIN, true, "--help", "").stdout
    );
    let version = run(BIN, true, "-f schema.yml --version", "");
    assert_eq!(
        (version.rc, version.stdout),
        (0, format!("schemac {}\n", env!("CARGO_PKG_VERSION")))
    );
}

#[test]
fn schemac_commands_follow_clap_conventions() {
    for (args, needle) in [
        ("gen --bogus schema.yml", "unexpected argument '--bogus'"),
        ("gen", "no schema files given"),
        // (the subcommand's usage names schemac: it said `Usage: inspect ...`)
        ("inspect -o html", "Usage: schemac inspect "),
        ("build schema.yml", "--output <FILE>"),
        ("completions nosuch", "invalid value 'nosuch'"),
        ("nosuch", "unrecognized subcommand 'nosuch'"),
    ] {
        let a = run(BIN, false, args, "");
        assert_eq!(a.rc, 2, "{args}: {}", a.stderr);
        assert!(
            a.stderr.contains(needle) && a.stderr.contains("--help"),
            "{args}: {}",
            a.stderr
        );
    }
    for shell in ["bash", "zsh", "fish", "elvish", "powershell"] {
        let a = run(BIN, false, &format!("completions {shell}"), "");
        assert_eq!(a.rc, 0, "{shell}");
        assert!(
            a.stdout.contains("data-values-file") && a.stdout.contains("explain-rules"),
            "{shell}"
        );
    }
    let a = run(BIN, false, "gen -f schema.yml", "");
    assert_eq!(a.rc, 0, "{}", a.stderr);
}

#[test]
fn flags_schemac_does_not_implement() {
    let a = run(
        BIN,
        true,
        "-f schema.yml --file-mark schema.yml:type=data",
        "",
    );
    assert_eq!(a.rc, 1);
    assert_eq!(a.stderr, "schemac: Error: flag --file-mark is not supported by schemac (it can change the files and the data values)\n");
    let a = run(BIN, true, "-f schema.yml --files-inspect", "");
    assert_eq!((a.rc, a.stdout.as_str()), (1, ""));
    assert!(
        a.stderr.contains("flag --files-inspect is not supported"),
        "{}",
        a.stderr
    );
    // Switched off, they change nothing.
    assert_eq!(
        run(
            BIN,
            true,
            "-f schema.yml --files-inspect=false --bulk-out=false",
            ""
        )
        .rc,
        0
    );
    let a = run(BIN, true, "-f schema.yml -o pos", "");
    assert_eq!(
        a.stderr,
        "schemac: Error: output type 'pos' is not supported by schemac (use yaml or json)\n"
    );
    // ytt renders the templates when data values are not inspected (the last use wins); an
    // inspection of the schema needs no data values inspection.
    for args in [
        "-f schema.yml --data-values-inspect=false",
        "-f schema.yml --data-values-inspect --data-values-inspect=false",
    ] {
        let a = run(BIN, true, args, "");
        assert_eq!((a.rc, a.stdout.as_str()), (1, ""), "{args}");
        assert_eq!(a.stderr, "schemac: Error: flag --data-values-inspect=false is not supported by schemac (ytt then renders the templates; schemac prints data values only)\n", "{args}");
    }
    for args in [
        "-f schema.yml --data-values-inspect=false --data-values-inspect",
        "-f schema.yml --data-values-inspect=false --data-values-schema-inspect -o openapi-v3",
    ] {
        assert_eq!(run(BIN, true, args, "").rc, 0, "{args}");
    }
}

#[test]
fn arguments_and_environments_that_are_not_utf8() {
    for (args, needle) in [
        (
            "-f \\xff.yml",
            "invalid argument \"\\xff.yml\" for \"-f, --file\" flag: not valid UTF-8",
        ),
        (
            "-f schema.yml -va=\\xff",
            "invalid argument \"a=\\xff\" for \"-v, --data-value\" flag",
        ),
        ("-f schema.yml --fi\\xffle", "unknown flag: --fi\u{fffd}le"),
        ("-f schema.yml \\xff", "does not accept extra arguments"),
    ] {
        let a = run(BIN, true, args, "");
        assert_eq!(a.rc, 1, "{args}: {}", a.stderr);
        assert!(
            a.stderr.starts_with("schemac: Error: ") && a.stderr.contains(needle),
            "{args}: {}",
            a.stderr
        );
    }
    for env in ["P_x=\\xff", "P_\\xff=1"] {
        let a = run(BIN, true, "-f any.yml --data-values-env P", env);
        assert_eq!(a.rc, 1, "{env}: {}", a.stderr);
        assert!(
            a.stderr.contains("UTF-8") && !a.stderr.contains("panicked"),
            "{env}: {}",
            a.stderr
        );
    }
    // Other variables that are not UTF-8 are none of schemac's business.
    let a = run(
        BIN,
        true,
        "-f any.yml --data-values-env P",
        "Q_x=\\xff P_a=1",
    );
    assert_eq!((a.rc, a.stdout.as_str()), (0, "a: \"1\"\n"), "{}", a.stderr);
}

#[test]
fn a_reader_that_goes_away_ends_the_run_quietly() {
    let mut child = Command::new(BIN)
        .args(["check", "-f", "big.yml"])
        .current_dir(workdir())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut first = [0u8; 10];
    child.stdout.take().unwrap().read_exact(&mut first).unwrap();
    // The pipe's reading end is closed here.
    let o = child.wait_with_output().unwrap();
    assert_eq!(&first, b"key0: valu");
    assert_eq!(
        (o.status.code(), String::from_utf8_lossy(&o.stderr).as_ref()),
        (Some(141), "")
    );
}

#[test]
fn a_full_disk_is_an_error() {
    let Ok(full) = std::fs::OpenOptions::new().write(true).open("/dev/full") else {
        eprintln!("skipped: no /dev/full");
        return;
    };
    for args in [
        &["check", "-f", "big.yml"][..],
        &["check", "--help"],
        &["completions", "bash"],
        // clap's own help and version (its `Error::exit` ignored the failed write: exit 0).
        &["--help"],
        &["--version"],
        &["help", "build"],
        &["inspect", "--help"],
    ] {
        let o = Command::new(BIN)
            .args(args)
            .current_dir(workdir())
            .stdout(full.try_clone().unwrap())
            .output()
            .unwrap();
        let stderr = String::from_utf8_lossy(&o.stderr);
        assert_eq!(o.status.code(), Some(1), "{args:?}: {stderr}");
        assert!(
            stderr.starts_with("schemac: Error: writing to stdout: "),
            "{args:?}: {stderr}"
        );
    }
}

/// `-f -` with standard input closed (`<&-`) is ytt's `read /dev/stdin: bad file descriptor`,
/// and a path to descriptor 0 (`/dev/stdin`, `/dev/fd/0`) its `lstat` of a missing entry
/// (ytt 0.52's answers, recorded by hand from the oracle, as a case cannot close its standard
/// input), though Rust's runtime opens `/dev/null` there before `main`; `< /dev/null` stays an
/// empty file.
#[test]
fn a_closed_standard_input_is_a_bad_file_descriptor() {
    let closed = |args: &[&str], close: &str| {
        // `sh` runs the program with descriptor 0 closed (`Command` only redirects it).
        let o = Command::new("sh")
            .arg("-c")
            .arg(format!("exec \"$0\" \"$@\" {close}"))
            .arg(BIN)
            .args(args)
            .current_dir(workdir())
            .output()
            .expect("sh runs");
        let stdout = String::from_utf8_lossy(&o.stdout).into_owned();
        let stderr = String::from_utf8_lossy(&o.stderr).into_owned();
        (o.status.code(), stdout, stderr)
    };
    for (args, stderr) in [
        (
            &["check", "-f", "schema.yml", "-f", "-"][..],
            "schemac: Error: read /dev/stdin: bad file descriptor\n",
        ),
        (
            &["check", "-f", "schema.yml", "--data-values-file", "-"],
            "schemac: Error: Extracting data value from file:\n  Reading file 'stdin.yml': read /dev/stdin: bad file descriptor\n",
        ),
        (
            &["check", "-f", "schema.yml", "--data-value-file", "name=-"],
            "schemac: Error: Extracting data value from file:\n  Reading file '-'\n",
        ),
    ] {
        let answer = (Some(1), String::new(), stderr.to_string());
        assert_eq!(closed(args, "<&-"), answer, "{args:?}");
        let (rc, _, err) = closed(args, "</dev/null");
        assert_eq!(rc, Some(0), "{args:?}: {err}");
    }
    // A path to descriptor 0 is ytt's `lstat` of a missing entry of `/proc/PID/fd` (the pid
    // schemac's own: `sh` runs it in its own process).
    let closed_fd0 = |args: &[&str]| {
        let child = Command::new("sh")
            .arg("-c")
            .arg("exec \"$0\" \"$@\" <&-")
            .arg(BIN)
            .args(args)
            .current_dir(workdir())
            .stdout(std::process::Stdio::piped())
            .stderr(std::process::Stdio::piped())
            .spawn()
            .expect("sh runs");
        let pid = child.id();
        let o = child.wait_with_output().expect("sh ends");
        let stderr = String::from_utf8_lossy(&o.stderr).replace(&pid.to_string(), "PID");
        (o.status.code(), stderr)
    };
    for (args, stderr) in [
        (
            &["check", "-f", "schema.yml", "-f", "/dev/stdin"][..],
            "schemac: Error: Checking symlink file '/dev/stdin':\n  Eval symlink: lstat /proc/PID/fd/0: no such file or directory\n",
        ),
        (
            &["check", "-f", "schema.yml", "-f", "/dev/fd/0"],
            "schemac: Error: Checking file '/dev/fd/0': lstat /dev/fd/0: no such file or directory\n",
        ),
        (
            &["check", "-f", "schema.yml", "-f", "/proc/self/fd/0", "--allow-symlink-destination", "/"],
            "schemac: Error: Checking file '/proc/self/fd/0': lstat /proc/self/fd/0: no such file or directory\n",
        ),
        (
            &["check", "-f", "schema.yml", "--data-values-file", "/dev/stdin"],
            "schemac: Error: Extracting data value from file:\n  Find files '/dev/stdin':\n    Checking symlink file '/dev/stdin':\n      Eval symlink: lstat /proc/PID/fd/0: no such file or directory\n",
        ),
        (
            &["check", "-f", "schema.yml", "--data-values-file", "/dev/fd/0"],
            "schemac: Error: Extracting data value from file:\n  Find files '/dev/fd/0':\n    Checking file '/dev/fd/0': lstat /dev/fd/0: no such file or directory\n",
        ),
        (
            &["check", "-f", "schema.yml", "--data-value-file", "name=/dev/stdin"],
            "schemac: Error: Extracting data value from file:\n  Finding file '/dev/stdin':\n    Checking symlink file '/dev/stdin':\n      Eval symlink: lstat /proc/PID/fd/0: no such file or directory\n",
        ),
    ] {
        assert_eq!(closed_fd0(args), (Some(1), stderr.to_string()), "{args:?}");
    }
    // A file that is not standard input is read as before.
    let (rc, out, err) = closed(&["check", "-f", "schema.yml", "-f", "values.yml"], "<&-");
    assert_eq!((rc, err.as_str()), (Some(0), ""));
    assert!(out.starts_with("name: hi\n"), "{out}");
}

/// The first arena mimalloc reserves is its smallest, 32 MiB (`allocator::SET_FIRST_ARENA`,
/// set by the option's index, which a newer mimalloc could move: its own listing of the
/// options names what was set), unless `MIMALLOC_ARENA_RESERVE` says otherwise (read from the
/// environment's `mimalloc_*` variables, shown to mimalloc alone).
#[test]
fn mimallocs_options_are_read_from_its_variables_and_its_first_arena_is_its_smallest() {
    let option = |env: &[(&str, &str)], name: &str| {
        let o = Command::new(BIN)
            .args(["check", "-f", "schema.yml"])
            .current_dir(workdir())
            .env("MIMALLOC_VERBOSE", "1")
            .envs(env.iter().copied())
            .output()
            .unwrap();
        assert_eq!(o.status.code(), Some(0));
        let stderr = String::from_utf8_lossy(&o.stderr).into_owned();
        let line = stderr
            .lines()
            .find(|l| l.contains(&format!("option '{name}'")));
        line.unwrap_or_else(|| panic!("{stderr}"))
            .trim()
            .to_string()
    };
    let arena_reserve = |env: &[(&str, &str)]| option(env, "arena_reserve");
    assert_eq!(arena_reserve(&[]), "option 'arena_reserve': 32768 KiB");
    assert_eq!(
        arena_reserve(&[("MIMALLOC_ARENA_RESERVE", "64MiB")]),
        "option 'arena_reserve': 65536 KiB"
    );
    // Its other options are read from the `mimalloc_*` variables, in either case.
    assert_eq!(option(&[], "purge_delay"), "option 'purge_delay': 1000");
    assert_eq!(
        option(&[("mimalloc_purge_delay", "7")], "purge_delay"),
        "option 'purge_delay': 7"
    );
}

#[path = "cli/budgets.rs"]
mod budgets;

#[path = "cli/codegen_inputs.rs"]
mod codegen_inputs;

#[path = "cli/walk.rs"]
mod walk;

#[path = "cli/budget_vars.rs"]
mod budget_vars;

/// An output path that is one of the inputs (`gen s.yml -o s.yml`, through a link too) is
/// refused before any work: it replaced the schema with what was made of it.
#[test]
fn an_output_that_is_an_input_is_refused() {
    let dir = tempfile::tempdir().unwrap();
    let schema = "#@data/values-schema\n---\nname: \"\"\n";
    std::fs::write(dir.path().join("s.yml"), schema).unwrap();
    std::os::unix::fs::symlink("s.yml", dir.path().join("link.yml")).unwrap();
    for args in [
        &["gen", "s.yml", "-o", "s.yml"][..],
        &["gen", "s.yml", "-o", "./link.yml"],
        &["build", "s.yml", "-o", "link.yml"],
        &[
            "inspect",
            "s.yml",
            "-o",
            "markdown",
            "--output-file",
            "./s.yml",
        ],
        &["inspect", "s.yml", "-o", "html", "--check", "link.yml"],
    ] {
        let o = Command::new(BIN)
            .args(args)
            .current_dir(dir.path())
            .env("SCHEMAC_CACHE_DIR", dir.path().join("cache"))
            .output()
            .unwrap();
        let stderr = String::from_utf8_lossy(&o.stderr);
        assert_eq!(o.status.code(), Some(1), "{args:?}: {stderr}");
        assert!(
            stderr.contains(&format!(
                "cannot write {}: it is the input file s.yml",
                args[args.len() - 1]
            )),
            "{args:?}: {stderr}"
        );
        assert_eq!(
            std::fs::read_to_string(dir.path().join("s.yml")).unwrap(),
            schema
        );
    }
}

/// An output path that is a symbolic link is written through it, as a shell's `>` and `cp`
/// write (renaming over the link replaced it with a file, and a dangling link's target was
/// never made); a link whose target cannot be made, or a loop, is an error naming both.
#[test]
fn an_output_link_is_written_through() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    std::fs::write(d.join("s.yml"), "#@data/values-schema\n---\nname: \"\"\n").unwrap();
    std::fs::create_dir(d.join("out")).unwrap();
    std::fs::write(d.join("out/old.rs"), "old").unwrap();
    for (link, to) in [
        ("to-file", "out/old.rs"),
        ("dangling", "out/new.md"),
        ("missing-folder", "no/such/x"),
        ("loop-a", "loop-b"),
        ("loop-b", "loop-a"),
    ] {
        std::os::unix::fs::symlink(to, d.join(link)).unwrap();
    }
    let run = |args: &[&str]| {
        let o = Command::new(BIN)
            .args(args)
            .current_dir(d)
            .output()
            .unwrap();
        let stderr = String::from_utf8_lossy(&o.stderr).into_owned();
        (o.status.code(), stderr)
    };
    assert_eq!(
        run(&["gen", "s.yml", "-o", "to-file"]),
        (Some(0), String::new())
    );
    assert!(std::fs::read_to_string(d.join("out/old.rs"))
        .unwrap()
        .contains("name"));
    let inspect = ["inspect", "s.yml", "-o", "markdown", "--output-file"];
    assert_eq!(run(&[&inspect[..], &["dangling"]].concat()).0, Some(0));
    assert!(std::fs::read_to_string(d.join("out/new.md"))
        .unwrap()
        .contains("name"));
    let (rc, err) = run(&["gen", "s.yml", "-o", "missing-folder"]);
    assert_eq!(rc, Some(1), "{err}");
    assert!(
        err.contains("cannot write missing-folder (a link to no/such/x): "),
        "{err}"
    );
    let (rc, err) = run(&["gen", "s.yml", "-o", "loop-a"]);
    assert_eq!(rc, Some(1), "{err}");
    assert!(
        err.contains("cannot write loop-a: too many levels of symbolic links"),
        "{err}"
    );
    for link in ["to-file", "dangling", "missing-folder", "loop-a"] {
        assert!(std::fs::symlink_metadata(d.join(link))
            .unwrap()
            .is_symlink());
    }
    let mut left: Vec<_> = std::fs::read_dir(d.join("out"))
        .unwrap()
        .map(|e| e.unwrap().file_name().into_string().unwrap())
        .collect();
    left.sort();
    assert_eq!(left, ["new.md", "old.rs"]);
}

/// An output inside a folder given as an input is refused before any work: every file there
/// is read as an input, so `build config/ -o config/v` built the last binary into the next.
#[test]
fn an_output_inside_an_input_folder_is_refused() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    std::fs::create_dir_all(d.join("config/sub")).unwrap();
    std::fs::write(d.join("config/s.yml"), "#@data/values-schema\n---\nn: 1\n").unwrap();
    for args in [
        &["build", "config/", "-o", "config/v"][..],
        &["gen", "config", "-o", "./config/sub/gen.rs"],
        &[
            "inspect",
            "-f",
            "config",
            "-o",
            "html",
            "--output-file",
            "config/x.html",
        ],
    ] {
        let o = Command::new(BIN)
            .args(args)
            .current_dir(d)
            .env("SCHEMAC_CACHE_DIR", d.join("cache"))
            .output()
            .unwrap();
        let stderr = String::from_utf8_lossy(&o.stderr);
        assert_eq!(o.status.code(), Some(1), "{args:?}: {stderr}");
        let out = args[args.len() - 1];
        assert!(
            stderr.contains(&format!(
                "cannot write {out}: it is inside the input folder"
            )),
            "{args:?}: {stderr}"
        );
    }
    let o = Command::new(BIN)
        .args(["gen", "config/s.yml", "-o", "config/sub/gen.rs"])
        .current_dir(d)
        .output()
        .unwrap();
    assert_eq!(
        o.status.code(),
        Some(0),
        "a schema file, not a folder, is the input"
    );
    let mut left: Vec<_> = std::fs::read_dir(d.join("config/sub"))
        .unwrap()
        .map(|e| e.unwrap().file_name().into_string().unwrap())
        .collect();
    left.sort();
    assert_eq!(left, ["gen.rs"]);
}
