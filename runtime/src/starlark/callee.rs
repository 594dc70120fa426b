//! Calls whose arguments the called function refuses, as ytt reports them.
//!
//! starlark-go (ytt's interpreter) binds a call's arguments inside the called function
//! (`setArgs`), so ytt's stack has a frame for the function, placed at its first instruction:
//! the first variable its body reads (a local, a global, a loaded name: anything but one of
//! starlark-go's universal builtins), the YAML node it starts, or a function it defines; else
//! its `def` line (a body that starts with a constant, a builtin, a new list or dict). And
//! starlark-go words the refusal in its own way ([`Signature::refusal`]).
//!
//! starlark-rust checks the arguments before the function starts and names it only. The
//! function is found again among the `def`s and lambdas of the program and of the `.star` files
//! it may load: by its name, by the parameters the refusal names, and by the name it is called
//! by (measured with ytt; see `tests/cases/starlark/call-args-*`).

use starlark::codemap::Span;
use starlark::docs::DocParams;
use starlark::syntax::ast::{
    ArgumentP, AssignTargetP, AstExpr, AstLiteral, AstParameter, AstStmt, ExprP, ParameterP, StmtP,
};
use starlark::syntax::AstModule;

mod entry;

use crate::template::generated_names::GeneratedNames;
pub use entry::UNIVERSAL;
use entry::{entry, Body};

/// A function's parameters, as starlark-go's `setArgs` binds a call's arguments to them.
#[derive(Debug, Clone, PartialEq)]
pub(super) struct Signature {
    pub name: String,
    /// The parameters before `*` or `*args`, and whether each has a default.
    positional: Vec<(String, bool)>,
    varargs: bool,
    /// The parameters after `*` or `*args` (keyword-only), and whether each has a default.
    keyword_only: Vec<(String, bool)>,
    kwargs: bool,
}

impl Signature {
    /// The signature of a `def` or lambda named `name` with `params`.
    pub fn of_params(name: &str, params: &[AstParameter]) -> Signature {
        let mut sig = Signature::named(name);
        let mut starred = false;
        for p in params {
            match &p.node {
                ParameterP::Normal(id, _, default) => {
                    let param = (id.node.ident.clone(), default.is_some());
                    match starred {
                        false => sig.positional.push(param),
                        true => sig.keyword_only.push(param),
                    }
                }
                ParameterP::NoArgs => starred = true,
                ParameterP::Args(..) => (starred, sig.varargs) = (true, true),
                ParameterP::KwArgs(..) => sig.kwargs = true,
                ParameterP::Slash => {}
            }
        }
        sig
    }

    /// The signature of a function value, from its documentation.
    pub fn of_doc(name: &str, d: &DocParams) -> Signature {
        let param = |p: &starlark::docs::DocParam| (p.name.clone(), p.default_value.is_some());
        Signature {
            positional: d
                .pos_only
                .iter()
                .chain(&d.pos_or_named)
                .map(param)
                .collect(),
            varargs: d.args.is_some(),
            keyword_only: d.named_only.iter().map(param).collect(),
            kwargs: d.kwargs.is_some(),
            ..Signature::named(name)
        }
    }

    fn named(name: &str) -> Signature {
        Signature {
            name: name.to_string(),
            positional: Vec::new(),
            varargs: false,
            keyword_only: Vec::new(),
            kwargs: false,
        }
    }

    fn has_param(&self, name: &str) -> bool {
        self.params().any(|(p, _)| p == name)
    }

    /// The ordinary parameters: positional, then keyword-only.
    fn params(&self) -> impl Iterator<Item = &(String, bool)> {
        self.positional.iter().chain(&self.keyword_only)
    }

