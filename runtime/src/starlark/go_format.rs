//! `FMT % ARGS` and `FMT.format(...)` as starlark-go (which ytt embeds) has them, where the
//! `starlark` crate's differ: floats written as Go writes them (`%s` of `1e23` is `1e+23`,
//! `%g` of `1.0` is `1`, infinities `+Inf`), `%d`/`%o`/`%x`/`%X` of a float truncated to an
//! integer of any size, `%c` and `%(key)s`, no format spec in `{...}`, and starlark-go's
//! error messages.

use num_bigint::BigInt;
use starlark::values::dict::DictRef;
use starlark::values::float::{StarlarkFloat, UnpackFloat};
use starlark::values::tuple::TupleRef;
use starlark::values::{UnpackValue, Value, ValueLike};

use super::try_go_repr;

/// `fmt % x`: `x` is the only argument, or a tuple of them, or a dict that `%(key)s` reads.
/// starlark-go's strings are bytes (UTF-8 or not, see [`super::go_bytes`]): so is the result.
pub(super) fn interpolate(fmt: &[u8], x: Value) -> anyhow::Result<Vec<u8>> {
    let tuple = TupleRef::from_value(x);
    let nargs = tuple.map_or(1, |t| t.len());
    let mut out = Vec::with_capacity(fmt.len());
    let mut rest = fmt;
    let mut index = 0;
    while let Some(i) = rest.iter().position(|&b| b == b'%') {
        out.extend_from_slice(&rest[..i]);
        rest = &rest[i + 1..];
        if let Some(after) = rest.strip_prefix(b"%") {
            out.push(b'%');
            rest = after;
            continue;
        }
        let arg = if let Some(after) = rest.strip_prefix(b"(") {
            let Some(close) = after.iter().position(|&b| b == b')') else {
                anyhow::bail!("incomplete format key");
            };
            let key = String::from_utf8_lossy(&after[..close]);
            let Some(v) = mapping_get(x, &key)? else {
                anyhow::bail!("key not found: {key}");
            };
            rest = &after[close + 1..];
            v
        } else {
            if index >= nargs {
                anyhow::bail!("not enough arguments for format string");
            }
            tuple.map_or(x, |t| t.content()[index])
        };
        let Some(&c) = rest.first() else {
            anyhow::bail!("incomplete format");
        };
        match c {
            b's' | b'r' => match super::go_bytes::string_bytes(arg) {
                Some(s) if c == b's' => out.extend_from_slice(s),
                _ => out.extend_from_slice(try_go_repr(arg)?.as_bytes()),
            },
            b'd' | b'i' | b'o' | b'x' | b'X' => {
                let i = number_to_int(arg)
                    .map_err(|e| anyhow::anyhow!("%{} format requires integer: {e}", c as char))?;
                let text = match c {
                    b'o' => format!("{i:o}"),
                    b'x' => format!("{i:x}"),
                    b'X' => format!("{i:X}"),
                    _ => i.to_string(),
                };
                out.extend_from_slice(text.as_bytes());
            }
            b'e' | b'f' | b'g' | b'E' | b'F' | b'G' => {
                let Some(f) = as_float(arg) else {
                    anyhow::bail!(
                        "%{} format requires float, not {}",
                        c as char,
                        arg.get_type()
                    );
                };
                out.extend_from_slice(go_fmt_float(f, c).as_bytes());
            }
            b'c' => out.extend_from_slice(code_point(arg)?.encode_utf8(&mut [0; 4]).as_bytes()),
            b'%' => out.push(b'%'),
            // Go writes the byte as a character of its own (`%é` names `Ã`, its first byte).
            other => anyhow::bail!("unknown conversion %{}", other as char),
        }
        // Every conversion that does not fail is one ASCII byte.
        rest = &rest[1..];
        index += 1;
    }
    out.extend_from_slice(rest);
    if index < nargs {
        anyhow::bail!("too many arguments for format string");
    }
    Ok(out)
}

