//! The data values given besides the files (`--data-values-file`, `--data-values-env`,
//! `--data-value*`, and plain YAML held in memory): the documents each contributes, with
//! ytt's positions and messages.

use crate::error::{CheckError, ErrorKind};
use crate::report::SourceLines;
use crate::request::{DataValues, Request};
use crate::template::tree::{Ann, Tree, TreeKind, TreeValue};
use crate::value::{FileName, Pos, Value};
use crate::yaml::go_reader::ReaderStop;
use crate::yaml::parse::{parse_file_within, RawNode, RawValue};

/// Collections nested in `v` (a scalar is 0 deep).
fn depth(v: &TreeValue) -> usize {
    match v {
        TreeValue::Scalar(_) => 0,
        TreeValue::Map(items) | TreeValue::Array(items) => {
            1 + items.iter().map(|i| depth(&i.value)).max().unwrap_or(0)
        }
    }
}

/// `[a, b, c]`, value → `{a: {b: {c: value}}}`; the leaf item replaces what it matches (as
/// ytt's `@overlay/replace or_add=True` on values from flags). The key path's maps and the
/// value's collections together nest within the depth budget (`SCHEMAC_MAX_DEPTH`), as a
/// file's do; `context` starts the error past it.
fn nested<'k>(
    keys: impl DoubleEndedIterator<Item = &'k str> + ExactSizeIterator,
    leaf: TreeValue,
    pos: &Pos,
    context: &str,
    sources: &mut SourceLines,
) -> Result<TreeValue, CheckError> {
    let budget = crate::yaml::parse::budget::Depth::files();
    let leaf_depth = depth(&leaf);
    if keys.len().saturating_add(leaf_depth) > budget.levels {
        return Err(CheckError::new(
            ErrorKind::Usage,
            format!(
                "{context}: the key path ({} parts) and its value ({leaf_depth} deep) nest collections deeper than {} levels (raise the budget with {})",
                keys.len(),
                budget.levels,
                budget.var
            ),
        ));
    }
    let mut value = leaf;
    for (i, key) in keys.rev().enumerate() {
        let anns = if i == 0 {
            let mut anns = vec![Ann {
                name: "overlay/replace".into(),
                pos: *pos,
                args: Vec::new(),
                kwargs: vec![(
                    "or_add".into(),
                    crate::template::tree::Arg {
                        type_name: "bool".into(),
                        kind: crate::template::tree::ArgKind::Data(crate::value::Node::new(
                            Value::Bool(true),
                            *pos,
                        )),
                        go_text: None,
                    },
                )],
            }];
            if matches!(value, TreeValue::Map(_) | TreeValue::Array(_)) {
                // ytt's node for a map or array a flag gives is line 1 of a nameless text it
                // quotes as empty; the item itself stays the flag's.
                let nameless = FileName::unique("");
                sources.add_source(nameless, "");
                anns.push(Ann {
                    name: crate::template::VALUE_POS.into(),
                    pos: Pos::new(nameless, 1),
                    args: Vec::new(),
                    kwargs: Vec::new(),
                });
            }
            anns
        } else {
            Vec::new()
        };
        value = TreeValue::Map(vec![Tree {
            kind: TreeKind::MapItem(Value::Str(key.into()).into()),
            pos: *pos,
            anns: anns.into(),
            value,
        }]);
    }
    Ok(value)
}

fn relabel(tree: &mut Tree, pos: &Pos) {
    tree.pos = *pos;
    if let TreeValue::Map(items) | TreeValue::Array(items) = &mut tree.value {
        for i in items {
            relabel(i, pos);
        }
    }
}

