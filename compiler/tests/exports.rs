//! The exports of `schemac inspect` and `schemac check --data-values-schema-inspect -o
//! json-schema`, checked against their meta-schemas and against the data values schemac
//! accepts (with the `jsonschema` crate), and the references against reviewed snapshots in
//! `tests/exports/` (regenerate with `SCHEMAC_BLESS=1 cargo test --release -p schemac --test
//! exports`, then review the diff). `openapi-3.0-schema.json` is the OpenAPI 3.0 schema from
//! OAI/OpenAPI-Specification (`_archive_/schemas/v3.0/schema.yaml` at 46c1076, Apache-2.0),
//! converted to JSON.
#![cfg(unix)]

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

use serde_json::Value as Json;

const BIN: &str = env!("CARGO_BIN_EXE_schemac");

fn here(rel: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join(rel)
}

struct Answer {
    rc: i32,
    stdout: String,
    stderr: String,
}

fn run<S: AsRef<std::ffi::OsStr>>(dir: &Path, args: &[S]) -> Answer {
    let o = Command::new(BIN)
        .args(args)
        .current_dir(dir)
        .stdin(Stdio::null())
        .output()
        .expect("schemac runs");
    Answer {
        rc: o.status.code().unwrap_or(-1),
        stdout: String::from_utf8_lossy(&o.stdout).into(),
        stderr: String::from_utf8_lossy(&o.stderr).into(),
    }
}

/// `schemac check -f schema.yml --data-values-file VALUES -o json` in `dir`.
fn final_values(dir: &Path, values: &str) -> Answer {
    run(
        dir,
        &[
            "check",
            "-f",
            "schema.yml",
            "--data-values-file",
            values,
            "-o",
            "json",
        ],
    )
}

/// A temporary directory with `tests/exports/NAME` as `schema.yml`.
fn with_schema(name: &str) -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    std::fs::copy(
        here(&format!("tests/exports/{name}")),
        dir.path().join("schema.yml"),
    )
    .unwrap();
    dir
}

/// A YAML document (as schemac prints it) as JSON.
fn yaml_to_json(text: &str) -> Json {
    let node = schemac_runtime::__private::yaml_document(text);
    let json = schemac_runtime::yaml::json::marshal_json(&node.value).expect("JSON-able");
    serde_json::from_str(&json).expect("valid JSON")
}

fn openapi_meta() -> jsonschema::Validator {
    let text = std::fs::read_to_string(here("tests/exports/openapi-3.0-schema.json")).unwrap();
    let schema: Json = serde_json::from_str(&text).unwrap();
    jsonschema::options()
        .with_draft(jsonschema::Draft::Draft4)
        .build(&schema)
        .expect("the OpenAPI 3.0 schema compiles")
}

fn json_schema_validator(schema: &Json) -> Result<jsonschema::Validator, String> {
    jsonschema::meta::validate(schema).map_err(|e| format!("not a valid JSON Schema: {e}"))?;
    jsonschema::options()
        .should_validate_formats(true)
        .build(schema)
        .map_err(|e| format!("does not compile: {e}"))
}

fn errors(v: &jsonschema::Validator, instance: &Json) -> Vec<String> {
    v.iter_errors(instance)
        .map(|e| format!("{} at {}", e, e.instance_path()))
        .collect()
}

/// `args` less what selects the output (`--data-values-inspect`, `-o ...`).
fn without_output(args: &[String]) -> Vec<String> {
    let mut out = Vec::new();
    let mut skip = false;
    for a in args {
        if std::mem::take(&mut skip) {
            continue;
        }
        match a.as_str() {
            "--data-values-inspect" | "--data-values-schema-inspect" => {}
            "-o" | "--output" => skip = true,
            _ if a.starts_with("--output=") || (a.starts_with("-o") && a.len() > 2) => {}
            _ => out.push(a.clone()),
        }
    }
    out
}

/// The `-f` files of `args`.
fn files_of(args: &[String]) -> Vec<String> {
    let mut out = Vec::new();
    let mut it = args.iter();
    while let Some(a) = it.next() {
        match a.as_str() {
            "-f" | "--file" => out.extend(it.next().cloned()),
            _ if a.starts_with("--file=") => out.push(a["--file=".len()..].to_string()),
            _ => {}
        }
    }
    out
}

