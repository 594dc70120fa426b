//! The command line of `schemac check` and of built validators: ytt's flags for data values,
//! the documents the flags contribute, and the process's output and exit status.

use std::path::Path;

use crate::engine::{evaluate, io_message, run_keeping, Backend, CheckError, Outcome};
use crate::report::{multi_line, SourceLines};
use crate::template::tree::{Ann, Tree, TreeKind, TreeValue};
use crate::validate;
use crate::value::{Pos, Value};
use crate::yaml::parse::{parse_file, RawNode, RawValue};

/// What the command line asked for.
#[derive(Debug, Default, Clone)]
pub struct Options {
    pub files: Vec<String>,
    pub schema_inspect: bool,
    pub output: Option<String>,
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

/// Parses ytt-style arguments (`-f x`, `--data-value=k=v`, ...).
pub fn parse(args: &[String]) -> Result<Options, String> {
    let mut o = Options::default();
    let mut i = 0;
    while i < args.len() {
        let arg = &args[i];
        let (name, inline) = match arg.split_once('=') {
            Some((n, v)) if n.starts_with("--") => (n.to_string(), Some(v.to_string())),
            _ => (arg.clone(), None),
        };
        let mut value = || -> Result<String, String> {
            if let Some(v) = &inline {
                return Ok(v.clone());
            }
            i += 1;
            args.get(i)
                .cloned()
                .ok_or_else(|| format!("flag needs an argument: {name}"))
        };
        match name.as_str() {
            "-f" | "--file" => o.files.push(value()?),
            "--data-values-inspect" => {}
            "--data-values-schema-inspect" => o.schema_inspect = true,
            "-o" | "--output" => o.output = Some(value()?),
            "-v" | "--data-value" => o.data_value.push(value()?),
            "--data-value-yaml" => o.data_value_yaml.push(value()?),
            "--data-value-file" => o.data_value_file.push(value()?),
            "--data-values-file" => o.data_values_files.push(value()?),
            "--data-values-env" => o.env.push(value()?),
            "--data-values-env-yaml" => o.env_yaml.push(value()?),
            "--strict" | "-s" => o.strict = true,
            "--dangerous-data-values-disable-validation" => o.disable_validation = true,
            "--violations-format" => match value()?.as_str() {
                f @ ("json" | "text") => o.violations_format = Some(f.to_string()),
                other => {
                    return Err(format!(
                        "unknown violations format '{other}' (expected json or text)"
                    ))
                }
            },
            other => return Err(format!("unknown flag: {other}")),
        }
        i += 1;
    }
    Ok(o)
}

fn doc(value: TreeValue, pos: Pos) -> Tree {
    Tree {
        kind: TreeKind::Document,
        pos,
        anns: Vec::new(),
        value,
    }
}

/// `a.b.c` = value → `{a: {b: {c: value}}}`.
/// `a.b.c` = value → `{a: {b: {c: value}}}`; the leaf item replaces what it matches (as
/// ytt's `@overlay/replace or_add=True` on values from flags).
fn nested(path: &str, leaf: TreeValue, pos: &Pos) -> TreeValue {
    let mut value = leaf;
    for (i, key) in path.rsplit('.').enumerate() {
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

fn files_of(path: &str) -> Result<Vec<String>, CheckError> {
    let p = Path::new(path);
    let meta = std::fs::metadata(p).map_err(|e| {
        CheckError(format!(
            "Extracting data value from file: Find files '{path}': Checking file '{path}': lstat {path}: {}",
            io_message(&e).trim_start_matches("lstat: ")
        ))
    })?;
    if !meta.is_dir() {
        return Ok(vec![path.to_string()]);
    }
    let mut out = Vec::new();
    let mut stack = vec![(p.to_path_buf(), 0)];
    while let Some((dir, depth)) = stack.pop() {
        let Ok(entries) = std::fs::read_dir(&dir) else {
            continue;
        };
        for e in entries.flatten() {
            let ep = e.path();
            if ep.is_dir() {
                stack.push((ep, depth + 1));
            } else {
                let name = ep.to_string_lossy().to_string();
                let yaml = name.ends_with(".yml") || name.ends_with(".yaml");
                // ytt skips non-YAML files in subdirectories only.
                if yaml || depth == 0 {
                    out.push(name);
                }
            }
        }
    }
    out.sort();
    Ok(out)
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
        for file in files_of(path)? {
            let text = std::fs::read_to_string(&file).unwrap_or_default();
            plain.push((file, text));
        }
    }
    plain.extend(o.data_values_inline.iter().cloned());
    for (file, text) in plain {
        sources.add(&file, &text);
        let raw = parse_file(&file, &text, o.strict).map_err(|e| {
            let detail = match e.strict {
                Some(msg) => format!("yaml: Strict parsing: {msg}"),
                None => format!("yaml: line {}: {}", e.line, e.message),
            };
            CheckError(format!("Extracting data value from file: Unmarshaling YAML data values file '{file}': {detail}"))
        })?;
        let annotated =
            raw.docs.iter().any(|d| has_comments(d)) || !raw.trailing_comments.is_empty();
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
            let mut vars: Vec<(String, String)> = std::env::vars()
                .filter(|(k, _)| k.starts_with(&format!("{prefix}_")))
                .collect();
            vars.sort();
            for (k, v) in vars {
                let path = k[prefix.len() + 1..].replace("__", ".");
                let pos = Pos::new("(data-values-env)", 1);
                let leaf = if yaml {
                    parse_yaml_value(&v, &pos, &path, o.strict)?
                } else {
                    TreeValue::Scalar(Value::Str(v))
                };
                out.push(doc(nested(&path, leaf, &pos), pos));
            }
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
                parse_yaml_value(v, &pos, k, o.strict)?
            } else {
                TreeValue::Scalar(Value::Str(v.to_string()))
            };
            out.push(doc(nested(k, leaf, &pos), pos));
        }
    }
    for kv in &o.data_value_file {
        let (k, path) = kv.split_once('=').ok_or_else(|| {
            CheckError("Extracting data value from file: Expected format key=/file/path".into())
        })?;
        let text = std::fs::read_to_string(path).map_err(|e| {
            CheckError(format!(
                "Extracting data value from file: Finding file '{path}': Checking file '{path}': lstat {path}: {}",
                io_message(&e).trim_start_matches("lstat: ")
            ))
        })?;
        let label = format!("(data-value-file arg) {kv}");
        sources.add(&label, &text);
        let pos = Pos::new(label, 1);
        out.push(doc(
            nested(k, TreeValue::Scalar(Value::Str(text)), &pos),
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

fn parse_yaml_value(
    text: &str,
    pos: &Pos,
    key: &str,
    strict: bool,
) -> Result<TreeValue, CheckError> {
    let raw = parse_file(&pos.file, text, strict).map_err(|e| {
        let detail = match e.strict {
            Some(msg) => format!("yaml: Strict parsing: {msg}"),
            None => format!("yaml: line {}: {}", e.line, e.message),
        };
        CheckError(format!(
            "Extracting data value from KV: Deserializing value for key '{key}': Deserializing YAML value: {detail}"
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
        eprintln!(
            "\nWarning: a function from the @ytt:math module is used in this invocation; this module does not guarantee bit-identical results across CPU architectures."
        );
    }
}

/// The process: arguments in, output printed, exit status out (0 fine, 1 an error ytt would
/// report, 2 unusable arguments).
pub fn main_with(args: &[String], backend: &dyn Backend, usage: &str) -> i32 {
    let opts = match parse(args) {
        Ok(o) => o,
        Err(msg) => {
            eprintln!("schemac: Error: {msg}");
            eprintln!("{usage}");
            return 2;
        }
    };
    if opts.violations_format.as_deref() == Some("json") {
        if let Ok(Outcome::Invalid(violations)) = evaluate(&opts, backend) {
            warn_if_math_used();
            println!("{}", validate::to_json(&violations));
            return 1;
        }
    }
    let result = run_keeping(&opts, backend);
    warn_if_math_used();
    match result {
        Ok((out, leftovers)) => {
            print!("{out}");
            // The process exits next and its memory goes back at once: freeing every node
            // first would only take time.
            std::mem::forget(leftovers);
            0
        }
        Err(CheckError(msg)) => {
            eprintln!("schemac: Error: {}", multi_line(&msg));
            1
        }
    }
}
