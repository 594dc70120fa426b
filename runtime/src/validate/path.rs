//! The path of a node in the data values, as ytt writes it in its reports and errors.

use crate::value::Value;

/// One step of the path from the document to a node: a map key or an array index.
#[derive(Clone, Copy)]
pub(crate) enum Step<'v> {
    Key(&'v Value),
    Index(usize),
}

/// The path of the node at the end of `steps`, as ytt prints paths in its reports (`db.port`,
/// `ports[0]`, `(document)` for the document itself, `(map item)` for an item whose path is
/// empty: its keys are). Written out only when a report needs it.
pub(crate) fn path_text(steps: &[Step]) -> String {
    let path = path_keys(steps);
    match (path.is_empty(), steps.is_empty()) {
        (false, _) => path,
        (true, true) => "(document)".into(),
        (true, false) => "(map item)".into(),
    }
}

/// The path of the node at the end of `steps` as ytt builds it, empty for the document (and
/// for a map item whose keys are all empty): the keys joined by `.`, an index as `[N]`.
pub(super) fn path_keys(steps: &[Step]) -> String {
    let mut path = String::new();
    for step in steps {
        match step {
            Step::Key(key) => {
                if !path.is_empty() {
                    path.push('.');
                }
                // ytt writes each key with Go's `%s`: `%!s(bool=true)` for the YAML 1.1 key
                // `on:`.
                match key {
                    Value::Str(s) => path.push_str(s),
                    other => path.push_str(&other.go_percent_s()),
                }
            }
            Step::Index(index) => {
                path.push('[');
                path.push_str(crate::value::decimal(*index as u64, &mut [0; 20]));
                path.push(']');
            }
        }
    }
    path
}
