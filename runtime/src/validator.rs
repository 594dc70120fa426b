//! The `main` of a validator built by `schemac build`: the engine over a compiled-in schema.
//!
//! The generated crate provides a [`Validator`]: its schema IR, its OpenAPI document and JSON
//! Schema, the Rust translations of its rule functions, and (when a function has no
//! translation) the schema's sources, evaluated once at start-up so that the interpreter can
//! call those functions.

use std::sync::{Arc, OnceLock};

use crate::engine::Backend;
use crate::error::{CheckError, ErrorKind};
use crate::inputs::FileText;
use crate::lowered::calls::{Rules, TranslatedPredicates};
use crate::lowered::Translations;
use crate::report::SourceLines;
use crate::schema::Type;
use crate::template::functions::{Deferred, Functions};
use crate::template::tree::Tree;
use crate::template::{Sources, TemplateError};
use crate::validate::Predicates;
use crate::value::Node;
use crate::yaml::parse::RawFile;

/// What generated code hands to [`main`].
pub struct Validator {
    /// The validator's name (`harbor-values`), for `--help` and `--version`.
    pub name: &'static str,
    /// The schema files it was built from, as given to `schemac build`.
    pub schema_files: &'static [&'static str],
    /// The text of every file it was built from (schemas and `.star` helpers), for quoting
    /// schema lines in reports and for binding custom rules at start-up.
    pub sources: &'static [(&'static str, &'static str)],
    /// The places in [`Validator::sources`] of the package's data values files (`values.yml`
    /// of a `config/` folder), read before each run's files as ytt given the folder first
    /// reads them.
    pub values_files: &'static [usize],
    /// Whether some rule function has no translation (the interpreter runs it: the schema's
    /// sources are evaluated at start-up).
    pub needs_starlark: bool,
    /// How many values the schema's templates keep for annotations (the indices of
    /// [`crate::schema::FunctionRef`]s in the schema).
    pub functions: usize,
    /// How many templates the schema's evaluation compiled when it was built (the run's
    /// templates are numbered after them, as when `schemac check` is given the schema files).
    pub templates: u32,
    /// Whether the schema's evaluation called a `@ytt:math` function when it was built: a run
    /// that takes the schema then warns as ytt's, which evaluates it, does.
    pub schema_calls_math: bool,
    /// The translations of the schema's rule functions.
    pub translated: Translations,
    pub schema: fn() -> Type,
    pub openapi: fn() -> Node,
    pub json_schema: fn() -> Node,
    /// The validator made ready once, for the typed API's repeated loads.
    pub built: BuiltOnce,
}

/// Where a [`Validator`] keeps itself once made ready ([`BuiltOnce::new`] in generated code).
pub struct BuiltOnce(OnceLock<Result<Built, String>>);

impl BuiltOnce {
    #[allow(clippy::new_without_default)]
    pub const fn new() -> BuiltOnce {
        BuiltOnce(OnceLock::new())
    }
}

impl Validator {
    /// The validator made ready: built on the first call, kept for the next.
    pub fn built(&self) -> Result<&Built, String> {
        self.built
            .0
            .get_or_init(|| Built::new(self))
            .as_ref()
            .map_err(Clone::clone)
    }
}

/// A validator ready to run: its schema, and the functions its rules call.
pub struct Built {
    schema: Arc<Type>,
    openapi: fn() -> Node,
    json_schema: fn() -> Node,
    sources: &'static [(&'static str, &'static str)],
    /// The package's data values files (see [`Validator::values_files`]).
    values_files: Vec<(&'static str, &'static str)>,
    /// The schema's kept functions (evaluated at start-up), or their indices reserved.
    functions: Functions,
    /// Each of [`Built::functions`]' template and place among the template's kept values, when
    /// the schema's code reached what may read the run's files (`@ytt:data`, `@ytt:library`,
    /// a library file): each run makes them again with its files, as ytt evaluates the schema
    /// with them (`data.read` and `data.list` in a rule function). Empty otherwise.
    remade: Vec<(Arc<RawFile>, usize)>,
    translated: Translations,
    templates: u32,
    schema_calls_math: bool,
}

