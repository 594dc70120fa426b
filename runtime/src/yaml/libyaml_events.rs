//! libyaml-safer's events in saphyr-parser's types, for the texts go-yaml (ytt's YAML library,
//! a port of libyaml) reads and saphyr-parser refuses: a quoted scalar whose continuation line
//! is indented less than its key (`b: 'x` + `y'` at column 0, seen in real CRDs), a tab after
//! `:` (`a:<TAB>1`), a comment right after a closing quote or bracket (`a: "x"# c`). The
//! [`parse`](super::parse) builder then reads these events as it reads saphyr-parser's.

use std::borrow::Cow;
use std::collections::HashMap;

use libyaml_safer::{EventData, Mark, Token};
use saphyr_parser::{Event, Marker, ScalarStyle, Span, Tag};

use super::saphyr_text::{first_content_indent, indicated_indent};

/// libyaml-safer's events for the whole of `src`, with character positions and 1-based lines
/// as saphyr-parser gives them (a line break added at the end, as saphyr-parser sees one); `None`
/// where libyaml-safer finds an error or panics, so that the caller keeps its own error.
/// `stand_ins` are characters the reader put in the text for others, `(stand-in, original)`
/// (see [`apostrophe`](super::apostrophe) and [`flow_colon`](super::flow_colon)); scalars get
/// their originals back.
///
/// The events stop a few levels past `max_depth` nested collections (the builder's error is
/// there): libyaml-safer's scanner looks at every open flow collection for each token it
/// reads, so 20,000 nested `[? ` took 14 s to read whole (ytt 17 s).
pub(super) fn read(
    src: &str,
    stand_ins: &[(char, char)],
    max_depth: usize,
) -> Option<Vec<(Event<'static>, Span)>> {
    read_events(src, stand_ins, max_depth, false)
}

/// [`read`]'s events before libyaml-safer's first error, if any (all of them otherwise).
pub(super) fn read_before_error(
    src: &str,
    stand_ins: &[(char, char)],
    max_depth: usize,
) -> Option<Vec<(Event<'static>, Span)>> {
    read_events(src, stand_ins, max_depth, true)
}

fn read_events(
    src: &str,
    stand_ins: &[(char, char)],
    max_depth: usize,
    stop_at_error: bool,
) -> Option<Vec<(Event<'static>, Span)>> {
    // The character index of a byte offset (marks count bytes): the characters starting before
    // it, counted from the offset asked for last, as marks come nearly in order (a vector of
    // each character's offset took 8 bytes a byte of text: 1.6 GB for a 200 MB file).
    let last = std::cell::Cell::new((0usize, 0usize));
    let char_index = |byte: usize| {
        let byte = byte.min(src.len());
        let (at, chars) = last.get();
        let starts = |b: &[u8]| b.iter().filter(|&&c| c & 0xC0 != 0x80).count();
        let chars = match byte >= at {
            true => chars + starts(&src.as_bytes()[at..byte]),
            false => chars - starts(&src.as_bytes()[byte..at]),
        };
        last.set((byte, chars));
        chars
    };
    let marker = |mark: Mark| {
        let byte = usize::try_from(mark.index).unwrap_or(usize::MAX);
        Marker::new(
            char_index(byte),
            usize::try_from(mark.line).map_or(usize::MAX, |l| l.saturating_add(1)),
            usize::try_from(mark.column).unwrap_or(usize::MAX),
        )
    };
    // libyaml-safer panics on a block scalar whose last line has no line break: one is added,
    // and taken off the scalar that reaches it.
    let padded;
    let unterminated = !src.is_empty() && !src.ends_with(['\n', '\r']);
    let text = if unterminated {
        padded = format!("{src}\n");
        &padded
    } else {
        src
    };
    // libyaml-safer panics on a `\\` that ends the text, and on a block scalar whose last line
    // has no line break (see `go_error`): a character after them changes no token before.
    let mut padded = text.to_string();
    if padded.ends_with('\\') {
        padded.push('q');
    }
    if !padded.ends_with('\n') {
        padded.push('\n');
    }
    crate::panic_guard::catch_panic(|| {
        let mut parser = libyaml_safer::Parser::new();
        // A first byte 0xEF that starts no byte-order mark (`ｋ`) is text, as in libyaml.
        parser.set_encoding(libyaml_safer::Encoding::Utf8);
        parser.set_input(super::go_reader::ReadTo::new(&padded, None));
        let mut anchors = Anchors::default();
        let mut events = Vec::new();
        let mut nesting = Nesting::past(max_depth.saturating_add(8));
        for event in parser {
            let event = match event {
                Ok(event) => event,
                Err(_) if stop_at_error => break,
                Err(_) => return None,
            };
            if nesting.passed(&event.data) {
                break;
            }
            let span = Span::new(marker(event.start_mark), marker(event.end_mark));
            let mut event = anchors.convert(event.data);
            if let Event::Scalar(value, ..) = &mut event {
                for &(stand_in, original) in stand_ins {
                    if value.contains(stand_in) {
                        *value =
                            Cow::Owned(value.replace(stand_in, original.encode_utf8(&mut [0; 4])));
                    }
                }
            }
            events.push((event, span));
        }
        if unterminated {
            remove_added_line_break(src, &mut events);
        }
        Some(events)
    })
    .ok()
    .flatten()
}