/// Every recorded run of the shared corpora: (directory, ytt arguments).
fn shared_runs() -> Option<Vec<(PathBuf, Vec<String>)>> {
    let shared = here("../../shared");
    if !shared.join("conformance").is_dir() || !shared.join("realworld").is_dir() {
        return None;
    }
    let lines = |p: &Path| -> Vec<String> {
        std::fs::read_to_string(p)
            .unwrap()
            .lines()
            .filter(|l| !l.is_empty())
            .map(str::to_string)
            .collect()
    };
    let mut runs = Vec::new();
    let cases = shared.join("conformance/cases");
    for group in std::fs::read_dir(&cases).unwrap().flatten() {
        for case in std::fs::read_dir(group.path())
            .into_iter()
            .flatten()
            .flatten()
        {
            if case.path().join("args").is_file() {
                runs.push((case.path(), lines(&case.path().join("args"))));
            }
        }
    }
    for pkg in std::fs::read_dir(shared.join("realworld"))
        .unwrap()
        .flatten()
    {
        for name in ["args.ok", "args.defaults"] {
            if pkg.path().join(name).is_file() {
                runs.push((pkg.path(), lines(&pkg.path().join(name))));
            }
        }
    }
    runs.sort();
    Some(runs)
}

#[test]
fn shared_corpora_exports_are_valid_and_accept_what_schemac_accepts() {
    let Some(runs) = shared_runs() else {
        eprintln!(
            "skipped: ../shared/conformance and ../shared/realworld are not beside the repository"
        );
        return;
    };
    let openapi = openapi_meta();
    let mut failures = Vec::new();
    // Exports are made once per schema (directory and files).
    let mut schemas: BTreeMap<(PathBuf, Vec<String>), Option<jsonschema::Validator>> =
        BTreeMap::new();
    let (mut accepted, mut checked, mut documents) = (0, 0, 0);
    for (dir, args) in &runs {
        let args = without_output(args);
        let name = dir.display();
        let key = (dir.clone(), files_of(&args));
        if !schemas.contains_key(&key) {
            let mut export = args.clone();
            export.extend(["--data-values-schema-inspect", "-o", "json-schema"].map(String::from));
            let a = run(dir, &[&["check".to_string()], &export[..]].concat());
            let validator = if a.rc != 0 {
                None
            } else {
                documents += 1;
                let schema: Json = serde_json::from_str(&a.stdout).expect("JSON");
                match json_schema_validator(&schema) {
                    Ok(v) => Some(v),
                    Err(e) => {
                        failures.push(format!("{name}: the JSON Schema {e}"));
                        None
                    }
                }
            };
            // The OpenAPI export with rules, of the same files.
            if validator.is_some() && !key.1.is_empty() {
                let mut inspect = vec!["inspect".to_string()];
                for f in &key.1 {
                    inspect.extend(["-f".to_string(), f.clone()]);
                }
                inspect.extend(["-o".to_string(), "openapi-v3".to_string()]);
                let a = run(dir, &inspect);
                if a.rc == 0 {
                    let doc = yaml_to_json(&a.stdout);
                    let errs = errors(&openapi, &doc);
                    if !errs.is_empty() {
                        failures.push(format!(
                            "{name}: OpenAPI with rules is not OpenAPI 3.0: {errs:?}"
                        ));
                    }
                } else if !a.stderr.contains("values") {
                    failures.push(format!("{name}: inspect failed: {}", a.stderr));
                }
            }
            schemas.insert(key.clone(), validator);
        }
        let Some(validator) = &schemas[&key] else {
            continue;
        };
        // Values schemac accepts without running the rules need not pass them.
        if args
            .iter()
            .any(|a| a.starts_with("--dangerous-data-values-disable-validation"))
        {
            continue;
        }
        let mut values = vec!["check".to_string()];
        values.extend(args.iter().cloned());
        values.extend(["-o".to_string(), "json".to_string()]);
        let a = run(dir, &values);
        if a.rc != 0 {
            continue;
        }
        accepted += 1;
        // ytt prints nothing for null and empty documents.
        let Ok(instance) = serde_json::from_str::<Json>(&a.stdout) else {
            continue;
        };
        checked += 1;
        let errs = errors(validator, &instance);
        if !errs.is_empty() {
            failures.push(format!(
                "{name} {args:?}: accepted by schemac, rejected by its JSON Schema: {errs:?}"
            ));
        }
    }
    eprintln!(
        "{} runs, {documents} JSON Schemas, {accepted} accepted runs, {checked} validated",
        runs.len()
    );
    assert!(documents > 100 && checked > 100, "too few exports checked");
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// A schema with every rule the JSON Schema states exactly.
const RULES_SCHEMA: &str = r#"#@data/values-schema
---
#@schema/validation min=1
minimum: 1
#@schema/validation max=10
maximum: 1
#@schema/validation min_len=1
min_len_string: "x"
#@schema/validation max_len=3
max_len_string: "x"
#@schema/validation min_len=1
min_len_array: [1]
#@schema/validation max_len=1
max_len_array: [1]
#@schema/type any=True
#@schema/validation min_len=1
min_len_map: null
#@schema/type any=True
#@schema/validation max_len=1
max_len_map: {a: 1}
#@schema/nullable
#@schema/validation one_of=["a", "b"]
one_of: "a"
#@schema/nullable
#@schema/validation not_null=True
not_null: 1
#@schema/validation one_not_null=True
one_not_null:
  #@schema/nullable
  a: 0
  #@schema/nullable
  b: 0
#@schema/validation len=2
len: [0]
#@schema/validation format="ipv4"
format: "10.0.0.1"
#@schema/validation matches="^v[0-9]+$"
matches: "v1"
#@schema/validation starts_with="https://"
starts_with: "https://x"
#@schema/validation ends_with=".git"
ends_with: "a.git"
#@schema/validation contains=5
contains: [5]
#@schema/validation multiple_of=3
multiple_of: 3
#@schema/validation even=True
even: 2
#@schema/validation odd=True
odd: 1
#@schema/validation unique=True
unique: [0]
"#;

/// Values that pass every rule of [`RULES_SCHEMA`] (arrays default to empty).
const GOOD_VALUES: &[(&str, &str)] = &[
    ("one_not_null", "{a: 1}"),
    ("not_null", "1"),
    ("min_len_map", "{a: 1}"),
    ("min_len_array", "[1]"),
    ("len", "[1, 2]"),
    ("contains", "[5]"),
];

fn values_file(replace: Option<(&str, &str)>) -> String {
    let mut out = String::new();
    for (k, v) in GOOD_VALUES
        .iter()
        .copied()
        .filter(|(k, _)| replace.is_none_or(|(r, _)| r != *k))
    {
        out.push_str(&format!("{k}: {v}\n"));
    }
    if let Some((k, v)) = replace {
        out.push_str(&format!("{k}: {v}\n"));
    }
    out
}

#[test]
fn exactly_mapped_rules_reject_what_schemac_rejects() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("schema.yml"), RULES_SCHEMA).unwrap();
    std::fs::write(dir.path().join("good.yml"), values_file(None)).unwrap();
    let a = run(dir.path(), &["inspect", "schema.yml", "-o", "json-schema"]);
    assert_eq!(a.rc, 0, "{}", a.stderr);
    let schema: Json = serde_json::from_str(&a.stdout).unwrap();
    // Only the looser string length (characters rather than bytes) is noted.
    let noted: Vec<&String> = schema["properties"]
        .as_object()
        .unwrap()
        .iter()
        .filter(|(_, v)| v.get("x-schemac-rules").is_some())
        .map(|(k, _)| k)
        .collect();
    assert_eq!(noted, ["max_len_map", "max_len_string"], "{}", a.stdout);
    let validator = json_schema_validator(&schema).unwrap();
    let values = |file: &str, disabled: bool| {
        let mut args = vec!["check", "-f", "schema.yml", "--data-values-file", file];
        if disabled {
            args.push("--dangerous-data-values-disable-validation");
        }
        args.extend(["-o", "json"]);
        run(dir.path(), &args)
    };
    let good = values("good.yml", false);
    assert_eq!(good.rc, 0, "{}", good.stderr);
    assert_eq!(
        errors(&validator, &serde_json::from_str(&good.stdout).unwrap()),
        Vec::<String>::new()
    );
    for (key, bad, keyword) in [
        ("minimum", "0", "minimum"),
        ("maximum", "11", "maximum"),
        ("min_len_string", "\"\"", "minLength"),
        ("max_len_string", "abcd", "maxLength"),
        ("min_len_array", "[]", "minItems"),
        ("max_len_array", "[1, 2]", "maxItems"),
        ("min_len_map", "{}", "minProperties"),
        ("max_len_map", "{a: 1, b: 2}", "maxProperties"),
        ("one_of", "c", "enum"),
        ("not_null", "null", "type"),
        ("one_not_null", "{a: 1, b: 2}", "oneOf"),
        ("len", "[1]", "minItems"),
        ("format", "10.0.0.256", "format"),
        ("matches", "x1", "pattern"),
        ("starts_with", "http://x", "pattern"),
        ("ends_with", "a.svn", "pattern"),
        ("contains", "[1]", "contains"),
        ("multiple_of", "4", "multipleOf"),
        ("even", "3", "multipleOf"),
        ("odd", "4", "not"),
        ("unique", "[1, 1]", "uniqueItems"),
    ] {
        let file = format!("bad-{key}.yml");
        std::fs::write(dir.path().join(&file), values_file(Some((key, bad)))).unwrap();
        let checked = values(&file, false);
        assert_eq!(
            checked.rc, 1,
            "{key}: schemac accepted {bad}: {}",
            checked.stdout
        );
        assert!(
            checked.stderr.contains(&format!("\n  {key}\n")),
            "{key}: {}",
            checked.stderr
        );
        let all = values(&file, true);
        assert_eq!(all.rc, 0, "{key}: {}", all.stderr);
        let instance: Json = serde_json::from_str(&all.stdout).unwrap();
        let errs = errors(&validator, &instance);
        assert!(
            errs.len() == 1 && errs[0].contains(&format!("/{key}")),
            "{key}={bad} ({keyword}): the JSON Schema should reject it once, said {errs:?}"
        );
        let keyword_schema = &schema["properties"][key];
        assert!(
            keyword_schema
                .to_string()
                .contains(&format!("\"{keyword}\"")),
            "{key}: {keyword_schema}"
        );
    }
}

