//! A map key holding a line break is code in ytt. ytt writes each instruction of a map item
//! with a debug comment naming its key (`__ytt_tplN_start_node(7) # *yamlmeta.MapItem key=%s`):
//! its annotations, the set line of a text-templated key, its start, the set line of its `#@`
//! value, of its text-templated string value or of its plain scalar value. A key holding `\n`
//! ends that comment at its first line break, and each line after it is a line of the
//! template's code, run after each such instruction (`? "a\nx = 1"` assigns `x` there).
//!
//! starlark-go's scanner ends a line at `\n`, `\r\n` and `\r` alike ([`starlark_lines`]), and
//! reads a NUL as the end of the program: a key holding one ends ytt's program in the comment
//! of the item's first instruction, after the key's lines of code before the NUL; the program
//! runs to there, and ytt then finds its node contexts still open
//! ([`super::Program::ends_at_nul`]).
//!
//! ytt maps the lines of its program back to the template by their number in its list of
//! instructions, which does not count those lines: an error on a key's line of code, or on any
//! line after it, stands where the instruction that many lines further on stands (a line it
//! generates, or past the last one: ytt's panic `Expected to find compiled template line N`).
//! [`key_code_lines`] models ytt's list of instructions to place the key's lines as ytt does.

use super::split_annotation;
use crate::template::code_scan::CODE_BLANKS;
use crate::template::refused::node_specific;
use crate::template::text_template::{self, PieceKind};
use crate::template::GeneratedLine;
use crate::value::Value;
use crate::yaml::parse::{RawFile, RawNode, RawPlace, RawValue};

/// Where ytt places an error on a line of a key's code.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(super) enum KeyLine {
    /// On this template line.
    Line(u32),
    /// On a line ytt generates: where it is one [`GeneratedLine`] names, shown as its code
    /// after the template line of ytt's last instruction before it; otherwise (not emulated)
    /// on the key's line alone.
    Generated(Option<(GeneratedLine, u32)>),
    /// Past ytt's last instruction: ytt panics (`Expected to find compiled template line N`);
    /// the key's line is used.
    Past,
}

/// Where ytt places an error on one of its instructions written with a key's code after it
/// (see [`KeyCodeLines::keys`]).
#[derive(Debug, Default, Clone)]
pub(super) struct KeyedInstruction {
    /// On the instruction's own line: ytt's instruction that many lines further on, as for
    /// the lines after it.
    pub own: Option<KeyLine>,
    /// On each line of the key's code after it.
    pub lines: Vec<KeyLine>,
    /// On ytt's program line after the key's last line of code (where an `end` there that
    /// closes nothing is met).
    pub after_code: Option<KeyLine>,
}

/// What a map key holding a line break or a NUL is in ytt's program.
#[derive(Debug, Clone, Copy)]
pub(super) struct KeyCode<'a> {
    /// The key's text after its first line break, up to a NUL: lines of the template's code
    /// (none when the NUL comes first).
    pub code: Option<&'a str>,
    /// The key holds a NUL, where ytt's program ends.
    pub ends_program: bool,
}

impl KeyCode<'_> {
    /// How many lines of code the key writes after each of its instructions.
    fn lines(&self) -> u32 {
        self.code
            .map_or(0, |code| starlark_lines(code).count() as u32)
    }
}

/// The code of `node`'s key, when it holds a line break or a NUL (see the module's
/// documentation).
pub(super) fn key_code(node: &RawNode) -> Option<KeyCode<'_>> {
    let key = node.key_str()?;
    let (text, ends_program) = match key.find('\0') {
        Some(at) => (&key[..at], true),
        None => (key, false),
    };
    let code = text
        .find(['\n', '\r'])
        .map(|at| &text[at + line_break_len(&text[at..])..]);
    (code.is_some() || ends_program).then_some(KeyCode { code, ends_program })
}

/// ytt's debug comment after a map item's annotation and value lines (`# *yamlmeta.MapItem
/// key=K`), written where it can change what the line reads: a string the line leaves open
/// runs on into it, where a quote or a `\` of the key ends the string or escapes as in ytt
/// (`#@foo 'x` over `b'c: 1` is `got identifier, want ','`). Elsewhere the comment is inert
/// and left out; the code after a key's line break or NUL is [`key_code`]'s.
pub(super) fn quoting_debug_comment(node: &RawNode) -> String {
    match node.key_str() {
        Some(key)
            if node.place == RawPlace::MapItem
                && key.contains(['\'', '"', '\\'])
                && !key.contains(['\n', '\r', '\0']) =>
        {
            format!(" # *yamlmeta.MapItem key={key}")
        }
        _ => String::new(),
    }
}

