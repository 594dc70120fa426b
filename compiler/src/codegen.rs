//! Rust code from the schema IR: the one producer of Rust for `schemac gen`, `schemac build`
//! and (later) `include_schema!`.
//!
//! The generated code holds, first, typed structs for the data values (with the schema's
//! defaults) and the root type's API, then one `#[doc(hidden)]` module, [`INTERNALS`], with
//! the structs' conversions, the schema IR as a Rust expression, the rule functions translated
//! to Rust, the exports, and the [`Validator`] that a validator binary's `main` runs
//! (re-exported beside the types). The internals use short paths (see [`paths`]).
//!
//! [`Validator`]: schemac_runtime::validator::Validator

pub mod budget;
pub mod ir;
pub mod names;
pub mod paths;
pub mod types;

use proc_macro2::TokenStream;
use quote::{format_ident, quote};
use schemac_runtime::schema::{Kind, Type};

use ir::IrTokens;
use types::TypeGen;

/// The name of the generated internals module.
pub const INTERNALS: &str = "__schemac_internals";

/// What to generate, and how generated code names things.
#[derive(Clone, Debug)]
pub struct CodegenOptions {
    /// The path generated code uses for the runtime crate.
    pub runtime_path: String,
    /// The name of the root type.
    pub root_name: String,
    /// The validator's name (the binary's name).
    pub validator_name: String,
    /// Derive serde's `Serialize`/`Deserialize` on generated types (through the runtime's
    /// re-export: the runtime's `serde` feature must be on).
    pub serde: bool,
    /// Generate the typed structs and the root type's API. A built validator runs only the
    /// [`Validator`]: without them it compiles less, and a schema whose defaults have no typed
    /// value (an `int` default in [2^63, 2^64), a compile error in the typed API) still builds.
    pub typed: bool,
}

impl Default for CodegenOptions {
    fn default() -> Self {
        CodegenOptions {
            runtime_path: "::schemac_runtime".into(),
            root_name: "DataValues".into(),
            validator_name: "validator".into(),
            serde: false,
            typed: true,
        }
    }
}

/// A compiled schema: its IR, its sources, and its OpenAPI export.
pub struct Compiled {
    pub schema: Type,
    /// Every file read, in order (schemas and `.star` helpers), with its text.
    pub sources: Vec<(String, String)>,
    /// How many values the schema's templates keep for annotations (the validator reserves
    /// their indices: see [`schemac_runtime::schema::FunctionRef`]).
    pub functions: usize,
    /// How many templates the schema's evaluation compiled (ytt numbers a run's templates
    /// after them: see `Backend::schema_templates`).
    pub templates: u32,
    /// Whether the schema's evaluation called a `@ytt:math` function (the validator warns as
    /// ytt does: see [`schemac_runtime::engine::LoadedSchema::calls_math`]).
    pub calls_math: bool,
    /// The places in [`Compiled::sources`] of the package's data values files, which the
    /// validator reads before each run's files (see
    /// [`schemac_runtime::engine::LoadedSchema::values_files`]).
    pub values_files: Vec<usize>,
    /// Whether some of them has template code (the validator links the interpreter).
    pub values_need_starlark: bool,
}

impl TryFrom<schemac_runtime::engine::LoadedSchema> for Compiled {
    type Error = schemac_runtime::engine::CheckError;

    /// The compiled schema, every file read (see [`LoadedSchema::sources`]).
    ///
    /// [`LoadedSchema::sources`]: schemac_runtime::engine::LoadedSchema::sources
    fn try_from(loaded: schemac_runtime::engine::LoadedSchema) -> Result<Compiled, Self::Error> {
        Ok(Compiled {
            sources: loaded.sources()?,
            schema: loaded.schema.unwrap_or_else(crate::lower::empty_schema),
            functions: loaded.functions,
            templates: loaded.templates,
            calls_math: loaded.calls_math,
            values_need_starlark: loaded.values_need_starlark,
            values_files: loaded.values_files,
        })
    }
}

/// The path generated code uses for the runtime crate.
fn runtime_tokens(opts: &CodegenOptions) -> TokenStream {
    opts.runtime_path
        .parse()
        .unwrap_or_else(|_| quote! { ::schemac_runtime })
}

