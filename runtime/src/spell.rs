//! starlark-go's spelling hint (`spell.Nearest`), which ytt also uses for a key a schema does
//! not declare (`did you mean "name"?`).

/// The candidate nearest to `name`, underscores dropped and case folded, in fewer byte edits
/// than half its length (Levenshtein); ties go to the first candidate.
pub(crate) fn nearest<'a>(name: &str, candidates: &[&'a str]) -> Option<&'a str> {
    let mut x = Vec::new();
    fold(name, &mut x);
    let mut y = Vec::new();
    let mut best = None;
    let mut best_distance = x.len().div_ceil(2); // fewer edits than half the name
    for &c in candidates {
        fold(c, &mut y);
        // Only a candidate nearer than the best so far counts (ties go to the first), so the
        // distance is not worked out past that bound: a name among thousands used in a
        // function costs about its length per candidate, not its length squared.
        if let Some(d) = levenshtein_below(&x, &y, best_distance) {
            best_distance = d;
            best = Some(c);
        }
    }
    best
}

/// `s` without underscores and lower-cased, into `out`.
fn fold(s: &str, out: &mut Vec<u8>) {
    out.clear();
    if s.is_ascii() {
        out.extend(
            s.bytes()
                .filter(|&b| b != b'_')
                .map(|b| b.to_ascii_lowercase()),
        );
    } else {
        let folded: String = s
            .chars()
            .filter(|&c| c != '_')
            .flat_map(char::to_lowercase)
            .collect();
        out.extend_from_slice(folded.as_bytes());
    }
}

/// The Levenshtein edit distance between two byte strings if it is below `bound`. Only the
/// cells within `bound` of the diagonal can hold a distance below it, so only they are worked
/// out (the others count as `bound`).
fn levenshtein_below(x: &[u8], y: &[u8], bound: usize) -> Option<usize> {
    if bound == 0 || x.len().abs_diff(y.len()) >= bound {
        return None;
    }
    let mut row: Vec<usize> = (0..=y.len()).map(|j| j.min(bound)).collect();
    for (i, a) in x.iter().enumerate() {
        let i = i + 1;
        let from = i.saturating_sub(bound).max(1);
        let to = (i + bound - 1).min(y.len());
        let mut prev = row[from - 1]; // the cell above-left of the first one worked out
        row[from - 1] = if from == 1 { i.min(bound) } else { bound };
        let mut least = row[from - 1];
        for j in from..=to {
            let substitution = prev + usize::from(*a != y[j - 1]);
            prev = row[j];
            row[j] = substitution.min(row[j - 1] + 1).min(prev + 1).min(bound);
            least = least.min(row[j]);
        }
        if to < y.len() {
            row[to + 1] = bound; // past the band
        }
        // A row's least value never falls in the rows after it.
        if least >= bound {
            return None;
        }
    }
    Some(row[y.len()]).filter(|&d| d < bound)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hints_follow_starlark_go() {
        assert_eq!(levenshtein_below(b"kitten", b"sitting", 4), Some(3));
        assert_eq!(levenshtein_below(b"kitten", b"sitting", 3), None);
        assert_eq!(
            nearest("undefined_name", &["default_name"]),
            Some("default_name")
        );
        assert_eq!(nearest("undefined_fn", &["default_name"]), None);
        // Case and underscores are ignored; a tie goes to the first candidate in byte order.
        assert_eq!(nearest("My_Var", &["myvar"]), Some("myvar"));
        assert_eq!(nearest("abcd", &["abce", "abcf"]), Some("abce"));
        assert_eq!(nearest("ab", &["ac"]), None); // one edit is half of two letters
        assert_eq!(nearest("x", &["y"]), None);
    }

    /// The whole table, for comparison with the banded one.
    fn levenshtein(x: &[u8], y: &[u8]) -> usize {
        let mut row: Vec<usize> = (0..=y.len()).collect();
        for (i, a) in x.iter().enumerate() {
            let mut prev = row[0];
            row[0] = i + 1;
            for (j, b) in y.iter().enumerate() {
                let substitution = prev + usize::from(a != b);
                prev = row[j + 1];
                row[j + 1] = substitution.min(row[j] + 1).min(prev + 1);
            }
        }
        row[y.len()]
    }

    #[test]
    fn the_banded_distance_is_the_whole_tables_below_its_bound() {
        // Every pair of strings over "ab" up to 6 letters, every bound up to 8.
        let words: Vec<Vec<u8>> = (0..=6)
            .flat_map(|len| {
                (0..1u32 << len).map(move |bits| {
                    (0..len)
                        .map(|k| if bits >> k & 1 == 1 { b'a' } else { b'b' })
                        .collect()
                })
            })
            .collect();
        for x in &words {
            for y in &words {
                let d = levenshtein(x, y);
                for bound in 0..=8 {
                    let expected = Some(d).filter(|&d| d < bound);
                    assert_eq!(
                        levenshtein_below(x, y, bound),
                        expected,
                        "{x:?} {y:?} {bound}"
                    );
                }
            }
        }
    }
}
