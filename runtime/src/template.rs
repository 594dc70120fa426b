//! ytt templates: YAML files whose `#@` comments are annotations and Starlark code.

pub mod compile;
pub mod lexer;
pub mod tree;

/// A template that failed to compile or evaluate.
#[derive(Debug, Clone, PartialEq)]
pub struct TemplateError {
    pub file: String,
    pub line: Option<u32>,
    pub message: String,
    /// A syntax or name-resolution error (ytt prints no `in <toplevel>` frame for those).
    pub compile_time: bool,
}
