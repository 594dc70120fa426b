//! ytt templates: YAML files whose `#@` comments are annotations and Starlark code.

pub(crate) mod code_scan;
pub mod compile;
pub mod functions;
pub mod generated_names;
pub mod go_value;
pub mod lexer;
pub mod library;
pub mod literal;
mod refused;
pub mod reserved_words;
mod text_template;
pub mod tree;

use std::sync::Arc;

/// ytt's error for a key given twice in one map (`template_id` from [`Sources::next_template_id`]).
pub fn duplicate_key_message(template_id: u32, key: &crate::value::Value) -> String {
    let key = key.go_percent_s();
    format!(
        "__ytt_tpl{template_id}_start_node: expected key '{key}' to not be specified again (unless 'yaml/map-key-override' annotation is added)"
    )
}

/// The annotation that lets a map item replace an earlier item with the same key.
pub const MAP_KEY_OVERRIDE: &str = "yaml/map-key-override";

/// schemac's own annotation (no `#@` comment can write it: it has a space) for where a map
/// item's collection value is, when that is not the item's position: the value of a
/// `--data-value-yaml` flag is a node of a nameless text in ytt.
pub const VALUE_POS: &str = "schemac value-pos";

/// schemac's own annotation on a node whose value is the map or array a fragment function
/// made (`- #@ frag()`): ytt's node of that collection is the document the function's `def` is
/// in, which is where a type check of the value reports it (a document's line, quoted empty
/// where the text has no `---` there). A collection indexed out of a fragment
/// (`frag()["items"]`) is at its own item instead: a [`VALUE_POS`].
pub const VALUE_DOCUMENT_POS: &str = "schemac value-document-pos";

/// schemac's own annotation on a node whose value Starlark code gave as a dict, struct, list
/// or tuple (not a YAML fragment): ytt refuses such a value in a schema.
pub const STARLARK_COLLECTION: &str = "schemac starlark-collection";

/// schemac's own annotation on a node whose value an overlay's `via=` function gave as a
/// Starlark dict, struct, list or tuple (not a YAML fragment): ytt puts the Go value it becomes
/// (`*orderedmap.Map`, `[]interface {}`) in the node, and a schema's type check that follows
/// reports that Go type (see [`go_value::go_type_name`]).
pub const GO_VALUE: &str = "schemac go-value";

/// A template that failed to compile or evaluate.
#[derive(Debug, Clone, PartialEq)]
pub struct TemplateError {
    pub file: Box<str>,
    pub line: Option<u32>,
    pub message: String,
    /// A syntax or name-resolution error (ytt prints no `in <toplevel>` frame for those).
    pub compile_time: bool,
    /// The Starlark call stack, innermost call first, when the error happened inside a
    /// function (empty: the error is at `line` in the template's top level).
    pub stack: Box<[StackFrame]>,
    /// Further compile-time errors after this one: starlark-go lists every undefined name of
    /// a file.
    pub also: Box<[AlsoError]>,
    /// The error of a file that `load()` ran, shown under `reason:` (the message then says
    /// `cannot load F: ...`).
    pub reason: Option<Box<TemplateError>>,
    /// A syntax error on a line of code ytt generates (no template line of its own): ytt
    /// shows it after `line`, as `F:? | CODE (generated)`.
    pub generated: Option<Box<Generated>>,
    /// What is quoted as the text of `line`, when it is not the template's line there (the
    /// code of a text template, as ytt quotes it).
    pub quote: Option<Box<str>>,
}

/// A compile-time error listed after a [`TemplateError`]'s own.
#[derive(Debug, Clone, PartialEq)]
pub struct AlsoError {
    pub line: u32,
    pub message: String,
    /// What is quoted as the text of `line`, as [`TemplateError::quote`].
    pub quote: Option<Box<str>>,
    /// The line of ytt's code shown after `line`, as [`TemplateError::generated`].
    pub generated: Option<Box<Generated>>,
}

/// A line of the code ytt generates for template number `template`.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Generated {
    pub template: u32,
    pub line: GeneratedLine,
    /// The template line ytt shows after it: its next line of code that has one.
    pub after: Option<u32>,
}

