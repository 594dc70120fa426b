//! Typed structs for a schema: one struct per map type, fields typed by the schema, `Default`
//! from the schema's defaults, and conversion from checked data values.

use std::collections::HashMap;

use proc_macro2::{Ident, Span, TokenStream};
use quote::{format_ident, quote};
use schemac_runtime::schema::{Kind, Scalar, Type};
use schemac_runtime::value::{Node, Value};

use super::ir::IrTokens;
use super::names::{field_name, type_name, Scope};

pub struct TypeGen<'a> {
    pub rt: &'a TokenStream,
    serde: bool,
    items: Vec<TokenStream>,
    types: Scope,
    /// The struct generated for each map type (by address in the schema being generated).
    names: HashMap<*const Type, Ident>,
}

fn ident(name: &str) -> Ident {
    match name.strip_prefix("r#") {
        Some(raw) => Ident::new_raw(raw, Span::call_site()),
        None => Ident::new(name, Span::call_site()),
    }
}

fn doc_attr(t: &Type) -> TokenStream {
    let mut lines = Vec::new();
    if let Some(title) = &t.doc.title {
        lines.push(title.clone());
    }
    if let Some(desc) = &t.doc.desc {
        lines.extend(desc.lines().map(str::to_string));
    }
    if let Some(dep) = &t.doc.deprecated {
        lines.push(format!("Deprecated: {dep}"));
    }
    let lines = lines.iter().map(|l| format!(" {l}"));
    quote! { #(#[doc = #lines])* }
}

impl<'a> TypeGen<'a> {
    pub fn new(rt: &'a TokenStream, serde: bool) -> TypeGen<'a> {
        TypeGen {
            rt,
            serde,
            items: Vec::new(),
            types: Scope::default(),
            names: HashMap::new(),
        }
    }

    pub fn into_items(self) -> Vec<TokenStream> {
        self.items
    }

    /// The Rust type of values of `t`, generating structs for its maps (named after `hint`).
    pub fn rust_type(&mut self, t: &Type, hint: &str) -> TokenStream {
        let rt = self.rt;
        let inner = match &t.kind {
            Kind::Any => quote! { #rt::value::Value },
            Kind::Scalar(Scalar::String) => quote! { ::std::string::String },
            Kind::Scalar(Scalar::Int) => quote! { i64 },
            Kind::Scalar(Scalar::Float) => quote! { f64 },
            Kind::Scalar(Scalar::Bool) => quote! { bool },
            Kind::Array(item) => {
                let item = self.rust_type(item, &format!("{hint}Item"));
                quote! { ::std::vec::Vec<#item> }
            }
            Kind::Map(_) => {
                let name = self.map_struct(t, hint);
                quote! { #name }
            }
        };
        if t.nullable {
            quote! { ::core::option::Option<#inner> }
        } else {
            inner
        }
    }

    fn map_struct(&mut self, t: &Type, hint: &str) -> Ident {
        let Kind::Map(fields) = &t.kind else {
            unreachable!("called for maps")
        };
        let name = ident(&self.types.claim_type(hint.to_string()));
        self.names.insert(t as *const Type, name.clone());
        let rt = self.rt;
        let mut scope = Scope::default();
        let mut decls = Vec::new();
        let mut conversions = Vec::new();
        let mut entries = Vec::new();
        for f in fields {
            let key = f.key.key_string();
            let fname = ident(&scope.claim(field_name(&key)));
            let fty = self.rust_type(&f.ty, &type_name(&key));
            let doc = doc_attr(&f.ty);
            let key_doc = format!(" YAML key: `{key}`.");
            let sep = if f.ty.doc.desc.is_some() || f.ty.doc.title.is_some() {
                quote! { #[doc = ""] }
            } else {
                quote! {}
            };
            let rename = if self.serde {
                quote! { #[serde(rename = #key)] }
            } else {
                quote! {}
            };
            decls.push(quote! { #doc #sep #[doc = #key_doc] #rename pub #fname: #fty });
            let k = IrTokens::new(rt).value(&f.key);
            conversions.push(quote! {
                #fname: #rt::__private::FromValue::from_value(#rt::__private::field(value, &#k))?
            });
            entries.push(quote! { #rt::__private::entry(#k, #rt::__private::ToValue::to_value(&self.#fname)) });
        }
        let doc = doc_attr(t);
        let value_param = if fields.is_empty() {
            quote! { _value }
        } else {
            quote! { value }
        };
        let defaults: Vec<TokenStream> = fields
            .iter()
            .zip(Scope::default().names_for(fields.iter().map(|f| field_name(&f.key.key_string()))))
            .map(|(f, fname)| {
                let fname = ident(&fname);
                let d = self.default_expr(&f.ty.default, &f.ty);
                quote! { #fname: #d }
            })
            .collect();
        let serde = if self.serde {
            let krate = format!("{rt}::__private::serde").replace(' ', "");
            quote! {
                #[derive(#rt::__private::serde::Serialize, #rt::__private::serde::Deserialize)]
                #[serde(crate = #krate, default)]
            }
        } else {
            quote! {}
        };
        self.items.push(quote! {
            #doc
            #[derive(Debug, Clone, PartialEq)]
            #serde
            pub struct #name { #(#decls,)* }

            impl ::core::default::Default for #name {
                /// The schema's defaults.
                fn default() -> Self {
                    #name { #(#defaults,)* }
                }
            }

            impl #rt::__private::FromValue for #name {
                fn from_value(#value_param: &#rt::value::Value) -> ::core::option::Option<Self> {
                    ::core::option::Option::Some(#name { #(#conversions,)* })
                }
            }

            impl #rt::__private::ToValue for #name {
                fn to_value(&self) -> #rt::value::Value {
                    #rt::value::Value::Map(::std::vec![#(#entries),*])
                }
            }
        });
        name
    }

    /// A Rust expression for the default value `node` of type `t`.
    fn default_expr(&self, node: &Node, t: &Type) -> TokenStream {
        if t.nullable {
            if node.value.is_null() {
                return quote! { ::core::option::Option::None };
            }
            let e = self.present_default(node, t);
            return quote! { ::core::option::Option::Some(#e) };
        }
        self.present_default(node, t)
    }

    /// [`Self::default_expr`] for a value that is there (nullability aside).
    fn present_default(&self, node: &Node, t: &Type) -> TokenStream {
        let rt = self.rt;
        match (&t.kind, &node.value) {
            (Kind::Any, v) => IrTokens::new(rt).value(v),
            (Kind::Scalar(Scalar::String), Value::Str(s)) => {
                quote! { ::std::string::String::from(#s) }
            }
            (Kind::Scalar(Scalar::Int), Value::Int(i)) => quote! { #i },
            (Kind::Scalar(Scalar::Float), Value::Float(f)) => quote! { #f },
            (Kind::Scalar(Scalar::Float), Value::Int(i)) => {
                let f = *i as f64;
                quote! { #f }
            }
            (Kind::Scalar(Scalar::Float), Value::UInt(u)) => {
                let f = *u as f64;
                quote! { #f }
            }
            // A typed int is an `i64`: a default in [2^63, 2^64) has no value there.
            (Kind::Scalar(Scalar::Int), Value::UInt(u)) => {
                let message = format!(
                    "schemac: the default {u} (at {}) does not fit the typed field's i64",
                    node.pos
                );
                quote! { ::core::compile_error!(#message) }
            }
            (Kind::Scalar(Scalar::Bool), Value::Bool(b)) => quote! { #b },
            (Kind::Array(item), Value::Array(items)) => {
                let items = items.iter().map(|i| self.default_expr(i, item));
                quote! { ::std::vec![#(#items),*] }
            }
            (Kind::Map(fields), Value::Map(entries)) => {
                let Some(name) = self.names.get(&(t as *const Type)) else {
                    return quote! { ::core::default::Default::default() };
                };
                let mut scope = Scope::default();
                let inits = fields.iter().map(|f| {
                    let fname = ident(&scope.claim(field_name(&f.key.key_string())));
                    let v = entries
                        .iter()
                        .find(|e| e.key.key_eq(&f.key))
                        .map_or(&f.ty.default, |e| &e.value);
                    let d = self.default_expr(v, &f.ty);
                    quote! { #fname: #d }
                });
                quote! { #name { #(#inits,)* } }
            }
            // Defaults conform to their types (the schema was checked); keep the code total.
            _ => quote! { ::core::default::Default::default() },
        }
    }
}

impl Scope {
    /// The names `claim` would hand out for `wanted`, in order.
    pub fn names_for(mut self, wanted: impl Iterator<Item = String>) -> Vec<String> {
        wanted.map(|w| self.claim(w)).collect()
    }
}

/// The Rust type of the root document.
pub fn root_ident(name: &str) -> Ident {
    format_ident!("{}", name)
}