/// The documents of the data values given besides the files, in the request's order.
pub fn documents(r: &Request, sources: &mut SourceLines) -> Result<Vec<Tree>, CheckError> {
    let mut out = Vec::new();
    // Standard input is read once, by the first flag that names it (`-f -` before these).
    let mut stdin_read = r.files.iter().any(|f| crate::inputs::reads_stdin(f));
    for source in &r.data_values {
        match source {
            DataValues::Files(path) => {
                // A library's files are read and checked, and their values dropped.
                let (lib, path) = library_ref(path, "Extracting data value from file")?;
                let io_error = |e: String| {
                    CheckError::new(
                        ErrorKind::Io,
                        format!("Extracting data value from file: {e}"),
                    )
                };
                let files = crate::inputs::data_values_files(path, &r.symlinks, &mut stdin_read)
                    .map_err(io_error)?;
                for file in files {
                    let file = file.map_err(io_error)?;
                    // ytt names the flag's path (a directory too) when it finds annotations.
                    let name = FileName::unique(&file.name);
                    let text = (&**file.yaml_text(), file.reader_stop);
                    let docs = plain_documents(name, path, text, r.strict, sources)?;
                    if lib.is_none() {
                        out.extend(docs);
                    }
                }
            }
            DataValues::Inline { name, text } => {
                // (The typed API's text: one name for every load, so that two loads of one
                // text are equal and no name is made per call.)
                let file = FileName::new(name);
                out.extend(plain_documents(
                    file,
                    name,
                    (text, None),
                    r.strict,
                    sources,
                )?)
            }
            DataValues::Env { prefix, yaml } => {
                out.extend(env_documents(prefix, *yaml, r.strict, sources)?)
            }
            DataValues::KeyValue { assignment, yaml } => {
                out.extend(key_value_document(assignment, *yaml, r.strict, sources)?)
            }
            DataValues::KeyFile(assignment) => out.extend(key_file_document(
                assignment,
                &r.symlinks,
                &mut stdin_read,
                sources,
            )?),
        }
    }
    Ok(out)
}

/// The documents of a plain YAML data values file (`--data-values-file`) named `name`;
/// `given_as` is the path the flag named. A flag's file is named with [`FileName::unique`]:
/// its lines are its own, whatever other file has its name (`-f config/` holding a
/// `values.yml` beside `--data-values-file values.yml`).
fn plain_documents(
    name: FileName,
    given_as: &str,
    (text, stop): (&str, Option<ReaderStop>),
    strict: bool,
    sources: &mut SourceLines,
) -> Result<Vec<Tree>, CheckError> {
    let file = name.as_str();
    sources.add_source(name, text);
    let depth = crate::yaml::parse::budget::Depth::files();
    let mut raw = parse_file_within(file, text, strict, depth, stop).map_err(|e| {
        CheckError::new(
            ErrorKind::Yaml,
            format!(
                "Extracting data value from file: Unmarshaling YAML data values file '{file}': {}",
                e.detail()
            ),
        )
        .at_opt((e.line > 0).then_some(Pos {
            file: name,
            line: e.line,
        }))
    })?;
    raw.file = name;
    // Comments of an empty document (annotations after the last node make one) do not count,
    // as in ytt; empty documents are dropped below.
    let annotated = raw
        .docs
        .iter()
        .filter(|d| !matches!(d.value, RawValue::Scalar(Value::Null)))
        .any(has_comments);
    if annotated {
        return Err(CheckError::new(ErrorKind::Usage, format!(
            "Extracting data value from file: Checking data values file '{given_as}': Expected to be plain YAML, having no annotations (hint: remove comments starting with `#@`)"
        )));
    }
    let file = raw.file;
    Ok(raw
        .docs
        .into_iter()
        .filter(|d| !matches!(d.value, RawValue::Scalar(Value::Null)))
        .map(|d| Tree::from_raw(d, Some(file)))
        .collect())
}

/// The document of `--data-value[-yaml] key=value` (none for a library's key).
fn key_value_document(
    kv: &str,
    yaml: bool,
    strict: bool,
    sources: &mut SourceLines,
) -> Result<Option<Tree>, CheckError> {
    let (k, v) = kv.split_once('=').ok_or_else(|| {
        CheckError::new(
            ErrorKind::Usage,
            "Extracting data value from KV: Expected format key=value",
        )
    })?;
    let full_key = k;
    let label = FileName::unique(if yaml {
        "(data-value-yaml arg)"
    } else {
        "(data-value arg)"
    });
    // ytt quotes the whole argument as the value's line, however many lines it holds.
    sources.add_source_unsplit(label, kv);
    let pos = Pos::new(label, 1);
    let leaf = if yaml {
        parse_yaml_value(
            v.as_bytes(),
            &pos,
            &format!("Extracting data value from KV: Deserializing value for key '{full_key}'"),
            strict,
            sources,
        )?
    } else {
        TreeValue::Scalar(Value::Str(v.into()))
    };
    // ytt reads the value before it looks at the key.
    let (library, k) = split_key(k, "Extracting data value from KV")?;
    // A library's value is read (ytt refuses one that does not parse), then dropped.
    if library {
        return Ok(None);
    }
    let keys: Vec<&str> = k.split('.').collect();
    let value = nested(
        keys.into_iter(),
        leaf,
        &pos,
        "Extracting data value from KV",
        sources,
    )?;
    Ok(Some(Tree::document_of(value, pos)))
}

