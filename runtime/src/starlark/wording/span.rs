//! What the source text of a failing expression (its span) says that starlark-rust's message
//! does not: its operators, the builtin it calls, its arguments; starlark-go's messages name them.

use crate::starlark::{budget, guard_names};
use crate::template::code_scan::code_bytes;

/// The operators of `text` outside brackets, strings and comments, in order.
fn operators(text: &str) -> Vec<&str> {
    let mut out = Vec::new();
    let (mut depth, mut skip) = (0i32, false);
    for (i, c) in code_bytes(text) {
        if std::mem::take(&mut skip) {
            continue;
        }
        match c {
            b'(' | b'[' | b'{' => depth += 1,
            b')' | b']' | b'}' => depth -= 1,
            // A span may start inside parentheses it leaves out (`1 << 70) // 0.0`).
            _ if depth <= 0 => {
                let two = text.get(i..i + 2).unwrap_or("");
                if ["<=", ">=", "==", "!=", "//", "<<", ">>", "**"].contains(&two) {
                    out.push(two);
                    skip = true;
                } else if matches!(c, b'<' | b'>' | b'/' | b'%' | b'*') {
                    out.push(&text[i..i + 1]);
                }
            }
            _ => {}
        }
    }
    out
}

/// Whether the expression `span` is an `in` / `not in` test at its top level.
pub(super) fn operators_in(span: &str) -> bool {
    let mut depth = 0i32;
    for (i, c) in code_bytes(span) {
        match c {
            b'(' | b'[' | b'{' => depth += 1,
            b')' | b']' | b'}' => depth -= 1,
            b' ' if depth == 0 && span[i..].starts_with(" in ") => return true,
            _ => {}
        }
    }
    false
}

/// The function that the expression `span` calls (`sorted` for `sorted(v)`, `join` for
/// `", ".join(v)`), or `None` when it is not a call.
pub(super) fn called_builtin(span: &str) -> Option<&str> {
    let span = span.trim();
    if !span.ends_with(')') {
        return None;
    }
    // The call's `(` is the last one outside brackets: `dict(a=1).values(x=1)` calls `values`.
    let mut depth = 0i32;
    let mut open = None;
    for (i, c) in code_bytes(span) {
        match c {
            b'(' | b'[' | b'{' => {
                if c == b'(' && depth == 0 {
                    open = Some(i);
                }
                depth += 1;
            }
            b')' | b']' | b'}' => depth -= 1,
            _ => {}
        }
    }
    let i = open?;
    // (The target may end lines before the `(`: `getattr\n  (x, "a")`.)
    let callee = span[..i].trim_end_matches(|c: char| c.is_whitespace() || c == '\\');
    let name = callee.rsplit('.').next().unwrap_or(callee);
    if guard_names::is_guard(name, budget::METHOD) {
        // `METHOD("join", ...)`, a sized method call (see `budget`).
        return span[i + 1..].split('"').nth(1);
    }
    // The iterable of a comprehension or a `for` statement, wrapped by the budget, is not a call.
    (!guard_names::is_guard(name, budget::ITERATE)
        && !guard_names::is_guard(name, budget::LOOP)
        && name.bytes().all(|c| c.is_ascii_alphanumeric() || c == b'_'))
    .then_some(name)
}

/// The keyword of a "repeated named argument" error: its span is the keyword itself.
pub(super) fn repeated_keyword(span: &str) -> Option<&str> {
    let is_name = !span.is_empty() && span.bytes().all(|c| c.is_ascii_alphanumeric() || c == b'_');
    is_name.then_some(span)
}

/// The comparison operator of the expression `span` (`a > b`): starlark-rust's error does not
/// name it, starlark-go's does. Starlark has no chained comparisons, so there is one at most.
pub(super) fn comparison_op(span: Option<&str>) -> Option<&str> {
    // Only an ordering fails to compare (`==` and `!=` of any two values are answered).
    let ops: Vec<&str> = operators(span?)
        .into_iter()
        .filter(|o| ["<", ">", "<=", ">="].contains(o))
        .collect();
    match ops[..] {
        [op] => Some(op),
        _ => None,
    }
}

/// The condition of an `if` statement when `span` is one: starlark-rust gives an error in the
/// condition the span of the whole statement, body included (whose operators are not the
/// failing one's), where the condition's own expression would leave out its `not` and the
/// parentheses around it; any other span as it is.
pub(super) fn if_condition(span: &str) -> &str {
    let mut condition = if_statement_condition(span).trim();
    loop {
        if let Some(rest) = condition.strip_prefix("not") {
            if rest.starts_with([' ', '\t', '(']) {
                condition = rest.trim();
                continue;
            }
        }
        match enclosed_in_parentheses(condition) {
            Some(inner) => condition = inner.trim(),
            None => return condition,
        }
    }
}

