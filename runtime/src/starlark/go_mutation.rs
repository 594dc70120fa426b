//! Changes to lists and dicts in starlark-go's order of checks: a method's arguments first,
//! then whether its list or dict may change ([`mutable_check`]: frozen, or being iterated),
//! then what the method itself finds (`remove: element not found`). The crate checks a list's
//! iteration when it changes it, after its own checks, and a dict's before them; a dict method
//! that changes nothing (`setdefault` of a present key, `update` with nothing) is no change in
//! starlark-go, refused by the crate.

use starlark::values::dict::{DictMut, DictRef};
use starlark::values::list::ListRef;
use starlark::values::{Heap, Value};

use super::go_methods::{error, positional, Named};

/// `OBJ[INDEX] = VALUE` checked first (see [`super::source_guard::guard_source`]) as starlark-go's
/// `setIndex` checks it: a list's index (its type, then its range), then a frozen or iterated
/// list or dict (`cannot insert into hash table during iteration`, before the key is hashed); a
/// string, tuple, number, set or struct takes no assignment. `VALUE` otherwise: any other error
/// is left to the assignment.
pub(super) fn element_assignment<'v>(
    obj: Value<'v>,
    index: Value<'v>,
    value: Value<'v>,
    heap: Heap<'v>,
) -> starlark::Result<Value<'v>> {
    let ty = obj.get_type();
    let verb = match ty {
        "list" => "assign to element of",
        "dict" => "insert into",
        "string" | "tuple" | "int" | "float" | "bool" | "NoneType" | "range" | "set" | "struct" => {
            return error(format!("{ty} value does not support item assignment"));
        }
        _ => return Ok(value),
    };
    if ty == "list" {
        if index.get_type() != "int" {
            return error(format!("got {}, want int", index.get_type()));
        }
        if index.unpack_i32().is_none() {
            return error(format!("{} out of range", index.to_repr()));
        }
        if let Some(message) = super::go_builtins::out_of_range(obj, index) {
            return error(message);
        }
    }
    match state(obj, heap) {
        State::Frozen => error(format!("cannot {verb} frozen {}", container(ty))),
        State::Iterated => error(format!("cannot {verb} {} during iteration", container(ty))),
        State::Free => Ok(value),
    }
}

/// Whether a list or dict may change.
enum State {
    Free,
    /// A global of a template, used after the template ran.
    Frozen,
    /// Inside a loop over it (or a builtin that iterates it).
    Iterated,
}

/// Whether `obj`, a list or dict, may change, asked without changing it.
fn state<'v>(obj: Value<'v>, heap: Heap<'v>) -> State {
    if obj.unpack_frozen().is_some() {
        return State::Frozen;
    }
    let iterated = match obj.get_type() {
        // The crate refuses a dict's borrow for change while an iterator holds it.
        "dict" => DictMut::from_value(obj).is_err(),
        // A list refuses a store while iterated: its first item stored again (an empty list
        // is never seen iterated: no loop over it runs).
        "list" => ListRef::from_value(obj)
            .and_then(|l| l.first().copied())
            .is_some_and(|first| obj.set_at(heap.alloc(0), first).is_err()),
        _ => false,
    };
    match iterated {
        true => State::Iterated,
        false => State::Free,
    }
}

/// starlark-go's name of a list or dict in its mutation errors.
pub(super) fn container(ty: &str) -> &'static str {
    if ty == "list" {
        "list"
    } else {
        "hash table"
    }
}

/// What `method` does to a list or dict, in starlark-go's mutation errors (`cannot append to
/// frozen list`); `None` when it does not mutate.
pub(super) fn mutation(method: &str, ty: &str) -> Option<&'static str> {
    Some(match (ty, method) {
        ("list", "append") => "append to",
        ("list", "extend") => "extend",
        ("list", "insert") => "insert into",
        ("list", "remove") => "remove from",
        ("list", "pop") => "pop from",
        ("list" | "dict", "clear") => "clear",
        ("dict", "setdefault" | "update") => "insert into",
        ("dict", "pop" | "popitem") => "delete from",
        _ => return None,
    })
}

