//! Methods of strings, lists and dicts as starlark-go (ytt's interpreter) has them, where the
//! `starlark` crate's differ: every call `OBJ.M(ARGS)` of a method named in [`GO_METHODS`]
//! goes through [`super::budget::METHOD`], which calls [`call`].
//!
//! Indices of strings count bytes, as in starlark-go ([`super::go_string_index`]).

use std::fmt;

use allocative::Allocative;
use starlark::eval::Evaluator;
use starlark::values::dict::DictRef;
use starlark::values::list::{AllocList, ListRef};
use starlark::values::tuple::TupleRef;
use starlark::values::{
    starlark_value, Heap, NoSerialize, ProvidesStaticType, StarlarkValue, Value,
};
use starlark::{starlark_simple_value, StarlarkPagable};

use super::go_bytes::quoted_bytes;
use super::go_mutation::{dict_method, list_method, mutation};
use crate::go_unicode;

/// Methods whose calls [`call`] answers or checks first (besides the sized ones of `budget`).
pub(super) const GO_METHODS: &[&str] = &[
    "strip",
    "lstrip",
    "rstrip",
    "find",
    "rfind",
    "index",
    "rindex",
    "splitlines",
    "upper",
    "lower",
    "title",
    "capitalize",
    "isupper",
    "islower",
    "istitle",
    "isdigit",
    "isalpha",
    "isalnum",
    "elems",
    "codepoints",
    "elem_ords",
    "codepoint_ords",
    "removeprefix",
    "removesuffix",
    "partition",
    "rpartition",
    "startswith",
    "endswith",
    "count",
    "pop",
    "append",
    "extend",
    "insert",
    "remove",
    "clear",
    "setdefault",
    "update",
    "popitem",
    "get",
    // The crate's set methods: starlark-go's sets have `union` alone ([`set_method`]).
    "add",
    "difference",
    "discard",
    "intersection",
    "issubset",
    "issuperset",
    "symmetric_difference",
    "union",
];

/// starlark-go's string methods, sorted.
pub(super) const STRING_METHODS: &[&str] = &[
    "capitalize",
    "codepoint_ords",
    "codepoints",
    "count",
    "elem_ords",
    "elems",
    "endswith",
    "find",
    "format",
    "index",
    "isalnum",
    "isalpha",
    "isdigit",
    "islower",
    "isspace",
    "istitle",
    "isupper",
    "join",
    "lower",
    "lstrip",
    "partition",
    "replace",
    "rfind",
    "rindex",
    "rpartition",
    "rsplit",
    "rstrip",
    "split",
    "splitlines",
    "startswith",
    "strip",
    "title",
    "upper",
];

/// starlark-go's list methods, sorted.
pub(super) const LIST_METHODS: &[&str] = &[
    "append", "clear", "extend", "index", "insert", "pop", "remove",
];

/// starlark-go's dict methods, sorted.
pub(super) const DICT_METHODS: &[&str] = &[
    "clear",
    "get",
    "items",
    "keys",
    "pop",
    "popitem",
    "setdefault",
    "update",
    "values",
];

/// The methods of the crate's strings that starlark-go's strings lack.
pub(super) const NOT_STRING_METHODS: &[&str] = &["removeprefix", "removesuffix"];

pub(super) type Named<'a, 'v> = &'a [(&'a str, Value<'v>)];

pub(super) fn error<T>(message: String) -> starlark::Result<T> {
    Err(starlark::Error::new_other(anyhow::anyhow!(message)))
}

/// starlark-go's check of a builtin's positional arguments (`UnpackPositionalArgs`): no
/// keywords, `min` to `max` arguments.
pub(super) fn positional(
    name: &str,
    args: &[Value],
    named: Named,
    min: usize,
    max: usize,
) -> starlark::Result<()> {
    if !named.is_empty() {
        return error(format!("{name}: unexpected keyword arguments"));
    }
    let n = args.len();
    if n < min {
        let at_least = if min < max { "at least " } else { "" };
        return error(format!("{name}: got {n} arguments, want {at_least}{min}"));
    }
    if n > max {
        let at_most = if max > min { "at most " } else { "" };
        return error(format!("{name}: got {n} arguments, want {at_most}{max}"));
    }
    Ok(())
}

