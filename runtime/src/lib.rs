//! Run-time support for schemac validators.

pub mod __private;

pub mod cli;
pub mod engine;
pub mod lowered;
#[cfg(feature = "starlark")]
pub mod starlark;
pub mod overlay;
pub mod report;
pub mod rules;
pub mod schema;
pub mod template;
pub mod typecheck;
pub mod typed;
pub mod validate;
pub mod validator;
pub mod value;
#[cfg(feature = "serde")]
mod value_serde;
pub mod yaml;
