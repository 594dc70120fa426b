//! ytt's named validation rules (`min=`, `max=`, `min_len=`, `max_len=`, `not_null=`,
//! `one_not_null=`, `one_of=`), implemented once for every back end.
//!
//! Each rule returns `None` when the value passes, or the violation's `must be` and `found`
//! texts, worded as ytt words them. Values compare as Starlark compares them (numbers with
//! numbers, strings with strings, lists element-wise) and lengths count string bytes, as
//! starlark-go does.

pub mod beyond;
pub mod go_regex;

use std::cmp::Ordering;

use crate::value::{Node, Value};

/// A failed rule: what the value must be, and what was found (if anything is said).
#[derive(Clone, Debug, PartialEq)]
pub struct RuleFailure {
    pub expected: String,
    pub found: Option<String>,
    /// The rule could not be evaluated on the value (ytt's check raised an error, such as
    /// `len: value of type int has no len`), rather than finding the value wrong.
    pub raised: bool,
}

/// The named rules, in the order they run: `not_null` first, then ytt's own in ytt's fixed
/// order, then the rules ytt's design proposed ([`beyond`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum RuleName {
    NotNull,
    MinLen,
    MaxLen,
    Min,
    Max,
    OneNotNull,
    OneOf,
    Len,
    Format,
    Matches,
    StartsWith,
    EndsWith,
    Contains,
    Even,
    Odd,
    MultipleOf,
    Unique,
}

const NAMES: &[(RuleName, &str)] = &[
    (RuleName::NotNull, "not_null"),
    (RuleName::MinLen, "min_len"),
    (RuleName::MaxLen, "max_len"),
    (RuleName::Min, "min"),
    (RuleName::Max, "max"),
    (RuleName::OneNotNull, "one_not_null"),
    (RuleName::OneOf, "one_of"),
    (RuleName::Len, "len"),
    (RuleName::Format, "format"),
    (RuleName::Matches, "matches"),
    (RuleName::StartsWith, "starts_with"),
    (RuleName::EndsWith, "ends_with"),
    (RuleName::Contains, "contains"),
    (RuleName::Even, "even"),
    (RuleName::Odd, "odd"),
    (RuleName::MultipleOf, "multiple_of"),
    (RuleName::Unique, "unique"),
];

impl RuleName {
    pub fn parse(name: &str) -> Option<RuleName> {
        NAMES.iter().find(|(_, n)| *n == name).map(|(r, _)| *r)
    }

    pub fn as_str(self) -> &'static str {
        NAMES
            .iter()
            .find(|(r, _)| *r == self)
            .map_or("", |(_, n)| n)
    }

    /// Whether ytt itself has this rule (the others are ours).
    pub fn is_ytt(self) -> bool {
        self <= RuleName::OneOf
    }

    /// Runs the rule on a node's value, as a validation does: ytt hands `min`, `max`, `one_of`
    /// and `one_not_null` the node's value made a Go value and back, so an empty map or array
    /// reaches them as `None` (a Starlark `check` call sees the value as it is).
    #[inline(always)]
    pub fn check_node(self, arg: &Value, value: &Value) -> Option<RuleFailure> {
        let converted = matches!(
            self,
            RuleName::Min | RuleName::Max | RuleName::OneOf | RuleName::OneNotNull
        );
        static NULL: Value = Value::Null;
        let value = match value {
            Value::Array(items) if converted && items.is_empty() => &NULL,
            Value::Map(entries) if converted && entries.is_empty() => &NULL,
            _ => value,
        };
        self.check(arg, value)
    }

    /// Runs the rule on `value` with its argument.
    #[inline(always)]
    pub fn check(self, arg: &Value, value: &Value) -> Option<RuleFailure> {
        match self {
            RuleName::NotNull => not_null(value),
            RuleName::MinLen => length(arg, value, true),
            RuleName::MaxLen => length(arg, value, false),
            RuleName::Min => bound(arg, value, true),
            RuleName::Max => bound(arg, value, false),
            RuleName::OneNotNull => one_not_null(arg, value),
            RuleName::OneOf => one_of(arg, value),
            RuleName::Len => beyond::exact_len(arg, value),
            RuleName::Format => beyond::format(arg, value),
            RuleName::Matches => beyond::matches(arg, value),
            RuleName::StartsWith => beyond::starts_with(arg, value),
            RuleName::EndsWith => beyond::ends_with(arg, value),
            RuleName::Contains => beyond::contains(arg, value),
            RuleName::Even => beyond::parity(arg, value, true),
            RuleName::Odd => beyond::parity(arg, value, false),
            RuleName::MultipleOf => beyond::multiple_of(arg, value),
            RuleName::Unique => beyond::unique(arg, value),
        }
    }
}

