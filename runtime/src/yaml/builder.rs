//! saphyr-parser's (or libyaml-safer's) events → raw node tree, as go-yaml (ytt's fork)
//! composes and decodes it: lines of items, merge keys, aliases, tagged scalars, and the
//! order of its errors.

use saphyr_parser::{Event, Parser, ScalarStyle, Span, Tag};

use super::go_error::{self, go_yaml_error};
use super::parse::{budget, RawKind, RawNode, RawValue, SyntaxError};
use super::saphyr_text::{
    char_at, directives_start, first_content_indent, indicated_indent, is_block_header,
    line_breaks, past_properties, quoted_scalar_end, TextChar,
};
use super::scalar::{resolve_plain, resolve_tagged, StrictError};
use crate::value::{Key, Value};

/// Where a [`Builder`] reads its events from.
pub(super) enum Events<'a> {
    Saphyr(Box<Parser<'a, saphyr_parser::StrInput<'a>>>),
    /// Read beforehand by [`libyaml_events::read`](super::libyaml_events::read), without error.
    Libyaml(std::vec::IntoIter<(Event<'static>, Span)>),
}

pub(super) struct Builder<'a, C: TextChar> {
    events: Events<'a>,
    /// The text, a character each ([`TextChar`]).
    chars: &'a [C],
    /// Character ranges covered by scalars: a `#` inside them is not a comment.
    pub(super) scalar_spans: Vec<(usize, usize)>,
    /// Anchored values with their node counts, by anchor (a later anchor of the same name
    /// replaces the earlier one).
    anchors: std::collections::HashMap<usize, (RawValue, Copied)>,
    /// The positions of the text's blank characters, in order: listed the first time an array
    /// item's `-` is looked for (see [`Builder::introducer_line`]).
    blanks: std::cell::OnceCell<Vec<u32>>,
    strict: bool,
    /// Collections open around the node being read.
    depth: usize,
    /// The depth budget.
    max_depth: budget::Depth,
    /// Nodes copied by aliases so far.
    alias_nodes: usize,
    /// Bytes of text aliases have copied so far (see [`Copied`]).
    alias_bytes: usize,
    pub(super) first_explicit: bool,
    /// Anchors of the collections being read, and whether each is a map (an alias to one is a
    /// node inside itself).
    open_anchors: Vec<(usize, bool)>,
    /// The first error go-yaml finds when it decodes the document being read (a merge key
    /// without a map, a tagged scalar that does not decode, an anchor inside itself, a scalar
    /// `--strict` refuses): go-yaml
    /// parses a whole document before it decodes it, so its syntax errors come first.
    decode_error: Option<SyntaxError>,
    /// The document being read's decoding error (once it was abandoned) and the documents up
    /// to it, itself included.
    pub(super) decode_failure: Option<(SyntaxError, usize)>,
    /// The number of the document being read (from 1).
    document: usize,
    /// The number of the latest document a decoding error was noted in: it fails to decode,
    /// whichever of its errors is reported (0: none).
    failing_document: usize,
    /// The first map key that is a collection.
    pub(super) non_scalar_key: Option<SyntaxError>,
    /// The line of the first map key holding a line break.
    pub(super) key_line_break: Option<u32>,
    /// The bracket that closes the innermost flow collection being read (`]`, `}`), if any.
    flow_close: Option<char>,
    /// Whether a plain scalar of a flow collection starts with `?` or `:` (`[?a]`, `{? :x}`):
    /// saphyr-parser (YAML 1.2) reads the text `?a` or `:x`, go-yaml a key's or a value's
    /// indicator before `a` or `x`, as libyaml-safer does.
    pub(super) flow_question_key: bool,
}

/// The depth budget's error, for the collection on `line`.
pub(super) fn too_deep(line: u32, depth: budget::Depth) -> SyntaxError {
    SyntaxError {
        line,
        message: format!(
            "{TOO_DEEP} {} levels (raise the budget with {})",
            depth.levels, depth.var
        ),
        strict: None,
    }
}

const TOO_DEEP: &str = "collections nested deeper than";

/// Whether `e` is the depth budget's error or saphyr-parser's limit of flow levels, rather than
/// something wrong with the text.
pub(super) fn is_too_deep(e: &SyntaxError) -> bool {
    e.message.starts_with(TOO_DEEP) || e.message.starts_with(SAPHYR_FLOW_LIMIT)
}

