//! ytt template → Starlark program.
//!
//! Like ytt, a template is not evaluated by rewriting YAML: it is compiled into a Starlark
//! program that rebuilds the YAML tree through builder calls, so that `#@ for`, `#@ if` and
//! fragment functions (`#@ def f():` with YAML in its body) repeat, skip or capture nodes:
//!
//! ```text
//! #@ for i in range(2):      for i in range(2):
//! - #@ i                       __ytt_start(3); __ytt_set((i))
//! #@ end                       __ytt_end()
//! ```
//!
//! ytt closes blocks with `#@ end` instead of indentation; this module re-indents the code by
//! block depth, so the indentation written in the template does not matter. Each generated line
//! remembers the template line it came from, for error messages.

use super::code_scan::CODE_BLANKS;
use super::generated_names::{self as gen, GeneratedNames};
use super::lexer::LineScanner;
pub use super::refused::{refused, value_with_code};
use super::text_template::{self, quote, PieceKind};
use crate::value::Value;
use crate::yaml::parse::{Comment, RawFile, RawKind, RawNode, RawValue};

/// A template compiled to Starlark.
#[derive(Debug, Clone, PartialEq)]
pub struct Program {
    pub source: String,
    /// For each generated line (0-based), the template line (1-based) it came from.
    pub line_map: Vec<u32>,
    /// The template's nodes, indexed by the ids passed to `__ytt_start`.
    pub nodes: Vec<NodeInfo>,
    /// The names it binds for its own use (`__ytt_start`, ...), none of the user's code.
    pub names: GeneratedNames,
    /// Generated lines (0-based, ascending) whose errors quote this text rather than their
    /// template line: the code of a text template, as ytt quotes it.
    pub quoted: Vec<(usize, Box<str>)>,
    /// Where a `def` stands for an `end` name that ytt's scanner reads as an outdent
    /// ([`super::lexer::end_name`]), by generated line (ascending).
    pub outdents: Vec<Outdent>,
    /// ytt's code for the empty document that holds the file's code lines after its last
    /// node, written when they go on into it (see [`Compiler::trailing_document`]): its
    /// first generated line (0-based) and ytt's number for the document.
    pub trailing_document: Option<(usize, u32)>,
    /// A map key holding a NUL ended the program there (see [`key_code`]): once it has run,
    /// ytt finds its node contexts still open, `(p) expected all ctxs to end`.
    pub ends_at_nul: bool,
    /// A `.star` file whose first statement ends in an empty body, which ytt fails on once
    /// its names are resolved ([`EMPTY_BODY_ENDS_FIRST_STATEMENT`]).
    pub empty_body_ends_first_statement: bool,
    /// The first code line ending in a `\\` that continues it into a node's code (its line, the
    /// node's): ytt's program takes the node's first instruction into the expression, which
    /// this program, laid out otherwise, cannot follow (see [`BACKSLASH_INTO_NODE`]).
    pub backslash_into_node: Option<(u32, u32)>,
    /// Generated lines (0-based, ascending) of map keys' code that ytt places on a line it
    /// generates ([`key_code`]), with that line.
    pub key_code_generated: Vec<(usize, crate::template::GeneratedLine)>,
}

/// ytt's error for a program that ends with node contexts open (a map key holding a NUL ends
/// it early): a Go panic its evaluation recovers, with no position.
pub const CONTEXTS_LEFT_OPEN: &str = "(p) expected all ctxs to end";

/// An `end` name read as an outdent, made `def` on generated line `gen_line` (0-based).
#[derive(Debug, Clone, PartialEq)]
pub struct Outdent {
    pub gen_line: usize,
    /// The `end` ended its line: the scanner reads the newline with it, so a syntax error at
    /// the outdent stands on the template's next line of code, annotation or node
    /// ([`Outdent::next_line`]), or where the file ends when there is none.
    pub ends_line: bool,
    /// The template's next line of code, annotation or node, once the compiler reaches it.
    pub next_line: Option<u32>,
    /// What an error on [`Outdent::next_line`] quotes in place of it (a text template's
    /// next piece).
    pub next_quote: Option<Box<str>>,
}

