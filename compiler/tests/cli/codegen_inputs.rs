//! What `schemac gen`, `build` and `inspect` read of a schema's files, and the text budget of
//! generated code: hostile input ends in an answer or a named error, never a hang or an abort.

use super::*;

/// Runs `schemac ARGS` in `dir` with `env` set: the exit status and standard error.
fn schemac_in(dir: &Path, args: &[&str], env: &[(&str, &str)]) -> (Option<i32>, String) {
    let mut c = Command::new(BIN);
    c.args(args)
        .current_dir(dir)
        .envs(env.iter().copied())
        .stdin(Stdio::null());
    let o = c.output().unwrap();
    (
        o.status.code(),
        String::from_utf8_lossy(&o.stderr).into_owned(),
    )
}

#[test]
fn a_fifo_no_template_loads_hangs_no_export_nor_build() {
    // `inspect`, `gen` and `build` read every file given, to build it in: a FIFO nothing writes
    // to, among a folder's files, made them wait for ever. `inspect` builds nothing in, and
    // opens no file a template does not load, as ytt (`--data-values-schema-inspect`); `gen`
    // and `build` refuse the FIFO, naming it, before any work.
    let dir = workdir().join("codegen-unread-fifo");
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(dir.join("schema")).unwrap();
    std::fs::write(
        dir.join("schema/schema.yml"),
        "#@data/values-schema\n---\na: 1\n",
    )
    .unwrap();
    let made = Command::new("mkfifo")
        .arg(dir.join("schema/pipe.txt"))
        .status();
    assert!(made.unwrap().success());
    let (rc, stderr) = schemac_in(&dir, &["inspect", "-o", "openapi-v3", "schema"], &[]);
    assert_eq!(rc, Some(0), "{stderr}");
    let refused = "schemac: Error: Reading file 'pipe.txt': a FIFO no template loads is not opened";
    let out = dir.join("validator").to_string_lossy().into_owned();
    for args in [
        vec!["gen", "schema"],
        vec!["build", "-q", "-o", &out, "schema"],
    ] {
        let (rc, stderr) = schemac_in(&dir, &args, &[]);
        assert_eq!(rc, Some(1), "{args:?}: {stderr}");
        assert!(stderr.starts_with(refused), "{args:?}: {stderr}");
    }
    assert!(!dir.join("validator").exists());
}

#[test]
fn schema_text_past_the_codegen_budget_is_refused_with_its_position() {
    // A schema's text is written several times into its Rust (typed structs, IR, OpenAPI, JSON
    // Schema): a 50 MB default string made 250 MB of Rust in 12 s, and a 200 MB one made by
    // Starlark aborted allocating. Keys, defaults' strings, documentation (examples too) and rules'
    // descriptions and arguments are counted.
    let dir = workdir().join("codegen-text-budget");
    std::fs::create_dir_all(&dir).unwrap();
    let budget = [("SCHEMAC_MAX_CODEGEN_BYTES", "1000")];
    for (name, body, line) in [
        ("default.yml", format!("a: {}\n", "x".repeat(1001)), 3),
        ("starlark.yml", "b: 1\na: #@ \"x\" * 1001\n".to_string(), 4),
        ("key.yml", format!("b: 1\n{}: 1\n", "k".repeat(1001)), 4),
        (
            "doc.yml",
            format!("#@schema/desc \"{}\"\na: 1\n", "d".repeat(1001)),
            4,
        ),
        (
            "keys.yml",
            "#@schema/default {\"k\" * 600: 1, \"j\" * 600: 2}\n#@schema/type any=True\na: {}\n"
                .to_string(),
            5,
        ),
        (
            "example.yml",
            "#@schema/examples (\"e\", {\"k\": [\"x\" * 1001]})\n#@schema/type any=True\na: {}\n"
                .to_string(),
            5,
        ),
        (
            "one-of.yml",
            "#@schema/validation one_of=[\"a\", \"x\" * 1001]\na: a\n".to_string(),
            4,
        ),
        (
            "rule.yml",
            "#@schema/validation (\"d\" * 1001, lambda v: True)\na: 1\n".to_string(),
            4,
        ),
    ] {
        std::fs::write(dir.join(name), format!("#@data/values-schema\n---\n{body}")).unwrap();
        let (rc, stderr) = schemac_in(&dir, &["gen", name], &budget);
        assert_eq!(rc, Some(1), "{name}: {stderr}");
        let error = format!("schemac: Error: {name}:{line}: the schema has more than 1000 bytes of keys, default values' strings, documentation and rules, the budget of generated code (its Rust would be too large to compile; raise the budget with SCHEMAC_MAX_CODEGEN_BYTES)\n");
        assert_eq!(stderr, error, "{name}");
        let (rc, stderr) = schemac_in(&dir, &["gen", name], &[]);
        assert_eq!(rc, Some(0), "{name} within the default budget: {stderr}");
        // `check` and `inspect` take the schema as it is.
        let (rc, stderr) = schemac_in(&dir, &["check", "-f", name], &budget);
        assert_eq!(rc, Some(0), "{name}: {stderr}");
    }
}

