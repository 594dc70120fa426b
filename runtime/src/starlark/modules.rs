//! The `@ytt:` modules that schemas and data values load.
//!
//! Matchers are builtin functions, as in ytt ([`super::overlay_matcher`]); `template.replace`
//! replaces the node being built when it is called, as ytt's does ([`ReplacedNode`]).

use allocative::Allocative;
use starlark::environment::{FrozenModule, GlobalsBuilder};
use starlark::eval::Evaluator;
use starlark::starlark_module;
use starlark::values::dict::AllocDict;
use starlark::values::none::NoneType;
use starlark::values::tuple::UnpackTuple;
use starlark::values::{Heap, Value};
use starlark::values::{NoSerialize, ProvidesStaticType};
use starlark::StarlarkPagable;

use super::convert::to_tree_value;
use super::overlay_matcher::{FrozenOverlayMatcher, OverlayMatcher};
use super::text_modules::{bool_kwarg, only_arg, only_bytes};
use super::written_size::Writing;
use crate::value::Pos;

/// The keyword arguments of a `@ytt:` module function.
pub(super) type Kwargs<'v> =
    starlark::collections::SmallMap<starlark::values::StringValue<'v>, Value<'v>>;

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

/// The `#@ytt:overlay` functions' keyword arguments, which ytt ignores.
pub(super) type IgnoredKwargs<'v> = Kwargs<'v>;

/// A matcher of one positional argument (ytt counts only those: `overlay.index(i=0)` has none).
/// ytt takes `index`'s as an integer and `map_key`'s as a string when the matcher is made.
fn one_arg<'v>(
    heap: Heap<'v>,
    name: &str,
    args: UnpackTuple<Value<'v>>,
) -> anyhow::Result<Value<'v>> {
    let [arg] = args.items.as_slice() else {
        anyhow::bail!("overlay.{name}: expected exactly one argument");
    };
    match name {
        "index" if arg.get_type() != "int" => anyhow::bail!("overlay.index: expected starlark.Int"),
        "map_key" if super::go_bytes::string_bytes(*arg).is_none() => {
            Err(super::go_bytes::expected_string("overlay.map_key", *arg))
        }
        _ => Ok(heap.alloc(OverlayMatcher::new(name, *arg))),
    }
}

/// A matcher of one or more matchers (`and_op`, `or_op`).
fn some_args<'v>(
    heap: Heap<'v>,
    name: &str,
    args: UnpackTuple<Value<'v>>,
) -> anyhow::Result<Value<'v>> {
    if args.items.is_empty() {
        anyhow::bail!("overlay.{name}: expected at least one argument");
    }
    Ok(heap.alloc(OverlayMatcher::new(name, heap.alloc(args.items))))
}

#[starlark_module]
fn overlay_members(builder: &mut GlobalsBuilder) {
    fn map_key<'v>(
        #[starlark(args)] args: UnpackTuple<Value<'v>>,
        #[starlark(kwargs)] _kwargs: IgnoredKwargs<'v>,
        heap: Heap<'v>,
    ) -> anyhow::Result<Value<'v>> {
        one_arg(heap, "map_key", args)
    }

    fn index<'v>(
        #[starlark(args)] args: UnpackTuple<Value<'v>>,
        #[starlark(kwargs)] _kwargs: IgnoredKwargs<'v>,
        heap: Heap<'v>,
    ) -> anyhow::Result<Value<'v>> {
        one_arg(heap, "index", args)
    }

    fn subset<'v>(
        #[starlark(args)] args: UnpackTuple<Value<'v>>,
        #[starlark(kwargs)] _kwargs: IgnoredKwargs<'v>,
        heap: Heap<'v>,
    ) -> anyhow::Result<Value<'v>> {
        one_arg(heap, "subset", args)
    }

    fn or_op<'v>(
        #[starlark(args)] args: UnpackTuple<Value<'v>>,
        #[starlark(kwargs)] _kwargs: IgnoredKwargs<'v>,
        heap: Heap<'v>,
    ) -> anyhow::Result<Value<'v>> {
        some_args(heap, "or_op", args)
    }

    fn and_op<'v>(
        #[starlark(args)] args: UnpackTuple<Value<'v>>,
        #[starlark(kwargs)] _kwargs: IgnoredKwargs<'v>,
        heap: Heap<'v>,
    ) -> anyhow::Result<Value<'v>> {
        some_args(heap, "and_op", args)
    }

    fn not_op<'v>(
        #[starlark(args)] args: UnpackTuple<Value<'v>>,
        #[starlark(kwargs)] _kwargs: IgnoredKwargs<'v>,
        heap: Heap<'v>,
    ) -> anyhow::Result<Value<'v>> {
        one_arg(heap, "not_op", args)
    }

    /// Each value after the first overlaid onto the result so far ([`crate::overlay::apply_values`]);
    /// a YAML fragment. ytt ignores keyword arguments. Functions of overlay annotations
    /// (`by=lambda ...`) run with this template's evaluator.
    fn apply<'v>(
        #[starlark(args)] args: UnpackTuple<Value<'v>>,
        #[starlark(kwargs)] _kwargs: IgnoredKwargs<'v>,
        eval: &mut Evaluator<'v, '_, '_>,
    ) -> anyhow::Result<Value<'v>> {
        let heap = eval.heap();
        let mut values = args.items.into_iter();
        // A document set is overlaid as one (its documents, matched by `@overlay/match`).
        let tree_value = |v: Value<'v>| {
            super::convert::to_tree_value_keeping_documents(v, &Pos::unknown(), heap).map_err(|e| {
                anyhow::anyhow!(
                    e.message(|t| format!("unknown type {t} for conversion to go value"))
                )
            })
        };
        let Some(left) = values.next() else {
            anyhow::bail!("overlay.apply: expected exactly at least argument");
        };
        let document_set = super::convert::YamlFragment::is_document_set(left);
        let mut result = tree_value(left)?;
        let calls = super::predicates::RunningTemplateCalls {
            eval: std::cell::RefCell::new(eval),
        };
        for right in values {
            result = crate::overlay::apply_values(result, tree_value(right)?, Some(&calls))
                .map_err(|e| anyhow::anyhow!("overlay.apply: {}", e.render()))?;
        }
        Ok(heap.alloc(super::convert::YamlFragment {
            value: std::sync::Arc::new(result),
            root: None,
            document_set,
        }))
    }
}

