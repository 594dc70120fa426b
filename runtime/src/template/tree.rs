//! The output of templating: documents, map items and array items with their annotations.

use std::convert::Infallible;

use crate::value::{FileName, Key, Keyed, MapEntry, Node, Pos, Value};
pub use crate::yaml::parse::RawKind as TreeKind;

/// An evaluated template node: a document, map item or array item.
#[derive(Clone, Debug)]
pub struct Tree {
    pub kind: TreeKind,
    pub pos: Pos,
    pub anns: Anns,
    pub value: TreeValue,
}

/// A node's annotations: one pointer when there are none, as for almost every node of a data
/// values file (a `Vec` would be three).
/// The `Box` is the point: a thin pointer, allocated only for the few annotated nodes.
#[allow(clippy::box_collection)]
#[derive(Clone, Debug, Default)]
pub struct Anns(Option<Box<Vec<Ann>>>);

impl Anns {
    pub fn push(&mut self, ann: Ann) {
        self.0.get_or_insert_with(Box::default).push(ann);
    }

    pub fn retain(&mut self, keep: impl FnMut(&Ann) -> bool) {
        if let Some(anns) = &mut self.0 {
            anns.retain(keep);
        }
    }
}

impl std::ops::Deref for Anns {
    type Target = [Ann];
    #[inline]
    fn deref(&self) -> &[Ann] {
        self.0.as_deref().map_or(&[], Vec::as_slice)
    }
}

impl From<Vec<Ann>> for Anns {
    fn from(anns: Vec<Ann>) -> Anns {
        Anns((!anns.is_empty()).then(|| Box::new(anns)))
    }
}

impl<'a> IntoIterator for &'a Anns {
    type Item = &'a Ann;
    type IntoIter = std::slice::Iter<'a, Ann>;
    fn into_iter(self) -> Self::IntoIter {
        self.iter()
    }
}

#[derive(Clone, Debug)]
pub enum TreeValue {
    Scalar(Value),
    Map(Vec<Tree>),
    Array(Vec<Tree>),
}

/// What an overlay function (`by=`, `via=`) returned, as a tree value.
#[derive(Clone, Debug, Default)]
pub struct Returned {
    pub value: TreeValue,
    /// Starlark gave it as a dict, struct, list or tuple, not as YAML (see
    /// [`crate::template::GO_VALUE`]).
    pub starlark_collection: bool,
}

/// An annotation such as `#@schema/validation min=1` with its evaluated arguments.
#[derive(Clone, Debug)]
pub struct Ann {
    pub name: String,
    pub pos: Pos,
    pub args: Vec<Arg>,
    pub kwargs: Vec<(String, Arg)>,
}

/// An evaluated annotation argument.
#[derive(Clone, Debug)]
pub struct Arg {
    /// The Starlark type name (`string`, `int`, `function`, `tuple`...).
    pub type_name: String,
    pub kind: ArgKind,
    /// How starlark-go writes a list or dict holding a tuple, a struct or a YAML fragment
    /// (`[(1, 2), struct(...)]`), which its data writes otherwise (`[[1, 2], {...}]`).
    pub go_text: Option<Box<str>>,
}

#[derive(Clone, Debug)]
pub enum ArgKind {
    /// Plain data: None, bools, numbers, strings, lists, dicts and YAML fragments.
    Data(Node),
    Tuple(Vec<Arg>),
    /// A list holding values that are not data (`[0, lambda n: n > 1]`): its items.
    List(Vec<Arg>),
    /// An assertion object (`assert.min(3)`) whose argument is data: its rule and argument.
    Assertion(crate::rules::RuleName, Node),
    /// An assertion object only Starlark can check: a struct with a `check` function (ytt
    /// takes any), or an assertion object whose argument is not data. Its index as
    /// [`ArgKind::Opaque`]'s; it is called as its `check`.
    Checker(usize),
    /// A value only Starlark can use (a function, an assertion object): its index in the run's
    /// [`super::functions::Functions`], and how starlark-go writes it (`<function f>`,
    /// `<built-in function len>`, `<module "json">`), which ytt's messages quote.
    Opaque {
        index: usize,
        shown: Option<Box<str>>,
    },
    /// An `@ytt:overlay` matcher (`overlay.all`, `subset(...)`, `or_op(...)` ...): its name and
    /// its argument, data where it is data (`subset`'s value, `map_key`'s key), otherwise the
    /// matchers given to `or_op`, `and_op` or `not_op`.
    Matcher {
        op: String,
        arg: Box<Arg>,
    },
}

