//! The budget of each Starlark evaluation: statements run and bytes on its heap, counted (not
//! timed) so that the same input passes or fails on any machine.
//!
//! Statements are counted by a hook the interpreter calls before each one
//! ([`super::statement_hook`]), which also looks at the heap (at every statement: a value may
//! double in one, `x += x`). One operation can allocate a huge value at once, before the hook runs again:
//! every `*` of a program is therefore a call of [`REPEAT`], which refuses a repetition
//! (`[0] * 10**9`, `"x" * 10**9`) whose result would take the heap past the budget before
//! anything is allocated. Comprehensions run no statements: the iterable of each passes
//! through [`ITERATE`], which charges its items as statements (and the list they may make to
//! the heap) before the comprehension starts. `join`, `replace` and `format` calls go through
//! [`METHOD`], which sizes the string they make first.

use starlark::collections::SmallMap;
use starlark::environment::GlobalsBuilder;
use starlark::eval::Evaluator;
use starlark::syntax::AstModule;
use starlark::values::dict::DictRef;
use starlark::values::tuple::{TupleRef, UnpackTuple};
use starlark::values::{Heap, StringValue, UnpackValue, Value};

use super::charged_range::ChargedRange;
pub(super) use super::statement_hook::budget;
pub(crate) use super::statement_hook::{bound, EvaluationStart};
use super::statement_hook::{
    charge_iterations, heap_exceeded, heap_exceeded_message, iterations_left, owe_iterations,
    settle_iterations,
};
pub use super::statement_hook::{
    CALL_DEPTH_FRAMES_SHOWN, DEFAULT_MAX_CALL_DEPTH, DEFAULT_MAX_MEMORY, DEFAULT_MAX_STEPS,
};
use super::written_size::{written_bytes, Writing};

/// The global function the iterable of every comprehension passes through (see
/// [`guard_source`](super::source_guard::guard_source)).
pub(super) const ITERATE: &str = "__schemac_iter";

/// The global function the iterable of every `for` statement passes through (see
/// [`guard_source`](super::source_guard::guard_source)).
pub(super) const LOOP: &str = "__schemac_loop";

/// The global function every comprehension and call of an iterating builtin passes through once
/// done (see [`guard_source`](super::source_guard::guard_source)).
pub(super) const DONE: &str = "__schemac_done";

/// The global function every comprehension's item passes through once made (see
/// [`guard_source`](super::source_guard::guard_source)).
pub(super) const EACH: &str = "__schemac_each";

/// The global function the right side of `x *= n` passes through (see [`guard_source`](super::source_guard::guard_source)).
pub(super) const TIMES: &str = "__schemac_times";

/// The global function every call of a [`SIZED_METHODS`](super::source_guard::SIZED_METHODS) method becomes (see [`guard_source`](super::source_guard::guard_source)).
pub(super) const METHOD: &str = "__schemac_method";

/// Fails with the heap budget's error if `bytes` more would take `heap` past the budget.
fn reserve(heap: Heap<'_>, bytes: u128) -> starlark::Result<()> {
    if bytes > heap_left(heap) {
        return Err(heap_exceeded("would allocate"));
    }
    Ok(())
}

/// Charges `n` items taken at once to the statement budget and `n * item_bytes` to the heap
/// budget (a comprehension's iterable, a `*` argument, a set's union).
pub(super) fn charge_items(n: u64, item_bytes: u128, heap: Heap<'_>) -> starlark::Result<()> {
    charge_iterations(n)?;
    reserve(heap, n as u128 * item_bytes)
}

/// The bytes `heap` may still take within the budget.
fn heap_left(heap: Heap<'_>) -> u128 {
    let (_, max_memory) = budget();
    (max_memory as u128).saturating_sub(heap.allocated_bytes() as u128)
}

/// The bytes `heap` may still take within the budget, for a function that builds a value
/// outside the heap and checks its size with [`within`] as it grows.
pub(super) fn heap_room(heap: Heap<'_>) -> u128 {
    heap_left(heap)
}

/// Fails with the heap budget's error if `bytes` are more than `room` ([`heap_room`]).
pub(super) fn within(bytes: u128, room: u128) -> anyhow::Result<()> {
    if bytes > room {
        return Err(heap_exceeded_message("would allocate"));
    }
    Ok(())
}

