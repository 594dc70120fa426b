//! Starlark syntax errors in starlark-go's words, as ytt prints them.
//!
//! The starlark crate's parser says `Parse error: unexpected symbol '&', expected expression`
//! where starlark-go's says `got '&', want primary expression`. The two grammars differ, so
//! only the errors whose tokens translate one for one are reworded (the rest keep the crate's
//! words); ytt's hints for them (`&&`, `||`, a missing colon) are added as ytt adds them.

use starlark::syntax::AstModule;

mod placement;
use placement::in_lambda_parameters;
pub(super) use placement::{
    at_bare_else, at_newline, at_return_close, colon_in_def_parameters, ends_in_brackets,
    last_if_line, missing_else,
};

/// starlark-go's errors of a string literal that a line break or the end of the source ends.
const NEWLINE_IN_STRING: &str = "unexpected newline in string";
const EOF_IN_STRING: &str = "unexpected EOF in string";

/// starlark-go's words for the error `message` met at the end of a source that no line break
/// ends, where the crate met one, after the code `before`: a string left open (`x = "a`), a
/// missing token (`def f`: `got end of file, want '('`, without the hint of a missing colon,
/// which starlark-go gives at a line break only), and a `lambda`'s parameters, whose loop
/// stops at the end of the file and then wants the `:` (`x = lambda`, `lambda a`, `lambda *`).
pub(super) fn at_end_of_file(message: String, before: Option<&str>) -> String {
    if message == NEWLINE_IN_STRING {
        return EOF_IN_STRING.into();
    }
    let after_lambda = |b: &str| {
        let b = b.trim_end();
        b.strip_suffix("lambda")
            .is_some_and(|head| !head.ends_with(is_name_char))
    };
    let parameters = match message.as_str() {
        "got newline, want ','" => before.is_some_and(in_lambda_parameters),
        "not an identifier" => before.is_some_and(after_lambda),
        _ => false,
    };
    if parameters {
        return "got end of file, want ':'".into();
    }
    match message.strip_prefix("got newline, want ") {
        Some(want) => {
            let want = want.split(" (hint: ").next().unwrap_or(want);
            format!("got end of file, want {want}")
        }
        None => message,
    }
}

/// starlark-go's wording of a parser error `msg` of the starlark crate, with ytt's hint, for
/// an error on the code `line`; `None` when there is no one-for-one wording.
#[cfg(test)]
pub(super) fn go_wording(msg: &str, line: &str) -> Option<String> {
    go_wording_at(msg, line, None)
}

