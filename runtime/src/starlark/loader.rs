//! `load()` of a `.star` file from a template: the file found among the run's files, compiled
//! in ytt's dialect and run once per load; its errors reported at the `load()` as ytt reports
//! them (`cannot load F: Evaluating starlark template:` with the file's own error under
//! `reason:`).

use starlark::environment::FrozenModule;
use starlark::eval::FileLoader;
use starlark::syntax::AstModule;

use super::{dialect, modules, run};
use crate::template::compile::{compile_starlark, CompileError, Program};
use crate::template::{library, Load, Sources, TemplateError};

pub(super) struct Loader<'a> {
    pub(super) sources: &'a Sources,
    pub(super) from: &'a str,
    /// The root of `from`'s library (see [`crate::template::library`]).
    pub(super) root: &'a str,
}

impl FileLoader for Loader<'_> {
    fn load(&self, path: &str) -> starlark::Result<FrozenModule> {
        let module = self.load_module(path)?;
        // The interpreter binds the names `load()` asks for next: a name the module lacks is
        // starlark-go's error with a hint from these ([`nearest_loaded_name`]).
        // The guards a module binds, and its load bindings schemac renamed, are none of its
        // names (see `guard_names`).
        let names = module
            .names()
            .filter(|n| {
                let value = module.get(n.as_str());
                !value.is_ok_and(|v| super::guard_names::is_guard_value(v.value()))
                    && super::guard_names::shown_name(n.as_str()) == n.as_str()
            })
            .map(|n| n.as_str().to_string())
            .collect();
        LOADED_NAMES.with(|loaded| *loaded.borrow_mut() = Some((path.to_string(), names)));
        Ok(module)
    }
}

/// starlark-go's hint for `name`, which the module loaded last as `path` does not define: the
/// nearest of its names (in sorted order, as starlark-go lists a module's names).
pub(super) fn nearest_loaded_name(path: &str, name: &str) -> Option<String> {
    LOADED_NAMES.with(|loaded| {
        let loaded = loaded.borrow();
        let (_, names) = loaded.as_ref().filter(|(p, _)| p == path)?;
        let mut names: Vec<&str> = names.iter().map(String::as_str).collect();
        names.sort_unstable();
        crate::spell::nearest(name, &names).map(str::to_string)
    })
}

impl Loader<'_> {
    /// Notes what a `load()` reached, for a store keeping a schema ([`Sources::loads`]).
    fn record(&self, load: Load) {
        if let Ok(mut loads) = self.sources.loads.lock() {
            loads.push(load);
        }
    }

    fn load_module(&self, path: &str) -> starlark::Result<FrozenModule> {
        if let Some(m) = modules::ytt_module(path) {
            // (`@ytt:math`'s functions have ytt warn once the run ends: output of their own.)
            if matches!(path, "@ytt:data" | "@ytt:library" | "@ytt:math") {
                self.record(Load::Outside);
            }
            return Ok(m);
        }
        if let Some(module) = path.strip_prefix("@ytt:") {
            return Err(starlark::Error::new_other(anyhow::anyhow!(
                "cannot load {path}: builtin ytt library does not have module '{module}' (hint: is it available in newer version of ytt?)"
            )));
        }
        let fail =
            |e: String| starlark::Error::new_other(anyhow::anyhow!("cannot load {path}: {e}"));
        let dir = library::dir_of(self.from);
        // `@name:file`: a file of the private library `name`, which is then its root.
        let (root, found) = match path.strip_prefix('@') {
            Some(lib) => {
                let (lib, file) = lib.split_once(':').ok_or_else(|| {
                    fail("Expected library path to be in format '@name:path' e.g. '@github.com/vmware-tanzu/test:test.star' or '@ytt:base64'".into())
                })?;
                let root = library::private_library(&self.sources.files, dir, lib).map_err(fail)?;
                let found = library::find(&self.sources.files, &root, &root, file);
                (root, found)
            }
            None => (
                self.root.to_string(),
                library::find(&self.sources.files, self.root, dir, path),
            ),
        };
        let (name, src) = found.map_err(fail)?;
        let kind = library_kind(&name)
            .map_err(|e| starlark::Error::new_other(anyhow::anyhow!("cannot load {path}: {e}")))?;
        self.record(match kind {
            LibraryKind::Starlark if !path.starts_with('@') => Load::Star(name.clone()),
            _ => Load::Outside,
        });
        // A file loading itself, directly or not, would recurse until the stack overflows (as
        // it does in ytt).
        let cycle = LOADING.with(|loading| {
            let loading = loading.borrow();
            let at = loading.iter().position(|f| *f == name)?;
            let chain: Vec<&str> = loading[at..].iter().map(String::as_str).collect();
            Some(format!("{} -> {name}", chain.join(" -> ")))
        });
        if let Some(cycle) =
            cycle.or_else(|| (name == self.from).then(|| format!("{name} -> {name}")))
        {
            return Err(starlark::Error::new_other(anyhow::anyhow!(
                "cannot load {path}: cycle in load graph ({cycle})"
            )));
        }
        if let Err(e) = count_load() {
            let message = format!("cannot load {path}: {e}");
            LOADS_EXCEEDED.with(|x| *x.borrow_mut() = Some(message.clone()));
            return Err(starlark::Error::new_other(anyhow::anyhow!(message)));
        }
        // Read now, as ytt reads a file only when it is loaded.
        let src = src.get().map_err(fail)?;
        let compiled = match kind {
            LibraryKind::Starlark => compile_starlark(src),
            LibraryKind::Yaml => compile_yaml(&name, src, self.sources.ignore_unknown_comments)?,
            LibraryKind::Text => return text_library(path, src),
        };
        let ran = match compiled {
            Ok(program) => {
                LOADING.with(|loading| loading.borrow_mut().push(name.clone()));
                let ran = run(
                    &name,
                    crate::value::FileName::new(&name),
                    &program,
                    self.sources,
                    kind == LibraryKind::Yaml,
                    &root,
                );
                LOADING.with(|loading| loading.borrow_mut().pop());
                ran
            }
            Err(e) => Err(compile_failed(&name, e, self.sources)),
        };
        let (module, _) = ran.map_err(|error| {
            // The budget's error passes through the loads above it as it is: wrapped at each
            // of 2,000 levels, its message would take seconds to write.
            if let Some(e) = LOADS_EXCEEDED.with(|x| x.borrow().clone()) {
                if LOADING.with(|loading| loading.borrow().is_empty()) {
                    LOADS_EXCEEDED.with(|x| x.borrow_mut().take());
                }
                return starlark::Error::new_other(anyhow::anyhow!(e));
            }
            starlark::Error::new_other(LoadFailed {
                path: path.to_string(),
                starlark: kind == LibraryKind::Starlark,
                error: Box::new(error),
            })
        })?;
        Ok(module)
    }
}

