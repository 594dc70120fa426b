//! Hostile inputs against `schemac check`: each ends in an answer or in the error of a named
//! budget (README "Budgets"), never in a panic, an abort, a stack overflow or a hang.

use super::*;

/// Starlark that would exhaust the interpreter is an error with the template's name, not a
/// panic or an abort (ytt takes the same input minutes or crashes: schemac does better).
#[test]
fn oversized_starlark_values_are_errors() {
    let values = "#@data/values\n---\n#@ x = list(range(600000000))\na: 1\n";
    let err = check(&[("values.yml", values)], &["-f", "values.yml"]).unwrap_err();
    assert!(err.contains("Templating file"), "{err}");
    // The compiler once ran this call itself and panicked; now the budget refuses it first.
    assert!(
        err.contains("evaluation stopped after 100000000 Starlark statements"),
        "{err}"
    );
    assert!(err.contains("values.yml:3 |"), "{err}");
}

/// Collections nested past the reader's depth budget are an error with a line, not a stack
/// overflow; up to the budget they are read.
#[test]
fn nesting_deeper_than_the_budget_is_an_error() {
    let deep = |n: usize| {
        let mut s = String::from("#@data/values\n---\n");
        for i in 0..n {
            s.push_str(&format!("{}a:\n", " ".repeat(i)));
        }
        s
    };
    let err = check(&[("values.yml", &deep(2_500))], &["-f", "values.yml"]).unwrap_err();
    assert!(
        err.contains("collections nested deeper than 2000 levels"),
        "{err}"
    );
    assert!(err.contains("yaml: line 2003:"), "{err}");
}

/// Flow collections as ytt reads them: 1,000 deep in a file, as a whole document and through
/// `--data-value-yaml` (once saphyr-parser's 255); past the budget, the budget's error.
#[test]
fn flow_nesting_is_read_up_to_the_budget() {
    let flow = |n: usize| format!("{}{}", "[".repeat(n), "]".repeat(n));
    for values in [
        format!("#@data/values\n---\na: {}\n", flow(1_000)),
        format!("#@data/values\n---\n{}\n", flow(1_000)),
    ] {
        let out = check(&[("values.yml", &values)], &["-f", "values.yml"]).unwrap();
        assert!(schemac_runtime::yaml::emit::to_yaml(&out.value).contains("- - - "));
    }
    let arg = format!("a={}", flow(1_000));
    assert!(check(&[], &["--data-value-yaml", &arg]).is_ok());
    let values = format!("#@data/values\n---\na: {}\n", flow(2_500));
    let err = check(&[("values.yml", &values)], &["-f", "values.yml"]).unwrap_err();
    assert!(
        err.contains("yaml: line 3: collections nested deeper than 2000 levels"),
        "{err}"
    );
    // Far past the budget, the text is read no further than the budget's levels: 4 MB of `[`
    // took 8 s (quadratic in libyaml-safer's scanner, which looks at every open flow
    // collection for each token; ytt hangs on 1 MB), 0.04 s now.
    let values = format!("#@data/values\n---\na: {}\n", flow(2_000_000));
    let err = check(&[("values.yml", &values)], &["-f", "values.yml"]).unwrap_err();
    assert!(
        err.contains("yaml: line 3: collections nested deeper than 2000 levels"),
        "{err}"
    );
    // Behind an anchor the full reader is needed: past saphyr-parser's 255 flow levels,
    // libyaml-safer's events build the document, as deep as ytt reads it.
    let values = format!("#@data/values\n---\na: &x {}\nb: *x\n", flow(300));
    assert!(check(&[("values.yml", &values)], &["-f", "values.yml"]).is_ok());
}

/// A data values document whose `a0` is `first`, and each of `levels` more anchors a list of
/// `width` aliases of the one before.
fn alias_bomb(first: &str, levels: usize, width: usize) -> String {
    let mut bomb = format!("#@data/values\n---\na0: &a0 {first}\n");
    for i in 1..=levels {
        let refs = vec![format!("*a{}", i - 1); width].join(",");
        bomb.push_str(&format!("a{i}: &a{i} [{refs}]\n"));
    }
    bomb
}

