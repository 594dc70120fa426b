//! `sorted`, `min` and `max` of strings some of which are not UTF-8
//! ([`super::GoBytes`]): starlark-go compares strings by their bytes, while the
//! crate's `str` compares only with `str` (`"a" < b` fails where `b < "a"` works, see
//! [`super`]). Asked only after the crate's own function fails, so the others pay
//! nothing.

use std::cmp::Ordering;

use starlark::eval::Evaluator;
use starlark::values::list::AllocList;
use starlark::values::Value;

use super::{is_go_bytes, string_bytes};

/// The items of `items` (an iterable) with their keys (`key` called on each, or the item
/// itself) as bytes, when every key is a string and one is not UTF-8; `None` otherwise (the
/// crate's failure was not about such strings).
fn byte_keys<'v>(
    items: Value<'v>,
    key: Option<Value<'v>>,
    eval: &mut Evaluator<'v, '_, '_>,
) -> Option<Vec<(Value<'v>, &'v [u8])>> {
    let items: Vec<Value<'v>> = items.iterate(eval.heap()).ok()?.collect();
    let mut keyed = Vec::with_capacity(items.len());
    let mut any_bytes = false;
    for item in items {
        let k = match key {
            Some(key) => eval.eval_function(key, &[item], &[]).ok()?,
            None => item,
        };
        any_bytes |= is_go_bytes(k);
        keyed.push((item, string_bytes(k)?));
    }
    any_bytes.then_some(keyed)
}

/// `sorted(items, key=key, reverse=reverse)` by the keys' bytes (starlark-go's stable sort,
/// its reverse a stable sort by the reversed order), or `None` (see [`byte_keys`]).
pub(in crate::starlark) fn sorted<'v>(
    items: Value<'v>,
    key: Option<Value<'v>>,
    reverse: bool,
    eval: &mut Evaluator<'v, '_, '_>,
) -> Option<Value<'v>> {
    let mut keyed = byte_keys(items, key, eval)?;
    keyed.sort_by(|(_, a), (_, b)| match reverse {
        false => a.cmp(b),
        true => b.cmp(a),
    });
    let items = keyed.into_iter().map(|(item, _)| item);
    Some(eval.heap().alloc(AllocList(items.collect::<Vec<_>>())))
}

/// `min(...)`/`max(...)` (`name`) of `args` (one iterable, or the values themselves) by the
/// keys' bytes: the first least or greatest, as starlark-go; `None` (see [`byte_keys`]).
pub(in crate::starlark) fn extremum<'v>(
    name: &str,
    args: &[Value<'v>],
    key: Option<Value<'v>>,
    eval: &mut Evaluator<'v, '_, '_>,
) -> Option<Value<'v>> {
    let items = match args {
        [items] => *items,
        _ => eval.heap().alloc(AllocList(args.to_vec())),
    };
    let wanted = if name == "min" {
        Ordering::Less
    } else {
        Ordering::Greater
    };
    let keyed = byte_keys(items, key, eval)?;
    let mut best = keyed.first().copied()?;
    for (item, k) in keyed {
        if k.cmp(best.1) == wanted {
            best = (item, k);
        }
    }
    Some(best.0)
}
