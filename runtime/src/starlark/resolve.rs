//! Undefined names, names `load` refuses (`_private`, empty), statements out of place,
//! assignments' targets, parameters and call arguments out of order, as starlark-go's resolver
//! reports them (the last four patched out of the program where the starlark crate's parser
//! refused them: [`resolver_patch`]). starlark-rust stops at the first name it cannot
//! resolve; starlark-go (ytt's interpreter) lists every error, each undefined name with a
//! spelling hint (`undefined: nme (did you mean name?)`), in the order of its resolver:
//!
//! - first the uses in the module's own top level and every other error, as the walk meets
//!   them (an assignment's value before its target; default values of
//!   parameters and the first iterable of a comprehension belong to the block around them); a
//!   top-level use sees only the globals bound before it;
//! - then each function, lambda and comprehension of the top level, in source order, where a
//!   block's nested blocks come before its own uses (they see every global).
//!
//! (Measured with ytt; see `tests/cases/starlark/undefined-*`.)
//!
//! A name is defined when a block on the way from its use to the module binds it (parameters,
//! assignment and `for` targets, `def` names, `load`ed names; comprehension variables in their
//! comprehension) or when it is predeclared. The hint is starlark-go's: the bound name nearest
//! in Levenshtein distance (case and underscores ignored, fewer edits than half the name's
//! length, the first in byte order on a tie) among the bindings of those blocks.

use std::collections::BTreeSet;

use super::resolver_patch::{ArgumentKind, Marker, Markers};
use crate::template::generated_names::GeneratedNames;

use starlark::codemap::Span;
use starlark::syntax::ast::{
    ArgumentP, AssignTargetP, AstArgument, AstAssignIdent, AstAssignTarget, AstExpr, AstParameter,
    AstStmt, Clause, ClauseP, ExprP, ForClause, ParameterP, StmtP,
};
use starlark::syntax::AstModule;

/// An undefined name or a refused `load` name: where it is and starlark-go's message.
pub(super) struct ResolveError {
    pub span: Span,
    pub message: String,
}

/// Every undefined name of `ast` in starlark-go's order; `predeclared` says which names the
/// interpreter provides. Names of schemac's own code (`Walk::is_schemacs_own`) are never suggested.
/// With `markers`, the program holds [`super::resolver_patch`] markers, each reported where
/// starlark-go's resolver meets what it stands for. `names` are the program's own.
pub(super) fn resolve_errors(
    ast: &AstModule,
    predeclared: &dyn Fn(&str) -> bool,
    markers: Option<&Markers>,
    names: &GeneratedNames,
) -> Vec<ResolveError> {
    let mut walk = Walk {
        ast,
        names,
        blocks: vec![Block::default()],
        current: 0,
        predeclared,
        markers,
        top_level: Vec::new(),
        loads: None,
    };
    walk.stmt(ast.statement());
    let mut order = Vec::new();
    for &child in &walk.blocks[0].children {
        walk.children_first(child, &mut order);
    }
    let mut nested = Vec::new();
    for u in order {
        if !walk.bound(u.block, &u.name) && !predeclared(&u.name) {
            nested.push(walk.undefined(&u));
        }
        walk.memoize(u.block, &u.name);
    }
    let mut out = std::mem::take(&mut walk.top_level);
    out.extend(nested);
    out
}

#[derive(Default)]
struct Block {
    parent: Option<usize>,
    bindings: BTreeSet<String>,
    uses: Vec<Use>,
    children: Vec<usize>,
}

#[derive(Clone)]
struct Use {
    name: String,
    span: Span,
    block: usize,
}

struct Walk<'p> {
    ast: &'p AstModule,
    /// The names the program binds for its own use.
    names: &'p GeneratedNames,
    blocks: Vec<Block>,
    current: usize,
    predeclared: &'p dyn Fn(&str) -> bool,
    /// The [`super::resolver_patch`] markers that stand in the program, if any do.
    markers: Option<&'p Markers>,
    /// The errors starlark-go's resolver reports as it meets them: undefined names of the top
    /// level, the names `load` refuses, calls with more arguments than starlark-go takes,
    /// statements out of place, assignments' targets, parameters.
    top_level: Vec<ResolveError>,
    /// Where the program names its `load()`s' bindings, when asked for
    /// ([`load_bindings_renamed`]).
    loads: Option<LoadBindings>,
}

