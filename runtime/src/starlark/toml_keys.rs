//! BurntSushi's TOML parser's table of keys (v1.2.1, ytt's `toml.decode`): the tables made by
//! headers, dotted keys and inline tables, which keys are implicit (made by a longer key, so
//! they may be defined once more) and which hold inline arrays, and its refusals of a key
//! defined twice, in its words. It decides only what is refused: the values are the `toml`
//! crate's.

use std::collections::{HashMap, HashSet};

use super::toml_module::maybe_quoted;

/// What a key holds, as far as the refusals go.
#[derive(Clone)]
enum Entry {
    /// A table: its index in [`Keys::tables`].
    Table(usize),
    /// An array of tables (`[[t]]`, or inline tables in an inline array): their indexes.
    Tables(Vec<usize>),
    Other,
}

/// The type BurntSushi records for a key; only an inline array's matters here.
#[derive(Clone, Copy, PartialEq)]
pub(super) enum Type {
    Array,
    Other,
}

/// A value given to a key.
pub(super) enum Value {
    Table,
    Other,
}

pub(super) struct Keys {
    tables: Vec<HashMap<String, Entry>>,
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

    fn new_table(&mut self) -> usize {
        self.tables.push(HashMap::new());
        self.tables.len() - 1
    }

    /// The table `entry` leads into (the last of an array of tables).
    fn inside(entry: &Entry) -> Option<usize> {
        match entry {
            Entry::Table(t) => Some(*t),
            Entry::Tables(ts) => ts.last().copied(),
            Entry::Other => None,
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
                None => {
                    *context = key_context;
                    let k = key_text(context);
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
            self.set_value(context, last, Value::Table)?;
        }
        context.push(last.clone());
        Ok(())
    }

    /// BurntSushi's `setValue`: `key` given a value in the table of `context`.
    pub(super) fn set_value(
        &mut self,
        context: &[String],
        key: &str,
        value: Value,
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
        let entry = match value {
            Value::Table => Entry::Table(self.new_table()),
            Value::Other => Entry::Other,
        };
        self.tables[table].insert(key.to_string(), entry);
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
