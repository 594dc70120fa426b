//! Calling custom rules and `when=` predicates: [`crate::validate::Predicates`] for Starlark.

use super::ytt_struct::YttStruct;
use starlark::docs::{DocItem, DocMember};
use starlark::environment::{Globals, GlobalsBuilder, Module};
use starlark::eval::Evaluator;
use starlark::syntax::{AstModule, Dialect};
use starlark::values::{Heap, Value};

use std::cell::{Cell, OnceCell, RefCell};
use std::rc::Rc;

use super::builder::{BuildState, FrozenSlot};
use super::convert::scalar_to_starlark;
use crate::schema::FunctionRef;
use crate::template::functions::{Deferred, Functions};
use crate::template::tree::{Returned, TreeValue};
use crate::validate::{CallOutcome, NodeMemo, Predicates, WhenContext};
use crate::value::Node;
use std::sync::Arc;

/// Calls the run's Starlark functions (custom rules, `when=`, overlay functions) in one
/// evaluator for the whole run: made once (not per call, which cost a heap, an evaluator and
/// the budget's hook each time), each call an evaluation of its own for the budget
/// ([`super::budget::EvaluationStart::restart`]), the garbage of earlier calls collected when
/// it passes [`garbage_limit`]. Made by [`with_starlark_predicates`].
pub struct StarlarkPredicates<'v, 'a> {
    functions: &'a Functions,
    /// Each function's value on the run's heap and its builder state, found at its first call.
    callees: &'a [OnceCell<Option<Callee<'v>>>],
    /// The run's evaluator; `None` once a call panicked in it (later calls then get a fresh
    /// evaluator each).
    shared: RefCell<Option<Shared<'v, 'a>>>,
    /// A call is running in the shared evaluator (still set at the next call: it panicked).
    in_call: Cell<bool>,
}

struct Shared<'v, 'a> {
    eval: Evaluator<'v, 'a, 'a>,
    start: Rc<super::budget::EvaluationStart>,
}

/// A function as the run's evaluator calls it.
struct Callee<'v> {
    /// The frozen function, on the run's heap (frozen values do not move when garbage is
    /// collected).
    value: Value<'v>,
    /// What a fragment function the callee calls builds YAML with.
    state: Option<BuildState>,
}

/// The bytes of garbage the run's evaluator gathers before it is collected between two calls:
/// 8 MiB, or an eighth of the memory budget when that is smaller.
fn garbage_limit() -> usize {
    (8 << 20).min(super::budget::budget().1 / 8)
}

/// Frees the garbage of earlier calls. starlark-rust collects it only before a statement at
/// the top of a module, where it knows every live value (the frozen callees are not on this
/// heap; each call's arguments and result are done with), so a module of one `pass` is run.
fn collect_garbage(eval: &mut Evaluator) {
    static NOTHING: std::sync::OnceLock<Globals> = std::sync::OnceLock::new();
    let globals = NOTHING.get_or_init(|| GlobalsBuilder::new().build());
    if let Ok(ast) = AstModule::parse("gc", "pass".to_owned(), &Dialect::Standard) {
        let _ = eval.eval_module(ast, globals);
    }
}

/// Runs `run` with [`StarlarkPredicates`] for the functions of `functions`.
pub fn with_starlark_predicates<R>(
    functions: &Functions,
    run: impl FnOnce(&dyn Predicates) -> R,
) -> R {
    make_deferred(functions);
    Module::with_temp_heap(|m| {
        let callees: Vec<OnceCell<Option<Callee>>> =
            (0..functions.len()).map(|_| OnceCell::new()).collect();
        let mut eval = Evaluator::new(&m);
        let start = super::budget::bound(&mut eval);
        let predicates = StarlarkPredicates {
            functions,
            callees: &callees,
            shared: RefCell::new(Some(Shared { eval, start })),
            in_call: Cell::new(false),
        };
        run(&predicates)
    })
}

