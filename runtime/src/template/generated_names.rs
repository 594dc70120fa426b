//! The names a compiled template binds for its own use: the builder functions it calls
//! (`__ytt_start(3)`, `__ytt_set((x))`, ...), the list a text template gathers its pieces in,
//! the loop variable of a `while`, the module variables that keep annotation arguments.
//!
//! ytt's own program names its functions `__ytt_tplN_...`, and a user's code may use any other
//! name, `__ytt_set` or `__ytt_text_pieces` too. So each program gets a prefix that no text of
//! the user's holds (`__ytt_`, else `__ytt1_`, `__ytt2_`, ...: the rule of
//! [`crate::starlark::guard_names`]), chosen when it is compiled ([`GeneratedNames::for_file`],
//! [`GeneratedNames::for_source`]) and kept with it ([`super::compile::Program::names`]): the
//! compiler writes every generated name through it, the runtime binds the builder functions
//! under it, and every reader of the program (error lines, stack frames, the rule compiler)
//! recognises the names through it.
//!
//! Each name is given by its suffix ([`START`], [`SET`], ...), the name it has with the
//! canonical prefix `__ytt_` being `__ytt_` + suffix.

use crate::value::Value;
use crate::yaml::parse::{RawFile, RawNode, RawValue};

/// The stem of every prefix (`__ytt` + a number, if any, + `_`).
const STEM: &str = "__ytt";

/// The prefix of every canonical name (the builder functions' own names).
pub const CANONICAL: &str = "__ytt_";

/// A node starts: `start(ID)`.
pub const START: &str = "start";
/// The innermost node ends.
pub const END: &str = "end";
/// A node's value: `set((EXPR))`.
pub const SET: &str = "set";
/// A map item's key made by a text template.
pub const SET_KEY: &str = "set_key";
/// A value of a text template's `(@= ... @)`.
pub const TEXT: &str = "text";
/// An annotation of the node started last: `ann(AT, "NAME", pack(ARGS))`, `AT` its line or
/// `(LINE, [NAMES], TAG)` (see the builder's `__ytt_ann`).
pub const ANN: &str = "ann";
/// The arguments of an annotation, packed.
pub const PACK: &str = "pack";

/// The start of a function's context.
pub const CTX_START: &str = "ctx_start";
/// The start of the context of a function that builds nodes.
pub const CTX_NODES: &str = "ctx_nodes";
/// The end of a function's context: `return ctx_end((X))`.
pub const CTX_END: &str = "ctx_end";
/// The start of a text template's context (ytt's text context, where `template.replace` is
/// unsupported): `text_start(V)` gives `V` back.
pub const TEXT_START: &str = "text_start";
/// The end of a text template's context: `text_end(V)` gives `V` back.
pub const TEXT_END: &str = "text_end";
/// The list a text template gathers its pieces in.
pub const TEXT_PIECES: &str = "text_pieces";
/// The loop variable of a `while` loop.
pub const WHILE: &str = "while";
/// ytt's start of the empty document that holds the code lines after a file's last node.
pub const START_NODE: &str = "start_node";
/// ytt's value of that document.
pub const SET_NODE: &str = "set_node";
/// The stem of the module variables that keep annotation arguments (`keep_0`, ...).
const KEEP: &str = "keep_";

/// Whether the string of the annotation name written `name` may be another: ytt writes the
/// name between quotes as it is, so a `"` or `\\` in it is Starlark's (`#@x"+"y` is `xy`,
/// `#@overlay\x2fmatch` is `overlay/match`). Such a name's [`ANN`] call has the
/// `(LINE, [NAMES], TAG)` form, which checks the string among the names written.
pub fn ann_name_may_be_another(name: &str) -> bool {
    name.contains(['"', '\\'])
}