/// A "billion laughs" document stops at the alias budget instead of exhausting memory.
#[test]
fn nested_aliases_are_bounded() {
    let bomb = alias_bomb("[1,1,1,1,1,1,1,1,1]", 8, 9);
    let err = check(&[("values.yml", &bomb)], &["-f", "values.yml"]).unwrap_err();
    assert!(
        err.contains("document contains excessive aliasing"),
        "{err}"
    );
    // Few nodes, much text: a 1 MB string copied 1,000 times (10,000 panicked at 10 GB).
    let bomb = alias_bomb(&format!("\"{}\"", "x".repeat(1 << 20)), 3, 10);
    let err = check(&[("values.yml", &bomb)], &["-f", "values.yml"]).unwrap_err();
    assert!(
        err.contains("yaml: line 6: document contains excessive aliasing (more than 268435456 bytes of text copied by aliases; raise the budget with SCHEMAC_MAX_ALIAS_BYTES)"),
        "{err}"
    );
}

#[test]
fn errors_say_which_step_failed_and_where() {
    use schemac::check::CheckError;
    use schemac_runtime::error::ErrorKind;
    let run = |files: &[(&str, &str)], extra: &[&str]| -> CheckError {
        let dir = workdir(files);
        let mut args = vec![
            "-f".to_string(),
            dir.join("schema.yml").to_string_lossy().into(),
        ];
        args.extend(extra.iter().map(|a| a.to_string()));
        let opts = parse(&args).unwrap();
        match schemac_runtime::engine::run(&opts.request, &INTERPRETER) {
            Err(e) => e,
            Ok(out) => panic!("expected an error, got {out}"),
        }
    };
    let at = |e: &CheckError| {
        e.pos
            .as_ref()
            .map(|p| (p.file.rsplit('/').next().unwrap().to_string(), p.line))
    };
    let e = run(&[("schema.yml", "#@data/values-schema\n---\na: [\n")], &[]);
    assert_eq!(
        (e.kind, at(&e)),
        (ErrorKind::Yaml, Some(("schema.yml".into(), 3))),
        "{e}"
    );
    let e = run(
        &[(
            "schema.yml",
            "#@data/values-schema\n---\n#@schema/validation min=\"x\", when=1\na: 1\n",
        )],
        &[],
    );
    assert_eq!(
        (e.kind, at(&e)),
        (ErrorKind::Schema, Some(("schema.yml".into(), 3))),
        "{e}"
    );
    let e = run(
        &[("schema.yml", "#@data/values-schema\n---\na: 1\n")],
        &["--data-value-yaml", "a=x"],
    );
    assert_eq!(e.kind, ErrorKind::TypeCheck, "{e}");
    let e = run(
        &[(
            "schema.yml",
            "#@data/values-schema\n---\n#@schema/validation min=2\na: 1\n",
        )],
        &[],
    );
    assert_eq!(
        (e.kind, at(&e)),
        (ErrorKind::Validation, Some(("schema.yml".into(), 4))),
        "{e}"
    );
    let e = run(
        &[("schema.yml", "#@data/values-schema\n---\na: 1\n")],
        &["--data-values-file", "/nonexistent/x.yml"],
    );
    assert_eq!(e.kind, ErrorKind::Io, "{e}");
}

#[test]
fn a_repetition_past_the_heap_budget_is_refused_before_it_allocates() {
    // Each would allocate gigabytes at once, before the statement hook could look at the heap.
    // Past 2^31 elements ytt's own limit answers first, as it does in ytt.
    for (expr, refusal) in [
        (
            "[0] * 1000000000",
            "evaluation stopped: it would allocate more than 2147483648 bytes",
        ),
        (
            "1000000000 * (1, 2)",
            "excessive repeat (2000000000 elements)",
        ),
        (
            "\"ab\" * 2000000000",
            "excessive repeat (4000000000 elements)",
        ),
    ] {
        let values = format!("#@data/values\n---\na: #@ {expr}\n");
        let err = check(&[("values.yml", &values)], &["-f", "values.yml"]).unwrap_err();
        assert!(err.contains(refusal), "{expr}: {err}");
        assert!(err.contains("values.yml:3 |"), "{expr}: {err}");
    }
}

#[test]
fn comprehension_iterations_count_against_the_statement_budget() {
    // 10^10 iterations and no statement: a hang before comprehensions were counted.
    let values = "#@ def none():\n#@   return [0 for i in range(100000) for j in range(100000) if False]\n#@ end\n#@data/values\n---\na: #@ none()\n";
    let err = check(&[("values.yml", values)], &["-f", "values.yml"]).unwrap_err();
    assert!(
        err.contains("evaluation stopped after 100000000 Starlark statements"),
        "{err}"
    );
    // Ordinary comprehensions are untouched, nested ones and dict ones included.
    let values = "#@data/values\n---\na: #@ [[y * 2 for y in range(x)] for x in range(3) if x]\nb: #@ {k: v for k, v in {\"x\": 1}.items()}\n";
    let out = check(&[("values.yml", values)], &["-f", "values.yml"]).unwrap();
    assert_eq!(
        schemac_runtime::yaml::emit::to_yaml(&out.value),
        "a:\n- - 0\n- - 0\n  - 2\nb:\n  x: 1\n"
    );
}