/// `fmt.format(*args, **kwargs)`: `{}`, `{N}` and `{name}` fields, each with an optional
/// `!s` or `!r` conversion; `{{` and `}}` stand for braces. The result is bytes, as
/// [`interpolate`]'s.
pub(super) fn format<'v>(
    fmt: &[u8],
    args: &[Value<'v>],
    kwargs: &[(&str, Value<'v>)],
) -> anyhow::Result<Vec<u8>> {
    let (mut auto, mut manual) = (false, false);
    let mut index = 0;
    let mut out = Vec::with_capacity(fmt.len());
    let mut rest = fmt;
    let find = |text: &[u8], b: u8| memchr::memchr(b, text);
    loop {
        let open = find(rest, b'{');
        let mut literal = &rest[..open.unwrap_or(rest.len())];
        while let Some(j) = find(literal, b'}') {
            if literal.get(j + 1) != Some(&b'}') {
                anyhow::bail!("format: single '}}' in format");
            }
            out.extend_from_slice(&literal[..=j]);
            literal = &literal[j + 2..];
        }
        out.extend_from_slice(literal);
        let Some(open) = open else { break };
        if let Some(after) = rest[open + 1..].strip_prefix(b"{") {
            out.push(b'{');
            rest = after;
            continue;
        }
        rest = &rest[open + 1..];
        let Some(close) = find(rest, b'}') else {
            anyhow::bail!("format: unmatched '{{' in format");
        };
        // A field's text is read as UTF-8 (a byte that is not names no argument).
        let field = String::from_utf8_lossy(&rest[..close]);
        let field = field.as_ref();
        rest = &rest[close + 1..];
        // `name`, `name:spec`, `name!conv` or `name!conv:spec`.
        let (name, conv, spec) = match field.split_once('!') {
            None => {
                let (name, spec) = field.split_once(':').unwrap_or((field, ""));
                (name, "s", spec)
            }
            Some((name, conv)) => {
                let (conv, spec) = conv.split_once(':').unwrap_or((conv, ""));
                (name, conv, spec)
            }
        };
        let arg = if name.is_empty() {
            if manual {
                anyhow::bail!("format: cannot switch from manual field specification to automatic field numbering");
            }
            auto = true;
            index += 1;
            args.get(index - 1).copied()
        } else if let Some(n) = decimal(name) {
            if auto {
                anyhow::bail!("format: cannot switch from automatic field numbering to manual field specification");
            }
            manual = true;
            args.get(n).copied()
        } else {
            let found = kwargs.iter().find(|(k, _)| *k == name).map(|(_, v)| *v);
            if found.is_none() {
                if name.contains('.') {
                    anyhow::bail!("format: attribute syntax x.y is not supported in replacement fields: {name}");
                }
                if name.contains('[') {
                    anyhow::bail!("format: element syntax a[i] is not supported in replacement fields: {name}");
                }
                if name.contains('{') {
                    anyhow::bail!("format: nested replacement fields not supported");
                }
                anyhow::bail!("format: keyword {name} not found");
            }
            found
        };
        let Some(arg) = arg else {
            anyhow::bail!("format: tuple index out of range");
        };
        if !spec.is_empty() {
            anyhow::bail!("format spec features not supported in replacement fields: {spec}");
        }
        match (conv, super::go_bytes::string_bytes(arg)) {
            ("s", Some(s)) => out.extend_from_slice(s),
            ("s" | "r", _) => out.extend_from_slice(try_go_repr(arg)?.as_bytes()),
            (other, _) => anyhow::bail!("format: unknown conversion {}", super::go_quote(other)),
        }
    }
    Ok(out)
}

/// `x[key]` of a mapping (a dict or, as in ytt, a struct), `None` when the key is missing.
fn mapping_get<'v>(x: Value<'v>, key: &str) -> anyhow::Result<Option<Value<'v>>> {
    if let Some(dict) = DictRef::from_value(x) {
        return Ok(dict.get_str(key));
    }
    let Some(fields) = super::ytt_struct::fields(x) else {
        anyhow::bail!("format requires a mapping");
    };
    let found = fields.into_iter().find(|(name, _)| *name == key.as_bytes());
    Ok(found.map(|(_, v)| v))
}