/// The length of the line break `text` starts with (`\r\n` is one).
fn line_break_len(text: &str) -> usize {
    if text.starts_with("\r\n") {
        2
    } else {
        1
    }
}

/// The lines of `text` as starlark-go's scanner reads them: `\n`, `\r\n` and `\r` each end
/// one.
pub(super) fn starlark_lines(text: &str) -> impl Iterator<Item = &str> {
    let mut rest = Some(text);
    std::iter::from_fn(move || {
        let text = rest?;
        match text.find(['\n', '\r']) {
            Some(at) => {
                rest = Some(&text[at + line_break_len(&text[at..])..]);
                Some(&text[..at])
            }
            None => rest.take(),
        }
    })
}

/// Where ytt places the errors of a template whose map keys hold line breaks.
#[derive(Debug, Default)]
pub(super) struct KeyCodeLines {
    /// For each map item whose key holds a line break (in the order the compiler meets them),
    /// and for each instruction ytt writes with the key (in ytt's order: annotations, the set
    /// line of a text-templated key, the start, the value's set line), where ytt places an
    /// error on it and on each line of the key's code after it.
    pub keys: std::collections::VecDeque<Vec<KeyedInstruction>>,
    /// The template lines of code (`#@` lines, annotations, `#@` values) after such a key,
    /// with the line ytt places their errors on (sorted by the first).
    pub shifted: Vec<(u32, u32)>,
    /// For each node (by its number, in the order the compiler meets them), the template line
    /// ytt places an error of its start on (a key given twice): the instruction that many
    /// lines further on, or its own when no key's code comes before it. (A line ytt generates
    /// there, or none, is not emulated: the node's own line is used.) The lines of code on the
    /// node's line are placed otherwise ([`KeyCodeLines::shifted`]), so each start is placed
    /// by its own.
    pub starts: Vec<Option<u32>>,
}

/// Models ytt's list of instructions for `file` (see the module's documentation).
pub(super) fn key_code_lines(file: &RawFile) -> KeyCodeLines {
    let mut model = Model::default();
    // set_ctx_type, start_ctx, the document set's start
    model.push(None);
    model.push(None);
    model.push(None);
    if file.has_leading_empty_document() {
        // the empty document before the first `---`: its start and value
        model.push(None);
        model.push(None);
    }
    for doc in &file.docs {
        model.node(doc, false);
    }
    if !file.trailing_comments.is_empty() {
        // the empty document that holds the code lines after the last node
        for c in &file.trailing_comments {
            model.push_code(c.line);
        }
        let number = super::after_error::ytt_node_count(file) + 1;
        model.push_generated(GeneratedLine::TrailingDocumentStart(number));
        model.push_generated(GeneratedLine::TrailingDocumentValue(number));
    }
    model.push_generated(GeneratedLine::End);
    model.placed()
}

#[derive(Default)]
struct Model {
    /// The template line of each of ytt's instructions (`None`: one ytt generates).
    lines: Vec<Option<u32>>,
    /// Which line ytt generates, for each instruction, where it is one [`GeneratedLine`]
    /// names.
    generated: Vec<Option<GeneratedLine>>,
    /// How many lines of a key's code follow each instruction.
    extra: Vec<u32>,
    /// For each item with a key holding a line break: its instructions that carry the key.
    keys: Vec<Vec<usize>>,
    /// The instructions that are the template's code (`#@` lines, annotations, `#@` values).
    code: Vec<usize>,
    /// The start instruction of each node, in the compiler's order.
    starts: Vec<usize>,
}

impl Model {
    fn push(&mut self, line: Option<u32>) {
        self.lines.push(line);
        self.generated.push(None);
        self.extra.push(0);
    }

    /// The line `generated` ytt generates.
    fn push_generated(&mut self, generated: GeneratedLine) {
        self.push(None);
        if let Some(last) = self.generated.last_mut() {
            *last = Some(generated);
        }
    }

    /// A line of the template's code on `line`.
    fn push_code(&mut self, line: u32) {
        self.code.push(self.lines.len());
        self.push(Some(line));
    }

    /// An instruction written with the key's debug comment: `extra` lines of code follow it.
    fn push_keyed(&mut self, line: Option<u32>, extra: u32) {
        if extra > 0 {
            if let Some(key) = self.keys.last_mut() {
                key.push(self.lines.len());
            }
        }
        self.lines.push(line);
        self.generated.push(None);
        self.extra.push(extra);
    }

