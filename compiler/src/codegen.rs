//! Rust code from the schema IR: the one producer of Rust for `schemac gen`, `schemac build`
//! and (later) `include_schema!`.
//!
//! The generated module holds typed structs for the data values (with the schema's defaults),
//! the schema IR as a Rust expression, the OpenAPI document, and the [`Validator`] that a
//! validator binary's `main` runs.
//!
//! [`Validator`]: schemac_runtime::validator::Validator

pub mod ir;
pub mod names;
pub mod types;

use proc_macro2::TokenStream;
use quote::quote;
use schemac_runtime::schema::{Kind, Type};

use ir::IrTokens;
use types::TypeGen;

/// What to generate, and how generated code names things.
#[derive(Clone, Debug)]
pub struct CodegenOptions {
    /// The path generated code uses for the runtime crate.
    pub runtime_path: String,
    /// The name of the root type.
    pub root_name: String,
    /// The validator's name (the binary's name).
    pub validator_name: String,
}

impl Default for CodegenOptions {
    fn default() -> Self {
        CodegenOptions {
            runtime_path: "::schemac_runtime".into(),
            root_name: "DataValues".into(),
            validator_name: "validator".into(),
        }
    }
}

/// A compiled schema: its IR, its sources, and its OpenAPI export.
pub struct Compiled {
    pub schema: Type,
    /// Every file read, in order (schemas and `.star` helpers), with its text.
    pub sources: Vec<(String, String)>,
}

/// Generates the module for `compiled`.
pub fn generate(compiled: &Compiled, opts: &CodegenOptions) -> TokenStream {
    let rt: TokenStream = opts.runtime_path.parse().unwrap_or_else(|_| quote! { ::schemac_runtime });
    let ir = IrTokens { rt: &rt };
    let starlark = ir::needs_starlark(&compiled.schema);
    let schema_expr = ir.ty(&compiled.schema, !starlark);
    let openapi = crate::export::openapi::to_openapi(&compiled.schema);
    let openapi_expr = ir.node(&openapi);

    let mut types = TypeGen::new(&rt);
    // A root that is not a plain map gets a type alias; its map struct (if any) another name.
    let plain_map = matches!(compiled.schema.kind, Kind::Map(_)) && !compiled.schema.nullable;
    let hint = if plain_map { opts.root_name.clone() } else { format!("{}Map", opts.root_name) };
    let root_ty = types.rust_type(&compiled.schema, &hint);
    let root = types::root_ident(&opts.root_name);
    let root_alias = match plain_map {
        true => quote! {},
        false => quote! {
            /// The data values.
            pub type #root = #root_ty;
        },
    };
    let items = types.into_items();

    let name = &opts.validator_name;
    let files: Vec<&str> = compiled.sources.iter().map(|(n, _)| n.as_str()).collect();
    let schema_files: Vec<&str> = files.iter().copied().filter(|n| !n.ends_with(".star")).collect();
    let pairs = compiled.sources.iter().map(|(n, t)| quote! { (#n, #t) });
    quote! {
        #(#items)*
        #root_alias

        /// The schema IR.
        pub fn schema() -> #rt::schema::Type {
            #schema_expr
        }

        /// The `--data-values-schema-inspect -o openapi-v3` document.
        pub fn openapi() -> #rt::value::Node {
            #openapi_expr
        }

        /// What a validator binary runs.
        pub static VALIDATOR: #rt::validator::Validator = #rt::validator::Validator {
            name: #name,
            schema_files: &[#(#schema_files),*],
            sources: &[#(#pairs),*],
            needs_starlark: #starlark,
            schema,
            openapi,
        };
    }
}

/// Whether the generated code needs the runtime's `starlark` feature.
pub fn needs_starlark(compiled: &Compiled) -> bool {
    ir::needs_starlark(&compiled.schema)
}

/// Formats generated tokens as a Rust file.
pub fn to_source(tokens: TokenStream, header: &str) -> Result<String, String> {
    let file: syn::File = syn::parse2(tokens).map_err(|e| format!("internal error: generated code does not parse: {e}"))?;
    Ok(format!("{header}{}", prettyplease::unparse(&file)))
}
