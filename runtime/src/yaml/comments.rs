//! Comments given to the nodes that own them, as ytt gives them: a comment belongs to the nodes
//! of the first line at or below it that holds a node, the innermost node when the comment
//! shares the node's line (`key: #@ expr`), the outermost one otherwise (`#@schema/nullable`
//! above `key:`).

use std::ops::ControlFlow;

use super::parse::{Comment, RawNode, RawPlace, RawValue};

/// Attaches comments to nodes the way ytt does; returns the comments no node owns, and whether
/// a node below a document owns one.
///
/// Nodes are numbered in pre-order; each comment finds its owner by the lines of the nodes,
/// and a second walk hands the comments to their owners in file order. `lines_in_order`: no
/// node starts on a line before the node numbered before it (no alias copies an earlier
/// node), so the numbering stops past the nodes a comment can find.
pub(super) fn attach_comments(
    docs: &mut [RawNode],
    comments: Vec<Comment>,
    first_explicit: bool,
    lines_in_order: bool,
) -> (Vec<Comment>, bool) {
    let Some(last_comment) = comments.iter().map(|c| c.line).max() else {
        return (Vec::new(), false);
    };
    // The lines and pre-order numbers of the nodes a comment can find, sorted: the nodes of
    // a line, outermost first.
    let mut lines = NodeLines::new(last_comment, lines_in_order);
    let mut number = 0;
    for (i, doc) in docs.iter().enumerate() {
        // ytt does not know the line of an implicit first document when it places comments.
        let skip_root = i == 0 && !first_explicit;
        if number_lines(doc, skip_root, &mut number, &mut lines).is_break() {
            break;
        }
    }
    let lines = lines.sorted();

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
    let mut below_documents = false;
    for doc in docs.iter_mut() {
        hand_out(doc, &mut number, &mut owned, &mut below_documents);
    }
    (trailing, below_documents)
}

/// The `(line, pre-order number)` of the nodes that a comment on a line up to `last_comment`
/// can be given to: every node on such a line, and the nodes of the first line after it. The
/// others are never looked at (a comment goes to a node on its own line, or else to the
/// first node after it), so a large file's nodes are numbered without being kept: their list
/// was 8 bytes a node, grown by doubling (BENCHMARKS.md, "Fortieth session").
struct NodeLines {
    last_comment: u32,
    /// The nodes come in the order of their lines: the first past the line of `after` ends
    /// what a comment can find.
    lines_in_order: bool,
    /// The nodes on the comments' lines.
    within: Vec<(u32, u32)>,
    /// The nodes on the first line after `last_comment` seen so far.
    after: Vec<(u32, u32)>,
}

impl NodeLines {
    fn new(last_comment: u32, lines_in_order: bool) -> NodeLines {
        NodeLines {
            last_comment,
            lines_in_order,
            within: Vec::new(),
            after: Vec::new(),
        }
    }

    /// Notes a node; `Break` when no node after it can be found by a comment.
    #[inline]
    fn push(&mut self, line: u32, number: u32) -> ControlFlow<()> {
        if line <= self.last_comment {
            self.within.push((line, number));
        } else {
            match self.after.first() {
                Some(&(first, _)) if line > first && self.lines_in_order => {
                    return ControlFlow::Break(())
                }
                Some(&(first, _)) if line > first => {}
                Some(&(first, _)) if line == first => self.after.push((line, number)),
                _ => {
                    self.after.clear();
                    self.after.push((line, number));
                }
            }
        }
        ControlFlow::Continue(())
    }

    /// The nodes kept, by line then number.
    fn sorted(mut self) -> Vec<(u32, u32)> {
        self.within.append(&mut self.after);
        self.within.sort_unstable();
        self.within
    }
}

/// Numbers `node` and its descendants in pre-order from `*number`, noting their lines, until
/// [`NodeLines::push`] says no later node can own a comment.
fn number_lines(
    node: &RawNode,
    skip: bool,
    number: &mut u32,
    lines: &mut NodeLines,
) -> ControlFlow<()> {
    if !skip {
        lines.push(node.line, *number)?;
    }
    *number += 1;
    if let RawValue::Map(items) | RawValue::Array(items) = &node.value {
        for child in items {
            number_lines(child, false, number, lines)?;
        }
    }
    ControlFlow::Continue(())
}

/// Gives the nodes numbered as [`number_lines`] did the comments they own (sorted by owner);
/// sets `below_documents` when a node that is not a document gets one.
fn hand_out(
    node: &mut RawNode,
    number: &mut u32,
    owned: &mut std::iter::Peekable<impl Iterator<Item = (u32, Comment)>>,
    below_documents: &mut bool,
) {
    while let Some((_, comment)) = owned.next_if(|(owner, _)| owner == number) {
        node.comments.push(comment);
        *below_documents |= node.place != RawPlace::Document;
    }
    *number += 1;
    if owned.peek().is_none() {
        return;
    }
    if let RawValue::Map(items) | RawValue::Array(items) = &mut node.value {
        for child in items {
            hand_out(child, number, owned, below_documents);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::super::parse::{parse_file, RawValue};

    #[test]
    fn a_comment_goes_to_the_first_line_below_it_that_holds_a_node() {
        // The comments' last line is 4: the nodes after it are numbered, not kept, and the
        // first line after it (5) still owns the comment of line 4.
        let src = "a:\n  #@ one\n  b: 1 #@ two\n  #@ three\n  c: [1, 2]\n  d: 3\ne: 4\n";
        let f = parse_file("t.yml", src, false).unwrap();
        let RawValue::Map(top) = &f.docs[0].value else {
            panic!("map expected")
        };
        let RawValue::Map(a) = &top[0].value else {
            panic!("map expected")
        };
        let texts =
            |i: usize| -> Vec<&str> { a[i].comments.iter().map(|c| c.text.as_str()).collect() };
        assert_eq!(texts(0), [" one", " two"]);
        assert_eq!(texts(1), [" three"]);
        assert!(a[2].comments.is_empty() && top[1].comments.is_empty());
        assert!(f.trailing_comments.is_empty() && f.comments_below_documents);
    }
}
