//! The string methods that take or give an index (`find`, `rfind`, `index`, `rindex`, and
//! `count`, `startswith`, `endswith` given a start or an end), and `replace`: starlark-go
//! counts a string's bytes, as its slices do ([`super::go_slice`]), so `"héllo".find("l")` is
//! 3. They work on the bytes, so a string that is not UTF-8 ([`super::go_bytes::GoBytes`]) is
//! answered by the same code as text; a window may cut a character (`"héllo".count("l", 2)`).
//! Text's own `replace` ([`replaced`]) and the count of a pattern ([`occurrences`], which the
//! budgets use) are here too.

use memchr::memmem;
use starlark::values::{Heap, Value};

use super::go_bytes::string_bytes;
use super::go_methods::{error, positional, string_arg, Named};
use super::go_slice::as_index;

/// starlark-go's `indices`: the optional start and end arguments `args[at]` and `args[at + 1]`
/// as byte offsets into a string of `len` bytes, negative ones from the end, clamped to the
/// string (`end` may be before `start`). `Err(i)`: argument `i` is not an int nor `None`.
fn window(len: usize, args: &[Value], at: usize) -> Result<(usize, usize), usize> {
    let n = len as i64;
    let index = |i: usize, default: i64| -> Result<usize, usize> {
        let v = args.get(i).copied().unwrap_or_else(Value::new_none);
        let x = as_index(v, n, default).map_err(|_| i)?;
        Ok(x.clamp(0, n) as usize)
    };
    Ok((index(at, 0)?, index(at + 1, n)?))
}

/// The string argument `i` (from 1) of `name` as bytes (UTF-8 or not).
fn bytes_arg<'v>(name: &str, args: &[Value<'v>], i: usize) -> starlark::Result<&'v [u8]> {
    match string_bytes(args[i - 1]) {
        Some(bytes) => Ok(bytes),
        None => string_arg(name, args, i).map(str::as_bytes),
    }
}

/// The offsets in `s` where Go's `for range` finds a rune, then `s.len()`: each character of
/// UTF-8, and each byte that is none (Go reads it as a `RuneError` one byte wide).
fn go_rune_starts(s: &[u8]) -> impl Iterator<Item = usize> + '_ {
    let mut at = 0;
    let starts = s.utf8_chunks().flat_map(move |chunk| {
        let valid = chunk.valid();
        let from = at;
        at += valid.len() + chunk.invalid().len();
        let chars = valid.char_indices().map(move |(i, _)| from + i);
        chars.chain(from + valid.len()..at)
    });
    starts.chain(std::iter::once(s.len()))
}

/// `S.find(SUB, START, END)` and its kin: the byte offset of `SUB` in the window (`None` for
/// none); `index`/`rindex` fail when they find nothing. As starlark-go: the window is empty
/// when its end is not past its start, and an empty `SUB` is found at its start (at its end
/// by `rfind` of a window that is not empty).
pub(super) fn find(
    method: &str,
    s: &[u8],
    args: &[Value],
    named: Named,
) -> starlark::Result<Option<usize>> {
    positional(method, args, named, 1, 3)?;
    let sub = bytes_arg(method, args, 1)?;
    let (start, end) = window(s.len(), args, 1).or_else(|i| {
        let which = if i == 1 { "start" } else { "end" };
        error(format!(
            "{method}: invalid {which} index: got {}, want int",
            args[i].get_type()
        ))
    })?;
    let slice = if start < end { &s[start..end] } else { &[][..] };
    let at = match method.starts_with('r') {
        true => memmem::rfind(slice, sub),
        false => memmem::find(slice, sub),
    };
    let found = at.map(|at| start + at);
    if found.is_none() && method.ends_with("index") {
        return error(format!("{method}: substring not found"));
    }
    Ok(found)
}

