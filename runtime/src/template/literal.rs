//! Templates without an interpreter: for validators built without Starlark.
//!
//! Data values files usually carry only annotations with literal arguments
//! (`#@data/values`, `#@overlay/match by="name"`, `#@overlay/match by=overlay.subset({...})`)
//! and `load()` lines. This module reads those without Starlark; any other template code is
//! reported as needing the interpreter.

use std::cell::Cell;
use std::collections::HashMap;
use std::sync::Arc;

use super::functions::{Deferred, Functions};
use super::tree::{Ann, Arg, ArgKind, Tree, TreeValue};
use super::TemplateError;
use crate::value::{FileName, MapEntry, Node, Pos, Value};
use crate::yaml::parse::{RawFile, RawNode, RawValue};

/// Evaluates a template whose comments are annotations with literal arguments.
pub fn eval_literal(file: RawFile) -> Result<Vec<Tree>, TemplateError> {
    let annotations = annotations(&file)?;
    build(file, annotations, 2)
}

/// The annotations of a template's nodes, read by [`annotations`] for [`build`].
pub struct Annotations {
    /// The annotated nodes by their index in document order (most nodes have none).
    by_node: Vec<(usize, Vec<Ann>)>,
}

/// Template code the literal reader takes when it is given it (`schemac check`, once the
/// compiler has checked the file's program: `compiler::rules::template`): top-level `def`
/// blocks, and in `#@schema/validation` annotations, lambdas and the names of those `def`s.
/// Such functions become [`ArgKind::Opaque`] arguments kept as [`Deferred`] (see
/// [`eval_with_rules`]), in the order in which the interpreter would keep them.
#[derive(Debug, Default)]
pub struct RuleCode {
    /// The lines of each `def` block, first and last (its `#@ end`), in the order of the file.
    pub blocks: Vec<(u32, u32)>,
    /// Each `def`'s name and the line of its `#@ end`: only an annotation after that line may
    /// name it (before, the name is not bound yet).
    pub defs: HashMap<String, u32>,
}

impl RuleCode {
    /// Whether `line` is in a `def` block (a search: a file may hold thousands).
    fn in_block(&self, line: u32) -> bool {
        let after = self.blocks.partition_point(|&(_, last)| last < line);
        self.blocks
            .get(after)
            .is_some_and(|&(first, _)| first <= line)
    }
}

/// Reads the annotations of every node of `file` if all its comments are annotations with
/// literal arguments or `load()`s; the error names the first comment that needs Starlark.
pub fn annotations(file: &RawFile) -> Result<Annotations, TemplateError> {
    read_annotations(file, None).map(|(annotations, _)| annotations)
}

/// [`annotations`] of a template whose comments may also be the `rules` code: the functions
/// its `#@schema/validation` annotations pass are kept in `functions` as [`Deferred`]. None
/// when the file has other code (the interpreter's).
pub fn rule_annotations(
    file: &RawFile,
    rules: &RuleCode,
    functions: &Functions,
) -> Option<Annotations> {
    let (mut annotations, count) = read_annotations(file, Some(rules)).ok()?;
    if count > 0 {
        let template = Arc::new(file.clone());
        let base = functions.len();
        for nth in 0..count {
            let kept = functions.keep(Arc::new(Deferred {
                template: template.clone(),
                nth,
            }));
            debug_assert_eq!(kept, base + nth);
        }
        for (_, anns) in &mut annotations.by_node {
            for ann in anns {
                let args = ann.args.iter_mut();
                let args = args.chain(ann.kwargs.iter_mut().map(|(_, a)| a));
                args.for_each(|a| shift_functions(a, base));
            }
        }
    }
    Some(annotations)
}

/// Moves the function indices of `arg` (counted from 0 in its template) by `base`.
fn shift_functions(arg: &mut Arg, base: usize) {
    match &mut arg.kind {
        ArgKind::Opaque(i) | ArgKind::Checker(i) => *i += base,
        ArgKind::Tuple(items) | ArgKind::List(items) => {
            items.iter_mut().for_each(|a| shift_functions(a, base))
        }
        ArgKind::Matcher { arg, .. } => shift_functions(arg, base),
        ArgKind::Data(_) | ArgKind::Assertion(..) => {}
    }
}

