//! ytt's data values pipeline, shared by `schemac check` and every built validator.
//!
//! Files → templates evaluated → schema documents overlaid and lowered to the IR (or the
//! schema built into a validator) → data values documents overlaid onto the schema's defaults
//! (type checked after each) → flags → validations → output. What differs between the
//! interpreter and a built validator is behind [`Backend`].

use std::sync::Arc;

use crate::overlay::{apply_document, Mode};
use crate::report::{SchemaReport, SourceLines};
use crate::request::Request;
use crate::schema::Type;
use crate::template::functions::Functions;
use crate::template::tree::{Tree, TreeKind, TreeValue};
use crate::template::{Sources, TemplateError};
use crate::validate::Predicates;
use crate::value::{FileName, Node, Pos};
use crate::yaml::parse::{
    parse_file_keeping_key_errors, RawFile, RawKind, RawNode, RawValue, SyntaxError,
};
use crate::{typecheck, validate};

/// What the interpreter and a built validator do differently.
pub trait Backend {
    /// Evaluates a template file (Starlark, or annotations only in validators built without it).
    /// The file is consumed: its nodes may move into the trees.
    fn eval_template(&self, raw: RawFile, files: &Sources) -> Result<Vec<Tree>, TemplateError>;
    /// The table a run's kept functions start from: a built validator's holds its schema's
    /// (or reserves their indices), so the functions of the run's files come after them.
    fn functions(&self) -> Functions {
        Functions::default()
    }
    /// How many templates ytt compiled for a built-in schema (its files and the `.star` files
    /// they load) before the run's files: ytt numbers templates in one sequence
    /// (`__ytt_tpl3_...` in messages), so the run's are numbered after them.
    fn schema_templates(&self) -> u32 {
        0
    }
    /// Runs `run` with the calls of custom rules, `when=` predicates and overlay functions;
    /// `functions` is what the run's templates kept.
    fn with_predicates(&self, functions: &Functions, run: &mut dyn FnMut(&dyn Predicates));
    /// The schema: lowered from the schema documents given (`files` names their files), or
    /// the one built in. The error's message is the text after ytt's
    /// `Overlaying data values schema (...): `. Shared, so that a built-in schema is not copied
    /// for each run.
    fn schema(
        &self,
        docs: Option<&Tree>,
        sources: &SourceLines,
    ) -> Result<Option<Arc<Type>>, CheckError>;
    /// The OpenAPI document of `--data-values-schema-inspect -o openapi-v3`.
    fn openapi(&self, schema: Option<&Type>) -> Node;
    /// The JSON Schema of `--data-values-schema-inspect -o json-schema`.
    fn json_schema(&self, schema: Option<&Type>) -> Node;
    /// Files whose lines reports may quote besides those given (a built-in schema's).
    fn builtin_sources(&self) -> &[(&str, &str)] {
        &[]
    }
}

pub use crate::error::{CheckError, ErrorKind};

use crate::inputs::InputFile as Input;

fn read_inputs(paths: &[String]) -> Result<Vec<Input>, CheckError> {
    crate::inputs::read_files(paths).map_err(|m| CheckError::new(ErrorKind::Io, m))
}

/// A YAML template of the root library: not a library file (`*.lib.yml`, only evaluated when
/// loaded) and not in a private library (`_ytt_lib/`), which ytt leaves out of the root.
fn is_yaml(name: &str) -> bool {
    let library = name.ends_with(".lib.yml")
        || name.ends_with(".lib.yaml")
        || name.split('/').rev().skip(1).any(|dir| dir == "_ytt_lib");
    (name.ends_with(".yml") || name.ends_with(".yaml")) && !library
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
    /// The functions the templates passed to annotations.
    functions: Functions,
    /// How many templates were compiled (ytt's numbering, see [`Sources::next_template_id`]).
    templates: u32,
}