#[test]
fn loop_iterations_count_against_the_statement_budget() {
    // The interpreter drops a body that does nothing (`None`, a constant, an empty `while`
    // body), so these ran no statement and hung; each iteration of a `for` now counts as one.
    let stopped = "evaluation stopped after 100000000 Starlark statements";
    for code in [
        "#@ for i in range(1000000000):\n#@   None\n#@ end\n",
        "#@ while True:\n#@ end\n",
        "#@ def f():\n#@   for i in range(100000):\n#@     for j in range(100000):\n#@       1\n#@     end\n#@   end\n#@ end\n#@ f()\n",
        "#@ l = [0] * 100000\n#@ for i in l:\n#@   for j in l:\n#@     []\n#@   end\n#@ end\n",
    ] {
        let values = format!("{code}#@data/values\n---\na: 1\n");
        let err = check(&[("values.yml", &values)], &["-f", "values.yml"]).unwrap_err();
        assert!(err.contains(stopped), "{code}: {err}");
    }
    // A loop the budget ends as the last statement of a loaded file: its variable is not
    // handed on cut short.
    let star = "for i in range(1000000000):\n  None\nend\n";
    let values = "#@ load(\"t.star\", \"i\")\n#@data/values\n---\na: #@ i\n";
    let err = check(
        &[("values.yml", values), ("t.star", star)],
        &["-f", "values.yml", "-f", "t.star"],
    )
    .unwrap_err();
    assert!(err.contains(stopped), "{err}");
    // A loop that breaks early over a range past the budget is charged its items taken.
    let values = "#@ def f():\n#@   for i in range(1000000000):\n#@     if i == 3:\n#@       return i\n#@     end\n#@   end\n#@ end\n#@data/values\n---\na: #@ f()\n";
    let out = check(&[("values.yml", values)], &["-f", "values.yml"]).unwrap();
    assert_eq!(schemac_runtime::yaml::emit::to_yaml(&out.value), "a: 3\n");
}

/// The interpreter's dict moves its entries at each removal (starlark-go unlinks one), so a loop
/// popping the keys of a large dict was quadratic: 80,000 took 26 s, a million would run for
/// hours. Each removal is charged one statement for each 16 entries the dict holds.
#[test]
fn removals_from_a_large_dict_count_against_the_statement_budget() {
    // The last key each time (which moves nothing, but is charged the same: the crate does not
    // say where a key is), so that the test reaches the budget at once.
    let values = "#@ def f():\n#@   d = {i: i for i in range(200000)}\n#@   for i in range(200000):\n#@     d.pop(199999 - i)\n#@   end\n#@   return len(d)\n#@ end\n#@data/values\n---\na: #@ f()\n";
    let err = check(&[("values.yml", values)], &["-f", "values.yml"]).unwrap_err();
    assert!(
        err.contains("evaluation stopped after 100000000 Starlark statements"),
        "{err}"
    );
    // Smaller dicts are emptied as before, by `pop` from the front and by `popitem`, beside
    // pops of a key the dict does not hold (not charged).
    let values = "#@ d = {i: i for i in range(5000)}\n#@ e = dict(d)\n#@ for i in range(5000):\n#@   d.pop(i)\n#@   e.popitem()\n#@   e.pop(-1, None)\n#@ end\n#@data/values\n---\na: #@ [len(d), len(e)]\n";
    let out = check(&[("values.yml", values)], &["-f", "values.yml"]).unwrap();
    assert_eq!(
        schemac_runtime::yaml::emit::to_yaml(&out.value),
        "a:\n- 0\n- 0\n"
    );
}

#[test]
fn an_augmented_repetition_past_the_heap_budget_is_refused_before_it_allocates() {
    let values = "#@ def f():\n#@   x = [0]\n#@   x *= 1000000000\n#@   return x\n#@ end\n#@data/values\n---\na: #@ len(f())\n";
    let err = check(&[("values.yml", values)], &["-f", "values.yml"]).unwrap_err();
    assert!(
        err.contains("evaluation stopped: it would allocate more than 2147483648 bytes"),
        "{err}"
    );
    assert!(err.contains("values.yml:3 | #@   x *= 1000000000"), "{err}");
}