    /// starlark-go's refusal of a call with `given` positional arguments and the keyword
    /// arguments `keywords` (in the call's order), `None` when the arguments bind.
    pub fn refusal(&self, given: usize, keywords: &[&str]) -> Option<String> {
        let name = &self.name;
        let plural = |n: usize| if n == 1 { "" } else { "s" };
        let count = self.positional.len() + self.keyword_only.len();
        if count == 0 && !self.varargs && !self.kwargs {
            let actual = given + keywords.len();
            return (actual > 0)
                .then(|| format!("function {name} accepts no arguments ({actual} given)"));
        }
        let most = self.positional.len();
        if given > most && !self.varargs {
            let at_most = if self.positional.iter().any(|p| p.1) {
                "at most "
            } else {
                ""
            };
            return Some(format!(
                "function {name} accepts {at_most}{most} positional argument{} ({given} given)",
                plural(most)
            ));
        }
        let bound_by_position = given.min(most);
        let mut set: Vec<bool> = (0..count).map(|i| i < bound_by_position).collect();
        let mut extra: Vec<&str> = Vec::new();
        for &k in keywords {
            match self.params().position(|(p, _)| p == k) {
                Some(i) if set[i] => {
                    return Some(format!(
                        "function {name} got multiple values for parameter \"{k}\""
                    ))
                }
                Some(i) => set[i] = true,
                None if !self.kwargs => {
                    return Some(format!(
                        "function {name} got an unexpected keyword argument \"{k}\""
                    ))
                }
                None if extra.contains(&k) => {
                    return Some(format!(
                        "function {name} got multiple values for parameter \"{k}\""
                    ))
                }
                None => extra.push(k),
            }
        }
        let missing: Vec<&str> = self
            .params()
            .zip(&set)
            .filter(|((_, default), set)| !*default && !**set)
            .map(|((p, _), _)| p.as_str())
            .collect();
        (!missing.is_empty()).then(|| {
            format!(
                "function {name} missing {} argument{} ({})",
                missing.len(),
                plural(missing.len()),
                missing.join(", ")
            )
        })
    }

    /// starlark-go's refusal of a call whose arguments are unknown, from starlark-rust's
    /// refusal `raw` of it.
    fn refusal_of(&self, raw: &str) -> Option<String> {
        let name = &self.name;
        let quoted = raw.split('`').nth(1);
        if let Some(extra) = raw
            .strip_prefix("Found ")
            .and_then(|r| r.split_once(" extra positional"))
        {
            let extra: usize = extra.0.parse().ok()?;
            return self.refusal(self.positional.len() + extra, &[]);
        }
        Some(match quoted? {
            k if raw.contains(" extra named parameter") => {
                format!("function {name} got an unexpected keyword argument \"{k}\"")
            }
            p if raw.starts_with("Missing ") => format!("function {name} missing 1 argument ({p})"),
            p => format!("function {name} got multiple values for parameter \"{p}\""),
        })
    }

    /// Whether starlark-rust's refusal `raw` (of a call with `args`, when known) can be a
    /// refusal of this signature.
    fn fits(&self, raw: &str, args: Option<&CallArgs>) -> bool {
        if let Some(a) = args {
            let keywords: Vec<&str> = a.keywords.iter().map(String::as_str).collect();
            return self.refusal(a.positional, &keywords).is_some();
        }
        let quoted = |s: &str| s.split('`').nth(1).map(str::to_string);
        match raw {
            _ if raw.starts_with("Missing ") => quoted(raw).is_some_and(|p| self.has_param(&p)),
            _ if raw.starts_with("Argument `") => {
                quoted(raw).is_some_and(|p| self.kwargs || self.has_param(&p))
            }
            _ if raw.contains(" extra named parameter") => {
                !self.kwargs && quoted(raw).is_some_and(|k| !self.has_param(&k))
            }
            _ => !self.varargs,
        }
    }
}

/// Whether `raw` (starlark-rust's message) refuses a call's arguments.
pub(super) fn is_refusal(raw: &str) -> bool {
    raw.starts_with("Missing parameter `")
        || raw.starts_with("Missing named-only parameter `")
        || raw.starts_with("Missing positional-only parameter `")
        || (raw.starts_with("Found ") && raw.contains(" for call to "))
        || (raw.starts_with("Argument `") && raw.ends_with("` occurs more than once"))
}

/// The arguments of a call, when their number and keywords are known (splats of literal
/// lists and dicts included).
struct CallArgs {
    positional: usize,
    keywords: Vec<String>,
}

/// A `def` or lambda of a file.
struct Function {
    /// The file's index in the files searched.
    file: usize,
    sig: Signature,
    /// The generated line of its `def` (or `lambda`).
    line: usize,
    /// The generated line of its first instruction.
    entry: usize,
    /// The names it is bound to: a `def`'s name, the variable, dict key or keyword argument a
    /// lambda is given to, and variables assigned from those (`g = f`).
    names: Vec<String>,
}

/// A `load` of a file's top level: `local` is the module's `their`.
struct Import {
    file: usize,
    local: String,
    module: String,
    their: String,
}

