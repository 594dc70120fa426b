//! Hostile input that ytt takes minutes or all its memory on: each stops at a named budget with
//! an error that names it and the place (see README's budget table).

mod common;

use common::check;

const HEAP: &str = "evaluation stopped: it would allocate more than 2147483648 bytes";

/// Ten lists, each holding the one before it ten times: `a9` is a billion strings.
const LAUGHS: &str = "#@ a0 = [\"x\"]
#@ a1 = [a0, a0, a0, a0, a0, a0, a0, a0, a0, a0]
#@ a2 = [a1, a1, a1, a1, a1, a1, a1, a1, a1, a1]
#@ a3 = [a2, a2, a2, a2, a2, a2, a2, a2, a2, a2]
#@ a4 = [a3, a3, a3, a3, a3, a3, a3, a3, a3, a3]
#@ a5 = [a4, a4, a4, a4, a4, a4, a4, a4, a4, a4]
#@ a6 = [a5, a5, a5, a5, a5, a5, a5, a5, a5, a5]
#@ a7 = [a6, a6, a6, a6, a6, a6, a6, a6, a6, a6]
#@ a8 = [a7, a7, a7, a7, a7, a7, a7, a7, a7, a7]
#@ a9 = [a8, a8, a8, a8, a8, a8, a8, a8, a8, a8]
";

#[test]
fn a_value_copied_into_yaml_past_the_heap_budget_is_an_error() {
    // Each list is small on the heap; made YAML, each reference is a copy: a billion nodes
    // (ytt ran out of memory; schemac aborted when an allocation failed).
    let values = format!("#@data/values\n---\n{LAUGHS}x: #@ a9\n");
    let err = check(&[("values.yml", &values)], &["-f", "values.yml"]).unwrap_err();
    assert!(err.contains(HEAP), "{err}");
    assert!(err.contains("values.yml:13 |"), "{err}");
    // The same in a schema's default, an annotation's argument.
    let schema = format!(
        "#@data/values-schema\n---\n{LAUGHS}#@schema/type any=True\n#@schema/default a9\nx: null\n"
    );
    let err = check(&[("schema.yml", &schema)], &["-f", "schema.yml"]).unwrap_err();
    assert!(err.contains(HEAP), "{err}");
    assert!(err.contains("schema.yml:14 |"), "{err}");
    // A copy within the budget is made.
    let values = "#@ a = [\"x\"] * 10\n#@data/values\n---\nx: #@ [a, a, a]\n";
    let out = check(&[("values.yml", values)], &["-f", "values.yml"]).unwrap();
    let yaml = schemac_runtime::yaml::emit::to_yaml(&out.value);
    assert_eq!(yaml.matches("- x").count(), 30, "{yaml}");
}

#[test]
fn resolver_errors_in_many_statements_are_listed_in_a_few_parses() {
    // Each `return` outside a function is patched out and its statement parsed again alone
    // (starlark-go lists every one): 5,000 of them in a 1 MB file parsed whole again each time
    // would parse 5 GB, far past the budget; they took 0.56 s (ytt 0.5 s).
    let mut values: String = (0..5_000)
        .map(|i| format!("#@ x{i} = [{}]\n#@ return 1\n", "1, ".repeat(60)))
        .collect();
    values.push_str("#@data/values\n---\na: 1\n");
    let err = check(&[("values.yml", &values)], &["-f", "values.yml"]).unwrap_err();
    assert_eq!(
        err.matches("- return statement not within a function")
            .count(),
        5_000,
        "{err}"
    );
}

#[test]
fn resolver_errors_past_the_reparse_budget_are_an_error() {
    // One statement (a top-level `if`) holding 5,000 `return`s of a 1 MB file: each patch
    // parses the statement again, 5 GB in all.
    let mut values: String = "#@ if True:\n".to_string();
    values.extend((0..5_000).map(|i| format!("#@ x{i} = [{}]\n#@ return 1\n", "1, ".repeat(60))));
    values.push_str("#@ end\n#@data/values\n---\na: 1\n");
    let err = check(&[("values.yml", &values)], &["-f", "values.yml"]).unwrap_err();
    let budget = format!(
        "passed the budget of {} bytes (raise the budget with SCHEMAC_MAX_REPARSE_BYTES)",
        schemac_runtime::starlark::DEFAULT_MAX_REPARSE_BYTES
    );
    assert!(err.contains(&budget), "{err}");
    assert!(err.contains("| #@ return 1"), "{err}");
}

