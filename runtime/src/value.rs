//! The data model: YAML values that remember where they came from.
//!
//! Every [`Node`] carries a [`Pos`] (file and line), because every message ytt prints names the
//! line a value came from (`values.yml:3`) and the schema line that demanded its type
//! (`by schema.yml:4`). Maps keep their source order: ytt's output and its error reports follow it.

use std::fmt;
use std::sync::Arc;

/// Where a node came from: a file name as the user gave it and a 1-based line.
///
/// Values that come from command-line flags use pseudo file names such as `(data-value arg)`.
/// A line of 0 means "no line" (ytt then prints the file name alone).
#[derive(Clone, PartialEq, Eq, Hash, Default)]
pub struct Pos {
    pub file: Arc<str>,
    pub line: u32,
}

impl Pos {
    pub fn new(file: impl Into<Arc<str>>, line: u32) -> Pos {
        Pos { file: file.into(), line }
    }

    /// A position that points nowhere (values synthesised by the tool itself).
    pub fn unknown() -> Pos {
        Pos { file: Arc::from(""), line: 0 }
    }

    pub fn is_unknown(&self) -> bool {
        self.file.is_empty() && self.line == 0
    }
}

impl fmt::Display for Pos {
    /// `file:line`, as ytt prints positions.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}:{}", self.file, self.line)
    }
}

impl fmt::Debug for Pos {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}:{}", self.file, self.line)
    }
}

/// A YAML value with its position.
#[derive(Clone, Debug, PartialEq)]
pub struct Node {
    pub value: Value,
    pub pos: Pos,
}

/// A YAML value. Map keys are scalars (`Value::Str` for almost every key, but YAML 1.1 allows
/// `on:` to be the boolean `true` and `1:` to be an integer, and ytt keeps them so).
#[derive(Clone, Debug, PartialEq)]
pub enum Value {
    Null,
    Bool(bool),
    Int(i64),
    Float(f64),
    Str(String),
    Map(Vec<MapEntry>),
    Array(Vec<Node>),
}

/// One `key: value` pair of a map. The item's position is the position of its value node.
#[derive(Clone, Debug, PartialEq)]
pub struct MapEntry {
    pub key: Value,
    pub value: Node,
}

impl Node {
    pub fn new(value: Value, pos: Pos) -> Node {
        Node { value, pos }
    }

    pub fn null(pos: Pos) -> Node {
        Node { value: Value::Null, pos }
    }
}

impl Value {
    /// The type name ytt uses in messages (`found: string`, `expected: integer`).
    pub fn type_name(&self) -> &'static str {
        match self {
            Value::Null => "null",
            Value::Bool(_) => "boolean",
            Value::Int(_) => "integer",
            Value::Float(_) => "float",
            Value::Str(_) => "string",
            Value::Map(_) => "map",
            Value::Array(_) => "array",
        }
    }

    pub fn is_null(&self) -> bool {
        matches!(self, Value::Null)
    }

    pub fn is_collection(&self) -> bool {
        matches!(self, Value::Map(_) | Value::Array(_))
    }

    pub fn as_str(&self) -> Option<&str> {
        match self {
            Value::Str(s) => Some(s),
            _ => None,
        }
    }

    /// Looks a key up in a map value.
    pub fn get(&self, key: &str) -> Option<&Node> {
        match self {
            Value::Map(entries) => entries
                .iter()
                .find(|e| e.key.as_str() == Some(key))
                .map(|e| &e.value),
            _ => None,
        }
    }

    /// Key equality as ytt matches map items: same type and same value (`1` is not `"1"`).
    pub fn key_eq(&self, other: &Value) -> bool {
        match (self, other) {
            (Value::Float(a), Value::Float(b)) => a == b || (a.is_nan() && b.is_nan()),
            _ => self == other,
        }
    }

    /// The key as ytt shows it in paths and messages.
    pub fn key_string(&self) -> String {
        match self {
            Value::Null => "null".into(),
            Value::Bool(b) => b.to_string(),
            Value::Int(i) => i.to_string(),
            Value::Float(f) => crate::yaml::emit::format_float(*f),
            Value::Str(s) => s.clone(),
            Value::Map(_) => "map".into(),
            Value::Array(_) => "array".into(),
        }
    }
}
