//! The schema IR: what a `#@data/values-schema` document declares.
//!
//! One IR feeds every back end: the interpreter (`schemac check`), code generation and the
//! OpenAPI export. Each field names the annotation or YAML construct that produces it.

mod validation;

use crate::value::{KeyIndex, Keyed, Node, Pos, Value};
use std::cell::Cell;
pub use validation::{Check, CustomRule, FunctionRef, Validation};

/// A declared data value: a document, a map item's value or an array's item.
#[derive(Clone, Debug, PartialEq)]
pub struct Type {
    pub kind: Kind,
    /// Where the type is declared (`by schema.yml:4` in messages): the map item or array item.
    pub pos: Pos,
    /// `#@schema/nullable`: null is allowed, and is the default.
    pub nullable: bool,
    /// The default: `#@schema/default`, else inferred from the example value.
    pub default: Node,
    pub doc: Doc,
    /// `#@schema/validation ...` (the last one, when a node has several).
    pub validation: Option<Validation>,
}

#[derive(Clone, Debug, PartialEq)]
pub enum Kind {
    /// A map: its items in schema order.
    Map(Vec<Field>),
    /// An array: the type of its items (the one item written in the schema).
    Array(Box<Type>),
    Scalar(Scalar),
    /// `#@schema/type any=True`: any value, not checked.
    Any,
}

/// A map item declared in the schema.
#[derive(Clone, Debug, PartialEq)]
pub struct Field {
    pub key: Value,
    pub ty: Type,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Scalar {
    String,
    Int,
    Float,
    Bool,
}

/// Documentation annotations.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Doc {
    /// `#@schema/title`
    pub title: Option<String>,
    /// `#@schema/desc`
    pub desc: Option<String>,
    /// `#@schema/examples ("description", value), ...`
    pub examples: Vec<(String, Node)>,
    /// `#@schema/deprecated "notice"`
    pub deprecated: Option<String>,
}

impl Scalar {
    /// The name ytt uses in messages.
    pub fn name(self) -> &'static str {
        match self {
            Scalar::String => "string",
            Scalar::Int => "integer",
            Scalar::Float => "float",
            Scalar::Bool => "boolean",
        }
    }

    pub fn of(value: &Value) -> Option<Scalar> {
        match value {
            Value::Str(_) => Some(Scalar::String),
            Value::Int(_) | Value::UInt(_) => Some(Scalar::Int),
            Value::Float(_) => Some(Scalar::Float),
            Value::Bool(_) => Some(Scalar::Bool),
            _ => None,
        }
    }

    /// Whether a value of this scalar type is acceptable (an integer is a valid float).
    pub fn accepts(self, value: &Value) -> bool {
        matches!(
            (self, value),
            (Scalar::String, Value::Str(_))
                | (Scalar::Int, Value::Int(_) | Value::UInt(_))
                | (
                    Scalar::Float,
                    Value::Float(_) | Value::Int(_) | Value::UInt(_)
                )
                | (Scalar::Bool, Value::Bool(_))
        )
    }
}

impl Type {
    /// The type name used in `expected:` lines.
    pub fn name(&self) -> &'static str {
        match &self.kind {
            Kind::Map(_) => "map",
            Kind::Array(_) => "array",
            Kind::Scalar(s) => s.name(),
            Kind::Any => "any",
        }
    }

    /// Whether a map type's default is its fields' defaults, key for key (what a map's default
    /// is unless `@schema/default` gave another one).
    pub fn default_is_fields_defaults(&self) -> bool {
        match (&self.kind, &self.default.value) {
            (Kind::Map(fields), Value::Map(entries)) => {
                entries.len() == fields.len()
                    && entries
                        .iter()
                        .zip(fields)
                        .all(|(e, f)| e.key.key_eq(&f.key) && e.value == f.ty.default)
            }
            _ => false,
        }
    }

    /// The rule functions of this type and the types under it, in schema order.
    pub fn functions(&self) -> Vec<FunctionRef> {
        let mut out = Vec::new();
        self.each_type(&mut |t| {
            if let Some(v) = &t.validation {
                out.extend(v.functions().copied());
            }
        });
        out
    }

    /// Calls `f` on this type and every type under it, parents first, in schema order.
    pub fn each_type<'a>(&'a self, f: &mut dyn FnMut(&'a Type)) {
        f(self);
        match &self.kind {
            Kind::Map(fields) => fields.iter().for_each(|x| x.ty.each_type(f)),
            Kind::Array(item) => item.each_type(f),
            Kind::Scalar(_) | Kind::Any => {}
        }
    }

    pub fn field(&self, key: &Value) -> Option<&Field> {
        match &self.kind {
            Kind::Map(fields) => fields.iter().find(|f| f.key.key_eq(key)),
            _ => None,
        }
    }
}

impl Keyed for Field {
    fn map_key(&self) -> Option<&Value> {
        Some(&self.key)
    }
}

/// The fields of a map type, found by key (without scanning them all each time when there
/// are many, nor at all when a map's items come in the fields' order).
///
/// A map type's keys are distinct (a schema map cannot repeat a key), so the one field a key
/// matches is found wherever the search starts: it starts after the field found last.
pub struct Fields<'a> {
    fields: &'a [Field],
    index: KeyIndex,
    /// Where the next item's field most likely is: after the last one found.
    next: Cell<usize>,
}

impl<'a> Fields<'a> {
    /// The fields of `ty` if it is a map type (none otherwise), about to be looked up `lookups`
    /// times.
    pub fn of(ty: Option<&'a Type>, lookups: usize) -> Fields<'a> {
        let fields = match ty.map(|t| &t.kind) {
            Some(Kind::Map(fields)) => fields.as_slice(),
            _ => &[],
        };
        Fields {
            fields,
            index: KeyIndex::new(fields, lookups),
            next: Cell::new(0),
        }
    }

    pub fn get(&self, key: &Value) -> Option<&'a Field> {
        self.position(key).map(|i| &self.fields[i])
    }

    /// The index of the field whose key is `key`.
    pub fn position(&self, key: &Value) -> Option<usize> {
        let guess = self.next.get();
        let i = match self.fields.get(guess) {
            Some(f) if f.key.key_eq(key) => guess,
            // The fields after the guess first: items given in the schema's order, some left
            // out, are found there.
            _ => match self.index.find_from(self.fields, key, guess) {
                Some(i) => i,
                None => self
                    .index
                    .find(&self.fields[..guess.min(self.fields.len())], key)?,
            },
        };
        self.next.set(i + 1);
        Some(i)
    }
}
