//! The adapter to the `starlark` crate: the only module that names `starlark::`.
//!
//! It evaluates compiled templates ([`crate::template::compile`]) with the builder functions of
//! [`builder`], the `@ytt:` modules of [`modules`] and `load()` of sibling `.star` files.

mod assertion;
pub mod budget;
pub mod builder;
mod callee;
pub mod convert;
mod error_line;
mod generated_lines;
use generated_lines::{
    after_annotations_line, at_template_end, in_trailing_document, next_node_line, second_node_line,
};
mod go_builtins;
pub mod go_bytes;
mod go_exp;
mod go_format;
mod go_hyperbolic;
mod go_literals;
mod go_methods;
mod go_numbers;
mod go_repr;
mod go_slice;
mod go_string_index;
mod go_trig;
mod guard_names;
mod int_budget;
mod ip_module;
pub mod json_decode;
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
mod text_modules;
mod toml_module;
mod url_value;
mod wording;
mod written_size;
mod ytt_module;
pub mod ytt_struct;

use std::sync::{Arc, OnceLock};

use starlark::environment::{FrozenModule, Globals, GlobalsBuilder, LibraryExtension, Module};
use starlark::eval::Evaluator;
use starlark::syntax::{AstModule, Dialect};

use crate::template::compile::{compile, compile_starlark, Program};
use crate::template::tree::Tree;
use crate::template::{Sources, TemplateError};
use crate::yaml::parse::RawFile;
use budget::bound;
pub use budget::{
    CALL_DEPTH_FRAMES_SHOWN, DEFAULT_MAX_CALL_DEPTH, DEFAULT_MAX_MEMORY, DEFAULT_MAX_STEPS,
};
use builder::{keep_name, BuildState};
pub use callee::UNIVERSAL;
pub(crate) use go_repr::{def_name, go_quote, go_repr, go_type, nested_too_deep, try_go_repr};
pub use loader::DEFAULT_MAX_LOADS;
use loader::{compile_failed, load_reason, Loader};
pub use nesting::{
    source_too_deep, DEFAULT_MAX_BOOL_OPERATORS, DEFAULT_MAX_EXPRESSION_DEPTH,
    DEFAULT_MAX_FUNCTION_DEPTH, DEFAULT_MAX_METHOD_CHAIN,
};
pub use resolver_patch::DEFAULT_MAX_REPARSE_BYTES;
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
        .with(builder::builder_functions)
        .with(go_builtins::go_compatible)
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
                let files = [(call.filename(), call.file.source())];
                let index = std::rc::Rc::new(callee::Index::of(&files));
                *cell = Some((key, index.clone()));
                index
            }
        }
    });
    let direct = last.location.is_some();
    callee::refused_call(raw, &last.name, call, direct, &index)?.message
}

/// The error of parsing `program`: starlark-go's words for a reserved word it meets
/// ([`parse_error::at_reserved_word`]) and for the rest ([`to_template_error`]).
fn syntax_error(
    name: &str,
    program: &Program,
    e: starlark::Error,
    sources: &Sources,
) -> TemplateError {
    let (e, reserved) = parse_error::at_reserved_word(name, e);
    let mut error = to_template_error(name, program, &e, sources, true);
    if let Some(stood_in) = reserved {
        error.message = parse_error::name_reserved_word(&error.message, &stood_in);
    }
    error
}

