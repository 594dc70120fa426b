//! The adapter to the `starlark` crate: the only module that names `starlark::`.
//!
//! It evaluates compiled templates ([`crate::template::compile`]) with the builder functions of
//! [`builder`], the `@ytt:` modules of [`modules`] and `load()` of sibling `.star` files.

mod assertion;
pub mod budget;
pub mod builder;
mod callee;
mod charged_range;
pub mod convert;
mod error_line;
pub(crate) mod first_token;
mod generated_lines;
use generated_lines::{
    after_annotations_line, at_template_end, in_key_code_generated, in_trailing_document,
    next_node_line, node_second_line_generated, node_start_generated, second_node_line,
};
mod go_builtins;
pub mod go_bytes;
mod go_compare;
mod go_exp;
mod go_format;
mod go_hyperbolic;
mod go_literals;
mod go_methods;
mod go_mutation;
mod go_numbers;
mod go_operators;
mod go_repr;
mod go_sets;
mod go_slice;
mod go_sort;
mod go_string_index;
mod go_trig;
pub(crate) mod guard_names;
mod int_budget;
mod ip_module;
pub mod json_decode;
mod lazy_iteration;
mod loader;
mod made_module;
mod math_module;
pub mod modules;
mod named_after_args;
mod nesting;
mod overlay_matcher;
mod parse_error;
pub mod predicates;
mod regexp_module;
mod resolve;
mod resolver_patch;
mod source_guard;
mod star_commas;
mod statement_hook;
mod struct_module;
mod template_error;
mod text_modules;
mod toml_datetime;
mod toml_keys;
mod toml_lexer;
mod toml_module;
mod toml_syntax;
mod toml_values;
mod url_value;
mod wording;
mod written_size;
mod ytt_module;
pub mod ytt_struct;

use std::sync::{Arc, OnceLock};

use starlark::environment::{FrozenModule, Globals, GlobalsBuilder, LibraryExtension, Module};
use starlark::eval::Evaluator;
use starlark::syntax::{AstModule, Dialect};

use crate::template::compile::{compile, compile_starlark, CompileError, Program};
use crate::template::generated_names;
use crate::template::tree::Tree;
use crate::template::{AlsoError, Sources, TemplateError};
use crate::yaml::parse::RawFile;
use budget::bound;
pub use budget::{
    CALL_DEPTH_FRAMES_SHOWN, DEFAULT_MAX_CALL_DEPTH, DEFAULT_MAX_MEMORY, DEFAULT_MAX_STEPS,
};
use builder::BuildState;
pub use callee::UNIVERSAL;
pub(crate) use go_repr::{def_name, go_quote, go_repr, go_type, nested_too_deep, try_go_repr};
pub use loader::DEFAULT_MAX_LOADS;
use loader::{compile_failed, load_reason, Loader};
pub use nesting::{
    source_too_deep, DEFAULT_MAX_BOOL_OPERATORS, DEFAULT_MAX_EXPRESSION_DEPTH,
    DEFAULT_MAX_FUNCTION_DEPTH, DEFAULT_MAX_METHOD_CHAIN,
};
pub use resolver_patch::DEFAULT_MAX_REPARSE_BYTES;
use template_error::{reserved_word_error, resolve_errors, syntax_error, to_template_error};
use wording::go_wording;

fn dialect() -> Dialect {
    Dialect {
        enable_top_level_stmt: true,
        enable_keyword_only_arguments: true,
        // starlark-go keeps a file's `load`ed names to itself.
        enable_load_reexport: false,
        ..Dialect::Standard
    }
}

fn globals() -> &'static Globals {
    static GLOBALS: OnceLock<Globals> = OnceLock::new();
    GLOBALS.get_or_init(|| {
        GlobalsBuilder::extended_by(&[
            LibraryExtension::StructType,
            LibraryExtension::SetType,
            LibraryExtension::Map,
            LibraryExtension::Filter,
            LibraryExtension::Print,
        ])
        .with(go_builtins::go_compatible)
        .with(lazy_iteration::lazy_iteration)
        .with(go_sets::set_builtins)
        .build()
    })
}

