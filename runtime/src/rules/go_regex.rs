//! Regular expressions as Go's RE2 (ytt's `@ytt:regexp`) reads them, compiled by the `regex`
//! crate: the text is first written with Go's meaning in the crate's syntax ([`syntax`]).

mod fold;
mod syntax;
#[cfg(test)]
mod syntax_tests;

use regex_syntax::ast::{Ast, GroupKind, RepetitionKind, RepetitionRange};

/// The budget of a compiled regular expression's size, in bytes.
pub const DEFAULT_MAX_REGEX_BYTES: usize = crate::budget_vars::MAX_REGEX_BYTES.default_size();

/// The variable that raises [`DEFAULT_MAX_REGEX_BYTES`].
pub const MAX_REGEX_BYTES_VAR: &str = crate::budget_vars::MAX_REGEX_BYTES.name;

/// `pattern` compiled with Go's meaning of its escapes and classes ([`syntax`]: `\w`, `\d`,
/// `\s` and `\b` are ASCII, `\Q.*\E` quotes); a syntax error is the crate's, or Go's for an
/// escape Go refuses. Go nests groups deeper than the crate's default (see [`go_error`] for Go's
/// bound), and compiles classes such as `\pL` to one instruction where the crate builds an
/// automaton of some kilobytes (`\pL{1000}`, which ytt takes, is 20 MB): the compiled size has
/// a budget of its own, [`DEFAULT_MAX_REGEX_BYTES`] (`SCHEMAC_MAX_REGEX_BYTES`).
/// Patterns are compiled once per thread and kept (Go compiles in microseconds what the crate
/// may take a tenth of a second for, and a rule calls `regexp.match` once per value): the last
/// [`COMPILED_KEPT`] patterns, the most recently used first.
pub fn compile(pattern: &str) -> Result<regex::Regex, regex::Error> {
    thread_local! {
        static COMPILED: std::cell::RefCell<Vec<(String, Result<regex::Regex, regex::Error>)>> =
            const { std::cell::RefCell::new(Vec::new()) };
    }
    COMPILED.with_borrow_mut(|kept| {
        if let Some(i) = kept.iter().position(|(p, _)| p == pattern) {
            let hit = kept.remove(i);
            kept.insert(0, hit);
        } else {
            kept.truncate(COMPILED_KEPT - 1);
            kept.insert(0, (pattern.to_string(), compile_anew(pattern)));
        }
        kept[0].1.clone()
    })
}

/// How many compiled patterns [`compile`] keeps per thread: each may hold up to
/// [`DEFAULT_MAX_REGEX_BYTES`] (8 `\pL{1000}` kept are about 500 MB), and a program cycling
/// through more patterns than this compiles each every time, as before they were kept.
const COMPILED_KEPT: usize = 8;

/// [`compile`] without the kept patterns.
fn compile_anew(pattern: &str) -> Result<regex::Regex, regex::Error> {
    let max = crate::budget_vars::MAX_REGEX_BYTES.get_size();
    let go = syntax::go_syntax(pattern).map_err(|(_, e)| regex::Error::Syntax(e))?;
    let go = fold::go_case_folding(&go);
    regex::RegexBuilder::new(&go)
        .nest_limit(u32::try_from(pattern.len()).unwrap_or(u32::MAX))
        .size_limit(max)
        .build()
        .map_err(|e| match e {
            regex::Error::CompiledTooBig(n) => regex::Error::Syntax(format!(
                "compiled regular expression is larger than the budget of {n} bytes (raise the budget with {MAX_REGEX_BYTES_VAR})"
            )),
            e => e,
        })
}

/// Go's syntax error for `pattern`, for the rules of Go's RE2 parser the crate does not share:
/// a repeat count above 1000 (`x{1001}`), nested `{n}` repeats whose counts multiply past
/// 1000 (`(a{10}){200}`), a repetition operator applied to another (`a**`, `a+{2}`, `a*??`),
/// a parse tree higher than 1000 (`expression nests too deeply`), and the escapes Go refuses
/// ([`syntax`]: `\u00e9`, `\b` in a class, `\p{Letter}`). `None` when the crate
/// cannot parse the pattern either (its error is mapped to Go's words elsewhere).
pub fn go_error(pattern: &str) -> Option<String> {
    match syntax::go_syntax(pattern) {
        // Go reads the text in order: an error of the part before comes first.
        Err((at, e)) => Some(structure_error(&pattern[..at]).unwrap_or(e)),
        Ok(_) => structure_error(pattern),
    }
}

