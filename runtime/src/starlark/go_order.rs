//! `sorted`, `min` and `max` as ytt's starlark-go orders values: by their keys (the values
//! themselves, or what `key` returns for each, called once for each value in order), compared
//! as [`super::go_compare`] compares them. `sorted` is Go's `sort.Stable` (insertion sorts of
//! blocks of 20, then merges in place) by `<`, reversed by swapping the operands of each
//! comparison (Go's `sort.Reverse`); a comparison that fails counts as false and the sort goes
//! on, its error the last one. `min` and `max` keep the first key that no later one is less
//! (greater) than, calling `key` as they go, and name themselves in a comparison's error.
//!
//! Keys that are all ints, all strings of UTF-8 or all bools are totally ordered, and the
//! crate's `compare` orders them alike: those sort with Rust's stable sort, to the same order.

use std::cmp::Ordering;

use starlark::eval::Evaluator;
use starlark::values::list::AllocList;
use starlark::values::Value;

use super::go_builtins::go_error;
use super::go_compare::{go_beyond, go_less};

/// `sorted(iterable, key=key, reverse=reverse)`, or `None` when `iterable` cannot be iterated
/// (the interpreter's error).
pub(super) fn sorted<'v>(
    iterable: Value<'v>,
    key: Option<Value<'v>>,
    reverse: bool,
    eval: &mut Evaluator<'v, '_, '_>,
) -> starlark::Result<Option<Value<'v>>> {
    let Ok(items) = iterable.iterate(eval.heap()) else {
        return Ok(None);
    };
    let mut items: Vec<Value<'v>> = items.collect();
    let Some(key) = key else {
        sort_by_key(&mut items, |v| *v, reverse)?;
        return Ok(Some(eval.heap().alloc(AllocList(items))));
    };
    let mut keyed = Vec::with_capacity(items.len());
    for item in items {
        keyed.push((eval.eval_function(key, &[item], &[])?, item));
    }
    sort_by_key(&mut keyed, |(k, _)| *k, reverse)?;
    let values: Vec<Value<'v>> = keyed.into_iter().map(|(_, v)| v).collect();
    Ok(Some(eval.heap().alloc(AllocList(values))))
}

/// Sorts `items` by their keys (`key_of`) as starlark-go's `sorted` (see the module's doc).
fn sort_by_key<'v, T: Copy>(
    items: &mut [T],
    key_of: impl Fn(&T) -> Value<'v>,
    reverse: bool,
) -> starlark::Result<()> {
    if totally_ordered(items.iter().map(&key_of)) {
        items.sort_by(|a, b| {
            let order = key_of(a).compare(key_of(b)).unwrap_or(Ordering::Equal);
            if reverse {
                order.reverse()
            } else {
                order
            }
        });
        return Ok(());
    }
    let mut failed = None;
    go_stable(items, &mut |a, b| {
        let (a, b) = if reverse { (b, a) } else { (a, b) };
        go_less(key_of(&a), key_of(&b)).unwrap_or_else(|e| {
            failed = Some(e);
            false
        })
    });
    failed.map_or(Ok(()), Err)
}

/// Whether `keys` are all ints, all strings of UTF-8 or all bools.
fn totally_ordered<'v>(mut keys: impl Iterator<Item = Value<'v>>) -> bool {
    let Some(first) = keys.next() else {
        return true;
    };
    match first.get_type() {
        "string" if first.unpack_str().is_some() => keys.all(|k| k.unpack_str().is_some()),
        ty @ ("int" | "bool") => keys.all(|k| k.get_type() == ty),
        _ => false,
    }
}

/// `min(...)` (`name`) or `max(...)` of `args` (one iterable, or the values themselves) by
/// `key`; `None` when there is nothing to compare (the interpreter's error: no argument, an
/// empty or no iterable).
pub(super) fn extremum<'v>(
    name: &str,
    args: &[Value<'v>],
    key: Option<Value<'v>>,
    eval: &mut Evaluator<'v, '_, '_>,
) -> starlark::Result<Option<Value<'v>>> {
    let items: Vec<Value<'v>> = match args {
        [one] => match one.iterate(eval.heap()) {
            Ok(items) => items.collect(),
            Err(_) => return Ok(None),
        },
        values => values.to_vec(),
    };
    let Some((&first, rest)) = items.split_first() else {
        return Ok(None);
    };
    let mut key_of = |v: Value<'v>| match key {
        Some(key) => eval.eval_function(key, &[v], &[]),
        None => Ok(v),
    };
    let (mut best, mut best_key) = (first, key_of(first)?);
    for &item in rest {
        let k = key_of(item)?;
        match go_beyond(name == "min", k, best_key) {
            Ok(true) => (best, best_key) = (item, k),
            Ok(false) => {}
            Err(e) => {
                let message = e.without_diagnostic().to_string();
                return Err(go_error(format!("{name}: {message}")));
            }
        }
    }
    Ok(Some(best))
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
