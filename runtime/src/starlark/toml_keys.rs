//! BurntSushi's TOML parser's table of keys (v1.2.1, ytt's `toml.decode`): the tables made by
//! headers, dotted keys and inline tables, which keys are implicit (made by a longer key, so
//! they may be defined once more) and which hold inline arrays, and its refusals of a key
//! defined twice, in its words, and the values it keeps (its `mapping`): a key given again
//! where BurntSushi lets it keeps the value BurntSushi keeps.
//!
//! BurntSushi walks each key down from the top and keys its types and implicit keys by the
//! key's whole text, which is the square of the depth (5,000 nested inline tables took it
//! 10 s); here a key is a number made from its parent's and its last part ([`PathId`]), and
//! the parser's [`Context`] keeps the table each of its keys reaches, so each level costs the
//! same.

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

/// A key's parts from the top, as a number: the same parts are the same number, as they are
/// the same text to BurntSushi (its `Key.String`, which quotes a part that is not bare).
type PathId = usize;

/// The path of no parts.
const TOP: PathId = 0;

pub(super) struct Keys {
    /// The tables, the document's own first.
    pub(super) tables: Vec<HashMap<String, Entry>>,
    /// Each path's number, by its parent's number and its last part.
    paths: HashMap<(PathId, String), PathId>,
    types: HashMap<PathId, Type>,
    implicits: HashSet<PathId>,
}

/// BurntSushi's context (the key of the last header, then of dotted keys and inline tables),
/// with the path of each of its prefixes and the table the walk down it from the top reaches.
#[derive(Default)]
pub(super) struct Context {
    pub(super) parts: Vec<String>,
    paths: Vec<PathId>,
    /// The table `parts[..=i]` holds (the last of an array of tables); `None` for a key that
    /// holds none, which only the last part can be (walking on through it is an error).
    tables: Vec<Option<usize>>,
}

impl Context {
    pub(super) fn len(&self) -> usize {
        self.parts.len()
    }

    pub(super) fn truncate(&mut self, len: usize) {
        self.parts.truncate(len);
        self.paths.truncate(len);
        self.tables.truncate(len);
    }

    fn path(&self) -> PathId {
        self.paths.last().copied().unwrap_or(TOP)
    }

    /// The table the context's key holds (the document's for no key), `None` if it holds none.
    fn table(&self) -> Option<usize> {
        self.tables.last().copied().unwrap_or(Some(0))
    }

    fn push(&mut self, part: &str, path: PathId, table: Option<usize>) {
        self.parts.push(part.to_string());
        self.paths.push(path);
        self.tables.push(table);
    }
}

/// A key's parts as BurntSushi's `Key.String` joins them.
pub(super) fn key_text(key: &[String]) -> String {
    let parts: Vec<String> = key.iter().map(|k| maybe_quoted(k)).collect();
    parts.join(".")
}

/// The text of `context`'s key with `last` after it.
fn key_text_with(context: &Context, last: &str) -> String {
    let mut text = key_text(&context.parts);
    if !text.is_empty() {
        text.push('.');
    }
    text + &maybe_quoted(last)
}

impl Keys {
    pub(super) fn new() -> Self {
        Keys {
            tables: vec![HashMap::new()],
            paths: HashMap::new(),
            types: HashMap::new(),
            implicits: HashSet::new(),
        }
    }

    pub(super) fn new_table(&mut self) -> usize {
        self.tables.push(HashMap::new());
        self.tables.len() - 1
    }

    /// The number of the path `parent` then `part`.
    fn path(&mut self, parent: PathId, part: &str) -> PathId {
        let next = self.paths.len() + 1;
        *self.paths.entry((parent, part.to_string())).or_insert(next)
    }

    /// The table `entry` leads into (the last of an array of tables).
    fn inside(entry: &Entry) -> Option<usize> {
        match entry {
            Entry::Table(t) => Some(*t),
            Entry::Tables(ts) => ts.last().copied(),
            Entry::Array(_) | Entry::Scalar(_) => None,
        }
    }

    /// BurntSushi's `addImplicit` of the key `context` then `part`.
    pub(super) fn add_implicit(&mut self, context: &Context, part: &str) {
        let path = self.path(context.path(), part);
        self.implicits.insert(path);
    }