/// [`go_wording`] knowing the code `before` the error: inside the argument list of a call or
/// of a `def`, where the crate wants `')'`, starlark-go wants `','`.
pub(super) fn go_wording_at(msg: &str, line: &str, before: Option<&str>) -> Option<String> {
    if msg.ends_with(super::resolver_patch::LOAD_NOT_AT_TOP) && before.is_some_and(in_def) {
        // starlark-go's resolver (a load in a top-level `if` or `for` is no error there); a
        // load whose names it also refuses is not patched out (see `resolver_patch`).
        return Some(super::resolver_patch::LOAD_IN_FUNCTION.into());
    }
    if missing_else(msg) {
        return Some("conditional expression without else clause".into());
    }
    if msg == TYPE_ANNOTATION {
        return type_annotation_wording(before?);
    }
    if msg.ends_with("/ positional-only-arguments is not allowed in this dialect") {
        // starlark-go's parser wants a parameter's name where the `/` is.
        return Some("not an identifier".into());
    }
    let rest = msg.strip_prefix("Parse error: ")?;
    if let Some(second) = rest
        .strip_prefix("unexpected symbol '")
        .or_else(|| rest.strip_prefix("unexpected keyword '"))
        .and_then(|r| {
            r.strip_suffix(
                "', expected end of expression (comparisons are not associative in Starlark)",
            )
        })
    {
        let second = if second == "not" { "not in" } else { second };
        let first = last_comparison(before?)?;
        return Some(format!(
            "{first} does not associate with {second} (use parens)"
        ));
    }
    if rest == "unfinished string literal" {
        // A triple-quoted string goes on to the end of the file in starlark-go's scanner.
        let string = line.get(error_column(before)..).unwrap_or("");
        let string = string.trim_start_matches(['r', 'R', 'b', 'B']);
        let triple = string.starts_with("\"\"\"") || string.starts_with("'''");
        return Some(match triple {
            true => EOF_IN_STRING.into(),
            false => NEWLINE_IN_STRING.into(),
        });
    }
    if let Some(c) = rest
        .strip_prefix("invalid input `")
        .and_then(|r| r.strip_suffix('`'))
    {
        // starlark-go's scanner takes a backslash only before a newline.
        if c == "\\" {
            return Some("stray backslash in program".into());
        }
        // starlark-go quotes the character as Go does (`'\x1b'`).
        let mut chars = c.chars();
        return Some(match (chars.next(), chars.next()) {
            (Some(one), None) => format!(
                "unexpected input character {}",
                super::toml_lexer::quote_char(one)
            ),
            _ => format!("unexpected input character '{c}'"),
        });
    }
    if rest == "expected string literal in load statement" {
        // At a name not followed by `=`: starlark-go names it.
        let name = leading_name(line.get(error_column(before)..).unwrap_or(""));
        return Some(format!(
            "load operand must be \"{name}\" or {name}=\"originalname\" (want '=' after {name})"
        ));
    }
    let (raw_got, want) = rest
        .strip_prefix("unexpected ")?
        .split_once(", expected ")?;
    let mut got = token(raw_got)?;
    if at_return_close(msg, line, before) {
        got = "newline".into();
    }
    match want {
        // (A `def`'s parameters at the end of the file: see `just_opened_argument_list`.)
        "identifier"
            if matches!(got.as_str(), "end of file" | "newline")
                && before.is_some_and(just_opened_argument_list) =>
        {
            return Some(format!("got {got}, want ')'"));
        }
        // starlark-go's `parseIdent`, after `def`, `.`, in parameters.
        "identifier" => {
            return Some(match raw_got.strip_prefix("keyword ") {
                Some(word) => {
                    format!("use of reserved keyword {word} is not allowed (expected identifier)")
                }
                None => "not an identifier".into(),
            })
        }
        "string literal or identifier" => {
            return Some(format!(
                "load operand must be \"name\" or localname=\"name\" (got {got})"
            ))
        }
        "string literal" => return load_string_wording(before?),
        _ => {}
    }
    if outdent_keyword(&got, line, before) {
        got = "outdent".into();
    }
    if before.is_some_and(after_annotation_colon) {
        // The crate reads a type after an assignment's target (`http://h`, `a: b c`), where
        // starlark-go's parser wants the statement's end at the `:`.
        return Some("got ':', want newline".into());
    }
    let want = match want {
        // starlark-go's loop over a call's arguments or a `def`'s parameters stops at the end
        // of the file, then wants the `)` (`f(` is `got end of file, want ')'`); inside
        // brackets the crate's line break is the one it puts at the end.
        "expression"
            if matches!(got.as_str(), "end of file" | "newline")
                && before.is_some_and(just_opened_argument_list) =>
        {
            "')'".to_string()
        }
        "expression" if ends_expression_list(&got) => {
            match before.and_then(after_comma_in_expression_list) {
                Some(b'[') => "']'".to_string(),
                Some(_) => "')'".to_string(),
                None => "primary expression".to_string(),
            }
        }
        "expression" => "primary expression".to_string(),
        "new line" => "newline".to_string(),
        "'in' after 'not'" | "keyword 'in'" => "in".to_string(),
        // A lambda's `)` after a `*` parameter and a comma (vendor/README.md change 10).
        "parameter" => "parameter".to_string(),
        // (At the end of the source, where the crate meets the line break it puts there inside
        // brackets, starlark-go's loop over the arguments stops and wants the `)`: `f(a`.)
        "symbol ')'"
            if !matches!(got.as_str(), "end of file" | "newline")
                && before.is_some_and(in_argument_list) =>
        {
            "','".to_string()
        }
        // The brackets around a `return`'s value are schemac's: ytt's value ends at its line.
        "symbol ')'" if before.is_some_and(in_return_value) => "newline".to_string(),
        // starlark-go's loop over a `load`'s operands stops at the end of the file, then
        // wants the `)` (`load("m"`); the crate wants the `,` of a second operand.
        "symbol ','"
            if matches!(got.as_str(), "end of file" | "newline")
                && before.is_some_and(in_load_operands) =>
        {
            "')'".to_string()
        }
        // After a lambda's parameter starlark-go wants the next one's `,` (the `:` or the `)`
        // of brackets around the lambda end them).
        "symbol ':'"
            if !matches!(got.as_str(), "')'" | "end of file")
                && before.is_some_and(in_lambda_parameters) =>
        {
            "','".to_string()
        }
        // After a comprehension's clause starlark-go wants its bracket or another clause.
        "symbol ']'" | "symbol '}'" if before.is_some_and(in_comprehension) => {
            format!("{}, for, or if", quoted_symbol(&want["symbol ".len()..])?)
        }
        // After `(1,` starlark-go's parser wants another expression (`)` it takes too).
        "symbol ')'"
            if !ends_expression_list(&got) && before.is_some_and(after_comma_in_parentheses) =>
        {
            "primary expression".to_string()
        }
        w => quoted_symbol(w.strip_prefix("symbol ")?)?.to_string(),
    };
    let message = format!("got {got}, want {want}");
    let hint = match (got.as_str(), want.as_str()) {
        ("newline", "':'") => Some("missing colon at the end of 'if/for/def' statement?"),
        ("'&'", "primary expression") if line.contains("&&") => {
            Some("use 'and' instead of '&&' for logical-and")
        }
        ("'|'", "primary expression") if line.contains("||") => {
            Some("use 'or' instead of '||' for logical-or")
        }
        _ => None,
    };
    Some(match hint {
        Some(h) => format!("{message} (hint: {h})"),
        None => message,
    })
}