/// How deep saphyr-parser nests flow collections (its flow level is a `u8`), as its error says.
pub(super) const SAPHYR_FLOW_LIMIT: &str =
    "flow collections ([...], {...}) nested deeper than 255 levels";

fn line_of(span: &Span) -> u32 {
    span.start.line() as u32
}

impl<'a, C: TextChar> Builder<'a, C> {
    pub(super) fn new(
        events: Events<'a>,
        chars: &'a [C],
        strict: bool,
        max_depth: budget::Depth,
    ) -> Self {
        Builder {
            events,
            chars,
            scalar_spans: Vec::new(),
            anchors: std::collections::HashMap::new(),
            blanks: std::cell::OnceCell::new(),
            strict,
            first_explicit: false,
            depth: 0,
            max_depth,
            alias_nodes: 0,
            alias_bytes: 0,
            open_anchors: Vec::new(),
            decode_error: None,
            decode_failure: None,
            document: 0,
            failing_document: 0,
            non_scalar_key: None,
            key_line_break: None,
            flow_close: None,
            flow_question_key: false,
        }
    }

    /// Notes a decoding error, reported at the end of its document (only the first counts).
    fn decode_failed(&mut self, message: String) {
        self.note_decode_error(SyntaxError {
            line: 0,
            message,
            strict: None,
        });
    }

    fn note_decode_error(&mut self, e: SyntaxError) {
        self.failing_document = self.document;
        self.decode_error.get_or_insert(e);
    }

    fn next(&mut self) -> Result<(Event<'a>, Span), SyntaxError> {
        let next = self.next_event();
        if next.is_err() {
            // A syntax error after a decoding error: the document is abandoned (go-yaml may
            // stop at the syntax error only in a later document).
            if let Some(e) = self.decode_error.take() {
                self.decode_failure = Some((e, self.document));
            }
        }
        next
    }

    fn next_event(&mut self) -> Result<(Event<'a>, Span), SyntaxError> {
        let next = match &mut self.events {
            Events::Saphyr(parser) => parser.next_event(),
            Events::Libyaml(events) => events.next().map(Ok),
        };
        match next {
            Some(Ok(ev)) => Ok(ev),
            Some(Err(e)) if e.info() == "while parsing node, found unknown anchor" => {
                Err(self.unknown_anchor(e.marker().index()))
            }
            // saphyr-parser counts flow levels in a byte; the fast block reader (and ytt) go
            // deeper, but this file needs the full reader (anchors, tags, ...).
            Some(Err(e)) if e.info() == "recursion limit exceeded" => Err(SyntaxError {
                line: e.marker().line() as u32,
                message: format!(
                    "{SAPHYR_FLOW_LIMIT}: the limit of the full YAML reader, which this file needs (the depth budget, {} levels, applies where the fast reader can take the file: no anchors, aliases or tags)",
                    self.max_depth.levels
                ),
                strict: None,
            }),
            Some(Err(e)) => Err(go_yaml_error(
                e.info(),
                e.marker().line() as u32,
                self.chars,
            )),
            None => Err(SyntaxError {
                line: 0,
                message: "unexpected end of input".into(),
                strict: None,
            }),
        }
    }

    pub(super) fn documents(&mut self) -> Result<Vec<RawNode>, SyntaxError> {
        let mut docs = Vec::new();
        loop {
            let (ev, span) = self.next()?;
            match ev {
                Event::StreamStart | Event::Nothing => {}
                Event::DocumentEnd | Event::StreamEnd => {
                    if let Some(e) = self.decode_error.take() {
                        self.decode_failure = Some((e.clone(), self.document));
                        return Err(e);
                    }
                    if matches!(ev, Event::StreamEnd) {
                        break;
                    }
                }
                Event::DocumentStart(explicit) => {
                    self.document = docs.len() + 1;
                    // Anchors do not reach across documents.
                    self.anchors.clear();
                    let line = if explicit && matches!(self.events, Events::Saphyr(_)) {
                        // go-yaml's document starts at its directives (`%YAML 1.1`), if any;
                        // saphyr-parser's at `---`. A `%` line inside the last document's
                        // last scalar (`x` then `%YAML 1.1` is the plain `x %YAML 1.1`) is none.
                        let floor = self.scalar_spans.last().map_or(0, |&(_, end)| end);
                        directives_start(self.chars, span.start.index(), floor)
                            .unwrap_or_else(|| line_of(&span))
                    } else if explicit || !docs.is_empty() {
                        line_of(&span)
                    } else {
                        1
                    };
                    if docs.is_empty() {
                        self.first_explicit = explicit;
                    }
                    let (ev, span) = self.next()?;
                    let value = if matches!(ev, Event::DocumentEnd) {
                        RawValue::Scalar(Value::Null)
                    } else {
                        self.value(ev, span)?
                    };
                    docs.push(RawNode::new(RawKind::Document, line, value));
                }
                other => {
                    return Err(SyntaxError {
                        line: line_of(&span),
                        message: format!("unexpected event {other:?}"),
                        strict: None,
                    })
                }
            }
        }
        Ok(docs)
    }

