//! The schema IR (and other data values) as Rust expressions that rebuild them.

use proc_macro2::TokenStream;
use quote::quote;
use schemac_runtime::rules::RuleName;
use schemac_runtime::schema::{Check, FunctionRef, Validation};
use schemac_runtime::schema::{Doc, Kind, Scalar, Type};
use schemac_runtime::value::{Node, Pos, Value};

/// An `f64` expression: a literal, or `f64::NAN`/`f64::INFINITY`/`f64::NEG_INFINITY` (which
/// have none: `.nan`, `.inf`, `1e400` in a schema).
pub fn float(f: f64) -> TokenStream {
    if f.is_nan() {
        quote! { f64::NAN }
    } else if f.is_infinite() && f > 0.0 {
        quote! { f64::INFINITY }
    } else if f.is_infinite() {
        quote! { f64::NEG_INFINITY }
    } else {
        quote! { #f }
    }
}

/// `rt` is the path to the runtime crate (`::schemac_runtime`).
pub struct IrTokens<'a> {
    pub rt: &'a TokenStream,
    /// Functions generated for map types (one each keeps every function small).
    pub fns: std::cell::RefCell<Vec<TokenStream>>,
}

impl<'a> IrTokens<'a> {
    pub fn new(rt: &'a TokenStream) -> IrTokens<'a> {
        IrTokens {
            rt,
            fns: std::cell::RefCell::new(Vec::new()),
        }
    }
}

impl IrTokens<'_> {
    pub fn pos(&self, p: &Pos) -> TokenStream {
        let rt = self.rt;
        let file = p.file.as_str();
        let line = p.line;
        quote! { #rt::value::Pos::new(#file, #line) }
    }

    pub fn value(&self, v: &Value) -> TokenStream {
        let rt = self.rt;
        match v {
            Value::Null => quote! { #rt::value::Value::Null },
            Value::Bool(b) => quote! { #rt::value::Value::Bool(#b) },
            Value::Int(i) => quote! { #rt::value::Value::Int(#i) },
            Value::UInt(u) => quote! { #rt::value::Value::UInt(#u) },
            Value::Float(f) => {
                let f = float(*f);
                quote! { #rt::value::Value::Float(#f) }
            }
            Value::Str(s) => {
                let s = s.as_str();
                quote! { #rt::value::Value::Str(#s.into()) }
            }
            Value::Bytes(b) => {
                let b = proc_macro2::Literal::byte_string(b);
                quote! { #rt::value::Value::Bytes(::std::boxed::Box::from(&#b[..])) }
            }
            Value::Array(items) => {
                let items = items.iter().map(|n| self.node(n)).collect();
                let items = self.vec_expr(
                    quote! { #rt::value::ThinVec<#rt::value::Node> },
                    quote! { #rt::value::thin_vec! },
                    items,
                );
                quote! { #rt::value::Value::Array(#items) }
            }
            Value::Map(entries) => {
                let entries = entries
                    .iter()
                    .map(|e| {
                        let k = self.key(&e.key);
                        let v = self.node(&e.value);
                        quote! { #rt::value::MapEntry { key: #k, value: #v } }
                    })
                    .collect();
                let entries = self.vec_expr(
                    quote! { #rt::value::Entries },
                    quote! { #rt::value::entries! },
                    entries,
                );
                quote! { #rt::value::Value::Map(#entries) }
            }
        }
    }

    /// A map key: a string key held by a `static` of its own (made and cloned with no
    /// allocation: see `Key::from_static`), any other made at run time.
    fn key(&self, key: &Value) -> TokenStream {
        let rt = self.rt;
        match key {
            Value::Str(s) => {
                let s = s.as_str();
                quote! { {
                    static KEY: #rt::value::Value =
                        #rt::value::Value::Str(#rt::value::Str::const_new(#s));
                    #rt::value::Key::from_static(&KEY)
                } }
            }
            _ => {
                let key = self.value(key);
                quote! { #rt::value::Key::new(#key) }
            }
        }
    }

    /// A vector of type `vec` (a `Vec`, a `ThinVec` or `Entries`) holding `items`: made by its macro
    /// `mac` (`vec!`), or, past [`ITEMS_PER_FN`] items, filled by a function of its own for
    /// each chunk (rustc's optimiser takes time superlinear in a function's size: a 1,000-key
    /// map took a minute in one).
    fn vec_expr(&self, vec: TokenStream, mac: TokenStream, items: Vec<TokenStream>) -> TokenStream {
        let n = items.len();
        if n <= ITEMS_PER_FN {
            return quote! { #mac[#(#items),*] };
        }
        let mut fns = self.fns.borrow_mut();
        let calls: Vec<TokenStream> = items
            .chunks(ITEMS_PER_FN)
            .map(|chunk| {
                let name = quote::format_ident!("items_{}", fns.len());
                // One push an item: `extend([...])` built the chunk on the stack and copied
                // it (a 5,000-key schema: 4M more instructions at each start).
                fns.push(quote! {
                    #[inline(never)]
                    fn #name(items: &mut #vec) {
                        #(items.push(#chunk);)*
                    }
                });
                quote! { #name(&mut items); }
            })
            .collect();
        quote! { { let mut items = <#vec>::with_capacity(#n); #(#calls)* items } }
    }

    /// [`Self::value`] as one expression that holds the functions it needs (a block with
    /// them as items), for code outside the generated module's functions.
    pub fn value_with_fns(&self, v: &Value) -> TokenStream {
        let e = self.value(v);
        let fns = self.fns.take();
        match fns.is_empty() {
            true => e,
            false => quote! { { #(#fns)* #e } },
        }
    }

    pub fn node(&self, n: &Node) -> TokenStream {
        let rt = self.rt;
        let v = self.value(&n.value);
        let p = self.pos(&n.pos);
        quote! { #rt::value::Node::new(#v, #p) }
    }

    fn option_string(&self, s: &Option<String>) -> TokenStream {
        match s {
            Some(s) => quote! { Some(#s.to_string()) },
            None => quote! { None },
        }
    }

    fn doc(&self, d: &Doc) -> TokenStream {
        let rt = self.rt;
        let title = self.option_string(&d.title);
        let desc = self.option_string(&d.desc);
        let deprecated = self.option_string(&d.deprecated);
        let examples = d.examples.iter().map(|(desc, n)| {
            let n = self.node(n);
            quote! { (#desc.to_string(), #n) }
        });
        quote! { #rt::schema::Doc { title: #title, desc: #desc, examples: vec![#(#examples),*], deprecated: #deprecated } }
    }

    fn rule(&self, r: RuleName) -> TokenStream {
        let rt = self.rt;
        let name = r.as_str();
        quote! { #rt::rules::RuleName::parse(#name).expect("a rule name the runtime knows") }
    }

    fn function(&self, f: &FunctionRef) -> TokenStream {
        let rt = self.rt;
        let index = f.index;
        quote! { #rt::schema::FunctionRef { index: #index } }
    }

    /// A validation; its functions are [`FunctionRef`]s, resolved when the validator runs.
    fn validation(&self, v: &Validation) -> TokenStream {
        let rt = self.rt;
        let pos = self.pos(&v.pos);
        let custom = v.custom.iter().map(|c| {
            let desc = &c.description;
            let check = match &c.check {
                Check::Named(rule, arg) => {
                    let rule = self.rule(*rule);
                    let arg = self.value(arg);
                    quote! { #rt::schema::Check::Named(#rule, #arg) }
                }
                Check::Function(f) => {
                    let f = self.function(f);
                    quote! { #rt::schema::Check::Function(#f) }
                }
            };
            quote! { #rt::schema::CustomRule { description: #desc.to_string(), check: #check } }
        });
        let when = match &v.when {
            None => quote! { None },
            Some(f) => {
                let f = self.function(f);
                quote! { Some(#f) }
            }
        };
        let named = v.named.iter().map(|(r, a)| {
            let r = self.rule(*r);
            let a = self.value(a);
            quote! { (#r, #a) }
        });
        let shown_args = v.shown_args.iter().map(|(r, shown)| {
            let r = self.rule(*r);
            quote! { (#r, #shown) }
        });
        quote! {
            Some(#rt::__private::validation(#pos, vec![#(#custom),*], vec![#(#named),*], vec![#(#shown_args),*], #when))
        }
    }

    /// The whole type tree. A map type becomes a function of its own, and its default is
    /// assembled from its fields' defaults unless `@schema/default` gave another one.
    pub fn ty(&self, t: &Type) -> TokenStream {
        let rt = self.rt;
        if let Kind::Map(fields) = &t.kind {
            let field_tokens: Vec<TokenStream> = fields
                .iter()
                .map(|f| {
                    let key = self.key(&f.key);
                    let ty = self.ty(&f.ty);
                    quote! { #rt::schema::Field { key: #key, ty: #ty } }
                })
                .collect();
            let default = if composed_default(t) {
                quote! { None }
            } else {
                let d = self.node(&t.default);
                quote! { Some(#d) }
            };
            let pos = self.pos(&t.pos);
            let nullable = t.nullable;
            let doc = self.doc(&t.doc);
            let validation = match &t.validation {
                Some(v) => self.validation(v),
                None => quote! { None },
            };
            let fields = self.vec_expr(
                quote! { Vec<#rt::schema::Field> },
                quote! { vec! },
                field_tokens,
            );
            let mut fns = self.fns.borrow_mut();
            let name = quote::format_ident!("map_type_{}", fns.len());
            fns.push(quote! {
                fn #name() -> #rt::schema::Type {
                    #rt::__private::map_type(#fields, #pos, #nullable, #default, #doc, #validation)
                }
            });
            return quote! { #name() };
        }
        let kind = match &t.kind {
            Kind::Any => quote! { #rt::schema::Kind::Any },
            Kind::Scalar(s) => {
                let s = scalar_variant(*s);
                quote! { #rt::schema::Kind::Scalar(#rt::schema::Scalar::#s) }
            }
            Kind::Array(item) => {
                let item = self.ty(item);
                quote! { #rt::schema::Kind::Array(Box::new(#item)) }
            }
            Kind::Map(_) => unreachable!("map types are generated above"),
        };
        let pos = self.pos(&t.pos);
        let nullable = t.nullable;
        let default = self.node(&t.default);
        let doc = self.doc(&t.doc);
        let validation = match &t.validation {
            Some(v) => self.validation(v),
            None => quote! { None },
        };
        quote! {
            #rt::schema::Type { kind: #kind, pos: #pos, nullable: #nullable, default: #default, doc: #doc, validation: #validation }
        }
    }
}

/// The most items of a vector (a map type's fields, a value's items) built in one generated
/// function.
const ITEMS_PER_FN: usize = 64;

/// The name of a scalar type's variant (`String`, `Int`...).
pub fn scalar_variant(s: Scalar) -> TokenStream {
    match s {
        Scalar::String => quote! { String },
        Scalar::Int => quote! { Int },
        Scalar::Float => quote! { Float },
        Scalar::Bool => quote! { Bool },
    }
}

/// Whether the default of the map type `t` is assembled from its fields' defaults (no
/// `@schema/default` gave another one), and so is not written out of its own.
pub fn composed_default(t: &Type) -> bool {
    matches!(t.kind, Kind::Map(_))
        && if t.nullable {
            t.default.value.is_null()
        } else {
            t.default_is_fields_defaults()
        }
        && t.default.pos == t.pos
}

#[cfg(test)]
mod tests {
    use super::*;
    use schemac_runtime::value::{thin_vec, MapEntry};

    #[test]
    fn long_vectors_are_built_in_functions_of_a_bounded_size() {
        let rt = quote! { ::schemac_runtime };
        let ir = IrTokens::new(&rt);
        let node = |v| Node::new(v, Pos::new("s.yml", 1));
        let entries = (0..200)
            .map(|i| MapEntry {
                key: Value::Str(format!("k{i}").into()).into(),
                value: node(Value::Int(i)),
            })
            .collect();
        let short = ir.value(&Value::Array(thin_vec![node(Value::Null); 64]));
        assert!(ir.fns.borrow().is_empty(), "{short}");
        let long = ir.value_with_fns(&Value::Map(entries)).to_string();
        // 200 entries: four functions of at most 64, in the expression's block.
        assert_eq!(long.matches("fn items_").count(), 4, "{long}");
        assert!(ir.fns.borrow().is_empty());
        assert!(syn::parse_str::<syn::Expr>(&long).is_ok(), "{long}");
    }
}
