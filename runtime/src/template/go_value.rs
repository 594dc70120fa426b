//! A map or array that Starlark code gave a node, as ytt shows it when a schema refuses one:
//! the Go value it became (`*orderedmap.Map`, `[]interface {}`) written with Go's `%s`
//! (`&{[{a %!s(int64=1)}]}`, `[%!s(int64=1) a]`).

use super::tree::{Tree, TreeValue};
use crate::value::Value;

/// The Go type a Starlark dict or struct (`*orderedmap.Map`) or list or tuple
/// (`[]interface {}`) becomes in ytt; `None` for a scalar.
pub fn go_type_name(value: &TreeValue) -> Option<&'static str> {
    match value {
        TreeValue::Map(_) => Some("*orderedmap.Map"),
        TreeValue::Array(_) => Some("[]interface {}"),
        TreeValue::Scalar(_) => None,
    }
}

/// ytt's error for a schema node whose value Starlark code gave as a dict or list.
pub fn refused_in_schema(value: &TreeValue) -> Option<String> {
    let type_name = go_type_name(value)?;
    let text = match value {
        TreeValue::Map(items) => map_text(items, Verb::S),
        TreeValue::Array(items) => list_text(items, Verb::S),
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

/// A scalar as Starlark's value became a Go value: an `int64` (Starlark's ints), a `float64`,
/// a `bool`...
fn scalar(v: &Value, verb: Verb) -> String {
    match (v, v.go_scalar()) {
        (Value::Null, _) => "<nil>".into(),
        (Value::Str(s), _) => s.to_string(),
        (_, Some((go_type, text))) if verb == Verb::S => {
            let go_type = if go_type == "int" { "int64" } else { go_type };
            format!("%!s({go_type}={text})")
        }
        (_, Some((_, text))) => text,
        _ => v.key_string(),
    }
}