/// The first of the compiler's budgets ([`nesting`]: expressions nested, functions nested, method calls chained,
/// `and` and `or` chained) that the program `ast` passes: where, and the budget's message.
/// Checked before a program is compiled, and where rule code is read without the interpreter
/// (`schemac check` evaluates such a template later, when an error would be lost).
pub fn compile_budget_exceeded(ast: &AstModule) -> Option<(starlark::codemap::Span, String)> {
    nesting::expression_too_deep(ast)
        .or_else(|| nesting::too_deep(ast))
        .or_else(|| nesting::chain_too_long(ast))
        .or_else(|| nesting::bool_operators_too_many(ast))
}

/// Whether starlark-go's resolver refuses the program `ast` (undefined names, calls with more
/// arguments than it takes, misplaced statements...), whose own names are `names`: code that
/// reads a program without running it (the rule compiler) leaves such a program to the
/// interpreter, which reports it.
pub fn resolver_refuses(
    ast: &AstModule,
    names: &crate::template::generated_names::GeneratedNames,
) -> bool {
    template_error::resolver_refuses(ast, names)
}

/// A program's source with its literals made to read as starlark-go reads them (see
/// `go_literals`), for code that parses a program without running it (the rule compiler);
/// `None` when starlark-go refuses one of them, or when the program nests too deep to be
/// parsed ([`source_too_deep`]).
pub fn source_as_go_reads(source: &str) -> Option<String> {
    if source_too_deep(source).is_some() {
        return None;
    }
    go_reading(source, &guard_names::GuardNames::for_source(source)).ok()
}

/// `source` with its literals made to read as starlark-go reads them (a literal of bytes a call
/// of the program's `guards`), or the first literal starlark-go refuses and the source with the
/// literals before it made so.
fn go_reading(
    source: &str,
    guards: &guard_names::GuardNames,
) -> Result<String, (go_literals::LiteralError, String)> {
    let fixed = go_literals::go_literals(source, &guards.of(go_literals::BYTES))?;
    Ok(fixed.unwrap_or_else(|| source.to_string()))
}

/// The program `source` with its literals read as starlark-go reads them and those of bytes that
/// are not UTF-8 left string literals (of their marks), when `go_read`, its reading for running,
/// made any of them a call of the program's `guards`.
fn literals_of_bytes_as_strings(
    source: &str,
    go_read: &str,
    guards: &guard_names::GuardNames,
) -> Option<String> {
    let call = format!("{}(", guards.of(go_literals::BYTES));
    if !go_read.contains(&call) {
        return None;
    }
    go_literals::go_literals(source, "").ok().flatten()
}

/// starlark-go's text of a float as ytt's fork writes it (`%g`, six significant digits).
pub fn go_float(f: f64) -> String {
    crate::rules::float_repr(f)
}

/// Named arguments as the interpreter's calls take them (`eval_function`'s `named`).
pub(crate) fn named_args<'a, 'v>(
    kwargs: &'a starlark::collections::SmallMap<
        starlark::values::StringValue<'v>,
        starlark::values::Value<'v>,
    >,
) -> Vec<(&'a str, starlark::values::Value<'v>)> {
    kwargs.iter().map(|(k, v)| (k.as_str(), *v)).collect()
}

/// Runs an evaluation, turning a panic of the interpreter (it panics on a value over 4 GiB,
/// such as `list(range(600000000))`) into an error message instead of an abort.
pub(crate) fn guarded<T>(f: impl FnOnce() -> T) -> Result<T, String> {
    crate::panic_guard::catch_panic(f).map_err(|text| {
        format!("Starlark evaluation failed: {text} (a value too large for the interpreter?)")
    })
}

/// The message of a Starlark error, without traceback, worded as ytt's starlark-go words it
/// where the two interpreters disagree.
pub fn error_message(e: &starlark::Error) -> String {
    if let starlark::ErrorKind::Native(a) = e.kind() {
        if let Some(f) = a.downcast_ref::<modules::AssertFail>() {
            return f.0.clone();
        }
        if let Some(f) = a.downcast_ref::<assertion::InCheckLambda>() {
            return f.message.clone();
        }
        if let Some(f) = a.downcast_ref::<go_bytes::BytesMessage>() {
            return f.to_string();
        }
    }
    let raw = e.without_diagnostic().to_string();
    refusal_words(e, &raw).unwrap_or_else(|| go_wording(&raw, e.span().map(|s| s.source_span())))
}