/// Schemas shaped like published packages' (nested maps, arrays of maps, rules, docs).
const SNAPSHOT_SCHEMAS: &[&str] = &["webapp", "scalar"];

#[test]
fn references_match_their_reviewed_snapshots() {
    let dir = here("tests/exports");
    let bless = std::env::var_os("SCHEMAC_BLESS").is_some();
    for name in SNAPSHOT_SCHEMAS {
        for (format, ext) in [
            ("markdown", "md"),
            ("html", "html"),
            ("json-schema", "json"),
        ] {
            let schema = format!("{name}.yml");
            let a = run(&dir, &["inspect", &schema, "-o", format]);
            assert_eq!(a.rc, 0, "{name} {format}: {}", a.stderr);
            // The same schema gives the same bytes.
            assert_eq!(
                run(&dir, &["inspect", &schema, "-o", format]).stdout,
                a.stdout
            );
            let golden = dir.join(format!("{name}.{ext}"));
            if bless {
                std::fs::write(&golden, &a.stdout).unwrap();
            }
            assert_eq!(
                a.stdout,
                std::fs::read_to_string(&golden).unwrap_or_default(),
                "{} differs (SCHEMAC_BLESS=1 to update, then review)",
                golden.display()
            );
            // `--check` agrees with the snapshot.
            let check = run(
                &dir,
                &[
                    "inspect",
                    &schema,
                    "-o",
                    format,
                    "--check",
                    &format!("{name}.{ext}"),
                ],
            );
            assert_eq!(
                (check.rc, check.stderr.as_str()),
                (0, ""),
                "{name} {format}"
            );
        }
    }
}

