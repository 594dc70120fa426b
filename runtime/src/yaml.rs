//! Reading and writing YAML the way ytt does.

mod block;
pub mod emit;
pub mod json;
pub mod parse;
#[cfg(test)]
mod reader_tests;
pub mod scalar;
