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
    /// Shared with the entries of the data values that hold this field (see
    /// [`crate::value::Key`]).
    pub key: crate::value::Key,
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
            Value::Str(_) | Value::Bytes(_) => Some(Scalar::String),
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
            (Scalar::String, Value::Str(_) | Value::Bytes(_))
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
                        .all(|(e, f)| e.key.key_eq(&f.key) && same_data(&e.value, &f.ty.default))
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

/// The index of [`Fields`]: its own, or one kept for the map type by [`FieldIndexes`].
enum FieldsIndex {
    Own(KeyIndex),
    Shared(std::rc::Rc<KeyIndex>),
}

impl std::ops::Deref for FieldsIndex {
    type Target = KeyIndex;

    fn deref(&self) -> &KeyIndex {
        match self {
            FieldsIndex::Own(index) => index,
            FieldsIndex::Shared(index) => index,
        }
    }
}

/// The index of each large map type's fields, made the first time the type is looked at and
/// kept for a run: each data values document is checked against the schema once overlaid
/// (20,000 `--data-values-env` variables on a schema of 20,000 keys built the index of the
/// root's fields 20,000 times: 74 % of 62 s). Map types are known by the address of their
/// fields, so a set of indexes serves one schema, for as long as it lives.
#[derive(Default)]
pub struct FieldIndexes {
    by_fields:
        std::collections::HashMap<*const Field, std::rc::Rc<KeyIndex>, crate::value::FxBuild>,
    /// Whether a map type of the schema, at any depth, has a NaN key (found the first time
    /// asked, [`FieldIndexes::nan_keys`]).
    nan_keys: Option<bool>,
}

impl FieldIndexes {
    /// The fields of `ty` if it is a map type, with the index kept for it when it has enough
    /// fields to need one ([`Fields::of`] otherwise).
    pub fn fields<'a>(&mut self, ty: &'a Type, lookups: usize) -> Fields<'a> {
        match &ty.kind {
            Kind::Map(fields) if fields.len() >= crate::value::INDEXED_LEN => {
                let index = self
                    .by_fields
                    .entry(fields.as_ptr())
                    .or_insert_with(|| std::rc::Rc::new(KeyIndex::new(fields, usize::MAX)));
                Fields::indexed(fields, std::rc::Rc::clone(index))
            }
            _ => Fields::of(Some(ty), lookups),
        }
    }

    /// Whether a map type of `root` (the schema these indexes serve), at any depth, has a NaN
    /// key (`.nan:`), which equals no key, not even its own.
    pub fn nan_keys(&mut self, root: &Type) -> bool {
        fn any_nan_key(ty: &Type) -> bool {
            match &ty.kind {
                Kind::Map(fields) => fields.iter().any(|f| {
                    is_nan(&f.key)
                        || matches!(f.ty.kind, Kind::Map(_) | Kind::Array(_)) && any_nan_key(&f.ty)
                }),
                Kind::Array(item) => any_nan_key(item),
                Kind::Scalar(_) | Kind::Any => false,
            }
        }
        *self.nan_keys.get_or_insert_with(|| any_nan_key(root))
    }
}

/// Whether `key` is a float NaN (`.nan`), which equals no key in ytt, not even itself.
pub(crate) fn is_nan(key: &Value) -> bool {
    matches!(key, Value::Float(f) if f.is_nan())
}

/// The fields of a map type, found by key (without scanning them all each time when there
/// are many, nor at all when a map's items come in the fields' order).
///
/// A map type's keys are distinct (a schema map cannot repeat a key), so the one field a key
/// matches is found wherever the search starts: it starts after the field found last.
pub struct Fields<'a> {
    fields: &'a [Field],
    index: FieldsIndex,
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
            index: FieldsIndex::Own(KeyIndex::new(fields, lookups)),
            next: Cell::new(0),
        }
    }

    /// The fields of a map type with their index, made once for many lookups (see
    /// [`FieldIndexes`]).
    pub fn indexed(fields: &'a [Field], index: std::rc::Rc<KeyIndex>) -> Fields<'a> {
        Fields {
            fields,
            index: FieldsIndex::Shared(index),
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

/// Whether two nodes hold the same data at the same positions, floats compared by their bits:
/// `-0.0` is not `0.0` (ytt writes `-0`), where `==` finds them equal (a map default of
/// `{"a": -0.0}` over an example `a: 0.0` was taken for the fields' own and written `0`).
fn same_data(a: &Node, b: &Node) -> bool {
    a.pos == b.pos
        && match (&a.value, &b.value) {
            (Value::Float(x), Value::Float(y)) => x.to_bits() == y.to_bits(),
            (Value::Map(x), Value::Map(y)) => {
                x.len() == y.len()
                    && x.iter()
                        .zip(y.iter())
                        .all(|(p, q)| p.key == q.key && same_data(&p.value, &q.value))
            }
            (Value::Array(x), Value::Array(y)) => {
                x.len() == y.len() && x.iter().zip(y.iter()).all(|(p, q)| same_data(p, q))
            }
            (x, y) => x == y,
        }
}