#[test]
fn check_names_a_file_that_is_out_of_date() {
    let dir = with_schema("webapp.yml");
    let markdown = |flag: &str, file: &str| {
        run(
            dir.path(),
            &["inspect", "schema.yml", "-o", "markdown", flag, file],
        )
    };
    let write = markdown("--output-file", "VALUES.md");
    assert_eq!(
        (write.rc, write.stdout.as_str()),
        (0, ""),
        "{}",
        write.stderr
    );
    let current = markdown("--check", "VALUES.md");
    assert_eq!((current.rc, current.stderr.as_str()), (0, ""));
    std::fs::write(dir.path().join("VALUES.md"), "# Data values\n").unwrap();
    let stale = markdown("--check", "VALUES.md");
    assert_eq!(stale.rc, 1);
    assert_eq!(
        stale.stderr,
        "schemac: Error: VALUES.md is out of date: run `schemac inspect schema.yml -o markdown --output-file VALUES.md`\n"
    );
    let missing = markdown("--check", "NONE.md");
    assert_eq!(missing.rc, 1);
    assert!(
        missing.stderr.starts_with("schemac: Error: NONE.md: "),
        "{}",
        missing.stderr
    );
    // What is not a regular file is not the export, and is not read: a FIFO blocked the run.
    #[cfg(unix)]
    {
        let fifo = dir.path().join("FIFO.md");
        let made = std::process::Command::new("mkfifo").arg(&fifo).status();
        if made.is_ok_and(|s| s.success()) {
            let fifo = markdown("--check", "FIFO.md");
            assert_eq!(
                (fifo.rc, fifo.stderr.as_str()),
                (1, "schemac: Error: FIFO.md: a FIFO, not a regular file\n")
            );
        }
    }
    let bad = run(dir.path(), &["inspect", "schema.yml", "-o", "yaml"]);
    assert_eq!(bad.rc, 2, "{}", bad.stderr);
}