/// Generates the module for `compiled`.
pub fn generate(compiled: &Compiled, opts: &CodegenOptions) -> TokenStream {
    generate_lowered(compiled, opts, lowering(compiled))
}

/// Generates the module for `compiled`, whose rule functions were translated as `lowering`
/// says (with the same options). Rules are bound at start-up from Starlark unless every
/// function was translated.
pub fn generate_lowered(
    compiled: &Compiled,
    opts: &CodegenOptions,
    lowering: crate::rules::Lowering,
) -> TokenStream {
    let rt = runtime_tokens(opts);
    let starlark = !lowering.complete();
    let ir = IrTokens::new(&rt);
    let schema_expr = ir.ty(&compiled.schema);
    let type_fns = ir.fns.take();
    drop(ir);
    let translated = lowering.translations(&rt);
    let rule_fns = lowering.items(&rt);
    let functions = compiled.functions;
    let templates = compiled.templates;
    let calls_math = compiled.calls_math;
    let openapi = crate::export::openapi::to_openapi(&compiled.schema);
    let openapi_yaml = schemac_runtime::yaml::emit::to_yaml(&openapi.value);
    let json_schema = crate::export::jsonschema::to_json_schema(&compiled.schema);
    let json_schema_yaml = schemac_runtime::yaml::emit::to_yaml(&json_schema.value);

    // A root that is not a plain map gets a type alias; its map struct (if any) another name.
    let plain_map = matches!(compiled.schema.kind, Kind::Map(_)) && !compiled.schema.nullable;
    let mut types = TypeGen::new(
        &rt,
        opts.serde,
        &compiled.schema,
        &opts.root_name,
        plain_map,
    );
    let root_ty = types.rust_type(&compiled.schema);
    let root = types::root_ident(&opts.root_name);
    let root_alias = match plain_map {
        true => quote! {},
        false => quote! {
            /// The data values.
            pub type #root = #root_ty;
        },
    };
    let api = if plain_map {
        root_api(&rt, &root)
    } else {
        quote! {}
    };
    let (public, conversions) = (types.public, types.internal);
    let (root_alias, api, public, conversions) = match opts.typed {
        true => (root_alias, api, public, conversions),
        false => (quote! {}, quote! {}, Vec::new(), Vec::new()),
    };

    let name = &opts.validator_name;
    let files: Vec<&str> = compiled.sources.iter().map(|(n, _)| n.as_str()).collect();
    let schema_files: Vec<&str> = files
        .iter()
        .copied()
        .filter(|n| !n.ends_with(".star"))
        .collect();
    let pairs = compiled.sources.iter().map(|(n, t)| quote! { (#n, #t) });
    let values_files = &compiled.values_files;
    let requires_starlark = match starlark || compiled.values_need_starlark {
        true => {
            let files = schema_files.join(", ");
            quote! { #rt::__schemac_requires_starlark!(#files); }
        }
        false => quote! {},
    };
    let internals_mod = format_ident!("{INTERNALS}");
    let internals = paths::shorten(
        quote! {
            #(#conversions)*

            /// The schema IR.
            pub fn schema() -> #rt::schema::Type {
                #schema_expr
            }

            #(#type_fns)*

            #(#rule_fns)*

            #translated

            /// The `--data-values-schema-inspect -o openapi-v3` document.
            pub fn openapi() -> #rt::value::Node {
                #rt::__private::yaml_document(#openapi_yaml)
            }

            /// The `--data-values-schema-inspect -o json-schema` document.
            pub fn json_schema() -> #rt::value::Node {
                #rt::__private::yaml_document(#json_schema_yaml)
            }

            /// What a validator binary runs.
            pub static VALIDATOR: #rt::validator::Validator = #rt::validator::Validator {
                name: #name,
                schema_files: &[#(#schema_files),*],
                sources: &[#(#pairs),*],
                values_files: &[#(#values_files),*],
                needs_starlark: #starlark,
                functions: #functions,
                templates: #templates,
                schema_calls_math: #calls_math,
                translated,
                schema,
                openapi,
                json_schema,
                built: #rt::validator::BuiltOnce::new(),
            };
        },
        &rt,
    );
    quote! {
        #requires_starlark
        #(#public)*
        #root_alias
        #api

        pub use #internals_mod::VALIDATOR;

        /// The validator's internals: conversions, the schema IR, translated rules, exports.
        #[doc(hidden)]
        pub mod #internals_mod {
            #internals
        }
    }
}

/// Loading, checking and converting the root type (the typed API of `include_schema!`).
fn root_api(rt: &TokenStream, root: &proc_macro2::Ident) -> TokenStream {
    quote! {
        impl #root {
            /// Loads data values files onto the schema's defaults, with every check of
            /// `schemac check`: their `#@data/values` documents overlay as with `ytt -f` (a
            /// YAML file without one is an error; plain YAML goes to `load_plain`).
            pub fn load<P: ::core::convert::AsRef<::std::path::Path>>(files: &[P]) -> ::core::result::Result<Self, #rt::typed::Violations> {
                #rt::typed::convert(&VALIDATOR, &#rt::typed::load(&VALIDATOR, files)?)
            }

            /// Loads plain YAML data values files onto the schema's defaults, as
            /// `--data-values-file` does, with every check of `schemac check`.
            pub fn load_plain<P: ::core::convert::AsRef<::std::path::Path>>(files: &[P]) -> ::core::result::Result<Self, #rt::typed::Violations> {
                #rt::typed::convert(&VALIDATOR, &#rt::typed::load_plain(&VALIDATOR, files)?)
            }

            /// Loads plain YAML data values from a string.
            pub fn from_yaml_str(yaml: &str) -> ::core::result::Result<Self, #rt::typed::Violations> {
                #rt::typed::convert(&VALIDATOR, &#rt::typed::load_str(&VALIDATOR, "(string)", yaml)?)
            }

            /// Loads plain data values already in memory (read once, or made in code) onto
            /// the schema's defaults, with every check of `schemac check`, without writing and
            /// reading them again.
            pub fn from_node(node: &#rt::value::Node) -> ::core::result::Result<Self, #rt::typed::Violations> {
                #rt::typed::convert(&VALIDATOR, &#rt::typed::load_node(&VALIDATOR, "(value)", node)?)
            }

            /// Runs the schema's type checks and rules on these values.
            pub fn validate(&self) -> ::core::result::Result<(), #rt::typed::Violations> {
                #rt::typed::check_complete(&VALIDATOR, "(value)", &self.to_value()).map(|_| ())
            }

            /// The values as the runtime's value type, keys in schema order.
            pub fn to_value(&self) -> #rt::value::Value {
                #rt::__private::ToValue::to_value(self)
            }

            /// The values as YAML, as `schemac check` prints them.
            pub fn to_yaml(&self) -> ::std::string::String {
                #rt::yaml::emit::to_yaml(&self.to_value())
            }

            /// The values as JSON (keys sorted), as `schemac check -o json` prints them.
            pub fn to_json(&self) -> ::std::string::String {
                #rt::yaml::json::to_json(&self.to_value())
            }
        }
    }
}

