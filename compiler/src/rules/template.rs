//! Which template code of a schema file `schemac check` reads without the interpreter: the
//! `def`s and lambdas of rules ([`RuleCode`]), when the file's program shows that the
//! interpreter would run it without error and keep the same functions.
//!
//! Only what is certain is taken: top-level `def`s whose parameters are plain names and whose
//! bodies are `return`s, expressions, assignments to names and `if`/`else`, and lambdas whose
//! bodies are expressions, where every name is a parameter, a variable of the `def`, a `def`
//! or `load()`ed name of the file, or one of starlark-go's builtins (an unknown name is a
//! compile-time error of the whole file in ytt). The literal templater
//! ([`schemac_runtime::template::literal`]) then takes the `def` blocks' lines and, in
//! `#@schema/validation` annotations, lambdas and the names of `def`s ended before; anything
//! else leaves the file to the interpreter, as before.

use std::collections::HashSet;

use starlark_syntax::syntax::ast::{
    AssignTargetP, AstAssignTargetP, AstExpr, AstNoPayload, AstParameter, AstStmt, ExprP,
    ParameterP, StmtP,
};

use schemac_runtime::starlark::UNIVERSAL;
use schemac_runtime::template::compile::Program;
use schemac_runtime::template::generated_names as gen;
use schemac_runtime::template::literal::RuleCode;
use schemac_runtime::yaml::parse::{Comment, RawFile, RawNode, RawValue};

use super::source::{parsed, top_level, visit_expr, visit_exprs};

/// What the compiler wraps each `def`'s body in (a function may build YAML, which these
/// collect; rule code builds none, no generated name but these being allowed).
const DEF_CONTEXT: &[&str] = &[gen::CTX_START, gen::CTX_END];

/// The rule code of `raw` (compiled to `program`) that the literal templater may read, when
/// all of the file's `def`s and lambdas are such code; None otherwise (or when it has neither).
pub fn rule_code(raw: &RawFile, program: &Program) -> Option<RuleCode> {
    let (comments, annotations): (Vec<&Comment>, Vec<&Comment>) = all_comments(raw)
        .into_iter()
        .partition(|c| !c.is_annotation());
    let has_rules = comments
        .iter()
        .any(|c| c.text.trim_start().starts_with("def "))
        || annotations.iter().any(|c| c.text.contains("lambda"));
    if !has_rules {
        return None;
    }
    if !program.outdents.is_empty() || !program.quoted.is_empty() {
        return None;
    }
    // (Past a budget of the compiler, the interpreter's error is the template's.)
    let ast = parsed(&raw.name, &program.source)?;
    // So is an error of starlark-go's resolver anywhere in the file (`max()` with 256
    // arguments in a `def` never called).
    if schemac_runtime::starlark::resolver_refuses(&ast, &program.names) {
        return None;
    }
    let template_line = |generated: usize| program.line_map.get(generated).copied();

    let mut globals: HashSet<&str> = HashSet::new();
    let mut defs = Vec::new();
    for stmt in top_level(ast.statement()) {
        let names: Vec<&str> = match &stmt.node {
            StmtP::Def(d) => {
                defs.push((d, stmt));
                vec![d.name.ident.as_str()]
            }
            StmtP::Load(l) => l.args.iter().map(|a| a.local.ident.as_str()).collect(),
            _ => continue,
        };
        for name in names {
            // A name bound twice at the top level is left to the interpreter.
            if !globals.insert(name) {
                return None;
            }
        }
    }
    let mut code = RuleCode::default();
    // The first comment on `line` (`comments` are in line order; a search, since a file may
    // hold thousands of `def`s).
    let comment_on = |line: u32| {
        let at = comments.partition_point(|c| c.line < line);
        comments.get(at).filter(|c| c.line == line)
    };
    for (def, stmt) in defs {
        let params = params(&def.params)?;
        if def.return_type.is_some() {
            return None;
        }
        let mut locals: HashSet<&str> = params.iter().copied().collect();
        body_locals(&def.body, &mut locals)?;
        let known = |n: &str| {
            locals.contains(n)
                || globals.contains(n)
                || UNIVERSAL.contains(&n)
                || DEF_CONTEXT.iter().any(|suffix| program.names.is(n, suffix))
        };
        let mut ok = true;
        visit_exprs(&def.body, &mut |e| ok &= plain_expr(e, &known));
        if !ok {
            return None;
        }
        let span = ast.file_span(stmt.span).resolve_span();
        let first = template_line(span.begin.line)?;
        // A statement's span ends at the start of the line after it.
        let end_line = match span.end.column {
            0 => span.end.line.checked_sub(1)?,
            _ => span.end.line,
        };
        let last = template_line(end_line)?;
        // The `def` line, then its body; the block's `#@ end`s follow its last line.
        let def_line = comment_on(first)?;
        if !def_line.text.trim_start().starts_with("def ") {
            return None;
        }
        // The compiler ends a `def` with a `return` on the line of its `#@ end`.
        let end = comment_on(last)?;
        if end.text.trim() != "end" {
            return None;
        }
        let end = end.line;
        code.blocks.push((first, end));
        code.defs.insert(def.name.ident.clone(), end);
    }
    let mut ok = true;
    visit_exprs(ast.statement(), &mut |e| {
        if let ExprP::Lambda(l) = &e.node {
            ok &= params(&l.params).is_some_and(|params| {
                let known =
                    |n: &str| params.contains(&n) || globals.contains(n) || UNIVERSAL.contains(&n);
                let mut body_ok = true;
                visit_expr(&l.body, &mut |x| body_ok &= plain_expr(x, &known));
                body_ok
            });
        }
    });
    // In the order of the file, for `RuleCode`'s search.
    code.blocks.sort_unstable();
    ok.then_some(code)
}

