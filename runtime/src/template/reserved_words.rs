//! Words that ytt's Starlark and the `starlark` crate reserve differently: `pass`, which ytt
//! refuses wherever it is code, and `assert`, `async` and `await`, names in ytt that the crate
//! reserves (schemac renames them, and names them as written in messages).

/// ytt's error for `pass`: its dialect closes blocks with `end`, and its scanner refuses
/// `pass` wherever it is code (`if x: pass`, `[pass]`).
pub(super) const RESERVED_PASS: &str = "use of reserved keyword 'pass' is not allowed";

/// Where `code` names `pass` (the byte offset), which ytt's scanner refuses as it reaches it:
/// the tokens before it are parsed first.
pub(super) fn pass_position(code: &str) -> Option<usize> {
    super::lexer::first_identifier(code, "pass")
}

/// Names in ytt's Starlark that starlark-rust reserves, and the names schemac gives them.
const RENAMED: [(&str, &str); 3] = [
    ("assert", "assert_"),
    ("async", "async_"),
    ("await", "await_"),
];

/// `assert`, `async` and `await` are reserved words in starlark-rust, names in ytt's code:
/// schemac calls them `assert_`, `async_` and `await_` (not after a `.`).
pub fn rename_reserved_names(code: &str) -> String {
    let mut out = code.to_string();
    for (from, to) in RENAMED {
        // (Checked here too: `rename_identifier` copies a text it leaves as it is.)
        if out.contains(from) {
            out = super::lexer::rename_identifier(&out, from, to);
        }
    }
    out
}

/// The name a renamed identifier has in the ytt source (`assert_` is `assert`), for messages.
pub fn source_name(name: &str) -> &str {
    RENAMED
        .iter()
        .find(|(_, to)| *to == name)
        .map_or(name, |(from, _)| from)
}
