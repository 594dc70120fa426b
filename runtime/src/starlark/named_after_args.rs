//! Keyword arguments after `*args` (`f(*xs, k=1)`), which starlark-go takes and the starlark
//! crate's parser refuses ("named argument after *args or **kwargs"): the `*args` and the
//! keyword arguments right after it change places (`f(k=1, *xs)`, the same call) in the same
//! bytes, so the text keeps its length. Every such call of a text is found in one pass of the
//! crate's own lexer, so strings (triple-quoted too) and comments are never read as code, and a
//! statement holding many calls is parsed again once, not once per call.
//!
//! (The walk then meets the keyword arguments' names before those of `*args`, and they are
//! evaluated in that order; where the two are on different lines, what one line held is on the
//! other.)

use std::ops::Range;

use starlark::codemap::CodeMap;
use starlark_syntax::lexer::{Lexer, Token};

use super::star_commas::{round_bracket, Round};

/// One call's `*args` and the run of keyword arguments right after it, which change places.
pub(super) struct Reorder {
    /// The `*args` argument, from its `*` to the end of its last token.
    args: Range<usize>,
    /// The keyword arguments, from the first one's name to the end of the last one's last token.
    named: Range<usize>,
}

impl Reorder {
    /// From the `*` of `*args` to the end of the last keyword argument.
    fn span(&self) -> Range<usize> {
        self.args.start..self.named.end
    }
}

/// `source` with every reorder of `reorders` made: in each, the keyword arguments, what was
/// between them and `*args` (the comma, spaces, comments), then `*args`, in place of the three.
/// A reorder is inside another's `*args` or keyword arguments (a call in an argument) or apart
/// from it, so each byte is copied once, to where the reorders around it put it (made one at a
/// time, each moving the text of the calls inside it again, 40,000 nested calls took 43 s).
pub(super) fn apply(source: &str, reorders: &[Reorder]) -> String {
    // The reorders as a forest, each inside the smallest one around it.
    let mut order: Vec<usize> = (0..reorders.len()).collect();
    order.sort_by_key(|&r| {
        (
            reorders[r].args.start,
            std::cmp::Reverse(reorders[r].named.end),
        )
    });
    let mut inside: Vec<Vec<usize>> = vec![Vec::new(); reorders.len()];
    let mut outermost = Vec::new();
    let mut around: Vec<usize> = Vec::new();
    for r in order {
        while around
            .last()
            .is_some_and(|&a| reorders[a].span().end <= reorders[r].args.start)
        {
            around.pop();
        }
        match around.last() {
            Some(&a) => inside[a].push(r),
            None => outermost.push(r),
        }
        around.push(r);
    }
    /// What is left to write, the last pushed first.
    enum Piece<'a> {
        /// Text with the reorders (in text order) inside it.
        Text(Range<usize>, &'a [usize]),
        /// A reorder, its text in the new order.
        Moved(usize),
    }
    let mut out = String::with_capacity(source.len());
    let mut todo = vec![Piece::Text(0..source.len(), &outermost[..])];
    while let Some(piece) = todo.pop() {
        match piece {
            Piece::Text(range, within) => {
                if within.is_empty() {
                    out.push_str(&source[range]);
                    continue;
                }
                // Pushed last to first: the text before each reorder, the reorder, the rest.
                let last = reorders[within[within.len() - 1]].span().end;
                todo.push(Piece::Text(last..range.end, &[]));
                for (k, &r) in within.iter().enumerate().rev() {
                    todo.push(Piece::Moved(r));
                    let from = match k {
                        0 => range.start,
                        _ => reorders[within[k - 1]].span().end,
                    };
                    todo.push(Piece::Text(from..reorders[r].args.start, &[]));
                }
            }
            Piece::Moved(r) => {
                let Reorder { args, named } = &reorders[r];
                let split = inside[r].partition_point(|&i| reorders[i].args.start < args.end);
                let (in_args, in_named) = inside[r].split_at(split);
                todo.push(Piece::Text(args.clone(), in_args));
                todo.push(Piece::Text(args.end..named.start, &[]));
                todo.push(Piece::Text(named.clone(), in_named));
            }
        }
    }
    out
}

