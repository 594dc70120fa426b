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
            .map_err(|e| e.within(name))?;
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

/// Why a matcher failed, without the matcher's name: ytt's message, or the call depth budget's
/// error carried up from the matchers it called.
enum Failure {
    Message(String),
    /// An error holding a [`DepthExceeded`].
    DepthExceeded(anyhow::Error),
}

impl From<String> for Failure {
    fn from(message: String) -> Failure {
        Failure::Message(message)
    }
}

impl Failure {
    /// The error of the matcher `name` failing so: ytt's `NAME: MESSAGE`.
    fn within(self, name: String) -> starlark::Error {
        let carried = match self {
            Failure::Message(m) if m == super::statement_hook::call_depth_exceeded_message() => {
                anyhow::Error::new(DepthExceeded {
                    names: vec![name],
                    message: m,
                })
            }
            Failure::Message(m) => return anyhow::anyhow!("{name}: {m}").into(),
            Failure::DepthExceeded(mut e) => {
                if let Some(d) = e.downcast_mut::<DepthExceeded>() {
                    d.names.push(name);
                }
                e
            }
        };
        let mut error = starlark::Error::from(carried);
        if MATCHER_CALLS.with(|n| n.get()) > 0 {
            // A matcher called this one: it takes the error's message, not its call stack,
            // which the interpreter would otherwise collect (as deep as the calls) on its way.
            error.set_call_stack(|| starlark::eval::CallStack {
                frames: vec![starlark::errors::Frame {
                    name: "overlay matcher".into(),
                    location: None,
                }],
            });
        }
        error
    }
}

/// The call depth budget's error reached through a chain of matchers (`not_op`s of `not_op`s,
/// or a `by=` function calling itself through `or_op`), kept as one error to which each
/// matcher adds its name: ytt's `overlay.or_op: overlay.or_op: ... MESSAGE`. A new error at
/// each of the budget's 10,000 calls collected the call stack below it (and a native backtrace
/// under `RUST_BACKTRACE`), which took seconds.
#[derive(Debug)]
struct DepthExceeded {
    /// The matchers' names, innermost first.
    names: Vec<String>,
    message: String,
}

impl fmt::Display for DepthExceeded {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for name in self.names.iter().rev() {
            write!(f, "{name}: ")?;
        }
        f.write_str(&self.message)
    }
}

impl std::error::Error for DepthExceeded {}

thread_local! {
    /// How many matchers are calling the matchers or functions they were given, on this thread.
    static MATCHER_CALLS: std::cell::Cell<usize> = const { std::cell::Cell::new(0) };
}

/// Whether the matcher `op` of `arg` matches the item at `at` of old value `left` for the
/// new value `right`.
fn matches<'v>(
    op: &str,
    arg: Value<'v>,
    [at, left, right]: [Value<'v>; 3],
    eval: &mut Evaluator<'v, '_, '_>,
) -> Result<bool, Failure> {
    let heap = eval.heap();
    Ok(match op {
        "all" => true,
        "index" => match int_of(at) {
            Some(i) => Some(i) == int_of(arg),
            None => return Err(Failure::Message("expected starlark.Int".into())),
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
) -> Result<bool, Failure> {
    let returned = {
        let _calling = MatcherCall::enter();
        eval.eval_function(f, &args, &[])
    }
    .map_err(|e| call_failure(f, args.len(), e))?;
    returned.unpack_bool().ok_or_else(|| {
        Failure::Message(format!(
            "expected starlark.Bool, but was {}",
            crate::rules::go_type(returned.get_type())
        ))
    })
}

/// The failure of the call of `f` with `given` arguments that failed with `e`: the budget's
/// error carried on as it is, or ytt's message.
fn call_failure(f: Value, given: usize, e: starlark::Error) -> Failure {
    if matches!(e.kind(), starlark::ErrorKind::Other(a) if a.is::<DepthExceeded>()) {
        return match e.into_kind() {
            starlark::ErrorKind::Other(a) => Failure::DepthExceeded(a),
            kind => Failure::Message(super::predicates::go_call_error(
                f,
                given,
                &starlark::Error::new_kind(kind),
            )),
        };
    }
    Failure::Message(super::predicates::go_call_error(f, given, &e))
}

/// A matcher calling what it was given, counted in [`MATCHER_CALLS`] while it lasts.
struct MatcherCall;

impl MatcherCall {
    fn enter() -> MatcherCall {
        MATCHER_CALLS.with(|n| n.set(n.get() + 1));
        MatcherCall
    }
}

impl Drop for MatcherCall {
    fn drop(&mut self) {
        MATCHER_CALLS.with(|n| n.set(n.get() - 1));
    }
}
