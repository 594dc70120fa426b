//! Run-time support for schemac validators.

pub mod __private;

pub mod cli;
pub mod data_values;
pub mod engine;
pub mod error;
pub mod inputs;
pub mod lowered;
pub mod overlay;
pub mod report;
pub mod request;
pub mod rules;
pub mod schema;
#[cfg(feature = "starlark")]
pub mod starlark;
pub mod template;
pub mod typecheck;
pub mod typed;
pub mod validate;
pub mod validator;
pub mod value;
#[cfg(feature = "serde")]
mod value_serde;
pub mod yaml;
