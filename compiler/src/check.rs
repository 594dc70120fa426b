//! `schemac check`: the interpreter's [`Backend`]: templates evaluated with Starlark, the
//! schema lowered from the schema documents given, OpenAPI exported from it.

use schemac_runtime::engine::{Backend, SchemaStore};
use schemac_runtime::lowered::calls::{Rules, TranslatedPredicates};
use schemac_runtime::lowered::ir::Program;
use schemac_runtime::report::SourceLines;
use schemac_runtime::schema::Type;
use schemac_runtime::starlark::predicates::with_starlark_predicates;
use schemac_runtime::template::functions::{called_functions, Functions};
use schemac_runtime::template::tree::Tree;
use schemac_runtime::template::{Sources, TemplateError};
use schemac_runtime::validate::Predicates;
use schemac_runtime::value::Node;
use schemac_runtime::yaml::parse::RawFile;

pub use schemac_runtime::engine::{evaluate, CheckError, Outcome};

/// The interpreter, keeping the schemas it lowers in `store` when it has one (`schemac check`'s
/// cache) and taking them from there when the same files come again (see
/// [`schemac_runtime::engine::SchemaStore`]).
pub struct Interpreter<'a> {
    pub store: Option<&'a dyn SchemaStore>,
}

/// The interpreter without a store.
pub const INTERPRETER: Interpreter<'static> = Interpreter { store: None };

impl Backend for Interpreter<'_> {
    /// Templates whose only code is rule functions that the interpreter would run without
    /// error are read without it (see [`crate::rules::template`]).
    fn eval_template(&self, raw: RawFile, files: &Sources) -> Result<Vec<Tree>, TemplateError> {
        schemac_runtime::template::evaluate_with_rules(
            raw,
            files,
            crate::rules::template::rule_code,
        )
    }

    /// The schema's rules that translate are evaluated from the rule IR; the interpreter is
    /// started only when some kept function of the run has no translation.
    fn with_predicates(
        &self,
        functions: &Functions,
        schema: Option<(&Type, Option<&Program>)>,
        sources: &SourceLines,
        run: &mut dyn FnMut(&dyn Predicates),
    ) {
        let (schema, given) = (schema.map(|s| s.0), schema.and_then(|s| s.1));
        // (Looked for only when some function is kept: most schemas keep none.)
        let called = schema
            .filter(|_| !functions.is_empty())
            .map(called_functions)
            .unwrap_or_default();
        let callable = |i: usize| functions.callable(i, &called);
        // Without such functions (and translations made already, whose functions a store
        // kept) no rule, `when=` or overlay function can be called: no interpreter is started
        // (its heap and evaluator, some 5,000 instructions; its globals, some 2M).
        if given.is_none() && !(0..functions.len()).any(callable) {
            let none = Program::default();
            return run(&TranslatedPredicates {
                rules: Rules::Ir(&none),
                interpreter: None,
            });
        }
        let translated;
        let program = match given {
            Some(program) => program,
            None => {
                translated = schema.and_then(|s| crate::rules::for_check(s, sources));
                match &translated {
                    Some(program) => program,
                    None => return with_starlark_predicates(functions, run),
                }
            }
        };
        let rules = Rules::Ir(program);
        let untranslated =
            (0..functions.len()).any(|i| !program.entries.contains_key(&i) && callable(i));
        if untranslated {
            with_starlark_predicates(functions, |interpreter| {
                run(&TranslatedPredicates {
                    rules,
                    interpreter: Some(interpreter),
                })
            })
        } else {
            run(&TranslatedPredicates {
                rules,
                interpreter: None,
            })
        }
    }

    fn rule_program(&self, schema: &Type, sources: &SourceLines) -> Option<Program> {
        crate::rules::for_check(schema, sources)
    }

    fn schema(
        &self,
        doc: Option<&Tree>,
        sources: &SourceLines,
    ) -> Result<Option<std::sync::Arc<Type>>, CheckError> {
        match doc {
            Some(doc) => crate::lower::lower(doc, sources)
                .map(|t| Some(std::sync::Arc::new(t)))
                .map_err(CheckError::from),
            None => Ok(None),
        }
    }

    fn openapi(&self, schema: Option<&Type>) -> Node {
        crate::export::openapi::to_openapi(schema.unwrap_or(&crate::lower::empty_schema()))
    }

    fn json_schema(&self, schema: Option<&Type>) -> Node {
        crate::export::jsonschema::to_json_schema(schema.unwrap_or(&crate::lower::empty_schema()))
    }

    fn schema_store(&self) -> Option<&dyn SchemaStore> {
        self.store
    }
}

/// The interpreter with every rule, `when=` and overlay function run by Starlark, none from
/// the rule IR: what tests hold the translations to.
pub struct StarlarkRules;

impl Backend for StarlarkRules {
    fn eval_template(&self, raw: RawFile, files: &Sources) -> Result<Vec<Tree>, TemplateError> {
        INTERPRETER.eval_template(raw, files)
    }

    fn with_predicates(
        &self,
        functions: &Functions,
        _: Option<(&Type, Option<&Program>)>,
        _: &SourceLines,
        run: &mut dyn FnMut(&dyn Predicates),
    ) {
        with_starlark_predicates(functions, run)
    }

    fn schema(
        &self,
        doc: Option<&Tree>,
        sources: &SourceLines,
    ) -> Result<Option<std::sync::Arc<Type>>, CheckError> {
        INTERPRETER.schema(doc, sources)
    }

    fn openapi(&self, schema: Option<&Type>) -> Node {
        INTERPRETER.openapi(schema)
    }

    fn json_schema(&self, schema: Option<&Type>) -> Node {
        INTERPRETER.json_schema(schema)
    }
}

/// `schemac check ARGS...`: prints the result; returns the exit status. Lowered schemas are
/// kept in `store` when one is given.
pub fn main_with(args: &[std::ffi::OsString], store: Option<&dyn SchemaStore>) -> i32 {
    let version = format!("schemac {}", env!("CARGO_PKG_VERSION"));
    let program = schemac_runtime::cli::Program {
        command: &command,
        version: &version,
    };
    schemac_runtime::cli::main_with(args, &Interpreter { store }, &program)
}

/// The flags of `schemac check` (ytt's), for `--help` and completions.
pub fn command() -> schemac_runtime::cli::Command {
    schemac_runtime::cli::command("check")
        .bin_name("schemac check")
        .about("Check data values against a ytt schema; print what `ytt ... --data-values-inspect` prints")
}
