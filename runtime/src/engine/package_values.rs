//! A package's own data values files, built into a validator.
//!
//! A package's `config/` folder holds its schema and the data values files that set its values
//! for every user (`values.yml`), and users run `ytt -f config/ -f mine.yml`. A validator built
//! from such a folder (`schemac build config/`, `include_schema!`) sets those files apart when
//! it is built ([`set_apart`]) and gives them back to each run as its first files
//! ([`Backend::builtin_values`]), as ytt given the folder first reads them: each run evaluates
//! them again, in their order and under the names they had, before the run's own files.

use super::documents::{has_doc_annotation, is_yaml};
use super::{Backend, Input, Request};

/// The inputs of a validator's build, its package's data values files set apart.
pub(super) struct SetApart {
    /// The schema files, `.star` helpers and every other file: what the schema is read from.
    pub(super) rest: Vec<Input>,
    /// The data values files, `(name, text)` in the order given.
    pub(super) values: Vec<(String, String)>,
    /// Whether some data values file has template code (not only literal annotations): the
    /// validator then links the Starlark interpreter to evaluate it.
    pub(super) values_need_starlark: bool,
}

/// Sets apart the YAML templates among `inputs` that hold `#@data/values` documents and no
/// schema document. Any other file stays with the rest, whose reading reports its errors as
/// ytt would on every run: one that go-yaml or the reader refuses, and a schema file holding
/// data values documents (which ytt refuses, unless one document is both, which a validator
/// cannot build in: its schema is built in, its values would be read again on each run).
pub(super) fn set_apart(inputs: Vec<Input>) -> SetApart {
    let mut set = SetApart {
        rest: Vec::with_capacity(inputs.len()),
        values: Vec::new(),
        values_need_starlark: false,
    };
    let annotated = |raw: &crate::yaml::parse::RawFile, name: &str| {
        raw.docs.iter().any(|d| has_doc_annotation(d, name))
    };
    for input in inputs {
        let raw = (is_yaml(&input.name) && input.reader_stop.is_none())
            .then(|| crate::yaml::parse::parse_file(&input.name, input.yaml_text(), false).ok())
            .flatten();
        let Some(raw) =
            raw.filter(|r| annotated(r, "data/values") && !annotated(r, "data/values-schema"))
        else {
            set.rest.push(input);
            continue;
        };
        set.values_need_starlark |= crate::template::literal::annotations(&raw).is_err();
        let text = input.yaml_text().to_string();
        set.values.push((input.name, text));
    }
    set
}

/// The run's files: the back end's built-in data values files first (see the module's
/// documentation), then `inputs`. Complete values (`Request::values_complete`, the typed API's
/// check of final values) are the data values themselves: nothing goes before them.
pub(super) fn with_builtin_values(
    backend: &dyn Backend,
    opts: &Request,
    inputs: Vec<Input>,
) -> Vec<Input> {
    let builtin = backend.builtin_values();
    if builtin.is_empty() || opts.values_complete {
        return inputs;
    }
    builtin
        .iter()
        .map(|(name, text)| crate::inputs::decode(name.to_string(), text.as_bytes().to_vec()))
        .chain(inputs)
        .collect()
}
