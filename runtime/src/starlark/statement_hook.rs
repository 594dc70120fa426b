//! The statement hook of every Starlark evaluation (a template, a `.star` file, one rule or
//! `when=` call): it counts the statements run (and the comprehension iterations that
//! [`super::budget`]'s builtins charge) and looks at the bytes held, against the budget, from
//! the evaluation's start ([`EvaluationStart`]).

use std::cell::Cell;
use std::rc::Rc;
use std::sync::OnceLock;

use starlark::eval::Evaluator;
use starlark::values::Heap;

/// The Starlark budget of one evaluation (a template, a `.star` file, one rule or `when=`
/// call): statements run and bytes allocated on its heap. Counted, not timed, so the same input
/// passes or fails on any machine. Raised with `SCHEMAC_STARLARK_STEPS` and
/// `SCHEMAC_STARLARK_MEMORY` (bytes).
pub const DEFAULT_MAX_STEPS: u64 = crate::budget_vars::STARLARK_STEPS.default;
pub const DEFAULT_MAX_MEMORY: usize = crate::budget_vars::STARLARK_MEMORY.default_size();

/// How deep Starlark calls may nest (user functions calling functions): starlark-go has no
/// bound but Go's stack (ytt runs a chain of 100,000), starlark-rust's default is 50. Each
/// call takes the native stack the engine runs on ([`crate::cli::STACK_BYTES`]), which holds
/// this many. Raised with `SCHEMAC_STARLARK_CALL_DEPTH`.
pub const DEFAULT_MAX_CALL_DEPTH: usize = crate::budget_vars::STARLARK_CALL_DEPTH.default_size();

fn max_call_depth() -> usize {
    static DEPTH: OnceLock<usize> = OnceLock::new();
    // (A value out of the budget's bounds is refused before any work: `BudgetVar::at_least`,
    // `BudgetVar::at_most`.)
    *DEPTH.get_or_init(|| crate::budget_vars::STARLARK_CALL_DEPTH.get_size())
}

/// The call depth budget's error.
pub(super) fn call_depth_exceeded_message() -> String {
    let depth = max_call_depth();
    format!("{CALL_DEPTH_EXCEEDED} {depth} (raise the budget with SCHEMAC_STARLARK_CALL_DEPTH)")
}

const CALL_DEPTH_EXCEEDED: &str = "evaluation stopped: Starlark calls nested deeper than";

/// How the error of every budget of a Starlark evaluation begins (statements, memory, call
/// depth, integer bits): no message starlark-go or ytt words begins so, nor one a user's text
/// leads (`fail(...)` is `fail: ...`).
pub(super) const STOPPED: &str = "evaluation stopped";

/// `message` is the error of a budget of the evaluation ([`STOPPED`]) or of the value depth
/// budget (a value too deep to write): not an error of the program, which `assert.try_to` may
/// catch, but the end of the run (ytt has no such budget: it goes on, runs out of memory or
/// time, or overflows its stack).
pub(super) fn is_budget_error(message: &str) -> bool {
    message.starts_with(STOPPED) || message.starts_with(super::go_repr::NESTED_TOO_DEEP)
}

/// `message` is the call depth budget's error.
pub(super) fn is_call_depth_exceeded(message: &str) -> bool {
    message.starts_with(CALL_DEPTH_EXCEEDED)
}

/// How many of the calls the call depth budget's error lists (the innermost half and the
/// outermost half; thousands of lines of the same call would bury the message).
pub const CALL_DEPTH_FRAMES_SHOWN: usize = 20;

/// The budget in force: the defaults, or what the environment raises them to.
pub(super) fn budget() -> (u64, usize) {
    static BUDGET: OnceLock<(u64, usize)> = OnceLock::new();
    *BUDGET.get_or_init(|| {
        use crate::budget_vars::{STARLARK_MEMORY, STARLARK_STEPS};
        (STARLARK_STEPS.get(), STARLARK_MEMORY.get_size())
    })
}

thread_local! {
    /// Comprehension iterations charged on this thread (a running total): they run no
    /// statement, so the statement hook does not see them; [`ITERATE`] charges them.
    static ITERATIONS: Cell<u64> = const { Cell::new(0) };
    /// [`ITERATIONS`] when the latest evaluation on this thread began.
    static ITERATIONS_AT_START: Cell<u64> = const { Cell::new(0) };
    /// Whether an iterable was cut short at the budget (see [`owe_iterations`]).
    static OWED: Cell<bool> = const { Cell::new(false) };
    /// [`thread_held_bytes`] and the evaluator's heap bytes when the latest evaluation on
    /// this thread began (for [`check_heap`]).
    static HELD_AT_START: Cell<(isize, usize)> = const { Cell::new((0, 0)) };
}

