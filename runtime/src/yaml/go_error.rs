//! YAML syntax errors in go-yaml's words and lines.
//!
//! ytt reads YAML with go-yaml v3, a port of libyaml, and prints the first error as
//! `yaml: line N: PROBLEM`. schemac reads with saphyr-parser (or its own block reader), whose
//! errors are found at other places and worded otherwise. When a file does not parse, the
//! error is therefore taken from `libyaml-safer` (a safe Rust port of libyaml), which stops
//! where go-yaml stops, and its problem and mark are printed as go-yaml's `parser.fail()` does:
//! the problem's line (0-based), else the context's, plus one for scanner errors.

use super::go_reader::{ReadTo, ReaderStop};
use super::libyaml_events::Nesting;
use super::parse::SyntaxError;

/// The first syntax error libyaml finds in `src`, as go-yaml prints it; `None` if libyaml
/// reads the whole text.
/// A saphyr-parser error in the words and on the line go-yaml (ytt's YAML library) gives.
///
/// go-yaml prints only the problem, not its context (`while parsing a block mapping, `), and
/// numbers lines of parser errors from 0 (one less than the 1-based line of the token it
/// stopped at: 0 means no line at all), while scanner errors count from 1.
pub(super) fn go_yaml_error<C: super::saphyr_text::TextChar>(
    info: &str,
    line: u32,
    chars: &[C],
) -> SyntaxError {
    let problem = match info.split_once(", ") {
        Some((context, problem)) if context.starts_with("while ") => problem,
        _ => info,
    };
    let (message, parser_error) = match problem {
        // (ytt's error line then ends at the unpaired `]` or `}`: see report::multi_line.)
        "expected ',' or ']'" | "did not find expected ',' or ']'" => {
            ("did not find expected ',' or ']'".to_string(), true)
        }
        "did not find expected ',' or '}'" => (problem.to_string(), true),
        "did not find expected key"
        | "did not find expected node content"
        | "did not find expected '-' indicator" => (problem.to_string(), true),
        "missing explicit document end marker before directive" => {
            ("did not find expected <document start>".into(), false)
        }
        "simple key expect ':'" => ("could not find expected ':'".into(), false),
        "tabs disallowed within this context (block indentation)" => {
            ("found character that cannot start any token".into(), false)
        }
        "found unexpected end of stream" => {
            // go-yaml stops at the end of the text.
            let last = chars.iter().filter(|c| c.ch() == '\n').count() as u32 + 1;
            return SyntaxError {
                line: last,
                message: problem.into(),
                strict: None,
            };
        }
        p if p.starts_with("unexpected character: ") => {
            ("found character that cannot start any token".into(), false)
        }
        p => (p.to_string(), false),
    };
    let line = if parser_error {
        line.saturating_sub(1)
    } else {
        line
    };
    SyntaxError {
        line,
        message,
        strict: None,
    }
}

#[cfg(test)]
pub(super) fn first_error(src: &str) -> Option<SyntaxError> {
    first_error_at(src, None, usize::MAX).map(|(e, _)| e)
}

/// [`first_error`], with the number of documents libyaml read whole before it.
///
/// libyaml-safer counts a simple key's 1,024 characters in bytes, go-yaml in characters (a key
/// of 600 `é` was refused): a text past ASCII is read with each character one byte long
/// ([`super::one_byte`]; the error names a line, not a character).
///
/// go-yaml's reader stops where `stop` says (the text's characters are the file's): its error,
/// unless a syntax error comes before the scanner reads that far. `max_depth` is the depth
/// budget (see [`GO_ERROR_DEPTH`]).
pub(super) fn first_error_at(
    src: &str,
    stop: Option<ReaderStop>,
    max_depth: usize,
) -> Option<(SyntaxError, usize)> {
    match src.is_ascii() {
        true => first_error_in(src, stop, max_depth),
        false => first_error_in(
            &super::one_byte::one_byte_characters(src, &[]),
            stop,
            max_depth,
        ),
    }
}

