//! The matchers of `@ytt:overlay` as Starlark sees them: `overlay.all`, and what
//! `overlay.subset(...)`, `map_key`, `index`, `and_op`, `or_op` and `not_op` return. To ytt
//! they are builtin functions of an item's index, the old value and the new one
//! (`overlay.subset({"a": 1})(0, left, right)`), which print as
//! `<built-in function overlay.subset_matcher>`.
//!
//! Given to an annotation (`#@overlay/match by=...`) a matcher becomes
//! [`ArgKind::Matcher`](crate::template::tree::ArgKind::Matcher) (see [`parts`]) and the overlay
//! engine compares tree values with [`crate::overlay::Matcher`]; called from Starlark it runs
//! here on the values it is given, with the same comparisons.

use std::fmt;

use allocative::Allocative;
use starlark::eval::{Arguments, Evaluator};
use starlark::values::{
    starlark_value, Coerce, Freeze, Heap, NoSerialize, ProvidesStaticType, StarlarkValue, Trace,
    UnpackValue, Value, ValueLifetimeless, ValueLike,
};
use starlark::{starlark_complex_value, StarlarkPagable};

use super::convert::{is_starlark_collection, to_tree_value};
use crate::overlay::{not_a_map, same_key, subset};
use crate::template::tree::TreeValue;
use crate::value::Pos;

/// A matcher: its operation (`subset`, `all`, `and_op`...) and its argument (`None` for
/// `all`; the tuple of matchers for `and_op` and `or_op`).
#[derive(
    Debug,
    Clone,
    Trace,
    Coerce,
    Freeze,
    ProvidesStaticType,
    NoSerialize,
    Allocative,
    StarlarkPagable,
)]
#[repr(C)]
pub struct OverlayMatcherGen<V: ValueLifetimeless> {
    pub(super) op: String,
    pub(super) arg: V,
}

starlark_complex_value!(pub OverlayMatcher);

impl<'v> OverlayMatcher<'v> {
    pub fn new(op: &str, arg: Value<'v>) -> OverlayMatcher<'v> {
        OverlayMatcher {
            op: op.to_string(),
            arg,
        }
    }
}

/// The operation and the argument of the matcher `v`, if it is one.
pub fn parts(v: Value) -> Option<(String, Value)> {
    OverlayMatcher::from_value(v).map(|m| (m.op.clone(), m.arg))
}

/// The error for the matcher `v` when it is made of more matchers than the value depth budget
/// (`SCHEMAC_MAX_VALUE_DEPTH`): each of `and_op`, `or_op` and `not_op` calls the ones it was
/// given, so a chain of 1,000,000 `not_op`s given to an annotation overflowed the stack, and
/// 60 `m = overlay.and_op(m, m)` are 2^60 matchers (ytt calls them all: it runs without end).
/// Counted without recursion, each matcher as often as it is given.
pub fn too_many_matchers(v: Value) -> anyhow::Result<()> {
    let max = crate::yaml::parse::budget::max_value_depth();
    let (mut count, mut stack) = (0usize, vec![v]);
    while let Some(v) = stack.pop() {
        let Some(m) = OverlayMatcher::from_value(v) else {
            continue;
        };
        count += 1;
        if count > max {
            anyhow::bail!(
                "overlay matcher made of more than {max} matchers (overlay.and_op, or_op and not_op given one another; raise the budget with {})",
                crate::yaml::parse::budget::VALUE_DEPTH_VAR
            );
        }
        match m.op.as_str() {
            "not_op" => stack.push(m.arg),
            "and_op" | "or_op" => {
                // The matchers given, as a list (see `modules::some_args`).
                if let Some(items) = starlark::values::list::ListRef::from_value(m.arg) {
                    stack.extend(items.iter());
                }
            }
            _ => {}
        }
    }
    Ok(())
}

impl<V: ValueLifetimeless> OverlayMatcherGen<V> {
    /// The name ytt gives the builtin (`not_op`'s is `or_op`'s, as in ytt).
    fn name(&self) -> String {
        match self.op.as_str() {
            "map_key" | "index" | "subset" => format!("overlay.{}_matcher", self.op),
            "not_op" => "overlay.or_op".into(),
            op => format!("overlay.{op}"),
        }
    }
}

impl<V: ValueLifetimeless> fmt::Display for OverlayMatcherGen<V> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "<built-in function {}>", self.name())
    }
}

