//! The Starlark side of a schema, as lowering reads it: each file's program parsed into a
//! syntax tree, its `#@schema/validation` annotations by line, its top-level functions
//! (including those `load()`ed from `.star` files) and every name it binds anywhere.

use std::collections::HashMap;

use starlark_syntax::syntax::ast::{
    ArgumentP, AssignTargetP, AstExpr, AstNoPayload, AstStmt, CallArgsP, DefP, ExprP, ParameterP,
    StmtP,
};
use starlark_syntax::syntax::{AstModule, Dialect};

use schemac_runtime::template::compile::{compile, compile_starlark};
use schemac_runtime::template::generated_names::{self as gen, GeneratedNames};
use schemac_runtime::template::Sources;

pub type Def = DefP<AstNoPayload>;
pub type CallArgs = CallArgsP<AstNoPayload>;

/// One parsed file.
pub struct Module {
    pub name: String,
    ast: std::sync::Arc<AstModule>,
    /// The template line of each line of the compiled program.
    line_map: Vec<u32>,
    /// The names the compiled program binds for its own use.
    names: GeneratedNames,
}

/// A top-level `def`: the module it lives in and its name there.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct DefRef {
    pub module: usize,
    pub name: String,
}

/// What a name means at the top level of a module.
#[derive(Clone, Debug)]
pub enum Global {
    Def(DefRef),
    /// `assert`, loaded from `@ytt:assert`.
    AssertModule,
}

/// Every file of the schema that lowering may need, parsed.
pub struct Program {
    pub modules: Vec<Module>,
    /// Per module: names bound exactly once at top level (by `def` or `load`), and what they are.
    globals: Vec<HashMap<String, Global>>,
    /// Per module: how many times each name is bound anywhere (assignments, parameters,
    /// loops, `def`s, `load`s): a name bound twice may be shadowed, so it is not lowered.
    bindings: Vec<HashMap<String, usize>>,
}

pub(crate) fn dialect() -> Dialect {
    Dialect {
        enable_top_level_stmt: true,
        enable_keyword_only_arguments: true,
        ..Dialect::Standard
    }
}

/// How many programs [`parsed`] keeps.
const PARSED_KEPT: usize = 8;

/// The syntax trees [`parsed`] made last (the file's name, the program's source, its tree).
type ParsedPrograms = std::collections::VecDeque<(String, String, std::sync::Arc<AstModule>)>;

static PARSED: std::sync::Mutex<ParsedPrograms> =
    std::sync::Mutex::new(std::collections::VecDeque::new());

/// The syntax tree of the program `source` compiled from the file `name`, with its literals
/// read as starlark-go reads them (`r"a\"b"`, `0755`, a tab between tokens); `None` when it
/// does not parse or nests past a budget of the compiler (the interpreter's error is then the
/// program's). The rule code reader and the rules' translation both read a schema file's
/// program: the last [`PARSED_KEPT`] trees are kept, so that it is parsed once.
pub(crate) fn parsed(name: &str, source: &str) -> Option<std::sync::Arc<AstModule>> {
    let mut kept = PARSED.lock().unwrap_or_else(|e| e.into_inner());
    if let Some((_, _, ast)) = kept.iter().find(|(n, s, _)| n == name && s == source) {
        return Some(std::sync::Arc::clone(ast));
    }
    let go_source = schemac_runtime::starlark::source_as_go_reads(source)?;
    let ast = AstModule::parse(name, go_source, &dialect()).ok()?;
    // Dropping a program nested past a budget recurses as deep as it nests.
    if schemac_runtime::starlark::compile_budget_exceeded(&ast).is_some() {
        std::mem::forget(ast);
        return None;
    }
    let ast = std::sync::Arc::new(ast);
    if kept.len() == PARSED_KEPT {
        kept.pop_front();
    }
    kept.push_back((
        name.to_string(),
        source.to_string(),
        std::sync::Arc::clone(&ast),
    ));
    Some(ast)
}

