//! Calling custom rules and `when=` predicates: [`crate::validate::Predicates`] for Starlark.

use starlark::docs::{DocItem, DocMember};
use starlark::environment::Module;
use starlark::eval::Evaluator;
use starlark::values::structs::AllocStruct;
use starlark::values::{Heap, OwnedFrozenValue, Value};

use super::builder::FrozenSlot;
use super::convert::scalar_to_starlark;
use crate::template::tree::{Handle, TreeValue};
use crate::validate::{CallOutcome, NodeMemo, Predicates, WhenContext};
use crate::value::Node;

/// Runs predicates with the Starlark interpreter, a fresh heap per call.
pub struct StarlarkPredicates;

fn slot(h: &Handle) -> Option<&FrozenSlot> {
    h.0.downcast_ref::<FrozenSlot>()
}

fn frozen(h: &Handle) -> Option<&OwnedFrozenValue> {
    slot(h).and_then(|s| s.value.get())
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

/// The number of positional parameters of a function value.
fn arity(f: Value) -> Option<usize> {
    match f.documentation() {
        DocItem::Member(DocMember::Function(d)) => {
            Some(d.params.pos_only.len() + d.params.pos_or_named.len())
        }
        _ => None,
    }
}

impl Predicates for StarlarkPredicates {
    fn call_rule(&self, f: &Handle, value: &Node) -> CallOutcome {
        let Some(owned) = frozen(f) else {
            return CallOutcome::Error("rule is not available".into());
        };
        let outcome = super::guarded(|| {
            Module::with_temp_heap(|m| {
                let heap = m.heap();
                let fv = heap.access_owned_frozen_value(owned);
                let state = slot(f).and_then(FrozenSlot::build_state);
                let mut eval = Evaluator::new(&m);
                eval.extra = state.as_ref().map(|s| s as _);
                super::budget::bound(&mut eval);
                match eval.eval_function(fv, &[to_starlark(value, heap)], &[]) {
                    Ok(v) if v.unpack_bool() == Some(true) => CallOutcome::Pass,
                    Ok(_) => CallOutcome::Fail,
                    Err(e) => CallOutcome::Error(crate::validate::failure_found(
                        &super::error_message(&e),
                    )),
                }
            })
        });
        outcome.unwrap_or_else(CallOutcome::Error)
    }

    fn call_when(&self, f: &Handle, value: &Node, ctx: &WhenContext) -> Result<bool, String> {
        let Some(owned) = frozen(f) else {
            return Err("when= is not available".into());
        };
        Module::with_temp_heap(|m| {
            let heap = m.heap();
            let fv = heap.access_owned_frozen_value(owned);
            let n = arity(fv).unwrap_or(1);
            let v = to_starlark(value, heap);
            let args = match n {
                1 => vec![v],
                2 => {
                    let ctx = heap.alloc(AllocStruct([
                        ("parent", shared(ctx.parent, ctx.memo, heap)),
                        ("root", shared(ctx.root, ctx.memo, heap)),
                    ]));
                    vec![v, ctx]
                }
                n => {
                    return Err(format!(
                    "Failed to evaluate when=: function must accept 1 or 2 arguments ({n} given)"
                ))
                }
            };
            let state = slot(f).and_then(FrozenSlot::build_state);
            let mut eval = Evaluator::new(&m);
            eval.extra = state.as_ref().map(|s| s as _);
            super::budget::bound(&mut eval);
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
    }
}
