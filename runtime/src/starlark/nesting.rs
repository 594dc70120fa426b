//! How deep functions nest in a program. starlark-rust compiles a `lambda` inside a `lambda`
//! by copying its body for each level, in time and memory quadratic in the depth (20,000
//! nested `lambda:` took 41 s and 16 GB; ytt answers in 0.2 s), so the depth is a budget
//! checked before the program is compiled.

use starlark::codemap::Span;
use starlark::syntax::ast::{AstExpr, AstStmt, ExprP, StmtP};
use starlark::syntax::AstModule;

/// How many functions (`def`s and `lambda`s) may nest in one another. Raised with
/// `SCHEMAC_STARLARK_FUNCTION_DEPTH`.
pub const DEFAULT_MAX_FUNCTION_DEPTH: usize = 1_000;

fn max_function_depth() -> usize {
    static DEPTH: std::sync::OnceLock<usize> = std::sync::OnceLock::new();
    *DEPTH.get_or_init(|| {
        crate::yaml::parse::budget::from_env(
            "SCHEMAC_STARLARK_FUNCTION_DEPTH",
            DEFAULT_MAX_FUNCTION_DEPTH,
        )
    })
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
    s.visit_expr(|child| found = found.or_else(|| expr(child, depth, max)));
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
