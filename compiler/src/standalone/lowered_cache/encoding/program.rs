//! The rule IR (`lowered::ir::Program`, a schema's translated rule functions) as bytes, after
//! the schema in an entry: each function's kind, name, slots, flags and body, then the entries
//! (a schema function's index and its translation's). Statements and expressions are a tag
//! byte and their parts; an `i128` is its 16 bytes, a float its 8.
//!
//! The reader refuses a program that is not one the translation makes: nesting past
//! [`MAX_NESTING`], an entry or a call naming no function, a slot past its function's, or
//! functions that call each other round (Starlark has no recursion, and the IR's evaluator
//! would recurse without end).

use schemac_runtime::lowered::ir::{Expr, Function, Kind, Method, Op, Piece, Program, Stmt};

use super::{Reader, Writer, MAX_NESTING};

const OPS: [Op; 10] = [
    Op::Eq,
    Op::Ne,
    Op::Lt,
    Op::Gt,
    Op::Le,
    Op::Ge,
    Op::In,
    Op::NotIn,
    Op::Add,
    Op::Sub,
];

const METHODS: [Method; 6] = [
    Method::Lower,
    Method::Upper,
    Method::Strip,
    Method::StartsWith,
    Method::EndsWith,
    Method::Split,
];

const KINDS: [Kind; 3] = [Kind::Rule, Kind::When, Kind::Def];

/// The index of `x` in `all` (every variant is there).
fn tag<T: PartialEq>(all: &[T], x: &T) -> u8 {
    all.iter()
        .position(|y| y == x)
        .expect("every variant is listed") as u8
}

impl Writer {
    pub(super) fn program(&mut self, p: &Program) -> Option<()> {
        self.uint(p.functions.len() as u64);
        for f in &p.functions {
            self.bytes.push(tag(&KINDS, &f.kind));
            self.text(&f.name);
            self.uint(f.slots.len() as u64);
            for slot in &f.slots {
                self.text(slot);
            }
            self.uint(f.params as u64);
            self.bytes
                .push(u8::from(f.takes_ctx) | u8::from(f.falls_through) << 1);
            self.stmts(&f.body, 0)?;
        }
        self.uint(p.entries.len() as u64);
        for (&index, &function) in &p.entries {
            self.uint(index as u64);
            self.uint(function as u64);
        }
        Some(())
    }

    fn stmts(&mut self, body: &[Stmt], depth: usize) -> Option<()> {
        if depth > MAX_NESTING {
            return None;
        }
        self.uint(body.len() as u64);
        for s in body {
            match s {
                Stmt::Return { value, never } | Stmt::Expr { value, never } => {
                    let returns = matches!(s, Stmt::Return { .. });
                    self.bytes.push(u8::from(!returns) << 1 | u8::from(*never));
                    self.expr(value, depth + 1)?;
                }
                Stmt::Let(slot, value) => {
                    self.bytes.push(4);
                    self.uint(*slot as u64);
                    self.expr(value, depth + 1)?;
                }
                Stmt::If(cond, then, other) => {
                    self.bytes.push(5);
                    self.expr(cond, depth + 1)?;
                    self.stmts(then, depth + 1)?;
                    self.stmts(other, depth + 1)?;
                }
            }
        }
        Some(())
    }

    fn exprs(&mut self, all: &[Expr], depth: usize) -> Option<()> {
        self.uint(all.len() as u64);
        all.iter().try_for_each(|e| self.expr(e, depth))
    }

