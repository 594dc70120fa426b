//! ytt's data values pipeline, shared by `schemac check` and every built validator.
//!
//! Files → templates evaluated → schema documents overlaid and lowered to the IR (or the
//! schema built into a validator) → data values documents overlaid onto the schema's defaults
//! (type checked after each) → flags → validations → output. What differs between the
//! interpreter and a built validator is behind [`Backend`].

use std::path::Path;
use std::sync::Arc;

use crate::cli::{self, Options};
use crate::overlay::{apply_document, Mode};
use crate::report::{SchemaReport, SourceLines};
use crate::schema::Type;
use crate::template::tree::{Tree, TreeKind, TreeValue};
use crate::template::{Sources, TemplateError};
use crate::validate::Predicates;
use crate::value::{Node, Pos};
use crate::yaml::parse::{parse_file, RawFile, RawKind, RawNode, RawValue};
use crate::{typecheck, validate};

/// What the interpreter and a built validator do differently.
pub trait Backend {
    /// Evaluates a template file (Starlark, or annotations only in validators built without it).
    /// The file is consumed: its nodes may move into the trees.
    fn eval_template(&self, raw: RawFile, files: &Sources) -> Result<Vec<Tree>, TemplateError>;
    /// Runs custom rules and `when=` predicates.
    fn predicates(&self) -> &dyn Predicates;
    /// The schema: lowered from the schema documents given (`files` names their files), or
    /// the one built in. `Err` is the text after ytt's `Overlaying data values schema (...): `.
    fn schema(&self, docs: Option<&Tree>, sources: &SourceLines) -> Result<Option<Type>, String>;
    /// The OpenAPI document of `--data-values-schema-inspect -o openapi-v3`.
    fn openapi(&self, schema: Option<&Type>) -> Node;
    /// Files whose lines reports may quote besides those given (a built-in schema's).
    fn builtin_sources(&self) -> &[(&str, &str)] {
        &[]
    }
}

/// A failed run: the message ytt prints after `Error: `.
#[derive(Debug)]
pub struct CheckError(pub String);

/// An input file as given with `-f` (directories expanded).
struct Input {
    name: String,
    /// Shared with the source lines reports quote and the files templates may load.
    text: Arc<str>,
}

fn read_inputs(paths: &[String]) -> Result<Vec<Input>, CheckError> {
    let mut out = Vec::new();
    for p in paths {
        let path = Path::new(p);
        if path.is_dir() {
            let mut files = Vec::new();
            collect_dir(path, &mut files);
            files.sort();
            for f in files {
                let text = Arc::from(std::fs::read_to_string(&f).unwrap_or_default());
                // ytt names a file found in a directory by its path inside that directory.
                let name = Path::new(&f).strip_prefix(path).map_or(f.clone(), |r| r.to_string_lossy().to_string());
                out.push(Input { name, text });
            }
        } else {
            let text = std::fs::read_to_string(path).map_err(|e| {
                CheckError(format!("Checking file '{p}': {}", io_message(&e)))
            })?;
            out.push(Input { name: p.clone(), text: Arc::from(text) });
        }
    }
    Ok(out)
}

pub fn io_message(e: &std::io::Error) -> String {
    match e.kind() {
        std::io::ErrorKind::NotFound => "lstat: no such file or directory".into(),
        _ => e.to_string(),
    }
}

fn collect_dir(dir: &Path, out: &mut Vec<String>) {
    let Ok(entries) = std::fs::read_dir(dir) else { return };
    for e in entries.flatten() {
        let p = e.path();
        if p.is_dir() {
            collect_dir(&p, out);
        } else {
            out.push(p.to_string_lossy().to_string());
        }
    }
}

fn is_yaml(name: &str) -> bool {
    name.ends_with(".yml") || name.ends_with(".yaml")
}

fn doc_annotation(doc: &RawNode) -> Option<&'static str> {
    for c in &doc.comments {
        let name = c.text.split_whitespace().next().unwrap_or("");
        if name == "data/values-schema" {
            return Some("data/values-schema");
        }
        if name == "data/values" {
            return Some("data/values");
        }
    }
    None
}

