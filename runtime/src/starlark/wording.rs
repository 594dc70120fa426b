//! starlark-rust's error messages reworded as starlark-go (ytt's interpreter) words them.

mod span;

use super::def_name;
use span::{
    called_builtin, callee, comparison_op, if_condition, multiplicative_op, operators_in,
    positional_arguments, quoted, repeated_keyword,
};

pub(super) fn between<'a>(s: &'a str, start: &str, end: &str) -> Option<&'a str> {
    let rest = &s[s.find(start)? + start.len()..];
    Some(&rest[..rest.find(end)?])
}

/// `Operation `OP` not supported for types `A` and `B``: the operator and both types.
fn binary_op(msg: &str) -> Option<(&str, &str, &str)> {
    let rest = msg.strip_prefix("Operation `")?;
    let (op, rest) = rest.split_once("` not supported for types `")?;
    let (a, rest) = rest.split_once("` and `")?;
    let b = rest.strip_suffix('`')?;
    Some((op, a, b))
}

/// starlark-go's refusal of `x += y` that extends a list in place, when the list is frozen (a
/// global of a loaded file) or being iterated; `None` for any other error. Only a list is
/// changed in place by `+=`; an indexed target (`l[0] += y`) fails on its assignment instead,
/// whose container the message does not name.
fn augmented_list_refused(msg: &str, span: Option<&str>) -> Option<String> {
    let (target, _) = span?.split_once("+=")?;
    if target.contains(['[', '.', '(']) {
        return None;
    }
    if msg == "Immutable" {
        Some("cannot apply += to frozen list".into())
    } else if msg.starts_with("This operation mutates an iterable for an iterator while iterating")
    {
        Some("cannot apply += to list during iteration".into())
    } else {
        None
    }
}