/// The names of `params` if each is a plain name, given once.
fn params(params: &[AstParameter]) -> Option<Vec<&str>> {
    let mut names: Vec<&str> = Vec::new();
    for p in params {
        match &p.node {
            ParameterP::Normal(id, None, None) if !names.contains(&id.ident.as_str()) => {
                names.push(&id.ident)
            }
            _ => return None,
        }
    }
    Some(names)
}

/// Adds the variables `body` assigns to `locals`; None if it has a statement that rule code
/// does not (loops, nested `def`s, `load`s, assignments to other than names).
fn body_locals<'a>(body: &'a AstStmt, locals: &mut HashSet<&'a str>) -> Option<()> {
    fn target<'a>(t: &'a AstAssignTargetP<AstNoPayload>, locals: &mut HashSet<&'a str>) -> bool {
        match &t.node {
            AssignTargetP::Identifier(id) => {
                locals.insert(&id.ident);
                true
            }
            AssignTargetP::Tuple(items) => items.iter().all(|i| target(i, locals)),
            _ => false,
        }
    }
    let ok = match &body.node {
        StmtP::Pass | StmtP::Return(_) | StmtP::Expression(_) => true,
        StmtP::Assign(a) => a.ty.is_none() && target(&a.lhs, locals),
        StmtP::AssignModify(t, ..) => target(t, locals),
        StmtP::Statements(items) => items.iter().all(|s| body_locals(s, locals).is_some()),
        StmtP::If(_, then) => body_locals(then, locals).is_some(),
        StmtP::IfElse(_, branches) => {
            body_locals(&branches.0, locals).is_some() && body_locals(&branches.1, locals).is_some()
        }
        StmtP::Break | StmtP::Continue | StmtP::For(_) | StmtP::Def(_) | StmtP::Load(_) => false,
    };
    ok.then_some(())
}

/// Whether the expression `e` (not what is under it) is rule code: no lambda, comprehension
/// or f-string, and a name only if `known`.
fn plain_expr(e: &AstExpr, known: &dyn Fn(&str) -> bool) -> bool {
    match &e.node {
        ExprP::Identifier(id) => known(&id.ident),
        ExprP::Lambda(_)
        | ExprP::ListComprehension(..)
        | ExprP::DictComprehension(..)
        | ExprP::FString(_) => false,
        _ => true,
    }
}

/// The file's comments, by line.
fn all_comments(raw: &RawFile) -> Vec<&Comment> {
    fn walk<'a>(node: &'a RawNode, out: &mut Vec<&'a Comment>) {
        out.extend(&node.comments);
        if let RawValue::Map(items) | RawValue::Array(items) = &node.value {
            items.iter().for_each(|i| walk(i, out));
        }
    }
    let mut out: Vec<&Comment> = raw.trailing_comments.iter().collect();
    raw.docs.iter().for_each(|d| walk(d, &mut out));
    out.sort_by_key(|c| c.line);
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use schemac_runtime::yaml::parse::parse_file;
    use std::collections::HashMap;

    fn code(src: &str) -> Option<RuleCode> {
        let raw = parse_file("schema.yml", src, false).unwrap();
        let program = schemac_runtime::template::compile::compile(&raw).ok()?;
        rule_code(&raw, &program)
    }

    #[test]
    fn a_def_and_a_lambda() {
        let src = "#@ def valid_host(h):\n#@   return h.endswith(\".example.com\") and len(h) < 64\n#@ end\n#@data/values-schema\n---\n#@schema/validation (\"lower\", lambda n: n == n.lower())\nname: \"\"\n#@schema/validation (\"host\", valid_host)\nhost: x\n";
        let c = code(src).expect("rule code");
        assert_eq!(c.blocks, vec![(1, 3)]);
        assert_eq!(c.defs, HashMap::from([("valid_host".to_string(), 3)]));
    }
}
