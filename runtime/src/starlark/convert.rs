//! Conversions between Starlark values and template trees, and the `yamlfragment` value.

use std::fmt;
use std::sync::Arc;

use allocative::Allocative;
use starlark::values::dict::DictRef;
use starlark::values::float::StarlarkFloat;
use starlark::values::list::ListRef;
use starlark::values::tuple::TupleRef;
use starlark::values::{
    starlark_value, Heap, NoSerialize, ProvidesStaticType, StarlarkValue, UnpackValue, Value,
    ValueLike,
};
use starlark::{starlark_simple_value, StarlarkPagable};

use super::written_size::Writing;
use crate::template::tree::{Ann, Anns, Arg, ArgKind, Tree, TreeKind, TreeValue};
use crate::value::{Node, Pos, Value as YValue};

/// YAML built by a fragment function (`#@ def f():` with YAML in its body), as a Starlark value.
#[derive(Debug, ProvidesStaticType, NoSerialize, Allocative, StarlarkPagable)]
pub struct YamlFragment {
    #[allocative(skip)]
    #[starlark_pagable(skip)]
    pub value: Arc<TreeValue>,
    /// Where ytt's node of the root collection is: the document of the fragment function's
    /// `def` (`true`), or the item a collection indexed out of a fragment was held by; `None`
    /// for a fragment made otherwise, whose collection takes the node it is set on.
    #[allocative(skip)]
    #[starlark_pagable(skip)]
    pub root: Option<(Pos, bool)>,
    /// Whether the value is the documents of a fragment function whose body is whole YAML
    /// documents: ytt's document set, an array of documents to Starlark (indexed, iterated,
    /// counted) but a value no node holds (`this is a document set`), and written by
    /// `yaml.encode` as documents.
    #[allocative(skip)]
    #[starlark_pagable(skip)]
    pub document_set: bool,
}

starlark_simple_value!(YamlFragment);

impl YamlFragment {
    /// What a fragment function returns when it built no node (its nodes were all left out by
    /// `if`s or `for`s): ytt's fragment of no value (Go's `nil`), empty as a mapping and as a
    /// sequence, written as `null`.
    pub fn nil() -> YamlFragment {
        YamlFragment {
            value: Arc::new(TreeValue::Scalar(YValue::Null)),
            root: None,
            document_set: false,
        }
    }

    /// Whether `v` is a document set (see [`YamlFragment::document_set`]).
    pub fn is_document_set(v: Value) -> bool {
        Self::documents(v).is_some()
    }

    /// The documents of `v`, when it is a document set (an array of them).
    pub fn documents(v: Value<'_>) -> Option<&TreeValue> {
        let fragment = v.downcast_ref::<YamlFragment>()?;
        fragment.document_set.then(|| &*fragment.value)
    }

    /// The annotation that places the collection of the node this fragment is set on (see
    /// [`crate::template::VALUE_DOCUMENT_POS`]), if it has a place of its own.
    pub fn root_mark(&self) -> Option<Ann> {
        let (pos, document) = self.root?;
        let name = if document {
            crate::template::VALUE_DOCUMENT_POS
        } else {
            crate::template::VALUE_POS
        };
        matches!(&*self.value, TreeValue::Map(_) | TreeValue::Array(_)).then(|| Ann {
            name: name.into(),
            pos,
            args: Vec::new(),
            kwargs: Vec::new(),
        })
    }

    fn is_nil(&self) -> bool {
        matches!(&*self.value, TreeValue::Scalar(YValue::Null))
    }
}

/// The document of the fragment function's `def` that made `v`, a fragment of a map or an
/// array ([`YamlFragment::root`]).
fn fragment_document(v: Value) -> Option<Pos> {
    let fragment = v.downcast_ref::<YamlFragment>()?;
    let collection = matches!(&*fragment.value, TreeValue::Map(_) | TreeValue::Array(_));
    match fragment.root? {
        (pos, true) if collection => Some(pos),
        _ => None,
    }
}

