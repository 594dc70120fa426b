//! `"...".format(...)` in rules: the format string parsed at build time, its arguments
//! converted at run time.

use schemac_runtime::lowered::ir::{Expr, Piece};
use starlark_syntax::syntax::ast::{AstExpr, AstLiteral, ExprP};

use super::{Env, Lowered, SType, Translator};

impl<'s> Translator<'_, 's> {
    /// `"literal {} {0}".format(args)`: pieces parsed here, arguments converted at run time.
    pub(super) fn format(
        &mut self,
        obj: &AstExpr,
        args: &[&AstExpr],
        env: &Env<'s>,
    ) -> Lowered<'s> {
        let ExprP::Literal(AstLiteral::String(template)) = &obj.node else {
            return Err("it formats a string that is not a literal".into());
        };
        let pieces = parse_format(&template.node, args.len())
            .ok_or("its format string uses more than `{}`, `{N}`, `{{` and `}}`")?;
        let mut codes = Vec::new();
        for x in args {
            let (c, t) = self.expr(x, env)?;
            if !t.formats_exactly() {
                return Err(format!("it formats a value of type {t:?}"));
            }
            codes.push(c);
        }
        Ok((Expr::Format(pieces, codes), SType::Str))
    }
}
/// Parses a format string with `{}` / `{N}` fields (not mixed) for `n` arguments.
fn parse_format(s: &str, n: usize) -> Option<Vec<Piece>> {
    let mut out = Vec::new();
    let mut text = String::new();
    let mut auto = 0usize;
    let (mut used_auto, mut used_manual) = (false, false);
    let mut chars = s.chars().peekable();
    while let Some(c) = chars.next() {
        match c {
            '{' if chars.peek() == Some(&'{') => {
                chars.next();
                text.push('{');
            }
            '}' if chars.peek() == Some(&'}') => {
                chars.next();
                text.push('}');
            }
            '{' => {
                let mut field = String::new();
                loop {
                    match chars.next()? {
                        '}' => break,
                        c => field.push(c),
                    }
                }
                let index = if field.is_empty() {
                    used_auto = true;
                    auto += 1;
                    auto - 1
                } else {
                    used_manual = true;
                    field.parse::<usize>().ok()?
                };
                if index >= n || (used_auto && used_manual) {
                    return None;
                }
                if !text.is_empty() {
                    out.push(Piece::Text(std::mem::take(&mut text)));
                }
                out.push(Piece::Arg(index));
            }
            '}' => return None,
            c => text.push(c),
        }
    }
    if !text.is_empty() {
        out.push(Piece::Text(text));
    }
    Some(out)
}