fn iterations_since(start: u64) -> u64 {
    ITERATIONS.with(|i| i.get()).saturating_sub(start)
}

fn steps_exceeded() -> starlark::Error {
    starlark::Error::new_other(steps_exceeded_message())
}

fn steps_exceeded_message() -> anyhow::Error {
    let (max_steps, _) = budget();
    anyhow::anyhow!(
        "{STOPPED} after {max_steps} Starlark statements (an endless loop? raise the budget with SCHEMAC_STARLARK_STEPS)"
    )
}

/// Bytes the thread holds (see [`crate::allocator::thread_held_bytes`]; 0 where the program's
/// allocator is not schemac's).
fn thread_held_bytes() -> isize {
    #[cfg(feature = "mimalloc")]
    return crate::allocator::thread_held_bytes();
    #[cfg(not(feature = "mimalloc"))]
    return 0;
}

/// Where an evaluation's budget is counted from: shared by the statement hook and whoever runs
/// several calls in one evaluator ([`super::predicates`]), who restarts it at each call.
pub(crate) struct EvaluationStart {
    steps: Cell<u64>,
    /// [`ITERATIONS`] when this evaluation began.
    iterations: Cell<u64>,
    /// [`thread_held_bytes`] when this evaluation began.
    held: Cell<isize>,
    /// The bytes on the evaluator's heap when this evaluation began.
    heap: Cell<usize>,
}

impl EvaluationStart {
    /// Starts counting a new evaluation in `eval` (a call of a rule, in an evaluator that ran
    /// others before): its statements, iterations and bytes are counted from now.
    pub(crate) fn restart(&self, eval: &Evaluator<'_, '_, '_>) {
        let iterations = ITERATIONS.with(|i| i.get());
        ITERATIONS_AT_START.with(|s| s.set(iterations));
        OWED.with(|o| o.set(false));
        self.steps.set(0);
        self.iterations.set(iterations);
        self.held.set(thread_held_bytes());
        self.heap.set(eval.heap().allocated_bytes());
        HELD_AT_START.with(|h| h.set((self.held.get(), self.heap.get())));
    }
}

impl EvaluationStart {
    /// The statement budget's error if the evaluation has passed it: where its last statement
    /// was a loop that the budget ended (`for i in range(10**9): None` at the end of a file,
    /// whose items are charged as they are taken and stop at the budget), no statement after it
    /// made the hook's error.
    pub(crate) fn check(&self) -> anyhow::Result<()> {
        let (max_steps, _) = budget();
        let iterations = iterations_since(self.iterations.get());
        match self.steps.get().saturating_add(iterations) > max_steps {
            true => Err(steps_exceeded_message()),
            false => Ok(()),
        }
    }
}

/// Whether an evaluation that began holding `held_start` bytes of the thread and
/// `heap_start` of its heap has passed the heap budget: big integers keep their digits
/// outside the heap, where only the thread's count sees them (and the garbage of
/// `x = x * 3` in a loop is freed only when the evaluation ends).
fn heap_over_budget(held_start: isize, heap_start: usize, heap: Heap<'_>) -> bool {
    let (_, max_memory) = budget();
    let held = thread_held_bytes().wrapping_sub(held_start);
    let allocated = heap.allocated_bytes().saturating_sub(heap_start);
    // `held` is signed (the thread may free what it held at the start); a budget past
    // `isize::MAX` (`SCHEMAC_STARLARK_MEMORY=18446744073709551615`) was negative as an
    // `isize`, and stopped every evaluation at its first statement.
    allocated > max_memory || usize::try_from(held).is_ok_and(|held| held > max_memory)
}

/// The heap budget's check of the latest evaluation begun on this thread, where no statement
/// runs for the hook to make it: after each item a comprehension makes.
pub(super) fn check_heap(heap: Heap<'_>) -> starlark::Result<()> {
    let (held_start, heap_start) = HELD_AT_START.with(|h| h.get());
    match heap_over_budget(held_start, heap_start, heap) {
        true => Err(heap_exceeded("allocated")),
        false => Ok(()),
    }
}

/// Stops a Starlark evaluation that exceeds its budget (an endless loop in a rule).
struct StepBound(Rc<EvaluationStart>);

