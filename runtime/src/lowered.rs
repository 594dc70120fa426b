//! Custom rules and `when=` predicates compiled to Rust: the operations their generated code
//! calls.
//!
//! `schemac build` translates the Starlark functions of a schema into Rust when their meaning
//! is certain (see the compiler's `rules` module). The generated code composes the functions
//! of this module, one per Starlark operation, with Starlark's semantics: `and`/`or` yield an
//! operand, `1 == 1.0` (an int and a float compare exactly), `len` of a string counts bytes, a NaN
//! compares as in starlark-go (every comparison false but `!=` of two floats). The
//! compiler only lowers a function when its static types rule out every Starlark error
//! (indexing a missing key, comparing a string with an int...), so the one failure left is an
//! explicit `fail()` / `assert.fail()`.

use std::borrow::Cow;
use std::cmp::Ordering;

use crate::rules::{number_order, numbers_differ, Number};
use crate::validate::CallOutcome;
use crate::value::{Node, Value};

pub mod calls;
pub mod ir;

/// A Starlark value during a lowered call: a scalar, a list built by the rule, or a map or
/// array of the data values.
#[derive(Clone, Debug)]
pub enum Val<'a> {
    None,
    Bool(bool),
    /// Wide enough that sums of 64-bit data values stay exact, as Starlark's big ints are.
    Int(i128),
    Float(f64),
    Str(Cow<'a, str>),
    List(Vec<Val<'a>>),
    /// A map or an array of the data values.
    Data(&'a Node),
}

/// An explicit failure: the message as the interpreter reports it (`fail: x` for `fail("x")`,
/// `assert.fail: fail: x` for `assert.fail("x")`).
#[derive(Clone, Debug, PartialEq)]
pub struct Failure(pub String);

pub type Result<'a> = std::result::Result<Val<'a>, Failure>;

/// The translation of one function of a schema (one IR node's: see
/// [`crate::schema::FunctionRef`]).
#[derive(Clone, Copy)]
pub enum Translated {
    Rule(LoweredRule),
    When(LoweredWhen),
}

/// What generated code supplies: the translation of the function with an index, if it has one.
pub type Translations = fn(usize) -> Option<Translated>;

/// A lowered custom rule.
#[derive(Clone, Copy)]
pub struct LoweredRule(pub for<'a> fn(&'a Node) -> Result<'a>);

/// A lowered `when=` predicate: value, `ctx.parent`, `ctx.root`.
#[derive(Clone, Copy)]
pub struct LoweredWhen(pub for<'a> fn(&'a Node, &'a Node, &'a Node) -> Result<'a>);

impl LoweredRule {
    /// What the rule did, as [`crate::validate::Predicates::call_rule`] reports it.
    pub fn call(&self, value: &Node) -> CallOutcome {
        Self::outcome((self.0)(value))
    }

    /// What a rule's answer means.
    pub fn outcome(answer: Result) -> CallOutcome {
        match answer {
            Ok(Val::Bool(true)) => CallOutcome::Pass,
            Ok(_) => CallOutcome::Fail,
            Err(Failure(m)) => CallOutcome::Error(crate::validate::failure_found(&m)),
        }
    }
}

impl LoweredWhen {
    /// The predicate's answer, as [`crate::validate::Predicates::call_when`] reports it.
    pub fn call(
        &self,
        value: &Node,
        parent: &Node,
        root: &Node,
    ) -> std::result::Result<bool, String> {
        Self::answer((self.0)(value, parent, root))
    }

    /// What a predicate's answer means.
    pub fn answer(answer: Result) -> std::result::Result<bool, String> {
        match answer {
            Ok(Val::Bool(b)) => Ok(b),
            Ok(v) => Err(format!("want when= to be bool, got {}", type_name(&v))),
            Err(Failure(m)) => Err(format!("Failure evaluating when=: {}", m.trim())),
        }
    }
}

/// A data value as Starlark sees it.
pub fn node(n: &Node) -> Val<'_> {
    match &n.value {
        Value::Map(_) | Value::Array(_) => Val::Data(n),
        v => scalar(v),
    }
}

/// A scalar value (a map key, or a scalar node's value) as Starlark sees it.
fn scalar(v: &Value) -> Val<'_> {
    match v {
        Value::Bool(b) => Val::Bool(*b),
        Value::Int(i) => Val::Int(*i as i128),
        Value::UInt(u) => Val::Int(*u as i128),
        Value::Float(f) => Val::Float(*f),
        Value::Str(s) => Val::Str(Cow::Borrowed(s)),
        // Bytes that are not UTF-8 (a template's): their text, each bad byte U+FFFD.
        Value::Bytes(b) => Val::Str(String::from_utf8_lossy(b)),
        Value::Null | Value::Map(_) | Value::Array(_) => Val::None,
    }
}

