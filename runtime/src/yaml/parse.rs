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

use saphyr_parser::Parser;
use thin_vec::ThinVec;

use super::block::GaveUp;
pub(super) use super::builder::SAPHYR_FLOW_LIMIT;
use super::builder::{is_too_deep, too_deep, Builder, Events};
use super::comments::attach_comments;
use super::go_reader::ReaderStop;
use super::saphyr_text::{scan_comments, TextChar};
use crate::value::{Key, Value};

/// A `#@...` comment: an annotation (`#@schema/nullable`) or a line of Starlark (`#@ x = 1`).
#[derive(Clone, Debug, PartialEq)]
pub struct Comment {
    pub line: u32,
    /// The text after `#@`, untrimmed.
    pub text: String,
}

impl Comment {
    /// `#@name ...` annotates a node; `#@ code` (a space after `#@`) is Starlark code. Only a
    /// space makes code: ytt reads `#@<TAB>x = 1` as an annotation named `<TAB>x`.
    pub fn is_annotation(&self) -> bool {
        !self.text.is_empty() && !self.text.starts_with(' ')
    }
}

/// `#@comment ...` is ytt's comment annotation: its text is never read, not even as arguments,
/// so the readers drop it (`#@comment foo( "` is no error).
pub fn is_comment_annotation(text: &str) -> bool {
    text.strip_prefix("comment")
        .is_some_and(|rest| rest.is_empty() || rest.starts_with(' '))
}

/// What a node is in its parent. A map item's key is one shared pointer (see [`Key`]): the
/// block reader gives the items of one map type the same keys (see [`super::raw_keys`]).
/// 16 bytes (the pointer's one niche, null, cannot tell two variants without a key apart: the
/// tag is a word of its own), which is why a [`RawNode`] keeps it as a [`RawPlace`] and a key.
#[derive(Clone, Debug, PartialEq)]
pub enum RawKind {
    Document,
    MapItem(Key),
    ArrayItem,
}

impl RawKind {
    /// The text of a map item's string key.
    #[inline]
    pub fn key_str(&self) -> Option<&str> {
        match self {
            RawKind::MapItem(key) => key.as_str(),
            _ => None,
        }
    }
}

/// What a raw node is in its parent, without the key: one byte, which sits beside the node's
/// line (a [`RawKind`] in a node would be a word of tag and padding).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RawPlace {
    Document,
    MapItem,
    ArrayItem,
}

/// A document, map item or array item as written in the file, before templating.
#[derive(Clone, Debug, PartialEq)]
pub struct RawNode {
    pub place: RawPlace,
    /// A map item's key; the null key (a `static`: no allocation, no count) for a document or
    /// an array item. Read through [`RawNode::key`], which tells a null map key from none.
    key: Key,
    pub line: u32,
    pub value: RawValue,
    /// One pointer: almost no node of a data values file owns a comment.
    pub comments: ThinVec<Comment>,
}

impl RawNode {
    /// Whether this is the empty document that annotations after a file's last node make
    /// (it has no line: ytt prints `?` for it): every comment of it is above it, its code lines
    /// run before it (none is its value).
    pub fn made_of_trailing_annotations(&self) -> bool {
        self.place == RawPlace::Document && self.line == 0
    }

    /// A node owning no comment.
    #[inline]
    pub fn new(kind: RawKind, line: u32, value: RawValue) -> RawNode {
        let (place, key) = match kind {
            RawKind::Document => (RawPlace::Document, Key::default()),
            RawKind::MapItem(key) => (RawPlace::MapItem, key),
            RawKind::ArrayItem => (RawPlace::ArrayItem, Key::default()),
        };
        RawNode {
            place,
            key,
            line,
            value,
            comments: ThinVec::new(),
        }
    }

    /// What the node is in its parent, its key shared (a count).
    pub fn kind(&self) -> RawKind {
        match self.place {
            RawPlace::Document => RawKind::Document,
            RawPlace::MapItem => RawKind::MapItem(self.key.clone()),
            RawPlace::ArrayItem => RawKind::ArrayItem,
        }
    }

    /// What the node is (its key moved: no count), its line and its value; its comments
    /// dropped.
    #[inline]
    pub fn into_parts(self) -> (RawKind, u32, RawValue) {
        let kind = match self.place {
            RawPlace::MapItem => RawKind::MapItem(self.key),
            place => {
                // The null key of a node that is not a map item is a `static` (no count to give
                // back), so it is not dropped: no check of its tag, and the kind is made
                // without a branch where the places' order is the kinds'.
                std::mem::forget(self.key);
                match place {
                    RawPlace::Document => RawKind::Document,
                    _ => RawKind::ArrayItem,
                }
            }
        };
        (kind, self.line, self.value)
    }