impl<'p> Walk<'p> {
    /// The walk of a program that runs (every name it reads is bound), with `loads` asked for
    /// or not.
    fn of_running(
        ast: &'p AstModule,
        names: &'p GeneratedNames,
        loads: Option<LoadBindings>,
    ) -> Walk<'p> {
        let mut walk = Walk {
            ast,
            names,
            blocks: vec![Block::default()],
            current: 0,
            predeclared: &|_| true,
            markers: None,
            top_level: Vec::new(),
            loads,
        };
        walk.stmt(ast.statement());
        walk
    }

    fn error(&mut self, span: Span, message: String) {
        self.top_level.push(ResolveError { span, message });
    }

    /// The marker `name` is, in a patched program.
    fn marker<'n>(&self, name: &'n str) -> Option<Marker<'n>> {
        self.markers?.marker(name)
    }

    /// starlark-go's message for an undefined name, with its hint from the names bound now.
    fn undefined(&self, u: &Use) -> ResolveError {
        let name = u.name.as_str();
        let candidates: Vec<&str> = self.candidates(u.block);
        let hint = match (crate::spell::nearest(name, &candidates), name) {
            (Some(n), _) => format!(" (did you mean {n}?)"),
            // ytt's own hints for YAML's words.
            (None, "true") => " (hint: use 'True' instead of 'true' for boolean assignment)".into(),
            (None, "false") => {
                " (hint: use 'False' instead of 'false' for boolean assignment)".into()
            }
            (None, word @ ("nil" | "null" | "none")) => {
                format!(" (hint: use 'None' instead of '{word}' to indicate no value)")
            }
            (None, _) => String::new(),
        };
        ResolveError {
            span: u.span,
            message: format!("undefined: {name}{hint}"),
        }
    }

    fn children_first(&self, block: usize, order: &mut Vec<Use>) {
        for &child in &self.blocks[block].children {
            self.children_first(child, order);
        }
        order.extend(self.blocks[block].uses.iter().cloned());
    }

    fn bound(&self, block: usize, name: &str) -> bool {
        self.binding_block(block, name).is_some()
    }

    /// The first block on the way from `block` to the module's that binds `name`.
    fn binding_block(&self, mut block: usize, name: &str) -> Option<usize> {
        loop {
            if self.blocks[block].bindings.contains(name) {
                return Some(block);
            }
            block = self.blocks[block].parent?;
        }
    }

    /// The names bound on the way from `block` to the module, sorted.
    /// Whether `name` is one schemac's program binds for its own use (`__ytt_keep_0`, a
    /// parameter a marker renamed): never suggested. A user's own `__name` is, as in
    /// starlark-go.
    fn is_schemacs_own(&self, name: &str) -> bool {
        self.names.is_own(name) || self.markers.is_some_and(|m| m.holds(name))
    }

    fn candidates(&self, mut block: usize) -> Vec<&str> {
        let mut names = Vec::new();
        loop {
            names.extend(
                self.blocks[block]
                    .bindings
                    .iter()
                    .filter(|n| !self.is_schemacs_own(n))
                    .map(String::as_str),
            );
            match self.blocks[block].parent {
                Some(p) => block = p,
                None => break,
            }
        }
        // In byte order, once each: a tie goes to the first.
        names.sort_unstable();
        names.dedup();
        names
    }

    /// Runs `f` in a new block inside the current one.
    fn nested(&mut self, f: impl FnOnce(&mut Self)) {
        let outer = self.current;
        self.blocks.push(Block {
            parent: Some(outer),
            ..Block::default()
        });
        let inner = self.blocks.len() - 1;
        self.blocks[outer].children.push(inner);
        self.current = inner;
        f(self);
        self.current = outer;
    }

    /// starlark-go's lookup of a name used in a function binds it, found or not, in each block
    /// on the way to the module's (memoized): a later use there is no new error, and a later
    /// hint may name it (`undefined: nopf (did you mean nope?)`, `lenn` → `len` once `len`
    /// was used).
    fn memoize(&mut self, mut block: usize, name: &str) {
        while let Some(parent) = self.blocks[block].parent {
            self.blocks[block].bindings.insert(name.to_string());
            block = parent;
        }
    }

    fn bind(&mut self, name: &str) {
        self.blocks[self.current].bindings.insert(name.to_string());
    }

    /// Binds `name`, written at `span`, otherwise than by a `load`: at the top level, the
    /// binding of a `load` before it (starlark-go's file block), else a global.
    fn bind_at(&mut self, name: &str, span: Span) {
        if let (0, Some(loads)) = (self.current, self.loads.as_mut()) {
            loads.global.insert(name.to_string());
            loads.top_level_name(name, span);
        }
        self.bind(name);
    }

    fn use_name(&mut self, name: &str, span: Span) {
        if let Some(Marker::Statement(message)) = self.marker(name) {
            return self.error(span, message.to_string());
        }
        let block = self.current;
        let u = Use {
            name: name.to_string(),
            span,
            block,
        };
        if let (0, Some(loads)) = (block, self.loads.as_mut()) {
            loads.top_level_name(name, span);
        }
        if block == 0 && !self.bound(0, name) && !(self.predeclared)(name) {
            let undefined = self.undefined(&u);
            self.top_level.push(undefined);
        }
        // (The top level's uses are checked as they are met, its block's list is of reads)
        self.blocks[block].uses.push(u);
    }

    /// The read of an augmented assignment's target `name` (`n += 1`, the statement at `span`,
    /// where the interpreter fails to read it): the program reads it when it runs, but
    /// starlark-go's resolver binds it and finds no undefined name there (`global variable n
    /// referenced before assignment` when it runs).
    fn read_target(&mut self, name: &str, span: Span) {
        let block = self.current;
        self.blocks[block].uses.push(Use {
            name: name.to_string(),
            span,
            block,
        });
    }

    fn stmt(&mut self, s: &AstStmt) {
        match &s.node {
            StmtP::Break | StmtP::Continue | StmtP::Pass | StmtP::Return(None) => {}
            StmtP::Return(Some(e)) | StmtP::Expression(e) => self.expr(e),
            StmtP::Assign(a) => {
                self.expr(&a.rhs);
                self.target(&a.lhs);
            }
            StmtP::AssignModify(lhs, _, rhs) => {
                self.expr(rhs);
                if let AssignTargetP::Identifier(id) = &lhs.node {
                    self.read_target(&id.node.ident, s.span);
                }
                self.target(lhs);
            }
            StmtP::Statements(stmts) => stmts.iter().for_each(|s| self.stmt(s)),
            StmtP::If(cond, then) => {
                self.expr(cond);
                self.stmt(then);
            }
            StmtP::IfElse(cond, branches) => {
                self.expr(cond);
                self.stmt(&branches.0);
                self.stmt(&branches.1);
            }
            StmtP::For(f) => {
                self.expr(&f.over);
                self.target(&f.var);
                self.stmt(&f.body);
            }
            StmtP::Def(d) => {
                self.bind_at(&d.name.node.ident, d.name.span);
                self.function(&d.params, |w| w.stmt(&d.body));
            }
            StmtP::Load(l) => {
                for a in &l.args {
                    // starlark-go's resolver refuses these names where it meets them (starlark-rust
                    // would fail only when the load runs, in its own words).
                    let their = a.their.node.as_str();
                    let refused = match their.chars().next() {
                        None => Some("load: empty identifier".to_string()),
                        Some('_') => Some(format!(
                            "load: names with leading underscores are not exported: {their}"
                        )),
                        Some(_) => None,
                    };
                    if let Some(message) = refused {
                        self.top_level.push(ResolveError {
                            span: a.their.span,
                            message,
                        });
                    }
                    let local = a.local.node.ident.as_str();
                    if let Some(loads) = self.loads.as_mut() {
                        loads.places.push((
                            local.to_string(),
                            LoadPlace::Load(a.local.span, a.their.span),
                        ));
                        loads.loaded.insert(local.to_string());
                    }
                    self.bind(local);
                }
            }
        }
    }

    /// A function's parameters (their defaults are used in the block around it) and body.
    fn function(&mut self, params: &[AstParameter], body: impl FnOnce(&mut Self)) {
        let params: Vec<(Param, Span)> = params
            .iter()
            .filter_map(|p| Some((self.param(p)?, p.span)))
            .collect();
        for (p, _) in &params {
            if let Param::Optional(_, default) = p {
                self.expr(default);
            }
        }
        for (span, message) in parameter_errors(&params) {
            self.error(span, message);
        }
        self.nested(|w| {
            for (p, _) in &params {
                match p {
                    Param::Required(name) | Param::Optional(name, _) | Param::Kwargs(name) => {
                        w.bind(name)
                    }
                    Param::Star(Some(name)) => w.bind(name),
                    Param::Star(None) => {}
                }
            }
            body(w);
        });
    }

    /// starlark-go's resolver's checks of a call's arguments, each argument resolved after
    /// its check; the arguments as written where a patch made them keyword arguments
    /// ([`resolver_patch`]).
    fn call_arguments(&mut self, call: Span, args: &[AstArgument]) {
        let (mut args_seen, mut kwargs_seen) = (false, false);
        let mut names = BTreeSet::new();
        let (mut positional, mut named) = (0usize, 0usize);
        for a in args {
            let kind = match &a.node {
                ArgumentP::Positional(_) => ArgumentKind::Positional,
                ArgumentP::Named(name, _) => match self.markers {
                    Some(markers) => markers.argument_kind(&name.node),
                    None => ArgumentKind::Named(&name.node),
                },
                ArgumentP::Args(_) => ArgumentKind::Args,
                ArgumentP::KwArgs(_) => ArgumentKind::Kwargs,
            };
            let error = match kind {
                ArgumentKind::Kwargs => {
                    let error = kwargs_seen.then(|| "multiple **kwargs not allowed".to_string());
                    kwargs_seen = true;
                    error
                }
                ArgumentKind::Args => {
                    let error = match () {
                        _ if kwargs_seen => Some("*args may not follow **kwargs".to_string()),
                        _ if args_seen => Some("multiple *args not allowed".to_string()),
                        _ => None,
                    };
                    args_seen = true;
                    error
                }
                ArgumentKind::Named(name) => {
                    named += 1;
                    let after = kwargs_seen.then(|| "argument may not follow **kwargs".to_string());
                    let repeated =
                        (!names.insert(name)).then(|| format!("keyword argument {name} repeated"));
                    if let Some(message) = after {
                        self.error(a.span, message);
                    }
                    repeated
                }
                ArgumentKind::Positional => {
                    positional += 1;
                    match () {
                        _ if args_seen => Some("argument may not follow *args".to_string()),
                        _ if kwargs_seen => Some("argument may not follow **kwargs".to_string()),
                        _ if !names.is_empty() => {
                            Some("positional argument may not follow named".to_string())
                        }
                        _ => None,
                    }
                }
            };
            if let Some(message) = error {
                self.error(a.span, message);
            }
            match &a.node {
                ArgumentP::Positional(x)
                | ArgumentP::Named(_, x)
                | ArgumentP::Args(x)
                | ArgumentP::KwArgs(x) => self.expr(x),
            }
        }
        // starlark-go's compiler encodes a call's argument counts in a byte each.
        for (count, kind) in [(positional, "positional"), (named, "keyword")] {
            if count >= 256 {
                self.error(
                    call,
                    format!("{count} {kind} arguments in call, limit is 255"),
                );
            }
        }
    }

    /// A parameter as written, where a patch made it another ([`resolver_patch`]).
    fn param<'a>(&self, p: &'a AstParameter) -> Option<Param<'a>> {
        let name = |id: &'a AstAssignIdent| match self.markers {
            Some(markers) => markers.parameter_name(&id.node.ident),
            None => id.node.ident.as_str(),
        };
        Some(match &p.node {
            ParameterP::Normal(id, _, None) => Param::Required(name(id)),
            ParameterP::Normal(id, _, Some(default)) => {
                let marker = match &default.node {
                    ExprP::Identifier(d) => self.marker(&d.node.ident),
                    _ => None,
                };
                match marker {
                    Some(Marker::Required) => Param::Required(name(id)),
                    Some(Marker::Args) => Param::Star(Some(name(id))),
                    Some(Marker::Kwargs) => Param::Kwargs(name(id)),
                    Some(Marker::Star) => Param::Star(None),
                    _ => Param::Optional(name(id), default),
                }
            }
            ParameterP::NoArgs => Param::Star(None),
            ParameterP::Args(id, _) => Param::Star(Some(name(id))),
            ParameterP::KwArgs(id, _) => Param::Kwargs(name(id)),
            ParameterP::Slash => return None,
        })
    }

    fn target(&mut self, t: &AstAssignTarget) {
        match &t.node {
            AssignTargetP::Tuple(items) => {
                if items.is_empty() {
                    let text = self.ast.file_span(t.span).source_span().to_string();
                    let kind = if text.starts_with('[') { "[]" } else { "()" };
                    self.error(t.span, format!("can't assign to {kind}"));
                }
                items.iter().for_each(|i| self.target(i))
            }
            AssignTargetP::Index(pair) => {
                self.expr(&pair.0);
                self.expr(&pair.1);
            }
            AssignTargetP::Dot(obj, _) => self.expr(obj),
            AssignTargetP::Identifier(id) => {
                if let Some(Marker::Target(kind)) = self.marker(&id.node.ident) {
                    let message = match kind.strip_prefix("augmented_") {
                        Some(list) => {
                            format!("can't use {list} expression in augmented assignment")
                        }
                        None => format!("can't assign to {kind}"),
                    };
                    return self.error(t.span, message);
                }
                self.bind_at(&id.node.ident, id.span);
            }
        }
    }

    fn comprehension(&mut self, first: &ForClause, rest: &[Clause], body: impl FnOnce(&mut Self)) {
        self.expr(&first.over);
        self.nested(|w| {
            w.target(&first.var);
            for clause in rest {
                match clause {
                    ClauseP::If(cond) => w.expr(cond),
                    ClauseP::For(f) => {
                        w.target(&f.var);
                        w.expr(&f.over);
                    }
                }
            }
            body(w);
        });
    }

    fn expr(&mut self, e: &AstExpr) {
        match &e.node {
            ExprP::Identifier(id) => self.use_name(&id.node.ident, e.span),
            ExprP::Lambda(l) => self.function(&l.params, |w| w.expr(&l.body)),
            ExprP::ListComprehension(body, first, rest) => {
                self.comprehension(first, rest, |w| w.expr(body))
            }
            ExprP::DictComprehension(pair, first, rest) => self.comprehension(first, rest, |w| {
                w.expr(&pair.0);
                w.expr(&pair.1);
            }),
            ExprP::Tuple(items) | ExprP::List(items) => items.iter().for_each(|i| self.expr(i)),
            ExprP::Dict(pairs) => pairs.iter().for_each(|(k, v)| {
                self.expr(k);
                self.expr(v);
            }),
            ExprP::Dot(obj, _) => self.expr(obj),
            ExprP::Call(callee, args) => {
                self.expr(callee);
                self.call_arguments(e.span, &args.args);
            }
            ExprP::Index(pair) => {
                self.expr(&pair.0);
                self.expr(&pair.1);
            }
            ExprP::Index2(triple) => {
                self.expr(&triple.0);
                self.expr(&triple.1);
                self.expr(&triple.2);
            }
            ExprP::Slice(x, a, b, c) => {
                self.expr(x);
                [a, b, c].into_iter().flatten().for_each(|i| self.expr(i));
            }
            ExprP::Not(x) | ExprP::Minus(x) | ExprP::Plus(x) | ExprP::BitNot(x) => self.expr(x),
            ExprP::Op(a, _, b) => {
                self.expr(a);
                self.expr(b);
            }
            ExprP::If(triple) => {
                // `v1 if cond else v2`: starlark-go resolves the condition first.
                self.expr(&triple.0);
                self.expr(&triple.1);
                self.expr(&triple.2);
            }
            ExprP::FString(f) => f.expressions.iter().for_each(|x| self.expr(x)),
            ExprP::Literal(_) => {}
        }
    }
}

