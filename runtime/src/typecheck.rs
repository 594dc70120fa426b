//! Checking data values against the schema IR, and filling in defaults.

use crate::report::{Failure, SourceLines};
use crate::schema::{Field, Fields, Kind, Type};
use crate::template::tree::{Anns, Tree, TreeKind, TreeValue};
use crate::value::{KeyIndex, Node, Pos, Value};

/// A value that does not conform to its declared type.
#[derive(Clone, Debug, PartialEq)]
pub struct TypeViolation {
    pub pos: Pos,
    pub description: Option<String>,
    pub found: String,
    pub expected: String,
    pub hints: Vec<String>,
    /// A map or array where another type was declared: ytt then reports only such violations.
    pub collection_for_scalar: bool,
    /// The value is a whole document: its excerpt is its `---` line, or empty for a document
    /// that has none (a plain file's first document, as ytt shows it).
    pub document: bool,
}

impl TypeViolation {
    fn excerpt_line<'a>(&self, sources: &'a SourceLines) -> &'a str {
        let line = sources.line_at(&self.pos);
        if self.document && !line.starts_with("---") {
            ""
        } else {
            line
        }
    }

    pub fn to_failure(&self, sources: &SourceLines) -> Failure {
        Failure {
            description: self.description.clone(),
            file: self.pos.file.to_string(),
            lines: vec![(self.pos.line, self.excerpt_line(sources).to_string())],
            found: Some(self.found.clone()),
            expected: Some(self.expected.clone()),
            hints: self.hints.clone(),
        }
    }
}

/// Checks `node` against `ty`; returns the violations ytt would report, in ytt's order: a
/// depth-first walk in document order that reports a map's undeclared keys before looking into
/// its declared items.
pub fn check(node: &Node, ty: &Type) -> Vec<TypeViolation> {
    check_tree(&Tree::document(node), ty)
}

/// [`check`] for a tree (its annotations are not looked at).
pub fn check_tree(tree: &Tree, ty: &Type) -> Vec<TypeViolation> {
    let mut out = Vec::new();
    check_into(tree, ty, &mut out);
    if out.iter().any(|v| v.collection_for_scalar) {
        out.retain(|v| v.collection_for_scalar);
    }
    out
}

/// The violation of a value whose kind is not its type's.
fn mismatch(tree: &Tree, ty: &Type) -> TypeViolation {
    let collection = matches!(tree.value, TreeValue::Map(_) | TreeValue::Array(_));
    // A collection is quoted at its own node where that differs from its item's.
    let value_pos = tree.ann(crate::template::VALUE_POS).filter(|_| collection);
    TypeViolation {
        pos: value_pos.map_or(tree.pos, |a| a.pos),
        description: None,
        found: tree.value.type_name().to_string(),
        expected: format!("{} (by {})", ty.name(), ty.pos),
        hints: Vec::new(),
        collection_for_scalar: collection,
        document: tree.kind == TreeKind::Document,
    }
}

/// A map item's key (`null` for a node that is not a map item).
fn key_of(item: &Tree) -> &Value {
    static NO_KEY: Value = Value::Null;
    item.key().unwrap_or(&NO_KEY)
}

/// Checks `tree` against `ty`, appending violations in ytt's order.
fn check_into(tree: &Tree, ty: &Type, out: &mut Vec<TypeViolation>) {
    if matches!(ty.kind, Kind::Any)
        || (ty.nullable && matches!(tree.value, TreeValue::Scalar(Value::Null)))
    {
        return;
    }
    match (&ty.kind, &tree.value) {
        (Kind::Scalar(s), TreeValue::Scalar(v)) if s.accepts(v) => {}
        (Kind::Map(fields), TreeValue::Map(items)) => {
            let declared = Fields::of(Some(ty), items.len());
            let item_fields: Vec<Option<&Field>> = items
                .iter()
                .map(|item| declared.get(key_of(item)))
                .collect();
            for (item, field) in items.iter().zip(&item_fields) {
                if field.is_none() {
                    out.push(undeclared(item, ty, fields));
                }
            }
            for (item, field) in items.iter().zip(&item_fields) {
                if let Some(field) = field {
                    check_into(item, &field.ty, out);
                }
            }
        }
        (Kind::Array(item_ty), TreeValue::Array(items)) => {
            for i in items {
                check_into(i, item_ty, out);
            }
        }
        _ => out.push(mismatch(tree, ty)),
    }
}

