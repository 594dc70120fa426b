//! Starlark rule functions to the rule IR ([`schemac_runtime::lowered::ir`]), where the
//! translation is exact: `schemac build` turns the IR into Rust ([`super::emit`]), `schemac
//! check` evaluates it.
//!
//! Every expression is translated with a static type taken from the schema (a rule's value has
//! its field's type; `ctx.parent` the enclosing map's; `ctx.root` the root's). An operation is
//! translated only when those types rule out every Starlark error, so the generated code can
//! only fail where the rule calls `fail()`/`assert.fail()`; anything else returns the reason it
//! stays with the interpreter.

use std::collections::{HashMap, HashSet};

use starlark_syntax::lexer::TokenInt;
use starlark_syntax::syntax::ast::{
    ArgumentP, AstExpr, AstLiteral, AstParameter, AstStmt, BinOp, ExprP, ParameterP, StmtP,
};

use schemac_runtime::lowered::ir::{Expr, Function, Kind as FnKind, Method, Op, Stmt};
use schemac_runtime::schema::{Kind, Type};
use schemac_runtime::template::generated_names as gen;

pub use super::stype::SType;

use super::source::{CallArgs, DefRef, Global, Index, Program};

mod format;

type Lowered<'s> = Result<(Expr, SType<'s>), String>;

/// The scope of one function body.
#[derive(Clone)]
struct Env<'s> {
    module: usize,
    /// Each name's slot and type.
    locals: HashMap<String, (usize, SType<'s>)>,
    /// The names of the function's slots so far (parameters, then assigned variables).
    slots: Vec<String>,
    /// The `ctx` parameter of a `when=` predicate, with `ctx.parent`'s type.
    ctx: Option<(String, SType<'s>)>,
    /// How many `if`s the statement being translated is in.
    ifs: usize,
}

/// How deep the `if` statements of a function that compiles to Rust may nest (an `elif` is an
/// `if` in the `else` before it): the Rust written nests as deep, and compiling a chain of
/// thousands took minutes and gigabytes. A function nested deeper stays with the interpreter.
const MAX_IF_DEPTH: usize = 64;

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
            slots: Vec::new(),
            ctx: None,
            ifs: 0,
        };
        for (p, ty) in params.iter().zip(args) {
            if *ty == SType::Ctx {
                env.ctx = Some((p.clone(), parent.clone().unwrap_or(SType::Unknown)));
            } else {
                env.bind(p, ty.clone());
            }
        }
        env
    }

    /// A new slot for `name`.
    fn bind(&mut self, name: &str, ty: SType<'s>) -> usize {
        let slot = self.slots.len();
        self.slots.push(name.to_string());
        self.locals.insert(name.to_string(), (slot, ty));
        slot
    }
}

/// Translates a schema's rule functions into the functions of an IR program.
pub struct Translator<'p, 's> {
    program: &'p Program,
    index: Index<'p>,
    root: &'s Type,
    /// The IR functions made so far (entries and the `def`s they call), indexed by
    /// [`Expr::Call`].
    pub functions: Vec<Function>,
    defs: HashMap<(DefRef, String), (usize, SType<'s>)>,
    in_progress: HashSet<DefRef>,
    /// `+` and `-` used so far in the function being translated: ints are i128 in Rust, exact
    /// while fewer than 60 of them apply to 64-bit values.
    arithmetic: usize,
    /// How many expressions the one being translated is in, counting through the functions
    /// it calls that are translated on the way (a called function's body is translated inside
    /// its caller's call expression): conservative, a chain of calls shares one budget.
    expr_depth: usize,
}

const MAX_ARITHMETIC: usize = 60;

/// How deep the expressions of a function that compiles to Rust may nest (each operand,
/// argument or branch of a conditional one level in): the Rust written nests as deep (a chain
/// of 3,000 conditionals took 430 MB to write). A function nested deeper stays with the
/// interpreter.
const MAX_EXPR_DEPTH: usize = 256;

fn positional(params: &[AstParameter]) -> Option<Vec<String>> {
    params
        .iter()
        .map(|p| match &p.node {
            ParameterP::Normal(id, None, None) => Some(id.node.ident.clone()),
            _ => None,
        })
        .collect()
}

impl<'p, 's> Translator<'p, 's> {
    pub fn new(program: &'p Program, root: &'s Type) -> Self {
        Translator {
            program,
            index: program.index(),
            root,
            functions: Vec::new(),
            defs: HashMap::new(),
            in_progress: HashSet::new(),
            arithmetic: 0,
            expr_depth: 0,
        }
    }

