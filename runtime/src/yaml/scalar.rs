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

/// Resolves a plain (unquoted) scalar; with `strict`, refuses it as ytt's `--strict` does.
pub fn resolve_plain(text: &str, strict: bool) -> Result<Value, StrictError> {
    let value = resolve_yaml11(text);
    if strict {
        check_strict(text, &value)?;
    }
    Ok(value)
}

/// ytt's `--strict` (its YAML fork's `strictScalarResolve`): a plain scalar's type as YAML 1.1
/// reads it (`value`, or a timestamp) must be the one a conservative reading gives, which takes
/// only JSON's forms for null (an empty value), booleans and numbers (an integer past 64 bits
/// or a float past Go's range is an error there) and refuses strings holding whitespace
/// (Unicode's), a colon or `---`.
fn check_strict(text: &str, value: &Value) -> Result<(), StrictError> {
    let native = match value {
        Value::Null => "null",
        Value::Bool(_) => "bool",
        Value::Int(_) | Value::UInt(_) => "int",
        Value::Float(_) => "float",
        _ if crate::yaml::emit::is_timestamp(text) => "timestamp",
        _ => "str",
    };
    let conservative = conservative_tag(text)?;
    if conservative != native {
        return Err(StrictError(format!(
            "Found '{text}' ambigious (could be !!{conservative} or !!{native})"
        )));
    }
    Ok(())
}

/// The type ytt's conservative reading gives the plain scalar `text`, or its error.
fn conservative_tag(text: &str) -> Result<&'static str, StrictError> {
    match text {
        "" => return Ok("null"),
        "true" | "false" => return Ok("bool"),
        _ => {}
    }
    let digits = text.strip_prefix('-').unwrap_or(text);
    let decimal = digits.bytes().all(|b| b.is_ascii_digit())
        && (digits == "0"
            || digits
                .bytes()
                .next()
                .is_some_and(|b| (b'1'..=b'9').contains(&b)));
    if decimal {
        // Go's `ParseInt`, then `ParseUint`, whose error is the one shown.
        if text.parse::<i64>().is_ok() || text.parse::<u64>().is_ok() {
            return Ok("int");
        }
        let why = match text.starts_with('-') {
            true => "invalid syntax",
            false => "value out of range",
        };
        return Err(StrictError(format!(
            "Parsing int '{text}': strconv.ParseUint: parsing \"{text}\": {why}"
        )));
    }
    if is_json_number(text) {
        return match text.parse::<f64>() {
            Ok(f) if f.is_finite() => Ok("float"),
            _ => Err(StrictError(format!(
                "Parsing float '{text}': strconv.ParseFloat: parsing \"{text}\": value out of range"
            ))),
        };
    }
    // Go's `unicode.IsSpace` is Unicode's White_Space, as `char::is_whitespace`.
    if text.contains(char::is_whitespace) {
        Err(StrictError(format!(
            "Strings with whitespace must be explicitly quoted: '{text}'"
        )))
    } else if text.contains(':') {
        Err(StrictError(format!(
            "Strings with colon must be explicitly quoted: '{text}'"
        )))
    } else if text.contains("---") {
        // ytt's guard against a document start missing its line break (`a: b---`).
        Err(StrictError(format!(
            "Strings with triple-dash must be explicitly quoted: '{text}'"
        )))
    } else {
        Ok("str")
    }
}

/// A number as JSON writes it: `-?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][-+]?[0-9]+)?`.
fn is_json_number(text: &str) -> bool {
    let b = text.strip_prefix('-').unwrap_or(text).as_bytes();
    let digits = |b: &[u8]| b.iter().take_while(|c| c.is_ascii_digit()).count();
    let int = digits(b);
    if int == 0 || (int > 1 && b[0] == b'0') {
        return false;
    }
    let mut rest = &b[int..];
    if let Some(r) = rest.strip_prefix(b".") {
        let n = digits(r);
        if n == 0 {
            return false;
        }
        rest = &r[n..];
    }
    if let Some(r) = rest.strip_prefix(b"e").or_else(|| rest.strip_prefix(b"E")) {
        let r = r
            .strip_prefix(b"-")
            .or_else(|| r.strip_prefix(b"+"))
            .unwrap_or(r);
        let n = digits(r);
        if n == 0 {
            return false;
        }
        rest = &r[n..];
    }
    rest.is_empty()
}