/// Makes room in `out` for `more` bytes, failing with the heap budget's error if they would take
/// it past `room` ([`heap_room`]); its capacity doubles, as a `String`'s does, but never past
/// `room`.
pub(super) fn grow_within(out: &mut Vec<u8>, more: usize, room: u128) -> anyhow::Result<()> {
    let need = out.len() as u128 + more as u128;
    within(need, room)?;
    if need > out.capacity() as u128 {
        let want = (2 * out.capacity() as u128).clamp(need, room);
        out.reserve_exact(want as usize - out.len());
    }
    Ok(())
}

/// Fails with the heap budget's error if writing `v` out (`json.encode`, `yaml.encode`) would
/// take `heap` past the budget.
pub(super) fn reserve_written(v: Value, writing: Writing, heap: Heap<'_>) -> anyhow::Result<()> {
    let left = heap_left(heap);
    if written_bytes(v, writing, left) > left {
        return Err(heap_exceeded_message("would allocate"));
    }
    Ok(())
}

/// The global function every `*` of a program calls (see [`guard_repetition`]).
pub(super) const REPEAT: &str = "__schemac_mul";

/// Makes every binary `*` of `ast` a call of [`REPEAT`], every `%` one of [`PERCENT`], and
/// every `<<`/`>>`, `in`/`not in`, `|` and `-` one of starlark-go's (`go_builtins`, `go_sets`), and every
/// comparison one of [`super::go_compare`]'s.
/// (`x *= n` stays an operator: the interpreter offers no way to replace it; see README
/// "Budgets".) Runs of string literals added to a value are folded first (the compiler's
/// time is quadratic in their length: `fold_string_additions`, in the vendored parser).
pub(super) fn guard_repetition(ast: &mut AstModule, names: &super::guard_names::GuardNames) {
    ast.fold_string_additions();
    ast.replace_binary_operators(
        &OPERATOR_FUNCTIONS
            .iter()
            .map(|(op, f)| (op.to_string(), names.of(f)))
            .collect(),
    );
}

/// The function [`guard_repetition`] calls for each binary operator it replaces.
pub(super) const OPERATOR_FUNCTIONS: [(&str, &str); 14] = [
    ("*", REPEAT),
    ("%", PERCENT),
    ("<<", super::go_builtins::SHIFT_LEFT),
    (">>", super::go_builtins::SHIFT_RIGHT),
    ("in", super::go_builtins::IN),
    ("not in", super::go_builtins::NOT_IN),
    ("|", super::go_builtins::BIT_OR),
    ("-", super::go_sets::MINUS),
    ("==", super::go_compare::EQUAL),
    ("!=", super::go_compare::NOT_EQUAL),
    ("<", super::go_compare::LESS),
    ("<=", super::go_compare::LESS_EQUAL),
    (">", super::go_compare::GREATER),
    (">=", super::go_compare::GREATER_EQUAL),
];

/// The operator of `LHS op= RHS` and the function [`guard_source`](super::source_guard::guard_source) writes it as
/// (`LHS = FUNCTION(LHS, RHS)`), for the augmented assignments whose binary operator
/// [`guard_repetition`] replaces (`*=` has [`TIMES`] instead).
pub(super) fn augmented_function(
    op: &starlark::syntax::ast::AssignOp,
) -> Option<(&'static str, &'static str)> {
    use starlark::syntax::ast::AssignOp;
    let binary = match op {
        AssignOp::Percent => "%",
        AssignOp::LeftShift => "<<",
        AssignOp::RightShift => ">>",
        AssignOp::BitOr => "|",
        AssignOp::Subtract => "-",
        _ => return None,
    };
    OPERATOR_FUNCTIONS
        .iter()
        .copied()
        .find(|(o, _)| *o == binary)
}

/// The global function every `%` of a program calls: `FMT % ARGS` sized first.
pub(super) const PERCENT: &str = "__schemac_percent";

/// `a % b` of two numbers, one a float, as ytt's starlark-go computes it: the remainder of a
/// truncated division (Go's `math.Mod`, the sign of `a`), not a floored one; `None` when
/// neither is a float or `b` is zero (the interpreter's error).
fn float_remainder(a: Value, b: Value) -> Option<f64> {
    use starlark::values::float::StarlarkFloat;
    use starlark::values::ValueLike;
    let is_float = |v: Value| v.downcast_ref::<StarlarkFloat>().is_some();
    if !(is_float(a) || is_float(b)) {
        return None;
    }
    let float = super::go_format::as_float;
    let (x, y) = (float(a)?, float(b)?);
    (y != 0.0).then(|| x % y)
}