impl Program {
    /// The outdent a syntax error at `token` on generated line `gen_line` is starlark-go's at.
    pub fn outdent_at(&self, gen_line: usize, token: &str) -> Option<&Outdent> {
        let i = self
            .outdents
            .binary_search_by_key(&gen_line, |o| o.gen_line)
            .ok()?;
        (token == "def").then(|| &self.outdents[i])
    }

    /// What an error on generated line `gen_line` quotes in place of its template line.
    pub fn quoted_at(&self, gen_line: usize) -> Option<&str> {
        let i = self.quoted.binary_search_by_key(&gen_line, |q| q.0).ok()?;
        Some(&self.quoted[i].1)
    }
}

/// What the builder needs to know about a template node.
#[derive(Debug, Clone, PartialEq)]
pub struct NodeInfo {
    pub kind: RawKind,
    pub line: u32,
    /// The YAML value written in the template (collections start empty).
    pub value: RawShape,
    /// `#@yaml/map-key-override`: the item may replace an earlier item with the same key.
    pub key_override: bool,
    /// The item's key is text-templated (`#@yaml/text-templated-strings`, `(@= ... @)`): an
    /// earlier item's key is looked for once it is made, not as it is written.
    pub key_templated: bool,
    /// ytt's code for the item starts with a line it generates, `set_ctx_type("text")`: its
    /// key is a string under `#@yaml/text-templated-strings` (ytt compiles every such key as
    /// a text template) and it has no annotations (whose code would come first).
    pub starts_generated: bool,
    /// How many annotations the node has: ytt evaluates their arguments before it starts
    /// the node (see `BuildState::start`).
    pub annotations: u32,
}

#[derive(Debug, Clone, PartialEq)]
pub enum RawShape {
    Scalar(crate::value::Value),
    Map,
    Array,
}

/// A template that cannot be compiled (unbalanced `end`, a code line at a bad place).
#[derive(Debug, Clone, PartialEq)]
pub struct CompileError {
    pub line: u32,
    pub message: String,
    /// The program compiled before the error (its text and line map): starlark-go's parser
    /// reads the tokens of those lines before it meets the error, so a syntax error there
    /// comes first.
    pub before: Option<Box<Program>>,
    /// `before` ends where ytt's scanner stopped, inside a line (at `pass`): a syntax error
    /// its parser would only have met past that point is not reported.
    pub scanner_stop: bool,
    /// What the error quotes in place of its template line (see [`Program::quoted`]).
    pub quote: Option<Box<str>>,
    /// The line ytt shows after `line`: one it generates (see [`TemplateError::generated`]).
    ///
    /// [`TemplateError::generated`]: crate::template::TemplateError::generated
    pub generated: Option<Box<crate::template::Generated>>,
    /// Found once the line's newline is read (an `end` that closes nothing): placed on the
    /// next line, as starlark-go's scanner stands there.
    past_line: bool,
    /// Not an error: the program ends here, at a NUL (in a map key or a text template's code).
    ends_program: bool,
}

impl CompileError {
    pub(super) fn new(line: u32, message: impl Into<String>) -> CompileError {
        CompileError {
            line,
            message: message.into(),
            before: None,
            quote: None,
            generated: None,
            past_line: false,
            scanner_stop: false,
            ends_program: false,
        }
    }

    /// The program ends on `line`, at a NUL (in a map item's key or a text template's code).
    pub(super) fn program_end(line: u32) -> CompileError {
        CompileError {
            ends_program: true,
            ..CompileError::new(line, "the program ends at a NUL")
        }
    }

    /// The error, placed on ytt's next line of code `next` (its line and what is quoted) when
    /// it was found past its own line (an `end` that closes nothing in a text template).
    fn past(self, next: (u32, &str)) -> CompileError {
        match self.past_line {
            true => CompileError {
                line: next.0,
                past_line: false,
                ..self.quoting(next.1)
            },
            false => self,
        }
    }

