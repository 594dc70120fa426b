//! Where starlark-go places a failing expression that spans lines. starlark-rust's span of an
//! expression starts at its first token; starlark-go gives a binary expression the position of
//! its operator and an index expression that of its `[`: ytt reports `(None\n  + 1)` on the
//! second line, and a call the position of its `(`.

use starlark::syntax::ast::{ExprP, StmtP};
use starlark::syntax::AstModule;

/// How many lines into the failing expression `text` starlark-go places the error `message`
/// (ytt's wording) it raised: 0 but for a binary operator, an index or a call's `(` on a later
/// line.
pub(super) fn lines_into(text: &str, message: &str) -> usize {
    // An operator or index that schemac made a call of its own function (`__schemac_at(x, i)`,
    // `__schemac_mul(a, b)`, laid out as the source) is at the comma between the operands,
    // whatever its error.
    let called = [super::go_builtins::INDEX, super::go_slice::SLICE]
        .into_iter()
        .chain(super::budget::OPERATOR_FUNCTIONS.iter().map(|(_, f)| *f))
        .find_map(|f| guard_operands(text, f));
    // A method call schemac made a call of its own (`__schemac_method("m", obj, args)`) is at
    // the `,` after `obj`, which stands where the call's `(` stood (without arguments, the
    // call's `)` stands on the `(`'s line but for a line break between them).
    if let Some(operands) = guard_operands(text, super::budget::METHOD) {
        let at = top_level(operands, ",")
            .get(1)
            .copied()
            .unwrap_or(operands.len());
        // A method that is not there fails at its `.`, right after the object.
        let at = match is_missing_attribute(message) {
            true => operands[..at].trim_end().len(),
            false => at,
        };
        return operands[..at].matches('\n').count();
    }
    if let Some(operands) = called {
        let at = top_level(operands, ",").first().copied();
        return at.map_or(0, |at| operands[..at].matches('\n').count());
    }
    // A binary expression (an operator the crate applies, or one schemac made a call of its
    // own: the call's span is the expression's) fails at its operator, whatever its error
    // (`floored division by zero`, `repeat count ... too large`).
    if let Some(lines) = lines_to_operator(text) {
        return lines;
    }
    // An attribute that is not there fails at its `.`, a call of it at its `(`.
    if let Some(lines) = lines_to_dot(text).filter(|_| is_missing_attribute(message)) {
        return lines;
    }
    if let Some(lines) = lines_to_call_paren(text) {
        return lines;
    }
    let token = match message.strip_prefix("unknown binary op: ") {
        // `unknown binary op: int + string`
        Some(rest) => match rest.split(' ').nth(1) {
            Some(op) if op.chars().all(|c| OPERATOR_CHARS.contains(c)) => op,
            _ => return 0,
        },
        None if message.contains(" out of range") || message.contains(" not in dict") => "[",
        // A shift's count that is not an integer.
        None if message.starts_with("got ") && message.ends_with(", want int") => {
            let last = |op| top_level(text, op).last().copied();
            let at = last("<<").max(last(">>"));
            return at.map_or(0, |at| text[..at].matches('\n').count());
        }
        None => return 0,
    };
    // The last operator of a left-associative chain is the one that failed last; a span may
    // take in the parentheses around the expression.
    let at = top_level(text, token).last().copied().or_else(|| {
        let inner = text.strip_prefix('(')?.strip_suffix(')')?;
        Some(1 + *in_line(inner, token, false).last()?)
    });
    at.map_or(0, |at| text[..at].matches('\n').count())
}

/// How many lines into `text` the operator of the binary expression `text` is (the root one
/// of a chain); `None` when `text` is no binary expression.
fn lines_to_operator(text: &str) -> Option<usize> {
    let (wrapped, ast) = parse_span(text)?;
    let ExprP::Op(lhs, op, rhs) = &span_expression(&ast)?.node else {
        return None;
    };
    let between = wrapped.get(lhs.span.end().get() as usize..rhs.span.begin().get() as usize)?;
    // The operator is the first code between the operands but the brackets that close the
    // left one; `not in` is at its `in` (starlark-go's parser reads `not` and takes the
    // position of the token after it).
    let mut code = crate::template::code_scan::code_bytes(between)
        .filter(|&(_, c)| !c.is_ascii_whitespace() && !matches!(c, b')' | b'\\' | b'#'));
    if *op == starlark::syntax::ast::BinOp::NotIn {
        code.nth(2)?;
    }
    let (at, _) = code.next()?;
    let before = lhs.span.end().get() as usize + at;
    Some(wrapped[..before].matches('\n').count())
}