/// The sequence and the count of `a * b` when it repeats a string, list or tuple.
fn repetition<'v>(a: Value<'v>, b: Value<'v>) -> Option<(Value<'v>, Value<'v>)> {
    let is_seq = |v: Value| matches!(v.get_type(), "string" | "list" | "tuple");
    match (a, b) {
        (seq, count) | (count, seq) if is_seq(seq) && count.get_type() == "int" => {
            Some((seq, count))
        }
        _ => None,
    }
}

/// `seq * count` for a string `seq` (of the crate's) and an int `count`, which the crate makes
/// by appending `seq` once per count (`"x" * 10**7` was ten million appends, 0.3 s; ytt takes
/// 5 ms): `str::repeat` doubles what it has written. `None` for other operands.
fn repeated_string(seq: Value, count: Value) -> Option<String> {
    let n = count.unpack_i32()?;
    Some(seq.unpack_str()?.repeat(n.max(0) as usize))
}

/// starlark-go's bound on a repetition's elements (bytes of a string, items of a list).
const MAX_REPEAT_ELEMENTS: u128 = 1 << 30;

/// Whether `seq * count` may run: an error past the heap budget, or (in starlark-go's words)
/// for a count beyond 32 bits on a non-empty sequence or a result of 2^30 elements or more;
/// `Ok(false)` when `seq` is empty (and `seq * 0` is the answer).
fn repetition_fits(seq: Value, count: Value, heap: Heap) -> starlark::Result<bool> {
    let len = match seq.unpack_str() {
        Some(s) => s.len(),
        None => seq.length()?.max(0) as usize,
    };
    if len == 0 {
        // Empty whatever the count (the interpreter would still loop `count` times).
        return Ok(false);
    }
    let Some(n) = i32::unpack_value(count).ok().flatten() else {
        return Err(starlark::Error::new_other(anyhow::anyhow!(
            "repeat count {count} too large"
        )));
    };
    // starlark-go's own limit, before the heap budget (`"x" * 2**30` fails in ytt at once).
    let elements = len as u128 * n.max(0) as u128;
    if elements >= MAX_REPEAT_ELEMENTS {
        return Err(starlark::Error::new_other(anyhow::anyhow!(
            "excessive repeat ({elements} elements)"
        )));
    }
    let item_bytes = match seq.get_type() {
        "string" => 1,
        _ => std::mem::size_of::<Value>() as u128,
    };
    reserve(heap, elements * item_bytes)?;
    Ok(true)
}

/// The bytes of `sep.join(items)`; its items are charged to the statement budget. starlark-go
/// stops at the first item that is not a string (`join: in list, want string, got int`, at
/// once for `",".join(range(10**9))`): the items after it are neither counted nor charged.
fn joined_bytes<'v>(
    sep: &str,
    items: Option<&Value<'v>>,
    heap: Heap<'v>,
) -> starlark::Result<u128> {
    let Some(items) = items.and_then(|items| items.iterate(heap).ok()) else {
        return Ok(0);
    };
    let (mut taken, mut bytes) = (0u64, 0u128);
    for item in items {
        let text = item.unpack_str().map(str::as_bytes);
        let Some(text) = text.or_else(|| super::go_bytes::string_bytes(item)) else {
            break;
        };
        taken += 1;
        bytes += (sep.len() + text.len()) as u128;
    }
    charge_iterations(taken)?;
    Ok(bytes)
}

/// At most the bytes of `s.replace(old, new[, count])`: `new` for each `old` replaced (between
/// each two characters and at both ends when `old` is empty).
fn replaced_bytes(s: &str, args: &[Value]) -> u128 {
    let (Some(old), Some(new)) = (
        args.first().and_then(|v| v.unpack_str()),
        args.get(1).and_then(|v| v.unpack_str()),
    ) else {
        return 0;
    };
    let found = if old.is_empty() {
        s.chars().count() as u128 + 1
    } else {
        super::go_string_index::occurrences(s, old) as u128
    };
    let count = args
        .get(2)
        .and_then(|c| i64::unpack_value(*c).ok().flatten())
        .filter(|&c| c >= 0)
        .map_or(found, |c| found.min(c as u128));
    s.len() as u128 + count * new.len() as u128
}