    /// The error, placed where ytt places its program line `next` when it was found past its
    /// own line, a line of a map key's code (see [`key_code::KeyLine`]); where ytt's line is
    /// not modelled, it is left for [`CompileError::after`].
    fn past_key_line(self, next: Option<&key_code::KeyLine>) -> CompileError {
        let (line, generated) = match (self.past_line, next) {
            (true, Some(&key_code::KeyLine::Line(line))) => (line, None),
            (true, Some(&key_code::KeyLine::Generated(Some((generated, shown))))) => {
                let generated = crate::template::Generated {
                    template: 0, // the template's number is given where the error is reported
                    line: generated,
                    after: None,
                };
                (shown, Some(Box::new(generated)))
            }
            _ => return self,
        };
        CompileError {
            line,
            generated,
            past_line: false,
            ..self
        }
    }

    /// The error, quoting `quote` in place of its template line.
    fn quoting(self, quote: &str) -> CompileError {
        CompileError {
            quote: Some(quote.into()),
            ..self
        }
    }

    /// The error with what `c` compiled before it; one found past its line (an `unexpected
    /// end`) moved to `next(line)`, where starlark-go's scanner stands once it has read the
    /// `end` and its newline.
    fn after(mut self, c: Compiler, next: impl Fn(u32) -> u32) -> CompileError {
        // A token at the end of the last line compiled is placed on the next line, this one.
        let mut before = c.program();
        before.line_map.push(self.line);
        if self.past_line {
            self.line = next(self.line);
        }
        self.before = Some(Box::new(before));
        self
    }
}

/// ytt's error for an `end` that closes no block.
const UNEXPECTED_END: &str = "unexpected end";

#[derive(Debug, Default)]
struct Block {
    /// The line that opened it (ytt names the innermost block left open).
    line: u32,
    /// What an error names as the text of that line, when it is not the template's line (a
    /// block opened in a text template).
    quote: Option<Box<str>>,
    is_def: bool,
    has_body: bool,
    /// `for/end` and `if/end` close after the next node: the depth of that node's frame.
    auto_close: bool,
    auto_frame: Option<usize>,
    /// A `def`'s body builds YAML nodes of its own (not only in functions it defines): ytt
    /// gives such a function a node context, and what it returns when it runs to its end or
    /// `return`s no value is its nodes (a fragment of no value when none was built), where a
    /// function without nodes returns None.
    builds_nodes: bool,
    /// Where in the generated code a `def`'s context starts (made [`CTX_NODES`] when the body
    /// turns out to build nodes).
    ctx_start_at: usize,
    /// A `def` opened in a text template, with text in its body: ytt gives it a text context
    /// of its own, and what it returns at its end or on a bare `return` is its text
    /// ([`Compiler::text_result`]), gathered in a list local to it.
    builds_text: bool,
    body_end: first_statement::BodyEnd,
}

// The start of a function's node context ([`gen::CTX_START`]) is made the start of the node
// context of a function that builds nodes ([`gen::CTX_NODES`]) in place: as long as it.
const _: () = assert!(gen::CTX_START.len() == gen::CTX_NODES.len());

struct Frame {
    /// Path from the document down, to tell ancestors from siblings.
    path: Vec<usize>,
    depth: usize,
}

