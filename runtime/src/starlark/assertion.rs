//! `@ytt:assert`: its functions, and the assertion objects that `assert.min(3)`,
//! `assert.one_of(...)` and the others return, as ytt has them.
//!
//! An assertion object is a value of type `@ytt:assert.assertion` that prints as
//! `struct(...)` and has one member, `check`: a function of one value that returns True or
//! fails. Its rule is the named rule of [`crate::rules`] (one implementation for assertion
//! objects, `#@schema/validation` keywords and generated validators); annotations read it as
//! [`crate::template::tree::ArgKind::Assertion`].

use std::fmt;
use std::sync::Arc;

use allocative::Allocative;
use starlark::environment::GlobalsBuilder;
use starlark::eval::{Arguments, Evaluator};
use starlark::starlark_module;
use starlark::values::none::NoneType;
use starlark::values::tuple::UnpackTuple;
use starlark::values::{
    starlark_value, Heap, NoSerialize, ProvidesStaticType, StarlarkValue, UnpackValue, Value,
    ValueLike,
};
use starlark::{starlark_simple_value, StarlarkPagable};

use super::convert::{to_tree_value, NotData};
use super::modules::AssertFail;
use crate::rules::{starlark_type, RuleName};
use crate::value::{Pos, Value as YValue};

/// The rule of an assertion object and its argument.
#[derive(Debug)]
pub struct AssertionRule {
    pub rule: RuleName,
    /// The argument as data, or the Starlark type of an argument that is not data (a
    /// function given to `assert.min`).
    pub arg: Result<YValue, String>,
}

/// Only for the interpreter's paging, which schemac does not use: values are never paged out.
impl Default for AssertionRule {
    fn default() -> AssertionRule {
        AssertionRule {
            rule: RuleName::NotNull,
            arg: Ok(YValue::Bool(true)),
        }
    }
}

/// What `assert.min(3)` and the other constructors return.
#[derive(Debug, ProvidesStaticType, NoSerialize, Allocative, StarlarkPagable)]
pub struct Assertion {
    #[allocative(skip)]
    #[starlark_pagable(skip)]
    pub rule: Arc<AssertionRule>,
}

starlark_simple_value!(Assertion);

impl Assertion {
    /// The type ytt gives assertion objects.
    pub const TYPE: &'static str = crate::validate::ASSERTION_TYPE;
}

/// ytt prints an assertion object as a struct, without its members.
impl fmt::Display for Assertion {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("struct(...)")
    }
}

fn other_error(message: String) -> starlark::Error {
    starlark::Error::new_native(AssertFail(message))
}

/// ytt's message for a value of type `ty` that does not become data (`PREFIX: Unable to
/// convert value: ...`): an assertion object, or a value that becomes data only through its
/// `.string()` (IP addresses and networks, URLs); `None` for other types.
pub fn not_data(prefix: &str, ty: &str) -> Option<String> {
    unable_to_convert(ty).map(|m| format!("{prefix}: {m}"))
}

/// [`not_data`]'s message without its prefix.
fn unable_to_convert(ty: &str) -> Option<String> {
    const STRING_ONLY: &[&str] = &[
        super::ip_module::ADDR_TYPE,
        super::ip_module::NET_TYPE,
        super::url_value::URL_TYPE,
        super::url_value::USER_TYPE,
    ];
    if ty == Assertion::TYPE {
        return Some(format!(
            "Unable to convert value: {ty} does not encode (did you mean to call check()?)"
        ));
    }
    STRING_ONLY.contains(&ty).then(|| {
        format!("Unable to convert value: {ty} does not automatically encode (hint: use .string())")
    })
}

/// The error of `FUNCTION` (`yaml.encode`) given a value that is not data.
pub fn encode_error(function: &str, e: &NotData) -> anyhow::Error {
    match e.type_name().and_then(|ty| not_data(function, ty)) {
        Some(message) => anyhow::anyhow!(message),
        None => {
            anyhow::anyhow!(e.message(|t| format!("Unsupported value type {t} for {function}")))
        }
    }
}