#[test]
fn loads_past_the_budget_are_an_error() {
    // Two files on each of 30 levels, each loading both of the next: 2^30 loads (ytt runs
    // them all, as schemac did, holding every loaded module).
    let mut files: Vec<(String, String)> = Vec::new();
    for level in 0..30 {
        for p in ["m", "n"] {
            let text = if level == 29 {
                "x = 1\n".to_string()
            } else {
                format!(
                    "load(\"m{next}.star\", y=\"x\")\nload(\"n{next}.star\", z=\"x\")\nx = y + z\n",
                    next = level + 1
                )
            };
            files.push((format!("{p}{level}.star"), text));
        }
    }
    files.push((
        "values.yml".into(),
        "#@ load(\"m0.star\", \"x\")\n#@data/values\n---\na: #@ x\n".into(),
    ));
    let files: Vec<(&str, &str)> = files
        .iter()
        .map(|(n, t)| (n.as_str(), t.as_str()))
        .collect();
    // Every file is given with `-f`, as `load()` finds only those.
    let args: Vec<&str> = files.iter().flat_map(|(n, _)| ["-f", *n]).collect();
    let err = check(&files, &args).unwrap_err();
    let budget = format!(
        "more than {} files loaded by one template, counting the loads of loaded files (raise the budget with SCHEMAC_MAX_LOADS)",
        schemac_runtime::starlark::DEFAULT_MAX_LOADS
    );
    assert!(err.contains(&budget), "{err}");
    assert!(err.contains("values.yml:1 |"), "{err}");
    // The error passes through the loads above it as it is, not once per level.
    assert_eq!(err.matches("cannot load").count(), 1, "{err}");
}

#[test]
fn overlay_matches_past_the_budget_are_an_error() {
    // Each of n items matched by name is tested against the n items of the array: n² tests
    // (ytt takes 87 s for n = 5,000; schemac 67 s for 50,000).
    let n = 10_001;
    let mut base = String::from("#@data/values\n---\nitems:\n");
    let mut overlay = String::from("#@data/values\n---\nitems:\n");
    for i in 0..n {
        base.push_str(&format!("- name: n{i}\n  v: 0\n"));
        overlay.push_str(&format!(
            "#@overlay/match by=\"name\"\n- name: n{i}\n  v: 1\n"
        ));
    }
    let files = [
        ("base.yml", base.as_str()),
        ("overlay.yml", overlay.as_str()),
    ];
    let err = check(&files, &["-f", "base.yml", "-f", "overlay.yml"]).unwrap_err();
    let budget = format!(
        "overlay stopped: more than {} array items tested by '@overlay/match' in this run (raise the budget with SCHEMAC_MAX_OVERLAY_MATCHES)",
        schemac_runtime::overlay::DEFAULT_MAX_OVERLAY_MATCHES
    );
    assert!(err.contains(&budget), "{}", &err[..err.len().min(600)]);
    assert!(
        err.contains("Array item on line overlay.yml:"),
        "{}",
        &err[..err.len().min(600)]
    );
}

#[test]
fn yaml_decode_nests_to_the_value_depth_budget() {
    // Decoded text becomes a Starlark value: it nests as deep as those may (ytt decodes 20,000
    // levels, past the files' budget of 2,000), and no deeper.
    let budget = schemac_runtime::yaml::parse::budget::DEFAULT_MAX_VALUE_DEPTH;
    let values = |n: usize| {
        format!(
            "#@ load(\"@ytt:yaml\", \"yaml\")\n#@ s = \"{}{}\"\n#@data/values\n---\nx: #@ len(str(yaml.decode(s)))\n",
            "[".repeat(n),
            "]".repeat(n)
        )
    };
    let out = check(&[("values.yml", &values(budget))], &["-f", "values.yml"]).unwrap();
    let yaml = schemac_runtime::yaml::emit::to_yaml(&out.value);
    assert_eq!(yaml, format!("x: {}\n", 2 * budget));
    let err = check(
        &[("values.yml", &values(budget + 1))],
        &["-f", "values.yml"],
    )
    .unwrap_err();
    let message = format!(
        "yaml.decode: yaml: line 1: collections nested deeper than {budget} levels (raise the budget with SCHEMAC_MAX_VALUE_DEPTH)"
    );
    assert!(err.contains(&message), "{err}");
    assert!(err.contains("values.yml:5 |"), "{err}");
}

