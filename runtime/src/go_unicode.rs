//! Go's `unicode` classes and case mappings as ytt's build has them, where Rust's `char`
//! methods draw them otherwise: ytt is built with Go 1.19, whose tables are **Unicode 13.0.0**
//! (Rust's and the `regex` crate's are later), so a character assigned since (`𖫀`, a Tangsa
//! digit, or `Ⱟ`, Glagolitic) is in no class and has no case, and a case pair completed since
//! (`ɤ` and Unicode 16's `Ꞌ`) is none. Each class is Unicode's general categories by the
//! `regex` crate's tables, cut to what Unicode 13.0 had assigned (`\p{Age=13.0}`).
//!
//! Rules compiled to Rust map case with it too (`lowered::upper`); the rest serves the Starlark
//! interpreter's string methods.
#![cfg_attr(not(feature = "starlark"), allow(dead_code))]

use std::sync::LazyLock;

use regex_syntax::hir::{Class, ClassUnicode, ClassUnicodeRange, HirKind};

/// The characters ytt's Go knows: those Unicode 13.0 had assigned.
pub(crate) const GO_UNICODE: &str = r"\p{Age=13.0}";

/// The ranges of characters of a class (`categories`, a bracketed class's inside) that Go's
/// tables hold, sorted.
struct GoClass(Vec<(char, char)>);

impl GoClass {
    fn new(categories: &str) -> GoClass {
        let pattern = format!("[[{categories}]&&{GO_UNICODE}]");
        let ranges = match regex_syntax::parse(&pattern).map(|hir| hir.into_kind()) {
            Ok(HirKind::Class(Class::Unicode(class))) => class
                .ranges()
                .iter()
                .map(|r| (r.start(), r.end()))
                .collect(),
            _ => Vec::new(),
        };
        GoClass(ranges)
    }

    fn contains(&self, c: char) -> bool {
        self.0
            .binary_search_by(|&(start, end)| {
                if end < c {
                    std::cmp::Ordering::Less
                } else if start > c {
                    std::cmp::Ordering::Greater
                } else {
                    std::cmp::Ordering::Equal
                }
            })
            .is_ok()
    }
}

static ASSIGNED: LazyLock<GoClass> = LazyLock::new(|| GoClass::new(r"\x{0}-\x{10FFFF}"));
static DIGITS: LazyLock<GoClass> = LazyLock::new(|| GoClass::new(r"\p{Nd}"));
static LETTERS: LazyLock<GoClass> = LazyLock::new(|| GoClass::new(r"\p{L}"));
static LOWER: LazyLock<GoClass> = LazyLock::new(|| GoClass::new(r"\p{Ll}"));
static UPPER: LazyLock<GoClass> = LazyLock::new(|| GoClass::new(r"\p{Lu}"));
static TITLE: LazyLock<GoClass> = LazyLock::new(|| GoClass::new(r"\p{Lt}"));
static PRINTABLE: LazyLock<GoClass> = LazyLock::new(|| GoClass::new(r"\p{L}\p{M}\p{N}\p{P}\p{S}"));

/// Go's `unicode.IsPrint` of a character past ASCII: a letter, mark, number, punctuation or
/// symbol (no space, format, control or private-use character, no unassigned code point).
pub(crate) fn printable(c: char) -> bool {
    PRINTABLE.contains(c)
}

/// Go's `unicode.IsLetter` (Unicode's `L`).
pub(crate) fn letter(c: char) -> bool {
    LETTERS.contains(c)
}

/// `s.isdigit()`, `s.isalpha()` or `s.isalnum()` (`method`) as starlark-go answers it: whether
/// `s` is not empty and every character is a digit (Go's `unicode.IsDigit`, Unicode's `Nd`:
/// not `²`, which Rust's `is_numeric` takes), a letter (`unicode.IsLetter`, `L`: not `Ⅳ`,
/// which Rust's `is_alphabetic` takes), or either.
pub(crate) fn all_of_class(method: &str, s: &str) -> bool {
    let of_class = |c: char| match method {
        "isdigit" => DIGITS.contains(c),
        "isalpha" => LETTERS.contains(c),
        _ => LETTERS.contains(c) || DIGITS.contains(c),
    };
    !s.is_empty() && s.chars().all(of_class)
}

/// `to` as Go's case mapping of `from`, or `from` when Go's tables have not both.
fn mapped(from: char, to: char) -> char {
    if from == to || from.is_ascii() || (ASSIGNED.contains(from) && ASSIGNED.contains(to)) {
        to
    } else {
        from
    }
}

