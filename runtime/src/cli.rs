//! The command line of `schemac check` and of built validators: ytt's flags for data values,
//! the documents the flags contribute, and the process's output and exit status.

use std::ffi::OsString;

use crate::engine::{evaluate, run_keeping, Backend, CheckError, Outcome};
use crate::report::{multi_line, SourceLines};
use crate::template::tree::{Ann, Tree, TreeKind, TreeValue};
use crate::validate;
use crate::value::{Pos, Value};
use crate::yaml::parse::{parse_file, RawNode, RawValue};

mod flags;
pub mod output;

pub use clap::Command;
pub use flags::{command, FlagError, Kind, Support, FLAGS};

/// What the command line asked for.
#[derive(Debug, Default, Clone)]
pub struct Options {
    pub files: Vec<String>,
    pub schema_inspect: bool,
    /// `-o`: the output types, every use's comma-separated list in order (none: YAML).
    pub output: Vec<String>,
    pub data_values_files: Vec<String>,
    pub env: Vec<String>,
    pub env_yaml: Vec<String>,
    pub data_value: Vec<String>,
    pub data_value_yaml: Vec<String>,
    pub data_value_file: Vec<String>,
    pub strict: bool,
    pub disable_validation: bool,
    /// `--violations-format json`: validation violations as JSON on stdout.
    pub violations_format: Option<String>,
    /// Plain data values given in memory (name, text), applied as `--data-values-file` would
    /// apply a file (for the typed API).
    pub data_values_inline: Vec<(String, String)>,
}

/// Whether data values come from flags too (ytt's "additional data values").
pub fn has_additional(o: &Options) -> bool {
    !(o.data_values_files.is_empty()
        && o.env.is_empty()
        && o.env_yaml.is_empty()
        && o.data_value.is_empty()
        && o.data_value_yaml.is_empty()
        && o.data_value_file.is_empty()
        && o.data_values_inline.is_empty())
}

/// What the arguments ask a process to do.
#[derive(Debug)]
pub enum Request {
    Run(Box<Options>),
    Help,
    Version,
}

/// Why arguments are unusable.
#[derive(Debug, PartialEq, Eq)]
pub enum ArgError {
    /// As ytt reports it (`unknown flag: --bogus`): the text after `Error: `, exit status 1.
    Ytt(String),
    /// A value only schemac takes, misspelled: exit status 2, with the usage.
    Usage(String),
}

/// Parses ytt-style arguments (`-f x`, `--data-value=k=v`, ...); `--help` and `--version`
/// are [`Options`] with nothing asked (see [`parse_os`]).
pub fn parse(args: &[String]) -> Result<Options, String> {
    let args: Vec<OsString> = args.iter().map(OsString::from).collect();
    match parse_os(&args) {
        Ok(Request::Run(o)) => Ok(*o),
        Ok(_) => Ok(Options::default()),
        Err(ArgError::Ytt(m) | ArgError::Usage(m)) => Err(m),
    }
}

/// Parses the arguments as ytt does (pflag's forms and messages): the flags ytt takes, the
/// errors it reports, then the flags schemac accepts and ignores or refuses.
pub fn parse_os(args: &[OsString]) -> Result<Request, ArgError> {
    let parsed = flags::parse(args).map_err(|FlagError(m)| ArgError::Ytt(m))?;
    if parsed.help {
        return Ok(Request::Help);
    }
    let mut o = Options::default();
    let mut version = false;
    let mut refused = None;
    for (flag, value) in parsed.flags {
        let on = value == "true";
        match flag.long {
            "file" => o.files.push(value),
            "data-values-inspect" => {}
            "data-values-schema-inspect" => o.schema_inspect = on,
            "output" => o.output.extend(
                flags::csv_record(&value, &flags::names_of("output"))
                    .map_err(|FlagError(m)| ArgError::Ytt(m))?,
            ),
            "data-value" => o.data_value.push(value),
            "data-value-yaml" => o.data_value_yaml.push(value),
            "data-value-file" => o.data_value_file.push(value),
            "data-values-file" => o.data_values_files.push(value),
            "data-values-env" => o.env.push(value),
            "data-values-env-yaml" => o.env_yaml.push(value),
            "strict" => o.strict = on,
            "dangerous-data-values-disable-validation" => o.disable_validation = on,
            "violations-format" => match value.as_str() {
                "json" | "text" => o.violations_format = Some(value),
                other => {
                    return Err(ArgError::Usage(format!(
                        "unknown violations format '{other}' (expected json or text)"
                    )))
                }
            },
            "version" => version = on,
            _ => {
                if flag.kind == Kind::List {
                    // pflag reads every use as CSV, and says when it cannot.
                    flags::csv_record(&value, &flags::names_of(flag.long))
                        .map_err(|FlagError(m)| ArgError::Ytt(m))?;
                }
                match flag.support {
                    Support::Refused(why) if value != "false" => {
                        refused = refused.or(Some((flag.long, why)))
                    }
                    _ => {}
                }
            }
        }
    }
    if version {
        return Ok(Request::Version);
    }
    if let Some(extra) = parsed.extra.first() {
        return Err(ArgError::Ytt(format!(
            "command 'ytt' does not accept extra arguments '{}'",
            extra.to_string_lossy()
        )));
    }
    if let Some((long, why)) = refused {
        return Err(ArgError::Ytt(format!(
            "flag --{long} is not supported by schemac ({why})"
        )));
    }
    Ok(Request::Run(Box::new(o)))
}