/// `e` as ytt reports it; `parsing`: `e` is from parsing the program, not from running it.
fn to_template_error(
    name: &str,
    program: &Program,
    e: &starlark::Error,
    sources: &Sources,
    parsing: bool,
) -> TemplateError {
    let raw = e.without_diagnostic().to_string();
    // An `end` name that ytt's scanner reads as an outdent (a `def` here).
    let outdent = e
        .span()
        .filter(|_| parsing)
        .and_then(|s| program.outdent_at(s.resolve_span().begin.line, s.source_span()));
    // starlark-go places a syntax error at the end of a line on the next line.
    let next = usize::from(match outdent {
        Some(o) => o.ends_line,
        None => parsing && parse_error::at_newline(&raw),
    });
    // starlark-go places a conditional without `else` at its `if`.
    let if_line = e
        .span()
        .filter(|_| parsing && parse_error::missing_else(&raw))
        .and_then(|s| {
            parse_error::last_if_line(s.file.source().get(..s.span.begin().get() as usize)?)
        });
    let mut message = error_message(e);
    let mut quote = None;
    let mut generated = None;
    let line = e.span().map(|s| {
        let gen_line = if_line.unwrap_or_else(|| {
            s.resolve_span().begin.line + next + error_line(s, &message, parsing)
        });
        if let Some((line, code)) = in_trailing_document(program, gen_line) {
            generated = Some(Box::new(crate::template::Generated {
                template: 0, // the template's number is given in `run`
                line: code,
            }));
            return line;
        }
        quote = program.quoted_at(gen_line).map(Box::from);
        // Past the last line: where the file ends (a `.star` file's line map ends there).
        let line = program.line_map.get(gen_line).or(program.line_map.last());
        let line = line.copied().unwrap_or(0);
        if let Some(next_line) = outdent.and_then(|o| o.next_line) {
            return next_line;
        }
        // Where ytt's generated code differs in order, the first token of a line is another.
        let code = program.source.lines().nth(gen_line).unwrap_or("");
        let indent = code.len() - code.trim_start().len();
        let line_start = if_line.is_none()
            && (next == 1 || (parsing && s.resolve_span().begin.column == indent));
        if !line_start {
            line
        } else {
            after_annotations_line(program, gen_line)
                .or_else(|| (next == 0).then(|| second_node_line(program, gen_line))?)
                .or_else(|| next_node_line(program, gen_line))
                .unwrap_or(line)
        }
    });
    // A `load` of no symbol, which the crate's grammar refuses as it refuses an assignment's
    // target (an error of no parser kind).
    let assignment = Some(&raw)
        .filter(|_| parsing)
        .and_then(|raw| parse_error::load_without_symbols_wording(raw));
    if let Some(words) = &assignment {
        message = words.clone();
    }
    // A parser error while the program runs is a builtin's (`int("x")` parses its argument as
    // a literal): ytt shows where it was called from.
    let compile_time = match e.kind() {
        starlark::ErrorKind::Parser(_) => parsing,
        starlark::ErrorKind::Scope(_) => true,
        _ => assignment.is_some() || (parsing && raw == parse_error::TYPE_ANNOTATION),
    };
    if parsing {
        let code = e
            .span()
            .and_then(|s| program.source.lines().nth(s.resolve_span().begin.line))
            .unwrap_or("");
        let before = e.span().map(|s| {
            // The crate's columns count characters.
            let at = s.resolve_span().begin;
            let column = code
                .char_indices()
                .nth(at.column)
                .map_or(code.len(), |(i, _)| i);
            let mut text: String = program
                .source
                .lines()
                .take(at.line)
                .flat_map(|l| [l, "\n"])
                .collect();
            text.push_str(&code[..column]);
            text
        });
        if let Some(go) = parse_error::go_wording_at(&raw, code, before.as_deref()) {
            message = go;
        }
        if outdent.is_some() {
            message = if raw.ends_with(", expected identifier") {
                // starlark-go's parser wants a name after `.` (or `def`, `for`).
                "not an identifier".to_string()
            } else {
                message.replacen("got def,", "got outdent,", 1)
            };
        }
        // The crate's parser meets a newline at the end of a file inside brackets, where
        // starlark-go meets the end of the file.
        let gen_line = e.span().map_or(0, |s| s.resolve_span().begin.line);
        if next == 1 && parse_error::ends_in_brackets(&program.source, gen_line) {
            message = message.replacen("got newline", "got end of file", 1);
        }
    }
    if !message.contains(" (hint: ") {
        message.push_str(parse_error::template_hint(&message));
    }
    if message.starts_with("load: name ") {
        // starlark-go names the module: take it from the `load(...)` line.
        let module = e
            .span()
            .and_then(|s| program.source.lines().nth(s.resolve_span().begin.line))
            .and_then(|text| {
                // The module's string, in either quote.
                let rest = text[text.find("load(")? + "load(".len()..].trim_start();
                let quote = rest.chars().next().filter(|c| matches!(c, '"' | '\''))?;
                rest[1..].split(quote).next().map(str::to_string)
            });
        if let Some(m) = module {
            let hint = message
                .strip_prefix("load: name ")
                .and_then(|rest| rest.split(' ').next())
                .and_then(|name| loader::nearest_loaded_name(&m, name))
                .map(|near| format!(" (did you mean {near}?)"))
                .unwrap_or_default();
            message = format!("{message} {m}{hint}");
        }
    }
    let refused = (!compile_time)
        .then(|| refused_call(name, program, e, &raw, sources))
        .flatten();
    let refused = refused.map(|(frame, words)| {
        message = words.unwrap_or(message.clone());
        frame
    });
    let mut stack = if compile_time {
        Vec::new()
    } else {
        call_stack(name, program, e, &message, sources, refused)
    };
    if let Some(lambda) = check_lambda(e) {
        if stack.is_empty() {
            stack.push(crate::template::StackFrame {
                function: "<toplevel>".into(),
                file: name.to_string(),
                line: line.unwrap_or(0),
                quote: quote.clone(),
                left_out: 0,
            });
        }
        stack.insert(0, lambda);
    }
    TemplateError {
        file: name.into(),
        line,
        message,
        compile_time,
        stack: stack.into(),
        also: Box::default(),
        reason: load_reason(e),
        generated,
        quote,
    }
}

