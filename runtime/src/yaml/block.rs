//! A fast reader for the block-style YAML that data-values files are written in.
//!
//! It reads the common subset straight from the bytes of the source: `---` documents, block maps
//! and sequences, single-line plain and quoted scalars, the common forms of block scalars
//! ([`Reader::block_scalar`]), single-line flow collections and comments. Anything else
//! (anchors, aliases, tags, multi-line plain and quoted scalars, tabs, unusual characters or
//! indentation, and every syntax error) makes it give up with `None`, and
//! [`parse_file`](super::parse::parse_file) reads the file with saphyr-parser instead. The tests
//! in `reader_tests.rs` check that both readers give identical results wherever this one answers.

use std::borrow::Cow;

use super::parse::{Comment, RawItems, RawKind, RawNode, RawValue, Read};
use super::raw_keys::RawKeys;
use super::scalar::resolve_plain;
use crate::value::{Key, Value};

/// Why the block reader did not read a file.
#[derive(Debug, PartialEq)]
pub(super) enum GaveUp {
    /// The file needs the full YAML reader.
    NeedsFullReader,
    /// Collections nest deeper than the depth budget, from the collection on this line on (the
    /// full reader cannot always say so: it nests flow collections only 255 deep).
    TooDeep { line: u32 },
}

/// Reads `src` (without its byte-order mark).
/// Collections nest up to `max_depth` levels.
pub(super) fn read(src: &str, strict: bool, max_depth: usize) -> Result<Read, GaveUp> {
    if !plain_characters(src) {
        return Err(GaveUp::NeedsFullReader);
    }
    let mut reader = Reader {
        text: src,
        src: src.as_bytes(),
        pos: 0,
        line: 1,
        indent: END,
        comments: Vec::new(),
        unknown_comment: None,
        open_items: Vec::new(),
        keys: RawKeys::new(),
        strict,
        depth: 0,
        max_depth,
        too_deep: None,
    };
    let Some((docs, first_explicit)) = reader.documents() else {
        return Err(match reader.too_deep {
            Some(line) => GaveUp::TooDeep { line },
            None => GaveUp::NeedsFullReader,
        });
    };
    Ok(Read {
        docs,
        comments: reader.comments,
        unknown_comment: reader.unknown_comment,
        first_explicit,
        non_scalar_key: None,
        key_line_break: None,
    })
}

/// Whether `src` holds only characters every YAML reader treats alike: no tabs, carriage
/// returns, control characters, byte-order marks or Unicode line separators.
fn plain_characters(src: &str) -> bool {
    // Whole chunks without an early exit, which compilers turn into vector code.
    let printable = |chunk: &[u8]| {
        chunk.iter().fold(true, |ok, &b| {
            ok & ((b >= b' ' && b != 0x7f) | (b == b'\n'))
        })
    };
    if src.as_bytes().chunks(256).all(printable) {
        return src.is_ascii()
            || src.chars().all(|c| {
                c.is_ascii()
                    || (c >= '\u{a0}'
                        && !matches!(
                            c,
                            '\u{2028}' | '\u{2029}' | '\u{feff}' | '\u{fffe}' | '\u{ffff}'
                        ))
            });
    }
    false
}

/// The bytes that may end a plain scalar, where [`Reader::plain`] looks closer.
static PLAIN_STOPS: [bool; 256] = {
    let mut table = [false; 256];
    let stops = *b"\n :#,[]{}?";
    let mut i = 0;
    while i < stops.len() {
        table[stops[i] as usize] = true;
        i += 1;
    }
    table
};

/// The indent of the next line when there is none: end of input or a `---` line.
const END: isize = -1;

/// The longest key the reader accepts (YAML limits simple keys to 1024 characters).
const MAX_KEY_LEN: usize = 1000;

struct Reader<'s> {
    text: &'s str,
    /// `text` as bytes. Every byte the reader stops at is ASCII, so offsets are char boundaries.
    src: &'s [u8],
    /// The current byte offset.
    pos: usize,
    /// The 1-based line of `pos`.
    line: u32,
    /// The column of the first character of the current line, or [`END`].
    indent: isize,
    comments: Vec<Comment>,
    /// The first comment that is neither `#@` nor `#!`.
    unknown_comment: Option<Comment>,
    /// The items of the collections being read, innermost last: each collection moves its own
    /// items into an exactly sized `Vec` when it ends.
    open_items: Vec<RawNode>,
    /// The map items' keys, shared by the maps of one type.
    keys: RawKeys<'s>,
    strict: bool,
    /// How many collections enclose `pos`.
    depth: u32,
    /// The depth budget.
    max_depth: usize,
    /// The line of the collection that went past the depth budget.
    too_deep: Option<u32>,
}