#[test]
fn a_rule_argument_beyond_64_bits_is_an_error() {
    // Kept as an opaque value, it reached the rules as `None` (`must be: a value >= None`).
    for rule in ["min", "max_len"] {
        let schema = format!(
            "#@data/values-schema\n---\n#@schema/validation {rule}=100000000000000000000\na: 0\n"
        );
        let err = check(&[("schema.yml", &schema)], &["-f", "schema.yml"]).unwrap_err();
        let message = format!(
            "keyword argument \"{rule}\" is an integer beyond 64 bits, which schemac does not take"
        );
        assert!(err.contains(&message), "{err}");
        assert!(err.contains("(at schema.yml:3)"), "{err}");
    }
}

#[test]
fn a_long_chain_of_indexes_is_rewritten_in_linear_time() {
    // The rewriting of `OBJ[I]` looked for the start of each index's object down the whole
    // chain: 20,000 indexes took 6.6 s, 100,000 ran past a minute (ytt 0.6 s); 100,000 took
    // 0.8 s since. A chain within the expression depth budget (50,000) must still be quick.
    let n = schemac_runtime::starlark::DEFAULT_MAX_EXPRESSION_DEPTH - 10;
    let values = format!(
        "#@ x = [0]\n#@ x[0] = x\n#@data/values\n---\na: #@ len(x{})\n",
        "[0]".repeat(n)
    );
    let started = std::time::Instant::now();
    let out = check(&[("values.yml", &values)], &["-f", "values.yml"]).unwrap();
    let yaml = schemac_runtime::yaml::emit::to_yaml(&out.value);
    assert_eq!(yaml, "a: 1\n");
    let took = started.elapsed();
    assert!(took.as_secs() < 20, "took {took:?}");
}

#[test]
fn and_or_chained_past_the_budget_are_an_error() {
    // starlark-rust compiles each `and`/`or` by walking its left operand's: 20,000 took
    // 12.7 s (ytt runs 50,000 in 1.3 s). A chain of 5,000 operators walks 12,497,500.
    let max = schemac_runtime::starlark::DEFAULT_MAX_BOOL_OPERATORS;
    assert_eq!(max, 12_500_000);
    let chain = |n: usize, op: &str| {
        let terms: Vec<String> = (0..=n).map(|i| format!("x > -{i}")).collect();
        format!(
            "#@ def ok(x):\n#@   return {}\n#@ end\n#@data/values-schema\n---\n#@schema/validation (\"ok\", ok)\nk: 1\n",
            terms.join(op)
        )
    };
    let message = format!("`and` and `or` chained too long: compiling them walks more than {max} operators (each walks those of its left operand; raise the budget with SCHEMAC_STARLARK_BOOL_OPERATORS)");
    for op in [" and ", " or "] {
        // In a rule's def too, where the rule is read without the interpreter.
        let schema = chain(5_001, op);
        let err = check(&[("schema.yml", &schema)], &["-f", "schema.yml"]).unwrap_err();
        assert!(
            err.contains(&message),
            "{op}: {}",
            &err[..err.len().min(500)]
        );
        assert!(
            err.contains("schema.yml:2 |"),
            "{op}: {}",
            &err[..err.len().min(500)]
        );
        let schema = chain(5_000, op);
        let out = check(&[("schema.yml", &schema)], &["-f", "schema.yml"]).unwrap();
        assert_eq!(schemac_runtime::yaml::emit::to_yaml(&out.value), "k: 1\n");
    }
}