/// starlark-go's refusal to change a frozen or iterated list or dict by `method`, once the
/// method's arguments are checked.
fn mutable_check<'v>(method: &str, obj: Value<'v>, heap: Heap<'v>) -> starlark::Result<()> {
    let ty = obj.get_type();
    let Some(verb) = mutation(method, ty) else {
        return Ok(());
    };
    let what = container(ty);
    // starlark-go names the method, but for a dict's `clear`.
    let name = match (ty, method) {
        ("dict", "clear") => String::new(),
        _ => format!("{method}: "),
    };
    match state(obj, heap) {
        State::Frozen => error(format!("{name}cannot {verb} frozen {what}")),
        State::Iterated => error(format!("{name}cannot {verb} {what} during iteration")),
        State::Free => Ok(()),
    }
}

/// A list method's checks; the arguments to call the crate's method with (a negative `pop`
/// index made positive), or `None` when `method` is not a list method of starlark-go's.
pub(super) fn list_method<'v>(
    method: &str,
    obj: Value<'v>,
    len: usize,
    args: &[Value<'v>],
    named: Named<'_, 'v>,
    heap: Heap<'v>,
) -> starlark::Result<Option<Vec<Value<'v>>>> {
    let mut extended = None;
    let args = match method {
        "pop" => {
            positional(method, args, named, 0, 1)?;
            let given = match args.first() {
                Some(v) => v.unpack_i32().map_or_else(
                    || {
                        error(format!(
                            "pop: for parameter 1: got {}, want int",
                            v.get_type()
                        ))
                    },
                    |i| Ok(i as i64),
                )?,
                None => len as i64 - 1,
            };
            let i = if given < 0 { given + len as i64 } else { given };
            if i < 0 || i >= len as i64 {
                return error(if len == 0 {
                    format!("pop: index {given} out of range: empty list")
                } else {
                    format!("pop: list index {given} out of range [-{len}:{}]", len - 1)
                });
            }
            vec![heap.alloc(i)]
        }
        "extend" => {
            positional(method, args, named, 1, 1)?;
            if !iterable(args[0], heap) {
                return error(format!(
                    "extend: for parameter 1: got {}, want iterable",
                    args[0].get_type()
                ));
            }
            // Its items charged once the list is known mutable (`[].extend(range(10**9))`
            // asked the interpreter for a list past its bounds).
            extended = args[0].length().ok();
            args.to_vec()
        }
        "insert" => {
            positional(method, args, named, 2, 2)?;
            let index = args[0];
            if index.unpack_i32().is_none() {
                return error(match index.get_type() {
                    "int" => format!("insert: for parameter 1: {} out of range", index.to_repr()),
                    _ => format!(
                        "insert: for parameter 1: got {}, want int",
                        super::go_type(index)
                    ),
                });
            }
            args.to_vec()
        }
        "append" | "remove" => {
            positional(method, args, named, 1, 1)?;
            args.to_vec()
        }
        "clear" => {
            positional(method, args, named, 0, 0)?;
            args.to_vec()
        }
        _ => return Ok(None),
    };
    mutable_check(method, obj, heap)?;
    if let Some(n) = extended {
        let item_bytes = std::mem::size_of::<Value>() as u128;
        super::budget::charge_items(n.max(0) as u64, item_bytes, heap)?;
    }
    Ok(Some(args))
}

/// Whether starlark-go iterates `v` (strings are not iterable there).
pub(super) fn iterable<'v>(v: Value<'v>, heap: Heap<'v>) -> bool {
    v.get_type() != "string" && v.iterate(heap).is_ok()
}

/// The entries of a dict a removal moves, charged as one statement to the statement budget.
const REMOVED_ENTRIES_PER_STATEMENT: usize = 16;