impl Options {
    /// ytt's checks of `-o`, made once the schema is known (before any data value is merged):
    /// unknown types, then the schema type with or without `--data-values-schema-inspect`.
    pub fn check_output(&self) -> Result<(), CheckError> {
        if let Some(t) = self
            .output
            .iter()
            .find(|t| !matches!(t.as_str(), "yaml" | "json" | "pos") && schema_type(t).is_none())
        {
            return Err(CheckError(format!("Unknown output type '{t}'")));
        }
        // `json-schema` is schemac's: ytt knows only `openapi-v3`, and its messages stay.
        let openapi = self.schema_type().is_some();
        if self.schema_inspect && !openapi {
            return Err(CheckError(
                "Data values schema export only supported in OpenAPI v3 format; specify format with --output=openapi-v3 flag".into(),
            ));
        }
        if !self.schema_inspect && openapi {
            return Err(CheckError(
                "Output type currently only supported for data values schema (i.e. include --data-values-schema-inspect)".into(),
            ));
        }
        if self.format() == "pos" {
            return Err(CheckError(
                "output type 'pos' is not supported by schemac (use yaml or json)".into(),
            ));
        }
        Ok(())
    }

    /// The schema export asked for with `--data-values-schema-inspect`: the first of
    /// `openapi-v3` and `json-schema` given.
    pub fn schema_type(&self) -> Option<SchemaType> {
        self.output.iter().find_map(|t| schema_type(t))
    }

    /// The file format asked for: the first of `yaml`, `json` and `pos` given, else `yaml`.
    pub fn format(&self) -> &str {
        self.output
            .iter()
            .map(String::as_str)
            .find(|t| matches!(*t, "yaml" | "json" | "pos"))
            .unwrap_or("yaml")
    }

    /// Whether the output is JSON.
    pub fn json(&self) -> bool {
        self.format() == "json"
    }
}

/// A schema export `--data-values-schema-inspect` prints.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SchemaType {
    /// `-o openapi-v3`: ytt's OpenAPI document.
    OpenApiV3,
    /// `-o json-schema`: a JSON Schema (draft 2020-12), printed as JSON.
    JsonSchema,
}

fn schema_type(output: &str) -> Option<SchemaType> {
    match output {
        "openapi-v3" => Some(SchemaType::OpenApiV3),
        "json-schema" => Some(SchemaType::JsonSchema),
        _ => None,
    }
}

fn doc(value: TreeValue, pos: Pos) -> Tree {
    Tree {
        kind: TreeKind::Document,
        pos,
        anns: Vec::new(),
        value,
    }
}

/// `[a, b, c]`, value → `{a: {b: {c: value}}}`; the leaf item replaces what it matches (as
/// ytt's `@overlay/replace or_add=True` on values from flags).
fn nested<'k>(
    keys: impl DoubleEndedIterator<Item = &'k str>,
    leaf: TreeValue,
    pos: &Pos,
) -> TreeValue {
    let mut value = leaf;
    for (i, key) in keys.rev().enumerate() {
        let anns = if i == 0 {
            vec![Ann {
                name: "overlay/replace".into(),
                pos: pos.clone(),
                args: Vec::new(),
                kwargs: Vec::new(),
            }]
        } else {
            Vec::new()
        };
        value = TreeValue::Map(vec![Tree {
            kind: TreeKind::MapItem(Value::Str(key.to_string())),
            pos: pos.clone(),
            anns,
            value,
        }]);
    }
    value
}

