//! ytt's data values pipeline, shared by `schemac check` and every built validator.
//!
//! Files → templates evaluated → schema documents overlaid and lowered to the IR (or the
//! schema built into a validator) → data values documents overlaid onto the schema's defaults
//! (type checked after each) → flags → validations → output. What differs between the
//! interpreter and a built validator is behind [`Backend`].

use std::sync::Arc;

use crate::lowered::ir::Program;
use crate::overlay::{apply_document, apply_document_indexed, KeptIndex, Mode};
use crate::report::{SchemaReport, SourceLines};
use crate::request::{GivenValues, Request};
use crate::schema::Type;
use crate::template::functions::Functions;
use crate::template::tree::{Tree, TreeKind, TreeValue};
use crate::template::{Sources, TemplateError};
use crate::validate::Predicates;
use crate::value::{FileName, Node, Pos};
use crate::yaml::parse::{
    parse_file_keeping_key_errors, RawFile, RawNode, RawPlace, RawValue, SyntaxError,
};
use crate::{typecheck, validate};

mod documents;
#[cfg(feature = "starlark")]
pub(crate) use documents::file_has_doc_annotation;
mod loaded_schema;
mod package_values;
pub use loaded_schema::{LoadedSchema, SchemaUse};
mod schema_facts;
mod stored;
use documents::{load_documents, order, Documents};
use schema_facts::SchemaFacts;
pub use stored::{SchemaStore, StoreKey, StoredRules, StoredSchema};