#[derive(Debug, Clone, Copy, PartialEq)]
pub enum GeneratedLine {
    /// `__ytt_tplN_end_ctx(None)`, the code that ends the template (a comment after the last
    /// node's value code, `a: #@ 1 # note`, hides the code's closing parenthesis).
    End,
    /// `__ytt_tplN_start_node(K)` and `__ytt_tplN_set_node(K)`: the start and the value of
    /// the empty document K that holds a file's code lines after its last node (a bracket
    /// they leave open takes them in).
    TrailingDocumentStart(u32),
    TrailingDocumentValue(u32),
    /// `__ytt_tplN_set_ctx_type("text")`: the first line of ytt's code for a map item's key
    /// under `#@yaml/text-templated-strings` (every string key is a text template there), the
    /// first line of the item's code when it has no annotations.
    TextStart,
    /// `__ytt_tplN_start_ctx("text")`: the second line of that code (a bracket left open after
    /// a `,` or an operator takes the first line in, and fails at this one).
    TextContextStart,
}

impl Generated {
    /// The line's code, as ytt writes it.
    pub fn code(&self) -> String {
        let n = self.template;
        match self.line {
            GeneratedLine::End => format!("__ytt_tpl{n}_end_ctx(None)"),
            GeneratedLine::TrailingDocumentStart(k) => {
                format!("__ytt_tpl{n}_start_node({k}) # *yamlmeta.Document")
            }
            GeneratedLine::TrailingDocumentValue(k) => {
                format!("__ytt_tpl{n}_set_node({k}) # *yamlmeta.Document")
            }
            GeneratedLine::TextStart => format!("__ytt_tpl{n}_set_ctx_type(\"text\")"),
            GeneratedLine::TextContextStart => format!("__ytt_tpl{n}_start_ctx(\"text\")"),
        }
    }
}

impl TemplateError {
    /// A syntax or name-resolution error of `file` at `line`, with nothing more to show.
    pub fn compile(file: &str, line: Option<u32>, message: String) -> TemplateError {
        TemplateError {
            file: file.into(),
            line,
            message,
            compile_time: true,
            stack: Box::default(),
            also: Box::default(),
            reason: None,
            generated: None,
            quote: None,
        }
    }

    /// An error of running `file` (at `line`, if known), with nothing more to show.
    pub fn runtime(file: &str, line: Option<u32>, message: String) -> TemplateError {
        TemplateError {
            compile_time: false,
            ..TemplateError::compile(file, line, message)
        }
    }
}

/// One call of a Starlark call stack as ytt prints it: `in f` / `schema.yml:5 | x: 2`.
#[derive(Debug, Clone, PartialEq)]
pub struct StackFrame {
    /// The function running (`<toplevel>` for the file's top level).
    pub function: String,
    pub file: String,
    pub line: u32,
    /// What is quoted as the text of `line`, when it is not the template's line there.
    pub quote: Option<Box<str>>,
    /// Calls not listed after this one (the call depth budget's error lists only the
    /// innermost and outermost calls of its thousands).
    pub left_out: usize,
    /// The frame is on a line of code ytt generates: shown after `line`, as for
    /// [`TemplateError::generated`].
    pub generated: Option<Box<Generated>>,
}

use crate::inputs::FileText;

/// Files a template may `load()`, by the name they were given on the command line.
#[derive(Default, Clone)]
pub struct Sources {
    /// (Read when first loaded: see [`FileText`].)
    pub files: Vec<(String, FileText)>,
    /// Templates compiled so far in this run (ytt numbers each one, `__ytt_tpl2_...` first, and
    /// its messages name the number).
    pub compiled: Arc<std::sync::atomic::AtomicU32>,
    /// The functions and other opaque values the run's annotations were given.
    pub functions: functions::Functions,
    /// `--ignore-unknown-comments`, for the YAML library files `load()` compiles.
    pub ignore_unknown_comments: bool,
    /// What the run's `load()`s reached, in the order made (a store keeping a schema asks
    /// what its files loaded: see `engine::stored`).
    pub loads: Arc<std::sync::Mutex<Vec<Load>>>,
}