pub fn text(s: &'static str) -> Val<'static> {
    Val::Str(Cow::Borrowed(s))
}

/// `m["key"]` on a map of the data values. The compiler lowers it only for keys the schema
/// guarantees, so a miss (impossible after defaults) reads as None.
pub fn field<'a>(m: &Val<'a>, key: &str) -> Val<'a> {
    match m {
        Val::Data(n) => n.value.get(key).map_or(Val::None, node),
        _ => Val::None,
    }
}

/// Starlark's truth value.
pub fn truth(v: &Val) -> bool {
    match v {
        Val::None => false,
        Val::Bool(b) => *b,
        Val::Int(i) => *i != 0,
        Val::Float(f) => *f != 0.0,
        Val::Str(s) => !s.is_empty(),
        Val::List(items) => !items.is_empty(),
        Val::Data(n) => match &n.value {
            Value::Map(entries) => !entries.is_empty(),
            Value::Array(items) => !items.is_empty(),
            _ => true,
        },
    }
}

pub fn type_name(v: &Val) -> &'static str {
    match v {
        Val::None => "NoneType",
        Val::Bool(_) => "bool",
        Val::Int(_) => "int",
        Val::Float(_) => "float",
        Val::Str(_) => "string",
        Val::List(_) => "list",
        Val::Data(n) => crate::rules::starlark_type(&n.value),
    }
}

/// The number a value is, if it is one.
fn number(v: &Val) -> Option<Number> {
    match v {
        Val::Int(i) => Some(Number::Int(*i)),
        Val::Float(f) => Some(Number::Float(*f)),
        _ => None,
    }
}

/// `a == b`.
pub fn eq(a: &Val, b: &Val) -> bool {
    if let (Some(x), Some(y)) = (number(a), number(b)) {
        return number_order(x, y) == Some(Ordering::Equal);
    }
    match (a, b) {
        (Val::None, Val::None) => true,
        (Val::Bool(x), Val::Bool(y)) => x == y,
        (Val::Str(x), Val::Str(y)) => x == y,
        (Val::List(x), Val::List(y)) => {
            x.len() == y.len() && x.iter().zip(y).all(|(a, b)| eq(a, b))
        }
        (Val::Data(x), Val::Data(y)) => crate::rules::starlark_eq(&x.value, &y.value),
        _ => false,
    }
}

/// `a != b`: not `a == b`, but for an int and a NaN, which starlark-go finds neither
/// ([`numbers_differ`]).
pub fn ne(a: &Val, b: &Val) -> bool {
    match (number(a), number(b)) {
        (Some(x), Some(y)) => numbers_differ(x, y),
        _ => !eq(a, b),
    }
}

/// The order of two numbers or two strings (the compiler lowers `<` for nothing else);
/// `None` where a NaN makes every order false.
fn order(a: &Val, b: &Val) -> Option<Ordering> {
    match (a, b) {
        (Val::Str(x), Val::Str(y)) => Some(x.as_ref().cmp(y.as_ref())),
        _ => number(a)
            .zip(number(b))
            .and_then(|(x, y)| number_order(x, y)),
    }
}

/// `a < b`.
pub fn lt(a: &Val, b: &Val) -> bool {
    order(a, b).is_some_and(Ordering::is_lt)
}

/// `a <= b`.
pub fn le(a: &Val, b: &Val) -> bool {
    order(a, b).is_some_and(Ordering::is_le)
}

/// `a > b`.
pub fn gt(a: &Val, b: &Val) -> bool {
    order(a, b).is_some_and(Ordering::is_gt)
}

/// `a >= b`.
pub fn ge(a: &Val, b: &Val) -> bool {
    order(a, b).is_some_and(Ordering::is_ge)
}

/// `needle in haystack`: a substring, an item of a list or array, a key of a map.
pub fn contains(haystack: &Val, needle: &Val) -> bool {
    match (haystack, needle) {
        (Val::Str(h), Val::Str(n)) => h.contains(n.as_ref()),
        (Val::List(items), _) => items.iter().any(|i| eq(i, needle)),
        (Val::Data(n), _) => match &n.value {
            Value::Array(items) => items.iter().any(|i| eq(&node(i), needle)),
            Value::Map(entries) => entries.iter().any(|e| eq(&scalar(&e.key), needle)),
            _ => false,
        },
        _ => false,
    }
}

/// `a + b` on numbers or strings.
pub fn add<'a>(a: Val<'a>, b: Val<'a>) -> Result<'a> {
    Ok(match (a, b) {
        (Val::Int(x), Val::Int(y)) => Val::Int(x.checked_add(y).ok_or_else(overflow)?),
        (Val::Str(x), Val::Str(y)) => Val::Str(Cow::Owned(format!("{x}{y}"))),
        (x, y) => Val::Float(as_float(&x) + as_float(&y)),
    })
}

