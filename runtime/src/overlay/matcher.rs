//! What `#@overlay/match by=...` matches, and calling the functions overlay annotations take.

use super::Calls;
use crate::schema::FunctionRef;
use crate::template::tree::{Ann, Arg, ArgKind, Returned, TreeValue};
use crate::value::Value;

/// The function an annotation's keyword argument `name` holds.
pub(super) fn function(ann: &Ann, name: &str) -> Option<FunctionRef> {
    ann.kwargs
        .iter()
        .find(|(k, _)| k == name)
        .and_then(|(_, a)| match a.kind {
            ArgKind::Opaque { index, .. } if a.type_name == "function" => {
                Some(FunctionRef { index })
            }
            _ => None,
        })
}

/// The function of `via=` on annotation `ann`, if given: ytt's error for a `via=` that is not
/// a function (naming the value's Go type, `starlark.String`).
pub(super) fn via_function(ann: &Ann) -> Result<Option<FunctionRef>, String> {
    let Some((_, arg)) = ann.kwargs.iter().find(|(k, _)| k == "via") else {
        return Ok(None);
    };
    if let Some(f) = function(ann, "via") {
        return Ok(Some(f));
    }
    let go_type = crate::rules::go_type(&arg.type_name);
    Err(format!(
        "Expected '{}' annotation keyword argument 'via' to be function, but was {go_type}",
        ann.name
    ))
}

pub(super) fn call(calls: Calls, f: &FunctionRef, args: &[&TreeValue]) -> Result<Returned, String> {
    match calls {
        Some(calls) => calls.call_overlay(f, args),
        None => Err("overlay functions are not available here".into()),
    }
}

