//! Comparisons as ytt's starlark-go makes them, where the `starlark` crate's differ: every
//! `==`, `!=`, `<`, `<=`, `>` and `>=` of a program is a call of one of these functions (see
//! [`super::budget::guard_repetition`]).
//!
//! - Numbers: two floats compare as IEEE 754 (a NaN is unequal to everything, itself
//!   included, and neither less nor greater), an int and a float exactly
//!   ([`crate::rules::number_order`]: `2**53 + 1 > float(2**53)`, and ytt's quirk
//!   `float("inf") <= 10`); the crate orders floats totally and compares an int with a float
//!   as floats.
//! - Strings that are not UTF-8 ([`super::go_bytes::GoBytes`]) compare by their bytes with
//!   every string, on either side (the crate's `str` compares only with `str`).
//! - Lists, tuples and dicts compare item by item with these rules, to a depth of
//!   [`MAX_DEPTH`] (starlark-go's error past it; the crate's own `Too many recursion levels`
//!   came only from a list holding itself), and a list is never equal to itself for being the
//!   same list (`l == l` is false for `l = [float("nan")]`).
//!
//! - `None` equals `None` by every operator (`None < None` is false, `None <= None` true).
//!
//! `==` and `!=` of anything else are the crate's; an ordering of anything else but two bools
//! (or two fragments, ytt's own error) is starlark-go's `T op U not implemented`.
//! `sorted`, `min` and `max` order by these functions ([`super::go_order`]).

use std::cmp::Ordering;

use num_bigint::BigInt;
use starlark::environment::GlobalsBuilder;
use starlark::values::dict::DictRef;
use starlark::values::float::StarlarkFloat;
use starlark::values::list::ListRef;
use starlark::values::tuple::TupleRef;
use starlark::values::{UnpackValue, Value, ValueLike};

use crate::rules::{number_order, numbers_differ, Number};

use super::go_builtins::go_error;
use super::go_bytes::string_bytes;

/// The global functions the comparison operators of a program call, by operator.
pub(super) const EQUAL: &str = "__schemac_eq";
pub(super) const NOT_EQUAL: &str = "__schemac_ne";
pub(super) const LESS: &str = "__schemac_lt";
pub(super) const LESS_EQUAL: &str = "__schemac_le";
pub(super) const GREATER: &str = "__schemac_gt";
pub(super) const GREATER_EQUAL: &str = "__schemac_ge";

/// starlark-go's bound on nested comparisons (its `maxdepth`): `[[...[]...]]` ten lists deep
/// compares, eleven deep fails with [`too_deep`].
const MAX_DEPTH: u32 = 10;

/// A comparison operator.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Op {
    Eq,
    Ne,
    Lt,
    Le,
    Gt,
    Ge,
}

impl Op {
    fn symbol(self) -> &'static str {
        match self {
            Op::Eq => "==",
            Op::Ne => "!=",
            Op::Lt => "<",
            Op::Le => "<=",
            Op::Gt => ">",
            Op::Ge => ">=",
        }
    }

    /// Whether `order` (`None`: unordered, a NaN) passes this operator.
    fn holds(self, order: Option<Ordering>) -> bool {
        let Some(order) = order else {
            return false;
        };
        match self {
            Op::Eq => order.is_eq(),
            Op::Ne => order.is_ne(),
            Op::Lt => order.is_lt(),
            Op::Le => order.is_le(),
            Op::Gt => order.is_gt(),
            Op::Ge => order.is_ge(),
        }
    }
}

fn too_deep() -> starlark::Error {
    go_error("comparison exceeded maximum recursion depth".into())
}

/// A number of a comparison: an int within 128 bits or a float ([`Number`]), or a bigger int.
enum Numeric {
    Small(Number),
    Big(BigInt),
}

fn numeric(v: Value) -> Option<Numeric> {
    if let Some(i) = v.unpack_i32() {
        return Some(Numeric::Small(Number::Int(i.into())));
    }
    if let Some(f) = v.downcast_ref::<StarlarkFloat>() {
        return Some(Numeric::Small(Number::Float(f.0)));
    }
    if v.get_type() != "int" {
        return None;
    }
    let big = BigInt::unpack_value(v).ok().flatten()?;
    Some(match i128::try_from(&big) {
        Ok(i) => Numeric::Small(Number::Int(i)),
        Err(_) => Numeric::Big(big),
    })
}

