//! Support for generated code. **Semver exempt**: not part of the public API; it changes with
//! the code generator, which always matches this crate's version.
#![doc(hidden)]

#[cfg(feature = "serde")]
pub use serde;

/// mimalloc, as the benchmarks' YAML-reading floor declares it (built validators declare
/// [`crate::allocator::Allocator`]).
#[cfg(feature = "mimalloc")]
pub use mimalloc::MiMalloc;

use crate::value::Value;

/// Conversion from checked data values to the typed structs of generated code.
pub trait FromValue: Sized {
    fn from_value(value: &Value) -> Option<Self>;
}

const NULL: Value = Value::Null;

/// The fields of a map value for a generated `from_value`, which asks for them in the
/// schema's order: checked data values hold a map's keys in that order (the defaults' order,
/// which the overlay keeps), so each field is the entry after the last one found, and a key
/// elsewhere is searched for. A key is in a map at most once (the engine rejects a map that
/// holds one twice), so the entry found is the one a search from the start would find.
pub struct Fields<'a> {
    entries: &'a [crate::value::MapEntry],
    next: usize,
}

impl<'a> Fields<'a> {
    /// The fields of `value` (none when it is not a map).
    pub fn of(value: &'a Value) -> Fields<'a> {
        let entries: &[crate::value::MapEntry] = match value {
            Value::Map(entries) => entries,
            _ => &[],
        };
        Fields { entries, next: 0 }
    }

    /// The value of `key` (null when absent).
    pub fn get(&mut self, key: &Value) -> &'a Value {
        let at = match self.entries.get(self.next) {
            Some(e) if e.key.key_eq(key) => Some(self.next),
            _ => self.entries.iter().position(|e| e.key.key_eq(key)),
        };
        match at {
            Some(i) => {
                self.next = i + 1;
                &self.entries[i].value.value
            }
            None => &NULL,
        }
    }
}

impl FromValue for String {
    /// A string that is not UTF-8 (`Value::Bytes`, which a schema's `string` takes) has no
    /// `String`: [`crate::typed::convert`] names it, rather than mending its bytes.
    fn from_value(value: &Value) -> Option<Self> {
        value.as_str().map(str::to_string)
    }
}

impl FromValue for i64 {
    fn from_value(value: &Value) -> Option<Self> {
        match value {
            Value::Int(i) => Some(*i),
            _ => None,
        }
    }
}

impl FromValue for f64 {
    fn from_value(value: &Value) -> Option<Self> {
        exact_f64(value)
    }
}

/// A number as an `f64` when it is one exactly: a float, or an integer that an `f64` holds
/// without rounding (every integer up to 2^53, and larger ones with enough trailing zeros).
pub fn exact_f64(value: &Value) -> Option<f64> {
    let exact = |f: f64, i: i128| (f as i128 == i).then_some(f);
    match value {
        Value::Float(f) => Some(*f),
        Value::Int(i) => exact(*i as f64, i128::from(*i)),
        Value::UInt(u) => exact(*u as f64, i128::from(*u)),
        _ => None,
    }
}

impl FromValue for bool {
    fn from_value(value: &Value) -> Option<Self> {
        match value {
            Value::Bool(b) => Some(*b),
            _ => None,
        }
    }
}

impl FromValue for Value {
    fn from_value(value: &Value) -> Option<Self> {
        Some(value.clone())
    }
}

impl<T: FromValue> FromValue for Option<T> {
    fn from_value(value: &Value) -> Option<Self> {
        match value {
            Value::Null => Some(None),
            v => T::from_value(v).map(Some),
        }
    }
}

impl<T: FromValue> FromValue for Vec<T> {
    fn from_value(value: &Value) -> Option<Self> {
        match value {
            Value::Array(items) => items.iter().map(|n| T::from_value(&n.value)).collect(),
            _ => None,
        }
    }
}

/// Conversion from the generated structs back to data values (keys in schema order).
pub trait ToValue {
    fn to_value(&self) -> Value;
}

impl ToValue for String {
    fn to_value(&self) -> Value {
        Value::Str(self.into())
    }
}

impl ToValue for i64 {
    fn to_value(&self) -> Value {
        Value::Int(*self)
    }
}

impl ToValue for f64 {
    fn to_value(&self) -> Value {
        Value::Float(*self)
    }
}

impl ToValue for bool {
    fn to_value(&self) -> Value {
        Value::Bool(*self)
    }
}

impl ToValue for Value {
    fn to_value(&self) -> Value {
        self.clone()
    }
}

impl<T: ToValue> ToValue for Option<T> {
    fn to_value(&self) -> Value {
        self.as_ref().map_or(Value::Null, ToValue::to_value)
    }
}

impl<T: ToValue> ToValue for Vec<T> {
    fn to_value(&self) -> Value {
        Value::Array(
            self.iter()
                .map(|v| crate::value::Node::new(v.to_value(), crate::value::Pos::unknown()))
                .collect(),
        )
    }
}

/// A map entry for generated `ToValue` impls.
pub fn entry(key: Value, value: Value) -> crate::value::MapEntry {
    crate::value::MapEntry {
        key: crate::value::Key::new(key),
        value: crate::value::Node::new(value, crate::value::Pos::unknown()),
    }
}

