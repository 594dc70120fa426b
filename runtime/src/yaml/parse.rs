//! YAML → raw node tree with lines and ytt comments.
//!
//! Most files are block-style YAML, which the fast [`block`](super::block) reader reads in one
//! pass, noting the `#@` comments as it goes. It gives up on anything else, and then, as ytt's
//! annotations live in comments, which YAML parsers drop, this reader does two passes:
//! saphyr-parser builds the node tree (with the line of every document, map item and array
//! item), and a scan of the source text finds the `#@` comments outside scalars. Comments are
//! then attached as ytt attaches them: a comment belongs to the nodes of the first line at or
//! below it that holds a node — the innermost node when the comment shares the node's line
//! (`key: #@ expr`), the outermost one otherwise (`#@schema/nullable` above `key:`).

use std::sync::Arc;

use saphyr_parser::{Event, Parser, ScalarStyle, Span, Tag};

use super::block::GaveUp;
use super::saphyr_text::{directives_start, is_block_header, quoted_scalar_end, scan_comments};
use super::scalar::{resolve_plain, resolve_tagged, StrictError};
use crate::value::Value;

/// A `#@...` comment: an annotation (`#@schema/nullable`) or a line of Starlark (`#@ x = 1`).
#[derive(Clone, Debug, PartialEq)]
pub struct Comment {
    pub line: u32,
    /// The text after `#@`, untrimmed.
    pub text: String,
}

impl Comment {
    /// `#@name ...` annotates a node; `#@ code` (a space after `#@`) is Starlark code.
    pub fn is_annotation(&self) -> bool {
        self.text.chars().next().is_some_and(|c| !c.is_whitespace())
    }
}

/// What a raw node is in its parent.
#[derive(Clone, Debug, PartialEq)]
pub enum RawKind {
    Document,
    MapItem(Value),
    ArrayItem,
}

/// A document, map item or array item as written in the file, before templating.
#[derive(Clone, Debug, PartialEq)]
pub struct RawNode {
    pub kind: RawKind,
    pub line: u32,
    pub value: RawValue,
    pub comments: Vec<Comment>,
}

#[derive(Clone, Debug, PartialEq)]
pub enum RawValue {
    Scalar(Value),
    Map(Vec<RawNode>),
    Array(Vec<RawNode>),
}

/// A parsed file: its documents, and code comments that no node owns (after the last node;
/// annotations there form a document of their own).
#[derive(Clone, Debug)]
pub struct RawFile {
    pub name: Arc<str>,
    pub docs: Vec<RawNode>,
    pub trailing_comments: Vec<Comment>,
    /// The first comment that is neither `#@` nor `#!` (its text after `#`): ytt refuses it in
    /// a template unless `--ignore-unknown-comments`.
    pub unknown_comment: Option<Comment>,
    /// The first map key that is a collection (`[a, b]: x`, `? {a: 1}`): go-yaml reads it, and
    /// ytt fails only when it evaluates the file (its item then has a null key).
    pub non_scalar_key: Option<SyntaxError>,
}

/// A YAML syntax error, with the 1-based line ytt would report.
#[derive(Clone, Debug, PartialEq)]
pub struct SyntaxError {
    /// 0 where ytt names no line (a tagged scalar that cannot be decoded, an unknown anchor).
    pub line: u32,
    pub message: String,
    /// `--strict` rejected an ambiguous scalar (reported differently by ytt).
    pub strict: Option<String>,
}

impl SyntaxError {
    /// The error as ytt words it after the file name: `yaml: line 3: ...`.
    pub fn detail(&self) -> String {
        match (&self.strict, self.line) {
            (Some(msg), _) => format!("yaml: Strict parsing: {msg}"),
            (None, 0) => format!("yaml: {}", self.message),
            (None, line) => format!("yaml: line {line}: {}", self.message),
        }
    }
}

/// Parses `src` as a multi-document YAML file named `name`; a map key that is a collection is
/// an error.
pub fn parse_file(name: &str, src: &str, strict: bool) -> Result<RawFile, SyntaxError> {
    let mut file = parse_file_keeping_key_errors(name, src, strict)?;
    match file.non_scalar_key.take() {
        Some(e) => Err(e),
        None => Ok(file),
    }
}