#[test]
fn an_augmented_repetition_of_an_item_whose_container_is_called_for_is_sized() {
    // `f()[0] *= n` was left unsized: the left side cannot be evaluated twice.
    let values = "#@ def f(l):\n#@   return l\n#@ end\n#@ y = [[0]]\n#@ f(y)[len([])] *= 1000000000\n#@data/values\n---\na: #@ y\n";
    let err = check(&[("values.yml", values)], &["-f", "values.yml"]).unwrap_err();
    assert!(
        err.contains("evaluation stopped: it would allocate more than 2147483648 bytes"),
        "{err}"
    );
    assert!(
        err.contains("values.yml:5 | #@ f(y)[len([])] *= 1000000000"),
        "{err}"
    );
}

#[test]
fn an_augmented_repetition_of_a_field_whose_object_is_called_for_is_sized() {
    // `f(s).b *= n` was left unsized: the object cannot be evaluated twice. The repetition
    // ran (8 GB) before the struct refused the assignment.
    let values = "#@ load(\"@ytt:struct\", \"struct\")\n#@ def f(s):\n#@   return s\n#@ end\n#@ s = struct.make(b=[0])\n#@ f(s).b *= 1000000000\n#@data/values\n---\na: 1\n";
    let err = check(&[("values.yml", values)], &["-f", "values.yml"]).unwrap_err();
    assert!(
        err.contains("evaluation stopped: it would allocate more than 2147483648 bytes"),
        "{err}"
    );
    assert!(
        err.contains("values.yml:6 | #@ f(s).b *= 1000000000"),
        "{err}"
    );
}

#[test]
fn values_written_out_are_sized_before_they_are_written() {
    // Each wrote gigabytes in one call from a small value that holds one string or list many
    // times, seen only by the heap check at the next statement (`json.encode` and
    // `yaml.encode` copied the value outside the Starlark heap first, where no budget saw it).
    let heap = "evaluation stopped: it would allocate more than 2147483648 bytes";
    let loads = "#@ load(\"@ytt:json\", \"json\")\n#@ load(\"@ytt:yaml\", \"yaml\")\n";
    for expr in [
        "len(json.encode([[\"x\" * 1000000] * 1000] * 3))",
        "len(json.encode({\"a\": [[0] * 1000] * 100000}, indent=2))",
        "len(yaml.encode([[\"x\" * 1000000] * 1000] * 3))",
        "len((\"%s\" * 300) % (\"x\" * 10000000))",
        "len((\"%(a)s\" * 300) % {\"a\": \"x\" * 10000000})",
        "len((\"%s\" * 30) % ([\"x\" * 100000] * 1000,))",
        "len((\"{}\" * 30).format([\"x\" * 100000] * 1000))",
        "len((\",\" * 60000000).split(\",\"))",
        "len((\", \" * 60000000).rsplit(\",\", -1))",
        "len((\"a \" * 60000000).split())",
        // `str`, `repr`, `print` and `fail` wrote such values whole: an abort at 10 GB.
        "len(str([\"x\" * 1000000] * 3000))",
        "len(repr([[\"x\" * 1000000] * 1000] * 3))",
        "print([\"x\" * 1000000] * 3000)",
        "fail([\"x\" * 1000000] * 3000)",
        // 2^23 leaves shared: the tree `json.encode` copies took 5.6 GB (an abort).
        &format!(
            "len(json.encode({}))",
            (0..23).fold("1".to_string(), |x, _| format!("[{x}] * 2"))
        ),
    ] {
        let values = format!("{loads}#@data/values\n---\na: #@ {expr}\n");
        let err = check(&[("values.yml", &values)], &["-f", "values.yml"]).unwrap_err();
        assert!(err.contains(heap), "{expr}: {err}");
        assert!(err.contains("values.yml:5 |"), "{expr}: {err}");
    }
    // A list that holds itself: ytt overflows its stack; the depth budget stops it (struct's
    // copies overflowed schemac's stack and aborted).
    let loads = format!("{loads}#@ load(\"@ytt:struct\", \"struct\")\n");
    for expr in ["json.encode(l)", "struct.encode(l)", "struct.decode(l)"] {
        let values =
            format!("{loads}#@ l = []\n#@ l.append(l)\n#@data/values\n---\na: #@ {expr}\n");
        let err = check(&[("values.yml", &values)], &["-f", "values.yml"]).unwrap_err();
        assert!(
            err.contains("value nested deeper than 100000 levels: a list or dict inside itself"),
            "{expr}: {err}"
        );
    }
    // Small ones answer as in ytt: tests/cases/starlark/sized-writers-small.
}