/// The violation of a map item whose key `map` does not declare.
fn undeclared(item: &Tree, map: &Type, fields: &[Field]) -> TypeViolation {
    let key = key_of(item).key_string();
    // As ytt, the declared keys sorted, as Go's `%s` writes them.
    let mut names: Vec<String> = fields.iter().map(|f| f.key.go_percent_s()).collect();
    names.sort();
    let expected = match names.len() {
        1 => format!(
            "a map item with the key named \"{}\" (from {})",
            names[0], map.pos
        ),
        2..=9 => format!("one of {{ {} }} (from {})", names.join(", "), map.pos),
        _ => format!("a key declared in map (from {})", map.pos),
    };
    // ytt's hint is starlark-go's spelling hint (its `spell.Nearest`).
    let candidates: Vec<&str> = names.iter().map(String::as_str).collect();
    let hints = crate::spell::nearest(&key, &candidates)
        .map(|best| format!("did you mean \"{best}\"?"))
        .into_iter()
        .collect();
    TypeViolation {
        pos: item.pos,
        description: Some("Given data value is not declared in schema".into()),
        found: key,
        expected,
        hints,
        collection_for_scalar: false,
        document: false,
    }
}

/// Adds the schema's defaults for every declared key that `tree` lacks, in schema order after
/// the keys given, and fills array items the same way.
pub fn fill_defaults(tree: &mut Tree, ty: &Type) {
    match (&ty.kind, &mut tree.value) {
        (Kind::Map(fields), TreeValue::Map(items)) => {
            let index = KeyIndex::new(items, fields.len());
            // Only the given items are searched: the defaults added are each a field's own.
            let given = items.len();
            items.reserve(fields.len().saturating_sub(given));
            // The given items before `matched` hold the keys of fields already met, which are
            // not the key of any later field (a schema map's keys are distinct): each search
            // starts there, and finds at once an item given in the schema's order.
            let mut matched = 0;
            for field in fields {
                match index.find_from(&items[..given], &field.key, matched) {
                    Some(i) => {
                        if i == matched {
                            matched += 1;
                        }
                        fill_defaults(&mut items[i], &field.ty)
                    }
                    None => items.push(default_item(field)),
                }
            }
        }
        (Kind::Array(item), TreeValue::Array(items)) => {
            for i in items {
                fill_defaults(i, item);
            }
        }
        _ => {}
    }
}

/// The map item a missing field gets: its key with its default.
fn default_item(field: &Field) -> Tree {
    Tree {
        kind: TreeKind::MapItem(field.key.clone()),
        pos: field.ty.default.pos,
        anns: Anns::default(),
        value: TreeValue::from_node(&field.ty.default),
    }
}

/// [`fill_defaults`] for plain data.
pub fn fill_node_defaults(node: &mut Node, ty: &Type) {
    let mut tree = Tree::document(node);
    fill_defaults(&mut tree, ty);
    *node = tree.into_node();
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::schema::{Doc, Scalar};
    use crate::value::MapEntry;

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
                key: Value::Str("port".into()),
                ty: scalar(Scalar::Int, Value::Int(80), 2),
            },
            Field {
                key: Value::Str("host".into()),
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
                        key: Value::Str((*k).into()),
                        value: Node::new(v.clone(), Pos::new("v.yml", 2)),
                    })
                    .collect(),
            ),
            pos,
        )
    }

    #[test]
    fn wrong_scalar_and_undeclared_key() {
        let v = check(
            &map(&[
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
        assert!(check(&map(&[("port", Value::Int(1))]), &t).is_empty());
    }

    #[test]
    fn defaults_follow_given_keys() {
        let mut n = map(&[("host", Value::Str("a".into()))]);
        fill_node_defaults(&mut n, &schema());
        let Value::Map(e) = &n.value else { panic!() };
        assert_eq!(
            e.iter().map(|e| e.key.key_string()).collect::<Vec<_>>(),
            ["host", "port"]
        );
    }
}