#[starlark_value(type = "builtin_function_or_method")]
impl<'v, V: ValueLike<'v>> StarlarkValue<'v> for OverlayMatcherGen<V>
where
    Self: ProvidesStaticType<'v>,
{
    /// ytt's matchers take exactly three positional arguments and ignore keywords.
    fn invoke(
        &self,
        _me: Value<'v>,
        args: &Arguments<'v, '_>,
        eval: &mut Evaluator<'v, '_, '_>,
    ) -> starlark::Result<Value<'v>> {
        let name = self.name();
        let given: Vec<Value<'v>> = args.positions(eval.heap())?.collect();
        let [at, left, right] = given.as_slice() else {
            return Err(anyhow::anyhow!("{name}: expected exactly 3 arguments").into());
        };
        let matched = matches(&self.op, self.arg.to_value(), [*at, *left, *right], eval)
            .map_err(|e| anyhow::anyhow!("{name}: {e}"))?;
        Ok(Value::new_bool(matched))
    }

    /// starlark-go hashes a builtin by its name (`{overlay.all: 1}` is a dict); two matchers
    /// are still equal only when they are the same value.
    fn write_hash(
        &self,
        hasher: &mut starlark::collections::StarlarkHasher,
    ) -> starlark::Result<()> {
        use std::hash::Hash;
        self.name().hash(hasher);
        Ok(())
    }
}

/// Whether the matcher `op` of `arg` matches the item at `at` of old value `left` for the
/// new value `right`; `Err` is ytt's message, without the matcher's name.
fn matches<'v>(
    op: &str,
    arg: Value<'v>,
    [at, left, right]: [Value<'v>; 3],
    eval: &mut Evaluator<'v, '_, '_>,
) -> Result<bool, String> {
    let heap = eval.heap();
    Ok(match op {
        "all" => true,
        "index" => match int_of(at) {
            Some(i) => Some(i) == int_of(arg),
            None => return Err("expected starlark.Int".into()),
        },
        "map_key" => {
            let key = arg.unpack_str().unwrap_or_default();
            let (left, right) = (map_operand(left, heap)?, map_operand(right, heap)?);
            same_key(&left, &right, key)?
        }
        "subset" => {
            let expected = data(arg, heap)?.to_value();
            subset(&data(left, heap)?, &expected)
        }
        "and_op" | "or_op" => {
            let all = op == "and_op";
            for inner in arg.iterate(heap).map_err(|e| e.to_string())? {
                if call(inner, [at, left, right], eval)? != all {
                    return Ok(!all);
                }
            }
            all
        }
        "not_op" => !call(arg, [at, left, right], eval)?,
        _ => false,
    })
}

/// `v` as an integer, if it is a Starlark int that fits 64 bits.
fn int_of(v: Value) -> Option<i64> {
    i64::unpack_value(v).ok().flatten()
}

/// `v` as data, or ytt's failure to convert it.
fn data<'v>(v: Value<'v>, heap: Heap<'v>) -> Result<TreeValue, String> {
    to_tree_value(v, &Pos::unknown(), heap)
        .map_err(|e| e.message(|t| format!("unknown type {t} for conversion to go value")))
}

/// An operand of `map_key`: a dict or a list Starlark made is no YAML map to ytt.
fn map_operand<'v>(v: Value<'v>, heap: Heap<'v>) -> Result<TreeValue, String> {
    let tv = data(v, heap)?;
    if is_starlark_collection(v, &tv) {
        let go_type = match tv {
            TreeValue::Map(_) => "*orderedmap.Map",
            _ => "[]interface {}",
        };
        return Err(not_a_map(go_type));
    }
    Ok(tv)
}

/// Calls a matcher given to `and_op`, `or_op` or `not_op`, which must return a bool.
fn call<'v>(
    f: Value<'v>,
    args: [Value<'v>; 3],
    eval: &mut Evaluator<'v, '_, '_>,
) -> Result<bool, String> {
    let returned = super::predicates::call_with_go_errors(eval, f, &args)?;
    returned.unpack_bool().ok_or_else(|| {
        format!(
            "expected starlark.Bool, but was {}",
            crate::rules::go_type(returned.get_type())
        )
    })
}