fn overlay_namespace(builder: &mut GlobalsBuilder) {
    overlay_members(builder);
    builder.set(
        "all",
        FrozenOverlayMatcher {
            op: "all".into(),
            arg: starlark::values::FrozenValue::new_none(),
        },
    );
}

/// What `template.replace` answers, having put its argument in the place of the node being
/// built (ytt's `*core.StarlarkNoop`): a value of its own, which no user value can be, and
/// which setting a node's value ignores.
#[derive(Debug, Clone, ProvidesStaticType, NoSerialize, Allocative, StarlarkPagable)]
pub struct ReplacedNode;

starlark::starlark_simple_value!(ReplacedNode);

impl std::fmt::Display for ReplacedNode {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("noop")
    }
}

#[starlark::values::starlark_value(type = "noop")]
impl<'v> starlark::values::StarlarkValue<'v> for ReplacedNode {
    fn to_bool(&self) -> bool {
        false
    }
}

#[starlark_module]
fn template_members(builder: &mut GlobalsBuilder) {
    /// Puts the value in the place of the node being built, at once (see
    /// [`super::builder::BuildState::replace`]).
    fn replace<'v>(
        #[starlark(args)] args: UnpackTuple<Value<'v>>,
        #[starlark(kwargs)] _kwargs: Kwargs<'v>,
        eval: &mut Evaluator<'v, '_, '_>,
    ) -> anyhow::Result<Value<'v>> {
        let value = only_arg("template.replace", &args.items)?;
        let heap = eval.heap();
        let Some(state) = build_state(eval) else {
            anyhow::bail!("template.replace: there is no node being built to replace");
        };
        // The innermost frame with a place: the call of `replace` (itself native, placeless).
        let stack = eval.call_stack();
        let caller = stack.frames.iter().rev().find_map(|f| f.location.as_ref());
        state.replace(value, heap, caller.map(|at| at.filename()))?;
        Ok(heap.alloc(ReplacedNode))
    }
}

/// The builder state of the running template, if any.
fn build_state<'a>(eval: &'a Evaluator) -> Option<&'a super::builder::BuildState> {
    eval.extra
        .and_then(|e| e.downcast_ref::<super::builder::BuildState>())
}

/// A path given to a `@ytt:` function as its text: bytes that are not UTF-8 (which name no file
/// of the run) as U+FFFD, as the messages quoting it show them.
fn path_text(bytes: &[u8]) -> std::borrow::Cow<'_, str> {
    super::go_bytes::go_text(bytes)
}

/// The error `NAME: E` of a `@ytt:` function given the path `path`, which `E` may quote.
fn path_error(name: &str, e: String, path: &[u8]) -> anyhow::Error {
    super::go_bytes::quoting_bytes(format!("{name}: {e}"), path, anyhow::Error::msg)
}