fn relabel(tree: &mut Tree, pos: &Pos) {
    tree.pos = pos.clone();
    if let TreeValue::Map(items) | TreeValue::Array(items) = &mut tree.value {
        for i in items {
            relabel(i, pos);
        }
    }
}

/// The documents contributed by `--data-values-file`, env, and `--data-value*` flags, in
/// ytt's fixed order.
pub fn additional_documents(
    o: &Options,
    sources: &mut SourceLines,
) -> Result<Vec<Tree>, CheckError> {
    let mut out = Vec::new();
    let mut plain: Vec<(String, String)> = Vec::new();
    for path in &o.data_values_files {
        let files = crate::inputs::data_values_files(path).map_err(|e| {
            CheckError(format!(
                "Extracting data value from file: Find files '{path}': {e}"
            ))
        })?;
        for file in files {
            if let Some(error) = file.encoding_error {
                return Err(CheckError(format!(
                    "Extracting data value from file: Unmarshaling YAML data values file '{}': yaml: {error}",
                    file.name
                )));
            }
            plain.push((file.name, file.text.to_string()));
        }
    }
    plain.extend(o.data_values_inline.iter().cloned());
    for (file, text) in plain {
        sources.add(&file, &text);
        let raw = parse_file(&file, &text, o.strict).map_err(|e| {
            CheckError(format!(
                "Extracting data value from file: Unmarshaling YAML data values file '{file}': {}",
                e.detail()
            ))
        })?;
        let annotated = raw.docs.iter().any(has_comments) || !raw.trailing_comments.is_empty();
        if annotated {
            return Err(CheckError(format!(
                "Extracting data value from file: Checking data values file '{file}': Expected to be plain YAML, having no annotations (hint: remove comments starting with `#@`)"
            )));
        }
        for d in &raw.docs {
            if matches!(d.value, RawValue::Scalar(Value::Null)) {
                continue;
            }
            out.push(Tree::from_raw(d, Some(&file)));
        }
    }
    for (prefixes, yaml) in [(&o.env, false), (&o.env_yaml, true)] {
        for prefix in prefixes {
            out.extend(env_documents(prefix, yaml, o.strict, sources)?);
        }
    }
    for (flags, label, yaml) in [
        (&o.data_value, "(data-value arg)", false),
        (&o.data_value_yaml, "(data-value-yaml arg)", true),
    ] {
        for kv in flags {
            let (k, v) = kv.split_once('=').ok_or_else(|| {
                CheckError("Extracting data value from KV: Expected format key=value".into())
            })?;
            let Some(k) = root_key(k)? else { continue };
            sources.add(label, kv);
            let pos = Pos::new(label, 1);
            let leaf = if yaml {
                // ytt parses the value as a file without a name: collections keep those positions.
                sources.add("", v);
                parse_yaml_value(
                    v,
                    &pos,
                    &format!("Extracting data value from KV: Deserializing value for key '{k}'"),
                    o.strict,
                )?
            } else {
                TreeValue::Scalar(Value::Str(v.to_string()))
            };
            out.push(doc(nested(k.split('.'), leaf, &pos), pos));
        }
    }
    for kv in &o.data_value_file {
        let (k, path) = kv.split_once('=').ok_or_else(|| {
            CheckError("Extracting data value from file: Expected format key=/file/path".into())
        })?;
        let text = crate::inputs::data_value_file(path).map_err(|e| {
            // ytt names the step, except for a directory.
            let step = if e.ends_with("but is a directory") {
                String::new()
            } else {
                format!("Finding file '{path}': ")
            };
            CheckError(format!("Extracting data value from file: {step}{e}"))
        })?;
        let label = format!("(data-value-file arg) {kv}");
        sources.add(&label, &text);
        let pos = Pos::new(label, 1);
        out.push(doc(
            nested(k.split('.'), TreeValue::Scalar(Value::Str(text)), &pos),
            pos,
        ));
    }
    Ok(out)
}

/// The key of a `[@lib:]key=value` flag when it targets the root library; `None` for a
/// library (libraries are not evaluated here, so their values are dropped).
fn root_key(k: &str) -> Result<Option<&str>, CheckError> {
    let err = |m: String| CheckError(format!("Extracting data value from KV: {m}"));
    match k.strip_prefix('@') {
        Some(rest) => {
            let (lib, key) = rest
                .split_once(':')
                .ok_or_else(|| err(format!("Expected library ref to end with ':' in '{k}'")))?;
            if lib.is_empty() {
                return Err(err("Expected library ref to not be empty".into()));
            }
            if key.contains(':') {
                return Err(err(format!(
                    "Expected at most one library-key separator ':' in '{k}'"
                )));
            }
            Ok(None)
        }
        None if k.contains(':') => Err(err(format!(
            "Expected at most one library-key separator ':' in '{k}'"
        ))),
        None => Ok(Some(k)),
    }
}

