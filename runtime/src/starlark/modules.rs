//! The `@ytt:` modules that schemas and data values load.
//!
//! Matchers, assertions and `template.replace` return small marker dicts
//! (`{"__ytt_matcher__": "map_key", "arg": "name"}`) that stay plain data, so the Rust side can
//! read them from annotation arguments without calling back into Starlark.

use starlark::environment::{FrozenModule, GlobalsBuilder};
use starlark::eval::Evaluator;
use starlark::starlark_module;
use starlark::values::dict::AllocDict;
use starlark::values::none::NoneType;
use starlark::values::structs::AllocStruct;
use starlark::values::tuple::UnpackTuple;
use starlark::values::{Heap, Value};

use super::convert::to_tree_value;
use crate::value::Pos;

/// Raised by `assert.fail(msg)` and by failing assertion objects.
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
fn assert_members(builder: &mut GlobalsBuilder) {
    fn fail(msg: &str) -> anyhow::Result<NoneType> {
        Err(AssertFail(msg.to_owned()).into())
    }

    fn min<'v>(minimum: Value<'v>, heap: Heap<'v>) -> anyhow::Result<Value<'v>> {
        Ok(marker(heap, "__ytt_assert__", "min", minimum))
    }

    fn max<'v>(maximum: Value<'v>, heap: Heap<'v>) -> anyhow::Result<Value<'v>> {
        Ok(marker(heap, "__ytt_assert__", "max", maximum))
    }

    fn min_len<'v>(length: Value<'v>, heap: Heap<'v>) -> anyhow::Result<Value<'v>> {
        Ok(marker(heap, "__ytt_assert__", "min_len", length))
    }

    fn max_len<'v>(length: Value<'v>, heap: Heap<'v>) -> anyhow::Result<Value<'v>> {
        Ok(marker(heap, "__ytt_assert__", "max_len", length))
    }

    fn not_null<'v>(heap: Heap<'v>) -> anyhow::Result<Value<'v>> {
        Ok(marker(heap, "__ytt_assert__", "not_null", Value::new_bool(true)))
    }

    fn one_of<'v>(#[starlark(args)] args: UnpackTuple<Value<'v>>, heap: Heap<'v>) -> anyhow::Result<Value<'v>> {
        let items = if args.items.len() == 1 { args.items[0] } else { heap.alloc(args.items) };
        Ok(marker(heap, "__ytt_assert__", "one_of", items))
    }

    fn one_not_null<'v>(#[starlark(args)] args: UnpackTuple<Value<'v>>, heap: Heap<'v>) -> anyhow::Result<Value<'v>> {
        let items = match args.items.len() {
            0 => Value::new_bool(true),
            1 => args.items[0],
            _ => heap.alloc(args.items),
        };
        Ok(marker(heap, "__ytt_assert__", "one_not_null", items))
    }

    fn try_to<'v>(f: Value<'v>, eval: &mut Evaluator<'v, '_, '_>) -> anyhow::Result<Value<'v>> {
        let heap = eval.heap();
        match eval.eval_function(f, &[], &[]) {
            Ok(v) => Ok(heap.alloc((v, Value::new_none()))),
            Err(e) => {
                let msg = super::error_message(&e);
                Ok(heap.alloc((Value::new_none(), heap.alloc(msg))))
            }
        }
    }

    fn equals<'v>(expected: Value<'v>, heap: Heap<'v>) -> anyhow::Result<Value<'v>> {
        Ok(marker(heap, "__ytt_assert__", "equals", expected))
    }
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
    fn list<'v>(
        #[starlark(args)] _args: UnpackTuple<Value<'v>>,
        heap: Heap<'v>,
    ) -> anyhow::Result<Value<'v>> {
        Ok(heap.alloc(Vec::<Value<'v>>::new()))
    }
}

#[starlark_module]
fn yaml_members(builder: &mut GlobalsBuilder) {
    fn encode<'v>(value: Value<'v>) -> anyhow::Result<String> {
        let tv = to_tree_value(value, &Pos::unknown())
            .map_err(|e| anyhow::anyhow!("Unsupported value type {} for yaml.encode", e.0))?;
        Ok(crate::yaml::emit::to_yaml(&tv.to_value()))
    }
}

#[starlark_module]
fn json_members(builder: &mut GlobalsBuilder) {
    fn encode<'v>(value: Value<'v>) -> anyhow::Result<String> {
        let tv = to_tree_value(value, &Pos::unknown())
            .map_err(|e| anyhow::anyhow!("Unsupported value type {} for json.encode", e.0))?;
        crate::yaml::json::marshal_json(&tv.to_value())
            .ok_or_else(|| anyhow::anyhow!("json.encode: unsupported value (NaN or infinity)"))
    }
}

/// The frozen `@ytt:` module for `load(path)`, if there is one.
pub fn ytt_module(path: &str) -> Option<FrozenModule> {
    let (name, members): (&str, fn(&mut GlobalsBuilder)) = match path {
        "@ytt:assert" => ("assert", assert_members),
        "@ytt:overlay" => ("overlay", overlay_namespace),
        "@ytt:template" => ("template", template_members),
        "@ytt:struct" => ("struct", struct_members),
        "@ytt:data" => ("data", data_members),
        "@ytt:yaml" => ("yaml", yaml_members),
        "@ytt:json" => ("json", json_members),
        _ => return None,
    };
    let globals = GlobalsBuilder::new().with_namespace(name, members).build();
    FrozenModule::from_globals(&globals).ok()
}
