//! `,`, `[` and `]` in a tag's shorthand (`a: !x, 1`, `[!!str, b]`): go-yaml's scanner (a port
//! of an older libyaml) takes them into the tag (`!x,` on `1`, which is the string `"1"`), while
//! libyaml-safer ends the tag there (an error in a block, a panic before a `,` in a flow
//! collection) and saphyr-parser reads another node.
//!
//! A `!` that starts a token, followed by tag characters among which one of those three, is
//! guessed to start a tag: those characters become `~`, a character of tags to both libraries,
//! and libyaml-safer's scanner checks the guesses: a guessed `!` where it hands out no tag (in a
//! scalar or a comment, `[a !b, c]`) gets its characters back and the text is scanned again.
//! The reader reads the patched text (positions are unchanged). The tag it reads keeps the `~`:
//! such a tag is one no library knows either way (a local tag, or `tag:yaml.org,2002:` and a
//! suffix no type has), and go-yaml resolves the node as it would without a tag, so no value
//! changes. A text is scanned once more for each wrong guess, within the budget
//! [`budget::max_reread_bytes`].

use libyaml_safer::TokenData;

use super::parse::{budget, SyntaxError};

/// What go-yaml keeps in a tag's shorthand and libyaml-safer does not.
const KEPT_BY_GO_YAML: [u8; 3] = [b',', b'[', b']'];

/// What stands for them in the text libyaml-safer reads.
const STAND_IN: u8 = b'~';

/// A guessed tag: where its `!` is, and the characters of [`KEPT_BY_GO_YAML`] in it.
struct Guess {
    bang: usize,
    kept: Vec<usize>,
}

/// `src` with the `,`, `[` and `]` of its tags patched; `None` when its tags hold none.
pub(super) fn patch(src: &str, scanned: &mut usize) -> Result<Option<String>, SyntaxError> {
    let mut guesses = guess_tags(src.as_bytes());
    if guesses.is_empty() {
        return Ok(None);
    }
    let mut text = src.as_bytes().to_vec();
    for &k in guesses.iter().flat_map(|g| &g.kept) {
        text[k] = STAND_IN;
    }
    loop {
        *scanned = scanned.saturating_add(text.len());
        if *scanned > budget::max_reread_bytes() {
            let at = guesses.first().map_or(0, |g| g.bang);
            let line = 1 + text[..at].iter().filter(|&&b| b == b'\n').count();
            return Err(budget::reread_exceeded("',', '[' or ']' in tags", line));
        }
        // Only ASCII bytes changed to ASCII bytes: the text is still UTF-8.
        let Some(scan) = std::str::from_utf8(&text).ok().and_then(scan_tags) else {
            return Ok(None);
        };
        // A guess the scan read past without a tag at its `!` was wrong; one after where the
        // scan stopped stays (the error there is the text's either way). A wrong guess changes
        // the token it is in (`[1\n !a,\n!b]`: with `!a,` patched, `!b]` is in the plain
        // scalar `1 !a~ !b~` too; `[1 !a,!b]`), so of the wrong guesses in one token only the
        // first is taken back, the others judged again without it.
        let misread =
            |g: &Guess| g.bang < scan.read_up_to && scan.tags.binary_search(&g.bang).is_err();
        let mut last_token = None;
        let wrong_now: Vec<bool> = guesses
            .iter()
            .map(|g| {
                if !misread(g) {
                    return false;
                }
                let token = scan.token_at(g.bang);
                let first_in_token = token.is_none() || token != last_token;
                last_token = token.or(last_token);
                first_in_token
            })
            .collect();
        let mut now = wrong_now.into_iter();
        let (wrong, kept): (Vec<Guess>, Vec<Guess>) = guesses
            .into_iter()
            .partition(|_| now.next().unwrap_or(false));
        guesses = kept;
        if wrong.is_empty() {
            break;
        }
        // (A character that a guess still standing keeps stays patched.)
        for &k in wrong.iter().flat_map(|g| &g.kept) {
            if !guesses.iter().any(|g| g.kept.contains(&k)) {
                text[k] = src.as_bytes()[k];
            }
        }
        if guesses.is_empty() {
            return Ok(None);
        }
    }
    Ok(String::from_utf8(text).ok())
}

/// The first guesses of [`patch`] as `(offset, byte)` (what the other patchers' scans read
/// before [`patch`] has checked them).
pub(super) fn guesses(src: &str) -> Vec<(usize, u8)> {
    let guesses = guess_tags(src.as_bytes());
    // (Nested guesses share characters.)
    let mut kept: Vec<usize> = guesses
        .iter()
        .flat_map(|g| g.kept.iter().copied())
        .collect();
    kept.sort_unstable();
    kept.dedup();
    kept.into_iter().map(|k| (k, STAND_IN)).collect()
}

/// The characters of a tag's shorthand to go-yaml (libyaml's `IS_ALPHA` and URI characters).
fn is_tag_char(b: u8) -> bool {
    b.is_ascii_alphanumeric() || b"-_;/?:@&=+$.%!~*'()".contains(&b) || KEPT_BY_GO_YAML.contains(&b)
}