#[test]
fn string_methods_that_multiply_their_input_are_sized_before_they_run() {
    // Each made gigabytes in one call, seen only by the heap check at the next statement: a
    // separator that calls a function was counted as empty, `replace` and `format` unsized.
    let heap = "evaluation stopped: it would allocate more than 2147483648 bytes";
    let sep = "#@ def sep():\n#@   return \"-\" * 1000\n#@ end\n";
    for (defs, expr) in [
        (sep, "len(sep().join([\"abcdefgh\"] * 3000000))"),
        ("", "len((\"x\" * 1000000).replace(\"x\", \"x\" * 10000))"),
        (
            "",
            "len((\"\" + \"x\" * 1000000).replace(\"\", \"y\" * 5000))",
        ),
        ("", "len((\"{0}\" * 1000).format(\"x\" * 10000000))"),
        ("", "len((\"{a}\" * 30).format(a=\"x\" * 100000000))"),
        // 10^8 lines: 15 s and 4 GB before the next statement saw them.
        ("", "len(((\"\\n\" * 10000) * 10000).splitlines())"),
    ] {
        let values = format!("{defs}#@data/values\n---\na: #@ {expr}\n");
        let err = check(&[("values.yml", &values)], &["-f", "values.yml"]).unwrap_err();
        assert!(err.contains(heap), "{expr}: {err}");
        assert!(
            err.contains(&format!("values.yml:{} |", defs.lines().count() + 3)),
            "{expr}: {err}"
        );
    }
    // The same methods otherwise answer as before, receivers in parentheses included.
    let values = "#@data/values\n---\na: #@ ((\"a\" + (\"b\"))).replace(\"b\", \"c\", 1)\nb: #@ \"-\".join([\"x\", \",\".join([\"y\", \"z\"])])\nc: #@ \"{}{k}\".format(1, k=2)\nd: #@ (\"(\" + \")\") . replace ( \"(\", \"[\" )\n";
    let out = check(&[("values.yml", values)], &["-f", "values.yml"]).unwrap();
    assert_eq!(
        schemac_runtime::yaml::emit::to_yaml(&out.value),
        "a: ac\nb: x-y,z\nc: \"12\"\nd: '[)'\n"
    );
}

#[test]
fn regexp_replace_is_sized_before_it_runs() {
    // A replacement written for each of a million empty matches made 10 GB in one call (ytt
    // runs out of memory; schemac aborted when its allocation failed).
    let heap = "evaluation stopped: it would allocate more than 2147483648 bytes";
    let load = "#@ load(\"@ytt:regexp\", \"regexp\")\n";
    for expr in [
        "len(regexp.replace(\"\", \"x\" * 1000000, \"y\" * 10000))",
        "len(regexp.replace(\"x+\", \"x\" * 1000000, \"$0\" * 3000))",
    ] {
        let values = format!("{load}#@data/values\n---\na: #@ {expr}\n");
        let err = check(&[("values.yml", &values)], &["-f", "values.yml"]).unwrap_err();
        assert!(err.contains(heap), "{expr}: {err}");
        assert!(err.contains("values.yml:4 |"), "{expr}: {err}");
    }
    let values = format!("{load}#@data/values\n---\na: #@ regexp.replace(\"(b+)\", \"abba\", \"<$1$1>\")\nb: #@ regexp.replace(\"b\", \"abba\", lambda m: m.upper())\n");
    let out = check(&[("values.yml", &values)], &["-f", "values.yml"]).unwrap();
    assert_eq!(
        schemac_runtime::yaml::emit::to_yaml(&out.value),
        "a: a<bbbb>a\nb: aBBa\n"
    );
}

#[test]
fn builtins_that_go_through_an_iterable_are_charged_before_they_run() {
    // Each made a value of 3 * 10^8 items or more (or looped as long) in one call, unseen by
    // the statement hook; with constant arguments the compiler itself ran `list(range(N))`.
    let steps = "evaluation stopped after 100000000 Starlark statements";
    let heap = "evaluation stopped: it would allocate more than 2147483648 bytes";
    for (expr, error) in [
        ("list(range(300000000))", steps),
        ("len(tuple(range(300000000)))", steps),
        ("sorted(range(300000000))", steps),
        ("dict(enumerate(range(300000000)))", steps),
        ("all(range(1, 1000000000))", steps),
        ("max(reversed(range(300000000)))", steps),
        ("\",\".join([\"abcdefgh\" * 1000000] * 300)", heap),
    ] {
        let values = format!("#@data/values\n---\na: #@ {expr}\n");
        let err = check(&[("values.yml", &values)], &["-f", "values.yml"]).unwrap_err();
        assert!(err.contains(error), "{expr}: {err}");
        assert!(err.contains("values.yml:3 |"), "{expr}: {err}");
    }
}

