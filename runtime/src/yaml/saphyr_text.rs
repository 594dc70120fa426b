//! The text around what saphyr-parser reports, read where its events say too little: where a
//! quoted scalar really ends, and the comments outside scalars.

use super::parse::Comment;

/// A character of the text the reader reads beside its events, at the character index the
/// events give: a byte of an ASCII text (each character one byte long, so that the text needs
/// no copy: 4 bytes a character otherwise) or a `char` of a text holding others.
pub(super) trait TextChar: Copy {
    fn ch(self) -> char;
}

impl TextChar for u8 {
    #[inline]
    fn ch(self) -> char {
        char::from(self)
    }
}

impl TextChar for char {
    #[inline]
    fn ch(self) -> char {
        self
    }
}

/// The character at `i` of `chars`, if any.
#[inline]
pub(super) fn char_at<C: TextChar>(chars: &[C], i: usize) -> Option<char> {
    chars.get(i).map(|c| c.ch())
}

/// Where the quoted scalar of the event spanning `start..end` ends: right after its closing
/// quote. saphyr-parser ends the span after what follows on the line, a comment included
/// (`a: "x" # c`), and the comment must stay outside the scalar to be seen. The span starts at
/// the node's properties (`&anchor !tag`), if any, which are skipped with what separates them
/// from the quote. Gives `end` when the text is not as expected.
pub(super) fn quoted_scalar_end<C: TextChar>(chars: &[C], start: usize, end: usize) -> usize {
    let end = end.min(chars.len());
    let at = |i: usize| chars[i].ch();
    let mut i = start;
    while i < end && matches!(at(i), '&' | '!') {
        while i < end && !at(i).is_whitespace() {
            i += 1;
        }
        while i < end && at(i).is_whitespace() {
            i += 1;
        }
        if i < end && at(i) == '#' {
            while i < end && at(i) != '\n' {
                i += 1;
            }
        }
        while i < end && at(i).is_whitespace() {
            i += 1;
        }
    }
    let Some(quote) = char_at(chars, i).filter(|&c| c == '"' || c == '\'') else {
        return end;
    };
    i += 1;
    while i < end {
        match at(i) {
            '\\' if quote == '"' => i += 2,
            '\'' if quote == '\'' && char_at(chars, i + 1) == Some('\'') => i += 2,
            c if c == quote => return i + 1,
            _ => i += 1,
        }
    }
    end
}

/// Whether the `#` at `i`, outside scalars, starts a comment: after a blank, as YAML has it,
/// or, as go-yaml reads it, right after the end of a quoted scalar or a flow collection, or a
/// `,`, `[` or `?` in one (`a: "x"# c`, `[x,#c`, `{?#c`: a `?` outside scalars there is a key's
/// indicator), or a `:` inside one (`["a":#c`, `[&a:#c`: a value's indicator there; a plain
/// scalar takes a `:` with the `#` after it, `[a:#c`, and so does a block's, `a: &x:#c`).
fn starts_comment<C: TextChar>(chars: &[C], i: usize, in_flow: bool) -> bool {
    i == 0 || {
        let before = chars[i - 1].ch();
        matches!(
            before,
            ' ' | '\t' | '"' | '\'' | ']' | '}' | ',' | '[' | '{' | '?'
        ) || (before == ':' && in_flow)
            || is_line_break(before)
    }
}

/// Whether `c` ends a line as libyaml counts lines: besides `\n`, a lone `\r` (`\r\n` is one
/// break: see [`scan_comments`]) and YAML 1.1's NEL, LS and PS (texts holding those are read
/// with libyaml's events, whose lines count them too).
pub(super) fn is_line_break(c: char) -> bool {
    matches!(c, '\n' | '\r' | '\u{85}' | '\u{2028}' | '\u{2029}')
}

