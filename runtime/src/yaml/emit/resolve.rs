//! Which strings go-yaml's encoder may write plain: those its decoder (`resolve`) reads back as
//! strings. go-yaml v2 tries, in order: a table of nulls, booleans and special floats; for text
//! starting with `.`, Go's `ParseFloat`; for text starting with a digit or a sign, a timestamp,
//! then (with `_` removed) `ParseInt`, `ParseUint`, a float when the text matches
//! `^[-+]?(\.[0-9]+|[0-9]+(\.[0-9]*)?)([eE][-+]?[0-9]+)?$` and `ParseFloat` succeeds, and
//! binary numbers after `0b` or `-0b`. Everything else is a string. The encoder also quotes
//! YAML 1.1 base-60 numbers, which it reads as strings.

/// Whether go-yaml's `resolve` reads `s`, written plain, back as a string (not as a null, a
/// boolean, a number or a timestamp).
pub(super) fn resolves_to_str(s: &str) -> bool {
    let Some(first) = s.bytes().next() else {
        return false;
    };
    let numeric = matches!(first, b'+' | b'-' | b'0'..=b'9');
    if !numeric && first != b'.' && !b"yYnNtTfFoO~".contains(&first) {
        return true;
    }
    if is_special(s) {
        return false;
    }
    if first == b'.' {
        return !is_dot_float(s);
    }
    if !numeric || is_timestamp(s) {
        return !numeric;
    }
    if !s.bytes().all(|b| NUMBER_BYTES.contains(&b)) {
        // No number (`100m`, `128Mi`, `1.2.3`'s letters aside): a string, without the parses.
        return true;
    }
    let plain = s.replace('_', "");
    let float = is_yaml_float_syntax(&plain) && plain.parse::<f64>().is_ok_and(f64::is_finite);
    if go_int(&plain, 0) || float {
        return false;
    }
    // go-yaml retries binary numbers after a `0b` or `-0b` prefix with a signed base-2 parse.
    match (plain.strip_prefix("0b"), plain.strip_prefix("-0b")) {
        (Some(rest), _) => !go_int(rest, 2),
        (_, Some(rest)) => !go_int(&format!("-{rest}"), 2),
        _ => true,
    }
}

/// The bytes of the numbers go-yaml reads (Go's `ParseInt` with base prefixes `0x`, `0o`, `0b`
/// and `_` separators, YAML's floats): a text holding another is none of them.
const NUMBER_BYTES: &[u8] = b"0123456789+-._eExXoObBaAcCdDfF";

/// YAML 1.1's booleans and nulls, and the special floats: go-yaml's table of words it reads
/// as something other than a string.
pub(super) fn is_special(s: &str) -> bool {
    // (The longest word is five bytes: most words are surely no special one by their length.)
    s.len() <= 5
        && matches!(
            s,
            "y" | "Y"
                | "yes"
                | "Yes"
                | "YES"
                | "true"
                | "True"
                | "TRUE"
                | "on"
                | "On"
                | "ON"
                | "n"
                | "N"
                | "no"
                | "No"
                | "NO"
                | "false"
                | "False"
                | "FALSE"
                | "off"
                | "Off"
                | "OFF"
                | "~"
                | "null"
                | "Null"
                | "NULL"
                | ".nan"
                | ".NaN"
                | ".NAN"
                | ".inf"
                | ".Inf"
                | ".INF"
                | "+.inf"
                | "+.Inf"
                | "+.INF"
                | "-.inf"
                | "-.Inf"
                | "-.INF"
        )
}

/// Go's `ParseInt(s, radix, 64)`, or `ParseUint(s, radix, 64)` for unsigned text; radix 0 reads
/// a `0x`, `0o`, `0b` or `0` prefix. The caller has removed any `_`.
fn go_int(s: &str, radix: u32) -> bool {
    let (sign, body) = match s.as_bytes().first() {
        Some(&c @ (b'+' | b'-')) => (Some(c), &s[1..]),
        _ => (None, s),
    };
    let prefix = body.get(..2).map(|p| p.to_ascii_lowercase());
    let (radix, digits) = match prefix.as_deref() {
        _ if radix != 0 => (radix, body),
        Some("0x") if body.len() >= 3 => (16, &body[2..]),
        Some("0o") if body.len() >= 3 => (8, &body[2..]),
        Some("0b") if body.len() >= 3 => (2, &body[2..]),
        _ if body == "0" => return true,
        _ if body.starts_with('0') => (8, &body[1..]),
        _ => (10, body),
    };
    let valid = !digits.is_empty() && digits.chars().all(|c| c.is_digit(radix));
    match (
        valid
            .then(|| u64::from_str_radix(digits, radix).ok())
            .flatten(),
        sign,
    ) {
        (None, _) => false,
        (Some(_), None) => true,
        (Some(m), Some(b'-')) => m <= 1 << 63,
        (Some(m), _) => m < 1 << 63,
    }
}

