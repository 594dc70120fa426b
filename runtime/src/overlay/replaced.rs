//! What an overlay puts in place of a node it replaces: the new value (or what a `via=`
//! function makes of the two), with the marks of where that value came from.

use super::matcher::{call, via_function};
use super::{Calls, OverlayError, Path};
use crate::template::tree::{Ann, Returned, Tree, TreeValue};

/// What `#@overlay/replace` puts in place of `left`: the new node's value `right`, or what
/// its `via=` function makes of the two.
pub(super) fn replacement(
    item: &Tree,
    left: &TreeValue,
    right: TreeValue,
    calls: Calls,
    path: &Path,
) -> Result<Returned, OverlayError> {
    let via = match item.ann("overlay/replace") {
        Some(a) => via_function(a).map_err(|e| path.error(e))?,
        None => None,
    };
    match via {
        Some(via) => call(calls, &via, &[left, &right]).map_err(|e| path.error(e)),
        None => Ok(Returned {
            value: right,
            starlark_collection: false,
        }),
    }
}

/// Puts in `tree` the value an overlay's `via=` function returned (or a replacement's value),
/// marked as ytt's Go value when Starlark gave it as a dict, struct, list or tuple (see
/// [`crate::template::GO_VALUE`]); a value put there later loses the mark.
pub(super) fn put_returned(tree: &mut Tree, returned: Returned) {
    tree.anns.retain(|a| a.name != crate::template::GO_VALUE);
    if returned.starlark_collection {
        tree.anns.push(Ann {
            name: crate::template::GO_VALUE.into(),
            pos: tree.pos,
            args: Vec::new(),
            kwargs: Vec::new(),
        });
    }
    tree.value = returned.value;
}

/// Gives `tree`, whose value `item`'s replaced, the marks of the new value's place: where
/// Starlark gave it (no position in ytt, or a fragment's), or none (its own item's).
pub(super) fn take_value_marks(tree: &mut Tree, item: &Tree) {
    let marks = [
        crate::template::STARLARK_COLLECTION,
        crate::template::VALUE_POS,
        crate::template::VALUE_DOCUMENT_POS,
    ];
    tree.anns.retain(|a| !marks.contains(&a.name.as_str()));
    for mark in item
        .anns
        .iter()
        .filter(|a| marks.contains(&a.name.as_str()))
    {
        tree.anns.push(mark.clone());
    }
}