/// The schema and values documents of every input, in order.
struct Documents {
    schema: Vec<Tree>,
    schema_files: Vec<String>,
    values: Vec<Tree>,
    values_files: Vec<String>,
}

fn template_error(e: &TemplateError, sources: &SourceLines) -> String {
    let mut s = format!("Templating file '{}': \n- {}", e.file, e.message);
    if let Some(line) = e.line {
        let src = sources.line(&e.file, line).trim();
        if e.compile_time {
            s.push_str(&format!("\n    {}:{} | {}", e.file, line, src));
        } else {
            s.push_str(&format!("\n    in <toplevel>\n      {}:{} | {}", e.file, line, src));
        }
    }
    s
}

fn load_documents(inputs: &[Input], opts: &Options, sources: &mut SourceLines, backend: &dyn Backend) -> Result<Documents, CheckError> {
    let star = Sources {
        files: inputs.iter().map(|i| (i.name.clone(), Arc::clone(&i.text))).collect(),
    };
    let mut docs = Documents { schema: vec![], schema_files: vec![], values: vec![], values_files: vec![] };
    for input in inputs.iter().filter(|i| is_yaml(&i.name)) {
        sources.add_shared(&input.name, Arc::clone(&input.text));
        let raw = parse_file(&input.name, &input.text, opts.strict).map_err(|e| {
            let detail = match e.strict {
                Some(msg) => format!("yaml: Strict parsing: {msg}"),
                None => format!("yaml: line {}: {}", e.line, e.message),
            };
            CheckError(format!("Unmarshaling YAML template '{}': {}", input.name, detail))
        })?;
        let kinds: Vec<Option<&str>> = raw.docs.iter().map(doc_annotation).collect();
        if kinds.iter().all(Option::is_none) {
            check_misplaced(&raw)?;
            continue;
        }
        let has_schema = kinds.contains(&Some("data/values-schema"));
        let (mut schema_here, mut values_here) = (false, false);
        let trees = backend.eval_template(raw, &star).map_err(|e| {
            let phase = if has_schema { "Overlaying data values schema" } else { "Overlaying data values" };
            CheckError(format!("{phase} (in following order: {}): {}", input.name, template_error(&e, sources)))
        })?;
        for tree in trees {
            if tree.kind != TreeKind::Document {
                continue;
            }
            if let Some(ann) = tree.ann("data/values") {
                if let Some((k, _)) = ann.kwargs.iter().find(|(k, _)| k != "library_ref" && k != "after_library_module") {
                    return Err(CheckError(format!(
                        "Overlaying data values (in following order: {}): Unknown kwarg {k} for annotation data/values",
                        input.name
                    )));
                }
            }
            let plain = tree.ann("data/values-schema").is_none() && tree.ann("data/values").is_none();
            let empty = match &tree.value {
                TreeValue::Scalar(v) => v.is_null(),
                TreeValue::Map(items) | TreeValue::Array(items) => items.is_empty(),
            };
            if plain && !(tree.anns.is_empty() && empty) {
                let (phase, what) = if has_schema {
                    ("Overlaying data values schema", "Expected schema file '{}' to only have schema documents")
                } else {
                    ("Overlaying data values", "Expected data values file '{}' to only have data values documents")
                };
                return Err(CheckError(format!(
                    "{phase} (in following order: {}): Templating file '{}': {}",
                    input.name,
                    input.name,
                    what.replace("{}", &input.name)
                )));
            }
            if tree.ann("data/values-schema").is_some() {
                docs.schema.push(tree);
                schema_here = true;
            } else if tree.ann("data/values").is_some() {
                docs.values.push(tree);
                values_here = true;
            }
        }
        // The phase messages list each file once, however many documents it has.
        if schema_here {
            docs.schema_files.push(input.name.clone());
        }
        if values_here {
            docs.values_files.push(input.name.clone());
        }
    }
    Ok(docs)
}

