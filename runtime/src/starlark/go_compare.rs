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
//! Anything else is the crate's own comparison (its errors are worded as starlark-go's by
//! [`super::wording`]).

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
fn sequence<'v>(v: Value<'v>) -> Option<(&'static str, Vec<Value<'v>>)> {
    if let Some(list) = ListRef::from_value(v) {
        return Some(("list", list.iter().collect()));
    }
    TupleRef::from_value(v).map(|t| ("tuple", t.iter().collect()))
}

/// `a OP b` as starlark-go's `CompareDepth`, `depth` levels left.
fn compared<'v>(op: Op, a: Value<'v>, b: Value<'v>, depth: u32) -> starlark::Result<bool> {
    if depth < 1 {
        return Err(too_deep());
    }
    if let (Some(x), Some(y)) = (a.unpack_str(), b.unpack_str()) {
        return Ok(op.holds(Some(x.cmp(y))));
    }
    if let Some(answer) = numbers(op, a, b) {
        return Ok(answer);
    }
    if let (Some(x), Some(y)) = (string_bytes(a), string_bytes(b)) {
        return Ok(op.holds(Some(x.cmp(y))));
    }
    if let (Some((kind_a, x)), Some((kind_b, y))) = (sequence(a), sequence(b)) {
        if kind_a == kind_b {
            return items_compared(op, &x, &y, depth);
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
                    Some(w) => compared(Op::Eq, v, w, depth - 1)?,
                    None => false,
                };
            }
            return Ok(equal == (op == Op::Eq));
        }
        return Ok(a.equals(b)? == (op == Op::Eq));
    }
    Ok(op.holds(Some(a.compare(b)?)))
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

/// Whether `v` is a float, or a list or tuple holding one (at any depth): the values that
/// `sorted`, `min` and `max` order as starlark-go only through [`sorted_as_go`] and
/// [`extremum_as_go`] (the crate's total order puts a NaN last, compares an int with a float
/// as floats, and has not ytt's infinity on the left of an int).
pub(super) fn holds_float(v: Value) -> bool {
    holds_float_that(v, |_| true)
}

/// Whether `v` is a NaN, or a list or tuple holding one (at any depth): equal to no key of a
/// dict.
pub(super) fn holds_nan(v: Value) -> bool {
    holds_float_that(v, f64::is_nan)
}

fn holds_float_that(v: Value, test: fn(f64) -> bool) -> bool {
    if let Some(f) = v.downcast_ref::<StarlarkFloat>() {
        return test(f.0);
    }
    sequence(v).is_some_and(|(_, items)| items.into_iter().any(|i| holds_float_that(i, test)))
}

/// The values `sorted`, `min` or `max` orders (`args`: one iterable, or the values
/// themselves), when one holds a float ([`holds_float`]); `None` otherwise, or
/// when the one argument is not iterable (the interpreter's error).
pub(super) fn float_among<'v>(
    args: &[starlark::values::Value<'v>],
    heap: starlark::values::Heap<'v>,
) -> Option<Vec<starlark::values::Value<'v>>> {
    let items: Vec<_> = match args {
        [one] => one.iterate(heap).ok()?.collect(),
        values => values.to_vec(),
    };
    items.iter().any(|v| holds_float(*v)).then_some(items)
}

/// `items` sorted as starlark-go's `sorted` sorts them: Go's `sort.Stable` (insertion sorts
/// of blocks of 20, then merges in place) by `<`, reversed by swapping the operands of each
/// comparison (Go's `sort.Reverse`). The first comparison that fails is the error.
pub(super) fn sorted_as_go<'v>(items: &mut [Value<'v>], reverse: bool) -> starlark::Result<()> {
    let mut failed = None;
    let mut less = |a: Value<'v>, b: Value<'v>| {
        let (a, b) = if reverse { (b, a) } else { (a, b) };
        match compared(Op::Lt, a, b, MAX_DEPTH) {
            Ok(answer) => answer,
            Err(e) => {
                failed.get_or_insert(e);
                false
            }
        }
    };
    go_stable(items, &mut less);
    failed.map_or(Ok(()), Err)
}

/// `min` (`less` true) or `max` of `items` as starlark-go's: the first item that no later one
/// is less (greater) than, comparing each with the extremum so far.
pub(super) fn extremum_as_go<'v>(items: &[Value<'v>], less: bool) -> starlark::Result<Value<'v>> {
    let op = if less { Op::Lt } else { Op::Gt };
    let mut best = items[0];
    for item in &items[1..] {
        match compared(op, *item, best, MAX_DEPTH) {
            Ok(true) => best = *item,
            Ok(false) => {}
            // The interpreter's `min`/`max` compare the other way round, and `super::wording`
            // turns their message round as starlark-go's has it.
            Err(e) => return Err(compared(op, best, *item, MAX_DEPTH).err().unwrap_or(e)),
        }
    }
    Ok(best)
}