impl Tree {
    /// A parsed YAML node as a tree without annotations (comments are dropped). Positions
    /// name `file`, or are unknown without one.
    /// (The reader's node is taken apart as it is converted, so that a large file is not held
    /// twice: its raw nodes and the tree made of them.)
    pub fn from_raw(node: crate::yaml::parse::RawNode, file: Option<FileName>) -> Tree {
        use crate::yaml::parse::RawValue;
        let (kind, line, value) = node.into_parts();
        let items = |items: crate::yaml::parse::RawItems| -> Vec<Tree> {
            let items = items.into_vec().into_iter();
            items.map(|i| Tree::from_raw(i, file)).collect()
        };
        let value = match value {
            RawValue::Scalar(v) => TreeValue::Scalar(v),
            RawValue::Map(map) => TreeValue::Map(items(map)),
            RawValue::Array(array) => TreeValue::Array(items(array)),
        };
        let pos = file.map_or_else(Pos::unknown, |f| Pos::new(f, line));
        Tree {
            kind,
            pos,
            anns: Anns::default(),
            value,
        }
    }

    /// A document holding plain data (no annotations).
    pub fn document(node: &Node) -> Tree {
        Tree::document_of(TreeValue::from_node(node), node.pos)
    }

    /// A document holding `value` (no annotations of its own), at `pos`.
    pub fn document_of(value: TreeValue, pos: Pos) -> Tree {
        Tree {
            kind: TreeKind::Document,
            pos,
            anns: Anns::default(),
            value,
        }
    }

    #[inline]
    pub fn ann(&self, name: &str) -> Option<&Ann> {
        Ann::find(&self.anns, name)
    }

    pub fn key(&self) -> Option<&Value> {
        match &self.kind {
            TreeKind::MapItem(k) => Some(k),
            _ => None,
        }
    }

    /// The key of a map entry made of this node: its key shared (null for a node that is not
    /// a map item).
    pub fn entry_key(&self) -> Key {
        match &self.kind {
            TreeKind::MapItem(k) => k.clone(),
            _ => Key::default(),
        }
    }

    /// Drops annotations: the plain data value of this node.
    pub fn to_node(&self) -> Node {
        Node {
            value: self.value.to_value(),
            pos: self.pos,
        }
    }

    /// The tree as plain data, moved out: what stays is the tree's shape and annotations (its
    /// scalars and keys become null), all that validation still reads of it.
    /// Drops annotations, consuming the tree: its plain data, made as the tree is freed (so
    /// that the two are never whole in memory at once).
    pub fn into_node(self) -> Node {
        Node {
            value: self.value.into_value(),
            pos: self.pos,
        }
    }

    /// Whether this node or any node under it carries annotation `name`.
    pub fn has_ann_under(&self, name: &str) -> bool {
        self.ann(name).is_some()
            || match &self.value {
                TreeValue::Map(items) | TreeValue::Array(items) => {
                    items.iter().any(|t| t.has_ann_under(name))
                }
                TreeValue::Scalar(_) => false,
            }
    }

    pub fn take_node(&mut self) -> Node {
        Node {
            value: self.value.take_value(),
            pos: self.pos,
        }
    }
}

impl Keyed for Tree {
    fn map_key(&self) -> Option<&Value> {
        self.key()
    }
}

impl Ann {
    /// The last annotation named `name` (the one that counts when a node repeats it).
    #[inline]
    pub fn find<'a>(anns: &'a [Ann], name: &str) -> Option<&'a Ann> {
        anns.iter().rev().find(|a| a.name == name)
    }

    /// The annotations that count, in file order: ytt keeps one annotation of each name on a
    /// node, the last, so an earlier one of a repeated name is left out. (Each name's last
    /// place found once: a node may carry 100,000 annotations of other names, where comparing
    /// each with every later one took 28 s.)
    pub fn counted(anns: &[Ann]) -> impl Iterator<Item = &Ann> {
        let last: std::collections::HashMap<&str, usize, crate::value::FxBuild> = match anns.len() {
            0 | 1 => Default::default(),
            _ => anns
                .iter()
                .enumerate()
                .map(|(i, a)| (a.name.as_str(), i))
                .collect(),
        };
        anns.iter()
            .enumerate()
            .filter(move |(i, a)| last.get(a.name.as_str()).is_none_or(|at| at == i))
            .map(|(_, a)| a)
    }
}