    fn expr(&mut self, e: &Expr, depth: usize) -> Option<()> {
        if depth > MAX_NESTING {
            return None;
        }
        let depth = depth + 1;
        match e {
            Expr::None => self.bytes.push(0),
            Expr::Bool(b) => self.bytes.push(1 + u8::from(*b)),
            Expr::Int(i) => {
                self.bytes.push(3);
                self.bytes.extend_from_slice(&i.to_le_bytes());
            }
            Expr::Float(f) => {
                self.bytes.push(4);
                self.bytes.extend_from_slice(&f.to_bits().to_le_bytes());
            }
            Expr::Str(s) => {
                self.bytes.push(5);
                self.text(s);
            }
            Expr::Local(slot) => {
                self.bytes.push(6);
                self.uint(*slot as u64);
            }
            Expr::Parent => self.bytes.push(7),
            Expr::Root => self.bytes.push(8),
            Expr::Field(m, key) => {
                self.bytes.push(9);
                self.expr(m, depth)?;
                self.text(key);
            }
            Expr::Not(x) | Expr::Neg(x) | Expr::Len(x) | Expr::ToStr(x) => {
                let t = match e {
                    Expr::Not(_) => 10,
                    Expr::Neg(_) => 11,
                    Expr::Len(_) => 12,
                    _ => 13,
                };
                self.bytes.push(t);
                self.expr(x, depth)?;
            }
            Expr::Fail(x) | Expr::AssertFail(x) => {
                self.bytes
                    .push(if matches!(e, Expr::Fail(_)) { 14 } else { 15 });
                self.expr(x, depth)?;
            }
            Expr::If(parts) => {
                self.bytes.push(16);
                parts.iter().try_for_each(|x| self.expr(x, depth))?;
            }
            Expr::And(pair) | Expr::Or(pair) => {
                self.bytes
                    .push(if matches!(e, Expr::And(_)) { 17 } else { 18 });
                pair.iter().try_for_each(|x| self.expr(x, depth))?;
            }
            Expr::Binary(op, pair) => {
                self.bytes.push(19);
                self.bytes.push(tag(&OPS, op));
                pair.iter().try_for_each(|x| self.expr(x, depth))?;
            }
            Expr::List(items) => {
                self.bytes.push(20);
                self.exprs(items, depth)?;
            }
            Expr::Call(f, args) => {
                self.bytes.push(21);
                self.uint(*f as u64);
                self.exprs(args, depth)?;
            }
            Expr::Method(m, this, args) => {
                self.bytes.push(22);
                self.bytes.push(tag(&METHODS, m));
                self.expr(this, depth)?;
                self.exprs(args, depth)?;
            }
            Expr::Format(pieces, args) => {
                self.bytes.push(23);
                self.uint(pieces.len() as u64);
                for p in pieces {
                    match p {
                        Piece::Text(t) => {
                            self.bytes.push(0);
                            self.text(t);
                        }
                        Piece::Arg(i) => {
                            self.bytes.push(1);
                            self.uint(*i as u64);
                        }
                    }
                }
                self.exprs(args, depth)?;
            }
        }
        Some(())
    }
}

/// What the reader checks of a function's body as it reads it: the function's slots, and the
/// functions it calls.
struct Body {
    slots: usize,
    calls: Vec<usize>,
}

