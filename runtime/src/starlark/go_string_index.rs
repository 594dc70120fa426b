//! The string methods that take or give an index (`find`, `rfind`, `index`, `rindex`, and
//! `count`, `startswith`, `endswith` given a start or an end): starlark-go counts a string's
//! bytes, as its slices do ([`super::go_slice`]), so `"héllo".find("l")` is 3.
//!
//! A window of a string may cut a character (`"héllo".count("l", 2)`), but a substring that is
//! UTF-8 itself only ever matches whole characters (UTF-8 finds its own starts), so searching
//! the characters wholly inside the window finds what starlark-go finds in its bytes.

use starlark::values::{Heap, Value};

use super::go_methods::{error, positional, string_arg, Named};
use super::go_slice::as_index;

/// starlark-go's `indices`: the optional start and end arguments `args[at]` and `args[at + 1]`
/// as byte offsets into `s`, negative ones from the end, clamped to the string (`end` may be
/// before `start`). `Err(i)`: argument `i` is not an int nor `None`.
fn window(s: &str, args: &[Value], at: usize) -> Result<(usize, usize), usize> {
    let n = s.len() as i64;
    let index = |i: usize, default: i64| -> Result<usize, usize> {
        let v = args.get(i).copied().unwrap_or_else(Value::new_none);
        let x = as_index(v, n, default).map_err(|_| i)?;
        Ok(x.clamp(0, n) as usize)
    };
    Ok((index(at, 0)?, index(at + 1, n)?))
}

/// The first character boundary of `s` at or after `i`.
fn boundary_after(s: &str, mut i: usize) -> usize {
    while !s.is_char_boundary(i) {
        i += 1;
    }
    i
}

/// The last character boundary of `s` at or before `i`.
fn boundary_before(s: &str, mut i: usize) -> usize {
    while !s.is_char_boundary(i) {
        i -= 1;
    }
    i
}

/// The whole characters of `s[start..end]` (bytes), and where they start.
fn inner(s: &str, start: usize, end: usize) -> (&str, usize) {
    let (from, to) = (boundary_after(s, start), boundary_before(s, end));
    (s.get(from..to.max(from)).unwrap_or(""), from)
}

/// `S.find(SUB, START, END)` and its kin: the byte offset of `SUB` in the window (`None` for
/// none); `index`/`rindex` fail when they find nothing.
pub(super) fn find(
    method: &str,
    s: &str,
    args: &[Value],
    named: Named,
) -> starlark::Result<Option<usize>> {
    positional(method, args, named, 1, 3)?;
    let sub = string_arg(method, args, 1)?;
    let (start, end) = window(s, args, 1).or_else(|i| {
        let which = if i == 1 { "start" } else { "end" };
        error(format!(
            "{method}: invalid {which} index: got {}, want int",
            args[i].get_type()
        ))
    })?;
    let reverse = method.starts_with('r');
    let found = match (start <= end, sub.is_empty()) {
        (false, _) => None,
        (true, true) => Some(if reverse { end } else { start }),
        (true, false) => {
            let (text, from) = inner(s, start, end);
            let at = if reverse {
                text.rfind(sub)
            } else {
                text.find(sub)
            };
            at.map(|at| from + at)
        }
    };
    if found.is_none() && method.ends_with("index") {
        return error(format!("{method}: substring not found"));
    }
    Ok(found)
}

/// `S.count(SUB, START, END)`, `S.startswith(X, START, END)` and `S.endswith(X, START, END)`
/// given a start or an end: the answer in bytes (an end before the start makes the window
/// empty), or `None` to leave the call to the crate (no window, or
/// arguments whose errors the crate words).
pub(super) fn windowed<'v>(
    method: &str,
    s: &str,
    args: &[Value<'v>],
    heap: Heap<'v>,
) -> Option<Value<'v>> {
    if args.len() < 2 || args.len() > 3 {
        return None;
    }
    let sub = args[0].unpack_str()?;
    let (start, end) = window(s, args, 1).ok()?;
    let end = end.max(start);
    let bytes = &s.as_bytes()[start..end];
    let (text, _) = inner(s, start, end);
    Some(match method {
        "startswith" => Value::new_bool(bytes.starts_with(sub.as_bytes())),
        "endswith" => Value::new_bool(bytes.ends_with(sub.as_bytes())),
        // Go's `strings.Count(w, "")`: the runes of `w` and one, each byte of a cut character
        // a rune of its own.
        "count" if sub.is_empty() => {
            heap.alloc(text.chars().count() + (bytes.len() - text.len()) + 1)
        }
        "count" => heap.alloc(text.matches(sub).count()),
        _ => return None,
    })
}
