//! A `:` inside a plain scalar of a flow collection, right before `,`, `?`, `[`, `]`, `{` or
//! `}`: go-yaml reads it as part of the scalar (`[a:]` is `["a:"]`, `[http://x:, y]`), while
//! libyaml-safer (a port of a later libyaml) stops there with `found unexpected ':'` and
//! saphyr-parser reads a key (`[{a: null}]`).
//!
//! Where libyaml-safer's scanner stops so, that `:` becomes a character the text holds nowhere
//! (a private-use one), which a plain scalar may hold, and the text is scanned again, until the
//! scanner stops elsewhere or reads it all; the reader reads the patched text and turns the
//! stand-in back into `:`. A text is scanned once more for each such `:`, within the budget
//! [`budget::max_reread_bytes`].

use super::parse::{budget, Patched, SyntaxError};

/// The characters after a `:` that make libyaml-safer stop inside a flow plain scalar.
const FLOW_INDICATORS: [char; 6] = [',', '?', '[', ']', '{', '}'];

/// `src` with the `:`s go-yaml keeps in flow plain scalars patched; `None` when it has none.
pub(super) fn patch(src: &str) -> Result<Option<Patched>, SyntaxError> {
    let candidate = |(i, _): (usize, &str)| {
        src[i + 1..]
            .chars()
            .next()
            .is_some_and(|c| FLOW_INDICATORS.contains(&c))
    };
    if !src.match_indices(':').any(candidate) {
        return Ok(None);
    }
    let Some(stand_in) = ('\u{e000}'..='\u{f8ff}').find(|&c| !src.contains(c)) else {
        return Ok(None);
    };
    let mut text = src.to_string();
    let mut patched = false;
    let mut scanned = 0usize;
    while let Some(at) = unexpected_colon(&text) {
        scanned = scanned.saturating_add(text.len());
        if scanned > budget::max_reread_bytes() {
            let line = 1 + text[..at].matches('\n').count();
            return Err(budget::reread_exceeded(
                "':' before a flow indicator in plain scalars",
                line,
            ));
        }
        text.replace_range(at..at + 1, stand_in.encode_utf8(&mut [0; 4]));
        patched = true;
    }
    Ok(patched.then_some(Patched { text, stand_in }))
}

/// The byte offset of the `:` where libyaml-safer's scanner stops with `found unexpected ':'`.
fn unexpected_colon(text: &str) -> Option<usize> {
    super::libyaml_events::scan_tokens(text, |mut tokens| {
        let error = Iterator::find_map(&mut tokens, Result::err)?;
        let at = usize::try_from(error.problem_mark()?.index).ok()?;
        (error.problem() == "found unexpected ':'" && text.as_bytes().get(at) == Some(&b':'))
            .then_some(at)
    })
    .flatten()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn colons_before_flow_indicators_in_plain_scalars_are_patched() {
        let src = "a: [x:, 'y:]', {k: z:}]\nb: {\"q\":[1]}\nc: v:]\n";
        let p = patch(src).expect("in budget").expect("patched");
        assert_eq!(p.stand_in, '\u{e000}');
        assert_eq!(
            p.text,
            "a: [x\u{e000}, 'y:]', {k: z\u{e000}}]\nb: {\"q\":[1]}\nc: v:]\n"
        );
        assert!(patch("a: {\"q\":[1]}\n").expect("in budget").is_none());
    }
}
