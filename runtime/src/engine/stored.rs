//! Schemas lowered in an earlier run, kept by the back end (`schemac check`'s cache) and used
//! in place of reading, templating and lowering the same schema files again.
//!
//! Only schema files whose schema depends on nothing but their names and bytes are kept: every
//! YAML file that mentions `data/values-schema` is a schema file of the run, each of its
//! documents a schema document (or empty), its annotations literal (no code, no `load()`, no
//! function kept, no `#@library/ref`), and no flag that changes how files are read is given.
//! The engine decides that; the store keys what it keeps by the files' names and bytes.

use super::*;
use crate::template::literal;
use crate::yaml::parse::Comment;

/// A schema kept from an earlier run.
pub struct StoredSchema {
    /// The schema lowered from the files (their merged schema documents).
    pub schema: Type,
    /// How many templates evaluating the files compiled (ytt's numbering: the data values
    /// templates after them are numbered as if the files had been evaluated).
    pub templates: u32,
}

/// Schema files whose lowered schema may be kept (names and texts), and how many templates
/// evaluating them compiled.
pub(super) struct Storable {
    pub(super) files: Vec<(String, Arc<str>)>,
    pub(super) templates: u32,
}

/// Where a back end keeps lowered schemas between runs.
pub trait SchemaStore {
    /// The schema kept for exactly these files (names and texts, in the order given), if any.
    /// Anything unusable (missing, foreign, corrupt) is `None`, never an error.
    fn load(&self, files: &[(&str, &str)]) -> Option<StoredSchema>;
    /// Keeps `schema`, and the number of `templates` evaluating the files compiled, for these
    /// files. Failing to keep it is no error.
    fn save(&self, files: &[(&str, &str)], schema: &Type, templates: u32);
}

/// The schema files of a run that a store may answer for: every YAML input (`yaml`) that
/// mentions `data/values-schema` (`mentions`, one for each), in the order given. None when the
/// run's flags change how files are read or templated, when two inputs share a name, or when
/// no input is a schema file.
pub(super) fn candidates<'a>(
    yaml: &[&'a Input],
    mentions: &[bool],
    opts: &Request,
) -> Option<Vec<&'a Input>> {
    if opts.strict || opts.ignore_unknown_comments || opts.implicit_map_key_overrides {
        return None;
    }
    let mut names: Vec<&str> = yaml.iter().map(|i| i.name.as_str()).collect();
    names.sort_unstable();
    if names.windows(2).any(|w| w[0] == w[1]) {
        return None;
    }
    let schema: Vec<&Input> = yaml
        .iter()
        .zip(mentions)
        .filter(|(i, &mentions)| mentions && i.encoding_error.is_none())
        .map(|(&i, _)| i)
        .collect();
    (!schema.is_empty()).then_some(schema)
}

/// The names and texts a store keys on.
pub(super) fn key_files<'a>(files: &[&'a Input]) -> Vec<(&'a str, &'a str)> {
    files
        .iter()
        .map(|i| (i.name.as_str(), &**i.yaml_text()))
        .collect()
}

/// The annotations of a parsed schema file whose templating depends on nothing but its text
/// (every comment an annotation with literal arguments: no code line, no `load()`, none a
/// library's), read as [`literal::annotations`] reads them (the engine templates the file
/// with them: [`crate::template::evaluate_literal`]); `None` for any other file.
pub(super) fn literal_file(raw: &RawFile) -> Option<literal::Annotations> {
    let code = |c: &Comment| !c.is_annotation() || c.text.starts_with("library/");
    let literal = raw.trailing_comments.iter().all(|c| !code(c))
        && raw
            .find_commented(|node| node.comments.iter().any(code).then_some(()))
            .is_none();
    literal.then(|| literal::annotations(raw).ok()).flatten()
}
