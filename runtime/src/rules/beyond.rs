//! Named rules that ytt's validations design proposed and ytt never shipped:
//! `len=`, `format=`, `matches=`, `starts_with=`, `ends_with=`, `contains=`, `even=`, `odd=`,
//! `multiple_of=`, `unique=`. Their messages follow the style of ytt's own named rules
//! (`must be: length = 16`, `found: length = 3`).

use super::{len_of, repr, starlark_eq, starlark_type, RuleFailure};
use crate::value::Value;

pub use format::FORMATS;

mod format;

fn fail(expected: String, found: impl Into<String>) -> Option<RuleFailure> {
    Some(RuleFailure {
        expected,
        found: Some(found.into()),
        raised: false,
    })
}

/// Checks a rule's argument when the annotation is read; the error completes
/// `Invalid @schema/validation annotation - ...`.
pub fn check_arg(name: &str, arg: &Value) -> Result<(), String> {
    let kind = starlark_type(arg);
    match name {
        "len" | "multiple_of" => match arg {
            Value::Int(0) if name == "multiple_of" => {
                Err("expected keyword argument \"multiple_of\" to be non-zero".into())
            }
            Value::Int(_) | Value::UInt(_) => Ok(()),
            Value::Float(f) if name == "multiple_of" && *f != 0.0 => Ok(()),
            _ => Err(format!(
                "expected keyword argument \"{name}\" to be a number, but was {kind}"
            )),
        },
        "format" => match arg {
            Value::Str(f) if FORMATS.contains(&f.as_str()) => Ok(()),
            Value::Str(f) => Err(format!(
                "unknown format \"{f}\" (known formats: {})",
                FORMATS.join(", ")
            )),
            _ => Err(format!(
                "expected keyword argument \"format\" to be a string, but was {kind}"
            )),
        },
        "matches" => match arg {
            Value::Str(re) => super::go_regex::compile(re).map(|_| ()).map_err(|e| {
                format!(
                    "expected keyword argument \"matches\" to be a regular expression: {}",
                    first_line(&e.to_string())
                )
            }),
            _ => Err(format!(
                "expected keyword argument \"matches\" to be a string, but was {kind}"
            )),
        },
        "starts_with" | "ends_with" => match arg {
            Value::Str(_) => Ok(()),
            _ => Err(format!(
                "expected keyword argument \"{name}\" to be a string, but was {kind}"
            )),
        },
        "contains" => match arg {
            Value::Map(_) | Value::Array(_) => Err(format!(
                "expected keyword argument \"contains\" to be a scalar, but was {kind}"
            )),
            _ => Ok(()),
        },
        "even" | "odd" | "unique" => match arg {
            Value::Bool(_) => Ok(()),
            _ => Err(format!(
                "expected keyword argument \"{name}\" to be a boolean, but was {kind}"
            )),
        },
        _ => Ok(()),
    }
}

fn first_line(s: &str) -> &str {
    s.lines()
        .rev()
        .find(|l| !l.trim().is_empty())
        .unwrap_or(s)
        .trim()
}

/// `len=N`: exactly N bytes, items or map items.
pub fn exact_len(arg: &Value, value: &Value) -> Option<RuleFailure> {
    let expected = format!("length = {}", repr(arg));
    match len_of(value) {
        Ok(n) if Value::Int(n as i64) == *arg => None,
        Ok(n) => fail(expected, format!("length = {n}")),
        Err(e) => fail(expected, e),
    }
}

fn string_of<'a>(expected: &str, value: &'a Value) -> Result<&'a str, Option<RuleFailure>> {
    match value {
        Value::Str(s) => Ok(s),
        other => Err(fail(
            expected.to_string(),
            format!("value of type {} is not a string", starlark_type(other)),
        )),
    }
}

pub fn matches(arg: &Value, value: &Value) -> Option<RuleFailure> {
    let Value::Str(re) = arg else { return None };
    let expected = format!("a value matching {}", repr(arg));
    let s = match string_of(&expected, value) {
        Ok(s) => s,
        Err(f) => return f,
    };
    let re = super::go_regex::compile(re).ok()?;
    if re.is_match(s) {
        None
    } else {
        fail(expected, format!("{} does not match", repr(value)))
    }
}

