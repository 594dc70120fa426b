use super::*;
use crate::template::tree::{Anns, Arg, ArgKind};
use crate::value::{Node, Pos};

fn scalar(v: Value) -> TreeValue {
    TreeValue::Scalar(v)
}

fn item(key: &str, value: TreeValue, anns: Vec<Ann>) -> Tree {
    Tree {
        kind: TreeKind::MapItem(Value::Str(key.into()).into()),
        pos: Pos::new("v.yml", 3),
        anns: anns.into(),
        value,
    }
}

fn elem(value: TreeValue, anns: Vec<Ann>) -> Tree {
    Tree {
        kind: TreeKind::ArrayItem,
        pos: Pos::new("v.yml", 4),
        anns: anns.into(),
        value,
    }
}

fn doc(value: TreeValue) -> Tree {
    Tree {
        kind: TreeKind::Document,
        pos: Pos::new("v.yml", 2),
        anns: Anns::default(),
        value,
    }
}

fn ann(name: &str, kwargs: &[(&str, Value)]) -> Ann {
    Ann {
        name: name.into(),
        pos: Pos::new("v.yml", 1),
        args: Vec::new(),
        kwargs: kwargs
            .iter()
            .map(|(k, v)| {
                (
                    k.to_string(),
                    Arg {
                        type_name: String::new(),
                        kind: ArgKind::Data(Node::new(v.clone(), Pos::unknown())),
                        go_text: None,
                    },
                )
            })
            .collect(),
    }
}

fn base() -> Tree {
    doc(TreeValue::Map(vec![
        item("a", scalar(Value::Int(1)), vec![]),
        item(
            "list",
            TreeValue::Array(vec![elem(
                TreeValue::Map(vec![item("name", scalar(Value::Str("x".into())), vec![])]),
                vec![],
            )]),
            vec![],
        ),
    ]))
}

fn value_of(t: &Tree) -> Value {
    t.to_node().value
}

#[test]
fn maps_merge_and_arrays_append() {
    let right = doc(TreeValue::Map(vec![
        item("a", scalar(Value::Int(2)), vec![]),
        item(
            "list",
            TreeValue::Array(vec![elem(
                TreeValue::Map(vec![item("name", scalar(Value::Str("y".into())), vec![])]),
                vec![],
            )]),
            vec![],
        ),
    ]));
    let out =
        value_of(&apply_document(Some(base()), right.clone(), Mode::default(), None).unwrap());
    assert_eq!(out.get("a").unwrap().value, Value::Int(2));
    let Value::Array(list) = &out.get("list").unwrap().value else {
        panic!()
    };
    assert_eq!(list.len(), 2);
    let replaced = apply_document(
        Some(base()),
        right,
        Mode {
            replace_arrays: true,
            ..Mode::default()
        },
        None,
    )
    .unwrap();
    let Value::Array(list) = &value_of(&replaced).get("list").unwrap().value.clone() else {
        panic!()
    };
    assert_eq!(list.len(), 1);
}

#[test]
fn unknown_keys_fail_unless_missing_ok() {
    let right = doc(TreeValue::Map(vec![item(
        "b",
        scalar(Value::Int(2)),
        vec![],
    )]));
    let e = apply_document(Some(base()), right, Mode::default(), None).unwrap_err();
    assert_eq!(e.render(), "Document on line v.yml:2: Map item (key 'b') on line v.yml:3: Expected number of matched nodes to be 1, but was 0");
    let ok = doc(TreeValue::Map(vec![item(
        "b",
        scalar(Value::Int(2)),
        vec![ann("overlay/match", &[("missing_ok", Value::Bool(true))])],
    )]));
    assert!(
        value_of(&apply_document(Some(base()), ok, Mode::default(), None).unwrap())
            .get("b")
            .is_some()
    );
}

#[test]
fn match_by_key_replace_and_remove() {
    let by_name = ann("overlay/match", &[("by", Value::Str("name".into()))]);
    let right = doc(TreeValue::Map(vec![item(
        "list",
        TreeValue::Array(vec![elem(
            TreeValue::Map(vec![
                item("name", scalar(Value::Str("x".into())), vec![]),
                item(
                    "extra",
                    scalar(Value::Int(1)),
                    vec![ann("overlay/match", &[("missing_ok", Value::Bool(true))])],
                ),
            ]),
            vec![by_name.clone()],
        )]),
        vec![],
    )]));
    let out = value_of(&apply_document(Some(base()), right, Mode::default(), None).unwrap());
    let Value::Array(list) = &out.get("list").unwrap().value else {
        panic!()
    };
    assert_eq!(list.len(), 1);
    assert_eq!(list[0].value.get("extra").unwrap().value, Value::Int(1));
    let remove = doc(TreeValue::Map(vec![item(
        "a",
        scalar(Value::Null),
        vec![ann("overlay/remove", &[])],
    )]));
    assert!(
        value_of(&apply_document(Some(base()), remove, Mode::default(), None).unwrap())
            .get("a")
            .is_none()
    );
    let none = doc(TreeValue::Map(vec![item(
        "list",
        TreeValue::Array(vec![elem(
            TreeValue::Map(vec![item("name", scalar(Value::Str("y".into())), vec![])]),
            vec![by_name.clone()],
        )]),
        vec![],
    )]));
    let e = apply_document(Some(base()), none, Mode::default(), None).unwrap_err();
    assert!(e.message.ends_with("but was 0"), "{e:?}");
    // A new item that is not a map cannot be compared by key: ytt's matcher fails.
    let scalar_item = doc(TreeValue::Map(vec![item(
        "list",
        TreeValue::Array(vec![elem(scalar(Value::Int(1)), vec![by_name])]),
        vec![],
    )]));
    let e = apply_document(Some(base()), scalar_item, Mode::default(), None).unwrap_err();
    assert_eq!(
        e.message,
        "overlay.map_key_matcher: Expected value to be map, but was integer"
    );
}

