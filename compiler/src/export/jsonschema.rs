//! `-o json-schema`: the data values as a JSON Schema (draft 2020-12), for editors
//! (yaml-language-server) and other validators.
//!
//! Every node says, in this order: `title`, `description`, `deprecated` (and
//! `deprecationMessage`, which editors show), `type` (with `"null"` for nullable nodes; none
//! for `any`), `format`, `additionalProperties: false` and `properties` for maps, `items` for
//! arrays, `default` (not for maps: their items carry theirs), `examples`, the rule keywords
//! [`rules`] finds exact, and `x-schemac-rules` for the other rules. Maps require no keys: a
//! values file sets only some, and the final data values always have them all.

use schemac_runtime::schema::{Kind, Scalar, Type};
use schemac_runtime::value::{MapEntry, Node, Pos, Value};

use super::rules::{self, Dialect};
use super::{boolean, entry, list, map, notes_node, string};

/// The draft the export follows.
pub const DIALECT: &str = "https://json-schema.org/draft/2020-12/schema";

/// The JSON Schema of the data values whose schema is `schema`.
pub fn to_json_schema(schema: &Type) -> Node {
    let mut root = vec![entry("$schema", string(DIALECT))];
    match schema_object(schema).value {
        Value::Map(entries) => root.extend(entries),
        _ => unreachable!("a schema object is a map"),
    }
    map(root)
}

fn schema_object(ty: &Type) -> Node {
    let mut out = Vec::new();
    if let Some(title) = ty.doc.title.as_deref().filter(|t| !t.is_empty()) {
        out.push(entry("title", string(title)));
    }
    if let Some(desc) = ty.doc.desc.as_deref().filter(|t| !t.is_empty()) {
        out.push(entry("description", string(desc)));
    }
    if let Some(notice) = &ty.doc.deprecated {
        out.push(entry("deprecated", boolean(true)));
        if !notice.is_empty() {
            out.push(entry("deprecationMessage", string(notice)));
        }
    }
    let exported = rules::export(ty, Dialect::JsonSchema);
    let base = match &ty.kind {
        Kind::Map(_) => Some("object"),
        Kind::Array(_) => Some("array"),
        Kind::Scalar(Scalar::String) => Some("string"),
        Kind::Scalar(Scalar::Int) => Some("integer"),
        Kind::Scalar(Scalar::Float) => Some("number"),
        Kind::Scalar(Scalar::Bool) => Some("boolean"),
        Kind::Any => None,
    };
    match base {
        Some(t) if ty.nullable && !exported.not_null => {
            out.push(entry("type", list(vec![string(t), string("null")])))
        }
        Some(t) => out.push(entry("type", string(t))),
        None if exported.not_null => {
            out.push(entry("not", map(vec![entry("type", string("null"))])))
        }
        None => {}
    }
    match &ty.kind {
        Kind::Map(fields) => {
            out.push(entry("additionalProperties", boolean(false)));
            // JSON's keys are text: keys that are written alike (`true` and `"true"`, `1` and
            // `"1"`) are one property, which takes the value of any of them (`-o json` writes
            // one of them).
            let mut properties: Vec<(String, Vec<Node>)> = Vec::new();
            let mut index: std::collections::HashMap<String, usize> =
                std::collections::HashMap::new();
            for f in fields {
                let key = f.key.key_string();
                let schema = schema_object(&f.ty);
                match index.get(&key) {
                    Some(&i) => properties[i].1.push(schema),
                    None => {
                        index.insert(key.clone(), properties.len());
                        properties.push((key, vec![schema]));
                    }
                }
            }
            let properties = properties
                .into_iter()
                .map(|(key, mut alike)| MapEntry {
                    key: Value::Str(key.into()).into(),
                    value: match alike.len() {
                        1 => alike.remove(0),
                        _ => map(vec![entry("anyOf", list(alike))]),
                    },
                })
                .collect();
            out.push(entry(
                "properties",
                Node::new(Value::Map(properties), Pos::unknown()),
            ));
        }
        Kind::Array(item) => out.push(entry("items", schema_object(item))),
        Kind::Scalar(_) | Kind::Any => {}
    }
    if !matches!(ty.kind, Kind::Map(_)) && is_json(&ty.default.value) {
        out.push(entry("default", ty.default.clone()));
    }
    let examples: Vec<Node> = ty
        .doc
        .examples
        .iter()
        .map(|(_, v)| v.clone())
        .filter(|v| is_json(&v.value))
        .collect();
    if !examples.is_empty() {
        out.push(entry("examples", list(examples)));
    }
    out.extend(exported.keywords.into_iter().map(|(k, v)| entry(&k, v)));
    if !exported.notes.is_empty() {
        out.push(entry("x-schemac-rules", notes_node(&exported.notes)));
    }
    map(out)
}

/// Whether JSON can hold the value (no NaN or infinity).
fn is_json(v: &Value) -> bool {
    match v {
        Value::Float(f) => f.is_finite(),
        Value::Array(items) => items.iter().all(|i| is_json(&i.value)),
        Value::Map(entries) => entries.iter().all(|e| is_json(&e.value.value)),
        _ => true,
    }
}