/// A place where a program names a `load()`'s binding.
enum LoadPlace {
    /// A name read, or bound again (`x`, `x = 5`, `def x()`).
    Name(Span),
    /// The binding of the `load` itself: its local name and the name loaded (the same literal
    /// in `load("m", "x")`).
    Load(Span, Span),
}

/// What [`load_bindings_renamed`] learns of a program in the walk.
#[derive(Default)]
struct LoadBindings {
    /// The names a `load` bound so far.
    loaded: BTreeSet<String>,
    /// The names bound at the top level otherwise (assignments, `for`, `def`).
    global: BTreeSet<String>,
    /// Each place naming a load's binding, with its name.
    places: Vec<(String, LoadPlace)>,
}

impl LoadBindings {
    /// A name read or bound at the top level: a load's binding once a `load` bound it.
    fn top_level_name(&mut self, name: &str, span: Span) {
        if self.loaded.contains(name) {
            self.places.push((name.to_string(), LoadPlace::Name(span)));
        }
    }
}

/// Whether the name the program `ast` reads at `span` (as it runs) is a global of the module,
/// not a local of a function: starlark-go says `global variable x referenced
/// before assignment` of a global not assigned yet, where the crate says `local`.
pub(super) fn reads_global(ast: &AstModule, span: Span, names: &GeneratedNames) -> bool {
    let walk = Walk::of_running(ast, names, None);
    walk.blocks
        .iter()
        .flat_map(|b| &b.uses)
        .find(|u| u.span == span)
        .is_some_and(|u| walk.binding_block(u.block, &u.name) == Some(0))
}