#[starlark_value(type = Assertion::TYPE)]
impl<'v> StarlarkValue<'v> for Assertion {
    fn get_attr(&self, attribute: &str, heap: Heap<'v>) -> Option<Value<'v>> {
        (attribute == "check").then(|| check_function(&self.rule, heap))
    }

    fn has_attr(&self, attribute: &str, _heap: Heap<'v>) -> bool {
        attribute == "check"
    }

    fn dir_attr(&self) -> Vec<String> {
        vec!["check".into()]
    }

    fn invoke(
        &self,
        _me: Value<'v>,
        _args: &Arguments<'v, '_>,
        _eval: &mut Evaluator<'v, '_, '_>,
    ) -> starlark::Result<Value<'v>> {
        Err(other_error(format!(
            "invalid call of non-function ({})",
            Assertion::TYPE
        )))
    }

    /// Its members are also its keys: `a["check"]`, `"check" in a`, `len(a) == 1`.
    fn at(&self, index: Value<'v>, heap: Heap<'v>) -> starlark::Result<Value<'v>> {
        match index.unpack_str() {
            Some("check") => Ok(check_function(&self.rule, heap)),
            _ => Err(other_error(format!(
                "key {} not in {}",
                super::go_repr(index),
                Assertion::TYPE
            ))),
        }
    }

    fn is_in(&self, other: Value<'v>) -> starlark::Result<bool> {
        Ok(other.unpack_str() == Some("check"))
    }

    fn length(&self) -> starlark::Result<i32> {
        Ok(1)
    }

    fn iterate_collect(&self, heap: Heap<'v>) -> starlark::Result<Vec<Value<'v>>> {
        Ok(vec![heap.alloc("check")])
    }

    /// ytt's assertion objects are structs underneath, which do not hash.
    fn write_hash(
        &self,
        _hasher: &mut starlark::collections::StarlarkHasher,
    ) -> starlark::Result<()> {
        Err(other_error("unhashable type: struct".into()))
    }
}

/// The `check` member: a `lambda` in ytt, except `one_not_null`'s, which is a builtin.
fn check_function<'v>(rule: &Arc<AssertionRule>, heap: Heap<'v>) -> Value<'v> {
    let rule = Arc::clone(rule);
    if rule.rule == RuleName::OneNotNull {
        heap.alloc(BuiltinCheck { rule })
    } else {
        heap.alloc(LambdaCheck { rule })
    }
}

/// `check` of the assertions ytt writes in Starlark (`<function lambda>`).
#[derive(Debug, ProvidesStaticType, NoSerialize, Allocative, StarlarkPagable)]
pub struct LambdaCheck {
    #[allocative(skip)]
    #[starlark_pagable(skip)]
    rule: Arc<AssertionRule>,
}

starlark_simple_value!(LambdaCheck);

impl fmt::Display for LambdaCheck {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("<function lambda>")
    }
}

#[starlark_value(type = "function")]
impl<'v> StarlarkValue<'v> for LambdaCheck {
    fn invoke(
        &self,
        _me: Value<'v>,
        args: &Arguments<'v, '_>,
        eval: &mut Evaluator<'v, '_, '_>,
    ) -> starlark::Result<Value<'v>> {
        let in_lambda = |e: starlark::Error| {
            starlark::Error::new_native(InCheckLambda {
                rule: self.rule.rule.as_str(),
                message: super::error_message(&e),
            })
        };
        let value =
            lambda_argument(args, self.rule.rule.as_str(), eval.heap()).map_err(in_lambda)?;
        run_check(&self.rule, value, "fail: ", "", eval.heap()).map_err(in_lambda)
    }

    /// The same object's `check` is the same function.
    fn equals(&self, other: Value<'v>) -> starlark::Result<bool> {
        Ok(other
            .downcast_ref::<LambdaCheck>()
            .is_some_and(|o| Arc::ptr_eq(&o.rule, &self.rule)))
    }
}

/// An error in the `check` lambda of `assert.RULE`: ytt's call stack shows the lambda, in a
/// file named `assert.RULE` whose source is unavailable.
#[derive(Debug)]
pub struct InCheckLambda {
    pub rule: &'static str,
    pub message: String,
}

impl fmt::Display for InCheckLambda {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message)
    }
}

impl std::error::Error for InCheckLambda {}

