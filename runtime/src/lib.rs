//! Run-time support for schemac: the data values pipeline that `schemac check`, built
//! validators and `include_schema!` share.
//!
//! # Architecture
//!
//! One pipeline ([`engine`]) runs what ytt's `--data-values-inspect` runs: files are read
//! ([`inputs`]) and parsed with lines and `#@` comments ([`yaml`]), templates are evaluated
//! ([`template`]; Starlark in [`starlark`], behind the `starlark` feature), schema documents are
//! overlaid ([`overlay`]) and lowered to the schema IR ([`schema`]), data values documents and
//! the data values given besides the files ([`data_values`]) are overlaid onto the schema's
//! defaults and type checked after each ([`typecheck`]), then the validations run ([`validate`],
//! named rules in [`rules`]) and the result is printed ([`yaml::emit`], [`yaml::json`]) or
//! reported ([`report`], errors in [`error`]).
//!
//! Its only input is a [`request::Request`]: the command line builds one from ytt's flags
//! ([`cli`]), the typed API builds one explicitly ([`typed`]). What differs between the
//! interpreter and a built validator is an [`engine::Backend`]: the interpreter (in the
//! `schemac` crate) lowers schema documents itself and calls Starlark; a built validator
//! ([`validator`]) has its IR and translated rules ([`lowered`]) generated, and type-checks
//! and fills defaults with the same [`typecheck`] as the interpreter.
//!
//! # Invariants
//!
//! - **The IR is plain data.** [`schema::Type`] is `Clone + Debug + PartialEq`; a custom rule or
//!   `when=` is a [`schema::FunctionRef`], an index into the run's kept functions
//!   ([`template::functions::Functions`]). The same schema files give the same indices, so a
//!   generated validator's IR and the interpreter's agree, and translations are keyed by index
//!   (one per IR node: a fragment instantiated twice has two).
//! - **Messages are ytt's, byte for byte.** Every text a user compares with ytt is made where
//!   the error is, once ([`error::CheckError`]'s message), with ytt's positions; the kind and
//!   position beside it are for programs.
//! - **No input crashes or hangs.** Every budget is named (YAML depth and aliases in [`yaml`],
//!   Starlark steps and heap in [`starlark`]); bad input is an error with a position.
//! - **The engine does not know the command line**: nothing under `engine` imports [`cli`].
//!
//! Modules whose names start with `__` are for generated code only.

pub mod __private;
#[cfg(feature = "mimalloc")]
pub mod allocator;

pub mod budget_vars;
pub mod cli;
pub mod data_values;
pub mod engine;
pub mod error;
mod go_base64;
mod go_unicode;
pub mod inputs;
mod large_stack;
mod last_map_keys;
pub mod lowered;
pub mod overlay;
mod panic_guard;
pub mod report;
pub mod request;
pub mod rules;
pub mod schema;
pub mod shared_defaults;
mod spare_pages;
mod spell;
#[cfg(feature = "starlark")]
pub mod starlark;
mod stdin_at_start;
pub mod template;
pub mod typecheck;
pub mod typed;
pub mod validate;
pub mod validator;
pub mod value;
#[cfg(feature = "serde")]
mod value_serde;
pub mod yaml;