/// `a - b` on numbers.
pub fn sub<'a>(a: Val<'a>, b: Val<'a>) -> Result<'a> {
    Ok(match (a, b) {
        (Val::Int(x), Val::Int(y)) => Val::Int(x.checked_sub(y).ok_or_else(overflow)?),
        (x, y) => Val::Float(as_float(&x) - as_float(&y)),
    })
}

/// `-a` on a number.
pub fn neg(a: Val) -> Result {
    Ok(match a {
        Val::Int(x) => Val::Int(x.checked_neg().ok_or_else(overflow)?),
        x => Val::Float(-as_float(&x)),
    })
}

/// Starlark's ints have no bounds; a compiled rule's are 128-bit. Going past them is an error
/// rather than a wrapped (wrong) answer.
fn overflow() -> Failure {
    Failure("integer arithmetic beyond 128 bits in a rule compiled to Rust (the interpreter, `schemac check`, computes it exactly)".into())
}

fn as_float(v: &Val) -> f64 {
    match v {
        Val::Int(i) => *i as f64,
        Val::Float(f) => *f,
        _ => 0.0,
    }
}

/// `len(x)`: bytes of a string (as starlark-go counts), items of a list, array or map.
pub fn len<'a>(v: &Val) -> Val<'a> {
    Val::Int(match v {
        Val::Str(s) => s.len(),
        Val::List(items) => items.len(),
        Val::Data(n) => match &n.value {
            Value::Map(entries) => entries.len(),
            Value::Array(items) => items.len(),
            _ => 0,
        },
        _ => 0,
    } as i128)
}

/// `str(x)` of a string, an int, a bool or None.
pub fn to_str<'a>(v: &Val<'a>) -> Cow<'a, str> {
    match v {
        Val::Str(s) => s.clone(),
        Val::Int(i) => Cow::Owned(i.to_string()),
        Val::Bool(true) => Cow::Borrowed("True"),
        Val::Bool(false) => Cow::Borrowed("False"),
        Val::None => Cow::Borrowed("None"),
        _ => Cow::Borrowed(""),
    }
}

fn string<'a>(v: &'a Val) -> &'a str {
    match v {
        Val::Str(s) => s,
        _ => "",
    }
}

/// `s.lower()` as ytt's Go maps case: one character for one (`İ` is `i`, `Σ` always `σ`).
pub fn lower<'a>(v: &Val) -> Val<'a> {
    Val::Str(Cow::Owned(
        string(v).chars().map(crate::go_unicode::lower).collect(),
    ))
}

/// `s.upper()` as ytt's Go maps case: one character for one (`ß` stays `ß`).
pub fn upper<'a>(v: &Val) -> Val<'a> {
    Val::Str(Cow::Owned(
        string(v).chars().map(crate::go_unicode::upper).collect(),
    ))
}

pub fn strip<'a>(v: &Val) -> Val<'a> {
    Val::Str(Cow::Owned(string(v).trim().to_string()))
}

pub fn startswith<'a>(v: &Val, prefix: &Val) -> Val<'a> {
    Val::Bool(string(v).starts_with(string(prefix)))
}

pub fn endswith<'a>(v: &Val, suffix: &Val) -> Val<'a> {
    Val::Bool(string(v).ends_with(string(suffix)))
}

/// `s.split()` (runs of whitespace) or `s.split(sep)` with a non-empty separator.
pub fn split<'a>(v: &Val, sep: Option<&Val>) -> Val<'a> {
    let s = string(v);
    let parts: Vec<Val<'a>> = match sep {
        None => s
            .split_whitespace()
            .map(|p| Val::Str(Cow::Owned(p.to_string())))
            .collect(),
        Some(sep) => s
            .split(string(sep))
            .map(|p| Val::Str(Cow::Owned(p.to_string())))
            .collect(),
    };
    Val::List(parts)
}

/// A piece of a `"...".format(...)` string, parsed by the compiler.
pub enum Piece<'p> {
    Text(&'p str),
    Arg(usize),
}

/// `"...".format(args)` whose arguments are strings, ints, bools or None.
pub fn format<'a, const N: usize>(pieces: &[Piece], args: [Val; N]) -> Val<'a> {
    format_values(pieces, &args)
}

/// [`format`] of a slice of arguments.
pub fn format_values<'a>(pieces: &[Piece], args: &[Val]) -> Val<'a> {
    let mut out = String::new();
    for p in pieces {
        match p {
            Piece::Text(t) => out.push_str(t),
            Piece::Arg(i) => out.push_str(&args.get(*i).map(to_str).unwrap_or_default()),
        }
    }
    Val::Str(Cow::Owned(out))
}