/// What one pair of parentheses holds when they enclose the whole of `text`.
fn enclosed_in_parentheses(text: &str) -> Option<&str> {
    let inner = text.strip_prefix('(')?.strip_suffix(')')?;
    let mut depth = 0i32;
    for (_, c) in code_bytes(inner) {
        match c {
            b'(' | b'[' | b'{' => depth += 1,
            b')' | b']' | b'}' => depth -= 1,
            _ => {}
        }
        if depth < 0 {
            return None;
        }
    }
    (depth == 0).then_some(inner)
}

fn if_statement_condition(span: &str) -> &str {
    let trimmed = span.trim_start();
    let Some(rest) = ["if", "elif"].iter().find_map(|k| trimmed.strip_prefix(k)) else {
        return span;
    };
    if !rest.starts_with([' ', '\t', '(', '[', '{', '"', '\'', '\\', '\n']) {
        return span;
    }
    let mut depth = 0i32;
    for (i, c) in code_bytes(rest) {
        match c {
            b'(' | b'[' | b'{' => depth += 1,
            b')' | b']' | b'}' => depth -= 1,
            b':' if depth == 0 => return &rest[..i],
            _ => {}
        }
    }
    rest
}

/// The operator of the multiplicative expression `span` (`a / b`): the last one at the top level,
/// as they associate to the left.
pub(super) fn multiplicative_op(span: Option<&str>) -> Option<&str> {
    operators(span?)
        .into_iter()
        .rfind(|o| ["*", "/", "//", "%"].contains(o))
}

/// The text between the first two backquotes of `s`, and what follows.
pub(super) fn quoted(s: &str) -> Option<(&str, &str)> {
    let rest = &s[s.find('`')? + 1..];
    let end = rest.find('`')?;
    Some((&rest[..end], &rest[end + 1..]))
}

/// The arguments of the call `span` (`f(a, b=1)`, its last parentheses): how many are
/// positional, `None` when one is `*args` or `**kwargs` (their count is unknown) or `span` is
/// no call.
pub(super) fn positional_arguments(span: &str) -> Option<usize> {
    let span = span.trim();
    if !span.ends_with(')') {
        return None;
    }
    // Where the group that the last `)` closes opens.
    let (mut stack, mut open) = (Vec::new(), None);
    for (i, c) in code_bytes(span) {
        match c {
            b'(' | b'[' | b'{' => stack.push(i),
            b')' | b']' | b'}' => open = stack.pop(),
            _ => {}
        }
    }
    let inner = &span[open? + 1..span.len() - 1];
    let (mut depth, mut pieces, mut start) = (0i32, Vec::new(), 0);
    for (i, c) in code_bytes(inner) {
        match c {
            b'(' | b'[' | b'{' => depth += 1,
            b')' | b']' | b'}' => depth -= 1,
            b',' if depth == 0 => {
                pieces.push(&inner[start..i]);
                start = i + 1;
            }
            _ => {}
        }
    }
    pieces.push(&inner[start..]);
    let pieces: Vec<&str> = pieces
        .into_iter()
        .map(str::trim)
        .filter(|p| !p.is_empty())
        .collect();
    if pieces.iter().any(|p| p.starts_with('*')) {
        return None;
    }
    let keyword = |p: &str| {
        let name_end = p
            .find(|c: char| !(c.is_alphanumeric() || c == '_'))
            .unwrap_or(p.len());
        let after = p[name_end..].trim_start();
        name_end > 0 && after.starts_with('=') && !after.starts_with("==")
    };
    Some(pieces.iter().filter(|p| !keyword(p)).count())
}

/// The function that the call `span` calls, as starlark-go names it (`lambda` for a lambda).
pub(super) fn callee(span: &str) -> Option<&str> {
    let span = span.trim();
    if span.trim_start_matches('(').starts_with("lambda") {
        return Some("lambda");
    }
    let head = &span[..span.find('(')?];
    let name = head.rsplit('.').next()?.trim();
    (!name.is_empty() && name.chars().all(|c| c.is_alphanumeric() || c == '_')).then_some(name)
}

#[cfg(test)]
mod tests {
    use super::{comparison_op, if_condition};

    #[test]
    fn an_if_statements_span_is_cut_to_its_condition() {
        assert_eq!(if_condition("if n > 0:\n  y = 1 < 2\n"), "n > 0");
        assert_eq!(
            if_condition("elif (n > {\"a\": 1}[\"a\"]):\n  x"),
            "n > {\"a\": 1}[\"a\"]"
        );
        assert_eq!(if_condition("if not ((n >= 0)):\n  x"), "n >= 0");
        assert_eq!(if_condition("if (a) or (b):"), "(a) or (b)");
        assert_eq!(if_condition("iffy > 0"), "iffy > 0");
        assert_eq!(
            comparison_op(Some(if_condition("if n > 0:\n  if n < 1:\n    x"))),
            Some(">")
        );
        // A comment's parenthesis is no code; `==` and `!=` never fail to compare.
        assert_eq!(if_condition("if (n > 0 # c )\n):\n  x"), "n > 0 # c )");
        assert_eq!(
            comparison_op(Some(if_condition("if \"a:\" != 0 and n > 1:\n  y = 1 < 2"))),
            Some(">")
        );
    }
}
