//! The values a run's templates pass to annotations that are not data (functions, assertion
//! objects), kept for as long as the run needs them and named by their index.
//!
//! The table is type-erased so that templates and the IR do not depend on the interpreter:
//! the Starlark back end stores its frozen values here and finds them again by
//! [`crate::schema::FunctionRef`].

use std::any::Any;
use std::sync::{Arc, Mutex, PoisonError};

/// A kept value (a frozen Starlark value, for the interpreter).
pub type Kept = Arc<dyn Any + Send + Sync>;

/// The values kept so far in a run, in the order the templates passed them.
#[derive(Clone, Default)]
pub struct Functions(Arc<Mutex<Vec<Option<Kept>>>>);

impl Functions {
    /// A table whose first `n` indices are taken by values kept elsewhere (a built validator's
    /// schema, evaluated when it was built): values kept in this run get the indices after.
    pub fn reserved(n: usize) -> Functions {
        Functions(Arc::new(Mutex::new(vec![None; n])))
    }

    /// Takes the next `n` indices for values kept elsewhere (a schema's functions, kept by a
    /// store as their translations).
    pub fn reserve(&self, n: usize) {
        let mut values = self.lock();
        let len = values.len() + n;
        values.resize(len, None);
    }

    /// A new table that starts with this one's values (a run starting from a schema evaluated
    /// once).
    pub fn fork(&self) -> Functions {
        Functions(Arc::new(Mutex::new(self.lock().clone())))
    }

    /// Keeps `value`; returns its index.
    pub fn keep(&self, value: Kept) -> usize {
        let mut values = self.lock();
        values.push(Some(value));
        values.len() - 1
    }

    /// Puts `value` at `index` in place of what was kept there (a [`Deferred`] function once
    /// the interpreter has made it).
    pub fn replace(&self, index: usize, value: Kept) {
        if let Some(slot) = self.lock().get_mut(index) {
            *slot = Some(value);
        }
    }

    /// The value kept at `index` (none when the index was reserved).
    pub fn get(&self, index: usize) -> Option<Kept> {
        self.lock().get(index).cloned().flatten()
    }

    /// Whether the value at `index` may be called in a run whose schema's rules and `when=`
    /// predicates call the functions `called` (their indices, [`called_functions`]): one they
    /// call, or any kept value but a [`Deferred`] function none calls (one of a
    /// `#@schema/validation` that a later one on its node replaced: ytt keeps the last, and
    /// never makes the other). A reserved index is never called here.
    pub fn callable(&self, index: usize, called: &std::collections::HashSet<usize>) -> bool {
        self.get(index)
            .is_some_and(|f| called.contains(&index) || !f.is::<Deferred>())
    }

    /// Drops every kept value (a rule call's own table, before the next call).
    pub fn clear(&self) {
        self.lock().clear();
    }

    /// How many indices are taken.
    pub fn len(&self) -> usize {
        self.lock().len()
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, Vec<Option<Kept>>> {
        self.0.lock().unwrap_or_else(PoisonError::into_inner)
    }
}

/// The indices of the functions `schema`'s rules and `when=` predicates call.
pub fn called_functions(schema: &crate::schema::Type) -> std::collections::HashSet<usize> {
    schema.functions().iter().map(|f| f.index).collect()
}

/// A function the literal templater read without an interpreter (a `lambda` or the name of a
/// `def` in a `#@schema/validation` annotation): what `schemac check` evaluates from the rule
/// IR. Should the interpreter be needed for it after all, it evaluates the template again
/// (which it does as the literal templater did: [`crate::template::literal::RuleCode`]) and
/// takes the function the template's annotations passed as the `nth`.
pub struct Deferred {
    pub template: Arc<crate::yaml::parse::RawFile>,
    pub nth: usize,
    /// The run's files, which the template is evaluated with again (its `load()`s, and
    /// `data.read` and `data.list` in its functions).
    pub files: Arc<Vec<(String, crate::inputs::FileText)>>,
}

impl std::fmt::Debug for Functions {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Functions({} kept)", self.len())
    }
}