/// The schema's rule functions translated to Rust (see [`crate::rules`]); the generated code
/// needs the runtime's `starlark` feature unless the lowering is complete.
pub fn lowering(compiled: &Compiled) -> crate::rules::Lowering {
    crate::rules::lower(&compiled.schema, &compiled.sources)
}

/// Text for a comment of generated code (a header's `//` line, a doc comment, which the code
/// is printed with as `///`), with what rustc refuses there written as Rust escapes: control
/// characters (a bare CR is an error, a newline would end the comment) and the characters
/// that change the direction of text (refused by `text_direction_codepoint_in_comment`, a
/// lint that is an error by default).
pub fn comment_text(text: &str) -> String {
    const DIRECTION: &[char] = &[
        '\u{061C}', '\u{200E}', '\u{200F}', '\u{202A}', '\u{202B}', '\u{202C}', '\u{202D}',
        '\u{202E}', '\u{2066}', '\u{2067}', '\u{2068}', '\u{2069}',
    ];
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        if DIRECTION.contains(&c) {
            out.extend(c.escape_unicode());
        } else if c.is_control() {
            out.extend(c.escape_debug());
        } else {
            out.push(c);
        }
    }
    out
}

/// Formats generated tokens as a Rust file.
pub fn to_source(tokens: TokenStream, header: &str) -> Result<String, String> {
    let file: syn::File = syn::parse2(tokens)
        .map_err(|e| format!("internal error: generated code does not parse: {e}"))?;
    Ok(format!("{header}{}", prettyplease::unparse(&file)))
}