/// [`first_error_at`] of a text already read with each character one byte long
/// ([`super::one_byte::one_byte_characters`]) and then patched ([`super::go_quirks`]; its
/// `stand_ins`): read as it is, unless a `:` was patched, whose stand-in (private use, three
/// bytes long; a `\'`'s is an escape's letter) is made one byte as well.
pub(super) fn first_error_at_one_byte(
    src: &str,
    stand_ins: &[(char, char)],
    stop: Option<ReaderStop>,
    max_depth: usize,
) -> Option<(SyntaxError, usize)> {
    match stand_ins.iter().any(|&(_, original)| original == ':') {
        false => first_error_in(src, stop, max_depth),
        true => first_error_at(src, stop, max_depth),
    }
}

/// go-yaml's reader's error where it stops (see [`super::go_reader`]), as ytt prints it: no
/// line.
pub(super) fn reader_error(stop: ReaderStop) -> SyntaxError {
    SyntaxError {
        line: 0,
        message: stop.message.into(),
        strict: None,
    }
}

/// How many nested collections go-yaml's error is looked for in, past schemac's depth budget
/// (where ytt has none): deeper, the budget's error. libyaml-safer keeps a few words for each
/// level (256 MB of `[` would take 10 GB); ytt takes 44 s to read 100,000 nested `[`.
const GO_ERROR_DEPTH: usize = 100_000;