/// Where a plain scalar is: that decides which characters end it and which the reader
/// leaves to saphyr-parser.
#[derive(Clone, Copy, PartialEq)]
enum Context {
    Block,
    FlowKey,
    FlowValue,
}

/// A scalar as written: its text (unescaped) and whether it was quoted.
struct Scalar<'s> {
    text: Cow<'s, str>,
    quoted: bool,
}

impl<'s> Reader<'s> {
    fn peek(&self) -> u8 {
        self.src.get(self.pos).copied().unwrap_or(b'\n')
    }

    fn peek_at(&self, offset: usize) -> u8 {
        self.src.get(self.pos + offset).copied().unwrap_or(b'\n')
    }

    fn at_eof(&self) -> bool {
        self.pos >= self.src.len()
    }

    fn skip_spaces(&mut self) {
        while self.src.get(self.pos) == Some(&b' ') {
            self.pos += 1;
        }
    }

    /// Whether the current line starts with a `-` that introduces a sequence item.
    fn at_dash(&self) -> bool {
        self.peek() == b'-' && matches!(self.peek_at(1), b' ' | b'\n')
    }

    /// Moves to the first character of the next line that holds content, recording the
    /// comments on the way; sets `indent` (to [`END`] at the end of input or a `---` line).
    /// Expects to be at the start of a line.
    fn next_content_line(&mut self) -> Option<()> {
        loop {
            let start = self.pos;
            self.skip_spaces();
            if self.at_eof() {
                self.indent = END;
                return Some(());
            }
            match self.src[self.pos] {
                b'\n' => {
                    self.pos += 1;
                    self.line += 1;
                }
                b'#' => self.comment_to_line_end(),
                _ => {
                    self.indent = (self.pos - start) as isize;
                    if self.indent == 0 {
                        return self.check_column_zero();
                    }
                    return Some(());
                }
            }
        }
    }

    /// At column 0: a `---` line ends the document; `...`, directives and other lines starting
    /// with `---` are left to the full reader.
    fn check_column_zero(&mut self) -> Option<()> {
        let rest = &self.src[self.pos..];
        if rest.starts_with(b"---") || rest.starts_with(b"...") {
            if rest.starts_with(b"---") && matches!(self.peek_at(3), b' ' | b'\n') {
                self.indent = END;
                return Some(());
            }
            return None;
        }
        (rest[0] != b'%').then_some(())
    }

    /// At a `#`: records the comment and moves to the next line.
    fn comment_to_line_end(&mut self) {
        let end = self.src[self.pos..]
            .iter()
            .position(|&b| b == b'\n')
            .map_or(self.src.len(), |p| self.pos + p);
        let body = &self.src[self.pos + 1..end];
        self.record_comment(body);
        self.pos = end;
        if !self.at_eof() {
            self.pos += 1;
            self.line += 1;
        }
    }

    /// Records the comment `body` (its text after `#`) on the current line: a `#@` one in
    /// `comments`, the first that is neither `#@` nor `#!` as the unknown one.
    fn record_comment(&mut self, body: &[u8]) {
        if let Some(rest) = body.strip_prefix(b"@") {
            if super::parse::is_comment_annotation(&String::from_utf8_lossy(rest)) {
                return;
            }
            // The source is a `str` and `#`, `@` and `\n` are ASCII, so this is whole characters.
            self.comments.push(Comment {
                line: self.line,
                text: String::from_utf8_lossy(rest).into_owned(),
            });
        } else if self.unknown_comment.is_none() && !body.starts_with(b"!") {
            let text = String::from_utf8_lossy(body);
            self.unknown_comment = Some(Comment {
                line: self.line,
                text: text.strip_suffix('\r').unwrap_or(&text).to_string(),
            });
        }
    }

