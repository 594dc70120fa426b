//! What starlark-go's sets lack that the crate's have: the difference `set - set` (starlark-go:
//! `unknown binary op`) and every method but `union` through `getattr` (see
//! [`super::go_methods`] for calls of them).

use starlark::environment::GlobalsBuilder;
use starlark::eval::Evaluator;
use starlark::values::tuple::UnpackTuple;
use starlark::values::{Heap, StringValue, Value};

use super::go_builtins::{go_error, standard};

/// The global function every binary `-` of a program calls (see
/// [`super::budget::guard_repetition`]).
pub(super) const MINUS: &str = "__schemac_minus";

#[starlark::starlark_module]
pub(super) fn set_guards(builder: &mut GlobalsBuilder) {
    /// `x - y`: starlark-go has no difference of two sets (the crate's answers).
    fn __schemac_minus<'v>(
        #[starlark(require = pos)] x: Value<'v>,
        #[starlark(require = pos)] y: Value<'v>,
        heap: Heap<'v>,
    ) -> starlark::Result<Value<'v>> {
        match (x.get_type(), y.get_type()) {
            ("set", "set") => Err(super::go_operators::unknown_binary_op("-", x, y)),
            _ => x.sub(y, heap),
        }
    }
}

#[starlark::starlark_module]
pub(super) fn set_builtins(builder: &mut GlobalsBuilder) {
    /// `getattr(x, name[, default])`: a set has the one method `union` (the crate's `add`,
    /// `pop`... answered); anything else goes to the interpreter's `getattr`.
    fn getattr<'v>(
        #[starlark(args)] args: UnpackTuple<Value<'v>>,
        #[starlark(kwargs)] kwargs: starlark::collections::SmallMap<StringValue<'v>, Value<'v>>,
        eval: &mut Evaluator<'v, '_, '_>,
    ) -> starlark::Result<Value<'v>> {
        if let ([x, name, ..], true) = (&args.items[..], kwargs.is_empty()) {
            let missing = x.get_type() == "set"
                && args.items.len() <= 3
                && name.unpack_str().is_some_and(|n| n != "union");
            if missing {
                if let Some(default) = args.items.get(2) {
                    return Ok(*default);
                }
                let name = name.unpack_str().unwrap_or_default();
                return Err(go_error(format!(
                    "getattr: set has no .{name} field or method"
                )));
            }
        }
        let named = super::named_args(&kwargs);
        eval.eval_function(standard("getattr"), &args.items, &named)
    }
}
