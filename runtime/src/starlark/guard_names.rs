//! The names a program's guard functions are bound to. schemac rewrites a program to call
//! functions of its own (`__schemac_at(x, i)` for `x[i]`, see
//! [`super::source_guard::guard_source`], [`super::budget::guard_repetition`],
//! [`super::go_literals`]); a user's own name like one of them (`__schemac_at = 5`, a
//! `def __schemac_or`) would shadow it. So each program gets a prefix that no text of its
//! source holds (`__schemac_`, else `__schemac1_`, `__schemac2_`, ...: [`GuardNames::for_source`]),
//! its guards are bound under that prefix in its module only ([`GuardNames::bind`]), and they are
//! no names of the interpreter's globals: a user's `__schemac_at` is undefined, as in ytt.
//!
//! Each guard is named in code by its canonical name (`go_builtins::INDEX`, `"__schemac_at"`),
//! the name it has with the first prefix; [`is_guard`] tells a name of a guarded program's
//! text that is that guard under any prefix.

use std::sync::OnceLock;

use crate::template::generated_names::free_prefix;
use starlark::environment::{Globals, GlobalsBuilder, Module};

/// The prefix of every canonical guard name.
const CANONICAL: &str = "__schemac_";

/// The stem of every prefix (`__schemac` + a number, if any, + `_`).
const STEM: &str = "__schemac";

/// The guard functions, under their canonical names.
fn guards() -> &'static Globals {
    static GUARDS: OnceLock<Globals> = OnceLock::new();
    GUARDS.get_or_init(|| {
        GlobalsBuilder::new()
            .with(super::go_builtins::go_guards)
            .with(super::go_sets::set_guards)
            .with(super::budget::sized_builtins)
            .with(super::go_compare::comparison_builtins)
            .build()
    })
}

/// The prefix of one program's guard names.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) struct GuardNames {
    prefix: String,
}

impl Default for GuardNames {
    fn default() -> Self {
        GuardNames {
            prefix: CANONICAL.to_string(),
        }
    }
}

impl GuardNames {
    /// The first of `__schemac_`, `__schemac1_`, `__schemac2_`, ... that `source` does not hold
    /// (anywhere: in a name, a string or a comment), so that no name of it starts with it.
    pub(super) fn for_source(source: &str) -> GuardNames {
        GuardNames {
            prefix: free_prefix([source], STEM),
        }
    }

    /// The name the guard `canonical` (`"__schemac_at"`) has in this program.
    pub(super) fn of(&self, canonical: &str) -> String {
        let suffix = canonical.strip_prefix(CANONICAL).unwrap_or(canonical);
        format!("{}{suffix}", self.prefix)
    }

    /// Binds every guard function under this program's names in `module`, before it runs.
    pub(super) fn bind(&self, module: &Module) {
        bind_renamed(guards(), module, |name| Some(self.of(name)));
    }
}

/// Binds each function of `functions` in `module` under the name `rename` gives its own name
/// (none: left out), before the module runs.
pub(super) fn bind_renamed(
    functions: &'static Globals,
    module: &Module,
    rename: impl Fn(&str) -> Option<String>,
) {
    module.frozen_heap().add_reference(functions.heap());
    for (name, f) in functions.iter() {
        if let Some(name) = rename(name) {
            module.set(&name, f.to_value());
        }
    }
}

/// The canonical name of a `load()` binding schemac renamed (the name follows), see
/// [`super::resolve::load_bindings_renamed`].
pub(super) const LOADED: &str = "__schemac_loaded_";

/// The name the user wrote for `name` of a program's text: a renamed load binding
/// (`__schemac_loaded_x`, under any prefix) is `x`; any other name is itself.
pub(super) fn shown_name(name: &str) -> &str {
    let suffix = &LOADED[CANONICAL.len()..];
    name.strip_prefix(STEM)
        .and_then(|rest| {
            let digits = rest.bytes().take_while(u8::is_ascii_digit).count();
            rest[digits..].strip_prefix('_')?.strip_prefix(suffix)
        })
        .filter(|n| !n.is_empty())
        .unwrap_or(name)
}

/// `message` with the names of renamed load bindings as the user wrote them (see
/// [`shown_name`]).
pub(super) fn shown_text(message: &str) -> std::borrow::Cow<'_, str> {
    if !message.contains(STEM) {
        return message.into();
    }
    let mut out = String::with_capacity(message.len());
    let mut rest = message;
    while let Some(at) = rest.find(STEM) {
        out.push_str(&rest[..at]);
        let word_len = rest[at..]
            .find(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
            .unwrap_or(rest.len() - at);
        out.push_str(shown_name(&rest[at..at + word_len]));
        rest = &rest[at + word_len..];
    }
    out.push_str(rest);
    out.into()
}

/// Whether `name` (of a guarded program's text) is the guard `canonical` under some prefix.
pub(super) fn is_guard(name: &str, canonical: &str) -> bool {
    let suffix = canonical.strip_prefix(CANONICAL).unwrap_or(canonical);
    let Some(rest) = name.strip_prefix(STEM) else {
        return false;
    };
    let digits = rest.bytes().take_while(u8::is_ascii_digit).count();
    rest[digits..].strip_prefix('_') == Some(suffix)
}

/// Whether `value` (bound to a name of a module) is one of the guard functions or of the
/// builder functions (see [`crate::template::generated_names`]): such names are none of the
/// module's own.
pub(super) fn is_guard_value(value: starlark::values::Value) -> bool {
    let builder = super::builder::builder_globals();
    guards()
        .iter()
        .chain(builder.iter())
        .any(|(_, f)| f.to_value().ptr_eq(value))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn prefix_is_one_the_source_does_not_hold() {
        assert_eq!(
            GuardNames::for_source("x = 1").of("__schemac_at"),
            "__schemac_at"
        );
        let names = GuardNames::for_source("__schemac_at = 1\n__schemac1_x = 2");
        assert_eq!(names.of("__schemac_at"), "__schemac2_at");
        // Gaps are taken; `__schemac01_` is no prefix it would choose.
        let names = GuardNames::for_source("__schemac_ __schemac2_ __schemac01_ __schemac3");
        assert_eq!(names.of("__schemac_at"), "__schemac1_at");
        let names = GuardNames::for_source("__schemac1_ __schemac_ __schemac2_ __schemac1_");
        assert_eq!(names.of("__schemac_at"), "__schemac3_at");
        assert!(is_guard("__schemac2_at", "__schemac_at"));
        assert!(is_guard("__schemac_at", "__schemac_at"));
        assert!(!is_guard("__schemac2_att", "__schemac_at"));
        assert!(!is_guard("__schemacx_at", "__schemac_at"));
    }
}
