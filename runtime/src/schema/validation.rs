//! The rules of the IR: what a `#@schema/validation` or `#@assert/validate` annotation says, as
//! plain data.
//!
//! A custom rule's function is not held here: it is a [`FunctionRef`], which each back end
//! resolves — the interpreter to the Starlark value kept when the annotation was evaluated,
//! generated code to the Rust translation made for this very IR node.

use crate::rules::RuleName;
use crate::value::{Pos, Value};

/// The rules of one `#@schema/validation` / `#@assert/validate` annotation.
#[derive(Clone, Debug, PartialEq)]
#[non_exhaustive]
pub struct Validation {
    /// Where the annotation is (`by: schema.yml:3`).
    pub pos: Pos,
    /// Custom rules (`("description", function)`), in the order written.
    pub custom: Vec<CustomRule>,
    /// Named rules (`min=1`), in ytt's fixed order.
    pub named: Vec<(RuleName, Value)>,
    /// Named rules whose argument ytt shows otherwise than its data in what the rule expects
    /// (Go's `%v` of the Starlark value), with that text: a tuple (`one_of=(1, 2)`, an array
    /// to the rule) in parentheses, a YAML fragment (`min=f()` of a `def` holding YAML) as its
    /// Go type, `yamlfragment(*yamlmeta.Array)`.
    pub shown_args: Vec<(RuleName, String)>,
    /// `when=`: the rules apply only when it returns True.
    pub when: Option<FunctionRef>,
}

impl Validation {
    /// A validation of the annotation at `pos` with no rules yet.
    pub fn new(pos: Pos) -> Validation {
        Validation {
            pos,
            custom: Vec::new(),
            named: Vec::new(),
            shown_args: Vec::new(),
            when: None,
        }
    }

    /// The Starlark functions it calls: custom rules' and `when=`.
    pub fn functions(&self) -> impl Iterator<Item = &FunctionRef> {
        self.custom
            .iter()
            .filter_map(|c| match &c.check {
                Check::Function(f) => Some(f),
                Check::Named(..) => None,
            })
            .chain(self.when.as_ref())
    }
}

/// A custom rule: `("description", check)`.
#[derive(Clone, Debug, PartialEq)]
pub struct CustomRule {
    pub description: String,
    pub check: Check,
}

/// What a custom rule calls.
#[derive(Clone, Debug, PartialEq)]
pub enum Check {
    /// A Starlark function (lambda or def).
    Function(FunctionRef),
    /// An `@ytt:assert` object (`assert.min(1)`), run as the named rule.
    Named(RuleName, Value),
}

/// A Starlark function given to an annotation: the `index`-th value that the run's templates
/// passed to annotations (see [`crate::template::functions::Functions`]). Evaluating the same
/// files gives every function the same index, so the index names this IR node's function in
/// the interpreter and in code generated from the same schema alike; a fragment instantiated
/// twice gives two indices.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct FunctionRef {
    pub index: usize,
}