struct Compiler {
    names: GeneratedNames,
    /// Whether the program is a `.star` file's, whose functions build no nodes.
    star_file: bool,
    out: String,
    line_map: Vec<u32>,
    quoted: Vec<(usize, Box<str>)>,
    outdents: Vec<Outdent>,
    nodes: Vec<NodeInfo>,
    blocks: Vec<Block>,
    frames: Vec<Frame>,
    scanner: LineScanner,
    /// The length of `out` after the last code line compiled: where it has grown since, a
    /// line of the program stands between that code line and the next ([`LineScanner::line_between`]).
    code_end: usize,
    /// The statement being continued on the next lines is a `def`.
    pending_def: bool,
    /// The `elif`/`else` being continued on the next lines (`#@ elif (a` + `#@ > b):`): the
    /// block it opens where its statement ends.
    pending_branch: Option<Block>,
    /// The condition of a `while` is being continued on the next lines (`#@ while (a` +
    /// `#@ < b):`): where it ends, the loop's `if` is given its `pass`/`else: break`.
    pending_while: bool,
    /// The statement being continued on the next lines is a `return` whose value
    /// `__ytt_ctx_end((` was opened around: it is closed where the statement ends.
    open_return: bool,
    /// A node's value code left a bracket or string open (`a: #@ ("a"`): the code lines after
    /// it go on with it, as in ytt's program, so no node is ended before they close it.
    value_open: bool,
    trailing_document: Option<(usize, u32)>,
    /// Where ytt places the lines of code of each map key holding a line break, for the items
    /// still to compile ([`key_code::key_code_lines`]).
    key_lines: key_code::KeyCodeLines,
    /// The generated lines (ranges of the line map) of the keys' code, placed already.
    key_code_runs: Vec<std::ops::Range<usize>>,
    /// Nodes' starts (generated lines) placed elsewhere by the keys' code before them, with
    /// the template line ytt places their errors on.
    shifted_starts: Vec<(usize, u32)>,
    /// The program ended at a map key holding a NUL.
    ends_at_nul: bool,
    /// How many nodes ytt has numbered so far ([`after_error::ytt_node_count`]'s numbering).
    ytt_tags: u32,
    /// See [`Program::backslash_into_node`].
    backslash_into_node: Option<(u32, u32)>,
    /// See [`Program::key_code_generated`].
    key_code_generated: Vec<(usize, crate::template::GeneratedLine)>,
    /// Statements written outside blocks so far, and whether the first ends in an empty body
    /// (see [`first_statement`]).
    top_level_statements: u32,
    first_ends_empty: bool,
}

/// Compiles a parsed template. `code_only` files (`.star`) are all code.
pub fn compile(file: &RawFile) -> Result<Program, CompileError> {
    let mut c = Compiler::new(GeneratedNames::for_file(file));
    if file.key_line_break.is_some() {
        c.key_lines = key_code::key_code_lines(file);
    }
    let compiled = match c.template(file) {
        // A block left open where the program ends is ytt's error, as at a file's end.
        Err(e) if e.ends_program => {
            c.ends_at_nul = true;
            c.all_closed()
        }
        compiled => compiled,
    };
    match compiled {
        Ok(()) => Ok(c.program()),
        Err(e) => {
            // An `end` that closes nothing is met where ytt's next line of code starts, which
            // may be one ytt generates.
            let generated = match e.past_line {
                true => after_error::generated_after(file, e.line),
                false => e.generated.clone(),
            };
            let end_line = e.line;
            let e = e.after(c, |line| after_error::next_code_line(file, line));
            // ytt shows the `end` line before the generated one.
            let line = if generated.is_some() {
                end_line
            } else {
                e.line
            };
            Err(CompileError {
                generated,
                line,
                ..e
            })
        }
    }
}

/// ytt's error for a block that no `end` closes.
const UNCLOSED_BLOCK: &str =
    "mismatched set of block openings (if/else/elif/for/def) and closing (end)";

impl Compiler {
    fn new(names: GeneratedNames) -> Compiler {
        Compiler {
            names,
            star_file: false,
            out: String::new(),
            line_map: Vec::new(),
            quoted: Vec::new(),
            outdents: Vec::new(),
            nodes: Vec::new(),
            blocks: Vec::new(),
            frames: Vec::new(),
            scanner: LineScanner::default(),
            code_end: 0,
            pending_def: false,
            pending_branch: None,
            pending_while: false,
            open_return: false,
            value_open: false,
            trailing_document: None,
            key_lines: Default::default(),
            key_code_runs: Vec::new(),
            shifted_starts: Vec::new(),
            ends_at_nul: false,
            ytt_tags: 0,
            backslash_into_node: None,
            key_code_generated: Vec::new(),
            top_level_statements: 0,
            first_ends_empty: false,
        }
    }