/// What `#@overlay/match by=...` compares array items on.
pub(super) enum Matcher<'a> {
    All,
    Index(i64),
    /// Items whose `key` equals the new item's (`by="name"`, `overlay.map_key("name")`).
    Key(&'a str),
    Subset(&'a Value),
    /// `overlay.or_op`, `overlay.and_op` and `overlay.not_op` of other matchers.
    Or(Vec<Matcher<'a>>),
    And(Vec<Matcher<'a>>),
    Not(Box<Matcher<'a>>),
    /// `by=lambda i, l, r: ...` (or a builtin, or a function given to `overlay.or_op` and the
    /// like): called with the index, the old value and the new one.
    Function(FunctionRef),
    /// What an `overlay.or_op` (and the like) was given that is no function, of this
    /// Starlark type: ytt calls it when it matches, which fails.
    NotCallable(&'a str),
    Nothing,
    /// A `by=` of another type (its Starlark type): an error.
    Invalid(&'a str),
}

/// Whether a value of Starlark type `type_name` can be called.
fn callable(type_name: &str) -> bool {
    matches!(type_name, "function" | "builtin_function_or_method")
}

/// The value of `key` in a map.
fn field<'t>(value: &'t TreeValue, key: &str) -> Option<&'t TreeValue> {
    match value {
        TreeValue::Map(items) => items
            .iter()
            .find(|t| t.key().and_then(Value::as_str) == Some(key))
            .map(|t| &t.value),
        _ => None,
    }
}

/// The value of `key` in an item that `by="key"` compares: ytt's `overlay.map_key_matcher`
/// fails on an item that is not a map or lacks the key (the old item is looked at first).
fn key_value<'t>(value: &'t TreeValue, key: &str) -> Result<&'t TreeValue, String> {
    if !matches!(value, TreeValue::Map(_)) {
        return Err(not_a_map(value.type_name()));
    }
    field(value, key)
        .ok_or_else(|| format!("Expected to find map item with key '{key}', but did not"))
}

/// ytt's `overlay.map_key_matcher` given a value of (Go) type `type_name` that is no map
/// (without the matcher's name).
pub fn not_a_map(type_name: &str) -> String {
    format!("Expected value to be map, but was {type_name}")
}

/// Whether `by="key"` (`overlay.map_key(key)`) matches the old value `left` for the new value
/// `right`; `Err` is ytt's message without the matcher's name.
pub fn same_key(left: &TreeValue, right: &TreeValue, key: &str) -> Result<bool, String> {
    Ok(same(key_value(left, key)?, key_value(right, key)?))
}

/// Whether `by="key"` matches: only scalars compare equal (ytt never matches a map or an
/// array value, not even an empty one against an empty one).
fn same(a: &TreeValue, b: &TreeValue) -> bool {
    match (a, b) {
        (TreeValue::Scalar(x), TreeValue::Scalar(y)) => x == y,
        _ => false,
    }
}

impl<'a> Matcher<'a> {
    /// What testing one item costs against the run's budget ([`super::DEFAULT_MAX_OVERLAY_MATCHES`]):
    /// a comparison one, a call of a `by=` function ten (it runs Starlark: about 0.8 µs).
    pub(super) fn cost(&self) -> u64 {
        match self {
            Matcher::Function(_) => 10,
            Matcher::Or(ms) | Matcher::And(ms) => ms.iter().map(Matcher::cost).sum::<u64>().max(1),
            Matcher::Not(m) => m.cost(),
            _ => 1,
        }
    }

    pub(super) fn of(ann: &'a Ann) -> Matcher<'a> {
        let Some((_, by)) = ann.kwargs.iter().find(|(k, _)| k == "by") else {
            return Matcher::Nothing;
        };
        match &by.kind {
            // A text is a key; the matchers of `@ytt:overlay` are functions
            // ([`ArgKind::Matcher`]), never data.
            ArgKind::Data(n) => match &n.value {
                Value::Str(k) => Matcher::Key(k),
                _ => Matcher::Invalid(&by.type_name),
            },
            ArgKind::Opaque { .. } | ArgKind::Matcher { .. } if callable_arg(by) => {
                Matcher::from_arg(by)
            }
            _ => Matcher::Invalid(&by.type_name),
        }
    }

    /// ytt's error for a `by=` that is neither a text nor a function (checked before anything
    /// is matched).
    pub(super) fn check(&self) -> Result<(), String> {
        match self {
            Matcher::Invalid(type_name) => Err(format!(
                "Expected 'overlay/match' annotation keyword argument 'by' to be either string (for map key) or function, but was {}",
                crate::rules::go_type(type_name)
            )),
            _ => Ok(()),
        }
    }

    /// What ytt calls for data given where a matcher is called (`overlay.or_op("x")`): data is
    /// never a function.
    fn from_value(by: &'a Value) -> Matcher<'a> {
        Matcher::NotCallable(crate::rules::starlark_type(by))
    }

    /// The matcher ytt calls for `by`, an argument that is not data (a function, or a matcher
    /// given one).
    fn from_arg(by: &'a Arg) -> Matcher<'a> {
        match &by.kind {
            ArgKind::Data(n) => Matcher::from_value(&n.value),
            ArgKind::Opaque { index, .. } if callable(&by.type_name) => {
                Matcher::Function(FunctionRef { index: *index })
            }
            ArgKind::Matcher { op, arg } => Matcher::op(op, Some(Operand::Arg(arg))),
            _ => Matcher::NotCallable(&by.type_name),
        }
    }

    /// The matcher `overlay.<op>(arg)` made.
    fn op(op: &str, arg: Option<Operand<'a>>) -> Matcher<'a> {
        let arg = match arg {
            Some(Operand::Arg(Arg {
                kind: ArgKind::Data(n),
                ..
            })) => Some(Operand::Value(&n.value)),
            arg => arg,
        };
        // `or_op` and `and_op` call each of their arguments.
        let each = |arg: Option<Operand<'a>>| -> Vec<Matcher<'a>> {
            match arg {
                Some(Operand::Value(Value::Array(items))) => items
                    .iter()
                    .map(|n| Matcher::from_value(&n.value))
                    .collect(),
                Some(Operand::Arg(Arg {
                    kind: ArgKind::List(items) | ArgKind::Tuple(items),
                    ..
                })) => items.iter().map(Matcher::from_arg).collect(),
                _ => Vec::new(),
            }
        };
        let called = |arg: Operand<'a>| match arg {
            Operand::Value(v) => Matcher::from_value(v),
            Operand::Arg(a) => Matcher::from_arg(a),
        };
        let data = |arg: &Option<Operand<'a>>| match arg {
            Some(Operand::Value(v)) => Some(*v),
            Some(Operand::Arg(a)) => a.data().map(|n| &n.value),
            None => None,
        };
        match (op, data(&arg)) {
            ("all", _) => Matcher::All,
            ("index", Some(Value::Int(i))) => Matcher::Index(*i),
            ("map_key", Some(Value::Str(k))) => Matcher::Key(k),
            ("subset", Some(expected)) => Matcher::Subset(expected),
            ("or_op", _) => Matcher::Or(each(arg)),
            ("and_op", _) => Matcher::And(each(arg)),
            ("not_op", _) => match arg {
                Some(inner) => Matcher::Not(Box::new(called(inner))),
                None => Matcher::Nothing,
            },
            _ => Matcher::Nothing,
        }
    }

    /// Whether the item `left` (an array item's value, or a map item's value) is matched for
    /// the new value `right`; `Err` is a matcher function's failure. `at` is the old item's
    /// index in its array, or its key in its map (what ytt gives a `by=` function first, and
    /// what `overlay.index(i)` compares with `i`).
    pub(super) fn matches(
        &self,
        at: &Value,
        left: &TreeValue,
        right: &TreeValue,
        calls: Calls,
    ) -> Result<bool, String> {
        // A combinator's failure names it before its inner matcher's (`overlay.or_op: ...`).
        let each = |m: &Matcher, name: &str| {
            m.matches(at, left, right, calls)
                .map_err(|e| format!("overlay.{name}: {e}"))
        };
        Ok(match self {
            Matcher::All => true,
            Matcher::Index(i) => match at {
                Value::Int(at) => *i == *at,
                _ => return Err("overlay.index_matcher: expected starlark.Int".into()),
            },
            Matcher::Key(k) => {
                same_key(left, right, k).map_err(|e| format!("overlay.map_key_matcher: {e}"))?
            }
            Matcher::Nothing | Matcher::Invalid(_) => false,
            Matcher::NotCallable(type_name) => {
                return Err(format!("invalid call of non-function ({type_name})"))
            }
            Matcher::Subset(expected) => subset(left, expected),
            Matcher::Or(all) => {
                for m in all {
                    if each(m, "or_op")? {
                        return Ok(true);
                    }
                }
                false
            }
            Matcher::And(all) => {
                for m in all {
                    if !each(m, "and_op")? {
                        return Ok(false);
                    }
                }
                true
            }
            // ytt's `not_op` names itself `or_op` in its failures.
            Matcher::Not(inner) => !each(inner, "or_op")?,
            Matcher::Function(f) => {
                let at = TreeValue::Scalar(at.clone());
                let returned = call(calls, f, &[&at, left, right])?;
                match returned.value {
                    TreeValue::Scalar(Value::Bool(b)) => b,
                    _ => {
                        return Err(format!(
                            "expected starlark.Bool, but was {}",
                            go_type_of(&returned)
                        ))
                    }
                }
            }
        })
    }
}

/// An argument of a matcher of `@ytt:overlay`: data, or (in a matcher given a function) an
/// annotation argument.
#[derive(Clone, Copy)]
enum Operand<'a> {
    Value(&'a Value),
    Arg(&'a Arg),
}

/// Whether `arg` is what ytt calls as a matcher: a function, or a matcher given one.
fn callable_arg(arg: &Arg) -> bool {
    matches!(arg.kind, ArgKind::Matcher { .. }) || callable(&arg.type_name)
}

/// The Go type ytt names for a value a matcher function returned.
fn go_type_of(returned: &Returned) -> String {
    match &returned.value {
        TreeValue::Scalar(v) => crate::rules::go_type(crate::rules::starlark_type(v)),
        TreeValue::Map(_) if returned.starlark_collection => "*starlark.Dict".into(),
        TreeValue::Array(_) if returned.starlark_collection => "*starlark.List".into(),
        _ => crate::rules::go_type("yamlfragment"),
    }
}

/// Whether `actual` holds `expected` (`overlay.subset(expected)`), as ytt compares them: a map
/// holds each expected key (every item with the key, should a map hold it twice) with a value
/// holding the expected one; an array holds the expected items at their positions, and may
/// hold more after them (`[1]` is in `[1, 2]`, `[]` in any array); scalars are equal.
pub fn subset(actual: &TreeValue, expected: &Value) -> bool {
    match (actual, expected) {
        (TreeValue::Map(items), Value::Map(e)) => e.iter().all(|ee| {
            let mut with_key = items
                .iter()
                .filter(|t| t.key().is_some_and(|k| k.key_eq(&ee.key)))
                .peekable();
            with_key.peek().is_some() && with_key.all(|t| subset(&t.value, &ee.value.value))
        }),
        (TreeValue::Array(items), Value::Array(e)) => {
            e.len() <= items.len()
                && items
                    .iter()
                    .zip(e.iter())
                    .all(|(t, n)| subset(&t.value, &n.value))
        }
        (TreeValue::Scalar(a), e) => a == e,
        _ => false,
    }
}