/// Resolves a plain scalar as go-yaml does (YAML 1.1 booleans, ints in every base...).
fn resolve_yaml11(text: &str) -> Value {
    let Some(first) = text.bytes().next() else {
        return Value::Null;
    };
    // Null, booleans and numbers all start with one of these characters.
    if !(first.is_ascii_digit() || b"~nNtTfFyYoO.+-".contains(&first)) {
        return Value::Str(text.into());
    }
    match text {
        "" | "~" | "null" | "Null" | "NULL" => return Value::Null,
        "true" | "True" | "TRUE" => return Value::Bool(true),
        "false" | "False" | "FALSE" => return Value::Bool(false),
        ".inf" | ".Inf" | ".INF" | "+.inf" | "+.Inf" | "+.INF" => {
            return Value::Float(f64::INFINITY)
        }
        "-.inf" | "-.Inf" | "-.INF" => return Value::Float(f64::NEG_INFINITY),
        ".nan" | ".NaN" | ".NAN" => return Value::Float(f64::NAN),
        _ => {}
    }
    if let Some(b) = yaml11_bool(text) {
        return Value::Bool(b);
    }
    resolve_number(text).unwrap_or_else(|| Value::Str(text.into()))
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
    // A text led by `.` is read by Go's `ParseFloat` as it is, which takes an underscore only
    // between digits (`.1_0` is 0.1, `._1` a string); the others lose their underscores first.
    if first == '.' && text.contains('_') && !go_underscores_ok(text) {
        return None;
    }
    let plain: Cow<str> = if text.contains('_') {
        text.replace('_', "").into()
    } else {
        text.into()
    };
    if let Some(i) = parse_int(&plain) {
        return Some(i);
    }
    if is_yaml_float(&plain) {
        // Go's `ParseFloat` fails on a value out of range (`1e400`), which then stays a string.
        if let Some(f) = plain.parse::<f64>().ok().filter(|f| f.is_finite()) {
            return Some(Value::Float(f));
        }
    }
    None
}

/// Go's `underscoreOK` for a decimal number: each underscore between two digits.
fn go_underscores_ok(s: &str) -> bool {
    let b = s.as_bytes();
    let digit = |i: Option<usize>| i.and_then(|i| b.get(i)).is_some_and(u8::is_ascii_digit);
    (0..b.len()).all(|i| b[i] != b'_' || (digit(i.checked_sub(1)) && digit(Some(i + 1))))
}

