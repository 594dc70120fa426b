//! The type check's tests: [`super::fill_and_check`] and the walk into plain data.

use super::*;
use crate::schema::{Doc, Scalar};

fn scalar(s: Scalar, default: Value, line: u32) -> Type {
    let pos = Pos::new("s.yml", line);
    Type {
        kind: Kind::Scalar(s),
        pos,
        nullable: false,
        default: Node::new(default, pos),
        doc: Doc::default(),
        validation: None,
    }
}

fn schema() -> Type {
    let pos = Pos::new("s.yml", 1);
    let fields = vec![
        Field {
            key: "port".into(),
            ty: scalar(Scalar::Int, Value::Int(80), 2),
        },
        Field {
            key: "host".into(),
            ty: scalar(Scalar::String, Value::Str("".into()), 3),
        },
    ];
    let default = Value::Map(
        fields
            .iter()
            .map(|f| MapEntry {
                key: f.key.clone(),
                value: f.ty.default.clone(),
            })
            .collect(),
    );
    Type {
        kind: Kind::Map(fields),
        pos,
        nullable: false,
        default: Node::new(default, pos),
        doc: Doc::default(),
        validation: None,
    }
}

fn map(items: &[(&str, Value)]) -> Node {
    let pos = Pos::new("v.yml", 1);
    Node::new(
        Value::Map(
            items
                .iter()
                .map(|(k, v)| MapEntry {
                    key: (*k).into(),
                    value: Node::new(v.clone(), Pos::new("v.yml", 2)),
                })
                .collect(),
        ),
        pos,
    )
}

#[test]
fn wrong_scalar_and_undeclared_key() {
    let v = fill_and_check_node(
        &mut map(&[
            ("port", Value::Str("x".into())),
            ("hostt", Value::Str("h".into())),
        ]),
        &schema(),
    );
    assert_eq!(v.len(), 2);
    assert_eq!(v[0].expected, "one of { host, port } (from s.yml:1)");
    assert_eq!(v[0].hints, vec!["did you mean \"host\"?".to_string()]);
    assert_eq!(v[1].found, "string");
    assert_eq!(v[1].expected, "integer (by s.yml:2)");
}

#[test]
fn ints_are_floats_and_conforming_values_pass() {
    let mut t = schema();
    if let Kind::Map(f) = &mut t.kind {
        f[0].ty.kind = Kind::Scalar(Scalar::Float);
    }
    assert!(fill_and_check_node(&mut map(&[("port", Value::Int(1))]), &t).is_empty());
}

#[test]
fn defaults_follow_given_keys() {
    let mut n = map(&[("host", Value::Str("a".into()))]);
    assert!(fill_and_check_node(&mut n, &schema()).is_empty());
    let Value::Map(e) = &n.value else { panic!() };
    assert_eq!(
        e.iter().map(|e| e.key.key_string()).collect::<Vec<_>>(),
        ["host", "port"]
    );
}

/// A YAML text's first document as plain data.
fn yaml(text: &str) -> Node {
    let file = crate::yaml::parse::parse_file("v.yml", text, false).expect("YAML");
    let doc = file.docs.into_iter().next().expect("a document");
    Tree::from_raw(doc, Some(crate::value::FileName::new("v.yml"))).into_node()
}

fn typed(kind: Kind, nullable: bool, default: &str) -> Type {
    let default = yaml(default);
    Type {
        kind,
        pos: default.pos,
        nullable,
        default,
        doc: Doc::default(),
        validation: None,
    }
}

fn fields(items: Vec<(&str, Type)>) -> Kind {
    Kind::Map(
        items
            .into_iter()
            .map(|(key, ty)| Field {
                key: key.into(),
                ty,
            })
            .collect(),
    )
}

