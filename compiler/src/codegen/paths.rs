//! Short paths in the generated internals module: every `RT::module::Item` (RT the runtime's
//! path) becomes `Item` with one `use RT::module::Item;` at the top of the module, or
//! `module::Item` with `use RT::module;` when the short name would be ambiguous (two modules
//! with an item of that name, a prelude name, a name the module defines). Only what the code
//! uses is imported, so the module compiles without `unused_imports`.

use std::collections::{BTreeMap, BTreeSet};

use proc_macro2::{Group, Ident, Span, TokenStream, TokenTree};
use quote::quote;

/// Names an item import must not take: the prelude's, and the internals module's own items.
const RESERVED: &[&str] = &[
    "Box",
    "Err",
    "None",
    "Ok",
    "Option",
    "Result",
    "Some",
    "String",
    "Vec",
    "Default",
    "schema",
    "translated",
    "openapi",
    "json_schema",
    "VALIDATOR",
];

/// A path segment: the ident after `::`.
fn is_path_sep(tokens: &[TokenTree], at: usize) -> bool {
    matches!((tokens.get(at), tokens.get(at + 1)),
        (Some(TokenTree::Punct(a)), Some(TokenTree::Punct(b))) if a.as_char() == ':' && b.as_char() == ':')
}

fn ident_at(tokens: &[TokenTree], at: usize) -> Option<&Ident> {
    match tokens.get(at) {
        Some(TokenTree::Ident(i)) => Some(i),
        _ => None,
    }
}

/// The tokens of `rt` as text, for matching.
fn texts(tokens: &[TokenTree]) -> Vec<String> {
    tokens.iter().map(|t| t.to_string()).collect()
}

/// Whether `tokens` are those whose texts are `texts` (a runtime path has no groups: a group
/// is never printed, which took time in the size of the group at each place a path was looked
/// for: 20,000 keys took 47 s to generate).
fn tokens_are(tokens: &[TokenTree], texts: &[String]) -> bool {
    tokens.len() == texts.len()
        && tokens.iter().zip(texts).all(|(t, text)| match t {
            TokenTree::Group(_) => false,
            TokenTree::Ident(i) => i == text,
            TokenTree::Punct(p) => text.len() == 1 && text.starts_with(p.as_char()),
            TokenTree::Literal(l) => l.to_string() == *text,
        })
}

/// Where `rt::module::Item` paths occur in `code`: the (module, item) pairs.
fn collect(code: &TokenStream, rt: &[String], out: &mut BTreeSet<(String, String)>) {
    let tokens: Vec<TokenTree> = code.clone().into_iter().collect();
    let mut i = 0;
    while i < tokens.len() {
        if let Some(len) = rt_path_at(&tokens, i, rt) {
            let (m, item) = (
                ident_at(&tokens, i + len - 4),
                ident_at(&tokens, i + len - 1),
            );
            out.insert((m.unwrap().to_string(), item.unwrap().to_string()));
            i += len;
            continue;
        }
        if let TokenTree::Group(g) = &tokens[i] {
            collect(&g.stream(), rt, out);
        }
        i += 1;
    }
}

/// The length of `rt :: module :: Item` at `at`, if one starts there (and `rt` does not follow
/// a `::`, which would make it the middle of another path).
fn rt_path_at(tokens: &[TokenTree], at: usize, rt: &[String]) -> Option<usize> {
    if at >= 2 && is_path_sep(tokens, at - 2) && !rt[0].starts_with(':') {
        return None;
    }
    let n = rt.len();
    if tokens.len() < at + n + 6 || !tokens_are(&tokens[at..at + n], rt) {
        return None;
    }
    let ok = is_path_sep(tokens, at + n)
        && ident_at(tokens, at + n + 2).is_some()
        && is_path_sep(tokens, at + n + 3)
        && ident_at(tokens, at + n + 5).is_some();
    ok.then_some(n + 6)
}

/// `code` with its runtime paths shortened as `short` says (item name → keep the module).
fn rewrite(
    code: TokenStream,
    rt: &[String],
    short: &BTreeMap<(String, String), bool>,
) -> TokenStream {
    let tokens: Vec<TokenTree> = code.into_iter().collect();
    let mut out: Vec<TokenTree> = Vec::with_capacity(tokens.len());
    let mut i = 0;
    while i < tokens.len() {
        if let Some(len) = rt_path_at(&tokens, i, rt) {
            let m = tokens[i + len - 4].clone();
            let item = tokens[i + len - 1].clone();
            let key = (m.to_string(), item.to_string());
            if short.get(&key) == Some(&true) {
                out.extend(tokens[i + len - 4..i + len].iter().cloned());
            } else {
                out.push(item);
            }
            i += len;
            continue;
        }
        match &tokens[i] {
            TokenTree::Group(g) => {
                let mut ng = Group::new(g.delimiter(), rewrite(g.stream(), rt, short));
                ng.set_span(g.span());
                out.push(TokenTree::Group(ng));
            }
            t => out.push(t.clone()),
        }
        i += 1;
    }
    out.into_iter().collect()
}

