//! End-to-end tests of `schemac check` on cases written for this project.
//!
//! Each test writes its files to a fresh directory, runs the pipeline through the library (no
//! process spawned) and looks at the final data values or at the error text.

mod common;

use common::{check, workdir};
use schemac::check::{evaluate, Outcome, INTERPRETER};
use schemac_runtime::cli::parse;
use schemac_runtime::value::{Node, Value};

fn get<'a>(node: &'a Node, path: &str) -> &'a Value {
    let mut v = &node.value;
    for key in path.split('.') {
        v = match key.parse::<usize>() {
            Ok(i) => match v {
                Value::Array(items) => &items[i].value,
                _ => panic!("{key}: not an array in {v:?}"),
            },
            Err(_) => {
                &v.get(key)
                    .unwrap_or_else(|| panic!("no key {key} in {v:?}"))
                    .value
            }
        };
    }
    v
}

const SCHEMA: &str = "#@data/values-schema\n---\nreplicas: 1\nname: web\n#@schema/nullable\ntls:\n  cert: \"\"\nports:\n- port: 80\n  protocol: TCP\n";

#[test]
fn defaults_come_from_the_schema() {
    let out = check(&[("schema.yml", SCHEMA)], &["-f", "schema.yml"]).unwrap();
    assert_eq!(get(&out, "replicas"), &Value::Int(1));
    assert_eq!(get(&out, "tls"), &Value::Null);
    assert_eq!(
        get(&out, "ports"),
        &Value::Array(schemac_runtime::value::thin_vec![])
    );
}

#[test]
fn values_overlay_and_array_items_get_defaults() {
    let values = "#@data/values\n---\nreplicas: 3\nports:\n- port: 443\n";
    let out = check(
        &[("schema.yml", SCHEMA), ("values.yml", values)],
        &["-f", "schema.yml", "-f", "values.yml"],
    )
    .unwrap();
    assert_eq!(get(&out, "replicas"), &Value::Int(3));
    assert_eq!(get(&out, "ports.0.port"), &Value::Int(443));
    assert_eq!(get(&out, "ports.0.protocol"), &Value::Str("TCP".into()));
}

#[test]
fn wrong_type_is_reported_with_both_positions() {
    let values = "#@data/values\n---\nreplicas: many\n";
    let err = check(
        &[("schema.yml", SCHEMA), ("values.yml", values)],
        &["-f", "schema.yml", "-f", "values.yml"],
    )
    .unwrap_err();
    assert!(
        err.contains("One or more data values were invalid"),
        "{err}"
    );
    assert!(err.contains("  3 | replicas: many"), "{err}");
    assert!(err.contains("= found: string"), "{err}");
    assert!(err.contains("= expected: integer (by "), "{err}");
}

#[test]
fn unknown_key_in_a_values_document_fails_the_overlay() {
    let values = "#@data/values\n---\nreplica: 3\n";
    let err = check(
        &[("schema.yml", SCHEMA), ("values.yml", values)],
        &["-f", "schema.yml", "-f", "values.yml"],
    )
    .unwrap_err();
    assert!(err.contains("Map item (key 'replica')"), "{err}");
    assert!(
        err.contains("Expected number of matched nodes to be 1, but was 0"),
        "{err}"
    );
}

#[test]
fn unknown_key_from_a_flag_is_not_declared_with_a_hint() {
    let err = check(
        &[("schema.yml", SCHEMA)],
        &["-f", "schema.yml", "--data-value-yaml", "replica=3"],
    )
    .unwrap_err();
    assert!(
        err.contains("Given data value is not declared in schema"),
        "{err}"
    );
    assert!(err.contains("did you mean \"replicas\"?"), "{err}");
}

#[test]
fn flags_apply_in_ytt_order_not_command_line_order() {
    let out = check(
        &[("schema.yml", "#@data/values-schema\n---\nname: a\n")],
        &[
            "-f",
            "schema.yml",
            "--data-value-yaml",
            "name=from-yaml",
            "--data-value",
            "name=from-string",
        ],
    )
    .unwrap();
    assert_eq!(get(&out, "name"), &Value::Str("from-yaml".into()));
}

#[test]
fn data_value_flag_gives_strings_and_nested_paths() {
    let out = check(&[], &["--data-value", "a.b=3"]).unwrap();
    assert_eq!(get(&out, "a.b"), &Value::Str("3".into()));
}

