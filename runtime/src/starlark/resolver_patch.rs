//! Errors starlark-go's resolver finds that the starlark crate's parser refuses.
//!
//! starlark-go parses a whole file, then resolves it and lists every error its resolver finds,
//! in the order it meets them (`return statement not within a function`, `can't assign to
//! callexpr`, `required parameter may not follow optional`, `undefined: x`...). The crate's
//! parser refuses the first such statement, assignment target or parameter and stops, so the
//! others and the undefined names beside them would go unreported. Each one it refuses is
//! patched out of the program text with a marker name that says what was there, and the text
//! parsed again; the resolver walk ([`super::resolve`]) reports each marker where starlark-go's
//! resolver meets the construct. A patch never adds or removes a line break, so lines stay
//! where they were.
//!
//! A syntax error met after patches is the file's error, as in starlark-go, whose parser runs
//! first. After the first patch, top-level statements are parsed again one by one ([`parse`]);
//! parsing again is bounded by [`DEFAULT_MAX_REPARSE_BYTES`].

use starlark::syntax::AstModule;

use super::parse_error::{is_name_char, leading_name};

/// How many bytes of program text may be parsed again to list a file's resolver errors (each
/// one patched costs a parse of its top-level statement, 4 to 7 MB a second): 5,000 `return`s
/// in one top-level `if` of a 1 MB file would parse 5 GB; 8 MiB take one to two seconds.
/// Raised with `SCHEMAC_MAX_REPARSE_BYTES`.
pub const DEFAULT_MAX_REPARSE_BYTES: usize = crate::budget_vars::MAX_REPARSE_BYTES.default_size();

fn max_reparse_bytes() -> usize {
    static MAX: std::sync::OnceLock<usize> = std::sync::OnceLock::new();
    *MAX.get_or_init(|| crate::budget_vars::MAX_REPARSE_BYTES.get_size())
}

/// The crate's errors that starlark-go's resolver reports instead, after the whole file parsed.
const RETURN: &str = "`return` cannot be used outside of a `def` function";
const BREAK: &str = "`break` cannot be used outside of a `for` loop";
const CONTINUE: &str = "`continue` cannot be used outside of a `for` loop";
const DUPLICATE: &str = "duplicated parameter name";
const REQUIRED_AFTER_OPTIONAL: &str = "positional parameter after non positional";
const AFTER_KWARGS: &str = "Parameter after kwargs";
const STAR_AFTER_STAR: &str = "Args parameter after another args or kwargs parameter";
const KWARGS_AFTER_KWARGS: &str = "Multiple kwargs dictionary in parameters";
const STAR_LAST: &str = "`*` parameter must not be last";
const STAR_NOT_NAMED: &str = "`*` must be followed by named parameter";
const POSITIONAL_AFTER: &str = "positional argument after non positional";
const NAMED_AFTER_STAR: &str = "named argument after *args or **kwargs";
const REPEATED_NAMED: &str = "repeated named argument";
const ARGS_AFTER_STAR: &str = "Args array after another args or kwargs";
const KWARGS_TWICE: &str = "Multiple kwargs dictionary in arguments";
pub(super) const LOAD_NOT_AT_TOP: &str = "`load` must only occur at the top of a module";
const ASSIGN_TARGET: &str = "left-hand-side of assignment must take the form `a`, `a.b` or `a[b]`";
const AUGMENTED_TARGET: &str = "left-hand-side of modifying assignment cannot be a list or tuple";

/// Whether the parser error `msg` is one starlark-go's resolver finds: every syntax error of
/// the file comes before it.
pub(super) fn found_by_resolver(msg: &str) -> bool {
    [
        RETURN,
        BREAK,
        CONTINUE,
        DUPLICATE,
        REQUIRED_AFTER_OPTIONAL,
        AFTER_KWARGS,
        STAR_AFTER_STAR,
        KWARGS_AFTER_KWARGS,
        STAR_LAST,
        STAR_NOT_NAMED,
        LOAD_NOT_AT_TOP,
        POSITIONAL_AFTER,
        NAMED_AFTER_STAR,
        REPEATED_NAMED,
        ARGS_AFTER_STAR,
        KWARGS_TWICE,
        ASSIGN_TARGET,
        AUGMENTED_TARGET,
    ]
    .iter()
    .any(|c| msg.ends_with(c))
}

