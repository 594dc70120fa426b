//! A `:` inside a plain scalar of a flow collection, right before `,`, `?`, `[`, `]`, `{` or
//! `}`: go-yaml reads it as part of the scalar (`[a:]` is `["a:"]`, `[http://x:, y]`), while
//! libyaml-safer (a port of a later libyaml) stops there with `found unexpected ':'` and
//! saphyr-parser reads a key (`[{a: null}]`).
//!
//! Where libyaml-safer's scanner stops so, that `:` becomes a character the text holds nowhere
//! (a private-use one), which a plain scalar may hold, and the text is scanned again, until the
//! scanner stops elsewhere or reads it all; the reader reads the patched text and turns the
//! stand-in back into `:`.
//!
//! Scanning the text again for each such `:` made a file of 2 MB with 40 of them pass the budget
//! of bytes read again, so the `:`s are guessed first, as `yaml::tag_uri` guesses tags: each
//! `:` before a flow indicator and after a character that may end a plain scalar's text is
//! patched, and the scanner checks the guesses. A guess in a scalar or a comment is right (in
//! a flow plain scalar the scanner would have stopped there; in any other, the stand-in turns
//! back into `:` and changes no token); one at the start of a token or inside another token (a
//! `:` after a tag or an alias, which is an indicator) was wrong, gets its `:` back, and the
//! text is scanned again; so is a guess past where the scanner stopped at another error, where
//! the text is read as it would be without it. A `:` the guesses missed is patched where the
//! scanner stops at it, as before. A text is scanned once more for each wrong guess and each
//! missed `:`, within the budget [`budget::max_reread_bytes`].

use libyaml_safer::TokenData;

use super::parse::{budget, Patched, SyntaxError};

/// The characters after a `:` that make libyaml-safer stop inside a flow plain scalar.
const FLOW_INDICATORS: [char; 6] = [',', '?', '[', ']', '{', '}'];

/// `src` with the `:`s go-yaml keeps in flow plain scalars patched, and their byte offsets in
/// `src` (in order); `None` when it has none.
pub(super) fn patch(
    src: &str,
    scanned: &mut usize,
) -> Result<Option<(Patched, Vec<usize>)>, SyntaxError> {
    let candidates = candidates(src);
    if candidates.is_empty() {
        return Ok(None);
    }
    let Some(stand_in) = ('\u{e000}'..='\u{f8ff}').find(|&c| !src.contains(c)) else {
        return Ok(None);
    };
    // Byte offsets in `src` of the `:`s patched: the guesses not yet found wrong, and those
    // where the scanner stopped.
    let mut guesses: Vec<usize> = first_guesses(src, &candidates);
    let mut stopped_at: Vec<usize> = Vec::new();
    // The `:` the last scan was for (the budget's error names its line).
    let mut handled = guesses.first().copied().unwrap_or(0);
    loop {
        let mut patched: Vec<usize> = guesses.iter().chain(&stopped_at).copied().collect();
        patched.sort_unstable();
        let text = patched_text(src, &patched, stand_in);
        *scanned = scanned.saturating_add(text.len());
        if *scanned > budget::max_reread_bytes() {
            let line = 1 + src[..handled].matches('\n').count();
            return Err(budget::reread_exceeded(
                "':' before a flow indicator in plain scalars",
                line,
            ));
        }
        // An offset of `text` from one of `src`: each patched `:` before it is longer there.
        let grown = stand_in.len_utf8() - 1;
        let in_text = |at: usize| at + grown * patched.partition_point(|&p| p < at);
        let Some(scan) = scan(&text) else {
            return Ok(None);
        };
        let wrong = |&g: &usize| {
            let at = in_text(g);
            at >= scan.read_up_to || scan.wrong_place(at)
        };
        let (wrong, right): (Vec<usize>, Vec<usize>) = guesses.iter().partition(|g| wrong(g));
        // Guesses before where the scanner stopped are checked first: those after it are read
        // otherwise once the ones before get their `:` back.
        let wrong_before: Vec<usize> = wrong
            .iter()
            .copied()
            .filter(|&g| in_text(g) < scan.read_up_to)
            .collect();
        if let Some(&first) = wrong_before.first() {
            handled = first;
            guesses.retain(|g| !wrong_before.contains(g));
            continue;
        }
        if let Some(at) = scan.unexpected_colon {
            // The scanner's offset in `text`, back to one in `src`.
            let before = patched.partition_point(|&p| in_text(p) < at);
            handled = at - grown * before;
            stopped_at.push(handled);
            continue;
        }
        if wrong.is_empty() {
            return Ok((!patched.is_empty()).then_some((Patched { text, stand_in }, patched)));
        }
        guesses = right;
    }
}

/// The offsets of the `:`s before a flow indicator.
fn candidates(src: &str) -> Vec<usize> {
    let before_indicator = |at: usize| {
        src[at + 1..]
            .chars()
            .next()
            .is_some_and(|c| FLOW_INDICATORS.contains(&c))
    };
    let colons = src.match_indices(':').map(|(at, _)| at);
    colons.filter(|&at| before_indicator(at)).collect()
}

/// The `candidates` guessed to be in a plain scalar: after a character that may end its text.
fn first_guesses(src: &str, candidates: &[usize]) -> Vec<usize> {
    let after_text = |at: usize| at > 0 && may_end_plain_text(src.as_bytes()[at - 1]);
    candidates
        .iter()
        .copied()
        .filter(|&at| after_text(at))
        .collect()
}

