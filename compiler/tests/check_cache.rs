//! `schemac check`'s cache of lowered schemas, run as a process: the answer of a run that
//! reads its schema from the cache is the answer of one that lowers it, byte for byte, whatever
//! the cache holds.
#![cfg(unix)]

use std::path::{Path, PathBuf};
use std::process::Command;

const BIN: &str = env!("CARGO_BIN_EXE_schemac");

/// A folder of its own for each test, with a schema and values files.
fn workdir(test: &str) -> PathBuf {
    let dir =
        std::env::temp_dir().join(format!("schemac-check-cache-{test}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let files = [
        (
            "schema.yml",
            "#@data/values-schema\n---\n#@schema/validation min_len=2\nname: ab\nport: 8080\n#@schema/nullable\ntls:\n  cert: \"\"\n",
        ),
        ("values.yml", "#@data/values\n---\nname: hi\n"),
        ("short.yml", "#@data/values\n---\nname: x\n"),
        ("wrong.yml", "#@data/values\n---\nport: \"80\"\n"),
        // Template code that reaches nothing outside the file: a `def` making examples, rules
        // that translate to the rule IR (kept with the schema, their functions' indices
        // reserved for the values files' own: `fns.yml`'s overlay functions).
        (
            "rules.yml",
            concat!(
                "#@ def examples():\n",
                "name: example\n",
                "port: 443\n",
                "#@ end\n",
                "#@ def short(v):\n",
                "#@   if len(v) > 3:\n",
                "#@     return \"{} is long\".format(v)\n",
                "#@   end\n",
                "#@   return v != \"bad\"\n",
                "#@ end\n",
                "#@data/values-schema\n",
                "#@schema/examples (\"e\", examples())\n",
                "---\n",
                "#@schema/validation (\"not bad\", short)\n",
                "name: ab\n",
                "#@schema/validation (\"small\", lambda p: p < 9000 or fail(\"port {} too big\".format(p))), when=lambda _, ctx: ctx.parent[\"name\"] != \"skip\"\n",
                "port: 8080\n",
            ),
        ),
        ("bad.yml", "#@data/values\n---\nname: bad\nport: 9999\n"),
        // Rules in a `.star` file the schema loads (kept with the file's text, used while the
        // file has it).
        (
            "checks.star",
            "load(\"@ytt:struct\", \"struct\")\ndef small(p):\n  return p < 9000 or fail(\"port {} too big\".format(p))\nend\n",
        ),
        (
            "star.yml",
            "#@ load(\"checks.star\", \"small\")\n#@data/values-schema\n---\nname: ab\n#@schema/validation (\"small\", small)\nport: 8080\n",
        ),
        (
            "fns.yml",
            concat!(
                "#@ load(\"@ytt:overlay\", \"overlay\")\n",
                "#@data/values\n",
                "---\n",
                "#@overlay/match by=lambda k, l, r: k == \"name\"\n",
                "name: toolong\n",
                "#@overlay/match by=lambda k, l, r: k == \"port\"\n",
                "port: 9001\n",
            ),
        ),
        // A map default whose float is -0.0 where the fields' is 0.0: kept, not made again.
        (
            "negative-zero.yml",
            "#@data/values-schema\n---\n#@schema/default {\"a\": -0.0}\nm: {a: 0.0}\n",
        ),
    ];
    for (name, text) in files {
        std::fs::write(dir.join(name), text).unwrap();
    }
    dir
}

/// stdout, stderr and exit status of `schemac check ARGS` in `dir`, with the cache in
/// `dir/cache` and `env` set.
fn check(dir: &Path, args: &[&str], env: &[(&str, &str)]) -> (String, String, i32) {
    let out = Command::new(BIN)
        .arg("check")
        .args(args)
        .current_dir(dir)
        .env("SCHEMAC_CACHE_DIR", dir.join("cache"))
        .envs(env.iter().copied())
        .output()
        .unwrap();
    (
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
        out.status.code().unwrap_or(-1),
    )
}

/// The entries in the cache (not `.total`, the file of their total size).
fn entries(dir: &Path) -> Vec<PathBuf> {
    match std::fs::read_dir(dir.join("cache/lowered")) {
        Ok(list) => list
            .map(|e| e.unwrap().path())
            .filter(|p| !p.ends_with(".total"))
            .collect(),
        Err(_) => vec![],
    }
}

/// The answers of the runs, each without a cache, then with a cold one, then a warm one.
const RUNS: &[&[&str]] = &[
    &["-f", "schema.yml", "-f", "values.yml"],
    &["-f", "schema.yml", "-f", "short.yml"],
    &["-f", "schema.yml", "-f", "wrong.yml"],
    &[
        "-f",
        "schema.yml",
        "--data-values-schema-inspect",
        "-o",
        "openapi-v3",
    ],
    &["-f", "schema.yml", "--data-value-yaml", "port=x"],
    &["-f", "negative-zero.yml"],
    &["-f", "rules.yml", "-f", "values.yml"],
    &["-f", "rules.yml", "-f", "bad.yml"],
    &["-f", "rules.yml", "-f", "fns.yml"],
    &["-f", "star.yml", "-f", "checks.star", "-f", "values.yml"],
    &["-f", "star.yml", "-f", "checks.star", "-f", "bad.yml"],
];

#[test]
fn a_kept_schema_answers_as_the_schema_lowered() {
    let dir = workdir("answers");
    for args in RUNS {
        let _ = std::fs::remove_dir_all(dir.join("cache"));
        let off = check(&dir, args, &[("SCHEMAC_SCHEMA_CACHE_BYTES", "0")]);
        assert!(entries(&dir).is_empty(), "the cache was off");
        let cold = check(&dir, args, &[]);
        assert_eq!(entries(&dir).len(), 1);
        let warm = check(&dir, args, &[]);
        assert_eq!(cold, off, "{args:?}");
        assert_eq!(warm, off, "{args:?}");
    }
    // The failures name the schema's lines, read from the cache.
    let (_, stderr, status) = check(&dir, RUNS[1], &[]);
    assert_eq!(status, 1);
    assert!(stderr.contains("schema.yml:3"), "{stderr}");
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn an_edited_schema_of_the_same_size_and_time_is_read_again() {
    let dir = workdir("edited");
    let args = RUNS[0];
    let before = check(&dir, args, &[]);
    let path = dir.join("schema.yml");
    let modified = std::fs::metadata(&path).unwrap().modified().unwrap();
    let text = std::fs::read_to_string(&path).unwrap();
    let edited = text.replace("port: 8080", "port: 9090");
    assert_eq!(edited.len(), text.len());
    std::fs::write(&path, edited).unwrap();
    std::fs::File::options()
        .write(true)
        .open(&path)
        .unwrap()
        .set_modified(modified)
        .unwrap();
    let after = check(&dir, args, &[]);
    assert_ne!(after, before);
    assert!(after.0.contains("port: 9090"), "{after:?}");
    assert_eq!(
        after,
        check(&dir, args, &[("SCHEMAC_SCHEMA_CACHE_BYTES", "0")])
    );
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn damaged_entries_are_read_again_and_rewritten() {
    let dir = workdir("damaged");
    let args = RUNS[1];
    let expected = check(&dir, args, &[]);
    let entry = entries(&dir).pop().unwrap();
    let good = std::fs::read(&entry).unwrap();
    let damaged = [
        good[..good.len() / 2].to_vec(),
        Vec::new(),
        [&good[..good.len() - 3], b"xyz"].concat(),
        b"schemac lowered2 and then nothing that is an entry".to_vec(),
    ];
    for bytes in damaged {
        std::fs::write(&entry, bytes).unwrap();
        assert_eq!(check(&dir, args, &[]), expected);
        assert_eq!(std::fs::read(&entry).unwrap(), good, "rewritten");
    }
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn a_cache_that_cannot_be_written_is_no_error() {
    let dir = workdir("unwritable");
    let args = RUNS[0];
    let expected = check(&dir, args, &[("SCHEMAC_SCHEMA_CACHE_BYTES", "0")]);
    // A file where the cache folder would be.
    std::fs::write(dir.join("cache"), "").unwrap();
    assert_eq!(check(&dir, args, &[]), expected);
    std::fs::remove_file(dir.join("cache")).unwrap();
    // A folder without write permission (unless the tests run as root, who may write anyway).
    std::fs::create_dir_all(dir.join("cache/lowered")).unwrap();
    let mut perms = std::fs::metadata(dir.join("cache/lowered"))
        .unwrap()
        .permissions();
    std::os::unix::fs::PermissionsExt::set_mode(&mut perms, 0o555);
    std::fs::set_permissions(dir.join("cache/lowered"), perms).unwrap();
    assert_eq!(check(&dir, args, &[]), expected);
    assert_eq!(check(&dir, args, &[]), expected);
    let mut perms = std::fs::metadata(dir.join("cache/lowered"))
        .unwrap()
        .permissions();
    std::os::unix::fs::PermissionsExt::set_mode(&mut perms, 0o755);
    std::fs::set_permissions(dir.join("cache/lowered"), perms).unwrap();
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn runs_at_once_answer_alike() {
    let dir = workdir("racing");
    let args = RUNS[0];
    let expected = check(&dir, args, &[("SCHEMAC_SCHEMA_CACHE_BYTES", "0")]);
    std::thread::scope(|s| {
        let runs: Vec<_> = (0..8).map(|_| s.spawn(|| check(&dir, args, &[]))).collect();
        for run in runs {
            assert_eq!(run.join().unwrap(), expected);
        }
    });
    assert_eq!(entries(&dir).len(), 1, "{:?}", entries(&dir));
    assert_eq!(check(&dir, args, &[]), expected);
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn other_budgets_read_the_schema_again() {
    let dir = workdir("budgets");
    let args = RUNS[0];
    check(&dir, args, &[]);
    // The schema nests two levels (the document and `tls`): a budget of one refuses it.
    let (_, stderr, status) = check(&dir, args, &[("SCHEMAC_MAX_DEPTH", "1")]);
    assert_eq!(status, 1, "{stderr}");
    assert!(stderr.contains("nested deeper than 1 "), "{stderr}");
    std::fs::remove_dir_all(&dir).unwrap();
}

/// A `.star` file the kept schema loaded, edited (same size and time), is read again: the
/// entry holds only while it has the text it had.
#[test]
fn an_edited_star_file_is_read_again() {
    let dir = workdir("edited-star");
    let args = RUNS[RUNS.len() - 2];
    let before = check(&dir, args, &[]);
    assert_eq!(entries(&dir).len(), 1);
    assert_eq!(check(&dir, args, &[]), before);
    let path = dir.join("checks.star");
    let text = std::fs::read_to_string(&path).unwrap();
    let edited = text.replace("p < 9000", "p < 8000");
    assert_eq!(edited.len(), text.len());
    std::fs::write(&path, edited).unwrap();
    let after = check(&dir, args, &[]);
    assert_ne!(after, before);
    assert!(after.1.contains("port 8080 too big"), "{after:?}");
    assert_eq!(
        after,
        check(&dir, args, &[("SCHEMAC_SCHEMA_CACHE_BYTES", "0")])
    );
    std::fs::remove_dir_all(&dir).unwrap();
}

/// A schema file's code that reaches outside the file and the `.star` files it loads, or a
/// rule that needs the interpreter, keeps the schema from being kept.
#[test]
fn schemas_with_code_reaching_outside_are_not_kept() {
    let dir = workdir("code");
    std::fs::write(dir.join("x.lib.yml"), "#@ w = 2\n").unwrap();
    let texts = [
        "#@ load(\"@ytt:data\", \"data\")\n#@data/values-schema\n---\nport: #@ len(data.list())\n",
        "#@ x = print(\"made\")\n#@data/values-schema\n---\nport: 1\n",
        "#@data/values-schema\n---\n#@schema/validation (\"odd\", lambda v: v % 2 == 1)\nport: 1\n",
        "#@ def odd(v):\n#@   return v % 2 == 1\n#@ end\n#@data/values-schema\n---\n#@schema/validation (\"odd\", odd)\nport: 1\n",
        "#@ load(\"x.lib.yml\", \"w\")\n#@data/values-schema\n---\nport: #@ w\n",
        // ytt warns of `@ytt:math`'s use as the run ends.
        "#@ load(\"@ytt:math\", \"math\")\n#@data/values-schema\n---\nport: #@ math.floor(1.5)\n",
    ];
    // `.star` files reaching further: the data values, output of their own, a library.
    let stars = [
        "load(\"@ytt:data\", \"data\")\nv = len(data.list())\n",
        "v = 1\nprint(\"made\")\n",
        "load(\"@ytt:library\", \"library\")\nv = 1\n",
        "load(\"x.lib.yml\", \"w\")\nv = w\n",
    ];
    let loading = "#@ load(\"far.star\", \"v\")\n#@data/values-schema\n---\nport: #@ v\n";
    let runs = texts.map(|text| (text, "v = 1\n"));
    for (text, star) in runs.into_iter().chain(stars.map(|star| (loading, star))) {
        std::fs::write(dir.join("code.yml"), text).unwrap();
        std::fs::write(dir.join("far.star"), star).unwrap();
        let args = ["-f", "code.yml", "-f", "far.star", "-f", "x.lib.yml"];
        let expected = check(&dir, &args, &[("SCHEMAC_SCHEMA_CACHE_BYTES", "0")]);
        assert_eq!(check(&dir, &args, &[]), expected);
        assert_eq!(check(&dir, &args, &[]), expected);
        assert!(entries(&dir).is_empty(), "{text} {star} was kept");
    }
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn empty_cache_variables_count_as_unset() {
    // An empty SCHEMAC_CACHE_DIR or XDG_CACHE_HOME put the cache in the working directory; the
    // XDG base directory specification says to ignore them (and a relative one).
    let dir = workdir("empty-variables");
    let home = dir.join("home");
    std::fs::create_dir_all(&home).unwrap();
    for (var, value) in [
        ("SCHEMAC_CACHE_DIR", ""),
        ("XDG_CACHE_HOME", ""),
        ("XDG_CACHE_HOME", "rel"),
    ] {
        let out = Command::new(BIN)
            .args(["check", "-f", "schema.yml"])
            .current_dir(&dir)
            .env_remove("SCHEMAC_CACHE_DIR")
            .env_remove("XDG_CACHE_HOME")
            .env("HOME", &home)
            .env(var, value)
            .output()
            .unwrap();
        assert!(out.status.success(), "{var}={value:?}");
        for made in ["lowered", "schemac", "rel"] {
            assert!(!dir.join(made).exists(), "{var}={value:?} made {made}");
        }
        assert!(
            home.join(".cache/schemac/lowered").is_dir(),
            "{var}={value:?}"
        );
    }
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn a_schema_file_with_a_misplaced_data_values_annotation_is_not_kept() {
    // ytt reads a schema file's `#@data/values` annotations only for the data values (not
    // with --data-values-schema-inspect): a schema kept then, or by the run the misplaced
    // annotation fails, would answer for the file in the next run, which would not read it
    // again to be refused.
    let dir = workdir("misplaced");
    std::fs::write(
        dir.join("misplaced.yml"),
        "#@data/values-schema\n---\nroot: 3\n#@data/values\nx: 1\n",
    )
    .unwrap();
    let inspect = [
        "-f",
        "misplaced.yml",
        "--data-values-schema-inspect",
        "-o",
        "openapi-v3",
    ];
    assert_eq!(check(&dir, &inspect, &[]).2, 0);
    for _ in 0..2 {
        let (_, stderr, status) = check(&dir, &["-f", "misplaced.yml"], &[]);
        assert_eq!(status, 1, "{stderr}");
        assert!(
            stderr.contains("Found @data/values on map item (misplaced.yml:5)"),
            "{stderr}"
        );
    }
    assert!(entries(&dir).is_empty());
    std::fs::remove_dir_all(&dir).unwrap();
}
