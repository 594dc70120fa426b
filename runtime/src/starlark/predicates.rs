//! Calling custom rules and `when=` predicates: [`crate::validate::Predicates`] for Starlark.

use super::ytt_struct::YttStruct;
use starlark::docs::{DocItem, DocMember};
use starlark::environment::Module;
use starlark::eval::Evaluator;
use starlark::values::{Heap, OwnedFrozenValue, Value};

use super::builder::FrozenSlot;
use super::convert::scalar_to_starlark;
use crate::schema::FunctionRef;
use crate::template::functions::Functions;
use crate::template::tree::TreeValue;
use crate::validate::{CallOutcome, NodeMemo, Predicates, WhenContext};
use crate::value::Node;

/// Runs predicates with the Starlark interpreter, a fresh heap per call: the functions the
/// run's templates kept.
pub struct StarlarkPredicates<'a> {
    pub functions: &'a Functions,
}

impl StarlarkPredicates<'_> {
    fn slot(&self, f: &FunctionRef) -> Option<std::sync::Arc<FrozenSlot>> {
        self.functions.get(f.index)?.downcast::<FrozenSlot>().ok()
    }

    fn frozen(&self, f: &FunctionRef) -> Option<OwnedFrozenValue> {
        self.slot(f)?.value.get().cloned()
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
/// no named ones) that its parameters refuse, where `e` is starlark-rust's refusal (`Found 1
/// extra positional argument(s) ...`, `Missing parameter ...`): `function lambda accepts no
/// arguments (1 given)`, `function f accepts at most 2 positional arguments (3 given)`,
/// `function f missing 2 arguments (x, y)`. `None` for other errors.
fn arity_error(f: Value, given: usize, e: &starlark::Error) -> Option<String> {
    let message = e.without_diagnostic().to_string();
    let (_, callee) = message
        .split_once(" extra positional argument(s) for call to ")
        .or_else(|| message.split_once("` for call to "))
        .filter(|_| {
            [
                "Found ",
                "Missing parameter `",
                "Missing named-only parameter `",
            ]
            .iter()
            .any(|start| message.starts_with(start))
        })?;
    let name = callee.trim_matches('`').rsplit('.').next()?;
    let DocItem::Member(DocMember::Function(d)) = f.documentation() else {
        return None;
    };
    let positional: Vec<_> = d
        .params
        .pos_only
        .iter()
        .chain(&d.params.pos_or_named)
        .collect();
    let plural = |n: usize| if n == 1 { "" } else { "s" };
    if given > positional.len() && d.params.args.is_none() {
        let most = positional.len();
        let no_params = most == 0 && d.params.named_only.is_empty() && d.params.kwargs.is_none();
        return Some(
            match (most, positional.iter().any(|p| p.default_value.is_some())) {
                _ if no_params => format!("function {name} accepts no arguments ({given} given)"),
                (_, true) => format!(
                    "function {name} accepts at most {most} positional argument{} ({given} given)",
                    plural(most)
                ),
                (_, false) => format!(
                    "function {name} accepts {most} positional argument{} ({given} given)",
                    plural(most)
                ),
            },
        );
    }
    let missing: Vec<&str> = positional
        .iter()
        .skip(given)
        .copied()
        .chain(&d.params.named_only)
        .filter(|p| p.default_value.is_none())
        .map(|p| p.name.as_str())
        .collect();
    (!missing.is_empty()).then(|| {
        format!(
            "function {name} missing {} argument{} ({})",
            missing.len(),
            plural(missing.len()),
            missing.join(", ")
        )
    })
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

/// Calls the overlay function `fv` (`by=`, `via=`) on the nodes' values; `Err` is ytt's
/// message for a failed call.
pub(super) fn call_overlay_function<'v>(
    eval: &mut Evaluator<'v, '_, '_>,
    fv: Value<'v>,
    args: &[&TreeValue],
) -> Result<TreeValue, String> {
    let heap = eval.heap();
    let args: Vec<Value> = args
        .iter()
        .map(|a| super::convert::tree_value_to_starlark(a, heap))
        .collect();
    let result = eval.eval_function(fv, &args, &[]).map_err(|e| {
        arity_error(fv, args.len(), &e)
            .unwrap_or_else(|| super::error_message(&e).trim().to_string())
    })?;
    super::convert::to_tree_value(result, &crate::value::Pos::unknown(), heap)
        .map_err(|e| e.message(|t| format!("Unsupported value type {t}")))
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

    fn call_overlay(&self, f: &FunctionRef, args: &[&TreeValue]) -> Result<TreeValue, String> {
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

impl Predicates for StarlarkPredicates<'_> {
    fn call_rule(&self, f: &FunctionRef, value: &Node) -> CallOutcome {
        let Some(owned) = self.frozen(f) else {
            return CallOutcome::Error(Some("rule is not available".into()));
        };
        let outcome = super::guarded(|| {
            Module::with_temp_heap(|m| {
                let heap = m.heap();
                let mut fv = heap.access_owned_frozen_value(&owned);
                // An assertion object runs as its `check`.
                if !super::convert::is_function(fv) {
                    fv = fv.get_attr("check", heap).ok().flatten().unwrap_or(fv);
                }
                let state = self.slot(f).and_then(|s| s.build_state());
                let mut eval = Evaluator::new(&m);
                eval.extra = state.as_ref().map(|s| s as _);
                super::budget::bound(&mut eval);
                match eval.eval_function(fv, &[to_starlark(value, heap)], &[]) {
                    Ok(v) if v.unpack_bool() == Some(true) => CallOutcome::Pass,
                    Ok(_) => CallOutcome::Fail,
                    Err(e) => CallOutcome::Error(crate::validate::failure_found(
                        &arity_error(fv, 1, &e).unwrap_or_else(|| super::error_message(&e)),
                    )),
                }
            })
        });
        outcome.unwrap_or_else(|m| CallOutcome::Error(Some(m)))
    }

    fn call_overlay(&self, f: &FunctionRef, args: &[&TreeValue]) -> Result<TreeValue, String> {
        let Some(owned) = self.frozen(f) else {
            return Err("overlay function is not available".into());
        };
        Module::with_temp_heap(|m| {
            let heap = m.heap();
            let fv = heap.access_owned_frozen_value(&owned);
            let state = self.slot(f).and_then(|s| s.build_state());
            let mut eval = Evaluator::new(&m);
            eval.extra = state.as_ref().map(|s| s as _);
            super::budget::bound(&mut eval);
            call_overlay_function(&mut eval, fv, args)
        })
    }

    fn call_when(&self, f: &FunctionRef, value: &Node, ctx: &WhenContext) -> Result<bool, String> {
        let Some(owned) = self.frozen(f) else {
            return Err("when= is not available".into());
        };
        Module::with_temp_heap(|m| {
            let heap = m.heap();
            let fv = heap.access_owned_frozen_value(&owned);
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
            let state = self.slot(f).and_then(|s| s.build_state());
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