/// The string argument `i` (from 1) of `name`.
pub(super) fn string_arg<'v>(
    name: &str,
    args: &[Value<'v>],
    i: usize,
) -> starlark::Result<&'v str> {
    let v = args[i - 1];
    v.unpack_str().map_or_else(
        || {
            error(format!(
                "{name}: for parameter {i}: got {}, want string",
                v.get_type()
            ))
        },
        Ok,
    )
}

/// `OBJ.method(ARGS)` as starlark-go answers it: strings, lists and dicts where the crate's
/// methods differ, anything else by the crate's method.
pub(super) fn call<'v>(
    method: &str,
    obj: Value<'v>,
    args: &[Value<'v>],
    named: Named<'_, 'v>,
    eval: &mut Evaluator<'v, '_, '_>,
) -> starlark::Result<Value<'v>> {
    if super::go_bytes::is_go_bytes(obj) {
        return super::go_bytes::call_method(method, obj, args, named, eval);
    }
    match call_utf8(method, obj, args, named, eval) {
        // A string's method given a string that is not UTF-8 (`",".join(["x", b])`) fails
        // where it reads it: then it is answered on bytes (no cost for the others).
        Err(e) if obj.unpack_str().is_some() && holds_go_bytes(method, args, eval.heap()) => {
            match super::go_bytes::call_method(method, obj, args, named, eval) {
                Err(refused) if super::go_bytes::is_refusal(&refused) => Err(e),
                answer => answer,
            }
        }
        answer => answer,
    }
}

/// Whether a string that is not UTF-8 is among `args` (or the items of one); for `join`, the
/// first item of its iterable that is no text (where the crate's `join` failed).
fn holds_go_bytes<'v>(method: &str, args: &[Value<'v>], heap: Heap<'v>) -> bool {
    use super::go_bytes::is_go_bytes;
    if method == "join" {
        let mut items = match args.first().map(|a| a.iterate(heap)) {
            Some(Ok(items)) => items,
            _ => return false,
        };
        return items
            .find(|i| i.unpack_str().is_none())
            .is_some_and(is_go_bytes);
    }
    args.iter().any(|a| {
        is_go_bytes(*a)
            || ListRef::from_value(*a).is_some_and(|l| l.iter().any(is_go_bytes))
            || TupleRef::from_value(*a).is_some_and(|t| t.iter().any(is_go_bytes))
    })
}

/// [`call`] of a receiver that is not a [`super::go_bytes::GoBytes`].
fn call_utf8<'v>(
    method: &str,
    obj: Value<'v>,
    args: &[Value<'v>],
    named: Named<'_, 'v>,
    eval: &mut Evaluator<'v, '_, '_>,
) -> starlark::Result<Value<'v>> {
    let heap = eval.heap();
    let unequal = super::go_compare::unequal_lookup(method, obj, args, heap);
    let args = unequal.as_deref().unwrap_or(args);
    let prefixes = match (method, args.first()) {
        ("startswith" | "endswith", Some(a)) => TupleRef::from_value(*a),
        _ => None,
    };
    if let (Some(_), Some(prefixes)) = (obj.unpack_str(), prefixes) {
        // starlark-go tries a tuple's strings in order, and refuses an item that is none
        // when it comes to it.
        for (i, item) in prefixes.iter().enumerate() {
            if item.unpack_str().is_none() {
                let ty = item.get_type();
                return error(format!("{method}: want string, got {ty}, for element {i}"));
            }
            let mut one = args.to_vec();
            one[0] = item;
            let answer = match obj.unpack_str() {
                Some(s) => string_method(method, s, &one, named, eval.heap())?,
                None => None,
            };
            let answer = match answer {
                Some(answer) => answer,
                None => delegate(method, obj, &one, named, eval)?,
            };
            if answer.to_bool() {
                return Ok(Value::new_bool(true));
            }
        }
        return Ok(Value::new_bool(false));
    }
    if obj.get_type() == "set" {
        return set_method(method, obj, args, named, eval);
    }
    if let Some(s) = obj.unpack_str() {
        if let Some(v) = string_method(method, s, args, named, heap)? {
            return Ok(v);
        }
    } else if let Some(list) = ListRef::from_value(obj) {
        let len = list.len();
        if let Some(args) = list_method(method, obj, len, args, named, heap)? {
            if method == "remove" {
                let found = go_position(method, list.content(), args[0])?;
                let Some(i) = found else {
                    return error("remove: element not found".into());
                };
                // Its checks passed: the item found is popped by its index.
                delegate("pop", obj, &[heap.alloc(i as i32)], named, eval)?;
                return Ok(Value::new_none());
            }
            return delegate(method, obj, &args, named, eval);
        }
        if let (true, Some((start, end))) = (method == "index", index_range(args, named, len)) {
            let found = go_position(method, &list.content()[start..end], args[0])?;
            return match found {
                Some(i) => Ok(heap.alloc((start + i) as i32)),
                None => error("index: value not in list".into()),
            };
        }
    } else if DictRef::from_value(obj).is_some() {
        if let Some(answer) = dict_method(method, obj, args, named, heap)? {
            return Ok(answer);
        }
        // ytt's mappings (map fragments, structs) update a dict with their items.
        let items = match (method, args) {
            ("update", [mapping]) => super::convert::map_fragment_items(*mapping, heap),
            _ => None,
        };
        if let Some(items) = items {
            return delegate(method, obj, &[items], named, eval);
        }
    }
    delegate(method, obj, args, named, eval)
}

