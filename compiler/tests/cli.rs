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

/// Runs `schemac check -f values.yml` on `values` in a directory of its own (`name`), with
/// `env` set: the exit status and standard error.
fn check_values(name: &str, values: &str, env: &[(&str, &str)]) -> (Option<i32>, String) {
    let (rc, _, stderr) = check_files(name, &[("values.yml", values)], env);
    (rc, stderr)
}

/// Runs `schemac check` with a `-f` for each of `files` (name and text), written to a directory
/// of its own (`name`), with `env` set: the exit status, standard output and standard error.
fn check_files(
    name: &str,
    files: &[(&str, &str)],
    env: &[(&str, &str)],
) -> (Option<i32>, String, String) {
    let dir = workdir().join(name);
    std::fs::create_dir_all(&dir).unwrap();
    let mut args = vec!["check"];
    for (file, text) in files {
        std::fs::write(dir.join(file), text).unwrap();
        args.extend(["-f", file]);
    }
    let o = Command::new(BIN)
        .args(args)
        .current_dir(&dir)
        .envs(env.iter().copied())
        .output()
        .unwrap();
    let text = |b: &[u8]| String::from_utf8_lossy(b).into_owned();
    (o.status.code(), text(&o.stdout), text(&o.stderr))
}

#[test]
fn each_rule_call_has_the_budget_to_itself() {
    // The run's rule calls share one evaluator: each is counted from its own start (1,000
    // statements and a 1 MB string each, 40 calls, under budgets of 5,000 statements and 20 MB),
    // and the garbage of earlier calls is collected. One call past the budget fails alone.
    let schema = "#@ def busy(n):\n#@   k = 0\n#@   for i in range(n):\n#@     k += 1\n#@   end\n#@   big = \"x\" * 1000000\n#@   return k == n and len(big) == 1000000\n#@ end\n#@data/values-schema\n---\ncounts:\n#@schema/validation (\"busy\", busy)\n- 0\n";
    let items = "- 1000\n".repeat(40);
    let budgets = [
        ("SCHEMAC_STARLARK_STEPS", "5000"),
        ("SCHEMAC_STARLARK_MEMORY", "20000000"),
    ];
    let values = format!("#@data/values\n---\ncounts:\n{items}");
    let (rc, stdout, stderr) = check_files(
        "budget-per-call",
        &[("schema.yml", schema), ("values.yml", &values)],
        &budgets,
    );
    assert_eq!(
        (rc, stdout),
        (Some(0), format!("counts:\n{items}")),
        "{stderr}"
    );
    let values = format!("#@data/values\n---\ncounts:\n{items}- 9000\n{items}");
    let (rc, _, stderr) = check_files(
        "budget-per-call-past",
        &[("schema.yml", schema), ("values.yml", &values)],
        &budgets,
    );
    assert_eq!(rc, Some(1), "{stderr}");
    assert_eq!(
        stderr,
        "schemac: Error: Validating final data values:\n  counts[40]\n    from: values.yml:44\n    - must be: busy (by: schema.yml:12)\n      found: evaluation stopped after 5000 Starlark statements (an endless loop? raise the budget with SCHEMAC_STARLARK_STEPS)\n\n\n"
    );
}

#[test]
fn a_value_doubled_statement_by_statement_meets_the_heap_budget() {
    // 2^60 items after 60 statements: the heap is looked at after every statement, not only
    // every 1,024th. The budget is lowered so that the test stays small.
    let values = "#@ def grow():\n#@   x = [0]\n#@   for i in range(60):\n#@     x += x\n#@   end\n#@   return len(x)\n#@ end\n#@data/values\n---\na: #@ grow()\n";
    let (rc, stderr) = check_values(
        "doubling",
        values,
        &[("SCHEMAC_STARLARK_MEMORY", "50000000")],
    );
    assert_eq!(rc, Some(1), "{stderr}");
    assert!(
        stderr.contains("- evaluation stopped: it allocated more than 50000000 bytes (raise the budget with SCHEMAC_STARLARK_MEMORY)\n    in grow\n      values.yml:4 | #@     x += x"),
        "{stderr}"
    );
}

#[test]
fn toml_text_past_the_heap_budget_is_an_error() {
    // A dict nested 100,000 deep is small, but each nested table's TOML header repeats the keys
    // above it: 20 GB of text (12 GB held after 80 s; ytt ran past a minute). Budget lowered.
    let values = "#@ load(\"@ytt:toml\", \"toml\")\n#@ x = 1\n#@ for i in range(100000):\n#@   x = {\"k\": x}\n#@ end\n#@data/values\n---\na: #@ len(toml.encode(x))\n";
    let memory = [("SCHEMAC_STARLARK_MEMORY", "50000000")];
    let (rc, stderr) = check_values("toml-deep", values, &memory);
    assert_eq!(rc, Some(1), "{stderr}");
    assert!(
        stderr.contains("- evaluation stopped: it would allocate more than 50000000 bytes (raise the budget with SCHEMAC_STARLARK_MEMORY)\n    in <toplevel>\n      values.yml:8 | a: #@ len(toml.encode(x))"),
        "{stderr}"
    );
}