/// What reading a template's annotations needs to know.
struct Reading<'a> {
    file: FileName,
    /// The first line of a load that binds `overlay`.
    overlay_from: Option<u32>,
    rules: Option<&'a RuleCode>,
    /// How many functions the annotations passed so far.
    functions: Cell<usize>,
}

impl Reading<'_> {
    /// Whether `line` is template code the reader accepts: a literal load, or a line of a
    /// `def` block of [`RuleCode`].
    fn code_line(&self, line: u32, text: &str) -> Result<(), String> {
        match self.rules {
            Some(r) if r.in_block(line) => Ok(()),
            _ => code_line(line, text),
        }
    }
}

/// [`annotations`], with the `rules` code when given; also how many functions the annotations
/// passed.
fn read_annotations(
    file: &RawFile,
    rules: Option<&RuleCode>,
) -> Result<(Annotations, usize), TemplateError> {
    let name = file.file;
    let err =
        |line: u32, message: String| TemplateError::compile(&name.to_string(), Some(line), message);
    let mut reading = Reading {
        file: name,
        overlay_from: None,
        rules,
        functions: Cell::new(0),
    };
    for c in &file.trailing_comments {
        reading
            .code_line(c.line, &c.text)
            .map_err(|m| err(c.line, m))?;
    }
    let mut out = Annotations {
        by_node: Vec::new(),
    };
    // `overlay.subset(...)` and the like name `overlay` only after a load that binds it.
    let mut overlay_from: Option<u32> = file
        .trailing_comments
        .iter()
        .filter(|c| binds_overlay(&c.text))
        .map(|c| c.line)
        .min();
    // Only the documents own comments in most data values files: their nodes need no visit
    // (but the count of them, to number the next document).
    let deep = file.comments_below_documents;
    for doc in &file.docs {
        overlay_loads(doc, deep, &mut overlay_from);
    }
    reading.overlay_from = overlay_from;
    let mut index = 0;
    for (i, doc) in file.docs.iter().enumerate() {
        if deep {
            collect(doc, &reading, &mut index, &mut out)
        } else {
            let last = i + 1 == file.docs.len();
            collect_document(doc, &reading, last, &mut index, &mut out)
        }
        .map_err(|(line, m)| err(line, m))?;
    }
    Ok((out, reading.functions.get()))
}

/// The template's documents: its nodes move into trees and take their `annotations`. A key
/// given twice in a map is an error unless the later item says `#@yaml/map-key-override`
/// (`template_id` numbers the template in ytt's message).
pub fn build(
    file: RawFile,
    annotations: Annotations,
    template_id: u32,
) -> Result<Vec<Tree>, TemplateError> {
    let mut builder = Builder {
        file: file.file,
        annotations: annotations.by_node.into_iter().peekable(),
        index: 0,
    };
    let docs = file
        .docs
        .into_iter()
        .map(|d| builder.tree(d))
        .collect::<Result<_, _>>();
    docs.map_err(|(line, key)| {
        let message = super::duplicate_key_message(template_id, &key);
        TemplateError::runtime(&builder.file, Some(line), message)
    })
}

/// The `@ytt:` modules a literal template may load (their names are used only as literals).
/// Each module has one member, named as the module (`load("@ytt:json", "json")`); a load of
/// anything else needs Starlark, which reports the missing name.
const MODULES: &[&str] = &[
    "assert", "overlay", "template", "data", "struct", "yaml", "json", "regexp", "base64", "math",
    "md5", "sha256", "url", "version", "library",
];