/// The crate's refusal of a type annotation (`x: int = 1`, `def f(a: int) -> int:`) in ytt's
/// dialect, an error of no parser kind, where starlark-go's parser meets an unexpected token.
pub(super) const TYPE_ANNOTATION: &str = "type annotations are not allowed in this dialect";

/// The crate's error for `a = 1,`, in starlark-go's words too: its parser's, not raised while
/// the program runs.
pub(super) const TRAILING_COMMA_TUPLE: &str = "unparenthesized tuple with trailing comma";

/// starlark-go's words at a type annotation whose type starts after the code `before`: at
/// the `:` after an assignment's target it wants the statement's end, after a parameter the
/// parameters' `)`; at a `->` it wants the `def`'s `:`.
fn type_annotation_wording(before: &str) -> Option<String> {
    let before = before.trim_end();
    if before.ends_with("->") {
        return Some("got '-', want ':'".into());
    }
    before.strip_suffix(':')?;
    Some(match open_brackets(before).is_empty() {
        true => "got ':', want newline".into(),
        false => "got ':', want ')'".into(),
    })
}

/// Whether the last line of the code `before` an error is a statement's target followed by a
/// `:` outside brackets (no `if`, `for`, `def`, `lambda` header, no string before it).
fn after_annotation_colon(before: &str) -> bool {
    let start = before.rfind('\n').map_or(0, |i| i + 1);
    let line = &before[start..];
    let Some(colon) = line.find(':') else {
        return false;
    };
    let target = line[..colon].trim();
    let header = matches!(
        leading_name(target),
        "if" | "elif" | "else" | "for" | "while" | "def"
    );
    !header
        && !target.contains(['"', '\'', '#'])
        && !target.contains("lambda")
        && target.ends_with(|c: char| is_name_char(c) || c == ']' || c == ')')
        && open_brackets(&before[..start + colon]).is_empty()
}