    /// The arguments of the `#@schema/validation` annotation on `line` of `module`.
    pub fn validation_args(&self, module: usize, line: u32) -> Option<&'p CallArgs> {
        self.index.validation_args(module, line)
    }

    /// Adds `f` to the program; its index.
    fn add(&mut self, f: Function) -> usize {
        self.functions.push(f);
        self.functions.len() - 1
    }

    /// A custom rule `f` (a lambda or a def's name) of a value of type `value`: the index of
    /// its [`FnKind::Rule`] function.
    pub fn rule(&mut self, module: usize, f: &AstExpr, value: SType<'s>) -> Result<usize, String> {
        let (entry, _) = self.function(module, f, vec![value], None)?;
        Ok(self.add(entry))
    }

    /// A `when=` predicate of a value of type `value` whose parent has type `parent`.
    pub fn when(
        &mut self,
        module: usize,
        f: &AstExpr,
        value: SType<'s>,
        parent: SType<'s>,
    ) -> Result<usize, String> {
        // ytt passes `ctx` to predicates that take two parameters.
        let body = match self.arity(module, f) {
            Some(2) => self.function(module, f, vec![value, SType::Ctx], Some(parent))?,
            _ => self.function(module, f, vec![value], None)?,
        };
        // A predicate that answers with something else than a bool is reported with the
        // answer's type, which for maps and arrays is the interpreter's own.
        let (mut entry, answer) = body;
        if !answer.is_plain() {
            return Err(format!(
                "it may answer with a {answer:?} rather than a bool"
            ));
        }
        entry.kind = FnKind::When;
        entry.takes_ctx = true;
        Ok(self.add(entry))
    }

    /// How many parameters the function `f` has.
    fn arity(&self, module: usize, f: &AstExpr) -> Option<usize> {
        match &f.node {
            ExprP::Lambda(l) => Some(l.params.len()),
            ExprP::Identifier(id) => match self.program.global(module, &id.node.ident) {
                Some(Global::Def(d)) => self.index.def(d).map(|d| d.params.len()),
                _ => None,
            },
            _ => None,
        }
    }

