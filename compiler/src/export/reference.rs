//! A reference of the data values, helm-docs style, shared by the Markdown and HTML exports:
//! one table per map of the schema (the root first, then nested maps in schema order), a row
//! per item with its path, type, default, description, rules in words and deprecation. Items of
//! arrays of maps are written `name[]`; a row whose value is a map links to that map's table.

use std::collections::{HashMap, HashSet};

use schemac_runtime::error::{CheckError, ErrorKind};
use schemac_runtime::schema::{Kind, Scalar, Type};
use schemac_runtime::value::{Pos, Value};

use super::rules;

/// How many bytes of paths the reference's tables and rows may hold together. Each row names
/// its value's whole path (and each table its map's, with an anchor made of it), so the text
/// grows with the square of the schema's depth: a 5.5 MB schema nested 1,900 deep with 1 KB
/// keys passed 30 s and 3.7 GB of Markdown (4.6 GB of HTML). A schema a person reads has a
/// reference of kilobytes.
pub const DEFAULT_MAX_BYTES: usize =
    schemac_runtime::budget_vars::MAX_REFERENCE_BYTES.default_size();

/// The variable that raises [`DEFAULT_MAX_BYTES`].
pub const MAX_BYTES_VAR: &str = schemac_runtime::budget_vars::MAX_REFERENCE_BYTES.name;

/// The whole reference.
pub struct Reference {
    /// The schema files it was made from, as given.
    pub files: Vec<String>,
    pub tables: Vec<Table>,
    /// The anchors given so far, and for each base the next number to try after it (a linear
    /// search of the tables made thousands of maps with non-ASCII keys take minutes).
    taken: HashSet<String>,
    next: HashMap<String, usize>,
    /// The bytes of paths held so far, and the budget of them ([`DEFAULT_MAX_BYTES`]).
    path_bytes: usize,
    max_path_bytes: usize,
}

/// The items of one map.
pub struct Table {
    /// `db`, `servers[]`; empty for the root.
    pub path: String,
    /// Unique in the reference: `dv-db`, `dv-servers`; `dv-root` for the root.
    pub anchor: String,
    pub title: Option<String>,
    pub description: Option<String>,
    pub rows: Vec<Row>,
}

/// One data value.
pub struct Row {
    /// `db.port`, `servers[].name`.
    pub path: String,
    /// `string`, `integer or null`, `array of map`.
    pub type_name: String,
    /// The table of the map this value is (or holds in its arrays), if any.
    pub link: Option<String>,
    /// The default as compact JSON (`null`, `[]`, `"x"`); `None` for maps (see their items).
    pub default: Option<String>,
    pub title: Option<String>,
    pub description: Option<String>,
    /// The deprecation notice (possibly empty) of a deprecated value.
    pub deprecated: Option<String>,
    /// Rules in words, with `when` conditions and custom rules' descriptions.
    pub constraints: Vec<Constraint>,
    /// Examples: their description and value as compact JSON.
    pub examples: Vec<(String, String)>,
}

/// One rule of a row, in words.
pub struct Constraint {
    pub text: String,
    /// The author's words (a custom rule's description), not text made of values.
    pub prose: bool,
}

