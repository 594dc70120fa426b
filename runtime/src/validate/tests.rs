//! Tests of the validation walk's helpers.

use super::NodeMemo;
use crate::value::{Node, Pos};

#[test]
fn paths_print_as_ytt_prints_them() {
    use super::{path_text, Step};
    use crate::value::Value;
    let (a, empty, on) = (
        Value::Str("a".into()),
        Value::Str("".into()),
        Value::Bool(true),
    );
    for (steps, text) in [
        (vec![], "(document)"),
        (vec![Step::Key(&empty)], "(map item)"),
        (vec![Step::Key(&empty), Step::Key(&empty)], "(map item)"),
        (vec![Step::Key(&empty), Step::Key(&a)], "a"),
        (vec![Step::Key(&a), Step::Key(&empty)], "a."),
        (vec![Step::Key(&a), Step::Index(9_990)], "a[9990]"),
        (vec![Step::Index(0), Step::Key(&a)], "[0].a"),
        (vec![Step::Key(&on), Step::Index(7)], "%!s(bool=true)[7]"),
    ] {
        assert_eq!(path_text(&steps), text);
    }
    assert_eq!(
        path_text(&[Step::Index(usize::MAX)]),
        format!("[{}]", usize::MAX)
    );
}

#[test]
fn a_node_is_made_once_per_run() {
    let (a, b) = (Node::null(Pos::unknown()), Node::null(Pos::unknown()));
    let memo = NodeMemo::default();
    let mut made = 0;
    for node in [&a, &b, &a, &b, &a] {
        memo.get_or_make(node, || made += 1);
    }
    assert_eq!(made, 2);
}

/// A walk that calls no function (the rules below are named ones).
struct NoFunctions;

impl super::Predicates for NoFunctions {
    fn call_rule(&self, _: &super::FunctionRef, _: &Node) -> super::CallOutcome {
        unreachable!("no custom rule")
    }

    fn call_when(
        &self,
        _: &super::FunctionRef,
        _: &Node,
        _: &super::WhenContext,
    ) -> Result<bool, String> {
        unreachable!("no when=")
    }
}

/// The rules of the fields of an array's maps, found from the last map's keys (see
/// `Walk::ruled_field`), fail as they fail on each map alone: keys in the same places and in
/// others, the schema's own and equal ones, a key given twice, a key of another type.
#[test]
fn ruled_fields_found_after_other_maps_fail_as_on_each_map_alone() {
    use crate::rules::RuleName;
    use crate::schema::{Doc, Field, Kind, Scalar, Type};
    use crate::value::{Key, MapEntry, Value};
    let pos = Pos::new("s.yml", 1);
    let ty = |kind, rule: Option<(RuleName, i64)>| Type {
        kind,
        pos,
        nullable: false,
        default: Node::null(pos),
        doc: Doc::default(),
        validation: rule.map(|(rule, arg)| {
            let mut v = super::Validation::new(Pos::new("s.yml", 2));
            v.named.push((rule, Value::Int(arg)));
            v
        }),
    };
    let keys: Vec<Key> = ["weight", "port", "name", "host"]
        .into_iter()
        .map(Key::from)
        .collect();
    let fields = vec![
        Field {
            key: keys[0].clone(),
            ty: ty(Kind::Scalar(Scalar::Int), None),
        },
        Field {
            key: keys[1].clone(),
            ty: ty(Kind::Scalar(Scalar::Int), Some((RuleName::Min, 1))),
        },
        Field {
            key: keys[2].clone(),
            ty: ty(Kind::Scalar(Scalar::String), None),
        },
        Field {
            key: keys[3].clone(),
            ty: ty(Kind::Scalar(Scalar::String), Some((RuleName::MinLen, 1))),
        },
    ];
    let item = ty(Kind::Map(fields), None);
    let array = ty(Kind::Array(Box::new(item.clone())), None);
    // (key, value) of each map: the schema's keys (`keys`) or equal ones of their own.
    let int = Value::Int;
    let text = |s: &str| Value::Str(s.into());
    let maps: Vec<Vec<(Key, Value)>> = vec![
        vec![(keys[2].clone(), text("a")), (keys[1].clone(), int(0))],
        vec![(keys[2].clone(), text("b")), (keys[1].clone(), int(2))],
        vec![(keys[2].clone(), text("")), (keys[1].clone(), int(0))],
        vec![(keys[1].clone(), int(0)), (keys[2].clone(), text("c"))],
        vec![(Key::from("name"), text("d")), (Key::from("port"), int(-1))],
        vec![(keys[3].clone(), text("")), (keys[1].clone(), int(0))],
        vec![(keys[3].clone(), text("")), (keys[3].clone(), text(""))],
        vec![
            (Key::from(Value::Int(1)), int(0)),
            (keys[1].clone(), int(5)),
        ],
        vec![(keys[2].clone(), text("e")), (keys[1].clone(), int(0))],
    ];
    let map = |entries: &Vec<(Key, Value)>| {
        Node::new(
            Value::Map(
                entries
                    .iter()
                    .map(|(key, value)| MapEntry {
                        key: key.clone(),
                        value: Node::new(value.clone(), Pos::new("v.yml", 3)),
                    })
                    .collect(),
            ),
            pos,
        )
    };
    let run = |node: &Node, ty: &Type| {
        super::validate(
            None,
            node,
            Some(ty),
            &NoFunctions,
            &mut super::RuleFacts::default(),
        )
        .expect("no error")
    };
    let whole = Node::new(Value::Array(maps.iter().map(map).collect()), pos);
    let together: Vec<_> = run(&whole, &array)
        .into_iter()
        .map(|v| (v.path, v.rules))
        .collect();
    let mut alone = Vec::new();
    for (i, entries) in maps.iter().enumerate() {
        for v in run(&map(entries), &item) {
            alone.push((format!("[{i}].{}", v.path), v.rules));
        }
    }
    assert_eq!(together, alone);
    assert_eq!(together.len(), 9, "{together:?}");
}
