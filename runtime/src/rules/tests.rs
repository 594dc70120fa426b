#[test]
fn whole_floats_print_every_digit() {
    use super::whole_float_digits as digits;
    assert_eq!(digits(1e30), "1000000000000000019884624838656");
    assert_eq!(digits(-1e30), "-1000000000000000019884624838656");
    assert_eq!(digits(1.5e20), "150000000000000000000");
    assert_eq!(digits(2.0f64.powi(64)), "18446744073709551616");
    assert_eq!(digits(1e3), "1000");
}

use super::*;
use crate::value::{MapEntry, Pos};

fn list(items: &[Value]) -> Value {
    Value::Array(
        items
            .iter()
            .map(|v| Node::new(v.clone(), Pos::unknown()))
            .collect(),
    )
}

#[test]
fn min_and_max() {
    assert_eq!(RuleName::Min.check(&Value::Int(1), &Value::Int(1)), None);
    let f = RuleName::Min.check(&Value::Int(1), &Value::Int(0)).unwrap();
    assert_eq!(
        (f.expected.as_str(), f.found.as_deref()),
        ("a value >= 1", Some("value < 1"))
    );
    let f = RuleName::Max
        .check(&list(&[Value::Int(0)]), &list(&[Value::Int(1)]))
        .unwrap();
    assert_eq!(f.found.as_deref(), Some("value > [0]"));
    // A validation hands an empty map to the comparison as None, a non-empty one as a
    // dict; a Starlark `check` call sees the dict.
    let f = RuleName::Min
        .check_node(&Value::Int(1), &Value::Map(crate::value::entries![]))
        .unwrap();
    assert_eq!(f.found.as_deref(), Some("NoneType >= int not implemented"));
    let f = RuleName::Min
        .check(&Value::Int(1), &Value::Map(crate::value::entries![]))
        .unwrap();
    assert_eq!(f.found.as_deref(), Some("dict >= int not implemented"));
    let one = Value::Map(crate::value::entries![MapEntry {
        key: "a".into(),
        value: Node::new(Value::Int(1), Pos::unknown()),
    }]);
    let f = RuleName::Min.check(&Value::Int(1), &one).unwrap();
    assert_eq!(f.found.as_deref(), Some("dict >= int not implemented"));
}

#[test]
fn lengths_count_bytes() {
    let f = RuleName::MaxLen
        .check(&Value::Int(1), &Value::Str("é".into()))
        .unwrap();
    assert_eq!(
        (f.expected.as_str(), f.found.as_deref()),
        ("length <= 1", Some("length = 2"))
    );
    let f = RuleName::MinLen
        .check(&Value::Int(1), &Value::Int(5))
        .unwrap();
    assert_eq!(
        f.found.as_deref(),
        Some("len: value of type int has no len")
    );
}

/// The failures worded away from the inlined passing path keep their wording.
#[test]
fn bounds_and_lengths_fail_as_before() {
    // A length bound that is no number: no length shown.
    let f = RuleName::MinLen
        .check(&Value::Str("x".into()), &Value::Str("ab".into()))
        .unwrap();
    assert_eq!(
        (f.expected.as_str(), f.found.as_deref(), f.raised),
        ("length >= \"x\"", None, false)
    );
    // A float bound past the ints: written whole; an array counts its items.
    let f = RuleName::MaxLen
        .check(&Value::Float(1e30), &list(&[Value::Int(0)]))
        .map(|f| f.expected);
    assert_eq!(f, None);
    let f = RuleName::MaxLen
        .check(&Value::Float(0.0), &list(&[Value::Int(0)]))
        .unwrap();
    assert_eq!(
        (f.expected.as_str(), f.found.as_deref()),
        ("length <= 0", Some("length = 1"))
    );
    // A NaN passes neither bound, and is out of it.
    let nan = Value::Float(f64::NAN);
    let f = RuleName::Min.check(&nan, &Value::Int(1)).unwrap();
    assert_eq!(f.found, Some(format!("value < {}", repr(&nan))));
    assert!(!f.raised);
    // An int and a float compared exactly, the int on either side.
    assert_eq!(
        RuleName::Max.check(&Value::Float(2.5), &Value::Int(2)),
        None
    );
    let f = RuleName::Max
        .check(&Value::Int(2), &Value::Float(2.5))
        .unwrap();
    assert_eq!(f.found.as_deref(), Some("value > 2"));
    // A string against an int: not comparable, raised.
    let f = RuleName::Max
        .check(&Value::Int(2), &Value::Str("a".into()))
        .unwrap();
    assert_eq!(
        (f.found.as_deref(), f.raised),
        (Some("string <= int not implemented"), true)
    );
}

#[test]
fn one_of_and_one_not_null() {
    let f = RuleName::OneOf
        .check(&list(&[Value::Str("x".into())]), &Value::Str("y".into()))
        .unwrap();
    assert_eq!(f.expected, "one of [\"x\"]");
    assert_eq!(
        RuleName::OneOf.check(&list(&[Value::Float(1.0)]), &Value::Int(1)),
        None
    );
    let map = Value::Map(crate::value::entries![
        MapEntry {
            key: "a".into(),
            value: Node::new(Value::Int(1), Pos::unknown()),
        },
        MapEntry {
            key: "b".into(),
            value: Node::new(Value::Int(2), Pos::unknown()),
        },
    ]);
    let f = RuleName::OneNotNull
        .check(&Value::Bool(true), &map)
        .unwrap();
    assert_eq!(f.found.as_deref(), Some("[\"a\", \"b\"] are not null"));
}

#[test]
fn reprs() {
    // ytt's starlark-go writes floats with %g (checked against the oracle).
    assert_eq!(repr(&Value::Float(1.0)), "1");
    assert_eq!(repr(&Value::Float(123456789.0)), "1.23457e+08");
    assert_eq!(repr(&Value::Float(1.0 / 3.0)), "0.333333");
    assert_eq!(repr(&Value::Float(f64::INFINITY)), "+Inf");
    assert_eq!(repr(&Value::Str("a\"b".into())), "\"a\\\"b\"");
    assert_eq!(repr(&Value::Null), "None");
}