/// A refused call, as ytt reports it: the called function's frame (the index of its file in
/// the files searched, the generated line of its first instruction) and starlark-go's words.
pub(super) struct Refused {
    pub file: usize,
    pub gen_line: usize,
    pub message: Option<String>,
}

/// The functions and `load`s of some files (each a file's name, its compiled source and the
/// names that source binds for its own use).
pub(super) struct Index {
    files: Vec<String>,
    functions: Vec<Function>,
    imports: Vec<Import>,
}

impl Index {
    pub fn of(files: &[(&str, &str, &GeneratedNames)]) -> Index {
        let mut functions = Vec::new();
        let mut imports = Vec::new();
        for (i, (file, source, names)) in files.iter().enumerate() {
            // Parsed as the program runs (`f(*xs, k=1)` as `f(k=1, *xs)`, see `resolver_patch`).
            let parsed = match super::source_too_deep(source) {
                None => match super::resolver_patch::parse(file, source.to_string()) {
                    super::resolver_patch::Parsed::Module { ast, .. } => Some(ast),
                    _ => None,
                },
                Some(_) => None,
            };
            if let Some(ast) = parsed {
                let mut walk = Walk {
                    ast: &ast,
                    names,
                    file: i,
                    top_level: top_level_names(ast.statement(), i, &mut imports),
                    out: &mut functions,
                };
                walk.stmt(ast.statement());
            }
        }
        Index {
            files: files.iter().map(|(n, _, _)| n.to_string()).collect(),
            functions,
            imports,
        }
    }
}

/// The function named `name` that refused a call with starlark-rust's message `raw`, among
/// the functions of `index`. `call` is the call (`direct`) or the call of the native function
/// that called it (`sorted(xs, key=f)`). `name` may be of a renamed load binding (see
/// [`super::guard_names::shown_name`]): a `def` after the `load` of its name, in the file
/// that loads it, not the loaded function.
pub(super) fn refused_call(
    raw: &str,
    name: &str,
    call: &starlark::codemap::FileSpan,
    direct: bool,
    index: &Index,
) -> Option<Refused> {
    let own_def = super::guard_names::shown_name(name) != name;
    let name = super::guard_names::shown_name(name);
    if !is_refusal(raw) {
        return None;
    }
    let Index {
        files,
        functions,
        imports,
    } = index;
    let call_file = files.iter().position(|n| n == call.filename());
    let call_line = call.resolve_span().begin.line;
    let site = super::error_line::parse_span(call.source_span());
    let site = site
        .as_ref()
        .and_then(|(_, ast)| super::error_line::span_expression(ast));
    let (args, called_as) = match site.map(|e| &e.node) {
        Some(ExprP::Call(target, args)) if direct => (call_args(&args.args), bound_name(target)),
        _ => (None, None),
    };
    // The name called, and the file it is defined in when it is a loaded one.
    let import = imports
        .iter()
        .filter(|_| !own_def)
        .find(|m| Some(m.file) == call_file && Some(&m.local) == called_as.as_ref());
    let called = |f: &Function| match (import, &called_as) {
        (Some(m), _) => {
            files[f.file].ends_with(m.module.trim_start_matches("./")) && f.names.contains(&m.their)
        }
        (None, Some(n)) => f.names.contains(n),
        (None, None) => false,
    };
    let rank = |f: &Function| {
        let here = Some(f.file) == call_file;
        (called(f), here, here && f.line <= call_line)
    };
    let best = functions
        .iter()
        .filter(|f| {
            super::guard_names::shown_name(&f.sig.name) == name && f.sig.fits(raw, args.as_ref())
        })
        .fold(None, |best: Option<&Function>, f| match best {
            // The nearest one before the call among equals (the last one in its file).
            Some(b) if rank(b) > rank(f) || (rank(b) == rank(f) && !rank(f).2) => Some(b),
            _ => Some(f),
        })?;
    let message = match &args {
        Some(a) => {
            let keywords: Vec<&str> = a.keywords.iter().map(String::as_str).collect();
            best.sig.refusal(a.positional, &keywords)
        }
        None => best.sig.refusal_of(raw),
    };
    Some(Refused {
        file: best.file,
        gen_line: best.entry,
        message,
    })
}