/// The document of `--data-value-file key=path`.
fn key_file_document(
    kv: &str,
    symlinks: &crate::inputs::Symlinks,
    stdin_read: &mut bool,
    sources: &mut SourceLines,
) -> Result<Option<Tree>, CheckError> {
    let (k, path) = kv.split_once('=').ok_or_else(|| {
        CheckError::new(
            ErrorKind::Usage,
            "Extracting data value from file: Expected format key=/file/path",
        )
    })?;
    let bytes = crate::inputs::data_value_file(path, symlinks, stdin_read).map_err(|e| {
        // ytt names the step, except for a directory and a file it cannot read.
        let step = if e.ends_with("but is a directory") || e.starts_with("Reading file '") {
            String::new()
        } else {
            format!("Finding file '{path}': ")
        };
        CheckError::new(
            ErrorKind::Io,
            format!("Extracting data value from file: {step}{e}"),
        )
    })?;
    // ytt reads the file before it looks at the key.
    let Some(k) = root_key(k, "Extracting data value from file")? else {
        return Ok(None);
    };
    let label = FileName::unique(&format!("(data-value-file arg) {kv}"));
    // Bytes that are not UTF-8 are a string of bytes (`!!binary` in YAML), shown lossily.
    let (text, value) = match String::from_utf8(bytes) {
        Ok(text) => {
            let value = Value::Str(text.as_str().into());
            (text, value)
        }
        Err(e) => {
            let text = String::from_utf8_lossy(e.as_bytes()).into_owned();
            (text, Value::Bytes(e.into_bytes().into_boxed_slice()))
        }
    };
    sources.add_source_unsplit(label, &text);
    let pos = Pos::new(label, 1);
    let keys: Vec<&str> = k.split('.').collect();
    let value = nested(
        keys.into_iter(),
        TreeValue::Scalar(value),
        &pos,
        "Extracting data value from file",
        sources,
    )?;
    Ok(Some(Tree::document_of(value, pos)))
}

/// ytt's split of a flag's argument into a library reference and the rest: `@lib:rest` names
/// the library `@lib`; an argument without `@` in front, or without a `:`, is all rest.
fn library_ref<'a>(arg: &'a str, context: &str) -> Result<(Option<&'a str>, &'a str), CheckError> {
    match arg.split_once(':') {
        Some(("@", _)) => Err(CheckError::new(
            ErrorKind::Usage,
            format!("{context}: Expected library ref to not be empty"),
        )),
        Some((lib, rest)) if lib.starts_with('@') => Ok((Some(lib), rest)),
        _ => Ok((None, arg)),
    }
}

/// The key of a `[@lib:]key=value` flag (or the prefix of `--data-values-env`) when it targets
/// the root library; `None` for a library (libraries are not evaluated here, so their values
/// are dropped). `context` starts ytt's error.
fn root_key<'a>(k: &'a str, context: &str) -> Result<Option<&'a str>, CheckError> {
    let (library, key) = split_key(k, context)?;
    Ok((!library).then_some(key))
}

/// `k` without its library part (`@lib:key`), and whether it had one.
fn split_key<'a>(k: &'a str, context: &str) -> Result<(bool, &'a str), CheckError> {
    let (lib, key) = library_ref(k, context)?;
    if key.contains(':') {
        return Err(CheckError::new(
            ErrorKind::Usage,
            format!("{context}: Expected at most one library-key separator ':' in '{key}'"),
        ));
    }
    Ok((lib.is_some(), key))
}