/// starlark-go's words for a `load` in a function.
pub(super) const LOAD_IN_FUNCTION: &str = "load statement within a function";

/// The prefix of every marker name, where the program's text holds no name that starts with
/// it (see [`Markers`]).
const MARKER: &str = "__schemac_resolver_";

/// The marker names of one program: [`MARKER`], or, where the program's own text holds it (a
/// user's name `__schemac_resolver_return`, which must stay a name), [`MARKER`] with `x`s
/// before its last `_`, one more than any run of them the text holds after
/// `__schemac_resolver`.
pub(super) struct Markers {
    prefix: String,
}

/// What a marker stands for.
#[derive(Debug, PartialEq, Eq)]
pub(super) enum Marker<'a> {
    /// A statement starlark-go's resolver refuses where it is: the error's words.
    Statement(&'static str),
    /// An assignment target: `can't assign to KIND` (or `can't use KIND expression in
    /// augmented assignment` for `augmented_list`/`augmented_tuple`).
    Target(&'a str),
    /// The default of a parameter that had none (`b` became `b=MARKER`).
    Required,
    /// `*name` (became `name=MARKER`).
    Args,
    /// `**name` (became `name=MARKER`).
    Kwargs,
    /// A bare `*` (became `__schemac_resolver_starN=MARKER`).
    Star,
}

/// An argument of a call as written, where a patch made it a keyword argument.
pub(super) enum ArgumentKind<'a> {
    Positional,
    /// A keyword argument `name=...`.
    Named(&'a str),
    Args,
    Kwargs,
}

impl Markers {
    /// Marker names no name of `source` starts with: one pass over its text.
    fn for_source(source: &str) -> Markers {
        let stem = &MARKER[..MARKER.len() - 1];
        let xs = source
            .match_indices(stem)
            .map(|(at, _)| {
                let after = &source.as_bytes()[at + stem.len()..];
                after.iter().take_while(|&&b| b == b'x').count() + 1
            })
            .max()
            .unwrap_or(0);
        Markers {
            prefix: format!("{stem}{}_", "x".repeat(xs)),
        }
    }

    /// Whether `name` is a marker's name.
    pub(super) fn holds(&self, name: &str) -> bool {
        self.rest(name).is_some()
    }

    /// The text after the prefix of the marker name `name`, if it is one.
    fn rest<'n>(&self, name: &'n str) -> Option<&'n str> {
        name.strip_prefix(self.prefix.as_str())
    }

    /// What the keyword argument `name` of a patched call was (see [`patch`]).
    pub(super) fn argument_kind<'n>(&self, name: &'n str) -> ArgumentKind<'n> {
        let Some(rest) = self.rest(name) else {
            return ArgumentKind::Named(name);
        };
        let numbered = |prefix: &str| {
            rest.strip_prefix(prefix)
                .is_some_and(|n| !n.is_empty() && n.bytes().all(|b| b.is_ascii_digit()))
        };
        match () {
            _ if numbered("pos") => ArgumentKind::Positional,
            _ if numbered("args") => ArgumentKind::Args,
            _ if numbered("kwargs") => ArgumentKind::Kwargs,
            _ => ArgumentKind::Named(self.parameter_name(name)),
        }
    }

    /// The marker of the name `name`, if it is one.
    pub(super) fn marker<'n>(&self, name: &'n str) -> Option<Marker<'n>> {
        let rest = self.rest(name)?;
        Some(match rest {
            "return" => Marker::Statement("return statement not within a function"),
            "load" => Marker::Statement(LOAD_IN_FUNCTION),
            "break" => Marker::Statement("break not in a loop"),
            "continue" => Marker::Statement("continue not in a loop"),
            "required" => Marker::Required,
            "args" => Marker::Args,
            "kwargs" => Marker::Kwargs,
            "star" => Marker::Star,
            _ => Marker::Target(rest.strip_prefix("target_")?),
        })
    }

    /// The parameter name a patch renamed (`a` given twice: the second became
    /// `__schemac_resolver_dupN_a`), as written.
    pub(super) fn parameter_name<'n>(&self, name: &'n str) -> &'n str {
        let Some(rest) = self.rest(name) else {
            return name;
        };
        if let Some(rest) = rest.strip_prefix("dup") {
            let rest = rest.trim_start_matches(|c: char| c.is_ascii_digit());
            if let Some(original) = rest.strip_prefix('_') {
                return original;
            }
        }
        // A bare `*` stood in for by a name.
        if rest.starts_with("star") {
            return "";
        }
        name
    }
}