/// The frame ytt shows for an error in the `check` lambda of an assertion object
/// (`in lambda`, `assert.min:1`), which runs natively here.
fn check_lambda(e: &starlark::Error) -> Option<crate::template::StackFrame> {
    let starlark::ErrorKind::Native(a) = e.kind() else {
        return None;
    };
    let f = a.downcast_ref::<assertion::InCheckLambda>()?;
    Some(crate::template::StackFrame {
        function: "lambda".into(),
        file: format!("assert.{}", f.rule),
        line: 1,
        quote: None,
        left_out: 0,
    })
}

/// Globals starlark-rust has and ytt's starlark-go does not: a program using them is told the
/// name is undefined, as in ytt (`struct` comes from `@ytt:struct`).
const NOT_IN_STARLARK_GO: &[&str] = &["abs", "bytes", "filter", "map", "struct"];

/// Every undefined name of the program and every name its `load`s refuse, in starlark-go's order
/// and words ([`resolve`]), as one error; starlark-rust would report only the first (and a global used before its assignment
/// only when it runs).
fn resolve_errors(
    name: &str,
    program: &Program,
    ast: &AstModule,
    markers: Option<&resolver_patch::Markers>,
    guards: &guard_names::GuardNames,
) -> Option<TemplateError> {
    static PREDECLARED: OnceLock<std::collections::HashSet<String>> = OnceLock::new();
    let predeclared = PREDECLARED.get_or_init(|| {
        globals()
            .names()
            .map(|n| n.as_str().to_string())
            .filter(|n| !NOT_IN_STARLARK_GO.contains(&n.as_str()))
            .collect()
    });
    let gen_line = |span| ast.file_span(span).resolve_span().begin.line;
    let line_of = |span| program.line_map.get(gen_line(span)).copied().unwrap_or(0);
    // The program's literals of bytes call a guard already (see `go_literals`).
    let bytes_call = guards.of(go_literals::BYTES);
    let predeclared = |n: &str| predeclared.contains(n) || n == bytes_call;
    let mut found = resolve::resolve_errors(ast, &predeclared, markers).into_iter();
    let first = found.next()?;
    Some(TemplateError {
        also: found.map(|u| (line_of(u.span), u.message)).collect(),
        quote: program.quoted_at(gen_line(first.span)).map(Box::from),
        ..TemplateError::compile(name, Some(line_of(first.span)), first.message)
    })
}

/// How many lines past the start of the failing expression `span` starlark-go places a
/// runtime error (see [`error_line`]); 0 for a syntax error.
fn error_line(span: &starlark::codemap::FileSpan, message: &str, parsing: bool) -> usize {
    if parsing {
        return 0;
    }
    error_line::lines_into(span.source_span(), message)
}

