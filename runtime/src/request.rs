//! What one run of the pipeline is asked to do: the engine's only input.
//!
//! The command line builds a [`Request`] from ytt's flags ([`crate::cli`]); the typed API
//! builds one explicitly ([`crate::typed`]). The engine never sees flags.

use crate::error::{CheckError, ErrorKind};

/// One run: the files, the data values given besides them, what to print and how strictly.
#[derive(Debug, Clone)]
#[non_exhaustive]
pub struct Request {
    /// Files as `ytt -f` takes them: templates with schema and `#@data/values` documents, and
    /// the `.star` files they load.
    pub files: Vec<String>,
    /// Data values given besides the files, applied after them in this order (the command line
    /// lists them in ytt's fixed order: files, env, key-values, key-files).
    pub data_values: Vec<DataValues>,
    /// `-o`: the output types as given (ytt checks them once the schema is known).
    pub output: Vec<String>,
    /// `--data-values-schema-inspect`: print the schema rather than the data values.
    pub schema_inspect: bool,
    /// `--strict`: YAML scalars read strictly (no `yes`/`no` booleans, ...).
    pub strict: bool,
    /// `--ignore-unknown-comments`: templates may hold comments that are neither `#@` nor `#!`.
    pub ignore_unknown_comments: bool,
    /// `--implicit-map-key-overrides`: a key given twice in a template's map replaces the
    /// earlier item, as if it said `#@yaml/map-key-override`.
    pub implicit_map_key_overrides: bool,
    /// Run the validations (`--dangerous-data-values-disable-validation` turns them off).
    pub validate: bool,
    /// The symlinks that may be read (`--allow-symlink-destination`, ...).
    pub symlinks: crate::inputs::Symlinks,
    /// Every YAML file must give data values: a file with no `#@data/values` or schema
    /// document is an error (the typed API's `load`, where such a file is a mistake).
    pub files_give_values: bool,
    /// The data values are complete (the typed API's `validate` of values it loaded): they
    /// replace the schema's defaults rather than overlay them, then are type-checked and
    /// validated. Overlaying would change them: an `any` map default would merge into them.
    pub values_complete: bool,
}

impl Default for Request {
    fn default() -> Self {
        Request {
            files: Vec::new(),
            data_values: Vec::new(),
            output: Vec::new(),
            schema_inspect: false,
            strict: false,
            ignore_unknown_comments: false,
            implicit_map_key_overrides: false,
            validate: true,
            symlinks: crate::inputs::Symlinks::default(),
            files_give_values: false,
            values_complete: false,
        }
    }
}

/// A source of data values besides the files.
#[derive(Debug, Clone, PartialEq)]
#[non_exhaustive]
pub enum DataValues {
    /// `--data-values-file PATH`: plain YAML files (a directory: its YAML files).
    Files(String),
    /// Plain YAML held in memory, named `name` in messages.
    Inline { name: String, text: String },
    /// `--data-values-env PREFIX` (`yaml`: `--data-values-env-yaml`).
    Env { prefix: String, yaml: bool },
    /// `--data-value key=value` (`yaml`: `--data-value-yaml`).
    KeyValue { assignment: String, yaml: bool },
    /// `--data-value-file key=path`.
    KeyFile(String),
}

/// Plain data values already in memory (the typed API's), handed to the engine whole beside a
/// [`Request`] ([`crate::engine::evaluate_given`]) and applied after the request's own data
/// values: a document of plain data (`Tree::document`), its scalars' types as they are (YAML
/// text would read a float `2.0` written `2` back as an int). Its positions are lines of
/// `text` (its YAML, named `name`), or of the files it was read from (`text` empty).
#[derive(Debug)]
pub struct GivenValues {
    pub name: String,
    pub text: String,
    pub doc: crate::template::tree::Tree,
}

impl Request {
    /// ytt's checks of `-o`, made once the schema is known (before any data value is merged):
    /// unknown types, then the schema type with or without `--data-values-schema-inspect`.
    pub fn check_output(&self) -> Result<(), CheckError> {
        if let Some(t) = self
            .output
            .iter()
            .find(|t| !matches!(t.as_str(), "yaml" | "json" | "pos") && schema_type(t).is_none())
        {
            return Err(CheckError::new(
                ErrorKind::Usage,
                format!("Unknown output type '{t}'"),
            ));
        }
        // `json-schema` is schemac's: ytt knows only `openapi-v3`, and its messages stay.
        let openapi = self.schema_type().is_some();
        if self.schema_inspect && !openapi {
            return Err(CheckError::new(
                ErrorKind::Usage,
                "Data values schema export only supported in OpenAPI v3 format; specify format with --output=openapi-v3 flag",
            ));
        }
        if !self.schema_inspect && openapi {
            return Err(CheckError::new(
                ErrorKind::Usage,
                "Output type currently only supported for data values schema (i.e. include --data-values-schema-inspect)",
            ));
        }
        if self.format() == "pos" {
            return Err(CheckError::new(
                ErrorKind::Usage,
                "output type 'pos' is not supported by schemac (use yaml or json)",
            ));
        }
        Ok(())
    }

    /// The schema export asked for with `--data-values-schema-inspect`: the first of
    /// `openapi-v3` and `json-schema` given.
    pub fn schema_type(&self) -> Option<SchemaType> {
        self.output.iter().find_map(|t| schema_type(t))
    }

    /// The file format asked for: the first of `yaml`, `json` and `pos` given, else `yaml`.
    pub fn format(&self) -> &str {
        self.output
            .iter()
            .map(String::as_str)
            .find(|t| matches!(*t, "yaml" | "json" | "pos"))
            .unwrap_or("yaml")
    }

    /// Whether the output is JSON.
    pub fn json(&self) -> bool {
        self.format() == "json"
    }
}

/// A schema export `--data-values-schema-inspect` prints.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SchemaType {
    /// `-o openapi-v3`: ytt's OpenAPI document.
    OpenApiV3,
    /// `-o json-schema`: a JSON Schema (draft 2020-12), printed as JSON.
    JsonSchema,
}

fn schema_type(output: &str) -> Option<SchemaType> {
    match output {
        "openapi-v3" => Some(SchemaType::OpenApiV3),
        "json-schema" => Some(SchemaType::JsonSchema),
        _ => None,
    }
}