#[test]
fn a_schema_calling_math_makes_a_validator_that_warns_as_ytt() {
    // ytt warns after a run whose schema called a `@ytt:math` function; a built validator has
    // the values those calls made built in, so the generated code says it calls math (the
    // validator warns where its run takes the schema). A schema without such calls says not.
    let dir = workdir().join("codegen-math-warning");
    std::fs::create_dir_all(&dir).unwrap();
    let math =
        "#@ load(\"@ytt:math\", \"math\")\n#@data/values-schema\n---\nk: #@ math.floor(2.5)\n";
    std::fs::write(dir.join("math.yml"), math).unwrap();
    std::fs::write(dir.join("plain.yml"), "#@data/values-schema\n---\nk: 2\n").unwrap();
    for (file, calls) in [("math.yml", true), ("plain.yml", false)] {
        let o = Command::new(BIN)
            .args(["gen", file])
            .current_dir(&dir)
            .output()
            .unwrap();
        let code = String::from_utf8_lossy(&o.stdout);
        assert!(
            o.status.success(),
            "{file}: {}",
            String::from_utf8_lossy(&o.stderr)
        );
        assert!(
            o.stderr.is_empty(),
            "{file}: gen warns only before an error"
        );
        let said = format!("schema_calls_math: {calls},");
        assert!(
            code.contains(&said),
            "{file}: no {said:?} in the generated code"
        );
    }
}

#[test]
fn inspect_reads_a_packages_config_as_ytts_schema_inspect_and_gen_builds_its_values_in() {
    // A package's `config/` holds its schema beside data values files and templates: `ytt -f
    // config/ --data-values-schema-inspect` prints the schema, not evaluating the data values
    // documents (one here fails: 1/0). `inspect` refused the folder ("Expected only schema
    // files"), as 40 of 89 published packages' config folders were; it now exports the schema
    // of the schema file alone. `gen` sets the data values file apart and builds it in.
    let dir = workdir().join("codegen-inspect-config");
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(dir.join("config")).unwrap();
    std::fs::create_dir_all(dir.join("alone")).unwrap();
    let schema = "#@data/values-schema\n---\na: 1\nb: x\n";
    std::fs::write(dir.join("config/schema.yml"), schema).unwrap();
    std::fs::write(dir.join("alone/schema.yml"), schema).unwrap();
    std::fs::write(
        dir.join("config/values.yml"),
        "#@data/values\n---\na: #@ 1/0\n",
    )
    .unwrap();
    std::fs::write(
        dir.join("config/deploy.yml"),
        "#@ load(\"@ytt:data\", \"data\")\n---\nkind: Foo\nv: #@ data.values.a\n",
    )
    .unwrap();
    let export = |folder: &str, format: &str| {
        let o = Command::new(BIN)
            .args(["inspect", "-o", format, folder])
            .current_dir(&dir)
            .stdin(Stdio::null())
            .output()
            .unwrap();
        assert_eq!(
            o.status.code(),
            Some(0),
            "{folder} {format}: {}",
            String::from_utf8_lossy(&o.stderr)
        );
        String::from_utf8(o.stdout).unwrap()
    };
    for format in ["openapi-v3", "json-schema", "markdown"] {
        // (The Markdown's header names the files it was made from.)
        let whole = export("config", format).replace("config", "alone");
        assert!(whole.contains("integer"), "{format}: {whole}");
        assert_eq!(whole, export("alone", format), "{format}");
    }
    // A validator reads the package's data values file before the user's, as ytt given the
    // folder first does (its code fails in each run, not when built, as in ytt); the code
    // needs the interpreter.
    let o = Command::new(BIN)
        .args(["gen", "config"])
        .current_dir(&dir)
        .stdin(Stdio::null())
        .output()
        .unwrap();
    let code = String::from_utf8_lossy(&o.stdout);
    assert_eq!(
        o.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&o.stderr)
    );
    // (built in with the other files, in their order: `deploy.yml`, `schema.yml`, `values.yml`)
    assert!(code.contains("values_files: &[2usize]"), "{code}");
    assert!(
        code.contains("(\"values.yml\", \"#@data/values\\n---\\na: #@ 1/0\\n\")"),
        "{code}"
    );
    assert!(code.contains("__schemac_requires_starlark!"), "{code}");
}

