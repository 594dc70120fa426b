//! Type checks and defaulting specialised for the schema: functions per map type, whose
//! declared keys are a `match` on the key's text and whose fields' checks and defaults are
//! written out for their types.
//!
//! The generated checks report through the runtime's [`mismatch`] and [`undeclared`] and
//! follow [`check_into`]'s order (a map's undeclared keys, then its declared items in document
//! order), so their violations are the interpreter's, byte for byte. Maps with many fields
//! (where a `match` would scan) and maps with keys that are not strings use the runtime's
//! indexed check instead. Defaulting follows [`fill_defaults`]: fields in schema order, the
//! first item with a field's key filled in further, a missing one added as [`default_item`].
//!
//! [`fill_defaults`]: schemac_runtime::typecheck::fill_defaults
//! [`default_item`]: schemac_runtime::typecheck::default_item
//! [`mismatch`]: schemac_runtime::typecheck::mismatch
//! [`undeclared`]: schemac_runtime::typecheck::undeclared
//! [`check_into`]: schemac_runtime::typecheck::check_into

use std::collections::HashMap;

use proc_macro2::{Ident, TokenStream};
use quote::{format_ident, quote};
use schemac_runtime::schema::{Kind, Type};

/// Above this many fields a map's keys are looked up through the runtime's index.
const MAX_MATCHED_FIELDS: usize = 48;

pub struct CheckGen<'a> {
    rt: &'a TokenStream,
    /// The check function of each map type, by the type's address.
    fns: HashMap<*const Type, Ident>,
    /// The defaulting function of each map type, by the type's address.
    default_fns: HashMap<*const Type, Ident>,
    pub items: Vec<TokenStream>,
}

/// The fields' keys as text, if every key is a string and there are few enough to match.
fn matched_keys(fields: &[schemac_runtime::schema::Field]) -> Option<Vec<&str>> {
    let keys: Option<Vec<&str>> = fields.iter().map(|f| f.key.as_str()).collect();
    keys.filter(|k| k.len() <= MAX_MATCHED_FIELDS)
}

impl<'a> CheckGen<'a> {
    pub fn new(rt: &'a TokenStream) -> Self {
        CheckGen {
            rt,
            fns: HashMap::new(),
            default_fns: HashMap::new(),
            items: Vec::new(),
        }
    }

    /// An expression: the index of the field `item`'s key declares, or `usize::MAX`.
    fn field_of_item(&self, keys: &[&str]) -> TokenStream {
        let rt = self.rt;
        let arms = keys.iter().enumerate().map(|(i, k)| quote! { #k => #i });
        quote! {
            match item.key() {
                Some(#rt::value::Value::Str(key)) => match key.as_str() {
                    #(#arms,)*
                    _ => usize::MAX,
                },
                _ => usize::MAX,
            }
        }
    }

    /// The defaulting of the root type: a function with the runtime's `DefaultsFiller` signature.
    pub fn defaults_root(&mut self, t: &Type) -> Ident {
        let rt = self.rt;
        let body = self.defaults(t, quote! { tree }, quote! { ty });
        let name = format_ident!("__schemac_fill_defaults");
        self.items.push(quote! {
            /// Fills the schema's defaults into data values, specialised for the schema.
            #[allow(unused_variables)]
            pub fn #name(tree: &mut #rt::template::tree::Tree, ty: &#rt::schema::Type) {
                #body
            }
        });
        name
    }

    /// Code that fills defaults into the tree `tree` (a `&mut`) of type `t`, found at `ty`.
    fn defaults(&mut self, t: &Type, tree: TokenStream, ty: TokenStream) -> TokenStream {
        let rt = self.rt;
        match &t.kind {
            Kind::Map(_) => {
                let f = self.defaults_fn(t);
                quote! { #f(#tree, #ty); }
            }
            Kind::Array(item) if has_maps(item) => {
                let each = self.defaults(item, quote! { item }, quote! { item_ty });
                quote! {
                    if let (#rt::template::tree::TreeValue::Array(items), #rt::schema::Kind::Array(item_ty)) = (&mut #tree.value, &#ty.kind) {
                        for item in items {
                            #each
                        }
                    }
                }
            }
            _ => quote! {},
        }
    }

    /// The function that fills defaults into a map of type `t`.
    fn defaults_fn(&mut self, t: &Type) -> Ident {
        if let Some(f) = self.default_fns.get(&(t as *const Type)) {
            return f.clone();
        }
        let rt = self.rt;
        let name = format_ident!("__schemac_defaults_map_{}", self.default_fns.len());
        self.default_fns.insert(t as *const Type, name.clone());
        let Kind::Map(fields) = &t.kind else {
            unreachable!("defaults_fn is called for map types")
        };
        let body = match matched_keys(fields) {
            // A map without fields has no defaults.
            Some(keys) if keys.is_empty() => quote! {},
            Some(keys) => {
                let n = keys.len();
                let field_of_item = self.field_of_item(&keys);
                let per_field: Vec<TokenStream> = fields
                    .iter()
                    .enumerate()
                    .map(|(i, f)| {
                        let fill = self.defaults(
                            &f.ty,
                            quote! { (&mut items[at]) },
                            quote! { (&fields[#i].ty) },
                        );
                        let add = quote! { items.push(#rt::typecheck::default_item(&fields[#i])) };
                        if fill.is_empty() {
                            quote! { if found[#i] == usize::MAX { #add; } }
                        } else {
                            quote! {
                                match found[#i] {
                                    usize::MAX => #add,
                                    at => { #fill }
                                }
                            }
                        }
                    })
                    .collect();
                quote! {
                    let (#rt::template::tree::TreeValue::Map(items), #rt::schema::Kind::Map(fields)) = (&mut tree.value, &ty.kind) else {
                        return;
                    };
                    // The first item of each declared key.
                    let mut found = [usize::MAX; #n];
                    for (i, item) in items.iter().enumerate() {
                        let id = #field_of_item;
                        if id != usize::MAX && found[id] == usize::MAX {
                            found[id] = i;
                        }
                    }
                    items.reserve(#n);
                    #(#per_field)*
                }
            }
            None => quote! { #rt::typecheck::fill_defaults(tree, ty); },
        };
        self.items.push(quote! {
            #[allow(unused_variables, unused_mut, unused_parens, clippy::all)]
            fn #name(tree: &mut #rt::template::tree::Tree, ty: &#rt::schema::Type) {
                #body
            }
        });
        name
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
                let s = super::ir::scalar_variant(*s);
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
        let Kind::Map(fields) = &t.kind else {
            unreachable!("map_fn is called for map types")
        };
        let body = match matched_keys(fields) {
            Some(keys) => {
                let null_ok = if t.nullable {
                    quote! { if matches!(tree.value, #rt::template::tree::TreeValue::Scalar(#rt::value::Value::Null)) { return; } }
                } else {
                    quote! {}
                };
                let field_of_item = self.field_of_item(&keys);
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
                    let ids: ::std::vec::Vec<usize> = items.iter().map(|item| #field_of_item).collect();
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

/// Whether values of type `t` may hold maps (which get defaults).
fn has_maps(t: &Type) -> bool {
    match &t.kind {
        Kind::Map(_) => true,
        Kind::Array(item) => has_maps(item),
        _ => false,
    }
}
