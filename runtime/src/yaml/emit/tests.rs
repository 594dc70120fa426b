use super::*;
use crate::value::Pos;

fn s(text: &str) -> Value {
    Value::Str(text.into())
}

fn node(v: Value) -> Node {
    Node::new(v, Pos::unknown())
}

fn map(entries: Vec<(Value, Value)>) -> Value {
    let entry = |(key, v): (Value, Value)| MapEntry {
        key: key.into(),
        value: node(v),
    };
    Value::Map(entries.into_iter().map(entry).collect())
}

fn arr(items: Vec<Value>) -> Value {
    Value::Array(items.into_iter().map(node).collect())
}

/// Renders `{v: value}` and returns what follows `v:`.
fn under_v(value: Value) -> String {
    to_yaml(&map(vec![(s("v"), value)]))[2..].to_string()
}

#[test]
fn empty_documents_print_nothing_and_scalars_print_alone() {
    assert_eq!(to_yaml(&Value::Null), "");
    assert_eq!(to_yaml(&map(vec![])), "");
    assert_eq!(to_yaml(&arr(vec![])), "");
    assert_eq!(to_yaml(&s("hello")), "hello\n");
    assert_eq!(to_yaml(&Value::Int(-7)), "-7\n");
    assert_eq!(to_yaml(&s("")), "\"\"\n");
    assert_eq!(to_yaml(&s("a\nb")), "|-\n  a\n  b\n");
}

#[test]
fn block_layout_matches_go_yaml() {
    let (t, f, null) = (Value::Bool(true), Value::Bool(false), Value::Null);
    let inner = map(vec![
        (s("b"), s("c")),
        (s("e"), map(vec![])),
        (s("f"), arr(vec![])),
    ]);
    let item = map(vec![(s("k"), Value::Int(1)), (s("l"), arr(vec![null]))]);
    let nested = arr(vec![arr(vec![t, f]), arr(vec![])]);
    let list = arr(vec![s("x"), item]);
    let value = map(vec![
        (s("a"), inner),
        (s("list"), list),
        (s("nested"), nested),
    ]);
    let want = "a:\n  b: c\n  e: {}\n  f: []\nlist:\n- x\n- k: 1\n  l:\n  - null\n\
                nested:\n- - true\n  - false\n- []\n";
    assert_eq!(to_yaml(&value), want);
    assert_eq!(
        to_yaml(&arr(vec![s("a"), Value::Float(1.5)])),
        "- a\n- 1.5\n"
    );
}

#[test]
fn ambiguous_strings_are_double_quoted() {
    let quoted = "y Yes on OFF ~ null true 10 -1 +3 0x1F 0o17 0b101 017 1_000 1.0 .5 -.5 1e+3 \
        1.5E-2 .inf -.Inf .NaN 99999999999999999999999 1:1 -2:30:00.5 2015-02-24T18:19:39Z \
        2024-01-15 2024-02-29 2024-1-5t1:2:3,5+05:30 0b-1 .5_5 1e3 8. 0. 1.e3 1e0_3";
    for text in quoted.split(' ').chain(["2024-1-5  10:00:00.5"]) {
        assert_eq!(under_v(s(text)), format!(" \"{text}\"\n"), "{text}");
    }
    let plain = "yess 1.2.3 0x 2023-02-29 2024-01-15T10:00:00 2024-01-15T10:00:00+25:00 \
        1:70 << <foo> .a a:b -foo x-y 1e+400 0xFFFFFFFFFFFFFFFFFF 你好 a'b NaN Infinity \
        ._5 .2_ 100m 128Mi 1x2 -1q 0x1G +1i 10é";
    for text in plain.split(' ') {
        assert_eq!(under_v(s(text)), format!(" {text}\n"), "{text}");
    }
}

#[test]
fn indicators_and_edge_spaces_choose_single_quotes() {
    let cases = "-|b: c|Hello #comment|key:| lead|trail |*star|---|? x|@at|{a}|%p|a #|,|!t|&a";
    for text in cases.split('|') {
        assert_eq!(under_v(s(text)), format!(" '{text}'\n"), "{text}");
    }
    assert_eq!(under_v(s("it's: x")), " 'it''s: x'\n");
    assert_eq!(under_v(s("a#b c,d e?f g-h")), " a#b c,d e?f g-h\n");
}

