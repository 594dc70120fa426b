//! Where starlark-go places a function's first instruction, which ytt's stack shows for a
//! call the function refuses (see [`super`]): the instructions its compiler emits for the body,
//! in order, each placed on a line or left where the one before is.

use starlark::codemap::Span;
use starlark::syntax::ast::{AssignTargetP, AstExpr, AstParameter, AstStmt, ExprP, StmtP};

use crate::template::generated_names::{self as gen, GeneratedNames};

/// The universal builtins of ytt's starlark-go (it has no `bytes`): reading one places no
/// instruction, and a program may name them without defining them.
pub const UNIVERSAL: &[&str] = &[
    "None",
    "True",
    "False",
    "any",
    "all",
    "bool",
    "chr",
    "dict",
    "dir",
    "enumerate",
    "fail",
    "float",
    "getattr",
    "hasattr",
    "hash",
    "int",
    "len",
    "list",
    "max",
    "min",
    "ord",
    "print",
    "range",
    "repr",
    "reversed",
    "set",
    "sorted",
    "str",
    "tuple",
    "type",
    "zip",
];

/// Where the function with `params` and `body` starts: its first instruction, or in a
/// function with YAML (where ytt's own first instruction has no line) its first
/// instruction placed on a line. `None` for its `def` line. `names` are the program's own.
pub(super) fn entry(
    body: Body,
    params: &[AstParameter],
    top_level: &[String],
    names: &GeneratedNames,
) -> Option<Span> {
    let yaml = match body {
        Body::Stmt(s) => has_yaml(s, names),
        Body::Expr(_) => false,
    };
    let mut found = None;
    let mut first = |at: Option<Span>| {
        if at.is_some() || !yaml {
            found = Some(at);
        }
        found.is_some()
    };
    let order = Order {
        params,
        top_level,
        names,
    };
    match body {
        Body::Stmt(s) => order.stmt(s, &mut first),
        Body::Expr(e) => order.expr(e, &mut first),
    };
    found.flatten()
}

/// A function's body: a `def`'s statements or a lambda's expression.
#[derive(Clone, Copy)]
pub(super) enum Body<'a> {
    Stmt(&'a AstStmt),
    Expr(&'a AstExpr),
}

/// Whether `e` is the program's generated name of `suffix` (see [`gen`]).
fn is_generated(e: &AstExpr, suffix: &str, names: &GeneratedNames) -> bool {
    matches!(&e.node, ExprP::Identifier(id) if names.is(&id.node.ident, suffix))
}

/// Whether a function's body builds YAML (starts a node outside functions it defines).
fn has_yaml(s: &AstStmt, names: &GeneratedNames) -> bool {
    let mut found = false;
    fn expr(e: &AstExpr, found: &mut bool, names: &GeneratedNames) {
        match &e.node {
            ExprP::Call(f, _) if is_generated(f, gen::START, names) => *found = true,
            ExprP::Lambda(_) => {}
            _ => e.visit_expr(|c| expr(c, found, names)),
        }
    }
    fn stmt(s: &AstStmt, found: &mut bool, names: &GeneratedNames) {
        if !matches!(s.node, StmtP::Def(_)) {
            super::super::nesting::own_exprs(s, |e| expr(e, found, names));
            s.visit_stmt(|c| stmt(c, found, names));
        }
    }
    stmt(s, &mut found, names);
    found
}

/// The instructions starlark-go's compiler emits for code, in order, as each is placed: on
/// the line of a span, or (`None`) where the one before is. `each` is told them until it
/// returns `true`; so do these functions then.
struct Order<'a> {
    params: &'a [AstParameter],
    /// The names the module's top level binds.
    top_level: &'a [String],
    names: &'a GeneratedNames,
}

type Each<'e> = dyn FnMut(Option<Span>) -> bool + 'e;