#[test]
fn expressions_nested_past_the_budget_are_an_error() {
    // A chain of 200,000 indexes overflowed the 512 MiB stack (the interpreter's parser,
    // compiler and walks recurse on expressions); ytt runs it.
    let max = schemac_runtime::starlark::DEFAULT_MAX_EXPRESSION_DEPTH;
    let message = format!("expressions nested deeper than {max} levels (operands, indexes, calls or attributes in one another; raise the budget with SCHEMAC_STARLARK_EXPRESSION_DEPTH)");
    for (n, expr) in [
        (4 * max, format!("s{}", "[0:][0]".repeat(2 * max))),
        (20 * max, format!("{}1", "-".repeat(20 * max))),
        (max + 1, format!("s{}", "[0]".repeat(max + 1))),
    ] {
        let values = format!("#@ s = \"ab\"\n#@data/values\n---\nv: #@ {expr}\n");
        let err = check(&[("values.yml", &values)], &["-f", "values.yml"]).unwrap_err();
        assert!(
            err.contains(&message),
            "{n}: {}",
            &err[..err.len().min(500)]
        );
        assert!(
            err.contains("values.yml:4 |"),
            "{n}: {}",
            &err[..err.len().min(500)]
        );
    }
    // At the budget the program runs.
    let values = format!(
        "#@ s = \"ab\"\n#@data/values\n---\nv: #@ s{}\n",
        "[0]".repeat(max - 2)
    );
    let out = check(&[("values.yml", &values)], &["-f", "values.yml"]).unwrap();
    assert_eq!(schemac_runtime::yaml::emit::to_yaml(&out.value), "v: a\n");
}

#[test]
fn expressions_nested_across_joined_lines_are_counted_as_one_line() {
    // Lines joined by `\` at their end are one logical line to the parser: 2,000,000 `-`,
    // `not`, `lambda:` or `else` spread over lines of 1,000 overflowed the 512 MiB stack.
    let max = schemac_runtime::starlark::DEFAULT_MAX_EXPRESSION_DEPTH;
    let message = format!("expressions nested deeper than {max} levels");
    for link in ["- ", "not ", "lambda: ", "1 if True else "] {
        let line = format!("{}\\\n", link.repeat(1_000));
        let star = format!("x = \\\n{}1\n", line.repeat(20 * max / 1_000));
        let values = "#@ load(\"h.star\", \"x\")\n#@data/values\n---\nv: 1\n";
        let err = check(
            &[("values.yml", values), ("h.star", &star)],
            &["-f", "values.yml", "-f", "h.star"],
        )
        .unwrap_err();
        assert!(
            err.contains(&message),
            "{link}: {}",
            &err[..err.len().min(500)]
        );
    }
}

#[test]
fn items_of_brackets_do_not_nest_in_one_another() {
    // A `lambda` or an `else` nests what follows it only to the end of its item: a list of more
    // such items than the budget, one a line, is no deeper than one (ytt runs it).
    let max = schemac_runtime::starlark::DEFAULT_MAX_EXPRESSION_DEPTH;
    for item in [
        "1 if True else 2",
        "(lambda: 1)()",
        "-1",
        "{\"k\": lambda: 1}[\"k\"]()",
    ] {
        let star = format!("x = len([\n{}])\n", format!("{item},\n").repeat(max + 10));
        let values = "#@ load(\"h.star\", \"x\")\n#@data/values\n---\nv: #@ x\n";
        let out = check(
            &[("values.yml", values), ("h.star", &star)],
            &["-f", "values.yml", "-f", "h.star"],
        )
        .unwrap_or_else(|e| panic!("{item}: {}", &e[..e.len().min(500)]));
        assert_eq!(
            schemac_runtime::yaml::emit::to_yaml(&out.value),
            format!("v: {}\n", max + 10)
        );
    }
}

