//! Numbers read from text as ytt's starlark-go reads them: `int(s, base)` (its own prefix and
//! sign rules, then Go's `big.Int.SetString`) and `float(s)` (Go's `strconv.ParseFloat`),
//! and a float made an int ([`float_to_int`]).

use num_bigint::BigInt;

/// The finite float `f` truncated to an int as starlark-go's `finiteFloatToInt` does: within
/// int64's bounds compared as floats (`f <= float64(math.MaxInt64)`, which is 2^63) it is
/// Go's `int64(f)`, so 2^63 itself overflows to -2^63 as amd64 converts it
/// (`int(9223372036854775807.0)` is `-9223372036854775808` in ytt); beyond them exact.
pub(super) fn float_to_int(f: f64) -> BigInt {
    if f == 2f64.powi(63) {
        return BigInt::from(i64::MIN);
    }
    <BigInt as num_traits::FromPrimitive>::from_f64(f.trunc()).unwrap_or_default()
}

/// The digits of `text` read by `int(text, base)` (`base` 0 for a base taken from the prefix):
/// whether the number is negative, its digits without sign or prefix and the base they are in,
/// or starlark-go's error (`int: invalid literal with base 10: 0x`).
pub(super) fn int_digits(text: &str, base: u32) -> Result<(bool, &str, u32), String> {
    let invalid = |b: u32| format!("int: invalid literal with base {b}: {text}");
    let (negative, mut s) = match text.as_bytes().first() {
        Some(b'+') => (false, &text[1..]),
        Some(b'-') => (true, &text[1..]),
        _ => (false, text),
    };
    let mut prefix_base = 0;
    let bytes = s.as_bytes();
    if bytes.len() > 1 && bytes[0] == b'0' {
        if bytes.len() > 2 {
            prefix_base = match bytes[1].to_ascii_lowercase() {
                b'o' => 8,
                b'x' => 16,
                b'b' => 2,
                _ => 0,
            };
            if prefix_base != 0 {
                s = &s[2..];
            }
        }
        // With the base taken from the text, a leading zero is only allowed in zeros (`int("0755",
        // 0)` is refused).
        if prefix_base == 0 && base == 0 {
            return match bytes[1..].iter().all(|&c| c == b'0') {
                true => Ok((false, "0", 10)),
                false => Err(invalid(0)),
            };
        }
        if base != 0 && prefix_base != 0 && prefix_base != base {
            return Err(invalid(base));
        }
    }
    let base = match (base, prefix_base) {
        (0, 0) => 10,
        (0, p) => p,
        (b, _) => b,
    };
    // Go's `SetString` with a base: ASCII digits of that base, no sign, no underscore.
    let digit = |c: char| c.to_digit(36).is_some_and(|d| d < base);
    if s.is_empty() || !s.chars().all(digit) {
        return Err(invalid(base));
    }
    Ok((negative, s, base))
}

/// `float(text)` as Go's `strconv.ParseFloat(text, 64)` reads it (underscores between digits,
/// hexadecimal mantissas with a `p` exponent, `inf`/`infinity` with a sign, `nan` without),
/// or starlark-go's error.
pub(super) fn parse_float(text: &str) -> Result<f64, String> {
    let error = |why: &str| {
        format!(
            "float: strconv.ParseFloat: parsing {}: {why}",
            super::go_quote(text)
        )
    };
    let unsigned = text.strip_prefix(['+', '-']).unwrap_or(text);
    let special = unsigned.to_ascii_lowercase();
    if special == "inf" || special == "infinity" || text.eq_ignore_ascii_case("nan") {
        return text.parse().map_err(|_| error("invalid syntax"));
    }
    if !float_syntax(text) {
        return Err(error("invalid syntax"));
    }
    let plain: String = text.chars().filter(|&c| c != '_').collect();
    let negative = plain.starts_with('-');
    let body = plain.trim_start_matches(['+', '-']);
    let value = match body.get(..2).map(str::to_ascii_lowercase).as_deref() {
        Some("0x") => hex_float(&body[2..]),
        _ => body.parse().map_err(|_| error("invalid syntax"))?,
    };
    if value.is_infinite() {
        return Err(error("value out of range"));
    }
    Ok(if negative { -value } else { value })
}