fn has_comments(node: &RawNode) -> bool {
    !node.comments.is_empty()
        || matches!(&node.value, RawValue::Map(items) | RawValue::Array(items) if items.iter().any(has_comments))
}

/// The documents of `--data-values-env[-yaml] PREFIX`: one per variable `PREFIX_a__b`, in the
/// environment's order, keys split at `__` only (as ytt does).
fn env_documents(
    prefix: &str,
    yaml: bool,
    strict: bool,
    sources: &mut SourceLines,
) -> Result<Vec<Tree>, CheckError> {
    let in_prefix = format!("Extracting data values from env under prefix '{prefix}'");
    // A library's variables are read (ytt refuses one that does not parse), then dropped.
    let (library, prefix) = split_key(prefix, &in_prefix)?;
    let start = format!("{prefix}_");
    let mut out = Vec::new();
    for (name, value) in std::env::vars_os() {
        let Some(key) = name.as_encoded_bytes().strip_prefix(start.as_bytes()) else {
            continue;
        };
        let context = format!(
            "{in_prefix}: Extracting data value from env variable '{}'",
            name.to_string_lossy()
        );
        let Ok(key) = std::str::from_utf8(key) else {
            return Err(CheckError::new(
                ErrorKind::Usage,
                format!("{context}: schemac takes names of env variables in UTF-8 only"),
            ));
        };
        let label = FileName::unique(&format!(
            "(data-values-env{} arg) {prefix}",
            if yaml { "-yaml" } else { "" }
        ));
        if let Some(v) = value.to_str() {
            sources.add_source_unsplit(
                label,
                &format!("{key_name}={v}", key_name = name.to_string_lossy()),
            );
        }
        let pos = Pos::new(label, 1);
        let leaf = match (value.to_str(), yaml) {
            (_, true) => {
                parse_yaml_value(value.as_encoded_bytes(), &pos, &context, strict, sources)?
            }
            (Some(v), false) => TreeValue::Scalar(Value::Str(v.into())),
            (None, false) => {
                return Err(CheckError::new(ErrorKind::Usage, format!(
                    "{context}: the value is not valid UTF-8 (ytt would make it a !!binary value; schemac takes text only)"
                )))
            }
        };
        if library {
            continue;
        }
        let keys: Vec<&str> = key.split("__").collect();
        let value = nested(keys.into_iter(), leaf, &pos, &context, sources)?;
        out.push(Tree::document_of(value, pos));
    }
    Ok(out)
}

/// A value parsed as YAML; errors read `{context}: Deserializing YAML value: yaml: ...`.
///
/// ytt parses the value as a file without a name: the nodes of a collection keep positions in
/// that text (quoted as its own, even when several flags give one).
/// go-yaml's reader reads it as a file's text, 512 bytes at a time, and stops at bytes that
/// are not UTF-8 or a control character (a syntax error before them wins).
fn parse_yaml_value(
    bytes: &[u8],
    pos: &Pos,
    context: &str,
    strict: bool,
    sources: &mut SourceLines,
) -> Result<TreeValue, CheckError> {
    let (text, stop) = crate::inputs::decode_text(bytes.to_vec());
    let text = &*text;
    let depth = crate::yaml::parse::budget::Depth::files();
    let raw = parse_file_within(&pos.file, text, strict, depth, stop).map_err(|e| {
        CheckError::new(
            ErrorKind::Yaml,
            format!("{context}: Deserializing YAML value: {}", e.detail()),
        )
    })?;
    // A comment, a directive or a `...` before the first `---` makes ytt read an empty
    // document first, and the value is that document's null.
    let leading_document = raw.leading_document;
    let Some(first) = raw.docs.into_iter().next().filter(|_| !leading_document) else {
        return Ok(TreeValue::Scalar(Value::Null));
    };
    let nameless = FileName::unique("");
    sources.add_source(nameless, text);
    let mut tree = Tree::from_raw(first, Some(nameless));
    if !matches!(tree.value, TreeValue::Map(_) | TreeValue::Array(_)) {
        relabel(&mut tree, pos);
    }
    Ok(tree.value)
}