/// starlark-go's words for a `load` whose module or original name is not a string literal,
/// the error at the end of the code `before`.
fn load_string_wording(before: &str) -> Option<String> {
    let code = before.trim_end();
    if code.ends_with('(') {
        return Some("first operand of load statement must be a string literal".into());
    }
    let head = code.strip_suffix('=')?.trim_end();
    let name = &head[head.trim_end_matches(is_name_char).len()..];
    Some(format!(
        "original name of loaded symbol must be quoted: {name}=\"originalname\""
    ))
}

/// starlark-go's words for a `load` with no symbol, which the crate's parser refuses with
/// `raw` where starlark-go's parser does.
pub(super) fn load_without_symbols_wording(raw: &str) -> Option<String> {
    raw.ends_with("`load` statement requires at least two arguments")
        .then(|| "load statement must import at least 1 symbol".into())
}

/// starlark-go's name of the kind of the expression `text` (its Go type, lower case), for those
/// the crate refuses to assign to.
pub(super) fn expression_kind(text: &str) -> Option<&'static str> {
    use starlark::syntax::ast::{ExprP, StmtP};
    let ast = AstModule::parse("lhs", text.to_owned(), &super::dialect()).ok()?;
    let StmtP::Expression(e) = &ast.statement().node else {
        return None;
    };
    Some(match &e.node {
        ExprP::Literal(_) => "literal",
        ExprP::Call(..) => "callexpr",
        ExprP::Op(..) => "binaryexpr",
        ExprP::Not(_) | ExprP::Minus(_) | ExprP::Plus(_) | ExprP::BitNot(_) => "unaryexpr",
        ExprP::If(_) => "condexpr",
        ExprP::Dict(_) => "dictexpr",
        ExprP::ListComprehension(..) | ExprP::DictComprehension(..) => "comprehension",
        ExprP::Slice(..) => "sliceexpr",
        ExprP::Lambda(_) => "lambdaexpr",
        _ => return None,
    })
}

/// Whether the keyword `got` at the end of `before` on the code `line` is one that ytt's
/// block scanner reads as an outdent before it, `elif` or `else` followed by `:`, in the middle
/// of a statement, where starlark-go's parser refuses the outdent (at the start of a line it
/// takes the outdent and refuses the keyword).
fn outdent_keyword(got: &str, line: &str, before: Option<&str>) -> bool {
    let column = error_column(before);
    let rest = line.get(column..).unwrap_or("");
    let starts_statement = line.get(..column).is_some_and(|l| l.trim().is_empty())
        && before.is_none_or(|b| open_brackets(b).is_empty());
    if starts_statement {
        return false;
    }
    match got {
        "elif" => true,
        "else" => rest
            .strip_prefix("else")
            .is_some_and(|r| r.trim_start().starts_with(':')),
        _ => false,
    }
}

/// ytt's hint for a template error whose operator is bitwise where a logical one was meant
/// (`unknown binary op: bool | bool`); "" for any other message.
pub(super) fn template_hint(message: &str) -> &'static str {
    let Some(ops) = message.strip_prefix("unknown binary op: ") else {
        return "";
    };
    if ops.contains(" | ") {
        " (hint: use 'or' instead of '|' for logical-or)"
    } else if ops.contains(" & ") {
        " (hint: use 'and' instead of '&' for logical-and)"
    } else {
        ""
    }
}

/// The column (in bytes) of an error whose line's code before it ends `before`.
fn error_column(before: Option<&str>) -> usize {
    before.map_or(0, |b| b.len() - b.rfind('\n').map_or(0, |i| i + 1))
}

pub(super) fn is_name_char(c: char) -> bool {
    c == '_' || c.is_alphanumeric()
}

/// The name `text` starts with (`kw` of `kw, b=1`), empty if none.
pub(super) fn leading_name(text: &str) -> &str {
    &text[..text.len() - text.trim_start_matches(is_name_char).len()]
}