/// A field name of decimal digits only, as an index (none past `usize`).
fn decimal(s: &str) -> Option<usize> {
    if !s.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    s.parse().ok()
}

/// An int or a float (not a bool) as a float.
pub(super) fn as_float(v: Value) -> Option<f64> {
    if v.unpack_bool().is_some() {
        return None;
    }
    UnpackFloat::unpack_value(v).ok().flatten().map(|f| f.0)
}

/// An int, or a float truncated to an int of any size, as starlark-go's `NumberToInt`.
fn number_to_int(v: Value) -> Result<BigInt, String> {
    if let Some(f) = v.downcast_ref::<StarlarkFloat>() {
        let f = f.0;
        if f.is_nan() {
            return Err("cannot convert float NaN to integer".into());
        }
        if f.is_infinite() {
            return Err("cannot convert float infinity to integer".into());
        }
        return Ok(super::go_numbers::float_to_int(f));
    }
    if v.get_type() == "int" {
        if let Some(i) = BigInt::parse_bytes(v.to_str().as_bytes(), 10) {
            return Ok(i);
        }
    }
    Err(format!("cannot convert {} to int", super::go_type(v)))
}

/// The character of `%c`: an int code point, or a string of one character.
fn code_point(v: Value) -> anyhow::Result<char> {
    if let Some(s) = v.unpack_str() {
        let mut chars = s.chars();
        return match (chars.next(), chars.next()) {
            (Some(c), None) => Ok(c),
            _ => anyhow::bail!("%c format requires a single-character string"),
        };
    }
    if v.get_type() != "int" {
        anyhow::bail!(
            "%c format requires int or single-character string, not {}",
            v.get_type()
        );
    }
    match i32::unpack_value(v).ok().flatten() {
        // Go writes a surrogate half as U+FFFD.
        Some(i @ 0..=0x10ffff) => Ok(char::from_u32(i as u32).unwrap_or('\u{fffd}')),
        _ => anyhow::bail!(
            "%c format requires a valid Unicode code point, got {}",
            v.to_str()
        ),
    }
}

/// A float as Go's `fmt` writes it with the verb `verb` (`e`, `f`, `g` or their capitals):
/// six digits after the point for `e` and `f`, the shortest digits for `g`; infinities and
/// NaN as `+Inf`, `-Inf` and `NaN` whatever the verb.
fn go_fmt_float(f: f64, verb: u8) -> String {
    use crate::yaml::emit::{go_exponent, split_exponent};
    if !f.is_finite() {
        // `NaN`, `+Inf`, `-Inf`, as starlark-go writes them anyway.
        return crate::rules::float_repr(f);
    }
    let text = match verb.to_ascii_lowercase() {
        b'e' => {
            let sci = format!("{f:.6e}");
            let (mantissa, exp) = split_exponent(&sci);
            go_exponent(mantissa, exp, 2)
        }
        b'f' => format!("{f:.6}"),
        _ => crate::yaml::emit::go_float_text(f, -4..6, 2),
    };
    if verb.is_ascii_uppercase() {
        text.to_ascii_uppercase()
    } else {
        text
    }
}

#[cfg(test)]
mod tests {
    use super::go_fmt_float;

    #[test]
    fn floats_as_go_writes_them() {
        assert_eq!(go_fmt_float(1e23, b'g'), "1e+23");
        assert_eq!(go_fmt_float(1e23, b'G'), "1E+23");
        assert_eq!(go_fmt_float(1e23, b'e'), "1.000000e+23");
        assert_eq!(go_fmt_float(-0.0, b'e'), "-0.000000e+00");
        assert_eq!(go_fmt_float(5e-324, b'e'), "4.940656e-324");
        assert_eq!(go_fmt_float(0.0078125, b'f'), "0.007812");
        assert_eq!(go_fmt_float(12345665.0, b'e'), "1.234566e+07");
        assert_eq!(go_fmt_float(f64::NEG_INFINITY, b'E'), "-Inf");
    }
}
