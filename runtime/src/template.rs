//! ytt templates: YAML files whose `#@` comments are annotations and Starlark code.

pub mod compile;
pub mod lexer;
pub mod tree;