/// starlark-go's name of a token the crate's parser names `what`.
fn token(what: &str) -> Option<String> {
    if what == "new line" {
        return Some("newline".into());
    }
    let (kind, text) = what.split_once(' ').unwrap_or((what, ""));
    Some(match kind {
        // A string literal with escapes of bytes that are not UTF-8 is read as a call of
        // `__schemac_bytes` (see `go_literals`): its first token is that name.
        "identifier" if text == format!("'{}'", super::go_literals::BYTES) => {
            "string literal".into()
        }
        "identifier" => "identifier".into(),
        "integer" if text.starts_with("literal ") => "int literal".into(),
        "float" if text.starts_with("literal ") => "float literal".into(),
        "string" if text.starts_with("literal ") => "string literal".into(),
        "symbol" => quoted_symbol(text)?.to_string(),
        // starlark-go names a keyword by itself: `got else, want primary expression`.
        "keyword" => text.strip_prefix('\'')?.strip_suffix('\'')?.to_string(),
        _ => return None,
    })
}

/// Whether starlark-go's parser ends a list of expressions at the token `got` (after a `,`
/// it wants another expression before anything else).
fn ends_expression_list(got: &str) -> bool {
    matches!(
        got,
        "')'" | "']'" | "'}'" | "'='" | "';'" | "newline" | "end of file"
    )
}

/// Whether `code` ends, past blanks and comments, in a `,` inside parentheses that are not a
/// call's or a `def`'s (a tuple).
fn after_comma_in_parentheses(code: &str) -> bool {
    after_comma_in_expression_list(code) == Some(b'(')
}

/// The bracket (`[` of a list, `(` of a tuple) whose list of expressions `code` ends in,
/// past blanks and comments, with a `,`: starlark-go's parser then ends the list at a token
/// that ends expression lists (`[1, )` wants `]`).
fn after_comma_in_expression_list(code: &str) -> Option<u8> {
    let open = *open_brackets(code).last()?;
    let bracket = code.as_bytes()[open];
    if !matches!(bracket, b'[' | b'(') || (bracket == b'(' && in_argument_list(code)) {
        return None;
    }
    let last = code
        .lines()
        .rev()
        .map(|l| crate::template::code_scan::without_comment(l).trim_end())
        .find(|l| !l.is_empty());
    last.is_some_and(|l| l.ends_with(',')).then_some(bracket)
}

/// Whether `code` ends, past blanks and comments, in the `(` of a call or of a `def`'s
/// parameters.
fn just_opened_argument_list(code: &str) -> bool {
    let last = code
        .lines()
        .rev()
        .map(|l| crate::template::code_scan::without_comment(l).trim_end())
        .find(|l| !l.is_empty());
    last.is_some_and(|l| l.ends_with('(')) && in_argument_list(code)
}

/// Whether the innermost bracket left open in `code` is the `(` of a call or of a `def`'s
/// parameters (it follows a name that is not a keyword, a closing bracket or a string).
fn in_argument_list(code: &str) -> bool {
    let open = open_brackets(code);
    let bytes = code.as_bytes();
    let Some(&at) = open.last() else {
        return false;
    };
    if bytes[at] != b'(' {
        return false;
    }
    // Outside brackets, a line break before the `(` ends the statement before it (`(1 2)` on a
    // line of its own is no call), unless a `\` continues the line.
    let head = code[..at].trim_end_matches([' ', '\t']);
    let head = match head.strip_suffix('\n') {
        Some(before) => match before.strip_suffix('\\') {
            Some(continued) => continued,
            None if open.len() == 1 => return false,
            None => before,
        },
        None => head,
    };
    let head = head.trim_end();
    match head.chars().last() {
        Some(')' | ']' | '"' | '\'') => true,
        Some(c) if c.is_alphanumeric() || c == '_' => {
            let word: String = head
                .chars()
                .rev()
                .take_while(|c| c.is_alphanumeric() || *c == '_')
                .collect::<Vec<_>>()
                .into_iter()
                .rev()
                .collect();
            const KEYWORDS: [&str; 11] = [
                "and", "or", "not", "in", "if", "else", "elif", "for", "return", "lambda", "while",
            ];
            !KEYWORDS.contains(&word.as_str())
        }
        _ => false,
    }
}

