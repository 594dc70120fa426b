//! Budgets of `schemac check`, run as a process: each hostile input ends in the error of a
//! named budget (README "Budgets") or in an answer, never in a crash or a hang.

use super::*;

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
    run_in(&dir, &args, env)
}

/// Runs `schemac ARGS` in `dir` with `env` set: the exit status, standard output and standard
/// error.
fn run_in(dir: &Path, args: &[&str], env: &[(&str, &str)]) -> (Option<i32>, String, String) {
    let o = Command::new(BIN)
        .args(args)
        .current_dir(dir)
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
fn a_comprehension_meets_the_heap_budget_item_by_item() {
    // A comprehension runs no statement: a dict of 10^8 entries grew to 5 GB (a crash), a
    // list of 10^8 small lists to 12 GB, before the next statement looked at the heap. Each
    // item made is looked at now, and counted once against the statement budget (a call in
    // it counted twice: 5.1 * 10^7 items passed the budget of 10^8). Budget lowered.
    let memory = [("SCHEMAC_STARLARK_MEMORY", "50000000")];
    for expr in [
        "{i: i for i in range(5000000)}",
        "[[i, i, i, i, i, i] for i in range(5000000)]",
    ] {
        let values = format!("#@data/values\n---\na: #@ len({expr})\n");
        let (rc, stderr) = check_values("comprehension-heap", &values, &memory);
        assert_eq!(rc, Some(1), "{stderr}");
        assert!(
            stderr.contains("- evaluation stopped: it allocated more than 50000000 bytes (raise the budget with SCHEMAC_STARLARK_MEMORY)\n    in <toplevel>\n      values.yml:3 | a: #@ len("),
            "{expr}: {stderr}"
        );
    }
    let steps = [("SCHEMAC_STARLARK_STEPS", "2000000")];
    let values = "#@data/values\n---\na: #@ len([len(\"\") for i in range(1500000)])\n";
    let (rc, stderr) = check_values("comprehension-steps", values, &steps);
    assert_eq!(rc, Some(0), "{stderr}");
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
fn toml_nested_past_the_value_depth_budget_is_an_error() {
    // BurntSushi (ytt's decoder) has no depth limit and walks each key from the top: 10,000
    // nested inline tables took ytt 16 s. schemac follows a document as deep as Starlark values
    // go, each level at the same cost: 200,000 nested arrays, past the default budget, and
    // 2,000 nested inline tables under a budget of 1,000.
    let arrays = format!("a = {}1{}\n", "[".repeat(200_000), "]".repeat(200_000));
    let tables = format!("a = {}1{}\n", "{a = ".repeat(2_000), "}".repeat(2_000));
    let values = "#@ load(\"@ytt:toml\", \"toml\")\n#@ load(\"@ytt:data\", \"data\")\n#@data/values\n---\na: #@ len(toml.decode(data.read(\"doc.toml\")))\n";
    for (doc, env, levels) in [
        (&arrays, &[][..], 100_000),
        (&tables, &[("SCHEMAC_MAX_VALUE_DEPTH", "1000")][..], 1_000),
    ] {
        let files = [("values.yml", values), ("doc.toml", doc.as_str())];
        let (rc, _, stderr) = check_files("toml-nested", &files, env);
        assert_eq!(rc, Some(1), "{stderr}");
        let error = format!("- toml.decode: toml: line 1: collections nested deeper than {levels} levels (raise the budget with SCHEMAC_MAX_VALUE_DEPTH)\n    in <toplevel>\n      values.yml:5 |");
        assert!(stderr.contains(&error), "{stderr}");
    }
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
        stderr.contains("- evaluation stopped: a product of integers of about 6647816 bits is beyond the budget of 4000000 bits (raise it with SCHEMAC_STARLARK_INT_BITS)\n    in grow\n      values.yml:4 | #@     x *= x"),
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
        stderr.contains("- evaluation stopped: int() of a number of at least 30000000 bits is beyond the budget of 4000000 bits (raise it with SCHEMAC_STARLARK_INT_BITS)\n    in <toplevel>\n      values.yml:4 | v: #@ int(\"9\" * 10000000) % 7"),
        "{stderr}"
    );
}

#[test]
fn shifts_meet_the_integer_budget() {
    // A shift adds at most 511 bits (starlark-go's bound on its count), but in a loop the
    // integer grows past the budget; writing a 40-million-bit one took 21 seconds.
    let values = "#@ def grow():\n#@   x = 1\n#@   for i in range(8100):\n#@     x = x << 500\n#@   end\n#@   return len(str(x))\n#@ end\n#@data/values\n---\nsmall: #@ (1 << 511) % 7\nv: #@ grow()\n";
    let (rc, stderr) = check_values("integer-shifts", values, &[]);
    assert_eq!(rc, Some(1), "{stderr}");
    assert!(
        stderr.contains("- evaluation stopped: a shift to an integer of about 4000001 bits is beyond the budget of 4000000 bits (raise it with SCHEMAC_STARLARK_INT_BITS)\n    in grow\n      values.yml:4 | #@     x = x << 500"),
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
    // A default made by Starlark has no positions of its own: placed at its key's line.
    let starlark = "#@ def nest(n):\n#@   d = \"leaf\"\n#@   for i in range(n):\n#@     d = [d]\n#@   end\n#@   return d\n#@ end\n#@schema/type any=True\nfoo: #@ nest(70)\n";
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
            "starlark.yml",
            starlark.to_string(),
            "",
            "starlark.yml:11: the schema nests deeper than 64 levels",
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

#[test]
fn error_reports_past_the_error_budget_leave_their_last_entries_out() {
    // Each entry quotes its line: 300 undefined names in one list, or 300 values of the wrong
    // type in one flow map, each quote the whole line (10,000 of them: 600 MB and 1 GB of
    // report, which aborted at 4 GB of address space).
    let names: Vec<String> = (0..300).map(|i| format!("u{i}")).collect();
    let undefined = format!("#@data/values\n---\na: #@ [{}]\n", names.join(", "));
    let schema: String = (0..300).map(|i| format!("k{i}: 0\n")).collect();
    let schema = format!("#@data/values-schema\n---\n{schema}");
    let flow: Vec<String> = (0..300).map(|i| format!("k{i}: s")).collect();
    let flow = format!("#@data/values\n---\n{{{}}}\n", flow.join(", "));
    let budget = [("SCHEMAC_MAX_ERROR_BYTES", "100000")];
    for (name, files, listed) in [
        (
            "error-budget-names",
            vec![("values.yml", undefined.as_str())],
            "- undefined: u",
        ),
        (
            "error-budget-types",
            vec![
                ("schema.yml", schema.as_str()),
                ("values.yml", flow.as_str()),
            ],
            "= found: string",
        ),
    ] {
        let (rc, _, whole) = check_files(name, &files, &[]);
        assert_eq!(rc, Some(1), "{whole}");
        assert_eq!(whole.matches(listed).count(), 300, "{name}");
        let (rc, _, cut) = check_files(name, &files, &budget);
        assert_eq!(rc, Some(1), "{cut}");
        let shown = cut.matches(listed).count();
        assert!((1..300).contains(&shown), "{name}: {shown}");
        assert!(cut.len() < 110_000, "{name}: {}", cut.len());
        assert!(
            cut.contains(&format!(
                "... ({} more errors left out: the report passes the error budget of 100000 bytes; raise the budget with SCHEMAC_MAX_ERROR_BYTES)",
                300 - shown
            )),
            "{cut}"
        );
        assert!(whole.starts_with(&cut[..cut.len().min(2000)]), "{name}");
    }
}

#[test]
fn budgets_raised_to_the_largest_numbers_still_answer() {
    // The largest number a budget variable takes: a file is read whole (the input budget's
    // `+ 1` wrapped to 0, so every file read as empty and `check` printed nothing, exit 0), a
    // template runs (the memory budget, negative as an `isize`, stopped its first statement),
    // and a recursive rule stops at the call depth's ceiling, the largest value it takes (the
    // interpreter aborted reserving 32 GiB for 2^31 calls; 10,000,000 overflowed the stack).
    let largest = "18446744073709551615";
    let schema = "#@ def rec(n):\n#@   return rec(n)\n#@ end\n#@data/values-schema\n---\nnum: 0\n#@schema/validation (\"rec\", rec)\nr: 0\n";
    let values = "#@data/values\n---\nnum: #@ 6 * 7\n";
    for var in ["SCHEMAC_MAX_INPUT_BYTES", "SCHEMAC_STARLARK_MEMORY"] {
        let plain = "#@data/values-schema\n---\nnum: 0\n";
        let (rc, stdout, stderr) = check_files(
            &format!("largest-{var}"),
            &[("schema.yml", plain), ("values.yml", values)],
            &[(var, largest)],
        );
        assert_eq!(
            (rc, stdout.as_str()),
            (Some(0), "num: 42\n"),
            "{var}: {stderr}"
        );
    }
    let (rc, stdout, stderr) = check_files(
        "largest-call-depth",
        &[("schema.yml", schema), ("values.yml", values)],
        &[("SCHEMAC_STARLARK_CALL_DEPTH", "500000")],
    );
    assert_eq!((rc, stdout.as_str()), (Some(1), ""), "{stderr}");
    assert!(
        stderr.contains("Starlark calls nested deeper than 500000 (raise the budget with SCHEMAC_STARLARK_CALL_DEPTH)"),
        "{stderr}"
    );
}

#[test]
fn key_paths_nested_past_the_depth_budget_are_an_error() {
    // A flag's key path nests a map for each of its parts: 60,000 parts wrote 3.6 GB of
    // indented YAML. The parts and the value's own collections count against the depth budget,
    // as a file's nesting does; one level less answers.
    let dir = workdir().join("key-path-depth");
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(dir.join("schema.yml"), "#@data/values-schema\n---\nx: {}\n").unwrap();
    let run = |args: &[String], env: &[(String, String)]| {
        let o = Command::new(BIN)
            .args(["check", "-f", "schema.yml"])
            .args(args)
            .current_dir(&dir)
            .env("SCHEMAC_MAX_DEPTH", "100")
            .envs(env.iter().cloned())
            .output()
            .unwrap();
        (
            o.status.code(),
            String::from_utf8_lossy(&o.stderr).into_owned(),
        )
    };
    let path = |parts: usize| vec!["a"; parts].join(".");
    let error = "the key path (100 parts) and its value (1 deep) nest collections deeper than 100 levels (raise the budget with SCHEMAC_MAX_DEPTH)";
    let flag = |parts: usize| {
        vec![
            "--data-value-yaml".to_string(),
            format!("{}=[1]", path(parts)),
        ]
    };
    let (rc, stderr) = run(&flag(100), &[]);
    assert_eq!(rc, Some(1), "{stderr}");
    assert!(
        stderr.contains(&format!("Extracting data value from KV: {error}")),
        "{stderr}"
    );
    // One part fewer nests as deep as the budget: the overlay then answers (the schema has
    // no key `a`).
    let (_, stderr) = run(&flag(99), &[]);
    assert!(!stderr.contains("SCHEMAC_MAX_DEPTH"), "{stderr}");
    // The same budget for environment variables, whose parts `__` separates.
    let name = format!("DV_{}", vec!["a"; 101].join("__"));
    let (rc, stderr) = run(
        &["--data-values-env-yaml".to_string(), "DV".to_string()],
        &[(name, "1".to_string())],
    );
    assert_eq!(rc, Some(1), "{stderr}");
    assert!(
        stderr.contains("the key path (101 parts) and its value (0 deep) nest collections deeper than 100 levels"),
        "{stderr}"
    );
}

#[test]
fn violations_as_json_meet_the_error_budget() {
    // A million violations as JSON aborted (the text report stopped at the budget): the JSON
    // lists those the budget admits, and standard error says how many were left out.
    let dir = workdir().join("violations-json-budget");
    std::fs::create_dir_all(&dir).unwrap();
    let schema = "#@data/values-schema\n---\na:\n#@schema/validation min=10\n- 0\n";
    let values = format!("a: [{}]\n", vec!["1"; 100].join(", "));
    std::fs::write(dir.join("schema.yml"), schema).unwrap();
    std::fs::write(dir.join("values.yml"), values).unwrap();
    let o = Command::new(BIN)
        .args([
            "check",
            "-f",
            "schema.yml",
            "--data-values-file",
            "values.yml",
        ])
        .args(["--violations-format", "json"])
        .current_dir(&dir)
        .env("SCHEMAC_MAX_ERROR_BYTES", "2000")
        .output()
        .unwrap();
    let (stdout, stderr) = (
        String::from_utf8_lossy(&o.stdout),
        String::from_utf8_lossy(&o.stderr),
    );
    assert_eq!(o.status.code(), Some(1), "{stderr}");
    let listed = stdout.matches("\"path\":").count();
    assert!((1..100).contains(&listed), "{stdout}");
    assert!(
        stdout.starts_with('[') && stdout.ends_with("}]\n"),
        "{stdout}"
    );
    assert!(
        stderr.contains(&format!(
            "... ({} more errors left out: the report passes the error budget of 2000 bytes",
            100 - listed
        )),
        "{stderr}"
    );
}

#[test]
fn schema_exports_past_the_output_budget_are_an_error_before_any_output() {
    // Each alias of the anchored map is written out in full in an export: 15 KB of schema
    // (900 levels under the anchor, 1,000 aliases) were 15 GB of OpenAPI, which aborted.
    // Here 80 aliases of 40 levels, past a budget of 100,000 bytes (217 KB as compact JSON).
    let mut schema = String::from("#@data/values-schema\n---\nbase: &x ");
    schema.push_str(&"{a: ".repeat(40));
    schema.push('1');
    schema.push_str(&"}".repeat(40));
    schema.push('\n');
    for i in 0..80 {
        schema.push_str(&format!("c{i}: *x\n"));
    }
    let dir = workdir().join("export-budget");
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(dir.join("schema.yml"), schema).unwrap();
    let inspect = "check -f schema.yml --data-values-schema-inspect -o openapi-v3";
    let runs = [
        (
            "inspect -f schema.yml -o openapi-v3",
            "the OpenAPI document",
        ),
        ("inspect -f schema.yml -o json-schema", "the JSON Schema"),
        (inspect, "the OpenAPI document"),
        (&format!("{inspect} --output json"), "the OpenAPI document"),
    ];
    for (args, what) in runs {
        let args: Vec<&str> = args.split(' ').collect();
        let budget = [("SCHEMAC_MAX_OUTPUT_BYTES", "100000")];
        let (rc, stdout, stderr) = run_in(&dir, &args, &budget);
        assert_eq!((rc, stdout.len()), (Some(1), 0), "{args:?}: {stderr}");
        assert!(
            stderr.contains(&format!(
                "Writing {what}: its text passes the output budget of 100000 bytes"
            )),
            "{args:?}: {stderr}"
        );
        let (rc, stdout, stderr) = run_in(&dir, &args, &[]);
        assert_eq!(rc, Some(0), "{args:?}: {stderr}");
        assert!(stdout.len() > 100_000, "{args:?}: {}", stdout.len());
    }
}

#[test]
fn compact_json_exports_are_sized_without_indentation() {
    // A schema 300 maps deep: its OpenAPI document is 745 KB of YAML, 21 KB of compact JSON
    // (`--output json`), which was refused as if it were indented.
    let mut schema = String::from("#@data/values-schema\n---\n");
    for depth in 0..300 {
        schema.push_str(&format!("{}k{depth}:\n", "  ".repeat(depth)));
    }
    schema.push_str(&format!("{}leaf: 1\n", "  ".repeat(300)));
    let dir = workdir().join("export-compact");
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(dir.join("schema.yml"), schema).unwrap();
    let budget = [("SCHEMAC_MAX_OUTPUT_BYTES", "100000")];
    let inspect = ["check", "-f", "schema.yml", "--data-values-schema-inspect"];
    let yaml = [&inspect[..], &["-o", "openapi-v3"]].concat();
    let (rc, _, stderr) = run_in(&dir, &yaml, &budget);
    assert_eq!(rc, Some(1), "{stderr}");
    let json = [&yaml[..], &["--output", "json"]].concat();
    let (rc, stdout, stderr) = run_in(&dir, &json, &budget);
    assert_eq!(rc, Some(0), "{stderr}");
    assert!(stdout.len() > 20_000, "{}", stdout.len());
}

#[test]
fn files_no_template_loads_are_never_opened() {
    // ytt reads a `.star`, text or other file only when a template loads or reads it: a FIFO
    // nothing writes to, or a file past the input budget, beside the values is never opened
    // (schemac read every input at once, and waited on the FIFO for ever).
    let budget = [("SCHEMAC_MAX_INPUT_BYTES", "100")];
    let dir = workdir().join("unread-inputs");
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(dir.join("config")).unwrap();
    std::fs::write(dir.join("config/values.yml"), "#@data/values\n---\na: 1\n").unwrap();
    std::fs::write(dir.join("config/big.star"), "x = 1\n".repeat(100)).unwrap();
    for fifo in ["pipe.star", "pipe.txt", "pipe", "pipe.lib.yml"] {
        let made = Command::new("mkfifo")
            .arg(dir.join("config").join(fifo))
            .status();
        assert!(made.unwrap().success());
    }
    let (rc, stdout, stderr) = run_in(&dir, &["check", "-f", "config"], &budget);
    assert_eq!((rc, stdout.as_str()), (Some(0), "a: 1\n"), "{stderr}");
    // Loaded, the file is read, and meets the budget.
    let values = "#@ load(\"big.star\", \"x\")\n#@data/values\n---\na: #@ x\n";
    std::fs::write(dir.join("config/values.yml"), values).unwrap();
    let (rc, _, stderr) = run_in(&dir, &["check", "-f", "config"], &budget);
    assert_eq!(rc, Some(1), "{stderr}");
    assert!(
        stderr.contains("cannot load big.star: Reading file 'big.star': it is larger than the input budget of 100 bytes"),
        "{stderr}"
    );
}

#[test]
fn star_arguments_and_encoded_text_meet_the_budgets() {
    // The call takes every item of `*x` into a vector first: 10^9 of them asked for 8 GB.
    let values = "#@data/values\n---\na: #@ len(*range(1000000000))\n";
    let (rc, stderr) = check_values("star-argument", values, &[]);
    assert_eq!(rc, Some(1), "{stderr}");
    assert!(
        stderr.contains("- evaluation stopped after 100000000 Starlark statements"),
        "{stderr}"
    );
    // Encoding holds four copies of a string's text at its peak (12 references to 100 MB
    // peaked at 4.8 GB): 15 MB of text is 60 MB.
    let values = "#@ load(\"@ytt:json\", \"json\")\n#@data/values\n---\na: #@ len(json.encode([\"x\" * 5000000] * 3))\n";
    let memory = [("SCHEMAC_STARLARK_MEMORY", "50000000")];
    let (rc, stderr) = check_values("encoded-copies", values, &memory);
    assert_eq!(rc, Some(1), "{stderr}");
    assert!(
        stderr.contains("- evaluation stopped: it would allocate more than 50000000 bytes"),
        "{stderr}"
    );
}

#[test]
fn iterables_cut_at_the_budget_still_meet_it() {
    // Past the budget an iterable is cut short (at most 2^20 items, 2^23 of a range, whose
    // items are charged as taken) and the call or comprehension fails with the budget's error
    // once done; `extend` charges its items.
    for expr in [
        "len([x for x in range(1000000000)])",
        "len(list(range(1000000000)))",
        "max(range(1000000000))",
        "len(sorted(list(range(1000000000))))",
        "[].extend(range(1000000000))",
        // starlark-go's `sorted` takes every item before it calls `key`.
        "sorted(range(1000000000), key=lambda x: fail(\"k\"))",
        "len({x: 1 for x in range(1000000000)})",
    ] {
        let values = format!("#@data/values\n---\na: #@ {expr}\n");
        let (rc, stderr) = check_values("cut-iterable", &values, &[]);
        assert_eq!(rc, Some(1), "{expr}: {stderr}");
        assert!(
            stderr.contains("- evaluation stopped after 100000000 Starlark statements"),
            "{expr}: {stderr}"
        );
    }
}

#[test]
fn assert_try_to_catches_no_budget_error() {
    // A budget's error ends the run: caught, it was a value (`(None, "evaluation stopped:
    // ...")`, exit 0) where ytt has no budget and goes on, or runs out of memory or stack.
    for (body, error) in [
        (
            "return \"x\" * 100000000",
            "it would allocate more than 10000000 bytes",
        ),
        (
            "return g(0)\n#@ def g(n): return g(n + 1)",
            "Starlark calls nested deeper than 10000",
        ),
        (
            "return int(\"9\" * 2000000)",
            "int() of a number of at least",
        ),
        (
            "return len(list(range(1000000000)))",
            "after 100000 Starlark statements",
        ),
        (
            "return len(str(x))\n#@ x = 1\n#@ for i in range(2000):\n#@   x = [x]\n#@ end",
            "value nested deeper than 1000 levels",
        ),
    ] {
        let values = format!("#@ load(\"@ytt:assert\", \"assert\")\n#@ def f(): {body}\n#@data/values\n---\na: #@ assert.try_to(f)\n");
        let budgets = [
            ("SCHEMAC_STARLARK_MEMORY", "10000000"),
            ("SCHEMAC_STARLARK_STEPS", "100000"),
            ("SCHEMAC_MAX_VALUE_DEPTH", "1000"),
        ];
        let (rc, stderr) = check_values("try-to-budget", &values, &budgets);
        assert_eq!(rc, Some(1), "{body}: {stderr}");
        assert!(stderr.contains(error), "{body}: {stderr}");
    }
}