/// A `load()` a run made, as a store keeping a schema sees it (a ytt module whose members
/// depend on their arguments alone is none).
#[derive(Clone, Debug, PartialEq)]
pub enum Load {
    /// A `.star` file of the run's root library, by the name it was given.
    Star(String),
    /// Anything reaching further: `@ytt:data` (the data values, every file's text),
    /// `@ytt:library`, `@ytt:math` (whose use ytt warns of as the run ends), a YAML or text
    /// library file, a private library's file.
    Outside,
}

impl Sources {
    pub fn new(files: Vec<(String, Arc<str>)>) -> Sources {
        let files = files.into_iter().map(|(n, t)| (n, t.into())).collect();
        Sources::with_functions(files, functions::Functions::default())
    }

    /// Sources whose annotations' functions go into `functions` (after the values it holds).
    pub fn with_functions(
        files: Vec<(String, FileText)>,
        functions: functions::Functions,
    ) -> Sources {
        Sources {
            files,
            compiled: Arc::default(),
            functions,
            ignore_unknown_comments: false,
            loads: Arc::default(),
        }
    }

    /// The number ytt gives the next template it compiles (a YAML template or a loaded `.star`).
    pub fn next_template_id(&self) -> u32 {
        2 + self
            .compiled
            .fetch_add(1, std::sync::atomic::Ordering::Relaxed)
    }

    /// The file `load(path)` names from the file `from` of the run's root library (see
    /// [`library::find`]).
    pub fn find(&self, from: &str, path: &str) -> Result<(String, FileText), String> {
        library::find(&self.files, "", library::dir_of(from), path)
    }
}

/// Evaluates a template: files whose `#@` comments are only literal annotations are read
/// without an interpreter (their nodes move into the trees); the others need Starlark (and
/// fail to evaluate without it).
pub fn evaluate(
    raw: crate::yaml::parse::RawFile,
    files: &Sources,
) -> Result<Vec<tree::Tree>, TemplateError> {
    #[cfg(not(feature = "starlark"))]
    return literal::annotations(&raw).and_then(|a| evaluate_literal(raw, a, files));
    #[cfg(feature = "starlark")]
    evaluate_with_rules(raw, files, |_, _| None)
}

/// How every back end evaluates a template whose `annotations` are literal (read already by
/// [`literal::annotations`]): its nodes move into the trees.
pub fn evaluate_literal(
    raw: crate::yaml::parse::RawFile,
    annotations: literal::Annotations,
    files: &Sources,
) -> Result<Vec<tree::Tree>, TemplateError> {
    literal::build(raw, annotations, files.next_template_id())
}

/// [`evaluate`], where the files whose only other code is the rule code that `rules` finds
/// in them and their compiled program ([`literal::RuleCode`]) are read without an interpreter
/// too (`schemac check`). A file is compiled once, for `rules` and the interpreter.
pub fn evaluate_with_rules(
    raw: crate::yaml::parse::RawFile,
    files: &Sources,
    rules: impl FnOnce(&crate::yaml::parse::RawFile, &compile::Program) -> Option<literal::RuleCode>,
) -> Result<Vec<tree::Tree>, TemplateError> {
    let error = match literal::annotations(&raw) {
        Ok(annotations) => return evaluate_literal(raw, annotations, files),
        Err(e) => e,
    };
    let compiled = compile::compile(&raw);
    let code = compiled
        .as_ref()
        .ok()
        .and_then(|program| rules(&raw, program));
    if let Some(annotations) = code.and_then(|code| literal::rule_annotations(&raw, &code, files)) {
        return evaluate_literal(raw, annotations, files);
    }
    // (The interpreter reports what the literal reader refused, in its own words.)
    #[cfg(feature = "starlark")]
    {
        let _ = error;
        crate::starlark::eval_compiled(&raw, compiled, files)
    }
    #[cfg(not(feature = "starlark"))]
    Err(error)
}
