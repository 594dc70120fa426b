//! The `@ytt:` modules that schemas and data values load.
//!
//! Matchers and `template.replace` return small marker dicts
//! (`{"__ytt_matcher__": "map_key", "arg": "name"}`) that stay plain data, so the Rust side can
//! read them from annotation arguments without calling back into Starlark.

use starlark::environment::{FrozenModule, GlobalsBuilder};
use starlark::eval::Evaluator;
use starlark::starlark_module;
use starlark::values::dict::AllocDict;
use starlark::values::float::UnpackFloat;
use starlark::values::none::NoneType;
use starlark::values::structs::AllocStruct;
use starlark::values::tuple::UnpackTuple;
use starlark::values::{Heap, UnpackValue, Value};

use super::convert::to_tree_value;
use super::written_size::Writing;
use crate::value::Pos;

/// An error whose message is ytt's text as it is (`assert.fail(msg)`, failing assertion
/// objects).
#[derive(Debug)]
pub struct AssertFail(pub String);

impl std::fmt::Display for AssertFail {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for AssertFail {}

fn marker<'v>(heap: Heap<'v>, kind: &str, name: &str, arg: Value<'v>) -> Value<'v> {
    heap.alloc(AllocDict([(kind, heap.alloc(name)), ("arg", arg)]))
}

#[starlark_module]
fn overlay_members(builder: &mut GlobalsBuilder) {
    fn map_key<'v>(name: Value<'v>, heap: Heap<'v>) -> anyhow::Result<Value<'v>> {
        Ok(marker(heap, "__ytt_matcher__", "map_key", name))
    }

    fn index<'v>(i: Value<'v>, heap: Heap<'v>) -> anyhow::Result<Value<'v>> {
        Ok(marker(heap, "__ytt_matcher__", "index", i))
    }

    fn subset<'v>(expected: Value<'v>, heap: Heap<'v>) -> anyhow::Result<Value<'v>> {
        Ok(marker(heap, "__ytt_matcher__", "subset", expected))
    }

    fn or_op<'v>(
        #[starlark(args)] args: UnpackTuple<Value<'v>>,
        heap: Heap<'v>,
    ) -> anyhow::Result<Value<'v>> {
        Ok(marker(
            heap,
            "__ytt_matcher__",
            "or_op",
            heap.alloc(args.items),
        ))
    }

    fn and_op<'v>(
        #[starlark(args)] args: UnpackTuple<Value<'v>>,
        heap: Heap<'v>,
    ) -> anyhow::Result<Value<'v>> {
        Ok(marker(
            heap,
            "__ytt_matcher__",
            "and_op",
            heap.alloc(args.items),
        ))
    }

    fn not_op<'v>(matcher: Value<'v>, heap: Heap<'v>) -> anyhow::Result<Value<'v>> {
        Ok(marker(heap, "__ytt_matcher__", "not_op", matcher))
    }
}

/// `overlay.all` is used as a value (`by=overlay.all`), not called: a sentinel string.
pub const OVERLAY_ALL: &str = "__ytt_overlay_all__";

fn overlay_namespace(builder: &mut GlobalsBuilder) {
    overlay_members(builder);
    builder.set("all", OVERLAY_ALL);
}

#[starlark_module]
fn template_members(builder: &mut GlobalsBuilder) {
    fn replace<'v>(value: Value<'v>, heap: Heap<'v>) -> anyhow::Result<Value<'v>> {
        Ok(heap.alloc(AllocDict([("__ytt_replace__", value)])))
    }
}

#[starlark_module]
fn struct_members(builder: &mut GlobalsBuilder) {
    fn make<'v>(
        #[starlark(kwargs)] kwargs: starlark::collections::SmallMap<String, Value<'v>>,
        heap: Heap<'v>,
    ) -> anyhow::Result<Value<'v>> {
        Ok(heap.alloc(AllocStruct(kwargs)))
    }
}

#[starlark_module]
fn data_members(builder: &mut GlobalsBuilder) {
    /// The files given to the run: names relative to the calling file's directory, or from
    /// the root with a leading `/` when `path` starts with `/`.
    fn list<'v>(
        #[starlark(default = "")] path: &str,
        eval: &mut Evaluator<'v, '_, '_>,
    ) -> anyhow::Result<Value<'v>> {
        let heap = eval.heap();
        let Some(state) = eval
            .extra
            .and_then(|e| e.downcast_ref::<super::builder::BuildState>())
        else {
            return Ok(heap.alloc(Vec::<Value<'v>>::new()));
        };
        let dir = state.file.rfind('/').map_or("", |i| &state.file[..=i]);
        let names: Vec<String> = state
            .files
            .iter()
            .filter_map(|f| {
                if let Some(root) = path.strip_prefix('/') {
                    f.strip_prefix(root).map(|_| format!("/{f}"))
                } else {
                    f.strip_prefix(dir)
                        .and_then(|r| r.strip_prefix(path))
                        .map(|_| f[dir.len()..].to_string())
                }
            })
            .collect();
        Ok(heap.alloc(names))
    }
}

