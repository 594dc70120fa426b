//! Starlark rule functions to Rust, where the translation is exact.
//!
//! Every expression is translated with a static type taken from the schema (a rule's value has
//! its field's type; `ctx.parent` the enclosing map's; `ctx.root` the root's). An operation is
//! translated only when those types rule out every Starlark error, so the generated code can
//! only fail where the rule calls `fail()`/`assert.fail()`; anything else returns the reason it
//! stays with the interpreter.

use std::collections::{HashMap, HashSet};

use proc_macro2::{Ident, TokenStream};
use quote::{format_ident, quote};
use starlark_syntax::lexer::TokenInt;
use starlark_syntax::syntax::ast::{
    ArgumentP, AstExpr, AstLiteral, AstParameter, AstStmt, BinOp, ExprP, ParameterP, StmtP,
};

use schemac_runtime::schema::{Kind, Type};

pub use super::stype::SType;

use super::source::{DefRef, Global, Program};

mod format;

type Lowered<'s> = Result<(TokenStream, SType<'s>), String>;

/// The scope of one function body.
#[derive(Clone)]
struct Env<'s> {
    module: usize,
    locals: HashMap<String, (Ident, SType<'s>)>,
    /// The `ctx` parameter of a `when=` predicate, with `ctx.parent`'s type.
    ctx: Option<(String, SType<'s>)>,
}

impl<'s> Env<'s> {
    /// The scope of a function whose parameters `params` get values of types `args`; the one
    /// of type `Ctx` is `ctx`, whose `parent` has type `parent`.
    fn of_params(
        module: usize,
        params: &[String],
        args: &[SType<'s>],
        parent: Option<SType<'s>>,
    ) -> Env<'s> {
        let mut env = Env {
            module,
            locals: HashMap::new(),
            ctx: None,
        };
        for (p, ty) in params.iter().zip(args) {
            if *ty == SType::Ctx {
                env.ctx = Some((p.clone(), parent.clone().unwrap_or(SType::Unknown)));
            } else {
                env.locals.insert(p.clone(), (local_ident(p), ty.clone()));
            }
        }
        env
    }
}

/// Translates a schema's rule functions, collecting the Rust items they need.
pub struct Translator<'p, 's> {
    program: &'p Program,
    root: &'s Type,
    rt: TokenStream,
    pub items: Vec<TokenStream>,
    defs: HashMap<(DefRef, String), (Ident, SType<'s>)>,
    in_progress: HashSet<DefRef>,
    /// `+` and `-` used so far in the function being translated: ints are i128 in Rust, exact
    /// while fewer than 60 of them apply to 64-bit values.
    arithmetic: usize,
    /// Entry functions generated so far (they are numbered).
    entries: usize,
}

const MAX_ARITHMETIC: usize = 60;

fn positional(params: &[AstParameter]) -> Option<Vec<String>> {
    params
        .iter()
        .map(|p| match &p.node {
            ParameterP::Normal(id, None, None) => Some(id.node.ident.clone()),
            _ => None,
        })
        .collect()
}

fn local_ident(name: &str) -> Ident {
    format_ident!("_s_{}", name)
}

impl<'p, 's> Translator<'p, 's> {
    pub fn new(program: &'p Program, root: &'s Type, rt: TokenStream) -> Self {
        Translator {
            program,
            root,
            rt,
            items: Vec::new(),
            defs: HashMap::new(),
            in_progress: HashSet::new(),
            arithmetic: 0,
            entries: 0,
        }
    }

    /// A custom rule `f` (a lambda or a def's name) of a value of type `value`: the name of
    /// a generated `fn(&Node) -> lowered::Result`.
    pub fn rule(&mut self, module: usize, f: &AstExpr, value: SType<'s>) -> Result<Ident, String> {
        let rt = self.rt.clone();
        let name = format_ident!("__schemac_rule_{}", self.entries);
        let (body, _) = self.function(module, f, vec![value], None)?;
        self.items.push(quote! {
            fn #name<'a>(value: &'a #rt::value::Node) -> #rt::lowered::Result<'a> {
                let __args = [#rt::lowered::node(value)];
                #body
            }
        });
        self.entries += 1;
        Ok(name)
    }

    /// A `when=` predicate of a value of type `value` whose parent has type `parent`.
    pub fn when(
        &mut self,
        module: usize,
        f: &AstExpr,
        value: SType<'s>,
        parent: SType<'s>,
    ) -> Result<Ident, String> {
        let rt = self.rt.clone();
        let name = format_ident!("__schemac_when_{}", self.entries);
        // ytt passes `ctx` to predicates that take two parameters.
        let body = match self.arity(module, f) {
            Some(2) => self.function(module, f, vec![value, SType::Ctx], Some(parent))?,
            _ => self.function(module, f, vec![value], None)?,
        };
        // A predicate that answers with something else than a bool is reported with the
        // answer's type, which for maps and arrays is the interpreter's own.
        let (body, answer) = body;
        if !answer.is_plain() {
            return Err(format!(
                "it may answer with a {answer:?} rather than a bool"
            ));
        }
        self.items.push(quote! {
            fn #name<'a>(value: &'a #rt::value::Node, __parent: &'a #rt::value::Node, __root: &'a #rt::value::Node) -> #rt::lowered::Result<'a> {
                let __args = [#rt::lowered::node(value)];
                #body
            }
        });
        self.entries += 1;
        Ok(name)
    }

    /// How many parameters the function `f` has.
    fn arity(&self, module: usize, f: &AstExpr) -> Option<usize> {
        match &f.node {
            ExprP::Lambda(l) => Some(l.params.len()),
            ExprP::Identifier(id) => match self.program.global(module, &id.node.ident) {
                Some(Global::Def(d)) => self.program.def(d).map(|d| d.params.len()),
                _ => None,
            },
            _ => None,
        }
    }

    /// The body of an entry function: `f` applied to `__args` (and the context).
    fn function(
        &mut self,
        module: usize,
        f: &AstExpr,
        args: Vec<SType<'s>>,
        parent: Option<SType<'s>>,
    ) -> Lowered<'s> {
        self.arithmetic = 0;
        let takes_ctx = parent.is_some();
        match &f.node {
            ExprP::Lambda(l) => {
                let params =
                    positional(&l.params).ok_or("its parameters have defaults or are variadic")?;
                if params.len() != args.len() {
                    return Err(format!("it takes {} parameters", params.len()));
                }
                let env = Env::of_params(module, &params, &args, parent);
                // The entry's arguments come in `__args`, in order, without `ctx`.
                let binds = params
                    .iter()
                    .zip(&args)
                    .filter(|(_, t)| **t != SType::Ctx)
                    .enumerate()
                    .map(|(i, (p, _))| {
                        let id = local_ident(p);
                        quote! { let #id = __args[#i].clone(); }
                    });
                let binds = quote! { #(#binds)* };
                let (body, ty) = self.expr(&l.body, &env)?;
                // A body that never answers (`fail(...)`) returns its error itself.
                match ty {
                    SType::Never => Ok((quote! { #binds #body }, ty)),
                    _ => Ok((quote! { #binds Ok(#body) }, ty)),
                }
            }
            ExprP::Identifier(id) => {
                let Some(Global::Def(d)) = self.program.global(module, &id.node.ident) else {
                    return Err(format!(
                        "`{}` is not a function defined once in the schema's files",
                        id.node.ident
                    ));
                };
                let (name, ty) = self.def(d, args.clone(), parent)?;
                let passed = (0..args.iter().filter(|a| **a != SType::Ctx).count())
                    .map(|i| quote! { __args[#i].clone() });
                let ctx = if takes_ctx {
                    quote! { , __parent, __root }
                } else {
                    quote! {}
                };
                Ok((quote! { #name(#(#passed),* #ctx) }, ty))
            }
            _ => Err("it is not a lambda or the name of a function".into()),
        }
    }

    /// A generated function for `def` called with arguments of types `args`.
    fn def(
        &mut self,
        r: &DefRef,
        args: Vec<SType<'s>>,
        parent: Option<SType<'s>>,
    ) -> Result<(Ident, SType<'s>), String> {
        let signature: String = args
            .iter()
            .chain(parent.as_ref())
            .map(SType::identity)
            .collect::<Vec<_>>()
            .join(",");
        if let Some(found) = self.defs.get(&(r.clone(), signature.clone())) {
            return Ok(found.clone());
        }
        if !self.in_progress.insert(r.clone()) {
            return Err(format!("`{}` is recursive", r.name));
        }
        let result = self.def_body(r, &args, parent);
        self.in_progress.remove(r);
        let (body, ty) = result?;
        let rt = self.rt.clone();
        let name = format_ident!("__schemac_def_{}_{}", r.name, self.defs.len());
        let def = self.program.def(r).ok_or("its definition is not found")?;
        let params = positional(&def.params).unwrap_or_default();
        let decls = params
            .iter()
            .zip(&args)
            .filter(|(_, t)| **t != SType::Ctx)
            .map(|(p, _)| {
                let id = local_ident(p);
                quote! { #id: #rt::lowered::Val<'a> }
            });
        let ctx = args
            .contains(&SType::Ctx)
            .then(|| quote! { , __parent: &'a #rt::value::Node, __root: &'a #rt::value::Node });
        self.items.push(quote! {
            fn #name<'a>(#(#decls),* #ctx) -> #rt::lowered::Result<'a> {
                #body
            }
        });
        self.defs
            .insert((r.clone(), signature), (name.clone(), ty.clone()));
        Ok((name, ty))
    }

    fn def_body(
        &mut self,
        r: &DefRef,
        args: &[SType<'s>],
        parent: Option<SType<'s>>,
    ) -> Result<(TokenStream, SType<'s>), String> {
        let def = self.program.def(r).ok_or("its definition is not found")?;
        let params = positional(&def.params)
            .ok_or_else(|| format!("`{}` has parameters with defaults or variadic ones", r.name))?;
        if params.len() != args.len() {
            return Err(format!(
                "`{}` takes {} parameters, called with {}",
                r.name,
                params.len(),
                args.len()
            ));
        }
        let mut env = Env::of_params(r.module, &params, args, parent);
        let mut returns = SType::Never;
        let (body, falls_through) = self.block(&def.body, &mut env, &mut returns, true)?;
        let rt = &self.rt;
        let end = if falls_through {
            returns = returns.union(SType::None);
            quote! { Ok(#rt::lowered::Val::None) }
        } else {
            quote! {}
        };
        Ok((quote! { #body #end }, returns))
    }

    /// A reason with the place it is about, unless an inner piece already named one.
    fn located(
        &self,
        module: usize,
        span: starlark_syntax::codemap::Span,
        reason: String,
    ) -> String {
        if reason.contains(" (at ") {
            reason
        } else {
            format!("{reason} (at {})", self.program.locate(module, span))
        }
    }

    /// A statement of a def's body; returns its code and whether control can reach its end.
    fn block(
        &mut self,
        s: &AstStmt,
        env: &mut Env<'s>,
        returns: &mut SType<'s>,
        top: bool,
    ) -> Result<(TokenStream, bool), String> {
        let module = env.module;
        self.block_inner(s, env, returns, top)
            .map_err(|r| self.located(module, s.span, r))
    }

    fn block_inner(
        &mut self,
        s: &AstStmt,
        env: &mut Env<'s>,
        returns: &mut SType<'s>,
        top: bool,
    ) -> Result<(TokenStream, bool), String> {
        let rt = self.rt.clone();
        match &s.node {
            StmtP::Statements(items) => {
                let mut out = TokenStream::new();
                for item in items {
                    let (code, falls) = self.block(item, env, returns, top)?;
                    out.extend(code);
                    if !falls {
                        // What follows is never reached.
                        return Ok((out, false));
                    }
                }
                Ok((out, true))
            }
            StmtP::Pass => Ok((quote! {}, true)),
            StmtP::Return(e) => {
                let (code, ty) = match e {
                    Some(e) => self.expr(e, env)?,
                    None => (quote! { #rt::lowered::Val::None }, SType::None),
                };
                let code = match ty {
                    SType::Never => quote! { #code; },
                    _ => quote! { return Ok(#code); },
                };
                *returns = std::mem::replace(returns, SType::Never).union(ty);
                Ok((code, false))
            }
            StmtP::Expression(e) => {
                let (code, ty) = self.expr(e, env)?;
                match ty {
                    SType::Never => Ok((quote! { #code; }, false)),
                    _ => Ok((quote! { let _ = #code; }, true)),
                }
            }
            StmtP::Assign(a) if top => {
                let starlark_syntax::syntax::ast::AssignTargetP::Identifier(id) = &a.lhs.node
                else {
                    return Err("it assigns to something other than a name".into());
                };
                let name = id.node.ident.clone();
                if env.locals.contains_key(&name) {
                    return Err(format!("it assigns `{name}` more than once"));
                }
                let (code, ty) = self.expr(&a.rhs, env)?;
                let ident = local_ident(&name);
                env.locals.insert(name, (ident.clone(), ty));
                Ok((quote! { let #ident = #code; }, true))
            }
            StmtP::If(c, body) => {
                let (cond, _) = self.expr(c, env)?;
                let (then, _) = self.block(body, &mut env.clone(), returns, false)?;
                Ok((quote! { if #rt::lowered::truth(&#cond) { #then } }, true))
            }
            StmtP::IfElse(c, branches) => {
                let (cond, _) = self.expr(c, env)?;
                let (then, a) = self.block(&branches.0, &mut env.clone(), returns, false)?;
                let (other, b) = self.block(&branches.1, &mut env.clone(), returns, false)?;
                Ok((
                    quote! { if #rt::lowered::truth(&#cond) { #then } else { #other } },
                    a || b,
                ))
            }
            StmtP::Assign(_) => Err("it assigns a variable inside `if`".into()),
            StmtP::For(_) => Err("it uses a `for` loop".into()),
            StmtP::Def(_) => Err("it defines a nested function".into()),
            StmtP::AssignModify(..) => Err("it uses an augmented assignment (`+=`...)".into()),
            _ => Err("it uses `break`, `continue` or `load` in a function".into()),
        }
    }

    fn expr(&mut self, e: &AstExpr, env: &Env<'s>) -> Lowered<'s> {
        self.expr_inner(e, env)
            .map_err(|r| self.located(env.module, e.span, r))
    }

    fn expr_inner(&mut self, e: &AstExpr, env: &Env<'s>) -> Lowered<'s> {
        let rt = self.rt.clone();
        let l = quote! { #rt::lowered };
        match &e.node {
            ExprP::Literal(lit) => match lit {
                AstLiteral::Int(i) => match &i.node {
                    TokenInt::I32(n) => {
                        let n = *n as i128;
                        Ok((quote! { #l::Val::Int(#n) }, SType::Int))
                    }
                    TokenInt::BigInt(_) => Err("it uses an int literal beyond 32 bits".into()),
                },
                AstLiteral::Float(f) => {
                    let bits = f.node.to_bits();
                    Ok((quote! { #l::Val::Float(f64::from_bits(#bits)) }, SType::Num))
                }
                AstLiteral::String(s) => {
                    let s = &s.node;
                    Ok((quote! { #l::text(#s) }, SType::Str))
                }
                _ => Err("it uses bytes or `...` literals".into()),
            },
            ExprP::Identifier(id) => {
                let name = &id.node.ident;
                if let Some((ident, ty)) = env.locals.get(name) {
                    return Ok((quote! { #ident.clone() }, ty.clone()));
                }
                if env.ctx.as_ref().is_some_and(|(c, _)| c == name) {
                    return Err("it uses `ctx` other than as `ctx.parent` or `ctx.root`".into());
                }
                if self.program.is_bound(env.module, name) {
                    return Err(format!("it uses `{name}`, which is not one of its parameters"));
                }
                match name.as_str() {
                    "None" => Ok((quote! { #l::Val::None }, SType::None)),
                    "True" => Ok((quote! { #l::Val::Bool(true) }, SType::Bool)),
                    "False" => Ok((quote! { #l::Val::Bool(false) }, SType::Bool)),
                    _ => Err(format!("it uses `{name}`, which is not one of its parameters")),
                }
            }
            ExprP::Dot(obj, attr) => {
                if let (ExprP::Identifier(id), Some((ctx, parent))) = (&obj.node, &env.ctx) {
                    if id.node.ident == *ctx && !env.locals.contains_key(ctx) {
                        return match attr.node.as_str() {
                            "parent" => Ok((quote! { #l::node(__parent) }, parent.clone())),
                            "root" => Ok((quote! { #l::node(__root) }, SType::of(self.root, false))),
                            other => Err(format!("it uses `ctx.{other}`")),
                        };
                    }
                }
                Err(format!("it reads attribute `.{}`", attr.node))
            }
            ExprP::Index(pair) => {
                let (obj, ty) = self.expr(&pair.0, env)?;
                let ExprP::Literal(AstLiteral::String(key)) = &pair.1.node else {
                    return Err("it indexes with something other than a string literal".into());
                };
                let SType::Map(t) = ty else {
                    return Err(format!("it indexes a value that is not certainly a map ({ty:?})"));
                };
                let Kind::Map(fields) = &t.kind else { unreachable!("SType::Map holds map types") };
                let Some(field) = fields.iter().find(|f| f.key.as_str() == Some(key.node.as_str())) else {
                    return Err(format!("key \"{}\" is not in the schema (it would fail)", key.node));
                };
                let k = &key.node;
                Ok((quote! { #l::field(&#obj, #k) }, SType::of(&field.ty, true)))
            }
            ExprP::Not(x) => {
                let (x, _) = self.expr(x, env)?;
                Ok((quote! { #l::Val::Bool(!#l::truth(&#x)) }, SType::Bool))
            }
            ExprP::Minus(x) => {
                let (x, ty) = self.expr(x, env)?;
                if !ty.is_number() {
                    return Err("it negates a value that is not certainly a number".into());
                }
                self.count_arithmetic()?;
                Ok((quote! { #l::neg(#x)? }, ty))
            }
            ExprP::If(parts) => {
                let (c, _) = self.expr(&parts.0, env)?;
                let (a, ta) = self.expr(&parts.1, env)?;
                let (b, tb) = self.expr(&parts.2, env)?;
                Ok((quote! { if #l::truth(&#c) { #a } else { #b } }, ta.union(tb)))
            }
            ExprP::Op(a, op, b) => self.binary(a, *op, b, env),
            ExprP::List(items) | ExprP::Tuple(items) => {
                let mut codes = Vec::new();
                let mut ty = SType::Never;
                for item in items {
                    let (c, t) = self.expr(item, env)?;
                    codes.push(c);
                    ty = ty.union(t);
                }
                Ok((quote! { #l::Val::List(vec![#(#codes),*]) }, SType::List(Box::new(ty))))
            }
            ExprP::Call(f, args) => self.call(f, args, env),
            _ => Err("it uses an expression that is not translated (lambdas, dicts, comprehensions, slices...)".into()),
        }
    }

    fn count_arithmetic(&mut self) -> Result<(), String> {
        self.arithmetic += 1;
        if self.arithmetic > MAX_ARITHMETIC {
            return Err("it does more arithmetic than 128-bit ints keep exact".into());
        }
        Ok(())
    }

    fn binary(&mut self, a: &AstExpr, op: BinOp, b: &AstExpr, env: &Env<'s>) -> Lowered<'s> {
        let rt = self.rt.clone();
        let l = quote! { #rt::lowered };
        let (x, tx) = self.expr(a, env)?;
        let (y, ty) = self.expr(b, env)?;
        let bool_of =
            |cond: TokenStream| quote! { { let __x = #x; let __y = #y; #l::Val::Bool(#cond) } };
        match op {
            BinOp::And => Ok((
                quote! { { let __x = #x; if #l::truth(&__x) { #y } else { __x } } },
                tx.union(ty),
            )),
            BinOp::Or => Ok((
                quote! { { let __x = #x; if #l::truth(&__x) { __x } else { #y } } },
                tx.union(ty),
            )),
            BinOp::Equal | BinOp::NotEqual => {
                if !(tx.is_plain() && ty.is_plain()) {
                    return Err(format!(
                        "it compares values that are not certainly scalars ({tx:?} == {ty:?})"
                    ));
                }
                let cond = if op == BinOp::Equal {
                    quote! { #l::eq(&__x, &__y) }
                } else {
                    quote! { !#l::eq(&__x, &__y) }
                };
                Ok((bool_of(cond), SType::Bool))
            }
            BinOp::Less | BinOp::Greater | BinOp::LessOrEqual | BinOp::GreaterOrEqual => {
                let comparable =
                    (tx.is_number() && ty.is_number()) || (tx == SType::Str && ty == SType::Str);
                if !comparable {
                    return Err(format!("it orders values that are not certainly two numbers or two strings ({tx:?}, {ty:?})"));
                }
                let test = match op {
                    BinOp::Less => quote! { is_lt },
                    BinOp::Greater => quote! { is_gt },
                    BinOp::LessOrEqual => quote! { is_le },
                    _ => quote! { is_ge },
                };
                Ok((bool_of(quote! { #l::cmp(&__x, &__y).#test() }), SType::Bool))
            }
            BinOp::In | BinOp::NotIn => {
                let ok = match &ty {
                    SType::Str => tx == SType::Str,
                    SType::List(item) => tx.is_plain() && item.is_plain(),
                    _ => false,
                };
                if !ok {
                    return Err(format!("it tests `in` on values that are not certainly strings or lists of scalars ({tx:?} in {ty:?})"));
                }
                let cond = if op == BinOp::In {
                    quote! { #l::contains(&__y, &__x) }
                } else {
                    quote! { !#l::contains(&__y, &__x) }
                };
                Ok((bool_of(cond), SType::Bool))
            }
            BinOp::Add | BinOp::Subtract => {
                let result = match (&tx, &ty) {
                    (SType::Int, SType::Int) => SType::Int,
                    (a, b) if a.is_number() && b.is_number() => SType::Num,
                    (SType::Str, SType::Str) if op == BinOp::Add => SType::Str,
                    _ => return Err(format!("it adds or subtracts values that are not certainly numbers or strings ({tx:?}, {ty:?})")),
                };
                if result != SType::Str {
                    self.count_arithmetic()?;
                }
                let f = if op == BinOp::Add {
                    quote! { add }
                } else {
                    quote! { sub }
                };
                Ok((
                    quote! { { let __x = #x; let __y = #y; #l::#f(__x, __y)? } },
                    result,
                ))
            }
            _ => Err(format!(
                "it uses the operator {op:?}, which is not translated"
            )),
        }
    }

    fn call(
        &mut self,
        f: &AstExpr,
        args: &starlark_syntax::syntax::ast::CallArgsP<starlark_syntax::syntax::ast::AstNoPayload>,
        env: &Env<'s>,
    ) -> Lowered<'s> {
        let rt = self.rt.clone();
        let l = quote! { #rt::lowered };
        let mut positional = Vec::new();
        for a in &args.args {
            match &a.node {
                ArgumentP::Positional(x) => positional.push(x),
                _ => return Err("it calls a function with named or unpacked arguments".into()),
            }
        }
        match &f.node {
            ExprP::Identifier(id) if !env.locals.contains_key(&id.node.ident) => {
                let name = id.node.ident.as_str();
                if let Some(Global::Def(d)) = self.program.global(env.module, name) {
                    let d = d.clone();
                    let mut codes = Vec::new();
                    let mut types = Vec::new();
                    for x in &positional {
                        let (c, t) = self.expr(x, env)?;
                        if t == SType::Ctx {
                            return Err("it passes `ctx` on".into());
                        }
                        codes.push(c);
                        types.push(t);
                    }
                    let saved = self.arithmetic;
                    let (name, ty) = self.def(&d, types, None)?;
                    self.arithmetic = saved;
                    let binds = codes.iter().enumerate().map(|(i, c)| {
                        let v = format_ident!("__a{}", i);
                        quote! { let #v = #c; }
                    });
                    let vars = (0..codes.len()).map(|i| format_ident!("__a{}", i));
                    return Ok((quote! { { #(#binds)* #name(#(#vars),*)? } }, ty));
                }
                if self.program.is_bound(env.module, name) {
                    return Err(format!("it calls `{name}`, which is not a function defined once in the schema's files"));
                }
                let one = |this: &mut Self| -> Lowered<'s> {
                    if positional.len() != 1 {
                        return Err(format!(
                            "it calls `{name}` with {} arguments",
                            positional.len()
                        ));
                    }
                    this.expr(positional[0], env)
                };
                match name {
                    // Inside a def, ytt's template context calls do nothing when a rule runs:
                    // `__ytt_ctx_end(x)` is `x`.
                    "__ytt_ctx_start" if positional.is_empty() => {
                        Ok((quote! { #l::Val::None }, SType::None))
                    }
                    "__ytt_ctx_end" => one(self),
                    "len" => {
                        let (c, t) = one(self)?;
                        if !matches!(
                            t,
                            SType::Str | SType::List(_) | SType::Map(_) | SType::Array(_)
                        ) {
                            return Err(format!("it takes `len` of a value that is not certainly a string or a collection ({t:?})"));
                        }
                        Ok((quote! { #l::len(&#c) }, SType::Int))
                    }
                    "str" => {
                        let (c, t) = one(self)?;
                        if !t.formats_exactly() {
                            return Err(format!("it converts a value of type {t:?} with `str`"));
                        }
                        Ok((quote! { #l::Val::Str(#l::to_str(&#c)) }, SType::Str))
                    }
                    "fail" => {
                        let (c, t) = one(self)?;
                        if t != SType::Str {
                            return Err("it calls `fail` with something other than a string".into());
                        }
                        Ok((
                            quote! { { let __m = #c; return Err(#l::fail(&__m)) } },
                            SType::Never,
                        ))
                    }
                    _ => Err(format!("it calls `{name}`, which is not translated")),
                }
            }
            ExprP::Dot(obj, method) => {
                if let ExprP::Identifier(id) = &obj.node {
                    let assert = matches!(
                        self.program.global(env.module, &id.node.ident),
                        Some(Global::AssertModule)
                    );
                    if assert && !env.locals.contains_key(&id.node.ident) {
                        if method.node != "fail" || positional.len() != 1 {
                            return Err(format!(
                                "it calls `assert.{}`, which is not translated",
                                method.node
                            ));
                        }
                        let (c, t) = self.expr(positional[0], env)?;
                        if t != SType::Str {
                            return Err(
                                "it calls `assert.fail` with something other than a string".into(),
                            );
                        }
                        return Ok((
                            quote! { { let __m = #c; return Err(#l::assert_fail(&__m)) } },
                            SType::Never,
                        ));
                    }
                }
                if method.node == "format" {
                    return self.format(obj, &positional, env);
                }
                let (this, t) = self.expr(obj, env)?;
                if t != SType::Str {
                    return Err(format!(
                        "it calls `.{}` on a value that is not certainly a string ({t:?})",
                        method.node
                    ));
                }
                let mut str_args = Vec::new();
                for x in &positional {
                    let (c, t) = self.expr(x, env)?;
                    if t != SType::Str {
                        return Err(format!(
                            "it passes a value that is not certainly a string to `.{}`",
                            method.node
                        ));
                    }
                    str_args.push(c);
                }
                let m = method.node.as_str();
                match (m, str_args.len()) {
                    ("lower" | "upper" | "strip", 0) => {
                        let f = format_ident!("{}", m);
                        Ok((quote! { #l::#f(&#this) }, SType::Str))
                    }
                    ("startswith" | "endswith", 1) => {
                        let f = format_ident!("{}", m);
                        let a = &str_args[0];
                        Ok((quote! { { let __x = #this; let __y = #a; #l::#f(&__x, &__y) } }, SType::Bool))
                    }
                    ("split", 0) => Ok((quote! { #l::split(&#this, None) }, SType::List(Box::new(SType::Str)))),
                    ("split", 1) => {
                        let non_empty = matches!(&positional[0].node, ExprP::Literal(AstLiteral::String(s)) if !s.node.is_empty());
                        if !non_empty {
                            return Err("it splits on a separator that is not a non-empty string literal".into());
                        }
                        let a = &str_args[0];
                        Ok((quote! { { let __x = #this; let __y = #a; #l::split(&__x, Some(&__y)) } }, SType::List(Box::new(SType::Str))))
                    }
                    _ => Err(format!("it calls the string method `.{m}` with {} arguments, which is not translated", str_args.len())),
                }
            }
            _ => Err("it calls something other than a named function or a method".into()),
        }
    }
}