fn first_error_in(
    src: &str,
    stop: Option<ReaderStop>,
    max_depth: usize,
) -> Option<(SyntaxError, usize)> {
    // libyaml-safer 0.3 differs from libyaml at the two ends of a text. It refuses a text whose
    // first byte is 0xEF (`\u{fffd}`, fullwidth letters) unless it is a byte-order mark: one is
    // added. It panics on a `\` that ends the text inside a double-quoted scalar (it reads the
    // escape's next character unchecked), where libyaml sees its NUL terminator, an unknown
    // escape: a character that is no escape is added, which changes nothing elsewhere (a
    // comment, a plain or single-quoted scalar ending in `\`). It also panics on a block
    // scalar whose last line has no line break (libyaml reads it): the text is read again with a
    // line break added, where libyaml-safer stops at libyaml's error (`a: [1]` + `  >` + `  x`
    // is an error at the `>`), if any; libyaml ends the last line at the end anyway.
    let bom = if src.as_bytes().first() == Some(&0xef) {
        "\u{feff}"
    } else {
        ""
    };
    let pad = if src.ends_with('\\') { "q" } else { "" };
    // go-yaml's libyaml predates YAML 1.2's escape `\/`: a `/` after a `\` becomes a `q`, an
    // unknown escape in a double-quoted scalar and the same text anywhere else (`\\/` stays
    // an escaped backslash before a character).
    let slash = src.contains("\\/");
    let padded;
    let src = if bom.is_empty() && pad.is_empty() && !slash {
        src
    } else {
        let text = if slash {
            std::borrow::Cow::Owned(src.replace("\\/", "\\q"))
        } else {
            std::borrow::Cow::Borrowed(src)
        };
        padded = format!("{bom}{text}{pad}");
        &padded
    };
    let quoted = match quote_plain_before_question(src) {
        Ok(quoted) => quoted,
        Err(e) => return Some((e, 0)),
    };
    let src = quoted.as_deref().unwrap_or(src);
    // (The byte-order mark added is a character more.)
    let stop_at = stop.map(|s| s.chars_before + usize::from(!bom.is_empty()));
    // go-yaml nests collections without end (past schemac's depth budget ytt reports its syntax
    // error after them), but not past [`GO_ERROR_DEPTH`].
    let depth = GO_ERROR_DEPTH.max(max_depth.saturating_add(8));
    let events = |src: &str| {
        crate::panic_guard::catch_panic(|| {
            let mut parser = libyaml_safer::Parser::new();
            parser.set_input(ReadTo::new(src, stop_at));
            let mut aliases = AliasCheck::default();
            let mut nesting = Nesting::past(depth);
            for event in parser {
                match event {
                    // (no error before the depth budget's, which the builder reports)
                    Ok(event) if nesting.passed(&event.data) => return None,
                    Ok(event) => {
                        aliases.see(&event);
                        if let Some(e) = older_libyaml_error(&event, src) {
                            return Some((Err(e), aliases.unknown.take(), aliases.documents));
                        }
                    }
                    Err(e) => return Some((Ok(e), aliases.unknown.take(), aliases.documents)),
                }
            }
            None
        })
        .ok()
    };
    let found = match events(src) {
        Some(found) => found,
        None if !src.ends_with(['\n', '\r']) => events(&format!("{src}\n")).flatten(),
        None => None,
    };
    // go-yaml's scanner wants a blank after any tag, where libyaml-safer takes a `,` in a flow
    // collection (`[!<a>, b]`; a shorthand tag keeps the `,`: `yaml::tag_uri`).
    if let Some((comma, comma_line)) = verbatim_tag_before_comma(src) {
        let stopped_before = found.as_ref().and_then(|(e, ..)| match e {
            Ok(e) => [e.problem_mark(), e.context_mark()]
                .into_iter()
                .flatten()
                .next()
                .map(|m| m.index),
            Err(_) => Some(0),
        });
        if stopped_before.is_none_or(|at| at > comma) {
            let before = usize::try_from(comma).ok().and_then(|i| src.get(..i));
            let documents = before.and_then(events).flatten().map_or(0, |(.., d)| d);
            // An alias to no anchor that the parser handed out before its scanner reached the
            // tag is go-yaml's error (`[*a, !<x>,1]`, `[*a : [!<x>,1]]`); one still a
            // possible key there is not (`[*a [!<x>,1]]`).
            if let Some((name, documents, _)) =
                unknown_alias_before_panic(src).filter(|&(.., at)| at < comma)
            {
                let e = SyntaxError {
                    line: 0,
                    message: format!("unknown anchor '{name}' referenced"),
                    strict: None,
                };
                return Some((e, documents));
            }
            let line = match comma_line {
                0 => u64::from(!super::parse::starts_with_document_marker(src)),
                line => line + 1,
            };
            let e = SyntaxError {
                line: u32::try_from(line).unwrap_or(u32::MAX),
                message: "did not find expected whitespace or line break".into(),
                strict: None,
            };
            return Some((e, documents));
        }
    }
    let found = found?;
    let (error, unknown_alias, documents) = found;
    // go-yaml composes nodes as the parser hands it events: an alias to no anchor, met before
    // the syntax error, is the error ytt reports.
    if let Some((name, documents, _)) = unknown_alias {
        let e = SyntaxError {
            line: 0,
            message: format!("unknown anchor '{name}' referenced"),
            strict: None,
        };
        return Some((e, documents));
    }
    let error = match error {
        Ok(error) if error.kind() == libyaml_safer::ErrorKind::Io => {
            return Some((reader_error(stop?), documents))
        }
        Ok(error) if error.problem() == "found undefined tag handle" => {
            scanner_error_after_properties(src, &error).unwrap_or(error)
        }
        Ok(error) => error,
        Err(older) => return Some((older, documents)),
    };
    // go-yaml's parser checks a `%YAML` directive's version before the document start that
    // must follow it: an error libyaml-safer finds after one (`%YAML 1.2` + `%FOO`, or after a
    // document without `...`) comes second.
    let stopped = [error.problem_mark(), error.context_mark()]
        .into_iter()
        .flatten()
        .next()
        .map(|mark| mark.index);
    if let Some(directive) = incompatible_version(src).filter(|d| stopped > Some(d.index)) {
        return Some((incompatible_document(directive.line), documents));
    }
    let scanner = error.kind() == libyaml_safer::ErrorKind::Scanner;
    // A scanner error counts its line from 1; a line 0 (the problem's and the context's)
    // means no line at all. ytt puts a `---` line before a text that does not start with one
    // (blanks aside), so a scanner error on its first line is on go-yaml's second; in a text
    // that starts with `---` it is on the first, and go-yaml names no line.
    let line = [error.problem_mark(), error.context_mark()]
        .into_iter()
        .flatten()
        .map(|mark| mark.line)
        .find(|&line| line != 0)
        .map_or(
            u64::from(scanner && !super::parse::starts_with_document_marker(src)),
            |line| line + u64::from(scanner),
        );
    let e = SyntaxError {
        line: u32::try_from(line).unwrap_or(u32::MAX),
        message: error.problem().to_string(),
        strict: None,
    };
    Some((e, documents))
}

