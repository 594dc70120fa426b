//! Unit tests of `syntax.rs`: Go's errors and the text written for the crate.

use super::syntax::go_syntax;

fn error(p: &str) -> String {
    go_syntax(p).unwrap_err().1
}

#[test]
fn escapes_go_refuses_in_its_words() {
    assert_eq!(error(r"\u00e9"), r"invalid escape sequence: `\u`");
    assert_eq!(error(r"[\b]"), r"invalid escape sequence: `\b`");
    assert_eq!(error(r"a\xb"), r"invalid escape sequence: `\xb`");
    assert_eq!(error(r"[\x]"), r"invalid escape sequence: `\x]`");
    assert_eq!(
        error(r"\x{110000}"),
        r"invalid escape sequence: `\x{110000`"
    );
    assert_eq!(error(r"\x{}"), r"invalid escape sequence: `\x{}`");
    assert_eq!(error(r"\1"), r"invalid escape sequence: `\1`");
    assert_eq!(error(r"\é"), r"invalid escape sequence: `\é`");
    assert_eq!(error(r"a\"), "trailing backslash at end of expression: ``");
    assert_eq!(
        error(r"\p{Letter}"),
        r"invalid character class range: `\p{Letter}`"
    );
    assert_eq!(
        error(r"\p{Grek}"),
        r"invalid character class range: `\p{Grek}`"
    );
    assert_eq!(
        error(r"[\p{Greek]"),
        r"invalid character class range: `\p{Greek]`"
    );
    assert_eq!(error(r"\p"), r"invalid character class range: `\p`");
    assert_eq!(
        error(r"a[[:foo:]]"),
        "invalid character class range: `[:foo:]`"
    );
    assert_eq!(go_syntax(r"a[[:foo:]]").unwrap_err().0, 2);
    assert_eq!(
        error("{2}"),
        "missing argument to repetition operator: `{2}`"
    );
    assert_eq!(
        error("a|{2,}"),
        "missing argument to repetition operator: `{2,}`"
    );
    assert_eq!(error("*?"), "missing argument to repetition operator: `*?`");
    assert_eq!(error("a|+"), "missing argument to repetition operator: `+`");
    assert_eq!(
        error("(?:?"),
        "missing argument to repetition operator: `?`"
    );
    assert_eq!(
        error("{2}?"),
        "missing argument to repetition operator: `{2}?`"
    );
    assert_eq!(error("{3,2}"), "invalid repeat count: `{3,2}`");
    assert_eq!(error("({1001}?"), "invalid repeat count: `{1001}`");
    assert_eq!(go_syntax(r"*\8").unwrap_err().0, 0);
    assert_eq!(go_syntax("a*?").unwrap(), "a*?");
    assert_eq!(error("a{1001}"), "invalid repeat count: `{1001}`");
    assert_eq!(error(r"a)\8"), r"unexpected ): `a)\8`");
    assert_eq!(go_syntax(r"(?:(a))\Q)").unwrap(), r"(?:(a))\)");
    assert_eq!(go_syntax("{{2}").unwrap(), r"\{{2}");
    assert_eq!(
        error(r"a**?\8"),
        "invalid nested repetition operator: `**?`"
    );
    assert_eq!(
        error(r"a{2}?{3}"),
        "invalid nested repetition operator: `{2}?{3}`"
    );
    assert_eq!(go_syntax(r"a*?b{2}?\d+").unwrap(), "a*?b{2}?[0-9]+");
    assert_eq!(go_syntax("a(?i)(?s)*?b").unwrap(), "a*?(?i)(?s)b");
    assert_eq!(go_syntax("a(?U)*").unwrap(), "a(?U)*");
    assert_eq!(
        error(r"\Q\E*"),
        "missing argument to repetition operator: `*`"
    );
    assert_eq!(go_syntax(r"a\Q\E*").unwrap(), "a*");
}

#[test]
fn go_meanings_written_for_the_crate() {
    assert_eq!(go_syntax(r"\0\12\177").unwrap(), r"\x{0}\x{a}\x{7f}");
    assert_eq!(go_syntax(r"\<[\>]").unwrap(), "<[>]");
    assert_eq!(go_syntax(r"[a&&b~~[c]").unwrap(), r"[a\&\&b\~\~\[c]");
    assert_eq!(go_syntax(r"[]a][^]b]").unwrap(), r"[\]a][^\]b]");
    // A `-` no range's is a character; a range may end at one (`!` to `-`).
    assert_eq!(go_syntax(r"[!--x]").unwrap(), r"[!-\-x]");
    assert_eq!(
        go_syntax(r"[--/][a-][a-z-0]").unwrap(),
        r"[\--/][a\-][a-z\-0]"
    );
    assert_eq!(
        go_syntax(r"[\d-z][\x21--]").unwrap(),
        r"[[0-9]\-z][\x21-\-]"
    );
    assert_eq!(go_syntax(r"[[:alpha:]]").unwrap(), "[[:alpha:]]");
    assert_eq!(
        go_syntax(r"\p{^Greek}\PL").unwrap(),
        r"[^\p{Greek}&&\p{Age=13.0}][^\p{L}&&\p{Age=13.0}]"
    );
    assert_eq!(go_syntax(r"\Q[\u\E").unwrap(), r"\[\\u");
    assert_eq!(
        go_syntax("a{,2}b{2}c{01}d{").unwrap(),
        r"a\{,2}b{2}c\{01}d\{"
    );
    assert!(go_syntax(r"\p{Old_Italic}\p{Nko}\p{Thai}\p{Any}\p{Ahom}\p{Newa}").is_ok());
    // Scripts of Unicode 14.0 and later, which Go 1.19 does not know.
    assert!(go_syntax(r"\p{Vithkuqi}").is_err());
    assert!(go_syntax(r"\p{Garay}").is_err());
}

#[test]
fn perl_groups_as_go_parses_them() {
    let perl = |t: &str| format!("invalid or unsupported Perl syntax: `{t}`");
    assert_eq!(error("(?x)a b"), perl("(?x"));
    assert_eq!(error("(?"), perl("(?"));
    assert_eq!(error("(?i"), perl("(?i"));
    assert_eq!(error("(?-)"), perl("(?-)"));
    assert_eq!(error("(?--i)"), perl("(?--"));
    assert_eq!(error("(?=a)"), perl("(?="));
    assert_eq!(error("(?P<"), perl("(?P"));
    assert_eq!(error("(?P=a)"), perl("(?P"));
    assert_eq!(error("(?<n>a)"), perl("(?<"));
    assert_eq!(error("(?ié)"), perl("(?ié"));
    assert_eq!(error("(?P<a"), "invalid named capture: `(?P<a`");
    assert_eq!(error("(?P<>a)"), "invalid named capture: `(?P<>`");
    assert_eq!(error("(?P<a.b>x)"), "invalid named capture: `(?P<a.b>`");
    assert_eq!(error("(?P<é>x)"), "invalid named capture: `(?P<é>`");
    assert_eq!(go_syntax("a(?)b").unwrap(), "ab");
    assert_eq!(
        go_syntax("(?ii)(?i-i:a)(?s-m)").unwrap(),
        "(?i)(?-i:a)(?s-m)"
    );
    assert_eq!(
        go_syntax("(?P<a>x)(?P<a>y)(?P<1>z)").unwrap(),
        "(?P<a>x)(y)(z)"
    );
    assert_eq!(
        error("(?i){2}"),
        "missing argument to repetition operator: `{2}`"
    );
}