    fn program(mut self) -> Program {
        self.shift_after_key_code();
        if self.ends_at_nul {
            // ytt's program ends on its last line, with no line break after it: an error at
            // its end is placed there.
            if let Some(&last) = self.line_map.last() {
                // (quoting what the last line quotes, the code of a text template)
                let gen_line = self.line_map.len() - 1;
                if let Some((at, quote)) = self.quoted.last().cloned() {
                    if at == gen_line {
                        self.quoted.push((gen_line + 1, quote));
                    }
                }
                self.line_map.push(last);
            }
        }
        Program {
            empty_body_ends_first_statement: self.empty_body_ends_first_statement(),
            ends_at_nul: self.ends_at_nul,
            backslash_into_node: self.backslash_into_node,
            source: self.out,
            line_map: self.line_map,
            nodes: self.nodes,
            names: self.names,
            quoted: self.quoted,
            outdents: self.outdents,
            trailing_document: self.trailing_document,
            key_code_generated: self.key_code_generated,
        }
    }

    fn template(&mut self, file: &RawFile) -> Result<(), CompileError> {
        self.ytt_tags = after_error::ytt_nodes_before_documents(file);
        for (i, doc) in file.docs.iter().enumerate() {
            self.node(doc, &mut vec![i])?;
        }
        if file
            .docs
            .last()
            .is_some_and(RawNode::made_of_trailing_annotations)
        {
            self.after_trailing_annotations(file);
        }
        for comment in &file.trailing_comments {
            self.close_frames_not_ancestors_of(&[usize::MAX], comment.line)?;
            self.code(comment)?;
        }
        // A node-specific block (`#@ if/end x:`) among them wraps the empty document ytt makes
        // for them (no other code may follow it, see [`refused`]): it closes there.
        if let Some(last) = file.trailing_comments.last() {
            if self
                .blocks
                .last()
                .is_some_and(|b| b.auto_close && b.auto_frame.is_none())
            {
                self.close_block(last.line)?;
            }
        }
        if !file.trailing_comments.is_empty() {
            self.trailing_document(after_error::ytt_node_count(file) + 1);
        }
        // What ytt writes at the end stands in a bracket a value left open: one line (ytt's
        // `__ytt_tplN_end_ctx(None)`, an `end()` here), so that the bracket meets the program's
        // end after it.
        if self.value_open && self.scanner.is_open() {
            let end = format!("{}()", self.names.of(gen::END));
            self.emit(0, 0, &end);
            return self.all_closed();
        }
        self.close_frames_not_ancestors_of(&[usize::MAX], 0)?;
        self.all_closed()
    }

    /// ytt's error for the innermost block that no `end` closes.
    fn all_closed(&self) -> Result<(), CompileError> {
        match self.blocks.last() {
            Some(open) => {
                let e = CompileError::new(open.line, UNCLOSED_BLOCK);
                Err(CompileError {
                    quote: open.quote.clone(),
                    ..e
                })
            }
            None => Ok(()),
        }
    }

    fn emit(&mut self, line: u32, depth: usize, text: &str) {
        self.emit_parts(line, depth, &[text]);
    }

    /// [`Self::emit`] of the parts' concatenation, without making it first (each node's start
    /// and end, and each annotation, are a line: `format!` for each was a tenth of a schema's
    /// first run).
    fn emit_parts(&mut self, line: u32, depth: usize, parts: &[&str]) {
        for _ in 0..depth {
            self.out.push_str("  ");
        }
        // (a text template's value code may hold line breaks: each is a generated line)
        let mut lines = 1;
        for part in parts {
            self.out.push_str(part);
            lines += part.bytes().filter(|&b| b == b'\n').count();
        }
        self.out.push('\n');
        self.line_map.extend(std::iter::repeat_n(line, lines));
        let open = self.blocks.len();
        if let Some(b) = self.blocks.last_mut() {
            if depth >= open {
                b.has_body = true;
            }
        }
    }

