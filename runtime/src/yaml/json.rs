//! Writing data values as JSON, byte for byte as `ytt --data-values-inspect -o json` prints them.
//!
//! ytt converts the document to Go maps and calls `encoding/json.Marshal`, so the output is
//! compact, map keys are sorted by their bytes, `<`, `>`, `&`, U+2028 and U+2029 are escaped
//! (`\u003c`), other control characters use `\n`-style or `\u00XX` escapes, and floats use
//! JavaScript-like notation (`1e+21`, `1e-7`). Nothing follows the document, not even a newline.
//!
//! Two cases differ from a plain port. ytt prints nothing for a null, an empty map or an empty
//! array (it skips empty documents), and also nothing when `json.Marshal` fails, which it does for
//! NaN and infinities. ytt crashes on a map key that is not a string; here such keys are written as
//! ytt shows keys in messages (`1`, `true`), the last of equal keys winning as in a Go map.

use crate::value::{MapEntry, Node, Value};
use std::collections::BTreeMap;

/// Renders one document of data values as ytt's JSON output.
pub fn to_json(value: &Value) -> String {
    let empty = match value {
        Value::Null => true,
        Value::Map(entries) => entries.is_empty(),
        Value::Array(items) => items.is_empty(),
        _ => false,
    };
    if empty {
        return String::new();
    }
    marshal_json(value).unwrap_or_default()
}

/// Renders any value as Go's `json.Marshal` does (as ytt's `json.encode` does), without the
/// document rules of [`to_json`]: a null is `null` and empty collections are `{}` and `[]`.
/// `Err` with the value where Go's encoder fails: the first NaN or infinity.
pub fn marshal_json(value: &Value) -> Result<String, f64> {
    let mut out = String::new();
    write_value(&mut out, value).map(|()| out)
}

/// Renders a document (a schema export) as JSON indented by two spaces, keeping map keys in
/// their order, ending with a newline. A NaN or an infinity is written as `null`.
pub fn to_json_indented(value: &Value) -> String {
    let mut out = String::new();
    write_indented(&mut out, value, 0);
    out.push('\n');
    out
}

fn write_indented(out: &mut String, value: &Value, depth: usize) {
    let newline = |out: &mut String, depth: usize| {
        out.push('\n');
        out.push_str(&"  ".repeat(depth));
    };
    match value {
        Value::Array(items) if !items.is_empty() => {
            out.push('[');
            for (i, item) in items.iter().enumerate() {
                if i > 0 {
                    out.push(',');
                }
                newline(out, depth + 1);
                write_indented(out, &item.value, depth + 1);
            }
            newline(out, depth);
            out.push(']');
        }
        Value::Map(entries) if !entries.is_empty() => {
            out.push('{');
            for (i, e) in entries.iter().enumerate() {
                if i > 0 {
                    out.push(',');
                }
                newline(out, depth + 1);
                write_key(out, &e.key, false);
                out.push_str(": ");
                write_indented(out, &e.value.value, depth + 1);
            }
            newline(out, depth);
            out.push('}');
        }
        Value::Str(text) => write_escaped(out, text, false),
        Value::Bytes(bytes) => write_bytes(out, bytes, false),
        other => {
            if write_value(out, other).is_err() {
                out.push_str("null");
            }
        }
    }
}

/// Appends `value`; `Err` with the float where Go's encoder would fail (a NaN or an infinity).
fn write_value(out: &mut String, value: &Value) -> Result<(), f64> {
    match value {
        Value::Null => out.push_str("null"),
        Value::Bool(b) => out.push_str(if *b { "true" } else { "false" }),
        Value::Int(i) => out.push_str(&i.to_string()),
        Value::UInt(u) => out.push_str(&u.to_string()),
        Value::Float(f) => out.push_str(&format_json_float(*f).ok_or(*f)?),
        Value::Str(s) => write_string(out, s),
        Value::Bytes(b) => write_bytes(out, b, true),
        Value::Array(items) => return write_array(out, items),
        Value::Map(entries) => return write_map(out, entries),
    }
    Ok(())
}

fn write_array(out: &mut String, items: &[Node]) -> Result<(), f64> {
    out.push('[');
    for (i, item) in items.iter().enumerate() {
        if i > 0 {
            out.push(',');
        }
        write_value(out, &item.value)?;
    }
    out.push(']');
    Ok(())
}

