//! How long a Starlark value is once written out: the size `json.encode`, `yaml.encode`, `%`
//! formatting and `.format` are about to make, known before they make it.
//!
//! A value may be small on the heap and huge written out: `[s] * 1000` holds one string a
//! thousand times (8 KB of list), and writing it writes `s` a thousand times. The walk here
//! counts every reference again, as writing does, and stops as soon as the count passes a
//! limit (the heap budget left), so that it costs no more than what it refuses: each node it
//! visits adds at least a byte, and a value that holds itself ends at the limit too.

use starlark::values::dict::DictRef;
use starlark::values::list::ListRef;
use starlark::values::tuple::TupleRef;
use starlark::values::{Value, ValueLike};

use super::convert::YamlFragment;
use crate::template::tree::{Tree, TreeValue};

/// What each node costs besides its text.
#[derive(Clone, Copy)]
pub(super) enum Writing {
    /// Text made directly (`%`, `.format`): a separator or bracket per node.
    Text,
    /// A YAML tree made of the value (data values): [`TREE_NODE_BYTES`] per node.
    Tree,
    /// Text made through a YAML tree (`json.encode`, `yaml.encode`, `toml.encode` copy the value
    /// into a [`Tree`] first): [`TREE_NODE_BYTES`] per node, and each string's text
    /// [`ENCODED_TEXT_COPIES`] times.
    Encoded,
}

/// The copies of a string's text that encoding a value holds at the peak: the tree's, the
/// plain data's, the text written and the Starlark string made of it (measured: `json.encode`
/// of twelve references to a 100 MB string peaked at 4.8 GB, counted as 1.2 GB).
const ENCODED_TEXT_COPIES: u128 = 4;

/// What a node written through a YAML tree holds at the peak: its [`Tree`] node, the plain
/// data made of the tree and their vectors. Measured: `json.encode` of a list shared 19 levels
/// deep (1.5 million nodes) peaked at 365 MB, about 240 bytes a node; counted as the tree node
/// alone (its size), 2^23 levels passed the budget's walk and took 5.6 GB (an abort).
const TREE_NODE_BYTES: u128 = 256;

impl Writing {
    fn per_node(self) -> u128 {
        match self {
            Writing::Text => 2,
            Writing::Tree | Writing::Encoded => {
                TREE_NODE_BYTES.max(std::mem::size_of::<Tree>() as u128)
            }
        }
    }

    fn text_copies(self) -> u128 {
        match self {
            Writing::Text | Writing::Tree => 1,
            Writing::Encoded => ENCODED_TEXT_COPIES,
        }
    }
}

/// At least the bytes of `v` written out (strings' bytes and quotes, scalars' text, each
/// node's cost), or some count past `limit` as soon as the count passes it. Collections
/// below the depth budget are not visited: no writing goes there (a list inside itself is
/// written `[...]` by `str`, and refused beyond the budget by the conversions to YAML).
pub(super) fn written_bytes(v: Value, writing: Writing, limit: u128) -> u128 {
    let per_node = writing.per_node();
    let copies = writing.text_copies();
    let max_depth = crate::yaml::parse::budget::max_value_depth();
    let mut total = 0u128;
    let mut pending = vec![(v, 0usize)];
    while let Some((v, depth)) = pending.pop() {
        if total > limit {
            break;
        }
        total += per_node;
        if let Some(s) = v.unpack_str() {
            total += (s.len() as u128 + 2) * copies;
            continue;
        }
        if let Some(fragment) = v.downcast_ref::<YamlFragment>() {
            let left = limit.saturating_sub(total);
            total += tree_bytes(&fragment.value, per_node, copies, left);
            continue;
        }
        // Items are counted (their node cost) before they are queued: a list of 10^8 items
        // past the limit is refused without queueing them.
        let items: Vec<Value> = if let Some(list) = ListRef::from_value(v) {
            charge(&mut total, list.len(), per_node, limit, || {
                list.iter().collect()
            })
        } else if let Some(tuple) = TupleRef::from_value(v) {
            charge(&mut total, tuple.len(), per_node, limit, || {
                tuple.iter().collect()
            })
        } else if let Some(dict) = DictRef::from_value(v) {
            charge(&mut total, dict.len() * 2, per_node, limit, || {
                dict.iter().flat_map(|(k, x)| [k, x]).collect()
            })
        } else if let Some(st) = super::ytt_struct::fields(v) {
            // A field name is a string, counted here as if visited.
            total += st
                .iter()
                .map(|(k, _)| per_node + k.len() as u128 + 2)
                .sum::<u128>();
            charge(&mut total, st.len(), per_node, limit, || {
                st.iter().map(|(_, x)| *x).collect()
            })
        } else {
            // A scalar (a big int's digits included) or a function: its text is small next to
            // the value that holds it, or the value is no data and writing it fails.
            total += v.to_repr().len() as u128;
            continue;
        };
        if depth < max_depth {
            pending.extend(items.into_iter().map(|item| (item, depth + 1)));
        }
    }
    total
}

/// The items to visit (each counts its own cost when visited), or none when their `n` nodes'
/// cost alone takes `total` past `limit` (then counted at once).
fn charge<'v>(
    total: &mut u128,
    n: usize,
    per_node: u128,
    limit: u128,
    items: impl FnOnce() -> Vec<Value<'v>>,
) -> Vec<Value<'v>> {
    let with_items = *total + per_node * n as u128;
    if with_items > limit {
        *total = with_items;
        return Vec::new();
    }
    items()
}

/// The bytes of a YAML fragment written out (its tree is not shared: it is walked once).
fn tree_bytes(value: &TreeValue, per_node: u128, copies: u128, limit: u128) -> u128 {
    let mut total = 0u128;
    let mut pending = vec![value];
    while let Some(value) = pending.pop() {
        if total > limit {
            break;
        }
        match value {
            TreeValue::Scalar(v) => total += scalar_bytes(v) * copies,
            TreeValue::Map(items) | TreeValue::Array(items) => {
                for item in items {
                    total += per_node + item.key().map_or(0, scalar_bytes) * copies;
                    pending.push(&item.value);
                }
            }
        }
    }
    total
}

fn scalar_bytes(v: &crate::value::Value) -> u128 {
    match v {
        crate::value::Value::Str(s) => s.len() as u128 + 2,
        _ => 24,
    }
}
