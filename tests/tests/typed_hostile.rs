//! `from_node` on values made in code that no YAML reader would make: it must answer as
//! `from_yaml_str` answers on their YAML spelling.

mod web {
    // The generated module's whole API; these tests call its typed load only.
    #![allow(dead_code)]
    include!("../fixtures/codegen/web.rs");
}

/// A schema with rules (`facts_kept_for_a_schema_answer_as_a_fresh_thread`).
mod rules {
    #![allow(dead_code)]
    include!("../fixtures/codegen/rules.rs");
}

/// A schema whose top map has enough fields to be looked up through an index.
mod hostile {
    #![allow(dead_code)]
    include!("../fixtures/codegen/hostile.rs");
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

/// The typed load of `yaml` against fixture `schema` (0: web, 1: rules, 2: hostile), as text.
fn typed_answer(schema: usize, yaml: &str) -> String {
    fn text<T, E: std::fmt::Display>(r: Result<T, E>, yaml: impl Fn(&T) -> String) -> String {
        match r {
            Ok(v) => format!("ok\n{}", yaml(&v)),
            Err(e) => format!("error\n{e}"),
        }
    }
    match schema {
        0 => text(web::DataValues::from_yaml_str(yaml), |v| v.to_yaml()),
        1 => text(rules::DataValues::from_yaml_str(yaml), |v| v.to_yaml()),
        _ => text(hostile::DataValues::from_yaml_str(yaml), |v| v.to_yaml()),
    }
}

#[test]
fn facts_kept_for_a_schema_answer_as_a_fresh_thread() {
    // A run keeps what it learns of its schema (its map types' indexes, which types have
    // rules) on the thread for the next run on the same schema: runs on several schemas in
    // turn, runs that fail (on types, on rules, in the reader), and the same schemas on
    // several threads at once must answer as each load does on a thread of its own.
    let loads: Vec<(usize, &str)> = vec![
        (0, "replicas: 3\nports:\n- port: 1\n"),
        (1, "count: 3\n"),
        (2, "type: 9\nitems:\n- tls:\n    x: 2\n"),
        (0, "replicas: 0\n"),
        (1, "count: 4\nenabled: false\n"),
        (2, "type: x\n"),
        (0, "ports:\n- port: x\n  nope: 1\n"),
        (1, "count: -3\n"),
        (2, "nope: 1\nOption: {a: 2}\n"),
        (0, "replicas: [1\n"),
        (1, "count: 2\n"),
        (2, "Option: {a: 3, z: 1}\nitems_item: {k: 2}\n"),
        (0, "tls: {cert: a, key: b}\nextra: {x: 1}\n"),
        (1, "enabled: 1\n"),
        (2, "\"\": 5\n1: 2\ntrue: 3\nnull: 4\n"),
    ];
    let fresh: Vec<String> = loads
        .iter()
        .map(|&(schema, yaml)| {
            std::thread::spawn(move || typed_answer(schema, yaml))
                .join()
                .unwrap()
        })
        .collect();
    let check_in_order = |order: &mut dyn Iterator<Item = usize>| {
        for i in order {
            let (schema, yaml) = loads[i];
            assert_eq!(typed_answer(schema, yaml), fresh[i], "load {i}: {yaml:?}");
        }
    };
    // One thread: every load in turn, three times, then each load twice running.
    check_in_order(&mut (0..loads.len()).cycle().take(loads.len() * 3));
    check_in_order(&mut (0..loads.len()).flat_map(|i| [i, i]));
    // Several threads at once, each starting elsewhere.
    let n = loads.len();
    std::thread::scope(|s| {
        for start in 0..4 {
            let check_in_order = &check_in_order;
            s.spawn(move || check_in_order(&mut (0..n * 2).map(|i| (i + start * 4) % n)));
        }
    });
}
