//! `template.replace`: a node's place in its parent taken by other nodes, at the call.

use starlark::values::{Value, ValueLike};

use super::super::convert::{to_tree_value_keeping_documents, YamlFragment};
use super::{BuildState, Ctx, Frame, FrameValue, Siblings};
use crate::template::compile::RawShape;
use crate::template::tree::{Tree, TreeValue};
use crate::value::{Pos, Value as YValue};
use crate::yaml::parse::RawKind;

impl BuildState {
    /// `template.replace(inner_v)`: the current node's place in its parent is `inner_v`'s
    /// items, at once, as ytt does (the call's own answer is a
    /// [`super::modules::ReplacedNode`], which `set` ignores). ytt's current node is the one
    /// started last, even once it has ended (its stack of nodes unwinds only when the next
    /// node starts): a statement line after a node replaces that node (`r: 5` NEWLINE `#@
    /// template.replace({"a": 1})`), so the nodes ended since then are opened again for the
    /// call ([`BuildState::reopen_ended`]) and ended again after it.
    ///
    /// `caller` is the file of the code that called it: ytt's `template` module acts on the
    /// nodes of the file that loaded it, and a loaded file (`.star`, `.lib.yml`) has nodes
    /// open only while one of its fragment functions runs.
    pub(in crate::starlark) fn replace<'v>(
        &self,
        inner_v: Value<'v>,
        heap: starlark::values::Heap<'v>,
        caller: Option<&str>,
    ) -> anyhow::Result<()> {
        if let Some(file) = caller.filter(|f| *f != self.file.as_str()) {
            if !self.builds_nodes_of(file) {
                anyhow::bail!(
                    "template.replace: called in {file}, which builds no node now: ytt cannot replace there (its node stack for that file is empty: it fails with a Go panic, index out of range [-1])"
                );
            }
        }
        if let Some(kind) = self.replaced_already() {
            return Err(replaced_twice(inner_v, &kind, heap));
        }
        let Some(reopened) = self.reopen_ended() else {
            return self.replace_current(inner_v, heap);
        };
        // Ended again, a replaced node's items go in its place (and it is opened no more).
        let replaced = self.replace_current(inner_v, heap);
        let mut inner = self.inner.borrow_mut();
        let ctx = Self::replacing_context(&mut inner.ctxs).expect("a context was reopened");
        for _ in 0..reopened {
            self.end_in(ctx)?;
        }
        replaced
    }

    /// Whether a fragment function of the loaded file `file` runs (its nodes are the ones a
    /// `template.replace` of that file's code acts on).
    fn builds_nodes_of(&self, file: &str) -> bool {
        let inner = self.inner.borrow();
        inner
            .ctxs
            .iter()
            .any(|c| c.builds_nodes && c.table.as_ref().is_some_and(|t| t.file.as_str() == file))
    }

    /// The context `template.replace` acts in: the innermost one with a node open, nodes of
    /// its own or text ([`BuildState::replace_current`]); the file's (the first) if none has:
    /// functions that build no nodes have no node of their own.
    fn replacing_context(ctxs: &mut [Ctx]) -> Option<&mut Ctx> {
        let at = Self::innermost_replacing(ctxs).unwrap_or(0);
        ctxs.get_mut(at)
    }

    /// The innermost context with a node open, nodes of its own or text.
    fn innermost_replacing(ctxs: &[Ctx]) -> Option<usize> {
        ctxs.iter()
            .rposition(|c| !c.stack.is_empty() || c.builds_nodes || c.text)
    }

    /// The kind of ytt's current node, the one started last, when it has ended after
    /// `template.replace` put other nodes in its place: in no parent, where ytt looks for it
    /// once it has the value.
    fn replaced_already(&self) -> Option<RawKind> {
        let mut inner = self.inner.borrow_mut();
        let ctx = Self::replacing_context(&mut inner.ctxs)?;
        let (id, depth) = ctx.last_started?;
        if ctx.text || ctx.stack.len() > depth || ctx.ended.first() != Some(&super::REPLACED) {
            return None;
        }
        Some(self.table(&ctx.table).nodes.get(id)?.kind.clone())
    }

    /// Opens again the node started last and the nodes that ended after it (its parents), when
    /// it has ended and they can be (each parent a map or array of its items, the node its
    /// parent's last item): their trees become frames again, outermost first. How many were
    /// opened, or `None` (nothing opened).
    fn reopen_ended(&self) -> Option<usize> {
        let mut inner = self.inner.borrow_mut();
        let ctx = Self::replacing_context(&mut inner.ctxs)?;
        let (id, depth) = ctx.last_started?;
        let open = ctx.stack.len();
        if ctx.text || open > depth || ctx.ended.first() != Some(&id) {
            return None;
        }
        let count = depth + 1 - open;
        // Outermost first.
        let ids: Vec<usize> = ctx.ended.get(..count)?.iter().rev().copied().collect();
        let t = self.table(&ctx.table);
        // The items the outermost node is the last of, then each node's own.
        let mut items: &Vec<Tree> = match ctx.stack.last() {
            None => &ctx.out,
            Some(Frame {
                value: FrameValue::Children(siblings),
                ..
            }) => &siblings.items,
            Some(_) => return None,
        };
        for (i, &node) in ids.iter().enumerate() {
            let tree = items.last()?;
            if i + 1 == ids.len() {
                break;
            }
            match (&tree.value, &t.nodes.get(node)?.value) {
                (TreeValue::Map(inner), RawShape::Map)
                | (TreeValue::Array(inner), RawShape::Array) => items = inner,
                _ => return None,
            }
        }
        for (i, &node) in ids.iter().enumerate() {
            let items = match ctx.stack.last_mut() {
                None => &mut ctx.out,
                Some(Frame {
                    value: FrameValue::Children(siblings),
                    ..
                }) => &mut siblings.items,
                Some(_) => unreachable!("checked above"),
            };
            let tree = items.pop()?;
            let key = tree.key().cloned();
            // A map or an array of the template (`{}`, `[]`, items under an `if` not taken) is
            // a node of its own in ytt, started after its item: the node last started.
            let value = match (tree.value, &t.nodes[node].value) {
                (TreeValue::Map(children), RawShape::Map)
                | (TreeValue::Array(children), RawShape::Array) => {
                    let mut siblings = Siblings::new();
                    children.into_iter().for_each(|c| siblings.push(c));
                    FrameValue::Children(siblings)
                }
                (value, _) if i + 1 == ids.len() => FrameValue::Set(value),
                _ => unreachable!("checked above"),
            };
            ctx.stack.push(Frame {
                id: node,
                anns: tree.anns.to_vec(),
                value,
                key,
            });
        }
        ctx.ended.clear();
        Some(count)
    }

    /// `template.replace(inner_v)` called while the node of the top frame is built.
    fn replace_current<'v>(
        &self,
        inner_v: Value<'v>,
        heap: starlark::values::Heap<'v>,
    ) -> anyhow::Result<()> {
        let mut inner = self.inner.borrow_mut();
        // A function that builds no nodes (its context empty) replaces its caller's node; one
        // that builds nodes, before its first, its own (no node yet: ytt's `null`).
        let ctxs = &mut inner.ctxs;
        let at = Self::innermost_replacing(ctxs);
        // A text template's context (a function that builds no nodes called from one too).
        if at.is_some_and(|at| ctxs[at].text) {
            anyhow::bail!("template.replace: unsupported operation");
        }
        if at.is_some_and(|at| ctxs[at].stack.is_empty() && at > 0) {
            anyhow::bail!(
                "template.replace: expected to replace document value, map item or array item, but found null"
            );
        }
        let Some(Ctx { stack, table, .. }) = ctxs.get_mut(at.unwrap_or(0)) else {
            anyhow::bail!("template.replace: no template is being built");
        };
        let t = self.table(table);
        let Some(frame) = stack.last_mut() else {
            // Code before the file's first document: ytt's node is the document set.
            replacement(inner_v, &RawKind::Document, &Pos::unknown(), heap)?;
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
            (FrameValue::Replace(_), kind) => return Err(replaced_twice(inner_v, kind, heap)),
            _ => {}
        }
        let tv = replacement(inner_v, &t.nodes[frame.id].kind, &t.pos(frame.id), heap)?;
        let fragment = inner_v.downcast_ref::<YamlFragment>().is_some();
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

/// ytt's error for `template.replace(v)` on a node of `kind` replaced already, which is out of
/// its parent: the value's type is checked first, then the node is not found there.
fn replaced_twice<'v>(
    v: Value<'v>,
    kind: &RawKind,
    heap: starlark::values::Heap<'v>,
) -> anyhow::Error {
    if let Err(e) = replacement(v, kind, &Pos::unknown(), heap) {
        return e;
    }
    let missing = match kind {
        RawKind::MapItem(_) => "map item in map",
        RawKind::ArrayItem => "array item in array",
        RawKind::Document => "document in document set",
    };
    anyhow::anyhow!("template.replace: expected to find placeholder {missing}")
}

