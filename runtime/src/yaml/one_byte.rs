//! Texts past ASCII as libyaml-safer reads them like go-yaml: libyaml-safer counts a simple
//! key's 1,024 characters in bytes, go-yaml in characters (a key of 600 `é` was refused). Such a
//! text is read with each character libyaml takes as plain text one byte long ([`STAND_IN`]),
//! and the characters are put back in the scalars read ([`restore`]).

use saphyr_parser::{Event, Span};

/// What a character past ASCII becomes: like them, text in every token, starting or ending none.
const STAND_IN: char = '^';

/// Whether `c` is a character past ASCII that libyaml takes as text (printable, no line break,
/// no byte-order mark).
fn is_text_past_ascii(c: char) -> bool {
    matches!(c, '\u{a0}'..='\u{d7ff}' | '\u{e000}'..='\u{fefe}' | '\u{ff00}'..='\u{fffd}' | '\u{10000}'..)
        && !matches!(c, '\u{2028}' | '\u{2029}')
}

/// `src` with each character [`is_text_past_ascii`] but those of `keep` (the reader's own
/// stand-ins) replaced by [`STAND_IN`]: the same characters, one byte each.
pub(super) fn one_byte_characters(src: &str, keep: &[char]) -> String {
    src.chars()
        .map(|c| match is_text_past_ascii(c) && !keep.contains(&c) {
            true => STAND_IN,
            false => c,
        })
        .collect()
}

/// Whether the scalars of `src` read as [`one_byte_characters`] can have their characters put
/// back: no [`STAND_IN`] of its own, written or escaped ([`escapes_stand_in`]).
pub(super) fn restorable(src: &str) -> bool {
    !src.contains(STAND_IN) && !escapes_stand_in(src)
}

/// Whether `src` holds an escape a double-quoted scalar reads as [`STAND_IN`]: `\x5e`,
/// `\u005e` or `\U0000005e`, hex digits in either case (anywhere: a `\` escaped before it, or
/// one outside a double-quoted scalar, only costs the one-byte reading; a hex digest's `5e`
/// does not).
fn escapes_stand_in(src: &str) -> bool {
    let bytes = src.as_bytes();
    memchr::memchr_iter(b'\\', bytes).any(|at| {
        let digits = match bytes.get(at + 1) {
            Some(b'x') => 2,
            Some(b'u') => 4,
            Some(b'U') => 8,
            _ => return false,
        };
        bytes.get(at + 2..at + 2 + digits).is_some_and(|hex| {
            let (zeros, last) = hex.split_at(digits - 2);
            zeros.iter().all(|&b| b == b'0') && last.eq_ignore_ascii_case(b"5e")
        })
    })
}

/// Puts the characters of `src` back in the scalars of `events`, read from its
/// [`one_byte_characters`] (whose character positions are `src`'s): each scalar's stand-ins are
/// the characters past ASCII of its span, in order. `None` where they are not (a comment after
/// a block scalar's header holds some).
pub(super) fn restore(
    src: &str,
    keep: &[char],
    events: &mut [(Event<'static>, Span)],
) -> Option<()> {
    let chars: Vec<char> = src.chars().collect();
    for (event, span) in events {
        let Event::Scalar(value, ..) = event else {
            continue;
        };
        if !value.contains(STAND_IN) {
            continue;
        }
        let text = chars.get(span.start.index()..span.end.index())?;
        let mut originals =
            (text.iter().copied()).filter(|&c| is_text_past_ascii(c) && !keep.contains(&c));
        let restored: Option<String> = value
            .chars()
            .map(|c| match c {
                STAND_IN => originals.next(),
                c => Some(c),
            })
            .collect();
        if originals.next().is_some() {
            return None;
        }
        *value = restored?.into();
    }
    Some(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn read(src: &str) -> Option<Vec<String>> {
        let one_byte = one_byte_characters(src, &[]);
        let mut events = super::super::libyaml_events::read(&one_byte, &[], usize::MAX)?;
        restore(src, &[], &mut events)?;
        let scalars = events.into_iter().filter_map(|(e, _)| match e {
            Event::Scalar(value, ..) => Some(value.into_owned()),
            _ => None,
        });
        Some(scalars.collect())
    }

    #[test]
    fn characters_past_ascii_are_put_back_in_their_scalars() {
        let key = "é".repeat(600);
        let src = format!("{key}: \"ü\\u00e9x\"\nb: |\n  中文\n  😀\nc: [x, ö]\n");
        let scalars = read(&src).expect("read");
        assert_eq!(scalars, [&key, "üéx", "b", "中文\n😀\n", "c", "x", "ö"]);
        // libyaml-safer refuses the key as written (600 characters, 1,200 bytes).
        assert!(super::super::libyaml_events::read(&src, &[], usize::MAX).is_none());
    }

    #[test]
    fn a_comment_inside_a_scalar_span_is_no_guess() {
        assert!(read("a: |  # é\n  ü\n").is_none());
        assert!(!restorable("a: ^x\n"));
        assert!(!restorable("a: \"\\x5e é\"\n"));
    }

    #[test]
    fn only_an_escape_of_the_stand_in_gives_up() {
        for escape in [
            "\\x5e",
            "\\x5E",
            "\\u005e",
            "\\u005E",
            "\\U0000005e",
            "\\U0000005E",
        ] {
            assert!(!restorable(&format!("a: \"{escape} é\"\n")), "{escape}");
        }
        for text in [
            "5e", "5E", "\\x5", "\\u5e", "\\U005e", "\\x5f", "\\v5e", "\\u00e9",
        ] {
            assert!(
                restorable(&format!("a: \"{text} é\"\nd: sha256:5e0c\n")),
                "{text}"
            );
        }
    }
}