/// Go's `sort.Stable` over `data` with `less`.
fn go_stable<T: Copy>(data: &mut [T], less: &mut impl FnMut(T, T) -> bool) {
    let n = data.len();
    let mut block = 20;
    let (mut a, mut b) = (0, block);
    while b <= n {
        insertion_sort(data, a, b, less);
        a = b;
        b += block;
    }
    insertion_sort(data, a, n, less);
    while block < n {
        let (mut a, mut b) = (0, 2 * block);
        while b <= n {
            sym_merge(data, a, a + block, b, less);
            a = b;
            b += 2 * block;
        }
        if a + block < n {
            sym_merge(data, a, a + block, n, less);
        }
        block *= 2;
    }
}

fn insertion_sort<T: Copy>(
    data: &mut [T],
    a: usize,
    b: usize,
    less: &mut impl FnMut(T, T) -> bool,
) {
    for i in a + 1..b {
        let mut j = i;
        while j > a && less(data[j], data[j - 1]) {
            data.swap(j, j - 1);
            j -= 1;
        }
    }
}

/// Go's `symMerge`: merges the sorted `data[a..m]` and `data[m..b]` in place.
fn sym_merge<T: Copy>(
    data: &mut [T],
    a: usize,
    m: usize,
    b: usize,
    less: &mut impl FnMut(T, T) -> bool,
) {
    if m - a == 1 {
        // Binary search for the first index in m..b whose item is not less than data[a].
        let (mut i, mut j) = (m, b);
        while i < j {
            let h = (i + j) / 2;
            if less(data[h], data[a]) {
                i = h + 1;
            } else {
                j = h;
            }
        }
        for k in a..i - 1 {
            data.swap(k, k + 1);
        }
        return;
    }
    if b - m == 1 {
        // Binary search for the first index in a..m whose item is greater than data[m].
        let (mut i, mut j) = (a, m);
        while i < j {
            let h = (i + j) / 2;
            if !less(data[m], data[h]) {
                i = h + 1;
            } else {
                j = h;
            }
        }
        let mut k = m;
        while k > i {
            data.swap(k, k - 1);
            k -= 1;
        }
        return;
    }
    let mid = (a + b) / 2;
    let n = mid + m;
    let (mut start, mut r) = if m > mid { (n - b, mid) } else { (a, m) };
    let p = n - 1;
    while start < r {
        let c = (start + r) / 2;
        if !less(data[p - c], data[c]) {
            start = c + 1;
        } else {
            r = c;
        }
    }
    let end = n - start;
    if start < m && m < end {
        rotate(data, start, m, end);
    }
    if a < start && start < mid {
        sym_merge(data, a, start, mid, less);
    }
    if mid < end && end < b {
        sym_merge(data, mid, end, b, less);
    }
}

/// Go's `rotate`: swaps the blocks `data[a..m]` and `data[m..b]`.
fn rotate<T: Copy>(data: &mut [T], a: usize, m: usize, b: usize) {
    let (mut i, mut j) = (m - a, b - m);
    while i != j {
        if i > j {
            swap_range(data, m - i, m, j);
            i -= j;
        } else {
            swap_range(data, m - i, m + j - i, i);
            j -= i;
        }
    }
    swap_range(data, m - i, m, i);
}

fn swap_range<T: Copy>(data: &mut [T], a: usize, b: usize, n: usize) {
    for i in 0..n {
        data.swap(a + i, b + i);
    }
}

#[cfg(test)]
mod tests {
    use super::go_stable;

    #[test]
    fn go_stable_sort_is_a_stable_sort() {
        // Pairs sorted by their first field only: equal keys keep their order, across the
        // blocks of 20 and the merges.
        let mut state = 12345u64;
        let mut items: Vec<(u32, usize)> = (0..257)
            .map(|i| {
                state = state
                    .wrapping_mul(6364136223846793005)
                    .wrapping_add(1442695040888963407);
                (((state >> 33) % 17) as u32, i)
            })
            .collect();
        let mut expected = items.clone();
        expected.sort_by_key(|p| p.0);
        go_stable(&mut items, &mut |a: (u32, usize), b: (u32, usize)| {
            a.0 < b.0
        });
        assert_eq!(items, expected);
    }
}