/// Whether `code` is `load("@ytt:MODULE", "MODULE", ALIAS="MODULE", ...)` of a module of
/// [`MODULES`].
fn literal_load(code: &str) -> bool {
    let Some(rest) = code.strip_prefix("load(\"@ytt:") else {
        return false;
    };
    let Some((module, rest)) = rest.split_once('"') else {
        return false;
    };
    if !MODULES.contains(&module) {
        return false;
    }
    let members = [module];
    let Some(args) = rest.trim_end().strip_suffix(')') else {
        return false;
    };
    args.split(',').skip(1).all(|arg| {
        let name = arg.rsplit('=').next().unwrap_or("").trim();
        let name = name.strip_prefix('"').and_then(|n| n.strip_suffix('"'));
        name.is_some_and(|n| members.contains(&n))
    }) && args.starts_with(',')
}

/// Whether the code comment `text` is a literal load that binds the name `overlay`.
fn binds_overlay(text: &str) -> bool {
    let code = text.trim();
    literal_load(code)
        && code.starts_with("load(\"@ytt:overlay\"")
        && code.split(',').skip(1).any(|arg| {
            let arg = arg.trim().trim_end_matches(')').trim();
            arg == "\"overlay\""
                || arg
                    .split_once('=')
                    .is_some_and(|(name, _)| name.trim() == "overlay")
        })
}

/// Lowers `from` to the first line of a load under `node` that binds `overlay`.
fn overlay_loads(node: &RawNode, deep: bool, from: &mut Option<u32>) {
    for c in node.comments.iter().filter(|c| binds_overlay(&c.text)) {
        *from = Some(from.map_or(c.line, |f| f.min(c.line)));
    }
    match &node.value {
        RawValue::Map(items) | RawValue::Array(items) if deep => {
            for item in items {
                overlay_loads(item, deep, from);
            }
        }
        _ => {}
    }
}

/// Accepts blank lines and `load("@ytt:...", ...)` of names that exist; anything else needs
/// Starlark.
fn code_line(line: u32, text: &str) -> Result<(), String> {
    let code = text.trim();
    if code.is_empty() || literal_load(code) {
        return Ok(());
    }
    Err(format!(
        "this validator was built without the Starlark interpreter and cannot run template code (line {line}: `{code}`)"
    ))
}

/// How Starlark reports a name that is not bound (here: `overlay` before its `load()`).
const UNDEFINED: &str = "undefined: ";

/// Reads the annotations of `node` and the nodes under it, numbering nodes in document order.
fn collect(
    node: &RawNode,
    reading: &Reading,
    index: &mut usize,
    out: &mut Annotations,
) -> Result<(), (u32, String)> {
    record_annotations(node, reading, *index, out)?;
    *index += 1;
    if let RawValue::Map(items) | RawValue::Array(items) = &node.value {
        for item in items {
            collect(item, reading, index, out)?;
        }
    }
    Ok(())
}

/// [`collect`] for a document when no node below a document owns a comment: the document's
/// own annotations, and its nodes counted (unless it is the `last` document).
fn collect_document(
    doc: &RawNode,
    reading: &Reading,
    last: bool,
    index: &mut usize,
    out: &mut Annotations,
) -> Result<(), (u32, String)> {
    record_annotations(doc, reading, *index, out)?;
    *index += if last {
        1
    } else {
        crate::yaml::parse::node_count(&doc.value)
    };
    Ok(())
}

/// Keeps the annotations of `node`, the node numbered `index`, if it has any.
fn record_annotations(
    node: &RawNode,
    reading: &Reading,
    index: usize,
    out: &mut Annotations,
) -> Result<(), (u32, String)> {
    let anns = node_annotations(node, reading)?;
    if !anns.is_empty() {
        out.by_node.push((index, anns));
    }
    Ok(())
}