impl Order<'_> {
    /// Whether reading `name` places an instruction: anything but a universal builtin (which
    /// a parameter or a global may shadow).
    fn placed(&self, name: &str) -> bool {
        let param = self
            .params
            .iter()
            .any(|p| p.node.ident().is_some_and(|id| id.node.ident == name));
        param || !UNIVERSAL.contains(&name) || self.top_level.iter().any(|n| n == name)
    }

    fn stmt(&self, s: &AstStmt, each: &mut Each) -> bool {
        match &s.node {
            StmtP::Pass => false,
            StmtP::Break | StmtP::Continue | StmtP::Return(None) => each(None),
            StmtP::Return(Some(e)) => self.expr(e, each) || each(None),
            StmtP::Expression(e) => match &e.node {
                ExprP::Call(f, _)
                    if is_generated(f, gen::CTX_START, self.names)
                        || is_generated(f, gen::CTX_NODES, self.names) =>
                {
                    false
                }
                _ => self.expr(e, each) || each(None),
            },
            StmtP::Assign(a) => {
                self.expr(&a.rhs, each)
                    || match &a.lhs.node {
                        AssignTargetP::Identifier(_) => each(None),
                        AssignTargetP::Tuple(_) => each(Some(a.lhs.span)),
                        AssignTargetP::Index(pair) => {
                            self.expr(&pair.0, each)
                                || self.expr(&pair.1, each)
                                || each(Some(pair.1.span))
                        }
                        AssignTargetP::Dot(obj, attr) => {
                            self.expr(obj, each) || each(Some(attr.span))
                        }
                    }
            }
            StmtP::AssignModify(lhs, _, rhs) => {
                let target = match &lhs.node {
                    AssignTargetP::Identifier(id) => each(Some(id.span)),
                    AssignTargetP::Index(pair) => {
                        self.expr(&pair.0, each) || self.expr(&pair.1, each)
                    }
                    AssignTargetP::Dot(obj, _) => self.expr(obj, each),
                    AssignTargetP::Tuple(_) => each(None),
                };
                target || self.expr(rhs, each) || each(Some(rhs.span))
            }
            StmtP::Statements(stmts) => self.statements(stmts, each),
            StmtP::If(cond, then) => self.expr(cond, each) || each(None) || self.stmt(then, each),
            StmtP::IfElse(cond, branches) => {
                self.expr(cond, each)
                    || each(None)
                    || self.stmt(&branches.0, each)
                    || self.stmt(&branches.1, each)
            }
            // schemac's `while` loop: its first instruction is the condition's.
            StmtP::For(f) if matches!(&f.var.node, AssignTargetP::Identifier(id) if self.names.is(&id.node.ident, gen::WHILE)) => {
                self.stmt(&f.body, each)
            }
            StmtP::For(f) => {
                self.expr(&f.over, each) || each(Some(s.span)) || self.stmt(&f.body, each)
            }
            StmtP::Def(_) => each(Some(s.span)),
            StmtP::Load(_) => each(None),
        }
    }

    /// Statements; a YAML node is placed on its first annotation's line, as ytt starts it
    /// with its annotations (schemac with the node).
    fn statements(&self, stmts: &[AstStmt], each: &mut Each) -> bool {
        for (i, s) in stmts.iter().enumerate() {
            let node = matches!(&s.node, StmtP::Expression(e)
                if matches!(&e.node, ExprP::Call(f, _) if is_generated(f, gen::START, self.names)));
            if node {
                let first_annotation = stmts[i + 1..]
                    .iter()
                    .map_while(|s| annotation_line(s, self.names))
                    .min_by_key(|(line, _)| *line);
                if let Some((_, span)) = first_annotation {
                    if each(Some(span)) {
                        return true;
                    }
                }
            }
            if self.stmt(s, each) {
                return true;
            }
        }
        false
    }

    fn expr(&self, e: &AstExpr, each: &mut Each) -> bool {
        let all = |items: &mut dyn Iterator<Item = &AstExpr>, each: &mut Each| {
            for x in items {
                if self.expr(x, each) {
                    return true;
                }
            }
            false
        };
        match &e.node {
            ExprP::Identifier(id) => each(self.placed(&id.node.ident).then_some(e.span)),
            ExprP::Literal(_) | ExprP::FString(_) => each(None),
            ExprP::Tuple(items) | ExprP::List(items) => all(&mut items.iter(), each) || each(None),
            ExprP::Dict(pairs) => {
                each(None)
                    || pairs.iter().any(|(k, v)| {
                        self.expr(k, each) || self.expr(v, each) || each(Some(k.span))
                    })
            }
            ExprP::ListComprehension(_, first, _) | ExprP::DictComprehension(_, first, _) => {
                each(None) || self.expr(&first.over, each) || each(Some(e.span))
            }
            ExprP::Lambda(_) => each(Some(e.span)),
            // A YAML node the function starts; the value returned from one with YAML.
            ExprP::Call(f, _) if is_generated(f, gen::START, self.names) => each(Some(e.span)),
            ExprP::Call(f, args) if is_generated(f, gen::CTX_END, self.names) => {
                all(&mut args.args.iter().map(|a| a.node.expr()), each)
            }
            ExprP::Call(f, args) => {
                self.expr(f, each)
                    || all(&mut args.args.iter().map(|a| a.node.expr()), each)
                    || each(Some(f.span.end_span()))
            }
            ExprP::Dot(x, attr) => self.expr(x, each) || each(Some(attr.span)),
            ExprP::Not(x) | ExprP::Minus(x) | ExprP::Plus(x) | ExprP::BitNot(x) => {
                self.expr(x, each) || each(Some(e.span))
            }
            ExprP::Op(x, op, y) => {
                use starlark::syntax::ast::BinOp;
                match op {
                    BinOp::And | BinOp::Or => {
                        self.expr(x, each) || each(None) || self.expr(y, each)
                    }
                    _ => self.expr(x, each) || self.expr(y, each) || each(Some(y.span)),
                }
            }
            ExprP::Index(pair) => {
                self.expr(&pair.0, each) || self.expr(&pair.1, each) || each(Some(pair.1.span))
            }
            ExprP::Index2(triple) => {
                all(&mut [&triple.0, &triple.1, &triple.2].into_iter(), each)
                    || each(Some(triple.1.span))
            }
            ExprP::Slice(x, a, b, c) => {
                self.expr(x, each)
                    || [a, b, c].into_iter().any(|i| match i {
                        Some(i) => self.expr(i, each),
                        None => each(None),
                    })
                    || each(Some(x.span.end_span()))
            }
            ExprP::If(triple) => {
                self.expr(&triple.0, each)
                    || each(None)
                    || self.expr(&triple.1, each)
                    || self.expr(&triple.2, each)
            }
        }
    }
}

/// The line an annotation statement `__ytt_ann(LINE, "name", ...)` names, and its span.
fn annotation_line(s: &AstStmt, names: &GeneratedNames) -> Option<(i64, Span)> {
    let StmtP::Expression(e) = &s.node else {
        return None;
    };
    let ExprP::Call(f, args) = &e.node else {
        return None;
    };
    if !is_generated(f, gen::ANN, names) {
        return None;
    }
    Some((gen::ann_call_line(args.args.first()?.node.expr())?, s.span))
}