/// Rewords a starlark-rust error message as starlark-go words it. `span` is the source text of
/// the expression that failed, when known (it names operators that the message does not).
pub(super) fn go_wording(msg: &str, span: Option<&str>) -> String {
    let span = span.map(if_condition);
    if let Some(message) = augmented_list_refused(msg, span) {
        return message;
    }
    if msg == "Starlark call stack overflow" {
        return super::statement_hook::call_depth_exceeded_message();
    }
    if let Some(name) = msg
        .strip_prefix("Variable `")
        .and_then(|r| r.split_once("` not found"))
        .map(|(name, _)| name)
    {
        return format!("undefined: {name}");
    }
    if let Some(rest) = msg.strip_suffix(" arguments for format string") {
        if rest == "Too many" || rest == "Not enough" {
            return format!("{} arguments for format string", rest.to_lowercase());
        }
    }
    if msg.starts_with("Floor division by zero") || msg.starts_with("Integer division by zero") {
        return "floored division by zero".into();
    }
    if msg.starts_with("Division by zero") || msg.starts_with("float division by zero") {
        // `1 / 0` divides as reals in starlark-go, ints or not.
        return "real division by zero".into();
    }
    if msg.starts_with("Modulo by zero") {
        return "integer modulo by zero".into();
    }
    if msg == "Cannot divide by zero" {
        // A float `//` or `%` by zero.
        match multiplicative_op(span) {
            Some("%") => return "float modulo by zero".into(),
            Some("//") => return "floored division by zero".into(),
            _ => {}
        }
    }
    if let Some(name) = between(msg, "Module has no symbol `", "`")
        .or_else(|| between(msg, "Module symbol `", "` is not exported"))
    {
        return format!("load: name {name} not found in module");
    }
    // `x.name` of a value without it; functions are left alone: starlark-go tells builtins
    // (`builtin_function_or_method`) from `def`s (`function`), this message does not.
    if let Some(rest) = msg.strip_prefix("Object of type `") {
        if let Some((ty, rest)) = rest.split_once("` has no attribute `") {
            if let Some((attr, rest)) = rest.split_once('`') {
                if ty != "function" {
                    // The interpreter's own suggestion stands for the names of a struct or
                    // module, which this message does not list.
                    let suggested = rest
                        .strip_prefix(", did you mean `")
                        .and_then(|r| r.strip_suffix("`?"));
                    return no_field(ty, attr, suggested.as_slice());
                }
            }
        }
    }
    if let Some((op, a, b)) = binary_op(msg) {
        if ["compare", "cmp()", "<>"].contains(&op) {
            if let Some(cmp) = comparison_op(span) {
                return format!("{a} {cmp} {b} not implemented");
            }
        } else if op == "[]" {
            return format!("unhandled index operation {a}[{b}]");
        } else if !op.starts_with('(') && !op.starts_with('.') && !op.contains('[') {
            return format!("unknown binary op: {a} {op} {b}");
        }
    }
    if let Some(ty) = msg
        .strip_prefix("Operation `(iter)` not supported on type `")
        .and_then(|r| r.strip_suffix('`'))
    {
        // `l += x` extends a list by an iterable `x`; anything else is a `+` that fails.
        if span.is_some_and(|s| s.contains("+=")) {
            return format!("unknown binary op: list + {ty}");
        }
        // starlark-go names the builtin that wanted to iterate; a loop or a comprehension
        // says the value is not iterable.
        return match span.map(called_builtin) {
            Some(Some("list" | "tuple" | "any" | "all" | "enumerate" | "reversed" | "set"))
            | Some(Some("join")) => format!(
                "{}: for parameter 1: got {ty}, want iterable",
                span.and_then(called_builtin).unwrap_or_default()
            ),
            Some(Some("sorted")) => {
                format!("sorted: for parameter iterable: got {ty}, want iterable")
            }
            Some(Some("dict")) => format!("dict: got {ty}, want iterable"),
            Some(Some(f @ ("max" | "min"))) => format!("{f}: {ty} value is not iterable"),
            Some(None) => format!("{ty} value is not iterable"),
            _ => msg.to_string(),
        };
    }
    if let Some(rest) = msg.strip_prefix("Type of parameters mismatch, expected `str`, actual `") {
        // `1 in "abc"`: the only operator whose string operand checks the other's type.
        let is_in = span.is_some_and(operators_in);
        if let (true, Some((ty, _))) = (is_in, rest.split_once(" (repr: ")) {
            return format!("'in <string>' requires string as left operand, not {ty}");
        }
    }
    for (param, method) in [("prefix", "startswith"), ("suffix", "endswith")] {
        let head = format!(
            "Type of parameter `{param}` doesn't match, expected `str | tuple[str, ...]`, actual `"
        );
        if let Some((ty, _)) = msg
            .strip_prefix(head.as_str())
            .and_then(|r| r.split_once(" (repr: "))
        {
            // A tuple with a non-string item has its own text in starlark-go: not mapped.
            if ty != "tuple" {
                return format!("{method}: got {ty}, want string or tuple of string");
            }
        }
    }
    if let Some(rest) = msg.strip_prefix("Operation `format(%") {
        if let Some((verb, ty)) = rest.split_once(")` not supported on type `") {
            if ["d", "x", "X", "o"].contains(&verb) {
                if let Some(ty) = ty.strip_suffix('`') {
                    return format!("%{verb} format requires integer: cannot convert {ty} to int");
                }
            }
        }
    }
    if let Some(rest) = msg.strip_prefix("Operation `") {
        if let Some((op, ty)) = rest.split_once("` not supported on type `") {
            if ["-", "+", "~"].contains(&op) {
                if let Some(ty) = ty.strip_suffix('`') {
                    return format!("unknown unary op: {op} {ty}");
                }
            }
            // `x.name = v` (and `x.name *= n`) on a value without settable fields.
            if let (Some(field), Some(ty)) = (
                op.strip_prefix('.').and_then(|f| f.strip_suffix('=')),
                ty.strip_suffix('`'),
            ) {
                return format!("can't assign to .{field} field of {ty}");
            }
        }
    }
    if let Some(key) = msg
        .strip_prefix("Key `")
        .and_then(|r| r.strip_suffix("` was not found"))
    {
        return format!("key {key} not in dict");
    }
    if let Some(ty) = msg
        .strip_prefix("Value of type `")
        .and_then(|r| r.strip_suffix("` is not hashable"))
    {
        // Builtins that hash their arguments name themselves.
        let prefix = match span.and_then(called_builtin) {
            Some("set") => "set: ",
            _ => "",
        };
        return match ty {
            // starlark-go's module says so in its own words.
            "module" => format!("{prefix}unhashable: module"),
            // ytt's values with methods are structs underneath.
            super::ip_module::ADDR_TYPE
            | super::ip_module::NET_TYPE
            | super::url_value::URL_TYPE
            | super::url_value::USER_TYPE => format!("{prefix}unhashable type: struct"),
            _ => format!("{prefix}unhashable type: {ty}"),
        };
    }
    if msg.starts_with("Element '") && msg.contains("' not found in list '") {
        return "remove: element not found".into();
    }
    if msg.starts_with("Element '") && msg.contains("' not found in '") {
        return "index: value not in list".into();
    }
    if msg.starts_with("Key `") && msg.contains("` not found in dictionary `") {
        return "pop: missing key".into();
    }
    if msg == "repeated named argument" {
        if let Some(name) = span.and_then(repeated_keyword) {
            return format!("keyword argument {name} repeated");
        }
    }
    if msg == "Third argument of range (step) cannot be zero" {
        return "range: step argument must not be zero".into();
    }
    if let Some(rest) = msg.strip_prefix("Cannot parse `") {
        if let Some((text, base)) = rest.rsplit_once("` as an integer in base ") {
            return format!("int: invalid literal with base {base}: {text}");
        }
    }
    if msg.ends_with(" is not a valid base, int() base must be >= 2 and <= 36") {
        return "int: base must be an integer >= 2 && <= 36".into();
    }
    if let Some((text, _)) = msg.split_once(" is not a valid number: ") {
        return format!("float: strconv.ParseFloat: parsing {text}: invalid syntax");
    }
    if let Some(rest) =
        msg.strip_prefix("Type of parameter `to_join` doesn't match, expected `str`, actual `")
    {
        if let Some((ty, _)) = rest.split_once(" (repr: ") {
            return format!("join: in list, want string, got {ty}");
        }
    }
    if let Some(go) = call_wording(msg, span) {
        return go;
    }
    msg.to_string()
}

