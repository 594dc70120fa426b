//! How deep expressions and functions nest in a program, and how long its chains of method
//! calls are.
//! starlark-rust compiles a `lambda` inside a `lambda` by copying its body for each level, in
//! time and memory quadratic in the depth (20,000 nested `lambda:` took 41 s and 16 GB; ytt
//! answers in 0.2 s), and a method call `OBJ.NAME(...)` by copying `OBJ`'s compiled
//! expression, so a chain `s.upper().lower()...` is quadratic in its length (10,000 calls took
//! 1 s, 20,000 3.4 s; ytt runs 30,000 in 0.28 s): both are budgets checked before the program
//! is compiled. So is a third: starlark-rust compiles each `and` and `or` by walking its left
//! operand's `and`, `or` and `not` operators (to fold a constant truth value), so a chain
//! `a and b and c ...` is quadratic in its length too (12,000 operators took 3.6 s, 20,000
//! 12.7 s; ytt compiles and runs 50,000 in 1.3 s).

use starlark::codemap::Span;
use starlark::syntax::ast::{AstExpr, AstStmt, BinOp, ExprP, StmtP};
use starlark::syntax::AstModule;

/// The expressions of statement `s` itself, not those of the statements it holds: the crate's
/// `visit_expr` of a statement visits theirs too, so a walk that recurses on statements and
/// calls that at each is quadratic in how deep they nest (a chain of 20,000 `elif`s, each an
/// `if` in the one before, aborted on 4 GiB; ytt answers in 1 s).
pub(crate) fn own_exprs<'a>(s: &'a AstStmt, mut f: impl FnMut(&'a AstExpr)) {
    use starlark_syntax::syntax::uniplate::Visit;
    s.visit_children(|child| {
        if let Visit::Expr(e) = child {
            f(e)
        }
    });
}

/// How deep a program's expressions may nest, each operand, index, slice, call or attribute a
/// level below the expression it is part of (`s[0][0]...`, `- - - 1`, `1 + 1 + ...`). The
/// interpreter's parser, compiler and this crate's walks of a program recurse on expressions,
/// and a chain of 200,000 indexes overflowed even the 512 MiB stack (ytt runs it). Raised with
/// `SCHEMAC_STARLARK_EXPRESSION_DEPTH`.
pub const DEFAULT_MAX_EXPRESSION_DEPTH: usize =
    crate::budget_vars::STARLARK_EXPRESSION_DEPTH.default_size();

/// The first expression of `ast` nested past the budget, and the budget's message. The walk
/// keeps its own stack (statements nest within the block budget, expressions need not).
pub(super) fn expression_too_deep(ast: &AstModule) -> Option<(Span, String)> {
    let max = max_expression_depth();
    fn roots<'a>(s: &'a AstStmt, out: &mut Vec<(&'a AstExpr, usize)>) {
        s.visit_stmt(|child| roots(child, out));
        own_exprs(s, |e| out.push((e, 1)));
    }
    let mut stack = Vec::new();
    roots(ast.statement(), &mut stack);
    while let Some((e, depth)) = stack.pop() {
        if depth > max {
            return Some((e.span, expression_depth_message(max)));
        }
        e.visit_expr(|child| stack.push((child, depth + 1)));
    }
    None
}