#[test]
fn documents_append_arrays_and_files_replace_them() {
    let schema = "#@data/values-schema\n---\n#@schema/default [\"x\"]\nlist:\n- \"\"\n";
    let values = "#@data/values\n---\nlist:\n- yy\n";
    let out = check(
        &[("schema.yml", schema), ("values.yml", values)],
        &["-f", "schema.yml", "-f", "values.yml"],
    )
    .unwrap();
    assert_eq!(get(&out, "list.1"), &Value::Str("yy".into()));
    let plain = "list:\n- z\n";
    let out = check(
        &[("schema.yml", schema), ("plain.yml", plain)],
        &["-f", "schema.yml", "--data-values-file", "plain.yml"],
    )
    .unwrap();
    assert_eq!(
        get(&out, "list"),
        &Value::Array(schemac_runtime::value::thin_vec![Node::new(
            Value::Str("z".into()),
            get_pos(&out)
        )])
    );
}

fn get_pos(out: &Node) -> schemac_runtime::value::Pos {
    match get(out, "list") {
        Value::Array(items) => items[0].pos,
        _ => unreachable!(),
    }
}

#[test]
fn starlark_code_fragments_and_loops() {
    let values = "#@ def extra():\nk: v\n#@ end\n#@ base = 8000\n#@data/values\n---\nport: #@ base + 80\nmore: #@ extra()\nitems:\n#@ for i in range(3):\n- #@ i * 2\n#@ end\n";
    let out = check(&[("values.yml", values)], &["-f", "values.yml"]).unwrap();
    assert_eq!(get(&out, "port"), &Value::Int(8080));
    assert_eq!(get(&out, "more.k"), &Value::Str("v".into()));
    assert_eq!(get(&out, "items.2"), &Value::Int(4));
}

#[test]
fn starlark_errors_name_the_template_line() {
    let values = "#@data/values\n---\na: 1\nb: #@ 1 // 0\n";
    let err = check(&[("values.yml", values)], &["-f", "values.yml"]).unwrap_err();
    assert!(err.contains("Templating file"), "{err}");
    assert!(err.contains("values.yml:4 | b: #@ 1 // 0"), "{err}");
}

#[test]
fn schema_errors_are_reported_before_values() {
    let schema = "#@data/values-schema\n---\nlist: []\n";
    let err = check(&[("schema.yml", schema)], &["-f", "schema.yml"]).unwrap_err();
    assert!(
        err.contains("wrong number of items in array definition"),
        "{err}"
    );
    assert!(err.contains("= found: 0 array items"), "{err}");
}

#[test]
fn bad_yaml_reports_a_line() {
    let err = check(
        &[("values.yml", "#@data/values\n---\na: [1, 2\n")],
        &["-f", "values.yml"],
    )
    .unwrap_err();
    assert!(err.starts_with("Unmarshaling YAML template"), "{err}");
    assert!(err.contains("line "), "{err}");
}

#[test]
fn bad_arguments_are_usage_errors() {
    assert!(check(&[], &["--no-such-flag"])
        .unwrap_err()
        .starts_with("usage:"));
    assert!(check(&[], &["-f"]).unwrap_err().starts_with("usage:"));
    let err = check(&[], &["--data-value", "novalue"]).unwrap_err();
    assert!(err.contains("Expected format key=value"), "{err}");
}

#[test]
fn a_rule_that_never_ends_is_stopped_with_an_error() {
    let schema = "#@ def forever(v):\n#@   for i in range(1000000000):\n#@     for j in range(1000000000):\n#@       v = v\n#@     end\n#@   end\n#@   return True\n#@ end\n#@data/values-schema\n---\n#@schema/validation (\"stops\", forever)\nx: 1\n";
    // The budget counts statements, not time: no clock in this test.
    let err = check(&[("schema.yml", schema)], &["-f", "schema.yml"]).unwrap_err();
    assert!(err.contains("must be: stops"), "{err}");
    assert!(
        err.contains("evaluation stopped after 100000000 Starlark statements"),
        "{err}"
    );
}