/// What a file `load()` finds is, by its name as ytt tells: a library file is a `.star` file
/// or one whose next-to-last extension is `lib` (`helpers.lib.yml`), and its type is its last
/// extension.
#[derive(Clone, Copy, PartialEq)]
enum LibraryKind {
    Starlark,
    Yaml,
    Text,
}

fn library_kind(name: &str) -> Result<LibraryKind, String> {
    let base = name.rsplit('/').next().unwrap_or(name);
    let exts: Vec<&str> = base.split('.').collect();
    let module = (exts.len() > 2 && exts[exts.len() - 2] == "lib") || base.ends_with(".star");
    if !module {
        return Err(format!(
            "Expected file '{name}' to be a library file, but was not (hint: library filename must end with '.lib.yml' or '.star'; use data.read(...) for loading non-templated file contents)"
        ));
    }
    if base.ends_with(".yaml") || base.ends_with(".yml") {
        Ok(LibraryKind::Yaml)
    } else if base.ends_with(".star") {
        Ok(LibraryKind::Starlark)
    } else if base.ends_with(".txt") {
        Ok(LibraryKind::Text)
    } else {
        Err(format!("File '{name}' type is not a known"))
    }
}

/// The program of the library file `name` (`text`) as `load()` compiles it (a `.star` file, or
/// a YAML library as a template), for the lines of its errors; `None` if it does not compile.
pub(super) fn compiled_library(name: &str, text: &str, sources: &Sources) -> Option<Program> {
    match library_kind(name) {
        Ok(LibraryKind::Yaml) => compile_yaml(name, text, sources.ignore_unknown_comments)
            .ok()?
            .ok(),
        _ => compile_starlark(text).ok(),
    }
}

/// A YAML library file compiled as a template (its documents are built when it is loaded,
/// and dropped). The outer error is one ytt gives without running the file (it does not
/// parse, or holds what a template may not), the inner one a template that does not compile.
pub(super) fn compile_yaml(
    name: &str,
    src: &str,
    ignore_unknown_comments: bool,
) -> starlark::Result<Result<Program, CompileError>> {
    let fail = |m: String| starlark::Error::new_other(anyhow::anyhow!("cannot load {name}: {m}"));
    let raw = crate::yaml::parse::parse_file(name, src, false).map_err(|e| {
        fail(format!(
            "Unmarshaling YAML template '{name}': {}",
            e.detail()
        ))
    })?;
    if let Some((_, detail)) = crate::template::compile::refused(&raw, ignore_unknown_comments) {
        return Err(fail(format!("Compiling YAML template '{name}': {detail}")));
    }
    Ok(crate::template::compile::compile(&raw))
}