#[test]
fn big_integers_meet_the_memory_budget_though_their_digits_are_off_the_heap() {
    // `x = x + x` a million times: each sum a new integer of up to 125 KB whose digits live
    // outside the interpreter's heap, and no garbage is freed while the function runs (about
    // 60 GB in all). The thread's count of held bytes stops it at the budget, lowered here.
    let values = "#@ def grow():\n#@   x = 1\n#@   for i in range(1000000):\n#@     x = x + x\n#@   end\n#@   return x % 7\n#@ end\n#@data/values\n---\na: #@ grow()\n";
    let (rc, stderr) = check_values(
        "big-integers",
        values,
        &[("SCHEMAC_STARLARK_MEMORY", "100000000")],
    );
    assert_eq!(rc, Some(1), "{stderr}");
    assert!(
        stderr.contains("- evaluation stopped: it allocated more than 100000000 bytes (raise the budget with SCHEMAC_STARLARK_MEMORY)\n    in grow\n      values.yml:4 | #@     x = x + x"),
        "{stderr}"
    );
}

#[test]
fn squaring_an_integer_statement_by_statement_meets_the_integer_budget() {
    // Each `x *= x` doubles the digits and takes longer than the last: without a bound the
    // 30th runs for hours. Products of ordinary size are untouched.
    let values = "#@ def grow():\n#@   x = 3\n#@   for i in range(40):\n#@     x *= x\n#@   end\n#@   return x % 7\n#@ end\n#@data/values\n---\nsmall: #@ (12345678901 * 98765432109) % 1000\nbig: #@ grow()\n";
    let (rc, stderr) = check_values("integer-squares", values, &[]);
    assert_eq!(rc, Some(1), "{stderr}");
    assert!(
        stderr.contains("- evaluation stopped: a product of integers of about 1661954 bits is beyond the budget of 1000000 bits (raise it with SCHEMAC_STARLARK_INT_BITS)\n    in grow\n      values.yml:4 | #@     x *= x"),
        "{stderr}"
    );
}

#[test]
fn values_nested_past_the_depth_budget_or_inside_themselves_are_errors_not_crashes() {
    // ytt itself dies of a stack overflow on both; schemac did too.
    for (name, body, line) in [
        (
            "cycle",
            "#@   x = [1]\n#@   x.append(x)\n#@   return x\n",
            "values.yml:9 | v: #@ f()",
        ),
        (
            "deep",
            "#@   x = []\n#@   for i in range(200000):\n#@     x = [x]\n#@   end\n#@   return json.encode(x)\n",
            "values.yml:7 | #@   return json.encode(x)",
        ),
    ] {
        let values = format!("#@ load(\"@ytt:json\", \"json\")\n#@ def f():\n{body}#@ end\n#@data/values\n---\nv: #@ f()\n");
        let (rc, stderr) = check_values(&format!("nested-{name}"), &values, &[]);
        assert_eq!(rc, Some(1), "{name}: {stderr}");
        assert!(
            stderr.contains("value nested deeper than 100000 levels: a list or dict inside itself, or raise the budget with SCHEMAC_MAX_VALUE_DEPTH"),
            "{name}: {stderr}"
        );
        assert!(stderr.contains(line), "{name}: {stderr}");
    }
}

#[test]
fn int_of_a_long_digit_string_meets_the_integer_budget() {
    // Parsing takes time quadratic in the digits: ten million took minutes. Leading zeros
    // are not counted.
    let values = "#@data/values\n---\nzeros: #@ int(\"0\" * 100000 + \"7\", 10)\nv: #@ int(\"9\" * 10000000) % 7\n";
    let (rc, stderr) = check_values("integer-text", values, &[]);
    assert_eq!(rc, Some(1), "{stderr}");
    assert!(
        stderr.contains("- evaluation stopped: int() of a number of at least 30000000 bits is beyond the budget of 1000000 bits (raise it with SCHEMAC_STARLARK_INT_BITS)\n    in <toplevel>\n      values.yml:4 | v: #@ int(\"9\" * 10000000) % 7"),
        "{stderr}"
    );
}