/// Puts in place of each [`Deferred`] function of `functions` the function the interpreter
/// makes, evaluating each template that holds some once more. The literal templater took such
/// a template only when the interpreter evaluates it without error, keeping its functions in
/// the same order; if it does not after all, the functions stay deferred and their calls
/// fail.
fn make_deferred(functions: &Functions) {
    let mut done: Vec<*const crate::yaml::parse::RawFile> = Vec::new();
    for i in 0..functions.len() {
        let Some(kept) = functions.get(i) else {
            continue;
        };
        let Ok(deferred) = kept.downcast::<Deferred>() else {
            continue;
        };
        let template = Arc::as_ptr(&deferred.template);
        if done.contains(&template) {
            continue;
        }
        done.push(template);
        let made = Functions::default();
        let files = deferred.files.to_vec();
        let sources = crate::template::Sources::with_functions(files, made.clone());
        if super::eval_template(&deferred.template, &sources).is_err() {
            continue;
        }
        for j in i..functions.len() {
            let Some(d) = functions.get(j).and_then(|k| k.downcast::<Deferred>().ok()) else {
                continue;
            };
            if Arc::ptr_eq(&d.template, &deferred.template) {
                if let Some(f) = made.get(d.nth) {
                    functions.replace(j, f);
                }
            }
        }
    }
}

impl<'v, 'a> StarlarkPredicates<'v, 'a> {
    fn slot(&self, f: &FunctionRef) -> Option<std::sync::Arc<FrozenSlot>> {
        self.functions.get(f.index)?.downcast::<FrozenSlot>().ok()
    }

    /// Runs `call` on the value of `f` in an evaluator, as an evaluation of its own; `None`
    /// when `f` is not a kept function.
    fn with_callee<R>(
        &self,
        f: &FunctionRef,
        call: impl for<'x> FnOnce(&mut Evaluator<'x, '_, '_>, Value<'x>) -> R,
    ) -> Option<R> {
        if self.in_call.replace(false) {
            // The last call panicked: its evaluator is not to be trusted (nor dropped).
            std::mem::forget(self.shared.take());
        }
        let mut shared = self.shared.borrow_mut();
        let Some(Shared { eval, start }) = shared.as_mut() else {
            drop(shared);
            return self.with_fresh_evaluator(f, call);
        };
        let callee = self.callees.get(f.index)?.get_or_init(|| {
            let slot = self.slot(f)?;
            Some(Callee {
                value: eval.heap().access_owned_frozen_value(slot.value.get()?),
                state: slot.build_state(),
            })
        });
        let callee = callee.as_ref()?;
        if let Some(state) = &callee.state {
            state.restart();
        }
        eval.extra = callee.state.as_ref().map(|s| s as _);
        start.restart(eval);
        self.in_call.set(true);
        let result = call(eval, callee.value);
        self.in_call.set(false);
        if eval.heap().allocated_bytes() > garbage_limit() {
            collect_garbage(eval);
        }
        Some(result)
    }

    /// [`Self::with_callee`] in an evaluator of its own.
    fn with_fresh_evaluator<R>(
        &self,
        f: &FunctionRef,
        call: impl for<'x> FnOnce(&mut Evaluator<'x, '_, '_>, Value<'x>) -> R,
    ) -> Option<R> {
        let slot = self.slot(f)?;
        let owned = slot.value.get()?;
        Module::with_temp_heap(|m| {
            let fv = m.heap().access_owned_frozen_value(owned);
            let state = slot.build_state();
            let mut eval = Evaluator::new(&m);
            eval.extra = state.as_ref().map(|s| s as _);
            super::budget::bound(&mut eval);
            Some(call(&mut eval, fv))
        })
    }
}

fn to_starlark<'v>(node: &Node, heap: Heap<'v>) -> Value<'v> {
    match &node.value {
        crate::value::Value::Map(_) | crate::value::Value::Array(_) => {
            super::convert::tree_value_to_starlark(&TreeValue::from_node(node), heap)
        }
        v => scalar_to_starlark(v, heap),
    }
}