#[test]
fn method_calls_chained_past_the_budget_are_an_error() {
    // starlark-rust compiles each method call by copying the chain before it: 20,000 calls
    // took 3.4 s, 100,000 would take minutes (ytt runs 30,000 in 0.28 s).
    let max = schemac_runtime::starlark::DEFAULT_MAX_METHOD_CHAIN;
    let chain = |n: usize, link: &str| {
        format!(
            "#@ s = \"a\"\n#@data/values\n---\nx: 1\nv: #@ s{}\n",
            link.repeat(n)
        )
    };
    for link in [".upper()", ".lower().x", ".strip(\"a\".upper().lower())"] {
        let values = chain(max + 1, link);
        let err = check(&[("values.yml", &values)], &["-f", "values.yml"]).unwrap_err();
        let message = format!("method calls chained longer than {max} (each called on the result of the one before; raise the budget with SCHEMAC_STARLARK_METHOD_CHAIN)");
        assert!(
            err.contains(&message),
            "{link}: {}",
            &err[..err.len().min(500)]
        );
        assert!(
            err.contains("values.yml:5 |"),
            "{link}: {}",
            &err[..err.len().min(500)]
        );
    }
    // At the budget, and in calls' arguments however many, the program runs.
    let values = chain(max, ".upper()");
    let out = check(&[("values.yml", &values)], &["-f", "values.yml"]).unwrap();
    assert_eq!(
        schemac_runtime::yaml::emit::to_yaml(&out.value),
        "x: 1\nv: A\n"
    );
    let args = format!(
        "#@data/values\n---\nx: #@ len([{}])\n",
        "\"a\".upper(), ".repeat(2 * max)
    );
    let out = check(&[("values.yml", &args)], &["-f", "values.yml"]).unwrap();
    assert_eq!(
        schemac_runtime::yaml::emit::to_yaml(&out.value),
        format!("x: {}\n", 2 * max)
    );
}

/// Blocks closed by `end` nested past the budget are an error at the block that passes it,
/// before the program is written: each line of it is indented by its depth (30,000 nested
/// `#@ if` took 55 s and 2.8 GB; ytt 6 s). At the budget, the template runs.
#[test]
fn blocks_nested_past_the_budget_are_an_error() {
    let max = schemac_runtime::template::compile::DEFAULT_MAX_BLOCK_DEPTH;
    let nested = |n: usize, open: &str| {
        format!(
            "#@data/values\n---\n{}a: 1\n{}",
            format!("#@ {open}\n").repeat(n),
            "#@ end\n".repeat(n)
        )
    };
    let message = format!("blocks nested deeper than {max} levels (if, for, def or while in one another; raise the budget with SCHEMAC_STARLARK_BLOCK_DEPTH)");
    for open in ["if True:", "for x in [1]:", "while False:"] {
        let values = nested(max + 1, open);
        let err = check(&[("values.yml", &values)], &["-f", "values.yml"]).unwrap_err();
        assert!(
            err.contains(&message),
            "{open}: {}",
            &err[..err.len().min(500)]
        );
        let line = format!("values.yml:{} |", max + 3);
        assert!(
            err.contains(&line),
            "{open}: {}",
            &err[..err.len().min(500)]
        );
    }
    // In a `.star` file, whose blocks `end` closes too.
    let star = format!(
        "def f():\n{}return 1\n{}end\n",
        "if True:\n".repeat(max + 1),
        "end\n".repeat(max + 1)
    );
    let values = "#@ load(\"h.star\", \"f\")\n#@data/values\n---\na: #@ f()\n";
    let err = check(
        &[("values.yml", values), ("h.star", &star)],
        &["-f", "values.yml", "-f", "h.star"],
    )
    .unwrap_err();
    assert!(err.contains(&message), "{}", &err[..err.len().min(500)]);
    let values = nested(max, "if True:");
    let out = check(&[("values.yml", &values)], &["-f", "values.yml"]).unwrap();
    assert_eq!(schemac_runtime::yaml::emit::to_yaml(&out.value), "a: 1\n");
}

