//! What the engine learns of a schema while it checks data values against it (the indexes of
//! its map types' fields, which of its types have rules), kept on the thread for the next run
//! on the same schema: the typed API loads values against one schema again and again, and
//! each load made them again (keys5k: the fields' indexes 0.8M instructions of a 10.6M load).

use std::cell::RefCell;
use std::sync::Arc;

use crate::overlay::KeptIndex;
use crate::schema::{FieldIndexes, Type};
use crate::template::tree::Tree;
use crate::validate::RuleFacts;

/// What is known of one schema's types, by their addresses.
#[derive(Default)]
pub(super) struct SchemaFacts {
    /// The indexes of its map types' fields (see [`FieldIndexes`]).
    pub indexes: FieldIndexes,
    /// Which of its types have rules at or below them (see [`RuleFacts`]).
    pub rules: RuleFacts,
    /// The overlay's indexes of the maps of the schema's defaults' document (see
    /// [`SchemaFacts::defaults_index`]).
    defaults_index: DefaultsIndex,
    /// Whether a map of its defaults has a NaN key (see [`crate::typecheck::defaults_nan_key`]).
    pub defaults_nan_key: Option<bool>,
}

/// The overlay's indexes of the defaults' document, made on the schema's second run.
#[derive(Default)]
enum DefaultsIndex {
    #[default]
    NotYet,
    /// The schema ran once: a process that checks once (`schemac check`, a validator) makes
    /// none, and the overlay indexes only the maps that values merge into.
    RanOnce,
    Made(KeptIndex),
}

impl SchemaFacts {
    /// The indexes that the overlay of the run's data values onto `defaults` (the schema's
    /// defaults' document, made anew for each run) starts from: from the schema's second run
    /// on, a copy of those of the document, made once (the overlay hashed the keys of each
    /// default map that values merge into in every run: keys5k's 51 maps 0.8M instructions of
    /// a 9.6M load; a copy is a few allocations and copies of their tables).
    pub fn defaults_index(&mut self, defaults: &Tree) -> KeptIndex {
        match &self.defaults_index {
            DefaultsIndex::NotYet => {
                self.defaults_index = DefaultsIndex::RanOnce;
                KeptIndex::default()
            }
            DefaultsIndex::RanOnce => {
                let index = KeptIndex::of_document(defaults);
                self.defaults_index = DefaultsIndex::Made(index.clone());
                index
            }
            DefaultsIndex::Made(index) => index.clone(),
        }
    }
}

/// The facts of the schema of the thread's last run, with that schema: held, so that its types
/// stay at the addresses the facts name, and are what they were (an `Arc<Type>` is not
/// changed in place).
struct Kept {
    schema: Arc<Type>,
    facts: SchemaFacts,
}

thread_local! {
    static KEPT: RefCell<Option<Kept>> = const { RefCell::new(None) };
}

/// The facts kept for `schema` (the very `Arc` of the last run), or none yet. They are taken
/// out until [`keep`] puts them back: a run within a run (or after one that panicked) starts
/// afresh.
pub(super) fn take(schema: &Arc<Type>) -> SchemaFacts {
    let kept = KEPT.with(|k| k.borrow_mut().take());
    match kept {
        Some(kept) if Arc::ptr_eq(&kept.schema, schema) => kept.facts,
        _ => SchemaFacts::default(),
    }
}

/// Keeps `facts` of `schema` for the thread's next run.
pub(super) fn keep(schema: Arc<Type>, facts: SchemaFacts) {
    let old = KEPT.with(|k| k.borrow_mut().replace(Kept { schema, facts }));
    drop(old);
}