fn call_args(args: &[starlark::syntax::ast::AstArgument]) -> Option<CallArgs> {
    let mut out = CallArgs {
        positional: 0,
        keywords: Vec::new(),
    };
    for a in args {
        match &a.node {
            ArgumentP::Positional(_) => out.positional += 1,
            ArgumentP::Named(k, _) => out.keywords.push(k.node.clone()),
            ArgumentP::Args(x) => match &splatted(x).node {
                ExprP::List(items) | ExprP::Tuple(items) => out.positional += items.len(),
                _ => return None,
            },
            ArgumentP::KwArgs(x) => match &splatted(x).node {
                ExprP::Dict(pairs) => {
                    for (k, _) in pairs {
                        out.keywords.push(string_literal(k)?);
                    }
                }
                _ => return None,
            },
        }
    }
    Some(out)
}

/// The value of a `*` or `**` argument, as written (without [`super::go_builtins::ARGS`] or
/// [`super::go_builtins::KWARGS`] around it).
fn splatted(x: &AstExpr) -> &AstExpr {
    use super::go_builtins::{ARGS, KWARGS};
    match &x.node {
        ExprP::Call(f, args)
            if (is_guard_call(f, ARGS) || is_guard_call(f, KWARGS)) && args.args.len() == 1 =>
        {
            args.args[0].node.expr()
        }
        _ => x,
    }
}

/// The name a call's target reads last: `f`, `s.f`, `d["f"]` (also as schemac's index call).
fn bound_name(target: &AstExpr) -> Option<String> {
    match &target.node {
        ExprP::Identifier(id) => Some(super::guard_names::shown_name(&id.node.ident).to_string()),
        ExprP::Dot(_, attr) => Some(attr.node.clone()),
        ExprP::Index(pair) => string_literal(&pair.1),
        ExprP::Call(f, args) if is_guard_call(f, super::go_builtins::INDEX) => {
            args.args.get(1).and_then(|a| string_literal(a.node.expr()))
        }
        _ => None,
    }
}

fn string_literal(e: &AstExpr) -> Option<String> {
    match &e.node {
        ExprP::Literal(AstLiteral::String(s)) => Some(s.node.clone()),
        _ => None,
    }
}

/// Whether `e` names the guard function `canonical` (under the program's prefix: see
/// [`super::guard_names`]).
fn is_guard_call(e: &AstExpr, canonical: &str) -> bool {
    matches!(&e.node, ExprP::Identifier(id) if super::guard_names::is_guard(&id.node.ident, canonical))
}

/// The names the top level of a module binds (a builtin's name bound there is a global).
/// Its `load`s go to `imports`.
fn top_level_names(s: &AstStmt, file: usize, imports: &mut Vec<Import>) -> Vec<String> {
    let mut out = Vec::new();
    let mut add = |t: &starlark::syntax::ast::AstAssignTarget| {
        t.visit_lvalue(|id| out.push(id.node.ident.clone()))
    };
    let stmts = match &s.node {
        StmtP::Statements(stmts) => stmts.as_slice(),
        _ => std::slice::from_ref(s),
    };
    for s in stmts {
        match &s.node {
            StmtP::Assign(a) => add(&a.lhs),
            StmtP::AssignModify(t, ..) => add(t),
            StmtP::For(f) => add(&f.var),
            _ => {}
        }
    }
    for s in stmts {
        match &s.node {
            StmtP::Def(d) => out.push(d.name.node.ident.clone()),
            StmtP::Load(l) => {
                for a in &l.args {
                    out.push(a.local.node.ident.clone());
                    imports.push(Import {
                        file,
                        local: a.local.node.ident.clone(),
                        module: l.module.node.clone(),
                        their: a.their.node.clone(),
                    });
                }
            }
            _ => {}
        }
    }
    out
}

/// Collects the functions of one file.
struct Walk<'a> {
    ast: &'a AstModule,
    names: &'a GeneratedNames,
    file: usize,
    top_level: Vec<String>,
    out: &'a mut Vec<Function>,
}