/// Every `!` that may start a token (at the start of the text or after a blank, a line break
/// or a flow collection's indicator: `[`, `{`, `,`, `]`, `}`, and `:` and `?`, which need no
/// blank after them there: `[? :!x, 1]`, `{"a":!x]`, `[?!x, a]`, `[[]!x]`; or after a quoted
/// scalar's closing quote, which go-yaml's scanner ends the scalar at: `["q"!x]`), is not a verbatim tag (`!<...>`) and is followed by tag characters that hold a `,`, `[` or
/// `]`.
fn guess_tags(text: &[u8]) -> Vec<Guess> {
    let mut guesses = Vec::new();
    let mut i = 0;
    while let Some(p) = text[i..].iter().position(|&b| b == b'!') {
        let bang = i + p;
        // (NEL, LS and PS are line breaks to go-yaml too.)
        let after_break = ["\u{85}", "\u{2028}", "\u{2029}"]
            .iter()
            .any(|b| text[..bang].ends_with(b.as_bytes()));
        let starts = bang == 0 || b" \t\r\n[{,:?]}\"'".contains(&text[bang - 1]) || after_break;
        let end = bang
            + 1
            + text[bang + 1..]
                .iter()
                .position(|&b| !is_tag_char(b))
                .unwrap_or(text.len() - bang - 1);
        if starts && text.get(bang + 1) != Some(&b'<') {
            let kept: Vec<usize> = (bang + 1..end)
                .filter(|&k| KEPT_BY_GO_YAML.contains(&text[k]))
                .collect();
            if !kept.is_empty() {
                guesses.push(Guess { bang, kept });
            }
        }
        // A `!` after this one may start a token too: after one that starts none
        // (`[x!?!y,z]`: go-yaml's scalar `x!` ends at the `?`), or among a guess's characters
        // if the guess is wrong (`[1\n !a,!b]`: `!a,` is in the plain scalar `1 !a`).
        i = bang + 1;
    }
    guesses
}

/// What libyaml-safer's scanner handed out for a text.
struct Scan {
    /// The byte offsets where it handed out tags, in order.
    tags: Vec<usize>,
    /// Each token's start and end, in order.
    tokens: Vec<(usize, usize)>,
    /// Where the last token it handed out ends.
    read_up_to: usize,
}

impl Scan {
    /// The index of the token holding byte `at`, if any.
    fn token_at(&self, at: usize) -> Option<usize> {
        let i = self
            .tokens
            .partition_point(|&(start, _)| start <= at)
            .checked_sub(1)?;
        (at < self.tokens[i].1).then_some(i)
    }
}

/// The tags and tokens libyaml-safer's scanner hands out in `text`; `None` where it panics.
fn scan_tags(text: &str) -> Option<Scan> {
    let offset = |m: libyaml_safer::Mark| usize::try_from(m.index).unwrap_or(usize::MAX);
    super::libyaml_events::scan_tokens(text, |tokens| {
        let mut scan = Scan {
            tags: Vec::new(),
            tokens: Vec::new(),
            read_up_to: 0,
        };
        for token in Iterator::map_while(tokens, Result::ok) {
            let (start, end) = (offset(token.start_mark), offset(token.end_mark));
            scan.read_up_to = end;
            scan.tokens.push((start, end));
            if let TokenData::Tag { .. } = token.data {
                scan.tags.push(start);
            }
        }
        // The scanner reads the whole text unless it stops at an error.
        scan
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn commas_and_brackets_in_tags_are_patched_and_elsewhere_left() {
        let src = "a: !x, 1\nb: [!!str, c, d !e, f]\ng: \"!h, i\" # !j, k\n";
        let patched = patch(src, &mut 0).expect("in budget").expect("patched");
        assert_eq!(
            patched,
            "a: !x~ 1\nb: [!!str~ c, d !e, f]\ng: \"!h, i\" # !j, k\n"
        );
        // After a flow collection's value indicator a tag starts; inside a plain scalar not.
        let src = "b: [? :!x, 1]\nc: [a:!y, 2]\nd: {\"e\":!!str, f}\n";
        let patched = patch(src, &mut 0).expect("in budget").expect("patched");
        assert_eq!(
            patched,
            "b: [? :!x~ 1]\nc: [a:!y, 2]\nd: {\"e\":!!str~ f}\n"
        );
        let src = "b: [?!x, a]\nc: [[]!y]\n";
        let patched = patch(src, &mut 0).expect("in budget").expect("patched");
        assert_eq!(patched, "b: [?!x~ a]\nc: [[]!y~\n");
        // A tag after a `!` that starts no token (the `?` ends go-yaml's plain scalar `x!`,
        // quoted as `go_error` quotes it).
        let patched = patch("b: ['x!'?!y, z]\n", &mut 0)
            .expect("in budget")
            .expect("patched");
        assert_eq!(patched, "b: ['x!'?!y~ z]\n");
        assert!(patch("a: [!x y, !<z,w> 1]\n", &mut 0)
            .expect("in budget")
            .is_none());
    }
}