/// `a OP b` of two numbers, or `None` when one is no number.
fn numbers(op: Op, a: Value, b: Value) -> Option<bool> {
    let (x, y) = (numeric(a)?, numeric(b)?);
    Some(match (x, y) {
        (Numeric::Small(x), Numeric::Small(y)) if op == Op::Ne => numbers_differ(x, y),
        (Numeric::Small(x), Numeric::Small(y)) => op.holds(number_order(x, y)),
        (Numeric::Big(x), Numeric::Big(y)) => op.holds(Some(x.cmp(&y))),
        (Numeric::Big(x), Numeric::Small(y)) => beyond_i128(op, &x, y, false),
        (Numeric::Small(x), Numeric::Big(y)) => beyond_i128(op, &y, x, true),
    })
}

/// `big OP other` (or `other OP big` when `big_right`) for an int past 128 bits.
fn beyond_i128(op: Op, big: &BigInt, other: Number, big_right: bool) -> bool {
    let order = match other {
        // Any int of 128 bits is nearer zero.
        Number::Int(_) => Some(big.sign().cmp(&num_bigint::Sign::NoSign)),
        Number::Float(f) if f.is_nan() => None,
        // ytt's quirk: an infinity on the left of an int compares as of the other sign.
        Number::Float(f) if f.is_infinite() && big_right => Some(if f > 0.0 {
            Ordering::Greater
        } else {
            Ordering::Less
        }),
        Number::Float(f) if f.is_infinite() => Some(if f > 0.0 {
            Ordering::Less
        } else {
            Ordering::Greater
        }),
        // A float this far from zero is whole; nearer zero, the int's sign decides.
        Number::Float(f) => match <BigInt as num_traits::FromPrimitive>::from_f64(f) {
            Some(whole) if f.abs() >= 2f64.powi(127) => Some(big.cmp(&whole)),
            _ => Some(big.sign().cmp(&num_bigint::Sign::NoSign)),
        },
    };
    // (`order` is `big` against `other`; with `big` on the right it is turned round.)
    let order = order.map(|o| if big_right { o.reverse() } else { o });
    match order {
        None => false,
        Some(o) => op.holds(Some(o)),
    }
}

/// The items of a list or tuple, with which of the two it is.
fn sequence<'v>(v: Value<'v>) -> Option<(&'static str, &'v [Value<'v>])> {
    if let Some(list) = ListRef::from_value(v) {
        return Some(("list", list.content()));
    }
    TupleRef::from_value(v).map(|t| ("tuple", t.content()))
}

/// `a OP b` as starlark-go's `CompareDepth`, `depth` levels left.
fn compared<'v>(op: Op, a: Value<'v>, b: Value<'v>, depth: u32) -> starlark::Result<bool> {
    if depth < 1 {
        return Err(too_deep());
    }
    // The common kinds first: small ints, floats, strings, lists and tuples.
    if let (Some(x), Some(y)) = (a.unpack_i32(), b.unpack_i32()) {
        return Ok(op.holds(Some(x.cmp(&y))));
    }
    if let (Some(x), Some(y)) = (
        a.downcast_ref::<StarlarkFloat>(),
        b.downcast_ref::<StarlarkFloat>(),
    ) {
        return Ok(match op {
            // IEEE 754: a NaN is unequal to everything.
            Op::Ne => x.0 != y.0,
            _ => op.holds(x.0.partial_cmp(&y.0)),
        });
    }
    if let (Some(x), Some(y)) = (a.unpack_str(), b.unpack_str()) {
        return Ok(op.holds(Some(x.cmp(y))));
    }
    if let (Some((kind_a, x)), Some((kind_b, y))) = (sequence(a), sequence(b)) {
        if kind_a == kind_b {
            return items_compared(op, x, y, depth);
        }
    }
    if let Some(answer) = numbers(op, a, b) {
        return Ok(answer);
    }
    if let (Some(x), Some(y)) = (string_bytes(a), string_bytes(b)) {
        return Ok(op.holds(Some(x.cmp(y))));
    }
    if a.is_none() && b.is_none() {
        // starlark-go's `NoneType` compares equal to itself by every operator.
        return Ok(op.holds(Some(Ordering::Equal)));
    }
    if matches!(op, Op::Eq | Op::Ne) {
        if let (Some(x), Some(y)) = (DictRef::from_value(a), DictRef::from_value(b)) {
            let mut equal = x.len() == y.len();
            for (k, v) in x.iter() {
                if !equal {
                    break;
                }
                equal = match y.get(k)? {
                    Some(w) => compared(Op::Eq, v, w, depth - 1)?,
                    None => false,
                };
            }
            return Ok(equal == (op == Op::Eq));
        }
        return Ok(a.equals(b)? == (op == Op::Eq));
    }
    // Of the values left only bools order (and two fragments, whose `compare` is ytt's own
    // error); starlark-go refuses the rest by their types.
    match (a.get_type(), b.get_type()) {
        ("bool", "bool") | ("yamlfragment", "yamlfragment") => Ok(op.holds(Some(a.compare(b)?))),
        _ => Err(go_error(format!(
            "{} {} {} not implemented",
            super::go_type(a),
            op.symbol(),
            super::go_type(b)
        ))),
    }
}