    /// After a node: the rest of the line must be blank or a comment. Moves to the next content line.
    fn end_line(&mut self) -> Option<()> {
        let start = self.pos;
        self.skip_spaces();
        match self.peek() {
            b'\n' if self.at_eof() => {}
            b'\n' => {
                self.pos += 1;
                self.line += 1;
            }
            b'#' if self.pos > start || self.src.get(self.pos.wrapping_sub(1)) == Some(&b' ') => {
                self.comment_to_line_end()
            }
            _ => return None,
        }
        self.next_content_line()
    }

    /// Reads every document: the nodes and whether the first one started with `---`.
    fn documents(&mut self) -> Option<(Vec<RawNode>, bool)> {
        let mut docs = Vec::new();
        let mut first_explicit = false;
        self.next_content_line()?;
        loop {
            let explicit = self.indent == END && !self.at_eof();
            if !explicit && (self.at_eof() || !docs.is_empty()) {
                break;
            }
            let line = if explicit || !docs.is_empty() {
                self.line
            } else {
                1
            };
            if docs.is_empty() {
                first_explicit = explicit;
            }
            if explicit {
                self.pos += 3;
                self.end_line()?;
            }
            let value = if self.indent == END {
                RawValue::Scalar(Value::Null)
            } else if matches!(self.peek(), b'[' | b'{') {
                // A flow collection as the whole document (`--data-value-yaml k=[...]`).
                let value = self.flow_collection()?;
                self.end_line()?;
                value
            } else {
                self.block_node()?
            };
            if self.indent != END {
                return None;
            }
            docs.push(RawNode::new(RawKind::Document, line, value));
        }
        Some((docs, first_explicit))
    }

    /// A map or sequence that starts on its own line, at column `indent`.
    fn block_node(&mut self) -> Option<RawValue> {
        if self.at_dash() {
            self.block_sequence(self.indent)
        } else {
            self.block_map(self.indent)
        }
    }

    /// Reads the items of a collection with `read`, which pushes them on `open_items`; gives up
    /// when collections nest too deeply.
    fn nested(&mut self, read: impl FnOnce(&mut Self) -> Option<()>) -> Option<RawItems> {
        if self.depth as usize >= self.max_depth {
            self.too_deep = Some(self.line);
            return None;
        }
        self.depth += 1;
        let start = self.open_items.len();
        read(self)?;
        self.depth -= 1;
        Some(self.open_items.drain(start..).collect())
    }

    /// Pushes an item of the collection being read on `open_items`, which holds the items of
    /// every collection open: as many as a large file's longest array (with this crate's
    /// allocator, see `allocator::reserve_growing`).
    #[inline]
    fn push_item(&mut self, kind: RawKind, line: u32, value: RawValue) {
        #[cfg(feature = "mimalloc")]
        crate::allocator::reserve_growing(&mut self.open_items);
        self.open_items.push(RawNode::new(kind, line, value));
    }

    /// The items of a block sequence at column `indent`, from its first `-` on.
    fn block_sequence(&mut self, indent: isize) -> Option<RawValue> {
        self.nested(|r| r.block_sequence_items(indent))
            .map(RawValue::Array)
    }

    fn block_sequence_items(&mut self, indent: isize) -> Option<()> {
        while self.indent == indent && self.at_dash() {
            let line = self.line;
            self.pos += 1;
            self.skip_spaces();
            let value = if matches!(self.peek(), b'\n' | b'#') {
                self.end_line()?;
                if self.indent > indent {
                    self.block_node()?
                } else {
                    RawValue::Scalar(Value::Null)
                }
            } else if self.at_dash() {
                return None;
            } else if matches!(self.peek(), b'|' | b'>') {
                self.block_scalar(indent)?
            } else {
                self.sequence_item_on_line()?
            };
            self.push_item(RawKind::ArrayItem, line, value);
        }
        // What follows belongs to an enclosing map at the same column, or is further out.
        (self.indent <= indent).then_some(())
    }

    /// The content of a `- ` item on its own line: a scalar, a flow collection or a map whose
    /// first key is on this line.
    fn sequence_item_on_line(&mut self) -> Option<RawValue> {
        let start = self.pos;
        let column = self.column();
        if matches!(self.peek(), b'[' | b'{') {
            let value = self.flow_collection()?;
            self.end_line()?;
            return Some(value);
        }
        let (scalar, is_key) = self.block_scalar_or_key()?;
        if is_key {
            self.pos = start;
            self.indent = column;
            return self.block_map(column);
        }
        let value = self.resolve(scalar)?;
        self.end_line()?;
        Some(RawValue::Scalar(value))
    }