impl Built {
    /// Builds the schema and binds its custom rules (errors are start-up failures).
    pub fn new(v: &Validator) -> Result<Built, String> {
        let mut schema = (v.schema)();
        let (functions, remade) = bind_rules(v, &mut schema)?;
        Ok(Built {
            schema: Arc::new(schema),
            openapi: v.openapi,
            json_schema: v.json_schema,
            sources: v.sources,
            values_files: v.values_files.iter().map(|&at| v.sources[at]).collect(),
            functions,
            remade,
            translated: v.translated,
            templates: v.templates,
            schema_calls_math: v.schema_calls_math,
        })
    }
}

impl Backend for Built {
    fn eval_template(&self, raw: RawFile, files: &Sources) -> Result<Vec<Tree>, TemplateError> {
        crate::template::evaluate(raw, files)
    }

    fn functions(&self, files: &[(String, FileText)]) -> Functions {
        let functions = self.functions.fork();
        if !self.remade.is_empty() {
            let files = Arc::new(files.to_vec());
            for (index, (template, nth)) in self.remade.iter().enumerate() {
                let deferred = Deferred {
                    template: Arc::clone(template),
                    nth: *nth,
                    files: Arc::clone(&files),
                };
                functions.replace(index, Arc::new(deferred));
            }
        }
        functions
    }

    fn schema_templates(&self) -> u32 {
        self.templates
    }

    fn with_predicates(
        &self,
        functions: &Functions,
        _: Option<(&Type, Option<&crate::lowered::ir::Program>)>,
        _: &SourceLines,
        run: &mut dyn FnMut(&dyn Predicates),
    ) {
        let rules = Rules::Generated(self.translated);
        #[cfg(feature = "starlark")]
        crate::starlark::predicates::with_starlark_predicates(functions, |interpreter| {
            run(&TranslatedPredicates {
                rules,
                interpreter: Some(interpreter),
            })
        });
        #[cfg(not(feature = "starlark"))]
        {
            let _ = functions;
            run(&TranslatedPredicates {
                rules,
                interpreter: None,
            });
        }
    }

    fn schema(
        &self,
        docs: Option<&Tree>,
        _: &SourceLines,
    ) -> Result<Option<Arc<Type>>, CheckError> {
        match docs {
            None => {
                // Where ytt would evaluate the schema (after every file is read).
                if self.schema_calls_math {
                    crate::cli::MATH_USED.store(true, std::sync::atomic::Ordering::Relaxed);
                }
                Ok(Some(Arc::clone(&self.schema)))
            }
            Some(doc) => Err(CheckError::new(ErrorKind::Usage, format!(
                "this validator has its schema built in; schema documents given with -f are not supported (document on line {})",
                doc.pos
            )).at(doc.pos)),
        }
    }

    fn openapi(&self, _: Option<&Type>) -> Node {
        (self.openapi)()
    }

    fn json_schema(&self, _: Option<&Type>) -> Node {
        (self.json_schema)()
    }

    fn builtin_sources(&self) -> &[(&str, &str)] {
        self.sources
    }

    fn builtin_values(&self) -> &[(&str, &str)] {
        &self.values_files
    }
}

/// The functions of the schema's rules: evaluated from the schema's sources when some
/// function has no translation (the validations read off the evaluated schema document must
/// name the same functions as the IR built in), else their indices reserved; and where they
/// came from, when the runs are to make them again ([`Built::remade`]).
#[cfg(feature = "starlark")]
fn bind_rules(v: &Validator, schema: &mut Type) -> Result<(Functions, Remade), String> {
    if !v.needs_starlark {
        return Ok((Functions::reserved(v.functions), Vec::new()));
    }
    let built_in = schema.functions();
    let files = Sources::new(
        v.sources
            .iter()
            .map(|(n, t)| (n.to_string(), Arc::from(*t)))
            .collect(),
    );
    // The start-up evaluation is not the run's: the run warns of the schema's `@ytt:math`
    // calls where it takes the schema (`Backend::schema`), as ytt evaluates it.
    let mut remade = Vec::new();
    let (merged, _) = crate::cli::calls_math(|| evaluate_schema_documents(v, &files, &mut remade));
    if let Some(doc) = merged? {
        crate::validate::attach_validations(&doc, schema).map_err(|(m, _, _)| m)?;
    }
    if files.functions.len() != v.functions || schema.functions() != built_in {
        return Err(format!(
            "internal error: the schema's rule functions evaluated differently at start-up ({} kept values, {} when built)",
            files.functions.len(),
            v.functions
        ));
    }
    let reads_run = files
        .loads
        .lock()
        .is_ok_and(|loads| loads.contains(&crate::template::Load::Outside));
    if !reads_run {
        remade.clear();
    }
    Ok((files.functions, remade))
}