/// `source` with the `load()` bindings of each name its top level also binds otherwise (an
/// assignment, a `for`, a `def`) renamed to a name of schemac's own
/// ([`super::guard_names::LOADED`] and the name, under `guards`' prefix); `None` when there is
/// none.
///
/// starlark-go binds a `load`'s names in a block of the file's own, apart from the module's
/// globals, which alone are exported: a top-level statement after the `load` that binds or
/// reads the name means the load's binding (`load("g.star", "x")` then `x = 5`: nothing
/// exported as `x`); one before it, a global (`x = 3` then the `load`: `x` exported as 3);
/// a function, lambda or comprehension reading it means the load's binding wherever it
/// stands, since starlark-go resolves their names once the whole file is read. The starlark
/// crate binds every name as a global, so such names are given the load binding's name of
/// their own. (A `def x()` so renamed is named so in its value too.) `names` are the
/// program's own.
pub(super) fn load_bindings_renamed(
    ast: &AstModule,
    source: &str,
    names: &GeneratedNames,
    guards: &super::guard_names::GuardNames,
) -> Option<String> {
    let loads_at_top = match &ast.statement().node {
        StmtP::Statements(stmts) => stmts.iter().any(|s| matches!(s.node, StmtP::Load(_))),
        other => matches!(other, StmtP::Load(_)),
    };
    if !loads_at_top {
        return None;
    }
    let mut walk = Walk::of_running(ast, names, Some(LoadBindings::default()));
    let mut loads = walk.loads.take()?;
    if loads.loaded.is_disjoint(&loads.global) {
        return None;
    }
    for block in &walk.blocks[1..] {
        for u in &block.uses {
            if loads.loaded.contains(&u.name) && walk.binding_block(u.block, &u.name) == Some(0) {
                loads.places.push((u.name.clone(), LoadPlace::Name(u.span)));
            }
        }
    }
    // (begin, end, text): the text at begin..end replaced, or inserted where they are equal.
    let mut edits: Vec<(usize, usize, String)> = Vec::new();
    for (name, place) in loads.places {
        if !loads.global.contains(&name) {
            continue;
        }
        let renamed = guards.of(&format!("{}{name}", super::guard_names::LOADED));
        let range = |span: Span| (span.begin().get() as usize, span.end().get() as usize);
        edits.push(match place {
            LoadPlace::Name(span) => {
                let (begin, end) = range(span);
                (begin, end, renamed)
            }
            // `load("m", "x")`: `LOADED_x="x"`.
            LoadPlace::Load(local, their) if local == their => {
                let (begin, _) = range(their);
                (begin, begin, format!("{renamed}="))
            }
            LoadPlace::Load(local, _) => {
                let (begin, end) = range(local);
                (begin, end, renamed)
            }
        });
    }
    edits.sort();
    edits.dedup();
    let mut out =
        String::with_capacity(source.len() + edits.iter().map(|e| e.2.len()).sum::<usize>());
    let mut at = 0;
    for (begin, end, text) in edits {
        // Overlapping places would be a walk's mistake: the program then runs as written.
        out.push_str(source.get(at..begin)?);
        out.push_str(&text);
        at = end;
    }
    out.push_str(source.get(at..)?);
    Some(out)
}

