//! Reading and writing YAML the way ytt does.

pub mod emit;
pub mod json;
pub mod parse;
pub mod scalar;
mod block;
#[cfg(test)]
mod reader_tests;
