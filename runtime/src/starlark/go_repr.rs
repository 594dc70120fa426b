//! Values written as starlark-go writes them (`repr`, `str`, type names and quoted strings),
//! for messages that quote values as ytt does.

use super::{go_float, ytt_module, ytt_struct};

/// `repr(v)` as starlark-go writes it: floats as [`go_float`], also inside lists, tuples and
/// dicts; a struct as `struct(...)` (ytt's); a list or dict met again inside itself as `[...]`
/// or `{...}`; anything else as the interpreter writes it. Nesting beyond the depth budget
/// is an error (see [`try_go_repr`]), written here as its message: the values this is used
/// for (keys, indices) are never that deep.
pub(crate) fn go_repr(v: starlark::values::Value) -> String {
    try_go_repr(v).unwrap_or_else(|e| e.to_string())
}

/// [`go_repr`], or the depth budget's error for collections nested deeper than
/// `SCHEMAC_MAX_DEPTH` (the text is made in one buffer: deep nesting costs no copies), or
/// the heap budget's for a text longer than the whole heap budget: a list holding one long
/// string many times is small on the heap and huge written (`str(["x" * 10**7] * 1000)`
/// asked for 10 GB at once, an abort).
pub(crate) fn try_go_repr(v: starlark::values::Value) -> anyhow::Result<String> {
    let (_, max_memory) = super::statement_hook::budget();
    let limit = max_memory as u128;
    if super::written_size::written_bytes(v, super::written_size::Writing::Text, limit) > limit {
        return Err(super::statement_hook::heap_exceeded_message(
            "would allocate",
        ));
    }
    let mut out = String::new();
    write_go_repr(v, &mut out, &mut OpenCollections::default())?;
    Ok(out)
}

/// The collections [`write_go_repr`] is inside: how many (lists, dicts and tuples, for the
/// depth budget), and the lists and dicts among them, found by identity in constant time (a
/// scan of the open ones made `str` of a value 50,000 deep take 1.2 s, 100,000 deep 3.6 s).
#[derive(Default)]
struct OpenCollections<'v> {
    depth: usize,
    tracked: std::collections::HashSet<starlark::values::ValueIdentity<'v>, crate::value::FxBuild>,
}

/// [`go_repr`] of a value that holds no others to write: a struct as `struct(...)`, the
/// interpreter's functions as starlark-go names them, anything else as the interpreter writes
/// it.
fn scalar_go_repr(v: starlark::values::Value) -> String {
    if ytt_struct::fields(v).is_some() {
        return "struct(...)".into();
    }
    let repr = v.to_repr();
    // Functions of the interpreter; the assertion objects' own (`<function lambda>`) are kept.
    if v.get_type() == "function" && !repr.starts_with('<') {
        return match def_name(&repr) {
            Some(name) => format!("<function {name}>"),
            None => match ytt_module::qualified_name(v) {
                Some(name) => format!("<built-in function {name}>"),
                None => format!("<built-in function {repr}>"),
            },
        };
    }
    repr
}

/// How [`nested_too_deep`]'s error begins.
pub(super) const NESTED_TOO_DEEP: &str = "value nested deeper than";

/// The depth budget's error for a Starlark value nested too deep to write or convert.
pub(crate) fn nested_too_deep() -> anyhow::Error {
    anyhow::anyhow!(
        "{NESTED_TOO_DEEP} {} levels: a list or dict inside itself, or raise the budget with {}",
        crate::yaml::parse::budget::max_value_depth(),
        crate::yaml::parse::budget::VALUE_DEPTH_VAR
    )
}