/// `#@data/values` on anything but a document is an error.
fn check_misplaced(raw: &RawFile) -> Result<(), CheckError> {
    fn walk(node: &RawNode, file: &str) -> Result<(), CheckError> {
        if node.kind != RawKind::Document {
            for c in &node.comments {
                let name = c.text.split_whitespace().next().unwrap_or("");
                if name == "data/values" || name == "data/values-schema" {
                    let what = match node.kind {
                        RawKind::MapItem(_) => "map item",
                        _ => "array item",
                    };
                    return Err(CheckError(format!(
                        "Found @{name} on {what} ({file}:{}); only documents (---) can be annotated with @{name}",
                        node.line
                    )));
                }
            }
        }
        if let RawValue::Map(items) | RawValue::Array(items) = &node.value {
            for i in items {
                walk(i, file)?;
            }
        }
        Ok(())
    }
    for d in &raw.docs {
        walk(d, &raw.name)?;
    }
    Ok(())
}

fn order(files: &[String], extra: bool) -> String {
    let mut names = files.to_vec();
    if extra {
        names.push("additional data values".into());
    }
    names.join(", ")
}

/// The schema of the schema documents (which are consumed).
fn schema_of(docs: &mut Documents, sources: &SourceLines, backend: &dyn Backend) -> Result<Option<Type>, CheckError> {
    let prefix = format!("Overlaying data values schema (in following order: {}): ", order(&docs.schema_files, false));
    let mut merged: Option<Tree> = None;
    for doc in std::mem::take(&mut docs.schema) {
        merged = Some(apply_document(merged, doc, Mode::default()).map_err(|e| CheckError(format!("{prefix}{}", e.render())))?);
    }
    backend.schema(merged.as_ref(), sources).map_err(|e| CheckError(format!("{prefix}{e}")))
}

/// Fills defaults into `tree` and checks it.
fn type_check(tree: &mut Tree, schema: Option<&Type>, sources: &SourceLines, prefix: &str) -> Result<(), CheckError> {
    let Some(ty) = schema else { return Ok(()) };
    typecheck::fill_defaults(tree, ty);
    let violations = typecheck::check_tree(tree, ty);
    if violations.is_empty() {
        return Ok(());
    }
    let report = SchemaReport {
        summary: "One or more data values were invalid".into(),
        failures: violations.iter().map(|v| v.to_failure(sources)).collect(),
        misc: String::new(),
    };
    Err(CheckError(format!("{prefix}{}", report.render())))
}

/// Reads the schema in `files` (schema documents and `.star` helpers): the IR and the text of
/// every file read.
pub fn load_schema(files: &[String], backend: &dyn Backend) -> Result<(Option<Type>, Vec<(String, String)>), CheckError> {
    load_schema_inputs(read_inputs(files)?, backend)
}

/// [`load_schema`] for files named otherwise than their paths: `(name, path)` pairs.
pub fn load_schema_named(files: &[(String, std::path::PathBuf)], backend: &dyn Backend) -> Result<(Option<Type>, Vec<(String, String)>), CheckError> {
    let mut inputs = Vec::new();
    for (name, path) in files {
        let text = std::fs::read_to_string(path)
            .map_err(|e| CheckError(format!("Checking file '{name}': {} ({})", io_message(&e), path.display())))?;
        inputs.push(Input { name: name.clone(), text: Arc::from(text) });
    }
    load_schema_inputs(inputs, backend)
}

fn load_schema_inputs(inputs: Vec<Input>, backend: &dyn Backend) -> Result<(Option<Type>, Vec<(String, String)>), CheckError> {
    let mut sources = SourceLines::default();
    let opts = Options::default();
    let mut docs = load_documents(&inputs, &opts, &mut sources, backend)?;
    if !docs.values.is_empty() {
        return Err(CheckError(format!(
            "Expected only schema files, but {} has data values documents",
            docs.values_files.join(", ")
        )));
    }
    let schema = schema_of(&mut docs, &sources, backend)?;
    Ok((schema, inputs.into_iter().map(|i| (i.name, i.text.to_string())).collect()))
}

/// What a run produces: the final data values, or the schema's OpenAPI document.
pub enum Outcome {
    DataValues(Node),
    OpenApi(Node),
    /// The data values broke validation rules.
    Invalid(Vec<validate::Violation>),
}

/// What a run leaves in memory: its outcome, the data values as a tree, the schema. A process
/// that exits next may leak it (`std::mem::forget`) rather than free it node by node, which
/// costs about as much as type checking those nodes did.
pub struct Leftovers {
    outcome: Outcome,
    /// Held only to go with the rest (freed or leaked).
    _tree: Option<Tree>,
    _schema: Option<Type>,
}

