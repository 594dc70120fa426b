//! Typed structs for a schema: one struct per map type, fields typed by the schema (an enum
//! for a string limited by `one_of`), `Default` from the schema's defaults (a field's map type
//! from its own `Default`), and conversion from and to checked data values (in the internals
//! module).

use std::collections::{HashMap, HashSet};

use proc_macro2::{Ident, Span, TokenStream};
use quote::{format_ident, quote};
use schemac_runtime::rules::RuleName;
use schemac_runtime::schema::{Kind, Scalar, Type};
use schemac_runtime::value::{Node, Value};

use super::comment_text;
use super::ir::{float, IrTokens};
use super::names::{field_name, type_name, type_names, Scope};

pub struct TypeGen<'a> {
    pub rt: &'a TokenStream,
    serde: bool,
    /// The structs and their `Default` impls.
    pub public: Vec<TokenStream>,
    /// Their conversions, for the internals module.
    pub internal: Vec<TokenStream>,
    /// The struct generated for each map type (by address in the schema being generated).
    names: HashMap<*const Type, Ident>,
    /// The scalar types whose values are the runtime's `Value` (see
    /// [`schemac_runtime::typed::untyped`]).
    untyped: HashSet<*const Type>,
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
    let lines = lines.iter().map(|l| comment_text(&format!(" {l}")));
    quote! { #(#[doc = #lines])* }
}

/// Every map type under `t` with its path's name segments (see [`type_names`]).
fn map_paths(t: &Type, segments: Vec<String>, out: &mut Vec<(*const Type, Vec<String>)>) {
    match &t.kind {
        Kind::Map(fields) => {
            if !segments.is_empty() {
                out.push((t as *const Type, segments.clone()));
            }
            for f in fields {
                let mut s = segments.clone();
                s.push(type_name(&f.key.key_string()));
                map_paths(&f.ty, s, out);
            }
        }
        Kind::Array(item) => {
            let mut s = segments;
            let last = s.pop().unwrap_or_default();
            s.push(format!("{last}Item"));
            map_paths(item, s, out);
        }
        Kind::Scalar(_) if !segments.is_empty() && string_enum(t).is_some() => {
            out.push((t as *const Type, segments));
        }
        _ => {}
    }
}

/// The values and variant names of a string type whose values the schema limits to a list
/// (`one_of=[...]` of strings, without `when=`, the default among them or null), when each
/// value makes a distinct variant name; otherwise the field stays a `String`.
fn string_enum(t: &Type) -> Option<Vec<(String, Ident)>> {
    if !matches!(t.kind, Kind::Scalar(Scalar::String)) {
        return None;
    }
    let v = t.validation.as_ref().filter(|v| v.when.is_none())?;
    let (_, Value::Array(items)) = v.named.iter().find(|(r, _)| *r == RuleName::OneOf)? else {
        return None;
    };
    let values: Vec<String> = items
        .iter()
        .map(|n| n.value.as_str().map(str::to_string))
        .collect::<Option<_>>()?;
    let default_ok = match &t.default.value {
        Value::Str(d) => values.iter().any(|v| v == d),
        Value::Null => t.nullable,
        _ => false,
    };
    let mut seen = std::collections::HashSet::new();
    let variants: Vec<(String, Ident)> = values
        .into_iter()
        .filter(|value| seen.insert(value.clone()))
        .map(|value| {
            // A value without letters or digits (`""`, `-`) names nothing.
            let nameable = value.chars().any(|c| c.is_ascii_alphanumeric());
            let name = type_name(&value);
            let ident = syn::parse_str::<Ident>(&name).ok().filter(|_| nameable);
            ident.map(|i| (value, i))
        })
        .collect::<Option<_>>()?;
    let names: std::collections::HashSet<String> =
        variants.iter().map(|(_, i)| i.to_string()).collect();
    (default_ok && !variants.is_empty() && names.len() == variants.len()).then_some(variants)
}

/// Adds to `out` the string enums of `t` (see [`string_enum`]) that some default under `t`
/// gives a value outside the enum.
fn enum_defaults_outside(t: &Type, out: &mut std::collections::HashSet<*const Type>) {
    defaults_outside(t, &t.default, out);
    match &t.kind {
        Kind::Map(fields) => fields
            .iter()
            .for_each(|f| enum_defaults_outside(&f.ty, out)),
        Kind::Array(item) => enum_defaults_outside(item, out),
        _ => {}
    }
}