fn node_annotations(node: &RawNode, reading: &Reading) -> Result<Vec<Ann>, (u32, String)> {
    let (file, overlay_from) = (reading.file, reading.overlay_from);
    let mut anns = Vec::new();
    for c in &node.comments {
        let first = c.text.chars().next();
        if first.is_none_or(char::is_whitespace) {
            reading
                .code_line(c.line, &c.text)
                .map_err(|m| (c.line, m))?;
            continue;
        }
        let (name, args) = super::compile::split_annotation(&c.text);
        if name == "yaml/text-templated-strings" {
            return Err((
                c.line,
                "text templating needs the Starlark interpreter".into(),
            ));
        }
        let ann_pos = Pos::new(file, c.line);
        let (args, kwargs) = Parser {
            s: args.as_bytes(),
            i: 0,
            pos: &ann_pos,
            overlay: overlay_from.is_some_and(|line| line < c.line),
            depth: 0,
            rules: reading.rules.filter(|_| name == "schema/validation"),
            functions: &reading.functions,
        }
        .arguments()
        .map_err(|m| match m.starts_with(UNDEFINED) {
            // Starlark's own words, as ytt reports them
            true => (c.line, m),
            false => (c.line, format!("{m} (in `#@{}`)", c.text.trim())),
        })?;
        anns.push(Ann {
            name: name.to_string(),
            pos: ann_pos,
            args,
            kwargs,
        });
    }
    Ok(anns)
}

/// Turns raw nodes into trees, in document order, handing out the annotations read before.
struct Builder {
    file: FileName,
    annotations: std::iter::Peekable<std::vec::IntoIter<(usize, Vec<Ann>)>>,
    /// The index of the next node in document order.
    index: usize,
}

impl Builder {
    /// The tree of `node`; `Err` names the line and key of a map item whose key came before.
    fn tree(&mut self, node: RawNode) -> Result<Tree, (u32, Value)> {
        let here = self.index;
        self.index += 1;
        let anns = self
            .annotations
            .next_if(|(i, _)| *i == here)
            .map(|(_, anns)| anns)
            .unwrap_or_default();
        let RawNode {
            kind, line, value, ..
        } = node;
        let value = match value {
            RawValue::Scalar(v) => TreeValue::Scalar(v),
            RawValue::Map(items) => {
                let mut trees: Vec<Tree> = Vec::with_capacity(items.len());
                let mut keys = crate::value::KeySet::expecting(items.len());
                for item in items {
                    let tree = self.tree(item)?;
                    super::tree::add_map_item(&mut trees, tree, &mut keys)
                        .map_err(|t| (t.pos.line, t.key().cloned().unwrap_or(Value::Null)))?;
                }
                TreeValue::Map(trees)
            }
            RawValue::Array(items) => TreeValue::Array(
                items
                    .into_iter()
                    .map(|i| self.tree(i))
                    .collect::<Result<_, _>>()?,
            ),
        };
        Ok(Tree {
            kind,
            pos: Pos::new(self.file, line),
            anns: anns.into(),
            value,
        })
    }
}

/// A parser for Starlark literals: strings, numbers, True/False/None, lists, dicts, tuples,
/// and the `@ytt:overlay` matcher constructors.
struct Parser<'a> {
    s: &'a [u8],
    i: usize,
    pos: &'a Pos,
    /// Whether a load before the annotation binds `overlay`.
    overlay: bool,
    /// How deep in brackets the parser is: past [`MAX_DEPTH`] the text is left to Starlark.
    depth: usize,
    /// The `def`s an argument may name, and whether it may be a lambda.
    rules: Option<&'a RuleCode>,
    /// How many functions the template's annotations passed so far.
    functions: &'a Cell<usize>,
}

/// The deepest nesting of brackets the literal parser reads (it recurses).
const MAX_DEPTH: usize = 200;

type Args = (Vec<Arg>, Vec<(String, Arg)>);

