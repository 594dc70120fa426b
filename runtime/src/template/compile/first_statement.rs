//! Where starlark-go takes a `.star` file's program to start: its first statement's span, whose
//! end is that of the last statement of the statement's last body, and so on down. A body with
//! no statement (`def f():` then `end`) has no last one: ytt fails with a Go panic its
//! evaluation recovers, `runtime error: index out of range [-1]`, once the file's names are
//! resolved and before it runs. The last body of an `if` is its `else`'s, unless that is empty,
//! or its `elif`'s (an `if` of its own); of `def`, `for` and `while`, their one body.
//! Templates start with code ytt generates: only a `.star` file's statement is first.

use super::{Block, Compiler};
use crate::template::code_scan::{without_comment, CODE_BLANKS};

/// ytt's error for a `.star` file whose first statement ends in an empty body.
pub const EMPTY_BODY_ENDS_FIRST_STATEMENT: &str = "runtime error: index out of range [-1]";

/// What the statements written so far in a block's body end in.
#[derive(Debug, Default, Clone, Copy)]
pub(super) struct BodyEnd {
    /// Whether the body's last statement ends in an empty body; `None` while the body has no
    /// statement.
    last_ends_empty: Option<bool>,
    /// Of an `else`: whether the branches before it end in an empty body (what the `if` ends in
    /// when the `else`'s own body is empty).
    else_after: Option<bool>,
}

impl BodyEnd {
    /// The body of the `else` after a branch that ended in `before`.
    pub(super) fn of_else(before: &Block) -> BodyEnd {
        BodyEnd {
            else_after: Some(before.body_end.ends_empty()),
            ..BodyEnd::default()
        }
    }

    /// Whether the statement of a block with this body, closed now, ends in an empty body.
    fn ends_empty(self) -> bool {
        match (self.last_ends_empty, self.else_after) {
            (Some(last), _) => last,
            (None, Some(before)) => before,
            (None, None) => true,
        }
    }
}

impl Compiler {
    /// A statement of the file's own (`text`, not an `elif`, `else` or `end`) starts at the
    /// innermost open block's depth.
    pub(super) fn note_statement(&mut self, text: &str) {
        if without_comment(text).trim_matches(CODE_BLANKS).is_empty() {
            return;
        }
        match self.blocks.last_mut() {
            Some(b) => b.body_end.last_ends_empty = Some(false),
            None => self.top_level_statements += 1,
        }
    }

    /// `block`, closed by its `end`, ended the statement that opened it (or its last branch).
    pub(super) fn note_closed(&mut self, block: &Block) {
        let ends_empty = block.body_end.ends_empty();
        match self.blocks.last_mut() {
            Some(b) => b.body_end.last_ends_empty = Some(ends_empty),
            None if self.top_level_statements == 1 => self.first_ends_empty = ends_empty,
            None => {}
        }
    }

    /// Whether the program is a `.star` file's whose first statement ends in an empty body.
    pub(super) fn empty_body_ends_first_statement(&self) -> bool {
        self.star_file && self.first_ends_empty
    }
}