#[test]
fn matchers_made_of_too_many_matchers_are_an_error() {
    // 1,000,000 nested `not_op`s given to an annotation overflowed the stack; 60 doublings by
    // `and_op(m, m)` are 2^60 matchers (ytt calls them all, without end). 100,000 run.
    let max = schemac_runtime::yaml::parse::budget::DEFAULT_MAX_VALUE_DEPTH;
    let template = |n: usize, make: &str| {
        format!(
            "#@ load(\"@ytt:overlay\", \"overlay\")\n#@ def make():\n#@   m = overlay.all\n#@   for i in range({n}):\n#@     m = {make}\n#@   end\n#@   return m\n#@ end\n#@ m = make()\n#@data/values\n---\nitems:\n- name: a\n---\n#@data/values\n---\nitems:\n#@overlay/match by=m\n- name: z\n"
        )
    };
    let message = format!("overlay matcher made of more than {max} matchers");
    for (n, make) in [
        (10 * max, "overlay.not_op(m)"),
        (60, "overlay.and_op(m, m)"),
        (max, "overlay.or_op(m)"),
    ] {
        let values = template(n, make);
        let err = check(&[("values.yml", &values)], &["-f", "values.yml"]).unwrap_err();
        assert!(
            err.contains(&message),
            "{make}: {}",
            &err[..err.len().min(500)]
        );
        assert!(
            err.contains("values.yml:18 |"),
            "{make}: {}",
            &err[..err.len().min(500)]
        );
    }
    // Within the budget the matcher matches: `not_op` twice of `all` is `all`.
    let values = template(max - 2, "overlay.not_op(overlay.not_op(m))");
    let values = values.replace(
        &format!("range({})", max - 2),
        &format!("range({})", (max - 2) / 2),
    );
    let out = check(&[("values.yml", &values)], &["-f", "values.yml"]).unwrap();
    assert_eq!(
        schemac_runtime::yaml::emit::to_yaml(&out.value),
        "items:\n- name: z\n"
    );
}

#[test]
fn matchers_calling_matchers_reach_the_call_depth_budget_in_linear_time() {
    // Each matcher of a chain wrapped the error of the one it called in a new error, which
    // collected the call stack below it: `not_op` nested 100,000 deep and called took 2 s
    // (19 s under RUST_BACKTRACE) to reach the budget, a `by=` function calling itself through
    // `or_op` 1.2 s (13.6 s); 0.01 to 0.06 s since. The message names every matcher.
    let depth = schemac_runtime::starlark::DEFAULT_MAX_CALL_DEPTH;
    let chain = format!(
        "#@ load(\"@ytt:overlay\", \"overlay\")\n#@ def make():\n#@   m = overlay.all\n#@   for i in range({}):\n#@     m = overlay.not_op(m)\n#@   end\n#@   return m\n#@ end\n#@ m = make()\n#@data/values\n---\na: #@ m(0, 1, 2)\n",
        10 * depth
    );
    let recursive = "#@ load(\"@ytt:overlay\", \"overlay\")\n#@ def by(i, l, r):\n#@   return overlay.or_op(by)(i, l, r)\n#@ end\n#@data/values\n---\nitems:\n- name: a\n---\n#@data/values\n---\nitems:\n#@overlay/match by=by\n- x: 1\n";
    for (values, at) in [
        (chain.as_str(), "values.yml:12 |"),
        (recursive, "values.yml:14"),
    ] {
        let started = std::time::Instant::now();
        let err = check(&[("values.yml", values)], &["-f", "values.yml"]).unwrap_err();
        let took = started.elapsed();
        let budget = format!(
            "overlay.or_op: evaluation stopped: Starlark calls nested deeper than {depth} (raise the budget with SCHEMAC_STARLARK_CALL_DEPTH)"
        );
        assert!(err.contains(&budget), "{}", &err[..err.len().min(500)]);
        assert!(
            err.contains(at),
            "{}",
            &err[err.len().saturating_sub(500)..]
        );
        assert!(
            err.matches("overlay.or_op: ").count() > depth / 4,
            "{}",
            &err[..err.len().min(500)]
        );
        assert!(took.as_millis() < 1000, "took {took:?}");
    }
}

#[test]
fn removing_many_keys_of_a_large_map_is_not_quadratic_in_indexing() {
    // Each `#@overlay/remove` indexed the map's keys again: 10,000 removals from a map of
    // 20,000 keys took 33.6 s (ytt 46 s for 5,000 from 10,000); 0.74 s since.
    let n = 20_000;
    let mut values = String::from("#@data/values\n---\nm:\n");
    (0..n).for_each(|i| values.push_str(&format!("  k{i}: {i}\n")));
    values.push_str("---\n#@data/values\n---\nm:\n");
    for i in (0..n).rev() {
        match i % 2 {
            1 => values.push_str(&format!("  #@overlay/remove\n  k{i}: ~\n")),
            _ => values.push_str(&format!("  k{i}: {}\n", i + 1)),
        }
    }
    let started = std::time::Instant::now();
    let out = check(&[("values.yml", &values)], &["-f", "values.yml"]).unwrap();
    let took = started.elapsed();
    let yaml = schemac_runtime::yaml::emit::to_yaml(&out.value);
    assert!(
        yaml.starts_with("m:\n  k0: 1\n  k2: 3\n"),
        "{}",
        &yaml[..40]
    );
    assert_eq!(yaml.lines().count(), 1 + n / 2);
    assert!(took.as_secs() < 10, "took {took:?}");
}