    fn value(&mut self, ev: Event<'a>, span: Span) -> Result<RawValue, SyntaxError> {
        let collection = matches!(ev, Event::SequenceStart(..) | Event::MappingStart(..));
        if collection {
            self.depth += 1;
            if self.depth > self.max_depth.levels {
                return Err(too_deep(line_of(&span), self.max_depth));
            }
        }
        let value = self.value_at_depth(ev, span);
        if collection {
            self.depth -= 1;
        }
        value
    }

    fn value_at_depth(&mut self, ev: Event<'a>, span: Span) -> Result<RawValue, SyntaxError> {
        match ev {
            Event::Scalar(text, style, anchor, tag) => {
                let end = match style {
                    ScalarStyle::SingleQuoted | ScalarStyle::DoubleQuoted => {
                        quoted_scalar_end(self.chars, span.start.index(), span.end.index())
                    }
                    // A missing value holds nothing: saphyr-parser's span of the one after a flow
                    // map's last key runs over the `}` and what follows (`{a} # c`).
                    ScalarStyle::Plain if text.is_empty() => span.start.index(),
                    _ => span.end.index(),
                };
                // The span starts at the properties, if any (else at the content, which may
                // start with `!`); a comment between them and the content is not in the scalar.
                let props = anchor != 0 || tag.is_some();
                let start = match props {
                    true => past_properties(self.chars, span.start.index()).min(end),
                    false => span.start.index(),
                };
                self.scalar_spans.push((start, end));
                if style == ScalarStyle::Plain {
                    self.check_flow_plain(start, end)?;
                }
                let text = match style {
                    ScalarStyle::Literal | ScalarStyle::Folded
                        if matches!(self.events, Events::Saphyr(_))
                            && self.ends_unterminated(span.start.index(), end, &text, props) =>
                    {
                        text.strip_suffix('\n')
                            .map_or(text.clone(), |t| t.to_string().into())
                    }
                    _ => text,
                };
                // A scalar `--strict` refuses is, like one that does not decode, go-yaml's
                // error once it decodes the document: after the document's syntax errors
                // (an unknown anchor further down), the first of the document's decoding errors.
                let v = match self.scalar(&text, style, tag.as_deref(), line_of(&span)) {
                    Ok(v) => v,
                    Err(e) => {
                        self.note_decode_error(e);
                        Value::Null
                    }
                };
                let v = RawValue::Scalar(v);
                self.remember(anchor, &v);
                Ok(v)
            }
            Event::Alias(id) => match self.anchors.get(&id) {
                Some((v, copied)) => {
                    // An alias copies its anchor's nodes and their text: bounded, so that
                    // nested aliases (a "billion laughs" document) cannot exhaust memory.
                    self.alias_nodes += copied.nodes;
                    self.alias_bytes += copied.bytes;
                    let excess = if self.alias_nodes > budget::max_alias_nodes() {
                        Some((budget::max_alias_nodes(), "nodes", budget::ALIAS_VAR))
                    } else if self.alias_bytes > budget::max_alias_bytes() {
                        let var = budget::ALIAS_BYTES_VAR;
                        Some((budget::max_alias_bytes(), "bytes of text", var))
                    } else {
                        None
                    };
                    if excess.is_some() && self.failing_document == self.document {
                        // The document already fails to decode, before this alias in go-yaml's
                        // decoding order (which copies aliases as it goes): that error is
                        // ytt's, or a later syntax error; nothing more is copied.
                        return Ok(RawValue::Scalar(Value::Null));
                    }
                    if let Some((max, what, var)) = excess {
                        return Err(SyntaxError {
                            line: line_of(&span),
                            message: format!(
                                "document contains excessive aliasing (more than {max} {what} copied by aliases; raise the budget with {var})"
                            ),
                            strict: None,
                        });
                    }
                    Ok(v.clone())
                }
                None if id != 0 && self.open_anchors.iter().any(|&(a, _)| a == id) => {
                    // go-yaml reads it, and fails when it decodes the alias.
                    let name = self.alias_name(span.start.index());
                    self.decode_failed(format!("anchor '{name}' value contains itself"));
                    Ok(RawValue::Scalar(Value::Null))
                }
                None => Err(self.unknown_anchor(span.start.index())),
            },
            Event::SequenceStart(anchor, _) => {
                let outer = self.enter_collection(&span, '[', ']');
                let v = self.sequence(anchor, |this, ev, span| this.value(ev, span));
                self.flow_close = outer;
                v
            }
            Event::MappingStart(anchor, _) => {
                let outer = self.enter_collection(&span, '{', '}');
                self.open_anchors.push((anchor, true));
                let mut items: Vec<RawNode> = Vec::new();
                loop {
                    let (ev, span) = self.next()?;
                    if matches!(ev, Event::MappingEnd) {
                        break;
                    }
                    let line = match &ev {
                        // An empty key after `?` is on the `?`'s line for go-yaml.
                        Event::Scalar(text, ScalarStyle::Plain, 0, None) if text.is_empty() => {
                            self.introducer_line(&span, |c| c == '?')
                        }
                        // A block scalar key (`? |`) is on its header's line.
                        Event::Scalar(_, ScalarStyle::Literal | ScalarStyle::Folded, ..) => {
                            self.header_line(&span)
                        }
                        _ => line_of(&span),
                    };
                    let merge = is_merge_key(&ev);
                    let key = match self.value(ev, span)? {
                        RawValue::Scalar(k) => k,
                        _ => {
                            self.non_scalar_key.get_or_insert(SyntaxError {
                                line,
                                message: "map keys must be scalars".into(),
                                strict: None,
                            });
                            Value::Null
                        }
                    };
                    let (ev, span) = self.next()?;
                    if merge {
                        // A YAML merge key: the merged map's items join this map's, as they
                        // are (ytt then refuses keys given twice).
                        if let RawValue::Map(merged) = self.merged(ev, span)? {
                            items.extend(merged.into_vec());
                        }
                        continue;
                    }
                    let value = self.value(ev, span)?;
                    if matches!(&key, Value::Str(k) if super::parse::key_is_code(k)) {
                        self.key_line_break.get_or_insert(line);
                    }
                    items.push(RawNode::new(RawKind::MapItem(Key::new(key)), line, value));
                }
                self.open_anchors.pop();
                self.flow_close = outer;
                let v = RawValue::Map(items.into());
                self.remember(anchor, &v);
                Ok(v)
            }
            other => Err(SyntaxError {
                line: line_of(&span),
                message: format!("unexpected event {other:?}"),
                strict: None,
            }),
        }
    }

