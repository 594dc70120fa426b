//! The escape `\'` in double-quoted scalars, which go-yaml reads as `'` (`"it\'s"` is `it's`,
//! an escape libyaml had and go-yaml kept) and which neither libyaml-safer nor saphyr-parser
//! knows: both refuse the text (`found unknown escape character`).
//!
//! The escape cannot be rewritten blindly, since `\'` is two characters everywhere else (`'C:\'`
//! is a single-quoted scalar ending in a backslash). So every `\'` that starts an escape (not
//! the second backslash of `\\`) becomes a two-character escape that libyaml-safer knows and
//! that nothing else in the text makes (the *stand-in*, `\a` for example), and libyaml-safer's
//! scanner reads the text: a stand-in inside a double-quoted scalar stays; one in a plain or
//! block scalar or a comment goes back to `\'` (which changes no token); one in a single-quoted
//! scalar goes back too and the text is scanned again, since the scalar ended there and what
//! follows reads otherwise. Up to that stand-in the scan read the text as go-yaml reads it. The
//! reader reads the patched text (positions are unchanged) and turns the stand-in's character
//! back into `'`.
//!
//! A text is scanned once more for each `\'` of a single-quoted scalar that was guessed to be in
//! a double-quoted one (the guesses after it are made again, knowing that the scalar ends
//! there): the bytes scanned are bounded by a named budget, [`budget::max_reread_bytes`].

use std::collections::HashSet;

use libyaml_safer::{ScalarStyle, TokenData};

use super::parse::{budget, Patched, SyntaxError};

/// Escapes libyaml reads, with the character they stand for, tried in turn as the stand-in.
const STAND_INS: [(char, char); 10] = [
    ('a', '\x07'),
    ('e', '\x1b'),
    ('v', '\x0b'),
    ('f', '\x0c'),
    ('b', '\x08'),
    ('0', '\0'),
    ('N', '\u{85}'),
    ('_', '\u{a0}'),
    ('L', '\u{2028}'),
    ('P', '\u{2029}'),
];

/// `src` with the `\'` escapes of its double-quoted scalars patched; `None` when it has none
/// (or when every stand-in's character occurs in `src`, where the scanner's error stays).
pub(super) fn patch(src: &str, scanned: &mut usize) -> Result<Option<Patched>, SyntaxError> {
    if !src.contains("\\'") {
        return Ok(None);
    }
    let Some((escape, stand_in)) = free_stand_in(src) else {
        return Ok(None);
    };
    let mut text = src.as_bytes().to_vec();
    let mut quotes: Vec<usize> = Vec::new();
    guess_from(
        src.as_bytes(),
        0,
        None,
        &mut quotes,
        &mut text,
        escape as u8,
    );
    // The quotes before `settled` are known; `probe` is a stand-in taken back to test it.
    let mut settled = 0;
    let mut probe: Option<usize> = None;
    loop {
        *scanned = scanned.saturating_add(text.len());
        if *scanned > budget::max_reread_bytes() {
            let at = quotes.get(settled).copied().unwrap_or(0);
            let line = 1 + text[..at].iter().filter(|&&b| b == b'\n').count();
            return Err(budget::reread_exceeded(
                "the escape \\' in double-quoted scalars",
                line,
            ));
        }
        // Only ASCII bytes changed to ASCII bytes: the text is still UTF-8.
        let Some(scan) = std::str::from_utf8(&text).ok().and_then(scan) else {
            return Ok(None);
        };
        // A `\'` in a double-quoted scalar is the scanner's unknown escape; elsewhere the scan
        // passes it.
        let in_double = |q: usize| scan.unknown_escape == Some(q - 1);
        if let Some(q) = probe.take() {
            settled += 1;
            if in_double(q) {
                text[q] = escape as u8;
                continue;
            }
        }
        let mut scalar = scan.scalars.iter().peekable();
        let mut again = false;
        while let Some(&q) = quotes.get(settled) {
            let patched = text[q] != b'\'';
            if q >= scan.read_up_to {
                // Not read: the scan stopped before (the scanner reads ahead of the tokens it
                // hands out). A stand-in there is tested alone; a `\'` there is in a
                // double-quoted scalar if the scan stopped at it, else it is after an error
                // and stays as it is, with the rest.
                if patched {
                    text[q] = b'\'';
                    probe = Some(q);
                    again = true;
                } else if in_double(q) {
                    text[q] = escape as u8;
                    again = true;
                } else {
                    settled = quotes.len();
                }
                break;
            }
            while scalar.next_if(|s| s.1 <= q).is_some() {}
            let in_scalar = scalar.peek().filter(|s| s.0 < q);
            settled += 1;
            if !patched || in_scalar.is_some_and(|s| s.2) {
                continue;
            }
            // In a plain or block scalar or a comment, `\'` changes no token; in a
            // single-quoted scalar it ends the scalar, and the rest reads otherwise: the
            // guesses after it, made where a quote was believed open, are made again from
            // there (else each `\'` of single-quoted scalars after a `"` left open in a block
            // scalar was a scan of the whole text: 40 in a file of 2 MB passed the budget).
            text[q] = b'\'';
            if in_scalar.is_some() {
                for &later in &quotes[settled..] {
                    text[later] = b'\'';
                }
                quotes.truncate(settled);
                guess_from(
                    src.as_bytes(),
                    q,
                    Some(b'\''),
                    &mut quotes,
                    &mut text,
                    escape as u8,
                );
                again = true;
                break;
            }
        }
        if !again {
            break;
        }
    }
    if !quotes.iter().any(|&q| text[q] != b'\'') {
        return Ok(None);
    }
    Ok(String::from_utf8(text)
        .ok()
        .map(|text| Patched { text, stand_in }))
}