/// go-yaml's parser reads the token after a node's two properties (`&a !e!x`, `!e!x &a`) before
/// it looks the tag's handle up, libyaml-safer's after: the scanner's error on that token, where
/// there is one, is go-yaml's (`k: &a !e!x - ` is `block sequence entries are not allowed`).
/// After an anchor and a tag, an anchor next is that token (`[&a !e!x` then `&b` then a bad
/// tag: the handle is refused); after a tag alone, an anchor next is the node's, and the token
/// after it is read.
fn scanner_error_after_properties(
    src: &str,
    undefined_handle: &libyaml_safer::Error,
) -> Option<libyaml_safer::Error> {
    use libyaml_safer::TokenData;
    let tag_at = undefined_handle.problem_mark()?.index;
    super::libyaml_events::scan_tokens(src, |tokens| {
        let mut anchor_first = false;
        loop {
            let t = tokens.next()?.ok()?;
            if t.start_mark.index == tag_at {
                break;
            }
            anchor_first = matches!(t.data, TokenData::Anchor { .. });
        }
        match tokens.next()? {
            Ok(t) if !anchor_first && matches!(t.data, TokenData::Anchor { .. }) => {
                tokens.next()?.err()
            }
            next => next.err(),
        }
    })
    .flatten()
}

/// go-yaml's reading of a plain scalar in a flow collection, as YAML 1.1 has it: a `?` ends it
/// and starts a key, where a `,` or the closing bracket must come (`{q: is it?}`). A first `?`
/// is that key's indicator already (go-yaml's `[?a]` is a map, `[?a?b]` its error at the
/// second). The index of the `?` among the scalar's characters.
pub(super) fn question_in_flow_plain(scalar: impl IntoIterator<Item = char>) -> Option<usize> {
    (scalar.into_iter().skip(1).position(|c| c == '?')).map(|at| at + 1)
}

/// go-yaml's error at such a `?` on the 0-based `line` (a parser error: go-yaml prints the
/// 0-based line of the token it stopped at), in a flow collection that `close` ends.
pub(super) fn question_in_flow_plain_error(line: usize, close: char) -> SyntaxError {
    SyntaxError {
        line: u32::try_from(line).unwrap_or(u32::MAX),
        message: format!("did not find expected ',' or '{close}'"),
        strict: None,
    }
}

/// `src` with each plain scalar of a flow collection that go-yaml's scanner ends at a `?`
/// (`[k: is it? no, x]`, `{x?!y}`) written as a single-quoted scalar up to there, so that
/// libyaml-safer (which reads the `?` as text) hands out the tokens go-yaml's scanner does: the
/// scalar, then the `?` as a key indicator and whatever follows as tokens of their own (a tag
/// there is scanned, and may be the error first met: `[{x?!x?:#c]`). `None` when there is
/// none. Only for finding the error: a scalar's text is no token's business, its lines are
/// kept, and the error's line is all that is read (the parse's builder finds such a `?` where
/// libyaml-safer reads the whole text: `Builder::check_flow_plain`).
///
/// Each reading of the text quotes every such scalar it finds up to the first whose `?` is
/// followed by something other than another plain scalar (a tag, a quote, a comment: the text
/// is read again with the scalars before quoted), so `[a?a?a?...]` is read twice, not once per
/// `?`. The bytes read are bounded by [`budget::max_reread_bytes`](super::parse::budget).
pub(super) fn quote_plain_before_question(src: &str) -> Result<Option<String>, SyntaxError> {
    // Only a `?` after a `[` or `{` may be in a flow collection.
    let Some(flow) = src.find(['[', '{']) else {
        return Ok(None);
    };
    if !src[flow..].contains('?') {
        return Ok(None);
    }
    let mut text = src.to_string();
    let mut scanned = 0usize;
    let mut changed = false;
    // Where the scalars the last reading quoted start (the budget's error names its line).
    let mut handled = 0usize;
    // Where the first such scalar starts, and the line of its `?` (0-based).
    let mut first: Option<(usize, usize)> = None;
    loop {
        if scanned > super::parse::budget::max_reread_bytes() {
            let line = 1 + text[..handled].matches('\n').count();
            return Err(super::parse::budget::reread_exceeded(
                "'?' ending plain scalars in flow collections",
                line,
            ));
        }
        let (found, read_again) = plain_questions(&text, true, &mut scanned);
        let Some(&(start, question)) = found.first() else {
            break;
        };
        let (first_start, first_line) =
            *first.get_or_insert_with(|| (start, text[..question].matches('\n').count()));
        handled = start;
        // go-yaml's parser stops at the first such `?` (a key indicator is never what may
        // follow a node in a flow collection), its scanner having read on while a simple key
        // before it may still be one: on that line and 1,024 characters at most, and one token
        // past them. A scalar to read again that starts past both is past all go-yaml reads.
        let past_read = |at: usize| {
            text[..at].matches('\n').count() > first_line
                || text[first_start..at].chars().count() > 1100
        };
        let stop = read_again && found.last().is_some_and(|&(last, _)| past_read(last));
        text = quoted_before_questions(&text, &found);
        changed = true;
        if stop {
            break;
        }
    }
    Ok(changed.then_some(text))
}