/// A text library file (`.lib.txt`): one without code defines nothing; schemac does not
/// evaluate text templates.
fn text_library(path: &str, src: &str) -> starlark::Result<FrozenModule> {
    if src.contains("(@") {
        return Err(starlark::Error::new_other(anyhow::anyhow!(
            "cannot load {path}: schemac does not evaluate text templates (.lib.txt) in data values or schema files"
        )));
    }
    let globals = starlark::environment::GlobalsBuilder::new().build();
    FrozenModule::from_globals(&globals).map_err(starlark::Error::new_other)
}

/// The error of a `.star` file that `load()` ran: ytt reports it at the `load()`, with the
/// file's own error under `reason:`.
#[derive(Debug)]
struct LoadFailed {
    path: String,
    /// A `.star` file (ytt says it was evaluating a Starlark template; of a YAML one, nothing).
    starlark: bool,
    error: Box<TemplateError>,
}

impl std::fmt::Display for LoadFailed {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let what = if self.starlark {
            "Evaluating starlark template: "
        } else {
            ""
        };
        write!(f, "cannot load {}: {what}", self.path)
    }
}

impl std::error::Error for LoadFailed {}

/// The error of the file that `load()` ran, when `e` is that `load()` failing.
pub(super) fn load_reason(e: &starlark::Error) -> Option<Box<TemplateError>> {
    let failed: &LoadFailed = match e.kind() {
        starlark::ErrorKind::Native(a) | starlark::ErrorKind::Other(a) => a.downcast_ref()?,
        _ => return None,
    };
    Some(failed.error.clone())
}

thread_local! {
    /// The files whose `load()` is running on this thread, outermost first.
    static LOADING: std::cell::RefCell<Vec<String>> = const { std::cell::RefCell::new(Vec::new()) };
    /// The files loaded since the template being evaluated started ([`start_template`]).
    static LOADS: std::cell::Cell<usize> = const { std::cell::Cell::new(0) };
    /// The loads budget's error, once a load went past it, until it reaches the template.
    static LOADS_EXCEEDED: std::cell::RefCell<Option<String>> = const { std::cell::RefCell::new(None) };
    /// The path of the module `load()` loaded last, as written, and the names it defines.
    static LOADED_NAMES: std::cell::RefCell<Option<(String, Vec<String>)>> = const { std::cell::RefCell::new(None) };
}