/// Parses `src` as a multi-document YAML file named `name`, leaving the error of a map key
/// that is a collection in [`RawFile::non_scalar_key`] (ytt reports it when it evaluates the
/// file, after the other files' syntax errors).
///
/// Most files are read by the fast [`block`](super::block) reader; files it does not take on
/// (unusual syntax, or errors) are read with saphyr-parser, which also reports the errors.
pub fn parse_file_keeping_key_errors(
    name: &str,
    src: &str,
    strict: bool,
) -> Result<RawFile, SyntaxError> {
    // ytt reads a byte-order mark as text (see `bom`): the readers here would skip it.
    let replaced = super::bom::stand_in(src);
    let src = replaced.as_deref().unwrap_or(src);
    let read = match super::block::read(src, strict) {
        Ok(read) => read,
        Err(GaveUp::TooDeep { line }) => return Err(too_deep(line)),
        Err(GaveUp::NeedsFullReader) => read_with_saphyr(src, strict)?,
    };
    let Read {
        mut docs,
        mut comments,
        mut unknown_comment,
        first_explicit,
        non_scalar_key,
    } = read;
    if replaced.is_some() {
        super::bom::restore(
            &mut docs,
            comments.iter_mut().chain(unknown_comment.as_mut()),
        );
    }
    let mut trailing_comments = attach_comments(&mut docs, comments, first_explicit);
    if trailing_comments.iter().any(Comment::is_annotation) {
        // As in ytt, annotations after the last node make an empty document of their own (it
        // has no position: ytt prints `?` for its line).
        docs.push(RawNode {
            kind: RawKind::Document,
            line: 0,
            value: RawValue::Scalar(Value::Null),
            comments: std::mem::take(&mut trailing_comments),
        });
    }
    Ok(RawFile {
        name: Arc::from(name),
        docs,
        trailing_comments,
        unknown_comment,
        non_scalar_key,
    })
}

/// What a reader found in a file, before comments are attached.
#[derive(Debug, PartialEq)]
pub(super) struct Read {
    pub docs: Vec<RawNode>,
    /// Every `#@` comment outside scalars, in file order.
    pub comments: Vec<Comment>,
    /// The first comment that is neither `#@` nor `#!` (text after `#`).
    pub unknown_comment: Option<Comment>,
    /// Whether the first document starts with `---`.
    pub first_explicit: bool,
    /// The first map key that is a collection.
    pub non_scalar_key: Option<SyntaxError>,
}

/// Reads `src` with saphyr-parser, or with libyaml-safer where saphyr-parser refuses what
/// libyaml (and so go-yaml) reads.
pub(super) fn read_with_saphyr(src: &str, strict: bool) -> Result<Read, SyntaxError> {
    let chars: Vec<char> = src.chars().collect();
    let mut builder = Builder::new(
        Events::Saphyr(Box::new(Parser::new_from_str(src))),
        &chars,
        strict,
    );
    let mut docs = builder.documents();
    // go-yaml's error where libyaml finds one (saphyr-parser stops elsewhere, and reads some
    // texts go-yaml rejects: `- : x` under a key, a tab in block indentation); saphyr's own
    // otherwise. go-yaml decodes a document before it parses the next one: a decoding error in
    // a document that ends before the syntax error comes first.
    if let Some((e, read_whole)) = super::go_error::first_error_at(src) {
        return Err(match builder.decode_failure.take() {
            Some((decoding, docs)) if docs <= read_whole => decoding,
            _ => e,
        });
    }
    if docs.is_err() {
        if let Some(events) = super::libyaml_events::read(src) {
            builder = Builder::new(Events::Libyaml(events.into_iter()), &chars, strict);
            docs = builder.documents();
        }
    }
    let docs = docs?;
    let (comments, unknown_comment) = scan_comments(&chars, &builder.scalar_spans);
    Ok(Read {
        docs,
        comments,
        unknown_comment,
        first_explicit: builder.first_explicit,
        non_scalar_key: builder.non_scalar_key,
    })
}

/// The nodes of `v` (itself included).
fn node_count(v: &RawValue) -> usize {
    match v {
        RawValue::Scalar(_) => 1,
        RawValue::Map(items) | RawValue::Array(items) => {
            1 + items.iter().map(|i| node_count(&i.value)).sum::<usize>()
        }
    }
}

/// The reader's budgets, raised by environment variables.
pub mod budget {
    /// Collections nested in one another (ytt reads 1,000 and more).
    pub const DEFAULT_MAX_DEPTH: usize = 2_000;
    pub const DEPTH_VAR: &str = "SCHEMAC_MAX_DEPTH";
    /// Nodes that aliases copy in one file.
    pub const DEFAULT_MAX_ALIAS_NODES: usize = 1_000_000;
    pub const ALIAS_VAR: &str = "SCHEMAC_MAX_ALIAS_NODES";