#[test]
fn a_starlark_int_past_64_bits_is_an_error_with_a_position() {
    // ytt panics ("not sure how to get int"); an int in [2^63, 2^64) is data (a uint64).
    let values = "#@data/values\n---\na: #@ 18446744073709551615\nb: #@ 18446744073709551615 + 1\n";
    let err = check(&[("values.yml", values)], &["-f", "values.yml"]).unwrap_err();
    assert!(err.contains("Unsupported value type int in YAML"), "{err}");
    assert!(err.contains("values.yml:4 |"), "{err}");
    // struct.decode and struct.encode convert as ytt's YAML does, dict keys and struct fields
    // included: such an int is refused there too (yttmodules seed 11244), one in
    // [-2^63, 2^64) copied.
    for (expr, ok) in [
        ("len(struct.decode(struct.make(a=-(1 << 63) - 1)))", false),
        ("len(struct.encode([1 << 64]))", false),
        ("len(struct.decode({1 << 64: 1}))", false),
        ("struct.decode([-(1 << 63), (1 << 64) - 1])", true),
    ] {
        let values =
            format!("#@ load(\"@ytt:struct\", \"struct\")\n#@data/values\n---\na: #@ {expr}\n");
        let result = check(&[("values.yml", &values)], &["-f", "values.yml"]);
        match (result, ok) {
            (Ok(_), true) => {}
            (Err(err), false) => {
                assert!(
                    err.contains("an integer beyond 64 bits is not data"),
                    "{err}"
                );
                assert!(err.contains("values.yml:4 |"), "{err}");
            }
            (other, _) => panic!("{expr}: {other:?}"),
        }
    }
}

#[test]
fn a_caught_error_ending_a_fragment_function_is_an_error_as_ytts_panic() {
    // ytt keeps the context of a function that builds YAML or text on its template's stack
    // until the function ends: an error caught by `assert.try_to` leaves it there, and ytt
    // panics at the template's next node or at its end (`expected to find node tag 1 when
    // unwinding`, `expected all ctxs to end`). schemac went on with the values.
    let head = "#@ load('@ytt:assert', 'assert')\n#@ def frag():\na: #@ fail('x')\n#@ end\n";
    let text_def =
        "#@yaml/text-templated-strings\nt: \"(@ def g(): @)t(@ fail('y') @)(@ end @)\"\n";
    for (what, values) in [
        (
            "a fragment function",
            format!("{head}#@data/values\n---\nq: #@ str(assert.try_to(frag))\nz: 1\n"),
        ),
        (
            "at the end",
            format!("{head}#@data/values\n---\nq: #@ str(assert.try_to(frag))\n"),
        ),
        (
            "a text template's function",
            format!("{head}#@data/values\n---\n{text_def}q: #@ str(assert.try_to(g))\n"),
        ),
    ] {
        let err = check(&[("values.yml", &values)], &["-f", "values.yml"]).unwrap_err();
        assert!(err.contains("ytt cannot go on from there"), "{what}: {err}");
        assert!(err.contains("q: #@ str(assert.try_to("), "{what}: {err}");
    }
    // A function without nodes has no context in ytt, and a loaded library's functions have
    // their library's stack: the error is caught.
    let nodes_free = "#@ load('@ytt:assert', 'assert')\n#@ def f():\n#@   fail('x')\n#@ end\n#@data/values\n---\nq: #@ str(assert.try_to(f))\nz: 1\n";
    let out = check(&[("values.yml", nodes_free)], &["-f", "values.yml"]).unwrap();
    let out = schemac_runtime::yaml::emit::to_yaml(&out.value);
    assert_eq!(out, "q: '(None, \"fail: x\")'\nz: 1\n");
    let library = "#@ def frag():\na: #@ fail('x')\n#@ end\n";
    let values = "#@ load('@ytt:assert', 'assert')\n#@ load('lib.lib.yml', 'frag')\n#@data/values\n---\nq: #@ str(assert.try_to(frag))\nz: 1\n";
    let out = check(
        &[("values.yml", values), ("lib.lib.yml", library)],
        &["-f", "values.yml", "-f", "lib.lib.yml"],
    )
    .unwrap();
    let out = schemac_runtime::yaml::emit::to_yaml(&out.value);
    assert_eq!(out, "q: '(None, \"fail: x\")'\nz: 1\n");
}