/// Markers standing in a parsed program.
pub(super) struct Patched {
    /// The crate's first error of the text as written.
    pub first_refusal: starlark::Error,
    /// The markers' names.
    pub markers: Markers,
}

/// The outcome of [`parse`].
pub(super) enum Parsed {
    /// The program, and the markers that stand in it if any.
    Module {
        ast: Box<AstModule>,
        patched: Option<Patched>,
        /// The text parsed: the program's, with the patches made.
        source: String,
    },
    /// A syntax error of `source` (the text as patched so far: its lines are the program's).
    Syntax {
        error: starlark::Error,
        source: String,
    },
    /// Parsing again passed [`DEFAULT_MAX_REPARSE_BYTES`]: the message, at the error `error`.
    Budget {
        error: starlark::Error,
        message: String,
    },
}

/// Parses `source`, patching out what starlark-go's resolver reports instead of its parser.
///
/// After the first patch, each top-level statement from the patched one on is parsed alone
/// (the statements of a module parse alike in it and alone), patched until it parses, and the
/// whole program once more at the end: a file with an error in each of N statements costs
/// about two parses of it, not N. Anything else a statement's parse meets (a syntax error) is
/// left to the parse of the whole program, which finds it where it is.
pub(super) fn parse(name: &str, source: String) -> Parsed {
    let mut source = source;
    // The crate's first error of the text as written, once one is patched out, and the
    // markers' names, chosen from the text as written at its first error.
    let mut first_refusal: Option<starlark::Error> = None;
    let mut markers: Option<Markers> = None;
    let mut reparsed = 0usize;
    let mut dup = 0usize;
    // Where the top-level statements start (known after the first patch), and the next one
    // parsed alone, while any is.
    let mut statements: Option<(Vec<usize>, usize)> = None;
    loop {
        // The text parsed: the next statement alone, or the whole program.
        let alone = statements.as_ref().and_then(|(starts, k)| {
            let end = starts.get(k + 1).copied().unwrap_or(source.len());
            Some(*starts.get(*k)?..end)
        });
        let text = match &alone {
            Some(range) => source[range.clone()].to_string(),
            None => source.clone(),
        };
        let error = match AstModule::parse(name, text, &super::dialect()) {
            Ok(_) if alone.is_some() => {
                if let Some((_, k)) = statements.as_mut() {
                    *k += 1;
                }
                continue;
            }
            Ok(ast) => {
                return Parsed::Module {
                    ast: Box::new(ast),
                    patched: first_refusal
                        .zip(markers)
                        .map(|(first_refusal, markers)| Patched {
                            first_refusal,
                            markers,
                        }),
                    source,
                }
            }
            Err(e) => e,
        };
        let region = alone.clone().unwrap_or(0..source.len());
        let raw = error.without_diagnostic().to_string();
        let span = found_by_resolver(&raw).then(|| error.span()).flatten();
        let markers = markers.get_or_insert_with(|| Markers::for_source(&source));
        let span = span.map(|span| {
            let begin = region.start + span.span.begin().get() as usize;
            (begin, region.start + span.span.end().get() as usize)
        });
        // Legal calls the crate refuses, made ones it takes (not a refusal): every one of the
        // text parsed at once. Else a patch.
        let reorders = match span {
            Some(_) if raw.ends_with(NAMED_AFTER_STAR) => {
                super::named_after_args::reorders(name, &source, region.clone(), |n| {
                    markers.holds(n)
                })
            }
            _ => Vec::new(),
        };
        // In a call starlark-go refuses too (`f(*xs, k=1, 2)`), the keyword argument and the
        // `*args` before it (the crate's error) change places, as many times as the crate
        // meets it, between the patches of the call's other errors.
        let swap = match reorders.is_empty() {
            true => span.and_then(|(b, e)| named_after_args(&raw, &source, b, e, markers)),
            false => None,
        };
        let patch = match reorders.is_empty() && swap.is_none() {
            true => span.and_then(|(b, e)| markers.patch(&raw, &source, b, e, &mut dup)),
            false => None,
        };
        if reorders.is_empty() && swap.is_none() && patch.is_none() {
            if alone.is_some() {
                // The whole program's parse places what the statement's met.
                if let Some((starts, k)) = statements.as_mut() {
                    *k = starts.len();
                }
                continue;
            }
            return Parsed::Syntax { error, source };
        }
        reparsed += region.len();
        if reparsed > max_reparse_bytes() {
            let message = format!(
                "parsing the program again to list the errors starlark-go's resolver finds passed \
                 the budget of {} bytes (raise the budget with SCHEMAC_MAX_REPARSE_BYTES)",
                max_reparse_bytes()
            );
            // The error's line is the whole program's.
            let error = match alone {
                Some(_) => AstModule::parse(name, source.clone(), &super::dialect()).err(),
                None => None,
            }
            .unwrap_or(error);
            return Parsed::Budget { error, message };
        }
        let at = span.map_or(region.start, |(begin, _)| begin);
        // What the patch adds to the text's length (a reorder keeps it).
        let mut grown = 0isize;
        if !reorders.is_empty() {
            source = super::named_after_args::apply(&source, &reorders);
        }
        if let Some((range, swapped)) = swap {
            source.replace_range(range, &swapped);
        }
        if let Some((range, patch)) = patch {
            grown = patch.len() as isize - range.len() as isize;
            source.replace_range(range, &patch);
            first_refusal.get_or_insert(error);
        }
        match &mut statements {
            Some((starts, k)) => {
                for start in starts.iter_mut().skip(*k + 1) {
                    *start = start.saturating_add_signed(grown);
                }
            }
            None => {
                // From the statement before the patched one: the parser may meet a
                // statement's error only at the next one's first token.
                statements = top_level_starts(name, &source).map(|starts| {
                    let k = starts.partition_point(|&s| s <= at).saturating_sub(2);
                    (starts, k)
                })
            }
        }
    }
}

