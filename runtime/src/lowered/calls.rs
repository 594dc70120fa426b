//! Calling a schema's functions through their translations, and the interpreter for the rest:
//! a built validator's generated Rust, or the IR `schemac check` evaluates.

use super::ir::{self, Kind};
use super::{Translated, Translations};
use crate::schema::FunctionRef;
use crate::template::tree::{Returned, TreeValue};
use crate::validate::{CallOutcome, Predicates, WhenContext};
use crate::value::Node;

/// A schema's translated functions.
#[derive(Clone, Copy)]
pub enum Rules<'a> {
    /// Compiled into a validator.
    Generated(Translations),
    /// Evaluated from the IR.
    Ir(&'a ir::Program),
}

/// Calls a function's translation when it has one, else the interpreter (when there is one).
pub struct TranslatedPredicates<'a> {
    pub rules: Rules<'a>,
    pub interpreter: Option<&'a dyn Predicates>,
}

/// What a call without a translation answers when there is no interpreter.
const NO_INTERPRETER: &str = "this validator was built without the Starlark interpreter";

impl Predicates for TranslatedPredicates<'_> {
    fn call_rule(&self, f: &FunctionRef, value: &Node) -> CallOutcome {
        match self.rules {
            Rules::Generated(t) => {
                if let Some(Translated::Rule(rule)) = t(f.index) {
                    return rule.call(value);
                }
            }
            Rules::Ir(p) => {
                if let Some(i) = p.entry(f, Kind::Rule) {
                    return p.call_rule(i, value);
                }
            }
        }
        match self.interpreter {
            Some(i) => i.call_rule(f, value),
            None => CallOutcome::Error(Some(NO_INTERPRETER.into())),
        }
    }

    fn call_overlay(&self, f: &FunctionRef, args: &[&TreeValue]) -> Result<Returned, String> {
        match self.interpreter {
            Some(i) => i.call_overlay(f, args),
            None => Err(format!(
                "{NO_INTERPRETER} ({} arguments to function {})",
                args.len(),
                f.index
            )),
        }
    }

    fn call_when(&self, f: &FunctionRef, value: &Node, ctx: &WhenContext) -> Result<bool, String> {
        match self.rules {
            Rules::Generated(t) => {
                if let Some(Translated::When(when)) = t(f.index) {
                    return when.call(value, ctx.parent, ctx.root);
                }
            }
            Rules::Ir(p) => {
                if let Some(i) = p.entry(f, Kind::When) {
                    return p.call_when(i, value, ctx.parent, ctx.root);
                }
            }
        }
        match self.interpreter {
            Some(i) => i.call_when(f, value, ctx),
            None => Err(NO_INTERPRETER.into()),
        }
    }
}