/// A Go panic of a builtin that no ytt error wrapper guards (`check` of
/// `assert.one_not_null()` converting a value that is not data: an int past 64 bits, a
/// function; `**` of an array fragment): it passes every Starlark frame and ytt's evaluation of the template recovers it
/// as `(p) MESSAGE`, with no position. (`assert.try_to` does not catch it: its wrapper adds a
/// Go stack trace, which schemac does not imitate.)
#[derive(Debug)]
pub struct RecoveredPanic(pub String);

impl fmt::Display for RecoveredPanic {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "(p) {}", self.0)
    }
}

impl std::error::Error for RecoveredPanic {}

/// The recovered panic `e` is, if it is one.
pub fn recovered_panic(e: &starlark::Error) -> Option<&RecoveredPanic> {
    match e.kind() {
        starlark::ErrorKind::Native(a) | starlark::ErrorKind::Other(a) => a.downcast_ref(),
        _ => None,
    }
}

/// `check` of `assert.one_not_null()`, a builtin in ytt.
#[derive(Debug, ProvidesStaticType, NoSerialize, Allocative, StarlarkPagable)]
pub struct BuiltinCheck {
    #[allocative(skip)]
    #[starlark_pagable(skip)]
    rule: Arc<AssertionRule>,
}

starlark_simple_value!(BuiltinCheck);

impl fmt::Display for BuiltinCheck {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "<built-in function assert.{}>", self.rule.rule.as_str())
    }
}

#[starlark_value(type = "builtin_function_or_method")]
impl<'v> StarlarkValue<'v> for BuiltinCheck {
    fn invoke(
        &self,
        _me: Value<'v>,
        args: &Arguments<'v, '_>,
        eval: &mut Evaluator<'v, '_, '_>,
    ) -> starlark::Result<Value<'v>> {
        // A builtin takes its arguments by position and ignores keywords.
        let items: Vec<Value<'v>> = args.positions(eval.heap())?.collect();
        let [value] = items[..] else {
            return Err(other_error(format!(
                "check: got {} arguments, want 1",
                items.len()
            )));
        };
        run_check(&self.rule, value, "check: ", "check: ", eval.heap())
    }

    fn equals(&self, other: Value<'v>) -> starlark::Result<bool> {
        Ok(other
            .downcast_ref::<BuiltinCheck>()
            .is_some_and(|o| Arc::ptr_eq(&o.rule, &self.rule)))
    }
}

/// The one argument of ytt's `lambda val: ...` (of `assert.RULE`), by position or by its
/// name: `val`, `sequence` for the lengths' rules, `value` for `not_null`.
fn lambda_argument<'v>(
    args: &Arguments<'v, '_>,
    rule: &str,
    heap: Heap<'v>,
) -> starlark::Result<Value<'v>> {
    let param = match rule {
        "max_len" | "min_len" => "sequence",
        "not_null" => "value",
        _ => "val",
    };
    let positional: Vec<Value<'v>> = args.positions(heap)?.collect();
    if positional.len() > 1 {
        return Err(other_error(format!(
            "function lambda accepts 1 positional argument ({} given)",
            positional.len()
        )));
    }
    let mut value = positional.first().copied();
    for (name, v) in args.names_map()? {
        if name.as_str() != param {
            return Err(other_error(format!(
                "function lambda got an unexpected keyword argument \"{}\"",
                name.as_str()
            )));
        }
        if value.is_some() {
            return Err(other_error(format!(
                "function lambda got multiple values for parameter \"{param}\""
            )));
        }
        value = Some(v);
    }
    value.ok_or_else(|| other_error(format!("function lambda missing 1 argument ({param})")))
}