#[test]
fn a_load_cycle_is_an_error_not_a_stack_overflow() {
    // ytt (and schemac before) recursed until the stack overflowed.
    let files = [
        (
            "v.yml",
            "#@ load(\"a.star\", \"f\")\n#@data/values\n---\na: #@ f()\n",
        ),
        ("a.star", "load(\"b.star\", \"g\")\ndef f(): return 1\n"),
        ("b.star", "load(\"a.star\", \"f\")\ndef g(): return 2\n"),
    ];
    let args = ["-f", "v.yml", "-f", "a.star", "-f", "b.star"];
    let err = check(&files, &args).unwrap_err();
    let cycle = load_cycle_files(&err);
    assert_eq!(cycle, ["a.star", "b.star", "a.star"], "{err}");
    assert!(err.contains("v.yml:1 |"), "{err}");
}

/// Calls nested past the call depth budget (a chain of distinct functions: starlark-go
/// refuses recursion) are an error naming the budget; shorter chains run as in ytt
/// (tests/cases/starlark/call-chain-deeper-than-fifty).
#[test]
fn calls_nested_past_the_budget_are_an_error() {
    let depth = schemac_runtime::starlark::DEFAULT_MAX_CALL_DEPTH + 1;
    let mut values = String::from("#@ def f0():\n#@   return 1\n#@ end\n");
    for i in 1..depth {
        values.push_str(&format!(
            "#@ def f{i}():\n#@   return f{}()\n#@ end\n",
            i - 1
        ));
    }
    values.push_str(&format!("#@data/values\n---\na: #@ f{}()\n", depth - 1));
    let err = check(&[("values.yml", &values)], &["-f", "values.yml"]).unwrap_err();
    assert!(
        err.contains("Starlark calls nested deeper than 10000 (raise the budget with SCHEMAC_STARLARK_CALL_DEPTH)"),
        "{}",
        &err[..err.len().min(500)]
    );
    // Its calls are listed innermost and outermost only, the thousands between counted.
    let listed = err.matches("\n    in ").count();
    assert!(
        (schemac_runtime::starlark::CALL_DEPTH_FRAMES_SHOWN
            ..schemac_runtime::starlark::CALL_DEPTH_FRAMES_SHOWN + 3)
            .contains(&listed),
        "{listed} calls listed: {}",
        &err[..err.len().min(2000)]
    );
    assert!(err.contains(" calls left out)\n    in f"), "{err}");
    assert!(
        err.contains("\n    in <toplevel>\n      values.yml:"),
        "{err}"
    );
}

/// Functions nested past the function depth budget are an error naming it, before the
/// interpreter compiles them (it copied each level's body: 20,000 lambdas took 16 GB).
#[test]
fn functions_nested_past_the_budget_are_an_error() {
    let depth = schemac_runtime::starlark::DEFAULT_MAX_FUNCTION_DEPTH + 1;
    let values = format!("#@data/values\n---\na: #@ {}1\n", "lambda: ".repeat(depth));
    let err = check(&[("values.yml", &values)], &["-f", "values.yml"]).unwrap_err();
    assert!(
        err.contains("functions nested deeper than 1000 levels"),
        "{}",
        &err[..err.len().min(500)]
    );
    assert!(
        err.contains("values.yml:3 |"),
        "{}",
        &err[..err.len().min(500)]
    );
}

/// The files of a `cycle in load graph (A -> B -> A)` message, without their directories.
fn load_cycle_files(err: &str) -> Vec<&str> {
    let (_, rest) = err
        .split_once("cannot load a.star: cycle in load graph (")
        .unwrap_or(("", ""));
    let chain = rest.split(')').next().unwrap_or("");
    chain
        .split(" -> ")
        .map(|f| f.rsplit('/').next().unwrap_or(f))
        .collect()
}

/// [`check`] on a thread with the stack `schemac` runs on (deep values recurse).
fn check_on_schemac_stack(files: &[(&str, &str)], args: &[&str]) -> Result<Node, String> {
    std::thread::scope(|scope| {
        std::thread::Builder::new()
            .stack_size(schemac_runtime::cli::STACK_BYTES)
            .spawn_scoped(scope, || check(files, args))
            .expect("a thread")
            .join()
            .expect("no panic")
    })
}

