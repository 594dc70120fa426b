//! Go's `unicode` classes, where Rust's `char` methods draw them otherwise: a regular
//! expression of Unicode's general categories, compiled once.

use std::sync::LazyLock;

use regex::Regex;

fn class(pattern: &str) -> Option<Regex> {
    Regex::new(pattern).ok()
}

/// Go's `unicode.IsPrint` of a character past ASCII: a letter, mark, number, punctuation or
/// symbol (no space, format, control or private-use character, no unassigned code point).
pub(super) fn printable(c: char) -> bool {
    static PRINTABLE: LazyLock<Option<Regex>> =
        LazyLock::new(|| class(r"\A[\p{L}\p{M}\p{N}\p{P}\p{S}]\z"));
    PRINTABLE
        .as_ref()
        .is_some_and(|re| re.is_match(c.encode_utf8(&mut [0; 4])))
}

/// `s.isdigit()`, `s.isalpha()` or `s.isalnum()` (`method`) as starlark-go answers it: whether
/// `s` is not empty and every character is a digit (Go's `unicode.IsDigit`, Unicode's `Nd`:
/// not `²`, which Rust's `is_numeric` takes), a letter (`unicode.IsLetter`, `L`: not `Ⅳ`,
/// which Rust's `is_alphabetic` takes), or either.
pub(super) fn all_of_class(method: &str, s: &str) -> bool {
    static DIGITS: LazyLock<Option<Regex>> = LazyLock::new(|| class(r"\A\p{Nd}+\z"));
    static LETTERS: LazyLock<Option<Regex>> = LazyLock::new(|| class(r"\A\p{L}+\z"));
    static EITHER: LazyLock<Option<Regex>> = LazyLock::new(|| class(r"\A[\p{L}\p{Nd}]+\z"));
    let re = match method {
        "isdigit" => &DIGITS,
        "isalpha" => &LETTERS,
        _ => &EITHER,
    };
    re.as_ref().is_some_and(|re| re.is_match(s))
}
