//! `from_node` on values made in code that no YAML reader would make: it must answer as
//! `from_yaml_str` answers on their YAML spelling.

mod web {
    // The generated module's whole API; these tests call its typed load only.
    #![allow(dead_code)]
    include!("../fixtures/codegen/web.rs");
}

use schemac_runtime::value::{MapEntry, Node, Pos, Value};

fn node(value: Value) -> Node {
    Node::new(value, Pos::unknown())
}

fn map(entries: Vec<(Value, Value)>) -> Value {
    Value::Map(
        entries
            .into_iter()
            .map(|(key, value)| MapEntry {
                key: key.into(),
                value: node(value),
            })
            .collect(),
    )
}

fn text(s: &str) -> Value {
    Value::Str(s.into())
}

/// The report without the lines it quotes, the file named as `from_yaml_str` names it.
fn unquoted(report: &str) -> String {
    report
        .replace("(value)", "(string)")
        .lines()
        .map(without_string_positions)
        .filter(|l| {
            !l.trim_start()
                .split_once(" |")
                .is_some_and(|(n, _)| n.chars().all(|c| c.is_ascii_digit() || c == '?'))
        })
        .collect::<Vec<_>>()
        .join("\n")
}

/// `line` with each position in the YAML text (`(string):3`) as a value made in code has it
/// (`?`): messages naming where a value is (the typed API's unfit values) say so.
fn without_string_positions(line: &str) -> String {
    let mut out = String::new();
    let mut rest = line;
    while let Some(at) = rest.find("(string):") {
        let after = &rest[at + "(string):".len()..];
        let digits = after.len() - after.trim_start_matches(|c: char| c.is_ascii_digit()).len();
        out.push_str(&rest[..at]);
        if digits == 0 {
            out.push_str("(string):");
        } else {
            out.push('?');
        }
        rest = &after[digits..];
    }
    out.push_str(rest);
    out
}

#[test]
fn values_made_in_code_answer_as_their_yaml() {
    // (Within the reader's depth budget: past it, `from_yaml_str` refuses the YAML and
    // `from_node` takes the node, which has no budget; fuzz/README.md, twenty-eighth session.)
    let mut deep = Value::Int(1);
    for _ in 0..1_990 {
        deep = map(vec![(text("k"), deep)]);
    }
    let port = || map(vec![(text("port"), Value::Int(1))]);
    let cases: Vec<(&str, Value)> = vec![
        (
            "keys that are no strings",
            map(vec![(
                text("extra"),
                map(vec![
                    (Value::Int(1), text("a")),
                    (Value::Bool(true), text("b")),
                    (Value::Null, text("c")),
                    (Value::Float(2.5), text("d")),
                ]),
            )]),
        ),
        (
            "a NaN float",
            map(vec![(text("ratio"), Value::Float(f64::NAN))]),
        ),
        (
            "NaN keys",
            map(vec![(
                text("extra"),
                map(vec![
                    (Value::Float(f64::NAN), Value::Int(1)),
                    (Value::Float(f64::NAN), Value::Int(2)),
                ]),
            )]),
        ),
        (
            "infinities",
            map(vec![(text("ratio"), Value::Float(f64::NEG_INFINITY))]),
        ),
        (
            "a null where a map is wanted",
            map(vec![(
                text("ports"),
                Value::Array(vec![node(Value::Null)].into()),
            )]),
        ),
        (
            "a null where an array is wanted",
            map(vec![(text("ports"), Value::Null)]),
        ),
        (
            "an array where a map is wanted",
            map(vec![(
                text("tls"),
                Value::Array(vec![node(Value::Int(1))].into()),
            )]),
        ),
        (
            "nested as deep as the YAML budget takes",
            map(vec![(text("extra"), deep)]),
        ),
        (
            "many ports",
            map(vec![(
                text("ports"),
                Value::Array((0..100_000).map(|_| node(port())).collect()),
            )]),
        ),
        (
            "a key that is not UTF-8",
            map(vec![(
                Value::Bytes(b"h\xff".to_vec().into()),
                Value::Int(1),
            )]),
        ),
        (
            "a value that is not UTF-8",
            map(vec![(
                text("hostname"),
                Value::Bytes(b"h\xff".to_vec().into()),
            )]),
        ),
        ("an empty key", map(vec![(text(""), Value::Int(1))])),
        (
            "a key with a newline",
            map(vec![(text("replicas\n"), Value::Int(1))]),
        ),
    ];
    for (what, value) in cases {
        // The YAML spelling, written and read on a stack of the command line's size; `from_node`
        // on the test's own thread (2 MiB).
        let made = node(value);
        let from_yaml = std::thread::scope(|s| {
            std::thread::Builder::new()
                .stack_size(512 << 20)
                .spawn_scoped(s, || {
                    let yaml = schemac_runtime::yaml::emit::to_yaml(&made.value);
                    web::DataValues::from_yaml_str(&yaml)
                })
                .unwrap()
                .join()
                .unwrap()
        });
        let from_node = web::DataValues::from_node(&made);
        match (&from_yaml, &from_node) {
            (Ok(a), Ok(b)) => assert_eq!(a.to_yaml(), b.to_yaml(), "{what}"),
            (Err(a), Err(b)) => {
                assert_eq!(unquoted(&a.to_string()), unquoted(&b.to_string()), "{what}")
            }
            _ => panic!("{what}: from_yaml_str {from_yaml:?}, from_node {from_node:?}"),
        }
    }
}