#[test]
fn a_map_onto_a_scalar_is_an_error() {
    let right = doc(TreeValue::Map(vec![item(
        "a",
        TreeValue::Map(vec![]),
        vec![],
    )]));
    let e = apply_document(Some(base()), right, Mode::default(), None).unwrap_err();
    assert_eq!(e.message, "Expected map, but was integer");
}

#[test]
fn a_kept_index_finds_keys_from_one_document_to_the_next() {
    // One key a document, as `--data-values-env` gives them: past the length a map is hashed
    // at, with a key given again, removed, added back and then overlaid.
    let mode = Mode {
        missing_ok: true,
        ..Mode::default()
    };
    let mut kept = KeptIndex::default();
    let mut result = None;
    let mut apply = |key: &str, value: i64, anns: Vec<Ann>| {
        let d = doc(TreeValue::Map(vec![item(
            key,
            scalar(Value::Int(value)),
            anns,
        )]));
        result = Some(apply_document_indexed(result.take(), d, mode, None, &mut kept).unwrap());
        value_of(result.as_ref().unwrap())
    };
    for i in 0..40 {
        apply(&format!("k{}", i % 30), i, vec![]);
    }
    apply("k3", 0, vec![ann("overlay/remove", &[])]);
    apply("k3", 100, vec![]);
    let out = apply("k4", 101, vec![]);
    let Value::Map(entries) = &out else {
        panic!("{out:?}")
    };
    let keys: Vec<String> = entries.iter().map(|e| e.key.go_percent_s()).collect();
    let mut expected: Vec<String> = (0..30)
        .filter(|&i| i != 3)
        .map(|i| format!("k{i}"))
        .collect();
    expected.push("k3".into());
    assert_eq!(keys, expected);
    let at = |k: &str| out.get(k).unwrap().value.clone();
    assert_eq!(
        (at("k0"), at("k9"), at("k10"), at("k3"), at("k4")),
        (
            Value::Int(30),
            Value::Int(39),
            Value::Int(10),
            Value::Int(100),
            Value::Int(101)
        )
    );
}

#[test]
fn kept_indexes_find_keys_in_the_maps_under_the_top_one() {
    // `P_m__kI` variables: each a document filling the map under `m` past the length a map is
    // hashed at, with a key removed and given again, the map under `n` replaced by a scalar
    // and then by a map again, and a key added to both afterwards.
    let mode = Mode {
        missing_ok: true,
        replace_arrays: true,
        ..Mode::default()
    };
    let mut kept = KeptIndex::default();
    let mut result = None;
    let mut apply = |outer: &str, key: Option<&str>, leaf: TreeValue, anns: Vec<Ann>| {
        let d = doc(TreeValue::Map(vec![match key {
            Some(key) => item(outer, TreeValue::Map(vec![item(key, leaf, anns)]), vec![]),
            None => item(outer, leaf, anns),
        }]));
        result = Some(apply_document_indexed(result.take(), d, mode, None, &mut kept).unwrap());
        value_of(result.as_ref().unwrap())
    };
    let int = |i: i64| scalar(Value::Int(i));
    for i in 0..40 {
        apply("m", Some(&format!("k{}", i % 30)), int(i), vec![]);
        apply("n", Some(&format!("k{}", i % 20)), int(i), vec![]);
    }
    apply("m", Some("k3"), int(0), vec![ann("overlay/remove", &[])]);
    apply("m", Some("k3"), int(100), vec![]);
    apply("n", None, int(7), vec![ann("overlay/replace", &[])]);
    let replace = vec![ann("overlay/replace", &[])];
    apply("n", None, TreeValue::Map(Vec::new()), replace);
    apply("n", Some("k2"), int(2), vec![]);
    apply("n", Some("k1"), int(1), vec![]);
    let out = apply("m", Some("k4"), int(101), vec![]);
    let keys = |v: &Value| -> Vec<String> {
        let Value::Map(entries) = v else {
            panic!("{v:?}")
        };
        entries.iter().map(|e| e.key.go_percent_s()).collect()
    };
    let m = out.get("m").unwrap().value.clone();
    let mut expected: Vec<String> = (0..30)
        .filter(|&i| i != 3)
        .map(|i| format!("k{i}"))
        .collect();
    expected.push("k3".into());
    assert_eq!(keys(&m), expected);
    let at = |k: &str| m.get(k).unwrap().value.clone();
    assert_eq!(
        (at("k0"), at("k9"), at("k10"), at("k3"), at("k4")),
        (
            Value::Int(30),
            Value::Int(39),
            Value::Int(10),
            Value::Int(100),
            Value::Int(101)
        )
    );
    let n = out.get("n").unwrap().value.clone();
    assert_eq!(keys(&n), ["k2", "k1"]);
}