impl Walk<'_> {
    fn line(&self, span: Span) -> usize {
        self.ast.file_span(span).resolve_span().begin.line
    }

    /// Records a function; returns its index.
    fn function(
        &mut self,
        name: &str,
        params: &[AstParameter],
        span: Span,
        first: Option<Span>,
    ) -> usize {
        let sig = Signature::of_params(name, params);
        let line = self.line(span);
        let entry = first.map_or(line, |s| self.line(s));
        self.out.push(Function {
            file: self.file,
            sig,
            line,
            entry,
            names: Vec::new(),
        });
        self.out.len() - 1
    }

    /// Records the functions of `s`.
    fn stmt(&mut self, s: &AstStmt) {
        match &s.node {
            StmtP::Def(d) => {
                let first = entry(Body::Stmt(&d.body), &d.params, &self.top_level, self.names);
                let at = self.function(&d.name.node.ident, &d.params, s.span, first);
                self.out[at].names.push(d.name.node.ident.clone());
                for p in &d.params {
                    if let ParameterP::Normal(_, _, Some(default)) = &p.node {
                        self.expr(default);
                    }
                }
                self.stmt(&d.body);
            }
            StmtP::Assign(a) => {
                let lambda = self.expr(&a.rhs);
                if let AssignTargetP::Identifier(id) = &a.lhs.node {
                    // `x = lambda ...`, or `x = f` of a function bound to `f` before.
                    let at = lambda.or_else(|| match &a.rhs.node {
                        ExprP::Identifier(f) => self
                            .out
                            .iter()
                            .rposition(|g| g.file == self.file && g.names.contains(&f.node.ident)),
                        _ => None,
                    });
                    if let Some(at) = at {
                        self.out[at].names.push(id.node.ident.clone());
                    }
                }
                a.lhs.visit_expr(|e| {
                    self.expr(e);
                });
            }
            _ => {
                super::nesting::own_exprs(s, |e| {
                    self.expr(e);
                });
                s.visit_stmt(|c| self.stmt(c));
            }
        }
    }

    /// Records the functions of `e`; the index of `e`'s own when it is a lambda.
    fn expr(&mut self, e: &AstExpr) -> Option<usize> {
        let bind = |walk: &mut Self, value: &AstExpr, name: Option<String>| {
            if let (Some(at), Some(name)) = (walk.expr(value), name) {
                walk.out[at].names.push(name);
            }
        };
        match &e.node {
            ExprP::Lambda(l) => {
                let first = entry(Body::Expr(&l.body), &l.params, &self.top_level, self.names);
                let at = self.function("lambda", &l.params, e.span, first);
                self.expr(&l.body);
                return Some(at);
            }
            ExprP::Dict(pairs) => {
                for (k, v) in pairs {
                    self.expr(k);
                    bind(self, v, string_literal(k));
                }
            }
            ExprP::Call(target, args) => {
                self.expr(target);
                for a in &args.args {
                    let name = match &a.node {
                        ArgumentP::Named(k, _) => Some(k.node.clone()),
                        _ => None,
                    };
                    bind(self, a.node.expr(), name);
                }
            }
            _ => e.visit_expr(|c| {
                self.expr(c);
            }),
        }
        None
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sig(src: &str) -> Signature {
        let ast = AstModule::parse("t", src.to_string(), &super::super::dialect()).unwrap();
        let StmtP::Def(d) = &ast.statement().node else {
            panic!("not a def")
        };
        Signature::of_params(&d.name.node.ident, &d.params)
    }

    #[test]
    fn refusals_are_worded_as_starlark_go_does() {
        let f = sig("def f(a):\n  return a\n");
        assert_eq!(f.refusal(1, &[]), None);
        assert_eq!(
            f.refusal(0, &[]).unwrap(),
            "function f missing 1 argument (a)"
        );
        assert_eq!(
            f.refusal(2, &[]).unwrap(),
            "function f accepts 1 positional argument (2 given)"
        );
        assert_eq!(
            f.refusal(0, &["z"]).unwrap(),
            "function f got an unexpected keyword argument \"z\""
        );
        assert_eq!(
            f.refusal(1, &["a"]).unwrap(),
            "function f got multiple values for parameter \"a\""
        );
        let g = sig("def g(a, b=1, *, c, d=2):\n  return a\n");
        assert_eq!(
            g.refusal(0, &[]).unwrap(),
            "function g missing 2 arguments (a, c)"
        );
        assert_eq!(
            g.refusal(3, &[]).unwrap(),
            "function g accepts at most 2 positional arguments (3 given)"
        );
        let h = sig("def h():\n  return 1\n");
        assert_eq!(
            h.refusal(1, &["x"]).unwrap(),
            "function h accepts no arguments (2 given)"
        );
        let k = sig("def k(a, **kw):\n  return a\n");
        assert_eq!(k.refusal(1, &["z", "y"]), None);
        assert_eq!(
            k.refusal(0, &["z"]).unwrap(),
            "function k missing 1 argument (a)"
        );
    }
}