    /// Notes the collection starting at `span`, a flow one if it opens with `open` (or is the
    /// single-pair map of a flow sequence's `[a: b]`), and returns the flow context around it.
    fn enter_collection(&mut self, span: &Span, open: char, close: char) -> Option<char> {
        let start = past_properties(self.chars, span.start.index());
        let inner = match char_at(self.chars, start) {
            Some(c) if c == open => Some(close),
            _ => self.flow_close,
        };
        std::mem::replace(&mut self.flow_close, inner)
    }

    /// go-yaml's reading of a plain scalar (at `start..end`) in a flow collection:
    /// [`go_error::question_in_flow_plain`].
    fn check_flow_plain(&mut self, start: usize, end: usize) -> Result<(), SyntaxError> {
        let (Some(close), Some(source)) = (self.flow_close, self.chars.get(start..end)) else {
            return Ok(());
        };
        self.flow_question_key |= matches!(char_at(source, 0), Some('?' | ':'));
        match go_error::question_in_flow_plain(source.iter().map(|c| c.ch())) {
            Some(at) => {
                let line = line_breaks(self.chars[..start + at].iter().map(|c| c.ch()));
                Err(go_error::question_in_flow_plain_error(line, close))
            }
            None => Ok(()),
        }
    }

    /// Whether the `#` at character `p` starts a comment: after a blank or the start of its
    /// line, and outside the scalars read so far.
    fn starts_comment_at(&self, p: usize) -> bool {
        if self.chars[p].ch() != '#' || (p > 0 && !self.chars[p - 1].ch().is_whitespace()) {
            return false;
        }
        let spans = &self.scalar_spans;
        let before = spans.partition_point(|&(s, _)| s <= p);
        !spans[..before].iter().rev().take(4).any(|&(_, e)| p < e)
    }