/// What the interpreter and a built validator do differently.
pub trait Backend {
    /// Evaluates a template file (Starlark, or annotations only in validators built without it).
    /// The file is consumed: its nodes may move into the trees. A file whose annotations are
    /// all literal is templated as [`crate::template::evaluate_literal`] does it (what the
    /// engine does itself for a schema file it may keep, having read its annotations).
    fn eval_template(&self, raw: RawFile, files: &Sources) -> Result<Vec<Tree>, TemplateError>;
    /// The table a run's kept functions start from: a built validator's holds its schema's
    /// (or reserves their indices), so the functions of the run's files come after them.
    /// `files` are the run's (which a schema's functions may read, as ytt's do).
    fn functions(&self, _files: &[(String, crate::inputs::FileText)]) -> Functions {
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
    /// `schema` and `sources` are the run's, for the interpreter to translate the schema's
    /// rules, unless `rules` holds their translations already ([`Backend::rule_program`]'s,
    /// perhaps from an earlier run: then the schema's functions are reserved indices).
    fn with_predicates(
        &self,
        functions: &Functions,
        schema: Option<(&Type, Option<&Program>)>,
        sources: &SourceLines,
        run: &mut dyn FnMut(&dyn Predicates),
    );
    /// The translations of `schema`'s rule and `when=` functions to the rule IR, for a store to
    /// keep with the schema: none when the back end makes none.
    fn rule_program(&self, _schema: &Type, _sources: &SourceLines) -> Option<Program> {
        None
    }
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
    /// A built-in package's data values files, `(name, text)`: each run reads them before its
    /// own files (see [`package_values`]).
    fn builtin_values(&self) -> &[(&str, &str)] {
        &[]
    }
    /// Where schemas lowered in earlier runs are kept (`schemac check`'s cache), if anywhere.
    fn schema_store(&self) -> Option<&dyn SchemaStore> {
        None
    }
}

pub use crate::error::{CheckError, ErrorKind};

use crate::inputs::InputFile as Input;

fn read_inputs(
    paths: &[String],
    symlinks: &crate::inputs::Symlinks,
) -> Result<Vec<Input>, CheckError> {
    crate::inputs::read_files(paths, symlinks).map_err(|m| CheckError::new(ErrorKind::Io, m))
}

/// Keeps the schema lowered from the `storable` files in `store`, with the translations of
/// its rules when the files kept functions (and then keeps those in `docs` for the run): not
/// when some function would need the interpreter.
fn keep_schema(
    store: &dyn SchemaStore,
    storable: stored::Storable,
    lowered: &Type,
    docs: &mut Documents,
    sources: &SourceLines,
    backend: &dyn Backend,
) {
    let stored::Storable {
        files,
        templates,
        functions,
        star_files,
        loaded,
    } = storable;
    let mut rules = stored::StoredRules {
        functions: functions.len(),
        program: None,
    };
    if !functions.is_empty() {
        rules.program = backend.rule_program(lowered, sources).map(Arc::new);
        docs.rules.clone_from(&rules.program);
        let program = rules.program.as_deref();
        if !stored::rules_translated(lowered, &docs.functions, functions, program) {
            return;
        }
    }
    let key = stored::StoreKey {
        files: files.iter().map(|(n, t)| (n.as_str(), &**t)).collect(),
        star_files: star_files.iter().map(String::as_str).collect(),
    };
    let loaded: Vec<(&str, &str)> = loaded.iter().map(|(n, t)| (n.as_str(), &**t)).collect();
    store.save(&key, lowered, templates, &rules, &loaded);
}

/// The schema of the schema documents (which are consumed), and their merged document (for
/// a process that exits next to leak rather than free: see [`Leftovers`]).
fn schema_of(
    docs: &mut Documents,
    sources: &SourceLines,
    backend: &dyn Backend,
) -> Result<(Option<Arc<Type>>, Option<Tree>), CheckError> {
    if let Some(schema) = docs.stored.take() {
        return Ok((Some(Arc::new(schema)), None));
    }
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
    let overlay =
        |docs: Vec<Tree>, calls: Option<&dyn Predicates>| {
            let mut merged: Option<Tree> = None;
            for doc in docs {
                merged = Some(apply_document(merged, doc, Mode::default(), calls).map_err(
                    |e| CheckError::new(ErrorKind::Schema, format!("{prefix}{}", e.render())),
                )?);
            }
            Ok(merged)
        };
    let schema_docs = std::mem::take(&mut docs.schema);
    // A schema document's overlay annotations may call functions (`by=lambda i, l, r: ...`).
    let merged = if schema_docs.len() > 1 && !docs.functions.is_empty() {
        let mut schema_docs = Some(schema_docs);
        let mut merged = None;
        backend.with_predicates(&docs.functions, None, sources, &mut |calls| {
            merged = schema_docs.take().map(|d| overlay(d, Some(calls)));
        });
        merged.unwrap_or_else(|| {
            Err(CheckError::new(
                ErrorKind::Usage,
                "internal error: the back end ran no schema overlay",
            ))
        })?
    } else {
        overlay(schema_docs, None)?
    };
    let schema = backend
        .schema(merged.as_ref(), sources)
        .map_err(|e| e.prefixed(&prefix))?;
    Ok((schema, merged))
}

/// Fills defaults into `tree` and checks it.
/// `indexes` keeps the indexes of the schema's map types from check to check.
fn type_check(
    tree: &mut Tree,
    schema: Option<&Type>,
    indexes: &mut crate::schema::FieldIndexes,
    sources: &SourceLines,
    prefix: &str,
) -> Result<(), CheckError> {
    let Some(ty) = schema else { return Ok(()) };
    type_violations(
        typecheck::fill_and_check_indexed(tree, ty, indexes),
        sources,
        prefix,
    )
}

/// The error that type violations are, if there are some.
fn type_violations(
    violations: Vec<typecheck::TypeViolation>,
    sources: &SourceLines,
    prefix: &str,
) -> Result<(), CheckError> {
    if violations.is_empty() {
        return Ok(());
    }
    // Each failure quotes its line: many on one long line are bounded by the error budget.
    let mut budget = crate::report::ErrorBudget::default();
    let failures = violations
        .iter()
        .filter(|v| budget.admit(v.report_bytes(sources)))
        .map(|v| v.to_failure(sources))
        .collect();
    let report = SchemaReport {
        summary: "One or more data values were invalid".into(),
        failures,
        misc: budget.left_out_line().unwrap_or_default(),
    };
    Err(
        CheckError::new(ErrorKind::TypeCheck, format!("{prefix}{}", report.render()))
            .at_opt(report.first_pos()),
    )
}

/// Reads the schema in `files` (schema documents and `.star` helpers): the IR, and every file
/// given (read when [`LoadedSchema::sources`] asks for them, if no template loaded them).
pub fn load_schema(files: &[String], backend: &dyn Backend) -> Result<LoadedSchema, CheckError> {
    load_schema_for(files, &Default::default(), backend, SchemaUse::Validator)
}

/// [`load_schema`] for the use `to`.
pub fn load_schema_for(
    files: &[String],
    symlinks: &crate::inputs::Symlinks,
    backend: &dyn Backend,
    to: SchemaUse,
) -> Result<LoadedSchema, CheckError> {
    load_schema_inputs(read_inputs(files, symlinks)?, backend, to)
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
    load_schema_inputs(inputs, backend, SchemaUse::Validator)
}

fn load_schema_inputs(
    inputs: Vec<Input>,
    backend: &dyn Backend,
    to: SchemaUse,
) -> Result<LoadedSchema, CheckError> {
    let (loaded, calls_math) = crate::cli::calls_math(|| evaluate_schema(inputs, backend, to));
    if calls_math {
        // A schema that fails after a call warns as ytt does (`schemac gen`'s report).
        crate::cli::MATH_USED.store(true, std::sync::atomic::Ordering::Relaxed);
    }
    Ok(LoadedSchema {
        calls_math,
        ..loaded?
    })
}

/// [`load_schema_inputs`]'s evaluation of the schema files.
fn evaluate_schema(
    inputs: Vec<Input>,
    backend: &dyn Backend,
    to: SchemaUse,
) -> Result<LoadedSchema, CheckError> {
    let mut sources = SourceLines::default();
    let opts = Request {
        schema_inspect: to == SchemaUse::Export,
        ..Request::default()
    };
    let package_values::SetApart {
        rest: inputs,
        all,
        values: values_files,
        values_need_starlark,
    } = match to {
        SchemaUse::Validator => package_values::set_apart(inputs),
        SchemaUse::Export => package_values::SetApart {
            all: Vec::new(),
            rest: inputs,
            values: Vec::new(),
            values_need_starlark: false,
        },
    };
    let mut docs = load_documents(
        &inputs,
        0,
        &opts,
        false,
        &mut sources,
        backend,
        None,
        &mut |_, _| Ok(()),
    )?;
    if to == SchemaUse::Validator && !docs.values.is_empty() {
        return Err(CheckError::new(
            ErrorKind::Usage,
            format!(
                "{} has a document that is both a data values schema and data values: a validator builds the schema in, and cannot read that document's data values again on each run (make them a document of their own, in a file of its own)",
                docs.values_files.join(", ")
            ),
        ));
    }
    let schema = schema_of(&mut docs, &sources, backend)?
        .0
        .map(|s| Arc::try_unwrap(s).unwrap_or_else(|shared| (*shared).clone()));
    Ok(LoadedSchema {
        schema,
        files: match to {
            SchemaUse::Validator => all,
            SchemaUse::Export => inputs.into_iter().map(|i| (i.name, i.text)).collect(),
        },
        functions: docs.functions.len(),
        templates: docs.templates,
        calls_math: false,
        values_files,
        values_need_starlark,
    })
}

/// What a run produces: the final data values, or the schema's OpenAPI document.
pub enum Outcome {
    DataValues(Node),
    /// The data values are the one data values document, an empty collection its code made
    /// (`--- #@ {}`, no schema, no flags): ytt keeps Starlark's value, a Go value its printer
    /// writes (`{}`, `[]`) where it skips an empty document.
    EmptyFromCode(Node),
    /// The data values are made on the document of the annotations after a file's last node
    /// (`#@data/values` with no `---` after it; no schema under them): that document has no
    /// position in ytt, whose printer skips it, so nothing is printed (exit 0).
    Unprinted(Node),
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
    /// The schema document the schema was lowered from (a run of `schemac check`): freeing
    /// it costs about a twentieth of lowering it.
    _schema_doc: Option<Tree>,
}

/// A run that ends with `outcome` and holds nothing else.
fn done(outcome: Outcome) -> Result<Leftovers, CheckError> {
    Ok(Leftovers {
        outcome,
        _tree: None,
        _schema: None,
        _schema_doc: None,
    })
}

/// Runs the pipeline; returns what goes to stdout.
pub fn run(opts: &Request, backend: &dyn Backend) -> Result<String, CheckError> {
    run_keeping(opts, backend).map(|(out, _)| out)
}

/// What an outcome prints on stdout; violations are the error ytt reports.
pub fn render(outcome: &Outcome, opts: &Request) -> Result<String, CheckError> {
    use crate::yaml::emit::budget::{self, ExportForm};
    match outcome {
        Outcome::JsonSchema(node) => {
            budget::export_text(node, "the JSON Schema", node.pos, ExportForm::IndentedJson)
        }
        Outcome::Invalid(violations) => Err(CheckError::new(
            ErrorKind::Validation,
            validate::render(violations),
        )
        .at_opt(violations.first().map(|v| v.value_pos))),
        Outcome::Unprinted(_) => Ok(String::new()),
        Outcome::EmptyFromCode(node) => {
            // `{}` or `[]`, in YAML as in JSON (a line of its own in YAML)
            let flow = crate::yaml::json::marshal_json(&node.value).unwrap_or_default();
            Ok(if opts.json() { flow } else { flow + "\n" })
        }
        Outcome::OpenApi(node) => {
            let form = match opts.json() {
                true => ExportForm::CompactJson,
                false => ExportForm::Yaml,
            };
            budget::export_text(node, "the OpenAPI document", node.pos, form)
        }
        Outcome::DataValues(node) if opts.json() => Ok(crate::yaml::json::to_json(&node.value)),
        Outcome::DataValues(node) => Ok(crate::yaml::emit::to_yaml(&node.value)),
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
    evaluate_given(opts, None, backend)
}

/// [`evaluate`], also handing back the memory the run used.
pub fn evaluate_keeping(opts: &Request, backend: &dyn Backend) -> Result<Leftovers, CheckError> {
    evaluate_inputs(
        read_inputs(&opts.files, &opts.symlinks)?,
        opts,
        None,
        backend,
    )
}

/// [`evaluate`] with data values already in memory (when `given`), taken whole (not copied),
/// after the request's own.
pub fn evaluate_given(
    opts: &Request,
    given: Option<GivenValues>,
    backend: &dyn Backend,
) -> Result<Outcome, CheckError> {
    let inputs = read_inputs(&opts.files, &opts.symlinks)?;
    evaluate_inputs(inputs, opts, given, backend).map(|leftovers| leftovers.outcome)
}

/// [`run`] on files already in memory, in place of those `opts.files` names (for the fuzz
/// targets: the whole pipeline without a file system).
pub fn run_inputs(
    inputs: Vec<Input>,
    opts: &Request,
    backend: &dyn Backend,
) -> Result<String, CheckError> {
    let leftovers = evaluate_inputs(inputs, opts, None, backend)?;
    render(&leftovers.outcome, opts)
}

fn evaluate_inputs(
    inputs: Vec<Input>,
    opts: &Request,
    given: Option<GivenValues>,
    backend: &dyn Backend,
) -> Result<Leftovers, CheckError> {
    crate::overlay::start_run();
    let (inputs, prepended) = package_values::with_builtin_values(backend, opts, inputs);
    let mut sources = SourceLines::default();
    for (name, text) in backend.builtin_sources() {
        sources.add(name, text);
    }
    // ytt reads the data values flags before the files' YAML, and checks `-o` after the schema.
    let mut additional = crate::data_values::documents(opts, &mut sources)?;
    if let Some(GivenValues { name, text, doc }) = given {
        sources.add(&name, &text);
        additional.push(doc);
    }
    let mut schema = None;
    let mut schema_doc = None;
    let docs = load_documents(
        &inputs,
        prepended,
        opts,
        !additional.is_empty(),
        &mut sources,
        backend,
        backend.schema_store(),
        &mut |docs, sources| {
            let (lowered, doc) = schema_of(docs, sources, backend)?;
            if let (Some(store), Some(storable), Some(lowered)) = (
                backend.schema_store(),
                docs.storable.take(),
                lowered.as_deref(),
            ) {
                keep_schema(store, storable, lowered, docs, sources, backend);
            }
            (schema, schema_doc) = (Some(lowered), doc);
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
    // (The document of annotations after a file's last node is the one without a line.)
    let unprinted = schema.is_none() && docs.values.first().is_some_and(|d| d.pos.line == 0);
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
    let empty_from_code = docs.first_values_from_code && schema.is_none() && layers.len() == 1;
    let mut finished = None;
    let rules = schema.as_deref().map(|s| (s, docs.rules.as_deref()));
    backend.with_predicates(&docs.functions, rules, &sources, &mut |calls| {
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
    let finished = finished.unwrap_or_else(|| {
        Err(CheckError::new(
            ErrorKind::Usage,
            "internal error: the back end ran no validation",
        ))
    });
    finished.map(|leftovers| Leftovers {
        _schema_doc: schema_doc,
        outcome: match leftovers.outcome {
            Outcome::DataValues(node) if empty_from_code => Outcome::EmptyFromCode(node),
            Outcome::DataValues(node) if unprinted => Outcome::Unprinted(node),
            outcome => outcome,
        },
        ..leftovers
    })
}

/// Overlays the data values `layers` onto `current` (the schema's defaults), type-checking
/// each result, then validates the final data values with `calls` running their functions.
/// What the run learns of the schema is kept for the thread's next run on it (see
/// [`schema_facts`]).
fn overlay_and_validate(
    current: Option<Tree>,
    layers: Vec<(Tree, Mode)>,
    schema: Option<Arc<Type>>,
    sources: &SourceLines,
    prefix: &str,
    opts: &Request,
    calls: &dyn Predicates,
) -> Result<Leftovers, CheckError> {
    let kept_for = schema.clone();
    let mut facts = kept_for
        .as_ref()
        .map_or_else(SchemaFacts::default, schema_facts::take);
    let result = overlay_and_validate_knowing(
        current, layers, schema, sources, prefix, opts, calls, &mut facts,
    );
    if let Some(schema) = kept_for {
        schema_facts::keep(schema, facts);
    }
    result
}

/// [`overlay_and_validate`] with what earlier runs learnt of the schema (`facts`).
#[allow(clippy::too_many_arguments)]
fn overlay_and_validate_knowing(
    mut current: Option<Tree>,
    layers: Vec<(Tree, Mode)>,
    schema: Option<Arc<Type>>,
    sources: &SourceLines,
    prefix: &str,
    opts: &Request,
    calls: &dyn Predicates,
    facts: &mut SchemaFacts,
) -> Result<Leftovers, CheckError> {
    // The tree is kept beside the plain data only for `#@assert/validate` annotations (the
    // defaults added carry none). Without them, the last layer's tree is checked and made
    // plain data in one walk, which fills the defaults into the plain data and frees the tree
    // as it goes.
    let keeps_tree = |tree: &Tree| {
        opts.validate
            && sources.any_text_contains(validate::ASSERT_VALIDATE)
            && tree.has_ann_under(validate::ASSERT_VALIDATE)
    };
    let last = layers.len();
    let mut plain = None;
    // The result's top map's index is kept from one layer to the next (each env variable is a
    // layer); a type check may fill in defaults, so it then forgets it. Onto the schema's
    // defaults (`current`), it starts from what earlier runs learnt of their document.
    let mut kept = match &current {
        Some(defaults) if schema.is_some() && !layers.is_empty() => facts.defaults_index(defaults),
        _ => KeptIndex::default(),
    };
    // (A schema with no NaN key anywhere, nearly every one, is walked once for it.)
    let nan_key = schema.as_deref().is_some_and(|ty| {
        let indexes = &mut facts.indexes;
        *facts
            .defaults_nan_key
            .get_or_insert_with(|| indexes.nan_keys(ty) && typecheck::defaults_nan_key(ty))
    });
    // Each layer's result is checked against the schema: its map types' indexes are made once
    // (and kept from run to run, in `facts`).
    let indexes = &mut facts.indexes;
    // The type checks share the schema's map and array defaults between the maps they fill,
    // and an overlay shares the collection it sets as several items' values, as ytt's do (see
    // `crate::shared_defaults`).
    let _sharing = crate::shared_defaults::Run::begin();
    // ytt checks the schema's defaults as its first data values document: a NaN key there
    // equals no key, not even its own, so it is not declared (`.nan: 1`). Others always pass.
    if let Some(defaults) = current.as_ref().filter(|_| nan_key) {
        let mut defaults = defaults.clone();
        type_check(&mut defaults, schema.as_deref(), indexes, sources, prefix)?;
    }
    for (i, (doc, mode)) in layers.into_iter().enumerate() {
        let mut merged = apply_document_indexed(current, doc, mode, Some(calls), &mut kept)
            .map_err(|e| CheckError::new(ErrorKind::Overlay, format!("{prefix}{}", e.render())))?;
        crate::shared_defaults::sync(&mut merged);
        match schema.as_deref() {
            Some(ty) if i + 1 == last && !keeps_tree(&merged) => {
                let filled = typecheck::check_into_filled_node(merged, ty, std::mem::take(indexes));
                *indexes = filled.indexes;
                type_violations(filled.violations, sources, prefix)?;
                plain = Some((filled.node, filled.keys_may_repeat));
                current = None;
            }
            _ => {
                if schema.is_some() {
                    kept.forget();
                }
                type_check(&mut merged, schema.as_deref(), indexes, sources, prefix)?;
                current = Some(merged);
            }
        }
    }
    // (the last flag: whether a map of the data may hold a key twice)
    let (node, tree, keys_may_repeat) = match (plain, current) {
        (Some((node, keys_may_repeat)), _) => (node, None, keys_may_repeat),
        (None, None) => return done(Outcome::DataValues(Node::null(Pos::unknown()))),
        (None, Some(mut result)) if keeps_tree(&result) => (result.take_node(), Some(result), true),
        (None, Some(result)) => (result.into_node(), None, true),
    };
    if opts.validate {
        let violations = validate::validate(
            tree.as_ref(),
            &node,
            schema.as_deref(),
            calls,
            &mut facts.rules,
        )
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
    let repeated = match keys_may_repeat {
        true => node.first_repeated_key(),
        false => None,
    };
    if let Some((first, again)) = repeated {
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
        _schema_doc: None,
    })
}