/// At most the bytes of `fmt.format(...)` (`field` is `{`) or `fmt % ...` (`field` is `%`) with
/// `values` as its arguments: the format, and the longest argument's text for each field (each
/// may name any argument; a doubled `{{` or `%%` is no field). Past `limit`, some count past
/// it.
fn formatted_bytes<'a, 'v: 'a>(
    fmt: &[u8],
    field: u8,
    values: impl Iterator<Item = &'a Value<'v>>,
    limit: u128,
) -> u128 {
    let (mut fields, mut at) = (0u128, 0);
    while let Some(found) = fmt[at..].iter().position(|&b| b == field) {
        at += found + 1;
        if fmt.get(at) == Some(&field) {
            at += 1;
        } else {
            fields += 1;
        }
    }
    if fields == 0 {
        return fmt.len() as u128;
    }
    let longest = values
        .map(|v| match super::go_bytes::string_bytes(*v) {
            Some(s) => s.len() as u128,
            None => written_bytes(*v, Writing::Text, limit / fields),
        })
        .max()
        .unwrap_or(0);
    fmt.len() as u128 + fields * longest
}

/// At most the bytes of `s.split(...)`/`s.rsplit(...)` (`args`: the separator, then the
/// number of splits): a list item and a string header for each piece, and the text.
fn split_bytes(s: &str, args: &[Value]) -> u128 {
    let pieces = match args.first().and_then(|v| v.unpack_str()) {
        Some(sep) if !sep.is_empty() => super::go_string_index::occurrences(s, sep) as u128 + 1,
        // No separator (or an empty one, an error): the words between runs of white space.
        _ => s.split_whitespace().count() as u128,
    };
    let pieces = args
        .get(1)
        .and_then(|n| i64::unpack_value(*n).ok().flatten())
        .filter(|&n| n >= 0)
        .map_or(pieces, |n| pieces.min(n as u128 + 1));
    s.len() as u128 + pieces * PIECE_BYTES
}

/// What a short string costs on the heap besides its text, and as an item of a list.
const PIECE_BYTES: u128 = 40;