/// The marks of a tree node made of the Starlark value `v`: a fragment's root place.
fn value_marks(v: Value) -> Anns {
    let mut anns = Anns::default();
    if let Some(mark) = v
        .downcast_ref::<YamlFragment>()
        .and_then(YamlFragment::root_mark)
    {
        anns.push(mark);
    }
    anns
}

/// ytt prints a fragment as its Go type (`str(v)` of a map is `yamlfragment(*yamlmeta.Map)`).
impl fmt::Display for YamlFragment {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match &*self.value {
            _ if self.document_set => f.write_str("yamlfragment(*yamlmeta.DocumentSet)"),
            TreeValue::Map(_) => f.write_str("yamlfragment(*yamlmeta.Map)"),
            TreeValue::Array(_) => f.write_str("yamlfragment(*yamlmeta.Array)"),
            TreeValue::Scalar(YValue::Null) => f.write_str("yamlfragment(<nil>)"),
            TreeValue::Scalar(_) => {
                f.write_str(&crate::yaml::emit::to_yaml(&self.value.to_value()))
            }
        }
    }
}

/// The error of `a[i]` on an array fragment when `i` is not an int, with the Go type ytt names.
fn array_index_error(index: Value) -> starlark::Error {
    // (A list or tuple is `[]interface {}`, a dict or struct `*orderedmap.Map`.)
    let go_type = super::text_modules::go_data_type(index);
    starlark::Error::new_other(anyhow::anyhow!(
        "yamlfragment.Get: Expected array index to be an int64, but was {go_type}"
    ))
}

/// The error of `d[i]` on a document set when `i` is not an int: ytt's format has its two
/// arguments the wrong way round, so the index comes first (Go's `%s` of it) and the type is
/// always `string` (that of the fragment's type name).
fn document_set_index_error(index: Value) -> starlark::Error {
    let shown = if let Some(s) = index.unpack_str() {
        s.to_string()
    } else if index.is_none() {
        "%!s(<nil>)".to_string()
    } else if let Some(b) = index.unpack_bool() {
        format!("%!s(bool={b})")
    } else {
        format!(
            "%!s({}={})",
            super::text_modules::go_data_type(index),
            super::go_repr(index)
        )
    };
    starlark::Error::new_other(anyhow::anyhow!(
        "{shown}.Get: Expected document set index to be an int64, but was string"
    ))
}

fn not_implemented() -> starlark::Error {
    starlark::Error::new_other(anyhow::anyhow!(
        "yamlfragment.CompareSameType: Not implemented"
    ))
}

#[starlark_value(type = "yamlfragment")]
impl<'v> StarlarkValue<'v> for YamlFragment {
    fn length(&self) -> starlark::Result<i32> {
        Ok(match &*self.value {
            TreeValue::Map(items) | TreeValue::Array(items) => items.len() as i32,
            TreeValue::Scalar(_) => 0,
        })
    }