fn has_comments(node: &RawNode) -> bool {
    !node.comments.is_empty()
        || matches!(&node.value, RawValue::Map(items) | RawValue::Array(items) if items.iter().any(has_comments))
}

/// The documents of `--data-values-env[-yaml] PREFIX`: one per variable `PREFIX_a__b`, in the
/// environment's order, keys split at `__` only (as ytt does).
fn env_documents(
    prefix: &str,
    yaml: bool,
    strict: bool,
    sources: &mut SourceLines,
) -> Result<Vec<Tree>, CheckError> {
    let start = format!("{prefix}_");
    let mut out = Vec::new();
    for (name, value) in std::env::vars_os() {
        let Some(key) = name.as_encoded_bytes().strip_prefix(start.as_bytes()) else {
            continue;
        };
        let context = format!(
            "Extracting data values from env under prefix '{prefix}': Extracting data value from env variable '{}'",
            name.to_string_lossy()
        );
        let Ok(key) = std::str::from_utf8(key) else {
            return Err(CheckError(format!(
                "{context}: schemac takes names of env variables in UTF-8 only"
            )));
        };
        let label = format!(
            "(data-values-env{} arg) {prefix}",
            if yaml { "-yaml" } else { "" }
        );
        let pos = Pos::new(label.clone(), 1);
        if let Some(v) = value.to_str() {
            sources.add(
                &label,
                &format!("{key_name}={v}", key_name = name.to_string_lossy()),
            );
        }
        let leaf = match (value.to_str(), yaml) {
            (Some(v), true) => {
                // As for `--data-value-yaml`: collections keep the positions of a nameless file.
                sources.add("", v);
                parse_yaml_value(v, &pos, &context, strict)?
            }
            (Some(v), false) => TreeValue::Scalar(Value::Str(v.to_string())),
            (None, true) => {
                let why = yaml_utf8_error(value.as_encoded_bytes());
                return Err(CheckError(format!("{context}: Deserializing YAML value: yaml: {why}")));
            }
            (None, false) => {
                return Err(CheckError(format!(
                    "{context}: the value is not valid UTF-8 (ytt would make it a !!binary value; schemac takes text only)"
                )))
            }
        };
        let keys: Vec<&str> = key.split("__").collect();
        out.push(doc(nested(keys.into_iter(), leaf, &pos), pos));
    }
    Ok(out)
}

/// The complaint of ytt's YAML reader about bytes that are not UTF-8.
fn yaml_utf8_error(bytes: &[u8]) -> &'static str {
    let mut i = 0;
    while i < bytes.len() {
        let b = bytes[i];
        let (width, first) = match b {
            _ if b & 0x80 == 0 => (1, b & 0x7f),
            _ if b & 0xe0 == 0xc0 => (2, b & 0x1f),
            _ if b & 0xf0 == 0xe0 => (3, b & 0x0f),
            _ if b & 0xf8 == 0xf0 => (4, b & 0x07),
            _ => return "invalid leading UTF-8 octet",
        };
        if i + width > bytes.len() {
            return "incomplete UTF-8 octet sequence";
        }
        let mut value = u32::from(first);
        for t in &bytes[i + 1..i + width] {
            if t & 0xc0 != 0x80 {
                return "invalid trailing UTF-8 octet";
            }
            value = (value << 6) | u32::from(t & 0x3f);
        }
        let shortest = match width {
            1 => true,
            2 => value >= 0x80,
            3 => value >= 0x800,
            _ => value >= 0x10000,
        };
        if !shortest {
            return "invalid length of a UTF-8 sequence";
        }
        if (0xd800..=0xdfff).contains(&value) || value > 0x10ffff {
            return "invalid Unicode character";
        }
        i += width;
    }
    "invalid leading UTF-8 octet"
}