/// A function's parameter, as starlark-go's resolver tells them apart.
enum Param<'a> {
    /// `name`
    Required(&'a str),
    /// `name=default`
    Optional(&'a str, &'a AstExpr),
    /// `*name`, or a bare `*`
    Star(Option<&'a str>),
    /// `**name`
    Kwargs(&'a str),
}

/// starlark-go's resolver's errors for a function's parameters, in its order.
fn parameter_errors(params: &[(Param, Span)]) -> Vec<(Span, String)> {
    let mut errors = Vec::new();
    let mut bound = BTreeSet::new();
    let mut seen_optional = false;
    let mut star: Option<(Option<&str>, Span)> = None;
    let mut kwargs: Option<(&str, Span)> = None;
    let mut keyword_only = 0usize;
    for &(ref p, span) in params {
        let mut error = |message: String| errors.push((span, message));
        match *p {
            Param::Required(name) | Param::Optional(name, _) => {
                let optional = matches!(p, Param::Optional(..));
                let kind = if optional { "optional" } else { "required" };
                if let Some((k, _)) = kwargs {
                    error(format!("{kind} parameter may not follow **{k}"));
                } else if star.is_some() {
                    keyword_only += 1;
                } else if seen_optional && !optional {
                    error("required parameter may not follow optional".into());
                }
                if !bound.insert(name) {
                    error(format!("duplicate parameter: {name}"));
                }
                seen_optional |= optional;
            }
            Param::Star(name) => {
                if let Some((k, _)) = kwargs {
                    error(format!("* parameter may not follow **{k}"));
                } else if star.is_some() {
                    error("multiple * parameters not allowed".into());
                } else {
                    star = Some((name, span));
                }
            }
            Param::Kwargs(name) => {
                if kwargs.is_some() {
                    error("multiple ** parameters not allowed".into());
                }
                kwargs = Some((name, span));
            }
        }
    }
    // starlark-go binds `*args` and `**kwargs` after the others.
    match star {
        Some((Some(name), span)) if !bound.insert(name) => {
            errors.push((span, format!("duplicate parameter: {name}")))
        }
        Some((None, span)) if keyword_only == 0 => errors.push((
            span,
            "bare * must be followed by keyword-only parameters".into(),
        )),
        _ => {}
    }
    if let Some((name, span)) = kwargs {
        if !bound.insert(name) {
            errors.push((span, format!("duplicate parameter: {name}")));
        }
    }
    errors
}