#[test]
fn escapes_use_double_quotes() {
    assert_eq!(under_v(s("\u{1F680} launch")), " \"\\U0001F680 launch\"\n");
    assert_eq!(under_v(s("tab\there")), " \"tab\\there\"\n");
    let controls = "\0\u{7}\u{1b}\u{7f}\u{85}\u{FEFF}x";
    assert_eq!(under_v(s(controls)), " \"\\0\\a\\e\\x7F\\N\\uFEFFx\"\n");
    assert_eq!(under_v(s("\u{FEFF}a\u{A0}")), " \"\\uFEFF\\x61\\_\"\n");
    assert_eq!(
        under_v(s("say \"hi\" \\ \t")),
        " \"say \\\"hi\\\" \\\\ \\t\"\n"
    );
}

#[test]
fn multi_line_strings_use_literal_blocks_or_double_quotes() {
    let cases = [
        ("a\nb", " |-\n  a\n  b\n"),
        ("a\nb\n", " |\n  a\n  b\n"),
        ("a\n\nb\n\n", " |+\n  a\n\n  b\n\n"),
        ("\n", " |2+\n\n"),
        ("  indented\nx", " |2-\n    indented\n  x\n"),
        ("trailing \nspace", " \"trailing \\nspace\"\n"),
        ("end space \n", " \"end space \\n\"\n"),
        ("tab\t\nx", " \"tab\\t\\nx\"\n"),
        ("crlf\r\n", " \"crlf\\r\\n\"\n"),
        ("a\u{2028}b", " 'a\u{2028}  b'\n"),
    ];
    for (text, want) in cases {
        assert_eq!(under_v(s(text)), want, "{text:?}");
    }
    assert_eq!(
        to_yaml(&arr(vec![s("x\ny\n"), s("z")])),
        "- |\n  x\n  y\n- z\n"
    );
    let nested = map(vec![(s("a"), map(vec![(s("b"), s("l1\nl2\n"))]))]);
    assert_eq!(to_yaml(&nested), "a:\n  b: |\n    l1\n    l2\n");
}

#[test]
fn long_strings_are_not_folded() {
    let long = "word ".repeat(40) + "end";
    assert_eq!(under_v(s(&long)), format!(" {long}\n"));
    assert_eq!(under_v(s(&format!("{long}: x"))), format!(" '{long}: x'\n"));
    assert_eq!(
        under_v(s(&format!("{long}\t"))),
        format!(" \"{long}\\t\"\n")
    );
}

#[test]
fn keys_of_every_scalar_type() {
    let value = map(vec![
        (Value::Int(1), s("one")),
        (Value::Bool(true), s("on")),
        (Value::Float(2.5), Value::Null),
        (Value::Null, Value::Int(0)),
        (s("yes"), s("no")),
        (s(""), s("")),
        (s("a: b"), s("x")),
    ]);
    let want = "1: one\ntrue: \"on\"\n2.5: null\nnull: 0\n\"yes\": \"no\"\n\"\": \"\"\n'a: b': x\n";
    assert_eq!(to_yaml(&value), want);
}

#[test]
fn keys_that_cannot_be_simple() {
    let (long, limit) = ("k".repeat(129), "k".repeat(128));
    let multi = map(vec![(s("c"), Value::Int(1))]);
    let value = map(vec![
        (s(&long), s("v")),
        (s("a\nb"), multi),
        (s(&limit), arr(vec![])),
    ]);
    let want = format!("? {long}\n: v\n? |-\n  a\n  b\n: c: 1\n{limit}: []\n");
    assert_eq!(to_yaml(&value), want);
    let odd = map(vec![
        (arr(vec![]), Value::Int(1)),
        (arr(vec![s("x")]), Value::Int(2)),
    ]);
    assert_eq!(to_yaml(&odd), "[]: 1\n? - x\n: 2\n");
}

#[test]
fn integers_are_written_in_decimal() {
    for i in [
        0,
        7,
        -7,
        10,
        -10,
        1234567890,
        i64::MAX,
        i64::MIN,
        i64::MIN + 1,
    ] {
        assert_eq!(under_v(Value::Int(i)), format!(" {i}\n"));
        assert_eq!(to_yaml(&arr(vec![Value::Int(i)])), format!("- {i}\n"));
    }
}