    fn node(&mut self, node: &RawNode, templated: bool) {
        let templated = templated || text_template::is_templated(node);
        let line = (node.line > 0).then_some(node.line);
        let key = key_code(node);
        let extra = key.map_or(0, |key| key.lines());
        if key.is_some() {
            self.keys.push(Vec::new());
        }
        let above = |c: &&crate::yaml::parse::Comment| {
            c.line < node.line || node.made_of_trailing_annotations()
        };
        let mut needs_end = false;
        for c in node.comments.iter().filter(above) {
            if !c.is_annotation() {
                needs_end |= node_specific(c.text.trim()).is_some();
                self.push_code(c.line);
            }
        }
        for c in node.comments.iter().filter(|c| c.is_annotation()) {
            if split_annotation(&c.text).0 != "comment" {
                self.code.push(self.lines.len());
                self.push_keyed(Some(c.line), extra);
            }
        }
        if let (true, Some(key)) = (templated, node.key_str()) {
            self.text(key, node.line, extra);
        }
        self.starts.push(self.lines.len());
        self.push_keyed(line, extra);
        let value = node
            .comments
            .iter()
            .find(|c| !c.is_annotation() && !above(c));
        match (&node.value, value) {
            (_, Some(v)) => {
                self.code.push(self.lines.len());
                self.push_keyed(Some(v.line), extra)
            }
            (RawValue::Scalar(Value::Str(text)), None) if templated => {
                self.text(text, node.line, extra)
            }
            (RawValue::Scalar(_), None) => self.push_keyed(line, extra),
            (RawValue::Map(items) | RawValue::Array(items), None) => {
                // The collection is a node of its own, on the node's line.
                self.push(line);
                for item in items.iter() {
                    self.node(item, templated);
                }
            }
        }
        if needs_end {
            self.push(None);
        }
    }

    /// ytt's code for the text template `text` of a node on `line`: its context's start, each
    /// piece's lines, the set line (which carries the key) and the reset of the context.
    fn text(&mut self, text: &str, line: u32, extra: u32) {
        for _ in 0..3 {
            self.push(None);
        }
        match text_template::pieces(text, line) {
            Ok(Some(pieces)) => {
                for p in &pieces {
                    let at = Some(line + p.line - 1);
                    match p.kind {
                        PieceKind::Code => {
                            for i in 0..starlark_lines(p.code).count() as u32 {
                                self.push(at.map(|l| l + i));
                            }
                        }
                        PieceKind::Text | PieceKind::Value => {
                            self.push(at);
                            self.push(at);
                        }
                    }
                }
            }
            // A text without code: one piece. (A text ytt's lexer refuses fails first.)
            Ok(None) | Err(_) => {
                self.push(Some(line));
                self.push(Some(line));
            }
        }
        self.push_keyed(Some(line), extra);
        self.push(None);
    }

    /// Where each line of each key's code is placed, and each line of code after one: ytt
    /// numbers its program's lines with the keys' lines among them, and maps line `n` to its
    /// `n`th instruction.
    fn placed(self) -> KeyCodeLines {
        // The program line (from 0) of each instruction.
        let mut at = Vec::with_capacity(self.lines.len());
        let mut n = 0usize;
        for &extra in &self.extra {
            at.push(n);
            n += 1 + extra as usize;
        }
        let place = |program_line: usize| match self.lines.get(program_line) {
            Some(Some(line)) => KeyLine::Line(*line),
            Some(None) => KeyLine::Generated(self.generated[program_line].and_then(|g| {
                let before = self.lines[..program_line].iter().rev().flatten().next();
                Some((g, *before?))
            })),
            None => KeyLine::Past,
        };
        let keys = self
            .keys
            .iter()
            .map(|instructions| {
                instructions
                    .iter()
                    .map(|&i| KeyedInstruction {
                        own: Some(place(at[i])),
                        lines: (1..=self.extra[i] as usize)
                            .map(|j| place(at[i] + j))
                            .collect(),
                        after_code: Some(place(at[i] + self.extra[i] as usize + 1)),
                    })
                    .collect()
            })
            .collect();
        let mut shifted: Vec<(u32, u32)> = self
            .code
            .iter()
            .filter(|&&i| at[i] > i)
            .filter_map(|&i| match (self.lines[i], place(at[i])) {
                (Some(from), KeyLine::Line(to)) if from != to => Some((from, to)),
                _ => None,
            })
            .collect();
        shifted.sort_unstable();
        let starts = self
            .starts
            .iter()
            .map(|&i| match place(at[i]) {
                KeyLine::Line(to) => Some(to),
                _ => self.lines[i],
            })
            .collect();
        KeyCodeLines {
            keys,
            shifted,
            starts,
        }
    }
}

