//! `@ytt:module`: `module.make(name, **members)`, starlark-go's `starlarkstruct.MakeModule`.
//! The module made prints as `<module "name">`, its `type()` is `module`, its members are its
//! attributes (listed sorted by `dir()`) and stay mutable; it is equal only to itself and
//! unhashable, as the modules `load` gives.

use std::fmt;

use allocative::Allocative;
use starlark::collections::SmallMap;
use starlark::environment::GlobalsBuilder;
use starlark::starlark_module;
use starlark::values::tuple::UnpackTuple;
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
pub struct MadeModuleGen<V: ValueLifetimeless> {
    name: String,
    /// The members, sorted by name.
    members: Vec<(String, V)>,
}

starlark_complex_value!(pub MadeModule);

impl<V: ValueLifetimeless> fmt::Display for MadeModuleGen<V> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "<module \"{}\">", self.name)
    }
}

#[starlark_value(type = "module")]
impl<'v, V: ValueLike<'v>> StarlarkValue<'v> for MadeModuleGen<V>
where
    Self: ProvidesStaticType<'v>,
{
    fn equals(&self, other: Value<'v>) -> starlark::Result<bool> {
        // Only the same module: `ptr_eq` is checked by the caller before this.
        let _ = other;
        Ok(false)
    }

    fn get_attr(&self, attribute: &str, _heap: Heap<'v>) -> Option<Value<'v>> {
        let i = self
            .members
            .binary_search_by(|(n, _)| n.as_str().cmp(attribute));
        Some(self.members[i.ok()?].1.to_value())
    }

    fn has_attr(&self, attribute: &str, heap: Heap<'v>) -> bool {
        self.get_attr(attribute, heap).is_some()
    }

    fn dir_attr(&self) -> Vec<String> {
        self.members.iter().map(|(n, _)| n.clone()).collect()
    }
}

#[starlark_module]
pub(super) fn module_members(builder: &mut GlobalsBuilder) {
    /// A module named `name` whose members are the keyword arguments.
    fn make<'v>(
        #[starlark(args)] args: UnpackTuple<Value<'v>>,
        #[starlark(kwargs)] kwargs: SmallMap<String, Value<'v>>,
        heap: Heap<'v>,
    ) -> anyhow::Result<Value<'v>> {
        const NAME: &str = "module.make";
        let name = match args.items.as_slice() {
            [name] => name.unpack_str().ok_or_else(|| {
                anyhow::anyhow!(
                    "{NAME}: {NAME}: for parameter 1: got {}, want string",
                    super::go_repr::go_type(*name)
                )
            })?,
            items => anyhow::bail!("{NAME}: {NAME}: got {} arguments, want 1", items.len()),
        };
        let mut members: Vec<(String, Value<'v>)> = kwargs.into_iter().collect();
        members.sort_by(|a, b| a.0.cmp(&b.0));
        Ok(heap.alloc(MadeModule {
            name: name.to_string(),
            members,
        }))
    }
}