/// Runs the pipeline; returns what goes to stdout.
pub fn run(opts: &Options, backend: &dyn Backend) -> Result<String, CheckError> {
    run_keeping(opts, backend).map(|(out, _)| out)
}

/// [`run`], also handing back the memory the run used.
pub fn run_keeping(opts: &Options, backend: &dyn Backend) -> Result<(String, Leftovers), CheckError> {
    let leftovers = evaluate_keeping(opts, backend)?;
    let out = match &leftovers.outcome {
        Outcome::Invalid(violations) => return Err(CheckError(validate::render(violations))),
        Outcome::OpenApi(doc) => crate::yaml::emit::to_yaml(&doc.value),
        Outcome::DataValues(result) => match opts.output.as_deref() {
            Some("json") => crate::yaml::json::to_json(&result.value),
            _ => crate::yaml::emit::to_yaml(&result.value),
        },
    };
    Ok((out, leftovers))
}

/// Runs the pipeline up to its result.
pub fn evaluate(opts: &Options, backend: &dyn Backend) -> Result<Outcome, CheckError> {
    evaluate_keeping(opts, backend).map(|leftovers| leftovers.outcome)
}

fn evaluate_keeping(opts: &Options, backend: &dyn Backend) -> Result<Leftovers, CheckError> {
    let done = |outcome: Outcome| Ok(Leftovers { outcome, _tree: None, _schema: None });
    if opts.output.is_some() && !opts.schema_inspect && opts.output.as_deref() != Some("json") && opts.output.as_deref() != Some("yaml") {
        if opts.output.as_deref() == Some("openapi-v3") {
            return Err(CheckError(
                "Output type currently only supported for data values schema (i.e. include --data-values-schema-inspect)".into(),
            ));
        }
    }
    if opts.schema_inspect && opts.output.as_deref() != Some("openapi-v3") {
        return Err(CheckError(
            "Data values schema export only supported in OpenAPI v3 format; specify format with --output=openapi-v3 flag".into(),
        ));
    }
    let inputs = read_inputs(&opts.files)?;
    let mut sources = SourceLines::default();
    for (name, text) in backend.builtin_sources() {
        sources.add(name, text);
    }
    let mut docs = load_documents(&inputs, opts, &mut sources, backend)?;
    let schema = schema_of(&mut docs, &sources, backend)?;
    if opts.schema_inspect {
        return done(Outcome::OpenApi(backend.openapi(schema.as_ref())));
    }

    let additional = cli::additional_documents(opts, &mut sources)?;
    let prefix = format!(
        "Overlaying data values (in following order: {}): ",
        order(&docs.values_files, !additional.is_empty())
    );
    let mut current: Option<Tree> = schema.as_ref().map(|s| Tree::document(&s.default));
    let transfer_validations = schema.is_none();
    // `#@data/values` documents overlay with ytt's defaults; flags and plain files as if every
    // key were `missing_ok` and arrays were replaced.
    let documents = docs.values.into_iter().map(|d| (d, Mode { transfer_validations, ..Mode::default() }));
    let flags = additional.into_iter().map(|d| (d, Mode { missing_ok: true, replace_arrays: true, transfer_validations }));
    for (doc, mode) in documents.chain(flags) {
        let mut merged = apply_document(current, doc, mode).map_err(|e| CheckError(format!("{prefix}{}", e.render())))?;
        type_check(&mut merged, schema.as_ref(), &sources, &prefix)?;
        current = Some(merged);
    }
    let Some(mut result) = current else { return done(Outcome::DataValues(Node::null(Pos::unknown()))) };
    let node = result.take_node();
    if !opts.disable_validation {
        let violations = validate::validate(&result, &node, schema.as_ref(), backend.predicates())
            .map_err(|e| CheckError(format!("Validating final data values:\n{e}")))?;
        if !violations.is_empty() {
            return done(Outcome::Invalid(violations));
        }
    }
    Ok(Leftovers { outcome: Outcome::DataValues(node), _tree: Some(result), _schema: schema })
}

