//! starlark-go's spelling hint (`spell.Nearest`), which ytt also uses for a key a schema does
//! not declare (`did you mean "name"?`).

/// The candidate nearest to `name`, underscores dropped and case folded, in fewer byte edits
/// than half its length (Levenshtein); ties go to the first candidate.
pub(crate) fn nearest<'a>(name: &str, candidates: &[&'a str]) -> Option<&'a str> {
    let fold = |s: &str| -> Vec<u8> {
        s.chars()
            .filter(|&c| c != '_')
            .flat_map(char::to_lowercase)
            .collect::<String>()
            .into_bytes()
    };
    let x = fold(name);
    let mut best = None;
    let mut best_distance = x.len().div_ceil(2); // fewer edits than half the name
    for &c in candidates {
        let d = levenshtein(&x, &fold(c));
        if d < best_distance {
            best_distance = d;
            best = Some(c);
        }
    }
    best
}

/// The Levenshtein edit distance between two byte strings.
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hints_follow_starlark_go() {
        assert_eq!(levenshtein(b"kitten", b"sitting"), 3);
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
}