#[test]
fn html_links_resolve_and_the_page_needs_no_network() {
    let html = std::fs::read_to_string(here("tests/exports/webapp.html")).unwrap();
    for link in html.split("href=\"#").skip(1) {
        let anchor = &link[..link.find('"').unwrap()];
        assert!(
            html.contains(&format!("id=\"{anchor}\"")),
            "no table {anchor}"
        );
    }
    for remote in ["http://", "https://", "src=", "<link"] {
        assert!(!html.contains(remote), "the page loads {remote}");
    }
    assert!(html.contains("name=\"viewport\""));
}

/// The page in headless Chromium: rows and tables shown, and the filter from the address.
#[test]
fn html_filters_in_a_browser() {
    let chromium = Path::new("/usr/bin/chromium");
    if !chromium.exists() {
        eprintln!("skipped: /usr/bin/chromium is missing (apt-get install -y chromium)");
        return;
    }
    let page = here("tests/exports/webapp.html");
    let dom = |fragment: &str| {
        let profile = tempfile::tempdir().unwrap();
        let o = Command::new(chromium)
            .args([
                "--headless",
                "--no-sandbox",
                "--disable-gpu",
                "--no-first-run",
                "--disable-background-networking",
                "--disable-component-update",
                "--disable-sync",
            ])
            .arg(format!("--user-data-dir={}", profile.path().display()))
            .arg("--dump-dom")
            .arg(format!("file://{}{fragment}", page.display()))
            .stdin(Stdio::null())
            .output()
            .expect("chromium runs");
        assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
        String::from_utf8(o.stdout).unwrap()
    };
    let row = |dom: &str, path: &str| -> Option<bool> {
        let start = dom.find(&format!("<tr data-path=\"{path}\""))?;
        let tag = &dom[start..start + dom[start..].find('>')?];
        Some(tag.contains("hidden"))
    };
    let all = dom("");
    let rows = all.matches("<tr data-path=").count();
    assert!(
        all.contains(&format!("data-shown=\"{rows}\"")),
        "every row shown"
    );
    assert_eq!(row(&all, "ingress.hosts[].paths"), Some(false));
    let filtered = dom("#filter=port");
    assert!(filtered.contains("data-shown=\"2\""), "{filtered}");
    assert_eq!(row(&filtered, "service.port"), Some(false));
    assert_eq!(row(&filtered, "service.targetPort"), Some(false));
    assert_eq!(row(&filtered, "replicas"), Some(true));
    assert!(filtered.contains("<section class=\"values\" id=\"dv-root\" hidden"));
    // Words match anywhere in a row, all of them.
    let words = dom("#filter=one%20of%20never");
    assert!(words.contains("data-shown=\"1\""), "{words}");
    assert_eq!(row(&words, "image.pullPolicy"), Some(false));
}

