//! YAML 1.1 scalar resolution, as ytt's YAML library (a go-yaml v2 fork) does it.
//!
//! Plain scalars become null, booleans (`yes`/`no`/`on`/`off`/`y`/`n` too), integers (decimal,
//! `0x`, `0o`, `0b` and leading-zero octal, with `_` separators) or floats (including integers
//! too large for 64 bits); anything else is a string. Quoted scalars are always strings.

use std::borrow::Cow;

use crate::value::Value;

/// `--strict` found a scalar whose type YAML 1.1 and YAML 1.2 disagree on.
#[derive(Debug)]
pub struct StrictError(pub String);

/// Resolves a plain (unquoted) scalar.
pub fn resolve_plain(text: &str, strict: bool) -> Result<Value, StrictError> {
    let Some(first) = text.bytes().next() else { return Ok(Value::Null) };
    // Null, booleans and numbers all start with one of these characters.
    if !(first.is_ascii_digit() || b"~nNtTfFyYoO.+-".contains(&first)) {
        return Ok(Value::Str(text.to_string()));
    }
    match text {
        "" | "~" | "null" | "Null" | "NULL" => return Ok(Value::Null),
        "true" | "True" | "TRUE" => return Ok(Value::Bool(true)),
        "false" | "False" | "FALSE" => return Ok(Value::Bool(false)),
        ".inf" | ".Inf" | ".INF" | "+.inf" | "+.Inf" | "+.INF" => return Ok(Value::Float(f64::INFINITY)),
        "-.inf" | "-.Inf" | "-.INF" => return Ok(Value::Float(f64::NEG_INFINITY)),
        ".nan" | ".NaN" | ".NAN" => return Ok(Value::Float(f64::NAN)),
        _ => {}
    }
    if let Some(b) = yaml11_bool(text) {
        if strict {
            return Err(StrictError(format!("Found '{text}' ambigious (could be !!str or !!bool)")));
        }
        return Ok(Value::Bool(b));
    }
    Ok(resolve_number(text).unwrap_or_else(|| Value::Str(text.to_string())))
}

fn yaml11_bool(text: &str) -> Option<bool> {
    match text {
        "y" | "Y" | "yes" | "Yes" | "YES" | "on" | "On" | "ON" => Some(true),
        "n" | "N" | "no" | "No" | "NO" | "off" | "Off" | "OFF" => Some(false),
        _ => None,
    }
}

fn resolve_number(text: &str) -> Option<Value> {
    let first = text.chars().next()?;
    if !(first.is_ascii_digit() || matches!(first, '+' | '-' | '.')) {
        return None;
    }
    let plain: Cow<str> = if text.contains('_') { text.replace('_', "").into() } else { text.into() };
    if let Some(i) = parse_int(&plain) {
        return Some(Value::Int(i));
    }
    if is_yaml_float(&plain) {
        if let Ok(f) = plain.parse::<f64>() {
            return Some(Value::Float(f));
        }
    }
    None
}

/// Integers as Go's `strconv.ParseInt(s, 0, 64)` reads them.
fn parse_int(s: &str) -> Option<i64> {
    let (neg, body) = match s.as_bytes().first()? {
        b'-' => (true, &s[1..]),
        b'+' => (false, &s[1..]),
        _ => (false, s),
    };
    let (radix, digits) = if let Some(d) = body.strip_prefix("0x").or_else(|| body.strip_prefix("0X")) {
        (16, d)
    } else if let Some(d) = body.strip_prefix("0b").or_else(|| body.strip_prefix("0B")) {
        (2, d)
    } else if let Some(d) = body.strip_prefix("0o").or_else(|| body.strip_prefix("0O")) {
        (8, d)
    } else if body.len() > 1 && body.starts_with('0') {
        (8, &body[1..])
    } else {
        (10, body)
    };
    if digits.is_empty() || !digits.chars().all(|c| c.is_digit(radix)) {
        return None;
    }
    let magnitude = u64::from_str_radix(digits, radix).ok()?;
    if neg {
        if magnitude <= i64::MAX as u64 + 1 {
            Some((magnitude as i128).wrapping_neg() as i64)
        } else {
            None
        }
    } else {
        i64::try_from(magnitude).ok()
    }
}

/// `^[-+]?(\.[0-9]+|[0-9]+(\.[0-9]*)?)([eE][-+]?[0-9]+)?$`
fn is_yaml_float(s: &str) -> bool {
    let b = s.as_bytes();
    let mut i = 0;
    if i < b.len() && (b[i] == b'+' || b[i] == b'-') {
        i += 1;
    }
    let digits = |i: &mut usize| {
        let start = *i;
        while *i < b.len() && b[*i].is_ascii_digit() {
            *i += 1;
        }
        *i - start
    };
    if i < b.len() && b[i] == b'.' {
        i += 1;
        if digits(&mut i) == 0 {
            return false;
        }
    } else {
        if digits(&mut i) == 0 {
            return false;
        }
        if i < b.len() && b[i] == b'.' {
            i += 1;
            digits(&mut i);
        }
    }
    if i < b.len() && (b[i] == b'e' || b[i] == b'E') {
        i += 1;
        if i < b.len() && (b[i] == b'+' || b[i] == b'-') {
            i += 1;
        }
        if digits(&mut i) == 0 {
            return false;
        }
    }
    i == b.len()
}

/// Resolves a scalar with an explicit core tag (`!!str 1`); `None` for other tags.
pub fn resolve_tagged(handle: &str, suffix: &str, text: &str) -> Option<Value> {
    let name = if handle == "!!" {
        suffix
    } else {
        suffix.strip_prefix("tag:yaml.org,2002:")?
    };
    match name {
        "str" => Some(Value::Str(text.to_string())),
        "int" => parse_int(&text.replace('_', "")).map(Value::Int),
        "float" => text.replace('_', "").parse().ok().map(Value::Float),
        "bool" => match resolve_plain(text, false) {
            Ok(v @ Value::Bool(_)) => Some(v),
            _ => None,
        },
        "null" => Some(Value::Null),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn r(s: &str) -> Value {
        resolve_plain(s, false).unwrap()
    }

    #[test]
    fn yaml_1_1_scalars() {
        assert_eq!(r("yes"), Value::Bool(true));
        assert_eq!(r("Off"), Value::Bool(false));
        assert_eq!(r("y"), Value::Bool(true));
        assert_eq!(r("~"), Value::Null);
        assert_eq!(r("12"), Value::Int(12));
        assert_eq!(r("-0x1F"), Value::Int(-31));
        assert_eq!(r("010"), Value::Int(8));
        assert_eq!(r("1_000"), Value::Int(1000));
        assert_eq!(r("1e3"), Value::Float(1000.0));
        assert_eq!(r("1.5"), Value::Float(1.5));
        assert_eq!(r("99999999999999999999999"), Value::Float(1e23));
        assert_eq!(r("1.2.3"), Value::Str("1.2.3".into()));
        assert_eq!(r("0x"), Value::Str("0x".into()));
        assert_eq!(r("-"), Value::Str("-".into()));
        assert_eq!(r("09"), Value::Float(9.0));
    }

    #[test]
    fn strict_rejects_yaml_1_1_booleans() {
        assert!(resolve_plain("on", true).is_err());
        assert_eq!(resolve_plain("true", true).unwrap(), Value::Bool(true));
    }

    #[test]
    fn tags() {
        assert_eq!(resolve_tagged("!!", "str", "1"), Some(Value::Str("1".into())));
        assert_eq!(resolve_tagged("!!", "int", "7"), Some(Value::Int(7)));
        assert_eq!(resolve_tagged("!", "custom", "7"), None);
    }
}