/// A map type whose default is its fields' defaults (or `default` when `@schema/default` set
/// one), for generated schema IR.
pub fn map_type(
    fields: Vec<crate::schema::Field>,
    pos: crate::value::Pos,
    nullable: bool,
    default: Option<crate::value::Node>,
    doc: crate::schema::Doc,
    validation: Option<crate::schema::Validation>,
) -> crate::schema::Type {
    let default = default.unwrap_or_else(|| {
        if nullable {
            crate::value::Node::null(pos)
        } else {
            let entries = fields
                .iter()
                .map(|f| crate::value::MapEntry {
                    key: f.key.clone(),
                    value: f.ty.default.clone(),
                })
                .collect();
            crate::value::Node::new(Value::Map(entries), pos)
        }
    });
    crate::schema::Type {
        kind: crate::schema::Kind::Map(fields),
        pos,
        nullable,
        default,
        doc,
        validation,
    }
}

/// A validation, for generated schema IR.
pub fn validation(
    pos: crate::value::Pos,
    custom: Vec<crate::schema::CustomRule>,
    named: Vec<(crate::rules::RuleName, Value)>,
    shown_args: Vec<(crate::rules::RuleName, &str)>,
    when: Option<crate::schema::FunctionRef>,
) -> crate::schema::Validation {
    let mut v = crate::schema::Validation::new(pos);
    v.custom = custom;
    v.named = named;
    v.shown_args = shown_args
        .into_iter()
        .map(|(r, s)| (r, s.to_string()))
        .collect();
    v.when = when;
    v
}

/// A YAML document embedded in generated code (the OpenAPI export), read back.
pub fn yaml_document(text: &str) -> crate::value::Node {
    let raw = crate::yaml::parse::parse_file("", text, false).expect("generated YAML is valid");
    match raw.docs.into_iter().next() {
        Some(mut doc) => {
            let lines: Vec<&str> = text.lines().collect();
            restore_negative_zero(&mut doc, &lines);
            crate::template::tree::Tree::from_raw(doc, None).into_node()
        }
        None => crate::value::Node::null(crate::value::Pos::unknown()),
    }
}

/// The YAML writer prints a float negative zero as `-0` (as ytt does), which YAML reads as the
/// integer 0: an embedded document (the writer's output) reads it back as the float it was, so
/// that it prints `-0` again. The writer prints the integer 0 as `0` and a string `-0` quoted,
/// so a plain `-0` at the end of a line is always such a float.
fn restore_negative_zero(node: &mut crate::yaml::parse::RawNode, lines: &[&str]) {
    use crate::yaml::parse::RawValue;
    match &mut node.value {
        RawValue::Scalar(v @ crate::value::Value::Int(0)) => {
            let line = (node.line as usize)
                .checked_sub(1)
                .and_then(|i| lines.get(i));
            if line.is_some_and(|l| l.trim_end().ends_with(" -0")) {
                *v = crate::value::Value::Float(-0.0);
            }
        }
        RawValue::Scalar(_) => {}
        RawValue::Map(items) | RawValue::Array(items) => {
            for item in items {
                restore_negative_zero(item, lines);
            }
        }
    }
}

/// Generated code whose rules (or built-in data values files) need the Starlark interpreter
/// invokes this: without the
/// runtime's `starlark` feature it is a compile error that says what to enable.
#[cfg(feature = "starlark")]
#[macro_export]
#[doc(hidden)]
macro_rules! __schemac_requires_starlark {
    ($schema:literal) => {};
}

/// Generated code whose rules or built-in data values files need the Starlark interpreter
/// invokes this: without the runtime's `starlark` feature it is a compile error that says what
/// to enable.
#[cfg(not(feature = "starlark"))]
#[macro_export]
#[doc(hidden)]
macro_rules! __schemac_requires_starlark {
    ($schema:literal) => {
        compile_error!(concat!(
            "the rules or data values files of ",
            $schema,
            " need the Starlark interpreter: enable the `starlark` feature of schemac-runtime"
        ));
    };
}

#[cfg(test)]
mod tests {
    #[test]
    fn fields_are_found_in_any_order_and_missing_ones_are_null() {
        use crate::value::{MapEntry, Node, Pos, Value};
        let key = |k: &str| Value::Str(k.into());
        let map = Value::Map(
            ["a", "b", "c"]
                .iter()
                .enumerate()
                .map(|(i, k)| MapEntry {
                    key: key(k).into(),
                    value: Node::new(Value::Int(i as i64), Pos::unknown()),
                })
                .collect(),
        );
        let mut fields = super::Fields::of(&map);
        // In order, then back, then past the end, then a key that is not there.
        let got: Vec<&Value> = ["a", "b", "c", "a", "c", "z", "b"]
            .iter()
            .map(|k| fields.get(&key(k)))
            .collect();
        let want = [0, 1, 2, 0, 2, -1, 1].map(|i| match i {
            -1 => Value::Null,
            i => Value::Int(i),
        });
        assert_eq!(got, want.iter().collect::<Vec<_>>());
        assert_eq!(
            super::Fields::of(&Value::Int(1)).get(&key("a")),
            &Value::Null
        );
    }

    #[test]
    fn embedded_documents_keep_a_float_negative_zero() {
        use crate::value::{MapEntry, Node, Pos, Value};
        let entry = |k: &str, v: Value| MapEntry {
            key: k.into(),
            value: Node::new(v, Pos::unknown()),
        };
        let doc = Value::Map(crate::value::entries![
            entry("float", Value::Float(-0.0)),
            entry("int", Value::Int(0)),
            entry("text", Value::Str("-0".into())),
            entry(
                "items",
                Value::Array(crate::value::thin_vec![Node::new(
                    Value::Float(-0.0),
                    Pos::unknown()
                )]),
            ),
        ]);
        let text = crate::yaml::emit::to_yaml(&doc);
        assert_eq!(
            crate::yaml::emit::to_yaml(&super::yaml_document(&text).value),
            text
        );
    }
}