/// The first guesses of [`patch`] as `(offset, byte)`: each `'` of a `\'` guessed to be in a
/// double-quoted scalar, as the escape `\a` (what the other patchers' scans read before
/// [`patch`] has checked them).
pub(super) fn guesses(src: &str) -> Vec<(usize, u8)> {
    let quotes = guess_double_quoted(src.as_bytes(), 0, None).into_iter();
    quotes
        .filter(|&(_, double)| double)
        .map(|(q, _)| (q, b'a'))
        .collect()
}

/// Adds to `quotes` the `'` of every `\'` from `from` on (in `src`, where the quote `open` is
/// open at `from`) that starts an escape, and patches in `text` those guessed to be in a
/// double-quoted scalar with `escape` ([`guess_double_quoted`]).
fn guess_from(
    src: &[u8],
    from: usize,
    open: Option<u8>,
    quotes: &mut Vec<usize>,
    text: &mut [u8],
    escape: u8,
) {
    for (q, double) in guess_double_quoted(src, from, open) {
        if double {
            text[q] = escape;
        }
        quotes.push(q);
    }
}

/// The `'` of every `\'` from `from` on that starts an escape (not the second backslash of
/// `\\`), with a first guess of whether it is in a double-quoted scalar, from the quotes that
/// start where a scalar may start (after a blank, `[`, `{`, `,` or `:`), comments and lines
/// that start at column 0, where `open` is the quote open at `from`; the scanner checks the
/// guess, which saves reading the text again for each quoted scalar.
fn guess_double_quoted(text: &[u8], from: usize, open: Option<u8>) -> Vec<(usize, bool)> {
    let mut quotes = Vec::new();
    let mut open = open;
    let mut i = from;
    while let Some(&b) = text.get(i) {
        let starts = i == 0
            || matches!(
                text[i - 1],
                b' ' | b'\t' | b'\n' | b'[' | b'{' | b',' | b':'
            );
        // A line at column 0 that starts as a key, an item or a comment would: a quote left
        // open (in a block scalar, or a plain one: `don't`) is no longer believed.
        let line_start = i == 0 || text[i - 1] == b'\n';
        if line_start && (b.is_ascii_alphanumeric() || matches!(b, b'-' | b'#')) {
            open = None;
        }
        match (open, b) {
            (_, b'\\') if open != Some(b'\'') => {
                if text.get(i + 1) == Some(&b'\'') {
                    quotes.push((i + 1, open == Some(b'"')));
                }
                i += 1;
            }
            (Some(b'\''), b'\\') => {
                if text.get(i + 1) == Some(&b'\'') {
                    quotes.push((i + 1, false));
                }
                if text.get(i + 1) == Some(&b'\\') {
                    i += 1;
                }
            }
            (Some(b'\''), b'\'') if text.get(i + 1) == Some(&b'\'') => i += 1,
            (Some(q), _) if q == b => open = None,
            (None, b'"' | b'\'') if starts => open = Some(b),
            (None, b'#') if starts => {
                while text.get(i + 1).is_some_and(|&c| c != b'\n') {
                    i += 1;
                }
            }
            _ => {}
        }
        i += 1;
    }
    quotes
}

/// What libyaml-safer's scanner reads of a text.
struct Scan {
    /// The quoted scalars it handed out, as byte ranges, with whether each is double-quoted.
    scalars: Vec<(usize, usize, bool)>,
    /// Where the last token it handed out ends: the whole text, unless it found an error.
    read_up_to: usize,
    /// The byte offset of the `\` of the unknown escape that stopped it.
    unknown_escape: Option<usize>,
}