/// A keyword argument after `*args` (`f(*xs, k=1)`) in a call with an error starlark-go's
/// resolver reports (which [`super::named_after_args`] leaves as it is): the two change places
/// (`f(k=1, *xs)`), in the same bytes so that the line keeps its length, and the crate's parser
/// goes on to the call's error.
fn named_after_args(
    raw: &str,
    source: &str,
    begin: usize,
    end: usize,
    markers: &Markers,
) -> Option<(std::ops::Range<usize>, String)> {
    if !raw.ends_with(NAMED_AFTER_STAR) {
        return None;
    }
    // A marker (an argument out of place) after `*args` makes `*args` a marker too.
    if markers.rest(source.get(begin..end)?).is_some() {
        return None;
    }
    let (start, stars) = star_argument_before(source, begin)?;
    let between = source.get(start..begin)?;
    let args_end = start + between.rfind(',')?;
    let args = source[start..args_end].trim_end();
    if stars != 1 || args.contains('#') {
        return None;
    }
    let separator = &source[start + args.len()..begin];
    Some((
        start..end,
        format!("{}{separator}{args}", &source[begin..end]),
    ))
}

/// Where each top-level statement of `source` starts, as the crate's lexer reads it (the first
/// at 0; comments belong to the statement before them); `None` where the lexer fails.
fn top_level_starts(name: &str, source: &str) -> Option<Vec<usize>> {
    use starlark::codemap::CodeMap;
    use starlark_syntax::lexer::{Lexer, Token};
    let codemap = CodeMap::new(name.to_string(), source.to_string());
    let mut starts = vec![0];
    let (mut depth, mut line_start) = (0usize, false);
    for lexeme in Lexer::new(codemap.source(), &super::dialect(), codemap.clone()) {
        let (begin, token, _) = lexeme.ok()?;
        match token {
            Token::Newline => line_start = true,
            Token::Indent => depth += 1,
            Token::Dedent => depth = depth.saturating_sub(1),
            Token::Comment(_) | Token::Tabs => {}
            Token::Else | Token::Elif => line_start = false,
            _ => {
                if line_start && depth == 0 && begin > 0 {
                    starts.push(begin);
                }
                line_start = false;
            }
        }
    }
    Some(starts)
}

