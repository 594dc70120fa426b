//! Where ytt's parser stands once it has read an `end` that closes nothing (see
//! [`super::CompileError::after`]): the template's next line of code, or a line ytt generates,
//! and how ytt numbers the nodes (the empty document of the code lines after the last node
//! is numbered after them all; an annotation whose name's string is another names its node's
//! number), and the code of that empty document, which a bracket left open takes in.

use super::gen;
use super::text_template;
use crate::template::{Generated, GeneratedLine};
use crate::value::Value;
use crate::yaml::parse::{Comment, RawFile, RawNode, RawValue};

/// The first line after `line` that the template's code is made of (a node, a document, a
/// `#@` comment), or `line` when there is none.
pub(super) fn next_code_line(file: &RawFile, line: u32) -> u32 {
    fn walk(node: &RawNode, out: &mut Vec<u32>) {
        out.push(node.line);
        out.extend(node.comments.iter().map(|c| c.line));
        if let RawValue::Map(items) | RawValue::Array(items) = &node.value {
            items.iter().for_each(|n| walk(n, out));
        }
    }
    let mut lines: Vec<u32> = file.trailing_comments.iter().map(|c| c.line).collect();
    file.docs.iter().for_each(|d| walk(d, &mut lines));
    lines
        .into_iter()
        .filter(|&l| l > line)
        .min()
        .unwrap_or(line)
}

/// The line of ytt's code after the code line `line` (an `end` that closes nothing), when ytt
/// generates it: the start of the empty document that holds the code lines after the file's
/// last node (`__ytt_tplN_start_node(K) # *yamlmeta.Document`), or the first line of a map
/// item whose key is a text template and that has no annotations (`set_ctx_type("text")`,
/// shown with the item's line after it).
pub(super) fn generated_after(file: &RawFile, line: u32) -> Option<Box<Generated>> {
    if file.trailing_comments.iter().any(|c| c.line == line) {
        if next_code_line(file, line) != line {
            return None;
        }
        let number = ytt_node_count(file) + 1;
        return Some(Box::new(Generated {
            template: 0, // the template's number is given where the error is reported
            line: GeneratedLine::TrailingDocumentStart(number),
            after: None,
        }));
    }
    // A code line above a node (not code of a text template on a node's line).
    if !file.docs.iter().any(|d| holds_code_line(d, line)) {
        return None;
    }
    let next = next_code_line(file, line);
    let generated = file
        .docs
        .iter()
        .find_map(|d| starts_generated_at(d, next, false))?;
    generated.then(|| {
        Box::new(Generated {
            template: 0,
            line: GeneratedLine::TextStart,
            after: Some(next),
        })
    })
}

/// Whether `line` is a code line above `node` or a node under it.
fn holds_code_line(node: &RawNode, line: u32) -> bool {
    let code = |c: &&crate::yaml::parse::Comment| !c.is_annotation() && c.line < node.line;
    node.comments.iter().filter(code).any(|c| c.line == line)
        || children(node).iter().any(|n| holds_code_line(n, line))
}

/// For the first node on `line` (at or under `node`, `templated` when an ancestor is annotated
/// `#@yaml/text-templated-strings`): whether ytt's code for it starts with a line it generates
/// (see [`super::NodeInfo::starts_generated`]).
fn starts_generated_at(node: &RawNode, line: u32, templated: bool) -> Option<bool> {
    let templated = templated || text_template::is_templated(node);
    if node.line == line {
        let annotated = node.comments.iter().any(|c| c.is_annotation());
        let string_key = node.key_str().is_some();
        return Some(templated && !annotated && string_key);
    }
    children(node)
        .iter()
        .find_map(|n| starts_generated_at(n, line, templated))
}

fn children(node: &RawNode) -> &[RawNode] {
    match &node.value {
        RawValue::Map(items) | RawValue::Array(items) => items,
        RawValue::Scalar(_) => &[],
    }
}

/// How many nodes ytt numbers in `file`: the document set, an empty document before the first
/// `---` that a comment or directive precedes, each document, and each map and array with
/// their items (a collection is a node of its own under its map item or array item); under
/// `#@yaml/text-templated-strings`, each string key and value is a text template whose root,
/// texts and `(@= @)` values are nodes too.
pub(super) fn ytt_node_count(file: &RawFile) -> u32 {
    fn count(node: &RawNode, templated: bool) -> u32 {
        let templated = templated || text_template::is_templated(node);
        ytt_own_nodes(node, templated)
            + children(node)
                .iter()
                .map(|n| count(n, templated))
                .sum::<u32>()
    }
    ytt_nodes_before_documents(file) + file.docs.iter().map(|d| count(d, false)).sum::<u32>()
}