/// What an item of a set takes on the heap (its value, its hash and its index).
const SET_ITEM_BYTES: u128 = 32;

/// A set's method as starlark-go answers it: `union(iterable)` (its items charged to the
/// budgets before the set is made) and no other.
fn set_method<'v>(
    method: &str,
    obj: Value<'v>,
    args: &[Value<'v>],
    named: Named<'_, 'v>,
    eval: &mut Evaluator<'v, '_, '_>,
) -> starlark::Result<Value<'v>> {
    if method != "union" {
        return error(format!("set has no .{method} field or method"));
    }
    let items = match args {
        [items] if named.is_empty() => *items,
        // No argument is a Go panic of ytt's; keywords are worded as the crate's.
        [] | [_] => return delegate(method, obj, args, named, eval),
        _ => {
            let n = args.len();
            return error(format!("union: got {n} arguments, want at most 1"));
        }
    };
    if items.iterate(eval.heap()).is_err() {
        let ty = items.get_type();
        return error(format!("union: for parameter 1: got {ty}, want iterable"));
    }
    if let Ok(n) = items.length() {
        super::budget::charge_items(n.max(0) as u64, SET_ITEM_BYTES, eval.heap())?;
    }
    delegate(method, obj, args, named, eval).map_err(|e| {
        let message = super::error_message(&e);
        match message.starts_with("unhashable type") {
            true => super::go_builtins::go_error(format!("union: {message}")),
            false => e,
        }
    })
}

/// The first of `items` equal to `x` as starlark-go compares them, for a list's `method`
/// (`index`, `remove`): within its depth bound, a NaN equal to nothing. The crate's equality
/// has no bound: `[v].index(v)` of a list shared 40 levels deep (`v = [v, v]`) compared 2^40
/// pairs, where ytt fails at once.
fn go_position<'v>(
    method: &str,
    items: &[Value<'v>],
    x: Value<'v>,
) -> starlark::Result<Option<usize>> {
    for (i, item) in items.iter().enumerate() {
        let equal = super::go_compare::go_equal(*item, x).map_err(|e| {
            super::go_builtins::go_error(format!("{method}: {}", super::error_message(&e)))
        })?;
        if equal {
            return Ok(Some(i));
        }
    }
    Ok(None)
}

/// The items `list.index(x[, start[, end]])` looks at, as starlark-go bounds them (a negative
/// index counts from the end; both clamped to the list); `None` for arguments it refuses,
/// which the crate's method words.
fn index_range(args: &[Value], named: Named, len: usize) -> Option<(usize, usize)> {
    if !named.is_empty() || args.is_empty() || args.len() > 3 {
        return None;
    }
    let bound = |i: usize, default: usize| -> Option<usize> {
        match args.get(i) {
            None => Some(default),
            Some(v) if v.is_none() => Some(default),
            Some(v) => {
                let n = i64::from(v.unpack_i32()?);
                let n = if n < 0 { n + len as i64 } else { n };
                Some(n.clamp(0, len as i64) as usize)
            }
        }
    };
    let (start, end) = (bound(1, 0)?, bound(2, len)?);
    Some((start, end.max(start)))
}