impl Program {
    /// Parses the schema files (`.yml`/`.yaml` templates) and the `.star` files they load.
    /// Files that do not parse are skipped: their rules stay with the interpreter.
    pub fn parse(sources: &[(String, String)]) -> Program {
        let files = Sources::new(
            sources
                .iter()
                .map(|(n, t)| (n.clone(), std::sync::Arc::from(t.as_str())))
                .collect(),
        );
        let mut p = Program {
            modules: Vec::new(),
            globals: Vec::new(),
            bindings: Vec::new(),
        };
        for (name, text) in sources {
            if name.ends_with(".yml") || name.ends_with(".yaml") {
                p.module(name, text, &files);
            }
        }
        p
    }

    /// The module of `name`, parsed on first use; None if it cannot be read.
    fn module(&mut self, name: &str, text: &str, files: &Sources) -> Option<usize> {
        if let Some(i) = self.modules.iter().position(|m| m.name == name) {
            return Some(i);
        }
        let program = if name.ends_with(".star") {
            compile_starlark(text).ok()?
        } else {
            let raw = schemac_runtime::yaml::parse::parse_file(name, text, false).ok()?;
            compile(&raw).ok()?
        };
        let ast = parsed(name, &program.source)?;
        let index = self.modules.len();
        self.modules.push(Module {
            name: name.to_string(),
            ast,
            line_map: program.line_map,
            names: program.names,
        });
        self.globals.push(HashMap::new());
        let mut bindings = HashMap::new();
        count_bindings(self.modules[index].ast.statement(), &mut bindings);
        self.bindings.push(bindings);
        let mut globals = HashMap::new();
        let mut loads = Vec::new();
        for stmt in top_level(self.modules[index].ast.statement()) {
            match &stmt.node {
                StmtP::Def(d) => {
                    globals.insert(
                        d.name.ident.clone(),
                        Global::Def(DefRef {
                            module: index,
                            name: d.name.ident.clone(),
                        }),
                    );
                }
                StmtP::Load(l) => {
                    let symbols: Vec<(String, String)> = l
                        .args
                        .iter()
                        .map(|a| (a.local.ident.clone(), a.their.node.clone()))
                        .collect();
                    loads.push((l.module.node.clone(), symbols));
                }
                _ => {}
            }
        }
        for (path, symbols) in loads {
            if path == "@ytt:assert" {
                for (local, _) in symbols.iter().filter(|(_, their)| their == "assert") {
                    globals.insert(local.clone(), Global::AssertModule);
                    // ytt's templates call it `assert_` once compiled (see `rename_assert`).
                    globals.insert(format!("{local}_"), Global::AssertModule);
                }
                continue;
            }
            let Ok((found, text)) = files.find(name, &path) else {
                continue;
            };
            let Ok(text) = text.get() else {
                continue;
            };
            let Some(loaded) = self.module(&found, text, files) else {
                continue;
            };
            for (local, their) in symbols {
                if let Some(Global::Def(d)) = self.globals[loaded].get(&their) {
                    globals.insert(local, Global::Def(d.clone()));
                }
            }
        }
        self.globals[index] = globals;
        Some(index)
    }

    /// What `name` means at the top level of `module`, if it is bound once, to a lowerable kind.
    pub fn global(&self, module: usize, name: &str) -> Option<&Global> {
        let bound = self.bindings[module].get(name).copied().unwrap_or(0);
        let assert_alias = name.ends_with('_')
            && self.bindings[module]
                .get(name.trim_end_matches('_'))
                .copied()
                == Some(1);
        match self.globals[module].get(name)? {
            g @ Global::AssertModule if bound == 1 || assert_alias => Some(g),
            g @ Global::Def(_) if bound == 1 => Some(g),
            _ => None,
        }
    }

    /// Whether `name` is bound anywhere in `module` (then a builtin of that name is not used).
    /// The names `module`'s compiled program binds for its own use.
    pub fn generated_names(&self, module: usize) -> &GeneratedNames {
        &self.modules[module].names
    }

    pub fn is_bound(&self, module: usize, name: &str) -> bool {
        self.bindings[module].contains_key(name)
    }

    /// `file:line` of a piece of a module's program, as the template's author sees it.
    pub fn locate(&self, module: usize, span: starlark_syntax::codemap::Span) -> String {
        let m = &self.modules[module];
        let line = m.ast.file_span(span).resolve_span().begin.line;
        format!(
            "{}:{}",
            m.name,
            m.line_map.get(line).copied().unwrap_or(line as u32 + 1)
        )
    }