/// Go's `unicode.ToUpper`: Unicode's simple mapping, one character for one (a character whose
/// uppercase is more than one stays as it is, `ß`, `ﬁ`, but for the Greek letters with
/// ypogegrammeni, whose simple uppercase is the prosgegrammeni form: `ᾀ` is `ᾈ`).
pub(crate) fn upper(c: char) -> char {
    let simple = match c {
        '\u{1F80}'..='\u{1F87}' | '\u{1F90}'..='\u{1F97}' | '\u{1FA0}'..='\u{1FA7}' => {
            char::from_u32(c as u32 + 8)
        }
        '\u{1FB3}' | '\u{1FC3}' | '\u{1FF3}' => char::from_u32(c as u32 + 9),
        _ => {
            let mut up = c.to_uppercase();
            match (up.next(), up.next()) {
                (Some(u), None) => Some(u),
                _ => None,
            }
        }
    };
    mapped(c, simple.unwrap_or(c))
}

/// Go's `unicode.ToLower` (`İ` becomes `i`).
pub(crate) fn lower(c: char) -> char {
    mapped(c, c.to_lowercase().next().unwrap_or(c))
}

/// Go's `unicode.ToTitle`: the uppercase but for the digraphs that have a title case of their
/// own (`ǅ`, `ǈ`, `ǋ`, `ǲ`) and Georgian's Mkhedruli letters, their own title case (`ა`,
/// whose uppercase is Mtavruli `Ა`).
pub(crate) fn titlecase(c: char) -> char {
    match c {
        '\u{10D0}'..='\u{10FA}' | '\u{10FD}'..='\u{10FF}' => c,
        '\u{1C4}'..='\u{1C6}' => '\u{1C5}',
        '\u{1C7}'..='\u{1C9}' => '\u{1C8}',
        '\u{1CA}'..='\u{1CC}' => '\u{1CB}',
        '\u{1F1}'..='\u{1F3}' => '\u{1F2}',
        c => upper(c),
    }
}

/// starlark-go's `title`: a cased character after a cased one lowercased, any other title-cased.
pub(crate) fn title(s: &str) -> String {
    let mut prev_cased = false;
    s.chars()
        .map(|c| {
            let c = if prev_cased { lower(c) } else { titlecase(c) };
            prev_cased = cased(c);
            c
        })
        .collect()
}

/// Whether `c` has case as starlark-go's `isCasedRune` sees it: an ASCII letter, or one whose
/// `unicode.SimpleFold` is another character (Unicode's simple case folding: `ß` with `ẞ`;
/// not `ª` or `ﬃ`, which fold to nothing else, nor `İ` and `ı`, which fold only by Turkish
/// rules).
pub(crate) fn cased(c: char) -> bool {
    if c.is_ascii() {
        return c.is_ascii_alphabetic();
    }
    // Unicode folded these pairs of characters it had together after 13.0 (`ΐ` with `ΐ`, `ΰ`
    // with `ΰ`, `ﬅ` with `ﬆ`): uncased in Go's tables.
    let folded_later = matches!(
        c,
        '\u{390}' | '\u{3B0}' | '\u{1FD3}' | '\u{1FE3}' | '\u{FB05}' | '\u{FB06}'
    );
    if folded_later || !ASSIGNED.contains(c) {
        return false;
    }
    let mut orbit = ClassUnicode::new([ClassUnicodeRange::new(c, c)]);
    orbit.case_fold_simple();
    orbit
        .ranges()
        .iter()
        .flat_map(|r| r.start()..=r.end())
        .any(|other| other != c && ASSIGNED.contains(other))
}

/// starlark-go's `istitle`: an ASCII capital or title-case letter (Go's `Lt`) only after an
/// uncased character, a lowercase one (`Ll`) only after a cased one, no other uppercase (`Lu`:
/// `"Éa"` is not a title), and some cased character.
pub(crate) fn is_title(s: &str) -> bool {
    let (mut cased, mut prev_cased) = (false, false);
    for c in s.chars() {
        if c.is_ascii_uppercase() || TITLE.contains(c) {
            if prev_cased {
                return false;
            }
            (prev_cased, cased) = (true, true);
        } else if LOWER.contains(c) {
            if !prev_cased {
                return false;
            }
            (prev_cased, cased) = (true, true);
        } else if UPPER.contains(c) {
            return false;
        } else {
            prev_cased = false;
        }
    }
    cased
}