#[test]
fn check_exports_json_schema_and_keeps_ytts_messages() {
    let dir = with_schema("webapp.yml");
    let check = |args: &[&str]| run(dir.path(), &[&["check", "-f", "schema.yml"], args].concat());
    let a = check(&["--data-values-schema-inspect", "-o", "json-schema"]);
    assert_eq!(a.rc, 0, "{}", a.stderr);
    let inspect = run(dir.path(), &["inspect", "schema.yml", "-o", "json-schema"]);
    assert_eq!(a.stdout, inspect.stdout);
    // ytt's messages for the formats it knows, and for a schema format without the flag.
    let a = check(&["--data-values-schema-inspect", "-o", "yaml"]);
    assert_eq!(
        a.stderr,
        "schemac: Error: Data values schema export only supported in OpenAPI v3 format; specify format with --output=openapi-v3 flag\n"
    );
    let a = check(&["-o", "json-schema"]);
    assert_eq!(
        a.stderr,
        "schemac: Error: Output type currently only supported for data values schema (i.e. include --data-values-schema-inspect)\n"
    );
    let a = check(&["--data-values-schema-inspect", "-o", "jsonschema"]);
    assert_eq!(
        a.stderr,
        "schemac: Error: Unknown output type 'jsonschema'\n"
    );
}

/// The formats written as `format` keywords accept the edge cases schemac's definitions accept
/// (checked with formats asserted, as strict validators do).
#[test]
fn exported_formats_accept_what_schemac_accepts() {
    let cases: &[(&str, &[&str])] = &[
        (
            "date-time",
            &[
                "2024-01-15T10:00:00Z",
                "2024-01-15t10:00:00.5z",
                "2016-12-31T23:59:60Z",
                "2024-02-29T00:00:00+23:59",
            ],
        ),
        ("date", &["2024-02-29", "0001-01-01"]),
        (
            "email",
            &[
                "root@localhost",
                "a.b+c@example.com",
                "a@[127.0.0.1]",
                "\"q t\"@example.org",
            ],
        ),
        (
            "hostname",
            &[
                "a",
                "1.2.3.4",
                "a-b.c",
                "xn--bcher-kva.example",
                &"x".repeat(63),
            ],
        ),
        ("ipv4", &["10.0.0.1", "255.255.255.255", "0.0.0.0"]),
        ("ipv6", &["::1", "fe80::1", "::ffff:1.2.3.4", "2001:db8::"]),
        (
            "uri",
            &[
                "https://example.com/a?b#c",
                "urn:isbn:0451450523",
                "mailto:a@b",
            ],
        ),
    ];
    let dir = tempfile::tempdir().unwrap();
    let mut schema = String::from("#@data/values-schema\n---\n");
    for (format, _) in cases {
        schema.push_str(&format!(
            "#@schema/nullable\n#@schema/validation format=\"{format}\"\n{format}: \"\"\n"
        ));
    }
    std::fs::write(dir.path().join("schema.yml"), schema).unwrap();
    let a = run(dir.path(), &["inspect", "schema.yml", "-o", "json-schema"]);
    assert!(!a.stdout.contains("x-schemac-rules"), "{}", a.stdout);
    let validator = json_schema_validator(&serde_json::from_str(&a.stdout).unwrap()).unwrap();
    for (format, values) in cases {
        for value in *values {
            let text = format!("{format}: '{}'\n", value.replace('\'', "''"));
            std::fs::write(dir.path().join("values.yml"), text).unwrap();
            let checked = final_values(dir.path(), "values.yml");
            assert_eq!(checked.rc, 0, "{format} {value}: {}", checked.stderr);
            let instance: Json = serde_json::from_str(&checked.stdout).unwrap();
            assert_eq!(
                errors(&validator, &instance),
                Vec::<String>::new(),
                "{format} {value}"
            );
        }
    }
}

