//! `sorted`, `min` and `max` as starlark-go's: the keys (the items, or `key` called once on
//! each) compared by [`super::go_compare::compare`], `sorted` by Go's `sort.Stable` (so
//! `sorted([10, float("inf"), 5])` is `[5, +Inf, 10]`, a NaN stays where insertion leaves it,
//! and strings that are not UTF-8 order by their bytes among the others), `min`/`max`
//! comparing each key with the extremum's so far (`max([10, float("inf")])` is 10).

use starlark::eval::Evaluator;
use starlark::values::list::AllocList;
use starlark::values::Value;

use super::go_compare::{compare, Op};

/// `key(item)`, or the item itself without a `key`.
fn key_of<'v>(
    key: Option<Value<'v>>,
    item: Value<'v>,
    eval: &mut Evaluator<'v, '_, '_>,
) -> starlark::Result<Value<'v>> {
    match key {
        Some(key) => eval.eval_function(key, &[item], &[]),
        None => Ok(item),
    }
}

/// `sorted(items, key=key, reverse=reverse)` as starlark-go's: `key` called on each item
/// first (its error is the answer), then Go's `sort.Stable` by `<` of the keys, reversed by
/// swapping the operands of each comparison (Go's `sort.Reverse`). A comparison that fails
/// counts as false and the sort goes on; the last such failure is the error.
pub(super) fn sorted<'v>(
    items: Vec<Value<'v>>,
    key: Option<Value<'v>>,
    reverse: bool,
    eval: &mut Evaluator<'v, '_, '_>,
) -> starlark::Result<Value<'v>> {
    let mut keyed = Vec::with_capacity(items.len());
    for item in items {
        keyed.push((key_of(key, item, eval)?, item));
    }
    if !sorted_totally(&mut keyed, reverse) {
        go_sorted(&mut keyed, reverse)?;
    }
    let items = keyed.into_iter().map(|(_, item)| item);
    Ok(eval.heap().alloc(AllocList(items.collect::<Vec<_>>())))
}

/// `keyed` sorted by its keys when they are all strings or all ints of 32 bits (`false`
/// otherwise): ordered totally, so that any stable sort orders them as Go's `sort.Stable`
/// does, and Rust's takes fewer steps.
fn sorted_totally(keyed: &mut [(Value, Value)], reverse: bool) -> bool {
    let turned = |order: std::cmp::Ordering| if reverse { order.reverse() } else { order };
    if keyed.iter().all(|(k, _)| k.unpack_str().is_some()) {
        keyed.sort_by(|(a, _), (b, _)| turned(a.unpack_str().cmp(&b.unpack_str())));
    } else if keyed.iter().all(|(k, _)| k.unpack_i32().is_some()) {
        keyed.sort_by(|(a, _), (b, _)| turned(a.unpack_i32().cmp(&b.unpack_i32())));
    } else {
        return false;
    }
    true
}

/// `keyed` sorted by its keys with Go's `sort.Stable` (see [`sorted`]).
fn go_sorted<'v>(keyed: &mut [(Value<'v>, Value<'v>)], reverse: bool) -> starlark::Result<()> {
    let mut failed = None;
    let mut less = |(a, _): (Value<'v>, Value<'v>), (b, _): (Value<'v>, Value<'v>)| {
        let (a, b) = if reverse { (b, a) } else { (a, b) };
        compare(Op::Lt, a, b).unwrap_or_else(|e| {
            failed = Some(e);
            false
        })
    };
    go_stable(keyed, &mut less);
    failed.map_or(Ok(()), Err)
}

/// `min(items, key=key)` (`name`) or `max` as starlark-go's: the first item whose key no later
/// one's is less (greater) than, `key` called on each item in turn, each key compared with
/// the extremum's so far; the first error is the answer, a comparison's named after the
/// builtin (`max: string > int not implemented`). `items` is not empty.
pub(super) fn extremum<'v>(
    name: &str,
    items: &[Value<'v>],
    key: Option<Value<'v>>,
    eval: &mut Evaluator<'v, '_, '_>,
) -> starlark::Result<Value<'v>> {
    let op = if name == "min" { Op::Lt } else { Op::Gt };
    let mut best = items[0];
    let mut best_key = key_of(key, best, eval)?;
    for item in &items[1..] {
        let item_key = key_of(key, *item, eval)?;
        match compare(op, item_key, best_key) {
            Ok(true) => (best, best_key) = (*item, item_key),
            Ok(false) => {}
            Err(e) => {
                let message = format!("{name}: {}", e.without_diagnostic());
                return Err(super::go_builtins::go_error(message));
            }
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

/// `min` or `max` (`name`): starlark-go refuses a call without positional arguments, then a
/// `key` that cannot be called, before it reads the values, which [`extremum`] orders; the
/// interpreter's errors for the rest.
pub(super) fn min_or_max<'v>(
    name: &str,
    args: &[starlark::values::Value<'v>],
    kwargs: &starlark::collections::SmallMap<
        starlark::values::StringValue<'v>,
        starlark::values::Value<'v>,
    >,
    eval: &mut Evaluator<'v, '_, '_>,
) -> starlark::Result<starlark::values::Value<'v>> {
    if args.is_empty() {
        return Err(super::go_builtins::go_error(format!(
            "{name} requires at least one positional argument"
        )));
    }
    let named = super::named_args(kwargs);
    if let Some((_, key)) = named.iter().find(|(k, _)| *k == "key") {
        if !super::convert::is_function(*key) {
            return Err(super::go_builtins::go_error(format!(
                "{name}: for parameter \"key\": got {}, want callable",
                super::go_type(*key)
            )));
        }
    }
    let key = named.iter().find(|(k, _)| *k == "key").map(|(_, key)| *key);
    let items = match args {
        [iterable] => iterable
            .iterate(eval.heap())
            .ok()
            .map(|items| items.collect()),
        values => Some(values.to_vec()),
    };
    match items {
        Some(items) if !items.is_empty() && named.len() == usize::from(key.is_some()) => {
            // starlark-go iterates until it returns: `key` cannot change the iterable.
            let _iterating = match args {
                [iterable] => iterable.iterate(eval.heap()).ok(),
                _ => None,
            };
            extremum(name, &items, key, eval)
        }
        // The interpreter's errors: no values, an unknown parameter, nothing to iterate.
        _ => eval.eval_function(super::go_builtins::standard(name), args, &named),
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