/// The crate's own `obj.method(args)`, its mutation errors worded as starlark-go's.
fn delegate<'v>(
    method: &str,
    obj: Value<'v>,
    args: &[Value<'v>],
    named: Named<'_, 'v>,
    eval: &mut Evaluator<'v, '_, '_>,
) -> starlark::Result<Value<'v>> {
    let function = obj.get_attr_error(method, eval.heap())?;
    eval.eval_function(function, args, named).map_err(|e| {
        let text = e.without_diagnostic().to_string();
        let iterating = text.starts_with("This operation mutates an iterable");
        match mutation(method, obj.get_type()) {
            Some(verb) if iterating => {
                let what = super::go_mutation::container(obj.get_type());
                starlark::Error::new_other(anyhow::anyhow!(
                    "{method}: cannot {verb} {what} during iteration"
                ))
            }
            _ => e,
        }
    })
}

/// A string method as starlark-go answers it; `None` for those the crate answers alike.
fn string_method<'v>(
    method: &str,
    s: &str,
    args: &[Value<'v>],
    named: Named<'_, 'v>,
    heap: Heap<'v>,
) -> starlark::Result<Option<Value<'v>>> {
    let text = |t: String| Ok(Some(heap.alloc(t)));
    match method {
        "strip" | "lstrip" | "rstrip" => {
            positional(method, args, named, 0, 1)?;
            let chars = match args.first() {
                Some(_) => string_arg(method, args, 1)?,
                None => "",
            };
            let cut = |c: char| {
                if chars.is_empty() {
                    c.is_whitespace()
                } else {
                    chars.contains(c)
                }
            };
            let out = match method {
                "strip" => s.trim_matches(cut),
                "lstrip" => s.trim_start_matches(cut),
                _ => s.trim_end_matches(cut),
            };
            text(out.to_string())
        }
        "replace" => {
            positional(method, args, named, 2, 3)?;
            let (old, new) = (string_arg(method, args, 1)?, string_arg(method, args, 2)?);
            let count = match args.get(2) {
                Some(v) => v.unpack_i32().map_or_else(
                    || {
                        error(format!(
                            "replace: for parameter 3: got {}, want int",
                            v.get_type()
                        ))
                    },
                    Ok,
                )?,
                None => -1,
            };
            text(super::go_string_index::replaced(
                s,
                old,
                new,
                usize::try_from(count).ok(),
            ))
        }
        "find" | "rfind" | "index" | "rindex" => {
            super::go_string_index::find(method, s.as_bytes(), args, named).map(|i| {
                Some(match i {
                    Some(i) => heap.alloc(i as i64),
                    None => heap.alloc(-1),
                })
            })
        }
        // Without a window the crate's own method answers alike.
        "count" | "startswith" | "endswith" if named.is_empty() && args.len() > 1 => Ok(
            super::go_string_index::windowed(method, s.as_bytes(), args, heap),
        ),
        "splitlines" => {
            positional(method, args, named, 0, 1)?;
            let keep = match args.first().map(|v| (v.unpack_bool(), v.get_type())) {
                Some((Some(keep), _)) => keep,
                Some((None, ty)) => {
                    return error(format!("splitlines: for parameter 1: got {ty}, want bool"))
                }
                None => false,
            };
            let mut lines: Vec<&str> = if keep {
                s.split_inclusive('\n').collect()
            } else {
                s.split('\n').collect()
            };
            if !keep && s.ends_with('\n') {
                lines.pop();
            }
            if s.is_empty() {
                lines.clear();
            }
            Ok(Some(heap.alloc(AllocList(lines))))
        }
        "upper" | "lower" | "title" | "capitalize" | "isupper" | "islower" | "istitle" => {
            positional(method, args, named, 0, 0)?;
            let cased = || s.chars().any(go_unicode::cased);
            Ok(Some(match method {
                // ASCII text (most) has ASCII cases: one pass, no per-character lookups.
                "upper" if s.is_ascii() => heap.alloc(s.to_ascii_uppercase()),
                "lower" if s.is_ascii() => heap.alloc(s.to_ascii_lowercase()),
                "upper" => heap.alloc(s.chars().map(go_unicode::upper).collect::<String>()),
                "lower" => heap.alloc(s.chars().map(go_unicode::lower).collect::<String>()),
                "title" => heap.alloc(go_unicode::title(s)),
                "capitalize" => heap.alloc(
                    s.chars()
                        .enumerate()
                        .map(|(i, c)| match i {
                            0 => go_unicode::titlecase(c),
                            _ => go_unicode::lower(c),
                        })
                        .collect::<String>(),
                ),
                "isupper" => {
                    Value::new_bool(cased() && s.chars().all(|c| go_unicode::upper(c) == c))
                }
                "islower" => {
                    Value::new_bool(cased() && s.chars().all(|c| go_unicode::lower(c) == c))
                }
                _ => Value::new_bool(go_unicode::is_title(s)),
            }))
        }
        // (ASCII text is the crate's: the same classes)
        "isdigit" | "isalpha" | "isalnum" if !s.is_ascii() => {
            positional(method, args, named, 0, 0)?;
            let all = go_unicode::all_of_class(method, s);
            Ok(Some(Value::new_bool(all)))
        }
        "elems" | "codepoints" | "elem_ords" | "codepoint_ords" => {
            string_iterable(method, s.as_bytes(), args, named, heap).map(Some)
        }
        m if NOT_STRING_METHODS.contains(&m) => error(super::wording::no_field("string", m, &[])),
        "partition" | "rpartition" => {
            positional(method, args, named, 1, 1)?;
            if string_arg(method, args, 1)?.is_empty() {
                return error(format!("{method}: empty separator"));
            }
            Ok(None)
        }
        _ => Ok(None),
    }
}