/// starlark-go's `sliceCompare`: lengths decide `==`/`!=` first; otherwise the first items
/// that are not equal decide, or else the lengths.
fn items_compared<'v>(
    op: Op,
    x: &[Value<'v>],
    y: &[Value<'v>],
    depth: u32,
) -> starlark::Result<bool> {
    if x.len() != y.len() && matches!(op, Op::Eq | Op::Ne) {
        return Ok(op == Op::Ne);
    }
    for (p, q) in x.iter().zip(y) {
        if !compared(Op::Eq, *p, *q, depth - 1)? {
            return match op {
                Op::Eq => Ok(false),
                Op::Ne => Ok(true),
                _ => compared(op, *p, *q, depth - 1),
            };
        }
    }
    Ok(op.holds(Some(x.len().cmp(&y.len()))))
}

/// `a == b` as starlark-go answers it (for `in` and the like).
pub(super) fn go_equal<'v>(a: Value<'v>, b: Value<'v>) -> starlark::Result<bool> {
    compared(Op::Eq, a, b, MAX_DEPTH)
}

#[starlark::starlark_module]
pub(super) fn comparison_builtins(builder: &mut GlobalsBuilder) {
    /// `a == b`.
    fn __schemac_eq<'v>(
        #[starlark(require = pos)] a: Value<'v>,
        #[starlark(require = pos)] b: Value<'v>,
    ) -> starlark::Result<bool> {
        compared(Op::Eq, a, b, MAX_DEPTH)
    }

    /// `a != b`.
    fn __schemac_ne<'v>(
        #[starlark(require = pos)] a: Value<'v>,
        #[starlark(require = pos)] b: Value<'v>,
    ) -> starlark::Result<bool> {
        compared(Op::Ne, a, b, MAX_DEPTH)
    }

    /// `a < b`.
    fn __schemac_lt<'v>(
        #[starlark(require = pos)] a: Value<'v>,
        #[starlark(require = pos)] b: Value<'v>,
    ) -> starlark::Result<bool> {
        compared(Op::Lt, a, b, MAX_DEPTH)
    }

    /// `a <= b`.
    fn __schemac_le<'v>(
        #[starlark(require = pos)] a: Value<'v>,
        #[starlark(require = pos)] b: Value<'v>,
    ) -> starlark::Result<bool> {
        compared(Op::Le, a, b, MAX_DEPTH)
    }

    /// `a > b`.
    fn __schemac_gt<'v>(
        #[starlark(require = pos)] a: Value<'v>,
        #[starlark(require = pos)] b: Value<'v>,
    ) -> starlark::Result<bool> {
        compared(Op::Gt, a, b, MAX_DEPTH)
    }

    /// `a >= b`.
    fn __schemac_ge<'v>(
        #[starlark(require = pos)] a: Value<'v>,
        #[starlark(require = pos)] b: Value<'v>,
    ) -> starlark::Result<bool> {
        compared(Op::Ge, a, b, MAX_DEPTH)
    }
}

/// Whether `v` is a NaN, or a tuple holding one (at any depth): equal to no key of a dict.
pub(super) fn holds_nan(v: Value) -> bool {
    if let Some(f) = v.downcast_ref::<StarlarkFloat>() {
        return f.0.is_nan();
    }
    sequence(v).is_some_and(|(_, items)| items.iter().copied().any(holds_nan))
}

/// `a < b` as starlark-go's `sorted` asks it.
pub(super) fn go_less<'v>(a: Value<'v>, b: Value<'v>) -> starlark::Result<bool> {
    compared(Op::Lt, a, b, MAX_DEPTH)
}

/// `a > b` as starlark-go's `max` asks it, or `a < b` as `min` does (`min` true).
pub(super) fn go_beyond<'v>(min: bool, a: Value<'v>, b: Value<'v>) -> starlark::Result<bool> {
    compared(if min { Op::Lt } else { Op::Gt }, a, b, MAX_DEPTH)
}