/// A piece of a row's description column, in the order written.
pub enum Part<'a> {
    /// A deprecation, with its notice (possibly empty).
    Deprecated(&'a str),
    Title(&'a str),
    Text(&'a str),
    /// `Example` or `Example (description)`, and the value.
    Example(String, &'a str),
}

impl Row {
    pub fn description_parts(&self) -> Vec<Part<'_>> {
        let mut parts = Vec::new();
        parts.extend(self.deprecated.as_deref().map(Part::Deprecated));
        parts.extend(self.title.as_deref().map(Part::Title));
        parts.extend(self.description.as_deref().map(Part::Text));
        for (what, value) in &self.examples {
            let label = match what.as_str() {
                "" => "Example".to_string(),
                what => format!("Example ({what})"),
            };
            parts.push(Part::Example(label, value));
        }
        parts
    }
}

impl Reference {
    /// The reference of `schema`; an error at the value whose path passes the budget of paths
    /// ([`DEFAULT_MAX_BYTES`], or the value of [`MAX_BYTES_VAR`]).
    pub fn of(schema: &Type, files: &[String]) -> Result<Reference, CheckError> {
        let max_path_bytes = schemac_runtime::budget_vars::MAX_REFERENCE_BYTES.get_size();
        let mut r = Reference {
            files: files.to_vec(),
            tables: Vec::new(),
            taken: HashSet::new(),
            next: HashMap::new(),
            path_bytes: 0,
            max_path_bytes,
        };
        match &schema.kind {
            Kind::Map(_) => {
                r.table(schema, "")?;
            }
            _ => {
                let anchor = r.anchor("");
                let row = row(schema, "(document)", None);
                r.tables.push(Table {
                    path: String::new(),
                    anchor,
                    title: None,
                    description: None,
                    rows: vec![row],
                });
            }
        }
        Ok(r)
    }

    /// Counts `bytes` more of paths (a row's, or a table's with its anchor), made for the value
    /// declared at `pos`, before they are made.
    fn hold(&mut self, bytes: usize, pos: &Pos) -> Result<(), CheckError> {
        self.path_bytes = self.path_bytes.saturating_add(bytes);
        if self.path_bytes <= self.max_path_bytes {
            return Ok(());
        }
        Err(CheckError::new(
            ErrorKind::Schema,
            format!(
                "{pos}: the reference of the data values passes the budget of {} bytes of paths (each row names its value's whole path; raise the budget with {MAX_BYTES_VAR})",
                self.max_path_bytes
            ),
        )
        .at(*pos))
    }

    /// A unique anchor for a table at `path`.
    fn anchor(&mut self, path: &str) -> String {
        let mut base: String = path
            .chars()
            .map(|c| {
                if c.is_ascii_alphanumeric() {
                    c.to_ascii_lowercase()
                } else {
                    '-'
                }
            })
            .collect();
        base = base.trim_matches('-').to_string();
        if base.is_empty() {
            base = "root".into();
        }
        let base = format!("dv-{base}");
        let mut anchor = base.clone();
        let n = self.next.entry(base.clone()).or_insert(2);
        while self.taken.contains(&anchor) {
            anchor = format!("{base}-{n}");
            *n += 1;
        }
        self.taken.insert(anchor.clone());
        anchor
    }

    /// Adds the table of map `ty` at `path` and those of the maps in it; returns its anchor.
    fn table(&mut self, ty: &Type, path: &str) -> Result<String, CheckError> {
        // The table's path, and its anchor made of it.
        self.hold(2 * path.len(), &ty.pos)?;
        let anchor = self.anchor(path);
        let index = self.tables.len();
        self.tables.push(Table {
            path: path.to_string(),
            anchor: anchor.clone(),
            title: ty.doc.title.clone().filter(|t| !t.is_empty()),
            description: ty.doc.desc.clone().filter(|t| !t.is_empty()),
            rows: Vec::new(),
        });
        let Kind::Map(fields) = &ty.kind else {
            return Ok(anchor);
        };
        for f in fields {
            let key = f.key.key_string();
            self.hold(path.len() + 1 + key.len(), &f.ty.pos)?;
            let child = if path.is_empty() {
                key
            } else {
                format!("{path}.{key}")
            };
            // The map this value is, or holds in (nested) arrays.
            let (mut inner, mut at) = (&f.ty, child.clone());
            while let Kind::Array(item) = &inner.kind {
                inner = item;
                at.push_str("[]");
            }
            let link = match inner.kind {
                Kind::Map(_) => Some(self.table(inner, &at)?),
                _ => None,
            };
            let row = row(&f.ty, &child, link);
            self.tables[index].rows.push(row);
        }
        Ok(anchor)
    }
}

fn row(ty: &Type, path: &str, link: Option<String>) -> Row {
    let constraints = rules::rules(ty)
        .into_iter()
        .map(|r| Constraint {
            prose: r.is_custom(),
            text: if r.conditional {
                format!("{} (when its condition holds)", r.words)
            } else {
                r.words
            },
        })
        .collect();
    Row {
        path: path.to_string(),
        type_name: type_name(ty),
        link,
        default: (!matches!(ty.kind, Kind::Map(_)) || ty.default.value.is_null())
            .then(|| compact(&ty.default.value)),
        title: ty.doc.title.clone().filter(|t| !t.is_empty()),
        description: ty.doc.desc.clone().filter(|t| !t.is_empty()),
        deprecated: ty.doc.deprecated.clone(),
        constraints,
        examples: ty
            .doc
            .examples
            .iter()
            .map(|(d, v)| (d.clone(), compact(&v.value)))
            .collect(),
    }
}

/// `string`, `array of integer`, `map or null`, `any`.
pub fn type_name(ty: &Type) -> String {
    let base = match &ty.kind {
        Kind::Map(_) => "map".to_string(),
        Kind::Array(item) => format!("array of {}", type_name(item)),
        Kind::Scalar(Scalar::Float) => "number".to_string(),
        Kind::Scalar(s) => s.name().to_string(),
        Kind::Any => return "any".to_string(),
    };
    if ty.nullable {
        format!("{base} or null")
    } else {
        base
    }
}

/// A value on one line: compact JSON (YAML's flow text where JSON has none, `.nan`).
pub fn compact(v: &Value) -> String {
    schemac_runtime::yaml::json::marshal_json(v).unwrap_or_else(|_| {
        schemac_runtime::yaml::emit::to_yaml(v)
            .trim_end()
            .to_string()
    })
}