#[test]
fn reserved_words_are_stood_in_for_in_one_parse_again() {
    // A parse of the whole program again for each reserved word stood in for (up to 64):
    // 64 one-line `while`s in 13 MB of code took 14.7 s; one parse again since (1.9 s).
    let mut star = String::new();
    for i in 0..100 {
        star.push_str(&format!("while x{i}: y = 1\n"));
        (0..2_000).for_each(|j| star.push_str(&format!("v{j} = [{j}, 'class']  # yield\n")));
    }
    star.push_str("z = 1 class 2\n");
    let values = "#@ load(\"h.star\", \"z\")\n#@data/values\n---\na: #@ z\n";
    let started = std::time::Instant::now();
    let err = check(
        &[("values.yml", values), ("h.star", &star)],
        &["-f", "values.yml", "-f", "h.star"],
    )
    .unwrap_err();
    let took = started.elapsed();
    assert!(err.contains("got illegal token, want newline"), "{err}");
    assert!(took.as_secs() < 10, "took {took:?}");
}

#[test]
fn keyword_arguments_after_args_are_moved_in_one_parse_per_statement() {
    // `f(*xs, k=1)` is legal in starlark-go and refused by the crate's parser: each call's
    // two arguments change places. One statement holding 5,000 such calls (100 KB) was parsed
    // again once per call, the reparse budget's error at 0.9 s; 10,000 statements took 9.4 s
    // (ytt 1 s), each call looked for from the start of the file.
    let calls: Vec<String> = (0..5_000).map(|i| format!("f(*[1], k={i})")).collect();
    let values = format!(
        "#@ def f(*a, **k):\n#@   return k[\"k\"]\n#@ end\n#@ x = [{}]\n#@data/values\n---\na: #@ x[4999]\n",
        calls.join(", ")
    );
    let out = check(&[("values.yml", &values)], &["-f", "values.yml"]).unwrap();
    let yaml = schemac_runtime::yaml::emit::to_yaml(&out.value);
    assert_eq!(yaml, "a: 4999\n");
    let mut values: String = "#@ def f(*a, **k):\n#@   return k[\"k\"]\n#@ end\n".into();
    values.extend((0..10_000).map(|i| format!("#@ x{i} = f(*[1], k={i})\n")));
    values.push_str("#@data/values\n---\na: #@ x9999\n");
    let out = check(&[("values.yml", &values)], &["-f", "values.yml"]).unwrap();
    let yaml = schemac_runtime::yaml::emit::to_yaml(&out.value);
    assert_eq!(yaml, "a: 9999\n");
}

#[test]
fn a_string_that_is_not_utf8_is_searched_for_not_compared_at_each_byte() {
    // Half a megabyte that matches up to its last byte, looked for at each byte of a
    // megabyte, took 13 s (ytt 0.03 s); in a string that is UTF-8 it was an error.
    let values = "#@ h = \"\\xff\" * 1000000\n#@ n = \"\\xff\" * 500000 + \"a\"\n#@data/values\n---\na: #@ [n in h, h[1:] in h, \"\\xff\" in \"abc\", \"\\xff\" in \"a\\xffb\"]\n";
    let started = std::time::Instant::now();
    let out = check(&[("values.yml", values)], &["-f", "values.yml"]).unwrap();
    let took = started.elapsed();
    let yaml = schemac_runtime::yaml::emit::to_yaml(&out.value);
    assert_eq!(yaml, "a:\n- false\n- true\n- false\n- true\n");
    assert!(took.as_secs() < 10, "took {took:?}");
}