/// Every call of `source[region]` with keyword arguments right after its `*args` (made by
/// [`apply`]); keyword arguments named as `is_marker` says are left where they are (a patched
/// argument out of place). Only the calls closed before any error of the lexer.
pub(super) fn reorders(
    name: &str,
    source: &str,
    region: Range<usize>,
    is_marker: impl Fn(&str) -> bool,
) -> Vec<Reorder> {
    let (text, offset) = (&source[region.clone()], region.start);
    let codemap = CodeMap::new(name.to_string(), text.to_string());
    let mut found = Vec::new();
    // The text's own group first, never closed.
    let mut open: Vec<Group> = vec![Group::new(false, false)];
    let (mut previous, mut before_previous): (Option<Token>, Option<Token>) = (None, None);
    for lexeme in Lexer::new(codemap.source(), &super::dialect(), codemap.clone()) {
        let Ok((begin, token, end)) = lexeme else {
            break;
        };
        if matches!(
            token,
            Token::Comment(_) | Token::Newline | Token::Indent | Token::Dedent | Token::Tabs
        ) {
            continue;
        }
        let span = begin + offset..end + offset;
        if matches!(
            token,
            Token::ClosingRound | Token::ClosingSquare | Token::ClosingCurly
        ) {
            // A lambda's parameters end before its body, so one open here has no body.
            while open.len() > 1 && open.last().is_some_and(|g| g.lambda) {
                open.pop();
            }
            if open.len() > 1 {
                found.extend(open.pop().and_then(|g| g.reorder()));
            }
        }
        if matches!(token, Token::Colon) && open.len() > 1 && open.last().is_some_and(|g| g.lambda)
        {
            open.pop();
        }
        if let Some(group) = open.last_mut().filter(|g| !g.lambda) {
            if matches!(token, Token::Comma) {
                group.fresh = true;
            } else {
                group.add(&token, span, &is_marker);
            }
        }
        match &token {
            Token::OpeningRound => {
                let call = matches!(round_bracket(&before_previous, &previous), Round::Arguments);
                open.push(Group::new(call, false))
            }
            Token::OpeningSquare | Token::OpeningCurly => open.push(Group::new(false, false)),
            Token::Lambda => open.push(Group::new(false, true)),
            _ => {}
        }
        before_previous = previous.replace(token);
    }
    found
}

/// What an argument starts with.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Kind {
    Positional,
    /// `*args`.
    Args,
    /// `**kwargs`.
    Kwargs,
    /// `name=`, the name not a marker's.
    Named,
    /// `name=` of a marker's name.
    Marker,
}

/// An argument read so far: where it starts and ends, what it starts with, how many tokens
/// it has and the name it starts with (until its second token says whether it is a keyword
/// argument).
struct Argument {
    span: Range<usize>,
    kind: Kind,
    tokens: usize,
    first_name: Option<String>,
}

/// An open bracket, or a lambda's parameters (up to the `:` before its body).
struct Group {
    /// A call's arguments (else a list, a tuple, a `def`'s parameters...).
    call: bool,
    lambda: bool,
    arguments: Vec<Argument>,
    /// Whether the next token starts an argument (after the bracket or a comma).
    fresh: bool,
}

impl Group {
    fn new(call: bool, lambda: bool) -> Group {
        Group {
            call,
            lambda,
            arguments: Vec::new(),
            fresh: true,
        }
    }

    /// `token` (at `span`) read as part of the last argument, or the first of a new one.
    fn add(&mut self, token: &Token, span: Range<usize>, is_marker: &impl Fn(&str) -> bool) {
        if std::mem::take(&mut self.fresh) {
            self.arguments.push(Argument {
                span: span.clone(),
                kind: match token {
                    Token::Star => Kind::Args,
                    Token::StarStar => Kind::Kwargs,
                    _ => Kind::Positional,
                },
                tokens: 0,
                first_name: match token {
                    Token::Identifier(n) => Some(n.clone()),
                    _ => None,
                },
            });
        }
        let Some(a) = self.arguments.last_mut() else {
            return;
        };
        if a.tokens == 1 && matches!(token, Token::Equal) {
            if let Some(n) = &a.first_name {
                a.kind = if is_marker(n) {
                    Kind::Marker
                } else {
                    Kind::Named
                };
            }
        }
        a.tokens += 1;
        a.span.end = span.end;
    }