#[test]
fn string_length_counts_bytes_as_ytt_does() {
    let schema = "#@data/values-schema\n---\n#@schema/validation (\"short\", lambda v: len(v) <= 1), max_len=1\nname: \"é\"\n";
    let err = check(&[("schema.yml", schema)], &["-f", "schema.yml"]).unwrap_err();
    assert!(err.contains("must be: short"), "{err}");
    assert!(err.contains("found: length = 2"), "{err}");
}

#[test]
fn every_violation_is_reported_with_its_path() {
    let schema = "#@data/values-schema\n---\n#@schema/validation min=1\na: 1\nlist:\n#@schema/validation one_of=[\"x\"]\n- x\n";
    let values = "#@data/values\n---\na: 0\nlist:\n- x\n- z\n";
    let err = check(
        &[("schema.yml", schema), ("values.yml", values)],
        &["-f", "schema.yml", "-f", "values.yml"],
    )
    .unwrap_err();
    assert!(
        err.starts_with("Validating final data values:\n  a\n"),
        "{err}"
    );
    assert!(err.contains("\n  list[1]\n    from: "), "{err}");
    assert!(err.contains("- must be: one of [\"x\"] (by: "), "{err}");
    let ok = check(
        &[("schema.yml", schema), ("values.yml", values)],
        &[
            "-f",
            "schema.yml",
            "-f",
            "values.yml",
            "--dangerous-data-values-disable-validation",
        ],
    );
    assert!(ok.is_ok());
}

#[test]
fn beyond_ytt_rules_pass_fail_and_reject_bad_arguments() {
    let schema = "#@data/values-schema\n---\n#@schema/validation format=\"hostname\", ends_with=\".com\"\nhost: api.example.com\n#@schema/validation multiple_of=1024, even=True\nmemory: 2048\n#@schema/validation unique=True, len=2\n#@schema/default [\"a\", \"b\"]\ntags: [\"\"]\n";
    assert!(check(&[("schema.yml", schema)], &["-f", "schema.yml"]).is_ok());
    let err = check(
        &[("schema.yml", schema)],
        &[
            "-f",
            "schema.yml",
            "--data-value",
            "host=bad_host.org",
            "--data-value-yaml",
            "memory=1000",
        ],
    )
    .unwrap_err();
    assert!(err.contains("  host\n"), "{err}");
    assert!(err.contains("- must be: a valid hostname (by: "), "{err}");
    assert!(
        err.contains("found: \"bad_host.org\" is not a valid hostname"),
        "{err}"
    );
    assert!(
        err.contains("- must be: a value ending with \".com\""),
        "{err}"
    );
    assert!(
        err.contains("found: 1000 is not a multiple of 1024"),
        "{err}"
    );
    let bad = "#@data/values-schema\n---\n#@schema/validation format=\"color\"\nx: red\n";
    let err = check(&[("schema.yml", bad)], &["-f", "schema.yml"]).unwrap_err();
    assert!(
        err.contains("Invalid @schema/validation annotation - unknown format \"color\""),
        "{err}"
    );
    let unknown = "#@data/values-schema\n---\n#@schema/validation no_such_rule=1\nx: 1\n";
    let err = check(&[("schema.yml", unknown)], &["-f", "schema.yml"]).unwrap_err();
    assert!(
        err.contains("unknown keyword argument \"no_such_rule\""),
        "{err}"
    );
}

#[test]
fn violations_as_json() {
    use schemac_runtime::validate::to_json;
    let schema = "#@data/values-schema\n---\n#@schema/validation min=1\nreplicas: 0\n";
    let dir = workdir(&[("schema.yml", schema)]);
    let path = dir.join("schema.yml").to_string_lossy().to_string();
    let opts = parse(&[
        "-f".into(),
        path,
        "--violations-format".into(),
        "json".into(),
    ])
    .unwrap();
    let Ok(Outcome::Invalid(violations)) = evaluate(&opts.request, &INTERPRETER) else {
        panic!("expected violations")
    };
    let (json, left_out) = to_json(&violations);
    assert_eq!(left_out, None);
    assert!(json.starts_with("[{\"expected\":\"a value \\u003e= 1\",\"found\":\"value \\u003c 1\",\"path\":\"replicas\""), "{json}");
    assert!(parse(&["--violations-format".into(), "xml".into()]).is_err());
}

#[path = "check/budgets.rs"]
mod budgets;
