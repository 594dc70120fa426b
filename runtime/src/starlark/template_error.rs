//! A Starlark error as ytt reports it: starlark-go's words, the template line it is on, and
//! the call stack of template lines that led to it.

use super::*;

/// The error of parsing `program`: starlark-go's words for a reserved word it meets
/// ([`parse_error::at_reserved_word`]) and for the rest ([`to_template_error`]).
pub(super) fn syntax_error(
    name: &str,
    program: &Program,
    e: starlark::Error,
    sources: &Sources,
) -> TemplateError {
    let (e, reserved) = parse_error::at_reserved_word(name, e);
    reserved_word_error(name, program, e, reserved, sources)
}

/// [`syntax_error`] once [`parse_error::at_reserved_word`] has given `e` and the word stood
/// in for.
pub(super) fn reserved_word_error(
    name: &str,
    program: &Program,
    e: starlark::Error,
    reserved: Option<parse_error::StoodIn>,
    sources: &Sources,
) -> TemplateError {
    let mut error = to_template_error(name, program, &e, sources, true);
    if let Some(stood_in) = reserved {
        error.message = parse_error::name_reserved_word(&error.message, &stood_in);
    }
    error
}

/// Whether generated line `gen_line` is the last of `program`, the `.star` file `name`'s, and
/// no line break ends the file: starlark-go's scanner meets the end of the file at the end of
/// that line where the crate's meets a line break (a template's program goes on after its last
/// line).
fn at_star_file_end(
    name: &str,
    gen_line: Option<usize>,
    program: &Program,
    sources: &Sources,
) -> bool {
    let Some(text) = star_file_text(name, sources) else {
        return false;
    };
    let ends_in_break = crate::template::compile::star_file_lines(text).1;
    !ends_in_break && gen_line.is_some_and(|g| g + 1 >= program.source.lines().count())
}

/// The text of the `.star` file `name`, when it was read.
fn star_file_text<'a>(name: &str, sources: &'a Sources) -> Option<&'a str> {
    let text = sources.files.iter().find(|(n, _)| n == name)?.1.if_read()?;
    name.ends_with(".star").then_some(text)
}

