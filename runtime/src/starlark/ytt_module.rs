//! The value an `@ytt:` module loads as: starlark-go's module type, which prints as
//! `<module "base64">` and whose `type()` is `module` (starlark-rust's namespaces print their
//! members instead).

use std::collections::HashMap;
use std::fmt;
use std::sync::{Mutex, OnceLock, PoisonError};

use allocative::Allocative;
use starlark::environment::{Globals, GlobalsBuilder};
use starlark::values::{
    starlark_value, Heap, NoSerialize, ProvidesStaticType, StarlarkValue, Value,
};
use starlark::{starlark_simple_value, StarlarkPagable};

/// What defines a module's members.
pub type Members = fn(&mut GlobalsBuilder);

/// An `@ytt:` module: its name and its members, kept in the globals that own them.
#[derive(Debug, ProvidesStaticType, NoSerialize, Allocative, StarlarkPagable)]
pub struct YttModule {
    name: String,
    /// Always set; an `Option` only for the pagable derive, which wants a default.
    #[allocative(skip)]
    #[starlark_pagable(skip)]
    members: Option<Globals>,
}

starlark_simple_value!(YttModule);

/// The members of each module, built once: their functions keep one address, by which
/// [`qualified_name`] knows them.
fn built() -> std::sync::MutexGuard<'static, HashMap<&'static str, Globals>> {
    static BUILT: OnceLock<Mutex<HashMap<&'static str, Globals>>> = OnceLock::new();
    BUILT
        .get_or_init(Default::default)
        .lock()
        .unwrap_or_else(PoisonError::into_inner)
}

impl YttModule {
    /// The module `name` with the members that `members` defines.
    pub fn new(name: &'static str, members: impl Fn(&mut GlobalsBuilder)) -> YttModule {
        let globals = built()
            .entry(name)
            .or_insert_with(|| {
                let mut builder = GlobalsBuilder::new();
                members(&mut builder);
                builder.build()
            })
            .clone();
        YttModule {
            name: name.to_string(),
            members: Some(globals),
        }
    }
}

/// `module.member` for a function of an `@ytt:` module (`assert.fail`), as ytt names its
/// modules' builtins; `@ytt:math` is starlark-go's own, whose builtins keep their names.
pub fn qualified_name(v: Value) -> Option<String> {
    let built = built();
    let ytt_modules = built.iter().filter(|(module, _)| **module != "math");
    ytt_modules.into_iter().find_map(|(module, globals)| {
        globals
            .iter()
            .find(|(_, member)| member.to_value().ptr_eq(v))
            .map(|(member, _)| format!("{module}.{member}"))
    })
}

impl YttModule {
    fn members(&self) -> impl Iterator<Item = (&str, starlark::values::FrozenValue)> {
        self.members.iter().flat_map(Globals::iter)
    }
}

impl fmt::Display for YttModule {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "<module \"{}\">", self.name)
    }
}

#[starlark_value(type = "module")]
impl<'v> StarlarkValue<'v> for YttModule {
    fn get_attr(&self, attribute: &str, _heap: Heap<'v>) -> Option<Value<'v>> {
        // The members live in `self.members`' heap, which this value keeps alive.
        self.members()
            .find(|(name, _)| *name == attribute)
            .map(|(_, v)| v.to_value())
    }

    fn has_attr(&self, attribute: &str, _heap: Heap<'v>) -> bool {
        self.members().any(|(name, _)| name == attribute)
    }

    /// starlark-go lists a module's members sorted.
    fn dir_attr(&self) -> Vec<String> {
        let mut names: Vec<String> = self.members().map(|(n, _)| n.to_string()).collect();
        names.sort();
        names
    }
}
