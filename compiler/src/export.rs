//! Exports of the schema IR to other formats: ytt's OpenAPI document (and one with the rules),
//! a JSON Schema, and references of the data values in Markdown and HTML.
//!
//! What the rules become is decided once, in [`rules`]; the references share [`reference`].

pub mod html;
pub mod jsonschema;
pub mod markdown;
pub mod openapi;
pub mod reference;
pub mod rules;

use schemac_runtime::error::CheckError;
use schemac_runtime::schema::Type;
use schemac_runtime::value::{MapEntry, Node, Pos, Value};
use schemac_runtime::yaml::emit::budget::{export_text, ExportForm};

/// A format of `schemac inspect -o FORMAT`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Format {
    JsonSchema,
    OpenApiV3,
    Markdown,
    Html,
}

impl Format {
    pub const NAMES: &'static [&'static str] = &["json-schema", "openapi-v3", "markdown", "html"];

    pub fn parse(name: &str) -> Option<Format> {
        match name {
            "json-schema" => Some(Format::JsonSchema),
            "openapi-v3" => Some(Format::OpenApiV3),
            "markdown" => Some(Format::Markdown),
            "html" => Some(Format::Html),
            _ => None,
        }
    }
}

/// The text of `schema` in `format`; `files` are the schema files it was read from. A
/// reference (Markdown, HTML) past its budget of paths is an error
/// ([`reference::DEFAULT_MAX_BYTES`]), as is a JSON Schema or OpenAPI document past the output
/// budget ([`export_text`]).
pub fn render(schema: &Type, format: Format, files: &[String]) -> Result<String, CheckError> {
    Ok(match format {
        Format::JsonSchema => export_text(
            &jsonschema::to_json_schema(schema),
            "the JSON Schema",
            schema.pos,
            ExportForm::IndentedJson,
        )?,
        Format::OpenApiV3 => export_text(
            &openapi::to_openapi_with_rules(schema),
            "the OpenAPI document",
            schema.pos,
            ExportForm::Yaml,
        )?,
        Format::Markdown => markdown::to_markdown(&reference::Reference::of(schema, files)?),
        Format::Html => html::to_html(&reference::Reference::of(schema, files)?),
    })
}

/// The notes of rules no keyword states exactly, as `x-schemac-rules`.
fn notes_node(notes: &[rules::Note]) -> Node {
    list(
        notes
            .iter()
            .map(|n| {
                let mut e = vec![
                    entry("rule", string(&n.rule.written)),
                    entry("means", string(&n.rule.words)),
                    entry("at", string(&n.rule.at)),
                ];
                if n.rule.conditional {
                    e.push(entry("when", boolean(true)));
                }
                e.push(entry("why", string(n.why)));
                map(e)
            })
            .collect(),
    )
}

fn entry(key: &str, value: Node) -> MapEntry {
    MapEntry {
        key: key.into(),
        value,
    }
}

fn map(entries: Vec<MapEntry>) -> Node {
    Node::new(Value::Map(entries.into()), Pos::unknown())
}

fn list(items: Vec<Node>) -> Node {
    Node::new(Value::Array(items.into()), Pos::unknown())
}

fn string(text: &str) -> Node {
    Node::new(Value::Str(text.into()), Pos::unknown())
}

fn boolean(b: bool) -> Node {
    Node::new(Value::Bool(b), Pos::unknown())
}

fn int(i: i64) -> Node {
    Node::new(Value::Int(i), Pos::unknown())
}