/// The error of a template or `.star` file whose blocks do not compile: starlark-go's parser
/// reads the code before the error first, so a syntax error there is reported instead.
pub(super) fn compile_failed(name: &str, e: CompileError, sources: &Sources) -> TemplateError {
    if let Some(before) = e.before {
        let source = match super::go_reading(
            &before.source,
            &super::guard_names::GuardNames::for_source(&before.source),
        ) {
            Ok(source) => source,
            // A literal starlark-go's scanner refuses, read before the error (a `pass`).
            Err((literal, read)) => {
                let mut error = super::literal_refused(name, &before, sources, literal, read);
                if let Some(generated) = &mut error.generated {
                    generated.template = sources.next_template_id();
                }
                return error;
            }
        };
        let parse = |text: &str| match super::source_too_deep(text) {
            None => AstModule::parse(name, text.to_string(), &dialect()).map(|_| ()),
            Some(_) => Ok(()),
        };
        let parsed = parse(&source).map_err(|err| {
            // A block header cut at its end (`def f(x: int):`): the crate refuses a type
            // annotation only once the statement holding it is whole, where starlark-go's
            // parser stops at it.
            let body = format!("{source}\n{}pass\n", " ".repeat(last_indent(&source) + 1));
            match parse(&body) {
                Err(annotation) if is_type_annotation(&annotation) => annotation,
                _ => err,
            }
        });
        // A trailing comma starlark-go's parser refuses (`def f(*a,):`), where the crate's
        // parser takes it.
        let comma = super::star_commas::first_refused(name, &source);
        if let Err(err) = parsed {
            // A reserved word's error is the parser's at a stand-in for it (a malformed
            // `while` statement's, an `if`'s): whether it is at the code's end is decided there.
            let (err, reserved) = super::parse_error::at_reserved_word(name, err);
            // The code stops where the error is: running out of it is no error of its own.
            let at_end = err
                .span()
                .is_some_and(|s| s.resolve_span().begin.line >= source.lines().count());
            // ytt's scanner stopped at the end of `before` (its `pass`): what is met there
            // would only have been read past it.
            // (Or at the brackets this program closes a `return`'s value with, which end it:
            // a `.star` file's last line.)
            let at_stop = e.scanner_stop
                && err.span().is_some_and(|s| {
                    let at = s.resolve_span().begin;
                    (at.line, at.column) >= end_of_text(&source)
                        || source
                            .get(s.span.begin().get() as usize..)
                            .and_then(crate::template::lexer::after_return_close)
                            .is_some_and(|rest| rest.trim_end_matches(',').is_empty())
                });
            // (But starlark-go's parser stops at a `:` that ends a `def`'s parameters, `def
            // f(v:`, before it reads on to the `end` that stopped the code.)
            let cut_short = (at_end || at_stop || err.to_string().contains("end of file"))
                && super::parse_error::colon_in_def_parameters(&source, "").is_none();
            // starlark-go's resolver checks some of what the crate's parser does: only after
            // the whole file parsed (an `unexpected end` further down comes first).
            let syntax =
                !super::resolver_patch::found_by_resolver(&err.without_diagnostic().to_string());
            let comma_first = comma.as_ref().is_some_and(|r| {
                err.span().is_none_or(|s| {
                    let at = s.resolve_span().begin;
                    (r.line, r.column) <= (at.line, at.column)
                })
            });
            // starlark-go's parser refuses a type annotation where the crate refuses it as its
            // dialect's (an error of no parser kind).
            let annotation = is_type_annotation(&err);
            let parser_error = matches!(err.kind(), starlark::ErrorKind::Parser(_)) && !cut_short;
            if (parser_error || annotation) && syntax && !comma_first {
                let program = Program { source, ..*before };
                let mut error = super::reserved_word_error(name, &program, err, reserved, sources);
                if let Some(generated) = &mut error.generated {
                    // The number the template would have run with.
                    generated.template = sources.next_template_id();
                }
                return error;
            }
        }
        if let Some(r) = comma {
            let line = before.line_map.get(r.line).copied();
            return TemplateError::compile(name, line, r.message.to_string());
        }
    }
    let generated = e.generated.map(|mut generated| {
        // The number the template would have run with.
        generated.template = sources.next_template_id();
        generated
    });
    TemplateError {
        quote: e.quote,
        generated,
        ..TemplateError::compile(name, Some(e.line), e.message)
    }
}

/// Whether `err` is the crate's refusal of a type annotation in ytt's dialect.
fn is_type_annotation(err: &starlark::Error) -> bool {
    err.without_diagnostic().to_string() == super::parse_error::TYPE_ANNOTATION
}

/// The indentation (in columns) of the last line of `text` that is not blank.
fn last_indent(text: &str) -> usize {
    let line = text.lines().rev().find(|l| !l.trim().is_empty());
    line.map_or(0, |l| l.len() - l.trim_start_matches([' ', '\t']).len())
}

/// The line and column (0-based, in characters) where `text` ends, blanks at the end of its
/// last line left out.
fn end_of_text(text: &str) -> (usize, usize) {
    let text = text.trim_end_matches([' ', '\t']);
    let line_start = text.rfind('\n').map_or(0, |i| i + 1);
    (
        text.matches('\n').count(),
        text[line_start..].chars().count(),
    )
}

/// How many files one template may load, counting the loads of the files it loads (ytt, like
/// schemac, runs a file again at each load): a chain of files each loading the next, or files
/// each loading the next level twice (2^30 loads), would otherwise run for minutes and hold
/// every loaded module. Raised with `SCHEMAC_MAX_LOADS`.
pub const DEFAULT_MAX_LOADS: usize = crate::budget_vars::MAX_LOADS.default_size();

fn max_loads() -> usize {
    static MAX: std::sync::OnceLock<usize> = std::sync::OnceLock::new();
    *MAX.get_or_init(|| crate::budget_vars::MAX_LOADS.get_size())
}

/// Starts counting the loads of a template about to run against the budget
/// ([`DEFAULT_MAX_LOADS`]).
pub(super) fn start_template() {
    LOADS.with(|n| n.set(0));
    LOADS_EXCEEDED.with(|x| x.borrow_mut().take());
}

/// Counts a load of a file against the budget ([`DEFAULT_MAX_LOADS`]).
fn count_load() -> Result<(), String> {
    let n = LOADS.with(|n| {
        n.set(n.get() + 1);
        n.get()
    });
    if n > max_loads() {
        return Err(format!(
            "more than {} files loaded by one template, counting the loads of loaded files (raise the budget with SCHEMAC_MAX_LOADS)",
            max_loads()
        ));
    }
    Ok(())
}