    /// A map item's key.
    #[inline]
    pub fn key(&self) -> Option<&Key> {
        (self.place == RawPlace::MapItem).then_some(&self.key)
    }

    /// A map item's key, to change.
    #[inline]
    pub fn key_mut(&mut self) -> Option<&mut Key> {
        (self.place == RawPlace::MapItem).then_some(&mut self.key)
    }

    /// The text of a map item's string key (the null key of the other nodes has none).
    #[inline]
    pub fn key_str(&self) -> Option<&str> {
        self.key.as_str()
    }
}

/// The items of a raw map or array, exactly sized: two words (a `Vec` is three), so that a
/// [`RawValue`] is the size of a [`Value`].
pub type RawItems = Box<[RawNode]>;

#[derive(Clone, Debug, PartialEq)]
pub enum RawValue {
    Scalar(Value),
    Map(RawItems),
    Array(RawItems),
}

// The reader's nodes are what the largest inputs are held as before templating (88 bytes
// each with `Vec`s, 64 with a key of its own, 56 with a shared one, 48 with the tag beside the
// line): see BENCHMARKS.md, "Thirtieth session", "Thirty-fourth session" and "Thirty-fifth
// session".
#[cfg(target_pointer_width = "64")]
const _: () = assert!(
    std::mem::size_of::<RawKind>() == 16
        && std::mem::size_of::<RawValue>() == 24
        && std::mem::size_of::<RawNode>() == 48
);

/// A parsed file: its documents, and code comments that no node owns (after the last node;
/// annotations there form a document of their own).
#[derive(Clone, Debug)]
pub struct RawFile {
    pub name: Arc<str>,
    /// The name its positions carry: [`FileName::new`] of `name`, or a
    /// [`FileName::unique`] one when another file given to the run has the same name (its lines
    /// are then quoted from its own text).
    pub file: crate::value::FileName,
    pub docs: Vec<RawNode>,
    pub trailing_comments: Vec<Comment>,
    /// The first comment that is neither `#@` nor `#!` (its text after `#`): ytt refuses it in
    /// a template unless `--ignore-unknown-comments`.
    pub unknown_comment: Option<Comment>,
    /// The first map key that is a collection (`[a, b]: x`, `? {a: 1}`): go-yaml reads it, and
    /// ytt fails only when it evaluates the file (its item then has a null key).
    pub non_scalar_key: Option<SyntaxError>,
    /// Whether a node below a document owns a comment (false in most data values files, whose
    /// only annotation is the document's `#@data/values`): see [`RawFile::find_commented`].
    pub comments_below_documents: bool,
    /// Whether ytt reads an empty document before the first one, which starts with `---`
    /// after a comment or a directive (ytt numbers it among the nodes).
    pub leading_document: bool,
    /// The line of the first map item whose key holds a line break or a NUL
    /// ([`key_is_code`]): ytt runs the key's text after its first line break as template code,
    /// and a NUL ends its program (see `template::compile::key_code`).
    pub key_line_break: Option<u32>,
}

/// Whether ytt's program reads some of map key `key` as code: ytt writes the key in a comment
/// of its program, which starlark-go's scanner ends at a line break (`\n`, `\r`), and a NUL
/// ends the program.
pub fn key_is_code(key: &str) -> bool {
    key.contains(['\n', '\r', '\0'])
}

impl RawFile {
    /// Whether ytt makes an empty document before the file's first: one before its first
    /// `---` that a comment or directive precedes, or the one of a file with no document of
    /// its own (none, or only the empty one its trailing annotations make, which has no line).
    pub fn has_leading_empty_document(&self) -> bool {
        self.leading_document || self.docs.iter().all(RawNode::made_of_trailing_annotations)
    }