/// The line an [`ANN`] call's first argument `at` gives: the literal line, or the first item
/// of `(LINE, [NAMES], TAG)` (see [`ann_name_may_be_another`]).
#[cfg(feature = "starlark")]
pub fn ann_call_line(at: &starlark_syntax::syntax::ast::AstExpr) -> Option<i64> {
    use starlark_syntax::lexer::TokenInt;
    use starlark_syntax::syntax::ast::{AstLiteral, ExprP};
    let at = match &at.node {
        ExprP::Tuple(items) => items.first()?,
        _ => at,
    };
    match &at.node {
        ExprP::Literal(AstLiteral::Int(n)) => match n.node {
            TokenInt::I32(line) => Some(i64::from(line)),
            TokenInt::BigInt(_) => None,
        },
        _ => None,
    }
}

/// The prefix of one program's generated names.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct GeneratedNames {
    prefix: Box<str>,
}

impl Default for GeneratedNames {
    fn default() -> Self {
        GeneratedNames {
            prefix: CANONICAL.into(),
        }
    }
}

impl GeneratedNames {
    /// The names of the program compiled from `file`: a prefix none of its comments, keys or
    /// string values hold (a text template's code is in the last two).
    pub fn for_file(file: &RawFile) -> GeneratedNames {
        let mut texts = Vec::new();
        texts.extend(file.trailing_comments.iter().map(|c| c.text.as_str()));
        let mut nodes: Vec<&RawNode> = file.docs.iter().collect();
        while let Some(node) = nodes.pop() {
            texts.extend(node.comments.iter().map(|c| c.text.as_str()));
            if let Some(key) = node.key_str() {
                texts.push(key);
            }
            match &node.value {
                RawValue::Scalar(Value::Str(s)) => texts.push(s),
                RawValue::Map(items) | RawValue::Array(items) => nodes.extend(items.iter()),
                RawValue::Scalar(_) => {}
            }
        }
        GeneratedNames {
            prefix: free_prefix(texts, STEM).into(),
        }
    }

    /// The names of the program compiled from the Starlark text `source`.
    pub fn for_source(source: &str) -> GeneratedNames {
        GeneratedNames {
            prefix: free_prefix([source], STEM).into(),
        }
    }

    /// The prefix itself (`__ytt_`, `__ytt1_`, ...).
    pub fn prefix(&self) -> &str {
        &self.prefix
    }

    /// The program's name of `suffix` ([`START`] → `__ytt_start`).
    pub fn of(&self, suffix: &str) -> String {
        [&*self.prefix, suffix].concat()
    }

    /// Whether `name` is the program's name of `suffix`.
    pub fn is(&self, name: &str, suffix: &str) -> bool {
        name.strip_prefix(&*self.prefix) == Some(suffix)
    }

    /// Whether the line of code `line` (indentation trimmed) starts with the program's name of
    /// `suffix` followed by `after` (`is_call_line(l, START, "(")`).
    pub fn starts(&self, line: &str, suffix: &str, after: &str) -> bool {
        line.strip_prefix(&*self.prefix)
            .and_then(|rest| rest.strip_prefix(suffix))
            .is_some_and(|rest| rest.starts_with(after))
    }

    /// What `line` holds after the program's name of `suffix` and `after`, when it starts so.
    pub fn strip<'a>(&self, line: &'a str, suffix: &str, after: &str) -> Option<&'a str> {
        line.strip_prefix(&*self.prefix)?
            .strip_prefix(suffix)?
            .strip_prefix(after)
    }

    /// What a `return` statement's value is wrapped in (closed by `))`), which ends the
    /// function's node context: two parentheses, so that `return 1, 2` returns a tuple, not
    /// two arguments.
    pub fn return_value_open(&self) -> String {
        format!("return {}((", self.of(CTX_END))
    }

    /// Whether `code` ends with [`GeneratedNames::return_value_open`] of some program (for a
    /// reader of code that does not know which).
    pub fn ends_with_any_return_value_open(code: &str) -> bool {
        let Some(before) = code.strip_suffix(&format!("_{CTX_END}((")) else {
            return false;
        };
        let digits = before.bytes().rev().take_while(u8::is_ascii_digit).count();
        before[..before.len() - digits].ends_with(&format!("return {STEM}"))
    }

    /// Whether `name` is one of the program's own (no name of the user's code is).
    pub fn is_own(&self, name: &str) -> bool {
        name.starts_with(&*self.prefix)
    }

    /// The module variable that keeps the annotation argument `i`.
    pub fn keep(&self, i: usize) -> String {
        format!("{}{KEEP}{i}", self.prefix)
    }

    /// The suffix of a builder function's own (canonical) name, `__ytt_start` → `start`.
    pub fn canonical_suffix(name: &str) -> Option<&str> {
        name.strip_prefix(CANONICAL)
    }
}