/// Runs an assertion's rule on `value`: True, or the error ytt's `check` raises: `failed`
/// and what was found when the value breaks the rule, `raised` and the error when the rule
/// cannot be evaluated on it.
fn run_check<'v>(
    rule: &AssertionRule,
    value: Value<'v>,
    failed: &str,
    raised: &str,
    heap: Heap<'v>,
) -> starlark::Result<Value<'v>> {
    // A YAML fragment (a validated node's value given to a rule function) is checked as a
    // validation checks its node; a Starlark list or dict as it is.
    let fragment = value.get_type() == "yamlfragment";
    let data = to_tree_value(value, &Pos::unknown(), heap).map(|tv| tv.to_value());
    // ytt's builtin converts the value to Go first: an error for a value that only does not
    // encode, a panic for the rest.
    if let (RuleName::OneNotNull, Err(NotData::Type(t))) = (rule.rule, &data) {
        if let Some(message) = unable_to_convert(t) {
            return Err(other_error(message));
        }
        let message = match t.as_str() {
            "int" => "not sure how to get int".to_string(),
            t => {
                let found = first_of_type(value, t, heap);
                let go = crate::rules::go_type(found.map_or(t, |v| super::go_repr::go_type(v)));
                format!("unknown type {go} for conversion to go value")
            }
        };
        return Err(starlark::Error::new_native(RecoveredPanic(message)));
    }
    let failure = match (&rule.arg, data) {
        (Ok(arg), Ok(data)) if fragment => rule
            .rule
            .check_node(arg, &data)
            .map(|f| (f.found, f.raised)),
        (Ok(arg), Ok(data)) => rule.rule.check(arg, &data).map(|f| (f.found, f.raised)),
        (arg, data) => opaque_failure(rule.rule, arg, data, value),
    };
    let Some((found, was_raised)) = failure else {
        return Ok(Value::new_bool(true));
    };
    let prefix = if was_raised { raised } else { failed };
    Err(other_error(format!(
        "{prefix}{}",
        found.unwrap_or_default()
    )))
}

/// The first value of Starlark type `ty` in `v` (itself, or in its lists, tuples and dicts,
/// keys before values), as ytt's conversion meets them.
fn first_of_type<'v>(v: Value<'v>, ty: &str, heap: Heap<'v>) -> Option<Value<'v>> {
    if v.get_type() == ty {
        return Some(v);
    }
    if let Some(dict) = starlark::values::dict::DictRef::from_value(v) {
        let pairs: Vec<_> = dict.iter().collect();
        return pairs
            .into_iter()
            .find_map(|(k, x)| first_of_type(k, ty, heap).or_else(|| first_of_type(x, ty, heap)));
    }
    match v.get_type() {
        "list" | "tuple" => v
            .iterate(heap)
            .ok()?
            .find_map(|x| first_of_type(x, ty, heap)),
        _ => None,
    }
}

/// A rule given or checking a value that is not data (`held`, as Starlark holds it): what
/// ytt's check says of it.
fn opaque_failure(
    rule: RuleName,
    arg: &Result<YValue, String>,
    data: Result<YValue, NotData>,
    held: Value,
) -> Option<(Option<String>, bool)> {
    let type_of = |v: &Result<YValue, String>| match v {
        Ok(v) => starlark_type(v).to_string(),
        Err(t) => t.clone(),
    };
    let value = data.map_err(|e| e.message(str::to_string));
    let raised = |m: String| Some((Some(m), true));
    match rule {
        RuleName::Min | RuleName::Max => {
            let op = if rule == RuleName::Min { ">=" } else { "<=" };
            raised(format!(
                "{} {op} {} not implemented",
                type_of(&value),
                type_of(arg)
            ))
        }
        // starlark-go's `len` counts the items of a list or dict whatever they hold (a
        // function, an int past 64 bits); a function has no length. (A length bound is always
        // a number: `assert.min_len` refuses others.)
        RuleName::MinLen | RuleName::MaxLen => {
            let len = held.length().map(|n| n as usize).map_err(|_| {
                let ty = super::go_repr::go_type(held);
                format!("len: value of type {ty} has no len")
            });
            // (An argument that is no data is worded as a bound that is no number is.)
            static NO_BOUND: YValue = YValue::Null;
            let arg = arg.as_ref().unwrap_or(&NO_BOUND);
            crate::rules::length_count(arg, len, rule == RuleName::MinLen)
                .map(|f| (f.found, f.raised))
        }
        RuleName::NotNull => None,
        RuleName::OneNotNull => raised(format!(
            "value must be a map or dict, but was '{}'",
            type_of(&value)
        )),
        _ => Some((Some("not one of allowed values".into()), false)),
    }
}

/// Keyword arguments, which ytt's `@ytt:assert` functions ignore.
type Kwargs<'v> = starlark::collections::SmallMap<starlark::values::StringValue<'v>, Value<'v>>;