/// Integers as go-yaml reads them: Go's `strconv.ParseInt(s, 0, 64)`, then (for an integer in
/// [2^63, 2^64) written without a sign) `strconv.ParseUint(s, 0, 64)`.
fn parse_int(s: &str) -> Option<Value> {
    let (neg, body) = match s.as_bytes().first()? {
        b'-' => (true, &s[1..]),
        b'+' => (false, &s[1..]),
        _ => (false, s),
    };
    let (radix, digits) =
        if let Some(d) = body.strip_prefix("0x").or_else(|| body.strip_prefix("0X")) {
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
    match (neg, i64::try_from(magnitude)) {
        (true, _) if magnitude <= i64::MAX as u64 + 1 => {
            Some(Value::Int((magnitude as i128).wrapping_neg() as i64))
        }
        (true, _) => None,
        (false, Ok(i)) => Some(Value::Int(i)),
        (false, Err(_)) if !s.starts_with('+') => Some(Value::UInt(magnitude)),
        (false, Err(_)) => None,
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

/// Resolves a scalar with an explicit tag as ytt's go-yaml v2 fork does: `!!str` keeps the text,
/// `!!binary` decodes base64, the other core tags (`!!int`, `!!float`, `!!bool`, `!!null`,
/// `!!timestamp`) resolve the text as a plain scalar — quoted or not — and must agree with it
/// (an int within 63 bits is accepted as a float); any other tag (`!foo`, `!!merge`) keeps the text. `Err` is
/// go-yaml's message (ytt prints it without a line).
pub fn resolve_tagged(handle: &str, suffix: &str, text: &str) -> Result<Value, String> {
    let full = format!("{handle}{suffix}");
    let core = if handle == "!!" {
        Some(suffix)
    } else {
        full.strip_prefix("tag:yaml.org,2002:")
    };
    let wanted = match core {
        Some(name @ ("int" | "float" | "bool" | "null" | "timestamp")) => name,
        Some("binary") => return decode_binary(text),
        _ => return Ok(Value::Str(text.into())),
    };
    let resolved = resolve_plain(text, false).unwrap_or_else(|_| Value::Str(text.into()));
    let found = match &resolved {
        Value::Null => "null",
        Value::Bool(_) => "bool",
        Value::Int(_) | Value::UInt(_) => "int",
        Value::Float(_) => "float",
        _ if wanted == "timestamp" && is_timestamp(text) => return Ok(Value::Str(text.into())),
        _ => "str",
    };
    match (wanted, resolved) {
        (w, v) if w == found => Ok(v),
        // go-yaml's float takes an int, not an int past 63 bits (its `uint64`).
        ("float", Value::Int(i)) => Ok(Value::Float(i as f64)),
        _ => Err(format!("cannot decode !!{found} `{text}` as a !!{wanted}")),
    }
}

fn decode_binary(text: &str) -> Result<Value, String> {
    // go-yaml decodes with Go's `base64.StdEncoding`: line breaks skipped, the bits after the
    // last byte ignored.
    let bytes = crate::go_base64::decode(text.as_bytes(), &crate::go_base64::Base64::default())
        .map_err(|_| "!!binary value contains invalid base64 data".to_string())?;
    // A Go string holds any bytes: ones that are no UTF-8 stay bytes (written back `!!binary`).
    Ok(match String::from_utf8(bytes) {
        Ok(text) => Value::Str(text.into()),
        Err(e) => Value::Bytes(e.into_bytes().into()),
    })
}

/// A YAML timestamp as go-yaml v2 accepts one: `2001-12-14`, optionally followed by a time
/// (`T`, `t` or spaces, `h:m:s`, fraction, `Z` or an offset).
fn is_timestamp(text: &str) -> bool {
    let b = text.as_bytes();
    let digits = |from: usize, min: usize, max: usize| -> Option<usize> {
        let n = b[from.min(b.len())..]
            .iter()
            .take_while(|c| c.is_ascii_digit())
            .count();
        (min..=max).contains(&n).then_some(from + n)
    };
    let Some(i) = digits(0, 4, 4) else {
        return false;
    };
    if b.get(i) != Some(&b'-') {
        return false;
    }
    let Some(j) = digits(i + 1, 1, 2) else {
        return false;
    };
    if b.get(j) != Some(&b'-') {
        return false;
    }
    let Some(k) = digits(j + 1, 1, 2) else {
        return false;
    };
    let (year, month, day): (i32, u32, u32) = (
        text[..i].parse().unwrap_or(0),
        text[i + 1..j].parse().unwrap_or(0),
        text[j + 1..k].parse().unwrap_or(0),
    );
    let leap = year % 4 == 0 && (year % 100 != 0 || year % 400 == 0);
    let days = [
        31,
        if leap { 29 } else { 28 },
        31,
        30,
        31,
        30,
        31,
        31,
        30,
        31,
        30,
        31,
    ];
    if !(1..=12).contains(&month) || day == 0 || day > days[month as usize - 1] {
        return false;
    }
    if k == b.len() {
        return true;
    }
    // A time part: `T`/`t` or blanks, then `h:m:s`, then an optional fraction and zone.
    let mut t = k;
    if matches!(b[t], b'T' | b't') {
        t += 1;
    } else {
        while t < b.len() && matches!(b[t], b' ' | b'\t') {
            t += 1;
        }
        if t == k {
            return false;
        }
    }
    let Some(h) = digits(t, 1, 2) else {
        return false;
    };
    if b.get(h) != Some(&b':') {
        return false;
    }
    let Some(m) = digits(h + 1, 1, 2) else {
        return false;
    };
    if b.get(m) != Some(&b':') {
        return false;
    }
    let Some(mut s) = digits(m + 1, 1, 2) else {
        return false;
    };
    if b.get(s) == Some(&b'.') {
        s = digits(s + 1, 0, usize::MAX).unwrap_or(s + 1);
    }
    let zone = text[s..].trim_start();
    zone.is_empty() || zone == "Z" || {
        let z = zone.as_bytes();
        matches!(z[0], b'+' | b'-') && {
            let hh = z[1..].iter().take_while(|c| c.is_ascii_digit()).count();
            (1..=2).contains(&hh)
                && (z.len() == 1 + hh
                    || (z.get(1 + hh) == Some(&b':')
                        && z.len() == 4 + hh
                        && z[2 + hh..].iter().all(u8::is_ascii_digit)))
        }
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
        // go-yaml's uint64: unsigned, in [2^63, 2^64); signed or larger, a float.
        assert_eq!(r("0x8000000000000000"), Value::UInt(1 << 63));
        assert_eq!(r("18446744073709551615"), Value::UInt(u64::MAX));
        assert_eq!(
            r("+9223372036854775808"),
            Value::Float(9223372036854775808.0)
        );
        assert_eq!(r("-9223372036854775808"), Value::Int(i64::MIN));
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
        // What ytt reads (recorded with the oracle, `tests/cases/yaml-tags`).
        let ok = |h, s, t| resolve_tagged(h, s, t).unwrap();
        assert_eq!(ok("!!", "str", "1"), Value::Str("1".into()));
        assert_eq!(ok("tag:yaml.org,2002:", "int", "80"), Value::Int(80));
        assert_eq!(ok("!", "custom", "7"), Value::Str("7".into()));
        assert_eq!(ok("!!", "float", "1"), Value::Float(1.0));
        assert_eq!(ok("!!", "bool", "y"), Value::Bool(true));
        assert_eq!(ok("!!", "null", ""), Value::Null);
        assert_eq!(ok("!!", "binary", "aGVsbG8="), Value::Str("hello".into()));
        assert_eq!(
            ok("!!", "timestamp", "2001-1-2 10:00:00.5 +01:00"),
            Value::Str("2001-1-2 10:00:00.5 +01:00".into())
        );
        assert_eq!(
            resolve_tagged("!!", "int", "1.5").unwrap_err(),
            "cannot decode !!float `1.5` as a !!int"
        );
        assert_eq!(
            resolve_tagged("!!", "null", "x").unwrap_err(),
            "cannot decode !!str `x` as a !!null"
        );
        assert_eq!(
            resolve_tagged("!!", "timestamp", "2001-02-30").unwrap_err(),
            "cannot decode !!str `2001-02-30` as a !!timestamp"
        );
        assert!(resolve_tagged("!!", "binary", "!!!").is_err());
    }
}
