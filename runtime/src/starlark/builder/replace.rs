//! `template.replace`: a node's place in its parent taken by other nodes, at the call.

use starlark::values::{Value, ValueLike};

use super::super::convert::{to_tree_value_keeping_documents, YamlFragment};
use super::{BuildState, Ctx, Frame, FrameValue};
use crate::template::compile::RawShape;
use crate::template::tree::{TreeKind, TreeValue};
use crate::value::{Pos, Value as YValue};
use crate::yaml::parse::RawKind;

impl BuildState {
    /// `template.replace(inner_v)` called while the node of the top frame is built: the node's
    /// place in its parent is `inner_v`'s items, at once, as ytt does (the call's own answer is
    /// a [`super::modules::ReplacedNode`], which `set` ignores).
    pub(in crate::starlark) fn replace<'v>(
        &self,
        inner_v: Value<'v>,
        heap: starlark::values::Heap<'v>,
    ) -> anyhow::Result<()> {
        let mut inner = self.inner.borrow_mut();
        // A function that builds no nodes (its context empty) replaces its caller's node; one
        // that builds nodes, before its first, its own (no node yet: ytt's `null`).
        let ctxs = &mut inner.ctxs;
        let at = ctxs
            .iter()
            .rposition(|c| !c.stack.is_empty() || c.builds_nodes || c.text);
        // A text template's context (a function that builds no nodes called from one too).
        if at.is_some_and(|at| ctxs[at].text) {
            anyhow::bail!("template.replace: unsupported operation");
        }
        if at.is_some_and(|at| ctxs[at].stack.is_empty() && at > 0) {
            anyhow::bail!(
                "template.replace: expected to replace document value, map item or array item, but found null"
            );
        }
        let Ctx { stack, table, .. } = match at {
            Some(at) => &mut ctxs[at],
            None => ctxs.last_mut().expect("the file context is never popped"),
        };
        let t = self.table(table);
        let Some(frame) = stack.last_mut() else {
            // Code before the file's first document: ytt's node is the document set.
            let tv =
                to_tree_value_keeping_documents(inner_v, &Pos::unknown(), heap).map_err(|e| {
                    anyhow::anyhow!(
                        e.message(|t| format!("Expected value to be a YAML value, but was {t}"))
                    )
                })?;
            let found = replaced_by(&tv, inner_v.downcast_ref::<YamlFragment>().is_some());
            if found != "document set" {
                anyhow::bail!(
                    "template.replace: expected value to be document set, but was {found}"
                );
            }
            anyhow::bail!(
                "template.replace: schemac cannot replace the file's document set (ytt does)"
            );
        };
        let node = &t.nodes[frame.id];
        match (&frame.value, &node.kind) {
            // Code inside a map or an array: ytt's node is that map or array.
            (FrameValue::Children(_), _) => {
                let found = match node.value {
                    RawShape::Array => "array",
                    _ => "map",
                };
                anyhow::bail!(
                    "template.replace: expected to replace document value, map item or array item, but found {found}"
                );
            }
            // Replaced already: the node is out of its map.
            (FrameValue::Replace(_), RawKind::MapItem(_)) => {
                anyhow::bail!("template.replace: expected to find placeholder map item in map")
            }
            (FrameValue::Replace(_), RawKind::ArrayItem) => {
                anyhow::bail!("template.replace: expected to find placeholder array item in array")
            }
            (FrameValue::Replace(_), RawKind::Document) => anyhow::bail!(
                "template.replace: schemac cannot replace a document twice (ytt's is out of its set)"
            ),
            _ => {}
        }
        let tv =
            to_tree_value_keeping_documents(inner_v, &t.pos(frame.id), heap).map_err(|e| {
                anyhow::anyhow!(
                    e.message(|t| format!("Expected value to be a YAML value, but was {t}"))
                )
            })?;
        // ytt takes a document set in a document's place, a map in a map item's, an
        // array in an array item's.
        let fragment = inner_v.downcast_ref::<YamlFragment>().is_some();
        let found = replaced_by(&tv, fragment);
        let wanted = match t.nodes[frame.id].kind {
            RawKind::Document => ["document set", "[]interface {}"],
            RawKind::MapItem(_) => ["map", "*orderedmap.Map"],
            RawKind::ArrayItem => ["array", "[]interface {}"],
        };
        if !wanted.contains(&found) {
            anyhow::bail!(
                "template.replace: expected value to be {}, but was {found}",
                wanted[0]
            );
        }
        // Map items put in the map's place replace earlier items of their keys;
        // a YAML fragment's items only with `#@yaml/map-key-override`.
        let strict = fragment;
        let new_keys: Vec<(YValue, bool)> = match &tv {
            TreeValue::Map(items) => items
                .iter()
                .filter_map(|i| {
                    let overrides = i.ann(crate::template::MAP_KEY_OVERRIDE).is_some();
                    i.key().map(|k| (k.clone(), overrides))
                })
                .collect(),
            _ => Vec::new(),
        };
        // Go's `MapItemOverride` removes the items of the new keys from the map,
        // the placeholder item itself among them, which then is not found.
        let placeholder = frame.key.clone().or_else(|| match &t.nodes[frame.id].kind {
            RawKind::MapItem(k) => Some(YValue::clone(k)),
            _ => None,
        });
        let n = stack.len();
        let mut siblings = match n.checked_sub(2).and_then(|i| stack.get_mut(i)) {
            Some(Frame {
                value: FrameValue::Children(siblings),
                ..
            }) => Some(siblings),
            _ => None,
        };
        let mut placeholder_removed = false;
        for (key, overrides) in &new_keys {
            // A Starlark int is Go's int64 there, a YAML one an int: never equal.
            let starlark_int = !fragment && matches!(key, YValue::Int(_) | YValue::UInt(_));
            let is_placeholder = placeholder.as_ref() == Some(key) && !starlark_int;
            let at = siblings.as_mut().and_then(|s| s.position(key));
            if (is_placeholder || at.is_some()) && strict && !overrides {
                anyhow::bail!(override_refused(key));
            }
            if let (Some(i), Some(siblings)) = (at, siblings.as_mut()) {
                siblings.items.remove(i);
            }
            placeholder_removed |= is_placeholder;
        }
        if placeholder_removed {
            anyhow::bail!("template.replace: expected to find placeholder map item in map");
        }
        if let Some(frame) = stack.last_mut() {
            frame.value = FrameValue::Replace(tv);
        }
        Ok(())
    }
}

