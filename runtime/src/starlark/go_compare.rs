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
//! - `None` is equal to `None` for every operator (`None <= None` is true, `None < None`
//!   false); a YAML fragment is not even equal to itself (`yamlfragment.CompareSameType: Not
//!   implemented`).
//!
//! `sorted`, `min` and `max` order with [`compare`] ([`super::go_sort`]); lookups of a key
//! holding a NaN find nothing ([`holds_nan`]).
//!
//! Anything else is the crate's own comparison (its errors are worded as starlark-go's by
//! [`super::wording`]).

use std::cmp::Ordering;
use std::hash::Hasher;

use allocative::Allocative;
use num_bigint::{BigInt, Sign};
use starlark::collections::StarlarkHasher;
use starlark::environment::GlobalsBuilder;
use starlark::values::dict::DictRef;
use starlark::values::float::StarlarkFloat;
use starlark::values::list::ListRef;
use starlark::values::tuple::TupleRef;
use starlark::values::{
    starlark_value, Heap, NoSerialize, ProvidesStaticType, StarlarkValue, UnpackValue, Value,
    ValueLike,
};
use starlark::{starlark_simple_value, StarlarkPagable};

use crate::rules::{number_order, numbers_differ, Number};

use super::convert::YamlFragment;
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
/// compares, eleven deep fails with [`too_deep`] (data values compare alike:
/// [`crate::rules::compare`]).
const MAX_DEPTH: u32 = crate::rules::GO_COMPARE_DEPTH;

/// A comparison operator.
#[derive(Clone, Copy, PartialEq, Eq)]
pub(super) enum Op {
    Eq,
    Ne,
    Lt,
    Le,
    Gt,
    Ge,
}

impl Op {
    /// The operator as written (`==` and `!=` never refuse their operands).
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
    go_error(crate::rules::TOO_DEEP.into())
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
        Number::Int(_) => {
            let order = big.sign().cmp(&Sign::NoSign);
            Some(if big_right { order.reverse() } else { order })
        }
        // A float this far from zero is whole: compared exactly.
        Number::Float(f) if f.is_finite() && f.abs() >= 2f64.powi(127) => {
            <BigInt as num_traits::FromPrimitive>::from_f64(f).map(|whole| match big_right {
                true => whole.cmp(big),
                false => big.cmp(&whole),
            })
        }
        // Nearer zero, or no finite number: as the int of 128 bits nearest `big` (a NaN,
        // ytt's infinity on the left of an int: `number_order`'s rules).
        Number::Float(_) => {
            let near = Number::Int(match big.sign() {
                Sign::Minus => i128::MIN,
                _ => i128::MAX,
            });
            match big_right {
                true => number_order(other, near),
                false => number_order(near, other),
            }
        }
    };
    op.holds(order)
}

/// The items of a list or tuple, with which of the two it is (read in place: a comparison
/// runs no code that could change them).
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
    // Two small ints, the items of most lists compared (what `numbers` answers, sooner).
    if let (Some(x), Some(y)) = (a.unpack_i32(), b.unpack_i32()) {
        return Ok(op.holds(Some(x.cmp(&y))));
    }
    if let (Some(x), Some(y)) = (a.unpack_str(), b.unpack_str()) {
        return Ok(op.holds(Some(x.cmp(y))));
    }
    // starlark-go's `None` compares as equal to `None` (`None <= None` is true).
    if a.is_none() && b.is_none() {
        return Ok(op.holds(Some(Ordering::Equal)));
    }
    if let Some(answer) = numbers(op, a, b) {
        return Ok(answer);
    }
    if let (Some(x), Some(y)) = (string_bytes(a), string_bytes(b)) {
        return Ok(op.holds(Some(x.cmp(y))));
    }
    if let (Some((kind_a, x)), Some((kind_b, y))) = (sequence(a), sequence(b)) {
        if kind_a == kind_b {
            return items_compared(op, x, y, depth);
        }
    }
    if matches!(op, Op::Eq | Op::Ne) {
        if let (Some(x), Some(y)) = (DictRef::from_value(a), DictRef::from_value(b)) {
            let mut equal = x.len() == y.len();
            for (k, v) in x.iter() {
                if !equal {
                    break;
                }
                equal = match y.get(k)? {
                    // (a key holding a NaN finds nothing, not even itself)
                    Some(w) if !holds_nan(k) => compared(Op::Eq, v, w, depth - 1)?,
                    _ => false,
                };
            }
            return Ok(equal == (op == Op::Eq));
        }
        // A fragment is no more equal to itself than to another (ytt has no `==` of
        // fragments); the crate's `equals` takes the same value as equal first.
        if let Some(fragment) = a.downcast_ref::<YamlFragment>() {
            return Ok(fragment.equals(b)? == (op == Op::Eq));
        }
        return Ok(a.equals(b)? == (op == Op::Eq));
    }
    // Of the rest, starlark-go orders two bools; two fragments refuse in their own words.
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

/// `a OP b` as starlark-go answers it (for `sorted`, `min`, `max`).
pub(super) fn compare<'v>(op: Op, a: Value<'v>, b: Value<'v>) -> starlark::Result<bool> {
    compared(op, a, b, MAX_DEPTH)
}

/// `a == b` as starlark-go answers it (for `in` and the like).
pub(super) fn go_equal<'v>(a: Value<'v>, b: Value<'v>) -> starlark::Result<bool> {
    compare(Op::Eq, a, b)
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

/// Whether `v` is a NaN, or a list or tuple holding one (at any depth): equal to nothing
/// ([`compare`]), itself included.
pub(super) fn holds_nan(v: Value) -> bool {
    if let Some(f) = v.downcast_ref::<StarlarkFloat>() {
        return f.0.is_nan();
    }
    sequence(v).is_some_and(|(_, items)| items.iter().any(|&item| holds_nan(item)))
}

/// A value equal to no other, itself aside: what a NaN is to starlark-go's `==` (see
/// [`unequal_lookup`]).
#[derive(Debug, ProvidesStaticType, NoSerialize, Allocative, StarlarkPagable)]
pub struct Unequal;

starlark_simple_value!(Unequal);

impl std::fmt::Display for Unequal {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("NaN")
    }
}

#[starlark_value(type = "float")]
impl<'v> StarlarkValue<'v> for Unequal {
    // Equal only to itself (the trait's `equals`); hashed as any value, to be looked up.
    fn write_hash(&self, hasher: &mut StarlarkHasher) -> starlark::Result<()> {
        hasher.write_u8(0);
        Ok(())
    }
}

/// The arguments of `obj.method(args)` for the crate's method when the key of a dict's
/// `get`/`pop` holds a NaN
/// ([`holds_nan`]): that value replaced by an [`Unequal`], as starlark-go finds no item
/// equal to it (the crate's floats equal themselves). `None`: the arguments as they are.
pub(super) fn unequal_lookup<'v>(
    method: &str,
    obj: Value<'v>,
    args: &[Value<'v>],
    heap: Heap<'v>,
) -> Option<Vec<Value<'v>>> {
    let looked_up = *args.first()?;
    let lookup = match obj.get_type() {
        // (A list's `index` and `remove` compare as starlark-go: `go_methods::go_position`.)
        // An unhashable key is the crate's error.
        "dict" => matches!(method, "get" | "pop") && looked_up.get_hashed().is_ok(),
        _ => false,
    };
    if !lookup || !holds_nan(looked_up) {
        return None;
    }
    let mut args = args.to_vec();
    args[0] = heap.alloc(Unequal);
    Some(args)
}
