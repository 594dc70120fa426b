//! A range past the statement budget, given to a comprehension or an iterating builtin in its
//! place ([`ITERATE`](super::budget::ITERATE)): its items are charged to the budget one at a
//! time as they are taken, and the iteration ends where the budget does (the call or
//! comprehension then fails with the budget's error once done). starlark-go takes a range's
//! items one at a time too, so a comprehension that fails at an item
//! (`[x for x in range(10**9) if x > 1100000 and fail("z")]`) fails there as in ytt, and a
//! function the comprehension calls counts its statements against what is left as they run.
//! No list of the items is made, so the cut may be longer than that of another iterable
//! (`RANGE_CUT_ITEMS` in [`super::budget`]).

use std::fmt;

use allocative::Allocative;
use starlark::values::{
    starlark_value, Heap, NoSerialize, ProvidesStaticType, StarlarkValue, Value,
};
use starlark::{starlark_simple_value, StarlarkPagable};

use super::statement_hook::{charge_iterations, owe_iterations};

/// The items `start`, `start + step`, ... (`len` of them) of a range, charged as taken; when
/// `cut_short`, the range had more, and its end owes the budget's error.
#[derive(Debug, ProvidesStaticType, NoSerialize, Allocative, StarlarkPagable)]
pub(super) struct ChargedRange {
    start: i64,
    step: i64,
    len: u64,
    cut_short: bool,
}

starlark_simple_value!(ChargedRange);

impl ChargedRange {
    /// The first `len` items of `range` (a value whose type is `range`), `None` for another
    /// value. Where `range` has more, the iteration owes the budget's error at its end.
    pub(super) fn cut<'v>(range: Value<'v>, len: u64, heap: Heap<'v>) -> Option<Value<'v>> {
        if range.get_type() != "range" {
            return None;
        }
        let first = range.at(heap.alloc(0), heap).ok()?.unpack_i32()?;
        let step = match range.length().ok()? {
            n if n >= 2 => range.at(heap.alloc(1), heap).ok()?.unpack_i32()? - first,
            _ => 1,
        };
        let all = range.length().ok()?.max(0) as u64;
        Some(heap.alloc(ChargedRange {
            start: first.into(),
            step: step.into(),
            len: len.min(all),
            cut_short: len < all,
        }))
    }

    /// The item at `index`, after charging it to the statement budget; `None` past the last
    /// one, or where the budget ends (the iteration then owes the budget's error).
    fn item(&self, index: usize) -> Option<i64> {
        if index as u64 >= self.len {
            if self.cut_short {
                owe_iterations();
            }
            return None;
        }
        if charge_iterations(1).is_err() {
            owe_iterations();
            return None;
        }
        Some(self.start + index as i64 * self.step)
    }
}

impl fmt::Display for ChargedRange {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let stop = self.start + self.len as i64 * self.step;
        write!(f, "range({}, {stop}, {})", self.start, self.step)
    }
}

#[starlark_value(type = "range")]
impl<'v> StarlarkValue<'v> for ChargedRange {
    fn iterate_collect(&self, heap: Heap<'v>) -> starlark::Result<Vec<Value<'v>>> {
        Ok((0..)
            .map_while(|i| self.item(i))
            .map(|x| heap.alloc(x))
            .collect())
    }

    unsafe fn iterate(&self, me: Value<'v>, _heap: Heap<'v>) -> starlark::Result<Value<'v>> {
        Ok(me)
    }

    unsafe fn iter_size_hint(&self, _index: usize) -> (usize, Option<usize>) {
        // No lower bound: a caller that reserves room for every item (`list`) would take the
        // memory of items the budget may never give.
        (0, None)
    }

    unsafe fn iter_next(&self, index: usize, heap: Heap<'v>) -> Option<Value<'v>> {
        self.item(index).map(|x| heap.alloc(x))
    }

    unsafe fn iter_stop(&self) {}
}