    /// The start of a `def`'s node context, at the top of its body (`depth`).
    fn start_def(&mut self, depth: usize) {
        let at = self.out.len() + 2 * depth;
        if let Some(def) = self.blocks.last_mut() {
            def.ctx_start_at = at;
        }
        let start = format!("{}()", self.names.of(gen::CTX_START));
        self.emit(self.blocks.last().map_or(0, |b| b.line), depth, &start);
    }

    fn depth(&self) -> usize {
        self.blocks.len()
    }

    fn node(&mut self, node: &RawNode, path: &mut Vec<usize>) -> Result<(), CompileError> {
        self.node_templated(node, path, false)
    }

    fn node_templated(
        &mut self,
        node: &RawNode,
        path: &mut Vec<usize>,
        templated: bool,
    ) -> Result<(), CompileError> {
        let (before, same): (Vec<&Comment>, Vec<&Comment>) = node
            .comments
            .iter()
            .partition(|c| c.line < node.line || node.made_of_trailing_annotations());
        // Code lines above the node run before it; annotations apply to it.
        let mut annotations = Vec::new();
        for comment in before.iter().copied() {
            if comment.is_annotation() {
                self.reached(comment.line);
                annotations.push(comment);
            } else {
                self.close_frames_not_ancestors_of(path, comment.line)?;
                self.code(comment)?;
            }
        }
        let mut value_expr = None;
        for comment in same.iter().copied() {
            if comment.is_annotation() {
                annotations.push(comment);
            } else {
                value_expr = Some(comment);
            }
        }
        self.reached(node.line);
        self.close_frames_not_ancestors_of(path, node.line)?;
        if self.scanner.after_backslash() && self.backslash_into_node.is_none() {
            let code = before.iter().rev().find(|c| !c.is_annotation());
            self.backslash_into_node = Some((code.map_or(node.line, |c| c.line), node.line));
        }

        // `#@yaml/text-templated-strings`: `(@= expr @)` in keys and string values.
        let templated = templated || text_template::is_templated(node);
        let key_templated = templated
            && node
                .key_str()
                .is_some_and(|key| key.contains("(@") || key.contains("@)"));
        let ytt_tag = self.ytt_tags + 1;
        self.ytt_tags += after_error::ytt_own_nodes(node, templated);
        let id = self.nodes.len();
        self.nodes.push(NodeInfo {
            kind: node.kind(),
            line: node.line,
            value: match &node.value {
                RawValue::Scalar(v) => RawShape::Scalar(v.clone()),
                RawValue::Map(_) => RawShape::Map,
                RawValue::Array(_) => RawShape::Array,
            },
            key_override: annotations
                .iter()
                .any(|a| split_annotation(&a.text).0 == crate::template::MAP_KEY_OVERRIDE),
            key_templated,
            starts_generated: templated && annotations.is_empty() && node.key_str().is_some(),
            annotations: u32::try_from(annotations.len()).unwrap_or(u32::MAX),
        });
        let depth = self.depth();
        if let Some(def) = self.blocks.iter_mut().rev().find(|b| b.is_def) {
            def.builds_nodes = true;
        }
        let start = self.names.of(gen::START);
        self.emit_parts(node.line, depth, &[&start, "(", &id.to_string(), ")"]);
        self.note_start(id, self.line_map.len() - 1);
        // A key holding a line break: its code runs after each of ytt's lines for the item.
        let key_code = match self.key_lines.keys.is_empty() {
            true => None,
            false => key_code::key_code(node),
        };
        let mut key_lines = match key_code {
            Some(_) => self.key_lines.keys.pop_front().unwrap_or_default(),
            None => Vec::new(),
        }
        .into_iter();
        // Each annotation is a line of its own, so that errors in its arguments point at it.
        let (ann_call, pack) = (self.names.of(gen::ANN), self.names.of(gen::PACK));
        let debug = key_code::quoting_debug_comment(node);
        for &ann in &annotations {
            let (name, args) = split_annotation(&ann.text);
            // The name between quotes as it is, as ytt writes it: a `"` in it ends the string
            // (`#@\tload("@ytt:overlay", ...)` is a name), a `\` starts an escape.
            let at = after_error::annotation_at(ann.line, name, &annotations, ytt_tag);
            let opening = [&ann_call, "(", &at, ", \"", name, "\", ", &pack, "("].concat();
            self.refuse_pass(ann.line, depth, &opening, args)?;
            let args = args.trim_matches(CODE_BLANKS);
            self.emit_parts(ann.line, depth, &[&opening, args, "))", &debug]);
            self.run_key_code(node.line, key_code, key_lines.next(), false)?;
        }
        if templated {
            if let Some(key) = node.key_str() {
                self.templated_text(node.line, key, &self.names.of(gen::SET_KEY))?;
                self.run_key_code(node.line, key_code, key_lines.next(), false)?;
            }
        }
        // (ytt starts the item after its annotations and key)
        self.run_key_code(node.line, key_code, key_lines.next(), true)?;
        let setter = self.names.of(gen::SET);
        if let Some(expr) = value_expr {
            self.refuse_pass(expr.line, depth, &format!("{setter}(("), &expr.text)?;
            let code = expr.text.trim_matches(CODE_BLANKS);
            // In parentheses, as ytt compiles it: `#@ 1, 2` is a tuple, `#@ x = 1` a syntax
            // error, and `#@` alone the empty tuple.
            let set = format!("{setter}(({code})){debug}");
            let set = self.end_as_outdent(expr.line, depth, &set, 0)?;
            self.emit(expr.line, depth, &set);
            if !self.scanner.is_open() {
                self.scanner.scan(&set);
                self.value_open = self.scanner.is_open();
            }
        } else if let (true, RawValue::Scalar(Value::Str(text))) = (templated, &node.value) {
            self.templated_text(node.line, text, &setter)?;
        }
        if value_expr.is_some() || matches!(node.value, RawValue::Scalar(_)) {
            // (a plain scalar's set line is ytt's only)
            let plain = value_expr.is_none() && !templated;
            self.run_key_code(node.line, key_code, key_lines.next(), plain)?;
        }
        self.frames.push(Frame {
            path: path.clone(),
            depth,
        });
        if let Some(b) = self.blocks.last_mut() {
            if b.auto_close && b.auto_frame.is_none() {
                b.auto_frame = Some(self.frames.len() - 1);
            }
        }
        if let RawValue::Map(items) | RawValue::Array(items) = &node.value {
            for (i, child) in items.iter().enumerate() {
                path.push(i);
                self.node_templated(child, path, templated)?;
                path.pop();
            }
        }
        Ok(())
    }