/// Where the text of a program nests past [`DEFAULT_MAX_EXPRESSION_DEPTH`] in a way the
/// interpreter's parser recurses on, before it is parsed: its recursive descent takes a call or
/// more for each open bracket, prefix operator (`-`, `+`, `~`, `not`), `lambda` and `else` of a
/// conditional chain, and 2,000,000 of them overflowed the 512 MiB stack. Counted per logical
/// line (lines joined by a `\` at their end are one), conservatively: a prefix operator until
/// the next operand, a `lambda` or `else` until the item it is part of ends (a `,` or the bracket
/// around it closing; the line's end outside brackets). The 0-based line and the budget's message.
pub fn source_too_deep(source: &str) -> Option<(usize, String)> {
    let max = max_expression_depth();
    let bytes = source.as_bytes();
    let (mut line, mut prefix, mut chained) = (0usize, 0usize, 0usize);
    // The prefix operators and `lambda`s or `else`s counted where each open bracket opened: an
    // item of the brackets (after a `,`) starts from them again, and so does what follows them.
    let mut opened: Vec<(usize, usize)> = Vec::new();
    let mut i = 0;
    while i < bytes.len() {
        let c = bytes[i];
        let brackets = opened.len();
        match c {
            b'\n' => {
                line += 1;
                if brackets == 0 {
                    (prefix, chained) = (0, 0);
                }
            }
            // A line joined to the next: the logical line goes on.
            b'\\' if bytes.get(i + 1) == Some(&b'\n') => {
                line += 1;
                i += 2;
                continue;
            }
            b'\\' if bytes[i + 1..].starts_with(b"\r\n") => {
                line += 1;
                i += 3;
                continue;
            }
            b'#' => {
                while i < bytes.len() && bytes[i] != b'\n' {
                    i += 1;
                }
                continue;
            }
            b'"' | b'\'' => {
                let triple = bytes[i..].starts_with(&[c, c, c]);
                i += if triple { 3 } else { 1 };
                while i < bytes.len() {
                    if bytes[i] == b'\\' {
                        line += usize::from(bytes.get(i + 1) == Some(&b'\n'));
                        i += 2;
                        continue;
                    }
                    if bytes[i] == b'\n' {
                        line += 1;
                    }
                    let closes = if triple {
                        bytes[i..].starts_with(&[c, c, c])
                    } else {
                        bytes[i] == c
                    };
                    if closes {
                        i += if triple { 2 } else { 0 };
                        break;
                    }
                    i += 1;
                }
                prefix = 0;
            }
            b'(' | b'[' | b'{' => opened.push((prefix, chained)),
            b')' | b']' | b'}' => {
                chained = opened.pop().map_or(0, |(_, c)| c);
                prefix = 0;
            }
            b',' => (prefix, chained) = opened.last().copied().unwrap_or((0, 0)),
            b'-' | b'+' | b'~' => prefix += 1,
            b';' if brackets == 0 => (prefix, chained) = (0, 0),
            c if c.is_ascii_alphanumeric() || c == b'_' || c >= 0x80 => {
                let start = i;
                while i < bytes.len()
                    && (bytes[i].is_ascii_alphanumeric() || bytes[i] == b'_' || bytes[i] >= 0x80)
                {
                    i += 1;
                }
                match &source[start..i] {
                    "not" => prefix += 1,
                    "lambda" | "else" => chained += 1,
                    "if" | "and" | "or" | "in" | "is" => {}
                    _ => prefix = 0,
                }
                if opened.len() + prefix + chained > max {
                    return Some((line, expression_depth_message(max)));
                }
                continue;
            }
            _ => {}
        }
        if opened.len() + prefix + chained > max {
            return Some((line, expression_depth_message(max)));
        }
        i += 1;
    }
    None
}

fn max_expression_depth() -> usize {
    static MAX: std::sync::OnceLock<usize> = std::sync::OnceLock::new();
    *MAX.get_or_init(|| crate::budget_vars::STARLARK_EXPRESSION_DEPTH.get_size())
}

fn expression_depth_message(max: usize) -> String {
    format!(
        "expressions nested deeper than {max} levels (operands, indexes, calls or attributes in one another; raise the budget with SCHEMAC_STARLARK_EXPRESSION_DEPTH)"
    )
}

/// How many functions (`def`s and `lambda`s) may nest in one another. Raised with
/// `SCHEMAC_STARLARK_FUNCTION_DEPTH`.
pub const DEFAULT_MAX_FUNCTION_DEPTH: usize =
    crate::budget_vars::STARLARK_FUNCTION_DEPTH.default_size();

fn max_function_depth() -> usize {
    static DEPTH: std::sync::OnceLock<usize> = std::sync::OnceLock::new();
    *DEPTH.get_or_init(|| crate::budget_vars::STARLARK_FUNCTION_DEPTH.get_size())
}

/// The first function of `ast` nested past the budget, and the budget's message.
pub(super) fn too_deep(ast: &AstModule) -> Option<(Span, String)> {
    let max = max_function_depth();
    let span = stmt(ast.statement(), 0, max)?;
    let message = format!(
        "functions nested deeper than {max} levels (def or lambda in one another; raise the budget with SCHEMAC_STARLARK_FUNCTION_DEPTH)"
    );
    Some((span, message))
}

fn stmt(s: &AstStmt, depth: usize, max: usize) -> Option<Span> {
    let depth = depth + usize::from(matches!(s.node, StmtP::Def(_)));
    if depth > max {
        return Some(s.span);
    }
    let mut found = None;
    s.visit_stmt(|child| found = found.or_else(|| stmt(child, depth, max)));
    own_exprs(s, |child| found = found.or_else(|| expr(child, depth, max)));
    found
}

fn expr(e: &AstExpr, depth: usize, max: usize) -> Option<Span> {
    let depth = depth + usize::from(matches!(e.node, ExprP::Lambda(_)));
    if depth > max {
        return Some(e.span);
    }
    let mut found = None;
    e.visit_expr(|child| found = found.or_else(|| expr(child, depth, max)));
    found
}

