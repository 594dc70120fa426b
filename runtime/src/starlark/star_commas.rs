//! Trailing commas starlark-go's parser refuses and the starlark crate's takes: after the
//! arguments of a call that has a `*args` or `**kwargs` (`f(*xs,)`: "got ')', want argument"),
//! after the parameters of a `def` that has `*`, `*args` or `**kwargs` (`def f(*a,):` "got ')',
//! want parameter"), and after any lambda's parameters (`lambda a,: 1`: "not an identifier").
//! Found with the crate's own lexer, so strings and comments are never read as code.

use starlark::codemap::CodeMap;
use starlark_syntax::lexer::{Lexer, Token};

/// The first such comma's refusal, at the `)` or `:` where starlark-go's parser stops. `None`
/// when there is none before the first error of the lexer (the parse reports that one).
pub(super) fn first_refused(name: &str, source: &str) -> Option<Refused> {
    // Each refusal needs a `*` or a lambda: most programs are not lexed again for it.
    if !source.contains('*') && !source.contains("lambda") {
        return None;
    }
    let codemap = CodeMap::new(name.to_string(), source.to_string());
    // The brackets open at this point: what each one is, and whether a call's or a def's
    // has had a starred argument or parameter.
    let mut open: Vec<Group> = Vec::new();
    let mut previous: Option<Token> = None;
    let mut before_previous: Option<Token> = None;
    for lexeme in Lexer::new(codemap.source(), &super::dialect(), codemap.clone()) {
        let Ok((at, token, _)) = lexeme else {
            return None;
        };
        if matches!(
            token,
            Token::Comment(_) | Token::Newline | Token::Indent | Token::Dedent | Token::Tabs
        ) {
            continue;
        }
        let after_comma = matches!(previous, Some(Token::Comma));
        let refused = |message| {
            let line_start = source[..at].rfind('\n').map_or(0, |i| i + 1);
            Some(Refused {
                line: source[..at].matches('\n').count(),
                column: at - line_start,
                message,
            })
        };
        match &token {
            Token::OpeningRound => open.push(match round_bracket(&before_previous, &previous) {
                Round::Parameters => Group::Parameters(false),
                Round::Arguments => Group::Arguments(false),
                Round::Other => Group::Other,
            }),
            Token::OpeningSquare | Token::OpeningCurly => open.push(Group::Other),
            Token::Lambda => open.push(Group::Lambda),
            Token::Star | Token::StarStar
                if matches!(previous, Some(Token::OpeningRound | Token::Comma)) =>
            {
                if let Some(Group::Arguments(starred) | Group::Parameters(starred)) =
                    open.last_mut()
                {
                    *starred = true;
                }
            }
            Token::ClosingRound | Token::ClosingSquare | Token::ClosingCurly => {
                // A lambda's parameters end before its body, so one open here has no body.
                while matches!(open.last(), Some(Group::Lambda)) {
                    open.pop();
                }
                match open.pop() {
                    Some(Group::Arguments(true)) if after_comma => {
                        return refused("got ')', want argument")
                    }
                    Some(Group::Parameters(true)) if after_comma => {
                        return refused("got ')', want parameter")
                    }
                    _ => {}
                }
            }
            Token::Colon if matches!(open.last(), Some(Group::Lambda)) => {
                open.pop();
                if after_comma {
                    return refused("not an identifier");
                }
            }
            _ => {}
        }
        before_previous = previous.replace(token);
    }
    None
}

/// What a `(` opens, by the two tokens before it (comments and line breaks aside).
pub(super) enum Round {
    /// A `def`'s parameters (`def f(`).
    Parameters,
    /// A call's arguments: starlark-go's parser calls whatever operand comes before (a name,
    /// a literal, a bracket closed), whether it can be called or not.
    Arguments,
    /// A parenthesized expression or a tuple.
    Other,
}

/// What a `(` after `before_previous` and `previous` opens.
pub(super) fn round_bracket(before_previous: &Option<Token>, previous: &Option<Token>) -> Round {
    match (before_previous, previous) {
        (Some(Token::Def), Some(Token::Identifier(_))) => Round::Parameters,
        (
            _,
            Some(
                Token::Identifier(_)
                | Token::ClosingRound
                | Token::ClosingSquare
                | Token::ClosingCurly
                | Token::String(_)
                | Token::Int(_)
                | Token::Float(_),
            ),
        ) => Round::Arguments,
        _ => Round::Other,
    }
}

/// A trailing comma refused (see [`first_refused`]): where (0-based line, byte column) and
/// starlark-go's words.
pub(super) struct Refused {
    pub line: usize,
    pub column: usize,
    pub message: &'static str,
}

/// What an open bracket (or a lambda's parameters) holds.
enum Group {
    /// A call's arguments, and whether one is `*args` or `**kwargs`.
    Arguments(bool),
    /// A `def`'s parameters, and whether one is `*`, `*args` or `**kwargs`.
    Parameters(bool),
    /// A lambda's parameters, up to the `:` before its body.
    Lambda,
    Other,
}

#[cfg(test)]
mod tests {
    use super::first_refused;

    fn refused(source: &str) -> Option<(usize, usize, &'static str)> {
        first_refused("t", source).map(|r| (r.line, r.column, r.message))
    }

    #[test]
    fn trailing_commas_after_stars_and_in_lambdas() {
        assert_eq!(refused("f(*xs,)\n"), Some((0, 6, "got ')', want argument")));
        assert_eq!(
            refused("x = [1]\nf(\n  **kw,\n  # c, d\n)\n"),
            Some((4, 0, "got ')', want argument"))
        );
        assert_eq!(refused("{}(*x,)\n"), Some((0, 6, "got ')', want argument")));
        assert_eq!(
            refused("1.5(*x,)\n"),
            Some((0, 7, "got ')', want argument"))
        );
        assert_eq!(
            refused("def f(a, *, b,):\n  pass\n"),
            Some((0, 14, "got ')', want parameter"))
        );
        assert_eq!(
            refused("g = lambda a, b=(1,),: 1\n"),
            Some((0, 21, "not an identifier"))
        );
        // Taken by both: no star, a star that multiplies, a tuple, a lambda in brackets.
        for fine in [
            "f(a, k=1,)\n",
            "f(a * b,)\n",
            "x = (1,)\n",
            "def f(a, b=2,):\n  pass\n",
            "f(*xs)\n",
            "x = {}[1](*xs)\n",
            "x = [lambda: 1, {1: 2}]\n",
            "y = \"f(*xs,)\"  # f(*xs,)\n",
            "x = sorted(xs, key=lambda x: x)\n",
        ] {
            assert_eq!(refused(fine), None, "{fine}");
        }
    }
}