/// Hostile inputs of issue 11 that once overflowed the stack or exhausted memory: each ends in
/// an answer or a named budget's error.
#[test]
fn deep_and_repeated_inputs_end_in_an_answer_or_a_budget_error() {
    let deep = "#@ def deep(n):\n#@   v = []\n#@   for i in range(n):\n#@     v = [v]\n#@   end\n#@   return v\n#@ end\n#@ load(\"@ytt:json\", \"json\")\n#@ load(\"@ytt:yaml\", \"yaml\")\n#@ x = deep(5000)\n#@data/values\n---\na: #@ [len(json.encode(x)), len(yaml.encode(x)), len(str(x))]\n";
    let out = check_on_schemac_stack(&[("values.yml", deep)], &["-f", "values.yml"]).unwrap();
    let a = schemac_runtime::yaml::emit::to_yaml(&out.value);
    assert_eq!(a, "a:\n- 10002\n- 10003\n- 10002\n");
    // Comparing it stops at starlark-go's depth of 10, with its error (ytt's answer).
    let compared = deep.replace("len(str(x))]", "len(str(x)), x == x]");
    let err =
        check_on_schemac_stack(&[("values.yml", &compared)], &["-f", "values.yml"]).unwrap_err();
    assert!(
        err.contains("comparison exceeded maximum recursion depth"),
        "{err}"
    );
    let sum = format!(
        "#@data/values\n---\na: #@ {}\n",
        vec!["1"; 10_000].join("+")
    );
    let out = check_on_schemac_stack(&[("values.yml", &sum)], &["-f", "values.yml"]).unwrap();
    assert_eq!(get(&out, "a"), &Value::Int(10_000));
    let literal = format!(
        "#@data/values\n---\na: #@ {}{}\n",
        "[".repeat(3_000),
        "]".repeat(3_000)
    );
    assert!(check_on_schemac_stack(&[("values.yml", &literal)], &["-f", "values.yml"]).is_ok());
    // Decoded text nests past the files' budget, as ytt decodes it (its own budget:
    // `tests/hostile.rs`).
    let decode = format!(
        "#@ load(\"@ytt:yaml\", \"yaml\")\n#@data/values\n---\na: #@ len(str(yaml.decode(\"{}{}\")))\n",
        "[".repeat(5_000),
        "]".repeat(5_000)
    );
    let out = check_on_schemac_stack(&[("values.yml", &decode)], &["-f", "values.yml"]).unwrap();
    assert_eq!(get(&out, "a"), &Value::Int(10_000));
    // An alias bomb through the other routes than `-f`.
    let mut bomb = String::from("a0: &a0 [1,1,1,1,1,1,1,1,1]\n");
    for i in 1..9 {
        let refs = vec![format!("*a{}", i - 1); 9].join(",");
        bomb.push_str(&format!("a{i}: &a{i} [{refs}]\n"));
    }
    let aliasing = "document contains excessive aliasing";
    let err = check(
        &[("plain.yml", &bomb)],
        &["--data-values-file", "plain.yml"],
    )
    .unwrap_err();
    assert!(err.contains(aliasing), "{err}");
    let flow = format!("x={{{}}}", bomb.trim_end().replace('\n', ", "));
    let err = check(&[], &["--data-value-yaml", &flow]).unwrap_err();
    assert!(err.contains(aliasing), "{err}");
    let decoded = format!(
        "#@ load(\"@ytt:yaml\", \"yaml\")\n#@data/values\n---\na: #@ yaml.decode({:?})\n",
        bomb
    );
    let err = check(&[("values.yml", &decoded)], &["-f", "values.yml"]).unwrap_err();
    assert!(err.contains(aliasing), "{err}");
}

#[test]
fn a_map_taken_whole_with_a_repeated_key_is_an_error() {
    // ytt keeps the repeated key and panics writing the data values (rc 2).
    let schema = "#@data/values-schema\n---\na:\n- b: 0\n";
    let err = check(
        &[
            ("schema.yml", schema),
            ("values.yml", "a:\n- b: 1\n  b: 2\n"),
        ],
        &["-f", "schema.yml", "--data-values-file", "values.yml"],
    )
    .unwrap_err();
    assert!(err.contains("map key 'b' is given twice ("), "{err}");
    assert!(
        err.contains("values.yml:2 and ")
            && err.ends_with("values.yml:3); a map cannot hold a key twice"),
        "{err}"
    );
    let err = check(
        &[("values.yml", "#@data/values\n---\nc: {}\n")],
        &["-f", "values.yml", "--data-value-yaml", "c={b: 1, b: 2}"],
    )
    .unwrap_err();
    assert!(err.contains("map key 'b' is given twice;"), "{err}");
    // Merged key by key onto the schema's map, a repeated key is the last one given, as in ytt.
    let schema = "#@data/values-schema\n---\na:\n  b: 0\n";
    let out = check(
        &[
            ("schema.yml", schema),
            ("values.yml", "a:\n  b: 1\n  b: 2\n"),
        ],
        &["-f", "schema.yml", "--data-values-file", "values.yml"],
    )
    .unwrap();
    assert_eq!(get(&out, "a.b"), &Value::Int(2));
}