/// `text` with each of the plain scalars `found` (where it starts, where its `?` is) written
/// single-quoted up to its `?` (blanks before the `?` left out of the quotes).
fn quoted_before_questions(text: &str, found: &[(usize, usize)]) -> String {
    let mut out = String::with_capacity(text.len() + 2 * found.len());
    let mut done = 0;
    for &(start, question) in found {
        let scalar = text[start..question].trim_end_matches([' ', '\t', '\r', '\n']);
        out.push_str(&text[done..start]);
        // Right after a single-quoted scalar (`'a'1 b?`) a quote would go on with it (`''`):
        // a blank keeps the two tokens, on the same line.
        if out.ends_with('\'') {
            out.push(' ');
        }
        out.push('\'');
        out.push_str(&scalar.replace('\'', "''"));
        out.push('\'');
        done = start + scalar.len();
    }
    out.push_str(&text[done..]);
    out
}

/// The plain scalars of flow collections in `text` that go-yaml's scanner ends at a `?`, in
/// order: where each starts and where its `?` is; up to the first `?` that is followed by
/// something other than another plain scalar (read again once that one is quoted).
/// libyaml-safer's scanner hands out no token that may still be a simple key when it stops at
/// an error (`b: &a {x ? y[!}`): when none was found, the text before the error is scanned
/// again (once: `again`). The bytes scanned are added to `scanned`.
fn plain_questions(text: &str, again: bool, scanned: &mut usize) -> (Vec<(usize, usize)>, bool) {
    use libyaml_safer::TokenData;
    *scanned = scanned.saturating_add(text.len());
    let index = |m: libyaml_safer::Mark| usize::try_from(m.index).ok();
    // What was found before the scanner panicked (a `None` scan) counts.
    let mut found = Vec::new();
    let mut read_again = false;
    let stopped = super::libyaml_events::scan_tokens(text, |tokens| {
        let mut depth = 0usize;
        for token in tokens {
            let token = match token {
                Ok(token) => token,
                Err(e) => {
                    let at = [e.context_mark(), e.problem_mark()]
                        .into_iter()
                        .flatten()
                        .filter_map(index)
                        .min();
                    return at;
                }
            };
            match token.data {
                TokenData::FlowSequenceStart | TokenData::FlowMappingStart => depth += 1,
                TokenData::FlowSequenceEnd | TokenData::FlowMappingEnd => {
                    depth = depth.saturating_sub(1);
                }
                TokenData::Scalar {
                    style: libyaml_safer::ScalarStyle::Plain,
                    ..
                } if depth > 0 => {
                    let (Some(start), Some(end)) = (index(token.start_mark), index(token.end_mark))
                    else {
                        continue;
                    };
                    if !questions_in_plain(text, start..end, &mut found) {
                        read_again = true;
                        return None;
                    }
                }
                _ => {}
            }
        }
        None
    });
    match stopped.flatten() {
        Some(at) if found.is_empty() && again && at > 0 && at < text.len() => {
            match text.get(..at) {
                Some(before) => plain_questions(before, false, scanned),
                None => (found, read_again),
            }
        }
        _ => (found, read_again),
    }
}