impl Parser<'_> {
    fn ws(&mut self) {
        while self.i < self.s.len() && self.s[self.i].is_ascii_whitespace() {
            self.i += 1;
        }
    }

    fn eat(&mut self, c: u8) -> bool {
        self.ws();
        if self.s.get(self.i) == Some(&c) {
            self.i += 1;
            true
        } else {
            false
        }
    }

    fn ident(&mut self) -> Option<String> {
        self.ws();
        let start = self.i;
        while self.i < self.s.len()
            && (self.s[self.i].is_ascii_alphanumeric() || matches!(self.s[self.i], b'_' | b'.'))
        {
            self.i += 1;
        }
        (self.i > start).then(|| String::from_utf8_lossy(&self.s[start..self.i]).into_owned())
    }

    /// The arguments, within starlark-go's 255 positional and 255 keyword arguments of a
    /// call (more is its compiler's error, which the interpreter then reports).
    fn arguments(self) -> Result<Args, String> {
        let (args, kwargs) = self.all_arguments()?;
        for (count, kind) in [(args.len(), "positional"), (kwargs.len(), "keyword")] {
            if count >= 256 {
                return Err(format!("{count} {kind} arguments in call, limit is 255"));
            }
        }
        Ok((args, kwargs))
    }

    fn all_arguments(mut self) -> Result<Args, String> {
        let (mut args, mut kwargs) = (Vec::new(), Vec::new());
        loop {
            self.ws();
            if self.i >= self.s.len() {
                return Ok((args, kwargs));
            }
            let save = self.i;
            if let Some(name) = self.ident() {
                if self.eat(b'=') && self.s.get(self.i) != Some(&b'=') {
                    if kwargs.iter().any(|(k, _)| *k == name) {
                        return Err(format!("keyword argument {name} repeated"));
                    }
                    kwargs.push((name, self.arg()?));
                    if !self.eat(b',') {
                        self.end()?;
                        return Ok((args, kwargs));
                    }
                    continue;
                }
            }
            self.i = save;
            if !kwargs.is_empty() {
                return Err("positional argument after keyword argument".into());
            }
            args.push(self.arg()?);
            if !self.eat(b',') {
                self.end()?;
                return Ok((args, kwargs));
            }
        }
    }

    fn end(&mut self) -> Result<(), String> {
        self.ws();
        if self.i < self.s.len() {
            return Err(format!(
                "unexpected `{}`",
                String::from_utf8_lossy(&self.s[self.i..])
            ));
        }
        Ok(())
    }

    fn deeper(&mut self) -> Result<(), String> {
        self.depth += 1;
        if self.depth > MAX_DEPTH {
            return Err("brackets nested too deep for a literal".into());
        }
        Ok(())
    }

    fn arg(&mut self) -> Result<Arg, String> {
        self.ws();
        if self.s.get(self.i) == Some(&b'(') {
            self.i += 1;
            self.deeper()?;
            let mut items = Vec::new();
            // `(x)` is `x`; a tuple of one item is `(x,)`.
            let mut comma = false;
            while !self.eat(b')') {
                items.push(self.arg()?);
                if self.eat(b',') {
                    comma = true;
                } else if self.eat(b')') {
                    break;
                } else {
                    return Err("expected `,` or `)`".into());
                }
            }
            self.depth -= 1;
            if items.len() == 1 && !comma {
                return Ok(items.remove(0));
            }
            return Ok(Arg {
                type_name: "tuple".into(),
                kind: ArgKind::Tuple(items),
            });
        }
        if let Some(f) = self.function()? {
            return Ok(f);
        }
        if let Some(m) = self.matcher()? {
            return Ok(m);
        }
        let value = self.value()?;
        let type_name = crate::rules::starlark_type(&value).to_string();
        Ok(Arg {
            type_name,
            kind: ArgKind::Data(Node::new(value, *self.pos)),
        })
    }

    /// A matcher of `@ytt:overlay` (`overlay.all`, `overlay.subset(...)`, `map_key`, `index`),
    /// as the interpreter gives it to an annotation: [`ArgKind::Matcher`] with its argument as
    /// data. `None` (nothing read) for any other argument.
    fn matcher(&mut self) -> Result<Option<Arg>, String> {
        let start = self.i;
        let name = self.ident();
        let Some(op) = name.as_deref().and_then(|n| n.strip_prefix("overlay.")) else {
            self.i = start;
            return Ok(None);
        };
        if !self.overlay || !matches!(op, "all" | "map_key" | "index" | "subset") {
            self.i = start;
            return Ok(None);
        }
        let arg = if op == "all" {
            Node::new(Value::Null, *self.pos)
        } else {
            if !self.eat(b'(') {
                return Err(format!("expected `(` after overlay.{op}"));
            }
            let arg = self.node()?;
            if !self.eat(b')') {
                return Err("expected `)`".into());
            }
            // ytt refuses an index that is no integer and a key that is no string when the
            // matcher is made: the interpreter words it.
            let refused = match op {
                "index" => !matches!(arg.value, Value::Int(_)),
                "map_key" => !matches!(arg.value, Value::Str(_)),
                _ => false,
            };
            if refused {
                return Err(format!(
                    "`overlay.{op}` of a {} needs the Starlark interpreter, which this validator was built without",
                    crate::rules::starlark_type(&arg.value)
                ));
            }
            arg
        };
        Ok(Some(Arg {
            type_name: "builtin_function_or_method".into(),
            kind: ArgKind::Matcher {
                op: op.to_string(),
                arg: Box::new(Arg {
                    type_name: crate::rules::starlark_type(&arg.value).to_string(),
                    kind: ArgKind::Data(arg),
                }),
            },
        }))
    }

    /// A function argument of [`RuleCode`]: a lambda, or the name of a `def` ended before the
    /// annotation. `None` (nothing read) for any other argument.
    fn function(&mut self) -> Result<Option<Arg>, String> {
        let Some(rules) = self.rules else {
            return Ok(None);
        };
        let start = self.i;
        let name = self.ident();
        let next = self.s.get(self.i).copied();
        let function = match name.as_deref() {
            Some("lambda") if next.is_some_and(|c| c == b':' || c.is_ascii_whitespace()) => {
                self.lambda_body()?;
                true
            }
            Some(name) => {
                self.ws();
                let ends = matches!(self.s.get(self.i), None | Some(b',' | b')'));
                let line = self.pos.line;
                ends && rules.defs.get(name).is_some_and(|&end| end < line)
            }
            None => false,
        };
        if !function {
            self.i = start;
            return Ok(None);
        }
        let nth = self.functions.get();
        self.functions.set(nth + 1);
        Ok(Some(Arg {
            type_name: "function".into(),
            kind: ArgKind::Opaque(nth),
        }))
    }

    /// Skips a lambda's parameters and body: up to a `,` or closing bracket outside brackets
    /// and strings (the compiler checked the lambda itself; a text this scan misreads fails to
    /// parse as literals after it, and is left to the interpreter).
    fn lambda_body(&mut self) -> Result<(), String> {
        let mut depth = 0usize;
        while let Some(&c) = self.s.get(self.i) {
            match c {
                b'"' | b'\'' => {
                    if self.s[self.i..].starts_with(&[c, c, c]) {
                        return Err("a triple-quoted string in a lambda".into());
                    }
                    self.string(c)?;
                    continue;
                }
                b'#' => return Err("a comment in a lambda".into()),
                b'(' | b'[' | b'{' => depth += 1,
                b')' | b']' | b'}' if depth == 0 => break,
                b')' | b']' | b'}' => depth -= 1,
                b',' if depth == 0 => break,
                _ => {}
            }
            self.i += 1;
        }
        Ok(())
    }

    fn node(&mut self) -> Result<Node, String> {
        Ok(Node::new(self.value()?, *self.pos))
    }

    fn value(&mut self) -> Result<Value, String> {
        self.ws();
        match self.s.get(self.i).copied() {
            Some(q @ (b'"' | b'\'')) => self.string(q).map(|s| Value::Str(s.into())),
            Some(b'[') => {
                self.i += 1;
                self.deeper()?;
                let mut items = crate::value::Items::new();
                while !self.eat(b']') {
                    items.push(self.node()?);
                    if !self.eat(b',') && !self.eat(b']') {
                        return Err("expected `,` or `]`".into());
                    } else if self.s.get(self.i - 1) == Some(&b']') {
                        break;
                    }
                }
                self.depth -= 1;
                Ok(Value::Array(items))
            }
            Some(b'{') => {
                self.i += 1;
                self.deeper()?;
                let mut entries = crate::value::Entries::new();
                while !self.eat(b'}') {
                    let key = self.value()?;
                    // Starlark hashes keys: 1 and 1.0 are one key, a list is none.
                    let plain = matches!(
                        key,
                        Value::Str(_) | Value::Int(_) | Value::Bool(_) | Value::Null
                    );
                    if !plain || entries.iter().any(|e| e.key == key) {
                        return Err("a dict key that needs the Starlark interpreter".into());
                    }
                    if !self.eat(b':') {
                        return Err("expected `:` in a dict".into());
                    }
                    entries.push(MapEntry {
                        key,
                        value: self.node()?,
                    });
                    if !self.eat(b',') && !self.eat(b'}') {
                        return Err("expected `,` or `}`".into());
                    } else if self.s.get(self.i - 1) == Some(&b'}') {
                        break;
                    }
                }
                self.depth -= 1;
                Ok(Value::Map(entries))
            }
            Some(c) if c.is_ascii_digit() || c == b'-' || c == b'+' => self.number(),
            _ => {
                let name = self.ident().ok_or("expected a literal")?;
                match name.as_str() {
                    "True" => Ok(Value::Bool(true)),
                    "False" => Ok(Value::Bool(false)),
                    "None" => Ok(Value::Null),
                    "overlay.all" | "overlay.map_key" | "overlay.index" | "overlay.subset"
                        if !self.overlay =>
                    {
                        Err(format!("{UNDEFINED}overlay"))
                    }
                    // A matcher is a function, no data (`by=[overlay.all]`).
                    "overlay.all" | "overlay.map_key" | "overlay.index" | "overlay.subset" => {
                        Err(format!(
                            "`{name}` inside data needs the Starlark interpreter, which this validator was built without"
                        ))
                    }
                    other => Err(format!(
                        "`{other}` needs the Starlark interpreter, which this validator was built without"
                    )),
                }
            }
        }
    }

    fn number(&mut self) -> Result<Value, String> {
        let start = self.i;
        self.i += 1;
        while self.i < self.s.len()
            && (self.s[self.i].is_ascii_alphanumeric() || matches!(self.s[self.i], b'.' | b'_'))
        {
            self.i += 1;
        }
        let text = String::from_utf8_lossy(&self.s[start..self.i]).into_owned();
        // starlark-go reads `010`, `1e400` and integers past 64 bits its own way (or refuses
        // them): those are left to the interpreter.
        let digits = text.trim_start_matches(['+', '-']);
        let decimal = digits
            .bytes()
            .all(|b| b.is_ascii_digit() || matches!(b, b'.' | b'e' | b'E' | b'+' | b'-'));
        let leading_zero =
            digits.len() > 1 && digits.starts_with('0') && digits.as_bytes()[1].is_ascii_digit();
        if !decimal || leading_zero {
            return Err(format!("number `{text}` needs the Starlark interpreter"));
        }
        if let Ok(i) = text.parse::<i64>() {
            return Ok(Value::Int(i));
        }
        if let Ok(u) = text.parse::<u64>() {
            return Ok(Value::UInt(u));
        }
        match text.parse::<f64>() {
            Ok(f) if f.is_finite() && digits.contains(['.', 'e', 'E']) => Ok(Value::Float(f)),
            _ => Err(format!("number `{text}` needs the Starlark interpreter")),
        }
    }

    fn string(&mut self, q: u8) -> Result<String, String> {
        self.i += 1;
        let mut out = Vec::new();
        while let Some(&c) = self.s.get(self.i) {
            self.i += 1;
            match c {
                b'\\' => {
                    let e = *self.s.get(self.i).ok_or("unterminated string")?;
                    self.i += 1;
                    out.push(match e {
                        b'n' => b'\n',
                        b't' => b'\t',
                        b'r' => b'\r',
                        b'\\' | b'"' | b'\'' => e,
                        other => {
                            return Err(format!(
                                "escape `\\{}` needs the Starlark interpreter",
                                other as char
                            ))
                        }
                    });
                }
                c if c == q => return String::from_utf8(out).map_err(|e| e.to_string()),
                c => out.push(c),
            }
        }
        Err("unterminated string".into())
    }
}

#[cfg(test)]
mod tests;
