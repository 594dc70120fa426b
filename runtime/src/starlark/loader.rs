//! `load()` of a `.star` file from a template: the file found among the run's files, compiled
//! in ytt's dialect and run once per load; its errors reported at the `load()` as ytt reports
//! them (`cannot load F: Evaluating starlark template:` with the file's own error under
//! `reason:`).

use starlark::environment::FrozenModule;
use starlark::eval::FileLoader;
use starlark::syntax::AstModule;

use super::{dialect, modules, run, to_template_error};
use crate::template::compile::{compile_starlark, CompileError, Program};
use crate::template::{Sources, TemplateError};

pub(super) struct Loader<'a> {
    pub(super) sources: &'a Sources,
    pub(super) from: &'a str,
}

impl FileLoader for Loader<'_> {
    fn load(&self, path: &str) -> starlark::Result<FrozenModule> {
        if let Some(m) = modules::ytt_module(path) {
            return Ok(m);
        }
        if let Some(module) = path.strip_prefix("@ytt:") {
            return Err(starlark::Error::new_other(anyhow::anyhow!(
                "cannot load {path}: builtin ytt library does not have module '{module}' (hint: is it available in newer version of ytt?)"
            )));
        }
        if let Some(library) = path.strip_prefix('@') {
            let has_libraries = self
                .sources
                .files
                .iter()
                .any(|(n, _)| n.starts_with("_ytt_lib/"));
            let message = if !library.contains(':') {
                Some("Expected library path to be in format '@name:path' e.g. '@github.com/vmware-tanzu/test:test.star' or '@ytt:base64'")
            } else if !has_libraries {
                Some("Could not find private library (directory '_ytt_lib' missing?)")
            } else {
                None
            };
            if let Some(m) = message {
                return Err(starlark::Error::new_other(anyhow::anyhow!(
                    "cannot load {path}: {m}"
                )));
            }
        }
        let (name, src) = self
            .sources
            .find(self.from, path)
            .map_err(|m| starlark::Error::new_other(anyhow::anyhow!("cannot load {path}: {m}")))?;
        let template = [".lib.yml", ".lib.yaml"].iter().any(|e| name.ends_with(e));
        if !template && !name.ends_with(".star") {
            return Err(starlark::Error::new_other(anyhow::anyhow!(
                "cannot load {path}: Expected file '{name}' to be a library file, but was not (hint: library filename must end with '.lib.yml' or '.star'; use data.read(...) for loading non-templated file contents)"
            )));
        }
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
        let compiled = if template {
            compile_library_template(&name, &src)
        } else {
            compile_starlark(&src).map_err(|e| compile_failed(&name, e, self.sources))
        };
        let ran = match compiled {
            Ok(program) => {
                LOADING.with(|loading| loading.borrow_mut().push(name.clone()));
                let ran = run(
                    &name,
                    crate::value::FileName::new(&name),
                    &program,
                    self.sources,
                );
                LOADING.with(|loading| loading.borrow_mut().pop());
                ran
            }
            Err(e) => Err(e),
        };
        let (module, _) = ran.map_err(|error| {
            starlark::Error::new_other(LoadFailed {
                path: path.to_string(),
                error: Box::new(error),
            })
        })?;
        Ok(module)
    }
}

/// A `.lib.yml` template that `load()` runs for its top-level names.
fn compile_library_template(name: &str, src: &str) -> Result<Program, TemplateError> {
    let failed = |line: Option<u32>, message: String| TemplateError {
        file: name.to_string(),
        line,
        message,
        compile_time: true,
        stack: Vec::new(),
        also: Vec::new(),
        reason: None,
    };
    let raw = crate::yaml::parse::parse_file(name, src, false).map_err(|e| {
        failed(
            None,
            format!("Unmarshaling YAML template '{name}': {}", e.detail()),
        )
    })?;
    crate::template::compile::compile(&raw).map_err(|e| failed(Some(e.line), e.message))
}

/// The error of a `.star` file that `load()` ran: ytt reports it at the `load()`, with the
/// file's own error under `reason:`.
#[derive(Debug)]
struct LoadFailed {
    path: String,
    error: Box<TemplateError>,
}

impl std::fmt::Display for LoadFailed {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "cannot load {}: Evaluating starlark template: ",
            self.path
        )
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
}

/// The error of a template or `.star` file whose blocks do not compile: starlark-go's parser
/// reads the code before the error first, so a syntax error there is reported instead.
pub(super) fn compile_failed(name: &str, e: CompileError, sources: &Sources) -> TemplateError {
    if let Some((source, line_map)) = e.before {
        if let Err(err) = AstModule::parse(name, source.clone(), &dialect()) {
            // The code stops where the error is: running out of it is no error of its own.
            let at_end = err
                .span()
                .is_some_and(|s| s.resolve_span().begin.line >= source.lines().count());
            let cut_short = at_end || err.to_string().contains("end of file");
            if matches!(err.kind(), starlark::ErrorKind::Parser(_)) && !cut_short {
                let program = Program {
                    source,
                    line_map,
                    nodes: Vec::new(),
                };
                return to_template_error(name, &program, &err, sources, true);
            }
        }
    }
    TemplateError {
        file: name.to_string(),
        line: Some(e.line),
        message: e.message,
        compile_time: true,
        stack: Vec::new(),
        also: Vec::new(),
        reason: None,
    }
}
