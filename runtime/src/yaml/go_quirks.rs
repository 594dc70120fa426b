//! What go-yaml reads and libyaml-safer refuses, patched together: the escape `\'` in
//! double-quoted scalars ([`apostrophe`](super::apostrophe)), a `:` before a flow indicator in a
//! flow plain scalar ([`flow_colon`](super::flow_colon)) and `,`, `[` or `]` in a tag
//! ([`tag_uri`](super::tag_uri)).
//!
//! Each patcher checks its guesses with libyaml-safer's scanner, which stops at (or panics on)
//! what the other two patch: `[x:]` before a `"\'"` hid the escape, and `[!x, 1]` before it
//! made the scan panic (valid YAML refused); `[x:]` before a block scalar holding `!x, 1` left
//! that line's guessed tag unchecked, so the block scalar read `!x~ 1` (a wrong value). So each
//! patcher reads the text with the other two's patches made: their first guesses, then what
//! they found in the round before (a patched `:` as [`COLON_TO_SCANNERS`]: the patches of `'`
//! and `,[]` keep every byte where it is, the private-use stand-in of a `:` does not); the three
//! run again until they find what their scans read, at most [`MAX_ROUNDS`] times. The patchers
//! change different characters (`'`, `:`, and `,[]`), so their patches never meet. Every scan
//! of every round counts against one budget,
//! [`budget::max_reread_bytes`](super::parse::budget::max_reread_bytes).

use super::parse::SyntaxError;

/// Rounds of the three patchers: the first reads the text with the others' first guesses, each
/// after it with what they found in the round before; a round whose patches are what its scans
/// read is the last (one or two rounds settle every mix the differential tests made).
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
#[derive(Default)]
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

impl Round {
    fn same_patches(&self, other: &Round) -> bool {
        self.apostrophes == other.apostrophes
            && self.tags == other.tags
            && self.colons == other.colons
    }

    fn is_empty(&self) -> bool {
        self.apostrophes.is_empty() && self.tags.is_empty() && self.colons.is_empty()
    }
}

/// `src` with go-yaml's three quirks patched for libyaml-safer; `None` where it has none.
pub(super) fn patch(src: &str) -> Result<Option<LibyamlText>, SyntaxError> {
    let escapes = src.contains("\\'");
    let tags = super::tag_uri::guesses(src);
    if !escapes && tags.is_empty() && !super::flow_colon::any(src) {
        return Ok(None);
    }
    let mut scanned = 0usize;
    // What each patcher's scan reads of the other two's patches: at first their guesses, then
    // what they found (with the guesses, each pair of a `[x:]` and a `"\'"` after it was a
    // round more). A round that finds what its scans read is the last.
    let mut found = Round {
        apostrophes: match escapes {
            true => super::apostrophe::guesses(src),
            false => Vec::new(),
        },
        tags,
        colons: super::flow_colon::guesses(src),
        ..Round::default()
    };
    let mut text = String::new();
    for _ in 0..MAX_ROUNDS {
        let mut next = Round::default();
        let colons = as_scanned(&found.colons);
        let view = with_bytes(src, found.tags.iter().chain(&colons).copied());
        if let Some(p) = super::apostrophe::patch(&view, &mut scanned)? {
            next.apostrophes = changed_bytes(&view, &p.text);
            next.apostrophe_stand_in = Some(p.stand_in);
        }
        let view = with_bytes(src, next.apostrophes.iter().chain(&colons).copied());
        if let Some(t) = super::tag_uri::patch(&view, &mut scanned)? {
            next.tags = changed_bytes(&view, &t);
        }
        let view = with_bytes(src, next.apostrophes.iter().chain(&next.tags).copied());
        text = match super::flow_colon::patch(&view, &mut scanned)? {
            Some((p, at)) => {
                next.colons = at;
                next.colon_stand_in = Some(p.stand_in);
                p.text
            }
            None => view,
        };
        let settled = next.same_patches(&found);
        found = next;
        if settled {
            break;
        }
    }
    if found.is_empty() {
        return Ok(None);
    }
    let stand_ins = (found.apostrophe_stand_in.iter().map(|&c| (c, '\'')))
        .chain(found.colon_stand_in.iter().map(|&c| (c, ':')))
        .collect();
    Ok(Some(LibyamlText { text, stand_ins }))
}

/// Patched `:`s as the other patchers' scans read them ([`COLON_TO_SCANNERS`]).
fn as_scanned(colons: &[usize]) -> Vec<(usize, u8)> {
    colons.iter().map(|&at| (at, COLON_TO_SCANNERS)).collect()
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
    fn many_pairs_of_colons_and_escapes_settle_in_two_rounds() {
        // Each patcher's scan stopped at the other's first unpatched quirk: a round each.
        let pairs = "x:, \"\\'\", ".repeat(6);
        let src = format!("a: [{pairs}x]\n");
        let text = patched(&src);
        assert_eq!(text.matches('\u{e000}').count(), 6);
        assert_eq!(text.matches("\\a").count(), 6);
    }

    #[test]
    fn escapes_after_a_colon_are_not_scanned_one_by_one() {
        // Each escape after the scan's stop at `[x:]` was tested alone: 5,000 of them in
        // 35 KB passed the budget of 64 MiB read again.
        let src = format!("a:\n- [x:]\n{}", "- \"\\'\"\n".repeat(5000));
        let text = patch(&src).expect("in budget").expect("patched").text;
        assert_eq!(text.matches("\\a").count(), 5000);
    }

    #[test]
    fn a_block_scalar_at_the_end_without_a_line_break_stops_no_scan() {
        assert_eq!(patched("- [!x, y]\n- |\n  w"), "- [!x~ y]\n- |\n  w");
        assert_eq!(patched("- [x:]\n- >\n  w"), "- [x\u{e000}]\n- >\n  w");
    }

    #[test]
    fn texts_without_the_quirks_are_left() {
        assert!(patch("a: [x, y]\nb: \"q\"\n").expect("in budget").is_none());
    }
}