/// A value parsed as YAML; errors read `{context}: Deserializing YAML value: yaml: ...`.
fn parse_yaml_value(
    text: &str,
    pos: &Pos,
    context: &str,
    strict: bool,
) -> Result<TreeValue, CheckError> {
    let raw = parse_file(&pos.file, text, strict).map_err(|e| {
        CheckError(format!(
            "{context}: Deserializing YAML value: {}",
            e.detail()
        ))
    })?;
    let Some(first) = raw.docs.first() else {
        return Ok(TreeValue::Scalar(Value::Null));
    };
    let mut tree = Tree::from_raw(first, Some(""));
    if !matches!(tree.value, TreeValue::Map(_) | TreeValue::Array(_)) {
        relabel(&mut tree, pos);
    }
    Ok(tree.value)
}

/// Set when a `@ytt:math` function is called: ytt then warns on stderr, once per run.
pub static MATH_USED: std::sync::atomic::AtomicBool = std::sync::atomic::AtomicBool::new(false);

/// ytt's warning after a run that called a `@ytt:math` function (an empty line first).
fn warn_if_math_used() {
    if MATH_USED.load(std::sync::atomic::Ordering::Relaxed) {
        output::stderr(
            "\nWarning: a function from the @ytt:math module is used in this invocation; this module does not guarantee bit-identical results across CPU architectures.\n",
        );
    }
}

/// The program behind the arguments: for `--help` and `--version`.
pub struct Program<'a> {
    /// The flags described (by [`command`]), with the program's name and about text.
    pub command: clap::Command,
    /// What `--version` prints (one line).
    pub version: &'a str,
}

/// The help text of a program taking ytt's flags.
pub fn help(command: &clap::Command) -> String {
    let mut cmd = command.clone().after_help(
        "Flags of ytt that cannot change the data values are accepted and ignored; those that would\n\
         change the data values or the output are errors naming the flag. Errors read as ytt's, with\n\
         exit status 1.",
    );
    cmd.render_help().to_string()
}

/// The stack a process runs its pipeline on: deep documents (up to the reader's depth budget)
/// recurse through every stage, deeper than a main thread's 8 MiB allows.
pub const STACK_BYTES: usize = 512 << 20;

/// Runs `f` on a thread with a [`STACK_BYTES`] stack and returns what it returns, or `failed`
/// if the thread cannot be made or panics.
pub fn with_large_stack<T: Send + 'static>(failed: T, f: impl FnOnce() -> T + Send + 'static) -> T {
    match std::thread::Builder::new().stack_size(STACK_BYTES).spawn(f) {
        Ok(handle) => handle.join().unwrap_or(failed),
        Err(e) => {
            output::stderr(&format!(
                "schemac: Error: cannot start the main thread: {e}\n"
            ));
            failed
        }
    }
}

/// The process: arguments in, output printed, exit status out (0 fine, 1 an error ytt would
/// report, 2 a value only schemac takes misspelled, 141 stdout's reader gone).
pub fn main_with(args: &[OsString], backend: &dyn Backend, program: &Program) -> i32 {
    match answer_args(args, program) {
        Ok(opts) => run(&opts, backend),
        Err(status) => status,
    }
}

/// The options to run with, or the exit status after answering the arguments (`--help`,
/// `--version`, unusable arguments).
pub fn answer_args(args: &[OsString], program: &Program) -> Result<Options, i32> {
    match parse_os(args) {
        Ok(Request::Run(o)) => Ok(*o),
        Ok(Request::Help) => Err(output::print_then(&help(&program.command), 0)),
        Ok(Request::Version) => Err(output::print_then(&format!("{}\n", program.version), 0)),
        Err(ArgError::Ytt(msg)) => {
            output::stderr(&format!("schemac: Error: {msg}\n"));
            Err(1)
        }
        Err(ArgError::Usage(msg)) => {
            let usage = program.command.clone().render_usage().to_string();
            output::stderr(&format!("schemac: Error: {msg}\n{usage}\n"));
            Err(2)
        }
    }
}

/// Runs the pipeline and prints its result; returns the exit status.
pub fn run(opts: &Options, backend: &dyn Backend) -> i32 {
    if opts.violations_format.as_deref() == Some("json") {
        if let Ok(Outcome::Invalid(violations)) = evaluate(opts, backend) {
            warn_if_math_used();
            return output::print_then(&format!("{}\n", validate::to_json(&violations)), 1);
        }
    }
    let result = run_keeping(opts, backend);
    warn_if_math_used();
    match result {
        Ok((out, leftovers)) => {
            let status = output::print_then(&out, 0);
            // The process exits next and its memory goes back at once: freeing every node
            // first would only take time.
            std::mem::forget(leftovers);
            status
        }
        Err(CheckError(msg)) => {
            output::stderr(&format!("schemac: Error: {}\n", multi_line(&msg)));
            1
        }
    }
}