fn fail(expected: String, found: Option<String>) -> Option<RuleFailure> {
    Some(RuleFailure {
        expected,
        found,
        raised: false,
    })
}

/// A rule that could not be evaluated on the value: `found` is the error.
fn raised(expected: String, found: String) -> Option<RuleFailure> {
    Some(RuleFailure {
        expected,
        found: Some(found),
        raised: true,
    })
}

fn not_null(value: &Value) -> Option<RuleFailure> {
    value.is_null().then(|| RuleFailure {
        expected: "not null".into(),
        found: Some("value is null".into()),
        raised: false,
    })
}

/// Length as starlark-go's `len`: bytes of a string, items of a list or map.
pub fn len_of(value: &Value) -> Result<usize, String> {
    match value {
        Value::Str(s) => Ok(s.len()),
        Value::Bytes(b) => Ok(b.len()),
        Value::Array(a) => Ok(a.len()),
        Value::Map(m) => Ok(m.len()),
        other => Err(format!(
            "len: value of type {} has no len",
            starlark_type(other)
        )),
    }
}

/// `min_len` / `max_len`: the value's length (starlark-go's `len`) against the bound, both as
/// floats (a bound past the ints schemac keeps is a float). The passing path is all that is
/// inlined: most values pass, and a failure is worded by [`length_failure`].
#[inline(always)]
fn length(arg: &Value, value: &Value, min: bool) -> Option<RuleFailure> {
    let Some(limit) = length_limit(arg) else {
        return length_failure(arg, len_of(value), min);
    };
    let n = match value {
        Value::Str(s) => s.len(),
        other => match len_of(other) {
            Ok(n) => n,
            Err(e) => return length_failure(arg, Err(e), min),
        },
    };
    if within_length(n, limit, min) {
        None
    } else {
        length_failure(arg, Ok(n), min)
    }
}

/// `min_len` / `max_len` on a length counted elsewhere: starlark-go's `len` of a Starlark
/// value that is no data (a list holding a function), or its error.
pub fn length_count(arg: &Value, len: Result<usize, String>, min: bool) -> Option<RuleFailure> {
    match (length_limit(arg), &len) {
        (Some(limit), Ok(n)) if within_length(*n, limit, min) => None,
        _ => length_failure(arg, len, min),
    }
}

/// A length rule's bound as a float, or `None` when it is no number.
#[inline(always)]
fn length_limit(arg: &Value) -> Option<f64> {
    match arg {
        Value::Int(i) => Some(*i as f64),
        Value::UInt(u) => Some(*u as f64),
        Value::Float(f) => Some(*f),
        _ => None,
    }
}

#[inline(always)]
fn within_length(n: usize, limit: f64, min: bool) -> bool {
    let n = n as f64;
    if min {
        n >= limit
    } else {
        n <= limit
    }
}

/// How a length rule fails: a value with no length (`len`'s error), a bound that is no
/// number, or a length past the bound.
#[cold]
#[inline(never)]
fn length_failure(arg: &Value, len: Result<usize, String>, min: bool) -> Option<RuleFailure> {
    let op = if min { ">=" } else { "<=" };
    let expected = match arg {
        // A bound past the ints schemac keeps (an integer to ytt: `min_len=1e30`).
        Value::Float(f) if f.is_finite() && f.fract() == 0.0 => {
            format!("length {op} {}", whole_float_digits(*f))
        }
        _ => format!("length {op} {}", repr(arg)),
    };
    match len {
        Err(e) => raised(expected, e),
        Ok(_) if length_limit(arg).is_none() => fail(expected, None),
        Ok(n) => fail(expected, Some(format!("length = {}", n as f64 as i64))),
    }
}

