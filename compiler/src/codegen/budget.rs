//! The budget of generated code (`schemac gen`, `schemac build`, `include_schema!`): a schema
//! whose Rust would be too large for rustc is refused, with its position, before any is
//! generated. What the interpreter runs in a fraction of a second can be megabytes of Rust:
//! each type is a struct, a conversion and an IR expression, and each default a Rust
//! expression (50,000 keys took 39 s and 2 GB to generate 57 MB of Rust; 2,000 nested maps 70
//! MB, each level naming the ones above it; 2,000 nested arrays ran past a minute).
//! A schema's text is written several times (the typed structs, the IR, the OpenAPI document
//! and JSON Schema): a default string of 50 MB made 250 MB of Rust in 12 s, and one of 200 MB
//! aborted allocating.
//! `schemac check` and `schemac inspect` take such schemas as they are.

use schemac_runtime::budget_vars as vars;
use schemac_runtime::error::{CheckError, ErrorKind};
use schemac_runtime::schema::{Check, Kind, Type};
use schemac_runtime::value::{Node, Pos, Value};

/// How many types and default values' nodes a schema may have for code generation.
pub const DEFAULT_MAX_NODES: usize = vars::MAX_CODEGEN_NODES.default_size();

/// How deep types, and the nodes of a default value, may nest for code generation.
pub const DEFAULT_MAX_DEPTH: usize = vars::MAX_CODEGEN_DEPTH.default_size();

/// How many bytes of text (keys, default values' strings and keys, documentation) a schema
/// may have for code generation.
pub const DEFAULT_MAX_BYTES: usize = vars::MAX_CODEGEN_BYTES.default_size();

/// The variables that raise [`DEFAULT_MAX_NODES`], [`DEFAULT_MAX_BYTES`] and
/// [`DEFAULT_MAX_DEPTH`].
pub const MAX_NODES_VAR: &str = vars::MAX_CODEGEN_NODES.name;
pub const MAX_BYTES_VAR: &str = vars::MAX_CODEGEN_BYTES.name;
pub const MAX_DEPTH_VAR: &str = vars::MAX_CODEGEN_DEPTH.name;

/// Fails when `schema` has more types and default nodes than [`DEFAULT_MAX_NODES`] (or the
/// variable's value), more bytes of text than [`DEFAULT_MAX_BYTES`], or nests deeper than
/// [`DEFAULT_MAX_DEPTH`]; the error is placed at the type or default node that goes past the
/// budget.
pub fn check(schema: &Type) -> Result<(), CheckError> {
    let mut walk = Walk {
        nodes: 0,
        max_nodes: vars::MAX_CODEGEN_NODES.get_size(),
        bytes: 0,
        max_bytes: vars::MAX_CODEGEN_BYTES.get_size(),
        max_depth: vars::MAX_CODEGEN_DEPTH.get_size(),
    };
    walk.ty(schema, 1)
}

struct Walk {
    nodes: usize,
    max_nodes: usize,
    bytes: usize,
    max_bytes: usize,
    max_depth: usize,
}

impl Walk {
    fn ty(&mut self, t: &Type, depth: usize) -> Result<(), CheckError> {
        self.count(&t.pos, depth)?;
        self.text(&t.pos, notes_len(t))?;
        if !super::ir::composed_default(t) {
            self.default(&t.default, placed(&t.default.pos, &t.pos))?;
        }
        match &t.kind {
            Kind::Map(fields) => fields.iter().try_for_each(|f| {
                self.text(&f.ty.pos, text_len(&f.key))?;
                self.ty(&f.ty, depth + 1)
            }),
            Kind::Array(item) => self.ty(item, depth + 1),
            Kind::Scalar(_) | Kind::Any => Ok(()),
        }
    }

    /// The nodes of a default value below its root (the type counted that), without recursion.
    /// A node without a position (one a Starlark expression made) is placed at its nearest
    /// ancestor that has one, `at` for the root.
    fn default(&mut self, node: &Node, at: Pos) -> Result<(), CheckError> {
        let mut stack: Vec<(&Node, usize, Pos)> = vec![(node, 1, at)];
        while let Some((n, depth, at)) = stack.pop() {
            self.text(&at, text_len(&n.value))?;
            let children: Box<dyn Iterator<Item = &Node>> = match &n.value {
                Value::Map(entries) => {
                    self.text(&at, entries.iter().map(|e| text_len(&e.key)).sum())?;
                    Box::new(entries.iter().map(|e| &e.value))
                }
                Value::Array(items) => Box::new(items.iter()),
                _ => continue,
            };
            for child in children {
                let at = placed(&child.pos, &at);
                self.count(&at, depth + 1)?;
                stack.push((child, depth + 1, at));
            }
        }
        Ok(())
    }