/// `code` (the internals module's items, whose paths start with `rt`) with short paths, and
/// the `use` items they need.
pub fn shorten(code: TokenStream, rt: &TokenStream) -> TokenStream {
    let nested_rt = nested(rt);
    let rt_tokens: Vec<TokenTree> = rt.clone().into_iter().collect();
    let rt_text = texts(&rt_tokens);
    let mut used = BTreeSet::new();
    collect(&code, &rt_text, &mut used);
    let mut modules_of: BTreeMap<&str, usize> = BTreeMap::new();
    for (_, item) in &used {
        *modules_of.entry(item).or_default() += 1;
    }
    // `true`: keep `module::Item` (the item's name alone would be ambiguous).
    let keep_module: BTreeMap<(String, String), bool> = used
        .iter()
        .map(|(m, item)| {
            let ambiguous = modules_of[item.as_str()] > 1
                || RESERVED.contains(&item.as_str())
                || used.iter().any(|(other, _)| other == item);
            ((m.clone(), item.clone()), ambiguous)
        })
        .collect();
    let body = rewrite(code, &rt_text, &keep_module);
    // One `use` of the runtime: per module, `self` when paths keep it, and the items.
    let mut per_module: BTreeMap<&str, Vec<TokenStream>> = BTreeMap::new();
    for ((m, item), keep) in &keep_module {
        let entry = per_module.entry(m).or_default();
        if *keep {
            if entry.first().is_none_or(|t| t.to_string() != "self") {
                entry.insert(0, quote! { self });
            }
        } else {
            let item = Ident::new(item, Span::call_site());
            entry.push(quote! { #item });
        }
    }
    let trees = per_module.iter().map(|(m, items)| {
        let m = Ident::new(m, Span::call_site());
        quote! { #m::{#(#items),*} }
    });
    let uses = match per_module.is_empty() {
        true => quote! {},
        false => quote! { use #nested_rt::{#(#trees),*}; },
    };
    quote! { #uses #body }
}

/// `rt` as seen from a module nested in the one it was written for.
fn nested(rt: &TokenStream) -> TokenStream {
    let first = rt.clone().into_iter().next();
    match first {
        Some(TokenTree::Ident(i)) if i == "self" || i == "super" => quote! { super::#rt },
        _ => rt.clone(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn short(code: TokenStream, rt: TokenStream) -> String {
        let file: syn::File = syn::parse2(shorten(code, &rt)).unwrap();
        prettyplease::unparse(&file)
    }

    #[test]
    fn imports_what_is_used_once_and_keeps_modules_where_names_clash() {
        let rt = quote! { ::schemac_runtime };
        let code = quote! {
            fn f(v: &#rt::value::Value) -> #rt::lowered::Result<'_> {
                #rt::lowered::field(&#rt::lowered::node(v), "a");
                #rt::__private::field(v, &#rt::value::Value::Null);
                todo!()
            }
        };
        let text = short(code, rt);
        // `field` is in two modules and `Result` is the prelude's: their modules stay.
        assert!(text.contains("use ::schemac_runtime::{\n    __private::{self},\n    lowered::{self, node},\n    value::Value,\n};"), "{text}");
        assert!(
            text.contains("fn f(v: &Value) -> lowered::Result<'_>"),
            "{text}"
        );
        assert!(text.contains("lowered::field(&node(v), \"a\");"), "{text}");
        assert!(
            text.contains("__private::field(v, &Value::Null);"),
            "{text}"
        );
    }

    #[test]
    fn a_relative_runtime_path_is_read_from_the_nested_module() {
        let rt = quote! { super::rt };
        let text = short(
            quote! { static V: #rt::value::Value = #rt::value::Value::Null; },
            rt,
        );
        assert!(
            text.contains("use super::super::rt::value::Value;"),
            "{text}"
        );
        assert!(text.contains("static V: Value = Value::Null;"), "{text}");
        // Nothing used, nothing imported.
        assert_eq!(
            short(quote! { fn g() {} }, quote! { ::schemac_runtime }),
            "fn g() {}\n"
        );
    }
}