/// `e` as ytt reports it; `parsing`: `e` is from parsing the program, not from running it.
pub(super) fn to_template_error(
    name: &str,
    program: &Program,
    e: &starlark::Error,
    sources: &Sources,
    parsing: bool,
) -> TemplateError {
    if let Some(panic) = assertion::recovered_panic(e) {
        return TemplateError::runtime(name, None, panic.to_string());
    }
    let raw = e.without_diagnostic().to_string();
    // The generated line of a syntax error, and the program before the error on it.
    let code = e
        .span()
        .filter(|_| parsing)
        .and_then(|s| program.source.lines().nth(s.resolve_span().begin.line))
        .unwrap_or("");
    let before = e.span().filter(|_| parsing).map(|s| {
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
    // An `end` name that ytt's scanner reads as an outdent (a `def` here).
    let outdent = e
        .span()
        .filter(|_| parsing)
        .and_then(|s| program.outdent_at(s.resolve_span().begin.line, s.source_span()));
    // starlark-go places a syntax error at the end of a line on the next line.
    let next = usize::from(match outdent {
        Some(o) => o.ends_line,
        None => {
            parsing
                && (parse_error::at_newline(&raw)
                    || parse_error::at_return_close(&raw, code, before.as_deref())
                    || parse_error::at_bare_else(&raw, code, before.as_deref()))
        }
    });
    // starlark-go stops at the `:` that ends a `def`'s parameters (the crate reads on, a type
    // annotation).
    let def_colon = before
        .as_deref()
        .and_then(|b| Some((b, parse_error::colon_in_def_parameters(b, code)?)));
    // starlark-go places a conditional without `else` at its `if`, the `def`'s error at its
    // `:`.
    let if_line = e
        .span()
        .filter(|_| parsing && parse_error::missing_else(&raw))
        .and_then(|s| {
            parse_error::last_if_line(s.file.source().get(..s.span.begin().get() as usize)?)
        })
        .or_else(|| def_colon.map(|(b, at)| b[..at].matches('\n').count()));
    let mut message = guard_names::shown_text(&error_message(e)).into_owned();
    if let Some(global) = global_before_assignment(e, &message, program) {
        message = global;
    }
    let mut quote = None;
    let mut generated = None;
    let line = e.span().map(|s| {
        let gen_line = if_line.unwrap_or_else(|| {
            s.resolve_span().begin.line + next + error_line(s, &message, parsing)
        });
        if let Some((line, code)) = in_trailing_document(program, gen_line)
            .or_else(|| in_key_code_generated(program, gen_line))
        {
            generated = Some(code);
            return line;
        }
        // Past the last line: where the file ends (a `.star` file's line map ends there).
        let last = program.line_map.len().saturating_sub(1);
        quote = program.quoted_at(gen_line.min(last)).map(Box::from);
        let line = program.line_map.get(gen_line).or(program.line_map.last());
        let line = line.copied().unwrap_or(0);
        if let Some(o) = outdent.filter(|o| o.next_line.is_some()) {
            quote = o.next_quote.clone();
            return o.next_line.unwrap_or(line);
        }
        // Where ytt's generated code differs in order, the first token of a line is another.
        let code = program.source.lines().nth(gen_line).unwrap_or("");
        let indent = code.len() - code.trim_start().len();
        let line_start = if_line.is_none()
            && (next == 1 || (parsing && s.resolve_span().begin.column == indent));
        // ytt's first line of the node's code is one it generates: a syntax error anywhere on
        // it, or at the start of its second (see `node_second_line_generated`).
        let generated_start = match (line_start, parsing && if_line.is_none()) {
            (true, true) => node_start_generated(program, gen_line)
                .or_else(|| node_second_line_generated(program, gen_line)),
            (true, false) | (false, true) => node_start_generated(program, gen_line),
            (false, false) => None,
        };
        if let Some((before, code)) = generated_start {
            quote = None;
            generated = Some(code);
            before
        } else if !line_start {
            // A syntax error inside a node's start is on its first annotation, where ytt's
            // code for the node starts and reads alike; an error running the start (a key
            // given twice) is on the node's line, ytt's `start_node`.
            match parsing {
                true => next_node_line(program, gen_line).unwrap_or(line),
                false => line,
            }
        } else if let Some(line) = after_annotations_line(program, gen_line) {
            line
        } else {
            let second = (next == 0).then(|| second_node_line(program, gen_line));
            let second = second.flatten();
            if let Some((line, code)) = second.and_then(|g| in_trailing_document(program, g)) {
                generated = Some(code);
                return line;
            }
            second
                .and_then(|g| program.line_map.get(g).copied())
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
        _ => {
            assignment.is_some()
                || (parsing
                    && (raw == parse_error::TYPE_ANNOTATION
                        || raw == parse_error::TRAILING_COMMA_TUPLE))
        }
    };
    if parsing {
        if let Some(go) = parse_error::go_wording_at(&raw, code, before.as_deref()) {
            message = go;
        }
        let error_line = e.span().map(|s| s.resolve_span().begin.line);
        if at_star_file_end(name, error_line, program, sources) {
            message = parse_error::at_end_of_file(message, before.as_deref());
        }
        if def_colon.is_some() {
            message = "got ':', want ')'".into();
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
        if let Some(words) = words {
            message = guard_names::shown_text(&words).into_owned();
        }
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
                generated: None,
            });
        }
        stack.insert(0, lambda);
    }
    // A node's start error, raised by its last annotation: on the node's line.
    let mut line = line;
    if let Some(at) = node_start_error(e) {
        (line, quote) = (Some(at.line), None);
        if let Some(innermost) = stack.first_mut() {
            (innermost.line, innermost.quote) = (at.line, None);
        }
    }
    // A builder call that finds no node open after a `\` continued code into a node's code.
    if let (false, Some((code, node))) = (parsing, program.backslash_into_node) {
        if raw.contains(super::builder::NO_OPEN_NODE) {
            let node = node.to_string();
            message = crate::template::compile::BACKSLASH_INTO_NODE.replace("{node}", &node);
            (line, quote, generated, stack) = (Some(code), None, None, Vec::new());
        }
    }
    let reason = load_reason(e);
    if let Some(past) = reason
        .as_deref()
        .and_then(|r| line_past_star_file(r, sources))
    {
        return TemplateError::runtime(
            name,
            None,
            format!("Expected to find compiled template line {past}"),
        );
    }
    TemplateError {
        file: name.into(),
        line,
        message,
        compile_time,
        stack: stack.into(),
        also: Box::default(),
        reason,
        generated,
        quote,
    }
}

/// The first line of the error of a loaded `.star` file (its calls', then its own) past the
/// lines of the file as ytt splits it, at `\n`: starlark-go, for which a `\r` ends a line
/// too, counted it, and ytt, which looks each line up to show it, fails the whole report
/// (`Expected to find compiled template line N`, in place of `cannot load F: ...`).
fn line_past_star_file(e: &TemplateError, sources: &Sources) -> Option<u32> {
    let past = |file: &str, line: u32| {
        let text = star_file_text(file, sources)?;
        (line as usize > text.split('\n').count()).then_some(line)
    };
    let frames = e.stack.iter().map(|f| (f.file.as_str(), f.line));
    let own = e.line.map(|line| (&*e.file, line));
    frames.chain(own).find_map(|(file, line)| past(file, line))
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
        generated: None,
    })
}