/// The first of `STEM_`, `STEM1_`, `STEM2_`, ... that none of `texts` holds (anywhere: in a
/// name, a string or a comment), so that no name of them starts with it: the prefix of the
/// names a program binds for its own use (the compiler's generated names here, the guards of
/// `crate::starlark::guard_names`). One pass over each text finds every prefix it
/// holds.
pub(crate) fn free_prefix<'a>(texts: impl IntoIterator<Item = &'a str>, stem: &str) -> String {
    let mut canonical_held = false;
    let mut numbers_held = Vec::new();
    for text in texts {
        let bytes = text.as_bytes();
        for at in memchr::memmem::find_iter(bytes, stem.as_bytes()) {
            let rest = &bytes[at + stem.len()..];
            let digits = rest.iter().take_while(|b| b.is_ascii_digit()).count();
            if rest.get(digits) != Some(&b'_') {
                continue;
            }
            match digits {
                0 => canonical_held = true,
                // (`STEM01_` is no prefix this chooses; a number past `usize` neither.)
                _ if rest[0] != b'0' => {
                    if let Some(k) = std::str::from_utf8(&rest[..digits])
                        .ok()
                        .and_then(|d| d.parse::<usize>().ok())
                    {
                        numbers_held.push(k);
                    }
                }
                _ => {}
            }
        }
    }
    if !canonical_held {
        return format!("{stem}_");
    }
    numbers_held.sort_unstable();
    numbers_held.dedup();
    // The first number from 1 that the sorted, distinct numbers held skip.
    let free = numbers_held
        .iter()
        .zip(1..)
        .find(|(held, k)| **held != *k)
        .map_or(numbers_held.len() + 1, |(_, k)| k);
    format!("{stem}{free}_")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn prefix_is_one_no_user_text_holds() {
        let plain = GeneratedNames::for_source("x = 1");
        assert_eq!(plain.of(START), "__ytt_start");
        let names = GeneratedNames::for_source("__ytt_set = 1\n__ytt1_x = 2");
        assert_eq!(names.of(SET), "__ytt2_set");
        assert!(names.is("__ytt2_set", SET));
        assert!(!names.is("__ytt_set", SET));
        assert!(names.starts("__ytt2_start(3)", START, "("));
        assert!(!names.starts("__ytt2_start_node(3)", START, "("));
        assert_eq!(names.strip("__ytt2_start(3)", START, "("), Some("3)"));
        assert_eq!(names.keep(0), "__ytt2_keep_0");
        assert_eq!(names.return_value_open(), "return __ytt2_ctx_end((");
        assert!(GeneratedNames::ends_with_any_return_value_open(
            "x\n  return __ytt2_ctx_end(("
        ));
        assert!(GeneratedNames::ends_with_any_return_value_open(
            "return __ytt_ctx_end(("
        ));
        assert!(!GeneratedNames::ends_with_any_return_value_open(
            "return __ytx_ctx_end(("
        ));
        // ytt's own names hold the stem too.
        let names = GeneratedNames::for_source("__ytt_tpl2_set_node = 1");
        assert_eq!(names.of(SET), "__ytt1_set");
    }

    #[test]
    fn a_file_is_read_in_its_comments_keys_and_strings() {
        let file = crate::yaml::parse::parse_file(
            "t.yml",
            "#@ x = 1\na:\n  b: (@= __ytt1_ @)\n  __ytt_: 1\n",
            false,
        )
        .unwrap();
        assert_eq!(GeneratedNames::for_file(&file).prefix(), "__ytt2_");
        let file =
            crate::yaml::parse::parse_file("t.yml", "#@ __ytt_set = 1\na: 1\n", false).unwrap();
        assert_eq!(GeneratedNames::for_file(&file).prefix(), "__ytt1_");
    }
}