    fn at(&self, index: Value<'v>, heap: Heap<'v>) -> starlark::Result<Value<'v>> {
        let found = match &*self.value {
            TreeValue::Map(items) => {
                let key = to_scalar_key(index);
                items.iter().find(|t| {
                    key.as_ref()
                        .is_some_and(|k| t.key().is_some_and(|tk| tk.key_eq(k)))
                })
            }
            // No negative indexes: `v[-1]` is `key -1 not in yamlfragment` in ytt.
            TreeValue::Array(items) => match i64::unpack_value(index).ok().flatten() {
                Some(i) => usize::try_from(i).ok().and_then(|i| items.get(i)),
                None if self.document_set => return Err(document_set_index_error(index)),
                None => return Err(array_index_error(index)),
            },
            TreeValue::Scalar(_) => None,
        };
        match found {
            Some(t) => Ok(item_to_starlark(t, heap)),
            None => Err(starlark::Error::new_other(anyhow::anyhow!(
                "key {} not in yamlfragment",
                super::go_repr(index)
            ))),
        }
    }

    /// ytt's fragments take no item assignment, of a map's key or an array's index.
    fn set_at(&self, _index: Value<'v>, _new_value: Value<'v>) -> starlark::Result<()> {
        Err(starlark::Error::new_other(anyhow::anyhow!(
            "yamlfragment.SetKey: Not implemented"
        )))
    }

    // No attributes: in ytt `v.name` of a map fragment is `yamlfragment has no .name field or
    // method`, and so are `.keys()`, `.items()`, `.get()`.

    /// Iterating a map gives its keys (as a dict does), an array its items.
    fn iterate_collect(&self, heap: Heap<'v>) -> starlark::Result<Vec<Value<'v>>> {
        match &*self.value {
            TreeValue::Scalar(YValue::Null) => Ok(Vec::new()),
            TreeValue::Map(items) => Ok(items
                .iter()
                .map(|t| match t.key() {
                    Some(k) => scalar_to_starlark(k, heap),
                    None => Value::new_none(),
                })
                .collect()),
            TreeValue::Array(items) => {
                Ok(items.iter().map(|t| item_to_starlark(t, heap)).collect())
            }
            TreeValue::Scalar(_) => Err(starlark::Error::new_other(anyhow::anyhow!(
                "Operation `(iter)` not supported on type `yamlfragment`"
            ))),
        }
    }

    /// Two fragments cannot be compared in ytt, not even with `==`.
    fn equals(&self, other: Value<'v>) -> starlark::Result<bool> {
        if other.downcast_ref::<YamlFragment>().is_some() {
            return Err(not_implemented());
        }
        Ok(false)
    }

    fn compare(&self, other: Value<'v>) -> starlark::Result<std::cmp::Ordering> {
        if other.downcast_ref::<YamlFragment>().is_some() {
            return Err(not_implemented());
        }
        Err(starlark::Error::new_other(anyhow::anyhow!(
            "Operation `compare` not supported for types `yamlfragment` and `{}`",
            other.get_type()
        )))
    }

    fn is_in(&self, other: Value<'v>) -> starlark::Result<bool> {
        Ok(match &*self.value {
            TreeValue::Map(items) => {
                let key = to_scalar_key(other);
                items.iter().any(|t| {
                    key.as_ref()
                        .is_some_and(|k| t.key().is_some_and(|tk| tk.key_eq(k)))
                })
            }
            // ytt looks an array fragment's indices up, not its items: `1 in v` is whether
            // `v` has an item at index 1 (`"a" in ["a"]` is false).
            TreeValue::Array(items) => other
                .unpack_i32()
                .is_some_and(|i| i >= 0 && (i as usize) < items.len()),
            TreeValue::Scalar(_) => false,
        })
    }

    fn to_bool(&self) -> bool {
        !self.is_nil()
            && !matches!(&*self.value, TreeValue::Map(i) | TreeValue::Array(i) if i.is_empty())
    }
}

