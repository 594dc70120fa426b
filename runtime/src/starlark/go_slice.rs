//! Slices and string indexes as starlark-go takes them (ytt embeds it): a string is its bytes
//! (`"héllo"[1:3]` is `é`), `None` stands for a missing bound (`s[None:2]`), and the bounds'
//! errors name the bound (`invalid start index: got string, want int`). Every `x[a:b:c]` of a
//! program calls [`slice`] (see [`super::source_guard::guard_source`]).
//!
//! starlark-go's strings may hold any bytes; a slice or an index that cuts a character of
//! UTF-8 in two makes a string that is not UTF-8, which ytt writes as `!!binary`: a
//! [`super::go_bytes::GoBytes`] here.

use starlark::values::tuple::AllocTuple;
use starlark::values::{Heap, Value};

use super::go_builtins::go_error;
use super::go_bytes::{string_bytes, string_value};

/// The global function every slice expression `x[a:b:c]` calls, with `None` for a missing part.
pub(super) const SLICE: &str = "__schemac_slice";

/// The int `v` as a slice's bound, or ytt's error: an int past 32 bits is `got int, want int`
/// too (ytt's starlark-go says so for `[1][2147483648:]`).
fn as_int32(v: Value) -> Result<i64, String> {
    v.unpack_i32()
        .map(i64::from)
        .ok_or_else(|| format!("got {}, want int", v.get_type()))
}

/// starlark-go's `asIndex`: `v` as an index of a sequence of `len` (negative ones counted
/// from the end), or `default` for `None`.
pub(super) fn as_index(v: Value, len: i64, default: i64) -> Result<i64, String> {
    if v.is_none() {
        return Ok(default);
    }
    let i = as_int32(v)?;
    Ok(if i < 0 { i + len } else { i })
}

/// The start, end and step of `x[lo:hi:step]` in a sequence of `len` (starlark-go's `slice`):
/// the end is -1 for a slice backwards to the first item.
fn bounds(len: i64, lo: Value, hi: Value, step: Value) -> Result<(i64, i64, i64), String> {
    let step = if step.is_none() {
        1
    } else {
        as_int32(step).map_err(|_| format!("got {} for slice step, want int", step.get_type()))?
    };
    if step == 0 {
        return Err("zero is not a valid slice step".into());
    }
    let start_error = |e| format!("invalid start index: {e}");
    let end_error = |e| format!("invalid end index: {e}");
    let (start, end) = if step > 0 {
        let start = as_index(lo, len, 0).map_err(start_error)?.clamp(0, len);
        let end = as_index(hi, len, len).map_err(end_error)?.clamp(0, len);
        (start, end.max(start))
    } else {
        let start = as_index(lo, len, len - 1)
            .map_err(start_error)?
            .min(len - 1);
        let end = as_index(hi, len, -1).map_err(end_error)?.max(-1);
        (start.max(end), end)
    };
    Ok((start, end, step))
}

/// The positions `x[lo:hi:step]` takes from a sequence of `len`, in order.
fn positions(len: i64, lo: Value, hi: Value, step: Value) -> Result<Vec<usize>, String> {
    let (start, end, step) = bounds(len, lo, hi, step)?;
    let mut taken = Vec::new();
    let mut i = start;
    while (end - i).signum() == step.signum() {
        taken.push(i as usize);
        i += step;
    }
    Ok(taken)
}

/// `x[lo:hi:step]` as starlark-go computes it.
pub(super) fn slice<'v>(
    x: Value<'v>,
    lo: Value<'v>,
    hi: Value<'v>,
    step: Value<'v>,
    heap: Heap<'v>,
) -> starlark::Result<Value<'v>> {
    let ty = x.get_type();
    if let Some(bytes) = string_bytes(x) {
        let taken = positions(bytes.len() as i64, lo, hi, step).map_err(go_error)?;
        return Ok(string_value(
            taken.iter().map(|&i| bytes[i]).collect(),
            heap,
        ));
    }
    if ty == "yamlfragment" {
        // Sliceable to starlark-go, whose bounds are checked first; ytt's `Slice` then panics,
        // recovered with no position.
        bounds(i64::from(x.length()?), lo, hi, step).map_err(go_error)?;
        let message = "yamlfragment.Slice: Not implemented".to_string();
        return Err(starlark::Error::new_native(
            super::assertion::RecoveredPanic(message),
        ));
    }
    if !matches!(ty, "list" | "tuple" | "range") {
        return Err(go_error(format!("invalid slice operand {ty}")));
    }
    let len = i64::from(x.length()?);
    if ty == "range" {
        // A range's slice is a range: the interpreter's, given the bounds made explicit (an
        // end before the first item is `None` to it).
        let (start, end, step) = bounds(len, lo, hi, step).map_err(go_error)?;
        let end = if end < 0 {
            Value::new_none()
        } else {
            heap.alloc(end)
        };
        return x.slice(
            Some(heap.alloc(start)),
            Some(end),
            Some(heap.alloc(step)),
            heap,
        );
    }
    let taken = positions(len, lo, hi, step).map_err(go_error)?;
    let items: Vec<Value<'v>> = taken
        .iter()
        .map(|&i| x.at(heap.alloc(i as i64), heap))
        .collect::<starlark::Result<_>>()?;
    Ok(if ty == "tuple" {
        heap.alloc(AllocTuple(items))
    } else {
        heap.alloc(items)
    })
}

/// `s[i]` of the string of bytes `s` as starlark-go takes it: its byte `i` (the caller has
/// checked that `i` is an int in range).
pub(super) fn string_index<'v>(s: &[u8], i: i32, heap: Heap<'v>) -> Value<'v> {
    let len = s.len() as i64;
    let i = if i < 0 {
        i64::from(i) + len
    } else {
        i64::from(i)
    };
    string_value(vec![s[i as usize]], heap)
}