/// The path argument of `data.list` (optional) or `data.read` (required); keywords are ignored.
fn data_path<'v>(name: &str, args: &[Value<'v>], required: bool) -> anyhow::Result<&'v [u8]> {
    let v = match (args, required) {
        ([], false) => return Ok(b""),
        ([v], _) => v,
        (_, false) => anyhow::bail!("{name}: expected exactly zero or one argument"),
        (_, true) => anyhow::bail!("{name}: expected exactly one argument"),
    };
    super::go_bytes::string_arg(name, *v)
}

#[starlark_module]
fn data_members(builder: &mut GlobalsBuilder) {
    /// The files of a library of the run (see [`crate::template::library::list`]).
    fn list<'v>(
        #[starlark(args)] args: UnpackTuple<Value<'v>>,
        #[starlark(kwargs)] _kwargs: IgnoredKwargs<'v>,
        eval: &mut Evaluator<'v, '_, '_>,
    ) -> anyhow::Result<Value<'v>> {
        let bytes = data_path("data.list", &args.items, false)?;
        let path = path_text(bytes);
        let heap = eval.heap();
        let Some(state) = build_state(eval) else {
            return Ok(heap.alloc(Vec::<Value<'v>>::new()));
        };
        let dir = crate::template::library::dir_of(state.file.as_str());
        let names = crate::template::library::list(&state.files, &state.root, dir, &path)
            .map_err(|e| path_error("data.list", e, bytes))?;
        Ok(heap.alloc(names))
    }

    /// The text of a file of the run, found as `load()` finds it (see
    /// [`crate::template::library::find`]).
    fn read<'v>(
        #[starlark(args)] args: UnpackTuple<Value<'v>>,
        #[starlark(kwargs)] _kwargs: IgnoredKwargs<'v>,
        eval: &mut Evaluator<'v, '_, '_>,
    ) -> anyhow::Result<Value<'v>> {
        let bytes = data_path("data.read", &args.items, true)?;
        let path = path_text(bytes);
        let Some(state) = build_state(eval) else {
            let e = format!(
                "Expected to find file '{path}' (hint: only files included via -f flag are available)"
            );
            return Err(path_error("data.read", e, bytes));
        };
        let dir = crate::template::library::dir_of(state.file.as_str());
        let heap = eval.heap();
        let (_, file) = crate::template::library::find(&state.files, &state.root, dir, &path)
            .map_err(|e| path_error("data.read", e, bytes))?;
        let text = file.get().map_err(|e| path_error("data.read", e, bytes))?;
        // Bytes that are not UTF-8 stay bytes, as in ytt (a string of Go's).
        Ok(match file.bytes_not_utf8() {
            Some(raw) => super::go_bytes::string_value(raw.to_vec(), heap),
            None => heap.alloc(text.as_ref()),
        })
    }
}

/// `data.values` while data values and schema files are evaluated: an empty struct.
fn data_namespace(builder: &mut GlobalsBuilder) {
    data_members(builder);
    builder.set("values", super::ytt_struct::FrozenYttStruct::empty());
}

/// Parses the text given to `yaml.decode` into plain Starlark values: dicts, lists and
/// scalars, as ytt's decoder returns them (not fragments), go-yaml's reader stopping where
/// `stop` says.
fn decode_yaml<'v>(
    text: &str,
    heap: Heap<'v>,
    stop: Option<crate::yaml::go_reader::ReaderStop>,
) -> anyhow::Result<Value<'v>> {
    // The text becomes a Starlark value: it nests as deep as those may.
    let depth = crate::yaml::parse::budget::Depth::starlark_values();
    let raw = crate::yaml::parse::parse_file_within("", text, false, depth, stop)
        .map_err(|e| anyhow::anyhow!("yaml.decode: {}", e.detail()))?;
    // A comment or directive before the first `---` makes a document of its own in ytt's
    // document set, which is counted; so does a `---` that ends the text (no line break or
    // blank after it: `yaml.decode("---")` is two documents in ytt).
    let marker_at_end = text == "---" || text.ends_with("\n---") || text.ends_with("\r---");
    let counted = raw.docs.len() + usize::from(raw.leading_document) + usize::from(marker_at_end);
    if counted > 1 {
        anyhow::bail!("yaml.decode: Expected to find exactly one YAML document");
    }
    let Some(doc) = raw.docs.into_iter().next() else {
        return Ok(Value::new_none());
    };
    let tree = crate::template::tree::Tree::from_raw(doc, None);
    let value = crate::value::Node::new(tree.value.to_value(), Default::default());
    // ytt keeps such a map, then panics converting it (`Unexpected duplicate key`).
    if let Some((first, _)) = value.first_repeated_key() {
        anyhow::bail!(
            "yaml.decode: map key '{}' is given twice (ytt fails with a Go panic here)",
            first.key.go_percent_s()
        );
    }
    Ok(plain(&value.value, heap, false))
}

