//! A package's own data values files, built into a validator.
//!
//! A package's `config/` folder holds its schema and the data values files that set its values
//! for every user (`values.yml`), and users run `ytt -f config/ -f mine.yml`. A validator built
//! from such a folder (`schemac build config/`, `include_schema!`) sets those files apart when
//! it is built ([`set_apart`]) and gives them back to each run as its first files
//! ([`Backend::builtin_values`]), as ytt given the folder first reads them: each run evaluates
//! them again, in their order and under the names they had, before the run's own files.

use super::documents::{file_has_doc_annotation, is_yaml};
use super::{Backend, Input, Request};
use std::sync::Arc;

/// The inputs of a validator's build, its package's data values files set apart.
pub(super) struct SetApart {
    /// The schema files, `.star` helpers and every other file: what the schema is read from.
    pub(super) rest: Vec<Input>,
    /// Every input's name and text, in the order given: what the validator builds in.
    pub(super) all: Vec<(String, crate::inputs::FileText)>,
    /// The places in [`SetApart::all`] of the data values files.
    pub(super) values: Vec<usize>,
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
        all: inputs
            .iter()
            .map(|i| (i.name.clone(), i.text.clone()))
            .collect(),
        values: Vec::new(),
        values_need_starlark: false,
    };
    for (place, input) in inputs.into_iter().enumerate() {
        let raw = (is_yaml(&input.name) && input.reader_stop.is_none())
            .then(|| crate::yaml::parse::parse_file(&input.name, input.yaml_text(), false).ok())
            .flatten();
        match raw.filter(|r| {
            file_has_doc_annotation(r, "data/values")
                && !file_has_doc_annotation(r, "data/values-schema")
        }) {
            Some(raw) => {
                set.values_need_starlark |= crate::template::literal::annotations(&raw).is_err();
                set.values.push(place);
            }
            None => set.rest.push(input),
        }
    }
    set
}

/// The run's files: the back end's built-in data values files first (see the module's
/// documentation), then `inputs`; and how many were put first. Complete values
/// (`Request::values_complete`, the typed API's check of final values) are the data values
/// themselves: nothing goes before them.
pub(super) fn with_builtin_values(
    backend: &dyn Backend,
    opts: &Request,
    inputs: Vec<Input>,
) -> (Vec<Input>, usize) {
    let builtin = backend.builtin_values();
    if builtin.is_empty() || opts.values_complete {
        return (inputs, 0);
    }
    // ([`set_apart`] built in no file where go-yaml's reader stops: nothing to look for.)
    let files = builtin
        .iter()
        .map(|(name, text)| Input {
            name: name.to_string(),
            text: Arc::<str>::from(*text).into(),
            reader_stop: None,
        })
        .chain(inputs)
        .collect();
    (files, builtin.len())
}

/// The files a run's templates see (`load()`, `data.read()`, `data.list()`), in ytt's order:
/// the built-in files as they were given when built (the package's data values files in their
/// places among them), then the run's own, less the `prepended` built-in data values files
/// [`with_builtin_values`] put first.
pub(super) fn run_files(
    backend: &dyn Backend,
    inputs: &[Input],
    prepended: usize,
) -> Vec<(String, crate::inputs::FileText)> {
    let builtin = backend
        .builtin_sources()
        .iter()
        .map(|(name, text)| (name.to_string(), Arc::<str>::from(*text).into()));
    builtin
        .chain(
            inputs[prepended..]
                .iter()
                .map(|i| (i.name.clone(), i.text.clone())),
        )
        .collect()
}