impl Markers {
    /// The edit that patches out the construct the crate's parser refused with `raw` at
    /// `source[begin..end]`, or `None` where its shape is not one this knows.
    fn patch(
        &self,
        raw: &str,
        source: &str,
        begin: usize,
        end: usize,
        dup: &mut usize,
    ) -> Option<(std::ops::Range<usize>, String)> {
        let m = self.prefix.as_str();
        let text = source.get(begin..end)?;
        let name_end = |at: usize| at + leading_name(&source[at..]).len();
        let statement = |keyword: &str, marker: &str| {
            text.starts_with(keyword).then(|| {
                let rest = text[keyword.len()..].trim();
                let separator = if rest.is_empty() { "" } else { ";" };
                (
                    begin..begin + keyword.len(),
                    format!("{m}{marker}{separator}"),
                )
            })
        };
        if raw.ends_with(RETURN) {
            return statement("return", "return");
        }
        if raw.ends_with(BREAK) {
            return statement("break", "break");
        }
        if raw.ends_with(CONTINUE) {
            return statement("continue", "continue");
        }
        if raw.ends_with(LOAD_NOT_AT_TOP) {
            return load_in_function(m, source, begin, text);
        }
        if raw.ends_with(ASSIGN_TARGET) {
            let kind = super::parse_error::expression_kind(text)?;
            return Some((
                begin..end,
                target_marker(m, text, &format!("target_{kind}")),
            ));
        }
        if raw.ends_with(AUGMENTED_TARGET) {
            let kind = if text.starts_with('[') {
                "list"
            } else {
                "tuple"
            };
            return Some((
                begin..end,
                target_marker(m, text, &format!("target_augmented_{kind}")),
            ));
        }
        if raw.ends_with(DUPLICATE) {
            // The name of `a`, `a=1`, `*a` or `**a`.
            let stars = text.len() - text.trim_start_matches('*').len();
            let at = begin + stars;
            let at = at + (source[at..].len() - source[at..].trim_start().len());
            let name = leading_name(&source[at..]);
            if name.is_empty() {
                return None;
            }
            *dup += 1;
            return Some((at..at + name.len(), format!("{m}dup{dup}_{name}")));
        }
        if raw.ends_with(REQUIRED_AFTER_OPTIONAL) {
            let at = name_end(begin);
            return Some((at..at, format!("={m}required")));
        }
        if raw.ends_with(STAR_LAST) {
            *dup += 1;
            return star_marker(m, text, begin, *dup);
        }
        if raw.ends_with(STAR_NOT_NAMED) {
            // At the `**kwargs` after the bare `*`.
            let before = param_before(source, begin)?;
            if before.ends_with("**") {
                return None;
            }
            *dup += 1;
            let at = before.len().checked_sub(1)?;
            return star_marker(m, &before[at..], at, *dup);
        }
        if raw.ends_with(AFTER_KWARGS) || raw.ends_with(KWARGS_AFTER_KWARGS) {
            return kwargs_before(m, source, begin);
        }
        // A call's arguments: each one out of place becomes a keyword argument of a marker name
        // (`1` → `__schemac_resolver_pos1=1`, `*a` → `__schemac_resolver_args2=a`), the `*args`
        // or `**kwargs` before a keyword argument too.
        if raw.ends_with(POSITIONAL_AFTER) {
            *dup += 1;
            return Some((begin..begin, format!("{m}pos{dup}=")));
        }
        if raw.ends_with(NAMED_AFTER_STAR) {
            let (start, stars) = star_argument_before(source, begin)?;
            *dup += 1;
            let kind = if stars == 2 { "kwargs" } else { "args" };
            return Some((start..start + stars, format!("{m}{kind}{dup}=")));
        }
        if raw.ends_with(ARGS_AFTER_STAR) || raw.ends_with(KWARGS_TWICE) {
            let stars = text.len() - text.trim_start_matches('*').len();
            let start = begin;
            *dup += 1;
            let kind = if stars == 2 { "kwargs" } else { "args" };
            return Some((start..start + stars, format!("{m}{kind}{dup}=")));
        }
        if raw.ends_with(REPEATED_NAMED) {
            *dup += 1;
            return Some((begin..end, format!("{m}dup{dup}_{text}")));
        }
        if raw.ends_with(STAR_AFTER_STAR) {
            // After `**kwargs`, the kwargs are what is out of place; else this second star.
            if let Some(edit) = kwargs_before(m, source, begin) {
                return Some(edit);
            }
            if let Some(args) = text.strip_prefix('*') {
                let name = leading_name(args.trim_start());
                if !name.is_empty() {
                    return Some((begin..end, format!("{name}={m}args")));
                }
            }
            *dup += 1;
            return star_marker(m, text, begin, *dup);
        }
        None
    }
}