/// The items of a map fragment or a struct (ytt's mappings) as a list of `(key, value)` pairs
/// (for `dict(v)`).
pub fn map_fragment_items<'v>(v: Value<'v>, heap: Heap<'v>) -> Option<Value<'v>> {
    if let Some(fields) = super::ytt_struct::fields(v) {
        let pairs: Vec<Value<'v>> = fields
            .into_iter()
            .map(|(k, x)| heap.alloc((super::ytt_struct::name_value(k, heap), x)))
            .collect();
        return Some(heap.alloc(pairs));
    }
    let frag = v.downcast_ref::<YamlFragment>()?;
    if frag.is_nil() {
        return Some(heap.alloc(Vec::<Value<'v>>::new()));
    }
    let TreeValue::Map(items) = &*frag.value else {
        return None;
    };
    let pairs: Vec<Value<'v>> = items
        .iter()
        .map(|t| {
            let k = match t.key() {
                Some(k) => scalar_to_starlark(k, heap),
                None => Value::new_none(),
            };
            heap.alloc((k, tree_value_to_starlark(&t.value, heap)))
        })
        .collect();
    Some(heap.alloc(pairs))
}

fn to_scalar_key(v: Value) -> Option<YValue> {
    if v.is_none() {
        return Some(YValue::Null);
    }
    if let Some(b) = v.unpack_bool() {
        return Some(YValue::Bool(b));
    }
    if let Ok(Some(i)) = i64::unpack_value(v) {
        return Some(YValue::Int(i));
    }
    // An int in [2^63, 2^64) is ytt's uint64; a larger one is not data.
    if let Ok(Some(u)) = u64::unpack_value(v) {
        return Some(YValue::UInt(u));
    }
    if let Some(f) = v.downcast_ref::<StarlarkFloat>() {
        return Some(YValue::Float(f.0));
    }
    if let Some(s) = v.unpack_str() {
        return Some(YValue::Str(s.into()));
    }
    let bytes = v.downcast_ref::<super::go_bytes::GoBytes>()?;
    Some(YValue::Bytes(bytes.bytes().into()))
}

/// Plain data → Starlark: scalars as themselves, collections as fragments.
pub fn tree_value_to_starlark<'v>(value: &TreeValue, heap: Heap<'v>) -> Value<'v> {
    match value {
        TreeValue::Scalar(v) => scalar_to_starlark(v, heap),
        other => heap.alloc(YamlFragment {
            value: Arc::new(other.clone()),
            root: None,
            document_set: false,
        }),
    }
}

/// The value of a fragment's item, a collection keeping the item's place (`frag()["items"]`).
fn item_to_starlark<'v>(item: &Tree, heap: Heap<'v>) -> Value<'v> {
    match &item.value {
        TreeValue::Scalar(v) => scalar_to_starlark(v, heap),
        other => heap.alloc(YamlFragment {
            value: Arc::new(other.clone()),
            root: Some((item.pos, false)),
            document_set: false,
        }),
    }
}

pub fn scalar_to_starlark<'v>(v: &YValue, heap: Heap<'v>) -> Value<'v> {
    match v {
        YValue::Null => Value::new_none(),
        YValue::Bool(b) => Value::new_bool(*b),
        YValue::Int(i) => heap.alloc(*i),
        YValue::UInt(u) => heap.alloc(*u),
        YValue::Float(f) => heap.alloc(*f),
        YValue::Str(s) => heap.alloc(s.as_str()),
        YValue::Bytes(b) => super::go_bytes::string_value(b.to_vec(), heap),
        YValue::Map(_) | YValue::Array(_) => heap.alloc(YamlFragment {
            value: Arc::new(TreeValue::from_node(&Node::new(v.clone(), Pos::unknown()))),
            root: None,
            document_set: false,
        }),
    }
}

/// Why a Starlark value cannot become YAML.
pub enum NotData {
    /// It holds a value of this type (a function, ...), which has no YAML form.
    Type(String),
    /// Its collections are nested deeper than the depth budget (or one is inside itself).
    TooDeep,
    /// Copied into a tree, it would take the heap past its budget: a list holding a list ten
    /// times, nine times over, is a billion nodes (ytt runs out of memory making them).
    TooBig,
    /// It is or holds a document set, which no YAML node holds.
    DocumentSet,
}

impl NotData {
    /// The type with no YAML form the value holds, if that is why.
    pub fn type_name(&self) -> Option<&str> {
        match self {
            NotData::Type(name) => Some(name),
            NotData::TooDeep | NotData::TooBig | NotData::DocumentSet => None,
        }
    }