    pub fn module_index(&self, name: &str) -> Option<usize> {
        self.modules.iter().position(|m| m.name == name)
    }

    /// The `#@schema/validation` arguments and the top-level `def`s of every module, found in
    /// one walk of each (looked up once per annotation and per call, they were found by a
    /// walk each: 5,000 annotations took 11 s).
    pub fn index(&self) -> Index<'_> {
        let mut index = Index {
            validations: HashMap::new(),
            defs: HashMap::new(),
        };
        for (m, module) in self.modules.iter().enumerate() {
            visit_exprs(module.ast.statement(), &mut |e| {
                if let Some((line, args)) = annotation_args(e, &module.names) {
                    index.validations.entry((m, line)).or_insert(args);
                }
            });
            for stmt in top_level(module.ast.statement()) {
                if let StmtP::Def(d) = &stmt.node {
                    index.defs.entry((m, d.name.ident.as_str())).or_insert(d);
                }
            }
        }
        index
    }
}

/// What [`Program::index`] finds.
pub struct Index<'p> {
    /// The arguments of the first `#@schema/validation` annotation on each line of a module.
    validations: HashMap<(usize, u32), &'p CallArgs>,
    /// The first top-level `def` of each name in a module.
    defs: HashMap<(usize, &'p str), &'p Def>,
}

impl<'p> Index<'p> {
    /// The arguments of the `#@schema/validation` annotation on `line` of `module`.
    pub fn validation_args(&self, module: usize, line: u32) -> Option<&'p CallArgs> {
        self.validations.get(&(module, line)).copied()
    }

    pub fn def(&self, r: &DefRef) -> Option<&'p Def> {
        self.defs.get(&(r.module, r.name.as_str())).copied()
    }
}

/// `__ytt_ann(LINE, "schema/validation", __ytt_pack(ARGS))` → LINE and ARGS (`names` are the
/// program's).
fn annotation_args<'e>(e: &'e AstExpr, names: &GeneratedNames) -> Option<(u32, &'e CallArgs)> {
    let ExprP::Call(f, args) = &e.node else {
        return None;
    };
    let ExprP::Identifier(id) = &f.node else {
        return None;
    };
    if !names.is(&id.node.ident, gen::ANN) || args.args.len() != 3 {
        return None;
    }
    use starlark_syntax::syntax::ast::AstLiteral;
    let [ArgumentP::Positional(at), ArgumentP::Positional(name), ArgumentP::Positional(pack)] =
        [0, 1, 2].map(|i| &args.args[i].node)
    else {
        return None;
    };
    match &name.node {
        ExprP::Literal(AstLiteral::String(s)) if s.node == "schema/validation" => {}
        _ => return None,
    }
    let line = u32::try_from(gen::ann_call_line(at)?).ok()?;
    match &pack.node {
        ExprP::Call(f, inner) if matches!(&f.node, ExprP::Identifier(id) if names.is(&id.node.ident, gen::PACK)) => {
            Some((line, inner))
        }
        _ => None,
    }
}

pub(crate) fn top_level(stmt: &AstStmt) -> Box<dyn Iterator<Item = &AstStmt> + '_> {
    match &stmt.node {
        StmtP::Statements(items) => Box::new(items.iter().flat_map(top_level)),
        _ => Box::new(std::iter::once(stmt)),
    }
}

fn bind_target(t: &AssignTargetP<AstNoPayload>, out: &mut HashMap<String, usize>) {
    match t {
        AssignTargetP::Identifier(id) => *out.entry(id.node.ident.clone()).or_default() += 1,
        AssignTargetP::Tuple(items) => items.iter().for_each(|i| bind_target(&i.node, out)),
        _ => {}
    }
}

fn bind_params(
    params: &[starlark_syntax::syntax::ast::AstParameter],
    out: &mut HashMap<String, usize>,
) {
    for p in params {
        match &p.node {
            ParameterP::Normal(id, ..) | ParameterP::Args(id, _) | ParameterP::KwArgs(id, _) => {
                *out.entry(id.node.ident.clone()).or_default() += 1
            }
            _ => {}
        }
    }
}