fn write_map(out: &mut String, entries: &[MapEntry]) -> Result<(), f64> {
    // A later equal key replaces an earlier one, as assigning into a Go map does, and keys come
    // out sorted by their bytes, as Go's encoder sorts them.
    let sorted: BTreeMap<Vec<u8>, (&Value, &Value)> = entries
        .iter()
        .map(|e| {
            let bytes = match &*e.key {
                Value::Bytes(b) => b.to_vec(),
                key => key.key_string().into_bytes(),
            };
            (bytes, (&*e.key, &e.value.value))
        })
        .collect();
    out.push('{');
    for (i, (_, (key, value))) in sorted.into_iter().enumerate() {
        if i > 0 {
            out.push(',');
        }
        write_key(out, key, true);
        out.push(':');
        write_value(out, value)?;
    }
    out.push('}');
    Ok(())
}

/// Writes a JSON string as Go's encoder does with HTML escaping on. ytt's Go release writes
/// backspace and form feed as `\u0008` and `\u000c` (Go 1.22 and later write `\b` and `\f`).
fn write_string(out: &mut String, s: &str) {
    write_escaped(out, s, true)
}

/// A map key as a JSON string (see [`write_escaped`]).
fn write_key(out: &mut String, key: &Value, html: bool) {
    match key {
        Value::Bytes(b) => write_bytes(out, b, html),
        key => write_escaped(out, &key.key_string(), html),
    }
}

/// A string that is not UTF-8 as Go's encoder writes it: each byte that is no UTF-8 as
/// `\ufffd` (see [`write_escaped`]).
fn write_bytes(out: &mut String, bytes: &[u8], html: bool) {
    out.push('"');
    for chunk in bytes.utf8_chunks() {
        write_escaped_text(out, chunk.valid(), html);
        for _ in chunk.invalid() {
            out.push_str("\\ufffd");
        }
    }
    out.push('"');
}

/// A JSON string; `html`: also `<`, `>`, `&`, U+2028 and U+2029 escaped, as Go's encoder does.
fn write_escaped(out: &mut String, s: &str, html: bool) {
    out.push('"');
    write_escaped_text(out, s, html);
    out.push('"');
}

/// The text of [`write_escaped`], without the quotes.
fn write_escaped_text(out: &mut String, s: &str, html: bool) {
    for c in s.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            '<' | '>' | '&' | '\u{2028}' | '\u{2029}' if !html => out.push(c),
            '\0'..='\u{1F}' | '<' | '>' | '&' | '\u{2028}' | '\u{2029}' => {
                out.push_str(&format!("\\u{:04x}", c as u32));
            }
            _ => out.push(c),
        }
    }
}

/// JSON that [`marshal_json`] wrote, with `<`, `>` and `&` as they are (Go's encoder with
/// `SetEscapeHTML(false)`, which still escapes U+2028 and U+2029). Every `\` there starts an
/// escape, so an escaped backslash before `u003c` is kept.
pub fn without_html_escapes(json: &str) -> String {
    let mut out = String::with_capacity(json.len());
    let mut rest = json;
    while let Some(at) = rest.find('\\') {
        out.push_str(&rest[..at]);
        let escape = &rest[at..];
        let html = match escape.get(..6) {
            Some(r"\u003c") => Some('<'),
            Some(r"\u003e") => Some('>'),
            Some(r"\u0026") => Some('&'),
            _ => None,
        };
        let len = match html {
            Some(c) => {
                out.push(c);
                6
            }
            None => {
                let len = escape[1..].chars().next().map_or(1, |c| 1 + c.len_utf8());
                out.push_str(&escape[..len]);
                len
            }
        };
        rest = &escape[len..];
    }
    out.push_str(rest);
    out
}

