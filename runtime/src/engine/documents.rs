//! Reading a run's files into documents: each YAML file parsed and checked for misplaced
//! data values annotations, schema files evaluated first, each template evaluated by the
//! back end, and its documents sorted into schema and data values documents as ytt does.

use super::*;
use crate::template::compile::split_annotation;
use crate::yaml::parse::Comment;
use document_checks::{data_values_kwargs_error, emptiness, first_misplaced, library_ref_error};
use schema_files_values::{take_schema_files_values, SchemaFileValues};

mod document_checks;
mod schema_files_values;

/// A YAML template of the root library: not a library file (`*.lib.yml`, only evaluated when
/// loaded) and not in a private library (`_ytt_lib/`), which ytt leaves out of the root.
pub(super) use crate::inputs::is_yaml_template as is_yaml;

/// The positions of `names` (paths relative to their `-f` argument) in the order of ytt's
/// library: a folder's files in the order given, then its subfolders in the order they first
/// appear, each the same way (`z.yml` before `sub/x.yml`, though a walk lists `sub/` first).
fn library_order(names: &[&str]) -> Vec<usize> {
    fn visit(entries: Vec<(usize, &str)>, out: &mut Vec<usize>) {
        let mut folders: Vec<(&str, Vec<(usize, &str)>)> = Vec::new();
        for (position, rest) in entries {
            match rest.split_once('/') {
                None => out.push(position),
                Some((folder, below)) => match folders.iter_mut().find(|(f, _)| *f == folder) {
                    Some((_, items)) => items.push((position, below)),
                    None => folders.push((folder, vec![(position, below)])),
                },
            }
        }
        for (_, items) in folders {
            visit(items, out);
        }
    }
    let mut out = Vec::with_capacity(names.len());
    visit(names.iter().copied().enumerate().collect(), &mut out);
    out
}

/// The name of the annotation a comment is: `#@data/values x` names `data/values`, and
/// `#@ data/values` is a code line (ytt reads no annotation in it: the file is a template);
/// the name ends at the first space only (`#@data/values<TAB>` is another name).
fn annotation_name(c: &Comment) -> Option<&str> {
    c.is_annotation().then(|| split_annotation(&c.text).0)
}

/// Whether `doc` is annotated `name` (`data/values-schema` or `data/values`). A document may
/// be both: ytt reads it as a schema document in the schema phase and as a data values
/// document in the values phase.
fn has_doc_annotation(doc: &RawNode, name: &str) -> bool {
    doc.comments
        .iter()
        .any(|c| annotation_name(c) == Some(name))
}

/// Whether some document of `raw` is annotated `name` (`data/values-schema`: a schema file,
/// which ytt evaluates in the schema phase; `data/values`).
pub(crate) fn file_has_doc_annotation(raw: &RawFile, name: &str) -> bool {
    raw.docs.iter().any(|d| has_doc_annotation(d, name))
}

/// The schema and values documents of every input, in order.
pub(super) struct Documents {
    pub(super) schema: Vec<Tree>,
    pub(super) schema_files: Vec<String>,
    pub(super) values: Vec<Tree>,
    pub(super) values_files: Vec<String>,
    /// Whether the first data values document is an empty collection its code made
    /// (`--- #@ {}`): ytt keeps that value as Starlark made it, which its printer writes where
    /// it skips an empty document (see [`super::Outcome::EmptyFromCode`]).
    pub(super) first_values_from_code: bool,
    /// The functions the templates passed to annotations.
    pub(super) functions: Functions,
    /// How many templates were compiled (ytt's numbering, see [`Sources::next_template_id`]).
    pub(super) templates: u32,
    /// The schema a store kept for the schema files, which were then neither read nor
    /// evaluated (see [`stored`]).
    pub(super) stored: Option<Type>,
    /// The translations of the schema's rules, when made already: kept by the store with the
    /// schema (whose files' functions are then only reserved indices), or made to keep them.
    pub(super) rules: Option<Arc<crate::lowered::ir::Program>>,
    /// The schema files (names and texts) and the templates they compiled, when the schema
    /// lowered from them may be kept in the store.
    pub(super) storable: Option<stored::Storable>,
}

