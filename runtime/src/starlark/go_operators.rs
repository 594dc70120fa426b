//! Operators as starlark-go (ytt's interpreter) applies them, where the `starlark` crate's
//! differ: `in`, the checks of a shift's count, and the refusals that name a builtin
//! function's type (see [`super::go_builtins::go_guards`]).

use starlark::values::float::StarlarkFloat;
use starlark::values::{Heap, Value, ValueLike};

use super::go_builtins::go_error;

/// `x in y` as starlark-go answers it: a range wants a number (a float is truncated), a string
/// a string, an unhashable value or one holding a NaN is in no dict.
pub(super) fn contains<'v>(x: Value<'v>, y: Value<'v>, heap: Heap<'v>) -> starlark::Result<bool> {
    match y.get_type() {
        "range" => {
            let n = match x.get_type() {
                "int" => x,
                "float" => match x.downcast_ref::<StarlarkFloat>().map(|f| f.0) {
                    Some(f) if f.is_finite() && f.abs() < 9.0e15 => heap.alloc(f.trunc() as i64),
                    // Beyond any range of 32-bit bounds.
                    Some(f) if f.is_finite() => return Ok(false),
                    _ => x,
                },
                _ => x,
            };
            if !matches!(n.get_type(), "int") {
                let message = format!(
                    "'in <range>' requires integer as left operand, not {}",
                    super::go_type(x)
                );
                return Err(go_error(message));
            }
            y.is_in(n)
        }
        "dict" if x.get_hashed().is_err() => Ok(false),
        // A NaN equals no key, itself included.
        "dict" if super::go_compare::holds_nan(x) => Ok(false),
        // Items compared as starlark-go compares them (a NaN is in no list).
        "list" | "tuple" => {
            for item in y.iterate(heap)? {
                if super::go_compare::go_equal(x, item)? {
                    return Ok(true);
                }
            }
            Ok(false)
        }
        "string" if super::go_bytes::string_bytes(x).is_none() => {
            let message = format!(
                "'in <string>' requires string as left operand, not {}",
                super::go_type(x)
            );
            Err(go_error(message))
        }
        // A string that is not UTF-8 in one that is (the crate's `str` takes only its own).
        "string" if super::go_bytes::is_go_bytes(x) => {
            match (
                super::go_bytes::string_bytes(x),
                super::go_bytes::string_bytes(y),
            ) {
                (Some(needle), Some(text)) => Ok(memchr::memmem::find(text, needle).is_some()),
                _ => y.is_in(x),
            }
        }
        _ => builtin_operands(y.is_in(x), "in", x, y),
    }
}

/// starlark-go's checks of the count of an int shift: an int of 32 bits, not negative, under
/// 512 to the left.
pub(super) fn shift_count(left: bool, x: Value, y: Value) -> anyhow::Result<()> {
    if x.get_type() != "int" {
        return Ok(());
    }
    let n = match y.unpack_i32() {
        Some(n) => n,
        None if y.get_type() == "int" => anyhow::bail!("{} out of range", y.to_repr()),
        None => anyhow::bail!("got {}, want int", y.get_type()),
    };
    if n < 0 {
        anyhow::bail!("negative shift count: {n}");
    }
    if left && n >= 512 {
        anyhow::bail!("shift count too large: {n}");
    }
    Ok(())
}

/// starlark-go's refusal of `x OP y`, which names the operands' types as it does (a builtin
/// function is a `builtin_function_or_method`).
pub(super) fn unknown_binary_op(op: &str, x: Value, y: Value) -> starlark::Error {
    let (x, y) = (super::go_type(x), super::go_type(y));
    go_error(format!("unknown binary op: {x} {op} {y}"))
}

/// The crate's `result` of `x OP y`, its refusal in starlark-go's words when an operand is a
/// builtin function: the crate names its type `function`, and [`super::wording`], which
/// words the other refusals, sees only the types.
pub(super) fn builtin_operands<'v, T>(
    result: starlark::Result<T>,
    op: &str,
    x: Value<'v>,
    y: Value<'v>,
) -> starlark::Result<T> {
    let builtin = |v: Value| super::go_type(v) != v.get_type();
    result.map_err(|e| match builtin(x) || builtin(y) {
        true => unknown_binary_op(op, x, y),
        false => e,
    })
}
