//! Reading and writing YAML the way ytt does.

mod block;
pub mod emit;
mod go_error;
pub mod json;
pub mod parse;
#[cfg(test)]
mod reader_tests;
pub mod scalar;