    /// A merge key's value. go-yaml's fork takes a map (or an alias to one) or an empty
    /// sequence; it refuses anything else before decoding it (an alias by the kind of its
    /// anchored node; a sequence's item positions are nodes of their own, which are not maps).
    fn merged(&mut self, ev: Event<'a>, span: Span) -> Result<RawValue, SyntaxError> {
        let earlier = self.decode_error.take();
        let alias = matches!(ev, Event::Alias(_));
        let value = match ev {
            Event::MappingStart(..) => self.value(ev, span),
            Event::SequenceStart(anchor, _) => self.merged_sequence(anchor, &span),
            Event::Alias(id) if self.open_anchors.contains(&(id, false)) => {
                self.decode_failed(MERGE_WANTS_MAP.into());
                self.value(ev, span)
            }
            Event::Alias(_) => self.value(ev, span),
            _ => {
                let value = self.value(ev, span);
                self.decode_error = None;
                value
            }
        }?;
        let refused = match &value {
            RawValue::Map(_) => false,
            RawValue::Array(items) => alias || !items.is_empty(),
            RawValue::Scalar(_) => true,
        };
        if earlier.is_some() {
            self.decode_error = earlier;
        }
        if refused {
            self.decode_failed(MERGE_WANTS_MAP.into());
        }
        Ok(value)
    }