/// What ytt calls the value given to `template.replace` (`tv`, a YAML fragment if
/// `fragment`): a fragment is a `map`, an `array` or a `document set`, a dict or a struct an
/// `*orderedmap.Map` and a list or a tuple a `[]interface {}` (Go's types).
fn replaced_by(tv: &TreeValue, fragment: bool) -> &'static str {
    match tv {
        TreeValue::Map(_) if fragment => "map",
        TreeValue::Map(_) => "*orderedmap.Map",
        TreeValue::Array(items)
            if fragment && items.iter().any(|i| matches!(i.kind, TreeKind::Document)) =>
        {
            "document set"
        }
        TreeValue::Array(_) if fragment => "array",
        TreeValue::Array(_) => "[]interface {}",
        TreeValue::Scalar(YValue::Str(_) | YValue::Bytes(_)) => "string",
        TreeValue::Scalar(YValue::Null) => "null",
        TreeValue::Scalar(YValue::Bool(_)) => "boolean",
        TreeValue::Scalar(YValue::Float(_)) => "float",
        TreeValue::Scalar(_) => "integer",
    }
}

/// ytt's error for a fragment's map item put by `template.replace` where the map has its key,
/// without `#@yaml/map-key-override`.
fn override_refused(key: &YValue) -> String {
    format!(
        "template.replace: expected key '{}' to not be specified again (unless '{}' annotation is added)",
        key.go_percent_s(),
        crate::template::MAP_KEY_OVERRIDE
    )
}