/// The scalars go-yaml's scanner reads in the flow plain scalar libyaml-safer reads at `range`
/// of `text`, each up to a `?` (added to `found`, as [`plain_questions`] has them). After a `?`
/// (and blanks), a character that starts a plain scalar starts one that ends where
/// libyaml-safer's does, or at its next `?`; `false` when something else follows a `?`.
fn questions_in_plain(
    text: &str,
    range: std::ops::Range<usize>,
    found: &mut Vec<(usize, usize)>,
) -> bool {
    let (mut piece, end) = (range.start, range.end);
    loop {
        let Some(scalar) = text.get(piece..end) else {
            return true;
        };
        let Some((at, _)) =
            question_in_flow_plain(scalar.chars()).and_then(|at| scalar.char_indices().nth(at))
        else {
            return true;
        };
        let question = piece + at;
        found.push((piece, question));
        let next = text[question + 1..end].trim_start_matches([' ', '\t', '\r', '\n']);
        match next.chars().next() {
            None => return true,
            Some(c) if starts_plain_after_question(c) => piece = end - next.len(),
            Some(_) => return false,
        }
    }
}

/// Whether `c` starts a plain scalar in a flow collection for go-yaml's scanner and
/// libyaml-safer's alike, whatever follows it (no indicator, blank, line break or mark).
fn starts_plain_after_question(c: char) -> bool {
    c.is_alphanumeric() || "._/\\~=+^$()<;".contains(c)
}

/// What go-yaml's libyaml (older than the one libyaml-safer ports) refuses in an event that
/// libyaml-safer reads: a `%YAML` version other than 1.1 (1.2 came later).
fn older_libyaml_error(event: &libyaml_safer::Event, src: &str) -> Option<SyntaxError> {
    use libyaml_safer::EventData;
    match &event.data {
        EventData::DocumentStart {
            version_directive: Some(v),
            ..
        } if (v.major, v.minor) != (1, 1) => {
            let first = usize::try_from(event.start_mark.line).unwrap_or(usize::MAX);
            let line = src
                .lines()
                .enumerate()
                .skip(first)
                .find(|(_, l)| l.starts_with("%YAML"))
                .map_or(first, |(i, _)| i);
            Some(incompatible_document(line as u64))
        }
        _ => None,
    }
}

/// go-yaml's error for a `%YAML` directive of a version other than 1.1 on `line` (0-based): a
/// parser error, printed with that line (0 is no line).
fn incompatible_document(line: u64) -> SyntaxError {
    SyntaxError {
        line: u32::try_from(line).unwrap_or(u32::MAX),
        message: "found incompatible YAML document".into(),
        strict: None,
    }
}

/// Where the first `%YAML` directive of a version other than 1.1 is, as libyaml-safer's scanner
/// reads `src` (up to its first error).
fn incompatible_version(src: &str) -> Option<libyaml_safer::Mark> {
    if !src.contains("%YAML") {
        return None;
    }
    crate::panic_guard::catch_panic(|| {
        let mut input = src.as_bytes();
        let mut scanner = libyaml_safer::Scanner::new();
        scanner.set_input_string(&mut input);
        scanner
            .map_while(Result::ok)
            .find_map(|token| match token.data {
                libyaml_safer::TokenData::VersionDirective { major, minor }
                    if (major, minor) != (1, 1) =>
                {
                    Some(token.start_mark)
                }
                _ => None,
            })
    })
    .ok()
    .flatten()
}