pub fn starts_with(arg: &Value, value: &Value) -> Option<RuleFailure> {
    let Value::Str(prefix) = arg else { return None };
    let expected = format!("a value starting with {}", repr(arg));
    match string_of(&expected, value) {
        Ok(s) if s.starts_with(prefix.as_str()) => None,
        Ok(_) => fail(
            expected,
            format!("{} does not start with {}", repr(value), repr(arg)),
        ),
        Err(f) => f,
    }
}

pub fn ends_with(arg: &Value, value: &Value) -> Option<RuleFailure> {
    let Value::Str(suffix) = arg else { return None };
    let expected = format!("a value ending with {}", repr(arg));
    match string_of(&expected, value) {
        Ok(s) if s.ends_with(suffix.as_str()) => None,
        Ok(_) => fail(
            expected,
            format!("{} does not end with {}", repr(value), repr(arg)),
        ),
        Err(f) => f,
    }
}

/// `contains=x`: a substring of a string, an item of an array, a key of a map.
pub fn contains(arg: &Value, value: &Value) -> Option<RuleFailure> {
    let expected = format!("a value containing {}", repr(arg));
    let found = match (value, arg) {
        (Value::Str(s), Value::Str(x)) => s.contains(x.as_str()),
        (Value::Array(items), x) => items.iter().any(|i| starlark_eq(&i.value, x)),
        (Value::Map(entries), x) => entries.iter().any(|e| e.key.key_eq(x)),
        (other, _) => {
            return fail(
                expected,
                format!(
                    "value of type {} cannot contain anything",
                    starlark_type(other)
                ),
            )
        }
    };
    if found {
        None
    } else {
        fail(expected, format!("{} not found", repr(arg)))
    }
}

fn remainder(value: &Value, by: f64) -> Result<f64, String> {
    match value {
        // Exact for integers (2^64 - 1 is odd, though not as a float).
        Value::Int(_) | Value::UInt(_) if by.fract() == 0.0 && by.abs() < 2f64.powi(64) => {
            let i = value.as_int().unwrap_or(0);
            Ok((i % (by as i128)) as f64)
        }
        Value::Int(i) => Ok((*i as f64) % by),
        Value::UInt(u) => Ok((*u as f64) % by),
        Value::Float(f) => Ok(f % by),
        other => Err(format!(
            "value of type {} is not a number",
            starlark_type(other)
        )),
    }
}

/// `even=True` / `odd=True`.
pub fn parity(arg: &Value, value: &Value, even: bool) -> Option<RuleFailure> {
    if *arg != Value::Bool(true) {
        return None;
    }
    let expected = if even {
        "an even number"
    } else {
        "an odd number"
    }
    .to_string();
    match remainder(value, 2.0) {
        Ok(r) if (r == 0.0) == even => None,
        Ok(_) => fail(
            expected,
            if even {
                "value is odd"
            } else {
                "value is even"
            },
        ),
        Err(e) => fail(expected, e),
    }
}

pub fn multiple_of(arg: &Value, value: &Value) -> Option<RuleFailure> {
    let by = match arg {
        Value::Int(i) => *i as f64,
        Value::UInt(u) => *u as f64,
        Value::Float(f) => *f,
        _ => return None,
    };
    let expected = format!("a multiple of {}", repr(arg));
    match remainder(value, by) {
        Ok(0.0) => None,
        Ok(_) => fail(
            expected,
            format!("{} is not a multiple of {}", repr(value), repr(arg)),
        ),
        Err(e) => fail(expected, e),
    }
}

/// `unique=True`: no two items of an array are equal.
pub fn unique(arg: &Value, value: &Value) -> Option<RuleFailure> {
    if *arg != Value::Bool(true) {
        return None;
    }
    let expected = "unique items".to_string();
    let Value::Array(items) = value else {
        return fail(
            expected,
            format!("value of type {} is not a list", starlark_type(value)),
        );
    };
    // The items seen so far by a hash that equal items share: each is compared with the
    // earlier ones of its hash only (comparing with every earlier item took 5.6 s for 40,000).
    let mut seen: std::collections::HashMap<u64, Vec<usize>> = Default::default();
    for (i, a) in items.iter().enumerate() {
        let earlier = seen.entry(eq_hash(&a.value)).or_default();
        if earlier
            .iter()
            .any(|&j| starlark_eq(&a.value, &items[j].value))
        {
            return fail(
                expected,
                format!("{} appears more than once", repr(&a.value)),
            );
        }
        earlier.push(i);
    }
    None
}