/// How many nodes ytt numbers before a file's first document: the document set, and the empty
/// document of [`RawFile::has_leading_empty_document`].
pub(super) fn ytt_nodes_before_documents(file: &RawFile) -> u32 {
    1 + u32::from(file.has_leading_empty_document())
}

/// How many nodes ytt numbers for `node` before its items (`templated` under
/// `#@yaml/text-templated-strings`): the node itself first, the text-template nodes of its
/// string key and value, and its map or array.
pub(super) fn ytt_own_nodes(node: &RawNode, templated: bool) -> u32 {
    let texts = match (node.key_str(), &node.value) {
        (_, _) if !templated => 0,
        (Some(key), RawValue::Scalar(Value::Str(value))) => {
            text_template::node_count(key) + text_template::node_count(value)
        }
        (Some(text), _) => text_template::node_count(text),
        (_, RawValue::Scalar(Value::Str(text))) => text_template::node_count(text),
        _ => 0,
    };
    let collection = u32::from(!matches!(node.value, RawValue::Scalar(_)));
    1 + texts + collection
}

/// The first argument of the `ann` call of the annotation `name` on `line`, of a node numbered
/// `ytt_tag` by ytt with `annotations`: the line, or `(LINE, [NAMES], TAG)` when the name's
/// string may be another than the name written (`#@x"+"y` is `xy`, ytt writing the name
/// between quotes as it is), with the names of the node's annotations as written. ytt looks
/// the string up among them, an error as the annotation runs if it is none.
pub(super) fn annotation_at(
    line: u32,
    name: &str,
    annotations: &[&Comment],
    ytt_tag: u32,
) -> String {
    if !crate::template::generated_names::ann_name_may_be_another(name) {
        return line.to_string();
    }
    let written = annotations.iter();
    let written = written.map(|a| text_template::quote(super::split_annotation(&a.text).0));
    let written = written.collect::<Vec<_>>().join(", ");
    format!("({line}, [{written}], {ytt_tag})")
}

/// What schemac says when a builder call finds no node open after a `\\` continued code into a
/// node's code ([`super::Program::backslash_into_node`]): a known gap.
pub const BACKSLASH_INTO_NODE: &str = "the `\\` ending this code line continues it into the node on line {node}: ytt's program takes the node's first instruction into the expression there, which schemac does not follow (a known gap)";

/// The code of the empty documents after a file's last node (see [`next_code_line`]).
impl super::Compiler {
    /// ytt's code for the empty document that holds a file's code lines after its last node:
    /// its start, then its value, numbered after every other node, inside the blocks those
    /// lines leave open. A bracket those lines leave open takes this code in (`#@ x = [1,`
    /// reads on into `__ytt_tpl2_start_node(6)`), so the syntax error is on one of these
    /// lines, which ytt shows as generated; so does a `\` ending the last line (`#@ x = 1 +
    /// \` runs, adding the start's None), a statement the last line leaves unfinished (`#@ x
    /// = 1 +`: starlark-go places the error of its newline on the next line), or the line
    /// before a last line of no code (`#@ # c`). Run, they do nothing.
    ///
    /// The same for the empty document that annotations after the last node make (ytt writes
    /// its start after them).
    pub(super) fn trailing_document(&mut self, number: u32) {
        self.trailing_document = Some((self.line_map.len(), number));
        let (start, set) = (self.names.of(gen::START_NODE), self.names.of(gen::SET_NODE));
        let depth = self.blocks.len();
        self.emit(0, depth, &format!("{start}({number})"));
        self.emit(0, depth, &format!("{set}({number})"));
    }

    /// ytt writes the start of the empty document that annotations after the last node make
    /// after them (here they come last, after its start, see `second_node_line`): a bracket
    /// they or the code lines before them leave open takes ytt's start in
    /// (`#@schema/examples ("a"` at the end of a file).
    pub(super) fn after_trailing_annotations(&mut self, file: &RawFile) {
        self.trailing_document(ytt_node_count(file));
    }
}