impl TreeValue {
    /// The type name ytt uses in messages (`Expected map, but was integer`).
    pub fn type_name(&self) -> &'static str {
        match self {
            TreeValue::Scalar(v) => v.type_name(),
            TreeValue::Map(_) => "map",
            _ if self.is_document_set() => "document set",
            TreeValue::Array(_) => "array",
        }
    }

    /// Whether this is a document set (a fragment function's whole documents, taken by
    /// `overlay.apply` and `template.replace`): an array of documents.
    pub fn is_document_set(&self) -> bool {
        matches!(self, TreeValue::Array(items) if items.iter().any(|i| matches!(i.kind, TreeKind::Document)))
    }

    pub fn to_value(&self) -> Value {
        match self {
            TreeValue::Scalar(v) => v.clone(),
            TreeValue::Map(items) => Value::Map(
                items
                    .iter()
                    .map(|t| MapEntry {
                        key: t.entry_key(),
                        value: t.to_node(),
                    })
                    .collect(),
            ),
            TreeValue::Array(items) => Value::Array(items.iter().map(Tree::to_node).collect()),
        }
    }

    /// See [`Tree::into_node`].
    pub fn into_value(self) -> Value {
        match self {
            TreeValue::Scalar(v) => v,
            TreeValue::Map(items) => Value::Map(
                items
                    .into_iter()
                    .map(|t| MapEntry {
                        key: match t.kind {
                            TreeKind::MapItem(k) => k,
                            _ => Key::default(),
                        },
                        value: Node {
                            value: t.value.into_value(),
                            pos: t.pos,
                        },
                    })
                    .collect(),
            ),
            TreeValue::Array(items) => {
                Value::Array(items.into_iter().map(Tree::into_node).collect())
            }
        }
    }

    /// See [`Tree::take_node`].
    pub fn take_value(&mut self) -> Value {
        match self {
            TreeValue::Scalar(v) => std::mem::take(v),
            TreeValue::Map(items) => Value::Map(
                items
                    .iter_mut()
                    .map(|t| {
                        let key = match &mut t.kind {
                            TreeKind::MapItem(k) => std::mem::take(k),
                            _ => Key::default(),
                        };
                        MapEntry {
                            key,
                            value: t.take_node(),
                        }
                    })
                    .collect(),
            ),
            TreeValue::Array(items) => {
                Value::Array(items.iter_mut().map(Tree::take_node).collect())
            }
        }
    }

    /// Rebuilds a tree value from plain data (annotations are lost).
    pub fn from_node(node: &Node) -> TreeValue {
        match TreeValue::from_node_checking(node, &mut |_| Ok::<(), Infallible>(())) {
            Ok(value) => value,
            Err(never) => match never {},
        }
    }

    /// [`TreeValue::from_node`], giving each map's entries to `check` before the values under
    /// them (maps in document order); the first error `check` gives ends the walk.
    pub fn from_node_checking<'a, E>(
        node: &'a Node,
        check: &mut impl FnMut(&'a [MapEntry]) -> Result<(), E>,
    ) -> Result<TreeValue, E> {
        Ok(match &node.value {
            Value::Map(entries) => {
                check(entries)?;
                let mut items = Vec::with_capacity(entries.len());
                for e in entries.iter() {
                    items.push(Tree {
                        kind: TreeKind::MapItem(e.key.clone()),
                        pos: e.value.pos,
                        anns: Anns::default(),
                        value: TreeValue::from_node_checking(&e.value, check)?,
                    });
                }
                TreeValue::Map(items)
            }
            Value::Array(nodes) => {
                let mut items = Vec::with_capacity(nodes.len());
                for n in nodes.iter() {
                    items.push(Tree {
                        kind: TreeKind::ArrayItem,
                        pos: n.pos,
                        anns: Anns::default(),
                        value: TreeValue::from_node_checking(n, check)?,
                    });
                }
                TreeValue::Array(items)
            }
            v => TreeValue::Scalar(v.clone()),
        })
    }
}

impl Arg {
    pub fn data(&self) -> Option<&Node> {
        match &self.kind {
            ArgKind::Data(n) => Some(n),
            _ => None,
        }
    }

    /// The argument as data, as ytt converts it: a tuple of data is a list (at `pos` when it
    /// has no items), anything else that is not data is `None`.
    pub fn to_data(&self, pos: crate::value::Pos) -> Option<std::borrow::Cow<'_, Node>> {
        use std::borrow::Cow;
        match &self.kind {
            ArgKind::Data(n) => Some(Cow::Borrowed(n)),
            ArgKind::Tuple(items) => {
                let items: Option<crate::value::Items> = items
                    .iter()
                    .map(|i| i.to_data(pos).map(Cow::into_owned))
                    .collect();
                let pos = items
                    .as_ref()
                    .and_then(|i| i.first())
                    .map_or(pos, |n| n.pos);
                Some(Cow::Owned(Node::new(
                    crate::value::Value::Array(items?),
                    pos,
                )))
            }
            _ => None,
        }
    }
}

impl Default for TreeValue {
    fn default() -> TreeValue {
        TreeValue::Scalar(Value::Null)
    }
}
