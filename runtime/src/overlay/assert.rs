//! `#@overlay/assert`: the check of a matched node (a `via=` function, or ytt's comparison),
//! after which the new node is still merged in.

use super::matcher::{call, via_function};
use super::{merge_value, Calls, ChildDefaults, Mode, OverlayError, Path};
use crate::template::tree::{Ann, Tree, TreeValue};
use crate::value::Value;

/// `#@overlay/assert` on a matched node: its `via=` function must return None, True or
/// `(True, message)`; without one, the new value must be found in the old (see [`contains`]).
pub(super) fn assertion(
    ann: &Ann,
    left: &TreeValue,
    right: &TreeValue,
    calls: Calls,
) -> Result<(), String> {
    let Some(via) = via_function(ann)? else {
        return contains(left, right)
            .map_err(|why| format!("Expected objects to equal, but did not: {why}"));
    };
    let failed = "Expected via invocation to return true, but was false";
    match call(calls, &via, &[left, right])?.value {
        TreeValue::Scalar(Value::Null | Value::Bool(true)) => Ok(()),
        TreeValue::Scalar(Value::Bool(false)) => Err(failed.into()),
        TreeValue::Array(pair) if pair.len() == 2 => match (&pair[0].value, &pair[1].value) {
            (TreeValue::Scalar(Value::Bool(true)), TreeValue::Scalar(Value::Str(_))) => Ok(()),
            (TreeValue::Scalar(Value::Bool(false)), TreeValue::Scalar(Value::Str(m))) => {
                Err(format!("{failed} with message: {m}"))
            }
            _ => Err(VIA_RESULT.into()),
        },
        _ => Err(VIA_RESULT.into()),
    }
}

/// ytt's comparison of an `#@overlay/assert` without `via=`: each of `right`'s map items has
/// an item of the same key in `left` whose value contains it, each of its array items is
/// contained by `left`'s item at the same index (`left` may have more), and scalars are equal.
/// `Err` says where they differ, in ytt's words.
fn contains(left: &TreeValue, right: &TreeValue) -> Result<(), String> {
    match (left, right) {
        (TreeValue::Map(lefts), TreeValue::Map(rights)) => {
            for r in rights {
                let l = lefts.iter().find(|l| l.key() == r.key());
                let l = l.ok_or("Expected at least one map item to match by key")?;
                contains(&l.value, &r.value)?;
            }
            Ok(())
        }
        (TreeValue::Array(lefts), TreeValue::Array(rights)) => {
            for (i, r) in rights.iter().enumerate() {
                let l = lefts
                    .get(i)
                    .ok_or("Expected to have matching number of array items")?;
                contains(&l.value, &r.value)?;
            }
            Ok(())
        }
        (other, TreeValue::Map(_) | TreeValue::Array(_)) => Err(format!(
            "Expected {}, but was {}",
            right.type_name(),
            other.type_name()
        )),
        (TreeValue::Scalar(l), TreeValue::Scalar(r)) if l == r => Ok(()),
        _ => Err(format!(
            "Expected leaf values to match {} {}",
            left.type_name(),
            right.type_name()
        )),
    }
}

/// After an `#@overlay/assert` passes, ytt still overlays the new node's map or array onto
/// the old one's (a scalar changes nothing; a collection onto null is an error there).
/// `#@overlay/assert` of `item` on the `matches` of `targets` (a map's or an array's items, by
/// index): each is asserted, then `item` is merged into it.
pub(super) fn assert_matched(
    targets: &mut [Tree],
    matches: &[usize],
    item: &Tree,
    mode: Mode,
    calls: Calls,
    defaults: &ChildDefaults,
    path: &Path,
) -> Result<(), OverlayError> {
    let Some(assert) = item.ann("overlay/assert") else {
        return Ok(());
    };
    for &i in matches {
        assertion(assert, &targets[i].value, &item.value, calls).map_err(|e| path.error(e))?;
        let left = std::mem::take(&mut targets[i].value);
        let right = item.value.clone();
        // A shared default is merged into where it is kept, as any merge in place (see
        // `crate::shared_defaults`): ytt's assertion merges into the shared node.
        let in_place = super::merges_in_place(&left, &right, mode);
        let shared = crate::shared_defaults::shared_key(&targets[i]).filter(|_| in_place);
        let left = shared
            .and_then(crate::shared_defaults::take)
            .unwrap_or(left);
        let merged = merge_after_assertion(left, right, &item.anns, mode, calls, defaults, path)?;
        if let Some(key) = shared {
            crate::shared_defaults::put(key, &merged);
        }
        targets[i].value = merged;
    }
    Ok(())
}

pub(super) fn merge_after_assertion(
    left: TreeValue,
    right: TreeValue,
    anns: &[Ann],
    mode: Mode,
    calls: Calls,
    defaults: &ChildDefaults,
    path: &Path,
) -> Result<TreeValue, OverlayError> {
    match (&left, &right) {
        (_, TreeValue::Scalar(_)) => Ok(left),
        (TreeValue::Scalar(Value::Null), _) => {
            Err(path.error(format!("Expected {}, but was null", right.type_name())))
        }
        _ => merge_value(left, right, anns, mode, calls, defaults, path, None),
    }
}

const VIA_RESULT: &str = "Expected via invocation to return NoneType, Bool or Tuple(Bool,String), but returned neither of those";