/// `fail(msg)` with one string.
pub fn fail(msg: &Val) -> Failure {
    Failure(format!("fail: {}", string(msg)))
}

/// `assert.fail(msg)`: ytt words it `assert.fail: fail: MSG`.
pub fn assert_fail(msg: &Val) -> Failure {
    Failure(format!("assert.fail: fail: {}", string(msg)))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::value::Pos;

    fn n(v: Value) -> Node {
        Node::new(v, Pos::unknown())
    }

    #[test]
    fn equality_follows_starlark() {
        assert!(eq(&Val::Int(1), &Val::Float(1.0)));
        assert!(!eq(&Val::Bool(true), &Val::Int(1)));
        let nan = Val::Float(f64::NAN);
        assert!(!eq(&nan, &nan) && ne(&nan, &nan));
        assert!(!eq(&nan, &Val::Int(1)) && !ne(&nan, &Val::Int(1)));
        assert!(!eq(&text("a"), &Val::None));
        assert!(!gt(&nan, &Val::Float(f64::INFINITY)) && !le(&nan, &nan));
        assert!(lt(&text("B"), &text("a")));
        // Exactly, as starlark-go: 2^53 + 1 is no float.
        let big = Val::Int((1 << 53) + 1);
        assert!(!eq(&big, &Val::Float((1u64 << 53) as f64)));
        assert!(gt(&big, &Val::Float((1u64 << 53) as f64)));
        // ytt's quirk: an infinity on the left of an int.
        assert!(le(&Val::Float(f64::INFINITY), &Val::Int(10)));
        assert!(!ge(&Val::Int(10), &Val::Float(f64::INFINITY)));
    }

    #[test]
    fn and_or_values_and_truth() {
        assert!(!truth(&text("")));
        assert!(truth(&Val::List(vec![Val::None])));
        let empty = n(Value::Map(crate::value::entries![]));
        assert!(!truth(&node(&empty)));
    }

    #[test]
    fn strings() {
        assert!(matches!(len(&text("é")), Val::Int(2)));
        assert!(eq(&lower(&text("AbC")), &text("abc")));
        assert!(eq(&strip(&text("  x \n")), &text("x")));
        assert!(eq(
            &split(&text(" a  b "), None),
            &Val::List(vec![text("a"), text("b")])
        ));
        assert!(eq(
            &split(&text("a,,b"), Some(&text(","))),
            &Val::List(vec![text("a"), text(""), text("b")])
        ));
        let f = format(
            &[
                Piece::Text("x="),
                Piece::Arg(0),
                Piece::Text(" "),
                Piece::Arg(1),
            ],
            [Val::Int(3), Val::None],
        );
        assert!(eq(&f, &text("x=3 None")));
        assert_eq!(fail(&text("no")).0, "fail: no");
    }

    #[test]
    fn outcomes() {
        fn pass(_: &Node) -> Result<'_> {
            Ok(Val::Bool(true))
        }
        fn truthy(_: &Node) -> Result<'_> {
            Ok(Val::Int(1))
        }
        fn failing(_: &Node) -> Result<'_> {
            Err(fail(&text("bad value")))
        }
        let v = n(Value::Null);
        assert_eq!(LoweredRule(pass).call(&v), CallOutcome::Pass);
        assert_eq!(LoweredRule(truthy).call(&v), CallOutcome::Fail);
        assert_eq!(
            LoweredRule(failing).call(&v),
            CallOutcome::Error(Some("bad value".into()))
        );
        fn when_str<'a>(_: &'a Node, _: &'a Node, _: &'a Node) -> Result<'a> {
            Ok(text("yes"))
        }
        assert_eq!(
            LoweredWhen(when_str).call(&v, &v, &v),
            Err("want when= to be bool, got string".into())
        );
    }

    #[test]
    fn int_arithmetic_past_128_bits_is_an_error_not_a_wrapped_answer() {
        let (max, min) = (Val::Int(i128::MAX), Val::Int(i128::MIN));
        assert!(matches!(add(Val::Int(1), Val::Int(2)), Ok(Val::Int(3))));
        for result in [
            add(max.clone(), Val::Int(1)),
            sub(min.clone(), Val::Int(1)),
            neg(min),
        ] {
            let Err(failure) = result else {
                panic!("no overflow error")
            };
            assert!(failure.0.contains("beyond 128 bits"), "{}", failure.0);
        }
        assert!(matches!(sub(max, Val::Int(1)), Ok(Val::Int(n)) if n == i128::MAX - 1));
    }
}
