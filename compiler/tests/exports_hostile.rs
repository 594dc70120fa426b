//! The exports of `schemac inspect` on keys and texts that are special to their formats:
//! HTML's and Markdown's markup, JSON's escapes, line endings, NUL and characters that change
//! the direction of text, and rule arguments full of regular expression syntax. (A key's text
//! after a line break is template code in ytt, so the key holding a CR keeps a comment after
//! it; a key holding a NUL ends ytt's program, so NUL is in a description only.)
#![cfg(unix)]

use std::path::Path;
use std::process::{Command, Stdio};

use serde_json::Value as Json;

const BIN: &str = env!("CARGO_BIN_EXE_schemac");

fn schemac(dir: &Path, args: &[&str]) -> String {
    let o = Command::new(BIN)
        .args(args)
        .current_dir(dir)
        .stdin(Stdio::null())
        .output()
        .expect("schemac runs");
    assert!(
        o.status.success(),
        "{args:?}: {}",
        String::from_utf8_lossy(&o.stderr)
    );
    String::from_utf8(o.stdout).expect("UTF-8")
}

/// The keys of the schema below, as YAML reads them.
const KEYS: &[&str] = &[
    "<script>x</script>",
    "a|b",
    "`code`",
    "cr\r# key",
    "a\u{202e}b",
    "x\u{2028}y",
    "tab\tkey",
    "s",
];

const SCHEMA: &str = "#@data/values-schema\n---\n\
#@schema/desc \"<script>alert(1)</script> </code> | `tick` \\\"q\\\" line\\rcr\\r\\nend\\0nul\"\n\
\"<script>x</script>\": 1\n\
\"a|b\": 2\n\
\"`code`\": 3\n\
#@schema/title \"t\\rcr\"\n\
\"cr\\r# key\": 4\n\
\"a\\u202eb\": 6\n\
\"x\\u2028y\": 7\n\
\"tab\\tkey\": 8\n\
#@schema/validation starts_with=\"a.*+?(){}[]^$|\\\\/\", ends_with=\"\\\"x\"\n\
s: \"a.*+?(){}[]^$|\\\\/\\\"x\"\n";

#[test]
fn hostile_keys_and_texts_keep_every_export_whole() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("schema.yml"), SCHEMA).unwrap();

    // JSON Schema: JSON, a valid schema, whose properties are the keys, and which accepts the
    // defaults.
    let text = schemac(dir.path(), &["inspect", "schema.yml", "-o", "json-schema"]);
    let schema: Json = serde_json::from_str(&text).expect("JSON");
    jsonschema::meta::validate(&schema).expect("a valid JSON Schema");
    let mut keys: Vec<&str> = schema["properties"]
        .as_object()
        .unwrap()
        .keys()
        .map(String::as_str)
        .collect();
    let mut expected = KEYS.to_vec();
    keys.sort();
    expected.sort();
    assert_eq!(keys, expected);
    let defaults = schemac(dir.path(), &["check", "-f", "schema.yml", "-o", "json"]);
    let defaults: Json = serde_json::from_str(&defaults).unwrap();
    let validator = jsonschema::validator_for(&schema).expect("compiles");
    assert!(validator.is_valid(&defaults), "{defaults}");

    // Markdown: each row of the top-level table stays on its line with its five cells (a CR
    // ends a line in Markdown), and no HTML gets through.
    let md = schemac(dir.path(), &["inspect", "schema.yml", "-o", "markdown"]);
    assert!(!md.contains('\r'), "{md:?}");
    // (A key is a code span, where HTML is text.)
    assert!(
        !md.contains("<script>alert") && !md.contains("</code> \\|"),
        "{md}"
    );
    let rows: Vec<&str> = md
        .lines()
        .skip_while(|l| !l.starts_with("| Key "))
        .skip(2)
        .take_while(|l| l.starts_with('|'))
        .collect();
    assert_eq!(rows.len(), KEYS.len(), "{md}");
    for row in rows {
        let cells = row.replace("\\|", "").matches('|').count();
        assert_eq!(cells, 6, "{row}");
    }

    // HTML: the page's own script only.
    let html = schemac(dir.path(), &["inspect", "schema.yml", "-o", "html"]);
    assert_eq!(html.matches("<script").count(), 1);
    assert!(!html.contains("</code> |"));
}

