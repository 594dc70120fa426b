//! Templates without an interpreter: for validators built without Starlark.
//!
//! Data values files usually carry only annotations with literal arguments
//! (`#@data/values`, `#@overlay/match by="name"`, `#@overlay/match by=overlay.subset({...})`)
//! and `load()` lines. This module reads those without Starlark; any other template code is
//! reported as needing the interpreter.

use std::cell::Cell;
use std::collections::HashMap;
use std::sync::Arc;

use super::code_scan::CODE_BLANKS;
use super::functions::Deferred;
use super::tree::{Ann, Anns, Arg, ArgKind, Tree, TreeValue};
use super::TemplateError;
use crate::value::{FileName, Pos, Value};
use crate::yaml::parse::{RawFile, RawNode, RawValue};

mod arguments;
use arguments::Parser;

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
/// its `#@schema/validation` annotations pass are kept in the run's functions (`sources`) as
/// [`Deferred`]. None when the file has other code (the interpreter's).
pub fn rule_annotations(
    file: &RawFile,
    rules: &RuleCode,
    sources: &super::Sources,
) -> Option<Annotations> {
    let (mut annotations, count) = read_annotations(file, Some(rules)).ok()?;
    if count > 0 {
        let functions = &sources.functions;
        let template = Arc::new(file.clone());
        let files = Arc::new(sources.files.clone());
        let base = functions.len();
        for nth in 0..count {
            let kept = functions.keep(Arc::new(Deferred {
                template: template.clone(),
                nth,
                files: files.clone(),
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
        ArgKind::Opaque { index: i, .. } | ArgKind::Checker(i) => *i += base,
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
    if let Some(line) = file.key_line_break {
        // ytt runs a key's text after its line break as code.
        let what = "a map key holding a line break or a NUL, which ytt's program reads as code";
        return Err(err(line, needs_starlark(line, what)));
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
        .map_err(|(line, m)| {
            let mut e = err(line, m);
            if starlarks_words(&e.message) {
                e.also = more_starlark_errors(file, &reading, line).into();
            }
            e
        })?;
    }
    Ok((out, reading.functions.get()))
}

/// ytt lists every error of a file's annotations that Starlark finds before running it
/// (`undefined:`, a keyword repeated, a positional argument after a named one): after the
/// first (at `line`), those of the later nodes' annotations, in the order of the file.
fn more_starlark_errors(file: &RawFile, reading: &Reading, line: u32) -> Vec<super::AlsoError> {
    fn walk(node: &RawNode, reading: &Reading, line: u32, out: &mut Vec<super::AlsoError>) {
        // Each annotation on its own: a node may hold several of these errors.
        for c in node.comments.iter().filter(|c| c.line > line) {
            let one = comments_annotations(std::slice::from_ref(c), node.line, reading);
            if let Err((at, message)) = one {
                if starlarks_words(&message) {
                    out.push(super::AlsoError {
                        line: at,
                        message,
                        quote: None,
                        generated: None,
                    });
                }
            }
        }
        if let RawValue::Map(items) | RawValue::Array(items) = &node.value {
            for item in items {
                walk(item, reading, line, out);
            }
        }
    }
    let mut out = Vec::new();
    for doc in &file.docs {
        walk(doc, reading, line, &mut out);
    }
    out.sort_by_key(|a| a.line);
    out
}

/// The template's documents: its nodes move into trees and take their `annotations`. A key
/// given twice in a map is an error unless the later item says `#@yaml/map-key-override`
/// (`template_id` numbers the template in ytt's message).
pub fn build(
    file: RawFile,
    annotations: Annotations,
    template_id: u32,
) -> Result<Vec<Tree>, TemplateError> {
    let mut annotated = annotations.by_node.into_iter();
    let mut builder = Builder {
        file: file.file,
        next_annotated: annotated.next(),
        annotated,
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
    // (`code` ends in no blank: other white space after the `)` is code.)
    let Some(args) = rest.strip_suffix(')') else {
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
    // (As ytt trims a code line: other white space at its end is code.)
    let code = text.trim_start().trim_end_matches(CODE_BLANKS);
    if code.is_empty() || literal_load(code) {
        return Ok(());
    }
    Err(needs_starlark(line, &format!("`{code}`")))
}

/// The error for template code on `line` (`what` it is) that only the interpreter runs.
fn needs_starlark(line: u32, what: &str) -> String {
    format!(
        "this validator was built without the Starlark interpreter and cannot run template code (line {line}: {what})"
    )
}

/// How Starlark reports a name that is not bound (here: `overlay` before its `load()`).
const UNDEFINED: &str = "undefined: ";

/// starlark-go's parser on `f(a=1, 2)`.
const POSITIONAL_AFTER_NAMED: &str = "positional argument may not follow named";

/// Whether an annotation's argument error is in Starlark's own words, which ytt reports as they
/// are; the others (what this reader cannot take) name the annotation.
fn starlarks_words(m: &str) -> bool {
    m.starts_with(UNDEFINED)
        || m == POSITIONAL_AFTER_NAMED
        || (m.starts_with("keyword argument ") && m.ends_with(" repeated"))
        || m.ends_with(" arguments in call, limit is 255")
}

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
    comments_annotations(&node.comments, node.line, reading)
}

/// [`node_annotations`] of some of the comments of a node on `node_line`.
fn comments_annotations(
    comments: &[crate::yaml::parse::Comment],
    node_line: u32,
    reading: &Reading,
) -> Result<Vec<Ann>, (u32, String)> {
    let (file, overlay_from) = (reading.file, reading.overlay_from);
    let mut anns = Vec::new();
    for c in comments {
        // ytt's code and value comments: `#@` followed by nothing or a space.
        if c.text.is_empty() || c.text.starts_with(' ') {
            // A value on the node's line, even an empty one (`a: #@` is the empty tuple).
            if c.line == node_line {
                return Err((c.line, needs_starlark(c.line, &format!("`{}`", c.text))));
            }
            reading
                .code_line(c.line, &c.text)
                .map_err(|m| (c.line, m))?;
            continue;
        }
        let (name, args) = super::compile::split_annotation(&c.text);
        if crate::template::generated_names::ann_name_may_be_another(name) {
            let what = format!("the annotation name `{name}`");
            return Err((c.line, needs_starlark(c.line, &what)));
        }
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
        .map_err(|m| match starlarks_words(&m) {
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
    /// The next annotated node (its index and annotations), then the others in order.
    next_annotated: Option<(usize, Vec<Ann>)>,
    annotated: std::vec::IntoIter<(usize, Vec<Ann>)>,
    /// The index of the next node in document order.
    index: usize,
}

impl Builder {
    /// Whether the next node's annotations say `#@yaml/map-key-override`.
    fn next_overrides_key(&self) -> bool {
        self.next_annotated.as_ref().is_some_and(|(i, anns)| {
            *i == self.index && Ann::find(anns, super::MAP_KEY_OVERRIDE).is_some()
        })
    }

    /// The tree of `node`; `Err` names the line and key of a map item whose key came before.
    fn tree(&mut self, node: RawNode) -> Result<Tree, (u32, Value)> {
        let here = self.index;
        self.index += 1;
        // Most nodes have none: their index compared, no empty vector made for them.
        let anns = if self
            .next_annotated
            .as_ref()
            .is_some_and(|(i, _)| *i == here)
        {
            let next = self.annotated.next();
            let this = std::mem::replace(&mut self.next_annotated, next);
            this.map_or_else(Anns::default, |(_, anns)| anns.into())
        } else {
            Anns::default()
        };
        let (kind, line, value) = node.into_parts();
        let value = match value {
            RawValue::Scalar(v) => TreeValue::Scalar(v),
            RawValue::Map(items) => {
                let mut trees: Vec<Tree> = Vec::with_capacity(items.len());
                let mut keys = crate::value::KeySet::expecting(items.len());
                for item in items {
                    // As in ytt, an item joins its map (where a key given before is an error
                    // unless the item says `#@yaml/map-key-override`, and its earlier item
                    // goes) before the item's value is made: a key given twice is reported
                    // before any under its value.
                    let key = item.key().map(|k| &**k);
                    let earlier = key
                        .filter(|k| !keys.surely_new(&trees, k))
                        .and_then(|k| trees.iter().position(|t| t.key() == Some(k)));
                    if let Some(at) = earlier {
                        if !self.next_overrides_key() {
                            let key = key.cloned().unwrap_or(Value::Null);
                            return Err((item.line, key));
                        }
                        trees.remove(at);
                    }
                    trees.push(self.tree(item)?);
                }
                TreeValue::Map(trees)
            }
            RawValue::Array(items) => {
                // Sized once: a `Result` collect would grow the vector by doubling.
                let mut trees: Vec<Tree> = Vec::with_capacity(items.len());
                // The raw items' block is given back as they are consumed (see
                // `crate::spare_pages`): a large array's vector of raw nodes was whole at the
                // templating's end, beside the trees made of them.
                let mut items = items.into_vec().into_iter();
                let mut consumed = crate::spare_pages::ConsumedPages::new(&items);
                while let Some(item) = items.next() {
                    trees.push(self.tree(item)?);
                    consumed.release(&items);
                }
                TreeValue::Array(trees)
            }
        };
        Ok(Tree {
            kind,
            pos: Pos::new(self.file, line),
            anns,
            value,
        })
    }
}

#[cfg(test)]
mod tests;