    /// Counts `len` bytes of text at `pos`.
    fn text(&mut self, pos: &Pos, len: usize) -> Result<(), CheckError> {
        self.bytes = self.bytes.saturating_add(len);
        if self.bytes > self.max_bytes {
            return Err(too_large(
                pos,
                format!(
                    "has more than {} bytes of keys, default values' strings, documentation and rules",
                    self.max_bytes
                ),
                MAX_BYTES_VAR,
            ));
        }
        Ok(())
    }

    fn count(&mut self, pos: &Pos, depth: usize) -> Result<(), CheckError> {
        self.nodes += 1;
        if self.nodes > self.max_nodes {
            return Err(too_large(
                pos,
                format!(
                    "has more than {} types and default values' nodes",
                    self.max_nodes
                ),
                MAX_NODES_VAR,
            ));
        }
        if depth > self.max_depth {
            return Err(too_large(
                pos,
                format!("nests deeper than {} levels", self.max_depth),
                MAX_DEPTH_VAR,
            ));
        }
        Ok(())
    }
}

/// The bytes of text a type's documentation and rules hold (their values are written whole,
/// not counted as nodes): titles, descriptions, examples, rules' descriptions and arguments.
fn notes_len(t: &Type) -> usize {
    let doc = &t.doc;
    let notes = [&doc.title, &doc.desc, &doc.deprecated];
    let mut len: usize = notes.iter().flat_map(|n| n.as_deref()).map(str::len).sum();
    for (desc, example) in &doc.examples {
        len = len.saturating_add(desc.len() + value_len(&example.value));
    }
    if let Some(v) = &t.validation {
        let args = v.named.iter().map(|(_, arg)| value_len(arg));
        let shown = v.shown_args.iter().map(|(_, text)| text.len());
        let custom = v.custom.iter().map(|rule| {
            let arg = match &rule.check {
                Check::Named(_, arg) => value_len(arg),
                Check::Function(_) => 0,
            };
            rule.description.len() + arg
        });
        len = args
            .chain(shown)
            .chain(custom)
            .fold(len, usize::saturating_add);
    }
    len
}

/// The bytes of the strings and map keys in `value`, without recursion.
fn value_len(value: &Value) -> usize {
    let mut len = 0usize;
    let mut stack = vec![value];
    while let Some(v) = stack.pop() {
        len = len.saturating_add(text_len(v));
        match v {
            Value::Map(entries) => {
                for e in entries.iter() {
                    len = len.saturating_add(text_len(&e.key));
                    stack.push(&e.value.value);
                }
            }
            Value::Array(items) => stack.extend(items.iter().map(|n| &n.value)),
            _ => {}
        }
    }
    len
}

/// The bytes of a string (or of a string that is not UTF-8); nothing for any other value.
fn text_len(value: &Value) -> usize {
    match value {
        Value::Str(s) => s.len(),
        Value::Bytes(b) => b.len(),
        _ => 0,
    }
}

/// `pos` when it is known, else `fallback`.
fn placed(pos: &Pos, fallback: &Pos) -> Pos {
    if pos.is_unknown() {
        *fallback
    } else {
        *pos
    }
}

fn too_large(pos: &Pos, what: String, var: &str) -> CheckError {
    CheckError::new(
        ErrorKind::Schema,
        format!(
            "{pos}: the schema {what}, the budget of generated code (its Rust would be too large to compile; raise the budget with {var})"
        ),
    )
    .at(*pos)
}

#[cfg(test)]
mod tests {
    #[test]
    fn budgets_are_named_in_their_errors() {
        let e = super::too_large(
            &schemac_runtime::value::Pos::new("schema.yml", 3),
            "nests deeper than 64 levels".into(),
            super::MAX_DEPTH_VAR,
        );
        assert!(e
            .message()
            .starts_with("schema.yml:3: the schema nests deeper than 64 levels"));
        assert!(e.message().contains("SCHEMAC_MAX_CODEGEN_DEPTH"));
    }
}