/// `min` / `max`: the value against the bound as starlark-go's `>=` / `<=` compare them. The
/// passing path is all that is inlined: most values pass, and a failure is worded by
/// [`bound_failure`].
#[inline(always)]
fn bound(arg: &Value, value: &Value, min: bool) -> Option<RuleFailure> {
    // (A validated node's empty collection is None here: see [`RuleName::check_node`].)
    let int_bound;
    let compared = match arg {
        Value::Float(f) if is_int_to_ytt(*f) => {
            int_bound = Value::Int(*f as i64);
            &int_bound
        }
        _ => arg,
    };
    let order = match (value, compared) {
        // Two ints, the common case, compared here.
        (Value::Int(x), Value::Int(y)) => Ok(Some(x.cmp(y))),
        _ => compare(value, compared),
    };
    // A NaN (`None`) passes neither `>=` nor `<=`.
    let ok = match order {
        Ok(Some(ord)) if min => ord != Ordering::Less,
        Ok(Some(ord)) => ord != Ordering::Greater,
        Ok(None) | Err(_) => false,
    };
    if ok {
        None
    } else {
        bound_failure(arg, compared, value, min, order.err())
    }
}

/// Whether ytt's `min`/`max` take the float bound `f` as an int: a whole float that Go's
/// shortest `%g` writes without an exponent (one below 10^6 in magnitude, `-0.0` too) reaches
/// its comparison as an int, which shows only against an infinity (`assert.min(3.0)` passes
/// `float("-inf")`, as `assert.min(3)` does, where `assert.min(1e6)` fails it) and in `-0`
/// written `0`.
fn is_int_to_ytt(f: f64) -> bool {
    f.fract() == 0.0 && f.abs() < 1e6
}

/// How `bound` fails on `value`: out of the bound, or not comparable with it (`incomparable`);
/// `compared` is the bound as ytt compares it (see [`is_int_to_ytt`]), `arg` as given.
#[cold]
#[inline(never)]
fn bound_failure(
    arg: &Value,
    compared: &Value,
    value: &Value,
    min: bool,
    incomparable: Option<Incomparable>,
) -> Option<RuleFailure> {
    let (op, bad) = if min { (">=", "<") } else { ("<=", ">") };
    let expected = format!("a value {op} {}", repr(arg));
    if incomparable == Some(Incomparable::TooDeep) {
        raised(expected, TOO_DEEP.into())
    } else if incomparable.is_none() {
        // ytt formats the bound with `%s` here: a string shows unquoted.
        // (Bytes that are no UTF-8 show as U+FFFD: a report is text.)
        let shown = match compared {
            Value::Str(s) => s.to_string(),
            Value::Bytes(b) => String::from_utf8_lossy(b).into_owned(),
            other => repr(other),
        };
        fail(expected, Some(format!("value {bad} {shown}")))
    } else {
        // Items of lists keep their own types (a validation's operand went through ytt's
        // conversion in `check_node`).
        let (a, b) = incomparable_pair(value, compared);
        let (a, b) = (round_trip_type(a), round_trip_type(b));
        raised(expected, format!("{a} {op} {b} not implemented"))
    }
}

/// The two values whose comparison fails: starlark-go compares two lists by their first
/// unequal items, and names those items' types in the error.
fn incomparable_pair<'a>(a: &'a Value, b: &'a Value) -> (&'a Value, &'a Value) {
    if let (Value::Array(x), Value::Array(y)) = (a, b) {
        for (p, q) in x.iter().zip(y) {
            if !starlark_eq(&p.value, &q.value) {
                return incomparable_pair(&p.value, &q.value);
            }
        }
    }
    (a, b)
}

/// The type of a value that ytt passed through text and back: `assert.min`/`max` through Go's
/// `%v` (both sides, at any depth), `one_not_null` through `yaml.encode` and `yaml.decode`.
/// Either way a whole float shorter than `1e+06` (Go's `%g` turns to an exponent from there)
/// is written as an integer's digits (`3`, `-0`) and arrives as an int.
fn round_trip_type(v: &Value) -> &'static str {
    match v {
        Value::Float(f) if f.fract() == 0.0 && f.abs() < 1e6 => "int",
        v => starlark_type(v),
    }
}