/// [`REPEAT`], [`ITERATE`], [`EACH`], [`TIMES`] and [`METHOD`].
#[starlark::starlark_module]
pub(super) fn sized_builtins(builder: &mut GlobalsBuilder) {
    /// `a * b`, refused with the heap budget's error when its result would not fit the budget.
    fn __schemac_mul<'v>(
        #[starlark(require = pos)] a: Value<'v>,
        #[starlark(require = pos)] b: Value<'v>,
        heap: Heap<'v>,
    ) -> starlark::Result<Value<'v>> {
        if let Some((seq, count)) = repetition(a, b) {
            if !repetition_fits(seq, count, heap)? {
                return seq.mul(heap.alloc(0), heap);
            }
            if let Some(repeated) = repeated_string(seq, count) {
                return Ok(heap.alloc(repeated));
            }
        }
        super::int_budget::product_fits(a, b)?;
        super::go_operators::builtin_operands(a.mul(b, heap), "*", a, b)
    }

    /// `a % b`, refused with the heap budget's error when `a` is a format whose result would
    /// not fit the budget (each `%` may write the longest argument).
    fn __schemac_percent<'v>(
        #[starlark(require = pos)] a: Value<'v>,
        #[starlark(require = pos)] b: Value<'v>,
        heap: Heap<'v>,
    ) -> starlark::Result<Value<'v>> {
        if let Some(fmt) = super::go_bytes::string_bytes(a) {
            let args: Vec<Value<'v>> = if let Some(tuple) = TupleRef::from_value(b) {
                tuple.iter().collect()
            } else if let Some(dict) = DictRef::from_value(b) {
                dict.values().collect()
            } else {
                vec![b]
            };
            reserve(
                heap,
                formatted_bytes(fmt, b'%', args.iter(), heap_left(heap)),
            )?;
            let formatted = super::go_format::interpolate(fmt, b)?;
            return Ok(super::go_bytes::string_value(formatted, heap));
        }
        if let Some(r) = float_remainder(a, b) {
            return Ok(heap.alloc(r));
        }
        super::go_operators::builtin_operands(a.percent(b, heap), "%", a, b)
    }

    /// The right side of `current *= n`, once the repetition is known to fit the budget.
    fn __schemac_times<'v>(
        #[starlark(require = pos)] current: Value<'v>,
        #[starlark(require = pos)] n: Value<'v>,
        heap: Heap<'v>,
    ) -> starlark::Result<Value<'v>> {
        match repetition(current, n) {
            Some((seq, count)) => {
                let fits = repetition_fits(seq, count, heap)?;
                // An empty `current`: `current * 0` is the answer.
                Ok(if fits || !seq.ptr_eq(current) {
                    n
                } else {
                    heap.alloc(0)
                })
            }
            None => {
                super::int_budget::product_fits(current, n)?;
                Ok(n)
            }
        }
    }

    /// `obj.method(*args, **kwargs)` for a method of [`SIZED_METHODS`](super::source_guard::SIZED_METHODS), refused with the heap
    /// budget's error when the string it makes would not fit the budget (and, for `join`,
    /// with its items charged to the statement budget).
    fn __schemac_method<'v>(
        #[starlark(require = pos)] method: &str,
        #[starlark(require = pos)] obj: Value<'v>,
        #[starlark(args)] args: UnpackTuple<Value<'v>>,
        #[starlark(kwargs)] kwargs: SmallMap<StringValue<'v>, Value<'v>>,
        eval: &mut Evaluator<'v, '_, '_>,
    ) -> starlark::Result<Value<'v>> {
        let heap = eval.heap();
        // A string that is not UTF-8 is sized by its text with U+FFFD (at least as long).
        let lossy;
        let receiver = match (obj.unpack_str(), super::go_bytes::string_bytes(obj)) {
            (Some(s), _) => Some(s),
            (None, Some(bytes)) => {
                lossy = super::go_bytes::go_text(bytes);
                Some(lossy.as_ref())
            }
            (None, None) => None,
        };
        if let Some(receiver) = receiver {
            // starlark-go refuses an empty separator (the starlark crate splits at every
            // character boundary); both methods name themselves `split`.
            let empty_separator = args.items.first().and_then(|a| a.unpack_str()) == Some("");
            if matches!(method, "split" | "rsplit") && empty_separator {
                return Err(starlark::Error::new_other(anyhow::anyhow!(
                    "split: empty separator"
                )));
            }
            let bytes = match method {
                "join" => joined_bytes(receiver, args.items.first(), heap)?,
                "replace" => replaced_bytes(receiver, &args.items),
                "split" | "rsplit" => split_bytes(receiver, &args.items),
                // A list item and a string for each line (`"\n" * 10**8` made 10^8 of them,
                // 15 s and 4 GB, unseen until the next statement).
                "splitlines" => {
                    receiver.len() as u128
                        + (super::go_string_index::occurrences(receiver, "\n") as u128 + 1)
                            * PIECE_BYTES
                }
                "format" => formatted_bytes(
                    receiver.as_bytes(),
                    b'{',
                    args.items.iter().chain(kwargs.values()),
                    heap_left(heap),
                ),
                // The methods go_methods answers: a string or list about the receiver's size
                // (the statement hook sees the rest), without a scan for `{`.
                _ => receiver.len() as u128,
            };
            reserve(heap, bytes)?;
        }
        let named = super::named_args(&kwargs);
        if let (Some(fmt), "format") = (super::go_bytes::string_bytes(obj), method) {
            let text = super::go_format::format(fmt, &args.items, &named)?;
            return Ok(super::go_bytes::string_value(text, heap));
        }
        super::go_methods::call(method, obj, &args.items, &named, eval)
    }

    /// A comprehension's item once made (a list comprehension's element, a dict
    /// comprehension's value), refused with the heap budget's error when the evaluation has
    /// passed it: a comprehension runs no statement for the hook to look at the heap, and
    /// its items may each allocate (`[[i, i, i] for i in range(10**8)]` took 12 GB).
    fn __schemac_each<'v>(
        #[starlark(require = pos)] item: Value<'v>,
        heap: Heap<'v>,
    ) -> starlark::Result<Value<'v>> {
        super::statement_hook::check_heap(heap)?;
        Ok(item)
    }

    /// A comprehension's iterable, its items charged to the statement budget (one statement
    /// per iteration) and the list it may make to the heap budget, before it runs.
    fn __schemac_iter<'v>(
        #[starlark(require = pos)] iterable: Value<'v>,
        heap: Heap<'v>,
    ) -> starlark::Result<Value<'v>> {
        // The interpreter makes a tuple of an iterator's items before the first iteration:
        // charged too.
        let (n, lists) = match items_count(iterable, heap) {
            Some((n, iterator)) => (Some(n), if iterator { 2 } else { 1 }),
            None => (None, 1),
        };
        let item_bytes = lists * std::mem::size_of::<Value>() as u128;
        if let Some(n) = n.filter(|&n| n > iterations_left()) {
            // Past the budget: starlark-go would still fail at an argument check or an item
            // before the end (`enumerate(range(10**9), "a")`, `[fail() for x in range(10**9)]`).
            // The first items the budget allows (at most `CUT_ITEMS`) are taken instead, and the
            // call or comprehension fails with the budget's error once done ([`DONE`]).
            // A range is given as a [`ChargedRange`] instead, its items charged as they are
            // taken (no list made): at most `RANGE_CUT_ITEMS`, and no more than the heap has
            // room for in a list of them (a call may make one at once: `list(range(10**9))`).
            let room = u64::try_from(heap_left(heap) / item_bytes).unwrap_or(u64::MAX);
            let k = n.min(room).min(RANGE_CUT_ITEMS);
            if let Some(cut) = ChargedRange::cut(iterable, k, heap) {
                return Ok(cut);
            }
            let k = n.min(iterations_left()).min(CUT_ITEMS);
            charge_items(k, item_bytes, heap)?;
            // (A string is no iterable to starlark-go: the call's own error.)
            let Ok(items) = iterable.iterate(heap) else {
                return Ok(iterable);
            };
            let items: Vec<Value> = items.take(k as usize).collect();
            owe_iterations();
            return Ok(heap.alloc(starlark::values::list::AllocList(items)));
        }
        if let Some(n) = n {
            charge_items(n, item_bytes, heap)?;
        }
        Ok(iterable)
    }

    /// A `for` statement's iterable, each of its items charged to the statement budget (one
    /// statement per iteration): the interpreter drops a body that does nothing
    /// (`for i in range(10**9): None`, a `while True:` with no body) and its hook would see no
    /// statement. A range's items are charged as they are taken (a loop may stop early, at
    /// its `break`), and the loop ends where the budget does (the next statement, or the
    /// evaluation's end, is the budget's error: [`super::statement_hook::EvaluationStart::check`]);
    /// the items of any other iterable (bounded by the memory holding them) when the loop
    /// starts.
    fn __schemac_loop<'v>(
        #[starlark(require = pos)] iterable: Value<'v>,
        heap: Heap<'v>,
    ) -> starlark::Result<Value<'v>> {
        let Some((n, _)) = items_count(iterable, heap) else {
            return Ok(iterable);
        };
        if let Some(charged) = ChargedRange::cut(iterable, n, heap) {
            return Ok(charged);
        }
        charge_iterations(n)?;
        Ok(iterable)
    }

    /// A call of an iterating builtin or a comprehension once done: the budget's error if an
    /// iterable it took was cut short at the budget ([`ITERATE`]).
    fn __schemac_done<'v>(
        #[starlark(require = pos)] value: Value<'v>,
    ) -> starlark::Result<Value<'v>> {
        settle_iterations()?;
        Ok(value)
    }
}