/// Whether `src` holds a `:` before a flow indicator (else [`patch`] has nothing to do).
pub(super) fn any(src: &str) -> bool {
    !candidates(src).is_empty()
}

/// The first guesses of [`patch`], the `:`s before a flow indicator guessed to be in a plain
/// scalar (what the other patchers' scans read, as `x`, before [`patch`] has checked them).
pub(super) fn guesses(src: &str) -> Vec<usize> {
    first_guesses(src, &candidates(src))
}

/// Whether a `:` after `b` may be inside a plain scalar: not after a blank, a quote ending a
/// quoted scalar, or a flow indicator, where it is an indicator.
fn may_end_plain_text(b: u8) -> bool {
    !matches!(
        b,
        b' ' | b'\t' | b'\r' | b'\n' | b'"' | b'\'' | b',' | b'[' | b']' | b'{' | b'}'
    )
}

/// `src` with the `:` at each offset of `at` (in order) replaced by `stand_in`.
fn patched_text(src: &str, at: &[usize], stand_in: char) -> String {
    let mut text = String::with_capacity(src.len() + at.len() * stand_in.len_utf8());
    let mut from = 0;
    for &a in at {
        text.push_str(&src[from..a]);
        text.push(stand_in);
        from = a + 1;
    }
    text.push_str(&src[from..]);
    text
}

/// What libyaml-safer's scanner reads of a text.
struct Scan {
    /// The byte ranges of the tokens it handed out other than scalars, and where each scalar
    /// starts.
    not_in_scalars: Vec<(usize, usize)>,
    /// Where the last token it handed out ends: the whole text, unless it found an error.
    read_up_to: usize,
    /// The offset of the `:` where it stopped with `found unexpected ':'`.
    unexpected_colon: Option<usize>,
}

impl Scan {
    /// Whether a guessed `:` at `at` was not in a scalar or a comment: inside a token other
    /// than a scalar, or where one starts.
    fn wrong_place(&self, at: usize) -> bool {
        let after = self.not_in_scalars.partition_point(|&(_, end)| end <= at);
        self.not_in_scalars
            .get(after)
            .is_some_and(|&(start, _)| start <= at)
    }
}

/// What libyaml-safer's scanner reads of `text`; `None` where it panics.
fn scan(text: &str) -> Option<Scan> {
    let offset = |m: libyaml_safer::Mark| usize::try_from(m.index).unwrap_or(usize::MAX);
    super::libyaml_events::scan_tokens(text, |tokens| {
        let mut read = Scan {
            not_in_scalars: Vec::new(),
            read_up_to: 0,
            unexpected_colon: None,
        };
        for token in tokens {
            match token {
                Ok(token) => {
                    let start = offset(token.start_mark);
                    read.read_up_to = offset(token.end_mark);
                    let end = match token.data {
                        TokenData::Scalar { .. } => start + 1,
                        _ => read.read_up_to,
                    };
                    if start < end {
                        read.not_in_scalars.push((start, end));
                    }
                }
                Err(e) => {
                    let at = e.problem_mark().and_then(|m| usize::try_from(m.index).ok());
                    read.unexpected_colon = at.filter(|&at| {
                        e.problem() == "found unexpected ':'"
                            && text.as_bytes().get(at) == Some(&b':')
                    });
                    break;
                }
            }
        }
        read.not_in_scalars.sort_unstable();
        read
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn colons_before_flow_indicators_in_plain_scalars_are_patched() {
        let src = "a: [x:, 'y:]', {k: z:}]\nb: {\"q\":[1]}\nc: v:]\n";
        let (p, at) = patch(src, &mut 0).expect("in budget").expect("patched");
        assert_eq!(p.stand_in, '\u{e000}');
        assert_eq!(at, [5, 10, 20, 41]);
        assert_eq!(
            p.text,
            "a: [x\u{e000}, 'y\u{e000}]', {k: z\u{e000}}]\nb: {\"q\":[1]}\nc: v\u{e000}]\n"
        );
        assert!(patch("a: {\"q\":[1]}\n", &mut 0)
            .expect("in budget")
            .is_none());
    }

    #[test]
    fn guesses_in_tags_and_after_aliases_get_their_colon_back() {
        // A tag holds the `:`; after an alias, it is the value's indicator.
        assert!(patch("a: [!x:, b]\n", &mut 0).expect("in budget").is_none());
        let (p, _) = patch("a: [&x q, *x:, b:]\n", &mut 0)
            .expect("in budget")
            .expect("patched");
        assert_eq!(p.text, "a: [&x q, *x:, b\u{e000}]\n");
    }

    #[test]
    fn many_colons_in_a_long_text_are_found_in_a_few_scans() {
        // Scanned once for each `:`, these 1 MB passed the budget of 64 MiB read again.
        let mut src = String::from("big: |\n");
        src.push_str(&"  some text of a block scalar\n".repeat(32_000));
        for i in 0..100 {
            src.push_str(&format!("k{i}: [x:, {{y: z:}}]\n"));
        }
        let (p, at) = patch(&src, &mut 0).expect("in budget").expect("patched");
        assert_eq!(at.len(), 200);
        assert_eq!(p.text.matches('\u{e000}').count(), 200);
    }
}