/// A `load` statement `text` at `begin` inside a `def` made an assignment of its names from a
/// marker's call (`[a, b] = __schemac_resolver_load()`): starlark-go reports the load, then
/// binds its names in the function. Not in a `def` (a top-level `if` or `for`, where
/// starlark-go runs it), or with a name starlark-go refuses, it stays the crate's error.
fn load_in_function(
    m: &str,
    source: &str,
    begin: usize,
    text: &str,
) -> Option<(std::ops::Range<usize>, String)> {
    use starlark::syntax::ast::StmtP;
    if !super::parse_error::in_def(&source[..begin]) {
        return None;
    }
    let ast = AstModule::parse("load", text.to_owned(), &super::dialect()).ok()?;
    let StmtP::Load(load) = &ast.statement().node else {
        return None;
    };
    let mut names = Vec::new();
    for a in &load.args {
        let their = a.their.node.as_str();
        if their.is_empty() || their.starts_with('_') {
            return None;
        }
        names.push(a.local.node.ident.as_str());
    }
    let breaks = "\n".repeat(text.matches('\n').count());
    Some((
        begin..begin + text.len(),
        format!("[{}] = {m}load({breaks})", names.join(", ")),
    ))
}

/// A marker name in place of an assignment target `text`, its line breaks kept inside
/// parentheses.
fn target_marker(m: &str, text: &str, what: &str) -> String {
    let breaks = text.matches('\n').count();
    if breaks == 0 {
        format!("{m}{what}")
    } else {
        format!("({m}{what}{})", "\n".repeat(breaks))
    }
}

/// A bare `*` at `begin` (`text`) made an optional parameter of a name of its own.
fn star_marker(
    m: &str,
    text: &str,
    begin: usize,
    n: usize,
) -> Option<(std::ops::Range<usize>, String)> {
    (text == "*").then(|| (begin..begin + 1, format!("{m}star{n}={m}star")))
}

/// The `*args` or `**kwargs` argument before the argument at `at` of a call: where it starts
/// (its first code byte, past the spaces, comments and escaped line breaks after the comma
/// before it) and how many stars it has.
fn star_argument_before(source: &str, at: usize) -> Option<(usize, usize)> {
    let start = *super::parse_error::argument_starts(&source[..at])
        .iter()
        .rev()
        .nth(1)?;
    let (first, _) = crate::template::code_scan::code_bytes(&source[start..at])
        .find(|(_, c)| !matches!(c, b' ' | b'\t' | b'\r' | b'\n' | b'\\' | b'#'))?;
    let start = start + first;
    let stars = source[start..at].len() - source[start..at].trim_start_matches('*').len();
    matches!(stars, 1 | 2).then_some((start, stars))
}