pub(super) fn template_error(e: &TemplateError, sources: &SourceLines) -> String {
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

/// A line of ytt's code with no template line of its own (`F:? | CODE (generated)`), then the
/// template line ytt shows after it, if any, each on a line of its own indented by `pad`.
fn generated_text(
    generated: &crate::template::Generated,
    file: &str,
    pad: &str,
    sources: &SourceLines,
) -> String {
    let mut s = format!("\n{pad}{file}:? | {} (generated)", generated.code());
    if let Some(after) = generated.after {
        let src = sources.line(file, after);
        s.push_str(&format!("\n{pad}{} | {src}", place(file, after)));
    }
    s
}

/// Where a template error happened: its call stack, or its line in the template.
fn call_stack_text(e: &TemplateError, sources: &SourceLines) -> String {
    let mut s = String::new();
    for frame in &e.stack {
        // A builtin module's own Starlark (`assert.min`) has no source to quote.
        let src = if let Some(quote) = &frame.quote {
            quote
        } else if sources.has(&frame.file) {
            sources.line(&frame.file, frame.line)
        } else {
            "(unavailable)"
        };
        s.push_str(&format!(
            "\n    in {}\n      {} | {src}",
            frame.function,
            place(&frame.file, frame.line)
        ));
        if let Some(generated) = &frame.generated {
            s.push_str(&generated_text(generated, &frame.file, "      ", sources));
        }
        if frame.left_out > 0 {
            s.push_str(&format!("\n    ... ({} calls left out)", frame.left_out));
        }
    }
    if !e.stack.is_empty() {
        return s;
    }
    if let Some(line) = e.line {
        let src = e
            .quote
            .as_deref()
            .unwrap_or_else(|| sources.line(&e.file, line));
        let at = place(&e.file, line);
        if e.compile_time {
            s.push_str(&format!("\n    {at} | {src}"));
            if let Some(generated) = &e.generated {
                s.push_str(&generated_text(generated, &e.file, "    ", sources));
            }
            // Each quotes its line: many on one long line are bounded by the error budget.
            let mut budget = crate::report::ErrorBudget::default();
            budget.admit(s.len());
            for also in &e.also {
                let src = also
                    .quote
                    .as_deref()
                    .unwrap_or_else(|| sources.line(&e.file, also.line));
                if !budget.admit(src.len() + also.message.len() + e.file.len() + 16) {
                    continue;
                }
                let at = place(&e.file, also.line);
                s.push_str(&format!("\n- {}\n    {at} | {src}", also.message));
                if let Some(generated) = &also.generated {
                    s.push_str(&generated_text(generated, &e.file, "    ", sources));
                }
            }
            if let Some(line) = budget.left_out_line() {
                s.push_str(&format!("\n- {line}"));
            }
        } else {
            s.push_str(&format!("\n    in <toplevel>\n      {at} | {src}"));
            // (a call on a line ytt generates: the trailing document's value instruction)
            if let Some(generated) = &e.generated {
                s.push_str(&generated_text(generated, &e.file, "      ", sources));
            }
        }
    }
    s
}

/// The first `prepended` inputs are a validator's built-in data values files
/// ([`package_values::with_builtin_values`]).
/// `schema_done` runs once the schema files are evaluated, before the data values files are:
/// ytt reports a schema's errors before any of a data values template's.
/// `additional` says whether the data values flags and plain files gave any document (ytt's
/// errors then name `additional data values` after the files).
#[allow(clippy::too_many_arguments)]
pub(super) fn load_documents(
    inputs: &[Input],
    prepended: usize,
    opts: &Request,
    additional: bool,
    sources: &mut SourceLines,
    backend: &dyn Backend,
    store: Option<&dyn SchemaStore>,
    schema_done: &mut dyn FnMut(&mut Documents, &SourceLines) -> Result<(), CheckError>,
) -> Result<Documents, CheckError> {
    // A validator's built-in files come first, as given to `schemac build`: a values
    // template may `load()` them, `data.read()` and `data.list()` them as in ytt given them
    // before the values files.
    let files = super::package_values::run_files(backend, inputs, prepended);
    let functions = backend.functions(&files);
    let mut star = Sources::with_functions(files, functions);
    star.ignore_unknown_comments = opts.ignore_unknown_comments;
    star.compiled.store(
        backend.schema_templates(),
        std::sync::atomic::Ordering::Relaxed,
    );
    let mut docs = Documents {
        schema: vec![],
        schema_files: vec![],
        values: vec![],
        values_files: vec![],
        first_values_from_code: false,
        functions: star.functions.clone(),
        templates: 0,
        stored: None,
        rules: None,
        storable: None,
    };
    // Every file is read before any is evaluated; schema files are evaluated first.
    let mut templates = Vec::new();
    let library = |name: &str| {
        name.ends_with(".star")
            || (!is_yaml(name) && (name.ends_with(".yml") || name.ends_with(".yaml")))
    };
    for input in inputs.iter().filter(|i| library(&i.name)) {
        // For the lines of call-stack frames in the files `load()` may run: of a name given
        // twice, the first, which `load()` finds.
        sources.add_library(&input.name, input.text.clone());
    }
    // Files of the same name (`-f base/values.yml -f prod/values.yml`) each quote their own
    // lines.
    let mut names_seen = std::collections::HashMap::new();
    for input in inputs.iter().filter(|i| is_yaml(&i.name)) {
        *names_seen.entry(input.name.as_str()).or_insert(0) += 1;
    }
    // ytt reads the files in its library's order (a folder's files before its subfolders'),
    // so a YAML error names the first broken file in that order; the templates keep the
    // order of the inputs, in which ytt applies their data values.
    let yaml_inputs: Vec<&Input> = inputs.iter().filter(|i| is_yaml(&i.name)).collect();
    let names: Vec<&str> = yaml_inputs.iter().map(|i| i.name.as_str()).collect();
    let mut parsed = Vec::with_capacity(yaml_inputs.len());
    parsed.resize_with(yaml_inputs.len(), || None);
    let read_order = library_order(&names);
    // Whether each file mentions `data/values-schema` (looked for once: a values file may be
    // large).
    let mentions_schema: Vec<bool> = yaml_inputs
        .iter()
        .map(|i| i.yaml_text().contains("data/values-schema"))
        .collect();
    // The schema files a store may answer for, and its answer: then they are not read.
    let candidates = store.and_then(|_| stored::candidates(&yaml_inputs, &mentions_schema, opts));
    let key = candidates
        .as_ref()
        .and_then(|files| stored::key(files, &star.files));
    // A kept schema holds while the `.star` files its files loaded have the texts they had.
    let kept = store
        .zip(key.as_ref())
        .and_then(|(store, key)| store.load(key))
        .filter(|kept| stored::loads_unchanged(&kept.loaded, &star.files));
    let hit = kept.is_some();
    let skipped = |name: &str| hit && candidates.iter().flatten().any(|i| i.name == name);
    if let (Some(kept), Some(files)) = (kept.as_ref(), candidates.as_ref()) {
        star.compiled
            .fetch_add(kept.templates, std::sync::atomic::Ordering::Relaxed);
        docs.schema_files = files.iter().map(|i| i.name.clone()).collect();
        docs.functions.reserve(kept.rules.functions);
        docs.rules.clone_from(&kept.rules.program);
    }
    docs.stored = kept.map(|kept| kept.schema);
    // Whether the run's schema may be kept: its files are the candidates, each self-contained.
    let mut storable = store.is_some() && key.is_some() && docs.stored.is_none();
    let functions_before = docs.functions.len();
    let templates_before = star.compiled.load(std::sync::atomic::Ordering::Relaxed);
    // A validator's built-in schema files were read when it was built, but not with
    // `--strict`: ytt, given them first, would refuse them before any values file.
    if opts.strict {
        let builtin: Vec<&(&str, &str)> = backend
            .builtin_sources()
            .iter()
            .filter(|(n, _)| is_yaml(n))
            .collect();
        let names: Vec<&str> = builtin.iter().map(|(n, _)| *n).collect();
        for (name, text) in library_order(&names).into_iter().map(|at| builtin[at]) {
            parse_file_keeping_key_errors(name, text, true, None)
                .map_err(|e| yaml_error(name, &e))?;
        }
    }
    for &position in &read_order {
        let input = yaml_inputs[position];
        sources.add_shared(&input.name, Arc::clone(input.yaml_text()));
        if skipped(&input.name) {
            continue;
        }
        let alike = names_seen.get(input.name.as_str()) > Some(&1);
        let raw = parse_file_keeping_key_errors(
            &input.name,
            input.yaml_text(),
            opts.strict,
            input.reader_stop,
        )
        .map_err(|e| yaml_error(&input.name, &e))?;
        // ytt refuses a misplaced `#@data/values-schema` as soon as it has read the file.
        if mentions_schema[position] {
            check_misplaced(&raw, "data/values-schema")?;
        }
        let mut raw = raw;
        if alike {
            raw.file = FileName::unique(&input.name);
            sources.add_source(raw.file, input.yaml_text());
        }
        if opts.implicit_map_key_overrides {
            allow_key_overrides(&mut raw.docs);
            raw.comments_below_documents = true;
        }
        parsed[position] = Some((input, raw, false));
    }
    // Then each file's `#@data/values` annotations are checked (its `#@data/values-schema`
    // ones were, as it was read): the first error among all files, schema files included, is
    // reported once the schema is built, as ytt looks for data values files after building the
    // schema. With --data-values-schema-inspect, ytt looks at the schema files only.
    // (The files a store answered for were not read: a run that meets such an error keeps no
    // schema, or a later run answered for a schema file holding it would not see it.)
    let misplaced = read_order
        .iter()
        .filter_map(|&position| parsed[position].as_ref())
        .find_map(|(_, raw, _)| check_misplaced(raw, "data/values").err());
    storable &= misplaced.is_none();
    let mut values_misplaced = misplaced.filter(|_| !opts.schema_inspect);
    templates.extend(parsed.into_iter().flatten());
    let values_misplaced_found = values_misplaced.is_some();
    // The schema phase's end: whether its schema may be kept, then the caller's step.
    let mut schema_done =
        |docs: &mut Documents, sources: &SourceLines, star: &Sources, storable| {
            docs.storable = storable_files(
                storable,
                docs,
                candidates.as_deref(),
                star,
                (templates_before, functions_before),
            );
            schema_done(docs, sources)?;
            values_misplaced.take().map_or(Ok(()), Err)
        };
    templates.retain_mut(|(_, raw, has_schema)| {
        *has_schema = file_has_doc_annotation(raw, "data/values-schema");
        *has_schema || file_has_doc_annotation(raw, "data/values")
    });
    // (A misplaced `#@data/values` is the error then, reported after the schema as ytt does.)
    if opts.files_give_values && !values_misplaced_found {
        let gives = |name: &str| skipped(name) || templates.iter().any(|(i, _, _)| i.name == name);
        if let Some(input) = inputs.iter().find(|i| is_yaml(&i.name) && !gives(&i.name)) {
            return Err(CheckError::new(ErrorKind::Usage, format!(
                "Checking file '{}': it has no `#@data/values` or `#@data/values-schema` document (plain YAML data values are read as data values files)",
                input.name
            )));
        }
    }
    // A template error names every file of its phase (and the flags' data values): a file
    // with schema and data values documents is in both, in its place among the inputs.
    let names = |kind: &str| -> Vec<String> {
        templates
            .iter()
            .filter(|t| t.1.docs.iter().any(|d| has_doc_annotation(d, kind)))
            .map(|t| t.0.name.clone())
            .collect()
    };
    let (schema_names, values_names) = (names("data/values-schema"), names("data/values"));
    let mut templates: Vec<_> = templates.into_iter().enumerate().collect();
    templates.sort_by_key(|(_, (_, _, has_schema))| !has_schema);
    // The data values of schema files, read in the values phase in their file's place.
    let mut schema_files_values: Vec<SchemaFileValues> = vec![];
    let mut schema_pending = true;
    for (position, (input, raw, has_schema)) in templates {
        if !has_schema && schema_pending {
            schema_pending = false;
            schema_done(&mut docs, sources, &star, storable)?;
        }
        if !has_schema && opts.schema_inspect {
            break;
        }
        if !has_schema {
            take_schema_files_values(&mut schema_files_values, position, &mut docs, &star)?;
        }
        let (mut schema_here, mut values_here) = (false, false);
        let (mut schema_not_empty, mut held_values) = (None, vec![]);
        let mut values_error = None;
        // The phase this file is read in, and the files ytt names in its errors (written only
        // for an error: 20,000 files each writing the list of all took 12 s).
        let phase = if has_schema {
            "Overlaying data values schema"
        } else {
            "Overlaying data values"
        };
        let files = || {
            if has_schema {
                order(&schema_names, false)
            } else {
                order(&values_names, additional)
            }
        };
        if let Some((line, detail)) =
            crate::template::compile::refused(&raw, opts.ignore_unknown_comments)
        {
            let name = &input.name;
            return Err(CheckError::new(
                ErrorKind::Template,
                format!(
                    "{phase} (in following order: {}): Templating file '{name}': Compiling YAML template '{name}': {detail}",
                    files()
                ),
            )
            .at(Pos::new(name.as_str(), line)));
        }
        // A map key that is a collection fails when ytt evaluates the file (in Go's words and
        // with a Go stack trace, which are not repeated here), unless the evaluation fails
        // on a line before it: a key given twice, code that fails. (On the key's own line,
        // which comes first is not known: `{a: 1, a: 2, []: 3}` is still the key's error.)
        let non_scalar_key = raw.non_scalar_key.clone();
        // Documents whose value code sets (`--- #@ expr`): ytt keeps such a value as it came
        // from Starlark, which is never empty below, even as `{}`.
        let code_docs: Vec<u32> = raw
            .docs
            .iter()
            .filter(|d| {
                d.comments
                    .iter()
                    .any(|c| c.line == d.line && !c.is_annotation())
            })
            .map(|d| d.line)
            .collect();
        // A schema file that may be kept is read once: its literal annotations template it.
        let literal = (has_schema && storable)
            .then(|| stored::literal_file(&raw))
            .flatten();
        storable &= !has_schema || literal.is_some() || stored::self_contained_file(&raw);
        let compiled_before = star.compiled.load(std::sync::atomic::Ordering::Relaxed);
        let evaluated = match literal {
            Some(annotations) => crate::template::evaluate_literal(raw, annotations, &star),
            None => backend.eval_template(raw, &star),
        };
        if let Some(key_error) = non_scalar_key {
            let before_key = |e: &crate::template::TemplateError| {
                *e.file == *input.name && e.line.is_some_and(|line| line < key_error.line)
            };
            if !evaluated.as_ref().is_err_and(before_key) {
                return Err(yaml_error(&input.name, &key_error));
            }
        }
        let trees = evaluated.map_err(|e| {
            // Its lines are this file's, whatever other file shares its name.
            let mut sources = sources.clone();
            sources.add_shared(&input.name, Arc::clone(input.yaml_text()));
            CheckError::new(
                ErrorKind::Template,
                format!(
                    "{phase} (in following order: {}): {}",
                    files(),
                    template_error(&e, &sources)
                ),
            )
            .at_opt(e.line.map(|line| Pos::new(&*e.file, line)))
        })?;
        if let Some(tree) = first_misplaced(&trees, has_schema, &code_docs) {
            let what = if has_schema {
                "Expected schema file '{}' to only have schema documents"
            } else {
                "Expected data values file '{}' to only have data values documents"
            };
            return Err(CheckError::new(
                ErrorKind::Template,
                format!(
                    "{phase} (in following order: {}): Templating file '{}': {}",
                    files(),
                    input.name,
                    what.replace("{}", &input.name)
                ),
            )
            .at(tree.pos));
        }
        let first_schema_doc = docs.schema.len();
        let mut library_schema: Vec<Tree> = Vec::new();
        for tree in trees {
            if tree.kind != TreeKind::Document {
                continue;
            }
            let dv_doc = tree.ann("data/values").is_some();
            if let (Some(lib), true) = (
                tree.ann("library/ref"),
                dv_doc || tree.ann("data/values-schema").is_some(),
            ) {
                if let Some(message) = library_ref_error(lib) {
                    // ytt checks each schema document as it reads it: an earlier one's error
                    // comes first.
                    if !dv_doc {
                        let earlier = &docs.schema[first_schema_doc..];
                        check_each(backend, earlier, &library_schema, sources).map_err(|e| {
                            e.prefixed(&format!("{phase} (in following order: {}): ", files()))
                        })?;
                    }
                    let names = if dv_doc { &values_names } else { &schema_names };
                    let phase = if dv_doc {
                        "Overlaying data values"
                    } else {
                        "Overlaying data values schema"
                    };
                    return Err(CheckError::new(
                        ErrorKind::Template,
                        format!(
                            "{phase} (in following order: {}): {message}",
                            order(names, additional && dv_doc)
                        ),
                    )
                    .at(lib.pos));
                }
            }
            if let Some(message) = data_values_kwargs_error(&tree) {
                let e = CheckError::new(
                    ErrorKind::Template,
                    format!(
                        "Overlaying data values (in following order: {}): {message}",
                        order(&values_names, additional)
                    ),
                )
                .at(tree.ann("data/values").map_or(tree.pos, |ann| ann.pos));
                if !has_schema {
                    return Err(e);
                }
                // A schema file's data values are read in the values phase.
                values_error.get_or_insert(e);
            }
            let (empty, empty_from_code) = emptiness(&tree, &code_docs);
            let values_doc = tree.ann("data/values").is_some();
            if tree.ann("library/ref").is_some() {
                if !empty && !values_doc && tree.ann("data/values-schema").is_some() {
                    schema_not_empty.get_or_insert(tree.pos);
                }
                // Data values for a library (`#@library/ref "@lib"`), not for the root (ytt
                // still names the file among the data values files, and among the schema
                // files). A library's schema document is still made a schema, so its errors
                // are the root's, checked once every document of the file is placed.
                values_here |= values_doc;
                if has_schema && tree.ann("data/values-schema").is_some() {
                    schema_here = true;
                    library_schema.push(tree);
                }
                continue;
            }
            if tree.ann("data/values-schema").is_some() {
                schema_here = true;
                if !values_doc {
                    if !empty {
                        schema_not_empty.get_or_insert(tree.pos);
                    }
                    docs.schema.push(tree);
                    continue;
                }
                // A schema document that is a data values document too: both.
                docs.schema.push(tree.clone());
            }
            if values_doc {
                values_here = true;
                if has_schema {
                    held_values.push((tree, empty_from_code));
                    continue;
                }
                if docs.values.is_empty() {
                    docs.first_values_from_code = empty_from_code;
                }
                docs.values.push(tree);
            }
        }
        // ytt reads a schema file again in the values phase when it has data values documents
        // (all empty, or the schema phase refused it), and refuses it then if a schema
        // document is not empty.
        if has_schema && values_here {
            let values = match schema_not_empty {
                None => values_error.map_or(Ok(held_values), Err),
                Some(pos) => Err(CheckError::new(
                    ErrorKind::Template,
                    format!(
                        "Overlaying data values (in following order: {}): Templating file '{name}': Expected data values file '{name}' to only have data values documents",
                        order(&values_names, additional),
                        name = input.name
                    ),
                )
                .at(pos)),
            };
            schema_files_values.push(SchemaFileValues {
                position,
                name: input.name.clone(),
                values,
                templates: star.compiled.load(std::sync::atomic::Ordering::Relaxed)
                    - compiled_before,
            });
        }
        // ytt checks each schema document on its own, in the file's order, as soon as its file
        // is evaluated, so an error in one comes before any of a later schema file's (see also
        // `schema_of`); a single file's root documents are left to the schema's build.
        if !library_schema.is_empty() || (schema_here && schema_names.len() > 1) {
            let root = &docs.schema[first_schema_doc..];
            check_each(backend, root, &library_schema, sources)
                .map_err(|e| e.prefixed(&format!("{phase} (in following order: {}): ", files())))?;
        }
        storable &= !values_here;
        // The phase messages list each file once, however many documents it has.
        if schema_here {
            docs.schema_files.push(input.name.clone());
        }
        if values_here && !has_schema {
            docs.values_files.push(input.name.clone());
        }
    }
    if schema_pending {
        schema_done(&mut docs, sources, &star, storable)?;
    }
    if !opts.schema_inspect {
        take_schema_files_values(&mut schema_files_values, usize::MAX, &mut docs, &star)?;
    }
    docs.templates = star.compiled.load(std::sync::atomic::Ordering::Relaxed);
    Ok(docs)
}

/// ytt's check of each schema document of a file on its own, root and library documents in
/// the file's order.
fn check_each(
    backend: &dyn Backend,
    root: &[Tree],
    library: &[Tree],
    sources: &SourceLines,
) -> Result<(), CheckError> {
    let mut in_order: Vec<&Tree> = root.iter().chain(library).collect();
    in_order.sort_by_key(|doc| doc.pos.line);
    in_order
        .into_iter()
        .try_for_each(|doc| backend.schema(Some(doc), sources).map(drop))
}

/// `--implicit-map-key-overrides`: every map item may replace an earlier one with its key, as
/// if it said `#@yaml/map-key-override` (which is how ytt implements the flag).
fn allow_key_overrides(nodes: &mut [RawNode]) {
    for node in nodes {
        if node.place == RawPlace::MapItem {
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
pub(super) fn yaml_error(name: &str, e: &SyntaxError) -> CheckError {
    CheckError::new(
        ErrorKind::Yaml,
        format!("Unmarshaling YAML template '{name}': {}", e.detail()),
    )
    .at_opt((e.line > 0).then(|| Pos::new(name, e.line)))
}

/// Annotation `name` (`data/values`, `data/values-schema`) on anything but a document is an
/// error, and so is a document that has it twice. As in ytt's `DocExtractor`, the first is
/// looked for in the whole file before the second.
fn check_misplaced(raw: &RawFile, name: &str) -> Result<(), CheckError> {
    let file = &raw.name;
    let count = |node: &RawNode| {
        node.comments
            .iter()
            .filter(|c| annotation_name(c) == Some(name))
            .count()
    };
    let misplaced = raw.find_commented(|node| {
        let what = match node.place {
            RawPlace::Document => return None,
            RawPlace::MapItem => "map item",
            _ => "array item",
        };
        (count(node) > 0).then(|| {
            CheckError::new(ErrorKind::Template, format!(
                "Found @{name} on {what} ({file}:{}); only documents (---) can be annotated with @{name}",
                node.line
            )).at(Pos::new(file, node.line))
        })
    });
    let twice = || {
        raw.docs.iter().find(|doc| count(doc) > 1).map(|doc| {
            CheckError::new(
                ErrorKind::Template,
                format!("{name} annotation may only be used once per document"),
            )
            .at(Pos::new(file, doc.line))
        })
    };
    misplaced.or_else(twice).map_or(Ok(()), Err)
}

pub(super) fn order(files: &[String], extra: bool) -> String {
    let mut names = files.to_vec();
    if extra {
        names.push("additional data values".into());
    }
    names.join(", ")
}

/// The schema files, the templates they compiled and the functions they kept, when the schema
/// lowered from them may be kept (see [`stored`]): `storable` (every schema file read was
/// self-contained) and the schema files are exactly the `candidates`. `before`: the templates
/// compiled and the functions kept before the schema files were evaluated.
fn storable_files(
    storable: bool,
    docs: &Documents,
    candidates: Option<&[&Input]>,
    star: &Sources,
    (templates_before, functions_before): (u32, usize),
) -> Option<stored::Storable> {
    let candidates = candidates.filter(|_| storable)?;
    let names = candidates.iter().map(|i| &i.name);
    if !names.eq(docs.schema_files.iter()) {
        return None;
    }
    let files = candidates
        .iter()
        .map(|i| (i.name.clone(), Arc::clone(i.yaml_text())))
        .collect();
    // What evaluating the schema files (all the run has evaluated so far) loaded.
    let loaded = stored::loaded_star_files(&star.loads.lock().ok()?, &star.files)?;
    let star_files = stored::star_files(&star.files)
        .into_iter()
        .map(str::to_string)
        .collect();
    let compiled = star.compiled.load(std::sync::atomic::Ordering::Relaxed);
    Some(stored::Storable {
        files,
        templates: compiled - templates_before,
        functions: functions_before..docs.functions.len(),
        star_files,
        loaded,
    })
}