/// The line breaks of `text` as libyaml counts them ([`is_line_break`]; `\r\n` is one): the
/// 0-based line of what follows it.
pub(super) fn line_breaks(text: impl IntoIterator<Item = char>) -> usize {
    let mut after_cr = false;
    text.into_iter()
        .filter(|&c| {
            let counts = is_line_break(c) && !(c == '\n' && after_cr);
            after_cr = c == '\r';
            counts
        })
        .count()
}

/// Whether `token` is a block scalar's header: `|` or `>` with indentation and chomping
/// indicators (`|`, `>-`, `|2+`).
pub(super) fn is_block_header<C: TextChar>(token: &[C]) -> bool {
    match token.split_first() {
        Some((first, rest)) if matches!(first.ch(), '|' | '>') => rest
            .iter()
            .all(|c| matches!(c.ch(), '+' | '-') || c.ch().is_ascii_digit()),
        _ => false,
    }
}

/// Whether the comment at `i` follows a block scalar's header on its line (`key: |2 #@ x`):
/// go-yaml reads it as part of the scalar's header, and ytt never sees it.
fn after_block_header<C: TextChar>(chars: &[C], i: usize) -> bool {
    let end = chars[..i]
        .iter()
        .rposition(|c| !matches!(c.ch(), ' ' | '\t'))
        .map_or(0, |p| p + 1);
    let start = chars[..end]
        .iter()
        .rposition(|c| c.ch().is_whitespace())
        .map_or(0, |p| p + 1);
    end > start && is_block_header(&chars[start..end])
}

/// The `#@` comments outside scalars, and the first comment that is neither `#@` nor `#!`.
pub(super) fn scan_comments<C: TextChar>(
    chars: &[C],
    mut spans: Vec<(usize, usize)>,
) -> (Vec<Comment>, Option<Comment>) {
    spans.sort_unstable();
    let inside = |i: usize| {
        let idx = spans.partition_point(|&(s, _)| s <= i);
        idx > 0 && i < spans[idx - 1].1
    };
    let mut out = Vec::new();
    let mut unknown = None;
    let mut line = 1u32;
    // The flow collections open at `i` (their brackets outside scalars and comments).
    let mut flow_depth = 0usize;
    let mut i = 0;
    let ignored_from = after_last_document_end(chars);
    while i < ignored_from {
        let c = chars[i].ch();
        if c == '\r' && char_at(chars, i + 1) == Some('\n') {
            // (one break, counted at its `\n`)
            i += 1;
            continue;
        }
        if is_line_break(c) {
            line += 1;
            i += 1;
            continue;
        }
        if matches!(c, '[' | '{') && !inside(i) {
            flow_depth += 1;
        } else if matches!(c, ']' | '}') && !inside(i) {
            flow_depth = flow_depth.saturating_sub(1);
        }
        if c == '#'
            && starts_comment(chars, i, flow_depth > 0)
            && !inside(i)
            && !after_block_header(chars, i)
        {
            let end = chars[i..]
                .iter()
                .position(|c| is_line_break(c.ch()))
                .map_or(chars.len(), |p| i + p);
            let text: String = chars[i + 1..end].iter().map(|c| c.ch()).collect();
            if let Some(rest) = text.strip_prefix('@') {
                if !super::parse::is_comment_annotation(rest) {
                    out.push(Comment {
                        line,
                        text: rest.to_string(),
                    });
                }
            } else if unknown.is_none() && !text.starts_with('!') {
                unknown = Some(Comment { line, text });
            }
            i = end;
            continue;
        }
        i += 1;
    }
    (out, unknown)
}

/// Where the comments go-yaml drops start: at the first document end marker (`...`) of a text
/// with nothing but comments, blank lines and more such markers after it (`... # c` there is
/// no template comment).
fn after_last_document_end<C: TextChar>(chars: &[C]) -> usize {
    let mut end = chars.len();
    let mut from = chars.len();
    for line in chars.split(|c| is_line_break(c.ch())).rev() {
        let start = end - line.len();
        let marker = line.iter().take(3).filter(|c| c.ch() == '.').count() == 3
            && matches!(char_at(line, 3), None | Some(' ' | '\t' | '\r'));
        let mut text = line
            .iter()
            .map(|c| c.ch())
            .skip_while(|c| matches!(c, ' ' | '\t' | '\r'));
        match text.next() {
            None | Some('#') => {}
            Some(_) if marker => from = start,
            Some(_) => break,
        }
        end = start.saturating_sub(1);
    }
    from
}

