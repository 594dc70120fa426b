//! ytt's struct (`struct.make`, `struct.encode`, `data.values` while data values are read):
//! besides its fields as attributes it is a mapping and a sequence of its field names, as
//! ytt's `StarlarkStruct` is: `s["a"]`, `"a" in s`, `len(s)`, `for k in s`, `dict(s)`; it is
//! false when empty, equal only to itself and unhashable. A field's name is a string's bytes,
//! which need not be UTF-8: `struct.encode({"\xff": 1})` makes a field `"\xff"`, as ytt does
//! (an attribute, `.name` or `getattr`, is always UTF-8 and never names it).

use std::fmt;

use allocative::Allocative;
use starlark::values::{
    starlark_value, Coerce, Freeze, FreezeResult, Freezer, Heap, NoSerialize, ProvidesStaticType,
    StarlarkValue, Trace, Tracer, Value, ValueLifetimeless, ValueLike,
};
use starlark::{starlark_complex_value, StarlarkPagable};

/// A field's name: the bytes of the string that named it.
#[derive(Debug, Clone, PartialEq, Eq, Allocative, StarlarkPagable)]
pub struct FieldName(Box<[u8]>);

// SAFETY: a name holds no values, and is the same type with any lifetime.
unsafe impl Coerce<FieldName> for FieldName {}

// SAFETY: a name holds no values to trace.
unsafe impl<'v> Trace<'v> for FieldName {
    fn trace(&mut self, _tracer: &Tracer<'v>) {}
}

impl Freeze for FieldName {
    type Frozen = FieldName;
    fn freeze(self, _freezer: &Freezer) -> FreezeResult<FieldName> {
        Ok(self)
    }
}

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
    names: Vec<FieldName>,
    values: Vec<V>,
}

starlark_complex_value!(pub YttStruct);

impl<'v> YttStruct<'v> {
    /// A struct of these fields (names as text or bytes), in this order.
    pub fn new<N: Into<Vec<u8>>>(fields: impl IntoIterator<Item = (N, Value<'v>)>) -> Self {
        let (names, values) = fields
            .into_iter()
            .map(|(n, v)| (FieldName(n.into().into_boxed_slice()), v))
            .unzip();
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

/// The fields of a struct, in order, each name as its bytes (`None` for any other value).
pub fn fields<'v>(v: Value<'v>) -> Option<Vec<(&'v [u8], Value<'v>)>> {
    if let Some(s) = YttStruct::from_value(v) {
        return Some(
            s.names
                .iter()
                .map(|n| &*n.0)
                .zip(s.values.iter().copied())
                .collect(),
        );
    }
    let s = starlark::values::structs::StructRef::from_value(v)?;
    Some(s.iter().map(|(k, x)| (k.as_str().as_bytes(), x)).collect())
}

/// A field's name as a Starlark string (a `GoBytes` when it is not UTF-8).
pub fn name_value<'v>(name: &[u8], heap: Heap<'v>) -> Value<'v> {
    super::go_bytes::string_value(name.to_vec(), heap)
}

/// The field names of a struct sorted by their bytes, as starlark-go's `dir` lists them
/// (`None` for any other value).
pub fn sorted_names<'v>(v: Value<'v>, heap: Heap<'v>) -> Option<Vec<Value<'v>>> {
    let mut names: Vec<&[u8]> = fields(v)?.into_iter().map(|(k, _)| k).collect();
    names.sort_unstable();
    Some(names.into_iter().map(|n| name_value(n, heap)).collect())
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
        let i = self
            .names
            .iter()
            .position(|n| *n.0 == *attribute.as_bytes())?;
        Some(self.values[i].to_value())
    }

    fn dir_attr(&self) -> Vec<String> {
        // (`dir` lists the names that are not UTF-8 too: [`sorted_names`].)
        self.names
            .iter()
            .filter_map(|n| std::str::from_utf8(&n.0).ok().map(str::to_string))
            .collect()
    }

    fn at(&self, index: Value<'v>, _heap: Heap<'v>) -> starlark::Result<Value<'v>> {
        let Some(key) = super::go_bytes::string_bytes(index) else {
            return Err(anyhow::anyhow!("expected a string, but was {}", go_type(index)).into());
        };
        match self.names.iter().position(|n| *n.0 == *key) {
            Some(i) => Ok(self.values[i].to_value()),
            None => Err(anyhow::anyhow!("key {} not in struct", super::go_repr(index)).into()),
        }
    }

    fn is_in(&self, other: Value<'v>) -> starlark::Result<bool> {
        Ok(super::go_bytes::string_bytes(other)
            .is_some_and(|k| self.names.iter().any(|n| *n.0 == *k)))
    }

    fn length(&self) -> starlark::Result<i32> {
        Ok(i32::try_from(self.names.len()).unwrap_or(i32::MAX))
    }

    fn iterate_collect(&self, heap: Heap<'v>) -> starlark::Result<Vec<Value<'v>>> {
        Ok(self.names.iter().map(|n| name_value(&n.0, heap)).collect())
    }
}
