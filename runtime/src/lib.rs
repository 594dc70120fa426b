//! Run-time support for schemac validators.

pub mod value;
pub mod template;
pub mod yaml;