#[test]
fn schema_commands_read_symlinks_as_ytts_flags_allow() {
    // A package folder holding a symlink out of it: refused as ytt refuses it, unless
    // `--allow-symlink-destination` covers its destination (each use a comma-separated list,
    // as pflag reads it) or all are allowed.
    let dir = workdir().join("codegen-symlinks");
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(dir.join("pkg")).unwrap();
    std::fs::create_dir_all(dir.join("outside")).unwrap();
    std::fs::write(
        dir.join("pkg/schema.yml"),
        "#@data/values-schema\n---\na: 1\n",
    )
    .unwrap();
    std::fs::write(dir.join("outside/o.yml"), "#@data/values\n---\na: 2\n").unwrap();
    std::os::unix::fs::symlink("../outside/o.yml", dir.join("pkg/z-link.yml")).unwrap();
    for command in ["gen", "inspect", "explain-rules"] {
        let with = |flags: &[&str]| {
            let mut args = vec![command];
            if command == "inspect" {
                args.extend(["-o", "json-schema"]);
            }
            args.extend(flags);
            args.push("pkg");
            schemac_in(&dir, &args, &[])
        };
        let (rc, err) = with(&[]);
        assert_eq!(rc, Some(1), "{command}: {err}");
        assert!(
            err.contains("Expected symlink file 'pkg/z-link.yml' -> 'outside/o.yml' to be allowed"),
            "{command}: {err}"
        );
        for flags in [
            &["--allow-symlink-destination", "outside"][..],
            &["--allow-symlink-destination=elsewhere,outside"],
            &["--dangerous-allow-all-symlink-destinations"],
        ] {
            let (rc, err) = with(flags);
            assert_eq!(rc, Some(0), "{command} {flags:?}: {err}");
        }
        let (rc, err) = with(&["--allow-symlink-destination", "\"a,b"]);
        assert_eq!(rc, Some(1), "{command}: {err}");
        assert!(
            err.contains("extraneous or missing \" in quoted-field"),
            "{err}"
        );
    }
}

#[test]
fn a_dash_is_standard_output_or_input_and_no_file() {
    // `gen -o -` and `inspect --output-file -` print, `inspect --check -` reads standard
    // input; they wrote (or read) a file named `-`. A binary is not printed.
    let dir = workdir().join("codegen-dash");
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(dir.join("s.yml"), "#@data/values-schema\n---\na: 1\n").unwrap();
    let run = |args: &[&str], stdin: &[u8]| {
        let mut child = Command::new(BIN)
            .args(args)
            .current_dir(&dir)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        use std::io::Write;
        let _ = child.stdin.take().unwrap().write_all(stdin);
        let o = child.wait_with_output().unwrap();
        (
            o.status.code(),
            String::from_utf8_lossy(&o.stdout).into_owned(),
            String::from_utf8_lossy(&o.stderr).into_owned(),
        )
    };
    let (rc, printed, _) = run(&["gen", "s.yml", "-o", "-"], b"");
    assert_eq!(
        (rc, printed.starts_with("// Generated by schemac")),
        (Some(0), true)
    );
    let (rc, export, _) = run(&["inspect", "s.yml", "-o", "json-schema"], b"");
    assert_eq!(rc, Some(0));
    let dashed = run(
        &[
            "inspect",
            "s.yml",
            "-o",
            "json-schema",
            "--output-file",
            "-",
        ],
        b"",
    );
    assert_eq!((dashed.0, &dashed.1), (Some(0), &export));
    let check = |stdin: &str| {
        run(
            &["inspect", "s.yml", "-o", "json-schema", "--check", "-"],
            stdin.as_bytes(),
        )
    };
    assert_eq!(check(&export).0, Some(0));
    let (rc, _, err) = check("{}\n");
    assert_eq!(rc, Some(1));
    assert!(
        err.contains("standard input is not what `schemac inspect s.yml -o json-schema` writes"),
        "{err}"
    );
    let (rc, _, err) = run(&["build", "s.yml", "-o", "-"], b"");
    assert_eq!(rc, Some(1));
    assert!(err.contains("not written to standard output"), "{err}");
    assert!(!dir.join("-").exists());
}