/// A decoded value as Starlark dicts and lists; `json` sorts map keys and makes numbers floats.
pub(super) fn plain<'v>(v: &crate::value::Value, heap: Heap<'v>, json: bool) -> Value<'v> {
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
    fn decode<'v>(
        #[starlark(args)] args: UnpackTuple<Value<'v>>,
        #[starlark(kwargs)] _kwargs: Kwargs<'v>,
        heap: Heap<'v>,
    ) -> anyhow::Result<Value<'v>> {
        let bytes = only_bytes("yaml.decode", &args.items)?;
        // go-yaml's reader refuses bytes that are not UTF-8 and control characters as it
        // reads them, 512 bytes at a time: a syntax error before such a read wins.
        let (text, stop) = crate::inputs::decode_text(bytes.to_vec());
        decode_yaml(&text, heap, stop)
    }

    fn encode<'v>(
        #[starlark(args)] args: UnpackTuple<Value<'v>>,
        #[starlark(kwargs)] _kwargs: Kwargs<'v>,
        heap: Heap<'v>,
    ) -> anyhow::Result<String> {
        let value = only_arg("yaml.encode", &args.items)?;
        super::budget::reserve_written(value, Writing::Encoded, heap)?;
        super::convert::encode_yaml(value, heap)
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
    fn decode<'v>(
        #[starlark(args)] args: UnpackTuple<Value<'v>>,
        #[starlark(kwargs)] _kwargs: Kwargs<'v>,
        heap: Heap<'v>,
    ) -> anyhow::Result<Value<'v>> {
        let bytes = only_bytes("json.decode", &args.items)?;
        let value =
            super::json_decode::decode(bytes).map_err(|e| anyhow::anyhow!("json.decode: {e}"))?;
        Ok(plain(&value, heap, true))
    }

    /// `indent=N` (0 to 8) lays the JSON out as Go's `json.MarshalIndent` with N spaces,
    /// `escape_html=False` keeps `<`, `>` and `&` (Go's `SetEscapeHTML(false)`); no other
    /// keyword is allowed.
    fn encode<'v>(
        #[starlark(args)] args: UnpackTuple<Value<'v>>,
        #[starlark(kwargs)] kwargs: Kwargs<'v>,
        heap: Heap<'v>,
    ) -> anyhow::Result<String> {
        let value = only_arg("json.encode", &args.items)?;
        check_kwarg_names("json.encode", &kwargs, &["indent", "escape_html"])?;
        let indent = indent_kwarg("json.encode", &kwargs)?;
        // Go's encoder escapes HTML unless `escape_html=False`.
        let escape_html = match kwargs.get("escape_html") {
            Some(v) => bool_kwarg("json.encode", *v)?,
            None => true,
        };
        super::budget::reserve_written(value, Writing::Encoded, heap)?;
        let tv = to_tree_value(value, &Pos::unknown(), heap)
            .map_err(|e| super::assertion::encode_error("json.encode", &e))?;
        let data = tv.to_value();
        if let Some(ty) = non_string_key(&data) {
            anyhow::bail!(
                "json.encode: a map key of type {ty} is not a string (ytt fails with a Go panic here)"
            );
        }
        let compact = crate::yaml::json::marshal_json(&data).map_err(|f| {
            let text = crate::rules::float_repr(f);
            anyhow::anyhow!("json.encode: json: unsupported value: {text}")
        })?;
        let compact = match escape_html {
            true => compact,
            false => crate::yaml::json::without_html_escapes(&compact),
        };
        Ok(json_indent(&compact, usize::try_from(indent).unwrap_or(0)))
    }
}

/// ytt's check of an encoder's keyword arguments: the first one not in `allowed` fails.
pub(super) fn check_kwarg_names(
    name: &str,
    kwargs: &Kwargs,
    allowed: &[&str],
) -> anyhow::Result<()> {
    match kwargs.keys().find(|k| !allowed.contains(&k.as_str())) {
        Some(other) => anyhow::bail!("{name}: invalid argument name: {}", other.as_str()),
        None => Ok(()),
    }
}