/// How many lines into the call `text` its `(` is, where starlark-go places a call (the
/// target may end lines before it: `f\n  (1)`, `(\n  lambda: 1\n)()`); `None` when `text` is no
/// call.
pub(super) fn lines_to_call_paren(text: &str) -> Option<usize> {
    let (wrapped, ast) = parse_span(text)?;
    let ExprP::Call(target, _) = &span_expression(&ast)?.node else {
        return None;
    };
    let target_end = target.span.end().get() as usize;
    let (at, _) = crate::template::code_scan::code_bytes(wrapped.get(target_end..)?)
        .find(|&(_, c)| c == b'(')?;
    Some(wrapped[..target_end + at].matches('\n').count())
}

/// The operands of `text` (without the brackets) when all of it is one call of the guard
/// `canonical` (not an expression that starts with one: `__schemac_at(x, 1).f\n(2)`).
fn guard_operands<'a>(text: &'a str, canonical: &str) -> Option<&'a str> {
    let (name, rest) = text.split_once('(')?;
    let operands = rest
        .strip_suffix(')')
        .filter(|_| super::guard_names::is_guard(name, canonical))?;
    let mut depth = 0i32;
    for (_, c) in crate::template::code_scan::code_bytes(operands) {
        match c {
            b'(' | b'[' | b'{' => depth += 1,
            b')' | b']' | b'}' if depth == 0 => return None,
            b')' | b']' | b'}' => depth -= 1,
            _ => {}
        }
    }
    (depth == 0).then_some(operands)
}

/// Whether `message` says that a value has no such attribute (ytt's words or the crate's).
fn is_missing_attribute(message: &str) -> bool {
    (message.contains(" has no .") && message.ends_with(" field or method"))
        || message.starts_with("Operation `.")
        || message.contains(" has no attribute `")
}

/// How many lines into `text`, an attribute (`a.b`) or a call of one (`a.b(x)`), its `.` is;
/// `None` for anything else.
fn lines_to_dot(text: &str) -> Option<usize> {
    let (wrapped, ast) = parse_span(text)?;
    let dot = match &span_expression(&ast)?.node {
        ExprP::Call(target, _) => target,
        _ => span_expression(&ast)?,
    };
    let ExprP::Dot(obj, _) = &dot.node else {
        return None;
    };
    let obj_end = obj.span.end().get() as usize;
    let (at, _) = crate::template::code_scan::code_bytes(wrapped.get(obj_end..)?)
        .find(|&(_, c)| c == b'.')?;
    Some(wrapped[..obj_end + at].matches('\n').count())
}

/// `text`, an expression's span, parsed alone: brackets let the expression span lines; a span
/// may take in the brackets around it, or start inside brackets it closes, which are put back
/// before it (`lambda: 1)(y=1)`). The text parsed is returned with it (the spans are of it).
pub(super) fn parse_span(text: &str) -> Option<(String, AstModule)> {
    const MOST_BRACKETS: usize = 8;
    (1..=MOST_BRACKETS).find_map(|brackets| {
        let wrapped = format!("{}{text}\n)", "(".repeat(brackets));
        let ast = AstModule::parse("span", wrapped.clone(), &super::dialect()).ok()?;
        Some((wrapped, ast))
    })
}

/// The expression [`parse_span`] parsed.
pub(super) fn span_expression(ast: &AstModule) -> Option<&starlark::syntax::ast::AstExpr> {
    match &ast.statement().node {
        StmtP::Expression(e) => Some(e),
        StmtP::Statements(s) => match &s[..] {
            [s] => match &s.node {
                StmtP::Expression(e) => Some(e),
                _ => None,
            },
            _ => None,
        },
        _ => None,
    }
}

const OPERATOR_CHARS: &str = "+-*/%&|^<>=!~";

/// Where `token` occurs in `text` outside brackets, strings and comments (an operator only
/// where it is not part of a longer one).
fn top_level(text: &str, token: &str) -> Vec<usize> {
    // An expression's span is inside its brackets or lines joined by `\`, but the span of a
    // statement whose condition failed (`if (a + b):`) goes on with its body.
    let statement = ["if ", "elif ", "for ", "while "]
        .iter()
        .any(|k| text.starts_with(k));
    in_line(text, token, statement)
}

