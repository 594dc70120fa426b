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

/// The position among a struct's field `names` of the one `index` names (`s["a"]`), or ytt's
/// error for a struct whose type is `type_name`.
fn field_at<'a>(
    names: impl Iterator<Item = &'a [u8]>,
    index: Value,
    type_name: &str,
) -> starlark::Result<usize> {
    let Some(key) = super::go_bytes::string_bytes(index) else {
        return Err(anyhow::anyhow!("expected a string, but was {}", go_type(index)).into());
    };
    let mut names = names;
    match names.position(|n| n == key) {
        Some(i) => Ok(i),
        None => Err(anyhow::anyhow!("key {} not in {type_name}", super::go_repr(index)).into()),
    }
}

/// Whether a struct with the field `names` holds `name` (`"a" in s`).
fn has_field<'a>(names: impl IntoIterator<Item = &'a [u8]>, name: Value) -> bool {
    super::go_bytes::string_bytes(name).is_some_and(|k| names.into_iter().any(|n| n == k))
}

/// The values of ytt's library that are its struct under another type's name (`@ytt:url.value`,
/// `@ytt:url.user`, `@ytt:ip.addr`, `@ytt:ip.net`): their fields, attributes and methods in
/// ytt's order, make them a mapping and a sequence of the names, as a struct is (`len(v)`,
/// `for k in v`, `"string" in v`, `v["string"]()`).
pub(super) struct LibraryStruct {
    /// The type's name, as `type()` gives it.
    pub type_name: &'static str,
    pub names: &'static [&'static str],
}

impl LibraryStruct {
    fn bytes(&self) -> impl Iterator<Item = &'static [u8]> {
        self.names.iter().map(|n| n.as_bytes())
    }

    pub fn length(&self) -> starlark::Result<i32> {
        Ok(self.names.len() as i32)
    }

    pub fn iterate<'v>(&self, heap: Heap<'v>) -> starlark::Result<Vec<Value<'v>>> {
        Ok(self.names.iter().map(|n| heap.alloc(*n)).collect())
    }

    pub fn is_in(&self, other: Value) -> starlark::Result<bool> {
        Ok(has_field(self.bytes(), other))
    }

    /// `v[index]`: the attribute of `this()` (the value, allocated anew to bind a method to:
    /// these values never change, so the copy is the same value).
    pub fn at<'v>(
        &self,
        index: Value<'v>,
        this: impl FnOnce() -> Value<'v>,
        heap: Heap<'v>,
    ) -> starlark::Result<Value<'v>> {
        let name = self.names[field_at(self.bytes(), index, self.type_name)?];
        this().get_attr(name, heap)?.ok_or_else(|| {
            anyhow::anyhow!("internal error: {} has no attribute {name}", self.type_name).into()
        })
    }
}

/// The methods of a [`LibraryStruct`] value's `StarlarkValue` impl, for the one `$fields`
/// describes (the value is `Clone`: see [`LibraryStruct::at`]).
macro_rules! library_struct_methods {
    ($fields:expr) => {
        fn length(&self) -> starlark::Result<i32> {
            $fields.length()
        }

        fn iterate_collect(&self, heap: Heap<'v>) -> starlark::Result<Vec<Value<'v>>> {
            $fields.iterate(heap)
        }

        fn is_in(&self, other: Value<'v>) -> starlark::Result<bool> {
            $fields.is_in(other)
        }

        fn at(&self, index: Value<'v>, heap: Heap<'v>) -> starlark::Result<Value<'v>> {
            $fields.at(index, || heap.alloc(self.clone()), heap)
        }
    };
}
pub(super) use library_struct_methods;

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
        let i = field_at(self.names.iter().map(|n| &*n.0), index, "struct")?;
        Ok(self.values[i].to_value())
    }

    fn is_in(&self, other: Value<'v>) -> starlark::Result<bool> {
        Ok(has_field(self.names.iter().map(|n| &*n.0), other))
    }

    fn length(&self) -> starlark::Result<i32> {
        Ok(i32::try_from(self.names.len()).unwrap_or(i32::MAX))
    }

    fn iterate_collect(&self, heap: Heap<'v>) -> starlark::Result<Vec<Value<'v>>> {
        Ok(self.names.iter().map(|n| name_value(&n.0, heap)).collect())
    }
}