fn one_of(arg: &Value, value: &Value) -> Option<RuleFailure> {
    let found = match arg {
        // starlark-go's `in` stops at the first comparison that fails.
        Value::Array(items) => match items
            .iter()
            .map(|i| go_equal(&i.value, value, GO_COMPARE_DEPTH))
            .find(|eq| *eq != Ok(false))
        {
            Some(Err(_)) => {
                return raised(format!("one of {}", repr(arg)), TOO_DEEP.into());
            }
            found => found.is_some(),
        },
        Value::Str(s) => matches!(value, Value::Str(v) if s.contains(v.as_str())),
        Value::Map(entries) => entries.iter().any(|e| starlark_eq(&e.key, value)),
        _ => false,
    };
    if found {
        None
    } else {
        fail(
            format!("one of {}", repr(arg)),
            Some("not one of allowed values".into()),
        )
    }
}

fn one_not_null(arg: &Value, value: &Value) -> Option<RuleFailure> {
    let expected = match arg {
        Value::Array(_) => format!("exactly one of {} to be not null", repr(arg)),
        _ => "exactly one of all children to be not null".into(),
    };
    let Value::Map(entries) = value else {
        let found = format!(
            "value must be a map or dict, but was '{}'",
            round_trip_type(value)
        );
        return raised(expected, found);
    };
    if entries.is_empty() {
        // Only a Starlark `check` call sees an empty dict: a validation's is None.
        return raised(expected, "value is empty".into());
    }
    let keys: Vec<Value> = match arg {
        Value::Array(keys) => keys.iter().map(|k| k.value.clone()).collect(),
        _ => entries.iter().map(|e| Value::clone(&e.key)).collect(),
    };
    // The keys came through YAML too: a tuple is a list there, and a list or dict key is no
    // key a dict can hold (starlark-go's lookup fails; ytt stops at the first such key).
    if let Some(key) = keys
        .iter()
        .find(|k| matches!(k, Value::Array(_) | Value::Map(_)))
    {
        let found = format!(
            "unexpected error while looking up key {} in dict {}",
            repr_through_yaml(key),
            repr_through_yaml(value)
        );
        return raised(expected, found);
    }
    // A Starlark dict's lookup: a key 3.0 finds the key 3.
    let not_null: Vec<&Value> = keys
        .iter()
        .filter(|k| {
            entries
                .iter()
                .any(|e| starlark_eq(&e.key, k) && !e.value.value.is_null())
        })
        .collect();
    match not_null.len() {
        1 => None,
        0 => fail(expected, Some("all values are null".into())),
        _ => {
            let list = Value::Array(
                not_null
                    .iter()
                    .map(|k| Node::new((*k).clone(), Default::default()))
                    .collect(),
            );
            fail(
                expected,
                Some(format!("{} are not null", repr_through_yaml(&list))),
            )
        }
    }
}

/// starlark-go's type names.
pub fn starlark_type(v: &Value) -> &'static str {
    match v {
        Value::Null => "NoneType",
        Value::Bool(_) => "bool",
        Value::Int(_) | Value::UInt(_) => "int",
        Value::Float(_) => "float",
        Value::Str(_) | Value::Bytes(_) => "string",
        Value::Array(_) => "list",
        Value::Map(_) => "dict",
    }
}

/// The Go type starlark-go (in ytt) gives a value of Starlark type `starlark_type`, as ytt's
/// messages name it (`starlark.Int`, `*starlark.List`, `*yttlibrary.Assertion`).
pub fn go_type(starlark_type: &str) -> String {
    match starlark_type {
        "string" => "starlark.String".into(),
        "int" => "starlark.Int".into(),
        "float" => "starlark.Float".into(),
        "bool" => "starlark.Bool".into(),
        "NoneType" => "starlark.NoneType".into(),
        "tuple" => "starlark.Tuple".into(),
        "list" => "*starlark.List".into(),
        "dict" => "*starlark.Dict".into(),
        "set" => "*starlark.Set".into(),
        "struct" => "*core.StarlarkStruct".into(),
        "namespace" | "module" => "*starlarkstruct.Module".into(),
        "function" => "*starlark.Function".into(),
        "builtin_function_or_method" => "*starlark.Builtin".into(),
        crate::validate::ASSERTION_TYPE => "*yttlibrary.Assertion".into(),
        "yamlfragment" => "*yamltemplate.StarlarkFragment".into(),
        other => format!("starlark.{other}"),
    }
}

