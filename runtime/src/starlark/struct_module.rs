//! `@ytt:struct`: `make`, `encode`/`decode` (deep copies with dicts as structs, or structs as
//! dicts; tuples and sets as lists), `bind` and `make_and_bind`, with ytt's argument checks.

use std::fmt;

use super::ytt_struct::{fields as struct_fields, name_value as struct_name_value, YttStruct};
use allocative::Allocative;
use starlark::collections::SmallMap;
use starlark::environment::GlobalsBuilder;
use starlark::eval::{Arguments, Evaluator};
use starlark::starlark_module;
use starlark::values::dict::{AllocDict, DictRef};
use starlark::values::list::ListRef;
use starlark::values::tuple::{TupleRef, UnpackTuple};
use starlark::values::{
    starlark_value, Coerce, Freeze, Heap, NoSerialize, ProvidesStaticType, StarlarkValue,
    StringValue, Trace, UnpackValue, Value, ValueLifetimeless, ValueLike,
};
use starlark::{starlark_complex_value, StarlarkPagable};

type Kwargs<'v> = SmallMap<StringValue<'v>, Value<'v>>;

/// A function with its first arguments given (`struct.bind`): calling it calls `function` with
/// `args` and then the call's own arguments. Prints as ytt's builtin does.
#[derive(
    Debug,
    Clone,
    Trace,
    Coerce,
    Freeze,
    ProvidesStaticType,
    NoSerialize,
    Allocative,
    StarlarkPagable,
)]
#[repr(C)]
pub struct BoundGen<V: ValueLifetimeless> {
    function: V,
    args: Vec<V>,
}

starlark_complex_value!(pub Bound);

impl<V: ValueLifetimeless> fmt::Display for BoundGen<V> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("<built-in function struct.bind_result>")
    }
}

#[starlark_value(type = "builtin_function_or_method")]
impl<'v, V: ValueLike<'v>> StarlarkValue<'v> for BoundGen<V>
where
    Self: ProvidesStaticType<'v>,
{
    fn invoke(
        &self,
        _me: Value<'v>,
        args: &Arguments<'v, '_>,
        eval: &mut Evaluator<'v, '_, '_>,
    ) -> starlark::Result<Value<'v>> {
        let mut positional: Vec<Value<'v>> = self.args.iter().map(|v| v.to_value()).collect();
        positional.extend(args.positions(eval.heap())?);
        let named = args.names_map()?;
        let named = super::named_args(&named);
        let function = self.function.to_value();
        if function.get_type() != "function" && function.get_type() != "builtin_function_or_method"
        {
            return Err(anyhow::anyhow!(
                "struct.bind_result: invalid call of non-function ({})",
                function.get_type()
            )
            .into());
        }
        eval.eval_function(function, &positional, &named)
            .map_err(|e| anyhow::anyhow!("struct.bind_result: {}", super::error_message(&e)).into())
    }
}

/// A deep copy of `v` as plain data: lists for lists, tuples and sets; structs for dicts and
/// structs when `to_struct` (`encode`), dicts for both otherwise (`decode`). `depth` counts the
/// collections around `v`: a list inside itself is an error at the depth budget, where ytt's
/// Go runs out of stack.
fn plain_copy<'v>(
    name: &str,
    v: Value<'v>,
    heap: Heap<'v>,
    to_struct: bool,
    depth: usize,
) -> anyhow::Result<Value<'v>> {
    if depth >= crate::yaml::parse::budget::max_value_depth() {
        return Err(super::nested_too_deep());
    }
    let items: Option<Vec<Value<'v>>> = if let Some(list) = ListRef::from_value(v) {
        Some(list.iter().collect())
    } else if let Some(tuple) = TupleRef::from_value(v) {
        Some(tuple.iter().collect())
    } else if v.get_type() == "set" {
        Some(
            v.iterate(heap)
                .map_err(|e| anyhow::anyhow!("{e}"))?
                .collect(),
        )
    } else {
        None
    };
    if let Some(items) = items {
        let copied = items
            .into_iter()
            .map(|x| plain_copy(name, x, heap, to_struct, depth + 1))
            .collect::<anyhow::Result<Vec<_>>>()?;
        return Ok(heap.alloc(copied));
    }
    let entries: Option<Vec<(Value<'v>, Value<'v>)>> = if let Some(dict) = DictRef::from_value(v) {
        Some(dict.iter().collect())
    } else {
        struct_fields(v).map(|s| {
            s.into_iter()
                .map(|(k, x)| (struct_name_value(k, heap), x))
                .collect()
        })
    };
    if let Some(entries) = entries {
        if to_struct {
            // A key's bytes name the field, UTF-8 or not, as in ytt (the entries' keys are
            // distinct: a dict's or a struct's).
            let mut fields: Vec<(Vec<u8>, Value<'v>)> = Vec::with_capacity(entries.len());
            for (k, x) in entries {
                let key = super::go_bytes::string_bytes(k).ok_or_else(|| {
                    anyhow::anyhow!(
                        "{name}: a struct's keys are strings, but this one is {} {} (ytt fails with a Go panic here)",
                        k.get_type(),
                        super::go_repr(k)
                    )
                })?;
                fields.push((
                    key.to_vec(),
                    plain_copy(name, x, heap, to_struct, depth + 1)?,
                ));
            }
            return Ok(heap.alloc(YttStruct::new(fields)));
        }
        let copied = entries
            .into_iter()
            .map(|(k, x)| {
                Ok((
                    plain_copy(name, k, heap, to_struct, depth + 1)?,
                    plain_copy(name, x, heap, to_struct, depth + 1)?,
                ))
            })
            .collect::<anyhow::Result<Vec<_>>>()?;
        return Ok(heap.alloc(AllocDict(copied)));
    }
    match v.get_type() {
        // ytt converts each int to a Go int64 or uint64, and panics on one past them
        // (`not sure how to get int`), dict keys included.
        "int" if i64::unpack_value(v).ok().flatten().is_none()
            && u64::unpack_value(v).ok().flatten().is_none() =>
        {
            Err(anyhow::anyhow!(
                "{name}: an integer beyond 64 bits is not data (ytt fails with a Go panic here: not sure how to get int)"
            ))
        }
        "NoneType" | "bool" | "int" | "float" | "string" => Ok(v),
        other => Err(anyhow::anyhow!(super::assertion::not_data(name, other)
            .unwrap_or_else(|| format!(
                "{name}: a value of type {other} is not data (ytt fails with a Go panic here)"
            )))),
    }
}