/// Keys that are written alike (a bool and a string, an int and a string) are one JSON
/// property, once, which takes either's value: JSON Schema had the property twice (which JSON
/// readers take as the last one).
#[test]
fn keys_written_alike_are_one_property() {
    let dir = tempfile::tempdir().unwrap();
    let schema = "#@data/values-schema\n---\ntrue: 1\n\"true\": \"s\"\n1: 3\n\"1\": 4\n";
    std::fs::write(dir.path().join("schema.yml"), schema).unwrap();
    let text = schemac(dir.path(), &["inspect", "schema.yml", "-o", "json-schema"]);
    assert_eq!(text.matches("\"true\":").count(), 1, "{text}");
    assert_eq!(text.matches("\"1\":").count(), 1, "{text}");
    let schema: Json = serde_json::from_str(&text).unwrap();
    jsonschema::meta::validate(&schema).expect("a valid JSON Schema");
    let validator = jsonschema::validator_for(&schema).expect("compiles");
    let defaults = schemac(dir.path(), &["check", "-f", "schema.yml", "-o", "json"]);
    let defaults: Json = serde_json::from_str(&defaults).unwrap();
    assert!(validator.is_valid(&defaults), "{defaults}");
    assert!(validator.is_valid(&serde_json::json!({"true": 1, "1": 3})));
}

/// Each row of the Markdown and HTML references names its value's whole path, so a deep
/// schema with long keys makes text in the square of its depth (1,900 levels of 1 KB keys
/// passed 30 s and 3.7 GB): past the budget of paths, the reference is refused with the
/// position of the value that passed it, and the other exports are made as before.
#[test]
fn references_of_deep_schemas_with_long_keys_meet_the_budget_of_paths() {
    let dir = tempfile::tempdir().unwrap();
    let key = "k".repeat(100);
    let mut schema = String::from("#@data/values-schema\n---\n");
    for depth in 0..40 {
        schema.push_str(&format!("{}{key}{depth}:\n", "  ".repeat(depth)));
    }
    schema.push_str(&format!("{}leaf: 1\n", "  ".repeat(40)));
    std::fs::write(dir.path().join("schema.yml"), &schema).unwrap();
    for format in ["markdown", "html"] {
        let o = Command::new(BIN)
            .args(["inspect", "schema.yml", "-o", format])
            .env("SCHEMAC_MAX_REFERENCE_BYTES", "20000")
            .current_dir(dir.path())
            .stdin(Stdio::null())
            .output()
            .expect("schemac runs");
        let stderr = String::from_utf8_lossy(&o.stderr);
        assert_eq!(o.status.code(), Some(1), "{format}: {stderr}");
        assert!(o.stdout.is_empty(), "{format}: nothing written");
        // Paths grow by about 100 bytes a level, each counted for a row, and for a table with
        // its anchor: the value on line 13 (the eleventh level) passes 20,000 bytes.
        assert!(
            stderr.contains("schema.yml:13: the reference of the data values passes the budget of 20000 bytes of paths (each row names its value's whole path; raise the budget with SCHEMAC_MAX_REFERENCE_BYTES)"),
            "{format}: {stderr}"
        );
        // Within the default budget, the same schema's reference is made.
        let text = schemac(dir.path(), &["inspect", "schema.yml", "-o", format]);
        assert!(text.contains("leaf"), "{format}");
    }
    schemac(dir.path(), &["inspect", "schema.yml", "-o", "json-schema"]);
}

#[test]
fn backticks_in_a_rule_open_no_code_span_across_the_markdown_cells() {
    let dir = tempfile::tempdir().unwrap();
    let schema = concat!(
        "#@data/values-schema\n---\n",
        "#@schema/validation (\"use `http`\", lambda v: True), one_of=[\"`a\", \"b\\\\`\"]\n",
        "v: \"`a\"\n",
    );
    std::fs::write(dir.path().join("schema.yml"), schema).unwrap();
    let text = schemac(dir.path(), &["inspect", "schema.yml", "-o", "markdown"]);
    let row = text
        .lines()
        .find(|l| l.starts_with("| `v`"))
        .expect("the row of v");
    // A custom rule's description is the author's prose: its code span is kept.
    assert!(
        row.ends_with("| use `http`<br>one of [\"\\`a\", \"b\\\\\\\\\\`\"] |"),
        "{row}"
    );
}