/// `S.count(SUB, START, END)`, `S.startswith(X, START, END)` and `S.endswith(X, START, END)`:
/// the answer in bytes (an end before the start makes the window empty), or `None` to leave
/// the call to the crate (arguments whose errors the crate words).
pub(super) fn windowed<'v>(
    method: &str,
    s: &[u8],
    args: &[Value<'v>],
    heap: Heap<'v>,
) -> Option<Value<'v>> {
    if args.is_empty() || args.len() > 3 {
        return None;
    }
    let sub = string_bytes(args[0])?;
    let (start, end) = window(s.len(), args, 1).ok()?;
    let bytes = &s[start..end.max(start)];
    Some(match method {
        "startswith" => Value::new_bool(bytes.starts_with(sub)),
        "endswith" => Value::new_bool(bytes.ends_with(sub)),
        // Go's `strings.Count(w, "")`: the runes of `w` and one, each bad byte a rune.
        "count" if sub.is_empty() => heap.alloc(go_rune_starts(bytes).count()),
        "count" => heap.alloc(memmem::find_iter(bytes, sub).count()),
        _ => return None,
    })
}

/// `S.replace(OLD, NEW, COUNT)` on the bytes of `S` (as Go's `strings.Replace`): the first
/// `COUNT` (all, when it is negative or missing) non-overlapping `OLD`; an empty `OLD` is found
/// before each rune and at the end (each bad byte a rune).
pub(super) fn replace_bytes(s: &[u8], args: &[Value], named: Named) -> starlark::Result<Vec<u8>> {
    positional("replace", args, named, 2, 3)?;
    let (old, new) = (
        bytes_arg("replace", args, 1)?,
        bytes_arg("replace", args, 2)?,
    );
    let limit = match args.get(2) {
        Some(v) => match v.unpack_i32() {
            Some(n) => usize::try_from(n).unwrap_or(usize::MAX),
            None => {
                let ty = v.get_type();
                return error(format!("replace: for parameter 3: got {ty}, want int"));
            }
        },
        None => usize::MAX,
    };
    let cuts: Vec<usize> = match old.is_empty() {
        true => go_rune_starts(s).take(limit).collect(),
        false => memmem::find_iter(s, old).take(limit).collect(),
    };
    let mut out = Vec::with_capacity(s.len() + cuts.len() * new.len());
    let mut last = 0;
    for at in cuts {
        out.extend_from_slice(&s[last..at]);
        out.extend_from_slice(new);
        last = at + old.len();
    }
    out.extend_from_slice(&s[last..]);
    Ok(out)
}

/// `s` with its first `n` (all, when `None`) non-overlapping `old` replaced by `new`, as Go's
/// `strings.Replace`: counted first, by a vectorised search, and written into a string of the
/// result's length (`str::replace` searched a one-byte `old` a byte at a time and doubled its
/// buffer as it grew: 40 doublings of a string took 12 s to reach the memory budget).
pub(super) fn replaced(s: &str, old: &str, new: &str, n: Option<usize>) -> String {
    if old.is_empty() {
        return match n {
            Some(n) => s.replacen(old, new, n),
            None => s.replace(old, new),
        };
    }
    let limit = n.unwrap_or(usize::MAX);
    if let ([byte], None) = (old.as_bytes(), n) {
        // One byte, every one replaced: a loop over the bytes, with no search per match (the
        // replaced byte is ASCII or a whole character, so the bytes stay UTF-8).
        let found = occurrences(s, old);
        let mut out = Vec::with_capacity(s.len() - found + found * new.len());
        for &b in s.as_bytes() {
            match b == *byte {
                true => out.extend_from_slice(new.as_bytes()),
                false => out.push(b),
            }
        }
        return String::from_utf8(out).expect("UTF-8 with a character replaced by a string");
    }
    let finder = memchr::memmem::Finder::new(old);
    let found = finder.find_iter(s.as_bytes()).take(limit).count();
    let mut out = String::with_capacity(s.len() - found * old.len() + found * new.len());
    let mut last = 0;
    for at in finder.find_iter(s.as_bytes()).take(found) {
        out.push_str(&s[last..at]);
        out.push_str(new);
        last = at + old.len();
    }
    out.push_str(&s[last..]);
    out
}

/// How many non-overlapping `pattern` are in `s` (a non-empty `pattern`).
pub(super) fn occurrences(s: &str, pattern: &str) -> usize {
    match pattern.as_bytes() {
        // A count the compiler vectorises, with no call per match.
        [byte] => s.bytes().filter(|b| b == byte).count(),
        _ => memchr::memmem::find_iter(s.as_bytes(), pattern.as_bytes()).count(),
    }
}