#[starlark_module]
pub(super) fn struct_members(builder: &mut GlobalsBuilder) {
    fn make<'v>(
        #[starlark(args)] args: UnpackTuple<Value<'v>>,
        #[starlark(kwargs)] kwargs: SmallMap<String, Value<'v>>,
        heap: Heap<'v>,
    ) -> anyhow::Result<Value<'v>> {
        if !args.items.is_empty() {
            anyhow::bail!(
                "struct.make: unexpected positional arguments (structs are made from keyword arguments only)"
            );
        }
        Ok(heap.alloc(YttStruct::new(kwargs)))
    }

    fn encode<'v>(
        #[starlark(args)] args: UnpackTuple<Value<'v>>,
        #[starlark(kwargs)] _kwargs: Kwargs<'v>,
        heap: Heap<'v>,
    ) -> anyhow::Result<Value<'v>> {
        const NAME: &str = "struct.encode";
        plain_copy(
            NAME,
            super::text_modules::only_arg(NAME, &args.items)?,
            heap,
            true,
            0,
        )
    }

    fn decode<'v>(
        #[starlark(args)] args: UnpackTuple<Value<'v>>,
        #[starlark(kwargs)] _kwargs: Kwargs<'v>,
        heap: Heap<'v>,
    ) -> anyhow::Result<Value<'v>> {
        const NAME: &str = "struct.decode";
        plain_copy(
            NAME,
            super::text_modules::only_arg(NAME, &args.items)?,
            heap,
            false,
            0,
        )
    }

    /// `bind(f, a, ...)`: `f` with its first arguments given.
    fn bind<'v>(
        #[starlark(args)] args: UnpackTuple<Value<'v>>,
        #[starlark(kwargs)] _kwargs: Kwargs<'v>,
        heap: Heap<'v>,
    ) -> anyhow::Result<Value<'v>> {
        let [function, given @ ..] = &args.items[..] else {
            anyhow::bail!("struct.bind: expected at least two arguments");
        };
        if given.is_empty() {
            anyhow::bail!("struct.bind: expected at least two arguments");
        }
        Ok(heap.alloc(Bound {
            function: *function,
            args: given.to_vec(),
        }))
    }

    /// `make_and_bind(s, name=f, ...)`: a struct of the keyword arguments, each function among
    /// them bound to `s`.
    fn make_and_bind<'v>(
        #[starlark(args)] args: UnpackTuple<Value<'v>>,
        #[starlark(kwargs)] kwargs: SmallMap<String, Value<'v>>,
        heap: Heap<'v>,
    ) -> anyhow::Result<Value<'v>> {
        let [receiver] = args.items[..] else {
            anyhow::bail!("struct.make_and_bind: expected at exactly one argument");
        };
        let fields: SmallMap<String, Value<'v>> = kwargs
            .into_iter()
            .map(|(k, f)| {
                let bound = if f.get_type() == "function" {
                    heap.alloc(Bound {
                        function: f,
                        args: vec![receiver],
                    })
                } else {
                    f
                };
                (k, bound)
            })
            .collect();
        Ok(heap.alloc(YttStruct::new(fields)))
    }
}
