//! `include_schema!` — typed, validated ytt data values for Rust services.
//!
//! ```ignore
//! schemac_macros::include_schema!("config/schema.yml");
//! let values = DataValues::load(&["values.yml"])?; // defaults + overlays + checks + rules
//! println!("{}", values.replicas);
//! ```
//!
//! The macro takes schema files (and `.star` helpers they load), resolved against the crate's
//! `CARGO_MANIFEST_DIR`, and options `root = "Config"` (the root type's name, `DataValues` by
//! default) and `runtime = "::schemac_runtime"` (the path to the runtime crate). It expands, in
//! the current module, to one struct per map of the schema (fields typed by the schema,
//! `Default` from its defaults) and the root type's `load`, `from_yaml_str`, `from_node`,
//! `validate`, `to_value`, `to_yaml` and `to_json`. Errors are a
//! `schemac_runtime::typed::Violations` whose `Display` is ytt's report. A crate that uses
//! the macro depends on `schemac-runtime` and `schemac-macros`, with the runtime's `starlark`
//! feature when a rule of the schema needs the interpreter (the expansion says so otherwise). Schema problems are compile
//! errors that name the schema file and line.
//!
//! All the work happens in `schemac::macro_support`, shared with `schemac gen` and
//! `schemac build`.

use proc_macro::TokenStream;

/// Typed structs and a loader for a ytt data values schema; see the crate documentation.
#[proc_macro]
pub fn include_schema(input: TokenStream) -> TokenStream {
    schemac::macro_support::include_schema(input.into()).into()
}