/// Equality as Starlark sees it (1 == 1.0).
pub fn starlark_eq(a: &Value, b: &Value) -> bool {
    go_equal(a, b, u32::MAX) == Ok(true)
}

/// starlark-go's bound on comparisons nested in one another (its `maxdepth`): lists ten deep
/// compare, eleven deep fail (an empty innermost list has nothing to compare).
pub const GO_COMPARE_DEPTH: u32 = 10;

/// Why two values do not compare.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Incomparable {
    /// Types that Starlark does not order (`1 < "a"`).
    Types,
    /// Collections nested past the depth starlark-go compares ([`GO_COMPARE_DEPTH`]).
    TooDeep,
}

/// starlark-go's error past [`GO_COMPARE_DEPTH`].
pub const TOO_DEEP: &str = "comparison exceeded maximum recursion depth";

/// `a == b` as starlark-go's `EqualDepth` answers it with `depth` levels left: lists compare
/// by length, then item by item to the first unequal one; dicts by their keys' values.
fn go_equal(a: &Value, b: &Value, depth: u32) -> Result<bool, Incomparable> {
    if depth < 1 {
        return Err(Incomparable::TooDeep);
    }
    if let (Some(x), Some(y)) = (Number::of(a), Number::of(b)) {
        return Ok(number_order(x, y) == Some(Ordering::Equal));
    }
    match (a, b) {
        (Value::Array(x), Value::Array(y)) => {
            if x.len() != y.len() {
                return Ok(false);
            }
            for (p, q) in x.iter().zip(y) {
                if !go_equal(&p.value, &q.value, depth - 1)? {
                    return Ok(false);
                }
            }
            Ok(true)
        }
        (Value::Map(x), Value::Map(y)) => {
            if x.len() != y.len() {
                return Ok(false);
            }
            for e in x.iter() {
                let Some(f) = y.iter().find(|f| f.key.key_eq(&e.key)) else {
                    return Ok(false);
                };
                if !go_equal(&e.value.value, &f.value.value, depth - 1)? {
                    return Ok(false);
                }
            }
            Ok(true)
        }
        _ => Ok(a == b),
    }
}

/// Ordering as starlark-go (ytt's 2020 fork) defines it; `Err` where the types do not
/// compare, `Ok(None)` where every comparison is false (a NaN). An int and a float compare
/// exactly, except that a float infinity on the left of an int compares as if of the other
/// sign (`float("inf") <= 10` is true in ytt).
pub fn compare(a: &Value, b: &Value) -> Result<Option<Ordering>, Incomparable> {
    compare_depth(a, b, GO_COMPARE_DEPTH)
}

/// [`compare`] with `depth` levels left: lists compare at their first items not equal.
fn compare_depth(a: &Value, b: &Value, depth: u32) -> Result<Option<Ordering>, Incomparable> {
    if depth < 1 {
        return Err(Incomparable::TooDeep);
    }
    if let (Some(x), Some(y)) = (Number::of(a), Number::of(b)) {
        return Ok(number_order(x, y));
    }
    // Go strings compare by their bytes, UTF-8 or not.
    if let (Some(x), Some(y)) = (string_bytes(a), string_bytes(b)) {
        return Ok(Some(x.cmp(y)));
    }
    match (a, b) {
        // ytt's starlark-go orders None with None (`None >= None` is True).
        (Value::Null, Value::Null) => Ok(Some(Ordering::Equal)),
        (Value::Bool(x), Value::Bool(y)) => Ok(Some(x.cmp(y))),
        (Value::Array(x), Value::Array(y)) => {
            for (p, q) in x.iter().zip(y) {
                if !go_equal(&p.value, &q.value, depth - 1)? {
                    return compare_depth(&p.value, &q.value, depth - 1);
                }
            }
            Ok(Some(x.len().cmp(&y.len())))
        }
        _ => Err(Incomparable::Types),
    }
}