    /// Bytes of one input file (what the pipeline holds of a file is tens of times its size).
    pub const DEFAULT_MAX_INPUT_BYTES: usize = 256 << 20;
    pub const INPUT_VAR: &str = "SCHEMAC_MAX_INPUT_BYTES";

    fn from_env(var: &str, default: usize) -> usize {
        std::env::var(var)
            .ok()
            .and_then(|v| v.trim().parse().ok())
            .unwrap_or(default)
    }

    pub fn max_input_bytes() -> usize {
        static V: std::sync::OnceLock<usize> = std::sync::OnceLock::new();
        *V.get_or_init(|| from_env(INPUT_VAR, DEFAULT_MAX_INPUT_BYTES))
    }

    pub fn max_depth() -> usize {
        static V: std::sync::OnceLock<usize> = std::sync::OnceLock::new();
        *V.get_or_init(|| from_env(DEPTH_VAR, DEFAULT_MAX_DEPTH))
    }

    pub fn max_alias_nodes() -> usize {
        static V: std::sync::OnceLock<usize> = std::sync::OnceLock::new();
        *V.get_or_init(|| from_env(ALIAS_VAR, DEFAULT_MAX_ALIAS_NODES))
    }
}

/// A saphyr-parser error in the words and on the line go-yaml (ytt's YAML library) gives.
///
/// go-yaml prints only the problem, not its context (`while parsing a block mapping, `), and
/// numbers lines of parser errors from 0 (one less than the 1-based line of the token it
/// stopped at: 0 means no line at all), while scanner errors count from 1.
fn go_yaml_error(info: &str, line: u32, chars: &[char]) -> SyntaxError {
    let problem = match info.split_once(", ") {
        Some((context, problem)) if context.starts_with("while ") => problem,
        _ => info,
    };
    let (message, parser_error) = match problem {
        // ytt cuts this message short where it reads `]` or `}`.
        "expected ',' or ']'"
        | "did not find expected ',' or ']'"
        | "did not find expected ',' or '}'" => {
            ("did not find expected ',' or '".to_string(), true)
        }
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
            let last = chars.iter().filter(|&&c| c == '\n').count() as u32 + 1;
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

/// Where a [`Builder`] reads its events from.
enum Events<'a> {
    Saphyr(Box<Parser<'a, saphyr_parser::StrInput<'a>>>),
    /// Read beforehand by [`libyaml_events::read`](super::libyaml_events::read), without error.
    Libyaml(std::vec::IntoIter<(Event<'static>, Span)>),
}

struct Builder<'a> {
    events: Events<'a>,
    chars: &'a [char],
    /// Character ranges covered by scalars: a `#` inside them is not a comment.
    scalar_spans: Vec<(usize, usize)>,
    /// Anchored values with their node counts.
    anchors: Vec<(usize, RawValue, usize)>,
    strict: bool,
    /// Collections open around the node being read.
    depth: usize,
    /// Nodes copied by aliases so far.
    alias_nodes: usize,
    first_explicit: bool,
    /// Anchors of the collections being read, and whether each is a map (an alias to one is a
    /// node inside itself).
    open_anchors: Vec<(usize, bool)>,
    /// The first error go-yaml finds when it decodes the document being read (a merge key
    /// without a map, a tagged scalar that does not decode, an anchor inside itself): go-yaml
    /// parses a whole document before it decodes it, so its syntax errors come first.
    decode_error: Option<SyntaxError>,
    /// The document being read's decoding error (once it was abandoned) and the documents up
    /// to it, itself included.
    decode_failure: Option<(SyntaxError, usize)>,
    /// The number of the document being read (from 1).
    document: usize,
    /// The first map key that is a collection.
    non_scalar_key: Option<SyntaxError>,
}

/// The depth budget's error, for the collection on `line`.
fn too_deep(line: u32) -> SyntaxError {
    SyntaxError {
        line,
        message: format!(
            "collections nested deeper than {} levels (raise the budget with {})",
            budget::max_depth(),
            budget::DEPTH_VAR
        ),
        strict: None,
    }
}

/// How deep saphyr-parser nests flow collections (its flow level is a `u8`), as its error says.
pub(super) const SAPHYR_FLOW_LIMIT: &str =
    "flow collections ([...], {...}) nested deeper than 255 levels";

fn line_of(span: &Span) -> u32 {
    span.start.line() as u32
}

impl<'a> Builder<'a> {
    fn new(events: Events<'a>, chars: &'a [char], strict: bool) -> Self {
        Builder {
            events,
            chars,
            scalar_spans: Vec::new(),
            anchors: Vec::new(),
            strict,
            first_explicit: false,
            depth: 0,
            alias_nodes: 0,
            open_anchors: Vec::new(),
            decode_error: None,
            decode_failure: None,
            document: 0,
            non_scalar_key: None,
        }
    }

    /// Notes a decoding error, reported at the end of its document (only the first counts).
    fn decode_failed(&mut self, message: String) {
        self.decode_error.get_or_insert(SyntaxError {
            line: 0,
            message: super::go_error::truncated(&message),
            strict: None,
        });
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
                    budget::max_depth()
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

    fn documents(&mut self) -> Result<Vec<RawNode>, SyntaxError> {
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
                        // saphyr-parser's at `---`.
                        directives_start(self.chars, span.start.index())
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
                    docs.push(RawNode {
                        kind: RawKind::Document,
                        line,
                        value,
                        comments: Vec::new(),
                    });
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
            if self.depth > budget::max_depth() {
                return Err(too_deep(line_of(&span)));
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
                    _ => span.end.index(),
                };
                self.scalar_spans.push((span.start.index(), end));
                let text = match style {
                    ScalarStyle::Literal | ScalarStyle::Folded
                        if matches!(self.events, Events::Saphyr(_))
                            && self.ends_unterminated(span.start.index(), end) =>
                    {
                        text.strip_suffix('\n')
                            .map_or(text.clone(), |t| t.to_string().into())
                    }
                    _ => text,
                };
                let v = match self.scalar(&text, style, tag.as_deref(), line_of(&span)) {
                    Ok(v) => v,
                    Err(e) if e.strict.is_none() => {
                        self.decode_failed(e.message);
                        Value::Null
                    }
                    Err(e) => return Err(e),
                };
                let v = RawValue::Scalar(v);
                self.remember(anchor, &v);
                Ok(v)
            }
            Event::Alias(id) => match self.anchors.iter().rev().find(|(a, _, _)| *a == id) {
                Some((_, v, count)) => {
                    // An alias copies its anchor's nodes: bounded, so that nested aliases
                    // (a "billion laughs" document) cannot exhaust memory.
                    self.alias_nodes += count;
                    if self.alias_nodes > budget::max_alias_nodes() {
                        return Err(SyntaxError {
                            line: line_of(&span),
                            message: format!(
                                "document contains excessive aliasing (more than {} nodes copied by aliases; raise the budget with {})",
                                budget::max_alias_nodes(),
                                budget::ALIAS_VAR
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
                self.sequence(anchor, |this, ev, span| this.value(ev, span))
            }
            Event::MappingStart(anchor, _) => {
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
                            items.extend(merged);
                        }
                        continue;
                    }
                    let value = self.value(ev, span)?;
                    items.push(RawNode {
                        kind: RawKind::MapItem(key),
                        line,
                        value,
                        comments: Vec::new(),
                    });
                }
                self.open_anchors.pop();
                let v = RawValue::Map(items);
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

    /// Whether the `#` at character `p` starts a comment: after a blank or the start of its
    /// line, and outside the scalars read so far.
    fn starts_comment_at(&self, p: usize) -> bool {
        if self.chars[p] != '#' || (p > 0 && !self.chars[p - 1].is_whitespace()) {
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
            items.push(RawNode {
                kind: RawKind::ArrayItem,
                line,
                value,
                comments: Vec::new(),
            });
        }
        self.open_anchors.pop();
        let v = RawValue::Array(items);
        self.remember(anchor, &v);
        Ok(v)
    }

    /// A merge key's sequence (its start read). go-yaml looks at the items from the last and
    /// refuses the first it meets (it takes the item's position for one), after decoding the
    /// last if that is a map or an alias to one: only the last item's decoding errors count.
    fn merged_sequence(&mut self, anchor: usize, span: &Span) -> Result<RawValue, SyntaxError> {
        self.depth += 1;
        if self.depth > budget::max_depth() {
            return Err(too_deep(line_of(span)));
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
            .skip_while(|&&c| c == '*')
            .take_while(|c| c.is_ascii_alphanumeric() || matches!(c, '_' | '-'))
            .collect()
    }

    fn remember(&mut self, anchor: usize, v: &RawValue) {
        if anchor != 0 {
            self.anchors.push((anchor, v.clone(), node_count(v)));
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

    /// Whether a block scalar (its content at `start..end`) reaches the end of the text and saphyr-parser
    /// counted a line break there that go-yaml does not: the text's last line has no line break
    /// and is at least as long as the scalar's indentation (`a: |` + `  x` at the end of a file
    /// is `"x"`, with `|+` too; `a: |+` + `  m` + ` ` is `"m\n"`).
    fn ends_unterminated(&self, start: usize, end: usize) -> bool {
        let chars = self.chars;
        if end < chars.len() || matches!(chars.last(), None | Some('\n')) {
            return false;
        }
        let last = chars.iter().rev().take_while(|&&c| c != '\n').count();
        // saphyr-parser's span starts at the scalar's first content, whose column is the
        // scalar's indentation, or at its properties (`!!str |`): then the first later line
        // with content has it. An indentation indicator (`>1`) counts from the indentation of
        // the header's line.
        let start = start.min(chars.len());
        let props = matches!(chars.get(start), Some('!' | '&'));
        let header = if props {
            chars[start..]
                .iter()
                .take_while(|&&c| c != '\n')
                .position(|&c| c == '|' || c == '>')
                .map(|p| start + p)
        } else {
            chars[..start].iter().rposition(|&c| c == '|' || c == '>')
        };
        let line_start = |at: usize| {
            chars[..at]
                .iter()
                .rposition(|&c| c == '\n')
                .map_or(0, |p| p + 1)
        };
        let indicated = header.and_then(|h| {
            let digit = chars[h + 1..]
                .iter()
                .take_while(|c| matches!(c, '+' | '-') || c.is_ascii_digit())
                .find_map(|c| c.to_digit(10))?;
            let from = line_start(h);
            let base = chars[from..h].iter().take_while(|&&c| c == ' ').count();
            Some(base + digit as usize)
        });
        let indent = if let Some(indent) = indicated {
            indent
        } else if props {
            chars[start..]
                .split(|&c| c == '\n')
                .skip(1)
                .find(|l| l.iter().any(|&c| c != ' ' && c != '\r'))
                .map_or(0, |l| l.iter().take_while(|&&c| c == ' ').count())
        } else {
            start - line_start(start)
        };
        last >= indent.max(1)
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
            let c = self.chars[i];
            if c == '\n' {
                line = line.saturating_sub(1);
                continue;
            }
            if c.is_whitespace() {
                continue;
            }
            // Comment text on an earlier line (a `-` in it included): skip to its `#`.
            let line_start = self.chars[..i]
                .iter()
                .rposition(|&c| c == '\n')
                .map_or(0, |p| p + 1);
            if let Some(h) = (line_start..i).find(|&p| self.starts_comment_at(p)) {
                i = h;
                continue;
            }
            // A block scalar's header (`|+`, `>2-`), a tag or an anchor before the content.
            let token = self.chars[..=i]
                .iter()
                .rposition(|c| c.is_whitespace())
                .map_or(0, |p| p + 1);
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
fn is_header_token(token: &[char]) -> bool {
    is_block_header(token) || matches!(token.first(), Some('!' | '&'))
}

/// Attaches comments to nodes the way ytt does; returns the comments no node owns.
///
/// Nodes are numbered in pre-order; each comment finds its owner by the lines of the nodes,
/// and a second walk hands the comments to their owners in file order.
fn attach_comments(
    docs: &mut [RawNode],
    comments: Vec<Comment>,
    first_explicit: bool,
) -> Vec<Comment> {
    if comments.is_empty() {
        return Vec::new();
    }
    // Every node's line and pre-order number, sorted: the nodes of a line, outermost first.
    let mut lines: Vec<(u32, u32)> = Vec::new();
    let mut number = 0;
    for (i, doc) in docs.iter().enumerate() {
        // ytt does not know the line of an implicit first document when it places comments.
        let skip_root = i == 0 && !first_explicit;
        number_lines(doc, skip_root, &mut number, &mut lines);
    }
    lines.sort_unstable();

    let mut owned: Vec<(u32, Comment)> = Vec::new();
    let mut trailing = Vec::new();
    for comment in comments {
        let first = lines.partition_point(|&(line, _)| line < comment.line);
        let Some(&(line, outermost)) = lines.get(first) else {
            trailing.push(comment);
            continue;
        };
        let owner = if line == comment.line {
            let end = first + lines[first..].partition_point(|&(l, _)| l == line);
            lines[end - 1].1
        } else {
            outermost
        };
        owned.push((owner, comment));
    }
    owned.sort_by_key(|&(owner, _)| owner);
    let mut owned = owned.into_iter().peekable();
    let mut number = 0;
    for doc in docs.iter_mut() {
        hand_out(doc, &mut number, &mut owned);
    }
    trailing
}

/// Numbers `node` and its descendants in pre-order from `*number`, noting their lines.
fn number_lines(node: &RawNode, skip: bool, number: &mut u32, lines: &mut Vec<(u32, u32)>) {
    if !skip {
        lines.push((node.line, *number));
    }
    *number += 1;
    if let RawValue::Map(items) | RawValue::Array(items) = &node.value {
        for child in items {
            number_lines(child, false, number, lines);
        }
    }
}

/// Gives the nodes numbered as [`number_lines`] did the comments they own (sorted by owner).
fn hand_out(
    node: &mut RawNode,
    number: &mut u32,
    owned: &mut std::iter::Peekable<impl Iterator<Item = (u32, Comment)>>,
) {
    while let Some((_, comment)) = owned.next_if(|(owner, _)| owner == number) {
        node.comments.push(comment);
    }
    *number += 1;
    if owned.peek().is_none() {
        return;
    }
    if let RawValue::Map(items) | RawValue::Array(items) = &mut node.value {
        for child in items {
            hand_out(child, number, owned);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse(src: &str) -> RawFile {
        parse_file("t.yml", src, false).unwrap()
    }

    #[test]
    fn lines_of_documents_items_and_comments() {
        let f = parse("#@data/values\n---\na: 1\n#@schema/nullable\nb:\n- x #@ 3\n-\n  c: d\n");
        assert_eq!(f.docs.len(), 1);
        let doc = &f.docs[0];
        assert_eq!(doc.line, 2);
        assert_eq!(doc.comments[0].text, "data/values");
        let RawValue::Map(items) = &doc.value else {
            panic!("map expected")
        };
        assert_eq!(items[0].line, 3);
        assert_eq!(items[1].line, 5);
        assert_eq!(items[1].comments[0].text, "schema/nullable");
        let RawValue::Array(arr) = &items[1].value else {
            panic!("array expected")
        };
        assert_eq!(arr[0].line, 6);
        assert_eq!(arr[0].comments[0].text, " 3");
        assert_eq!(arr[1].line, 7);
    }

    #[test]
    fn same_line_comment_goes_to_innermost_node() {
        let f = parse("- a: #@ 1\n");
        let RawValue::Array(arr) = &f.docs[0].value else {
            panic!()
        };
        assert!(arr[0].comments.is_empty());
        let RawValue::Map(items) = &arr[0].value else {
            panic!()
        };
        assert_eq!(items[0].comments[0].text, " 1");
    }

    #[test]
    fn hashes_inside_scalars_are_not_comments() {
        let f = parse("a: \"x #@ y\"\nb: |\n  #@ not code\nc: d#@e\n");
        assert!(f.trailing_comments.is_empty());
        let RawValue::Map(items) = &f.docs[0].value else {
            panic!()
        };
        assert!(items.iter().all(|i| i.comments.is_empty()));
    }

    #[test]
    fn first_implicit_document_is_line_one() {
        let f = parse("\n\na: 1\n---\nb: 2\n");
        assert_eq!(f.docs[0].line, 1);
        assert_eq!(f.docs[1].line, 4);
    }

    #[test]
    fn bad_yaml_is_an_error_with_a_line() {
        let e = parse_file("t.yml", "a: 1\nb: [1, 2\n", false).unwrap_err();
        assert!(e.line >= 2, "{e:?}");
        let e = parse_file("t.yml", "a:\n\t- 1\n", false).unwrap_err();
        assert_eq!(e.line, 2);
    }

    #[test]
    fn a_document_starts_at_its_directives() {
        let f = parse("a: 1\n...\n%YAML 1.1\n# c\n%TAG !e! tag:e.com:\n---\nb: 2\n");
        assert_eq!(f.docs[1].line, 3);
    }

    #[test]
    fn trailing_comments_are_kept() {
        let f = parse("a: 1\n#@ end\n");
        assert_eq!(f.trailing_comments.len(), 1);
    }
}