fn template_error(e: &TemplateError, sources: &SourceLines) -> String {
    format!("Templating file '{}': \n{}", e.file, error_text(e, sources))
}

/// A template error as ytt lists it: `- MESSAGE`, where it happened, and its reason.
fn error_text(e: &TemplateError, sources: &SourceLines) -> String {
    // ytt shows the first line of a message, the call stack, then the rest as the `reason:`.
    let (first, reason) = match e.message.split_once('\n') {
        Some((first, rest)) => (first, Some(rest)),
        None => (e.message.as_str(), None),
    };
    let mut s = format!("- {first}");
    s.push_str(&call_stack_text(e, sources));
    // The error of a file that `load()` ran is shown whole as the reason.
    let loaded = e.reason.as_ref().map(|r| error_text(r, sources));
    if let Some(reason) = loaded.as_deref().or(reason) {
        s.push_str("\n\n    reason:");
        for line in reason.split('\n') {
            s.push_str("\n     ");
            s.push_str(line);
        }
    }
    s
}

/// A frame's place: `F:LINE`, or `LINE` alone in a `.star` file (ytt names templates only).
fn place(file: &str, line: u32) -> String {
    if file.ends_with(".star") {
        line.to_string()
    } else {
        format!("{file}:{line}")
    }
}

/// Where a template error happened: its call stack, or its line in the template.
fn call_stack_text(e: &TemplateError, sources: &SourceLines) -> String {
    let mut s = String::new();
    for frame in &e.stack {
        // A builtin module's own Starlark (`assert.min`) has no source to quote.
        let src = if sources.has(&frame.file) {
            sources.line(&frame.file, frame.line)
        } else {
            "(unavailable)"
        };
        s.push_str(&format!(
            "\n    in {}\n      {} | {src}",
            frame.function,
            place(&frame.file, frame.line)
        ));
    }
    if !e.stack.is_empty() {
        return s;
    }
    if let Some(line) = e.line {
        let src = sources.line(&e.file, line);
        let at = place(&e.file, line);
        if e.compile_time {
            s.push_str(&format!("\n    {at} | {src}"));
            for (line, message) in &e.also {
                let src = sources.line(&e.file, *line);
                let at = place(&e.file, *line);
                s.push_str(&format!("\n- {message}\n    {at} | {src}"));
            }
        } else {
            s.push_str(&format!("\n    in <toplevel>\n      {at} | {src}"));
        }
    }
    s
}

/// What ytt refuses in a template's YAML and comments before it runs any code, the earliest in
/// the file: an unknown comment (unless `ignore_unknown_comments`), or a node with both a YAML
/// value and code computing one on its line. Its line and ytt's message.
fn compile_error(raw: &RawFile, ignore_unknown_comments: bool) -> Option<(u32, String)> {
    let unknown = raw
        .unknown_comment
        .as_ref()
        .filter(|_| !ignore_unknown_comments)
        .map(|c| {
            let message = format!(
                "Failed to parse line {}: '#{}': Expected ytt-formatted string (use '#@' for annotations or code, '#!' for comments)",
                c.line, c.text
            );
            (c.line, message)
        });
    let both = crate::template::compile::value_with_code(raw).map(|line| {
        let message = format!(
            "Expected YAML node at line {}:{line} to have either computed or YAML value, but found both",
            raw.name
        );
        (line, message)
    });
    [unknown, both]
        .into_iter()
        .flatten()
        .min_by_key(|(line, _)| *line)
}