/// `^[-+]?(\.[0-9]+|[0-9]+(\.[0-9]*)?)([eE][-+]?[0-9]+)?$`, go-yaml's test before it tries a
/// float: `1.`, `.5`, `1e3` and `1E+3` all qualify.
fn is_yaml_float_syntax(s: &str) -> bool {
    let digits = |t: &str| !t.is_empty() && t.bytes().all(|b| b.is_ascii_digit());
    let s = s.strip_prefix(['+', '-']).unwrap_or(s);
    let (mantissa, exponent) = s
        .split_once(['e', 'E'])
        .map_or((s, None), |(m, e)| (m, Some(e)));
    let mantissa_ok = match mantissa.split_once('.') {
        Some(("", frac)) => digits(frac),
        Some((int, frac)) => digits(int) && (frac.is_empty() || digits(frac)),
        None => digits(mantissa),
    };
    mantissa_ok && exponent.is_none_or(|e| digits(e.strip_prefix(['+', '-']).unwrap_or(e)))
}

/// Go's `strconv.ParseFloat` on text that starts with `.`: digits (single `_` allowed between
/// them), an optional exponent, and a finite value.
fn is_dot_float(s: &str) -> bool {
    let digits = |t: &str| {
        t.starts_with(|c: char| c.is_ascii_digit())
            && t.bytes().all(|c| c.is_ascii_digit() || c == b'_')
            && !t.ends_with('_')
            && !t.contains("__")
    };
    let (mantissa, exponent) = s
        .split_once(['e', 'E'])
        .map_or((s, None), |(m, e)| (m, Some(e)));
    let exponent_ok = exponent.is_none_or(|e| digits(e.strip_prefix(['+', '-']).unwrap_or(e)));
    let value = s.replace('_', "").parse::<f64>();
    digits(&mantissa[1..]) && exponent_ok && value.is_ok_and(f64::is_finite)
}

/// go-yaml's timestamps, as Go's `time.Parse` reads its layouts `2006-1-2`,
/// `2006-1-2T15:4:5.999999999Z07:00` (or with `t`) and `2006-1-2 15:4:5.999999999`: one- or
/// two-digit fields in range, a real day of the month, an optional fraction of a second.
pub(crate) fn is_timestamp(s: &str) -> bool {
    let b = s.as_bytes();
    if b.len() < 5 || !b[..4].iter().all(u8::is_ascii_digit) || b[4] != b'-' {
        return false;
    }
    let mut rest = &b[5..];
    let (Some(month @ 1..), true, Some(day @ 1..)) = (
        take_num(&mut rest, 12),
        take_lit(&mut rest, b'-'),
        take_num(&mut rest, 31),
    ) else {
        return false;
    };
    // A real day of the month, February 29 only in leap years.
    let year: i16 = s[..4].parse().unwrap_or(0);
    let real_day = jiff::civil::Date::new(year, month as i8, day as i8).is_ok();
    let zoned = match rest.first() {
        _ if !real_day => return false,
        None => return true,
        Some(b'T' | b't') => true,
        Some(b' ') => false,
        Some(_) => return false,
    };
    rest = &rest[if zoned {
        1
    } else {
        rest.iter().take_while(|&&c| c == b' ').count()
    }..];
    let time_ok = take_num(&mut rest, 23).is_some()
        && take_lit(&mut rest, b':')
        && take_num(&mut rest, 59).is_some()
        && take_lit(&mut rest, b':')
        && take_num(&mut rest, 59).is_some();
    if rest.len() >= 2 && matches!(rest[0], b'.' | b',') && rest[1].is_ascii_digit() {
        rest = &rest[1 + rest[1..].iter().take_while(|c| c.is_ascii_digit()).count()..];
    }
    let two = |p: &[u8]| take_num(&mut &p[..], 99).filter(|_| p.iter().all(u8::is_ascii_digit));
    let zone_ok = match rest {
        [] => !zoned,
        [b'Z'] => zoned,
        [b'+' | b'-', h @ .., b':', _, _] if h.len() == 2 => {
            zoned && two(h).is_some_and(|h| h <= 24) && two(&rest[4..]).is_some_and(|m| m <= 60)
        }
        _ => false,
    };
    time_ok && zone_ok
}

/// Reads a one- or two-digit number no larger than `max` (Go's `getnum`).
fn take_num(rest: &mut &[u8], max: u32) -> Option<u32> {
    let n = rest
        .iter()
        .take(2)
        .take_while(|c| c.is_ascii_digit())
        .count();
    let value = rest[..n]
        .iter()
        .fold(0, |acc, c| acc * 10 + u32::from(c - b'0'));
    *rest = &rest[n..];
    (n > 0 && value <= max).then_some(value)
}

fn take_lit(rest: &mut &[u8], lit: u8) -> bool {
    let found = rest.first() == Some(&lit);
    *rest = &rest[usize::from(found)..];
    found
}

/// YAML 1.1 base-60 numbers (`1:30`, `-2:10:05.5`), which go-yaml quotes for other parsers.
pub(super) fn is_base60_float(s: &str) -> bool {
    let body = s.strip_prefix(['+', '-']).unwrap_or(s);
    if !body.starts_with(|c: char| c.is_ascii_digit()) || !body.contains(':') {
        return false;
    }
    let (main, frac) = body.split_once('.').unwrap_or((body, ""));
    let mut parts = main.split(':');
    let digits_ok = |t: &str| t.bytes().all(|c| c.is_ascii_digit() || c == b'_');
    let head_ok = parts.next().is_some_and(digits_ok);
    let sexagesimal_ok = parts.all(|p| match p.as_bytes() {
        [d] => d.is_ascii_digit(),
        [t, d] => (b'0'..=b'5').contains(t) && d.is_ascii_digit(),
        _ => false,
    });
    head_ok && sexagesimal_ok && digits_ok(frac)
}
