//! The rule IR: a schema's translated rule functions as expression trees.
//!
//! The compiler's rule translation (`schemac`'s `rules` module) produces a [`Program`]; `schemac
//! build` turns it into Rust that calls the operations of [`super`], and `schemac check` runs it
//! here with [`Program::call_rule`] / [`Program::call_when`], which call the same operations.
//! A function is only translated when its static types rule out every Starlark error, so the
//! one failure at run time is an explicit `fail()` / `assert.fail()`.

use std::borrow::Cow;

use super::{Failure, Result, Val};
use crate::validate::CallOutcome;
use crate::value::Node;

/// An expression.
#[derive(Clone, Debug, PartialEq)]
pub enum Expr {
    None,
    Bool(bool),
    Int(i128),
    Float(f64),
    Str(String),
    /// A parameter or a local variable of the function, by slot.
    Local(usize),
    /// `ctx.parent` and `ctx.root` of a `when=` predicate.
    Parent,
    Root,
    /// `m["key"]` on a map the schema guarantees the key of.
    Field(Box<Expr>, String),
    Not(Box<Expr>),
    Neg(Box<Expr>),
    /// `a if cond else b`: cond, a, b.
    If(Box<[Expr; 3]>),
    And(Box<[Expr; 2]>),
    Or(Box<[Expr; 2]>),
    Binary(Op, Box<[Expr; 2]>),
    List(Vec<Expr>),
    /// A call of the program's function with that index.
    Call(usize, Vec<Expr>),
    Len(Box<Expr>),
    ToStr(Box<Expr>),
    Fail(Box<Expr>),
    AssertFail(Box<Expr>),
    /// A string method on its receiver, with its arguments.
    Method(Method, Box<Expr>, Vec<Expr>),
    /// `"...".format(args)`, its string parsed into pieces.
    Format(Vec<Piece>, Vec<Expr>),
}

/// A binary operator on two evaluated operands.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Op {
    Eq,
    Ne,
    Lt,
    Gt,
    Le,
    Ge,
    In,
    NotIn,
    Add,
    Sub,
}

/// The string methods translated.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Method {
    Lower,
    Upper,
    Strip,
    StartsWith,
    EndsWith,
    /// `split()` without an argument, or with a non-empty literal separator.
    Split,
}

/// A piece of a format string.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Piece {
    Text(String),
    Arg(usize),
}

/// A statement of a function's body.
#[derive(Clone, Debug, PartialEq)]
pub enum Stmt {
    /// `return x`; `never` when `x` is a `fail()`, which returns its error itself.
    Return { value: Expr, never: bool },
    /// An expression evaluated for its effect (a `fail()` when `never`).
    Expr { value: Expr, never: bool },
    /// `name = x` at the top of a body: the slot it fills.
    Let(usize, Expr),
    /// `if`, with its `else` branch (empty without one).
    If(Expr, Vec<Stmt>, Vec<Stmt>),
}

/// What a function is for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    /// A custom rule: one parameter, the value.
    Rule,
    /// A `when=` predicate: the value, and `ctx.parent`/`ctx.root` available.
    When,
    /// A `def` of the schema's files called by a rule (with the context when `takes_ctx`).
    Def,
}

/// One function.
#[derive(Clone, Debug, PartialEq)]
pub struct Function {
    pub kind: Kind,
    /// The `def`'s name (for the generated code's names), empty for entries.
    pub name: String,
    /// The names of its slots: the parameters first, then its local variables.
    pub slots: Vec<String>,
    /// How many of the slots are parameters.
    pub params: usize,
    /// Whether `ctx.parent`/`ctx.root` are passed to it.
    pub takes_ctx: bool,
    pub body: Vec<Stmt>,
    /// Whether control can reach the end of the body (which then answers None).
    pub falls_through: bool,
}

/// A schema's translated functions.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Program {
    pub functions: Vec<Function>,
    /// The translation of a schema's rule or `when=` function (its index in `functions`), by
    /// [`crate::schema::FunctionRef`] index.
    pub entries: std::collections::BTreeMap<usize, usize>,
}

/// The context of one call of an entry function: `ctx.parent` and `ctx.root` of a `when=`.
#[derive(Clone, Copy)]
struct Ctx<'a> {
    parent: Option<&'a Node>,
    root: Option<&'a Node>,
}

/// The values a call's stack holds before it grows (the parameters and variables of a rule
/// and of the functions it calls).
const STACK: usize = 8;

/// Where a call's slots start on the stack, and its context.
#[derive(Clone, Copy)]
struct Frame<'a> {
    base: usize,
    ctx: Ctx<'a>,
}

/// How a statement ends: on to the next, or returning.
enum Flow<'a> {
    Next,
    Return(Val<'a>),
}