/// Whether the innermost bracket left open in `code` is the `(` of a `load` statement.
fn in_load_operands(code: &str) -> bool {
    let Some(&at) = open_brackets(code).last() else {
        return false;
    };
    let head = code[..at].trim_end();
    code.as_bytes()[at] == b'('
        && head.ends_with("load")
        && !head[..head.len() - "load".len()].ends_with(|c: char| is_name_char(c) || c == '.')
}

/// Whether the innermost bracket left open in `code` is a `[` or `{` whose comprehension has
/// begun: a `for` stands in it, outside the brackets within it (`[i for i in x`).
fn in_comprehension(code: &str) -> bool {
    let Some(&at) = open_brackets(code).last() else {
        return false;
    };
    if !matches!(code.as_bytes()[at], b'[' | b'{') {
        return false;
    }
    let inside = &code[at + 1..];
    let bytes = inside.as_bytes();
    let word_byte = |i: usize| {
        bytes
            .get(i)
            .is_some_and(|b| *b == b'_' || b.is_ascii_alphanumeric())
    };
    let mut depth = 0usize;
    code_bytes(inside).any(|i| {
        match bytes[i] {
            b'(' | b'[' | b'{' => depth += 1,
            b')' | b']' | b'}' => depth = depth.saturating_sub(1),
            _ => {}
        }
        depth == 0
            && inside[i..].starts_with("for")
            && !(i > 0 && word_byte(i - 1))
            && !word_byte(i + 3)
    })
}

/// Whether the innermost bracket left open in `code` is the one schemac wraps a `return`'s
/// value in ([`return_value_open`](crate::template::generated_names::GeneratedNames::return_value_open)).
fn in_return_value(code: &str) -> bool {
    use crate::template::generated_names::GeneratedNames;
    open_brackets(code)
        .last()
        .is_some_and(|&at| GeneratedNames::ends_with_any_return_value_open(&code[..=at]))
}

/// Where the brackets left open in `code` are, outermost first (brackets in strings and
/// comments do not count; a closing bracket with none open is skipped).
fn open_brackets(code: &str) -> Vec<usize> {
    let mut open: Vec<usize> = Vec::new();
    for i in code_bytes(code) {
        match code.as_bytes()[i] {
            b'(' | b'[' | b'{' => open.push(i),
            b')' | b']' | b'}' => {
                open.pop();
            }
            _ => {}
        }
    }
    open
}

/// The last comparison operator (`<`, `==`, `in`, `not in`...) of `code` outside brackets it
/// leaves open and outside the brackets it closes: the first of two chained comparisons when
/// the second follows `code`.
fn last_comparison(code: &str) -> Option<&'static str> {
    const OPERATORS: [&str; 6] = ["==", "!=", "<=", ">=", "<", ">"];
    let bytes = code.as_bytes();
    let word_byte = |b: u8| b == b'_' || b.is_ascii_alphanumeric();
    let mut levels: Vec<Option<&'static str>> = vec![None];
    let (mut skip, mut last_word) = (0, "");
    for i in code_bytes(code) {
        if skip > 0 {
            skip -= 1;
            continue;
        }
        if word_byte(bytes[i]) {
            let word = &code[i..];
            let word = &word[..word
                .bytes()
                .position(|b| !word_byte(b))
                .unwrap_or(word.len())];
            skip = word.len() - 1;
            if word == "in" {
                *levels.last_mut()? = Some(if last_word == "not" { "not in" } else { "in" });
            }
            last_word = word;
            continue;
        }
        match bytes[i] {
            b'(' | b'[' | b'{' => levels.push(None),
            b')' | b']' | b'}' => {
                levels.pop();
                if levels.is_empty() {
                    levels.push(None);
                }
            }
            _ => {
                let op = OPERATORS
                    .iter()
                    .find(|op| bytes[i..].starts_with(op.as_bytes()));
                // `=` alone, `<<` and `>>` are not comparisons.
                let shift = bytes[i..].starts_with(b"<<") || bytes[i..].starts_with(b">>");
                if let (Some(op), false) = (op, shift) {
                    skip = op.len() - 1;
                    *levels.last_mut()? = Some(op);
                }
            }
        }
    }
    *levels.last()?
}