/// [`top_level`], where a newline ends the search (`line_ends`) unless it is inside brackets or
/// after a `\`.
fn in_line(text: &str, token: &str, line_ends: bool) -> Vec<usize> {
    let b = text.as_bytes();
    let is_operator = token.chars().all(|c| OPERATOR_CHARS.contains(c));
    let operator_at = |i: Option<usize>| {
        i.and_then(|i| b.get(i))
            .is_some_and(|&c| OPERATOR_CHARS.contains(c as char))
    };
    let (mut depth, mut found) = (0i32, Vec::new());
    for (i, c) in crate::template::code_scan::code_bytes(text) {
        // A span may start inside parentheses it closes (`lambda x: x)(True)`).
        if depth <= 0
            && b[i..].starts_with(token.as_bytes())
            && !(is_operator
                && (operator_at(i.checked_sub(1)) || operator_at(Some(i + token.len()))))
        {
            found.push(i);
        }
        match c {
            b'\n'
                if line_ends && depth <= 0 && !text[..i].trim_end_matches('\r').ends_with('\\') =>
            {
                break
            }
            b'(' | b'[' | b'{' => depth += 1,
            b')' | b']' | b'}' => depth -= 1,
            _ => {}
        }
    }
    found
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn operators_and_indexes_on_later_lines() {
        let op = "unknown binary op: NoneType + int";
        assert_eq!(lines_into("(None\n  + 1)", op), 1);
        assert_eq!(lines_into("None \\\n  + 1", op), 1);
        assert_eq!(lines_into("a + \\\n b + \"+\" \\\n + c", op), 2);
        assert_eq!(lines_into("f(a\n + 1)", op), 0, "an argument's operator");
        assert_eq!(lines_into("lambda x: x)(True) \\\n + 0", op), 1);
        assert_eq!(lines_into("1\n  << None", "got NoneType, want int"), 1);
        assert_eq!(lines_into("if (a + b):\n  x = 1 \\\n    + 0\n", op), 0);
        assert_eq!(lines_into("a\n += 1", op), 0, "not the operator");
        let index = "list index 5 out of range [-2:1]";
        assert_eq!(lines_into("[1,\n  2][\n  5]", index), 1);
        assert_eq!(lines_into("__schemac_at([1,\n  2], \n  5)", index), 1);
        assert_eq!(lines_into("__schemac_mul(a,\n b)", "any"), 0);
        assert_eq!(
            lines_into("__schemac_shl(a\n, b)", "got NoneType, want int"),
            1
        );
        assert_eq!(lines_into("x[\"a\"]\n", "key \"b\" not in dict"), 0);
        assert_eq!(lines_into("f(\n 1)", "boom"), 0);
        assert_eq!(lines_into("f\n  (1)", "boom"), 1, "the call's `(`");
        let attr = "builtin_function_or_method has no .upper field or method";
        assert_eq!(lines_into("str.upper\n  (1)", attr), 0, "the `.`");
        assert_eq!(lines_into("(a\n  ).upper\n  (1)", attr), 1);
        assert_eq!(lines_into("__schemac_method(\"upper\", str\n, 1)", attr), 0);
        let dot = "string has no .nope field or method";
        assert_eq!(
            lines_into("__schemac_method(\"upper\", \"a\"\n).nope\n(1)", dot),
            1
        );
        assert_eq!(lines_into("__schemac_method(\"m\", a\n, 1)", "boom"), 1);
        assert_eq!(lines_into("__schemac_method(\"m\", a(\n)\n)", "boom"), 2);
        assert_eq!(lines_into("lambda: 1\n  )(y=1)", "boom"), 1);
        assert_eq!(lines_into("f(\"(\" # (\n )", "boom"), 0);
        let zero = "floored division by zero";
        assert_eq!(lines_into("1\n  // 0", zero), 1, "whatever the error");
        assert_eq!(lines_into("(1 //\n 0)", zero), 0, "the operator's line");
        assert_eq!(
            lines_into("(a\n ) # c\n * (b\n * c)", "any"),
            2,
            "the root operator"
        );
        assert_eq!(lines_into("a\n not in b", "any"), 1);
        assert_eq!(
            lines_into("(a\n not\n in b)", "any"),
            2,
            "`not in` at its `in`"
        );
        assert_eq!(lines_into("(a not # in\n \\\n in b)", "any"), 2);
    }
}
