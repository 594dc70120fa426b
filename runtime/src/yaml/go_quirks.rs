//! What go-yaml reads and libyaml-safer refuses, patched together: the escape `\'` in
//! double-quoted scalars ([`apostrophe`](super::apostrophe)), a `:` before a flow indicator in a
//! flow plain scalar ([`flow_colon`](super::flow_colon)) and `,`, `[` or `]` in a tag
//! ([`tag_uri`](super::tag_uri)).
//!
//! Each patcher checks its guesses with libyaml-safer's scanner, which stops at (or panics on)
//! what the other two patch: `[x:]` before a `"\'"` hid the escape, and `[!x, 1]` before it
//! made the scan panic (valid YAML refused); `[x:]` before a block scalar holding `!x, 1` left
//! that line's guessed tag unchecked, so the block scalar read `!x~ 1` (a wrong value). So each
//! patcher reads the text with the other two's patches made (a patched `:` as
//! [`COLON_TO_SCANNERS`]: the patches of `'` and `,[]` keep every byte where it is, the
//! private-use stand-in of a `:` does not), and the three run again until none changes, at most
//! [`MAX_ROUNDS`] times. The patchers change different characters (`'`, `:`, and `,[]`), so
//! their patches never meet. Every scan of every round counts against one budget,
//! [`budget::max_reread_bytes`](super::parse::budget::max_reread_bytes).

use super::parse::SyntaxError;

/// Rounds of the three patchers: each round after the first reads the text with the others'
/// patches of the round before (two rounds settle every mix the differential tests made; a
/// third shows the second changed nothing).
const MAX_ROUNDS: usize = 4;

/// What a patched `:` is to the other two patchers' scans: a character of plain scalars, as the
/// `:` is to go-yaml there, that ends no token and starts none.
const COLON_TO_SCANNERS: u8 = b'x';

/// The text libyaml-safer reads, and the stand-ins the reader turns back in its values:
/// `(stand-in, original)`.
pub(super) struct LibyamlText {
    pub text: String,
    pub stand_ins: Vec<(char, char)>,
}

/// One round's patches, as byte offsets in the text.
#[derive(Default, PartialEq)]
struct Round {
    /// `'` of `\'` in double-quoted scalars, and the letter of the escape standing for it.
    apostrophes: Vec<(usize, u8)>,
    apostrophe_stand_in: Option<char>,
    /// `,`, `[` and `]` in tags, and their stand-in.
    tags: Vec<(usize, u8)>,
    /// `:` before flow indicators, and the character standing for them.
    colons: Vec<usize>,
    colon_stand_in: Option<char>,
}

/// `src` with go-yaml's three quirks patched for libyaml-safer; `None` where it has none.
pub(super) fn patch(src: &str) -> Result<Option<LibyamlText>, SyntaxError> {
    let mut scanned = 0usize;
    let mut last = Round::default();
    let mut text = None;
    for _ in 0..MAX_ROUNDS {
        let mut next = Round::default();
        let colons = || last.colons.iter().map(|&at| (at, COLON_TO_SCANNERS));
        let view = with_bytes(src, last.tags.iter().copied().chain(colons()));
        if let Some(p) = super::apostrophe::patch(&view, &mut scanned)? {
            next.apostrophes = changed_bytes(&view, &p.text);
            next.apostrophe_stand_in = Some(p.stand_in);
        }
        let view = with_bytes(src, next.apostrophes.iter().copied().chain(colons()));
        if let Some(t) = super::tag_uri::patch(&view, &mut scanned)? {
            next.tags = changed_bytes(&view, &t);
        }
        let view = with_bytes(src, next.apostrophes.iter().chain(&next.tags).copied());
        let colon_patch = super::flow_colon::patch(&view, &mut scanned)?;
        if let Some(p) = &colon_patch {
            next.colons = view
                .char_indices()
                .zip(p.text.chars())
                .filter(|&((_, was), is)| was != is)
                .map(|((at, _), _)| at)
                .collect();
            next.colon_stand_in = Some(p.stand_in);
        }
        text = Some(colon_patch.map_or(view, |p| p.text));
        if next == last {
            break;
        }
        last = next;
    }
    if last == Round::default() {
        return Ok(None);
    }
    let stand_ins = (last.apostrophe_stand_in.iter().map(|&c| (c, '\'')))
        .chain(last.colon_stand_in.iter().map(|&c| (c, ':')))
        .collect();
    Ok(text.map(|text| LibyamlText { text, stand_ins }))
}

/// `src` with the byte at each offset replaced (ASCII for ASCII: still UTF-8).
fn with_bytes(src: &str, patches: impl Iterator<Item = (usize, u8)>) -> String {
    let mut bytes = src.as_bytes().to_vec();
    for (at, b) in patches {
        bytes[at] = b;
    }
    String::from_utf8(bytes).unwrap_or_else(|_| src.to_string())
}

/// The bytes of `patched` that differ from `base` (of the same length), with their offsets.
fn changed_bytes(base: &str, patched: &str) -> Vec<(usize, u8)> {
    let pairs = base.bytes().zip(patched.bytes()).enumerate();
    pairs
        .filter(|(_, (b, p))| b != p)
        .map(|(at, (_, p))| (at, p))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn patched(src: &str) -> String {
        patch(src).expect("in budget").expect("patched").text
    }

    #[test]
    fn a_guessed_tag_after_a_patched_colon_is_checked() {
        // The scan for tags stopped at `[x:]`: the block scalar's `!x, 1` stayed a tag.
        let src = "k0: [!x, 1]\nk1: [x:]\nk2: |\n  !x, 1\n";
        assert_eq!(
            patched(src),
            "k0: [!x~ 1]\nk1: [x\u{e000}]\nk2: |\n  !x, 1\n"
        );
    }

    #[test]
    fn the_escape_after_a_colon_or_a_tag_the_scanner_refuses_is_patched() {
        assert_eq!(
            patched("f: [x:]\nq: \"\\'\"\n"),
            "f: [x\u{e000}]\nq: \"\\a\"\n"
        );
        assert_eq!(
            patched("k0: \"it\\'s\"\nk1: [!x, 1]\n"),
            "k0: \"it\\as\"\nk1: [!x~ 1]\n"
        );
    }

    #[test]
    fn texts_without_the_quirks_are_left() {
        assert!(patch("a: [x, y]\nb: \"q\"\n").expect("in budget").is_none());
    }
}