#[test]
fn an_array_without_annotations_onto_an_empty_one_is_taken_whole() {
    let names = |names: &[&str], anns: &dyn Fn(usize) -> Vec<Ann>| -> Vec<Tree> {
        let name =
            |n: &str| TreeValue::Map(vec![item("name", scalar(Value::Str(n.into())), vec![])]);
        names
            .iter()
            .enumerate()
            .map(|(i, n)| elem(name(n), anns(i)))
            .collect()
    };
    let list_of = |items: Vec<Tree>| {
        doc(TreeValue::Map(vec![item(
            "list",
            TreeValue::Array(items),
            vec![],
        )]))
    };
    let names_in = |t: &Tree| -> Vec<String> {
        let Value::Array(list) = &value_of(t).get("list").unwrap().value.clone() else {
            panic!()
        };
        list.iter()
            .map(|n| n.value.get("name").unwrap().value.key_string())
            .collect()
    };
    // Onto an empty array, the values' own vector is kept (no copy grown item by item).
    let right = names(&["a", "b", "c"], &|_| vec![]);
    let buffer = right.as_ptr();
    let out = apply_document(Some(list_of(vec![])), list_of(right), Mode::default(), None).unwrap();
    let TreeValue::Map(top) = &out.value else {
        panic!()
    };
    let TreeValue::Array(list) = &top[0].value else {
        panic!()
    };
    assert_eq!(list.as_ptr(), buffer);
    assert_eq!(names_in(&out), ["a", "b", "c"]);
    // An annotated item among them is merged as before, in its place.
    let append = |i: usize| match i {
        1 => vec![ann("overlay/append", &[])],
        _ => vec![],
    };
    let out = apply_document(
        Some(list_of(names(&["x"], &|_| vec![]))),
        list_of(names(&["a", "b", "c"], &append)),
        Mode::default(),
        None,
    )
    .unwrap();
    assert_eq!(names_in(&out), ["x", "a", "b", "c"]);
}

#[test]
fn indexes_made_of_the_defaults_document_give_the_same_result_as_none() {
    // Defaults of a run: a map of 20 keys (hashed) holding one twice, and a map under it of
    // 20 keys; values that follow, skip, repeat and add keys, remove one and merge under.
    let int = |i: i64| scalar(Value::Int(i));
    let inner: Vec<Tree> = (0..20)
        .map(|i| item(&format!("i{i}"), int(i), vec![]))
        .collect();
    let mut top: Vec<Tree> = (0..20)
        .map(|i| item(&format!("k{i}"), int(i), vec![]))
        .collect();
    top.push(item("k7", int(77), vec![]));
    top.push(item("m", TreeValue::Map(inner), vec![]));
    let defaults = doc(TreeValue::Map(top));
    let values = |round: i64| {
        let mut items: Vec<Tree> = [19, 0, 8, 3, 30, 4, 31]
            .iter()
            .map(|&i| item(&format!("k{i}"), int(i * 10 + round), vec![]))
            .collect();
        items.push(item("k5", int(0), vec![ann("overlay/remove", &[])]));
        let under = (0..25)
            .rev()
            .map(|i| item(&format!("i{i}"), int(-i), vec![]));
        items.push(item("m", TreeValue::Map(under.collect()), vec![]));
        doc(TreeValue::Map(items))
    };
    let mode = Mode {
        missing_ok: true,
        replace_arrays: true,
        ..Mode::default()
    };
    let run = |mut kept: KeptIndex| {
        let mut result = Some(defaults.clone());
        for round in 0..3 {
            let d = values(round);
            result = Some(apply_document_indexed(result.take(), d, mode, None, &mut kept).unwrap());
        }
        value_of(result.as_ref().unwrap())
    };
    let made = KeptIndex::of_document(&defaults);
    assert_eq!(run(made.clone()), run(KeptIndex::default()));
    assert_eq!(run(made), run(KeptIndex::default()));
}