/// The bytes of a string, UTF-8 or not.
fn string_bytes(v: &Value) -> Option<&[u8]> {
    match v {
        Value::Str(s) => Some(s.as_bytes()),
        Value::Bytes(b) => Some(b),
        _ => None,
    }
}

/// The decimal digits of the whole float `f`, exactly (`1e30` is
/// `1000000000000000019884624838656`), as Go's big integers print it.
fn whole_float_digits(f: f64) -> String {
    let bits = f.abs().to_bits();
    let exponent = ((bits >> 52) & 0x7ff) as i64;
    let mantissa = if exponent == 0 {
        (bits & ((1 << 52) - 1)) << 1
    } else {
        (bits & ((1 << 52) - 1)) | (1 << 52)
    };
    // f = mantissa * 2^(exponent - 1075); whole, so a negative shift drops only zero bits.
    let shift = exponent - 1075;
    let (mut limbs, doublings) = if shift < 0 {
        (vec![mantissa >> (-shift).min(63)], 0)
    } else {
        (vec![mantissa], shift)
    };
    // Little-endian limbs of nine decimal digits.
    const BASE: u64 = 1_000_000_000;
    fn carry_split(limbs: &mut Vec<u64>) {
        let mut carry = 0;
        for l in limbs.iter_mut() {
            let v = *l + carry;
            *l = v % BASE;
            carry = v / BASE;
        }
        while carry > 0 {
            limbs.push(carry % BASE);
            carry /= BASE;
        }
    }
    carry_split(&mut limbs);
    for _ in 0..doublings {
        limbs.iter_mut().for_each(|l| *l *= 2);
        carry_split(&mut limbs);
    }
    let mut digits = if f < 0.0 {
        "-".to_string()
    } else {
        String::new()
    };
    digits.push_str(&limbs.last().copied().unwrap_or(0).to_string());
    for l in limbs.iter().rev().skip(1) {
        digits.push_str(&format!("{l:09}"));
    }
    digits
}

/// A number as starlark-go compares it: an int (exactly) or a float.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Number {
    Int(i128),
    Float(f64),
}

impl Number {
    /// The number `v` holds (an int or a float; a bool is none).
    pub fn of(v: &Value) -> Option<Number> {
        match v {
            Value::Float(f) => Some(Number::Float(*f)),
            v => v.as_int().map(Number::Int),
        }
    }
}

/// The order of two numbers as ytt's starlark-go (its 2020 fork) compares them: ints and an
/// int with a float exactly, two floats as IEEE 754; `None` where a NaN makes every comparison
/// false (but `!=` of two floats: [`numbers_differ`]). A float infinity on the left of an int
/// compares as if of the other sign (`float("inf") <= 10` is true in ytt, `10 >= float("inf")`
/// false).
pub fn number_order(a: Number, b: Number) -> Option<Ordering> {
    match (a, b) {
        (Number::Int(x), Number::Int(y)) => Some(x.cmp(&y)),
        (Number::Int(x), Number::Float(y)) => int_float_order(x, y),
        (Number::Float(x), Number::Int(_)) if x.is_infinite() => Some(if x > 0.0 {
            Ordering::Less
        } else {
            Ordering::Greater
        }),
        (Number::Float(x), Number::Int(y)) => int_float_order(y, x).map(Ordering::reverse),
        (Number::Float(x), Number::Float(y)) => x.partial_cmp(&y),
    }
}

/// `a != b` of two numbers: true when they are ordered apart, and for a NaN only between two
/// floats (IEEE 754); an int and a NaN are neither equal nor unequal in starlark-go.
pub fn numbers_differ(a: Number, b: Number) -> bool {
    match number_order(a, b) {
        Some(order) => order.is_ne(),
        None => matches!((a, b), (Number::Float(_), Number::Float(_))),
    }
}

