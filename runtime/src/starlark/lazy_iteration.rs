//! `any`, `all` and `zip`, which go through their iterables one item at a time and may stop
//! early, as starlark-go's do: `any(range(10**9))` is True at the second item and
//! `zip(range(10**9), [1])` makes one pair, answered at once by ytt. Each item is charged to the
//! statement budget as it is taken, where the iterables of the other iterating builtins are
//! charged whole before the call (`ITERATE` in [`super::budget`]). The crate's own `zip` takes
//! every item of every argument (a tuple for each of the first's); this one stops at the
//! shortest.

use starlark::environment::GlobalsBuilder;
use starlark::eval::Evaluator;
use starlark::values::list::AllocList;
use starlark::values::tuple::{AllocTuple, UnpackTuple};
use starlark::values::{StringValue, Value};

use super::go_builtins::{go_error, standard};
use super::statement_hook::{charge_iterations, check_heap};

/// Rows of `zip` made between two looks at the heap budget (a row allocates a tuple, unseen by
/// the statement hook until the call returns).
const ROWS_PER_HEAP_CHECK: usize = 1024;

#[starlark::starlark_module]
pub(super) fn lazy_iteration(builder: &mut GlobalsBuilder) {
    /// `any(x)`: whether an item of `x` is true, taking items up to the first that is.
    fn any<'v>(
        #[starlark(args)] args: UnpackTuple<Value<'v>>,
        #[starlark(kwargs)] kwargs: starlark::collections::SmallMap<StringValue<'v>, Value<'v>>,
        eval: &mut Evaluator<'v, '_, '_>,
    ) -> starlark::Result<Value<'v>> {
        first_of_truth("any", true, &args.items, &kwargs, eval)
    }

    /// `all(x)`: whether every item of `x` is true, taking items up to the first that is not.
    fn all<'v>(
        #[starlark(args)] args: UnpackTuple<Value<'v>>,
        #[starlark(kwargs)] kwargs: starlark::collections::SmallMap<StringValue<'v>, Value<'v>>,
        eval: &mut Evaluator<'v, '_, '_>,
    ) -> starlark::Result<Value<'v>> {
        first_of_truth("all", false, &args.items, &kwargs, eval)
    }

    /// `zip(a, b, ...)`: a list of tuples as long as the shortest argument; starlark-go names
    /// the argument that is not iterable.
    fn zip<'v>(
        #[starlark(args)] args: UnpackTuple<Value<'v>>,
        eval: &mut Evaluator<'v, '_, '_>,
    ) -> starlark::Result<Value<'v>> {
        let heap = eval.heap();
        let mut columns = Vec::with_capacity(args.items.len());
        for (i, x) in args.items.iter().enumerate() {
            let Ok(items) = x.iterate(heap) else {
                let message = format!("zip: argument #{} is not iterable: {}", i + 1, x.get_type());
                return Err(go_error(message));
            };
            columns.push(items);
        }
        let mut rows = Vec::new();
        'rows: while !columns.is_empty() {
            let mut row = Vec::with_capacity(columns.len());
            for column in &mut columns {
                let Some(item) = column.next() else {
                    break 'rows;
                };
                row.push(item);
            }
            charge_iterations(1)?;
            rows.push(heap.alloc(AllocTuple(row)));
            if rows.len() % ROWS_PER_HEAP_CHECK == 0 {
                check_heap(heap)?;
            }
        }
        Ok(heap.alloc(AllocList(rows)))
    }
}

/// `any` (`found` true) or `all` (`found` false) of the one positional argument: `found` at the
/// first item whose truth is `found`, else its opposite. Other arguments, or one that is not
/// iterable, go to the interpreter's builtin `name`, whose error is starlark-go's.
fn first_of_truth<'v>(
    name: &str,
    found: bool,
    args: &[Value<'v>],
    kwargs: &starlark::collections::SmallMap<StringValue<'v>, Value<'v>>,
    eval: &mut Evaluator<'v, '_, '_>,
) -> starlark::Result<Value<'v>> {
    let items = match args {
        [x] if kwargs.is_empty() => x.iterate(eval.heap()).ok(),
        _ => None,
    };
    let Some(items) = items else {
        let named = super::named_args(kwargs);
        return eval.eval_function(standard(name), args, &named);
    };
    for item in items {
        charge_iterations(1)?;
        if item.to_bool() == found {
            return Ok(Value::new_bool(found));
        }
    }
    Ok(Value::new_bool(!found))
}