#[test]
fn shifts_meet_the_integer_budget() {
    // A shift adds at most 511 bits (starlark-go's bound on its count), but in a loop the
    // integer grows past the budget; writing a 40-million-bit one took 21 seconds.
    let values = "#@ def grow():\n#@   x = 1\n#@   for i in range(2100):\n#@     x = x << 500\n#@   end\n#@   return len(str(x))\n#@ end\n#@data/values\n---\nsmall: #@ (1 << 511) % 7\nv: #@ grow()\n";
    let (rc, stderr) = check_values("integer-shifts", values, &[]);
    assert_eq!(rc, Some(1), "{stderr}");
    assert!(
        stderr.contains("- evaluation stopped: a shift to an integer of about 1000001 bits is beyond the budget of 1000000 bits (raise it with SCHEMAC_STARLARK_INT_BITS)\n    in grow\n      values.yml:4 | #@     x = x << 500"),
        "{stderr}"
    );
}

#[test]
fn a_default_that_is_not_data_is_an_error_not_null() {
    // ytt panics converting these (`not sure how to get int`, `unknown type *starlark.Function
    // for conversion to go value`); schemac took them for null.
    for (name, default, found) in [
        (
            "big-int",
            "99999999999999999999",
            "an integer beyond 64 bits",
        ),
        ("function", "lambda x: x", "a function that is not data"),
        ("list-of-function", "[len]", "a list that is not data"),
    ] {
        let schema = format!(
            "#@data/values-schema\n---\n#@schema/type any=True\n#@schema/default {default}\na: 0\n"
        );
        let (rc, stdout, stderr) =
            check_files(&format!("default-{name}"), &[("schema.yml", &schema)], &[]);
        assert_eq!((rc, stdout.as_str()), (Some(1), ""), "{name}: {stderr}");
        assert!(
            stderr.contains("syntax error in @schema/default annotation")
                && stderr.contains(&format!("= found: {found}")),
            "{name}: {stderr}"
        );
    }
}

#[test]
fn many_anchors_and_aliases_on_one_line_are_read() {
    // Each alias searched every anchor before it, and each item of a flow sequence searched its
    // line back for a blank: 50,000 of each took 38 s (ytt takes minutes), 0.5 s now. No time
    // is asserted (tests assert no speed); a return of the quadratic search shows as a slow
    // test.
    let n = 50_000;
    let anchors: String = (0..n).map(|i| format!("a{i}: &a{i} {i}\n")).collect();
    let aliases: Vec<String> = (0..n).map(|i| format!("*a{i}")).collect();
    let values = format!(
        "#@data/values\n---\n{anchors}all: [{}]\n",
        aliases.join(",")
    );
    let (rc, stdout, stderr) = check_files("many-aliases", &[("values.yml", &values)], &[]);
    assert_eq!(rc, Some(0), "{stderr}");
    assert!(
        stdout.ends_with("- 49999\n"),
        "{}",
        &stdout[stdout.len() - 50..]
    );
}

#[test]
fn schemas_too_large_for_generated_code_are_refused_with_their_position() {
    // Each was taken by `schemac gen` (and `build`, `include_schema!`) as it came: 50,000 keys
    // took 39 s and 2 GB to make 57 MB of Rust, 2,000 nested maps 70 MB, and 2,000 nested
    // arrays ran past a minute; rustc would have taken far longer. `check` takes them.
    let dir = workdir().join("codegen-budget");
    std::fs::create_dir_all(&dir).unwrap();
    let deep: String = (0..70)
        .map(|i| format!("{}k{i}:\n", "  ".repeat(i)))
        .collect();
    let wide: String = (0..20_001).map(|i| format!("k{i}: {i}\n")).collect();
    let arrays = format!("a: {}1{}\n", "[".repeat(70), "]".repeat(70));
    let default = "#@schema/default list(range(300))\na: [0]\n";
    for (name, body, env, error) in [
        (
            "deep.yml",
            format!("{deep}{}x: 1\n", "  ".repeat(70)),
            "",
            "deep.yml:66: the schema nests deeper than 64 levels",
        ),
        (
            "arrays.yml",
            arrays,
            "",
            "arrays.yml:3: the schema nests deeper than 64 levels",
        ),
        (
            "wide.yml",
            wide,
            "",
            "wide.yml:20002: the schema has more than 20000 types and default values' nodes",
        ),
        (
            "default.yml",
            default.to_string(),
            "300",
            "default.yml:4: the schema has more than 300 types",
        ),
        ("raised.yml", default.to_string(), "303", ""),
    ] {
        std::fs::write(dir.join(name), format!("#@data/values-schema\n---\n{body}")).unwrap();
        let o = Command::new(BIN)
            .args(["gen", name])
            .current_dir(&dir)
            .env(
                "SCHEMAC_MAX_CODEGEN_NODES",
                if env.is_empty() { "20000" } else { env },
            )
            .output()
            .unwrap();
        let stderr = String::from_utf8_lossy(&o.stderr);
        if error.is_empty() {
            assert_eq!(o.status.code(), Some(0), "{name} with {env}: {stderr}");
            continue;
        }
        assert_eq!(o.status.code(), Some(1), "{name}: {stderr}");
        assert!(
            stderr.starts_with(&format!("schemac: Error: {error}")),
            "{name}: {stderr}"
        );
        assert!(
            stderr.contains("raise the budget with SCHEMAC_MAX_CODEGEN_"),
            "{stderr}"
        );
        // `check` takes the schema as it is.
        let o = Command::new(BIN)
            .args(["check", "-f", name])
            .current_dir(&dir)
            .output()
            .unwrap();
        assert_eq!(
            o.status.code(),
            Some(0),
            "{name}: {}",
            String::from_utf8_lossy(&o.stderr)
        );
    }
}

