//! What ytt checks of a template's documents as it takes them: every document's kind against
//! its file's (before it reads any of them), and a data values document's keyword arguments.

use super::super::*;

/// Whether ytt takes document `tree` as empty (null, or an empty collection no code made), and
/// whether it is an empty collection that code made (`--- #@ {}`: kept as Starlark made it,
/// not empty to ytt). `code_docs`: the lines of the documents whose value code sets.
pub(super) fn emptiness(tree: &Tree, code_docs: &[u32]) -> (bool, bool) {
    let empty_collection =
        matches!(&tree.value, TreeValue::Map(items) | TreeValue::Array(items) if items.is_empty());
    let empty_from_code = empty_collection && code_docs.contains(&tree.pos.line);
    let empty = match &tree.value {
        TreeValue::Scalar(v) => v.is_null(),
        _ => empty_collection && !empty_from_code,
    };
    (empty, empty_from_code)
}

/// The first document of a template's `trees` that is not empty and not of its file's kind: a
/// schema file holds schema documents only (a data values document among them), a data values
/// file data values documents only. ytt looks at every document before it reads one (a
/// misplaced document is the error before the keyword arguments of one above it).
pub(super) fn first_misplaced<'t>(
    trees: &'t [Tree],
    has_schema: bool,
    code_docs: &[u32],
) -> Option<&'t Tree> {
    let kind = match has_schema {
        true => "data/values-schema",
        false => "data/values",
    };
    trees.iter().find(|tree| {
        tree.kind == TreeKind::Document && tree.ann(kind).is_none() && !emptiness(tree, code_docs).0
    })
}

/// ytt's error for the keyword arguments of document `tree`'s `#@data/values`, if any: it
/// knows one, `after_library_module`, a bool and only beside `#@library/ref`; each argument
/// is looked at in turn.
pub(super) fn data_values_kwargs_error(tree: &Tree) -> Option<String> {
    let ann = tree.ann("data/values")?;
    let library = tree.ann("library/ref").is_some();
    ann.kwargs.iter().find_map(|(k, arg)| match k.as_str() {
        "after_library_module" if arg.type_name != "bool" => Some(format!(
            "expected starlark.Bool, but was {}",
            crate::rules::go_type(&arg.type_name)
        )),
        "after_library_module" if library => None,
        "after_library_module" => Some(
            "Annotation data/values: Expected kwarg 'after_library_module' to be used with library/ref annotation".to_string(),
        ),
        _ => Some(format!("Unknown kwarg {k} for annotation data/values")),
    })
}

/// ytt's error for the argument of `#@library/ref`: one string of the form `@path`,
/// `@~alias` or `@path~alias`, repeated for nested libraries (`@a@b~c`).
pub(super) fn library_ref_error(ann: &crate::template::tree::Ann) -> Option<String> {
    if ann.args.len() != 1 {
        return Some(format!(
            "Expected library/ref annotation to have one arg, got {}",
            ann.args.len()
        ));
    }
    let arg = &ann.args[0];
    let text = match &arg.kind {
        crate::template::tree::ArgKind::Data(Node {
            value: crate::value::Value::Str(s),
            ..
        }) => s.as_str(),
        _ => return Some(format!("expected a string, but was {}", arg.type_name)),
    };
    let error = |m: &str| Some(format!("Annotation library/ref: {m}"));
    if text.is_empty() {
        return error("Expected library ref to not be empty");
    }
    let Some(rest) = text.strip_prefix('@') else {
        return error("Expected library ref to start with '@'");
    };
    for piece in rest.split('@') {
        match piece.split('~').collect::<Vec<_>>()[..] {
            [_] => {}
            [_, ""] => return error("Expected library alias to not be empty"),
            [_, _] => {}
            _ => {
                return error(&format!(
                    "Expected library ref to have form: '@path', '@~alias', or '@path~alias', got: '{text}'"
                ))
            }
        }
    }
    None
}