/// Writes [`go_repr`] of `v` to `out`. `open` holds the lists and dicts being written, the
/// ones starlark-go marks when it meets them again inside themselves.
fn write_go_repr<'v>(
    v: starlark::values::Value<'v>,
    out: &mut String,
    open: &mut OpenCollections<'v>,
) -> anyhow::Result<()> {
    use starlark::values::dict::DictRef;
    use starlark::values::list::ListRef;
    use starlark::values::tuple::TupleRef;
    use starlark::values::ValueLike;
    if let Some(f) = v.downcast_ref::<starlark::values::float::StarlarkFloat>() {
        out.push_str(&go_float(f.0));
        return Ok(());
    }
    if let Some(s) = v.unpack_str() {
        out.push_str(&go_quote(s));
        return Ok(());
    }
    let list = ListRef::from_value(v);
    let dict = DictRef::from_value(v);
    let tuple = TupleRef::from_value(v);
    if list.is_none() && dict.is_none() && tuple.is_none() {
        out.push_str(&scalar_go_repr(v));
        return Ok(());
    }
    let tracked = list.is_some() || dict.is_some();
    if tracked && open.tracked.contains(&v.identity()) {
        out.push_str(if list.is_some() { "[...]" } else { "{...}" });
        return Ok(());
    }
    if open.depth >= crate::yaml::parse::budget::max_value_depth() {
        return Err(nested_too_deep());
    }
    open.depth += 1;
    if tracked {
        open.tracked.insert(v.identity());
    }
    let items = |values: &mut dyn Iterator<Item = starlark::values::Value<'v>>,
                 out: &mut String,
                 open: &mut OpenCollections<'v>|
     -> anyhow::Result<usize> {
        let mut n = 0;
        for item in values {
            if n > 0 {
                out.push_str(", ");
            }
            write_go_repr(item, out, open)?;
            n += 1;
        }
        Ok(n)
    };
    if let Some(list) = list {
        out.push('[');
        items(&mut list.iter(), out, open)?;
        out.push(']');
    } else if let Some(tuple) = tuple {
        out.push('(');
        if items(&mut tuple.iter(), out, open)? == 1 {
            out.push(',');
        }
        out.push(')');
    } else if let Some(dict) = dict {
        out.push('{');
        for (i, (k, x)) in dict.iter().enumerate() {
            if i > 0 {
                out.push_str(", ");
            }
            write_go_repr(k, out, open)?;
            out.push_str(": ");
            write_go_repr(x, out, open)?;
        }
        out.push('}');
    }
    open.depth -= 1;
    open.tracked.remove(&v.identity());
    Ok(())
}

/// The name of a `def` or lambda from its repr (`FILE.NAME` in starlark-rust), `None` for a
/// builtin (whose repr is its bare name). A renamed load binding is named as written (see
/// [`super::guard_names::shown_name`]).
pub(crate) fn def_name(repr: &str) -> Option<&str> {
    let (file, name) = repr.rsplit_once('.')?;
    (!file.is_empty()).then_some(super::guard_names::shown_name(name))
}

/// The type of `v` as starlark-go names it: a builtin function is a
/// `builtin_function_or_method`, a `def` or lambda a `function`.
pub(crate) fn go_type(v: starlark::values::Value) -> &'static str {
    match v.get_type() {
        "function" if !v.to_repr().starts_with('<') && def_name(&v.to_repr()).is_none() => {
            "builtin_function_or_method"
        }
        ty => ty,
    }
}

/// A string literal as starlark-go quotes it: printable Unicode kept as is (starlark-rust
/// escapes everything outside ASCII), control characters escaped, and the other characters
/// Go's `unicode.IsPrint` refuses past ASCII (spaces but U+0020, format and private-use
/// characters, unassigned code points) as `\uXXXX` or `\UXXXXXXXX`.
pub(crate) fn go_quote(s: &str) -> String {
    let mut out = String::with_capacity(s.len() + 2);
    out.push('"');
    push_quoted_text(s, &mut out);
    out.push('"');
    out
}

/// The text of [`go_quote`], without the quotes.
pub(crate) fn push_quoted_text(s: &str, out: &mut String) {
    for c in s.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\t' => out.push_str("\\t"),
            '\r' => out.push_str("\\r"),
            '\u{7}' => out.push_str("\\a"),
            '\u{8}' => out.push_str("\\b"),
            '\u{c}' => out.push_str("\\f"),
            '\u{b}' => out.push_str("\\v"),
            c if (c as u32) < 0x20 || c as u32 == 0x7f => {
                out.push_str(&format!("\\x{:02x}", c as u32))
            }
            c if c.is_ascii() || crate::go_unicode::printable(c) => out.push(c),
            c if (c as u32) < 0x10000 => out.push_str(&format!("\\u{:04x}", c as u32)),
            c => out.push_str(&format!("\\U{:08x}", c as u32)),
        }
    }
}