    /// An entry function (a [`FnKind::Rule`]: `when` makes it a predicate): `f` applied to
    /// the value (and the context), and the type of its answer.
    fn function(
        &mut self,
        module: usize,
        f: &AstExpr,
        args: Vec<SType<'s>>,
        parent: Option<SType<'s>>,
    ) -> Result<(Function, SType<'s>), String> {
        self.arithmetic = 0;
        let entry = |slots: Vec<String>, value: Expr, ty: &SType<'s>| Function {
            kind: FnKind::Rule,
            name: String::new(),
            params: slots.len(),
            slots,
            takes_ctx: false,
            body: vec![Stmt::Return {
                value,
                never: *ty == SType::Never,
            }],
            falls_through: false,
        };
        match &f.node {
            ExprP::Lambda(l) => {
                let params =
                    positional(&l.params).ok_or("its parameters have defaults or are variadic")?;
                if params.len() != args.len() {
                    return Err(format!("it takes {} parameters", params.len()));
                }
                let env = Env::of_params(module, &params, &args, parent);
                let (body, ty) = self.expr(&l.body, &env)?;
                Ok((entry(env.slots, body, &ty), ty))
            }
            ExprP::Identifier(id) => {
                let Some(Global::Def(d)) = self.program.global(module, &id.node.ident) else {
                    return Err(format!(
                        "`{}` is not a function defined once in the schema's files",
                        id.node.ident
                    ));
                };
                let (index, ty) = self.def(d, args.clone(), parent)?;
                let value = Expr::Call(index, vec![Expr::Local(0)]);
                Ok((entry(vec!["value".into()], value, &ty), ty))
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
    ) -> Result<(usize, SType<'s>), String> {
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
        let (function, ty) = result?;
        let index = self.add(function);
        self.defs
            .insert((r.clone(), signature), (index, ty.clone()));
        Ok((index, ty))
    }

    fn def_body(
        &mut self,
        r: &DefRef,
        args: &[SType<'s>],
        parent: Option<SType<'s>>,
    ) -> Result<(Function, SType<'s>), String> {
        let def = self.index.def(r).ok_or("its definition is not found")?;
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
        let params = env.slots.len();
        let mut returns = SType::Never;
        let (body, falls_through) = self.block(&def.body, &mut env, &mut returns, true)?;
        if falls_through {
            returns = returns.union(SType::None);
        }
        let function = Function {
            kind: FnKind::Def,
            name: r.name.clone(),
            slots: env.slots,
            params,
            takes_ctx: args.contains(&SType::Ctx),
            body,
            falls_through,
        };
        Ok((function, returns))
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
    ) -> Result<(Vec<Stmt>, bool), String> {
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
    ) -> Result<(Vec<Stmt>, bool), String> {
        match &s.node {
            StmtP::Statements(items) => {
                let mut out = Vec::new();
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
            StmtP::Pass => Ok((Vec::new(), true)),
            StmtP::Return(e) => {
                let (value, ty) = match e {
                    Some(e) => self.expr(e, env)?,
                    None => (Expr::None, SType::None),
                };
                let never = ty == SType::Never;
                *returns = std::mem::replace(returns, SType::Never).union(ty);
                Ok((vec![Stmt::Return { value, never }], false))
            }
            StmtP::Expression(e) => {
                let (value, ty) = self.expr(e, env)?;
                let never = ty == SType::Never;
                Ok((vec![Stmt::Expr { value, never }], !never))
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
                let slot = env.bind(&name, ty);
                Ok((vec![Stmt::Let(slot, code)], true))
            }
            StmtP::If(..) | StmtP::IfElse(..) if env.ifs >= MAX_IF_DEPTH => Err(format!(
                "its `if` statements nest deeper than {MAX_IF_DEPTH} (each `elif` one more)"
            )),
            StmtP::If(c, body) => {
                let (cond, _) = self.expr(c, env)?;
                let mut inside = Env {
                    ifs: env.ifs + 1,
                    ..env.clone()
                };
                let (then, _) = self.block(body, &mut inside, returns, false)?;
                Ok((vec![Stmt::If(cond, then, Vec::new())], true))
            }
            StmtP::IfElse(c, branches) => {
                let (cond, _) = self.expr(c, env)?;
                let inside = Env {
                    ifs: env.ifs + 1,
                    ..env.clone()
                };
                let (then, a) = self.block(&branches.0, &mut inside.clone(), returns, false)?;
                let (other, b) = self.block(&branches.1, &mut inside.clone(), returns, false)?;
                Ok((vec![Stmt::If(cond, then, other)], a || b))
            }
            StmtP::Assign(_) => Err("it assigns a variable inside `if`".into()),
            StmtP::For(_) => Err("it uses a `for` loop".into()),
            StmtP::Def(_) => Err("it defines a nested function".into()),
            StmtP::AssignModify(..) => Err("it uses an augmented assignment (`+=`...)".into()),
            _ => Err("it uses `break`, `continue` or `load` in a function".into()),
        }
    }

    fn expr(&mut self, e: &AstExpr, env: &Env<'s>) -> Lowered<'s> {
        if self.expr_depth >= MAX_EXPR_DEPTH {
            let reason = format!("its expressions nest deeper than {MAX_EXPR_DEPTH}");
            return Err(self.located(env.module, e.span, reason));
        }
        self.expr_depth += 1;
        let lowered = self.expr_inner(e, env);
        self.expr_depth -= 1;
        lowered.map_err(|r| self.located(env.module, e.span, r))
    }

    fn expr_inner(&mut self, e: &AstExpr, env: &Env<'s>) -> Lowered<'s> {
        match &e.node {
            ExprP::Literal(lit) => match lit {
                AstLiteral::Int(i) => match &i.node {
                    TokenInt::I32(n) => Ok((Expr::Int(*n as i128), SType::Int)),
                    TokenInt::BigInt(_) => Err("it uses an int literal beyond 32 bits".into()),
                },
                AstLiteral::Float(f) => Ok((Expr::Float(f.node), SType::Num)),
                AstLiteral::String(s) => Ok((Expr::Str(s.node.clone()), SType::Str)),
                _ => Err("it uses bytes or `...` literals".into()),
            },
            ExprP::Identifier(id) => {
                let name = &id.node.ident;
                if let Some((slot, ty)) = env.locals.get(name) {
                    return Ok((Expr::Local(*slot), ty.clone()));
                }
                if env.ctx.as_ref().is_some_and(|(c, _)| c == name) {
                    return Err("it uses `ctx` other than as `ctx.parent` or `ctx.root`".into());
                }
                if self.program.is_bound(env.module, name) {
                    return Err(format!("it uses `{name}`, which is not one of its parameters"));
                }
                match name.as_str() {
                    "None" => Ok((Expr::None, SType::None)),
                    "True" => Ok((Expr::Bool(true), SType::Bool)),
                    "False" => Ok((Expr::Bool(false), SType::Bool)),
                    _ => Err(format!("it uses `{name}`, which is not one of its parameters")),
                }
            }
            ExprP::Dot(obj, attr) => {
                if let (ExprP::Identifier(id), Some((ctx, parent))) = (&obj.node, &env.ctx) {
                    if id.node.ident == *ctx && !env.locals.contains_key(ctx) {
                        return match attr.node.as_str() {
                            "parent" => Ok((Expr::Parent, parent.clone())),
                            "root" => Ok((Expr::Root, SType::of(self.root, false))),
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
                Ok((Expr::Field(Box::new(obj), key.node.clone()), SType::of(&field.ty, true)))
            }
            ExprP::Not(x) => {
                let (x, _) = self.expr(x, env)?;
                Ok((Expr::Not(Box::new(x)), SType::Bool))
            }
            ExprP::Minus(x) => {
                let (x, ty) = self.expr(x, env)?;
                if !ty.is_number() {
                    return Err("it negates a value that is not certainly a number".into());
                }
                self.count_arithmetic()?;
                Ok((Expr::Neg(Box::new(x)), ty))
            }
            ExprP::If(parts) => {
                let (c, _) = self.expr(&parts.0, env)?;
                let (a, ta) = self.expr(&parts.1, env)?;
                let (b, tb) = self.expr(&parts.2, env)?;
                Ok((Expr::If(Box::new([c, a, b])), ta.union(tb)))
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
                Ok((Expr::List(codes), SType::List(Box::new(ty))))
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
        let (x, tx) = self.expr(a, env)?;
        let (y, ty) = self.expr(b, env)?;
        let pair = Box::new([x, y]);
        let bool_of = |op: Op| Expr::Binary(op, pair.clone());
        match op {
            BinOp::And => Ok((Expr::And(pair), tx.union(ty))),
            BinOp::Or => Ok((Expr::Or(pair), tx.union(ty))),
            BinOp::Equal | BinOp::NotEqual => {
                if !(tx.is_plain() && ty.is_plain()) {
                    return Err(format!(
                        "it compares values that are not certainly scalars ({tx:?} == {ty:?})"
                    ));
                }
                let op = if op == BinOp::Equal { Op::Eq } else { Op::Ne };
                Ok((bool_of(op), SType::Bool))
            }
            BinOp::Less | BinOp::Greater | BinOp::LessOrEqual | BinOp::GreaterOrEqual => {
                let comparable =
                    (tx.is_number() && ty.is_number()) || (tx == SType::Str && ty == SType::Str);
                if !comparable {
                    return Err(format!("it orders values that are not certainly two numbers or two strings ({tx:?}, {ty:?})"));
                }
                let op = match op {
                    BinOp::Less => Op::Lt,
                    BinOp::Greater => Op::Gt,
                    BinOp::LessOrEqual => Op::Le,
                    _ => Op::Ge,
                };
                Ok((bool_of(op), SType::Bool))
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
                let op = if op == BinOp::In { Op::In } else { Op::NotIn };
                Ok((bool_of(op), SType::Bool))
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
                let op = if op == BinOp::Add { Op::Add } else { Op::Sub };
                Ok((bool_of(op), result))
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
                    let (index, ty) = self.def(&d, types, None)?;
                    self.arithmetic = saved;
                    return Ok((Expr::Call(index, codes), ty));
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
                // Inside a def, ytt's template context calls do nothing when a rule runs:
                // `__ytt_ctx_end(x)` is `x`, `__ytt_ctx_end()` (a function without nodes
                // returning no value) None; `__ytt_ctx_end(x, True)`, a return before the
                // function's first node, `x` too (there is no context to leave open).
                let names = self.program.generated_names(env.module);
                let context = |suffix: &str| names.is(name, suffix);
                if context(gen::CTX_START) || context(gen::CTX_END) {
                    if positional.is_empty() {
                        return Ok((Expr::None, SType::None));
                    }
                    if context(gen::CTX_END) {
                        return self.expr(positional[0], env);
                    }
                }
                match name {
                    "len" => {
                        let (c, t) = one(self)?;
                        if !matches!(
                            t,
                            SType::Str | SType::List(_) | SType::Map(_) | SType::Array(_)
                        ) {
                            return Err(format!("it takes `len` of a value that is not certainly a string or a collection ({t:?})"));
                        }
                        Ok((Expr::Len(Box::new(c)), SType::Int))
                    }
                    "str" => {
                        let (c, t) = one(self)?;
                        if !t.formats_exactly() {
                            return Err(format!("it converts a value of type {t:?} with `str`"));
                        }
                        Ok((Expr::ToStr(Box::new(c)), SType::Str))
                    }
                    "fail" => {
                        let (c, t) = one(self)?;
                        if t != SType::Str {
                            return Err("it calls `fail` with something other than a string".into());
                        }
                        Ok((Expr::Fail(Box::new(c)), SType::Never))
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
                        return Ok((Expr::AssertFail(Box::new(c)), SType::Never));
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
                let (method, ty) = match (m, str_args.len()) {
                    ("lower", 0) => (Method::Lower, SType::Str),
                    ("upper", 0) => (Method::Upper, SType::Str),
                    ("strip", 0) => (Method::Strip, SType::Str),
                    ("startswith", 1) => (Method::StartsWith, SType::Bool),
                    ("endswith", 1) => (Method::EndsWith, SType::Bool),
                    ("split", 0) => (Method::Split, SType::List(Box::new(SType::Str))),
                    ("split", 1) => {
                        let non_empty = matches!(&positional[0].node, ExprP::Literal(AstLiteral::String(s)) if !s.node.is_empty());
                        if !non_empty {
                            return Err("it splits on a separator that is not a non-empty string literal".into());
                        }
                        (Method::Split, SType::List(Box::new(SType::Str)))
                    }
                    _ => return Err(format!("it calls the string method `.{m}` with {} arguments, which is not translated", str_args.len())),
                };
                Ok((Expr::Method(method, Box::new(this), str_args), ty))
            }
            _ => Err("it calls something other than a named function or a method".into()),
        }
    }
}