/// [`go_error`]'s checks of the parse tree. Where the crate refuses `pattern`, Go's repeat
/// checks still run on what Go reads before it meets that error ([`read_before`]): a repeat
/// Go refuses there comes first (`((a{100}){100}`, `(a{2}){501}[`).
fn structure_error(pattern: &str) -> Option<String> {
    let ast = match parse(pattern) {
        Ok(ast) => ast,
        Err(e) => return repeat_error(&read_before(pattern, &e)?, pattern),
    };
    if let Some(e) = repeat_error(&ast, pattern) {
        return Some(e);
    }
    (height(&ast) > GO_MAX_REPEAT as usize)
        .then(|| format!("expression nests too deeply: `{pattern}`"))
}

/// The crate's parse tree of `pattern`, nested as deep as the text allows (Go's bound on the
/// height is checked apart).
fn parse(pattern: &str) -> Result<Ast, Box<regex_syntax::ast::Error>> {
    regex_syntax::ast::parse::ParserBuilder::new()
        .nest_limit(u32::try_from(pattern.len()).unwrap_or(u32::MAX))
        .build()
        .parse(pattern)
        .map_err(Box::new)
}

/// The parse tree of what Go's parser reads of `pattern` before it meets the crate's error
/// `e`, its open groups closed: Go finds a group left open only at the pattern's end
/// (`missing closing )`), so the whole pattern; any other error where the crate finds it, so
/// the text before it. `None` when that text does not parse either.
fn read_before(pattern: &str, e: &regex_syntax::ast::Error) -> Option<Ast> {
    let read = match e.kind() {
        regex_syntax::ast::ErrorKind::GroupUnclosed => pattern,
        _ => pattern.get(..e.span().start.offset)?,
    };
    parse(read)
        .ok()
        .or_else(|| parse(&with_open_groups_closed(read)?).ok())
}

/// `read` with a `)` for each group it leaves open: one for each `(` is too many, and the
/// crate's error at the first `)` left over says where the closed text ends.
fn with_open_groups_closed(read: &str) -> Option<String> {
    let opens = read.bytes().filter(|&b| b == b'(').count();
    let mut closed = format!("{read}{}", ")".repeat(opens));
    match parse(&closed) {
        Ok(_) => Some(closed),
        Err(e) if *e.kind() == regex_syntax::ast::ErrorKind::GroupUnopened => {
            let end = e.span().start.offset;
            (end >= read.len()).then(|| {
                closed.truncate(end);
                closed
            })
        }
        Err(_) => None,
    }
}

/// Go's bound on a repeat count, on the product of nested counts, and on the parse tree's
/// height.
const GO_MAX_REPEAT: u32 = 1000;

/// The first repetition in `ast` (in the order of the text) that Go refuses, in Go's words.
fn repeat_error(ast: &Ast, pattern: &str) -> Option<String> {
    let text = |from: usize, to: usize| pattern.get(from..to).unwrap_or_default();
    match ast {
        Ast::Repetition(rep) => {
            if let Some(e) = repeat_error(&rep.ast, pattern) {
                return Some(e);
            }
            let op = &rep.op.span;
            if let RepetitionKind::Range(range) = &rep.op.kind {
                let (min, max) = bounds(range);
                if min > GO_MAX_REPEAT || max.is_some_and(|m| m > GO_MAX_REPEAT) {
                    // The count without a non-greedy `?`.
                    let end = op.end.offset - usize::from(!rep.greedy);
                    return Some(format!(
                        "invalid repeat count: `{}`",
                        text(op.start.offset, end)
                    ));
                }
            }
            if let Ast::Repetition(inner) = &*rep.ast {
                return Some(format!(
                    "invalid nested repetition operator: `{}`",
                    text(inner.op.span.start.offset, op.end.offset)
                ));
            }
            if let RepetitionKind::Range(range) = &rep.op.kind {
                let (min, max) = bounds(range);
                if (min >= 2 || max.is_some_and(|m| m >= 2)) && !repeat_is_valid(ast, GO_MAX_REPEAT)
                {
                    return Some(format!(
                        "invalid repeat count: `{}`",
                        text(op.start.offset, op.end.offset)
                    ));
                }
            }
            None
        }
        _ => children(ast).find_map(|a| repeat_error(a, pattern)),
    }
}