/// `S.elems()`, `S.codepoints()` and their `_ords` of the string of `bytes` (UTF-8 or not).
pub(super) fn string_iterable<'v>(
    method: &str,
    bytes: &[u8],
    args: &[Value<'v>],
    named: Named<'_, 'v>,
    heap: Heap<'v>,
) -> starlark::Result<Value<'v>> {
    positional(method, args, named, 0, 0)?;
    let (text, ords) = (bytes.into(), method.ends_with("_ords"));
    Ok(if method.starts_with("elem") {
        heap.alloc(Elems { text, ords })
    } else {
        heap.alloc(Codepoints { text, ords })
    })
}

/// `S.elems()` (`ords`: `S.elem_ords()`): the bytes of a string, iterable, each a string of
/// one byte (a [`super::go_bytes::GoBytes`] past ASCII) or its value.
#[derive(Debug, Clone, ProvidesStaticType, NoSerialize, Allocative, StarlarkPagable)]
pub struct Elems {
    text: Box<[u8]>,
    ords: bool,
}

/// `S.codepoints()` (`ords`: `S.codepoint_ords()`): the characters of a string, iterable; a
/// byte that is no UTF-8 is one of its own (a string of that byte, or U+FFFD's value), as Go
/// reads it.
#[derive(Debug, Clone, ProvidesStaticType, NoSerialize, Allocative, StarlarkPagable)]
pub struct Codepoints {
    text: Box<[u8]>,
    ords: bool,
}

starlark_simple_value!(Elems);
starlark_simple_value!(Codepoints);

impl fmt::Display for Elems {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let name = if self.ords { "elem_ords" } else { "elems" };
        write!(f, "{}.{name}()", quoted_bytes(&self.text))
    }
}

impl fmt::Display for Codepoints {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let name = if self.ords {
            "codepoint_ords"
        } else {
            "codepoints"
        };
        write!(f, "{}.{name}()", quoted_bytes(&self.text))
    }
}

#[starlark_value(type = "elems")]
impl<'v> StarlarkValue<'v> for Elems {
    fn iterate_collect(&self, heap: Heap<'v>) -> starlark::Result<Vec<Value<'v>>> {
        Ok(self
            .text
            .iter()
            .map(|&b| match self.ords {
                true => heap.alloc(b as i32),
                false => super::go_bytes::string_value(vec![b], heap),
            })
            .collect())
    }
}

#[starlark_value(type = "codepoints")]
impl<'v> StarlarkValue<'v> for Codepoints {
    fn iterate_collect(&self, heap: Heap<'v>) -> starlark::Result<Vec<Value<'v>>> {
        let mut out = Vec::new();
        for chunk in self.text.utf8_chunks() {
            out.extend(chunk.valid().chars().map(|c| match self.ords {
                true => heap.alloc(c as i32),
                false => heap.alloc(c.to_string()),
            }));
            out.extend(chunk.invalid().iter().map(|&b| match self.ords {
                true => heap.alloc(char::REPLACEMENT_CHARACTER as i32),
                false => super::go_bytes::string_value(vec![b], heap),
            }));
        }
        Ok(out)
    }
}
