//! ytt's struct (`struct.make`, `struct.encode`, `data.values` while data values are read):
//! besides its fields as attributes it is a mapping and a sequence of its field names, as
//! ytt's `StarlarkStruct` is: `s["a"]`, `"a" in s`, `len(s)`, `for k in s`, `dict(s)`; it is
//! false when empty, equal only to itself and unhashable.

use std::fmt;

use allocative::Allocative;
use starlark::values::{
    starlark_value, Coerce, Freeze, Heap, NoSerialize, ProvidesStaticType, StarlarkValue, Trace,
    Value, ValueLifetimeless, ValueLike,
};
use starlark::{starlark_complex_value, StarlarkPagable};

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
pub struct YttStructGen<V: ValueLifetimeless> {
    names: Vec<String>,
    values: Vec<V>,
}

starlark_complex_value!(pub YttStruct);

impl<'v> YttStruct<'v> {
    /// A struct of these fields, in this order.
    pub fn new(fields: impl IntoIterator<Item = (String, Value<'v>)>) -> Self {
        let (names, values) = fields.into_iter().unzip();
        YttStructGen { names, values }
    }
}

impl<V: ValueLifetimeless> fmt::Display for YttStructGen<V> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("struct(...)")
    }
}

impl YttStructGen<starlark::values::FrozenValue> {
    /// The struct without fields (`data.values` while data values files are evaluated).
    pub fn empty() -> Self {
        YttStructGen {
            names: Vec::new(),
            values: Vec::new(),
        }
    }
}

/// The fields of a struct, in order (`None` for any other value).
pub fn fields<'v>(v: Value<'v>) -> Option<Vec<(&'v str, Value<'v>)>> {
    if let Some(s) = YttStruct::from_value(v) {
        return Some(
            s.names
                .iter()
                .map(String::as_str)
                .zip(s.values.iter().copied())
                .collect(),
        );
    }
    let s = starlark::values::structs::StructRef::from_value(v)?;
    Some(s.iter().map(|(k, x)| (k.as_str(), x)).collect())
}

/// starlark-go's name of a value's type, as ytt's struct names it in an index error.
fn go_type(v: Value) -> &'static str {
    match v.get_type() {
        "NoneType" => "NoneType",
        "bool" => "bool",
        "int" => "int",
        "float" => "float",
        "string" => "string",
        "list" => "list",
        "tuple" => "tuple",
        "dict" => "dict",
        "struct" => "struct",
        "function" => "function",
        _ => "value",
    }
}

#[starlark_value(type = "struct")]
impl<'v, V: ValueLike<'v>> StarlarkValue<'v> for YttStructGen<V>
where
    Self: ProvidesStaticType<'v>,
{
    fn collect_repr(&self, collector: &mut String) {
        collector.push_str("struct(...)");
    }

    fn to_bool(&self) -> bool {
        !self.names.is_empty()
    }

    fn equals(&self, other: Value<'v>) -> starlark::Result<bool> {
        // Only the same struct: `ptr_eq` is checked by the caller before this.
        let _ = other;
        Ok(false)
    }

    fn get_attr(&self, attribute: &str, _heap: Heap<'v>) -> Option<Value<'v>> {
        let i = self.names.iter().position(|n| n == attribute)?;
        Some(self.values[i].to_value())
    }

    fn dir_attr(&self) -> Vec<String> {
        self.names.clone()
    }

    fn at(&self, index: Value<'v>, _heap: Heap<'v>) -> starlark::Result<Value<'v>> {
        // (A string that is not UTF-8 names no field: the names are.)
        let Some(key) = super::go_bytes::string_bytes(index) else {
            return Err(anyhow::anyhow!("expected a string, but was {}", go_type(index)).into());
        };
        match self.names.iter().position(|n| n.as_bytes() == key) {
            Some(i) => Ok(self.values[i].to_value()),
            None => Err(anyhow::anyhow!("key {} not in struct", super::go_repr(index)).into()),
        }
    }

    fn is_in(&self, other: Value<'v>) -> starlark::Result<bool> {
        Ok(other
            .unpack_str()
            .is_some_and(|k| self.names.iter().any(|n| n == k)))
    }

    fn length(&self) -> starlark::Result<i32> {
        Ok(i32::try_from(self.names.len()).unwrap_or(i32::MAX))
    }

    fn iterate_collect(&self, heap: Heap<'v>) -> starlark::Result<Vec<Value<'v>>> {
        Ok(self.names.iter().map(|n| heap.alloc(n.as_str())).collect())
    }
}