/// `schema_done` runs once the schema files are evaluated, before the data values files are:
/// ytt reports a schema's errors before any of a data values template's.
/// `additional` says whether the data values flags and plain files gave any document (ytt's
/// errors then name `additional data values` after the files).
fn load_documents(
    inputs: &[Input],
    opts: &Request,
    additional: bool,
    sources: &mut SourceLines,
    backend: &dyn Backend,
    schema_done: &mut dyn FnMut(&mut Documents, &SourceLines) -> Result<(), CheckError>,
) -> Result<Documents, CheckError> {
    let star = Sources::with_functions(
        inputs
            .iter()
            .map(|i| (i.name.clone(), Arc::clone(&i.text)))
            .collect(),
        backend.functions(),
    );
    star.compiled.store(
        backend.schema_templates(),
        std::sync::atomic::Ordering::Relaxed,
    );
    let mut docs = Documents {
        schema: vec![],
        schema_files: vec![],
        values: vec![],
        values_files: vec![],
        functions: star.functions.clone(),
        templates: 0,
    };
    // Every file is read before any is evaluated; schema files are evaluated first.
    let mut templates = Vec::new();
    for input in inputs.iter().filter(|i| i.name.ends_with(".star")) {
        // For the lines of call-stack frames in them.
        sources.add_shared(&input.name, Arc::clone(&input.text));
    }
    // Files of the same name (`-f base/values.yml -f prod/values.yml`) each quote their own
    // lines.
    let mut names_seen = std::collections::HashMap::new();
    for input in inputs.iter().filter(|i| is_yaml(&i.name)) {
        *names_seen.entry(input.name.as_str()).or_insert(0) += 1;
    }
    for input in inputs.iter().filter(|i| is_yaml(&i.name)) {
        sources.add_shared(&input.name, Arc::clone(&input.text));
        let alike = names_seen.get(input.name.as_str()) > Some(&1);
        if let Some(error) = input.encoding_error {
            return Err(CheckError::new(
                ErrorKind::Yaml,
                format!("Unmarshaling YAML template '{}': yaml: {error}", input.name),
            ));
        }
        let raw = parse_file_keeping_key_errors(&input.name, &input.text, opts.strict)
            .map_err(|e| yaml_error(&input.name, &e))?;
        // ytt refuses a misplaced `#@data/values-schema` as soon as it has read the file.
        if input.text.contains("data/values-schema") {
            check_misplaced(&raw, &["data/values-schema"])?;
        }
        let mut raw = raw;
        if alike {
            raw.file = FileName::unique(&input.name);
            sources.add_source(raw.file, &input.text);
        }
        if opts.implicit_map_key_overrides {
            allow_key_overrides(&mut raw.docs);
        }
        templates.push((input, raw, false));
    }
    // Then each file's data values annotations are checked, and files without any dropped:
    // schema files now, the others' first error once the schema is built (ytt reads data
    // values after the schema). With --data-values-schema-inspect, ytt looks at the schema
    // files only.
    let mut values_misplaced = None;
    for (_, raw, _) in &templates {
        let schema_file = raw
            .docs
            .iter()
            .any(|d| doc_annotation(d) == Some("data/values-schema"));
        if schema_file {
            check_misplaced(raw, &ANNOTATIONS)?;
        } else if !opts.schema_inspect && values_misplaced.is_none() {
            values_misplaced = check_misplaced(raw, &ANNOTATIONS).err();
        }
    }
    let values_misplaced_found = values_misplaced.is_some();
    let mut schema_done = |docs: &mut Documents, sources: &SourceLines| {
        schema_done(docs, sources)?;
        values_misplaced.take().map_or(Ok(()), Err)
    };
    templates.retain_mut(|(_, raw, has_schema)| {
        let kinds: Vec<Option<&str>> = raw.docs.iter().map(doc_annotation).collect();
        *has_schema = kinds.contains(&Some("data/values-schema"));
        kinds.iter().any(Option::is_some)
    });
    // (A misplaced `#@data/values` is the error then, reported after the schema as ytt does.)
    if opts.files_give_values && !values_misplaced_found {
        let gives = |name: &str| templates.iter().any(|(i, _, _)| i.name == name);
        if let Some(input) = inputs.iter().find(|i| is_yaml(&i.name) && !gives(&i.name)) {
            return Err(CheckError::new(ErrorKind::Usage, format!(
                "Checking file '{}': it has no `#@data/values` or `#@data/values-schema` document (plain YAML data values are read as data values files)",
                input.name
            )));
        }
    }
    templates.sort_by_key(|(_, _, has_schema)| !has_schema);
    // A template error names every file of its phase (and the flags' data values).
    let names = |schema: bool| -> Vec<String> {
        templates
            .iter()
            .filter(|t| t.2 == schema)
            .map(|t| t.0.name.clone())
            .collect()
    };
    let (schema_names, values_names) = (names(true), names(false));
    let mut schema_pending = true;
    for (input, raw, has_schema) in templates {
        if !has_schema && schema_pending {
            schema_pending = false;
            schema_done(&mut docs, sources)?;
        }
        if !has_schema && opts.schema_inspect {
            break;
        }
        let (mut schema_here, mut values_here) = (false, false);
        // The phase this file is read in, and the files ytt names in its errors.
        let (phase, files) = if has_schema {
            ("Overlaying data values schema", order(&schema_names, false))
        } else {
            ("Overlaying data values", order(&values_names, additional))
        };
        if let Some((line, detail)) = compile_error(&raw, opts.ignore_unknown_comments) {
            let name = &input.name;
            return Err(CheckError::new(
                ErrorKind::Template,
                format!(
                    "{phase} (in following order: {files}): Templating file '{name}': Compiling YAML template '{name}': {detail}"
                ),
            )
            .at(Pos::new(name.as_str(), line)));
        }
        // A map key that is a collection fails when ytt evaluates the file (in Go's words and
        // with a Go stack trace, which are not repeated here).
        if let Some(e) = &raw.non_scalar_key {
            return Err(yaml_error(&input.name, e));
        }
        let trees = backend.eval_template(raw, &star).map_err(|e| {
            // Its lines are this file's, whatever other file shares its name.
            let mut sources = sources.clone();
            sources.add_shared(&input.name, Arc::clone(&input.text));
            CheckError::new(
                ErrorKind::Template,
                format!(
                    "{phase} (in following order: {files}): {}",
                    template_error(&e, &sources)
                ),
            )
            .at_opt(e.line.map(|line| Pos::new(e.file.as_str(), line)))
        })?;
        let first_schema_doc = docs.schema.len();
        for tree in trees {
            if tree.kind != TreeKind::Document {
                continue;
            }
            if let Some(ann) = tree.ann("data/values") {
                if let Some((k, _)) = ann
                    .kwargs
                    .iter()
                    .find(|(k, _)| k != "library_ref" && k != "after_library_module")
                {
                    return Err(CheckError::new(ErrorKind::Template, format!(
                        "Overlaying data values (in following order: {}): Unknown kwarg {k} for annotation data/values",
                        input.name
                    )).at(ann.pos));
                }
            }
            // A schema file holds schema documents only (a data values document included); a
            // data values file, data values documents only.
            let misplaced = if has_schema {
                tree.ann("data/values-schema").is_none()
            } else {
                tree.ann("data/values").is_none()
            };
            let empty = match &tree.value {
                TreeValue::Scalar(v) => v.is_null(),
                TreeValue::Map(items) | TreeValue::Array(items) => items.is_empty(),
            };
            if misplaced && !empty {
                let what = if has_schema {
                    "Expected schema file '{}' to only have schema documents"
                } else {
                    "Expected data values file '{}' to only have data values documents"
                };
                return Err(CheckError::new(
                    ErrorKind::Template,
                    format!(
                        "{phase} (in following order: {files}): Templating file '{}': {}",
                        input.name,
                        what.replace("{}", &input.name)
                    ),
                )
                .at(tree.pos));
            }
            if tree.ann("library/ref").is_some() {
                // Data values for a library (`#@library/ref "@lib"`), not for the root.
                continue;
            }
            if tree.ann("data/values-schema").is_some() {
                docs.schema.push(tree);
                schema_here = true;
            } else if tree.ann("data/values").is_some() {
                docs.values.push(tree);
                values_here = true;
            }
        }
        // ytt checks each schema document on its own as soon as its file is evaluated, so an
        // error in one comes before any of a later schema file's (see also `schema_of`).
        if schema_here && schema_names.len() > 1 {
            let prefix = format!("{phase} (in following order: {files}): ");
            for doc in &docs.schema[first_schema_doc..] {
                backend
                    .schema(Some(doc), sources)
                    .map_err(|e| e.prefixed(&prefix))?;
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
    if schema_pending {
        schema_done(&mut docs, sources)?;
    }
    docs.templates = star.compiled.load(std::sync::atomic::Ordering::Relaxed);
    Ok(docs)
}

/// `--implicit-map-key-overrides`: every map item may replace an earlier one with its key, as
/// if it said `#@yaml/map-key-override` (which is how ytt implements the flag).
fn allow_key_overrides(nodes: &mut [RawNode]) {
    for node in nodes {
        if matches!(node.kind, RawKind::MapItem(_)) {
            node.comments.push(crate::yaml::parse::Comment {
                line: node.line,
                text: crate::template::MAP_KEY_OVERRIDE.to_string(),
            });
        }
        if let RawValue::Map(items) | RawValue::Array(items) = &mut node.value {
            allow_key_overrides(items);
        }
    }
}

/// A YAML error in file `name`.
fn yaml_error(name: &str, e: &SyntaxError) -> CheckError {
    CheckError::new(
        ErrorKind::Yaml,
        format!("Unmarshaling YAML template '{name}': {}", e.detail()),
    )
    .at_opt((e.line > 0).then(|| Pos::new(name, e.line)))
}

/// The annotations that mark data values documents.
const ANNOTATIONS: [&str; 2] = ["data/values", "data/values-schema"];

/// `#@data/values` (or another of `names`) on anything but a document is an error, and so is a
/// document that has it twice.
fn check_misplaced(raw: &RawFile, names: &[&str]) -> Result<(), CheckError> {
    fn walk(node: &RawNode, file: &str, names: &[&str]) -> Result<(), CheckError> {
        if node.kind == RawKind::Document {
            for &name in names {
                let count = node
                    .comments
                    .iter()
                    .filter(|c| c.text.split_whitespace().next() == Some(name))
                    .count();
                if count > 1 {
                    return Err(CheckError::new(
                        ErrorKind::Template,
                        format!("{name} annotation may only be used once per document"),
                    )
                    .at(Pos::new(file, node.line)));
                }
            }
        } else {
            for c in &node.comments {
                let name = c.text.split_whitespace().next().unwrap_or("");
                if names.contains(&name) {
                    let what = match node.kind {
                        RawKind::MapItem(_) => "map item",
                        _ => "array item",
                    };
                    return Err(CheckError::new(ErrorKind::Template, format!(
                        "Found @{name} on {what} ({file}:{}); only documents (---) can be annotated with @{name}",
                        node.line
                    )).at(Pos::new(file, node.line)));
                }
            }
        }
        if let RawValue::Map(items) | RawValue::Array(items) = &node.value {
            for i in items {
                walk(i, file, names)?;
            }
        }
        Ok(())
    }
    for d in &raw.docs {
        walk(d, &raw.name, names)?;
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
fn schema_of(
    docs: &mut Documents,
    sources: &SourceLines,
    backend: &dyn Backend,
) -> Result<Option<Arc<Type>>, CheckError> {
    let prefix = format!(
        "Overlaying data values schema (in following order: {}): ",
        order(&docs.schema_files, false)
    );
    // ytt checks each schema document on its own before overlaying them.
    if docs.schema.len() > 1 {
        for doc in &docs.schema {
            backend
                .schema(Some(doc), sources)
                .map_err(|e| e.prefixed(&prefix))?;
        }
    }
    let mut merged: Option<Tree> = None;
    for doc in std::mem::take(&mut docs.schema) {
        merged = Some(
            apply_document(merged, doc, Mode::default(), None).map_err(|e| {
                CheckError::new(ErrorKind::Schema, format!("{prefix}{}", e.render()))
            })?,
        );
    }
    backend
        .schema(merged.as_ref(), sources)
        .map_err(|e| e.prefixed(&prefix))
}

/// Fills defaults into `tree` and checks it.
fn type_check(
    tree: &mut Tree,
    schema: Option<&Type>,
    sources: &SourceLines,
    prefix: &str,
) -> Result<(), CheckError> {
    let Some(ty) = schema else { return Ok(()) };
    let violations = typecheck::fill_and_check(tree, ty);
    if violations.is_empty() {
        return Ok(());
    }
    let report = SchemaReport {
        summary: "One or more data values were invalid".into(),
        failures: violations.iter().map(|v| v.to_failure(sources)).collect(),
        misc: String::new(),
    };
    Err(
        CheckError::new(ErrorKind::TypeCheck, format!("{prefix}{}", report.render()))
            .at_opt(report.first_pos()),
    )
}

/// A schema as read.
pub struct LoadedSchema {
    /// Its IR (none when the files declare no schema).
    pub schema: Option<Type>,
    /// The text of every file read, as `(name, text)`.
    pub sources: Vec<(String, String)>,
    /// How many values its templates kept for annotations (see [`Functions`]).
    pub functions: usize,
    /// How many templates its evaluation compiled (see [`Backend::schema_templates`]).
    pub templates: u32,
}

/// Reads the schema in `files` (schema documents and `.star` helpers): the IR and the text of
/// every file read.
pub fn load_schema(files: &[String], backend: &dyn Backend) -> Result<LoadedSchema, CheckError> {
    load_schema_inputs(read_inputs(files)?, backend)
}

/// [`load_schema`] for files named otherwise than their paths: `(name, path)` pairs.
pub fn load_schema_named(
    files: &[(String, std::path::PathBuf)],
    backend: &dyn Backend,
) -> Result<LoadedSchema, CheckError> {
    let mut inputs = Vec::new();
    for (name, path) in files {
        if let Err(e) = std::fs::metadata(path) {
            return Err(CheckError::new(
                ErrorKind::Io,
                format!(
                    "Checking file '{name}': {}",
                    crate::inputs::lstat_message(name, &e)
                ),
            ));
        }
        let input = crate::inputs::read_regular(path, name.clone())
            .map_err(|e| CheckError::new(ErrorKind::Io, e.for_template()))?;
        inputs.push(input);
    }
    load_schema_inputs(inputs, backend)
}

fn load_schema_inputs(
    inputs: Vec<Input>,
    backend: &dyn Backend,
) -> Result<LoadedSchema, CheckError> {
    let mut sources = SourceLines::default();
    let opts = Request::default();
    let mut docs = load_documents(&inputs, &opts, false, &mut sources, backend, &mut |_, _| {
        Ok(())
    })?;
    if !docs.values.is_empty() {
        return Err(CheckError::new(
            ErrorKind::Usage,
            format!(
                "Expected only schema files, but {} has data values documents",
                docs.values_files.join(", ")
            ),
        ));
    }
    let schema = schema_of(&mut docs, &sources, backend)?
        .map(|s| Arc::try_unwrap(s).unwrap_or_else(|shared| (*shared).clone()));
    Ok(LoadedSchema {
        schema,
        sources: inputs
            .into_iter()
            .map(|i| (i.name, i.text.to_string()))
            .collect(),
        functions: docs.functions.len(),
        templates: docs.templates,
    })
}

/// What a run produces: the final data values, or the schema's OpenAPI document.
pub enum Outcome {
    DataValues(Node),
    OpenApi(Node),
    /// The schema's JSON Schema (printed as indented JSON whatever the output format).
    JsonSchema(Node),
    /// The data values broke validation rules.
    Invalid(Vec<validate::Violation>),
}

/// What a run leaves in memory: its outcome, the data values as a tree, the schema. A process
/// that exits next may leak it (`std::mem::forget`) rather than free it node by node, which
/// costs about as much as type checking those nodes did.
pub struct Leftovers {
    pub outcome: Outcome,
    /// Held only to go with the rest (freed or leaked).
    _tree: Option<Tree>,
    _schema: Option<Arc<Type>>,
}

/// A run that ends with `outcome` and holds nothing else.
fn done(outcome: Outcome) -> Result<Leftovers, CheckError> {
    Ok(Leftovers {
        outcome,
        _tree: None,
        _schema: None,
    })
}

/// Runs the pipeline; returns what goes to stdout.
pub fn run(opts: &Request, backend: &dyn Backend) -> Result<String, CheckError> {
    run_keeping(opts, backend).map(|(out, _)| out)
}

/// What an outcome prints on stdout; violations are the error ytt reports.
pub fn render(outcome: &Outcome, opts: &Request) -> Result<String, CheckError> {
    match outcome {
        Outcome::JsonSchema(node) => Ok(crate::yaml::json::to_json_indented(&node.value)),
        Outcome::Invalid(violations) => Err(CheckError::new(
            ErrorKind::Validation,
            validate::render(violations),
        )
        .at_opt(violations.first().map(|v| v.value_pos))),
        Outcome::OpenApi(node) | Outcome::DataValues(node) if opts.json() => {
            Ok(crate::yaml::json::to_json(&node.value))
        }
        Outcome::OpenApi(node) | Outcome::DataValues(node) => {
            Ok(crate::yaml::emit::to_yaml(&node.value))
        }
    }
}

/// [`run`], also handing back the memory the run used.
pub fn run_keeping(
    opts: &Request,
    backend: &dyn Backend,
) -> Result<(String, Leftovers), CheckError> {
    let leftovers = evaluate_keeping(opts, backend)?;
    let out = render(&leftovers.outcome, opts)?;
    Ok((out, leftovers))
}

/// Runs the pipeline up to its result.
pub fn evaluate(opts: &Request, backend: &dyn Backend) -> Result<Outcome, CheckError> {
    evaluate_keeping(opts, backend).map(|leftovers| leftovers.outcome)
}

/// [`evaluate`], also handing back the memory the run used.
pub fn evaluate_keeping(opts: &Request, backend: &dyn Backend) -> Result<Leftovers, CheckError> {
    evaluate_inputs(read_inputs(&opts.files)?, opts, backend)
}

/// [`run`] on files already in memory, in place of those `opts.files` names (for the fuzz
/// targets: the whole pipeline without a file system).
pub fn run_inputs(
    inputs: Vec<Input>,
    opts: &Request,
    backend: &dyn Backend,
) -> Result<String, CheckError> {
    let leftovers = evaluate_inputs(inputs, opts, backend)?;
    render(&leftovers.outcome, opts)
}

fn evaluate_inputs(
    inputs: Vec<Input>,
    opts: &Request,
    backend: &dyn Backend,
) -> Result<Leftovers, CheckError> {
    let mut sources = SourceLines::default();
    for (name, text) in backend.builtin_sources() {
        sources.add(name, text);
    }
    // ytt reads the data values flags before the files' YAML, and checks `-o` after the schema.
    let additional = crate::data_values::documents(opts, &mut sources)?;
    let mut schema = None;
    let docs = load_documents(
        &inputs,
        opts,
        !additional.is_empty(),
        &mut sources,
        backend,
        &mut |docs, sources| {
            schema = Some(schema_of(docs, sources, backend)?);
            opts.check_output()
        },
    )?;
    let schema = schema.flatten();
    if opts.schema_inspect {
        return done(match opts.schema_type() {
            Some(crate::request::SchemaType::JsonSchema) => {
                Outcome::JsonSchema(backend.json_schema(schema.as_deref()))
            }
            _ => Outcome::OpenApi(backend.openapi(schema.as_deref())),
        });
    }

    let prefix = format!(
        "Overlaying data values (in following order: {}): ",
        order(&docs.values_files, !additional.is_empty())
    );
    let mut current: Option<Tree> = schema
        .as_ref()
        .filter(|_| !opts.values_complete)
        .map(|s| Tree::document(&s.default));
    let transfer_validations = schema.is_none();
    // `#@data/values` documents overlay with ytt's defaults; flags and plain files as if every
    // key were `missing_ok` and arrays were replaced.
    let documents = docs.values.into_iter().map(|d| {
        (
            d,
            Mode {
                transfer_validations,
                ..Mode::default()
            },
        )
    });
    let flags = additional.into_iter().map(|d| {
        (
            d,
            Mode {
                missing_ok: true,
                replace_arrays: true,
                transfer_validations,
            },
        )
    });
    let mut layers: Vec<(Tree, Mode)> = documents.chain(flags).collect();
    let mut finished = None;
    backend.with_predicates(&docs.functions, &mut |calls| {
        finished = Some(overlay_and_validate(
            current.take(),
            std::mem::take(&mut layers),
            schema.clone(),
            &sources,
            &prefix,
            opts,
            calls,
        ));
    });
    finished.unwrap_or_else(|| {
        Err(CheckError::new(
            ErrorKind::Usage,
            "internal error: the back end ran no validation",
        ))
    })
}

/// Overlays the data values `layers` onto `current` (the schema's defaults), type-checking
/// each result, then validates the final data values with `calls` running their functions.
fn overlay_and_validate(
    mut current: Option<Tree>,
    layers: Vec<(Tree, Mode)>,
    schema: Option<Arc<Type>>,
    sources: &SourceLines,
    prefix: &str,
    opts: &Request,
    calls: &dyn Predicates,
) -> Result<Leftovers, CheckError> {
    for (doc, mode) in layers {
        let mut merged = apply_document(current, doc, mode, Some(calls))
            .map_err(|e| CheckError::new(ErrorKind::Overlay, format!("{prefix}{}", e.render())))?;
        type_check(&mut merged, schema.as_deref(), sources, prefix)?;
        current = Some(merged);
    }
    let Some(mut result) = current else {
        return done(Outcome::DataValues(Node::null(Pos::unknown())));
    };
    // The tree is kept beside the plain data only for `#@assert/validate` annotations;
    // without them it is freed as the plain data is made.
    let (node, tree) = if opts.validate
        && sources.any_text_contains(validate::ASSERT_VALIDATE)
        && result.has_ann_under(validate::ASSERT_VALIDATE)
    {
        (result.take_node(), Some(result))
    } else {
        (result.into_node(), None)
    };
    if opts.validate {
        let violations = validate::validate(tree.as_ref(), &node, schema.as_deref(), calls)
            .map_err(|e| {
                CheckError::new(
                    ErrorKind::Validation,
                    format!("Validating final data values:\n{e}"),
                )
            })?;
        if !violations.is_empty() {
            return done(Outcome::Invalid(violations));
        }
    }
    if let Some((first, again)) = node.first_repeated_key() {
        // ytt keeps such a map and then panics writing it (`Unexpected duplicate key`).
        let (a, b) = (&first.value.pos, &again.value.pos);
        let lines = if a.file.is_empty() {
            String::new() // a flag's value: its lines mean nothing on their own
        } else {
            format!(" ({a} and {b})")
        };
        return Err(CheckError::new(
            ErrorKind::Overlay,
            format!(
                "Final data values: map key '{}' is given twice{lines}; a map cannot hold a key twice",
                first.key.go_percent_s(),
            ),
        )
        .at(again.value.pos));
    }
    Ok(Leftovers {
        outcome: Outcome::DataValues(node),
        _tree: tree,
        _schema: schema,
    })
}