/// A range's bounds: `{m}` is `(m, Some(m))`, `{m,}` `(m, None)`.
fn bounds(range: &RepetitionRange) -> (u32, Option<u32>) {
    match *range {
        RepetitionRange::Exactly(n) => (n, Some(n)),
        RepetitionRange::AtLeast(n) => (n, None),
        RepetitionRange::Bounded(m, n) => (m, Some(n)),
    }
}

/// Go's `repeatIsValid`: the `{n}` counts nested in `ast` multiply to at most `n`.
fn repeat_is_valid(ast: &Ast, mut n: u32) -> bool {
    if let Ast::Repetition(rep) = ast {
        if let RepetitionKind::Range(range) = &rep.op.kind {
            let (min, max) = bounds(range);
            let m = max.unwrap_or(min);
            if m == 0 {
                return true;
            }
            if m > n {
                return false;
            }
            n /= m;
        }
    }
    children(ast).all(|a| repeat_is_valid(a, n))
}

/// The height of Go's parse tree for `ast`: a capturing group and a repetition are a node
/// over their operand, a concatenation or an alternation of several items one over them
/// (a non-capturing group's items joining those of the one it is in); a non-capturing group
/// adds nothing.
fn height(ast: &Ast) -> usize {
    match ast {
        Ast::Repetition(rep) => 1 + height(&rep.ast),
        Ast::Group(g) => match g.kind {
            GroupKind::NonCapturing(_) => height(&g.ast),
            _ => 1 + height(&g.ast),
        },
        Ast::Concat(_) | Ast::Alternation(_) => {
            let mut items = Vec::new();
            flatten(ast, std::mem::discriminant(ast), &mut items);
            let top = items.iter().map(|a| height(a)).max().unwrap_or(1);
            top + usize::from(items.len() > 1)
        }
        _ => 1,
    }
}

/// The items of the concatenation or alternation `ast` (kind `kind`), those of non-capturing
/// groups of the same kind in it included.
fn flatten<'a>(ast: &'a Ast, kind: std::mem::Discriminant<Ast>, out: &mut Vec<&'a Ast>) {
    match ast {
        Ast::Group(g) if matches!(g.kind, GroupKind::NonCapturing(_)) => {
            if std::mem::discriminant(&*g.ast) == kind {
                flatten(&g.ast, kind, out)
            } else {
                out.push(ast)
            }
        }
        Ast::Concat(c) if std::mem::discriminant(ast) == kind => {
            c.asts.iter().for_each(|a| flatten(a, kind, out))
        }
        Ast::Alternation(a) if std::mem::discriminant(ast) == kind => {
            a.asts.iter().for_each(|a| flatten(a, kind, out))
        }
        _ => out.push(ast),
    }
}

/// The sub-expressions of `ast`, in the order of the text.
fn children(ast: &Ast) -> Box<dyn Iterator<Item = &Ast> + '_> {
    match ast {
        Ast::Repetition(rep) => Box::new(std::iter::once(&*rep.ast)),
        Ast::Group(g) => Box::new(std::iter::once(&*g.ast)),
        Ast::Concat(c) => Box::new(c.asts.iter()),
        Ast::Alternation(a) => Box::new(a.asts.iter()),
        _ => Box::new(std::iter::empty()),
    }
}

#[cfg(test)]
mod tests {
    use super::compile;

    #[test]
    fn perl_classes_are_ascii_as_in_go() {
        assert!(!compile(r"^\w+$").unwrap().is_match("é"));
        assert!(compile(r"^[\w.-]+$").unwrap().is_match("a-b.c_1"));
        assert!(!compile(r"^[\w.-]+$").unwrap().is_match("aé"));
        assert!(compile(r"^\W$").unwrap().is_match("é"));
        assert!(!compile(r"^\d$").unwrap().is_match("٣"));
        assert!(!compile(r"^\s$").unwrap().is_match("\u{a0}"));
        assert!(compile(r"\bfoo\b").unwrap().is_match("a foo b"));
        assert!(compile(r"^\\w$").unwrap().is_match(r"\w"));
        assert!(compile(r"^\Q.*\w\E+$").unwrap().is_match(r".*\ww"));
        assert!(compile(r"^a\Q(").unwrap().is_match("a("));
        assert!(compile(r"^\\Q$").unwrap().is_match(r"\Q"));
        assert!(compile(r"^\p{L}$").unwrap().is_match("é"));
        assert!(compile(r"^[^\d]$").unwrap().is_match("a"));
    }
}