impl super::Compiler {
    /// The lines of `key`'s code (its text after its first line break) as lines of the
    /// template's code of the item on `item_line`, placed where ytt places them (`lines`).
    /// `after_own`: the line of ytt's that they follow is not one of the program's (the item's
    /// start after its annotations, a plain scalar's set line): `None` stands for it, so that
    /// a bracket the key's code leaves open takes in a name, as ytt's takes in its line, placed
    /// where ytt places that line (the instruction that many lines further on). A key
    /// holding a NUL ends the program after its code before the NUL, in ytt's first line for
    /// the item (schemac's start of the item stands for ytt's there): the error returned says
    /// so ([`super::CompileError::ends_program`]).
    pub(super) fn run_key_code(
        &mut self,
        item_line: u32,
        key: Option<KeyCode<'_>>,
        instruction: Option<KeyedInstruction>,
        after_own: bool,
    ) -> Result<(), super::CompileError> {
        let Some(key) = key else {
            return Ok(());
        };
        let KeyedInstruction {
            own,
            lines,
            after_code,
        } = instruction.unwrap_or_default();
        if after_own && !key.ends_program {
            let depth = self.depth();
            let own_line = match own {
                Some(KeyLine::Line(line)) => line,
                _ => item_line,
            };
            self.emit(own_line, depth, "None");
        }
        let first = self.line_map.len();
        for (j, text) in key.code.into_iter().flat_map(starlark_lines).enumerate() {
            let line = match lines.get(j) {
                Some(KeyLine::Line(line)) => *line,
                Some(KeyLine::Generated(Some((generated, shown)))) => {
                    let gen_line = self.line_map.len();
                    self.key_code_generated.push((gen_line, *generated));
                    *shown
                }
                _ => item_line,
            };
            // ytt trims no other white space at the start of a key's line of code (it does a
            // comment's): starlark-go's scanner refuses it there (`"a\n\vb": 1`).
            let start = text.trim_start_matches(CODE_BLANKS).chars().next();
            if let Some(c) = start.filter(|c| c.is_whitespace()) {
                let quoted = match c {
                    '\u{b}' => "'\\v'".to_string(),
                    '\u{c}' => "'\\f'".to_string(),
                    c => format!("'\\u{:04x}'", c as u32),
                };
                return Err(super::CompileError::new(
                    line,
                    format!("unexpected input character {quoted}"),
                ));
            }
            self.code(&crate::yaml::parse::Comment {
                line,
                text: format!(" {text}"),
            })
            .map_err(|e| e.past_key_line(lines.get(j + 1).or(after_code.as_ref())))?;
        }
        self.key_code_runs.push(first..self.line_map.len());
        match key.ends_program {
            true => Err(super::CompileError::program_end(item_line)),
            false => Ok(()),
        }
    }

    /// The line map with the template's lines of code after a key holding a line break moved
    /// where ytt places their errors (the keys' own lines are placed already).
    pub(super) fn shift_after_key_code(&mut self) {
        let shifted = std::mem::take(&mut self.key_lines.shifted);
        let starts = std::mem::take(&mut self.shifted_starts);
        if shifted.is_empty() {
            self.place_starts(starts);
            return;
        }
        let mut runs = self.key_code_runs.iter().peekable();
        for (i, line) in self.line_map.iter_mut().enumerate() {
            while runs.next_if(|r| r.end <= i).is_some() {}
            if runs.peek().is_some_and(|r| r.contains(&i)) {
                continue;
            }
            if let Ok(k) = shifted.binary_search_by_key(line, |s| s.0) {
                *line = shifted[k].1;
            }
        }
        self.place_starts(starts);
    }

    /// The start of node `id`, on generated line `gen_line`: where ytt places its errors, when
    /// a key's lines of code before it move them ([`KeyCodeLines::starts`]).
    pub(super) fn note_start(&mut self, id: usize, gen_line: usize) {
        if let Some(Some(line)) = self.key_lines.starts.get(id) {
            self.shifted_starts.push((gen_line, *line));
        }
    }

    fn place_starts(&mut self, starts: Vec<(usize, u32)>) {
        for (gen_line, line) in starts {
            self.line_map[gen_line] = line;
        }
    }
}