    /// `for_type(type name)` for a value with no YAML form; the depth budget's error for a
    /// value nested too deep.
    pub fn message(&self, for_type: impl FnOnce(&str) -> String) -> String {
        match self {
            NotData::Type(name) => for_type(name),
            NotData::TooDeep => super::nested_too_deep().to_string(),
            NotData::TooBig => {
                super::statement_hook::heap_exceeded_message("would allocate").to_string()
            }
            NotData::DocumentSet => DOCUMENT_SET_HELD.to_string(),
        }
    }
}

/// Why a document set cannot be data: ytt panics converting it (not caught where it writes a
/// template's output).
const DOCUMENT_SET_HELD: &str = "a document set is no value of YAML data (ytt fails with a Go panic here: Unexpected *yamlmeta.DocumentSet value within *yamlmeta.Document)";

/// Whether `tv`, the tree value made of `v`, is a collection Starlark gave as a dict, struct,
/// list, tuple or set rather than as a YAML fragment (which ytt keeps as its YAML nodes).
pub fn is_starlark_collection(v: Value, tv: &TreeValue) -> bool {
    matches!(tv, TreeValue::Map(_) | TreeValue::Array(_))
        && v.downcast_ref::<YamlFragment>().is_none()
}

/// Starlark → YAML tree value; nodes created here get position `pos`.
/// Sets become arrays, as in ytt (the interpreter iterates them on `heap`).
/// A collection is sized first, each reference counted again as the copy makes it, and one
/// that would take the heap past its budget is [`NotData::TooBig`] before anything is made.
pub fn to_tree_value<'v>(v: Value<'v>, pos: &Pos, heap: Heap<'v>) -> Result<TreeValue, NotData> {
    let collection = to_scalar_key(v).is_none() && v.downcast_ref::<YamlFragment>().is_none();
    if collection && super::budget::reserve_written(v, Writing::Tree, heap).is_err() {
        return Err(NotData::TooBig);
    }
    tree_value_within(v, pos, heap, crate::yaml::parse::budget::max_value_depth())
}

/// [`to_tree_value`], a document set being its documents (for what takes one: `overlay.apply`,
/// `template.replace`).
pub fn to_tree_value_keeping_documents<'v>(
    v: Value<'v>,
    pos: &Pos,
    heap: Heap<'v>,
) -> Result<TreeValue, NotData> {
    match YamlFragment::documents(v) {
        Some(documents) => Ok(documents.clone()),
        None => to_tree_value(v, pos, heap),
    }
}

/// [`to_tree_value`] with at most `depth` levels of collections left.
fn tree_value_within<'v>(
    v: Value<'v>,
    pos: &Pos,
    heap: Heap<'v>,
    depth: usize,
) -> Result<TreeValue, NotData> {
    if let Some(s) = to_scalar_key(v) {
        return Ok(TreeValue::Scalar(s));
    }
    if let Some(frag) = v.downcast_ref::<YamlFragment>() {
        if frag.document_set {
            return Err(NotData::DocumentSet);
        }
        return Ok((*frag.value).clone());
    }
    // (An item whose value is a fragment's collection keeps the fragment's place.)
    let item = |x: Value<'v>, value: TreeValue| Tree {
        kind: TreeKind::ArrayItem,
        pos: *pos,
        anns: value_marks(x),
        value,
    };
    let Some(depth) = depth.checked_sub(1) else {
        return Err(NotData::TooDeep);
    };
    let to_tree_value =
        |x: Value<'v>, pos: &Pos, heap: Heap<'v>| tree_value_within(x, pos, heap, depth);
    if let Some(list) = ListRef::from_value(v) {
        return list
            .iter()
            .map(|x| to_tree_value(x, pos, heap).map(|value| item(x, value)))
            .collect::<Result<_, _>>()
            .map(TreeValue::Array);
    }
    if let Some(tuple) = TupleRef::from_value(v) {
        return tuple
            .iter()
            .map(|x| to_tree_value(x, pos, heap).map(|value| item(x, value)))
            .collect::<Result<_, _>>()
            .map(TreeValue::Array);
    }
    if v.get_type() == "set" {
        let items = v
            .iterate(heap)
            .map_err(|_| NotData::Type("set".to_string()))?;
        return items
            .map(|x| to_tree_value(x, pos, heap).map(|value| item(x, value)))
            .collect::<Result<_, _>>()
            .map(TreeValue::Array);
    }
    let entry = |k: Value<'v>, x: Value<'v>| -> Result<Tree, NotData> {
        let key = to_scalar_key(k).ok_or_else(|| NotData::Type(k.get_type().to_string()))?;
        Ok(Tree {
            kind: TreeKind::MapItem(key.into()),
            pos: *pos,
            anns: value_marks(x),
            value: to_tree_value(x, pos, heap)?,
        })
    };
    if let Some(dict) = DictRef::from_value(v) {
        return dict
            .iter()
            .map(|(k, x)| entry(k, x))
            .collect::<Result<_, _>>()
            .map(TreeValue::Map);
    }
    if let Some(st) = super::ytt_struct::fields(v) {
        return st
            .into_iter()
            .map(|(k, x)| entry(super::ytt_struct::name_value(k, heap), x))
            .collect::<Result<_, _>>()
            .map(TreeValue::Map);
    }
    Err(NotData::Type(v.get_type().to_string()))
}