    /// BurntSushi's `addContext` of a header's key, walked from the top: its tables made
    /// (implicitly) and `context` set to it; the table itself defined (or, for `array`, one more
    /// table of its array). `context` is left as it was when a key on the way holds no table
    /// (BurntSushi sets its context after that walk: the error names the last key before).
    pub(super) fn add_context(
        &mut self,
        context: &mut Context,
        key: &[String],
        array: bool,
    ) -> Result<(), String> {
        let Some((last, parents)) = key.split_last() else {
            return Ok(());
        };
        let mut walked = Context::default();
        let mut table = 0;
        for k in parents {
            let path = self.path(walked.path(), k);
            if !self.tables[table].contains_key(k) {
                self.implicits.insert(path);
                let new = self.new_table();
                self.tables[table].insert(k.clone(), Entry::Table(new));
            }
            match Self::inside(&self.tables[table][k]) {
                Some(t) => table = t,
                None => {
                    let k = key_text_with(&walked, k);
                    return Err(format!("Key '{k}' was already created as a hash."));
                }
            }
            walked.push(k, path, Some(table));
        }
        *context = walked;
        self.add_last(context, last, array)
    }

    /// The refusal of BurntSushi's `addContext` when `context`'s key, the parents of a key
    /// one part longer, holds no table.
    pub(super) fn holds_table(&self, context: &Context) -> Result<(), String> {
        match context.table() {
            Some(_) => Ok(()),
            None => {
                let k = key_text(&context.parts);
                Err(format!("Key '{k}' was already created as a hash."))
            }
        }
    }

    /// BurntSushi's `addContext` of `context`'s key then `last` (a part of a dotted key, an
    /// inline table's key): `context` extended by `last`, its table defined (or, for `array`,
    /// one more table of its array).
    pub(super) fn add_context_part(
        &mut self,
        context: &mut Context,
        last: &str,
        array: bool,
    ) -> Result<(), String> {
        self.holds_table(context)?;
        self.add_last(context, last, array)
    }

    /// The last part of `addContext`: `last` defined in the table of `context`, which holds
    /// one, and pushed onto it.
    fn add_last(&mut self, context: &mut Context, last: &str, array: bool) -> Result<(), String> {
        let table = context.table().unwrap_or(0);
        let path = self.path(context.path(), last);
        let new = self.new_table();
        let reached = if array {
            let entry = self.tables[table]
                .entry(last.to_string())
                .or_insert(Entry::Tables(Vec::new()));
            match entry {
                Entry::Tables(ts) => ts.push(new),
                _ => {
                    let k = key_text_with(context, last);
                    return Err(format!(
                        "Key '{k}' was already created and cannot be used as an array."
                    ));
                }
            }
            Some(new)
        } else {
            self.set_value(context, last, Entry::Table(new))?;
            Self::inside(&self.tables[table][last])
        };
        context.push(last, path, reached);
        Ok(())
    }

    /// BurntSushi's `setValue`: `key` given a value in the table of `context` (a key made
    /// implicitly keeps the table it holds; a key holding an inline array takes the new value).
    pub(super) fn set_value(
        &mut self,
        context: &Context,
        key: &str,
        value: Entry,
    ) -> Result<(), String> {
        let Some(table) = context.table() else {
            let k = key_text(&context.parts);
            return Err(format!("Key '{k}' has already been defined."));
        };
        let path = self.path(context.path(), key);
        let defined = self.tables[table].contains_key(key);
        // A key holding an inline array is given its new value.
        if defined && self.types.get(&path) != Some(&Type::Array) {
            if self.implicits.remove(&path) {
                return Ok(());
            }
            let text = key_text_with(context, key);
            return Err(format!("Key '{text}' has already been defined."));
        }
        if defined {
            self.implicits.remove(&path);
        }
        self.tables[table].insert(key.to_string(), value);
        Ok(())
    }

    /// BurntSushi's `setType`: the type of `key` in `context` (of the context itself for "",
    /// and of the key `""` for neither, as BurntSushi's special case has it).
    pub(super) fn set_type(&mut self, context: &Context, key: &str, ty: Type) {
        let path = match (context.len(), key) {
            (0, "") => self.path(TOP, ""),
            (_, "") => context.path(),
            (_, key) => self.path(context.path(), key),
        };
        self.types.insert(path, ty);
    }
}