/// An encoder's `indent=` (0 when not given), an int from 0 to 8 as ytt requires.
pub(super) fn indent_kwarg(name: &str, kwargs: &Kwargs) -> anyhow::Result<i64> {
    let indent: i64 = match kwargs.get("indent").copied() {
        None => 0,
        Some(n) if n.get_type() != "int" => anyhow::bail!("{name}: expected starlark.Int"),
        Some(n) => starlark::values::UnpackValue::unpack_value(n)
            .ok()
            .flatten()
            .ok_or_else(|| anyhow::anyhow!("{name}: expected int64 value"))?,
    };
    if !(0..=8).contains(&indent) {
        anyhow::bail!("{name}: indent value must be between 0 and 8");
    }
    Ok(indent)
}

/// The type of the first map key of `v` that is not a string, as ytt names it: its
/// `json.encode` panics on one.
pub(super) fn non_string_key(v: &crate::value::Value) -> Option<&'static str> {
    use crate::value::Value as Y;
    match v {
        Y::Map(entries) => entries.iter().find_map(|e| match &*e.key {
            Y::Str(_) | Y::Bytes(_) => non_string_key(&e.value.value),
            Y::Null => Some("NoneType"),
            Y::Bool(_) => Some("bool"),
            Y::Int(_) | Y::UInt(_) => Some("int"),
            Y::Float(_) => Some("float"),
            Y::Map(_) | Y::Array(_) => Some("yamlfragment"),
        }),
        Y::Array(items) => items.iter().find_map(|n| non_string_key(&n.value)),
        _ => None,
    }
}

#[starlark_module]
fn library_members(builder: &mut GlobalsBuilder) {
    /// ytt's checks of the arguments and its search for the private library (`_ytt_lib`) of
    /// the calling file's directory; a library found is not evaluated (schemac does not run
    /// a library's templates).
    fn get<'v>(
        #[starlark(args)] args: UnpackTuple<Value<'v>>,
        #[starlark(kwargs)] kwargs: Kwargs<'v>,
        eval: &mut Evaluator<'v, '_, '_>,
    ) -> anyhow::Result<NoneType> {
        const NAME: &str = "library.get";
        let bytes = only_bytes(NAME, &args.items)?;
        let path = path_text(bytes);
        for (k, v) in kwargs.iter() {
            match k.as_str() {
                "alias" => {
                    super::go_bytes::string_arg(NAME, *v)?;
                }
                "ignore_unknown_comments" | "implicit_map_key_overrides" | "strict" => {
                    bool_kwarg(NAME, *v)?;
                }
                other => anyhow::bail!("{NAME}: Unexpected kwarg '{other}'"),
            }
        }
        if path.starts_with('@') {
            let e = format!("Expected library '{path}' to be specified without '@'");
            return Err(path_error(NAME, e, bytes));
        }
        let Some(state) = build_state(eval) else {
            anyhow::bail!("{NAME}: Could not find private library (directory '_ytt_lib' missing?)")
        };
        let dir = crate::template::library::dir_of(state.file.as_str());
        let found = crate::template::library::private_library(&state.files, dir, &path)
            .map_err(|e| path_error(NAME, e, bytes))?;
        anyhow::bail!(
            "{NAME}: schemac cannot evaluate the private library '{}' (ytt runs its templates here)",
            found.trim_end_matches('/')
        )
    }
}

/// The frozen `@ytt:` module for `load(path)`, if there is one.
pub fn ytt_module(path: &str) -> Option<FrozenModule> {
    let (name, members): (&'static str, super::ytt_module::Members) = match path {
        "@ytt:assert" => ("assert", super::assertion::assert_members),
        "@ytt:overlay" => ("overlay", overlay_namespace),
        "@ytt:template" => ("template", template_members),
        "@ytt:struct" => ("struct", super::struct_module::struct_members),
        "@ytt:data" => ("data", data_namespace),
        "@ytt:yaml" => ("yaml", yaml_members),
        "@ytt:json" => ("json", json_members),
        "@ytt:regexp" => ("regexp", super::regexp_module::regexp_members),
        "@ytt:math" => ("math", super::math_module::math_members),
        "@ytt:library" => ("library", library_members),
        "@ytt:ip" => ("ip", super::ip_module::ip_members),
        "@ytt:module" => ("module", super::made_module::module_members),
        "@ytt:toml" => ("toml", super::toml_module::toml_members),
        _ => super::text_modules::members(path.strip_prefix("@ytt:")?)?,
    };
    let mut globals = GlobalsBuilder::new();
    globals.set(name, super::ytt_module::YttModule::new(name, members));
    FrozenModule::from_globals(&globals.build()).ok()
}