/// Every undefined name of the program and every name its `load`s refuse, in starlark-go's order
/// and words ([`resolve`]), as one error; starlark-rust would report only the first (and a global used before its assignment
/// only when it runs).
pub(super) fn resolve_errors(
    name: &str,
    program: &Program,
    ast: &AstModule,
    markers: Option<&resolver_patch::Markers>,
    guards: &guard_names::GuardNames,
) -> Option<TemplateError> {
    let gen_line = |span| ast.file_span(span).resolve_span().begin.line;
    let line_of = |span| program.line_map.get(gen_line(span)).copied().unwrap_or(0);
    // (a map key's code that ytt places on a line it generates)
    let generated_at = |span| in_key_code_generated(program, gen_line(span)).map(|g| g.1);
    // The program's literals of bytes call a guard already (see `go_literals`).
    let bytes_call = guards.of(go_literals::BYTES);
    // The builder functions are bound under the program's own names (see `builder`).
    let predeclared = |n: &str| go_predeclared(n) || n == bytes_call || program.names.is_own(n);
    let mut found = resolve::resolve_errors(ast, &predeclared, markers, &program.names).into_iter();
    let first = found.next()?;
    Some(TemplateError {
        also: found
            .map(|u| AlsoError {
                line: line_of(u.span),
                quote: program.quoted_at(gen_line(u.span)).map(Box::from),
                generated: generated_at(u.span),
                message: u.message,
            })
            .collect(),
        quote: program.quoted_at(gen_line(first.span)).map(Box::from),
        generated: generated_at(first.span),
        ..TemplateError::compile(name, Some(line_of(first.span)), first.message)
    })
}

/// Whether starlark-go's resolver refuses the program `ast` (whose own names are `names`):
/// for code that reads a program without running it (the rule compiler), which leaves such a
/// program to the interpreter.
pub(super) fn resolver_refuses(ast: &AstModule, names: &generated_names::GeneratedNames) -> bool {
    let predeclared = |n: &str| go_predeclared(n) || names.is_own(n);
    !resolve::resolve_errors(ast, &predeclared, None, names).is_empty()
}

/// Whether starlark-go predeclares `name` in ytt's programs: its universal builtins
/// (`callee::UNIVERSAL`), the interpreter's globals less those starlark-go lacks (`abs`,
/// `bytes`, `filter`, `map`, `struct`: a program using them is told the name is undefined, as in
/// ytt; `struct` comes from `@ytt:struct`; a test checks the two agree). A list, so that reading
/// rule code without running it does not build the interpreter's globals (15M instructions).
fn go_predeclared(name: &str) -> bool {
    super::callee::UNIVERSAL.contains(&name)
}

/// An error in starting a node (a key given twice), on the node's line: raised after the
/// node's annotations, as ytt evaluates those first (see `builder::Ctx::start_error`).
#[derive(Debug)]
pub(super) struct NodeStartError {
    pub(super) line: u32,
    pub(super) message: String,
}

impl std::fmt::Display for NodeStartError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.message)
    }
}

impl std::error::Error for NodeStartError {}

/// The error `e` is when a node's start failed after its annotations.
fn node_start_error(e: &starlark::Error) -> Option<&NodeStartError> {
    match e.kind() {
        starlark::ErrorKind::Native(a) | starlark::ErrorKind::Other(a) => a.downcast_ref(),
        _ => None,
    }
}

/// How many lines past the start of the failing expression `span` starlark-go places a
/// runtime error (see [`error_line`]); 0 for a syntax error.
fn error_line(span: &starlark::codemap::FileSpan, message: &str, parsing: bool) -> usize {
    if parsing {
        return 0;
    }
    error_line::lines_into(span.source_span(), message)
}