impl<'e> starlark::eval::BeforeStmtFuncDyn<'e> for StepBound {
    fn call<'v>(
        &mut self,
        _span: starlark::codemap::FileSpanRef,
        continued: bool,
        eval: &mut Evaluator<'v, '_, 'e>,
    ) -> starlark::Result<()> {
        let start = &self.0;
        // The interpreter also calls the hook after each call returns (`continued`): that is
        // no statement (a comprehension's items, each passed to `EACH`, would count twice),
        // but the heap is looked at all the same.
        let steps = start.steps.get() + u64::from(!continued);
        start.steps.set(steps);
        // At every statement: looked at only every 1,024th, a budget below that was 1,024
        // statements (`SCHEMAC_STARLARK_STEPS=1` ran a loop of 100), and any other rounded up.
        let (max_steps, _) = budget();
        if steps.saturating_add(iterations_since(start.iterations.get())) > max_steps {
            return Err(steps_exceeded());
        }
        // The heap at every statement: a value may double in one (`x += x`).
        if heap_over_budget(start.held.get(), start.heap.get(), eval.heap()) {
            return Err(heap_exceeded("allocated"));
        }
        Ok(())
    }
}

/// Bounds the steps of everything `eval` runs (and instruments code it compiles, so that
/// functions defined now can be bounded when they are called later), counted from now; the
/// start, to count a later evaluation in the same evaluator from its own start.
pub(crate) fn bound(eval: &mut Evaluator<'_, '_, '_>) -> Rc<EvaluationStart> {
    let start = Rc::new(EvaluationStart {
        steps: Cell::new(0),
        iterations: Cell::new(0),
        held: Cell::new(0),
        heap: Cell::new(0),
    });
    start.restart(eval);
    // Fails only when already set: never, on an evaluator this bounds once.
    let _ = eval.set_max_callstack_size(max_call_depth());
    eval.before_stmt_for_dap(starlark::eval::BeforeStmtFunc::from_dyn(Box::new(
        StepBound(Rc::clone(&start)),
    )));
    start
}

/// Charges `n` comprehension iterations to the evaluation running on this thread.
pub(super) fn charge_iterations(n: u64) -> starlark::Result<()> {
    let (max_steps, _) = budget();
    ITERATIONS.with(|i| i.set(i.get().saturating_add(n)));
    if iterations_since(ITERATIONS_AT_START.with(|s| s.get())) > max_steps {
        return Err(steps_exceeded());
    }
    Ok(())
}

/// The iterations the latest evaluation begun on this thread may still charge.
pub(super) fn iterations_left() -> u64 {
    let (max_steps, _) = budget();
    max_steps.saturating_sub(iterations_since(ITERATIONS_AT_START.with(|s| s.get())))
}

/// Records that an iterable was given cut short at what the budget allows: the call or
/// comprehension that took it fails with the budget's error when it is done
/// ([`settle_iterations`]), unless it failed first (as starlark-go fails at an item or an
/// argument check before it would have gone through them all).
pub(super) fn owe_iterations() {
    OWED.with(|o| o.set(true));
}

/// Whether an iterable was cut short and its call is not done ([`owe_iterations`]).
pub(super) fn iterations_owed() -> bool {
    OWED.with(|o| o.get())
}

/// Sets back whether an iterable was cut short ([`iterations_owed`]): `assert.try_to`, when it
/// catches an error that ended a call before it was done.
pub(super) fn set_iterations_owed(owed: bool) {
    OWED.with(|o| o.set(owed));
}

/// The budget's error if an iterable was cut short ([`owe_iterations`]).
pub(super) fn settle_iterations() -> starlark::Result<()> {
    match OWED.with(|o| o.replace(false)) {
        true => Err(steps_exceeded()),
        false => Ok(()),
    }
}

/// The heap budget's error: the evaluation `verb` ("allocated", "would allocate") more than it.
pub(super) fn heap_exceeded(verb: &str) -> starlark::Error {
    starlark::Error::new_other(heap_exceeded_message(verb))
}

pub(super) fn heap_exceeded_message(verb: &str) -> anyhow::Error {
    let (_, max_memory) = budget();
    anyhow::anyhow!(
        "{STOPPED}: it {verb} more than {max_memory} bytes (raise the budget with SCHEMAC_STARLARK_MEMORY)"
    )
}

#[cfg(test)]
mod tests {
    #[test]
    fn the_call_depth_error_is_a_budget_error() {
        assert!(super::is_budget_error(super::CALL_DEPTH_EXCEEDED));
    }
}