/// The exact order of the int `i` and the float `f` (`None` for a NaN).
pub fn int_float_order(i: i128, f: f64) -> Option<Ordering> {
    if f.is_nan() {
        return None;
    }
    // From 2^127 on a float is past every int of i128, and so is one below -2^127
    // (`i128::MIN`, which a float holds exactly); between them its integer part converts
    // exactly.
    let bound = 2f64.powi(127);
    if f >= bound {
        return Some(Ordering::Less);
    }
    if f < -bound {
        return Some(Ordering::Greater);
    }
    let whole = f.trunc();
    Some(i.cmp(&(whole as i128)).then(if f > whole {
        Ordering::Less
    } else if f < whole {
        Ordering::Greater
    } else {
        Ordering::Equal
    }))
}

/// A value as Starlark's `repr` shows it in messages (`["x"]`, `{"foo": True}`, `None`).
pub fn repr(v: &Value) -> String {
    repr_of(v, false)
}

/// [`repr`] of a value that ytt passed through `yaml.encode` and `yaml.decode` (see
/// [`round_trip_type`]): a whole float arrives as an int, so `-0.0` (go-yaml's `-0`) is `0`.
fn repr_through_yaml(v: &Value) -> String {
    repr_of(v, true)
}

fn repr_of(v: &Value, through_yaml: bool) -> String {
    let repr = |v: &Value| repr_of(v, through_yaml);
    match v {
        Value::Null => "None".into(),
        Value::Bool(true) => "True".into(),
        Value::Bool(false) => "False".into(),
        Value::Int(i) => i.to_string(),
        Value::UInt(u) => u.to_string(),
        Value::Float(f) if through_yaml && *f == 0.0 => "0".into(),
        Value::Float(f) => float_repr(*f),
        Value::Str(s) => quote(s),
        Value::Bytes(b) => quote_bytes(b, quote),
        Value::Array(items) => format!(
            "[{}]",
            items
                .iter()
                .map(|i| repr(&i.value))
                .collect::<Vec<_>>()
                .join(", ")
        ),
        Value::Map(entries) => format!(
            "{{{}}}",
            entries
                .iter()
                .map(|e| format!("{}: {}", repr(&e.key), repr(&e.value.value)))
                .collect::<Vec<_>>()
                .join(", ")
        ),
    }
}

/// starlark-go's text of a float as ytt's fork writes it: `%g`, six significant digits
/// (`1.0` is `1`, `1/3` is `0.333333`, `123456789.0` is `1.23457e+08`, infinity `+Inf`).
pub fn float_repr(f: f64) -> String {
    if f.is_nan() {
        return "NaN".into();
    }
    if f.is_infinite() {
        return if f > 0.0 { "+Inf" } else { "-Inf" }.into();
    }
    if f == 0.0 {
        return if f.is_sign_negative() { "-0" } else { "0" }.into();
    }
    let trim = |s: &str| -> String {
        if s.contains('.') {
            s.trim_end_matches('0').trim_end_matches('.').to_string()
        } else {
            s.to_string()
        }
    };
    let sci = format!("{f:.5e}");
    let (mantissa, exp) = crate::yaml::emit::split_exponent(&sci);
    if !(-4..6).contains(&exp) {
        crate::yaml::emit::go_exponent(&trim(mantissa), exp, 2)
    } else {
        trim(&format!("{f:.*}", (5 - exp) as usize))
    }
}

/// A string that is not UTF-8 as starlark-go's `repr` quotes it: its text as `quote_text`
/// quotes it, each byte that is no UTF-8 as `\xNN`.
pub(crate) fn quote_bytes(bytes: &[u8], quote_text: impl Fn(&str) -> String) -> String {
    let mut out = String::with_capacity(bytes.len() * 2 + 2);
    out.push('"');
    for chunk in bytes.utf8_chunks() {
        let quoted = quote_text(chunk.valid());
        out.push_str(&quoted[1..quoted.len() - 1]);
        for b in chunk.invalid() {
            out.push_str(&format!("\\x{b:02x}"));
        }
    }
    out.push('"');
    out
}

fn quote(s: &str) -> String {
    let mut out = String::with_capacity(s.len() + 2);
    out.push('"');
    for c in s.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\t' => out.push_str("\\t"),
            '\r' => out.push_str("\\r"),
            c if (c as u32) < 0x20 || c == '\u{7f}' => {
                out.push_str(&format!("\\x{:02x}", c as u32))
            }
            c => out.push(c),
        }
    }
    out.push('"');
    out
}

#[cfg(test)]
mod tests;