/// Built validators carry the JSON Schema as YAML text (like the OpenAPI document), read back
/// when asked for: the text must read back as the same document.
#[test]
fn json_schema_survives_the_validators_yaml_round_trip() {
    let Some(runs) = shared_runs() else {
        eprintln!("skipped: ../shared is not beside the repository");
        return;
    };
    let mut seen = std::collections::BTreeSet::new();
    let mut compared = 0;
    for (dir, args) in runs {
        let files: Vec<String> = files_of(&args)
            .iter()
            .map(|f| dir.join(f).display().to_string())
            .collect();
        if !seen.insert(files.clone()) {
            continue;
        }
        let Ok(compiled) = schemac::standalone::compile(&files, &Default::default()) else {
            continue;
        };
        let doc = schemac::export::jsonschema::to_json_schema(&compiled.schema);
        let yaml = schemac_runtime::yaml::emit::to_yaml(&doc.value);
        let json = |v: &schemac_runtime::value::Value| schemac_runtime::yaml::json::marshal_json(v);
        assert_eq!(
            json(&schemac_runtime::__private::yaml_document(&yaml).value),
            json(&doc.value),
            "{}",
            dir.display()
        );
        compared += 1;
    }
    assert!(compared > 100, "only {compared} schemas compared");
}

/// ytt counts a string's length in UTF-8 bytes (`max_len=1` rejects "é", checked with the
/// oracle): `min_len=2` accepts "é", which `minLength: 2` would reject, so it is noted rather
/// than exported; `max_len=1` exports as the looser `maxLength: 1`.
#[test]
fn string_lengths_in_bytes_stay_sound() {
    let dir = tempfile::tempdir().unwrap();
    let schema = "#@data/values-schema\n---\n#@schema/validation min_len=2\nlong: \"ab\"\n#@schema/validation max_len=1\nshort: \"a\"\n";
    std::fs::write(dir.path().join("schema.yml"), schema).unwrap();
    let a = run(dir.path(), &["inspect", "schema.yml", "-o", "json-schema"]);
    let json: Json = serde_json::from_str(&a.stdout).unwrap();
    assert!(json["properties"]["long"].get("minLength").is_none());
    assert_eq!(
        json["properties"]["long"]["x-schemac-rules"][0]["rule"],
        "min_len=2"
    );
    assert_eq!(json["properties"]["short"]["maxLength"], 1);
    let validator = json_schema_validator(&json).unwrap();
    let check = |values: &str| {
        std::fs::write(dir.path().join("values.yml"), values).unwrap();
        final_values(dir.path(), "values.yml")
    };
    let accepted = check("long: é\n");
    assert_eq!(accepted.rc, 0, "{}", accepted.stderr);
    let instance: Json = serde_json::from_str(&accepted.stdout).unwrap();
    assert_eq!(errors(&validator, &instance), Vec::<String>::new());
    let rejected = check("short: é\n");
    assert_eq!(rejected.rc, 1);
    assert!(
        rejected.stderr.contains("found: length = 2"),
        "{}",
        rejected.stderr
    );
}

#[test]
fn references_escape_html_and_give_thousands_of_maps_anchors_quickly() {
    let dir = tempfile::tempdir().unwrap();
    let mut schema = String::from("#@data/values-schema\n---\n#@schema/desc \"<script>a()</script>\"\nm:\n  #@schema/desc \"</td><img src=x onerror=b()>\"\n  k: 1\n");
    // Keys without an ASCII letter share one anchor base (`dv-root-N`): finding the next free
    // one was a search of every table, cubic in their number (3,000 took 14 s).
    for i in 0..3000 {
        let key = char::from_u32(0x4e00 + i).unwrap();
        schema.push_str(&format!("{key}:\n  x: 1\n"));
    }
    std::fs::write(dir.path().join("schema.yml"), schema).unwrap();
    for format in ["markdown", "html"] {
        let started = std::time::Instant::now();
        let a = run(dir.path(), &["inspect", "schema.yml", "-o", format]);
        assert_eq!(a.rc, 0, "{format}: {}", a.stderr);
        assert!(
            started.elapsed().as_secs() < 5,
            "{format}: {:?}",
            started.elapsed()
        );
        assert!(
            a.stdout.contains("&lt;script&gt;a()&lt;/script&gt;"),
            "{format}"
        );
        assert!(
            !a.stdout.contains("<script>a()") && !a.stdout.contains("<img"),
            "{format}"
        );
        assert!(a.stdout.contains("dv-root-3001"), "{format}");
    }
}