/// How many method calls may be chained, each called on the result of the one before
/// (`s.upper().lower()...`; an attribute between them, `a.f().x.g()`, continues the chain).
/// Raised with `SCHEMAC_STARLARK_METHOD_CHAIN`.
pub const DEFAULT_MAX_METHOD_CHAIN: usize =
    crate::budget_vars::STARLARK_METHOD_CHAIN.default_size();

fn max_method_chain() -> usize {
    static MAX: std::sync::OnceLock<usize> = std::sync::OnceLock::new();
    *MAX.get_or_init(|| crate::budget_vars::STARLARK_METHOD_CHAIN.get_size())
}

/// The first method call of `ast` that chains past the budget, and the budget's message.
pub(super) fn chain_too_long(ast: &AstModule) -> Option<(Span, String)> {
    let max = max_method_chain();
    let mut found = None;
    chain_in_stmt(ast.statement(), max, &mut found);
    let message = format!(
        "method calls chained longer than {max} (each called on the result of the one before; raise the budget with SCHEMAC_STARLARK_METHOD_CHAIN)"
    );
    found.map(|span| (span, message))
}

fn chain_in_stmt(s: &AstStmt, max: usize, found: &mut Option<Span>) {
    s.visit_stmt(|child| chain_in_stmt(child, max, found));
    own_exprs(s, |child| {
        chain(child, max, found);
    });
}

/// The method calls chained up to `e` (each child visited once); the first past `max` is
/// put in `found`.
fn chain(e: &AstExpr, max: usize, found: &mut Option<Span>) -> usize {
    if found.is_some() {
        return 0;
    }
    // The child the chain goes on from: a method call's attribute, an attribute's object.
    let link = match &e.node {
        ExprP::Call(fun, _) if matches!(fun.node, ExprP::Dot(..)) => Some(&**fun),
        ExprP::Dot(object, _) => Some(&**object),
        _ => None,
    };
    let mut below = 0;
    e.visit_expr(|child| {
        let n = chain(child, max, found);
        if link.is_some_and(|l| std::ptr::eq(l, child)) {
            below = n;
        }
    });
    let n = match &e.node {
        ExprP::Call(..) if link.is_some() => below + 1,
        ExprP::Dot(..) => below,
        _ => 0,
    };
    if n > max && found.is_none() {
        *found = Some(e.span);
    }
    n
}

/// How many operators compiling a program's `and`s and `or`s may walk, summed over the
/// program: each `and` or `or` walks the `and`, `or` and `not` operators of its left operand
/// (a chain of 5,000 walks 12.5 million). Raised with `SCHEMAC_STARLARK_BOOL_OPERATORS`.
pub const DEFAULT_MAX_BOOL_OPERATORS: usize =
    crate::budget_vars::STARLARK_BOOL_OPERATORS.default_size();

fn max_bool_operators() -> usize {
    static MAX: std::sync::OnceLock<usize> = std::sync::OnceLock::new();
    *MAX.get_or_init(|| crate::budget_vars::STARLARK_BOOL_OPERATORS.get_size())
}

/// The `and` or `or` of `ast` whose compiling passes the budget of operators walked, and the
/// budget's message.
pub(super) fn bool_operators_too_many(ast: &AstModule) -> Option<(Span, String)> {
    let max = max_bool_operators();
    let mut walk = BoolWalk {
        walked: 0,
        max,
        found: None,
    };
    // A statement's `visit_expr` visits the expressions of the statements in it too.
    ast.statement().visit_expr(|e| {
        walk.expr(e);
    });
    let message = format!(
        "`and` and `or` chained too long: compiling them walks more than {max} operators (each walks those of its left operand; raise the budget with SCHEMAC_STARLARK_BOOL_OPERATORS)"
    );
    walk.found.map(|span| (span, message))
}

/// The operators walked by starlark-rust's compiler for `and`, `or` and `not`
/// (`ExprCompiled::is_pure_infallible_to_bool` on each `and`'s and `or`'s left operand).
struct BoolWalk {
    walked: usize,
    max: usize,
    found: Option<Span>,
}

impl BoolWalk {
    /// The `and`, `or` and `not` operators the compiler walks in `e` (each child visited once).
    fn expr(&mut self, e: &AstExpr) -> usize {
        if self.found.is_some() {
            return 0;
        }
        match &e.node {
            ExprP::Op(l, BinOp::And | BinOp::Or, r) => {
                let left = self.expr(l);
                let right = self.expr(r);
                self.walked = self.walked.saturating_add(left);
                if self.walked > self.max && self.found.is_none() {
                    self.found = Some(e.span);
                }
                1 + left + right
            }
            ExprP::Not(x) => 1 + self.expr(x),
            _ => {
                e.visit_expr(|child| {
                    self.expr(child);
                });
                0
            }
        }
    }
}