/// [`error_message`] of `e`, the error of the function `f` that a module function called with
/// no arguments (`assert.try_to(len)`): with no call in the file, a builtin's refusal of its
/// arguments is worded as if the file called it by its name.
fn error_message_of_native_call(e: &starlark::Error, f: starlark::values::Value) -> String {
    let repr = f.to_repr();
    let builtin =
        f.get_type() == "function" && !repr.starts_with('<') && go_repr::def_name(&repr).is_none();
    if e.span().is_none() && builtin {
        let raw = e.without_diagnostic().to_string();
        return go_wording(&raw, Some(&format!("{repr}()")));
    }
    error_message(e)
}

/// starlark-go's words for `e` when it refuses a call's arguments (see [`callee`]), the
/// function found in the file of the call.
fn refusal_words(e: &starlark::Error, raw: &str) -> Option<String> {
    if !callee::is_refusal(raw) {
        return None;
    }
    let frames = &e.call_stack().frames;
    let last = frames.last()?;
    let call = frames.iter().rev().find_map(|f| f.location.as_ref())?;
    // Rules may fail so on every value: the file's functions are found once.
    thread_local! {
        static INDEXED: std::cell::RefCell<Option<(u64, std::rc::Rc<callee::Index>)>> =
            const { std::cell::RefCell::new(None) };
    }
    let key = {
        use std::hash::{Hash, Hasher};
        let mut h = std::collections::hash_map::DefaultHasher::new();
        (call.filename(), call.file.source()).hash(&mut h);
        h.finish()
    };
    let index = INDEXED.with(|cell| {
        let mut cell = cell.borrow_mut();
        match &*cell {
            Some((k, index)) if *k == key => index.clone(),
            _ => {
                // (The function's first instruction, which the program's own names place, is
                // not read here: only the words.)
                let names = generated_names::GeneratedNames::default();
                let files = [(call.filename(), call.file.source(), &names)];
                let index = std::rc::Rc::new(callee::Index::of(&files));
                *cell = Some((key, index.clone()));
                index
            }
        }
    });
    let direct = last.location.is_some();
    callee::refused_call(raw, &last.name, call, direct, &index)?.message
}

/// Runs a compiled template (or `.star` file); a `library` is a YAML file that `load()` ran,
/// whose fragment functions may be called from other files. `/` names `root` in its loads.
fn run(
    name: &str,
    file: crate::value::FileName,
    program: &Program,
    sources: &Sources,
    library: bool,
    root: &str,
) -> Result<(FrozenModule, Vec<Tree>), TemplateError> {
    let template_id = sources.next_template_id();
    let run = || run_unguarded(name, file, program, sources, library, root, template_id);
    guarded(run)
        .unwrap_or_else(|message| Err(TemplateError::runtime(name, None, message)))
        .map_err(|mut e| {
            // A line of ytt's code that an error is on is named with the template's number.
            let also = e.also.iter_mut().filter_map(|a| a.generated.as_mut());
            for generated in e.generated.iter_mut().chain(also) {
                generated.template = template_id;
            }
            let frames = e.stack.iter_mut().filter(|f| f.file == name);
            for generated in frames.filter_map(|f| f.generated.as_mut()) {
                generated.template = template_id;
            }
            e
        })
}

/// The error of `program`, one of whose literals starlark-go refuses (`e`; `before`, its source
/// with the literals before that one made to read as starlark-go reads them): starlark-go stops
/// at the first error of the file, its parser's or its scanner's (a trailing comma its parser
/// refuses among them).
fn literal_refused(
    name: &str,
    program: &Program,
    sources: &Sources,
    e: go_literals::LiteralError,
    before: String,
) -> TemplateError {
    let comma = star_commas::first_refused(name, &before);
    // ytt's block scanner reads the token after an `else` as its parser moves onto the `else`:
    // a literal refused there comes before the parser's error at the `else` (`x = else 0x`).
    let line = before.lines().nth(e.line).unwrap_or("").to_string();
    let else_before = |at: starlark::codemap::ResolvedSpan| {
        let cut = |from: usize, to: usize| line.chars().skip(from).take(to.saturating_sub(from));
        at.begin.line == e.line
            && at.end.line == e.line
            && cut(at.begin.column, at.end.column).eq("else".chars())
            && cut(at.end.column, e.column).all(|c| c == ' ' || c == '\t')
    };
    if let Err(earlier) = AstModule::parse(name, before, &dialect()) {
        let span = earlier.span().map(|s| s.resolve_span());
        let at = span.map(|s| s.begin);
        let comma_first = comma
            .as_ref()
            .is_some_and(|r| at.is_none_or(|at| (r.line, r.column) <= (at.line, at.column)));
        let literal_first = span.is_some_and(else_before);
        if at.is_some_and(|at| (at.line, at.column) < (e.line, e.column))
            && !comma_first
            && !literal_first
        {
            return syntax_error(name, program, earlier, sources);
        }
    }
    if let Some(r) = comma {
        let line = program.line_map.get(r.line).copied();
        return TemplateError::compile(name, line, r.message.to_string());
    }
    let line = program.line_map.get(e.line).copied();
    TemplateError::compile(name, line, e.message)
}

