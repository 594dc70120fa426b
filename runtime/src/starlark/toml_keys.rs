//! BurntSushi's TOML parser's table of keys (v1.2.1, ytt's `toml.decode`): the tables made by
//! headers, dotted keys and inline tables, which keys are implicit (made by a longer key, so
//! they may be defined once more) and which hold inline arrays, and its refusals of a key
//! defined twice, in its words, and the values it keeps (its `mapping`): a key given again
//! where BurntSushi lets it keeps the value BurntSushi keeps.

use std::collections::{HashMap, HashSet};

use super::toml_module::maybe_quoted;
use crate::value::Value as Data;

/// What a key holds, as BurntSushi's Go values: a table is a `map[string]interface{}` (shared,
/// as a Go map is, by its index), `[[t]]` a `[]map[string]interface{}`, an inline array a
/// `[]interface{}`.
#[derive(Clone)]
pub(super) enum Entry {
    /// A table: its index in [`Keys::tables`].
    Table(usize),
    /// An array of tables (`[[t]]`, or inline tables in an inline array while it is read):
    /// their indexes.
    Tables(Vec<usize>),
    /// An inline array's items.
    Array(Vec<Entry>),
    Scalar(Scalar),
}

/// A value that is no table or array.
#[derive(Clone)]
pub(super) enum Scalar {
    Data(Data),
    /// A date or time, as written: a Go `time.Time`, which ytt cannot make a Starlark value.
    Datetime(String),
}

/// The type BurntSushi records for a key; only an inline array's matters here.
#[derive(Clone, Copy, PartialEq)]
pub(super) enum Type {
    Array,
    Other,
}

pub(super) struct Keys {
    /// The tables, the document's own first.
    pub(super) tables: Vec<HashMap<String, Entry>>,
    types: HashMap<String, Type>,
    implicits: HashSet<String>,
}

/// A key's parts as BurntSushi's `Key.String` joins them.
pub(super) fn key_text(key: &[String]) -> String {
    let parts: Vec<String> = key.iter().map(|k| maybe_quoted(k)).collect();
    parts.join(".")
}

impl Keys {
    pub(super) fn new() -> Self {
        Keys {
            tables: vec![HashMap::new()],
            types: HashMap::new(),
            implicits: HashSet::new(),
        }
    }

    pub(super) fn new_table(&mut self) -> usize {
        self.tables.push(HashMap::new());
        self.tables.len() - 1
    }

    /// The table `entry` leads into (the last of an array of tables).
    fn inside(entry: &Entry) -> Option<usize> {
        match entry {
            Entry::Table(t) => Some(*t),
            Entry::Tables(ts) => ts.last().copied(),
            Entry::Array(_) | Entry::Scalar(_) => None,
        }
    }

    pub(super) fn add_implicit(&mut self, key: &[String]) {
        self.implicits.insert(key_text(key));
    }

    /// BurntSushi's `addContext`: the tables of `key` made (implicitly) and `context` set to
    /// it; the table itself defined (or, for `array`, one more table of its array).
    pub(super) fn add_context(
        &mut self,
        context: &mut Vec<String>,
        key: &[String],
        array: bool,
    ) -> Result<(), String> {
        let Some((last, parents)) = key.split_last() else {
            return Ok(());
        };
        let mut table = 0;
        let mut key_context = Vec::new();
        for k in parents {
            key_context.push(k.clone());
            if !self.tables[table].contains_key(k) {
                self.add_implicit(&key_context);
                let new = self.new_table();
                self.tables[table].insert(k.clone(), Entry::Table(new));
            }
            match Self::inside(&self.tables[table][k]) {
                Some(t) => table = t,
                // (BurntSushi sets its context after this loop: the error names the last key
                // of the context before.)
                None => {
                    let k = key_text(&key_context);
                    return Err(format!("Key '{k}' was already created as a hash."));
                }
            }
        }
        *context = key_context;
        if array {
            let new = self.new_table();
            let entry = self.tables[table]
                .entry(last.clone())
                .or_insert(Entry::Tables(Vec::new()));
            match entry {
                Entry::Tables(ts) => ts.push(new),
                _ => {
                    let k = key_text(key);
                    return Err(format!(
                        "Key '{k}' was already created and cannot be used as an array."
                    ));
                }
            }
        } else {
            let new = self.new_table();
            self.set_value(context, last, Entry::Table(new))?;
        }
        context.push(last.clone());
        Ok(())
    }

    /// BurntSushi's `setValue`: `key` given a value in the table of `context` (a key made
    /// implicitly keeps the table it holds; a key holding an inline array takes the new value).
    pub(super) fn set_value(
        &mut self,
        context: &[String],
        key: &str,
        value: Entry,
    ) -> Result<(), String> {
        let mut table = 0;
        for (i, k) in context.iter().enumerate() {
            let entry = self.tables[table].get(k);
            match entry.and_then(Self::inside) {
                Some(t) => table = t,
                None => {
                    let k = key_text(&context[..=i]);
                    return Err(format!("Key '{k}' has already been defined."));
                }
            }
        }
        let mut key_context = context.to_vec();
        key_context.push(key.to_string());
        let text = key_text(&key_context);
        let defined = self.tables[table].contains_key(key);
        // A key holding an inline array is given its new value.
        if defined && self.types.get(&text) != Some(&Type::Array) {
            if self.implicits.remove(&text) {
                return Ok(());
            }
            return Err(format!("Key '{text}' has already been defined."));
        }
        if defined {
            self.implicits.remove(&text);
        }
        self.tables[table].insert(key.to_string(), value);
        Ok(())
    }

    /// BurntSushi's `setType`: the type of `key` in `context` (of the context itself for "").
    pub(super) fn set_type(&mut self, context: &[String], key: &str, ty: Type) {
        let mut key_context = context.to_vec();
        if !key.is_empty() {
            key_context.push(key.to_string());
        }
        if key_context.is_empty() {
            key_context.push(String::new());
        }
        self.types.insert(key_text(&key_context), ty);
    }
}
