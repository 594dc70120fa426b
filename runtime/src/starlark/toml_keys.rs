//! BurntSushi's TOML parser's table of keys (v1.2.1, ytt's `toml.decode`): the tables made by
//! headers, dotted keys and inline tables, which keys are implicit (made by a longer key, so
//! they may be defined once more) and which hold inline arrays, and its refusals of a key
//! defined twice, in its words, and the values it keeps (its `mapping`): a key given again
//! where BurntSushi lets it keeps the value BurntSushi keeps.
//!
//! BurntSushi keys a key's type and whether it is implicit by the key's text (`Key.String`,
//! one text for the tables of an array of tables at one path); here by the key's node in a
//! tree of key parts ([`Paths`]), which is one-to-one with the text, so that no key's whole
//! text is kept: 10,000 keys in a table whose name is 250 KB long were 2.5 GB of texts.

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
    paths: Paths,
    /// The keys whose type is an inline array (the only type BurntSushi's `isArray` asks for).
    arrays: HashSet<usize>,
    implicits: HashSet<usize>,
}

/// Every key met, as a tree of its parts: a key is its node's number, the empty key 0. Two
/// keys are one node exactly when BurntSushi's texts of them are one (a part is written bare
/// or quoted with its quotes escaped, so the text gives back the parts).
struct Paths {
    /// Each node's children by their part.
    children: Vec<HashMap<String, usize>>,
}

impl Paths {
    /// The node of `part` under `parent`, made if new.
    fn child(&mut self, parent: usize, part: &str) -> usize {
        if let Some(&node) = self.children[parent].get(part) {
            return node;
        }
        let node = self.children.len();
        self.children.push(HashMap::new());
        self.children[parent].insert(part.to_string(), node);
        node
    }

    /// The node of `key`'s parts under `parent`, made if new.
    fn node(&mut self, parent: usize, key: &[String]) -> usize {
        key.iter().fold(parent, |node, part| self.child(node, part))
    }

    /// The node of `key`, if it was ever made.
    fn find(&self, key: &[&str]) -> Option<usize> {
        key.iter()
            .try_fold(0, |node, part| self.children[node].get(*part).copied())
    }
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
            paths: Paths {
                children: vec![HashMap::new()],
            },
            arrays: HashSet::new(),
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
        let node = self.paths.node(0, key);
        self.implicits.insert(node);
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
        let mut node = 0;
        for k in parents {
            key_context.push(k.clone());
            node = self.paths.child(node, k);
            if !self.tables[table].contains_key(k) {
                self.implicits.insert(node);
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
        if self.tables[table].contains_key(key) {
            let mut key_context: Vec<&str> = context.iter().map(String::as_str).collect();
            key_context.push(key);
            let node = self.paths.find(&key_context);
            let implicit = node.is_some_and(|node| self.implicits.remove(&node));
            // A key holding an inline array is given its new value.
            if !node.is_some_and(|node| self.arrays.contains(&node)) {
                if implicit {
                    return Ok(());
                }
                let mut key_context = context.to_vec();
                key_context.push(key.to_string());
                let text = key_text(&key_context);
                return Err(format!("Key '{text}' has already been defined."));
            }
        }
        self.tables[table].insert(key.to_string(), value);
        Ok(())
    }

    /// BurntSushi's `setType`: the type of `key` in `context` (of the context itself for "").
    pub(super) fn set_type(&mut self, context: &[String], key: &str, ty: Type) {
        let mut key_context: Vec<&str> = context.iter().map(String::as_str).collect();
        if !key.is_empty() || context.is_empty() {
            key_context.push(key);
        }
        match ty {
            Type::Array => {
                let node = key_context
                    .iter()
                    .fold(0, |node, part| self.paths.child(node, part));
                self.arrays.insert(node);
            }
            // A key never made holds no array to forget.
            Type::Other => {
                if let Some(node) = self.paths.find(&key_context) {
                    self.arrays.remove(&node);
                }
            }
        }
    }
}