    /// The column of `pos` in its line.
    fn column(&self) -> isize {
        let line_start = self.src[..self.pos]
            .iter()
            .rposition(|&b| b == b'\n')
            .map_or(0, |p| p + 1);
        (self.pos - line_start) as isize
    }

    /// The items of a block map at column `indent`, from its first key on.
    fn block_map(&mut self, indent: isize) -> Option<RawValue> {
        self.nested(|r| r.block_map_items(indent))
            .map(RawValue::Map)
    }

    fn block_map_items(&mut self, indent: isize) -> Option<()> {
        let mut index = 0;
        while self.indent == indent {
            if self.at_dash() {
                return None;
            }
            let line = self.line;
            let start = self.pos;
            let (key, is_key) = self.block_scalar_or_key()?;
            if !is_key {
                return None;
            }
            let key = self.key(index, start, key)?;
            index += 1;
            self.pos += 1; // the `:`
            let value = self.map_value(indent)?;
            self.push_item(RawKind::MapItem(key), line, value);
        }
        (self.indent < indent).then_some(())
    }

    /// The value after `key:` in a block map at column `indent`.
    fn map_value(&mut self, indent: isize) -> Option<RawValue> {
        self.skip_spaces();
        match self.peek() {
            b'\n' | b'#' => {
                self.end_line()?;
                if self.indent > indent || (self.indent == indent && self.at_dash()) {
                    self.block_node()
                } else {
                    Some(RawValue::Scalar(Value::Null))
                }
            }
            b'[' | b'{' => {
                let value = self.flow_collection()?;
                self.end_line()?;
                Some(value)
            }
            b'|' | b'>' => self.block_scalar(indent),
            _ => {
                let (scalar, is_key) = self.block_scalar_or_key()?;
                if is_key {
                    return None;
                }
                let value = self.resolve(scalar)?;
                self.end_line()?;
                Some(RawValue::Scalar(value))
            }
        }
    }

    /// A literal (`|`) or folded (`>`) block scalar, from its header on, as the value of an item
    /// of the collection at column `indent`; moves to the next content line. The common forms
    /// only: a header of the style and a chomping indicator alone on its line (an indentation
    /// indicator or a comment after it: the full reader), content lines indented alike past
    /// `indent` and ending in a line break, no line of spaces before the first, and in a folded
    /// scalar no line indented further than the first (which folding keeps apart).
    fn block_scalar(&mut self, indent: isize) -> Option<RawValue> {
        let literal = self.peek() == b'|';
        self.pos += 1;
        let chomping = self.peek();
        if matches!(chomping, b'-' | b'+') {
            self.pos += 1;
        }
        self.skip_spaces();
        if self.peek() != b'\n' || self.at_eof() {
            return None;
        }
        self.pos += 1;
        self.line += 1;
        let mut text = String::new();
        // The content's indentation, from its first line; the empty lines since the last
        // content line.
        let mut content_indent = None;
        let mut breaks = 0;
        loop {
            let line_start = self.pos;
            self.skip_spaces();
            let spaces = self.pos - line_start;
            // A line of spaces is an empty line, or a line of content when they reach past its
            // indentation.
            let blank = self.at_eof() || self.peek() == b'\n';
            if blank && content_indent.is_none_or(|at| spaces <= at) {
                if self.at_eof() || (spaces > 0 && content_indent.is_none()) {
                    if spaces > 0 {
                        return None;
                    }
                    break;
                }
                self.pos += 1;
                self.line += 1;
                breaks += 1;
                continue;
            }
            // Empty lines before the first content line, or a first line that does not reach
            // past the collection's column: the full reader.
            if content_indent.is_none() && (spaces as isize <= indent || breaks > 0) {
                return None;
            }
            let at = *content_indent.get_or_insert(spaces);
            if spaces < at {
                self.pos = line_start;
                break;
            }
            if spaces > at && !literal {
                return None;
            }
            let end = self.pos + self.src[self.pos..].iter().position(|&b| b == b'\n')?;
            // Every content line holds a character, so the text is empty before the first.
            if !text.is_empty() {
                if literal || breaks > 0 {
                    text.extend(std::iter::repeat_n('\n', breaks + usize::from(literal)));
                } else {
                    text.push(' ');
                }
            }
            text.push_str(&self.text[line_start + at..end]);
            breaks = 0;
            self.pos = end + 1;
            self.line += 1;
        }
        if text.is_empty() {
            return None;
        }
        match chomping {
            b'-' => {}
            b'+' => text.extend(std::iter::repeat_n('\n', 1 + breaks)),
            _ => text.push('\n'),
        }
        self.next_content_line()?;
        Some(RawValue::Scalar(Value::Str(text.into())))
    }