/// The call that `e` is the refusal of, its arguments not fitting the function called (see
/// [`callee`]), among the functions of the program and of the files it may load: the called
/// function's frame, and starlark-go's words when they are known.
fn refused_call(
    name: &str,
    program: &Program,
    e: &starlark::Error,
    raw: &str,
    sources: &Sources,
) -> Option<(crate::template::StackFrame, Option<String>)> {
    let frames = &e.call_stack().frames;
    let last = frames.last()?;
    // The call itself, or the native function's (`sorted(xs, key=f)`) that called it.
    let call = frames.iter().rev().find_map(|f| f.location.as_ref())?;
    if e.span() != Some(call) {
        return None;
    }
    let mut programs = vec![(name.to_string(), std::borrow::Cow::Borrowed(program))];
    for (n, text) in sources.files.iter().filter(|(n, _)| n != name) {
        let compiled = if n.ends_with(".star") {
            compile_starlark(text).ok()
        } else if n.ends_with(".yml") || n.ends_with(".yaml") {
            loader::compile_yaml(n, text, sources.ignore_unknown_comments)
                .ok()
                .and_then(Result::ok)
        } else {
            None
        };
        programs.extend(compiled.map(|p| (n.clone(), std::borrow::Cow::Owned(p))));
    }
    let files: Vec<(&str, &str)> = programs
        .iter()
        .map(|(n, p)| (n.as_str(), p.source.as_str()))
        .collect();
    let direct = last.location.is_some();
    let index = callee::Index::of(&files);
    let refused = callee::refused_call(raw, &last.name, call, direct, &index)?;
    let (file, p) = &programs[refused.file];
    let frame = crate::template::StackFrame {
        function: last.name.clone(),
        file: file.clone(),
        line: p.line_map.get(refused.gen_line).copied().unwrap_or(0),
        quote: p.quoted_at(refused.gen_line).map(Box::from),
        left_out: 0,
    };
    Some((frame, refused.message))
}