/// `node` for Starlark, converted once per validation run and shared (frozen) by every call
/// that sees it: `ctx.parent` and `ctx.root` of `when=`.
fn shared<'v>(node: &Node, memo: &NodeMemo, heap: Heap<'v>) -> Value<'v> {
    let frozen = memo.get_or_make(node, || {
        Module::with_temp_heap(|module| {
            module.set("node", to_starlark(node, module.heap()));
            module.freeze().ok()?.get("node").ok()
        })
    });
    match &*frozen {
        Some(v) => heap.access_owned_frozen_value(v),
        None => to_starlark(node, heap),
    }
}

/// starlark-go's words for a call of the function `f` with `given` positional arguments (and
/// no named ones) that its parameters refuse, where `e` is starlark-rust's refusal (see
/// [`super::callee::Signature::refusal`]). `None` for other errors.
fn arity_error(f: Value, given: usize, e: &starlark::Error) -> Option<String> {
    if !super::callee::is_refusal(&e.without_diagnostic().to_string()) {
        return None;
    }
    let DocItem::Member(DocMember::Function(d)) = f.documentation() else {
        return None;
    };
    super::callee::Signature::of_doc(f.function_name()?, &d.params).refusal(given, &[])
}

/// starlark-go's words for a builtin (`by=len`) refusing the `given` arguments ytt passes
/// it. They name the call, which has no text here: it is written as `NAME(x, ...)`.
fn builtin_arity_error(f: Value, given: usize, e: &starlark::Error) -> Option<String> {
    let raw = e.without_diagnostic().to_string();
    if super::go_type(f) != "builtin_function_or_method"
        || !raw.starts_with("Wrong number of positional arguments")
    {
        return None;
    }
    let call = format!("{}({})", f.function_name()?, vec!["x"; given].join(", "));
    Some(super::go_wording(&raw, Some(&call)))
}

/// The number of positional parameters of a function value.
fn arity(f: Value) -> Option<usize> {
    match f.documentation() {
        DocItem::Member(DocMember::Function(d)) => {
            Some(d.params.pos_only.len() + d.params.pos_or_named.len())
        }
        _ => None,
    }
}

/// Calls the function `fv` with positional arguments `args`; `Err` is ytt's message for a
/// failed call (starlark-go's words for arguments the function refuses).
pub(super) fn call_with_go_errors<'v>(
    eval: &mut Evaluator<'v, '_, '_>,
    fv: Value<'v>,
    args: &[Value<'v>],
) -> Result<Value<'v>, String> {
    eval.eval_function(fv, args, &[])
        .map_err(|e| go_call_error(fv, args.len(), &e))
}

/// ytt's message for the error `e` of a call of the function `fv` with `given` positional
/// arguments (starlark-go's words for arguments the function refuses).
pub(super) fn go_call_error(fv: Value, given: usize, e: &starlark::Error) -> String {
    arity_error(fv, given, e)
        .or_else(|| builtin_arity_error(fv, given, e))
        .unwrap_or_else(|| super::error_message(e).trim().to_string())
}

/// Calls the overlay function `fv` (`by=`, `via=`) on the nodes' values; `Err` is ytt's
/// message for a failed call.
pub(super) fn call_overlay_function<'v>(
    eval: &mut Evaluator<'v, '_, '_>,
    fv: Value<'v>,
    args: &[&TreeValue],
) -> Result<Returned, String> {
    let heap = eval.heap();
    let args: Vec<Value> = args
        .iter()
        .map(|a| super::convert::tree_value_to_starlark(a, heap))
        .collect();
    let result = call_with_go_errors(eval, fv, &args)?;
    let value = super::convert::to_tree_value(result, &crate::value::Pos::unknown(), heap)
        .map_err(|e| e.message(|t| format!("Unsupported value type {t}")))?;
    Ok(Returned {
        starlark_collection: super::convert::is_starlark_collection(result, &value),
        value,
    })
}