    /// A scalar in block context, and whether it is a map key (then `pos` is at its `:`).
    fn block_scalar_or_key(&mut self) -> Option<(Scalar<'s>, bool)> {
        let start = self.pos;
        let scalar = match self.peek() {
            b'"' | b'\'' => self.quoted()?,
            _ => self.plain(Context::Block)?,
        };
        let is_key = self.peek() == b':' && matches!(self.peek_at(1), b' ' | b'\n');
        if is_key && self.pos - start > MAX_KEY_LEN {
            return None;
        }
        Some((scalar, is_key))
    }

    /// A flow collection that opens and closes on this line.
    fn flow_collection(&mut self) -> Option<RawValue> {
        let is_sequence = self.peek() == b'[';
        let items = self.nested(|r| r.flow_items(is_sequence))?;
        Some(if is_sequence {
            RawValue::Array(items)
        } else {
            RawValue::Map(items)
        })
    }

    fn flow_items(&mut self, is_sequence: bool) -> Option<()> {
        let close = if is_sequence { b']' } else { b'}' };
        self.pos += 1;
        self.skip_spaces();
        if self.peek() == close {
            self.pos += 1;
        } else {
            for index in 0.. {
                let line = self.line;
                let (kind, value) = if is_sequence {
                    (RawKind::ArrayItem, self.flow_node()?)
                } else {
                    let start = self.pos;
                    let key = self.flow_scalar(Context::FlowKey)?;
                    if self.pos - start > MAX_KEY_LEN {
                        return None;
                    }
                    let key = self.key(index, start, key)?;
                    if !(self.peek() == b':' && self.peek_at(1) == b' ') {
                        return None;
                    }
                    self.pos += 1;
                    self.skip_spaces();
                    (RawKind::MapItem(key), self.flow_node()?)
                };
                self.push_item(kind, line, value);
                self.skip_spaces();
                match self.peek() {
                    b',' => {
                        self.pos += 1;
                        self.skip_spaces();
                        if matches!(self.peek(), b']' | b'}') {
                            return None;
                        }
                    }
                    b if b == close => {
                        self.pos += 1;
                        break;
                    }
                    _ => return None,
                }
            }
        }
        Some(())
    }

    /// An item or map value in a flow collection.
    fn flow_node(&mut self) -> Option<RawValue> {
        if matches!(self.peek(), b'[' | b'{') {
            self.flow_collection()
        } else {
            let scalar = self.flow_scalar(Context::FlowValue)?;
            self.resolve(scalar).map(RawValue::Scalar)
        }
    }