/// Counts every binding of a name in `stmt` and the expressions in it.
fn count_bindings(stmt: &AstStmt, out: &mut HashMap<String, usize>) {
    visit_stmts(stmt, &mut |s| match &s.node {
        StmtP::Assign(a) => bind_target(&a.lhs.node, out),
        StmtP::AssignModify(t, ..) => bind_target(&t.node, out),
        StmtP::For(f) => bind_target(&f.var.node, out),
        StmtP::Def(d) => {
            *out.entry(d.name.ident.clone()).or_default() += 1;
            bind_params(&d.params, out);
        }
        StmtP::Load(l) => l
            .args
            .iter()
            .for_each(|a| *out.entry(a.local.ident.clone()).or_default() += 1),
        _ => {}
    });
    visit_exprs(stmt, &mut |e| match &e.node {
        ExprP::Lambda(l) => bind_params(&l.params, out),
        ExprP::ListComprehension(_, f, _) | ExprP::DictComprehension(_, f, _) => {
            bind_target(&f.var.node, out)
        }
        _ => {}
    });
}

fn visit_stmts<'a>(stmt: &'a AstStmt, f: &mut dyn FnMut(&'a AstStmt)) {
    f(stmt);
    match &stmt.node {
        StmtP::Statements(items) => items.iter().for_each(|s| visit_stmts(s, f)),
        StmtP::If(_, body) => visit_stmts(body, f),
        StmtP::IfElse(_, branches) => {
            visit_stmts(&branches.0, f);
            visit_stmts(&branches.1, f);
        }
        StmtP::For(l) => visit_stmts(&l.body, f),
        StmtP::Def(d) => visit_stmts(&d.body, f),
        _ => {}
    }
}

/// Calls `f` on every expression of `stmt`, outermost first.
pub fn visit_exprs<'a>(stmt: &'a AstStmt, f: &mut dyn FnMut(&'a AstExpr)) {
    visit_stmts(stmt, &mut |s| {
        let mut top: Vec<&'a AstExpr> = Vec::new();
        match &s.node {
            StmtP::Return(Some(e))
            | StmtP::Expression(e)
            | StmtP::If(e, _)
            | StmtP::IfElse(e, _) => top.push(e),
            StmtP::Assign(a) => top.push(&a.rhs),
            StmtP::AssignModify(_, _, e) => top.push(e),
            StmtP::For(l) => top.push(&l.over),
            _ => {}
        }
        for e in top {
            visit_expr(e, f);
        }
    });
}

pub(crate) fn visit_expr<'a>(e: &'a AstExpr, f: &mut dyn FnMut(&'a AstExpr)) {
    f(e);
    let mut go = |x: &'a AstExpr| visit_expr(x, f);
    match &e.node {
        ExprP::Tuple(items) | ExprP::List(items) => items.iter().for_each(go),
        ExprP::Dot(x, _) | ExprP::Not(x) | ExprP::Minus(x) | ExprP::Plus(x) | ExprP::BitNot(x) => {
            go(x)
        }
        ExprP::Call(x, args) => {
            go(x);
            args.args.iter().for_each(|a| go(a.node.expr()));
        }
        ExprP::Index(b) => {
            go(&b.0);
            go(&b.1);
        }
        ExprP::Index2(b) => {
            go(&b.0);
            go(&b.1);
            go(&b.2);
        }
        ExprP::Slice(x, a, b, c) => {
            go(x);
            [a, b, c].into_iter().flatten().for_each(|y| go(y));
        }
        ExprP::Lambda(l) => go(&l.body),
        ExprP::Op(a, _, b) => {
            go(a);
            go(b);
        }
        ExprP::If(b) => {
            go(&b.0);
            go(&b.1);
            go(&b.2);
        }
        ExprP::Dict(items) => items.iter().for_each(|(k, v)| {
            go(k);
            go(v);
        }),
        ExprP::ListComprehension(x, c, _) => {
            go(x);
            go(&c.over);
        }
        ExprP::DictComprehension(kv, c, _) => {
            go(&kv.0);
            go(&kv.1);
            go(&c.over);
        }
        ExprP::Identifier(_) | ExprP::Literal(_) | ExprP::FString(_) => {}
    }
}