/// The keys of an array's maps looked up from the last map's (see [`crate::last_map_keys::LastMapKeys`]) give what
/// each map checked on its own gives: the same keys in the same places, in others, some
/// undeclared, repeated, or of another type.
#[test]
fn maps_checked_after_others_of_their_type_are_checked_as_alone() {
    let string = || typed(Kind::Scalar(Scalar::String), false, "''");
    let int = || typed(Kind::Scalar(Scalar::Int), false, "0");
    let labels = typed(
        fields(vec![("team", string()), ("tier", string())]),
        false,
        "{team: '', tier: ''}",
    );
    let item = typed(
        fields(vec![
            ("weight", int()),
            ("name", string()),
            ("port", int()),
            ("labels", labels),
        ]),
        false,
        "{weight: 0, name: '', port: 0, labels: {team: '', tier: ''}}",
    );
    let items = [
        "{name: a, port: 1}",
        "{name: b, port: 2, labels: {team: x}}",
        "{name: c, port: 3}",
        "{port: 4, name: d}",
        "{name: e, prot: 5}",
        "{name: f, port: 6, labels: {tier: y, team: z}}",
        "{name: g, port: x, name: h}",
        "{weight: 1, name: i, port: 7, labels: {team: w, teem: v}}",
        "{name: j, port: 8}",
        "{1: k, name: l}",
        "{name: m, port: 9}",
    ];
    let whole = yaml(&format!("[{}]", items.join(", ")));
    let array = typed(Kind::Array(Box::new(item.clone())), false, "[]");
    let together = check_into_filled_node(Tree::document(&whole), &array, FieldIndexes::default());
    let Value::Array(filled) = &together.node.value else {
        panic!("an array")
    };
    let mut violations = Vec::new();
    for (i, text) in items.iter().enumerate() {
        let alone =
            check_into_filled_node(Tree::document(&yaml(text)), &item, FieldIndexes::default());
        assert_eq!(filled[i].value, alone.node.value, "{text}");
        violations.extend(alone.violations.into_iter().map(|v| (v.found, v.expected)));
    }
    let together: Vec<_> = together
        .violations
        .into_iter()
        .map(|v| (v.found, v.expected))
        .collect();
    assert_eq!(together, violations);
    assert!(together.len() >= 4, "{together:?}");
}

#[test]
fn the_plain_walk_fills_and_reports_as_the_tree_walk_does() {
    let string = || typed(Kind::Scalar(Scalar::String), false, "''");
    let labels = typed(
        fields(vec![("team", string()), ("tier", string())]),
        false,
        "{team: '', tier: ''}",
    );
    let item = typed(
        fields(vec![("name", string()), ("labels", labels)]),
        false,
        "{name: '', labels: {team: '', tier: ''}}",
    );
    let schema = typed(
        fields(vec![
            ("port", typed(Kind::Scalar(Scalar::Int), false, "80")),
            ("items", typed(Kind::Array(Box::new(item)), false, "[]")),
            ("extra", typed(Kind::Any, false, "{a: 1}")),
            (
                "grid",
                typed(
                    Kind::Array(Box::new(typed(
                        Kind::Array(Box::new(typed(Kind::Scalar(Scalar::Int), false, "0"))),
                        false,
                        "[]",
                    ))),
                    false,
                    "[]",
                ),
            ),
            (
                "opt",
                typed(
                    fields(vec![("x", typed(Kind::Scalar(Scalar::Int), false, "1"))]),
                    true,
                    "null",
                ),
            ),
        ]),
        false,
        "{}",
    );
    for values in [
        "port: 1",
        "items: [{name: a}, {labels: {tier: b}}, {}]",
        "opt: {}\nextra: {b: 2}",
        "opt: null\nitems: [{labels: {team: x}}]",
        // A repeated key: its second item is not filled.
        "items: [{name: a}]\nitems: [{name: b}]",
        // Undeclared keys and values of the wrong type: reported, and left as they are.
        "port: x\nitems: [{nam: a, labels: 3}]\nother: {y: 1}",
        "items: {name: a}",
        "[1, 2]",
        // Violations in several items, some items with none between them, some with two:
        // reported front to back although the plain walk takes the items from the back.
        "items: [{nam: a, name: 1}, {name: b}, {}, {labels: {teem: x, tier: 2}}, 3, {name: c}, {x: 1}]",
        "items: [{}, {name: a}, {nam: b}]\nport: y",
        // Arrays in arrays: each level's items reported front to back.
        "grid: [[1, x], [], [y, 2, z], 3, [w]]\nitems: [{nam: a}]",
    ] {
        let tree = Tree::document(&yaml(values));
        let mut in_tree = tree.clone();
        let tree_violations = fill_and_check(&mut in_tree, &schema);
        let filled = check_into_filled_node(tree, &schema, FieldIndexes::default());
        // A key given twice is always seen (the flag may be set without one).
        assert!(
            filled.keys_may_repeat || filled.node.first_repeated_key().is_none(),
            "{values}"
        );
        assert_eq!(filled.node, in_tree.into_node(), "{values}");
        assert_eq!(filled.violations, tree_violations, "{values}");
    }
}