/// Whether `text` is a number as Go's `readFloat` reads it, underscores placed as
/// `underscoreOK` allows.
fn float_syntax(text: &str) -> bool {
    let b = text.as_bytes();
    let mut i = usize::from(matches!(b.first(), Some(b'+' | b'-')));
    let hex = b.len() > i + 2 && b[i] == b'0' && b[i + 1].eq_ignore_ascii_case(&b'x');
    if hex {
        i += 2;
    }
    let is_digit = |c: u8| c.is_ascii_digit() || (hex && c.is_ascii_hexdigit());
    let (mut dot, mut digits) = (false, false);
    while i < b.len() {
        match b[i] {
            b'_' => {}
            b'.' if !dot => dot = true,
            c if is_digit(c) => digits = true,
            _ => break,
        }
        i += 1;
    }
    if !digits {
        return false;
    }
    let exponent = if hex { b'p' } else { b'e' };
    if i < b.len() && b[i].to_ascii_lowercase() == exponent {
        i += 1;
        if matches!(b.get(i), Some(b'+' | b'-')) {
            i += 1;
        }
        if !b.get(i).is_some_and(u8::is_ascii_digit) {
            return false;
        }
        while i < b.len() && (b[i].is_ascii_digit() || b[i] == b'_') {
            i += 1;
        }
    } else if hex {
        return false;
    }
    i == b.len() && underscores_ok(text, hex)
}

/// Go's `underscoreOK`: every underscore between digits (or after a base prefix).
fn underscores_ok(text: &str, hex: bool) -> bool {
    let s = text.trim_start_matches(['+', '-']).as_bytes();
    let (mut saw, mut i) = (b'^', 0);
    if hex {
        (saw, i) = (b'0', 2);
    }
    for &c in &s[i..] {
        if c.is_ascii_digit() || (hex && c.is_ascii_hexdigit()) {
            saw = b'0';
        } else if c == b'_' {
            if saw != b'0' {
                return false;
            }
            saw = b'_';
        } else if saw == b'_' {
            return false;
        } else {
            saw = b'!';
        }
    }
    saw != b'_'
}

/// The value of a hexadecimal float `MANTISSA[.FRACTION]pEXP` (after its `0x`), checked by
/// [`float_syntax`], underscores removed.
fn hex_float(s: &str) -> f64 {
    let (mantissa, exp) = s.split_once(['p', 'P']).unwrap_or((s, "0"));
    let mut exp: i64 = exp.parse().unwrap_or(if exp.starts_with('-') {
        i64::MIN / 2
    } else {
        i64::MAX / 2
    });
    let (mut m, mut sticky) = (0u128, false);
    let mut fraction = false;
    for c in mantissa.chars() {
        if c == '.' {
            fraction = true;
            continue;
        }
        let d = c.to_digit(16).unwrap_or(0) as u128;
        if m >> 120 == 0 {
            m = m * 16 + d;
            if fraction {
                exp = exp.saturating_sub(4);
            }
        } else {
            sticky |= d != 0;
            if !fraction {
                exp = exp.saturating_add(4);
            }
        }
    }
    let m = m | u128::from(sticky);
    let mut value = m as f64;
    // Scale by powers of two in steps that stay finite and exact.
    while exp > 0 && value.is_finite() && value != 0.0 {
        let step = exp.min(1000);
        value *= 2f64.powi(step as i32);
        exp -= step;
    }
    while exp < 0 && value != 0.0 {
        let step = (-exp).min(1000);
        value /= 2f64.powi(step as i32);
        exp += step;
    }
    value
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ints_as_starlark_go_reads_them() {
        assert_eq!(int_digits("0x1f", 0), Ok((false, "1f", 16)));
        assert_eq!(int_digits("-0b101", 0), Ok((true, "101", 2)));
        assert_eq!(int_digits("000", 0), Ok((false, "0", 10)));
        for (text, base, b) in [
            ("0X1F", 10, 10),
            ("0_1", 10, 10),
            ("08", 0, 0),
            ("0x", 0, 0),
            ("0x", 16, 16),
            ("0b2", 0, 2),
            ("-", 10, 10),
            ("+-1", 10, 10),
            (" 3 ", 10, 10),
            ("1_000", 10, 10),
        ] {
            assert_eq!(
                int_digits(text, base),
                Err(format!("int: invalid literal with base {b}: {text}"))
            );
        }
    }

    #[test]
    fn floats_as_go_parses_them() {
        assert_eq!(parse_float("1_0.5"), Ok(10.5));
        assert_eq!(parse_float("0_1"), Ok(1.0));
        assert_eq!(parse_float("0x1p3"), Ok(8.0));
        assert_eq!(parse_float("0x1.8p1"), Ok(3.0));
        assert_eq!(parse_float("0x_1p0"), Ok(1.0));
        assert_eq!(parse_float("-.5e1"), Ok(-5.0));
        assert_eq!(parse_float("1e-400"), Ok(0.0));
        assert!(parse_float("-Infinity").unwrap().is_infinite());
        for bad in [
            "+nan", "1_e5", "_1", "1_", "0x1", " 1.5", "1e", "e1", ".", "0x.p1",
        ] {
            assert!(
                parse_float(bad).unwrap_err().ends_with("invalid syntax"),
                "{bad}"
            );
        }
        assert!(parse_float("1e400")
            .unwrap_err()
            .ends_with("value out of range"));
    }
}