/// `v` as `yaml.encode` writes it. An empty list or dict is a document of its own (`[]`),
/// but an empty YAML fragment writes nothing, as in ytt.
pub fn encode_yaml<'v>(v: Value<'v>, heap: Heap<'v>) -> Result<String, NotData> {
    // A document set is its documents, each written after `---` but the first, those ytt
    // calls empty (no value, an empty map or array) left out.
    if let Some(TreeValue::Array(documents)) = YamlFragment::documents(v) {
        let written: Vec<String> = documents
            .iter()
            .filter(|d| match &d.value {
                TreeValue::Scalar(YValue::Null) => false,
                TreeValue::Map(items) | TreeValue::Array(items) => !items.is_empty(),
                TreeValue::Scalar(_) => true,
            })
            .map(|d| crate::yaml::emit::to_yaml(&d.value.to_value()))
            .collect();
        return Ok(written.join("---\n"));
    }
    let data = to_tree_value(v, &Pos::unknown(), heap)?.to_value();
    Ok(if v.downcast_ref::<YamlFragment>().is_some() {
        crate::yaml::emit::to_yaml(&data)
    } else {
        crate::yaml::emit::encode(&data)
    })
}

/// Whether `v` can be called: a function or a builtin.
pub fn is_function(v: Value) -> bool {
    matches!(v.get_type(), "function" | "builtin_function_or_method")
}

/// Converts an annotation argument. Values that are not data are kept through `keep`, which
/// returns a handle that is filled in once the module is frozen.
pub fn to_arg<'v>(
    v: Value<'v>,
    pos: &Pos,
    heap: Heap<'v>,
    keep: &mut dyn FnMut(Value<'v>) -> usize,
) -> anyhow::Result<Arg> {
    to_arg_within(v, pos, heap, keep, false)
}

/// Whether the list or dict `v` holds, at any depth, a value its data writes otherwise than
/// starlark-go: a tuple (a list to data), a struct (a map) or a YAML fragment.
fn holds_other_text(v: Value) -> bool {
    let collection =
        |v: Value| ListRef::from_value(v).is_some() || DictRef::from_value(v).is_some();
    if !collection(v) {
        return false;
    }
    let mut pending = vec![v];
    while let Some(v) = pending.pop() {
        if let Some(list) = ListRef::from_value(v) {
            pending.extend(list.iter());
        } else if let Some(dict) = DictRef::from_value(v) {
            pending.extend(dict.iter().flat_map(|(k, x)| [k, x]));
        } else if TupleRef::from_value(v).is_some()
            || v.downcast_ref::<YamlFragment>().is_some()
            || super::ytt_struct::fields(v).is_some()
        {
            return true;
        }
    }
    false
}