/// The calls that led to `e`, innermost first, as ytt lists them (`in f`, then `in <toplevel>`);
/// empty when the error is in the top level itself. Lines of this template are mapped back to
/// its YAML; native functions (the builder's, the `@ytt:` modules') are not frames of their own.
fn call_stack(
    name: &str,
    program: &Program,
    e: &starlark::Error,
    message: &str,
    sources: &Sources,
    refused: Option<crate::template::StackFrame>,
) -> Vec<crate::template::StackFrame> {
    use crate::template::StackFrame;
    let frames = &e.call_stack().frames;
    // A loaded `.star` file's lines, as compiled again (errors only; once a file, however
    // many frames are in it). Also the text quoted in place of the line, if any (see
    // [`Program::quoted`]).
    let mut loaded: Vec<(String, Option<Program>)> = Vec::new();
    let mut map_line = |file: &str, gen_line: usize| -> (u32, Option<Box<str>>) {
        if file == name {
            let line = program.line_map.get(gen_line).copied().unwrap_or(0);
            return (line, program.quoted_at(gen_line).map(Box::from));
        }
        let at = match loaded.iter().position(|(n, _)| n == file) {
            Some(at) => at,
            None => {
                let compiled = sources
                    .files
                    .iter()
                    .find(|(n, _)| n == file)
                    .and_then(|(_, text)| compile_starlark(text).ok());
                loaded.push((file.to_string(), compiled));
                loaded.len() - 1
            }
        };
        let line = loaded[at]
            .1
            .as_ref()
            .and_then(|p| p.line_map.get(gen_line).copied())
            .unwrap_or(gen_line as u32 + 1);
        (line, None)
    };
    // Where the error itself is (in this template or in a loaded file).
    let at = e.span().map(|s| {
        let line = s.resolve_span().begin.line + error_line(s, message, false);
        (s.filename().to_string(), map_line(s.filename(), line))
    });
    // Each frame names a callee and where it was called from: the caller is the frame before.
    let mut out = Vec::new();
    if let Some(frame) = refused {
        // The function that refused its arguments, at its first instruction.
        out.push(frame);
    } else if let (Some(last), Some((file, (line, quote)))) = (frames.last(), at) {
        // The error is in the body of the innermost function, unless it is a call that failed
        // (a native function such as `fail`). A function that a native one called
        // (`sorted(xs, key=f)`) has no call site of its own.
        let at_a_call = frames.iter().any(|f| f.location.as_ref() == e.span());
        if !last.name.starts_with("__ytt_") && !at_a_call {
            out.push(StackFrame {
                function: last.name.clone(),
                file,
                line,
                quote,
                left_out: 0,
            });
        }
    }
    // The call depth budget's thousands of calls: the innermost and outermost are listed.
    let shown = match statement_hook::is_call_depth_exceeded(message) {
        true => statement_hook::CALL_DEPTH_FRAMES_SHOWN / 2,
        false => frames.len(),
    };
    let left_out = frames.len().saturating_sub(2 * shown);
    for (i, frame) in frames.iter().enumerate().rev() {
        if left_out > 0 && (shown..frames.len() - shown).contains(&i) {
            if i == shown {
                if let Some(last) = out.last_mut() {
                    last.left_out = left_out;
                }
            }
            continue;
        }
        let Some(loc) = &frame.location else { continue };
        let function = if i == 0 {
            "<toplevel>".to_string()
        } else {
            frames[i - 1].name.clone()
        };
        let span = loc.resolve_span();
        let file = loc.filename().to_string();
        let (line, quote) = map_line(&file, span.begin.line);
        out.push(StackFrame {
            function,
            file,
            line,
            quote,
            left_out: 0,
        });
    }
    if out.len() <= 1 {
        return Vec::new();
    }
    out
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
            if let Some(generated) = &mut e.generated {
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
    if let Err(earlier) = AstModule::parse(name, before, &dialect()) {
        let at = earlier.span().map(|s| s.resolve_span().begin);
        let comma_first = comma
            .as_ref()
            .is_some_and(|r| at.is_none_or(|at| (r.line, r.column) <= (at.line, at.column)));
        if at.is_some_and(|at| (at.line, at.column) < (e.line, e.column)) && !comma_first {
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
    if library && source.contains("__ytt_ctx_nodes()") {
        // Its fragment functions build from its nodes wherever they are called from.
        let key =
            builder::register_library(file, program.nodes.clone(), files.clone(), template_id);
        source = source.replace("__ytt_ctx_nodes()", &format!("__ytt_ctx_nodes({key})"));
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
    let (mut ast, patched, source) = match resolver_patch::parse(name, source.clone()) {
        resolver_patch::Parsed::Module {
            ast,
            patched,
            source,
        } => (*ast, patched, source),
        resolver_patch::Parsed::Syntax { error, source } => {
            let at = error.span().map(|s| s.resolve_span().begin);
            if let Some((place, comma)) = comma {
                if at.is_none_or(|at| place <= (at.line, at.column)) {
                    return Err(comma);
                }
            }
            // Patches keep the program's lines: its line map holds for the patched text.
            let patched = Program {
                source,
                ..program.clone()
            };
            let mut error = syntax_error(name, &patched, error, sources);
            at_template_end(&mut error, program, template_id);
            return Err(error);
        }
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
    let loader = Loader {
        sources,
        from: name,
        root,
    };
    let frozen = Module::with_temp_heap(|module| -> Result<FrozenModule, TemplateError> {
        {
            guards.bind(&module);
            let mut eval = Evaluator::new(&module);
            eval.set_loader(&loader);
            eval.extra = Some(&state);
            bound(&mut eval);
            eval.eval_module(ast, globals())
                .map_err(|e| to_template_error(name, program, &e, sources, false))?;
        }
        module
            .freeze()
            .map_err(|e| TemplateError::runtime(name, None, format!("{e:?}")))
    })?;
    for (i, slot) in state.slots().iter().enumerate() {
        if let Ok(v) = frozen.get(&keep_name(i)) {
            let _ = slot.value.set(v);
        }
    }
    Ok((frozen, state.take_output()))
}

/// Evaluates a parsed ytt template: its documents with annotations and computed values.
pub fn eval_template(file: &RawFile, sources: &Sources) -> Result<Vec<Tree>, TemplateError> {
    let program = compile(file).map_err(|e| compile_failed(&file.name, e, sources))?;
    loader::start_template();
    run(&file.name, file.file, &program, sources, false, "").map(|(_, trees)| trees)
}