/// The Go type starlark-go gives `v`, as ytt's messages name it.
fn go_type(v: Value) -> String {
    crate::rules::go_type(v.get_type())
}

/// Checks the number of positional arguments of `assert.NAME` (keywords are ignored, as ytt
/// ignores them).
fn arity<'v>(
    name: &str,
    args: &UnpackTuple<Value<'v>>,
    min: usize,
    max: usize,
) -> anyhow::Result<()> {
    let n = args.items.len();
    let want = match (min, max) {
        _ if (min..=max).contains(&n) => return Ok(()),
        (0, max) => format!("at most {max}"),
        (min, usize::MAX) => format!("at least {min}"),
        (min, _) => min.to_string(),
    };
    Err(AssertFail(format!("assert.{name}: got {n} arguments, want {want}")).into())
}

/// An assertion object of `rule` with argument `arg`.
fn assertion<'v>(rule: RuleName, arg: Value<'v>, heap: Heap<'v>) -> Value<'v> {
    let arg = to_tree_value(arg, &Pos::unknown(), heap)
        .map(|tv| tv.to_value())
        .map_err(|e| e.message(str::to_string));
    heap.alloc(Assertion {
        rule: Arc::new(AssertionRule { rule, arg }),
    })
}

fn bound<'v>(
    name: &str,
    rule: RuleName,
    args: UnpackTuple<Value<'v>>,
    heap: Heap<'v>,
) -> anyhow::Result<Value<'v>> {
    arity(name, &args, 1, 1)?;
    Ok(assertion(rule, args.items[0], heap))
}

fn length<'v>(
    name: &str,
    rule: RuleName,
    args: UnpackTuple<Value<'v>>,
    heap: Heap<'v>,
) -> anyhow::Result<Value<'v>> {
    arity(name, &args, 1, 1)?;
    let n = args.items[0];
    // ytt takes the bound as starlark-go's `NumberToInt` does: a float truncated to its int
    // (`max_len(1.5)` is `max_len(1)`), an infinite or NaN one refused.
    let float = n
        .downcast_ref::<starlark::values::float::StarlarkFloat>()
        .map(|f| f.0);
    if !(n.get_type() == "int" || float.is_some_and(f64::is_finite)) {
        return Err(AssertFail(format!(
            "assert.{name}: expected value to be an number, but was {}",
            n.get_type()
        ))
        .into());
    }
    // (`as` saturates: a float past 64 bits is the 64-bit int of its sign, as a wide int below)
    let n = float.map_or(n, |f| heap.alloc(f.trunc() as i64));
    // A bound beyond 64 bits, which no data value holds, compares with every length as the
    // 64-bit int of its sign does; ytt's check then says `length = N`, never the bound.
    let wide = n.get_type() == "int"
        && i64::unpack_value(n).ok().flatten().is_none()
        && u64::unpack_value(n).ok().flatten().is_none();
    let n = match wide {
        true if n.compare(heap.alloc(0)).is_ok_and(|o| o.is_lt()) => heap.alloc(i64::MIN),
        true => heap.alloc(i64::MAX),
        false => n,
    };
    Ok(assertion(rule, n, heap))
}

/// ytt's `assert.equals` compares the values' YAML, and shows it when they differ.
fn yaml_of<'v>(v: Value<'v>, heap: Heap<'v>) -> anyhow::Result<String> {
    if v.get_type() == "function" || v.get_type() == "builtin_function_or_method" {
        return Err(AssertFail(format!(
            "assert.equals: expected argument not to be a function, but was {}",
            go_type(v)
        ))
        .into());
    }
    super::convert::encode_yaml(v, heap).map_err(|e| encode_error("assert.equals", &e))
}