    /// Ends every open node that is not an ancestor of the node at `path`.
    fn close_frames_not_ancestors_of(
        &mut self,
        path: &[usize],
        line: u32,
    ) -> Result<(), CompileError> {
        if self.value_open && self.scanner.is_open() {
            return Ok(());
        }
        self.value_open = false;
        while let Some(top) = self.frames.last() {
            if path.starts_with(&top.path) && path.len() > top.path.len() {
                break;
            }
            if top.depth < self.depth() {
                // Started outside the open block: it ends after the block does.
                break;
            }
            self.end_top_frame(line)?;
        }
        Ok(())
    }

    fn end_top_frame(&mut self, line: u32) -> Result<(), CompileError> {
        let frame = self.frames.pop().expect("caller checked");
        let depth = frame.depth.min(self.depth());
        let end = self.names.of(gen::END);
        self.emit_parts(line, depth, &[&end, "()"]);
        // A `for/end` block closes with the node it wraps (a `def/end` function returns its
        // node).
        let index = self.frames.len();
        if let Some(b) = self.blocks.last() {
            if b.auto_close && b.auto_frame == Some(index) {
                if b.is_def {
                    self.end_def(line);
                }
                self.blocks.pop();
            }
        }
        Ok(())
    }

    /// The end of the innermost block, a `def`: a function that builds nodes returns them
    /// (`__ytt_ctx_end()`), and its context is made one of nodes where it starts.
    fn end_def(&mut self, line: u32) {
        let depth = self.depth();
        let Some(def) = self.blocks.last() else {
            return;
        };
        let ctx_end = self.names.of(gen::CTX_END);
        if def.builds_text && !def.builds_nodes {
            let text = self.text_result();
            self.emit(line, depth, &format!("return {ctx_end}({text})"));
            return;
        }
        if !def.builds_nodes {
            self.emit(line, depth, &format!("return {ctx_end}(None)"));
            return;
        }
        let at = def.ctx_start_at;
        let (start, nodes) = (self.names.of(gen::CTX_START), self.names.of(gen::CTX_NODES));
        if self.out[at..].starts_with(&start) {
            self.out.replace_range(at..at + start.len(), &nodes);
        }
        self.emit(line, depth, &format!("return {ctx_end}()"));
    }