/// The entry of a map default that `is` picks: looked for first where the last one found
/// left off, as a map's default lists its fields in their order (a scan per field took time
/// quadratic in the fields: 20,000 keys), then among all; `next` moves past the one found.
fn entry_of<'e>(
    entries: &'e [schemac_runtime::value::MapEntry],
    next: &mut usize,
    is: impl Fn(&schemac_runtime::value::MapEntry) -> bool,
) -> Option<&'e schemac_runtime::value::MapEntry> {
    let at = match entries.get(*next) {
        Some(e) if is(e) => *next,
        _ => entries.iter().position(&is)?,
    };
    *next = at + 1;
    entries.get(at)
}

/// [`enum_defaults_outside`] for the value `node` of type `t`.
fn defaults_outside(t: &Type, node: &Node, out: &mut std::collections::HashSet<*const Type>) {
    match (&t.kind, &node.value) {
        (Kind::Scalar(Scalar::String), Value::Str(s))
            if string_enum(t).is_some_and(|v| !v.iter().any(|(value, _)| value == s)) =>
        {
            out.insert(t as *const Type);
        }
        (Kind::Map(fields), Value::Map(entries)) => {
            let mut next = 0;
            for f in fields {
                if let Some(e) = entry_of(entries, &mut next, |e| e.key == f.key) {
                    defaults_outside(&f.ty, &e.value, out);
                }
            }
        }
        (Kind::Array(item), Value::Array(items)) => {
            items.iter().for_each(|i| defaults_outside(item, i, out));
        }
        _ => {}
    }
}

