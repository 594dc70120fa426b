//! Why a run failed: the step of ytt's pipeline that failed, where, and the message ytt
//! prints after `Error: ` (rendered once, where the error is made, byte for byte as ytt's).

use std::fmt;

use crate::value::Pos;

/// The step of the pipeline that failed.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum ErrorKind {
    /// A file could not be read (missing, a directory, a symlink, not a regular file).
    Io,
    /// YAML that does not parse (a file, a flag's value, an env variable's).
    Yaml,
    /// A template that fails to evaluate, or an annotation in the wrong place.
    Template,
    /// A schema that cannot be read.
    Schema,
    /// Data values that cannot be merged (an unknown key, a bad overlay annotation).
    Overlay,
    /// Data values of the wrong type.
    TypeCheck,
    /// Validation rules that failed, or a `when=` that could not be evaluated.
    Validation,
    /// Flags or output options that cannot be honoured.
    Usage,
    /// Generated code or a build that went wrong (schemac's own failure).
    Internal,
}

/// A failed run.
#[derive(Clone, Debug, PartialEq)]
pub struct CheckError {
    pub kind: ErrorKind,
    /// Where the error is, when it is about one place of a file (`schema.yml:4`).
    pub pos: Option<Pos>,
    message: String,
}

impl CheckError {
    pub fn new(kind: ErrorKind, message: impl Into<String>) -> CheckError {
        CheckError {
            kind,
            pos: None,
            message: message.into(),
        }
    }

    /// The same error, about `pos`.
    pub fn at(mut self, pos: Pos) -> CheckError {
        self.pos = Some(pos);
        self
    }

    /// The same error, about `pos` if it is known.
    pub fn at_opt(mut self, pos: Option<Pos>) -> CheckError {
        self.pos = pos;
        self
    }

    /// The same error with ytt's context before it (`Overlaying data values (...): `).
    pub fn prefixed(mut self, prefix: &str) -> CheckError {
        self.message.insert_str(0, prefix);
        self
    }

    /// What ytt prints after `Error: `.
    pub fn message(&self) -> &str {
        &self.message
    }

    pub fn into_message(self) -> String {
        self.message
    }
}

impl fmt::Display for CheckError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message)
    }
}

impl std::error::Error for CheckError {}
