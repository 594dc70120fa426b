//! The empty document ytt makes for a file's code lines after its last node, when those lines
//! go on into its generated start and value instructions (a `\` ending the last line).

use super::{BuildState, Ctx};
use crate::template::compile::RawShape;
use crate::template::tree::TreeValue;
use crate::template::STARLARK_COLLECTION;
use crate::value::Value as YValue;

impl BuildState {
    /// The trailing document's start ran: its value then sets nothing that is kept.
    pub(in crate::starlark) fn trailing_start(&self) {
        self.inner.borrow_mut().trailing_started = true;
    }

    /// The trailing document's value instruction. Run without its start (a `\` joined the start
    /// to a line that skipped it: `#@ x = 1 if True else \`, `#@ for i in []: \`), ytt adds
    /// the document's null to its current node, the one started last: a map item, array item
    /// or document becomes null; a map or array (one whose items were none) refuses it.
    pub(in crate::starlark) fn trailing_value(&self) -> anyhow::Result<()> {
        let mut inner = self.inner.borrow_mut();
        if inner.trailing_started || inner.ctxs.len() != 1 {
            return Ok(());
        }
        let Ctx {
            stack,
            out,
            table,
            last_started,
            ..
        } = &mut inner.ctxs[0];
        // (no node started: ytt has no current node and panics)
        let (Some((id, depth)), true) = (*last_started, stack.is_empty()) else {
            return Ok(());
        };
        let t = self.table(table);
        let what = match t.nodes.get(id).map(|info| &info.value) {
            Some(RawShape::Map) => "maps can only contain map items",
            Some(RawShape::Array) => "arrays can only contain array items",
            _ => {
                let mut node = out.last_mut();
                for _ in 0..depth {
                    node = match node.map(|n| &mut n.value) {
                        Some(TreeValue::Map(items) | TreeValue::Array(items)) => items.last_mut(),
                        _ => None,
                    };
                }
                if let Some(node) = node {
                    node.value = TreeValue::Scalar(YValue::Null);
                    node.anns.retain(|a| a.name != STARLARK_COLLECTION);
                }
                return Ok(());
            }
        };
        anyhow::bail!(
            "__ytt_tpl{}_set_node: {what}; this is a null",
            t.template_id
        )
    }
}