/// The line of the first directive (`%YAML 1.1`, `%TAG ...`) before the `---` at character
/// `start`, with only comments and blank lines between them and none before character `floor`
/// (the end of the last document's content); `None` without directives.
pub(super) fn directives_start<C: TextChar>(
    chars: &[C],
    start: usize,
    floor: usize,
) -> Option<u32> {
    let start = start.min(chars.len());
    let line_of = |i: usize| 1 + chars[..i].iter().filter(|c| c.ch() == '\n').count() as u32;
    let mut first = None;
    // The start of the line above the one that begins at `end`.
    let mut end = chars[..start].iter().rposition(|c| c.ch() == '\n')?;
    loop {
        let begin = chars[..end]
            .iter()
            .rposition(|c| c.ch() == '\n')
            .map_or(0, |p| p + 1);
        if begin < floor {
            break;
        }
        let mut text = chars[begin..end]
            .iter()
            .map(|c| c.ch())
            .skip_while(|c| c.is_whitespace());
        match text.next() {
            Some('%') if chars[begin].ch() == '%' => first = Some(begin),
            None | Some('#') => {}
            Some(_) => break,
        }
        if begin == 0 {
            break;
        }
        end = begin - 1;
    }
    first.map(line_of)
}

/// The position of a node's content after its properties at `at` (`!!str &a x`), which may be
/// on a later line, after comments.
pub(super) fn past_properties<C: TextChar>(chars: &[C], mut at: usize) -> usize {
    while let Some(c) = char_at(chars, at) {
        at += match c {
            ' ' | '\t' | '\r' | '\n' => 1,
            '#' => chars[at..].iter().take_while(|c| c.ch() != '\n').count(),
            '!' | '&' => chars[at..]
                .iter()
                .take_while(|c| !c.ch().is_whitespace())
                .count(),
            _ => break,
        };
    }
    at
}

/// The indentation a block scalar's indentation indicator (`>1`, `|2-`) gives, counted from
/// that of the block collection the node is in, as libyaml keeps it: on the node's line (`node`:
/// where its properties, or else its header, start), the column of the key before the node
/// (`k: >1`, `- k: >1`), else of the last `- ` before it (`- - >1`), else the line's
/// indentation. The header is at `header`. `None` without an indicator.
pub(super) fn indicated_indent<C: TextChar>(
    chars: &[C],
    header: usize,
    node: usize,
) -> Option<usize> {
    let digit = chars
        .get(header + 1..)?
        .iter()
        .map(|c| c.ch())
        .take_while(|c| matches!(c, '+' | '-') || c.is_ascii_digit())
        .find_map(|c| c.to_digit(10))?;
    let from = chars[..node]
        .iter()
        .rposition(|c| c.ch() == '\n')
        .map_or(0, |p| p + 1);
    let blank = |p: usize| chars[p..node].iter().take_while(|c| c.ch() == ' ').count();
    let mut at = from + blank(from);
    let mut base = at - from;
    while at < node {
        base = at - from;
        if chars[at].ch() != '-' || char_at(chars, at + 1) != Some(' ') {
            break;
        }
        at += 1 + blank(at + 1);
    }
    Some(base + digit as usize)
}

/// The indentation of the first line after the one holding `at` that holds more than spaces: a
/// block scalar's, found from its header. `None` when no line does.
pub(super) fn first_content_indent<C: TextChar>(chars: &[C], at: usize) -> Option<usize> {
    chars
        .get(at..)?
        .split(|c| c.ch() == '\n')
        .skip(1)
        .find(|l| l.iter().any(|c| !matches!(c.ch(), ' ' | '\r')))
        .map(|l| l.iter().take_while(|c| c.ch() == ' ').count())
}