    /// The first `Some` that `f` gives for a node of the file, in file order (pre-order), for
    /// the checks that look at nodes' comments: only the documents are visited when no node
    /// below them owns a comment.
    pub fn find_commented<T>(&self, mut f: impl FnMut(&RawNode) -> Option<T>) -> Option<T> {
        fn walk<T>(node: &RawNode, f: &mut impl FnMut(&RawNode) -> Option<T>) -> Option<T> {
            f(node).or_else(|| match &node.value {
                RawValue::Map(items) | RawValue::Array(items) => {
                    items.iter().find_map(|n| walk(n, f))
                }
                RawValue::Scalar(_) => None,
            })
        }
        if self.comments_below_documents {
            self.docs.iter().find_map(|d| walk(d, &mut f))
        } else {
            self.docs.iter().find_map(f)
        }
    }
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
    parse_file_within(name, src, strict, budget::Depth::files(), None)
}

/// [`parse_file`] with collections nested up to `depth` rather than the files' budget, read by
/// go-yaml's reader up to `stop` (see [`parse_file_keeping_key_errors`]).
pub fn parse_file_within(
    name: &str,
    src: &str,
    strict: bool,
    depth: budget::Depth,
    stop: Option<ReaderStop>,
) -> Result<RawFile, SyntaxError> {
    let mut file = read_file(name, src, strict, depth, stop)?;
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
///
/// go-yaml's reader stops where `stop` says (a file's bad bytes, see
/// [`super::go_reader::reader_stop`]): its error, or a syntax error its scanner meets before.
pub fn parse_file_keeping_key_errors(
    name: &str,
    src: &str,
    strict: bool,
    stop: Option<ReaderStop>,
) -> Result<RawFile, SyntaxError> {
    read_file(name, src, strict, budget::Depth::files(), stop)
}

/// [`parse_file_keeping_key_errors`] with collections nested up to `depth`.
fn read_file(
    name: &str,
    src: &str,
    strict: bool,
    depth: budget::Depth,
    stop: Option<ReaderStop>,
) -> Result<RawFile, SyntaxError> {
    if let Some(stop) = stop.filter(|s| s.chars_before == 0) {
        // go-yaml's first read holds the bad bytes: its first token fails.
        return Err(super::go_error::reader_error(stop));
    }
    // ytt reads a byte-order mark as text (see `bom`): the readers here would skip it.
    let replaced = super::bom::stand_in(src);
    let src = replaced.as_deref().unwrap_or(src);
    let skipped = leading_document_ends(src)?;
    let unskipped = src;
    let src = skipped.as_deref().unwrap_or(src);
    // The block reader's nodes start on lines in pre-order (it takes no aliases, which copy
    // an earlier node, nor scalars across lines).
    // (The block reader reads a text whole; one the reader stops in is read as libyaml reads.)
    let block = match stop {
        Some(_) => Err(GaveUp::NeedsFullReader),
        None => super::block::read(src, strict, depth.levels),
    };
    let (read, lines_in_order) = match block {
        Ok(read) => (read, true),
        // go-yaml nests without a limit: where the text has a syntax error, ytt reports it
        // (`a: ` then 5,000 `[`), which the full reader finds; a text without one is the
        // budget's error.
        Err(GaveUp::TooDeep { line }) => {
            return Err(match read_with_saphyr(src, strict, depth, None) {
                Err(e) if !is_too_deep(&e) => e,
                _ => too_deep(line, depth),
            })
        }
        Err(GaveUp::NeedsFullReader) => (read_with_saphyr(src, strict, depth, stop)?, false),
    };
    let Read {
        mut docs,
        mut comments,
        mut unknown_comment,
        first_explicit,
        non_scalar_key,
        key_line_break,
    } = read;
    if !first_explicit && starts_with_document_marker(src) {
        // The first document is implicit (` --- x`, a scalar) but ytt sees a `---`, so it puts
        // no `---` line before the text (which the readers' line 1 stands for): the document
        // starts at its content, past the blank lines.
        if let Some(first) = docs.first_mut() {
            let blank = src.len() - src.trim_start_matches(GO_BLANKS).len();
            first.line = 1 + src[..blank].matches('\n').count() as u32;
        }
    }
    if replaced.is_some() {
        super::bom::restore(
            &mut docs,
            comments.iter_mut().chain(unknown_comment.as_mut()),
        );
    }
    let leading_document = first_explicit && !docs.is_empty() && text_before_first_start(unskipped);
    let (mut trailing_comments, comments_below_documents) =
        attach_comments(&mut docs, comments, first_explicit, lines_in_order);
    if trailing_comments.iter().any(Comment::is_annotation) {
        // As in ytt, annotations after the last node make an empty document of their own (it
        // has no position: ytt prints `?` for its line).
        docs.push(RawNode {
            comments: std::mem::take(&mut trailing_comments).into(),
            ..RawNode::new(RawKind::Document, 0, RawValue::Scalar(Value::Null))
        });
    }
    Ok(RawFile {
        name: Arc::from(name),
        file: crate::value::FileName::new(name),
        docs,
        trailing_comments,
        unknown_comment,
        non_scalar_key,
        comments_below_documents,
        leading_document,
        key_line_break,
    })
}

/// Whether `line` (without its line feed) starts a document: `---` at its start, then its end
/// or a blank (`---@x` is a plain scalar).
pub(crate) fn starts_document(line: &str) -> bool {
    marker_line(line, "---")
}

/// Whether ytt reads `src` as it is, without the `---` line it puts before a text that does
/// not start with one: its check is the regular expression `\A\s*---\s+` (Go's `\s`: tab, line
/// feed, form feed, carriage return, space).
pub(crate) fn starts_with_document_marker(src: &str) -> bool {
    src.trim_start_matches(GO_BLANKS)
        .strip_prefix("---")
        .is_some_and(|rest| rest.starts_with(GO_BLANKS))
}

/// Go's `\s` in a regular expression.
const GO_BLANKS: [char; 5] = ['\t', '\n', '\x0c', '\r', ' '];

/// Whether `line` starts with the marker `---` or `...` standing alone.
fn marker_line(line: &str, marker: &str) -> bool {
    line.strip_prefix(marker)
        .is_some_and(|r| r.is_empty() || r.starts_with([' ', '\t', '\r']))
}

/// Whether a line that is not blank (a comment, a directive, a `...`) comes before the `---`
/// that starts the first document: ytt's document set then holds an empty document first.
fn text_before_first_start(src: &str) -> bool {
    let mut text = false;
    for line in src.split('\n') {
        if starts_document(line) {
            return text;
        }
        text |= !line.trim().is_empty();
    }
    false
}

/// go-yaml skips `...` lines that come before any document (libyaml reads an empty document
/// there and fails); what follows them must then be a `---` document (or a directive): the
/// text with those lines blanked (lines keep their numbers), `None` when it has none.
fn leading_document_ends(src: &str) -> Result<Option<String>, SyntaxError> {
    let is_end = |l: &str| marker_line(l, "...");
    let insignificant = |l: &str| {
        let t = l.trim_start_matches([' ', '\t', '\r']);
        t.is_empty() || t.starts_with('#')
    };
    // Most files start with a comment or a document: nothing to collect.
    if !src
        .split('\n')
        .find(|l| !insignificant(l))
        .is_some_and(is_end)
    {
        return Ok(None);
    }
    let lines: Vec<&str> = src.split('\n').collect();
    let first = lines.iter().position(|l| !insignificant(l)).unwrap_or(0);
    let mut next = first;
    while next < lines.len() && (is_end(lines[next]) || insignificant(lines[next])) {
        next += 1;
    }
    if let Some(l) = lines.get(next) {
        if !starts_document(l) && !l.starts_with('%') {
            return Err(SyntaxError {
                line: next as u32,
                message: "did not find expected <document start>".into(),
                strict: None,
            });
        }
    }
    // A text of nothing but these lines and comments holds no document, and go-yaml drops the
    // comments after its first `...` (as after a last document's end: `saphyr_text`), so
    // they are blanked too (`...` then two `#@data/values` is no error).
    let no_document = next == lines.len();
    let blanked: Vec<String> = lines
        .iter()
        .enumerate()
        .map(|(i, l)| {
            if no_document && i >= first {
                String::new()
            } else if i < next && is_end(l) {
                format!("   {}", &l[3..])
            } else {
                (*l).to_string()
            }
        })
        .collect();
    Ok(Some(blanked.join("\n")))
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
    /// The line of the first map key holding a line break or a NUL ([`key_is_code`]).
    pub key_line_break: Option<u32>,
}

/// A text with what libyaml-safer refuses (and go-yaml reads) replaced by a stand-in
/// (`yaml::apostrophe`, `yaml::flow_colon`): the reader reads the patched text and turns
/// `stand_in`, a character the text holds nowhere, back in the values it reads.
pub(super) struct Patched {
    pub text: String,
    /// The character the stand-in reads as (itself, or what a stand-in escape stands for).
    pub stand_in: char,
}

/// Reads `src` with saphyr-parser, or with libyaml-safer where saphyr-parser refuses what
/// libyaml (and so go-yaml) reads. go-yaml's reader stops where `stop` says: the error is
/// libyaml's first, or the reader's.
pub(super) fn read_with_saphyr(
    src: &str,
    strict: bool,
    depth: budget::Depth,
    stop: Option<ReaderStop>,
) -> Result<Read, SyntaxError> {
    // The events' character indexes are byte offsets in an ASCII text.
    if src.is_ascii() {
        return read_with_saphyr_in(src, src.as_bytes(), strict, depth, stop);
    }
    let chars: Vec<char> = src.chars().collect();
    read_with_saphyr_in(src, &chars, strict, depth, stop)
}

/// [`read_with_saphyr`] with `chars`, the characters of `src` ([`TextChar`]).
fn read_with_saphyr_in<C: TextChar>(
    src: &str,
    chars: &[C],
    strict: bool,
    depth: budget::Depth,
    stop: Option<ReaderStop>,
) -> Result<Read, SyntaxError> {
    let mut builder = Builder::new(
        Events::Saphyr(Box::new(Parser::new_from_str(src))),
        chars,
        strict,
        depth,
    );
    let mut docs = builder.documents();
    // go-yaml's error where libyaml finds one (saphyr-parser stops elsewhere, and reads some
    // texts go-yaml rejects: `- : x` under a key, a tab in block indentation); saphyr's own
    // otherwise. go-yaml decodes a document before it parses the next one: a decoding error in
    // a document that ends before the syntax error comes first.
    // libyaml reads the text with its `\'` escapes patched (saphyr-parser refuses them), its
    // `:`s before flow indicators in flow plain scalars (which libyaml refuses), and the `,[]`
    // go-yaml keeps in tags.
    // libyaml-safer counts a simple key's 1,024 characters in bytes (`super::one_byte`): a text
    // past ASCII is patched and read with each character one byte long, and its characters are
    // put back in the scalars read.
    let one_byte = (!src.is_ascii() && super::one_byte::restorable(src))
        .then(|| super::one_byte::one_byte_characters(src, &[]));
    let base = one_byte.as_deref().unwrap_or(src);
    let quirks = super::go_quirks::patch(base)?;
    let libyaml_src = quirks.as_ref().map_or(base, |p| p.text.as_str());
    let stand_ins = quirks.as_ref().map_or(&[][..], |p| &p.stand_ins);
    // A text where go-yaml's scanner ends a flow plain scalar at a `?` is an error, found in the
    // text with those scalars quoted (`go_error::quote_plain_before_question`), its quirks
    // patched after (a tag after such a `?` keeps its `,`: `[a?!x,b<]`).
    let quoted = super::go_error::quote_plain_before_question(base)?;
    let quoted_quirks = match &quoted {
        Some(q) => Some(super::go_quirks::patch(q)?),
        None => None,
    };
    let (error_src, error_stand_ins) = match (&quoted, &quoted_quirks) {
        (_, Some(Some(p))) => (p.text.as_str(), &p.stand_ins[..]),
        (Some(q), _) => (q.as_str(), &[][..]),
        (None, _) => (libyaml_src, stand_ins),
    };
    let first_error = match one_byte {
        Some(_) => {
            super::go_error::first_error_at_one_byte(error_src, error_stand_ins, stop, depth.levels)
        }
        None => super::go_error::first_error_at(error_src, stop, depth.levels),
    };
    // (libyaml reads to the end, past where the reader stops.)
    let first_error = first_error.or_else(|| Some((super::go_error::reader_error(stop?), 0)));
    if let Some((e, read_whole)) = first_error {
        // Where saphyr-parser stopped before what libyaml reads (a go-yaml quirk), the
        // documents before libyaml's error are read with its events to be decoded.
        let decoding = builder.decode_failure.take().or_else(|| {
            docs.as_ref().err()?;
            let mut events =
                super::libyaml_events::read_before_error(libyaml_src, stand_ins, depth.levels)?;
            if one_byte.is_some() {
                restore_one_byte(src, stand_ins, &mut events)?;
            }
            let mut reread =
                Builder::new(Events::Libyaml(events.into_iter()), chars, strict, depth);
            let _ = reread.documents();
            reread.decode_failure.take()
        });
        return Err(match decoding {
            Some((decoding, docs)) if docs <= read_whole => decoding,
            _ => e,
        });
    }
    // NEL (U+0085), LS (U+2028) and PS (U+2029) are line breaks to libyaml and go-yaml (YAML
    // 1.1), folded in a quoted scalar (`"a<NEL>b"` is `a b`, `' <LS>'` is `<LS>`), and text to
    // saphyr-parser (YAML 1.2); so is `?` at the start of a flow plain scalar
    // (`Builder::flow_question_key`).
    let yaml11_breaks = src.contains(['\u{85}', '\u{2028}', '\u{2029}']);
    // Where saphyr-parser read a document to its end and it failed to decode, libyaml (which
    // found no syntax error) reads the same events up to there: its reading would give the
    // same error, after holding every event of the text at once (30 times the text's size).
    let failed_to_decode = matches!(
        (&docs, &builder.decode_failure),
        (Err(e), Some((decoding, _))) if e == decoding
    );
    let reread = (docs.is_err() && !failed_to_decode)
        || yaml11_breaks
        || builder.flow_question_key
        || anchor_name_ends_early(src);
    if reread || quirks.is_some() {
        let mut events = super::libyaml_events::read(libyaml_src, stand_ins, depth.levels);
        if let (Some(read), Some(_)) = (&mut events, &one_byte) {
            if restore_one_byte(src, stand_ins, read).is_none() {
                events = read_as_written(src, depth.levels)?;
            }
        }
        if let Some(events) = events {
            builder = Builder::new(Events::Libyaml(events.into_iter()), chars, strict, depth);
            docs = builder.documents();
        }
    }
    let docs = docs?;
    let (comments, unknown_comment) =
        scan_comments(chars, std::mem::take(&mut builder.scalar_spans));
    Ok(Read {
        docs,
        comments,
        unknown_comment,
        first_explicit: builder.first_explicit,
        non_scalar_key: builder.non_scalar_key,
        key_line_break: builder.key_line_break,
    })
}

/// libyaml-safer's events for `src` as written, go-yaml's quirks patched (where a text read
/// with each character one byte long could not have its characters put back: a comment after a
/// block scalar's header holding some).
fn read_as_written(src: &str, max_depth: usize) -> Result<Option<Vec<LibyamlEvent>>, SyntaxError> {
    let quirks = super::go_quirks::patch(src)?;
    let stand_ins = quirks.as_ref().map_or(&[][..], |p| &p.stand_ins);
    let text = quirks.as_ref().map_or(src, |p| p.text.as_str());
    Ok(super::libyaml_events::read(text, stand_ins, max_depth))
}

/// Puts the characters of `src` back in the scalars of `events`, read from its text with each
/// character one byte long and go-yaml's quirks patched (their `stand_ins` kept as read);
/// `None` where they cannot be ([`super::one_byte::restore`]).
fn restore_one_byte(
    src: &str,
    stand_ins: &[(char, char)],
    events: &mut [LibyamlEvent],
) -> Option<()> {
    let keep: Vec<char> = stand_ins.iter().map(|&(stand_in, _)| stand_in).collect();
    super::one_byte::restore(src, &keep, events)
}

/// One of libyaml-safer's events, with its span.
type LibyamlEvent = (saphyr_parser::Event<'static>, saphyr_parser::Span);

/// Whether an anchor or alias name in `src` may end before saphyr-parser's does: libyaml's (and
/// go-yaml's) names are ASCII letters, digits, `_` and `-`, and a name may be followed by `:`,
/// `?`, `%`, `@` or `` ` ``, which start the next token (`&b:x y` is the anchor `b` on the
/// scalar `:x y`); YAML 1.2 takes `b:x` as the name. A `&` or `*` inside a scalar only costs
/// the second reading.
fn anchor_name_ends_early(src: &str) -> bool {
    let bytes = src.as_bytes();
    memchr::memchr2_iter(b'&', b'*', bytes).any(|at| {
        let name = bytes[at + 1..]
            .iter()
            .take_while(|&&c| c.is_ascii_alphanumeric() || c == b'_' || c == b'-')
            .count();
        name > 0
            && matches!(
                bytes.get(at + 1 + name),
                Some(b':' | b'?' | b'%' | b'@' | b'`')
            )
    })
}

/// The nodes of `v` (itself included).
pub(crate) fn node_count(v: &RawValue) -> usize {
    match v {
        RawValue::Scalar(_) => 1,
        RawValue::Map(items) | RawValue::Array(items) => {
            1 + items.iter().map(|i| node_count(&i.value)).sum::<usize>()
        }
    }
}

pub mod budget;

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