    /// The items of a sequence (its start read), each read by `item`.
    fn sequence(
        &mut self,
        anchor: usize,
        mut item: impl FnMut(&mut Self, Event<'a>, Span) -> Result<RawValue, SyntaxError>,
    ) -> Result<RawValue, SyntaxError> {
        self.open_anchors.push((anchor, false));
        let mut items = Vec::new();
        loop {
            let (ev, span) = self.next()?;
            if matches!(ev, Event::SequenceEnd) {
                break;
            }
            // The line of the `-` (or, in a flow sequence, the `[` or `,`: ytt's go-yaml fork
            // gives an item the line of the one before it).
            let line = self.introducer_line(&span, |c| matches!(c, '-' | '[' | ','));
            let value = item(self, ev, span)?;
            items.push(RawNode::new(RawKind::ArrayItem, line, value));
        }
        self.open_anchors.pop();
        let v = RawValue::Array(items.into());
        self.remember(anchor, &v);
        Ok(v)
    }

    /// A merge key's sequence (its start read). go-yaml looks at the items from the last and
    /// refuses the first it meets (it takes the item's position for one), after decoding the
    /// last if that is a map or an alias to one: only the last item's decoding errors count.
    fn merged_sequence(&mut self, anchor: usize, span: &Span) -> Result<RawValue, SyntaxError> {
        self.depth += 1;
        if self.depth > self.max_depth.levels {
            return Err(too_deep(line_of(span), self.max_depth));
        }
        let earlier = self.decode_error.take();
        let mut last = None;
        let value = self.sequence(anchor, |this, ev, span| {
            let decoded = match ev {
                Event::MappingStart(..) => true,
                Event::Alias(id) => this.open_anchors.contains(&(id, true)),
                _ => false,
            };
            let value = this.value(ev, span);
            last = this.decode_error.take().filter(|_| decoded);
            value
        });
        self.depth -= 1;
        let value = value?;
        self.decode_error = earlier;
        if let Some(e) = last {
            self.decode_failed(e.message);
        }
        Ok(value)
    }

    /// go-yaml's error for an alias `*name` (at character `at`) with no anchor before it in
    /// its document: the anchor's name, no line.
    fn unknown_anchor(&self, at: usize) -> SyntaxError {
        SyntaxError {
            line: 0,
            message: format!("unknown anchor '{}' referenced", self.alias_name(at)),
            strict: None,
        }
    }

    /// The name of the alias `*name` at character `at`, as libyaml scans it: letters, digits,
    /// `_` and `-` (`*a:` is the alias `a` before a `:`).
    fn alias_name(&self, at: usize) -> String {
        let at = at.min(self.chars.len());
        self.chars[at..]
            .iter()
            .map(|c| c.ch())
            .skip_while(|&c| c == '*')
            .take_while(|c| c.is_ascii_alphanumeric() || matches!(c, '_' | '-'))
            .collect()
    }

    fn remember(&mut self, anchor: usize, v: &RawValue) {
        if anchor != 0 {
            self.anchors.insert(anchor, (v.clone(), Copied::of(v)));
        }
    }

    fn scalar(
        &self,
        text: &str,
        style: ScalarStyle,
        tag: Option<&Tag>,
        line: u32,
    ) -> Result<Value, SyntaxError> {
        if let Some(tag) = tag {
            return resolve_tagged(&tag.handle, &tag.suffix, text).map_err(|message| SyntaxError {
                line: 0,
                message,
                strict: None,
            });
        }
        if style != ScalarStyle::Plain {
            return Ok(Value::Str(text.into()));
        }
        resolve_plain(text, self.strict).map_err(|StrictError(msg)| SyntaxError {
            line,
            message: msg.clone(),
            strict: Some(msg),
        })
    }

    /// Whether a block scalar (its content at `start..end`, its value `text`, `props` if it has
    /// a tag or an anchor) reaches the end of the text and saphyr-parser counted a line break
    /// there that go-yaml does not: the text's last line has no line break and is at least as
    /// long as the scalar's indentation (`a: |` + `  x` at the end of a file is `"x"`, with `|+`
    /// too; `a: |+` + `  m` + ` ` is `"m\n"`), or the scalar has no content line and that line
    /// of blanks is the only one after the header (`a: |+` + `   ` is `""`; `a: |+` + `` +
    /// `   ` is `"\n"` in both).
    fn ends_unterminated(&self, start: usize, end: usize, text: &str, props: bool) -> bool {
        let chars = self.chars;
        if end < chars.len() || matches!(chars.last().map(|c| c.ch()), None | Some('\n')) {
            return false;
        }
        let start = start.min(chars.len());
        // saphyr-parser's span starts at the scalar's first content, whose column is the
        // scalar's indentation, at the header when there is no content, or at its properties
        // (`!!str |`): then the first line with content after the header has it. An indentation
        // indicator (`>1`) counts from the indentation of the node's line.
        let no_content = text.bytes().all(|b| b == b'\n');
        let header = if props {
            Some(past_properties(chars, start))
                .filter(|&h| matches!(char_at(chars, h), Some('|' | '>')))
        } else if no_content {
            Some(start)
        } else {
            chars[..start]
                .iter()
                .rposition(|c| matches!(c.ch(), '|' | '>'))
        };
        if no_content {
            let mut after_header = chars[header.unwrap_or(start)..]
                .split(|c| c.ch() == '\n')
                .skip(1);
            return after_header.next().is_some() && after_header.next().is_none();
        }
        let last = chars.iter().rev().take_while(|c| c.ch() != '\n').count();
        let line_start = |at: usize| {
            chars[..at]
                .iter()
                .rposition(|c| c.ch() == '\n')
                .map_or(0, |p| p + 1)
        };
        // The node's line: where its properties start, which may be above the header.
        let indicated =
            header.and_then(|h| indicated_indent(chars, h, if props { start } else { h }));
        let indent = if let Some(indent) = indicated {
            indent
        } else if props {
            first_content_indent(chars, header.unwrap_or(start)).unwrap_or(0)
        } else {
            start - line_start(start)
        };
        last >= indent.max(1)
    }

    /// The line of the header (`|`, `>-`) of the block scalar at `span`: where the span starts
    /// when it starts at the header (libyaml's events), else the nearest line before the
    /// content that holds more than blanks and comments (saphyr-parser's span starts at the
    /// content).
    fn header_line(&self, span: &Span) -> u32 {
        let mut i = span.start.index().min(self.chars.len());
        let mut line = span.start.line() as u32;
        if matches!(char_at(self.chars, i), Some('|' | '>')) {
            return line;
        }
        while i > 0 {
            i -= 1;
            match self.chars[i].ch() {
                '\n' => line = line.saturating_sub(1),
                c if c.is_whitespace() => {}
                _ => match self.comment_before(i) {
                    Some(h) => i = h,
                    None => return line,
                },
            }
        }
        span.start.line() as u32
    }

    /// The `#` of a comment that holds character `i`, on `i`'s line.
    fn comment_before(&self, i: usize) -> Option<usize> {
        let line_start = self.chars[..i]
            .iter()
            .rposition(|c| c.ch() == '\n')
            .map_or(0, |p| p + 1);
        (line_start..i).find(|&p| self.starts_comment_at(p))
    }

    /// Where the run of non-blank characters that `i` is in starts: after the last blank at or
    /// before `i`.
    fn token_start(&self, i: usize) -> usize {
        let blanks = self.blanks.get_or_init(|| {
            let blank = |(at, c): (usize, &C)| c.ch().is_whitespace().then_some(at as u32);
            self.chars.iter().enumerate().filter_map(blank).collect()
        });
        match blanks.partition_point(|&b| b as usize <= i) {
            0 => 0,
            n => blanks[n - 1] as usize + 1,
        }
    }

    /// The line of the indicator (`introduces`: `-` for an array item) before the node whose
    /// content starts at `span`; the node's own line if something else comes first.
    fn introducer_line(&self, span: &Span, introduces: impl Fn(char) -> bool) -> u32 {
        let start = span.start.index().min(self.chars.len());
        let mut line = span.start.line() as u32;
        let mut i = start;
        // Walk back over blanks, newlines and comment text to the nearest indicator.
        while i > 0 {
            i -= 1;
            let c = self.chars[i].ch();
            if c == '\n' {
                line = line.saturating_sub(1);
                continue;
            }
            if c.is_whitespace() {
                continue;
            }
            // Comment text on an earlier line (a `-` in it included): skip to its `#`. (On the
            // item's own line there is none: the item would be in it.)
            if line < span.start.line() as u32 {
                if let Some(h) = self.comment_before(i) {
                    i = h;
                    continue;
                }
            }
            // A block scalar's header (`|+`, `>2-`), a tag or an anchor before the content.
            // (Where each token starts is worked out once: searching back for a blank from every
            // item of a long flow sequence on one line was quadratic.)
            let token = self.token_start(i);
            if is_header_token(&self.chars[token..=i]) {
                i = token;
                continue;
            }
            match c {
                c if introduces(c) => return line,
                '#' => {}
                _ => return span.start.line() as u32,
            }
        }
        span.start.line() as u32
    }
}

/// go-yaml's error for a merge key whose value is not a map.
const MERGE_WANTS_MAP: &str = "map merge requires map or sequence of maps as the value";

/// Whether a map key's event is YAML's merge key: a plain `<<` without a tag, or `<<` tagged
/// `!!merge` (a quoted `"<<"` is an ordinary key).
fn is_merge_key(ev: &Event<'_>) -> bool {
    match ev {
        Event::Scalar(text, style, _, tag) if text == "<<" => match tag {
            None => *style == ScalarStyle::Plain,
            Some(t) => {
                (t.handle == "!!" && t.suffix == "merge")
                    || format!("{}{}", t.handle, t.suffix) == "tag:yaml.org,2002:merge"
            }
        },
        _ => false,
    }
}

/// Whether `token` is what may stand between an array item's `-` and its content on other lines:
/// a block scalar header (`|`, `>-`, `|2+`), a tag (`!!str`) or an anchor (`&a`).
fn is_header_token<C: TextChar>(token: &[C]) -> bool {
    is_block_header(token) || matches!(char_at(token, 0), Some('!' | '&'))
}

/// What an alias of a value copies: its nodes, and the bytes of its strings (keys are shared,
/// not copied).
#[derive(Clone, Copy)]
struct Copied {
    nodes: usize,
    bytes: usize,
}

impl Copied {
    fn of(v: &RawValue) -> Copied {
        match v {
            RawValue::Scalar(Value::Str(s)) => Copied {
                nodes: 1,
                bytes: s.len(),
            },
            RawValue::Scalar(Value::Bytes(b)) => Copied {
                nodes: 1,
                bytes: b.len(),
            },
            RawValue::Scalar(_) => Copied { nodes: 1, bytes: 0 },
            RawValue::Map(items) | RawValue::Array(items) => {
                items.iter().fold(Copied { nodes: 1, bytes: 0 }, |all, i| {
                    let one = Copied::of(&i.value);
                    Copied {
                        nodes: all.nodes + one.nodes,
                        bytes: all.bytes + one.bytes,
                    }
                })
            }
        }
    }
}