/// The tree value `template.replace` puts in the place of a node of `kind` (at `pos`), with
/// ytt's error for a value that is not what ytt takes there: a document set in a document's
/// place, a map in a map item's, an array in an array item's.
fn replacement<'v>(
    v: Value<'v>,
    kind: &RawKind,
    pos: &Pos,
    heap: starlark::values::Heap<'v>,
) -> anyhow::Result<TreeValue> {
    let tv = to_tree_value_keeping_documents(v, pos, heap).map_err(|e| {
        anyhow::anyhow!(e.message(|t| format!("Expected value to be a YAML value, but was {t}")))
    })?;
    let found = replaced_by(&tv, v.downcast_ref::<YamlFragment>().is_some());
    let wanted = match kind {
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
    Ok(tv)
}

/// What ytt calls the value given to `template.replace` (`tv`, a YAML fragment if
/// `fragment`): a fragment is a `map`, an `array` or a `document set`, a dict or a struct an
/// `*orderedmap.Map` and a list or a tuple a `[]interface {}` (Go's types).
fn replaced_by(tv: &TreeValue, fragment: bool) -> &'static str {
    match tv {
        TreeValue::Map(_) if fragment => "map",
        TreeValue::Map(_) => "*orderedmap.Map",
        TreeValue::Array(_) if fragment && tv.is_document_set() => "document set",
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