/// Errors of calls (arguments that do not fit the function), of unpacking and of a few
/// builtins, as starlark-go words them.
fn call_wording(msg: &str, span: Option<&str>) -> Option<String> {
    let builtin = || span.and_then(called_builtin);
    if let Some(rest) = msg.strip_prefix("Wrong number of positional arguments, expected ") {
        let (want, got) = rest.split_once(", got ")?;
        let got: usize = got.parse().ok()?;
        let want = match want.strip_prefix("between ") {
            Some(range) => {
                let (min, max) = range.split_once(" and ")?;
                let (min, max): (usize, usize) = (min.parse().ok()?, max.parse().ok()?);
                if got < min {
                    format!("at least {min}")
                } else {
                    format!("at most {max}")
                }
            }
            None => want.to_string(),
        };
        return Some(match builtin()? {
            // starlark-go's own checks of these builtins' arguments.
            name @ ("str" | "type") => format!("{name}: got {got} arguments, want exactly {want}"),
            "float" => format!(
                "float got {got} arguments, wants {}",
                want.trim_start_matches("at most ")
            ),
            name => format!("{name}: got {got} arguments, want {want}"),
        });
    }
    if let Some(rest) = msg.strip_prefix("Found ").filter(|r| r.contains(" extra ")) {
        // The crate names every unexpected keyword (`Found `x` `y` extra named...`); starlark-go
        // the first.
        let keywords = quoted(rest).map(|(first, mut rest)| {
            while let Some((_, after)) = rest.strip_prefix(' ').and_then(quoted) {
                rest = after;
            }
            (first, rest)
        });
        if let Some((keyword, rest)) = keywords.filter(|(_, r)| r.starts_with(" extra named")) {
            let function = rest.rsplit(" for call to ").next()?;
            return Some(match def_name(function) {
                Some(name) => {
                    format!("function {name} got an unexpected keyword argument \"{keyword}\"")
                }
                None => match builtin()? {
                    // Builtins with named parameters name the keyword; `fail` names nothing.
                    name @ ("max" | "min" | "sorted" | "int") => {
                        format!("{name}: unexpected keyword argument \"{keyword}\"")
                    }
                    "fail" => format!("fail: unexpected keyword argument \"{keyword}\""),
                    // Builtins that check for keywords first.
                    name @ ("str" | "float" | "zip" | "type" | "chr" | "ord" | "dir") => {
                        format!("{name} does not accept keyword arguments")
                    }
                    name => format!("{name}: unexpected keyword arguments"),
                },
            });
        }
        let (extra, rest) = rest.split_once(" extra positional argument(s) for call to ")?;
        let extra: usize = extra.parse().ok()?;
        let given = positional_arguments(span?)?;
        let most = given.checked_sub(extra)?;
        let Some(name) = def_name(rest) else {
            // A builtin with named parameters (`int(x, base)`).
            return Some(format!(
                "{}: got {given} arguments, want at most {most}",
                builtin()?
            ));
        };
        return Some(if most == 0 {
            format!("function {name} accepts no arguments ({given} given)")
        } else {
            format!("function {name} accepts at most {most} positional arguments ({given} given)")
        });
    }
    if let Some(rest) = msg
        .strip_prefix("Missing parameter ")
        .or_else(|| msg.strip_prefix("Missing named-only parameter "))
    {
        let (param, rest) = quoted(rest)?;
        let (function, _) = quoted(rest)?;
        let name = def_name(function)?;
        return Some(format!("function {name} missing 1 argument ({param})"));
    }
    if let Some((param, rest)) = msg.strip_prefix("Argument ").and_then(quoted) {
        if rest == " occurs more than once" {
            let name = callee(span?)?;
            // A builtin's (a function's is [`super::callee`]'s): `dict`'s own words, or those
            // of starlark-go's `UnpackArgs`.
            return Some(match name {
                "dict" => format!("dict: duplicate keyword arg: \"{param}\""),
                _ if super::callee::UNIVERSAL.contains(&name) => {
                    format!("{name}: got multiple values for keyword argument \"{param}\"")
                }
                _ => format!("function {name} got multiple values for parameter \"{param}\""),
            });
        }
    }
    if let Some(rest) = msg.strip_prefix("Unpacked ") {
        let (got, want) = rest.split_once(" values but expected ")?;
        let (got, want): (usize, usize) = (got.parse().ok()?, want.parse().ok()?);
        let many = if got > want { "many" } else { "few" };
        return Some(format!(
            "too {many} values to unpack (got {got}, want {want})"
        ));
    }
    if let Some(ty) = msg
        .strip_prefix("Operation `len()` not supported on type `")
        .and_then(|r| r.strip_suffix('`'))
    {
        return Some(format!("got {ty} in sequence assignment"));
    }
    if let Some(rest) = msg.strip_prefix("Local variable ") {
        let (name, rest) = quoted(rest)?;
        if rest == " referenced before assignment" {
            return Some(format!(
                "local variable {name} referenced before assignment"
            ));
        }
    }
    if let Some(key) = msg
        .strip_prefix("Dictionary key repeated for `")
        .and_then(|r| r.strip_suffix('`'))
    {
        // starlark-go writes the key with `%v`: a float as its `String()` (`1`, `0.123457`).
        let whole = key
            .trim_start_matches('-')
            .bytes()
            .all(|b| b.is_ascii_digit());
        return Some(match key.parse::<f64>() {
            Ok(f) if !whole => format!("duplicate key: {}", crate::rules::float_repr(f)),
            _ => format!("duplicate key: {key}"),
        });
    }
    if let Some(ty) = msg
        .strip_prefix("Operation `call()` not supported on type `")
        .and_then(|r| r.strip_suffix('`'))
    {
        return Some(format!("invalid call of non-function ({ty})"));
    }
    if let Some(rest) = msg.strip_prefix("Operation `.") {
        // `x.name(...)` of a value without that method (a call through `budget::METHOD`).
        let (attr, ty) = rest.split_once("` not supported on type `")?;
        let ty = ty.strip_suffix('`')?;
        if attr.ends_with('=') || ty == "function" {
            return None;
        }
        let getattr = if builtin() == Some("getattr") {
            "getattr: "
        } else {
            ""
        };
        return Some(format!("{getattr}{}", no_field(ty, attr, &[])));
    }
    if let Some(ty) = msg
        .strip_prefix("Operation `[::]` not supported on type `")
        .and_then(|r| r.strip_suffix('`'))
    {
        return Some(format!("invalid slice operand {ty}"));
    }
    if msg == "Index `0` is out of bound" && span.is_some_and(|s| s.contains(':')) {
        return Some("zero is not a valid slice step".into());
    }
    if msg == "Argument is an empty iterable, max() expect a non empty iterable"
        || msg == "Argument is an empty iterable, min() expect a non empty iterable"
    {
        let name = builtin()?;
        let no_args = span?.trim().ends_with(&format!("{name}()"));
        return Some(if no_args {
            format!("{name} requires at least one positional argument")
        } else {
            format!("{name}: argument is an empty sequence")
        });
    }
    if let Some(rest) = msg.strip_prefix("Float `") {
        let (value, rest) = rest.split_once('`')?;
        if rest == " cannot be represented as exact integer" {
            let value = if value == "NaN" { "NaN" } else { "infinity" };
            return Some(format!("int: cannot convert float {value} to integer"));
        }
    }
    if let Some(rest) = msg.strip_prefix("Error unpacking value for parameter `") {
        // An int beyond 32 bits where the crate takes an `i32`.
        let (param, _) = rest.split_once('`')?;
        return match (builtin()?, param) {
            (m @ ("count" | "startswith" | "endswith"), p @ ("start" | "end")) => {
                Some(format!("{m}: invalid {p} index: got int, want int"))
            }
            _ => None,
        };
    }
    if let Some(rest) = msg.strip_prefix("Type of parameter `") {
        let (param, rest) = rest.split_once("` doesn't match, expected `")?;
        let (_, actual) = rest.split_once("`, actual `")?;
        let ty = actual.split(" (repr: ").next()?;
        return match (builtin()?, param) {
            ("int", "a") => Some(format!("int: cannot convert {ty} to int")),
            ("float", "a") => Some(format!("float got {ty}, want number or string")),
            ("chr", "i") => Some(format!("chr: got {ty}, want int")),
            ("getattr" | "hasattr", "attr") => Some(format!(
                "{}: for parameter 2: got {ty}, want string",
                builtin()?
            )),
            (m @ ("split" | "rsplit"), "maxsplit") => {
                Some(format!("{m}: for parameter 2: got {ty}, want int"))
            }
            // (starlark-go's `rsplit` says `split` here)
            ("split" | "rsplit", "sep") => {
                Some(format!("split: got {ty} for separator, want string"))
            }
            ("count", "needle") => Some(format!("count: for parameter 1: got {ty}, want string")),
            ("index", p @ ("start" | "end")) => {
                Some(format!("index: invalid {p} index: got {ty}, want int"))
            }
            ("insert", "index") => Some(format!("insert: for parameter 1: got {ty}, want int")),
            ("enumerate", "start") => {
                Some(format!("enumerate: for parameter 2: got {ty}, want int"))
            }
            (m @ ("count" | "startswith" | "endswith"), p @ ("start" | "end")) => {
                Some(format!("{m}: invalid {p} index: got {ty}, want int"))
            }
            _ => None,
        };
    }
    if msg.starts_with("int() cannot convert non-string with explicit base") {
        return Some("int: can't convert non-string with explicit base".into());
    }
    if let Some(n) = msg.strip_prefix("chr() parameter value negative integer ") {
        return Some(format!("chr: Unicode code point {n} out of range (<0)"));
    }
    if let Some(rest) = msg.strip_prefix("chr() parameter value is 0x") {
        let hex = rest.split(' ').next()?;
        return Some(format!(
            "chr: Unicode code point U+{} out of range (>0x10FFFF)",
            hex.to_uppercase()
        ));
    }
    if let Some(ty) = msg
        .strip_prefix("ord(): expected string or bytes, got '")
        .and_then(|r| r.strip_suffix('\''))
    {
        return Some(format!("ord: got {ty}, want string"));
    }
    if let Some(text) = msg
        .strip_prefix("ord(): ")
        .and_then(|r| r.strip_suffix(" is not a single character string"))
    {
        let inner = text.strip_prefix('"')?.strip_suffix('"')?;
        let n = inner
            .replace("\\\\", "\\")
            .replace("\\\"", "\"")
            .chars()
            .count();
        return Some(format!(
            "ord: string encodes {n} Unicode code points, want 1"
        ));
    }
    None
}

/// starlark-go's error for a missing field `attr` of a value of type `ty`, with its spelling
/// hint: the nearest of the methods of a string, list, dict or `@ytt:url`/`@ytt:ip` value, else of
/// `names`.
pub(super) fn no_field(ty: &str, attr: &str, names: &[&str]) -> String {
    use super::go_methods::{DICT_METHODS, LIST_METHODS, STRING_METHODS};
    let candidates = match ty {
        "string" => STRING_METHODS,
        "list" => LIST_METHODS,
        "dict" => DICT_METHODS,
        super::url_value::URL_TYPE => &["hostname", "string", "user", "without_user"],
        super::url_value::USER_TYPE => &["name", "password", "string"],
        super::ip_module::ADDR_TYPE => &["is_ipv4", "is_ipv6", "string"],
        super::ip_module::NET_TYPE => &["addr", "string"],
        _ => names,
    };
    match crate::spell::nearest(attr, candidates) {
        Some(near) => format!("{ty} has no .{attr} field or method (did you mean .{near}?)"),
        None => format!("{ty} has no .{attr} field or method"),
    }
}
