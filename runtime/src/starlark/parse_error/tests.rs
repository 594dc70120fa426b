use super::go_wording;

#[test]
fn parser_errors_in_starlark_go_words() {
    let w = |m: &str, l: &str| go_wording(m, l);
    assert_eq!(
        w(
            "Parse error: unexpected new line, expected expression",
            "x = 1 +"
        )
        .as_deref(),
        Some("got newline, want primary expression")
    );
    assert_eq!(
        w(
            "Parse error: unexpected symbol '&', expected expression",
            "if a && b:"
        )
        .as_deref(),
        Some("got '&', want primary expression (hint: use 'and' instead of '&&' for logical-and)")
    );
    assert_eq!(
        w(
            "Parse error: unexpected integer literal '2', expected new line",
            "x = 1 2"
        )
        .as_deref(),
        Some("got int literal, want newline")
    );
    assert_eq!(
        w(
            "Parse error: unexpected new line, expected symbol ':'",
            "if a"
        )
        .as_deref(),
        Some("got newline, want ':' (hint: missing colon at the end of 'if/for/def' statement?)")
    );
    assert_eq!(
        w("Parse error: invalid input `$`", "").as_deref(),
        Some("unexpected input character '$'")
    );
    assert_eq!(
        w(
            "Parse error: unexpected identifier 'b', expected 'in' after 'not'",
            ""
        )
        .as_deref(),
        Some("got identifier, want in")
    );
    assert_eq!(
        w("Parse error: unexpected end of file, expected x", ""),
        None
    );
    assert_eq!(w("Variable `x` not found", ""), None);
}
