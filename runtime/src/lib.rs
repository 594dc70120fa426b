//! Run-time support for schemac validators.

#[cfg(feature = "starlark")]
pub mod starlark;
pub mod report;
pub mod schema;
pub mod template;
pub mod value;
pub mod yaml;