/// Where each of a schema's kept functions came from: its template, and its place among the
/// values the template kept.
type Remade = Vec<(Arc<RawFile>, usize)>;

/// The schema documents of a validator's sources, evaluated and merged (for [`bind_rules`]);
/// where each kept function came from is pushed to `remade`.
#[cfg(feature = "starlark")]
fn evaluate_schema_documents(
    v: &Validator,
    files: &Sources,
    remade: &mut Remade,
) -> Result<Option<Tree>, String> {
    use crate::overlay::{apply_document, Mode};
    let mut merged: Option<Tree> = None;
    // The root library's YAML templates only, as the build read them: a private library's
    // (`_ytt_lib/`) or a `*.lib.yml` schema is that library's, evaluated when it is used.
    for (name, text) in v
        .sources
        .iter()
        .filter(|(n, _)| crate::inputs::is_yaml_template(n))
    {
        let raw = crate::yaml::parse::parse_file(name, text, false)
            .map_err(|e| format!("{name}:{}: {}", e.line, e.message))?;
        // Only schema files, as when it was built: a package's templates (`config/`'s
        // manifests) are not evaluated by `--data-values-inspect`, and may fail if they were.
        if !crate::engine::file_has_doc_annotation(&raw, "data/values-schema") {
            continue;
        }
        let raw = Arc::new(raw);
        let before = files.functions.len();
        let docs = crate::starlark::eval_template(&raw, files)
            .map_err(|e| format!("{}: {}", e.file, e.message))?;
        let kept = files.functions.len() - before;
        remade.extend((0..kept).map(|nth| (Arc::clone(&raw), nth)));
        // (A `#@library/ref` schema document is a library's, not the root's.)
        for doc in docs
            .into_iter()
            .filter(|d| d.ann("data/values-schema").is_some() && d.ann("library/ref").is_none())
        {
            merged =
                Some(apply_document(merged, doc, Mode::default(), None).map_err(|e| e.render())?);
        }
    }
    Ok(merged)
}

#[cfg(not(feature = "starlark"))]
fn bind_rules(v: &Validator, _: &mut Type) -> Result<(Functions, Remade), String> {
    if !v.needs_starlark {
        Ok((Functions::reserved(v.functions), Vec::new()))
    } else {
        Err("this validator needs the Starlark interpreter: build it with the runtime's `starlark` feature".into())
    }
}

impl Validator {
    /// Runs the validator on the process's arguments; returns the exit status.
    pub fn run(&'static self) -> i32 {
        crate::cli::with_large_stack(101, move || main(self))
    }
}

/// Runs the validator on the process's arguments; returns the exit status.
pub fn main(v: &Validator) -> i32 {
    let args: Vec<std::ffi::OsString> = std::env::args_os().skip(1).collect();
    main_with(v, &args)
}

/// Runs the validator on `args` (without the program's name); returns the exit status.
pub fn main_with(v: &Validator, args: &[std::ffi::OsString]) -> i32 {
    // A bad budget variable stops the run before any work (see `budget_vars`).
    if let Some(status) = crate::budget_vars::check_env_for_main() {
        return status;
    }
    let about = about(v);
    let program = crate::cli::Program {
        command: &|| command(v),
        version: &about,
    };
    // Arguments that ytt rejects, `--help` and `--version` are answered before the schema's
    // rules are bound.
    let opts = match crate::cli::answer_args(args, &program) {
        Ok(o) => o,
        Err(status) => return status,
    };
    let built = match v.built() {
        Ok(b) => b,
        Err(e) => {
            crate::cli::output::stderr(&format!("schemac: Error: {e}\n"));
            return 1;
        }
    };
    crate::cli::run(&opts, built)
}

/// What `--version` prints, and the first line of `--help`.
fn about(v: &Validator) -> String {
    format!(
        "{} — data values validator for {}, built by schemac {}",
        v.name,
        v.schema_files.join(", "),
        env!("CARGO_PKG_VERSION")
    )
}

/// The validator's flags (ytt's), for `--help`.
pub fn command(v: &Validator) -> clap::Command {
    crate::cli::command(v.name).about(about(v))
}