    /// A scalar in a flow collection, unresolved; `pos` ends right after it.
    fn flow_scalar(&mut self, context: Context) -> Option<Scalar<'s>> {
        match self.peek() {
            b'"' | b'\'' => self.quoted(),
            _ => self.plain(context),
        }
    }

    /// A plain scalar; `pos` ends right after its last non-blank character.
    fn plain(&mut self, context: Context) -> Option<Scalar<'s>> {
        let start = self.pos;
        if !plain_start(self.peek(), self.peek_at(1)) {
            return None;
        }
        let rest = &self.src[start..];
        // The first character is neither blank nor one that ends the scalar.
        let mut len = 1;
        let mut i = 1;
        while i < rest.len() {
            // The bytes that cannot end it, in one tight loop.
            let run = rest[i..]
                .iter()
                .position(|&b| PLAIN_STOPS[b as usize])
                .unwrap_or(rest.len() - i);
            i += run;
            if run > 0 {
                len = i;
            }
            let Some(&b) = rest.get(i) else { break };
            match b {
                b'\n' => break,
                b' ' => {}
                b':' if context != Context::FlowValue
                    && matches!(rest.get(i + 1), None | Some(b' ' | b'\n')) =>
                {
                    break
                }
                b'#' if context == Context::Block && rest[i - 1] == b' ' => break,
                b',' | b']' | b'}' if context != Context::Block => break,
                // go-yaml ends a plain scalar at a `?` in a flow collection: the full reader says
                // what follows.
                b':' | b'#' | b'[' | b'{' | b'?' if context != Context::Block => return None,
                _ => len = i + 1,
            }
            i += 1;
        }
        self.pos = start + len;
        Some(Scalar {
            text: Cow::Borrowed(&self.text[start..self.pos]),
            quoted: false,
        })
    }

    /// A single- or double-quoted scalar that ends on this line; `pos` ends after the quote.
    fn quoted(&mut self) -> Option<Scalar<'s>> {
        let quote = self.peek();
        self.pos += 1;
        let start = self.pos;
        // The text up to `copied`, once an escape makes it differ from the source.
        let mut unescaped: Option<String> = None;
        let mut copied = start;
        loop {
            let b = self.peek();
            let escape = match b {
                b'\n' => return None,
                b'\'' if quote == b'\'' && self.peek_at(1) == b'\'' => '\'',
                b'\\' if quote == b'"' => unescape(self.peek_at(1))?,
                _ if b == quote => break,
                _ => {
                    self.pos += 1;
                    continue;
                }
            };
            let text = unescaped.get_or_insert_with(String::new);
            text.push_str(&self.text[copied..self.pos]);
            text.push(escape);
            self.pos += 2;
            copied = self.pos;
        }
        let text = match unescaped {
            Some(mut text) => {
                text.push_str(&self.text[copied..self.pos]);
                Cow::Owned(text)
            }
            None => Cow::Borrowed(&self.text[start..self.pos]),
        };
        self.pos += 1;
        Some(Scalar { text, quoted: true })
    }

    /// The key of the `index`th item of a map, read from `start` on as `scalar` (`pos` is
    /// right after it): the key of the last map at this depth when it was written alike there.
    fn key(&mut self, index: usize, start: usize, scalar: Scalar<'_>) -> Option<Key> {
        let (src, strict): (&'s [u8], bool) = (self.src, self.strict);
        self.keys
            .key(self.depth as usize, index, &src[start..self.pos], || {
                resolve_key(scalar, strict)
            })
    }

    /// The value of a scalar, or `None` when `--strict` rejects it (the full reader reports that).
    fn resolve(&self, scalar: Scalar<'_>) -> Option<Value> {
        resolve(scalar, self.strict)
    }
}

/// The value of a map key; `None` for the merge key `<<`, which the full reader handles.
/// A key holding a line break or a NUL (an escape: a key read here is on one line) is left
/// to the full reader, which notes it (`RawFile::key_line_break`).
fn resolve_key(key: Scalar<'_>, strict: bool) -> Option<Value> {
    if !key.quoted && key.text == "<<" {
        return None;
    }
    if matches!(&key.text, Cow::Owned(text) if super::parse::key_is_code(text)) {
        return None;
    }
    resolve(key, strict)
}

/// The value of a scalar, or `None` when `--strict` rejects it.
fn resolve(scalar: Scalar<'_>, strict: bool) -> Option<Value> {
    if scalar.quoted {
        return Some(Value::Str(scalar.text.into()));
    }
    resolve_plain(&scalar.text, strict).ok()
}

/// Whether a plain scalar may start with `b` (followed by `next`) without any doubt.
fn plain_start(b: u8, next: u8) -> bool {
    b.is_ascii_alphanumeric()
        || b >= 0x80
        || matches!(
            b,
            b'_' | b'.'
                | b'/'
                | b'~'
                | b'$'
                | b'+'
                | b'('
                | b')'
                | b'='
                | b'^'
                | b';'
                | b'<'
                | b'\\'
        )
        || (b == b'-' && (next.is_ascii_alphanumeric() || matches!(next, b'.' | b'-')))
}

/// The character a double-quoted `\x` escape stands for, for the escapes that keep to one byte.
fn unescape(b: u8) -> Option<char> {
    Some(match b {
        b'\\' => '\\',
        b'"' => '"',
        // go-yaml's (libyaml's) escape; not YAML's.
        b'\'' => '\'',
        b'n' => '\n',
        b't' => '\t',
        b'r' => '\r',
        _ => return None,
    })
}
