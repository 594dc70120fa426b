//! Type checks specialised for the schema: one function per map type, whose declared keys are
//! a `match` on the key's text and whose fields' checks are written out for their types.
//!
//! The generated functions report through the runtime's [`mismatch`] and [`undeclared`] and
//! follow [`check_into`]'s order (a map's undeclared keys, then its declared items in document
//! order), so their violations are the interpreter's, byte for byte. Maps with many fields
//! (where a `match` would scan) and maps with keys that are not strings use the runtime's
//! indexed check instead.
//!
//! [`mismatch`]: schemac_runtime::typecheck::mismatch
//! [`undeclared`]: schemac_runtime::typecheck::undeclared
//! [`check_into`]: schemac_runtime::typecheck::check_into

use std::collections::HashMap;

use proc_macro2::{Ident, TokenStream};
use quote::{format_ident, quote};
use schemac_runtime::schema::{Kind, Scalar, Type};

/// Above this many fields a map's keys are looked up through the runtime's index.
const MAX_MATCHED_FIELDS: usize = 48;

pub struct CheckGen<'a> {
    rt: &'a TokenStream,
    /// The function of each map type, by the type's address.
    fns: HashMap<*const Type, Ident>,
    pub items: Vec<TokenStream>,
}

impl<'a> CheckGen<'a> {
    pub fn new(rt: &'a TokenStream) -> Self {
        CheckGen { rt, fns: HashMap::new(), items: Vec::new() }
    }

    /// The checker of the root type: a function with the runtime's `TypeChecker` signature.
    pub fn root(&mut self, t: &Type) -> Ident {
        let rt = self.rt;
        let body = self.check(t, quote! { tree }, quote! { ty });
        let name = format_ident!("__schemac_check");
        self.items.push(quote! {
            /// The type check of the data values, specialised for the schema.
            #[allow(unused_variables)]
            pub fn #name(tree: &#rt::template::tree::Tree, ty: &#rt::schema::Type, out: &mut ::std::vec::Vec<#rt::typecheck::TypeViolation>) {
                #body
            }
        });
        name
    }

    /// Code that checks the tree `tree` against the type `t`, found at `ty` at run time.
    fn check(&mut self, t: &Type, tree: TokenStream, ty: TokenStream) -> TokenStream {
        let rt = self.rt;
        let null_ok = if t.nullable {
            quote! { #rt::template::tree::TreeValue::Scalar(#rt::value::Value::Null) => {} }
        } else {
            quote! {}
        };
        match &t.kind {
            Kind::Any => quote! {},
            Kind::Scalar(s) => {
                let s = match s {
                    Scalar::String => quote! { String },
                    Scalar::Int => quote! { Int },
                    Scalar::Float => quote! { Float },
                    Scalar::Bool => quote! { Bool },
                };
                quote! {
                    match &#tree.value {
                        #null_ok
                        #rt::template::tree::TreeValue::Scalar(v) if #rt::schema::Scalar::#s.accepts(v) => {}
                        _ => out.push(#rt::typecheck::mismatch(#tree, #ty)),
                    }
                }
            }
            Kind::Array(item) => {
                let each = self.check(item, quote! { item }, quote! { item_ty });
                let null_ok = if t.nullable {
                    quote! { (#rt::template::tree::TreeValue::Scalar(#rt::value::Value::Null), _) => {} }
                } else {
                    quote! {}
                };
                quote! {
                    match (&#tree.value, &#ty.kind) {
                        #null_ok
                        (#rt::template::tree::TreeValue::Array(items), #rt::schema::Kind::Array(item_ty)) => {
                            for item in items {
                                #each
                            }
                        }
                        _ => out.push(#rt::typecheck::mismatch(#tree, #ty)),
                    }
                }
            }
            Kind::Map(_) => {
                let f = self.map_fn(t);
                quote! { #f(#tree, #ty, out); }
            }
        }
    }

    /// The function that checks a map of type `t`.
    fn map_fn(&mut self, t: &Type) -> Ident {
        if let Some(f) = self.fns.get(&(t as *const Type)) {
            return f.clone();
        }
        let rt = self.rt;
        let name = format_ident!("__schemac_check_map_{}", self.fns.len());
        self.fns.insert(t as *const Type, name.clone());
        let Kind::Map(fields) = &t.kind else { unreachable!("map_fn is called for map types") };
        let keys: Option<Vec<&str>> = fields.iter().map(|f| f.key.as_str()).collect();
        let body = match keys {
            Some(keys) if fields.len() <= MAX_MATCHED_FIELDS => {
                let null_ok = if t.nullable {
                    quote! { if matches!(tree.value, #rt::template::tree::TreeValue::Scalar(#rt::value::Value::Null)) { return; } }
                } else {
                    quote! {}
                };
                let ids = keys.iter().enumerate().map(|(i, k)| quote! { #k => #i });
                let checks: Vec<TokenStream> = fields
                    .iter()
                    .enumerate()
                    .map(|(i, f)| {
                        let check = self.check(&f.ty, quote! { item }, quote! { field_ty });
                        match f.ty.kind {
                            Kind::Any => quote! { #i => {} },
                            _ => quote! { #i => { let field_ty = &fields[#i].ty; #check } },
                        }
                    })
                    .collect();
                quote! {
                    #null_ok
                    let (#rt::template::tree::TreeValue::Map(items), #rt::schema::Kind::Map(fields)) = (&tree.value, &ty.kind) else {
                        out.push(#rt::typecheck::mismatch(tree, ty));
                        return;
                    };
                    let ids: ::std::vec::Vec<usize> = items
                        .iter()
                        .map(|item| match item.key() {
                            Some(#rt::value::Value::Str(key)) => match key.as_str() {
                                #(#ids,)*
                                _ => usize::MAX,
                            },
                            _ => usize::MAX,
                        })
                        .collect();
                    for (item, id) in items.iter().zip(&ids) {
                        if *id == usize::MAX {
                            out.push(#rt::typecheck::undeclared(item, ty, fields));
                        }
                    }
                    for (item, id) in items.iter().zip(&ids) {
                        match *id {
                            #(#checks)*
                            _ => {}
                        }
                    }
                }
            }
            _ => quote! { #rt::typecheck::check_into(tree, ty, out); },
        };
        self.items.push(quote! {
            #[allow(unused_variables)]
            fn #name(tree: &#rt::template::tree::Tree, ty: &#rt::schema::Type, out: &mut ::std::vec::Vec<#rt::typecheck::TypeViolation>) {
                #body
            }
        });
        name
    }
}