/// Formats a float as Go's `encoding/json`: shortest digits, fixed notation from 1e-6 up to
/// 1e21, exponent notation otherwise (`1e-7`, `1e+21`). `None` for NaN and infinities, which Go
/// refuses to encode.
fn format_json_float(f: f64) -> Option<String> {
    f.is_finite()
        .then(|| super::emit::go_float_text(f, -6..21, 1))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::value::Pos;

    fn node(value: Value) -> Node {
        Node::new(value, Pos::unknown())
    }

    fn map(entries: Vec<(&str, Value)>) -> Value {
        Value::Map(
            entries
                .into_iter()
                .map(|(k, v)| MapEntry {
                    key: k.into(),
                    value: node(v),
                })
                .collect(),
        )
    }

    fn string(s: &str) -> Value {
        Value::Str(s.into())
    }

    #[test]
    fn sorts_keys_and_prints_compactly_without_newline() {
        let value = map(vec![
            ("name", string("app")),
            ("replicas", Value::Int(1)),
            ("db", map(vec![("host", string("localhost"))])),
        ]);
        assert_eq!(
            to_json(&value),
            r#"{"db":{"host":"localhost"},"name":"app","replicas":1}"#
        );
    }

    #[test]
    fn empty_documents_print_nothing_but_nested_empties_print() {
        assert_eq!(to_json(&Value::Null), "");
        assert_eq!(to_json(&Value::Map(crate::value::entries![])), "");
        assert_eq!(to_json(&Value::Array(crate::value::thin_vec![])), "");
        let value = map(vec![
            ("a", Value::Map(crate::value::entries![])),
            ("b", Value::Array(crate::value::thin_vec![])),
            ("c", Value::Null),
        ]);
        assert_eq!(to_json(&value), r#"{"a":{},"b":[],"c":null}"#);
        assert_eq!(to_json(&string("")), r#""""#);
    }

    #[test]
    fn arrays_and_scalars() {
        let value = Value::Array(crate::value::thin_vec![
            node(Value::Bool(true)),
            node(Value::Int(-3)),
            node(string("x")),
        ]);
        assert_eq!(to_json(&value), r#"[true,-3,"x"]"#);
        assert_eq!(to_json(&Value::Int(i64::MIN)), "-9223372036854775808");
    }

    #[test]
    fn escapes_like_go_with_html_escaping() {
        let cases = [
            (
                "<a href=\"x\">&</a>",
                r#""\u003ca href=\"x\"\u003e\u0026\u003c/a\u003e""#,
            ),
            ("\\ \n\r\t\u{8}\u{c}", r#""\\ \n\r\t\u0008\u000c""#),
            ("\0\u{1}\u{1f}\u{7f}", "\"\\u0000\\u0001\\u001f\u{7f}\""),
            ("é \u{2028}\u{2029} 🚀", "\"é \\u2028\\u2029 🚀\""),
        ];
        for (text, want) in cases {
            assert_eq!(to_json(&string(text)), want, "{text:?}");
        }
    }

    #[test]
    fn floats_use_go_json_notation() {
        let cases = [
            (1.0, "1"),
            (1.5, "1.5"),
            (-0.0, "-0"),
            (0.0, "0"),
            (1e3, "1000"),
            (0.000001, "0.000001"),
            (0.0000001, "1e-7"),
            (1.5e-10, "1.5e-10"),
            (123456789.123, "123456789.123"),
            (1e20, "100000000000000000000"),
            (1e21, "1e+21"),
            (-2.5e300, "-2.5e+300"),
            (5e-324, "5e-324"),
            (0.1 + 0.2, "0.30000000000000004"),
        ];
        for (f, want) in cases {
            assert_eq!(to_json(&Value::Float(f)), want, "{f:e}");
        }
    }

    #[test]
    fn marshal_json_has_no_document_rules() {
        assert_eq!(marshal_json(&Value::Null).as_deref(), Ok("null"));
        assert_eq!(
            marshal_json(&Value::Map(crate::value::entries![])).as_deref(),
            Ok("{}")
        );
        assert_eq!(
            marshal_json(&Value::Array(crate::value::thin_vec![])).as_deref(),
            Ok("[]")
        );
        assert!(marshal_json(&Value::Float(f64::NEG_INFINITY)).is_err());
    }

    #[test]
    fn nan_and_infinity_print_nothing() {
        assert_eq!(to_json(&Value::Float(f64::NAN)), "");
        let value = map(vec![
            ("a", Value::Int(1)),
            (
                "b",
                Value::Array(crate::value::thin_vec![node(Value::Float(f64::INFINITY))]),
            ),
        ]);
        assert_eq!(to_json(&value), "");
    }

    #[test]
    fn keys_sort_by_bytes_and_non_string_keys_are_stringified() {
        let value = Value::Map(crate::value::entries![
            MapEntry {
                key: string("b").into(),
                value: node(Value::Int(1)),
            },
            MapEntry {
                key: string("B").into(),
                value: node(Value::Int(2)),
            },
            MapEntry {
                key: string("é").into(),
                value: node(Value::Int(3)),
            },
            MapEntry {
                key: Value::Int(10).into(),
                value: node(Value::Int(4)),
            },
            MapEntry {
                key: Value::Bool(true).into(),
                value: node(Value::Int(5)),
            },
            MapEntry {
                key: string("10").into(),
                value: node(Value::Int(6)),
            },
        ]);
        assert_eq!(to_json(&value), r#"{"10":6,"B":2,"b":1,"true":5,"é":3}"#);
    }

    #[test]
    fn html_escapes_removed_as_go_keeps_them() {
        let json = to_json(&string("<a>&\\u003c\u{2028}"));
        assert_eq!(json, r#""\u003ca\u003e\u0026\\u003c\u2028""#);
        assert_eq!(without_html_escapes(&json), r#""<a>&\\u003c\u2028""#);
    }
}