fn run_unguarded(
    name: &str,
    file: crate::value::FileName,
    program: &Program,
    sources: &Sources,
    library: bool,
    root: &str,
    template_id: u32,
) -> Result<(FrozenModule, Vec<Tree>), TemplateError> {
    let parse = |source: String| {
        AstModule::parse(name, source, &dialect()).map_err(|e| {
            let mut error = syntax_error(name, program, e, sources);
            at_template_end(&mut error, program, template_id);
            error
        })
    };
    if let Some((gen_line, message)) = nesting::source_too_deep(&program.source) {
        let line = program.line_map.get(gen_line).copied();
        return Err(TemplateError::compile(name, line, message));
    }
    let files = Arc::new(sources.files.clone());
    // The names of the functions the program is rewritten to call: none of its own.
    let guards = guard_names::GuardNames::for_source(&program.source);
    let mut source = match go_reading(&program.source, &guards) {
        Ok(source) => source,
        Err((e, before)) => return Err(literal_refused(name, program, sources, e, before)),
    };
    let ctx_nodes = program.names.of(generated_names::CTX_NODES);
    let ctx_start = program.names.of(generated_names::CTX_START);
    let text_start = program.names.of(generated_names::TEXT_START);
    let has_text_function =
        source.contains(&format!("{ctx_start}()")) && source.contains(&format!("{text_start}("));
    if library && (source.contains(&format!("{ctx_nodes}()")) || has_text_function) {
        // Its fragment functions build from its nodes wherever they are called from, and its
        // text template functions run on its stack: an error that ends one, caught in another
        // file, leaves no context open in that file (as in ytt).
        let key =
            builder::register_library(file, program.nodes.clone(), files.clone(), template_id);
        source = source.replace(&format!("{ctx_nodes}()"), &format!("{ctx_nodes}({key})"));
        source = source.replace(&format!("{ctx_start}()"), &format!("{ctx_start}({key})"));
    }
    // starlark-go's parser stops at the first of its errors: a trailing comma it refuses, or
    // the crate's syntax error before it; both come before what its resolver finds.
    let comma = star_commas::first_refused(name, &source).map(|r| {
        let line = program.line_map.get(r.line).copied();
        (
            (r.line, r.column),
            TemplateError::compile(name, line, r.message.to_string()),
        )
    });
    let refused = |error: starlark::Error, source: String| {
        let at = error.span().map(|s| s.resolve_span().begin);
        if let Some((place, comma)) = &comma {
            if at.is_none_or(|at| *place <= (at.line, at.column)) {
                return comma.clone();
            }
        }
        // Patches keep the program's lines: its line map holds for the patched text.
        let patched = Program {
            source,
            ..program.clone()
        };
        let mut error = syntax_error(name, &patched, error, sources);
        at_template_end(&mut error, program, template_id);
        error
    };
    // A literal of bytes that are not UTF-8 is a call in `source`, where starlark-go reads a
    // string literal: its syntax errors, and those its resolver finds in the parse, are those of
    // the program with such literals as strings (`def f("\xff")` is `not an identifier`, `for
    // "\xff" in []` `can't assign to literal`); such a program is reported, never run.
    let plain = literals_of_bytes_as_strings(&program.source, &source, &guards)
        .map(|plain| resolver_patch::parse(name, plain))
        .filter(|parsed| match parsed {
            resolver_patch::Parsed::Syntax { .. } => true,
            resolver_patch::Parsed::Module { patched, .. } => patched.is_some(),
            resolver_patch::Parsed::Budget { .. } => false,
        });
    let parsed = plain.unwrap_or_else(|| resolver_patch::parse(name, source.clone()));
    let (mut ast, patched, source) = match parsed {
        resolver_patch::Parsed::Module {
            ast,
            patched,
            source,
        } => (*ast, patched, source),
        resolver_patch::Parsed::Syntax { error, source } => return Err(refused(error, source)),
        resolver_patch::Parsed::Budget { error, message } => {
            let gen_line = error.span().map_or(0, |s| s.resolve_span().begin.line);
            let line = program.line_map.get(gen_line).copied();
            return Err(TemplateError::compile(name, line, message));
        }
    };
    if let Some((_, comma)) = comma {
        return Err(comma);
    }
    if let Some((span, message)) = compile_budget_exceeded(&ast) {
        let gen_line = ast.file_span(span).resolve_span().begin.line;
        let line = program.line_map.get(gen_line).copied();
        // Dropping a program nested past a budget recurses as deep as it nests.
        std::mem::forget(ast);
        return Err(TemplateError::compile(name, line, message));
    }
    let markers = patched.as_ref().map(|p| &p.markers);
    if let Some(e) = resolve_errors(name, program, &ast, markers, &guards) {
        return Err(e);
    }
    if let Some(e) = patched.map(|p| p.first_refusal) {
        // Every patch stands for an error the walk reports; were one missed, the crate's
        // first error is the file's rather than run a patched program.
        return Err(syntax_error(name, program, e, sources));
    }
    if program.empty_body_ends_first_statement {
        // (no position: ytt's evaluation recovers the Go panic, before the file runs)
        let message = crate::template::compile::EMPTY_BODY_ENDS_FIRST_STATEMENT.to_string();
        return Err(TemplateError::runtime(name, None, message));
    }
    // starlark-go's `load` bindings apart from the module's globals, where a name is both.
    let mut source = source;
    if let Some(renamed) = resolve::load_bindings_renamed(&ast, &source, &program.names, &guards) {
        if let Ok(renamed_ast) = parse(renamed.clone()) {
            (ast, source) = (renamed_ast, renamed);
        }
    }
    if let Some(guarded) = source_guard::guard_source(&ast, &source, &guards) {
        // The guarded text parses whenever the edits are right; were one wrong, the program
        // runs as written rather than fail with an error of schemac's own making.
        if let Ok(guarded) = parse(guarded) {
            ast = guarded;
        }
    }
    budget::guard_repetition(&mut ast, &guards);
    let mut state = BuildState::new(
        file,
        program.nodes.clone(),
        files,
        template_id,
        sources.functions.clone(),
    );
    state.root = root.to_string();
    state.names = program.names.clone();
    let loader = Loader {
        sources,
        from: name,
        root,
    };
    let frozen = Module::with_temp_heap(|module| -> Result<FrozenModule, TemplateError> {
        {
            guards.bind(&module);
            builder::bind_builder_functions(&program.names, &module);
            let mut eval = Evaluator::new(&module);
            eval.set_loader(&loader);
            eval.extra = Some(&state);
            let start = bound(&mut eval);
            eval.eval_module(ast, globals())
                .map_err(|e| to_template_error(name, program, &e, sources, false))?;
            // (a loop the budget ended, with no statement after it to stop at)
            start
                .check()
                .map_err(|e| TemplateError::runtime(name, None, e.to_string()))?;
        }
        module
            .freeze()
            .map_err(|e| TemplateError::runtime(name, None, format!("{e:?}")))
    })?;
    if program.ends_at_nul {
        // (no position: ytt's evaluation recovers the Go panic of its check)
        let message = crate::template::compile::CONTEXTS_LEFT_OPEN.to_string();
        return Err(TemplateError::runtime(name, None, message));
    }
    for (i, slot) in state.slots().iter().enumerate() {
        if let Ok(v) = frozen.get(&state.names.keep(i)) {
            let _ = slot.value.set(v);
        }
    }
    Ok((frozen, state.take_output()))
}

/// Evaluates a parsed ytt template: its documents with annotations and computed values.
pub fn eval_template(file: &RawFile, sources: &Sources) -> Result<Vec<Tree>, TemplateError> {
    eval_compiled(file, compile(file), sources)
}

/// [`eval_template`] of the file's program compiled already (or the compiler's error).
pub fn eval_compiled(
    file: &RawFile,
    compiled: Result<Program, CompileError>,
    sources: &Sources,
) -> Result<Vec<Tree>, TemplateError> {
    let program = compiled.map_err(|e| compile_failed(&file.name, e, sources))?;
    loader::start_template();
    run(&file.name, file.file, &program, sources, false, "").map(|(_, trees)| trees)
}