/// What libyaml-safer's scanner reads of `text`; `None` where it panics.
fn scan(text: &str) -> Option<Scan> {
    let offset = |m: libyaml_safer::Mark| usize::try_from(m.index).unwrap_or(usize::MAX);
    super::libyaml_events::scan_tokens(text, |tokens| {
        let mut read = Scan {
            scalars: Vec::new(),
            read_up_to: 0,
            unknown_escape: None,
        };
        for token in tokens {
            match token {
                Ok(token) => {
                    read.read_up_to = offset(token.end_mark);
                    if let TokenData::Scalar { style, .. } = token.data {
                        let double = style == ScalarStyle::DoubleQuoted;
                        if double || style == ScalarStyle::SingleQuoted {
                            let span = (offset(token.start_mark), read.read_up_to, double);
                            read.scalars.push(span);
                        }
                    }
                }
                Err(e) => {
                    if e.problem() == "found unknown escape character" {
                        read.unknown_escape = e.problem_mark().map(offset);
                    }
                    break;
                }
            }
        }
        read
    })
}

/// The first stand-in whose character neither occurs in `src` nor can be written by an escape
/// there (`\a`, `\x07`, `\u0007`...).
fn free_stand_in(src: &str) -> Option<(char, char)> {
    let mut taken: HashSet<char> = src.chars().collect();
    let bytes = src.as_bytes();
    for (i, _) in src.match_indices('\\') {
        let Some(&kind) = bytes.get(i + 1) else {
            continue;
        };
        if let Some(&(_, c)) = STAND_INS.iter().find(|(e, _)| *e as u8 == kind) {
            taken.insert(c);
        }
        let digits = match kind {
            b'x' => 2,
            b'u' => 4,
            b'U' => 8,
            _ => continue,
        };
        let hex = src.get(i + 2..i + 2 + digits).unwrap_or_default();
        if let Some(c) = u32::from_str_radix(hex, 16).ok().and_then(char::from_u32) {
            taken.insert(c);
        }
    }
    STAND_INS.into_iter().find(|(_, c)| !taken.contains(c))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_double_quoted_scalars_are_patched() {
        let src = "a: \"it\\'s\"\nb: 'c:\\'\nc: x\\'y\nd: [\"\\'\", 'q\\']\n";
        let p = patch(src, &mut 0).expect("in budget").expect("patched");
        assert_eq!(
            p.text,
            "a: \"it\\as\"\nb: 'c:\\'\nc: x\\'y\nd: [\"\\a\", 'q\\']\n"
        );
        assert_eq!(p.stand_in, '\x07');
    }

    #[test]
    fn the_stand_in_is_no_character_of_the_text() {
        let src = "a: \"\\a\\x1B\\u000b \\f \\'\"\n";
        let p = patch(src, &mut 0).expect("in budget").expect("patched");
        assert_eq!(p.stand_in, '\x08');
        assert_eq!(p.text, "a: \"\\a\\x1B\\u000b \\f \\b\"\n");
    }

    #[test]
    fn a_single_quoted_scalar_ending_in_a_backslash_is_read_again() {
        let src = "a: 'C:\\'\nb: \"it\\'s\" # it\\'s\nc: ['\\', \"\\\\'\\'\"]\n";
        let p = patch(src, &mut 0).expect("in budget").expect("patched");
        assert_eq!(
            p.text,
            "a: 'C:\\'\nb: \"it\\as\" # it\\'s\nc: ['\\', \"\\\\'\\a\"]\n"
        );
    }

    #[test]
    fn quotes_the_scanner_read_past_are_tested_one_by_one() {
        // Stand-ins that end single-quoted scalars make the scanner stop where it reads
        // ahead of what it hands out: such a `\'` is tested alone.
        let src = "k: ['\" x\\', '\" x\\']\nl: [p\\'\\]\nm: \"\\\"\\x07\"\nn: \"\\'\"\n";
        let p = patch(src, &mut 0).expect("in budget").expect("patched");
        assert_eq!(
            p.text,
            "k: ['\" x\\', '\" x\\']\nl: [p\\'\\]\nm: \"\\\"\\x07\"\nn: \"\\e\"\n"
        );
    }

    #[test]
    fn guesses_after_a_quote_left_open_in_a_block_scalar_are_made_again() {
        // Each `'C:\'` after the `"` was guessed double-quoted and a reading of the whole text:
        // 1 MB with 100 of them passed the budget of 64 MiB read again.
        let mut src = String::from("m:\n  big: |\n");
        src.push_str(&"    some text of a block scalar\n".repeat(32_000));
        src.push_str("    say \"hi\n");
        for i in 0..100 {
            src.push_str(&format!("  k{i}: 'C:\\'\n"));
        }
        src.push_str("  q: \"it\\'s\"\n");
        let p = patch(&src, &mut 0).expect("in budget").expect("patched");
        assert_eq!(p.text.replace("it\\as", "it\\'s"), src);
        assert!(p.text.ends_with("  q: \"it\\as\"\n"));
    }

    #[test]
    fn texts_without_the_escape_are_left() {
        for src in ["a: 'x\\'\n", "a: \"x\\q\"\n", "a: b\n", "a: \"\\\\'\"\n"] {
            assert!(patch(src, &mut 0).expect("in budget").is_none(), "{src}");
        }
    }
}
