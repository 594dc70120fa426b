//! What ytt refuses in a template before it runs any code: unknown comments, a node with both
//! a YAML value and code computing one, code after a node-specific keyword (`#@ if/end x:`), a
//! text template its lexer refuses; and the node-specific keywords themselves.

use crate::value::Value;
use crate::yaml::parse::{Comment, RawFile, RawValue};

/// The line of the first node (in file order) that has both a value written in YAML and code
/// on its line computing one (`a: 1 #@ 2`, `a: "" #@ x`, `a: [] #@ x`), which ytt refuses
/// when it compiles the template. A null value (`a: #@ x`, `a: ~ #@ x`) is no YAML value.
pub fn value_with_code(file: &RawFile) -> Option<u32> {
    file.find_commented(|node| {
        let has_code = node
            .comments
            .iter()
            .any(|c| c.line == node.line && !c.is_annotation());
        (has_code && !matches!(node.value, RawValue::Scalar(Value::Null))).then_some(node.line)
    })
}

/// What ytt refuses in a template's YAML and comments before it runs any code, the earliest in
/// the file: an unknown comment (unless `ignore_unknown_comments`), or a node with both a YAML
/// value and code computing one on its line. Its line and ytt's message.
pub fn refused(raw: &RawFile, ignore_unknown_comments: bool) -> Option<(u32, String)> {
    let unknown = raw
        .unknown_comment
        .as_ref()
        .filter(|_| !ignore_unknown_comments)
        .map(|c| {
            let message = format!(
                "Failed to parse line {}: '#{}': Expected ytt-formatted string (use '#@' for annotations or code, '#!' for comments)",
                c.line, c.text
            );
            (c.line, message)
        });
    let both = value_with_code(raw).map(|line| {
        let message = format!(
            "Expected YAML node at line {}:{line} to have either computed or YAML value, but found both",
            raw.name
        );
        (line, message)
    });
    let after_end = code_after_node_specific(raw).map(|line| {
        let message = format!(
            "Unexpected code at line {}:{line} after use of '*/end', expected YAML node",
            raw.name
        );
        (line, message)
    });
    let text = super::text_template::refused(raw);
    [unknown, both, after_end, text]
        .into_iter()
        .flatten()
        .min_by_key(|(line, _)| *line)
}

/// ytt's node-specific keywords: `if/end`, `else/end`, `elif/end`, `for/end` and `def/end`
/// open a block that closes after the next node.
const NODE_SPECIFIC: [(&str, &str); 5] = [
    ("if/end", "if"),
    ("else/end", "else"),
    ("elif/end", "elif"),
    ("for/end", "for"),
    ("def/end", "def"),
];

/// The statement with its node-specific keyword replaced (`if/end x:` is `if x:`), if it
/// starts with one (ytt matches the text's start, so `if/end(x):` is one too).
pub(super) fn node_specific(stmt: &str) -> Option<String> {
    NODE_SPECIFIC.iter().find_map(|(keyword, plain)| {
        stmt.strip_prefix(keyword)
            .map(|rest| format!("{plain}{rest}"))
    })
}

/// The line of the first code line above a node after one that used a node-specific keyword
/// (`#@ if/end x:` then `#@ y = 1`), which ytt refuses: only the node may follow. The code
/// lines after the file's last node are above the empty document ytt makes for them.
fn code_after_node_specific(file: &RawFile) -> Option<u32> {
    fn after_node_specific<'a>(comments: impl Iterator<Item = &'a Comment>) -> Option<u32> {
        let mut seen = false;
        for c in comments.filter(|c| !c.is_annotation()) {
            if seen {
                return Some(c.line);
            }
            seen = node_specific(c.text.trim()).is_some();
        }
        None
    }
    file.find_commented(|node| {
        let above = |c: &&Comment| c.line < node.line || node.made_of_trailing_annotations();
        after_node_specific(node.comments.iter().filter(above))
    })
    .or_else(|| after_node_specific(file.trailing_comments.iter()))
}