/// A hash of `v` that values equal to Starlark ([`starlark_eq`]) share: a number by its value
/// as a float (an int equals a float exactly), a list by its items', a map by its entries' in
/// any order.
fn eq_hash(v: &Value) -> u64 {
    use std::hash::{Hash, Hasher};
    let mut h = std::collections::hash_map::DefaultHasher::new();
    match (super::Number::of(v), v) {
        (Some(n), _) => {
            let f = match n {
                super::Number::Int(i) => i as f64,
                super::Number::Float(f) => f,
            };
            // (0.0 and -0.0 are equal)
            (if f == 0.0 { 0 } else { f.to_bits() }).hash(&mut h);
        }
        (None, Value::Array(items)) => {
            items.len().hash(&mut h);
            items.iter().for_each(|i| eq_hash(&i.value).hash(&mut h));
        }
        (None, Value::Map(entries)) => {
            let entry = |e: &crate::value::MapEntry| {
                eq_hash(&e.key)
                    .wrapping_mul(31)
                    .wrapping_add(eq_hash(&e.value.value))
            };
            let sum = entries.iter().map(entry).fold(0u64, u64::wrapping_add);
            (entries.len(), sum).hash(&mut h);
        }
        (None, Value::Str(s)) => s.hash(&mut h),
        (None, Value::Bytes(b)) => b.hash(&mut h),
        (None, Value::Bool(b)) => b.hash(&mut h),
        (None, other) => std::mem::discriminant(other).hash(&mut h),
    }
    h.finish()
}