/// The positions of the bytes of `code` outside strings and comments, for the scans above
/// (each line break included; a literal is its first quote, a comment its `#`, see
/// [`code_scan`](crate::template::code_scan)).
fn code_bytes(code: &str) -> impl Iterator<Item = usize> + '_ {
    crate::template::code_scan::code_bytes(code).map(|(at, _)| at)
}

/// Whether the last line of `code` (the statement the error is on) is in the body of a `def`:
/// some line above it, less indented than every line between, starts with `def `.
pub(super) fn in_def(code: &str) -> bool {
    let indent = |l: &str| l.len() - l.trim_start().len();
    let mut lines = code.lines().rev();
    let Some(mut within) = lines.next().map(indent) else {
        return false;
    };
    for l in lines.filter(|l| !l.trim().is_empty()) {
        if indent(l) < within {
            if l.trim_start().starts_with("def ") {
                return true;
            }
            within = indent(l);
        }
    }
    false
}

/// `'x'` for a punctuation symbol written `'x'`.
fn quoted_symbol(text: &str) -> Option<&str> {
    let inner = text.strip_prefix('\'')?.strip_suffix('\'')?;
    (!inner.is_empty() && !inner.chars().any(char::is_alphanumeric)).then_some(text)
}

/// Where the arguments of the call (or items of the brackets) left open at the end of `code`
/// start, each after the bracket or a comma; the last is where the argument being written
/// starts.
pub(super) fn argument_starts(code: &str) -> Vec<usize> {
    let Some(&open) = open_brackets(code).last() else {
        return Vec::new();
    };
    let mut starts = vec![open + 1];
    let mut depth = 0i32;
    for i in code_bytes(code).filter(|&i| i > open) {
        match code.as_bytes()[i] {
            b'(' | b'[' | b'{' => depth += 1,
            b')' | b']' | b'}' => depth -= 1,
            b',' if depth == 0 => starts.push(i + 1),
            _ => {}
        }
    }
    starts
}

/// The words starlark-go's scanner reserves (its `ILLEGAL` token): `class`, `import`... The
/// starlark crate reserves them too, and `assert`, `async`, `await` and `while`, which are
/// names or a keyword in ytt (renamed, or a `while` statement rewritten, before the parse; a
/// `while` left is stood in for as these are).
const GO_RESERVED: [&str; 14] = [
    "as", "class", "del", "except", "finally", "from", "global", "import", "is", "nonlocal",
    "raise", "try", "with", "yield",
];

/// A token that stands for a reserved word in a second parse: the crate's parser takes `->`
/// only after a `def`'s parameters, and names it in its error as it names any other token.
const STAND_IN: &str = "->";

/// The stand-in right after a `)` on the same line, where `->` would be taken (`def f() as
/// x:`): `~` is an operand's prefix, which no `)` is followed by.
const STAND_IN_AFTER_PARENTHESIS: &str = "~";

