//! The `main` of a validator built by `schemac build`: the engine over a compiled-in schema.
//!
//! The generated crate provides a [`Validator`]: its schema IR, its OpenAPI document, and (when
//! a rule needs Starlark) the schema's sources, evaluated once at start-up to bind custom rules
//! and `when=` predicates to the IR.

use crate::engine::Backend;
use crate::report::SourceLines;
use crate::schema::Type;
use crate::template::tree::Tree;
use crate::template::{Sources, TemplateError};
#[cfg(not(feature = "starlark"))]
use crate::validate::CallOutcome;
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
    /// Whether some rule is a Starlark function (bound at start-up from `sources`).
    pub needs_starlark: bool,
    pub schema: fn() -> Type,
    pub openapi: fn() -> Node,
    /// The type check generated for the schema's types.
    pub type_check: crate::typecheck::TypeChecker,
    /// The defaulting generated for the schema's types.
    pub fill_defaults: crate::typecheck::DefaultsFiller,
}

/// A validator ready to run: its schema with custom rules bound.
pub struct Built {
    schema: Type,
    type_check: crate::typecheck::TypeChecker,
    fill_defaults: crate::typecheck::DefaultsFiller,
    openapi: fn() -> Node,
    sources: &'static [(&'static str, &'static str)],
}

impl Built {
    /// Builds the schema and binds its custom rules (errors are start-up failures).
    pub fn new(v: &Validator) -> Result<Built, String> {
        let mut schema = (v.schema)();
        bind_rules(v, &mut schema)?;
        Ok(Built {
            schema,
            type_check: v.type_check,
            fill_defaults: v.fill_defaults,
            openapi: v.openapi,
            sources: v.sources,
        })
    }
}

/// A validator built without Starlark has no functions to call.
#[cfg(not(feature = "starlark"))]
struct NoPredicates;

#[cfg(not(feature = "starlark"))]
impl Predicates for NoPredicates {
    fn call_rule(&self, _: &crate::template::tree::Handle, _: &Node) -> CallOutcome {
        CallOutcome::Error("this validator was built without the Starlark interpreter".into())
    }

    fn call_when(
        &self,
        _: &crate::template::tree::Handle,
        _: &Node,
        _: &crate::validate::WhenContext,
    ) -> Result<bool, String> {
        Err("this validator was built without the Starlark interpreter".into())
    }
}

impl Backend for Built {
    fn eval_template(&self, raw: RawFile, files: &Sources) -> Result<Vec<Tree>, TemplateError> {
        crate::template::evaluate(raw, files)
    }

    fn predicates(&self) -> &dyn Predicates {
        #[cfg(feature = "starlark")]
        {
            &crate::starlark::predicates::StarlarkPredicates
        }
        #[cfg(not(feature = "starlark"))]
        {
            &NoPredicates
        }
    }

    fn schema(&self, docs: Option<&Tree>, _: &SourceLines) -> Result<Option<Type>, String> {
        match docs {
            None => Ok(Some(self.schema.clone())),
            Some(doc) => Err(format!(
                "this validator has its schema built in; schema documents given with -f are not supported (document on line {})",
                doc.pos
            )),
        }
    }

    fn openapi(&self, _: Option<&Type>) -> Node {
        (self.openapi)()
    }

    fn builtin_sources(&self) -> &[(&str, &str)] {
        self.sources
    }

    fn type_checker(&self) -> crate::typecheck::TypeChecker {
        self.type_check
    }

    fn defaults_filler(&self) -> crate::typecheck::DefaultsFiller {
        self.fill_defaults
    }
}

/// Binds custom rules and `when=` predicates: evaluates the schema's sources and reads the
/// validations off the merged schema document.
#[cfg(feature = "starlark")]
fn bind_rules(v: &Validator, schema: &mut Type) -> Result<(), String> {
    use crate::overlay::{apply_document, Mode};
    if !v.needs_starlark {
        return Ok(());
    }
    let files = Sources::new(
        v.sources
            .iter()
            .map(|(n, t)| (n.to_string(), std::sync::Arc::from(*t)))
            .collect(),
    );
    let mut merged: Option<Tree> = None;
    for (name, text) in v
        .sources
        .iter()
        .filter(|(n, _)| n.ends_with(".yml") || n.ends_with(".yaml"))
    {
        let raw = crate::yaml::parse::parse_file(name, text, false)
            .map_err(|e| format!("{name}:{}: {}", e.line, e.message))?;
        let docs = crate::starlark::eval_template(&raw, &files)
            .map_err(|e| format!("{}: {}", e.file, e.message))?;
        for doc in docs
            .into_iter()
            .filter(|d| d.ann("data/values-schema").is_some())
        {
            merged = Some(apply_document(merged, doc, Mode::default()).map_err(|e| e.render())?);
        }
    }
    match merged {
        Some(doc) => crate::validate::attach_validations(&doc, schema).map_err(|(m, _)| m),
        None => Ok(()),
    }
}

#[cfg(not(feature = "starlark"))]
fn bind_rules(v: &Validator, _: &mut Type) -> Result<(), String> {
    if !v.needs_starlark {
        Ok(())
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
    let about = about(v);
    let program = crate::cli::Program {
        command: command(v),
        version: &about,
    };
    // Arguments that ytt rejects, `--help` and `--version` are answered before the schema's
    // rules are bound.
    let opts = match crate::cli::answer_args(args, &program) {
        Ok(o) => o,
        Err(status) => return status,
    };
    let built = match Built::new(v) {
        Ok(b) => b,
        Err(e) => {
            crate::cli::output::stderr(&format!("schemac: Error: {e}\n"));
            return 1;
        }
    };
    crate::cli::run(&opts, &built)
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