/// The most items of an iterable past the budget that [`ITERATE`] gives a call or
/// comprehension to run on before the budget's error.
const CUT_ITEMS: u64 = 1 << 20;

/// The most items of a range past the budget that [`ITERATE`] gives a call or comprehension
/// to run on (charged one at a time as taken: [`ChargedRange`]) before the budget's error. A
/// range's cut makes no list, so it may be longer than [`CUT_ITEMS`]: a comprehension that
/// fails at item 1,100,001 of `range(10**9)` fails there as in ytt (0.2 s), while one that
/// makes a dict of every item still stops in seconds (the whole statement budget's worth of
/// items, 10^8, took 69 s and 2.9 GB for a dict).
const RANGE_CUT_ITEMS: u64 = 1 << 23;

/// How many items iterating `iterable` takes, and whether it is an iterator (a string's
/// `elems()` or `codepoints()`, which has no length: its items are counted); `None` for a value
/// that is no iterable.
fn items_count<'v>(iterable: Value<'v>, heap: Heap<'v>) -> Option<(u64, bool)> {
    match iterable.length() {
        Ok(n) => Some((n.max(0) as u64, false)),
        Err(_) if iterable.get_type() == "iterator" => {
            let items = iterable.iterate(heap).ok()?;
            Some((items.count() as u64, true))
        }
        Err(_) => None,
    }
}
