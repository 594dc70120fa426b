//! The output budget: how much YAML text the data values may be written as.
//!
//! Block YAML indents every line by its depth, so its text can be far larger than the values:
//! a map 100,000 levels deep (a data values template's nested dicts) is 10 GB of indentation,
//! which took 33 s to write, and a values file of 200 MB whose keys sit 2,000 levels deep
//! would be hundreds of GB. ytt holds its output in memory, about 4.5 bytes for each byte of
//! text (900 MB of output took it 4.2 GB; 1.6 GB ran out of memory at 8 GB), so the budget,
//! 4 GiB, is past what ytt writes on a machine of 16 GB. The text is sized before anything
//! is written, by a walk that counts a lower bound of each line (its indentation, key and
//! scalar), so a refused document prints nothing; a text short enough to be held whole until
//! its end needs no walk when its length is within the budget (`emit::write_yaml`).

use crate::value::{Node, Pos, Value};

/// The budget of the YAML text of one run's data values, in bytes.
pub const DEFAULT_MAX_OUTPUT_BYTES: u64 = crate::budget_vars::MAX_OUTPUT_BYTES.default;

/// The variable that raises [`DEFAULT_MAX_OUTPUT_BYTES`].
pub const OUTPUT_VAR: &str = crate::budget_vars::MAX_OUTPUT_BYTES.name;

/// The output budget ([`DEFAULT_MAX_OUTPUT_BYTES`], or [`OUTPUT_VAR`]'s value).
pub fn max_output_bytes() -> u64 {
    static V: std::sync::OnceLock<u64> = std::sync::OnceLock::new();
    *V.get_or_init(|| crate::budget_vars::MAX_OUTPUT_BYTES.get())
}

/// Where the text of `value` written as YAML passes `budget` bytes: the position of the node
/// whose line does (its value's; for a value a template made, which has none, the nearest
/// node above it that has one), or `None` when it fits.
pub fn past_budget(value: &Node, budget: u64) -> Option<Pos> {
    let mut size = Size {
        written: 0,
        budget,
        indented: true,
    };
    size.node(value, 0, false, value.pos).err()
}

/// The error of a text past the output budget at `pos`.
pub fn message(pos: &Pos) -> String {
    format!(
        "Writing data values: the YAML text passes the output budget of {} bytes at the value of {pos} (each line is indented by its depth; raise the budget with {OUTPUT_VAR})",
        max_output_bytes()
    )
}

/// How an export ([`export_text`]) is written.
#[derive(Clone, Copy, PartialEq, Eq)]
pub enum ExportForm {
    Yaml,
    /// JSON, a line for each key or item, indented (as long as YAML at least).
    IndentedJson,
    /// JSON on one line (`--output json`).
    CompactJson,
}

/// The text of a schema's export (`what`: "the OpenAPI document") in `form`, refused when it
/// passes the output budget: a schema's aliases are written out in full at every depth, so
/// 15 KB of schema could be 15 GB of OpenAPI, which aborted (ytt runs out of memory). The
/// text is sized before it is made (compact JSON without the indentation the others have).
/// `at` is the schema's position.
pub fn export_text(
    node: &Node,
    what: &str,
    at: Pos,
    form: ExportForm,
) -> Result<String, crate::error::CheckError> {
    let indented = form != ExportForm::CompactJson;
    let mut size = Size {
        written: 0,
        budget: max_output_bytes(),
        indented,
    };
    if size.node(node, 0, false, node.pos).is_err() {
        let why = if indented {
            "each line is indented by its depth, and aliases are written out in full"
        } else {
            "aliases are written out in full"
        };
        return Err(crate::error::CheckError::new(
            crate::error::ErrorKind::Usage,
            format!(
                "Writing {what}: its text passes the output budget of {} bytes ({why}; raise the budget with {OUTPUT_VAR})",
                max_output_bytes()
            ),
        )
        .at_opt((!at.is_unknown()).then_some(at)));
    }
    Ok(match form {
        ExportForm::Yaml => crate::yaml::emit::to_yaml(&node.value),
        ExportForm::IndentedJson => crate::yaml::json::to_json_indented(&node.value),
        ExportForm::CompactJson => crate::yaml::json::to_json(&node.value),
    })
}

/// A running lower bound of the text written so far.
struct Size {
    written: u64,
    budget: u64,
    /// Whether each line is indented by its depth (not in compact JSON).
    indented: bool,
}

impl Size {
    /// Counts `text` bytes on a line of `indent` (or `text` alone, on the line already begun
    /// when `inline`); `at` once past the budget.
    fn line(&mut self, indent: u64, text: u64, inline: bool, at: Pos) -> Result<(), Pos> {
        let indent = match (inline, self.indented) {
            (true, _) => 0,
            (false, true) => indent + 1,
            // A separator.
            (false, false) => 1,
        };
        self.written = self.written.saturating_add(indent + text);
        if self.written > self.budget {
            return Err(at);
        }
        Ok(())
    }

    /// Counts `node`, whose items (if it is a collection) start lines indented by `indent`,
    /// the first on the line already begun when `inline` (an array item's `- `); `known` is
    /// the position of the nearest node above that has one. A scalar item is counted here
    /// rather than by a call of its own (most nodes are scalars).
    fn node(&mut self, node: &Node, indent: u64, inline: bool, known: Pos) -> Result<(), Pos> {
        let at = |n: &Node| if n.pos.is_unknown() { known } else { n.pos };
        match &node.value {
            Value::Map(entries) => {
                for (i, entry) in entries.iter().enumerate() {
                    let key = scalar_len(&entry.key) + 1;
                    self.line(indent, key, inline && i == 0, at(&entry.value))?;
                    match &entry.value.value {
                        // A map under a key is indented; an array's items sit at the key's
                        // column.
                        Value::Map(_) => {
                            self.node(&entry.value, indent + 2, false, at(&entry.value))?
                        }
                        Value::Array(_) => {
                            self.node(&entry.value, indent, false, at(&entry.value))?
                        }
                        scalar => self.scalar(scalar),
                    }
                }
            }
            Value::Array(items) => {
                for (i, item) in items.iter().enumerate() {
                    self.line(indent, 2, inline && i == 0, at(item))?;
                    match &item.value {
                        // A collection in an array starts on its item's line.
                        Value::Map(_) | Value::Array(_) => {
                            self.node(item, indent + 2, true, at(item))?
                        }
                        scalar => self.scalar(scalar),
                    }
                }
            }
            scalar => self.scalar(scalar),
        }
        Ok(())
    }

    /// Counts a scalar on the line already begun (its key's or its `- `).
    fn scalar(&mut self, value: &Value) {
        self.written = self.written.saturating_add(scalar_len(value));
    }
}

/// The fewest bytes a scalar (or key) is written in.
fn scalar_len(value: &Value) -> u64 {
    match value {
        Value::Str(s) => s.len() as u64,
        _ => 1,
    }
}