impl Program {
    /// The translation of the schema's function `f`, if it has one of kind `kind`.
    pub fn entry(&self, f: &crate::schema::FunctionRef, kind: Kind) -> Option<usize> {
        let i = *self.entries.get(&f.index)?;
        (self.functions.get(i)?.kind == kind).then_some(i)
    }

    /// Runs the custom rule `f` (a [`Kind::Rule`] function) on `value`.
    pub fn call_rule(&self, f: usize, value: &Node) -> CallOutcome {
        let ctx = Ctx {
            parent: None,
            root: None,
        };
        let mut stack = Vec::with_capacity(STACK);
        stack.push(super::node(value));
        super::LoweredRule::outcome(self.call(self.callee(f), &mut stack, 0, ctx))
    }

    /// Runs the `when=` predicate `f` (a [`Kind::When`] function) on `value`.
    pub fn call_when(
        &self,
        f: usize,
        value: &Node,
        parent: &Node,
        root: &Node,
    ) -> std::result::Result<bool, String> {
        let ctx = Ctx {
            parent: Some(parent),
            root: Some(root),
        };
        let mut stack = Vec::with_capacity(STACK);
        stack.push(super::node(value));
        super::LoweredWhen::answer(self.call(self.callee(f), &mut stack, 0, ctx))
    }

    /// The function an entry runs: the `def` it names (its body is only that call), else
    /// itself.
    fn callee(&self, f: usize) -> usize {
        match self.functions.get(f).map(|e| &e.body[..]) {
            Some(
                [Stmt::Return {
                    value: Expr::Call(d, args),
                    ..
                }],
            ) if args[..] == [Expr::Local(0)] => *d,
            _ => f,
        }
    }

