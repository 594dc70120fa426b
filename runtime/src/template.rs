//! ytt templates: YAML files whose `#@` comments are annotations and Starlark code.

pub mod compile;
pub mod lexer;
pub mod literal;
pub mod tree;

use std::sync::Arc;

/// A template that failed to compile or evaluate.
#[derive(Debug, Clone, PartialEq)]
pub struct TemplateError {
    pub file: String,
    pub line: Option<u32>,
    pub message: String,
    /// A syntax or name-resolution error (ytt prints no `in <toplevel>` frame for those).
    pub compile_time: bool,
}

/// Files a template may `load()`, by the name they were given on the command line.
#[derive(Default, Clone)]
pub struct Sources {
    pub files: Vec<(String, Arc<str>)>,
}

impl Sources {
    pub fn find(&self, from: &str, path: &str) -> Option<(String, Arc<str>)> {
        let dir = from.rfind('/').map_or("", |i| &from[..=i]);
        let wanted = normalize(&format!("{dir}{path}"));
        self.files.iter().find(|(n, _)| normalize(n) == wanted).cloned()
    }
}

fn normalize(path: &str) -> String {
    let mut parts: Vec<&str> = Vec::new();
    for p in path.split('/') {
        match p {
            "" | "." => {}
            ".." => {
                parts.pop();
            }
            p => parts.push(p),
        }
    }
    parts.join("/")
}

/// Evaluates a template: files whose `#@` comments are only literal annotations are read
/// without an interpreter (their nodes move into the trees); the others need Starlark (and
/// fail to evaluate without it).
pub fn evaluate(raw: crate::yaml::parse::RawFile, files: &Sources) -> Result<Vec<tree::Tree>, TemplateError> {
    match literal::annotations(&raw) {
        Ok(annotations) => Ok(literal::build(raw, annotations)),
        #[cfg(feature = "starlark")]
        Err(_) => crate::starlark::eval_template(&raw, files),
        #[cfg(not(feature = "starlark"))]
        Err(e) => {
            let _ = files;
            Err(e)
        }
    }
}