impl<'a> TypeGen<'a> {
    /// Names the structs of `schema`: the root map `root` when `plain_map`, else `{root}Map`.
    pub fn new(
        rt: &'a TokenStream,
        serde: bool,
        schema: &Type,
        root: &str,
        plain_map: bool,
    ) -> TypeGen<'a> {
        let mut entries = Vec::new();
        let root_segments = if plain_map {
            vec![]
        } else {
            vec![format!("{root}Map")]
        };
        map_paths(schema, root_segments, &mut entries);
        let mut names: HashMap<*const Type, Ident> = type_names(&entries, &[root.to_string()])
            .into_iter()
            .map(|(t, n)| (t, ident(&n)))
            .collect();
        if plain_map {
            names.insert(schema as *const Type, ident(root));
        }
        // A string type whose default somewhere (an array's `@schema/default` item, say) is not
        // one of its `one_of` values stays a `String`.
        let mut off = std::collections::HashSet::new();
        enum_defaults_outside(schema, &mut off);
        names.retain(|t, _| !off.contains(t));
        TypeGen {
            rt,
            serde,
            public: Vec::new(),
            internal: Vec::new(),
            names,
            untyped: schemac_runtime::typed::untyped(schema),
        }
    }

    /// The Rust type of values of `t`, generating structs for its maps.
    pub fn rust_type(&mut self, t: &Type) -> TokenStream {
        let rt = self.rt;
        let inner = match &t.kind {
            _ if self.untyped.contains(&(t as *const Type)) => quote! { #rt::value::Value },
            Kind::Any => quote! { #rt::value::Value },
            Kind::Scalar(Scalar::String) => match string_enum(t) {
                Some(variants) if self.names.contains_key(&(t as *const Type)) => {
                    let name = self.enum_type(t, &variants);
                    quote! { #name }
                }
                _ => quote! { String },
            },
            Kind::Scalar(Scalar::Int) => quote! { i64 },
            Kind::Scalar(Scalar::Float) => quote! { f64 },
            Kind::Scalar(Scalar::Bool) => quote! { bool },
            Kind::Array(item) => {
                let item = self.rust_type(item);
                quote! { Vec<#item> }
            }
            Kind::Map(_) => {
                let name = self.map_struct(t);
                quote! { #name }
            }
        };
        if t.nullable {
            quote! { Option<#inner> }
        } else {
            inner
        }
    }

    fn map_struct(&mut self, t: &Type) -> Ident {
        let Kind::Map(fields) = &t.kind else {
            unreachable!("called for maps")
        };
        let name = self.names[&(t as *const Type)].clone();
        let rt = self.rt;
        let mut scope = Scope::default();
        let mut decls = Vec::new();
        let mut conversions = Vec::new();
        let mut entries = Vec::new();
        let mut defaults = Vec::new();
        let mut next_default = 0;
        for f in fields {
            let key = f.key.key_string();
            let fname = ident(&scope.claim(field_name(&key)));
            let fty = self.rust_type(&f.ty);
            let doc = doc_attr(&f.ty);
            let key_doc = comment_text(&format!(" YAML key: `{key}`."));
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
                #fname: #rt::__private::FromValue::from_value(fields.get(&#k))?
            });
            entries.push(quote! { #rt::__private::entry(#k, #rt::__private::ToValue::to_value(&self.#fname)) });
            // The map's own default (a `@schema/default` on it, or on the document) before
            // its field's.
            let d = match &t.default.value {
                Value::Map(entries) => {
                    entry_of(entries, &mut next_default, |e| e.key.key_eq(&f.key))
                }
                _ => None,
            };
            let d = self.default_expr(d.map_or(&f.ty.default, |e| &e.value), &f.ty);
            defaults.push(quote! { #fname: #d });
        }
        let doc = doc_attr(t);
        // The fields are looked up in the schema's order (see `__private::Fields`).
        let (value_param, fields_of) = if fields.is_empty() {
            (quote! { _value }, quote! {})
        } else {
            (
                quote! { value },
                quote! { let mut fields = #rt::__private::Fields::of(value); },
            )
        };
        let serde = self.serde_derives(quote! { , default });
        self.public.push(quote! {
            #doc
            #[derive(Debug, Clone, PartialEq)]
            #serde
            pub struct #name { #(#decls,)* }

            impl Default for #name {
                /// The schema's defaults.
                fn default() -> Self {
                    Self { #(#defaults,)* }
                }
            }
        });
        self.internal.push(quote! {
            impl #rt::__private::FromValue for super::#name {
                fn from_value(#value_param: &#rt::value::Value) -> Option<Self> {
                    #fields_of
                    Some(Self { #(#conversions,)* })
                }
            }

            impl #rt::__private::ToValue for super::#name {
                fn to_value(&self) -> #rt::value::Value {
                    #rt::value::Value::Map(#rt::value::entries![#(#entries),*])
                }
            }
        });
        name
    }

    /// serde's derives (through the runtime's re-export) when asked for, with `options` added
    /// to the `#[serde(...)]` attribute.
    fn serde_derives(&self, options: TokenStream) -> TokenStream {
        if !self.serde {
            return quote! {};
        }
        let rt = self.rt;
        let krate = format!("{rt}::__private::serde").replace(' ', "");
        quote! {
            #[derive(#rt::__private::serde::Serialize, #rt::__private::serde::Deserialize)]
            #[serde(crate = #krate #options)]
        }
    }

    /// The enum of a string type limited to `variants` (see [`string_enum`]).
    fn enum_type(&mut self, t: &Type, variants: &[(String, Ident)]) -> Ident {
        let name = self.names[&(t as *const Type)].clone();
        let rt = self.rt;
        let decls = variants.iter().map(|(value, v)| {
            let doc = comment_text(&format!(" YAML value: `{value}`."));
            let rename = match self.serde {
                true => quote! { #[serde(rename = #value)] },
                false => quote! {},
            };
            quote! { #[doc = #doc] #rename #v }
        });
        let to_str = variants
            .iter()
            .map(|(value, v)| quote! { Self::#v => #value });
        let from_str = variants
            .iter()
            .map(|(value, v)| quote! { #value => Some(Self::#v) });
        let serde = self.serde_derives(quote! {});
        self.public.push(quote! {
            /// The values the schema allows (`one_of`).
            #[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
            #serde
            pub enum #name { #(#decls,)* }

            impl #name {
                /// The value as written in YAML.
                pub fn as_str(&self) -> &'static str {
                    match self { #(#to_str,)* }
                }
            }

            impl ::core::fmt::Display for #name {
                fn fmt(&self, f: &mut ::core::fmt::Formatter<'_>) -> ::core::fmt::Result {
                    f.write_str(self.as_str())
                }
            }
        });
        self.internal.push(quote! {
            impl #rt::__private::FromValue for super::#name {
                fn from_value(value: &#rt::value::Value) -> Option<Self> {
                    match value.as_str()? {
                        #(#from_str,)*
                        _ => None,
                    }
                }
            }

            impl #rt::__private::ToValue for super::#name {
                fn to_value(&self) -> #rt::value::Value {
                    #rt::value::Value::Str(self.as_str().into())
                }
            }
        });
        name
    }

    /// A Rust expression for the default value `node` of type `t`.
    fn default_expr(&self, node: &Node, t: &Type) -> TokenStream {
        if t.nullable {
            if node.value.is_null() {
                return quote! { None };
            }
            let e = self.present_default(node, t);
            return quote! { Some(#e) };
        }
        self.present_default(node, t)
    }

    /// [`Self::default_expr`] for a value that is there (nullability aside). A map's value is
    /// its struct's `Default`, with the fields whose value is not their default set.
    fn present_default(&self, node: &Node, t: &Type) -> TokenStream {
        let rt = self.rt;
        match (&t.kind, &node.value) {
            (_, v) if self.untyped.contains(&(t as *const Type)) => {
                IrTokens::new(rt).value_with_fns(v)
            }
            (Kind::Any, v) => IrTokens::new(rt).value_with_fns(v),
            (Kind::Scalar(Scalar::String), Value::Str(s))
                if self.names.contains_key(&(t as *const Type)) =>
            {
                let name = &self.names[&(t as *const Type)];
                let variants = string_enum(t).unwrap_or_default();
                let (_, v) = variants
                    .iter()
                    .find(|(value, _)| value == s)
                    .expect("an enum's default is one of its values (see string_enum)");
                quote! { #name::#v }
            }
            (Kind::Scalar(Scalar::String), Value::Str(s)) if s.is_empty() => {
                quote! { String::new() }
            }
            (Kind::Scalar(Scalar::String), Value::Str(s)) => {
                let s = s.as_str();
                quote! { #s.into() }
            }
            (Kind::Scalar(Scalar::Int), Value::Int(i)) => quote! { #i },
            (Kind::Scalar(Scalar::Float), Value::Float(f)) => float(*f),
            // (an integer an `f64` holds exactly: the others make the type untyped)
            (Kind::Scalar(Scalar::Float), Value::Int(i)) => float(*i as f64),
            (Kind::Scalar(Scalar::Float), Value::UInt(u)) => float(*u as f64),
            (Kind::Scalar(Scalar::Bool), Value::Bool(b)) => quote! { #b },
            (Kind::Array(_), Value::Array(items)) if items.is_empty() => quote! { Vec::new() },
            (Kind::Array(item), Value::Array(items)) => {
                let items = items.iter().map(|i| self.default_expr(i, item));
                quote! { vec![#(#items),*] }
            }
            (Kind::Map(fields), Value::Map(entries)) => {
                let mut scope = Scope::default();
                let mut next = 0;
                let set: Vec<TokenStream> = fields
                    .iter()
                    .filter_map(|f| {
                        let fname = ident(&scope.claim(field_name(&f.key.key_string())));
                        let v = entry_of(entries, &mut next, |e| e.key.key_eq(&f.key))
                            .map_or(&f.ty.default, |e| &e.value);
                        (v.value != f.ty.default.value).then(|| {
                            let d = self.default_expr(v, &f.ty);
                            quote! { #fname: #d }
                        })
                    })
                    .collect();
                match self.names.get(&(t as *const Type)) {
                    Some(name) if !set.is_empty() => {
                        quote! { #name { #(#set,)* ..Default::default() } }
                    }
                    _ => quote! { Default::default() },
                }
            }
            // Defaults conform to their types (the schema was checked); keep the code total.
            _ => quote! { Default::default() },
        }
    }
}

/// The Rust type of the root document.
pub fn root_ident(name: &str) -> Ident {
    format_ident!("{}", name)
}