impl Reader<'_> {
    pub(super) fn program(&mut self) -> Option<Program> {
        let n = self.len()?;
        let mut functions = Vec::with_capacity(Self::room(n));
        let mut calls = Vec::with_capacity(Self::room(n));
        for _ in 0..n {
            let kind = *KINDS.get(usize::from(self.byte()?))?;
            let name = self.text()?.to_string();
            let count = self.len()?;
            let mut slots = Vec::with_capacity(Self::room(count));
            for _ in 0..count {
                slots.push(self.text()?.to_string());
            }
            let params = usize::try_from(self.uint()?).ok()?;
            let flags = self.byte()?;
            if params > slots.len() || flags > 3 {
                return None;
            }
            let mut body = Body {
                slots: slots.len(),
                calls: Vec::new(),
            };
            let stmts = self.stmts(&mut body, 0)?;
            calls.push(body.calls);
            functions.push(Function {
                kind,
                name,
                slots,
                params,
                takes_ctx: flags & 1 != 0,
                body: stmts,
                falls_through: flags & 2 != 0,
            });
        }
        let mut entries = std::collections::BTreeMap::new();
        for _ in 0..self.len()? {
            let index = usize::try_from(self.uint()?).ok()?;
            let function = usize::try_from(self.uint()?).ok()?;
            if function >= functions.len() || entries.insert(index, function).is_some() {
                return None;
            }
        }
        let known = calls.iter().flatten().all(|&f| f < functions.len());
        (known && !calls_round(&calls)).then_some(Program { functions, entries })
    }

    fn stmts(&mut self, body: &mut Body, depth: usize) -> Option<Vec<Stmt>> {
        if depth > MAX_NESTING {
            return None;
        }
        let n = self.len()?;
        let mut out = Vec::with_capacity(Self::room(n));
        for _ in 0..n {
            out.push(match self.byte()? {
                t @ 0..=3 => {
                    let (value, never) = (self.expr(body, depth + 1)?, t & 1 != 0);
                    match t >> 1 {
                        0 => Stmt::Return { value, never },
                        _ => Stmt::Expr { value, never },
                    }
                }
                4 => Stmt::Let(self.slot(body)?, self.expr(body, depth + 1)?),
                5 => Stmt::If(
                    self.expr(body, depth + 1)?,
                    self.stmts(body, depth + 1)?,
                    self.stmts(body, depth + 1)?,
                ),
                _ => return None,
            });
        }
        Some(out)
    }

    fn slot(&mut self, body: &Body) -> Option<usize> {
        let slot = usize::try_from(self.uint()?).ok()?;
        (slot < body.slots).then_some(slot)
    }

    fn exprs(&mut self, body: &mut Body, depth: usize) -> Option<Vec<Expr>> {
        let n = self.len()?;
        let mut out = Vec::with_capacity(Self::room(n));
        for _ in 0..n {
            out.push(self.expr(body, depth)?);
        }
        Some(out)
    }

    fn boxed<const N: usize>(&mut self, body: &mut Body, depth: usize) -> Option<Box<[Expr; N]>> {
        let mut all = Vec::with_capacity(N);
        for _ in 0..N {
            all.push(self.expr(body, depth)?);
        }
        Some(Box::new(all.try_into().ok()?))
    }

    fn expr(&mut self, body: &mut Body, depth: usize) -> Option<Expr> {
        if depth > MAX_NESTING {
            return None;
        }
        let depth = depth + 1;
        Some(match self.byte()? {
            0 => Expr::None,
            1 => Expr::Bool(false),
            2 => Expr::Bool(true),
            3 => Expr::Int(i128::from_le_bytes(self.array()?)),
            4 => Expr::Float(f64::from_bits(u64::from_le_bytes(self.array()?))),
            5 => Expr::Str(self.text()?.to_string()),
            6 => Expr::Local(self.slot(body)?),
            7 => Expr::Parent,
            8 => Expr::Root,
            9 => Expr::Field(Box::new(self.expr(body, depth)?), self.text()?.to_string()),
            t @ 10..=15 => {
                let x = Box::new(self.expr(body, depth)?);
                match t {
                    10 => Expr::Not(x),
                    11 => Expr::Neg(x),
                    12 => Expr::Len(x),
                    13 => Expr::ToStr(x),
                    14 => Expr::Fail(x),
                    _ => Expr::AssertFail(x),
                }
            }
            16 => Expr::If(self.boxed(body, depth)?),
            17 => Expr::And(self.boxed(body, depth)?),
            18 => Expr::Or(self.boxed(body, depth)?),
            19 => {
                let op = *OPS.get(usize::from(self.byte()?))?;
                Expr::Binary(op, self.boxed(body, depth)?)
            }
            20 => Expr::List(self.exprs(body, depth)?),
            21 => {
                let f = usize::try_from(self.uint()?).ok()?;
                let args = self.exprs(body, depth)?;
                body.calls.push(f);
                Expr::Call(f, args)
            }
            22 => {
                let m = *METHODS.get(usize::from(self.byte()?))?;
                let this = Box::new(self.expr(body, depth)?);
                Expr::Method(m, this, self.exprs(body, depth)?)
            }
            23 => {
                let n = self.len()?;
                let mut pieces = Vec::with_capacity(Self::room(n));
                for _ in 0..n {
                    pieces.push(match self.byte()? {
                        0 => Piece::Text(self.text()?.to_string()),
                        1 => Piece::Arg(usize::try_from(self.uint()?).ok()?),
                        _ => return None,
                    });
                }
                Expr::Format(pieces, self.exprs(body, depth)?)
            }
            _ => return None,
        })
    }
}

/// Whether some function, following `calls` (each function's callees), calls itself.
fn calls_round(calls: &[Vec<usize>]) -> bool {
    // 0: not seen, 1: on the path, 2: done.
    let mut state = vec![0u8; calls.len()];
    for start in 0..calls.len() {
        if state[start] != 0 {
            continue;
        }
        let mut path = vec![(start, 0)];
        state[start] = 1;
        while let Some(&mut (f, ref mut next)) = path.last_mut() {
            match calls[f].get(*next) {
                Some(&callee) => {
                    *next += 1;
                    match state[callee] {
                        0 => {
                            state[callee] = 1;
                            path.push((callee, 0));
                        }
                        1 => return true,
                        _ => {}
                    }
                }
                None => {
                    state[f] = 2;
                    path.pop();
                }
            }
        }
    }
    false
}