/// The text argument of `json.decode`/`yaml.decode`, with ytt's error for anything else.
fn decode_text<'v>(text: Value<'v>, what: &str) -> anyhow::Result<&'v str> {
    text.unpack_str().ok_or_else(|| {
        anyhow::anyhow!(
            "{what}.decode: expected a string, but was {}",
            text.get_type()
        )
    })
}

/// Parses YAML (or JSON) text into plain Starlark values: dicts, lists and scalars, as ytt's
/// decoders return them (not fragments). JSON goes through Go's `map[string]interface{}` in
/// ytt, so its maps come out with sorted keys and its numbers as floats.
fn decode<'v>(text: &str, heap: Heap<'v>, what: &str) -> anyhow::Result<Value<'v>> {
    let raw = crate::yaml::parse::parse_file("", text, false)
        .map_err(|e| anyhow::anyhow!("{what}.decode: line {}: {}", e.line, e.message))?;
    if what == "yaml" && raw.docs.len() > 1 {
        anyhow::bail!("yaml.decode: Expected to find exactly one YAML document");
    }
    let Some(doc) = raw.docs.first() else {
        return Ok(Value::new_none());
    };
    let tree = crate::template::tree::Tree::from_raw(doc, None);
    Ok(plain(&tree.value.to_value(), heap, what == "json"))
}

/// A decoded value as Starlark dicts and lists; `json` sorts map keys and makes numbers floats.
fn plain<'v>(v: &crate::value::Value, heap: Heap<'v>, json: bool) -> Value<'v> {
    use crate::value::Value as Y;
    match v {
        Y::Int(i) if json => heap.alloc(*i as f64),
        Y::Map(entries) => {
            let mut items: Vec<(Value<'v>, Value<'v>)> = entries
                .iter()
                .map(|e| (plain(&e.key, heap, json), plain(&e.value.value, heap, json)))
                .collect();
            if json {
                items.sort_by_key(|(k, _)| k.unpack_str().map(str::to_string));
            }
            heap.alloc(AllocDict(items))
        }
        Y::Array(items) => {
            let items: Vec<Value<'v>> = items.iter().map(|n| plain(&n.value, heap, json)).collect();
            heap.alloc(items)
        }
        scalar => super::convert::scalar_to_starlark(scalar, heap),
    }
}

#[starlark_module]
fn yaml_members(builder: &mut GlobalsBuilder) {
    fn decode<'v>(text: Value<'v>, heap: Heap<'v>) -> anyhow::Result<Value<'v>> {
        decode(decode_text(text, "yaml")?, heap, "yaml")
    }

    fn encode<'v>(value: Value<'v>, heap: Heap<'v>) -> anyhow::Result<String> {
        super::budget::reserve_written(value, Writing::Tree, heap)?;
        super::convert::encode_yaml(value)
            .map_err(|e| super::assertion::encode_error("yaml.encode", &e))
    }
}

/// Compact JSON laid out as Go's `json.Indent` with `width` spaces (none: left compact): one
/// member or item a line, `": "` after keys, empty `{}` and `[]` kept on one line.
fn json_indent(compact: &str, width: usize) -> String {
    if width == 0 {
        return compact.to_string();
    }
    let mut out = String::with_capacity(compact.len() * 2);
    let mut depth = 0usize;
    let mut in_string = false;
    let mut escaped = false;
    let mut chars = compact.chars().peekable();
    let newline = |out: &mut String, depth: usize| {
        out.push('\n');
        out.push_str(&" ".repeat(depth * width));
    };
    while let Some(c) = chars.next() {
        if in_string {
            out.push(c);
            if escaped {
                escaped = false;
            } else if c == '\\' {
                escaped = true;
            } else if c == '"' {
                in_string = false;
            }
            continue;
        }
        match c {
            '"' => {
                in_string = true;
                out.push(c);
            }
            '{' | '[' => {
                out.push(c);
                if matches!(chars.peek(), Some('}' | ']')) {
                    out.extend(chars.next());
                } else {
                    depth += 1;
                    newline(&mut out, depth);
                }
            }
            '}' | ']' => {
                depth = depth.saturating_sub(1);
                newline(&mut out, depth);
                out.push(c);
            }
            ',' => {
                out.push(c);
                newline(&mut out, depth);
            }
            ':' => out.push_str(": "),
            _ => out.push(c),
        }
    }
    out
}