/// Where the first verbatim tag (`!<...>`) followed by a `,` ends in `src` (its byte offset and
/// 0-based line): libyaml-safer's scanner panics there in a flow collection (no error: go-yaml
/// reads no shorthand tag so, `yaml::tag_uri` having made its `,` a tag character).
fn verbatim_tag_before_comma(src: &str) -> Option<(u64, u64)> {
    if !src.contains("!<") {
        return None;
    }
    let read_up_to = std::cell::Cell::new(0usize);
    let panicked = crate::panic_guard::catch_panic(|| {
        let mut input = src.as_bytes();
        let mut scanner = libyaml_safer::Scanner::new();
        scanner.set_input_string(&mut input);
        for token in scanner.map_while(Result::ok) {
            read_up_to.set(usize::try_from(token.end_mark.index).unwrap_or(usize::MAX));
        }
    })
    .is_err();
    if !panicked {
        return None;
    }
    // The scanner hands out a token that may be a simple key only once it knows (`[y!x[!<x>,`
    // panics with `y!x` held back): the tag is the first verbatim one with a `,` after it.
    let from = read_up_to.get();
    let end = src.get(from..)?.match_indices("!<").find_map(|(at, _)| {
        let bang = from + at;
        let end = bang + 2 + src[bang + 2..].find('>')? + 1;
        (src.as_bytes().get(end) == Some(&b',')).then_some(end)
    })?;
    let line = src.as_bytes()[..end]
        .iter()
        .filter(|&&b| b == b'\n')
        .count();
    Some((end as u64, line as u64))
}

/// The first alias to no anchor among the events libyaml-safer's parser hands out from `src`
/// before it stops (at an error or a panic).
fn unknown_alias_before_panic(src: &str) -> Option<(String, usize, u64)> {
    let aliases = std::cell::RefCell::new(AliasCheck::default());
    let _ = crate::panic_guard::catch_panic(|| {
        let mut input = src.as_bytes();
        let mut parser = libyaml_safer::Parser::new();
        parser.set_input_string(&mut input);
        for event in parser.map_while(Result::ok) {
            aliases.borrow_mut().see(&event);
        }
    });
    aliases.into_inner().unknown
}

/// The anchors of the current document, and the first alias that names none of them.
#[derive(Default)]
struct AliasCheck {
    anchors: std::collections::HashSet<String>,
    /// The alias's name, the documents read whole before it, and where it starts.
    unknown: Option<(String, usize, u64)>,
    /// The documents read whole.
    documents: usize,
}

impl AliasCheck {
    fn see(&mut self, event: &libyaml_safer::Event) {
        use libyaml_safer::EventData;
        let anchor = match &event.data {
            // Anchors do not reach across documents (as in `parse`).
            EventData::DocumentStart { .. } => {
                self.anchors.clear();
                None
            }
            EventData::DocumentEnd { .. } => {
                self.documents += 1;
                None
            }
            EventData::Alias { anchor } => {
                if self.unknown.is_none() && !self.anchors.contains(anchor) {
                    self.unknown = Some((anchor.clone(), self.documents, event.start_mark.index));
                }
                None
            }
            EventData::Scalar { anchor, .. }
            | EventData::SequenceStart { anchor, .. }
            | EventData::MappingStart { anchor, .. } => anchor.as_ref(),
            _ => None,
        };
        if let Some(a) = anchor {
            self.anchors.insert(a.clone());
        }
    }
}

#[cfg(test)]
mod tests {
    use super::first_error;

    #[test]
    fn backslash_at_the_end_is_an_unknown_escape() {
        let e = first_error("a: \"\\").expect("an error");
        assert_eq!(
            (e.line, e.message.as_str()),
            (1, "found unknown escape character")
        );
        let e = first_error("a:\n  - \"x\\").expect("an error");
        assert_eq!(
            (e.line, e.message.as_str()),
            (2, "found unknown escape character")
        );
        for fine in ["a: b\\", "a: 'b\\", "# \\", "a: |\n  x\\"] {
            let e = first_error(fine).map(|e| e.message);
            assert_ne!(
                e.as_deref(),
                Some("found unknown escape character"),
                "{fine}"
            );
        }
    }

    #[test]
    fn texts_libyaml_safer_misreads_are_read_as_libyaml_reads_them() {
        // A first character encoded from 0xEF that is not a byte-order mark, a block scalar
        // whose last line has no line break (libyaml-safer refused the one, panicked on the other).
        for fine in [
            "\u{fffd}c: 1\n",
            "ｋｅｙ: v\n",
            "a: |\n  x",
            "a: >-\n  x\n  y",
            "- |\n x\\",
        ] {
            assert_eq!(first_error(fine).map(|e| e.message), None, "{fine}");
        }
        let e = first_error("ｋ: [\n").expect("an error");
        assert_eq!(
            (e.line, e.message.as_str()),
            (1, "did not find expected node content")
        );
    }
}