/// starlark-go's words for a global read before it is assigned (`global variable x referenced
/// before assignment`), where the crate's `message` says `local` of every variable.
fn global_before_assignment(
    e: &starlark::Error,
    message: &str,
    program: &Program,
) -> Option<String> {
    let name = message
        .strip_prefix("local variable ")?
        .strip_suffix(" referenced before assignment")?;
    let at = e.span()?;
    let running = starlark::syntax::AstModule::parse(
        at.filename(),
        at.file.source().to_string(),
        &super::dialect(),
    )
    .ok()?;
    super::resolve::reads_global(&running, at.span, &program.names)
        .then(|| format!("global variable {name} referenced before assignment"))
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
    // (A file no template loaded, not read, holds no frame.)
    let read = sources
        .files
        .iter()
        .filter_map(|(n, t)| Some((n, t.if_read()?)));
    for (n, text) in read.filter(|(n, _)| *n != name) {
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
    let files: Vec<(&str, &str, &generated_names::GeneratedNames)> = programs
        .iter()
        .map(|(n, p)| (n.as_str(), p.source.as_str(), &p.names))
        .collect();
    let direct = last.location.is_some();
    let index = callee::Index::of(&files);
    let refused = callee::refused_call(raw, &last.name, call, direct, &index)?;
    let (file, p) = &programs[refused.file];
    // A function of this template whose first line in ytt's code is one ytt generates (a map
    // item's key made a text template); the number of another YAML file's is not known here.
    let generated = (refused.file == 0)
        .then(|| node_start_generated(p, refused.gen_line))
        .flatten();
    let frame = crate::template::StackFrame {
        function: guard_names::shown_name(&last.name).to_string(),
        file: file.clone(),
        line: match &generated {
            Some((before, _)) => *before,
            None => p.line_map.get(refused.gen_line).copied().unwrap_or(0),
        },
        quote: match generated {
            Some(_) => None,
            None => p.quoted_at(refused.gen_line).map(Box::from),
        },
        left_out: 0,
        generated: generated.map(|(_, code)| code),
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
                let compiled =
                    sources
                        .files
                        .iter()
                        .find(|(n, _)| n == file)
                        .and_then(|(_, text)| {
                            super::loader::compiled_library(file, text.if_read()?, sources)
                        });
                loaded.push((file.to_string(), compiled));
                loaded.len() - 1
            }
        };
        let program = loaded[at].1.as_ref();
        let line = program
            .and_then(|p| p.line_map.get(gen_line).copied())
            .unwrap_or(gen_line as u32 + 1);
        (
            line,
            program.and_then(|p| p.quoted_at(gen_line)).map(Box::from),
        )
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
        // (A builder function is native, with no location; a user's `def __ytt_set` is not.)
        let builder = last.location.is_none()
            && generated_names::GeneratedNames::canonical_suffix(&last.name).is_some();
        if !builder && !at_a_call {
            out.push(StackFrame {
                function: guard_names::shown_name(&last.name).to_string(),
                file,
                line,
                quote,
                left_out: 0,
                generated: None,
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
            guard_names::shown_name(&frames[i - 1].name).to_string()
        };
        let span = loc.resolve_span();
        let file = loc.filename().to_string();
        // A call that failed itself (a guard call of an operator or index: `__schemac_at`) is
        // placed as the error is at the top level; another call at its `(`.
        let lines_into = match Some(loc) == e.span() {
            true => error_line(loc, message, false),
            false => super::error_line::lines_to_call_paren(loc.source_span()).unwrap_or(0),
        };
        let (line, quote) = map_line(&file, span.begin.line + lines_into);
        out.push(StackFrame {
            function,
            file,
            line,
            quote,
            left_out: 0,
            generated: None,
        });
    }
    if out.len() <= 1 {
        return Vec::new();
    }
    out
}

#[cfg(test)]
mod tests {
    use super::globals;

    /// Globals starlark-rust has and ytt's starlark-go does not.
    const NOT_IN_STARLARK_GO: &[&str] = &["abs", "bytes", "filter", "map", "struct"];

    #[test]
    fn the_predeclared_names_are_the_interpreters_less_those_starlark_go_lacks() {
        let mut names: Vec<String> = globals()
            .names()
            .map(|n| n.as_str().to_string())
            .filter(|n| !NOT_IN_STARLARK_GO.contains(&n.as_str()))
            .collect();
        names.sort();
        let mut universal = super::super::callee::UNIVERSAL.to_vec();
        universal.sort();
        assert_eq!(names, universal);
    }
}