#[test]
fn escapes_of_apostrophes_read_again_past_the_budget_are_an_error() {
    // go-yaml reads `\'` in a double-quoted scalar as `'`; schemac's YAML readers refuse it,
    // and the reader finds those scalars by reading the text again where a first guess was
    // wrong. After the unclosed `"` in a block scalar, each `'C:\'` was such a reading; the
    // guesses after a wrong one are now made again, so these 40 take two.
    let mut values = String::from("#@data/values\n---\nz: &a [1]\nm:\n  note: |\n    \"open\n");
    for i in 0..40 {
        values.push_str(&format!("  k{i}: 'C:\\'\n"));
    }
    values.push_str("  it: \"it\\'s\"\n");
    let budget = [("SCHEMAC_MAX_REREAD_BYTES", "10000")];
    let files = [("values.yml", values.as_str())];
    let (rc, stdout, stderr) = check_files("reread", &files, &budget);
    assert_eq!(rc, Some(0), "{stderr}");
    assert!(stdout.contains("  k39: C:\\\n  it: it's\n"), "{stdout}");
    // A `"` left open in each of 40 block scalars makes each guess wrong again.
    let mut values = String::from("#@data/values\n---\nz: &a [1]\nm:\n");
    for i in 0..40 {
        values.push_str(&format!("  n{i}: |\n    \"open\n  k{i}: 'C:\\'\n"));
    }
    values.push_str("  it: \"it\\'s\"\n");
    let files = [("values.yml", values.as_str())];
    let (rc, stdout, stderr) = check_files("reread", &files, &[]);
    assert_eq!(rc, Some(0), "{stderr}");
    assert!(stdout.contains("  k39: C:\\\n  it: it's\n"), "{stdout}");
    let (rc, _, stderr) = check_files("reread", &files, &budget);
    assert_eq!(rc, Some(1), "{stderr}");
    assert!(
        stderr.contains("Unmarshaling YAML template 'values.yml': yaml: line 28: the escape \\' in double-quoted scalars: reading the text again passed 10000 bytes (raise the budget with SCHEMAC_MAX_REREAD_BYTES)"),
        "{stderr}"
    );
}

#[test]
fn data_values_written_past_the_output_budget_are_an_error_before_any_output() {
    // Block YAML indents each line by its depth: maps nested 1,000 deep, each holding a key
    // at every level, write about a megabyte (a template nesting dicts 100,000 deep wrote
    // 10 GB). The text is sized first, so nothing reaches stdout.
    let mut values = String::from("#@data/values\n---\n");
    for level in 0..1000 {
        values.push_str(&format!("{:indent$}k{level}: 1\n", "", indent = 2 * level));
        values.push_str(&format!("{:indent$}m:\n", "", indent = 2 * level));
    }
    values.push_str(&format!("{:indent$}end: 1\n", "", indent = 2000));
    let budget = [("SCHEMAC_MAX_OUTPUT_BYTES", "100000")];
    let (rc, stdout, stderr) = check_files("output-budget", &[("values.yml", &values)], &budget);
    assert_eq!((rc, stdout.as_str()), (Some(1), ""), "{stderr}");
    assert!(
        stderr.contains("Writing data values: the YAML text passes the output budget of 100000 bytes at the value of values.yml:"),
        "{stderr}"
    );
    assert!(
        stderr.contains("raise the budget with SCHEMAC_MAX_OUTPUT_BYTES"),
        "{stderr}"
    );
    let (rc, stdout, stderr) = check_files("output-budget", &[("values.yml", &values)], &[]);
    assert_eq!(rc, Some(0), "{stderr}");
    assert!(stdout.len() > 1_000_000, "{}", stdout.len());
}