/// The crate's lexer refuses a reserved word where it meets it (`cannot use reserved keyword
/// `class``), while starlark-go's parser meets an illegal token and says what it wanted there
/// (`got illegal token, want primary expression`). For such an error `e` of parsing `name`,
/// parses the file again, once, with a stand-in token in place of every reserved word its
/// lexer meets, to learn what the parser wanted: the error at the first stand-in it fails on,
/// and the word stood in for. `e` itself (and `None`) where the second parse does not fail on
/// a stand-in. (The stand-ins the parser takes are those it would take one at a time: it
/// fails at the first token it cannot take, whatever follows.)
pub(super) fn at_reserved_word(
    name: &str,
    e: starlark::Error,
) -> (starlark::Error, Option<StoodIn>) {
    let Some(mut source) = e.span().map(|s| s.file.source().to_string()) else {
        return (e, None);
    };
    let first = e.span().map(|s| s.span.begin().get() as usize);
    let words = reserved_words(name, &source);
    if words.first().map(|(at, _)| *at) != first {
        return (e, None);
    }
    let mut stood_in: Vec<(usize, &'static str, &'static str)> = Vec::new();
    for &(at, word) in &words {
        // A `while` statement that schemac did not rewrite (it is malformed) parses as an
        // `if` does in starlark-go: its errors are the `if`'s.
        let line_start = source[..at].rfind('\n').map_or(0, |i| i + 1);
        let statement = word == "while" && source[line_start..at].trim().is_empty();
        let stand_in = match () {
            _ if statement => "if",
            _ if after_closing_parenthesis(&source[..at]) => STAND_IN_AFTER_PARENTHESIS,
            _ => STAND_IN,
        };
        let padded = format!("{stand_in}{}", " ".repeat(word.len() - stand_in.len()));
        source.replace_range(at..at + word.len(), &padded);
        if !statement {
            stood_in.push((at, word, stand_in));
        }
    }
    let last = match AstModule::parse(name, source, &super::dialect()) {
        Ok(_) => return (e, None),
        Err(last) => last,
    };
    let at = last.span().map(|s| s.span.begin().get() as usize);
    match stood_in.iter().find(|(p, ..)| Some(*p) == at) {
        Some(&(_, word, stand_in)) => (last, Some(StoodIn { word, stand_in })),
        // Only `while` statements stood in for: the error is one of the file's own.
        None if stood_in.is_empty() => (last, None),
        None => (e, None),
    }
}

/// A reserved word that a syntax error is at, and the token that stood for it in the parse
/// that found the error.
pub(super) struct StoodIn {
    word: &'static str,
    stand_in: &'static str,
}

/// Whether `code` ends in a `)` and blanks, on its last line or on lines joined to it by `\`.
fn after_closing_parenthesis(code: &str) -> bool {
    let mut code = code.trim_end_matches([' ', '\t']);
    while let Some(joined) = code
        .strip_suffix('\n')
        .map(|c| c.strip_suffix('\r').unwrap_or(c))
        .and_then(|c| c.strip_suffix('\\'))
    {
        code = joined.trim_end_matches([' ', '\t']);
    }
    code.ends_with(')')
}

/// The reserved words of `source` that starlark-go's scanner reserves too, or `while`, where
/// the crate's lexer meets them (byte offsets), up to the first other error of the lexer.
fn reserved_words(name: &str, source: &str) -> Vec<(usize, &'static str)> {
    use starlark::codemap::CodeMap;
    use starlark_syntax::lexer::Lexer;
    let codemap = CodeMap::new(name.to_string(), source.to_string());
    let mut words = Vec::new();
    for lexeme in Lexer::new(codemap.source(), &super::dialect(), codemap.clone()) {
        let Err(error) = lexeme else {
            continue;
        };
        let error = error.into_error();
        let word = error
            .without_diagnostic()
            .to_string()
            .strip_prefix("Parse error: cannot use reserved keyword `")
            .and_then(|r| r.strip_suffix('`'))
            .and_then(|w| {
                GO_RESERVED
                    .iter()
                    .chain(&["while"])
                    .find(|r| **r == w)
                    .copied()
            });
        let at = error.span().map(|s| s.span.begin().get() as usize);
        match (word, at) {
            (Some(word), Some(at)) if source.get(at..at + word.len()) == Some(word) => {
                words.push((at, word))
            }
            _ => break,
        }
    }
    words
}

/// starlark-go's words for an error made at a reserved word stood in for (`message` is the
/// stand-in's error, translated where it could be).
pub(super) fn name_reserved_word(message: &str, stood_in: &StoodIn) -> String {
    let StoodIn { word, stand_in } = stood_in;
    if message == "not an identifier" {
        return format!("use of reserved keyword '{word}' is not allowed (expected identifier)");
    }
    // starlark-go names its keywords by themselves, its reserved words `illegal token`.
    let token = match *word {
        "while" => word,
        _ => "illegal token",
    };
    message.replacen(&format!("got '{stand_in}'"), &format!("got {token}"), 1)
}

#[cfg(test)]
mod tests;