#[starlark_module]
fn json_members(builder: &mut GlobalsBuilder) {
    fn decode<'v>(text: Value<'v>, heap: Heap<'v>) -> anyhow::Result<Value<'v>> {
        let value = super::json_decode::decode(decode_text(text, "json")?)
            .map_err(|e| anyhow::anyhow!("json.decode: {e}"))?;
        Ok(plain(&value, heap, true))
    }

    /// `indent=N` (0 to 8) lays the JSON out as Go's `json.MarshalIndent` with N spaces.
    fn encode<'v>(
        value: Value<'v>,
        indent: Option<Value<'v>>,
        heap: Heap<'v>,
    ) -> anyhow::Result<String> {
        let indent = match indent {
            None => 0,
            Some(n) => n
                .unpack_i32()
                .ok_or_else(|| anyhow::anyhow!("json.encode: expected starlark.Int"))?,
        };
        if !(0..=8).contains(&indent) {
            anyhow::bail!("json.encode: indent value must be between 0 and 8");
        }
        super::budget::reserve_written(value, Writing::Tree, heap)?;
        let tv = to_tree_value(value, &Pos::unknown())
            .map_err(|e| super::assertion::encode_error("json.encode", &e))?;
        let compact = crate::yaml::json::marshal_json(&tv.to_value())
            .ok_or_else(|| anyhow::anyhow!("json.encode: unsupported value (NaN or infinity)"))?;
        Ok(json_indent(&compact, indent as usize))
    }
}

#[starlark_module]
fn regexp_members(builder: &mut GlobalsBuilder) {
    /// Whether `pattern` (RE2 syntax) matches somewhere in `s`.
    fn r#match(pattern: &str, s: &str) -> anyhow::Result<bool> {
        Ok(regex::Regex::new(pattern)?.is_match(s))
    }

    fn replace(pattern: &str, s: &str, replacement: &str) -> anyhow::Result<String> {
        Ok(regex::Regex::new(pattern)?
            .replace_all(s, replacement)
            .into_owned())
    }
}

#[starlark_module]
fn base64_members(builder: &mut GlobalsBuilder) {
    fn encode(s: &str) -> anyhow::Result<String> {
        use base64::Engine as _;
        Ok(base64::engine::general_purpose::STANDARD.encode(s))
    }

    /// As Go's `base64.StdEncoding.DecodeString`, which skips line breaks.
    fn decode(s: &str) -> anyhow::Result<String> {
        use base64::Engine as _;
        let text: String = s.chars().filter(|&c| c != '\r' && c != '\n').collect();
        let bytes = base64::engine::general_purpose::STANDARD
            .decode(text)
            .map_err(|e| match e {
                base64::DecodeError::InvalidByte(at, _)
                | base64::DecodeError::InvalidLastSymbol(at, _) => {
                    anyhow::anyhow!("illegal base64 data at input byte {at}")
                }
                _ => anyhow::anyhow!("illegal base64 data at input byte {}", s.len()),
            })?;
        Ok(String::from_utf8(bytes)?)
    }
}

/// A `@ytt:math` function's arguments, checked as ytt checks them: `want` numbers (ints or
/// floats), no keywords. Marks the run as one that used the math module, even if the call fails.
fn math_args(
    name: &str,
    args: &[Value],
    kwargs: &starlark::collections::SmallMap<starlark::values::StringValue, Value>,
    want: usize,
) -> anyhow::Result<Vec<f64>> {
    crate::cli::MATH_USED.store(true, std::sync::atomic::Ordering::Relaxed);
    if !kwargs.is_empty() {
        anyhow::bail!("{name}: {name}: unexpected keyword arguments");
    }
    if args.len() != want {
        anyhow::bail!("{name}: {name}: got {} arguments, want {want}", args.len());
    }
    args.iter()
        .map(|v| {
            if v.unpack_bool().is_none() {
                if let Some(f) = UnpackFloat::unpack_value(*v).ok().flatten() {
                    return Ok(f.0);
                }
            }
            let go_type = crate::rules::go_type(v.get_type());
            anyhow::bail!("{name}: expected float value, but was {go_type}")
        })
        .collect()
}

/// `math.floor`/`math.ceil` as starlark-go has them: an int argument is returned as it is; a
/// float is rounded by `round` and converted exactly to an int of any size (`1e23` gives
/// `99999999999999991611392`); infinities and NaN are an error.
fn math_to_int<'v>(
    name: &str,
    args: &[Value<'v>],
    kwargs: &starlark::collections::SmallMap<starlark::values::StringValue, Value>,
    heap: Heap<'v>,
    round: fn(f64) -> f64,
) -> anyhow::Result<Value<'v>> {
    let x = math_args(name, args, kwargs, 1)?;
    if args[0].get_type() == "int" {
        return Ok(args[0]);
    }
    let rounded = round(x[0]);
    if rounded.is_nan() {
        anyhow::bail!("{name}: cannot convert float NaN to integer");
    }
    if rounded.is_infinite() {
        anyhow::bail!("{name}: cannot convert float infinity to integer");
    }
    if rounded.abs() < 9.0e18 {
        return Ok(heap.alloc(rounded as i64));
    }
    let big = <num_bigint::BigInt as num_traits::FromPrimitive>::from_f64(rounded)
        .ok_or_else(|| anyhow::anyhow!("{name}: cannot convert float {rounded} to integer"))?;
    Ok(heap.alloc(big))
}

