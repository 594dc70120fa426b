//! The rule IR to Rust: each IR function becomes a function of the generated module that
//! composes the runtime's `lowered` operations, as `schemac check`'s evaluator of the IR
//! ([`schemac_runtime::lowered::ir`]) does.

use proc_macro2::{Ident, TokenStream};
use quote::{format_ident, quote};

use schemac_runtime::lowered::ir::{Expr, Function, Kind, Method, Op, Piece, Program, Stmt};

/// The name of the generated function for the IR function with index `i`.
pub fn name(program: &Program, i: usize) -> Ident {
    match program.functions.get(i) {
        Some(f) if f.kind == Kind::Def => format_ident!("__schemac_def_{}_{}", f.name, i),
        Some(f) if f.kind == Kind::When => format_ident!("__schemac_when_{}", i),
        _ => format_ident!("__schemac_rule_{}", i),
    }
}

/// The generated functions of `program`.
pub fn items(program: &Program, rt: &TokenStream) -> Vec<TokenStream> {
    (0..program.functions.len())
        .map(|i| Emitter { program, rt, i }.function())
        .collect()
}

struct Emitter<'p> {
    program: &'p Program,
    rt: &'p TokenStream,
    /// The function being emitted.
    i: usize,
}

impl Emitter<'_> {
    fn f(&self) -> &Function {
        &self.program.functions[self.i]
    }

    fn slot(&self, slot: usize) -> Ident {
        let name = self.f().slots.get(slot).map_or("", String::as_str);
        format_ident!("_s_{}", name)
    }

    fn function(&self) -> TokenStream {
        let rt = self.rt;
        let f = self.f();
        let name = name(self.program, self.i);
        // A last `return x` is the body's value.
        let (last, init) = match f.body.split_last() {
            Some((
                Stmt::Return {
                    value,
                    never: false,
                },
                init,
            )) => (Some(value), init),
            _ => (None, &f.body[..]),
        };
        let mut body = self.block(init);
        // A body that never falls through still needs a value at its end for rustc: its last
        // statement is a `fail()` (a block that returns) or a call of a function that always
        // fails, `g(x)?`, which rustc does not know to return (a rule `f` whose body is only
        // `fail(...)` did not compile). That end is unreachable; the interpreter of the IR
        // answers `None` there.
        let unreachable_end = last.is_none() && !f.falls_through;
        if let Some(value) = last {
            let code = self.expr(value);
            body.extend(quote! { Ok(#code) });
        } else if f.falls_through || unreachable_end {
            body.extend(quote! { Ok(#rt::lowered::Val::None) });
        }
        let allow = unreachable_end.then(|| quote! { #[allow(unreachable_code)] });
        let node = quote! { &'a #rt::value::Node };
        match f.kind {
            Kind::Rule | Kind::When => {
                let ctx =
                    (f.kind == Kind::When).then(|| quote! { , __parent: #node, __root: #node });
                let value = self.slot(0);
                quote! {
                    #allow
                    fn #name<'a>(value: #node #ctx) -> #rt::lowered::Result<'a> {
                        let #value = #rt::lowered::node(value);
                        #body
                    }
                }
            }
            Kind::Def => {
                let params = (0..f.params).map(|p| {
                    let id = self.slot(p);
                    quote! { #id: #rt::lowered::Val<'a> }
                });
                let ctx = f
                    .takes_ctx
                    .then(|| quote! { , __parent: #node, __root: #node });
                quote! {
                    #allow
                    fn #name<'a>(#(#params),* #ctx) -> #rt::lowered::Result<'a> {
                        #body
                    }
                }
            }
        }
    }

    fn block(&self, body: &[Stmt]) -> TokenStream {
        body.iter().map(|s| self.stmt(s)).collect()
    }

    fn stmt(&self, s: &Stmt) -> TokenStream {
        let l = self.lowered();
        match s {
            // A `fail()` returns its error itself.
            Stmt::Return { value, never: true } | Stmt::Expr { value, never: true } => {
                let code = self.expr(value);
                quote! { #code; }
            }
            Stmt::Return { value, .. } => {
                let code = self.expr(value);
                quote! { return Ok(#code); }
            }
            Stmt::Expr { value, .. } => {
                let code = self.expr(value);
                quote! { let _ = #code; }
            }
            Stmt::Let(slot, value) => {
                let id = self.slot(*slot);
                let code = self.expr(value);
                quote! { let #id = #code; }
            }
            Stmt::If(cond, then, other) => {
                let cond = self.expr(cond);
                let then = self.block(then);
                if other.is_empty() {
                    quote! { if #l::truth(&#cond) { #then } }
                } else {
                    let other = self.block(other);
                    quote! { if #l::truth(&#cond) { #then } else { #other } }
                }
            }
        }
    }

    fn lowered(&self) -> TokenStream {
        let rt = self.rt;
        quote! { #rt::lowered }
    }

    fn expr(&self, e: &Expr) -> TokenStream {
        let l = self.lowered();
        let one = |x: &Expr| self.expr(x);
        match e {
            Expr::None => quote! { #l::Val::None },
            Expr::Bool(b) => quote! { #l::Val::Bool(#b) },
            Expr::Int(n) => quote! { #l::Val::Int(#n) },
            Expr::Float(f) => {
                let bits = f.to_bits();
                quote! { #l::Val::Float(f64::from_bits(#bits)) }
            }
            Expr::Str(s) => quote! { #l::text(#s) },
            Expr::Local(slot) => {
                let id = self.slot(*slot);
                quote! { #id.clone() }
            }
            Expr::Parent => quote! { #l::node(__parent) },
            Expr::Root => quote! { #l::node(__root) },
            Expr::Field(m, key) => {
                let m = one(m);
                quote! { #l::field(&#m, #key) }
            }
            Expr::Not(x) => {
                let x = one(x);
                quote! { #l::Val::Bool(!#l::truth(&#x)) }
            }
            Expr::Neg(x) => {
                let x = one(x);
                quote! { #l::neg(#x)? }
            }
            Expr::If(parts) => {
                let [c, a, b] = parts.as_ref().each_ref().map(one);
                quote! { if #l::truth(&#c) { #a } else { #b } }
            }
            Expr::And(pair) => {
                let [x, y] = pair.as_ref().each_ref().map(one);
                quote! { { let __x = #x; if #l::truth(&__x) { #y } else { __x } } }
            }
            Expr::Or(pair) => {
                let [x, y] = pair.as_ref().each_ref().map(one);
                quote! { { let __x = #x; if #l::truth(&__x) { __x } else { #y } } }
            }
            Expr::Binary(op, pair) => {
                let [x, y] = pair.as_ref().each_ref().map(one);
                let value = match op {
                    Op::Eq => quote! { #l::Val::Bool(#l::eq(&__x, &__y)) },
                    Op::Ne => quote! { #l::Val::Bool(#l::ne(&__x, &__y)) },
                    Op::Lt => quote! { #l::Val::Bool(#l::lt(&__x, &__y)) },
                    Op::Gt => quote! { #l::Val::Bool(#l::gt(&__x, &__y)) },
                    Op::Le => quote! { #l::Val::Bool(#l::le(&__x, &__y)) },
                    Op::Ge => quote! { #l::Val::Bool(#l::ge(&__x, &__y)) },
                    Op::In => quote! { #l::Val::Bool(#l::contains(&__y, &__x)) },
                    Op::NotIn => quote! { #l::Val::Bool(!#l::contains(&__y, &__x)) },
                    Op::Add => quote! { #l::add(__x, __y)? },
                    Op::Sub => quote! { #l::sub(__x, __y)? },
                };
                quote! { { let __x = #x; let __y = #y; #value } }
            }
            Expr::List(items) => {
                let items = items.iter().map(one);
                quote! { #l::Val::List(vec![#(#items),*]) }
            }
            Expr::Call(f, args) => {
                let name = name(self.program, *f);
                let binds = args.iter().enumerate().map(|(i, a)| {
                    let v = format_ident!("__a{}", i);
                    let c = one(a);
                    quote! { let #v = #c; }
                });
                let vars = (0..args.len()).map(|i| format_ident!("__a{}", i));
                let ctx = self
                    .program
                    .functions
                    .get(*f)
                    .is_some_and(|f| f.takes_ctx)
                    .then(|| quote! { , __parent, __root });
                quote! { { #(#binds)* #name(#(#vars),* #ctx)? } }
            }
            Expr::Len(x) => {
                let x = one(x);
                quote! { #l::len(&#x) }
            }
            Expr::ToStr(x) => {
                let x = one(x);
                quote! { #l::Val::Str(#l::to_str(&#x)) }
            }
            // A value (`Val`) to rustc that returns the error through `?`: a block ending in
            // `return` has no type of its own, so rustc could not infer one where the failure
            // is an argument (`str(assert.fail("x"))` did not compile: `&{ ...; return ... }`
            // taken as `&()`).
            Expr::Fail(x) => {
                let x = one(x);
                quote! { { let __m = #x; #l::Result::Err(#l::fail(&__m))? } }
            }
            Expr::AssertFail(x) => {
                let x = one(x);
                quote! { { let __m = #x; #l::Result::Err(#l::assert_fail(&__m))? } }
            }
            Expr::Method(m, this, args) => {
                let this = one(this);
                let arg = args.first().map(one);
                match (m, arg) {
                    (Method::Lower, _) => quote! { #l::lower(&#this) },
                    (Method::Upper, _) => quote! { #l::upper(&#this) },
                    (Method::Strip, _) => quote! { #l::strip(&#this) },
                    (Method::Split, None) => quote! { #l::split(&#this, None) },
                    (Method::Split, Some(a)) => {
                        quote! { { let __x = #this; let __y = #a; #l::split(&__x, Some(&__y)) } }
                    }
                    (Method::StartsWith | Method::EndsWith, a) => {
                        let f = if *m == Method::StartsWith {
                            quote! { startswith }
                        } else {
                            quote! { endswith }
                        };
                        let a = a.unwrap_or_else(|| quote! { #l::Val::None });
                        quote! { { let __x = #this; let __y = #a; #l::#f(&__x, &__y) } }
                    }
                }
            }
            Expr::Format(pieces, args) => {
                let pieces = pieces.iter().map(|p| match p {
                    Piece::Text(t) => quote! { #l::Piece::Text(#t) },
                    Piece::Arg(i) => quote! { #l::Piece::Arg(#i) },
                });
                let args = args.iter().map(one);
                // The arguments by value: `&[x.clone()]` would be clippy's
                // `cloned_ref_to_slice_refs` in a crate that expands `include_schema!`.
                quote! { #l::format(&[#(#pieces),*], [#(#args),*]) }
            }
        }
    }
}