/// The collections libyaml-safer's events hold open, counted to stop reading past a number of
/// levels: its parser and scanner keep a few words for each (25 million nested `[` took 2 GB).
pub(super) struct Nesting {
    depth: usize,
    stop_past: usize,
}

impl Nesting {
    pub(super) fn past(levels: usize) -> Nesting {
        Nesting {
            depth: 0,
            stop_past: levels,
        }
    }

    /// Counts the collection `event` starts or ends: whether the events nest past the levels.
    pub(super) fn passed(&mut self, event: &EventData) -> bool {
        match event {
            EventData::SequenceStart { .. } | EventData::MappingStart { .. } => self.depth += 1,
            EventData::SequenceEnd | EventData::MappingEnd => {
                self.depth = self.depth.saturating_sub(1);
            }
            _ => {}
        }
        self.depth > self.stop_past
    }
}

/// libyaml-safer's tokens of `text` (read as UTF-8, as [`read`] reads it), handed to `scan`;
/// `None` where libyaml-safer panics.
pub(super) fn scan_tokens<T>(
    text: &str,
    scan: impl FnOnce(&mut dyn Iterator<Item = libyaml_safer::Result<Token>>) -> T,
) -> Option<T> {
    // libyaml-safer panics on a `\\` that ends the text, and on a block scalar whose last line
    // has no line break (see `go_error`): a character after them changes no token before.
    let mut padded = text.to_string();
    if padded.ends_with('\\') {
        padded.push('q');
    }
    if !padded.ends_with('\n') {
        padded.push('\n');
    }
    crate::panic_guard::catch_panic(|| {
        let mut input = padded.as_bytes();
        let mut scanner = libyaml_safer::Scanner::new();
        scanner.set_encoding(libyaml_safer::Encoding::Utf8);
        scanner.set_input_string(&mut input);
        scan(&mut scanner)
    })
    .ok()
}

