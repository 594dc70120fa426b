//! `include_schema!`: argument parsing, path resolution and error reporting, testable here
//! (the proc-macro crate only forwards to [`include_schema`]).
//!
//! Paths are resolved against `CARGO_MANIFEST_DIR` (the crate's root), not against the file
//! that calls the macro, as `include_str!` would. Every file read is included with
//! `include_bytes!`, so cargo rebuilds the crate when a schema or helper changes. Schema errors
//! become `compile_error!`s that end with `--> schema.yml:LINE`, because rustc cannot point
//! into YAML.

use std::path::PathBuf;

use proc_macro2::{Span, TokenStream};
use quote::quote;
use syn::parse::{Parse, ParseStream};
use syn::punctuated::Punctuated;
use syn::{LitStr, Token};

use crate::check::INTERPRETER;
use crate::codegen::{generate, CodegenOptions, Compiled};

/// One argument: a file (`"schema.yml"`) or an option (`root = "Config"`).
enum MacroArg {
    File(LitStr),
    Option(syn::Ident, LitStr),
}

impl Parse for MacroArg {
    fn parse(input: ParseStream) -> syn::Result<Self> {
        if input.peek(LitStr) {
            return Ok(MacroArg::File(input.parse()?));
        }
        let key: syn::Ident = input.parse()?;
        input.parse::<Token![=]>()?;
        Ok(MacroArg::Option(key, input.parse()?))
    }
}

struct MacroArgs(Punctuated<MacroArg, Token![,]>);

impl Parse for MacroArgs {
    fn parse(input: ParseStream) -> syn::Result<Self> {
        Ok(MacroArgs(Punctuated::parse_terminated(input)?))
    }
}

/// Expands `include_schema!(...)`; errors become `compile_error!`.
pub fn include_schema(input: TokenStream) -> TokenStream {
    expand(input).unwrap_or_else(|e| e.to_compile_error())
}

fn expand(input: TokenStream) -> syn::Result<TokenStream> {
    let args: MacroArgs = syn::parse2(input)?;
    let mut opts = CodegenOptions {
        validator_name: "include_schema".into(),
        ..CodegenOptions::default()
    };
    let mut files: Vec<(String, PathBuf)> = Vec::new();
    let mut first: Option<LitStr> = None;
    let root = std::env::var_os("CARGO_MANIFEST_DIR")
        .map(PathBuf::from)
        .unwrap_or_default();
    for arg in args.0 {
        match arg {
            MacroArg::File(lit) => {
                let path = root.join(lit.value());
                if path.is_dir() {
                    // A folder's files, named and ordered as `-f config/` reads them.
                    let symlinks = schemac_runtime::inputs::Symlinks::default();
                    let found = schemac_runtime::inputs::dir_files(&path, &symlinks)
                        .map_err(|e| syn::Error::new(lit.span(), format!("schemac: {e}")))?;
                    files.extend(found.into_iter().map(|(path, name)| (name, path)));
                } else {
                    // Named by its base name, as `schemac check -f PATH` (and ytt) name it.
                    let name = path
                        .file_name()
                        .map_or_else(|| lit.value(), |n| n.to_string_lossy().to_string());
                    files.push((name, path));
                }
                first.get_or_insert(lit);
            }
            MacroArg::Option(key, value) => match key.to_string().as_str() {
                "root" => opts.root_name = value.value(),
                "runtime" => opts.runtime_path = value.value(),
                "serde" => {
                    opts.serde = match value.value().as_str() {
                        "true" => true,
                        "false" => false,
                        _ => {
                            return Err(syn::Error::new(
                                value.span(),
                                "`serde` takes \"true\" or \"false\"",
                            ))
                        }
                    }
                }
                other => {
                    return Err(syn::Error::new(
                        key.span(),
                        format!("unknown option `{other}` (known: root, runtime, serde)"),
                    ))
                }
            },
        }
    }
    let Some(first) = first else {
        return Err(syn::Error::new(
            Span::call_site(),
            "include_schema! needs a schema file: include_schema!(\"schema.yml\")",
        ));
    };
    if syn::parse_str::<syn::Ident>(&opts.root_name).is_err() {
        return Err(syn::Error::new(
            first.span(),
            format!("`root = \"{}\"` is not a Rust type name", opts.root_name),
        ));
    }
    if syn::parse_str::<syn::Path>(&opts.runtime_path).is_err() {
        return Err(syn::Error::new(
            first.span(),
            format!("`runtime = \"{}\"` is not a Rust path", opts.runtime_path),
        ));
    }
    // The budget variables of the compiling process (read while the schema is loaded and
    // its code generated): a bad value is the macro's error (see `budget_vars`).
    if let Err(e) = schemac_runtime::budget_vars::check_env() {
        return Err(syn::Error::new(first.span(), format!("schemac: {e}")));
    }
    let compiled = schemac_runtime::engine::load_schema_named(&files, &INTERPRETER)
        .and_then(|loaded| match &loaded.schema {
            Some(schema) => crate::codegen::budget::check(schema)
                .and_then(|()| match opts.serde {
                    true => crate::codegen::names::check_serde_names(schema),
                    false => Ok(()),
                })
                .map(|()| loaded),
            None => Ok(loaded),
        })
        .and_then(Compiled::try_from)
        .map_err(|e| {
            let names: Vec<String> = files.iter().map(|(n, _)| n.clone()).collect();
            let message = schemac_runtime::report::multi_line(e.message());
            let at = match &e.pos {
                Some(pos) => format!("--> {}:{}", pos.file, pos.line),
                None => format!("--> {}", names.first().unwrap_or(&first.value())),
            };
            syn::Error::new(
                first.span(),
                format!("schemac: {}\n{at}", message.trim_end()),
            )
        })?;
    let code = generate(&compiled, &opts);
    let mut paths: Vec<String> = files
        .iter()
        .map(|(_, p)| p.to_string_lossy().to_string())
        .collect();
    paths.sort();
    Ok(quote! {
        #(const _: &[u8] = include_bytes!(#paths);)*
        #code
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bad_arguments_are_compile_errors() {
        let e = include_schema(quote! { root = "Config" }).to_string();
        assert!(e.contains("needs a schema file"), "{e}");
        let e = include_schema(quote! { "x.yml", colour = "red" }).to_string();
        assert!(e.contains("unknown option `colour`"), "{e}");
        let e = include_schema(quote! { 42 }).to_string();
        assert!(e.contains("compile_error"), "{e}");
        let e = include_schema(quote! { "definitely-missing.yml" }).to_string();
        assert!(e.contains("definitely-missing.yml"), "{e}");
    }
}