/// The program up to the end of the parameter before the one at `at` (`..., *` of `*, **kw`).
fn param_before(source: &str, at: usize) -> Option<&str> {
    Some(source[..at].trim_end().strip_suffix(',')?.trim_end())
}

/// The `**name` parameter just before the parameter at `at` (`**kw, b`), made `name=MARKER`.
fn kwargs_before(m: &str, source: &str, at: usize) -> Option<(std::ops::Range<usize>, String)> {
    let before = param_before(source, at)?;
    let name = &before[before.trim_end_matches(is_name_char).len()..];
    let stars = before[..before.len() - name.len()].trim_end();
    let start = stars.strip_suffix("**")?.len();
    if name.is_empty() {
        return None;
    }
    Some((start..before.len(), format!("{name}={m}kwargs")))
}

#[cfg(test)]
mod tests {
    use super::{parse, Parsed};

    /// The patched program's text, or the syntax error's words.
    fn patched(source: &str) -> String {
        match parse("t", source.to_string()) {
            Parsed::Module {
                ast,
                patched,
                source: text,
            } => {
                let parsed = ast
                    .file_span(ast.statement().span)
                    .file
                    .source()
                    .to_string();
                assert_eq!(parsed, text);
                match patched {
                    Some(_) => text,
                    None => format!("legal: {text}"),
                }
            }
            Parsed::Syntax { error, .. } => format!("syntax: {error}"),
            Parsed::Budget { message, .. } => message,
        }
    }

    #[test]
    fn refused_constructs_become_markers_on_their_lines() {
        let m = "__schemac_resolver_";
        assert_eq!(
            patched("return 1\nbreak\n"),
            format!("{m}return; 1\n{m}break\n")
        );
        assert_eq!(
            patched("def f(a=1, b, **kw, c):\n  pass\n"),
            format!("def f(a=1, b={m}required, kw={m}kwargs, c={m}required):\n  pass\n")
        );
        assert_eq!(
            patched("f(a=1, a=2, 3)\n"),
            format!("f(a=1, {m}dup1_a=2, {m}pos2=3)\n")
        );
        assert_eq!(
            patched("(f(\n)) = 1\n"),
            format!("(({m}target_callexpr\n)) = 1\n")
        );
        // A keyword argument after `*args` is no error: the two change places (each line
        // of the keyword arguments keeps them).
        assert_eq!(
            patched("f(*xs, a=1,\n  b=g(*ys, c=2))\n"),
            "legal: f(a=1,\n  b=g(c=2, *ys), *xs)\n"
        );
        assert_eq!(
            patched("f(*xs, k=1, 2)\n"),
            format!("f(k=1, {m}args2=xs, {m}pos1=2)\n")
        );
        // A comment between `*args` and the keyword argument moves with the separator.
        assert_eq!(
            patched("f(*xs, # c\n  k=1, 2)\n"),
            format!("f(k=1, # c\n  {m}args2=xs, {m}pos1=2)\n")
        );
        // A syntax error after a refusal is the file's error, as starlark-go's parser runs first.
        assert!(patched("f() = 1\nx = [1,, 2]\n").starts_with("syntax: "));
    }

    #[test]
    fn top_level_statements_start_at_column_zero_outside_blocks() {
        let source = "x = 1\nif a:\n  b\nelse:\n  c\n# c\ndef f():\n  pass\ny = [\n1]\n";
        assert_eq!(
            super::top_level_starts("t", source),
            Some(vec![0, 6, 30, 46])
        );
    }

    #[test]
    fn markers_are_names_the_program_does_not_hold() {
        // The user's names that start as the markers do stay names; the markers take `x`s.
        assert_eq!(
            patched("__schemac_resolver_return = 1\nreturn 2\n"),
            "__schemac_resolver_return = 1\n__schemac_resolverx_return; 2\n"
        );
        assert_eq!(
            patched("__schemac_resolverxx_ = 1\n__schemac_resolver = 2\nbreak\n"),
            "__schemac_resolverxx_ = 1\n__schemac_resolver = 2\n__schemac_resolverxxx_break\n"
        );
    }
}