#[starlark_module]
pub(super) fn assert_members(builder: &mut GlobalsBuilder) {
    /// ytt words it `assert.fail: fail: MSG`, in a `found:` line as in a template error.
    fn fail<'v>(
        #[starlark(args)] args: UnpackTuple<Value<'v>>,
        #[starlark(kwargs)] _ignored: Kwargs<'v>,
    ) -> anyhow::Result<NoneType> {
        arity("fail", &args, 1, 1)?;
        let Some(bytes) = super::go_bytes::string_bytes(args.items[0]) else {
            return Err(AssertFail(format!(
                "assert.fail: expected a string, but was {}",
                args.items[0].get_type()
            ))
            .into());
        };
        let msg = super::go_bytes::go_text(bytes);
        let message = format!("assert.fail: fail: {msg}");
        Err(super::go_bytes::quoting_bytes(message, bytes, |m| {
            AssertFail(m).into()
        }))
    }

    fn min<'v>(
        #[starlark(args)] args: UnpackTuple<Value<'v>>,
        #[starlark(kwargs)] _ignored: Kwargs<'v>,
        heap: Heap<'v>,
    ) -> anyhow::Result<Value<'v>> {
        bound("min", RuleName::Min, args, heap)
    }

    fn max<'v>(
        #[starlark(args)] args: UnpackTuple<Value<'v>>,
        #[starlark(kwargs)] _ignored: Kwargs<'v>,
        heap: Heap<'v>,
    ) -> anyhow::Result<Value<'v>> {
        bound("max", RuleName::Max, args, heap)
    }

    fn min_len<'v>(
        #[starlark(args)] args: UnpackTuple<Value<'v>>,
        #[starlark(kwargs)] _ignored: Kwargs<'v>,
        heap: Heap<'v>,
    ) -> anyhow::Result<Value<'v>> {
        length("min_len", RuleName::MinLen, args, heap)
    }

    fn max_len<'v>(
        #[starlark(args)] args: UnpackTuple<Value<'v>>,
        #[starlark(kwargs)] _ignored: Kwargs<'v>,
        heap: Heap<'v>,
    ) -> anyhow::Result<Value<'v>> {
        length("max_len", RuleName::MaxLen, args, heap)
    }

    /// `assert.not_null()` is an assertion object; `assert.not_null(v)` checks `v` at once.
    fn not_null<'v>(
        #[starlark(args)] args: UnpackTuple<Value<'v>>,
        #[starlark(kwargs)] _ignored: Kwargs<'v>,
        heap: Heap<'v>,
    ) -> anyhow::Result<Value<'v>> {
        arity("not_null", &args, 0, 1)?;
        match args.items.first() {
            None => Ok(assertion(RuleName::NotNull, Value::new_bool(true), heap)),
            Some(v) if v.is_none() => {
                Err(AssertFail("assert.not_null: fail: value is null".into()).into())
            }
            Some(_) => Ok(Value::new_bool(true)),
        }
    }

    fn one_of<'v>(
        #[starlark(args)] args: UnpackTuple<Value<'v>>,
        #[starlark(kwargs)] _ignored: Kwargs<'v>,
        heap: Heap<'v>,
    ) -> anyhow::Result<Value<'v>> {
        arity("one_of", &args, 1, usize::MAX)?;
        let items = match args.items[..] {
            [one] => {
                // A string's `elems()` or `codepoints()` is iterable and no sequence.
                if matches!(
                    one.get_type(),
                    "string" | "int" | "float" | "bool" | "NoneType" | "elems" | "codepoints"
                ) {
                    return Err(AssertFail(format!(
                        "assert.one_of: expected a sequence, but was a '{}'",
                        one.get_type()
                    ))
                    .into());
                }
                one
            }
            _ => heap.alloc(args.items),
        };
        Ok(assertion(RuleName::OneOf, items, heap))
    }

    fn one_not_null<'v>(
        #[starlark(args)] args: UnpackTuple<Value<'v>>,
        #[starlark(kwargs)] _ignored: Kwargs<'v>,
        heap: Heap<'v>,
    ) -> anyhow::Result<Value<'v>> {
        arity("one_not_null", &args, 0, 1).map_err(|_| {
            AssertFail(format!(
                "assert.one_not_null: got {} arguments, want 1",
                args.items.len()
            ))
        })?;
        let keys = match args.items.first() {
            None => Value::new_bool(true),
            Some(v) => match v.unpack_bool() {
                Some(true) => *v,
                Some(false) => {
                    return Err(AssertFail(
                        "assert.one_not_null: one_not_null() cannot be False".into(),
                    )
                    .into())
                }
                None if matches!(
                    v.get_type(),
                    "string" | "int" | "float" | "NoneType" | "elems" | "codepoints"
                ) =>
                {
                    return Err(AssertFail(format!(
                        "assert.one_not_null: expected a sequence of keys, but was a '{}'",
                        v.get_type()
                    ))
                    .into())
                }
                // ytt iterates the keys it is given: a dict's are its keys, a struct's its
                // field names.
                None => match starlark::values::dict::DictRef::from_value(*v) {
                    Some(dict) => {
                        let keys: Vec<Value<'v>> = dict.keys().collect();
                        heap.alloc(starlark::values::list::AllocList(keys))
                    }
                    None if v.get_type() == "struct" || v.get_type().starts_with("@ytt:") => {
                        let keys = v.iterate(heap).map_err(|e| anyhow::anyhow!("{e}"))?;
                        let keys: Vec<Value<'v>> = keys.collect();
                        heap.alloc(starlark::values::list::AllocList(keys))
                    }
                    None => *v,
                },
            },
        };
        Ok(assertion(RuleName::OneNotNull, keys, heap))
    }

    /// `(result, None)`, or `(None, message)` when `f()` fails.
    fn try_to<'v>(
        #[starlark(args)] args: UnpackTuple<Value<'v>>,
        #[starlark(kwargs)] _ignored: Kwargs<'v>,
        eval: &mut Evaluator<'v, '_, '_>,
    ) -> anyhow::Result<Value<'v>> {
        arity("try_to", &args, 1, 1)?;
        let f = args.items[0];
        if !matches!(f.get_type(), "function" | "builtin_function_or_method") {
            return Err(AssertFail(format!(
                "assert.try_to: expected argument to be a function, but was {}",
                go_type(f)
            ))
            .into());
        }
        let heap = eval.heap();
        let depth = super::builder::open_contexts(eval);
        let owed = super::statement_hook::iterations_owed();
        match eval.eval_function(f, &[], &[]) {
            Ok(v) => Ok(heap.alloc((v, Value::new_none()))),
            Err(e) => {
                if let Some(p) = recovered_panic(&e) {
                    return Err(RecoveredPanic(p.0.clone()).into());
                }
                // A call on an iterable cut at the budget may have failed before it was done.
                super::statement_hook::set_iterations_owed(owed);
                let msg = super::error_message_of_native_call(&e, f);
                // A budget's error ends the run: caught, it would be a value (ytt has no budget).
                if super::statement_hook::is_budget_error(&msg) {
                    return Err(anyhow::anyhow!("{msg}"));
                }
                // A fragment function the error ended left its YAML context open.
                if let Some(depth) = depth {
                    if super::builder::leaves_ytt_context_open(eval, depth) {
                        return Err(anyhow::anyhow!(
                            "assert.try_to caught an error that ended a function building YAML or text of this file: ytt cannot go on from there (it fails with a Go panic here: expected to find node tag when unwinding, or expected all ctxs to end); the error: {msg}"
                        ));
                    }
                    super::builder::close_contexts_from(eval, depth);
                }
                let msg = match super::go_bytes::message_bytes(&e, &msg) {
                    Some(bytes) => super::go_bytes::string_value(bytes, heap),
                    None => heap.alloc(msg),
                };
                Ok(heap.alloc((Value::new_none(), msg)))
            }
        }
    }

    /// Fails unless the two values have the same YAML.
    fn equals<'v>(
        #[starlark(args)] args: UnpackTuple<Value<'v>>,
        #[starlark(kwargs)] _ignored: Kwargs<'v>,
        heap: Heap<'v>,
    ) -> anyhow::Result<NoneType> {
        arity("equals", &args, 2, 2)?;
        let (expected, actual) = (args.items[0], args.items[1]);
        let (expected_yaml, actual_yaml) = (yaml_of(expected, heap)?, yaml_of(actual, heap)?);
        if expected_yaml == actual_yaml {
            return Ok(NoneType);
        }
        Err(AssertFail(format!(
            "assert.equals: Not equal:\n(expected type: {})\n{expected_yaml}\n\n(was type: {})\n{actual_yaml}",
            expected.get_type(),
            actual.get_type()
        ))
        .into())
    }
}