#[test]
fn floats_format_like_go() {
    let cases = "1 1|1e3 1000|0.000001 1e-06|123456789.123 1.23456789123e+08|-0 -0|0 0|0.1 0.1|\
        100000 100000|1e6 1e+06|0.0001 0.0001|-2.5e-5 -2.5e-05|1e100 1e+100|5e-324 5e-324|\
        inf .inf|-inf -.inf|NaN .nan|0.5 0.5|-123.25 -123.25|999999.9999999999 999999.9999999999|\
        0.00009999999999999999 9.999999999999999e-05|0.30000000000000004 0.30000000000000004";
    for (input, want) in cases.split('|').filter_map(|case| case.split_once(' ')) {
        let f: f64 = input.parse().unwrap();
        assert_eq!(format_float(f), want, "{input}");
        assert_eq!(under_v(Value::Float(f)), format!(" {want}\n"));
    }
    // The fixed form's shortcut writes what the general path writes.
    let mut x = 1.2345e-4_f64;
    while x < 1e6 {
        for f in [x, -x, x.next_up(), x.next_down(), (x * 7.0).sqrt()] {
            assert_eq!(format_float(f), go_float_text(f, -4..6, 2), "{f:e}");
        }
        x *= 1.37;
    }
    // So does the whole numbers' shortcut.
    for i in (-999_999..=999_999)
        .step_by(9_973)
        .chain([999_999, -999_999, 1, -1])
    {
        let f = i as f64;
        assert_eq!(format_float(f), go_float_text(f, -4..6, 2), "{f:e}");
        assert_eq!(under_v(Value::Float(f)), format!(" {i}\n"));
    }
}

#[test]
fn the_output_budget_counts_no_more_than_is_written() {
    // Arrays in arrays and maps in arrays start on their item's line; arrays under a key sit
    // at its column: the count is a lower bound of the text in each shape.
    let deep_arrays = (0..300).fold(s("x"), |v, _| arr(vec![v, s("y")]));
    let deep_maps = (0..300).fold(s("x"), |v, i| {
        map(vec![(s(&format!("k{i}")), v), (s("z"), arr(vec![s("1")]))])
    });
    let mixed = (0..300).fold(s("x"), |v, i| match i % 3 {
        0 => arr(vec![v]),
        1 => map(vec![(s("a"), v), (s("b"), map(vec![]))]),
        _ => arr(vec![map(vec![(s("c"), v)]), arr(vec![])]),
    });
    for value in [deep_arrays, deep_maps, mixed, s("plain"), arr(vec![])] {
        let text = to_yaml(&value);
        let value = node(value);
        assert_eq!(
            budget::past_budget(&value, text.len() as u64),
            None,
            "{text}"
        );
        if text.len() > 100 {
            assert!(budget::past_budget(&value, text.len() as u64 / 4).is_some());
        }
    }
}

#[test]
fn keys_shared_by_many_maps_are_written_as_distinct_keys_of_their_text() {
    // The emitter remembers by address the keys it found to be plain words (`PlainKeys`):
    // shared keys, words or not, more of them than its slots, come out as keys of the same
    // text made for each map do.
    let long = "k".repeat(129);
    let texts: Vec<String> = (0..40)
        .map(|i| format!("key{i}"))
        .chain(["yes", "null", "1", "a b", "-x", "", long.as_str()].map(String::from))
        .collect();
    let shared: Vec<crate::value::Key> = texts.iter().map(|t| s(t).into()).collect();
    let items = |share: bool| {
        arr((0..3)
            .map(|n| {
                Value::Map(
                    texts
                        .iter()
                        .zip(&shared)
                        .map(|(text, key)| MapEntry {
                            key: if share { key.clone() } else { s(text).into() },
                            value: node(Value::Int(n)),
                        })
                        .collect(),
                )
            })
            .collect())
    };
    let written = to_yaml(&items(true));
    assert_eq!(written, to_yaml(&items(false)));
    assert!(written.contains("  \"yes\": 0\n") && written.contains("  key39: 2\n"));
}