    /// Calls function `f` whose arguments are on `stack` from `base` on; the stack is left
    /// as it was below `base`.
    fn call<'a>(
        &'a self,
        f: usize,
        stack: &mut Vec<Val<'a>>,
        base: usize,
        ctx: Ctx<'a>,
    ) -> Result<'a> {
        let Some(function) = self.functions.get(f) else {
            stack.truncate(base);
            return Err(Failure(format!("internal error: no rule function {f}")));
        };
        stack.resize(
            base + function.slots.len().max(stack.len() - base),
            Val::None,
        );
        let answer = match self.block(&function.body, stack, base, ctx) {
            Ok(Flow::Return(v)) => Ok(v),
            Ok(Flow::Next) => Ok(Val::None),
            Err(e) => Err(e),
        };
        stack.truncate(base);
        answer
    }

    fn block<'a>(
        &'a self,
        body: &'a [Stmt],
        stack: &mut Vec<Val<'a>>,
        base: usize,
        ctx: Ctx<'a>,
    ) -> std::result::Result<Flow<'a>, Failure> {
        let frame = Frame { base, ctx };
        for s in body {
            match s {
                Stmt::Return { value, .. } => {
                    return Ok(Flow::Return(self.eval(value, stack, frame)?))
                }
                Stmt::Expr { value, .. } => {
                    self.eval(value, stack, frame)?;
                }
                Stmt::Let(slot, value) => {
                    let v = self.eval(value, stack, frame)?;
                    if let Some(s) = stack.get_mut(base + *slot) {
                        *s = v;
                    }
                }
                Stmt::If(cond, then, other) => {
                    let branch = if super::truth(&self.eval(cond, stack, frame)?) {
                        then
                    } else {
                        other
                    };
                    if let Flow::Return(v) = self.block(branch, stack, base, ctx)? {
                        return Ok(Flow::Return(v));
                    }
                }
            }
        }
        Ok(Flow::Next)
    }

    /// An expression's value: leaves here, the rest in [`Self::eval_compound`] (a leaf, most
    /// of the expressions evaluated, then costs no more than a small function's call).
    #[inline]
    fn eval<'a>(&'a self, e: &'a Expr, stack: &mut Vec<Val<'a>>, frame: Frame<'a>) -> Result<'a> {
        Ok(match e {
            Expr::None => Val::None,
            Expr::Bool(b) => Val::Bool(*b),
            Expr::Int(i) => Val::Int(*i),
            Expr::Float(f) => Val::Float(*f),
            Expr::Str(s) => Val::Str(Cow::Borrowed(s)),
            Expr::Local(slot) => stack.get(frame.base + slot).cloned().unwrap_or(Val::None),
            _ => return self.eval_compound(e, stack, frame),
        })
    }

    #[inline(never)]
    fn eval_compound<'a>(
        &'a self,
        e: &'a Expr,
        stack: &mut Vec<Val<'a>>,
        frame: Frame<'a>,
    ) -> Result<'a> {
        use super as l;
        let ctx = frame.ctx;
        Ok(match e {
            Expr::None
            | Expr::Bool(_)
            | Expr::Int(_)
            | Expr::Float(_)
            | Expr::Str(_)
            | Expr::Local(_) => return self.eval(e, stack, frame),
            Expr::Parent => ctx.parent.map_or(Val::None, l::node),
            Expr::Root => ctx.root.map_or(Val::None, l::node),
            Expr::Field(m, key) => l::field(&self.eval(m, stack, frame)?, key),
            Expr::Not(x) => Val::Bool(!l::truth(&self.eval(x, stack, frame)?)),
            Expr::Neg(x) => l::neg(self.eval(x, stack, frame)?)?,
            Expr::If(parts) => {
                let [c, a, b] = &**parts;
                if l::truth(&self.eval(c, stack, frame)?) {
                    self.eval(a, stack, frame)?
                } else {
                    self.eval(b, stack, frame)?
                }
            }
            Expr::And(pair) => {
                let x = self.eval(&pair[0], stack, frame)?;
                if l::truth(&x) {
                    self.eval(&pair[1], stack, frame)?
                } else {
                    x
                }
            }
            Expr::Or(pair) => {
                let x = self.eval(&pair[0], stack, frame)?;
                if l::truth(&x) {
                    x
                } else {
                    self.eval(&pair[1], stack, frame)?
                }
            }
            Expr::Binary(op, pair) => {
                let x = self.eval(&pair[0], stack, frame)?;
                let y = self.eval(&pair[1], stack, frame)?;
                binary(*op, x, y)?
            }
            Expr::List(items) => {
                let mut list = Vec::with_capacity(items.len());
                for i in items {
                    list.push(self.eval(i, stack, frame)?);
                }
                Val::List(list)
            }
            Expr::Call(f, args) => {
                let base = stack.len();
                for a in args {
                    match self.eval(a, stack, frame) {
                        Ok(v) => stack.push(v),
                        Err(e) => {
                            stack.truncate(base);
                            return Err(e);
                        }
                    }
                }
                self.call(*f, stack, base, ctx)?
            }
            Expr::Len(x) => l::len(&self.eval(x, stack, frame)?),
            Expr::ToStr(x) => Val::Str(l::to_str(&self.eval(x, stack, frame)?)),
            Expr::Fail(x) => return Err(l::fail(&self.eval(x, stack, frame)?)),
            Expr::AssertFail(x) => return Err(l::assert_fail(&self.eval(x, stack, frame)?)),
            Expr::Method(m, this, args) => {
                let this = self.eval(this, stack, frame)?;
                let arg = match args.first() {
                    Some(a) => Some(self.eval(a, stack, frame)?),
                    None => None,
                };
                method(*m, &this, arg.as_ref())
            }
            Expr::Format(pieces, args) => {
                let mut values = Vec::with_capacity(args.len());
                for a in args {
                    values.push(self.eval(a, stack, frame)?);
                }
                let args = values;
                let pieces: Vec<l::Piece> = pieces
                    .iter()
                    .map(|p| match p {
                        Piece::Text(t) => l::Piece::Text(t),
                        Piece::Arg(i) => l::Piece::Arg(*i),
                    })
                    .collect();
                l::format_values(&pieces, &args)
            }
        })
    }
}

/// A binary operator applied as generated code applies it.
fn binary<'a>(op: Op, x: Val<'a>, y: Val<'a>) -> Result<'a> {
    use super as l;
    Ok(match op {
        Op::Eq => Val::Bool(l::eq(&x, &y)),
        Op::Ne => Val::Bool(l::ne(&x, &y)),
        Op::Lt => Val::Bool(l::lt(&x, &y)),
        Op::Gt => Val::Bool(l::gt(&x, &y)),
        Op::Le => Val::Bool(l::le(&x, &y)),
        Op::Ge => Val::Bool(l::ge(&x, &y)),
        Op::In => Val::Bool(l::contains(&y, &x)),
        Op::NotIn => Val::Bool(!l::contains(&y, &x)),
        Op::Add => l::add(x, y)?,
        Op::Sub => l::sub(x, y)?,
    })
}

/// A string method with its argument (the translation checked their number).
fn method<'a>(m: Method, this: &Val, arg: Option<&Val>) -> Val<'a> {
    use super as l;
    let none = Val::None;
    match m {
        Method::Lower => l::lower(this),
        Method::Upper => l::upper(this),
        Method::Strip => l::strip(this),
        Method::StartsWith => l::startswith(this, arg.unwrap_or(&none)),
        Method::EndsWith => l::endswith(this, arg.unwrap_or(&none)),
        Method::Split => l::split(this, arg),
    }
}