    /// The reorder of this call's arguments, once it has closed: only of a call starlark-go
    /// takes (positional arguments, then keyword arguments of names of their own and one
    /// `*args` in any order, then at most one `**kwargs`). One it refuses is left to the
    /// crate's parser, which patches out its errors one at a time as starlark-go lists them.
    fn reorder(&self) -> Option<Reorder> {
        if !self.call {
            return None;
        }
        let a = &self.arguments;
        let positional = a.iter().take_while(|x| x.kind == Kind::Positional).count();
        let rest = &a[positional..];
        let kwargs = usize::from(rest.last().is_some_and(|x| x.kind == Kind::Kwargs));
        let middle = &rest[..rest.len() - kwargs];
        let stars = middle.iter().filter(|x| x.kind == Kind::Args).count();
        let named: Vec<&str> = middle
            .iter()
            .filter_map(|x| {
                (x.kind == Kind::Named)
                    .then_some(x.first_name.as_deref())
                    .flatten()
            })
            .collect();
        let distinct: std::collections::HashSet<&str> = named.iter().copied().collect();
        if stars != 1 || named.len() + 1 != middle.len() || distinct.len() != named.len() {
            return None;
        }
        let star = a.iter().position(|x| x.kind == Kind::Args)?;
        let run = a[star + 1..]
            .iter()
            .take_while(|x| x.kind == Kind::Named)
            .count();
        (run > 0).then(|| Reorder {
            args: a[star].span.clone(),
            named: a[star + 1].span.start..a[star + run].span.end,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::reorders;

    /// `source` with its reorders made.
    fn reordered(source: &str) -> String {
        super::apply(
            source,
            &reorders("t", source, 0..source.len(), |n| n.starts_with("__m")),
        )
    }

    /// Calls in one another's `*args` and keyword arguments, and side by side, reordered at once
    /// as one at a time in the order they close (each moving the text as it is by then).
    #[test]
    fn nested_reorders_are_made_at_once_as_one_at_a_time() {
        let mut sources = vec![
            "f(*g(*a, j=h(*b, i=1)), k=g(*c, j=2), l=g(*d, m=3))\n".to_string(),
            "f(1, *[g(*a, j=1), g(*b, j=2)], k=[g(*c, j=3)], **kw)\nx = g(*e, j=4)\n".to_string(),
        ];
        let deep = 50;
        sources.push(format!(
            "x = {}1{}\n",
            "f(*g(*a, j=1), k=".repeat(deep),
            ")".repeat(deep)
        ));
        for source in sources {
            let found = reorders("t", &source, 0..source.len(), |_| false);
            assert!(found.len() >= 3, "{source}");
            let mut one_at_a_time = source.clone();
            for r in &found {
                let moved = format!(
                    "{}{}{}",
                    &one_at_a_time[r.named.clone()],
                    &one_at_a_time[r.args.end..r.named.start],
                    &one_at_a_time[r.args.clone()]
                );
                one_at_a_time.replace_range(r.span(), &moved);
            }
            assert_eq!(super::apply(&source, &found), one_at_a_time, "{source}");
        }
    }

    #[test]
    fn keyword_arguments_after_args_move_before_them() {
        for (source, expected) in [
            ("f(*xs, k=1)\n", "f(k=1, *xs)\n"),
            ("f(1, *xs, k=1, j=2, **kw)\n", "f(1, k=1, j=2, *xs, **kw)\n"),
            ("f(k=1, *xs, j=2)\n", "f(k=1, j=2, *xs)\n"),
            // Strings and comments holding what brackets, commas and `#` are in code.
            ("f(*[\"#\"], k=1)\n", "f(k=1, *[\"#\"])\n"),
            ("f(*['''it's)'''], k=1)\n", "f(k=1, *['''it's)'''])\n"),
            (
                "f(*[1,\n  2], # c, )\n  k=1)\n",
                "f(k=1, # c, )\n  *[1,\n  2])\n",
            ),
            ("f(*xs # c\n  , k=1)\n", "f(k=1 # c\n  , *xs)\n"),
            // Calls in arguments, in lambdas and in defaults; a lambda's parameters.
            ("f(*a, k=g(*b, j=1))\n", "f(k=g(j=1, *b), *a)\n"),
            (
                "h = lambda y, z: f(*y, k=lambda a, b: 1)\n",
                "h = lambda y, z: f(k=lambda a, b: 1, *y)\n",
            ),
            (
                "def g(d=f(*a, k=1)):\n  pass\n",
                "def g(d=f(k=1, *a)):\n  pass\n",
            ),
        ] {
            assert_eq!(reordered(source), expected, "{source}");
        }
        // Taken as they are: parameters, `**kwargs`, a marker's keyword, a positional between.
        for same in [
            "def f(*a, k=1):\n  pass\n",
            "g = lambda *a, k=1: 1\n",
            "f(**kw, k=1)\n",
            "f(*xs, __m1=1)\n",
            "f(*xs, 2, k=1)\n",
            // Calls starlark-go refuses: left to the crate's parser and the patches.
            "f(*xs, k=1, 2)\n",
            "f(*xs, k=1, k=2)\n",
            "f(*xs, k=1, *ys)\n",
            "f(**kw, *xs, k=1)\n",
            "f(*xs, k=1, **kw, j=2)\n",
            "x = [*xs, k]\n",
        ] {
            assert_eq!(reordered(same), same);
        }
    }
}