/// [`to_arg`]; `sized` once the matcher `v` is part of has been sized (see
/// [`super::overlay_matcher::too_many_matchers`]).
fn to_arg_within<'v>(
    v: Value<'v>,
    pos: &Pos,
    heap: Heap<'v>,
    keep: &mut dyn FnMut(Value<'v>) -> usize,
    sized: bool,
) -> anyhow::Result<Arg> {
    let type_name = v.get_type().to_string();
    if let Some(tuple) = TupleRef::from_value(v) {
        let items = tuple
            .iter()
            .map(|x| to_arg_within(x, pos, heap, keep, sized))
            .collect::<anyhow::Result<_>>()?;
        return Ok(Arg {
            type_name,
            kind: ArgKind::Tuple(items),
            go_text: None,
        });
    }
    if let Some(a) = v.downcast_ref::<super::assertion::Assertion>() {
        let kind = match &a.rule.arg {
            Ok(arg) => ArgKind::Assertion(a.rule.rule, Node::new(arg.clone(), *pos)),
            Err(_) => ArgKind::Checker(keep(v)),
        };
        return Ok(Arg {
            type_name,
            kind,
            go_text: None,
        });
    }
    // ytt takes any struct with a `check` function for an assertion object.
    let checker = super::ytt_struct::fields(v)
        .is_some_and(|st| st.iter().any(|(k, x)| *k == b"check" && is_function(*x)));
    if checker {
        return Ok(Arg {
            type_name,
            kind: ArgKind::Checker(keep(v)),
            go_text: None,
        });
    }
    match to_tree_value(v, pos, heap) {
        Ok(tv) => Ok(Arg {
            go_text: holds_other_text(v)
                .then(|| super::go_repr::try_go_repr(v))
                .transpose()?
                .map(Box::from),
            type_name,
            // A fragment function's map or array is at the document of its `def`, where ytt
            // quotes it (`@schema/default is wrong type`); other data at the annotation.
            kind: ArgKind::Data(Node::new(
                tv.to_value(),
                fragment_document(v).unwrap_or(*pos),
            )),
        }),
        Err(NotData::TooBig) => Err(anyhow::anyhow!(NotData::TooBig.message(|t| t.into()))),
        Err(_) if ListRef::from_value(v).is_some() => {
            let items = ListRef::from_value(v)
                .into_iter()
                .flat_map(|l| l.iter())
                .map(|x| to_arg_within(x, pos, heap, keep, sized))
                .collect::<anyhow::Result<_>>()?;
            Ok(Arg {
                type_name,
                kind: ArgKind::List(items),
                go_text: None,
            })
        }
        Err(_) => Ok(match super::overlay_matcher::parts(v) {
            // A matcher (`overlay.subset({...})`, `overlay.or_op(lambda i, l, r: ...)`).
            // Its argument is data where it can be (`overlay.subset(())` compares with `[]`).
            Some((op, arg)) => {
                if !sized {
                    super::overlay_matcher::too_many_matchers(v)?;
                }
                let arg = match to_tree_value(arg, pos, heap) {
                    Ok(tv) => Arg {
                        type_name: arg.get_type().to_string(),
                        kind: ArgKind::Data(Node::new(tv.to_value(), *pos)),
                        go_text: None,
                    },
                    Err(_) => to_arg_within(arg, pos, heap, keep, true)?,
                };
                Arg {
                    type_name,
                    kind: ArgKind::Matcher {
                        op,
                        arg: Box::new(arg),
                    },
                    go_text: None,
                }
            }
            None => Arg {
                type_name,
                kind: ArgKind::Opaque {
                    index: keep(v),
                    shown: Some(super::go_repr::go_repr(v).into()),
                },
                go_text: None,
            },
        }),
    }
}
