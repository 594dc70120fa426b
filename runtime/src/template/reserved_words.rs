//! `pass`, a word ytt's Starlark reserves and the `starlark` crate does not: ytt refuses it
//! wherever it is code. (`assert`, `async` and `await`, names in ytt, are names in the vendored
//! crate too: `vendor/README.md`.)

/// ytt's error for `pass`: its dialect closes blocks with `end`, and its scanner refuses
/// `pass` wherever it is code (`if x: pass`, `[pass]`).
pub(super) const RESERVED_PASS: &str = "use of reserved keyword 'pass' is not allowed";

/// Where `code` names `pass` (the byte offset), which ytt's scanner refuses as it reaches it:
/// the tokens before it are parsed first.
pub(super) fn pass_position(code: &str) -> Option<usize> {
    super::lexer::first_identifier(code, "pass")
}