#[starlark_module]
fn math_members(builder: &mut GlobalsBuilder) {
    fn ceil<'v>(
        heap: Heap<'v>,
        #[starlark(args)] args: UnpackTuple<Value<'v>>,
        #[starlark(kwargs)] kwargs: starlark::collections::SmallMap<
            starlark::values::StringValue<'v>,
            Value<'v>,
        >,
    ) -> anyhow::Result<Value<'v>> {
        math_to_int("ceil", &args.items, &kwargs, heap, f64::ceil)
    }

    fn floor<'v>(
        heap: Heap<'v>,
        #[starlark(args)] args: UnpackTuple<Value<'v>>,
        #[starlark(kwargs)] kwargs: starlark::collections::SmallMap<
            starlark::values::StringValue<'v>,
            Value<'v>,
        >,
    ) -> anyhow::Result<Value<'v>> {
        math_to_int("floor", &args.items, &kwargs, heap, f64::floor)
    }

    fn round<'v>(
        #[starlark(args)] args: UnpackTuple<Value<'v>>,
        #[starlark(kwargs)] kwargs: starlark::collections::SmallMap<
            starlark::values::StringValue<'v>,
            Value<'v>,
        >,
    ) -> anyhow::Result<f64> {
        let x = math_args("round", &args.items, &kwargs, 1)?;
        Ok(x[0].round())
    }

    fn sqrt<'v>(
        #[starlark(args)] args: UnpackTuple<Value<'v>>,
        #[starlark(kwargs)] kwargs: starlark::collections::SmallMap<
            starlark::values::StringValue<'v>,
            Value<'v>,
        >,
    ) -> anyhow::Result<f64> {
        let x = math_args("sqrt", &args.items, &kwargs, 1)?;
        Ok(x[0].sqrt())
    }

    fn pow<'v>(
        #[starlark(args)] args: UnpackTuple<Value<'v>>,
        #[starlark(kwargs)] kwargs: starlark::collections::SmallMap<
            starlark::values::StringValue<'v>,
            Value<'v>,
        >,
    ) -> anyhow::Result<f64> {
        let x = math_args("pow", &args.items, &kwargs, 2)?;
        Ok(x[0].powf(x[1]))
    }

    fn fabs<'v>(
        #[starlark(args)] args: UnpackTuple<Value<'v>>,
        #[starlark(kwargs)] kwargs: starlark::collections::SmallMap<
            starlark::values::StringValue<'v>,
            Value<'v>,
        >,
    ) -> anyhow::Result<f64> {
        let x = math_args("fabs", &args.items, &kwargs, 1)?;
        Ok(x[0].abs())
    }
}

#[starlark_module]
fn library_members(builder: &mut GlobalsBuilder) {
    /// Private libraries (`_ytt_lib`) are templates, which data values files cannot use.
    fn get<'v>(
        #[starlark(args)] args: UnpackTuple<Value<'v>>,
        #[starlark(kwargs)] kwargs: starlark::collections::SmallMap<
            starlark::values::StringValue<'v>,
            Value<'v>,
        >,
    ) -> anyhow::Result<NoneType> {
        super::text_modules::only_str("library.get", &args.items, &kwargs)?;
        anyhow::bail!("library.get: Could not find private library (directory '_ytt_lib' missing?)")
    }
}

/// The frozen `@ytt:` module for `load(path)`, if there is one.
pub fn ytt_module(path: &str) -> Option<FrozenModule> {
    let (name, members): (&str, fn(&mut GlobalsBuilder)) = match path {
        "@ytt:assert" => ("assert", super::assertion::assert_members),
        "@ytt:overlay" => ("overlay", overlay_namespace),
        "@ytt:template" => ("template", template_members),
        "@ytt:struct" => ("struct", struct_members),
        "@ytt:data" => ("data", data_members),
        "@ytt:yaml" => ("yaml", yaml_members),
        "@ytt:json" => ("json", json_members),
        "@ytt:regexp" => ("regexp", regexp_members),
        "@ytt:base64" => ("base64", base64_members),
        "@ytt:math" => ("math", math_members),
        "@ytt:library" => ("library", library_members),
        _ => {
            let name = path.strip_prefix("@ytt:")?;
            (name, super::text_modules::members(name)?)
        }
    };
    let globals = GlobalsBuilder::new().with_namespace(name, members).build();
    FrozenModule::from_globals(&globals).ok()
}