/// `format=F`; each format's definition is in [`format`].
pub fn format(arg: &Value, value: &Value) -> Option<RuleFailure> {
    let Value::Str(f) = arg else { return None };
    let expected = format!("a valid {f}");
    match format::is_valid(f, value) {
        Some(true) => None,
        Some(false) => fail(expected, format!("{} is not a valid {f}", repr(value))),
        None => fail(
            expected,
            format!("value of type {} is not a string", starlark_type(value)),
        ),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn s(x: &str) -> Value {
        Value::Str(x.into())
    }

    fn found(f: Option<RuleFailure>) -> Option<String> {
        f.and_then(|f| f.found)
    }

    #[test]
    fn formats_accept_and_reject() {
        for (fmt, good, bad) in [
            ("date-time", "2024-01-15T10:00:00Z", "2024-01-15 10:00"),
            ("date", "2024-02-29", "2024-13-01"),
            ("time", "23:59:59.5+01:00", "24:00:00"),
            ("email", "root@localhost", "a@b@c"),
            ("hostname", "api.example.com", "-bad-.com"),
            ("ip", "::1", "1.2.3"),
            ("ipv4", "10.0.0.1", "10.0.0.256"),
            ("ipv6", "fe80::1", "10.0.0.1"),
            ("uri", "https://example.com/x", "no scheme"),
            ("port", "8080", "70000"),
            ("percent", "50%", "150%"),
            ("duration", "1h30m", "1x"),
            ("quantity", "1.5Gi", "1.5GB"),
        ] {
            assert_eq!(format(&s(fmt), &s(good)), None, "{fmt} {good}");
            let f = format(&s(fmt), &s(bad)).unwrap_or_else(|| panic!("{fmt} {bad} passed"));
            assert_eq!(f.expected, format!("a valid {fmt}"));
            assert_eq!(f.found, Some(format!("\"{bad}\" is not a valid {fmt}")));
        }
        assert_eq!(format(&s("port"), &Value::Int(443)), None);
        assert_eq!(
            found(format(&s("email"), &Value::Int(1))).as_deref(),
            Some("value of type int is not a string")
        );
    }

    #[test]
    fn string_rules() {
        assert_eq!(matches(&s("^v[0-9]+$"), &s("v12")), None);
        let f = matches(&s("^v[0-9]+$"), &s("12")).unwrap();
        assert_eq!(
            (f.expected.as_str(), f.found.as_deref()),
            (
                "a value matching \"^v[0-9]+$\"",
                Some("\"12\" does not match")
            )
        );
        assert_eq!(starts_with(&s("https://"), &s("https://x")), None);
        assert_eq!(
            found(starts_with(&s("https://"), &s("http://x"))).as_deref(),
            Some("\"http://x\" does not start with \"https://\"")
        );
        assert_eq!(ends_with(&s(".git"), &s("repo.git")), None);
        assert_eq!(
            found(ends_with(&s(".git"), &s("repo"))).as_deref(),
            Some("\"repo\" does not end with \".git\"")
        );
        assert_eq!(contains(&s("@sha256:"), &s("img@sha256:ab")), None);
        assert_eq!(
            found(contains(&s("@sha256:"), &s("img:latest"))).as_deref(),
            Some("\"@sha256:\" not found")
        );
    }

    #[test]
    fn number_rules() {
        assert_eq!(parity(&Value::Bool(true), &Value::Int(4), true), None);
        assert_eq!(
            found(parity(&Value::Bool(true), &Value::Int(3), true)).as_deref(),
            Some("value is odd")
        );
        assert_eq!(parity(&Value::Bool(true), &Value::Int(3), false), None);
        assert_eq!(
            found(parity(&Value::Bool(true), &Value::Int(2), false)).as_deref(),
            Some("value is even")
        );
        assert_eq!(multiple_of(&Value::Int(1024), &Value::Int(2048)), None);
        let f = multiple_of(&Value::Int(1024), &Value::Int(1000)).unwrap();
        assert_eq!(
            (f.expected.as_str(), f.found.as_deref()),
            ("a multiple of 1024", Some("1000 is not a multiple of 1024"))
        );
    }

    #[test]
    fn collection_rules() {
        assert_eq!(exact_len(&Value::Int(3), &s("abc")), None);
        assert_eq!(
            found(exact_len(&Value::Int(16), &s("abc"))).as_deref(),
            Some("length = 3")
        );
        let list = |xs: &[i64]| {
            Value::Array(
                xs.iter()
                    .map(|x| crate::value::Node::new(Value::Int(*x), Default::default()))
                    .collect(),
            )
        };
        assert_eq!(unique(&Value::Bool(true), &list(&[1, 2])), None);
        assert_eq!(
            found(unique(&Value::Bool(true), &list(&[1, 2, 1]))).as_deref(),
            Some("1 appears more than once")
        );
        // Equal to Starlark, so equal by the hash that finds them: an int and a float, zeros
        // of both signs, maps in another order.
        let node = |v: Value| crate::value::Node::new(v, Default::default());
        let items = |vs: Vec<Value>| Value::Array(vs.into_iter().map(node).collect());
        let map = |keys: &[&str]| {
            let entries = keys.iter().map(|k| crate::value::MapEntry {
                key: crate::value::Key::new(s(k)),
                value: node(Value::Int(1)),
            });
            Value::Map(entries.collect())
        };
        for equal in [
            vec![Value::Int(3), Value::Float(3.0)],
            vec![Value::Float(0.0), Value::Float(-0.0)],
            vec![map(&["a", "b"]), map(&["b", "a"])],
        ] {
            assert!(unique(&Value::Bool(true), &items(equal)).is_some());
        }
        let nan = vec![Value::Float(f64::NAN), Value::Float(f64::NAN)];
        assert_eq!(unique(&Value::Bool(true), &items(nan)), None);
        assert_eq!(
            found(contains(&Value::Int(5), &list(&[1]))).as_deref(),
            Some("5 not found")
        );
    }

    #[test]
    fn bad_arguments() {
        assert!(check_arg("format", &s("nope"))
            .unwrap_err()
            .starts_with("unknown format \"nope\""));
        assert!(check_arg("format", &Value::Int(1))
            .unwrap_err()
            .contains("to be a string, but was int"));
        assert!(check_arg("matches", &s("("))
            .unwrap_err()
            .contains("to be a regular expression"));
        assert!(check_arg("starts_with", &Value::Int(1)).is_err());
        assert!(check_arg("ends_with", &Value::Null).is_err());
        assert!(check_arg("contains", &Value::Array(crate::value::thin_vec![])).is_err());
        assert!(check_arg("even", &s("yes"))
            .unwrap_err()
            .contains("to be a boolean"));
        assert!(check_arg("odd", &Value::Int(1)).is_err());
        assert!(check_arg("unique", &Value::Int(1)).is_err());
        assert_eq!(
            check_arg("multiple_of", &Value::Int(0)).unwrap_err(),
            "expected keyword argument \"multiple_of\" to be non-zero"
        );
        assert!(check_arg("len", &s("3"))
            .unwrap_err()
            .contains("to be a number"));
        assert!(check_arg("len", &Value::Int(3)).is_ok());
    }
}