/// The overlay functions of YAML the running template built (`by=lambda ...` in fragments
/// given to `overlay.apply`), called with the template's own evaluator. Rules and `when=` are
/// not run while a template runs.
pub(super) struct RunningTemplateCalls<'x, 'v, 'a, 'e> {
    pub eval: std::cell::RefCell<&'x mut Evaluator<'v, 'a, 'e>>,
}

impl Predicates for RunningTemplateCalls<'_, '_, '_, '_> {
    fn call_rule(&self, _: &FunctionRef, _: &Node) -> CallOutcome {
        CallOutcome::Error(Some("rules do not run while a template runs".into()))
    }

    fn call_when(&self, _: &FunctionRef, _: &Node, _: &WhenContext) -> Result<bool, String> {
        Err("when= does not run while a template runs".into())
    }

    fn call_overlay(&self, f: &FunctionRef, args: &[&TreeValue]) -> Result<Returned, String> {
        let mut eval = self.eval.borrow_mut();
        let name = eval
            .extra
            .and_then(|e| e.downcast_ref::<super::builder::BuildState>())
            .and_then(|state| state.kept_name(f.index))
            .ok_or("overlay function is not available")?;
        let fv = eval
            .module()
            .get(&name)
            .ok_or("overlay function is not available")?;
        call_overlay_function(&mut eval, fv, args)
    }
}

impl Predicates for StarlarkPredicates<'_, '_> {
    fn call_rule(&self, f: &FunctionRef, value: &Node) -> CallOutcome {
        let outcome = super::guarded(|| {
            self.with_callee(f, |eval, mut fv| {
                let heap = eval.heap();
                // An assertion object runs as its `check`.
                if !super::convert::is_function(fv) {
                    fv = fv.get_attr("check", heap).ok().flatten().unwrap_or(fv);
                }
                match eval.eval_function(fv, &[to_starlark(value, heap)], &[]) {
                    Ok(v) if v.unpack_bool() == Some(true) => CallOutcome::Pass,
                    Ok(_) => CallOutcome::Fail,
                    Err(e) => CallOutcome::Error(crate::validate::failure_found(
                        &arity_error(fv, 1, &e).unwrap_or_else(|| super::error_message(&e)),
                    )),
                }
            })
        });
        match outcome {
            Ok(Some(outcome)) => outcome,
            Ok(None) => CallOutcome::Error(Some("rule is not available".into())),
            Err(m) => CallOutcome::Error(Some(m)),
        }
    }

    fn call_overlay(&self, f: &FunctionRef, args: &[&TreeValue]) -> Result<Returned, String> {
        self.with_callee(f, |eval, fv| call_overlay_function(eval, fv, args))
            .unwrap_or_else(|| Err("overlay function is not available".into()))
    }

    fn call_when(&self, f: &FunctionRef, value: &Node, ctx: &WhenContext) -> Result<bool, String> {
        self.with_callee(f, |eval, fv| {
            let heap = eval.heap();
            let n = arity(fv).unwrap_or(1);
            let v = to_starlark(value, heap);
            let args = match n {
                1 => vec![v],
                2 => {
                    let ctx = heap.alloc(YttStruct::new([
                        ("parent".to_string(), shared(ctx.parent, ctx.memo, heap)),
                        ("root".to_string(), shared(ctx.root, ctx.memo, heap)),
                    ]));
                    vec![v, ctx]
                }
                n => {
                    return Err(format!(
                    "Failed to evaluate when=: function must accept 1 or 2 arguments ({n} given)"
                ))
                }
            };
            match eval.eval_function(fv, &args, &[]) {
                Ok(r) => match r.unpack_bool() {
                    Some(b) => Ok(b),
                    None => Err(format!("want when= to be bool, got {}", r.get_type())),
                },
                Err(e) => Err(format!(
                    "Failure evaluating when=: {}",
                    super::error_message(&e).trim()
                )),
            }
        })
        .unwrap_or_else(|| Err("when= is not available".into()))
    }
}