    /// What a function with a text context returns at its end or on a bare `return`: its text,
    /// gathered in its list ([`gen::TEXT_PIECES`]).
    fn text_result(&self) -> String {
        format!("\"\".join({})", self.names.of(gen::TEXT_PIECES))
    }

    /// Ends the open nodes that were started inside the innermost block.
    fn close_frames_in_block(&mut self, line: u32) -> Result<(), CompileError> {
        let depth = self.depth();
        while self
            .frames
            .last()
            .is_some_and(|f| f.depth >= depth && depth > 0)
        {
            self.end_top_frame(line)?;
        }
        Ok(())
    }

    fn close_block(&mut self, line: u32) -> Result<(), CompileError> {
        let written = self.line_map.len();
        self.close_frames_in_block(line)?;
        let Some(block) = self.blocks.last() else {
            return Err(CompileError {
                past_line: true,
                ..CompileError::new(line, UNEXPECTED_END)
            });
        };
        let depth = self.depth();
        if block.is_def {
            self.end_def(line);
        } else if !block.has_body || self.line_map.len() == written {
            // The `end` is a line of ytt's code: a syntax error read at the end of the line
            // before stands on it.
            self.emit(line, depth, "pass");
        }
        if let Some(block) = self.blocks.pop() {
            self.note_closed(&block);
        }
        Ok(())
    }
}

/// The name `stmt` starts with (`elif` of `elif/ x:`: ytt's scanner reads the keyword as a
/// token of its own; the node-specific `if/end` are rewritten before this is asked).
fn first_word(stmt: &str) -> &str {
    let end = stmt
        .find(|c: char| !(c.is_alphanumeric() || c == '_'))
        .unwrap_or(stmt.len());
    &stmt[..end]
}

/// Splits `schema/validation min=1` into the name and the argument text, at the first space
/// (as ytt does: `schema/nullable<TAB>` is a name of its own, which no annotation has).
pub fn split_annotation(text: &str) -> (&str, &str) {
    match text.find(' ') {
        Some(i) => (&text[..i], &text[i..]),
        None => (text, ""),
    }
}

mod after_error;
pub use after_error::BACKSLASH_INTO_NODE;
mod first_statement;
pub use first_statement::EMPTY_BODY_ENDS_FIRST_STATEMENT;
mod star;
pub use star::compile_starlark;
#[cfg(feature = "starlark")]
pub(crate) use star::star_file_lines;
mod code_lines;
pub use code_lines::DEFAULT_MAX_BLOCK_DEPTH;
mod key_code;
mod text_code;

#[cfg(test)]
mod tests;
