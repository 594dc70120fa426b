//! A map or array that Starlark code gave a node, as ytt shows it when a schema refuses one:
//! the Go value it became (`*orderedmap.Map`, `[]interface {}`) written with Go's `%s`
//! (`&{[{a %!s(int64=1)}]}`, `[%!s(int64=1) a]`).

use super::tree::{Tree, TreeValue};
use crate::value::Value;

/// ytt's error for a schema node whose value Starlark code gave as a dict or list.
pub fn refused_in_schema(value: &TreeValue) -> Option<String> {
    let (type_name, text) = match value {
        TreeValue::Map(items) => ("*orderedmap.Map", map_text(items, Verb::S)),
        TreeValue::Array(items) => ("[]interface {}", list_text(items, Verb::S)),
        TreeValue::Scalar(_) => return None,
    };
    Some(format!(
        "Expected value '{text}' to be a map, array, or scalar, but was {type_name}"
    ))
}

#[derive(Clone, Copy, PartialEq)]
enum Verb {
    /// `%s`: strings as they are, other scalars as Go's complaint `%!s(TYPE=VALUE)`.
    S,
    /// `%v`, inside such a complaint.
    V,
}

/// An ordered map at the top of a `%s` or of a complaint: `&{[{K V} ...]}`.
fn map_text(items: &[Tree], verb: Verb) -> String {
    let items: Vec<String> = items
        .iter()
        .map(|t| {
            let key = t.key().map_or_else(|| "<nil>".into(), |k| scalar(k, verb));
            format!("{{{key} {}}}", inner(&t.value, verb))
        })
        .collect();
    format!("&{{[{}]}}", items.join(" "))
}

fn list_text(items: &[Tree], verb: Verb) -> String {
    let items: Vec<String> = items.iter().map(|t| inner(&t.value, verb)).collect();
    format!("[{}]", items.join(" "))
}

/// A value inside a collection.
fn inner(value: &TreeValue, verb: Verb) -> String {
    match value {
        TreeValue::Scalar(v) => scalar(v, verb),
        TreeValue::Array(items) => list_text(items, verb),
        // Go's `%v` writes a pointer below the top as its address, which changes from run to
        // run: this placeholder stands for it.
        TreeValue::Map(_) if verb == Verb::V => "0xc000000000".into(),
        TreeValue::Map(items) => format!("%!s(*orderedmap.Map={})", map_text(items, Verb::V)),
    }
}

/// A scalar as Starlark's value became a Go value: an `int64`, a `float64`, a `bool`...
fn scalar(v: &Value, verb: Verb) -> String {
    let complaint = |type_name: &str, text: String| match verb {
        Verb::S => format!("%!s({type_name}={text})"),
        Verb::V => text,
    };
    match v {
        Value::Null => "<nil>".into(),
        Value::Str(s) => s.clone(),
        Value::Bool(b) => complaint("bool", b.to_string()),
        Value::Int(i) => complaint("int64", i.to_string()),
        Value::UInt(u) => complaint("uint64", u.to_string()),
        Value::Float(f) if f.is_nan() => complaint("float64", "NaN".into()),
        Value::Float(f) if f.is_infinite() => {
            complaint("float64", if *f > 0.0 { "+Inf" } else { "-Inf" }.into())
        }
        Value::Float(f) => complaint("float64", crate::yaml::emit::go_float_text(*f, -4..6, 2)),
        Value::Map(_) | Value::Array(_) => v.key_string(),
    }
}