/// go-yaml ends a block scalar at the end of a text without a line break: the line break
/// added there is in the value when the last line holds some of it (`  x`, `  <TAB>`, or more
/// spaces than the scalar's indentation: `|` + `  a` + `   ` is `"a\n "`), or the scalar keeps
/// its final line breaks (`|+`).
fn remove_added_line_break(src: &str, events: &mut [(Event<'static>, Span)]) {
    let chars: Vec<char> = src.chars().collect();
    let Some((Event::Scalar(value, ScalarStyle::Literal | ScalarStyle::Folded, ..), span)) = events
        .iter_mut()
        .rev()
        .find(|(e, _)| matches!(e, Event::Scalar(..)))
    else {
        return;
    };
    if span.end.index() < chars.len() {
        return;
    }
    let last_line = chars.iter().rposition(|&c| c == '\n').map_or(0, |p| p + 1);
    let node = span.start.index().min(chars.len());
    let at = chars[node..]
        .iter()
        .position(|&c| matches!(c, '|' | '>'))
        .map_or(node, |p| node + p);
    let indent = indicated_indent(&chars, at, node).or_else(|| first_content_indent(&chars, at));
    let content = chars[last_line..].iter().any(|&c| c != ' ')
        || indent.is_some_and(|indent| chars.len() - last_line > indent);
    let header: String = chars[at..]
        .iter()
        .take_while(|c| !c.is_whitespace())
        .collect();
    if content || header.contains('+') {
        if let Some(v) = value.strip_suffix('\n') {
            *value = Cow::Owned(v.to_string());
        }
    }
}

/// saphyr-parser numbers anchors from 1 in the order they are defined; an alias refers to the
/// latest anchor of its name, and to no anchor (0 is none) when there is none before it.
#[derive(Default)]
struct Anchors {
    ids: HashMap<String, usize>,
    defined: usize,
}

impl Anchors {
    fn define(&mut self, anchor: Option<String>) -> usize {
        let Some(name) = anchor else { return 0 };
        self.defined += 1;
        self.ids.insert(name, self.defined);
        self.defined
    }

    fn convert(&mut self, data: EventData) -> Event<'static> {
        match data {
            EventData::StreamStart { .. } => Event::StreamStart,
            EventData::StreamEnd => Event::StreamEnd,
            EventData::DocumentStart { implicit, .. } => {
                // Anchors do not reach across documents.
                self.ids.clear();
                Event::DocumentStart(!implicit)
            }
            EventData::DocumentEnd { .. } => Event::DocumentEnd,
            EventData::Alias { anchor } => {
                Event::Alias(self.ids.get(&anchor).copied().unwrap_or(0))
            }
            EventData::Scalar {
                anchor,
                tag,
                value,
                style,
                ..
            } => {
                let style = match style {
                    libyaml_safer::ScalarStyle::SingleQuoted => ScalarStyle::SingleQuoted,
                    libyaml_safer::ScalarStyle::DoubleQuoted => ScalarStyle::DoubleQuoted,
                    libyaml_safer::ScalarStyle::Literal => ScalarStyle::Literal,
                    libyaml_safer::ScalarStyle::Folded => ScalarStyle::Folded,
                    _ => ScalarStyle::Plain,
                };
                let anchor = self.define(anchor);
                Event::Scalar(Cow::Owned(value), style, anchor, tag.map(resolved_tag))
            }
            EventData::SequenceStart { anchor, tag, .. } => {
                Event::SequenceStart(self.define(anchor), tag.map(resolved_tag))
            }
            EventData::SequenceEnd => Event::SequenceEnd,
            EventData::MappingStart { anchor, tag, .. } => {
                Event::MappingStart(self.define(anchor), tag.map(resolved_tag))
            }
            EventData::MappingEnd => Event::MappingEnd,
        }
    }
}

/// libyaml gives a tag with its handle resolved (`!!int` is `tag:yaml.org,2002:int`): all of it
/// is the suffix, which is how [`resolve_tagged`](super::scalar::resolve_tagged) reads it.
fn resolved_tag(tag: String) -> Cow<'static, Tag> {
    Cow::Owned(Tag {
        handle: String::new(),
        suffix: tag,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn positions_are_characters_and_lines_count_from_one() {
        let events = read("é: 'x\ny'\n", &[], usize::MAX).expect("libyaml reads it");
        let (Event::Scalar(value, ScalarStyle::SingleQuoted, ..), span) = &events[4] else {
            panic!("{events:?}")
        };
        assert_eq!(value, "x y");
        assert_eq!((span.start.index(), span.start.line()), (3, 1));
        assert_eq!((span.end.index(), span.end.line()), (8, 2));
    }

    #[test]
    fn aliases_refer_to_the_latest_anchor_of_their_name() {
        let events =
            read("- &a 1\n- &a 2\n- *a\n- *b\n", &[], usize::MAX).expect("libyaml reads it");
        let aliases: Vec<_> = events
            .iter()
            .filter_map(|(e, _)| match e {
                Event::Alias(id) => Some(*id),
                _ => None,
            })
            .collect();
        assert_eq!(aliases, [2, 0]);
    }

    #[test]
    fn errors_give_nothing() {
        assert!(read("a: [\n", &[], usize::MAX).is_none());
    }

    #[test]
    fn events_stop_past_the_depth_budget() {
        let deep = format!("{}x{}\n", "[? ".repeat(1000), "]".repeat(1000));
        let events = read(&deep, &[], 10).expect("libyaml reads it");
        let starts = events
            .iter()
            .filter(|(e, _)| matches!(e, Event::SequenceStart(..) | Event::MappingStart(..)))
            .count();
        assert!((11..=18).contains(&starts), "{starts} collections read");
    }
}