/// Charges a removal from the dict `obj` (`pop` of a key it holds, `popitem`) to the statement
/// budget: the crate's dict keeps its entries in order in one vector and renumbers its whole
/// index at each removal (`SmallMap::shift_remove`), where starlark-go unlinks the entry, so a
/// loop popping the keys of a dict of 80,000 took 26 s (ytt pops 300,000 in 2.4 s) and one of
/// a million would run for hours. A statement runs in about the time 16 entries take to move
/// (160 and 8 ns), so the budget bounds these loops as it bounds the others. A removal of the
/// last entry moves none but is charged the same: the crate does not say where a key is.
fn charge_removal(obj: Value) -> starlark::Result<()> {
    let entries = obj.length()?.max(0) as usize;
    super::statement_hook::charge_iterations((entries / REMOVED_ENTRIES_PER_STATEMENT) as u64)
}

/// A dict method's checks before the crate's method runs; its answer when it changes nothing
/// (`setdefault` of a present key, `update` with nothing to insert, `pop` of an empty dict),
/// which starlark-go gives a frozen or iterated dict as well.
pub(super) fn dict_method<'v>(
    method: &str,
    obj: Value<'v>,
    args: &[Value<'v>],
    named: Named<'_, 'v>,
    heap: Heap<'v>,
) -> starlark::Result<Option<Value<'v>>> {
    let unhashable = |key: Value| match key.get_hashed() {
        Ok(_) => Ok(()),
        Err(_) => error(format!("{method}: unhashable type: {}", key.get_type())),
    };
    match method {
        "pop" => {
            positional(method, args, named, 1, 2)?;
            mutable_check(method, obj, heap)?;
            if obj.length()? == 0 {
                return match args.get(1) {
                    Some(default) => Ok(Some(*default)),
                    None => error("pop: missing key".to_string()),
                };
            }
            unhashable(args[0])?;
            let present =
                DictRef::from_value(obj).is_some_and(|d| matches!(d.get(args[0]), Ok(Some(_))));
            if present {
                charge_removal(obj)?;
            }
        }
        "popitem" => {
            positional(method, args, named, 0, 0)?;
            if obj.length()? == 0 {
                return error("popitem: empty dict".to_string());
            }
            charge_removal(obj)?;
        }
        "setdefault" => {
            positional(method, args, named, 1, 2)?;
            unhashable(args[0])?;
            // A NaN equals no key, itself included.
            if !super::go_compare::holds_nan(args[0]) {
                let present = DictRef::from_value(obj).and_then(|d| d.get(args[0]).ok().flatten());
                if let Some(value) = present {
                    return Ok(Some(value));
                }
            }
        }
        "update" => {
            positional("update", args, &[], 0, 1)?;
            if let Some(pairs) = args.first() {
                update_pairs("update", *pairs, heap)?;
            }
            let no_pairs = match args.first() {
                Some(pairs) => super::convert::map_fragment_items(*pairs, heap)
                    .unwrap_or(*pairs)
                    .iterate(heap)?
                    .next()
                    .is_none(),
                None => true,
            };
            if no_pairs && named.is_empty() {
                return Ok(Some(Value::new_none()));
            }
        }
        "clear" => positional(method, args, named, 0, 0)?,
        "get" => {
            if let Some(key) = args.first() {
                unhashable(*key)?;
            }
        }
        _ => {}
    }
    mutable_check(method, obj, heap)?;
    Ok(None)
}

/// starlark-go's checks of the positional argument of `dict()` and `update()`: a mapping, or
/// an iterable of pairs.
pub(super) fn update_pairs<'v>(
    name: &str,
    pairs: Value<'v>,
    heap: Heap<'v>,
) -> starlark::Result<()> {
    if DictRef::from_value(pairs).is_some()
        || super::convert::map_fragment_items(pairs, heap).is_some()
    {
        return Ok(());
    }
    if !iterable(pairs, heap) {
        return error(format!("{name}: got {}, want iterable", pairs.get_type()));
    }
    for (i, item) in pairs.iterate(heap)?.enumerate() {
        if !iterable(item, heap) {
            return error(format!(
                "{name}: dictionary update sequence element #{i} is not iterable ({})",
                item.get_type()
            ));
        }
        match item.length() {
            Ok(2) => {}
            Ok(n) => {
                return error(format!(
                    "{name}: dictionary update sequence element #{i} has length {n}, want 2"
                ))
            }
            Err(_) => {}
        }
    }
    Ok(())
}
